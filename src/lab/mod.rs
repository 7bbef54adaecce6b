//! The search lab. The explicit-game-tree half: textbook minimax algorithms
//! run on small game trees given as JSON nested arrays, with leaf-evaluation
//! bookkeeping, a step-by-step trace of Stockman's SSS* OPEN list, and SVG
//! drawings. The chess half ([`chess`]): the engine's root drivers measured
//! side by side on chess positions (`nullwindow lab`).
//!
//! * [`tree`]: the [`Tree`] type, its JSON reader and node names (Dewey
//!   notation or letters);
//! * [`kinds`]: the [`TreeAlgorithm`] catalogue, the common [`SearchResult`]
//!   and the `Recorder` every algorithm counts with (what the files below
//!   share; this module's `TreeAlgorithm::run` picks which one runs);
//! * [`algorithms`]: minimax, negamax, alpha-beta (fail-hard and fail-soft),
//!   NegaScout;
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
pub mod kinds;
pub mod mt;
pub mod sss;
pub mod svg;
pub mod tree;

pub use kinds::{SearchResult, TreeAlgorithm};

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

/// The dispatch: which function of [`algorithms`], [`mt`] or [`sss`] each algorithm runs. It
/// lives above them so that they import only the vocabulary of [`kinds`], never each other.
impl TreeAlgorithm {
    /// Runs the algorithm on `tree` (MTD(f) with first guess 0).
    pub fn run(self, tree: &Tree) -> SearchResult {
        self.run_with_guess(tree, 0)
    }

    /// Runs the algorithm; `guess` is MTD(f)'s first guess and is ignored by
    /// the other algorithms.
    pub fn run_with_guess(self, tree: &Tree, guess: Value) -> SearchResult {
        match self {
            TreeAlgorithm::Minimax => algorithms::minimax(tree),
            TreeAlgorithm::Negamax => algorithms::negamax(tree),
            TreeAlgorithm::AlphaBetaFailHard => algorithms::alpha_beta_fail_hard(tree),
            TreeAlgorithm::AlphaBetaFailSoft => algorithms::alpha_beta_fail_soft(tree),
            TreeAlgorithm::NegaScout => algorithms::negascout(tree),
            TreeAlgorithm::SssStar => sss::sss_star(tree),
            TreeAlgorithm::DualStar => sss::dual_star(tree),
            TreeAlgorithm::MtSssStar => mt::mt_sss_star(tree),
            TreeAlgorithm::MtDualStar => mt::mt_dual_star(tree),
            TreeAlgorithm::MtdBi => mt::mtd_bi(tree),
            TreeAlgorithm::MtdF => mt::mtd_f(tree, guess),
        }
    }
}
