//! The null-window drivers (`SearchAlgorithm MTDf`, `MTDbi`, `MTSSS`, `MTDUAL`): each
//! iteration is a sequence of MT calls, root searches with the window `(gamma - 1, gamma)`,
//! until the bounds meet; MTD(f) as engines played it has the refinements of the `mtd*`
//! switches and ends a non-converging iteration with one window search.

use crate::position::Position;
use crate::search::{
    Algorithm, INFINITE, MATE_IN_MAX, Reporter, RootMove, SearchControl, Searcher, params,
};

impl Searcher {
    /// One iteration of a null-window driver: MT calls (root searches with the window
    /// `(gamma - 1, gamma)`) until the lower and upper bounds meet. The best move is the one
    /// that failed high last; the PV is read from the TT.
    ///
    /// MTD(f) as engines played it (each part a [`Features`](crate::search::Features) switch, off in pure mode, so
    /// that the lab's MTD(f) stays Plaat's):
    /// - `mtdavg`: the first guess is the mean of the last two iterations' values
    ///   (`prev2`, `-INFINITE` if there is none) rather than the last one alone;
    /// - `mtdstep`: the first pass after a change of direction tests just past the
    ///   fail-soft value, as Plaat's MTD(f) does; each further pass that moves the same
    ///   bound steps `mtd_step_x100`/100 times further (1, 2, 4, ... cp), and once both
    ///   bounds are known never past their midpoint, which bisects a wide interval;
    /// - `mtdfallback`: after `mtd_max_passes` passes without convergence (the bounds of a
    ///   pruned, reduced search need not agree from pass to pass), one PVS search with the
    ///   window just outside the bounds found (widened to infinity on its side if it fails)
    ///   ends the iteration with an exact value and a PV from the search;
    /// - `mtdpv`: each pass searches the best root move so far as a PV node (its first line
    ///   is pruned and reduced as PVS's principal variation is), the rest as cut nodes.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search) fn mtd(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [RootMove],
        depth: i32,
        algorithm: Algorithm,
        prev2: i32,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) {
        let enhanced = algorithm == Algorithm::MtdF;
        let (avg, steps, fallback) = (
            enhanced && self.features.mtd_avg,
            enhanced && self.features.mtd_steps,
            enhanced && self.features.mtd_fallback,
        );
        let guess = match root_moves[0].prev_score {
            s if s == -INFINITE => 0,
            s if avg
                && prev2 != -INFINITE
                && s.abs() < MATE_IN_MAX
                && prev2.abs() < MATE_IN_MAX =>
            {
                (s + prev2).div_euclid(2)
            }
            s => s,
        };
        let (mut lower, mut upper) = (-INFINITE, INFINITE);
        let mut g = guess;
        // Direction of the last pass (+1: fail high, -1: fail low, 0: none yet) and the step
        // past the fail-soft value of the next pass (`mtdstep`).
        let (mut dir, mut step) = (0i32, 1i32);
        let mut passes = 0;
        loop {
            let gamma = match algorithm {
                Algorithm::MtSss => upper,
                Algorithm::MtDual => lower + 1,
                Algorithm::MtdBi => {
                    if lower == -INFINITE && upper == INFINITE {
                        guess.max(-INFINITE + 1)
                    } else {
                        lower + (upper - lower + 1) / 2
                    }
                }
                _ if steps && dir != 0 => {
                    // Test `gamma`: a fail high proves `>= gamma`, a fail low `< gamma`;
                    // `lower < gamma <= upper` guarantees progress.
                    let both = lower > -INFINITE && upper < INFINITE;
                    let mid = lower + (upper - lower + 1) / 2;
                    let t = if dir > 0 {
                        let t = lower.saturating_add(step);
                        if both { t.min(mid) } else { t }
                    } else {
                        let t = upper.saturating_add(1).saturating_sub(step);
                        if both { t.max(mid) } else { t }
                    };
                    t.clamp(lower + 1, upper)
                }
                _ => {
                    if g == lower {
                        g + 1
                    } else {
                        g
                    }
                }
            };
            self.stats.root_searches += 1;
            let v = self.search_root(pos, root_moves, depth, gamma - 1, gamma, ctl, reporter);
            root_moves.sort_by_key(|rm| -rm.score);
            if self.stopped {
                return;
            }
            let d = if v >= gamma {
                lower = v;
                1
            } else {
                upper = v;
                -1
            };
            step = if d == dir {
                (step.saturating_mul(params::mtd_step_x100()) / 100)
                    .max(step + 1)
                    .min(INFINITE)
            } else {
                1
            };
            dir = d;
            g = v;
            if lower >= upper {
                break;
            }
            passes += 1;
            if fallback && passes >= params::mtd_max_passes() {
                self.mtd_window(pos, root_moves, depth, lower, upper, ctl, reporter);
                return;
            }
        }
        let best = &mut root_moves[0];
        best.score = lower;
        best.pv = self.pv_from_tt(pos, best.mv, depth as usize);
    }

    /// The end of an MTD(f) iteration that did not converge: a PVS search with the window
    /// `(lower - 1, upper + 1)` around the bounds the MT passes found, widened to infinity on
    /// the side it fails (the bounds of a pruned search are not proofs).
    #[allow(clippy::too_many_arguments)]
    fn mtd_window(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [RootMove],
        depth: i32,
        lower: i32,
        upper: i32,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) {
        self.stats.mtd_fallbacks += 1;
        let mut alpha = (lower - 1).max(-INFINITE);
        let mut beta = (upper + 1).min(INFINITE);
        loop {
            self.stats.root_searches += 1;
            let score = self.search_root(pos, root_moves, depth, alpha, beta, ctl, reporter);
            root_moves.sort_by_key(|rm| -rm.score);
            if self.stopped {
                return;
            }
            if score <= alpha && alpha > -INFINITE {
                alpha = -INFINITE;
            } else if score >= beta && beta < INFINITE {
                beta = INFINITE;
            } else {
                return;
            }
        }
    }
}
