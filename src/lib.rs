//! Nullwindow: a UCI chess engine carrying the whole minimax family.
//!
//! Layers, each depending only on those below it:
//! `uci` → `search` (with its move ordering, `search::ordering`) → (`tt`, `eval`, `timeman`,
//! `limits`, `tb`) →
//! `position` → `movegen` (staged legal move generation on shakmaty);
//! `uci` → `book` (Polyglot opening books, and the `book` tool that builds them) → `position`.
//! `lab` (explicit game trees and the minimax family on them) stands apart from the engine, as
//! do the tools `tune` (Texel tuning of the evaluation weights), `datagen` (self-play games
//! that label quiet positions for it) and `train` (the CPU trainer of the `nnue` network),
//! which read their arguments through `cli`.

pub mod bench;
pub mod book;
pub mod cli;
pub mod datagen;
pub mod eval;
pub mod lab;
pub mod limits;
pub mod movegen;
pub mod nnue;
pub mod position;
pub mod search;
pub mod tb;
pub mod timeman;
pub mod train;
pub mod tt;
pub mod tune;
pub mod uci;
