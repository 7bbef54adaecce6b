//! The aspiration-window driver (`SearchAlgorithm AspirationPVS`, the engine's default): each
//! iteration searches the root with PVS inside a window around the previous score, widened on
//! a fail high or low.

use crate::position::Position;
use crate::search::{
    INFINITE, MATE_IN_MAX, Reporter, RootMove, ScoreBound, SearchControl, Searcher, params,
};

impl Searcher {
    /// One root search of `root_moves[pv_idx..]`, inside aspiration windows around the
    /// previous score that widen on a fail high or low.
    pub(in crate::search) fn aspiration(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) {
        let prev = root_moves[pv_idx].prev_score;
        let mut delta = params::asp_delta();
        let (mut alpha, mut beta) = if depth >= params::asp_min_depth() && prev.abs() < MATE_IN_MAX
        {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            self.stats.root_searches += 1;
            let root = &mut root_moves[pv_idx..];
            let score = self.search_root(pos, root, depth, alpha, beta, ctl, reporter);
            // Stable sort: the best move first, the others keep their previous order.
            root_moves[pv_idx..].sort_by_key(|rm| -rm.score);
            if self.stopped {
                return;
            }
            if score <= alpha {
                self.stats.aspiration_researches += 1;
                if self.elapsed_ms() > 1000 {
                    let rm = &root_moves[pv_idx];
                    reporter.iteration(&self.info(depth as u32, pv_idx, rm, ScoreBound::Upper));
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                self.stats.aspiration_researches += 1;
                if self.elapsed_ms() > 1000 {
                    let rm = &root_moves[pv_idx];
                    reporter.iteration(&self.info(depth as u32, pv_idx, rm, ScoreBound::Lower));
                }
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += (delta * params::asp_growth() / 100).max(1);
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }
}
