//! Move ordering: the memory of what cut before (butterfly, continuation, capture and
//! correction history, counter moves) and the staged move picker that reads it. Both belong to
//! the search, whose parameters (src/search/params.rs) they read.

pub mod history;
pub mod movepick;
