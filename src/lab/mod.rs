//! The search lab. The explicit-game-tree half: textbook minimax algorithms
//! run on small game trees given as JSON nested arrays, with leaf-evaluation
//! bookkeeping, a step-by-step trace of Stockman's SSS* OPEN list, and SVG
//! drawings. The chess half ([`chess`]): the engine's root drivers measured
//! side by side on chess positions (`nullwindow lab`).
//!
//! * [`tree`]: the [`Tree`] type, its JSON reader and node names (Dewey
//!   notation or letters);
//! * [`algorithms`]: the [`Algorithm`] catalogue, the common
//!   [`SearchResult`], and minimax, negamax, alpha-beta (fail-hard and
//!   fail-soft), NegaScout;
//! * [`sss`]: SSS* and DUAL* with an explicit OPEN list and trace;
//! * [`mt`]: MT (memory-enhanced test) and its drivers MT-SSS*, MT-DUAL*,
//!   C*/MTD-bi, MTD(f);
//! * [`svg`]: drawing a tree with evaluated / visited / never-visited nodes;
//! * [`cli`]: the `nullwindow sss` subcommand ([`cli::run_sss_cli`]);
//! * [`chess`]: the `nullwindow lab` subcommand ([`chess::run_lab_cli`]) and
//!   [`chess::measure`], which runs the engine's drivers at fixed depths.
//!
//! See `docs/lab-trees.md` for usage and for what the tests establish.

pub mod algorithms;
pub mod chess;
pub mod cli;
pub mod mt;
pub mod sss;
pub mod svg;
pub mod tree;

pub use algorithms::{Algorithm, SearchResult};

/// Reads command-line flags in both `--flag value` and `--flag=value` form (the lab commands'
/// shared argument loop).
pub(crate) struct Flags<'a> {
    args: &'a [String],
    i: usize,
    inline: Option<String>,
}

impl<'a> Flags<'a> {
    pub(crate) fn new(args: &'a [String]) -> Flags<'a> {
        Flags {
            args,
            i: 0,
            inline: None,
        }
    }

    /// The next flag (without any `=value` part), or `None` at the end.
    pub(crate) fn next_flag(&mut self) -> Option<String> {
        let a = self.args.get(self.i)?;
        self.i += 1;
        match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => {
                self.inline = Some(v.to_string());
                Some(f.to_string())
            }
            _ => {
                self.inline = None;
                Some(a.clone())
            }
        }
    }

    /// Whether the flag just read carried an `=value` part.
    pub(crate) fn has_inline(&self) -> bool {
        self.inline.is_some()
    }

    /// The value of the flag just read: its `=value` part or the next argument.
    pub(crate) fn value(&mut self, name: &str) -> Result<String, String> {
        if let Some(v) = self.inline.take() {
            return Ok(v);
        }
        let v = self
            .args
            .get(self.i)
            .cloned()
            .ok_or_else(|| format!("{name} needs a value"))?;
        self.i += 1;
        Ok(v)
    }
}
pub use tree::{INF, Naming, NodeId, NodeKind, Tree, TreeSpec, Value};
