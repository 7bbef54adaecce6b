//! Syzygy tablebases in the search: the score scale of tablebase results, the root filter and
//! the WDL probe at interior nodes (step 2b of `node.rs`), after Stockfish.
//!
//! With no tables loaded (`SyzygyPath` empty) nothing here runs: [`TbState::cardinality`] is
//! 0 and the search is exactly the one without tablebases (same bench signature).

use std::sync::Arc;

use super::{MATE_IN_MAX, MAX_PLY, NONE_EVAL, RootMove, Searcher};
use crate::position::Position;
use crate::tb::{Tablebases, Wdl};
use crate::tt::{Bound, score_to_tt};

/// Score of a tablebase win at the root: just below the mate scores.
pub const TB_WIN: i32 = MATE_IN_MAX - 1;
/// Scores at or above this (and below [`MATE_IN_MAX`]) are tablebase wins, `TB_WIN - ply`.
pub const TB_WIN_IN_MAX: i32 = TB_WIN - MAX_PLY as i32;
/// Score of a cursed win (a blessed loss is its negation) when the 50-move rule counts.
pub const TB_CURSED_WIN: i32 = 1;

/// Extra depth given to a tablebase result stored in the TT (Stockfish: 6).
const TB_TT_DEPTH_BONUS: i32 = 6;

/// The tablebase options (`SyzygyPath`, `SyzygyProbeDepth`, `SyzygyProbeLimit`,
/// `Syzygy50MoveRule`).
#[derive(Clone, Debug)]
pub struct SyzygyConfig {
    /// The tables (`None`: off).
    pub tables: Option<Arc<Tablebases>>,
    /// Least remaining depth at which interior nodes are probed (at the largest piece count
    /// probed; fewer pieces are probed at every depth).
    pub probe_depth: i32,
    /// Most pieces of a position that is probed (0: never probe).
    pub probe_limit: usize,
    /// Cursed wins and blessed losses count as draws (true) or as wins and losses.
    pub rule50: bool,
}

impl Default for SyzygyConfig {
    fn default() -> Self {
        SyzygyConfig {
            tables: None,
            probe_depth: 1,
            probe_limit: crate::tb::MAX_TB_PIECES,
            rule50: true,
        }
    }
}

/// Tablebase state of a searcher: the options and what they mean for the current search.
#[derive(Clone, Debug, Default)]
pub(super) struct TbState {
    config: SyzygyConfig,
    /// Positions with at most this many pieces are probed in the search (0: none).
    pub(super) cardinality: usize,
    /// Least depth of a probe at `cardinality` pieces.
    probe_depth: i32,
}

/// What the probe of an interior node says.
pub(super) enum TbProbe {
    /// No result, or one that does not help here.
    None,
    /// The node's value: return it.
    Cutoff(i32),
    /// The value is at least this (a PV node goes on searching for a mate).
    Floor(i32),
    /// The value is at most this.
    Ceiling(i32),
}

/// The search score of a tablebase result `ply` plies from the root.
pub fn tb_score(wdl: Wdl, ply: usize, rule50: bool) -> i32 {
    let win = TB_WIN - ply as i32;
    match wdl {
        Wdl::Win => win,
        Wdl::Loss => -win,
        Wdl::CursedWin if rule50 => TB_CURSED_WIN,
        Wdl::CursedWin => win,
        Wdl::BlessedLoss if rule50 => -TB_CURSED_WIN,
        Wdl::BlessedLoss => -win,
        Wdl::Draw => 0,
    }
}

/// The TT bound of a tablebase score: a win is at least it (the search may find a mate), a
/// loss at most it, a draw exact.
fn tb_bound(score: i32) -> Bound {
    if score >= TB_WIN_IN_MAX {
        Bound::Lower
    } else if score <= -TB_WIN_IN_MAX {
        Bound::Upper
    } else {
        Bound::Exact
    }
}

impl Searcher {
    /// Sets the tablebase options for the searches to come.
    pub fn set_syzygy(&mut self, config: SyzygyConfig) {
        self.tb.config = config;
    }

    /// Root step of a search: works out which positions the search probes and, when the root
    /// itself is in the tables, keeps only the root moves that preserve its best result and
    /// gives them their tablebase score. Returns the number of probes that answered.
    pub(super) fn tb_root(&mut self, pos: &mut Position, root_moves: &mut Vec<RootMove>) -> u64 {
        self.tb.cardinality = 0;
        let Some(tables) = self.tb.config.tables.clone() else {
            return 0;
        };
        let max = tables.max_pieces();
        self.tb.cardinality = self.tb.config.probe_limit.min(max);
        self.tb.probe_depth = if self.tb.config.probe_limit > max {
            0
        } else {
            self.tb.config.probe_depth
        };
        if pos.piece_count() > self.tb.cardinality || pos.has_castling_rights() {
            return 0;
        }
        let moves: Vec<_> = root_moves.iter().map(|rm| rm.mv).collect();
        let Some(ranking) = tables.rank_root_moves(pos, &moves, self.tb.config.rule50) else {
            return 0;
        };
        let best = ranking.ranks.iter().copied().max().unwrap_or(0);
        for ((rm, &rank), &wdl) in root_moves
            .iter_mut()
            .zip(&ranking.ranks)
            .zip(&ranking.results)
        {
            rm.tb_rank = Some(rank);
            rm.tb_score = Some(tb_score(wdl, 0, self.tb.config.rule50));
        }
        root_moves.retain(|rm| rm.tb_rank == Some(best));
        // With DTZ the root filter already keeps the result; probing below the root pays only
        // when WDL alone ranked a win (Stockfish does the same).
        let winning = root_moves.first().and_then(|rm| rm.tb_score).unwrap_or(0) > 0;
        if ranking.by_dtz || !winning {
            self.tb.cardinality = 0;
        }
        moves.len() as u64
    }

    /// The score to report for a root move: its search score, or its tablebase score when the
    /// search found no mate (Stockfish's rule).
    pub(super) fn tb_reported(rm: &RootMove, score: i32) -> i32 {
        match rm.tb_score {
            Some(tb) if score.abs() < MATE_IN_MAX => tb,
            _ => score,
        }
    }

    /// Step 2b of the node search: the WDL probe of a position right after a capture or pawn
    /// move with at most `cardinality` pieces and no castling rights. An exact result, or a
    /// bound that already decides the window, is stored in the TT and returned.
    pub(super) fn tb_probe(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> TbProbe {
        let pieces = pos.piece_count();
        if pieces > self.tb.cardinality
            || (pieces == self.tb.cardinality && depth < self.tb.probe_depth)
            || pos.halfmoves() != 0
            || pos.has_castling_rights()
        {
            return TbProbe::None;
        }
        let Some(wdl) = self
            .tb
            .config
            .tables
            .as_ref()
            .and_then(|t| t.probe_wdl(pos))
        else {
            return TbProbe::None;
        };
        self.stats.tb_hits += 1;
        let score = tb_score(wdl, ply, self.tb.config.rule50);
        let bound = tb_bound(score);
        let decides = match bound {
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            _ => true,
        };
        if decides {
            self.tt.store(
                pos.key(),
                0,
                score_to_tt(score, ply),
                NONE_EVAL as i16,
                (depth + TB_TT_DEPTH_BONUS).min(MAX_PLY as i32 - 1),
                bound,
                false,
            );
            return TbProbe::Cutoff(score);
        }
        match bound {
            Bound::Lower => TbProbe::Floor(score),
            _ => TbProbe::Ceiling(score),
        }
    }
}

/// Keeps a PV node's result within what the tables proved (Stockfish's `maxValue`).
#[inline]
pub(super) fn clamp_to_tb(score: i32, floor: i32, ceiling: i32) -> i32 {
    score.max(floor).min(ceiling)
}
