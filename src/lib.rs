//! Nullwindow: a UCI chess engine carrying the whole minimax family.
//!
//! Layers, each depending only on those below it:
//! `uci` → `search` → (`tt`, `eval`, `timeman`, `limits`) → `position`.

pub mod bench;
pub mod eval;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod position;
pub mod search;
pub mod timeman;
pub mod tt;
pub mod uci;
