//! The root drivers: how one iteration of the iterative deepening in [`Searcher::search`]
//! turns root searches into a value. PVS and alpha-beta with a full window are a single root
//! search there; the others live here.
//!
//! [`Searcher::search`]: crate::search::Searcher::search

mod aspiration;
mod mtd;
pub mod sss;
