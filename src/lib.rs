//! Nullwindow: a UCI chess engine carrying the whole minimax family.

pub mod lab;
