//! The search: iterative deepening over a fail-soft alpha-beta node search with a Zobrist
//! transposition table and a quiescence search.
//!
//! The search never prints: it reports through the [`Reporter`] trait, and the UCI layer turns
//! reports into `info` lines.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::eval::{Evaluator, role_value};
use crate::limits::SearchLimits;
use crate::position::{Move, MoveList, Position, Role};
use crate::timeman::{self, TimeBounds};
use crate::tt::{Bound, TranspositionTable, pack_move, same_move, score_from_tt, score_to_tt};

/// Deepest ply the search reaches (stack and PV sizes).
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root.
pub const MATE: i32 = 32000;
/// Larger than any score.
pub const INFINITE: i32 = 32001;
/// Scores at or above this are mates.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// The draw score.
pub const DRAW: i32 = 0;

/// Flags shared between the UCI thread and the search.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while the engine ponders; clearing it (`ponderhit`) starts the clock.
    pub pondering: AtomicBool,
}

/// Options that shape a search (from UCI options).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept back for communication delays.
    pub move_overhead_ms: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead_ms: 10,
        }
    }
}

/// Kind of score in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The exact score of the line.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One line of search progress (one PV of one iteration).
#[derive(Clone, Debug)]
pub struct IterationInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the PV (MultiPV).
    pub multipv: usize,
    /// Score from the side to move's view (mate scores as `MATE - plies`).
    pub score: i32,
    /// Whether the score is exact or a bound.
    pub bound: ScoreBound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// TT fill in permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Receives search progress. The UCI layer formats it; tests collect it.
pub trait Reporter {
    /// A PV line of a completed (or cut) iteration.
    fn iteration(&mut self, info: &IterationInfo);
}

/// A reporter that ignores everything (bench, tests).
pub struct SilentReporter;
impl Reporter for SilentReporter {
    fn iteration(&mut self, _info: &IterationInfo) {}
}

/// What a search returns.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Best move (None only when there is no legal move).
    pub best: Option<Move>,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Converts a score into the UCI form: `(is_mate, value)` with the mate value in moves.
pub fn uci_score(score: i32) -> (bool, i32) {
    if score >= MATE_IN_MAX {
        (true, (MATE - score + 1) / 2)
    } else if score <= -MATE_IN_MAX {
        (true, -(MATE + score) / 2)
    } else {
        (false, score)
    }
}

struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
}

/// The searcher: owns the transposition table and per-search state.
pub struct Searcher {
    /// The transposition table (kept across searches of a game).
    pub tt: TranspositionTable,
    /// Static evaluation with its pawn hash table.
    evaluator: Evaluator,
    nodes: u64,
    seldepth: usize,
    root_ply: usize,
    start: Instant,
    bounds: Option<TimeBounds>,
    node_limit: u64,
    stopped: bool,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
}

type MoveScores = [i32; 256];

impl Searcher {
    /// A searcher with a `hash_mb` MB table.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            evaluator: Evaluator::new(),
            nodes: 0,
            seldepth: 0,
            root_ply: 0,
            start: Instant::now(),
            bounds: None,
            node_limit: u64::MAX,
            stopped: false,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
        }
    }

    /// Forgets everything learned in earlier searches (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.evaluator.clear();
    }

    /// Nodes searched by the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `root` within `limits`, reporting each iteration to `reporter`.
    pub fn search(
        &mut self,
        root: &Position,
        limits: &SearchLimits,
        opts: &SearchOptions,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        let mut pos = root.clone();
        pos.clear_undo();
        self.root_ply = pos.game_ply();
        self.bounds = timeman::bounds(limits, pos.turn(), opts.move_overhead_ms);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);

        let legal = pos.legal_moves();
        let mut root_moves: Vec<RootMove> = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                pv: vec![mv],
            })
            .collect();
        if root_moves.is_empty() {
            return SearchResult::default();
        }
        // Order the root once by the quick capture heuristic; later iterations sort by score.
        let tt_move = self.tt.probe(pos.key()).map_or(0, |e| e.mv);
        root_moves.sort_by_key(|rm| -order_score(&pos, rm.mv, tt_move));

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = opts.multipv.clamp(1, root_moves.len());
        let mut result = SearchResult {
            best: Some(root_moves[0].mv),
            ..Default::default()
        };

        for depth in 1..=max_depth {
            self.seldepth = 0;
            for rm in root_moves.iter_mut() {
                rm.prev_score = rm.score;
                rm.score = -INFINITE;
            }
            for pv_idx in 0..multipv {
                self.search_root(&mut pos, &mut root_moves[pv_idx..], depth as i32, ctl);
                if self.stopped {
                    break;
                }
                // Stable sort keeps the previous order among equal scores.
                root_moves[pv_idx..].sort_by_key(|rm| -rm.score);
                for (i, rm) in root_moves.iter().enumerate().take(pv_idx + 1) {
                    reporter.iteration(&IterationInfo {
                        depth,
                        seldepth: self.seldepth.max(1) as u32,
                        multipv: i + 1,
                        score: rm.score,
                        bound: ScoreBound::Exact,
                        nodes: self.nodes,
                        time_ms: self.elapsed_ms(),
                        hashfull: self.tt.hashfull(),
                        pv: rm.pv.clone(),
                    });
                }
            }
            if self.stopped {
                break;
            }
            let best = &root_moves[0];
            result.best = Some(best.mv);
            result.ponder = best.pv.get(1).copied();
            result.score = best.score;
            result.depth = depth;

            if let Some(n) = limits.mate
                && best.score >= MATE_IN_MAX
                && (MATE - best.score + 1) / 2 <= n as i32
            {
                break;
            }
            if !ctl.pondering.load(Ordering::Relaxed)
                && let Some(b) = self.bounds
                && self.elapsed_ms() >= b.soft_ms
            {
                break;
            }
        }
        result.nodes = self.nodes;
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            result.ponder = self.ponder_from_tt(&mut pos, best);
        }
        result
    }

    fn ponder_from_tt(&self, pos: &mut Position, best: Move) -> Option<Move> {
        pos.make(best);
        let reply = self
            .tt
            .probe(pos.key())
            .and_then(|e| pos.legal_moves().into_iter().find(|&m| same_move(e.mv, m)));
        pos.unmake();
        reply
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Checks the node budget, the stop flag and (every 1024 nodes) the clock.
    #[inline]
    fn check_stop(&mut self, ctl: &SearchControl) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            if ctl.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if ctl.pondering.load(Ordering::Relaxed) {
                // Keep the clock at zero until ponderhit.
                self.start = Instant::now();
            } else if let Some(b) = self.bounds
                && self.elapsed_ms() >= b.hard_ms
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Searches every root move with a full window; fills each root move's score and PV.
    fn search_root(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [RootMove],
        depth: i32,
        ctl: &SearchControl,
    ) {
        let mut alpha = -INFINITE;
        let beta = INFINITE;
        for rm in root_moves.iter_mut() {
            self.nodes += 1;
            pos.make(rm.mv);
            let score = -self.negamax(pos, depth - 1, -beta, -alpha, 1, ctl);
            pos.unmake();
            if self.stopped {
                return;
            }
            rm.score = score;
            if score > alpha {
                alpha = score;
            }
            rm.pv.clear();
            rm.pv.push(rm.mv);
            for i in 0..self.pv_len[1] {
                if let Some(m) = self.pv[1][i] {
                    rm.pv.push(m);
                }
            }
        }
        if let Some(best) = root_moves.iter().max_by_key(|rm| rm.score) {
            self.tt.store(
                pos.key(),
                pack_move(best.mv),
                score_to_tt(best.score, 0),
                0,
                depth,
                Bound::Exact,
            );
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = Some(m);
        let child_len = self.pv_len[ply + 1];
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// Fail-soft alpha-beta.
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &SearchControl,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, ctl);
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
        if ply >= MAX_PLY - 1 {
            return self.evaluator.evaluate(pos);
        }

        let key = pos.key();
        let tt_entry = self.tt.probe(key);
        let mut tt_move = 0;
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if e.depth as i32 >= depth
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && s >= beta)
                    || (e.bound == Bound::Upper && s <= alpha))
            {
                return s;
            }
        }

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() {
                -MATE + ply as i32
            } else {
                DRAW
            };
        }
        let mut scores: MoveScores = [0; 256];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = order_score(pos, m, tt_move);
        }

        let old_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move: Option<Move> = None;
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            self.nodes += 1;
            pos.make(m);
            let score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, ctl);
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.map_or(0, pack_move),
            score_to_tt(best_score, ply),
            0,
            depth,
            bound,
        );
        best_score
    }

    /// Quiescence search: captures and queen promotions (all evasions in check), stand pat.
    fn quiescence(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &SearchControl,
    ) -> i32 {
        self.pv_len[ply] = 0;
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
            return if in_check {
                DRAW
            } else {
                self.evaluator.evaluate(pos)
            };
        }

        let key = pos.key();
        let mut tt_move = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if e.bound == Bound::Exact
                || (e.bound == Bound::Lower && s >= beta)
                || (e.bound == Bound::Upper && s <= alpha)
            {
                return s;
            }
        }

        let old_alpha = alpha;
        let mut best_score;
        let mut moves: MoveList;
        if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best_score = -INFINITE;
        } else {
            let stand_pat = self.evaluator.evaluate(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
            moves = noisy_moves(pos);
        }

        let mut scores: MoveScores = [0; 256];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = order_score(pos, m, tt_move);
        }
        let mut best_move: Option<Move> = None;
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            self.nodes += 1;
            pos.make(m);
            let score = -self.quiescence(pos, -beta, -alpha, ply + 1, ctl);
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.map_or(0, pack_move),
            score_to_tt(best_score, ply),
            0,
            0,
            bound,
        );
        best_score
    }
}

/// Captures and queen promotions.
fn noisy_moves(pos: &Position) -> MoveList {
    let mut moves = pos.capture_moves();
    let b = pos.board();
    let seventh = match pos.turn() {
        crate::position::Color::White => {
            crate::position::Bitboard::from_rank(crate::position::Rank::Seventh)
        }
        crate::position::Color::Black => {
            crate::position::Bitboard::from_rank(crate::position::Rank::Second)
        }
    };
    if (b.pawns() & b.by_color(pos.turn()) & seventh).any() {
        for m in pos.legal_moves() {
            if !m.is_capture() && m.promotion() == Some(Role::Queen) {
                moves.push(m);
            }
        }
    }
    moves
}

/// Ordering score: TT move, then captures by MVV-LVA, then promotions, then the rest.
fn order_score(_pos: &Position, m: Move, tt_move: u16) -> i32 {
    if same_move(tt_move, m) {
        return 1_000_000;
    }
    let mut s = 0;
    if let Some(victim) = m.capture() {
        s += 100_000 + 10 * role_value(victim) - role_value(m.role()) / 10;
    } else if m.is_en_passant() {
        s += 100_000 + 10 * role_value(Role::Pawn) - role_value(Role::Pawn) / 10;
    }
    if let Some(p) = m.promotion() {
        s += 50_000 + role_value(p);
    }
    s
}

/// Selection sort step: moves the best-scored remaining move to `i` and returns it.
#[inline]
fn pick_next(moves: &mut MoveList, scores: &mut MoveScores, i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    scores.swap(i, best);
    moves.swap(i, best);
    moves[i]
}
