//! The node search: fail-soft PVS with the pruning, reduction and extension set, in numbered
//! steps, and the quiescence search. The node type (PV or not) is a compile-time parameter.

use arrayvec::ArrayVec;

use super::params::*;
use super::syzygy::{TB_WIN_IN_MAX, TbProbe, clamp_to_tb};
use super::{
    CURRMOVE_AFTER_MS, DRAW, INFINITE, MATE, MATE_IN_MAX, MAX_PLY, NONE_EVAL, Reporter, RootMove,
    SearchControl, Searcher,
};
use crate::position::{Bitboard, Color, Move, Position};
use crate::search::ordering::history::{
    ContContext, ContKey, CorrKeys, NO_CONT, bonus, slot_threats,
};
use crate::search::ordering::movepick::{MovePicker, Stage, is_noisy};
use crate::tt::{Bound, pack_move, same_move, score_from_tt, score_to_tt};

/// `evalhist`: butterfly history per centipawn of static-eval change a quiet move made, and the
/// most it earns or loses at once (as Stockfish's eval-difference update of the main history).
const EVAL_HIST_SCALE: i32 = 12;
const EVAL_HIST_MAX: i32 = 1600;

/// `hindsight`: a reduced node whose two static evals (its own and its parent's, each from its
/// mover's view) sum above this is quiet for both sides and loses a further ply (Stockfish 17
/// uses 175 to 200 centipawns of its own scale).
const HINDSIGHT_MARGIN: i32 = 175;

/// The history bonus of a quiet move by the static evals before it (`before`, its mover's
/// view) and after it (`after`, the opponent's view): positive when the move left the
/// opponent worse off than the mover's eval said, `−12·(before + after)` within ±1600.
fn eval_hist_bonus(before: i32, after: i32) -> i32 {
    (-EVAL_HIST_SCALE * (before + after)).clamp(-EVAL_HIST_MAX, EVAL_HIST_MAX)
}

/// What a capture wins at most, as delta pruning and capture futility count it: the victim's
/// value (100 for an en-passant pawn), 0 for a move that captures nothing.
#[inline]
fn capture_gain(m: Move) -> i32 {
    match m {
        Move::EnPassant { .. } => 100,
        _ => m.capture().map_or(0, crate::eval::role_value),
    }
}

/// Ordering score of a root move before the first iteration: TT move, captures by victim,
/// promotions, then the rest.
pub(super) fn root_order(pos: &Position, m: Move, tt_move: u16) -> i32 {
    if same_move(tt_move, m) {
        return 1_000_000;
    }
    let mut s = 0;
    if m.is_capture() {
        s += 100_000 + if pos.see_ge(m, 0) { 50_000 } else { 0 };
        s += m.capture().map_or(100, crate::eval::role_value);
    }
    if let Some(p) = m.promotion() {
        s += 50_000 + crate::eval::role_value(p);
    }
    s
}

impl Searcher {
    /// Makes a move and records it on the stack.
    #[inline]
    fn play(&mut self, pos: &mut Position, m: Move, ply: usize, qsearch: bool) {
        let f = &mut self.stack[ply];
        f.mv = Some(m);
        // The legal move's own role and the side to move: the piece on its from square (a
        // castling move's is the king), without looking at the board.
        debug_assert_eq!(
            Some(m.role().of(pos.turn())),
            pos.piece_at(m.from().unwrap_or(m.to()))
        );
        f.piece = Some(m.role().of(pos.turn()));
        if qsearch {
            self.stats.qnodes += 1;
        } else {
            self.stats.nodes += 1;
        }
        // The child's cluster is fetched while the move is made; again after it in the few
        // cases (castling rights, en passant) the early key missed.
        let mut early = 0;
        pos.make_hinted(m, |k| {
            self.tt.prefetch(k);
            early = k;
        });
        if pos.key() != early {
            self.tt.prefetch(pos.key());
        }
    }

    /// Searches the root moves with PVS inside (alpha, beta). Each move that becomes best gets
    /// its score and PV; the others get `-INFINITE` so that a stable sort keeps their order.
    /// After the first second each move is reported to `reporter` as it starts (`currmove`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_root(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> i32 {
        let mut best = -INFINITE;
        let mut best_move = None;
        let old_alpha = alpha;
        let us = pos.turn();
        self.pv_len[0] = 0;
        #[allow(clippy::needless_range_loop)]
        for i in 0..root_moves.len() {
            let m = root_moves[i].mv;
            // `info currmove`: only once the search is long enough for a GUI to show it (helper
            // threads report to a silent reporter). Numbered across the MultiPV lines.
            if self.elapsed_ms() > CURRMOVE_AFTER_MS {
                reporter.current_move(self.root_depth.max(depth) as u32, m, self.pv_idx + i + 1);
            }
            let quiet = !is_noisy(m) && !pos.gives_check(m);
            let nodes_before = self.nodes();
            self.play(pos, m, 0, false);
            let ext = i32::from(self.features.check_ext && pos.is_check());
            let new_depth = depth - 1 + ext;
            let null_window = beta - alpha == 1;
            let score = if null_window && i == 0 && self.mt_pv_line {
                // `mtdpv`: the expected best line as PV nodes, still tested at the null window.
                -self.negamax::<true>(pos, new_depth, -beta, -alpha, 1, false, ctl)
            } else if null_window {
                // MT call: every move tests the same null window.
                -self.negamax::<false>(pos, new_depth, -beta, -alpha, 1, true, ctl)
            } else if i == 0 || !self.pvs {
                -self.negamax::<true>(pos, new_depth, -beta, -alpha, 1, false, ctl)
            } else {
                let r = if self.features.lmr && depth >= lmr_depth() && quiet && i >= 3 {
                    (self.lmr_at(depth, i + 1) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s =
                    -self.negamax::<false>(pos, new_depth - r, -alpha - 1, -alpha, 1, true, ctl);
                if s > alpha && r > 0 {
                    self.stats.lmr_researches += 1;
                    s = -self.negamax::<false>(pos, new_depth, -alpha - 1, -alpha, 1, false, ctl);
                }
                if s > alpha && s < beta {
                    self.stats.pvs_researches += 1;
                    s = -self.negamax::<true>(pos, new_depth, -beta, -alpha, 1, false, ctl);
                }
                s
            };
            pos.unmake();
            root_moves[i].nodes += self.nodes() - nodes_before;
            if self.stopped {
                return best;
            }
            let rm = &mut root_moves[i];
            if i == 0 || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                for k in 0..self.pv_len[1] {
                    if let Some(pm) = self.pv[1][k] {
                        rm.pv.push(pm);
                    }
                }
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    if quiet {
                        let threats = self.history_threats(pos);
                        self.history.update(us, m, threats, bonus(depth));
                    }
                    break;
                }
            }
        }
        if let Some(m) = best_move {
            let bound = bound_of(best, old_alpha, beta, true);
            self.tt.store(
                pos.key(),
                pack_move(m),
                score_to_tt(best, 0),
                NONE_EVAL as i16,
                depth,
                bound,
                true,
            );
        }
        best
    }

    /// The continuation rows of a node at `ply`: the moves 1, 2 and 4 plies back (none for a
    /// null move, before the root, or with continuation history off). Continuation history:
    /// +29.6 [+10.0, +49.4] Elo at 10k nodes/move, 800 games.
    #[inline]
    fn cont_context(&self, ply: usize) -> ContContext {
        if !self.features.cont_history {
            return NO_CONT;
        }
        // Three calls, not `[1, 2, 4].map`: the array map was not inlined.
        let key = |back: usize| {
            let f = self.stack.get(ply.checked_sub(back)?)?;
            Some(ContKey::new(f.piece?, f.mv?))
        };
        [key(1), key(2), key(4)]
    }

    #[inline]
    fn lmr_at(&self, depth: i32, moves: usize) -> i32 {
        self.lmr[(depth as usize).min(63)][moves.min(63)]
    }

    /// The static eval `raw` of `pos` corrected by the correction history of `keys` (no
    /// table in use: `raw` itself), kept inside the range of ordinary scores so that no
    /// correction makes or unmakes a mate or tablebase score.
    #[inline(always)]
    fn corrected_eval(&self, raw: i32, pos: &Position, keys: &CorrKeys) -> i32 {
        if !keys.any() {
            return raw;
        }
        let c = self.history.correction(pos.turn(), keys);
        (raw + c).clamp(-TB_WIN_IN_MAX + 1, TB_WIN_IN_MAX - 1)
    }

    /// The correction-history keys of `pos` for the tables that are on: pawn and non-pawn
    /// structure.
    #[inline]
    fn corr_keys(&self, pos: &Position) -> CorrKeys {
        CorrKeys::new(pos, self.features.corr_hist, self.features.corr_non_pawn)
    }

    /// Whether a table entry searched to `entry_depth` may answer for a search to `depth`:
    /// exactly that depth, or (with `ttdeeper`, the engine's setting) any deeper one. Pure
    /// mode keeps it exact so that every driver searches the same tree.
    #[inline]
    fn tt_depth_usable(&self, entry_depth: i32, depth: i32) -> bool {
        entry_depth == depth || (self.features.tt_deeper && entry_depth > depth)
    }

    /// The squares the opponent attacks, which pick the butterfly history's slot of a quiet
    /// move when `threathist` is on; empty (one slot) when it is off.
    #[inline]
    fn history_threats(&self, pos: &Position) -> Bitboard {
        slot_threats(pos, self.features.threat_hist)
    }

    /// A quiet move `m` proved a fail high at `ply` from the table (a TT or an enhanced
    /// transposition cutoff) without being searched: it earns the history bonus of `depth`.
    #[inline]
    fn reward_table_cutoff(&mut self, pos: &Position, ply: usize, depth: i32, m: Move) {
        if is_noisy(m) {
            return;
        }
        let us = pos.turn();
        let threats = self.history_threats(pos);
        self.history.update(us, m, threats, bonus(depth));
        let cont = self.cont_context(ply);
        self.history.update_cont(&cont, us, m, bonus(depth));
    }

    /// Fail-soft PVS node search. `PV` marks nodes searched with an open window.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax<const PV: bool>(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
        ctl: &SearchControl,
    ) -> i32 {
        // Step 0. Horizon: hand over to quiescence.
        if depth <= 0 {
            self.stats.leaves += 1;
            return self.quiescence::<PV>(pos, alpha, beta, ply, ctl);
        }
        self.stats.interior += 1;
        self.pv_len[ply] = 0;
        if self.check_stop(ctl) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();
        let excluded = self.stack[ply].excluded;

        // Step 1. Draws and mate-distance pruning.
        if pos.is_repetition(self.root_ply)
            || pos.is_fifty_move_draw()
            || pos.is_insufficient_material()
        {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate(pos) };
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 2. Transposition table probe (not in a singular search: its result would be
        // for the node without the excluded move).
        let key = pos.key();
        self.stats.tt_probes += 1;
        let tt = if excluded.is_none() {
            self.tt
                .probe_window(key, alpha, beta, depth, self.features.tt_deeper, ply)
        } else {
            None
        };
        let tt_score = tt.map_or(-INFINITE, |e| score_from_tt(e.score, ply));
        // On a PV now, or (`ttpv`) stored from one: what this node's entries say of it.
        let tt_pv = PV || (self.features.tt_pv && tt.is_some_and(|e| e.pv));
        if let Some(e) = tt {
            self.stats.tt_hits += 1;
            if !PV
                && self.tt_depth_usable(e.depth as i32, depth)
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && tt_score >= beta)
                    || (e.bound == Bound::Upper && tt_score <= alpha))
            {
                self.stats.tt_cutoffs += 1;
                // The move is unpacked (and checked for legality) only where it is used.
                if tt_score >= beta
                    && let Some(m) = pos.unpack_move(e.mv)
                {
                    self.reward_table_cutoff(pos, ply, depth, m);
                }
                return tt_score;
            }
        }

        // Step 2b. Syzygy WDL probe right after a capture or pawn move (see `syzygy.rs`): a
        // result that decides the window is returned; in PV nodes a bound caps the result.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITE, INFINITE);
        if self.tb.cardinality > 0 && excluded.is_none() {
            match self.tb_probe(pos, depth, ply, alpha, beta) {
                TbProbe::Cutoff(s) => return s,
                TbProbe::Floor(s) if PV => tb_floor = s,
                TbProbe::Ceiling(s) if PV => tb_ceiling = s,
                _ => {}
            }
        }

        // Step 3. Static evaluation: the raw one (what the TT stores), corrected by the
        // correction history (what the search reads), refined by the TT bound when it fits.
        let corr_keys = if in_check || excluded.is_some() {
            CorrKeys::default()
        } else {
            self.corr_keys(pos)
        };
        let raw_eval;
        let static_eval;
        let eval;
        if in_check {
            raw_eval = NONE_EVAL;
            static_eval = NONE_EVAL;
            eval = NONE_EVAL;
        } else if excluded.is_some() {
            // The node's own (corrected) static eval, from the search that excluded the move;
            // the raw one is needed only for what a singular search does not do (TT stores).
            static_eval = self.stack[ply].eval;
            raw_eval = static_eval;
            eval = static_eval;
        } else {
            raw_eval = match tt {
                Some(e) if e.eval as i32 != NONE_EVAL && e.bound != Bound::None => e.eval as i32,
                _ => self.evaluate(pos),
            };
            static_eval = self.corrected_eval(raw_eval, pos, &corr_keys);
            eval = match tt {
                Some(e)
                    if tt_score.abs() < MATE_IN_MAX
                        && (e.bound == Bound::Exact
                            || (e.bound == Bound::Lower && tt_score > static_eval)
                            || (e.bound == Bound::Upper && tt_score < static_eval)) =>
                {
                    tt_score
                }
                _ => static_eval,
            };
        }
        self.stack[ply].eval = static_eval;
        // The opponent's last move, if quiet, is judged by the change of the static eval it
        // made (both evals from their mover's view: their sum is what our side lost).
        if self.features.eval_hist
            && ply >= 1
            && static_eval != NONE_EVAL
            && excluded.is_none()
            && self.stack[ply - 1].eval != NONE_EVAL
            && let Some(pm) = self.prior_quiet(ply)
        {
            let b = eval_hist_bonus(self.stack[ply - 1].eval, static_eval);
            self.history
                .update(!pos.turn(), pm, self.stack[ply - 1].threats, b);
        }
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].eval != NONE_EVAL
            && static_eval > self.stack[ply - 2].eval;
        // Hindsight: the reduction of the move into this node, judged now that both sides'
        // static evals are known.
        if self.features.hindsight
            && ply >= 1
            && self.stack[ply - 1].reduction > 0
            && excluded.is_none()
            && static_eval != NONE_EVAL
            && self.stack[ply - 1].eval != NONE_EVAL
        {
            let prior_r = self.stack[ply - 1].reduction;
            let both = static_eval + self.stack[ply - 1].eval;
            if prior_r >= 3 && both <= 2 {
                depth += 1;
            }
            if depth >= 2 && both > HINDSIGHT_MARGIN {
                depth -= 1;
            }
        }
        self.stack[ply + 1].killers = [None; 2];
        self.stack[ply + 1].excluded = None;
        self.stack[ply + 1].double_ext = self.stack[ply].double_ext;

        // Step 4. Whole-node pruning (non-PV, not in check, not in a singular search).
        if !PV && !in_check && excluded.is_none() {
            // 4a. Reverse futility pruning: far above beta at low depth.
            if self.features.rfp
                && !tt_pv
                && depth <= rfp_depth()
                && eval < MATE_IN_MAX
                && eval - rfp_margin() * depth + rfp_improving() * i32::from(improving) >= beta
            {
                self.stats.rfp_cutoffs += 1;
                return (eval + beta) / 2;
            }
            // 4b. Razoring: far below alpha, ask quiescence.
            if self.features.razoring
                && depth <= razor_depth()
                && eval + razor_base() + razor_margin() * depth < alpha
            {
                let q = self.quiescence::<false>(pos, alpha, alpha + 1, ply, ctl);
                if self.stopped {
                    return 0;
                }
                if q <= alpha {
                    self.stats.razor_cutoffs += 1;
                    return q;
                }
            }
            // 4c. Null-move pruning with adaptive reduction and verification at high depth.
            if self.features.nmp
                && depth >= nmp_depth()
                && eval >= beta
                && static_eval >= beta
                && ply >= self.nmp_min_ply
                && self.stack[ply.saturating_sub(1)].mv.is_some()
                && pos.has_non_pawn_material(pos.turn())
                && beta > -MATE_IN_MAX
            {
                let r = nmp_base()
                    + depth / nmp_depth_divisor()
                    + ((eval - beta) / nmp_eval_divisor()).min(nmp_eval_max());
                self.stats.null_tries += 1;
                self.stack[ply].mv = None;
                self.stack[ply].piece = None;
                if pos.make_null() {
                    self.stats.nodes += 1;
                    let score = -self.negamax::<false>(
                        pos,
                        depth - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        !cut_node,
                        ctl,
                    );
                    pos.unmake();
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        let score = if score >= MATE_IN_MAX { beta } else { score };
                        if depth < nmp_verify_depth() || self.nmp_min_ply != 0 {
                            self.stats.null_cutoffs += 1;
                            return score;
                        }
                        // Verification: a reduced normal search with null moves disabled
                        // for the plies near here.
                        self.nmp_min_ply = ply + 3 * (depth - r) as usize / 4;
                        let v =
                            self.negamax::<false>(pos, depth - r, beta - 1, beta, ply, false, ctl);
                        self.nmp_min_ply = 0;
                        if self.stopped {
                            return 0;
                        }
                        if v >= beta {
                            self.stats.null_cutoffs += 1;
                            return score;
                        }
                    }
                }
            }
        }

        // The TT move, unpacked (and checked for legality) only now: the node's own pruning
        // above returns without it.
        let tt_move = tt.and_then(|e| pos.unpack_move(e.mv));

        if !PV && !in_check && excluded.is_none() {
            // 4d. ProbCut: a capture that beats beta by a margin in a reduced search.
            let rbeta = beta + probcut_margin();
            if self.features.probcut
                && depth >= probcut_depth()
                && beta.abs() < MATE_IN_MAX
                && !(tt.is_some_and(|e| {
                    e.depth as i32 > depth - probcut_reduction() && tt_score < rbeta
                }))
            {
                let mut picker = MovePicker::new_qsearch(
                    pos,
                    tt_move.filter(|m| is_noisy(*m)),
                    self.features.capt_history,
                );
                while let Some(m) = picker.next(pos, &self.history) {
                    if !pos.see_ge(m, rbeta - eval) {
                        continue;
                    }
                    self.play(pos, m, ply, false);
                    let mut s = -self.quiescence::<false>(pos, -rbeta, -rbeta + 1, ply + 1, ctl);
                    if s >= rbeta {
                        s = -self.negamax::<false>(
                            pos,
                            depth - probcut_reduction(),
                            -rbeta,
                            -rbeta + 1,
                            ply + 1,
                            !cut_node,
                            ctl,
                        );
                    }
                    pos.unmake();
                    if self.stopped {
                        return 0;
                    }
                    if s >= rbeta {
                        self.stats.probcut_cutoffs += 1;
                        self.tt.store(
                            key,
                            pack_move(m),
                            score_to_tt(s, ply),
                            raw_eval as i16,
                            depth - probcut_reduction() + 1,
                            Bound::Lower,
                            tt_pv,
                        );
                        return s;
                    }
                }
            }
        }

        // Step 5. Internal iterative reduction: without a TT move, search shallower first.
        if self.features.iir && tt_move.is_none() && depth >= iir_depth() && (PV || cut_node) {
            depth -= 1;
        }

        // Step 6. Enhanced transposition cutoffs: a child whose stored upper bound proves that
        // this node fails high. With a TT move the probe waits until that move has failed to
        // cut (step 7d), without one it comes first.
        let etc_here = self.features.etc && !PV && excluded.is_none() && depth >= self.etc_depth;
        if etc_here
            && tt_move.is_none()
            && let Some(s) = self.etc_probe(pos, None, depth, alpha, beta, ply, key, raw_eval)
        {
            return s;
        }

        // Step 7. The move loop.
        let us = pos.turn();
        let prev = if ply >= 1 {
            self.stack[ply - 1].mv.zip(self.stack[ply - 1].piece)
        } else {
            None
        };
        let counter = if self.features.counter {
            prev.and_then(|(m, p)| self.history.counter(p, m))
        } else {
            None
        };
        let killers = if self.features.killers {
            self.stack[ply].killers
        } else {
            [None; 2]
        };
        let cont = self.cont_context(ply);
        let mut picker = MovePicker::new(
            pos,
            tt_move,
            killers,
            counter,
            cont,
            self.features.capt_history,
        );
        // The threats are found when the first quiet move needs them (the picker's quiet
        // stage or a quiet TT move), and stored then for the history updates here and in
        // the child (`evalhist`), which read them only after a quiet move.
        picker.use_threats(self.features.threat_hist);
        let old_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut moves_tried = 0usize;
        // The first 64 quiet and 32 noisy moves searched, for the history updates (lists
        // left uninitialised: filling 96 `None`s was about 1% of the search's instructions).
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut noisy_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let lmp_limit = (lmp_base() + depth * depth) / if improving { 1 } else { 2 };
        // The parts of late move pruning's condition (7a, 7e) that hold for the whole node.
        let lmp_armed =
            self.features.lmp && depth <= lmp_depth() && !in_check && pos.has_non_pawn_material(us);

        while let Some(m) = picker.next(pos, &self.history) {
            if Some(m) == excluded {
                continue;
            }
            let quiet = !is_noisy(m);

            // 7a. Shallow-depth pruning, once a move has saved us from being mated.
            if best_score > -MATE_IN_MAX && pos.has_non_pawn_material(us) {
                if quiet {
                    if lmp_armed && moves_tried as i32 >= lmp_limit {
                        picker.skip_quiets = true;
                        self.stats.moves_pruned += 1;
                        continue;
                    }
                    // Whether the move gives check is asked last: most quiet moves are
                    // pruned, or not, by the other conditions alone.
                    if self.features.futility
                        && depth <= fp_depth()
                        && !in_check
                        && eval + fp_base() + fp_margin() * depth <= alpha
                        && !pos.gives_check(m)
                    {
                        // Per move, not skip_quiets: a quiet check later in the list may
                        // still be searched.
                        self.stats.moves_pruned += 1;
                        continue;
                    }
                }
                if self.features.see_pruning && depth <= see_depth() && moves_tried > 0 {
                    let threshold = if quiet {
                        -see_quiet_margin() * depth
                    } else {
                        -see_noisy_margin() * depth * depth
                    };
                    if !pos.see_ge(m, threshold) {
                        self.stats.moves_pruned += 1;
                        continue;
                    }
                }
            }

            // Plies of LMR that a quiet move's butterfly history takes off (adds, when bad), at
            // most `lmr_history_max` either way; read before the singular search below, which
            // updates the history.
            let hist_plies = if quiet {
                let threats = picker.threats(pos);
                self.stack[ply].threats = threats;
                (self.history.score(us, m, threats) / lmr_history_divisor())
                    .clamp(-lmr_history_max(), lmr_history_max())
            } else {
                0
            };

            // 7b. Extensions: singular (with multi-cut) for the TT move, check extension.
            let mut ext = 0;
            if self.features.singular
                && Some(m) == tt_move
                && excluded.is_none()
                && depth >= se_depth()
                && (ply as i32) < 2 * self.root_depth
                && let Some(e) = tt
                && e.depth as i32 >= depth - se_tt_depth_slack()
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && tt_score.abs() < MATE_IN_MAX
            {
                let sbeta = tt_score - se_margin() * depth / 16;
                let sdepth = (depth - 1) / 2;
                self.stack[ply].excluded = Some(m);
                let s = self.negamax::<false>(pos, sdepth, sbeta - 1, sbeta, ply, cut_node, ctl);
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if s < sbeta {
                    self.stats.singular_extensions += 1;
                    ext = 1;
                    if !PV
                        && s < sbeta - se_double_margin()
                        && self.stack[ply].double_ext < se_double_limit()
                    {
                        ext = 2;
                        self.stack[ply + 1].double_ext = self.stack[ply].double_ext + 1;
                    }
                } else if sbeta >= beta {
                    // Multi-cut: even without the TT move, this node fails high.
                    self.stats.multi_cuts += 1;
                    return sbeta;
                } else {
                    ext = negative_extension(tt_score, beta, depth);
                }
            }

            self.play(pos, m, ply, false);
            let gives_check = pos.is_check();
            if ext == 0
                && self.features.check_ext
                && gives_check
                && (ply as i32) < 2 * self.root_depth
            {
                ext = 1;
            }
            moves_tried += 1;
            if quiet {
                let _ = quiets_tried.try_push(m);
            } else {
                let _ = noisy_tried.try_push(m);
            }
            let new_depth = depth - 1 + ext;

            // 7c. PVS with late move reductions (AlphaBeta driver: open windows throughout).
            let score = if !self.pvs && PV {
                let r = if self.features.lmr
                    && depth >= lmr_depth()
                    && moves_tried > lmr_min_moves() as usize + 1
                    && quiet
                {
                    (self.lmr_at(depth, moves_tried) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s =
                    -self.negamax::<true>(pos, new_depth - r, -beta, -alpha, ply + 1, false, ctl);
                if s > alpha && r > 0 {
                    self.stats.lmr_researches += 1;
                    s = -self.negamax::<true>(pos, new_depth, -beta, -alpha, ply + 1, false, ctl);
                }
                s
            } else if moves_tried == 1 {
                -self.negamax::<PV>(
                    pos,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    !PV && !cut_node,
                    ctl,
                )
            } else {
                let mut r = 0;
                if self.features.lmr
                    && depth >= lmr_depth()
                    && moves_tried > lmr_min_moves() as usize + usize::from(PV)
                    && (quiet || picker.stage() == Stage::BadCaptures)
                {
                    r = self.lmr_at(depth, moves_tried);
                    r -= i32::from(tt_pv);
                    r += i32::from(!improving);
                    r += i32::from(cut_node);
                    r -= i32::from(gives_check);
                    r -= hist_plies;
                    r = r.clamp(0, new_depth - 1);
                }
                self.stack[ply].reduction = r;
                let mut s = -self.negamax::<false>(
                    pos,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                    ctl,
                );
                self.stack[ply].reduction = 0;
                if s > alpha && r > 0 {
                    self.stats.lmr_researches += 1;
                    s = -self.negamax::<false>(
                        pos,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        !cut_node,
                        ctl,
                    );
                }
                if PV && s > alpha && s < beta {
                    self.stats.pvs_researches += 1;
                    s = -self.negamax::<true>(pos, new_depth, -beta, -alpha, ply + 1, false, ctl);
                }
                s
            };
            pos.unmake();
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let idx = (moves_tried - 1).min(7);
                        self.stats.cutoffs_by_index[idx] += 1;
                        if quiet {
                            self.reward_quiet(pos, ply, depth, m, &quiets_tried, prev, &cont);
                        }
                        if self.features.capt_history {
                            self.reward_capture(us, depth, m, &noisy_tried);
                        }
                        break;
                    }
                }
            }

            // 7d. The TT move did not cut: does a child's stored bound prove a cutoff?
            if etc_here
                && moves_tried == 1
                && tt_move == Some(m)
                && let Some(s) =
                    self.etc_probe(pos, Some(m), depth, alpha, beta, ply, key, raw_eval)
            {
                return s;
            }

            // 7e. Late move pruning (7a) now skips every quiet move the picker would yield: its
            // condition only grows true as moves are searched. Said before the picker reaches
            // the quiets, it generates only the quiet queen promotions (which 7a does not
            // prune), in the order it would have yielded them, instead of every quiet move
            // for the first to be pruned.
            if lmp_armed
                && !picker.skip_quiets
                && moves_tried as i32 >= lmp_limit
                && best_score > -MATE_IN_MAX
            {
                picker.skip_quiets = true;
                self.stats.moves_pruned += 1;
            }
        }

        // Step 8. No legal move: mate or stalemate (or, in a singular search, fail low).
        // Pruning starts only after a move was searched, so no move tried means none exists.
        if moves_tried == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                DRAW
            };
        }

        // Step 9. Store the result (within the tablebase bounds of step 2b), and learn the gap
        // between it and the static eval.
        best_score = clamp_to_tb(best_score, tb_floor, tb_ceiling);
        if excluded.is_none() {
            let bound = bound_of(best_score, old_alpha, beta, true);
            // Correction history: only from a score that says on which side of the static
            // eval the truth lies (a fail high above it, a fail low below it, an exact score),
            // not from mate or tablebase scores, and not when a capture or promotion was best
            // (the static eval does not see those; quiescence answers them).
            if corr_keys.any()
                && best_move.is_none_or(|m| !is_noisy(m))
                && best_score.abs() < TB_WIN_IN_MAX
                && !(bound == Bound::Lower && best_score <= static_eval)
                && !(bound == Bound::Upper && best_score >= static_eval)
            {
                self.history
                    .update_correction(us, &corr_keys, best_score - static_eval, depth);
            }
            self.tt.store(
                key,
                best_move.map_or(0, pack_move),
                score_to_tt(best_score, ply),
                raw_eval.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16,
                depth,
                bound,
                tt_pv,
            );
        }
        best_score
    }

    /// Enhanced transposition cutoffs: looks up every child but `searched` in the table (by
    /// [`Position::key_after`], without making the moves) for a bound of depth ≥ `depth − 1`
    /// (exactly that depth without `ttdeeper`, as the pure lab setting wants) that proves this
    /// node fails high. A proof is stored as a lower bound with its move, so the next visit
    /// cuts at once and searches that move first.
    #[allow(clippy::too_many_arguments)]
    fn etc_probe(
        &mut self,
        pos: &Position,
        searched: Option<Move>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        key: u64,
        raw_eval: i32,
    ) -> Option<i32> {
        self.stats.etc_probes += 1;
        for m in pos.legal_moves() {
            if Some(m) == searched {
                continue;
            }
            // The table does not know the path: a child the search would score a draw is not
            // judged by its entry.
            let child = pos.key_after(m);
            if pos.child_may_be_drawn(m, child) {
                continue;
            }
            let Some(c) = self.tt.probe_window(
                child,
                -beta,
                -alpha,
                depth - 1,
                self.features.tt_deeper,
                ply + 1,
            ) else {
                continue;
            };
            let s = -score_from_tt(c.score, ply + 1);
            if self.tt_depth_usable(c.depth as i32, depth - 1)
                && matches!(c.bound, Bound::Upper | Bound::Exact)
                && s >= beta
            {
                self.stats.etc_cutoffs += 1;
                self.reward_table_cutoff(pos, ply, depth, m);
                self.tt.store(
                    key,
                    pack_move(m),
                    score_to_tt(s, ply),
                    raw_eval as i16,
                    depth,
                    Bound::Lower,
                    false,
                );
                return Some(s);
            }
        }
        None
    }

    /// History bonus for the quiet move that cut, malus for the quiets tried before it (in the
    /// butterfly table and in the continuation rows of `cont`); killer and counter-move updates.
    #[allow(clippy::too_many_arguments)]
    fn reward_quiet(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        m: Move,
        tried: &[Move],
        prev: Option<(Move, crate::position::Piece)>,
        cont: &ContContext,
    ) {
        let us = pos.turn();
        let b = bonus(depth);
        let others = others_than(tried, m);
        if self.features.history {
            // The node's threats, found before its move loop (empty without `threathist`).
            let threats = self.stack[ply].threats;
            self.history.update(us, m, threats, b);
            for q in others {
                self.history.update(us, *q, threats, -b);
            }
        }
        self.history.update_cont(cont, us, m, b);
        for q in others {
            self.history.update_cont(cont, us, *q, -b);
        }
        let k = &mut self.stack[ply].killers;
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some((pm, pp)) = prev {
            self.history.set_counter(pp, pm, m);
        }
    }

    /// The opponent's move into the node at `ply` when it was a real, quiet move (the move
    /// that `evalhist` rewards).
    #[inline(always)]
    fn prior_quiet(&self, ply: usize) -> Option<Move> {
        let f = self.stack.get(ply.checked_sub(1)?)?;
        f.mv.filter(|m| !is_noisy(*m))
    }

    /// Capture history after a cutoff: bonus to the noisy move that cut (if it is one), malus
    /// to the noisy moves tried before it (whatever cut). Capture history (ordering and SEE
    /// threshold): +15.1 [−5.4, +35.6] at 20k nodes/move, 600 games (ordering by history / 2;
    /// by history / 8 +9.6 [−9.0, +28.1] at 10k, 800 games): no gain shown, off by default.
    fn reward_capture(&mut self, us: Color, depth: i32, m: Move, tried: &[Move]) {
        let b = bonus(depth);
        if is_noisy(m) {
            self.history.update_capture(us, m, b);
        }
        for c in others_than(tried, m) {
            self.history.update_capture(us, *c, -b);
        }
    }

    /// Quiescence search: stand pat, captures and queen promotions (all evasions in check),
    /// SEE and delta pruning, TT probe and store.
    pub(super) fn quiescence<const PV: bool>(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &SearchControl,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = 0;
        }
        if self.check_stop(ctl) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.is_repetition(self.root_ply)
            || pos.is_fifty_move_draw()
            || pos.is_insufficient_material()
        {
            return DRAW;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate(pos) };
        }

        let key = pos.key();
        self.stats.tt_probes += 1;
        let tt = self
            .tt
            .probe_window(key, alpha, beta, 0, self.features.tt_deeper, ply);
        let mut tt_move = None;
        if let Some(e) = tt {
            self.stats.tt_hits += 1;
            let s = score_from_tt(e.score, ply);
            if !PV
                && self.tt_depth_usable(e.depth as i32, 0)
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && s >= beta)
                    || (e.bound == Bound::Upper && s <= alpha))
            {
                self.stats.tt_cutoffs += 1;
                return s;
            }
            tt_move = pos.unpack_move(e.mv);
        }

        let old_alpha = alpha;
        let mut best_score;
        let raw_eval;
        let stand_pat;
        if in_check {
            best_score = -INFINITE;
            raw_eval = NONE_EVAL;
            stand_pat = NONE_EVAL;
        } else {
            raw_eval = match tt {
                Some(e) if e.eval as i32 != NONE_EVAL => e.eval as i32,
                _ => self.evaluate(pos),
            };
            // With `corrqs` the stand pat is corrected as the main search's static eval is.
            stand_pat = if self.features.corr_qsearch {
                let keys = self.corr_keys(pos);
                self.corrected_eval(raw_eval, pos, &keys)
            } else {
                raw_eval
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }

        let mut picker = MovePicker::new_qsearch(pos, tt_move, self.features.capt_history);
        picker.use_threats(in_check && self.features.threat_hist);
        let mut best_move: Option<Move> = None;
        let mut searched = 0;
        while let Some(m) = picker.next(pos, &self.history) {
            if !in_check {
                // Delta pruning: even winning the piece cannot lift us to alpha.
                if self.features.delta
                    && m.promotion().is_none()
                    && stand_pat + capture_gain(m) + delta_margin() <= alpha
                {
                    continue;
                }
                // SEE pruning: skip captures that lose material.
                if self.features.qs_see && !pos.see_ge(m, qs_see_margin()) {
                    continue;
                }
            }
            searched += 1;
            self.play(pos, m, ply, true);
            let score = -self.quiescence::<PV>(pos, -beta, -alpha, ply + 1, ctl);
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && searched == 0 {
            return -MATE + ply as i32;
        }
        let bound = bound_of(best_score, old_alpha, beta, PV);
        self.tt.store(
            key,
            best_move.map_or(0, pack_move),
            score_to_tt(best_score, ply),
            raw_eval.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16,
            0,
            bound,
            PV || tt.is_some_and(|e| e.pv),
        );
        best_score
    }
}

/// The moves of `tried` other than `m`, the move that cut: every move is tried once and
/// listed as it is tried, so `m` can only be the last (or missing, from a full list or of the
/// other kind); no move needs comparing but that one.
#[inline]
fn others_than(tried: &[Move], m: Move) -> &[Move] {
    debug_assert!(!tried[..tried.len().saturating_sub(1)].contains(&m));
    match tried.split_last() {
        Some((last, rest)) if *last == m => rest,
        _ => tried,
    }
}

/// The extension of a TT move that the singular search found not singular: the other moves
/// reached singular beta but not beta (no multi-cut). One ply off when the TT score is at least
/// beta, never so much that the move's depth `depth − 1 + ext` falls below one ply: the LMR
/// clamps of the move loop need a depth of at least 1.
#[inline]
pub(super) fn negative_extension(tt_score: i32, beta: i32, depth: i32) -> i32 {
    (-i32::from(tt_score >= beta)).max((2 - depth).min(0))
}

/// The kind of bound a fail-soft result is, given the window it was searched with. Without
/// `exact_ok` (quiescence at non-PV nodes) a result inside the window is stored as an upper bound.
#[inline]
fn bound_of(best: i32, old_alpha: i32, beta: i32, exact_ok: bool) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if exact_ok && best > old_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_hist_bonus_rewards_a_move_that_raised_its_movers_eval() {
        // +30 before the move; the opponent then stands at −50: the move gained 20.
        assert_eq!(eval_hist_bonus(30, -50), 240);
        assert_eq!(eval_hist_bonus(30, -10), -240);
        assert_eq!(eval_hist_bonus(30, -30), 0);
        assert_eq!(eval_hist_bonus(0, -900), EVAL_HIST_MAX);
        assert_eq!(eval_hist_bonus(0, 900), -EVAL_HIST_MAX);
    }

    #[test]
    fn negative_extension_keeps_a_ply_and_takes_one_off_above_beta() {
        let beta = 100;
        for depth in 1..=40 {
            for tt_score in [150, 100, 90, -500] {
                let ext = negative_extension(tt_score, beta, depth);
                assert!(ext <= 0);
                assert!(depth - 1 + ext >= 1 || ext == 0, "depth {depth} ext {ext}");
            }
        }
        assert_eq!(negative_extension(150, beta, 10), -1);
        assert_eq!(negative_extension(100, beta, 10), -1);
        assert_eq!(negative_extension(90, beta, 10), 0);
        assert_eq!(negative_extension(150, beta, 2), 0);
    }
}
