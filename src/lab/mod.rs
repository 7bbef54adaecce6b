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
pub use tree::{INF, Naming, NodeId, NodeKind, Tree, TreeSpec, Value};
