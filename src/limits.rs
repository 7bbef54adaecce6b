//! What a `go` command asks for, parsed once into a type.

use crate::position::Move;

/// The clock of both sides, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's remaining time.
    pub wtime: Option<u64>,
    /// Black's remaining time.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: u64,
    /// Black's increment.
    pub binc: u64,
    /// Moves to the next time control (None: sudden death).
    pub movestogo: Option<u32>,
}

/// Limits of one search.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Clock state (`wtime` and friends); used when `movetime` is not given.
    pub clock: Clock,
    /// Search exactly this many plies deep (iterations 1..=depth).
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (a soft limit for tools such
    /// as data generation; `nodes` stays the hard one).
    pub soft_nodes: Option<u64>,
    /// Think exactly this long (ms).
    pub movetime: Option<u64>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in ponder mode (until `ponderhit` or `stop`).
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
    /// `go perft N` (handled by the UCI layer, not the search).
    pub perft: Option<u32>,
}

impl SearchLimits {
    /// True when the search is limited by the clock (and so needs the time manager).
    pub fn uses_clock(&self) -> bool {
        self.movetime.is_some() || self.clock.wtime.is_some() || self.clock.btime.is_some()
    }
}
