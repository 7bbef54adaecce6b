//! Time manager: turns the `go` limits into a soft bound (do not start another iteration past
//! it) and a hard bound (stop now), and moves the soft bound as the search learns.
//!
//! The manager is pure arithmetic on milliseconds: it never reads a clock. The search tells it
//! how long it has been running; in ponder mode the search keeps that figure at zero until
//! `ponderhit`, so the time spent pondering is never charged to the budget.
//!
//! ```text
//! let mut tm = TimeManager::new(&limits, us, move_overhead_ms);
//! loop {                                   // iterative deepening
//!     ... search one iteration, checking tm.out_of_time(elapsed) every few nodes ...
//!     if tm.iteration_done(&summary, elapsed) { break; }
//! }
//! ```
//!
//! Budget on the clock (all arithmetic saturating, every bound at least [`MIN_HARD_MS`]):
//! - the clock is spread over the moves to go (`movestogo`, at most [`MAX_MOVES_TO_GO`], or
//!   [`SUDDEN_DEATH_MOVES`] in sudden death), counting the increments still to come and one
//!   `Move Overhead` per move: `optimum = (time + inc·(mtg−1) − reserve) / mtg` with
//!   `reserve = max(overhead·(mtg+1), floor)`;
//! - in sudden death the floor is `min(time / 2, 300 ms + 10 · inc)` ([`FLOOR_BASE_MS`]),
//!   and no single move may touch it: the bounds of this move are taken from
//!   `time − floor − overhead`, so the clock settles above the floor in long games and near
//!   it no move may take more than a quarter of the clock; a host that freezes the process
//!   for a moment does not cost the game;
//! - the hard bound is [`HARD_FACTOR`] × optimum, never more than half of the clock left after
//!   the overhead (80% on the last move before the control, or when the increment alone
//!   refills it), and in a repeating control it leaves a minimal move's worth of time for each
//!   move still to play before the control;
//! - after each completed iteration the soft bound becomes optimum × stability × score drop ×
//!   node share, kept between [`MIN_SOFT_PERMILLE`]‰ of the optimum and the hard bound.
//!
//! The constants a tuner may move are gathered in [`TimeParams`] (the search passes the values
//! of its `tm_*` parameters, UCI options in a tune build); [`TimeManager::new`] uses the
//! built-in ones.
//!
//! `go movetime t` gives soft = hard = `t − Move Overhead`; `go infinite`, `depth`, `nodes`
//! and `mate` without a clock give no time bound at all.

use crate::limits::SearchLimits;
use crate::position::{Color, Move};

/// Smallest hard bound: every search gets this long, so that a move is always produced.
pub const MIN_HARD_MS: u64 = 2;
/// Smallest soft bound.
pub const MIN_SOFT_MS: u64 = 1;
/// Moves the remaining time is spread over in sudden death.
pub const SUDDEN_DEATH_MOVES: u64 = 30;
/// Longest horizon of a repeating control: more moves to go count as this many.
pub const MAX_MOVES_TO_GO: u64 = 50;
/// Hard bound as a multiple of the optimum.
pub const HARD_FACTOR: u64 = 5;
/// Share of the clock (after the overhead) the hard bound never exceeds, in percent.
pub const HARD_CEILING_PCT: u64 = 50;
/// The same share on the last move before the control, or when the increment alone is at
/// least the clock.
pub const LAST_MOVE_CEILING_PCT: u64 = 80;
/// Share of the clock (after the overhead) the optimum never exceeds, in percent.
pub const OPTIMUM_CEILING_PCT: u64 = 50;
/// Time kept back, beyond `Move Overhead`, for each move still to play before the control.
pub const RESERVE_PER_MOVE_MS: u64 = MIN_HARD_MS;
/// Clock floor in sudden death: the budget is planned on the clock minus
/// `min(clock / 2, FLOOR_BASE_MS + FLOOR_INCREMENTS · inc)`, so the clock settles above the
/// floor instead of sinking towards zero in a long game, and below twice the floor no single
/// move can take more than a quarter of what is left. It is there for the machine, not the
/// game: a process frozen for a few hundred milliseconds by the host must not lose on time.
pub const FLOOR_BASE_MS: u64 = 300;
/// Increments in the clock floor (see [`FLOOR_BASE_MS`]).
pub const FLOOR_INCREMENTS: u64 = 10;

/// Iterations before this depth leave the soft bound at the optimum (too noisy to learn from).
pub const ADAPT_MIN_DEPTH: u32 = 5;
/// Soft-bound scale (‰) by the number of iterations the best move has stayed the same
/// (0: it just changed; the last entry for that many or more).
pub const STABILITY_PERMILLE: [u64; 7] = [1400, 1200, 1050, 950, 870, 800, 750];
/// A score drop of this many centipawns (or more) against the previous iterations gives the
/// full [`SCORE_DROP_MAX_PERMILLE`] extra.
pub const SCORE_DROP_FULL_CP: i32 = 150;
/// Extra soft-bound scale (‰) for a full score drop.
pub const SCORE_DROP_MAX_PERMILLE: u64 = 600;
/// Scores are clamped to ± this before comparing them (mate scores are not "drops").
pub const SCORE_CLAMP_CP: i32 = 2000;
/// Previous iterations whose mean score a drop is measured against (besides the last one).
pub const SCORE_HISTORY: usize = 4;
/// Node-share scale: `NODES_BASE_PERMILLE − NODES_SLOPE_PERMILLE × share` (‰), where share
/// is the fraction of this iteration's root nodes spent below the best move.
pub const NODES_BASE_PERMILLE: u64 = 1500;
/// See [`NODES_BASE_PERMILLE`].
pub const NODES_SLOPE_PERMILLE: u64 = 800;
/// The adjusted soft bound never falls below this share (‰) of the optimum.
pub const MIN_SOFT_PERMILLE: u64 = 350;

/// The constants a tuner may move. The manager of [`TimeManager::new`] uses
/// [`TimeParams::DEFAULT`]; the search passes the values in force of its `tm_*` parameters
/// (`search::params`, which take their defaults from here and are UCI options in a tune build).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeParams {
    /// Moves the remaining time is spread over in sudden death ([`SUDDEN_DEATH_MOVES`]).
    pub sudden_death_moves: u64,
    /// Hard bound as a multiple of the optimum ([`HARD_FACTOR`]).
    pub hard_factor: u64,
    /// How far the stability scale departs from 1000‰, in percent of
    /// [`STABILITY_PERMILLE`]'s departure (100: the table as it is; 0: no stability term).
    pub stability_x100: u64,
    /// A drop of this many centipawns gives the full extra ([`SCORE_DROP_FULL_CP`]).
    pub score_drop_full_cp: u64,
    /// Extra soft-bound scale (‰) for a full score drop ([`SCORE_DROP_MAX_PERMILLE`]).
    pub score_drop_max_permille: u64,
    /// Node-share scale at a share of zero ([`NODES_BASE_PERMILLE`]).
    pub nodes_base_permille: u64,
    /// Node-share scale taken off at a share of one ([`NODES_SLOPE_PERMILLE`]).
    pub nodes_slope_permille: u64,
    /// Least adjusted soft bound, ‰ of the optimum ([`MIN_SOFT_PERMILLE`]).
    pub min_soft_permille: u64,
}

impl TimeParams {
    /// The built-in values.
    pub const DEFAULT: TimeParams = TimeParams {
        sudden_death_moves: SUDDEN_DEATH_MOVES,
        hard_factor: HARD_FACTOR,
        stability_x100: 100,
        score_drop_full_cp: SCORE_DROP_FULL_CP as u64,
        score_drop_max_permille: SCORE_DROP_MAX_PERMILLE,
        nodes_base_permille: NODES_BASE_PERMILLE,
        nodes_slope_permille: NODES_SLOPE_PERMILLE,
        min_soft_permille: MIN_SOFT_PERMILLE,
    };
}

/// Bounds for one search, in milliseconds from its start (from `ponderhit` when pondering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBounds {
    /// Do not start a new iteration after this.
    pub soft_ms: u64,
    /// Stop the search at once after this.
    pub hard_ms: u64,
}

/// What the search learned in one completed iteration.
#[derive(Clone, Copy, Debug)]
pub struct IterationSummary {
    /// Depth of the iteration.
    pub depth: u32,
    /// Best move after it.
    pub best: Move,
    /// Its score (side to move's view, centipawns or mate score).
    pub score: i32,
    /// Nodes searched below the best move in this iteration.
    pub best_move_nodes: u64,
    /// Nodes searched below all root moves in this iteration.
    pub root_nodes: u64,
}

/// How the budget was set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Not on the clock: no time bound.
    Unlimited,
    /// `go movetime`: a fixed time, soft = hard.
    Fixed,
    /// On the clock: the soft bound adapts.
    Clock,
}

/// The time budget of one search and what it has learned so far.
#[derive(Clone, Debug)]
pub struct TimeManager {
    mode: Mode,
    /// Soft bound before any adjustment.
    optimum_ms: u64,
    /// Current soft bound.
    soft_ms: u64,
    /// Hard bound.
    hard_ms: u64,
    /// Best move of the last completed iteration.
    best: Option<Move>,
    /// Iterations in a row the best move has stayed the same.
    stable: usize,
    /// Scores of the completed iterations, last one last (at most `SCORE_HISTORY + 1`).
    scores: Vec<i32>,
    /// The constants in force.
    params: TimeParams,
}

impl Default for TimeManager {
    fn default() -> Self {
        TimeManager::unlimited()
    }
}

impl TimeManager {
    /// A manager with no time bound (`go infinite`, `depth`, `nodes`, `mate`, analysis).
    pub fn unlimited() -> TimeManager {
        TimeManager {
            mode: Mode::Unlimited,
            optimum_ms: u64::MAX,
            soft_ms: u64::MAX,
            hard_ms: u64::MAX,
            best: None,
            stable: 0,
            scores: Vec::with_capacity(SCORE_HISTORY + 1),
            params: TimeParams::DEFAULT,
        }
    }

    /// The budget for `us` under `limits`, keeping `move_overhead_ms` back for the lag between
    /// the engine and the clock. `movetime` wins over the clock fields.
    pub fn new(limits: &SearchLimits, us: Color, move_overhead_ms: u64) -> TimeManager {
        TimeManager::with_params(limits, us, move_overhead_ms, TimeParams::DEFAULT)
    }

    /// [`TimeManager::new`] with the constants `params`.
    pub fn with_params(
        limits: &SearchLimits,
        us: Color,
        move_overhead_ms: u64,
        params: TimeParams,
    ) -> TimeManager {
        let mut tm = TimeManager::unlimited();
        tm.params = params;
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(move_overhead_ms).max(MIN_HARD_MS);
            tm.mode = Mode::Fixed;
            (tm.optimum_ms, tm.soft_ms, tm.hard_ms) = (t, t, t);
            return tm;
        }
        let c = &limits.clock;
        let (time, inc) = match us {
            Color::White => (c.wtime, c.winc),
            Color::Black => (c.btime, c.binc),
        };
        let Some(time) = time else {
            return tm;
        };
        let (optimum, hard) = clock_budget(time, inc, c.movestogo, move_overhead_ms, &params);
        tm.mode = Mode::Clock;
        (tm.optimum_ms, tm.soft_ms, tm.hard_ms) = (optimum, optimum, hard);
        tm
    }

    /// Whether the search is bounded by time at all.
    pub fn is_timed(&self) -> bool {
        self.mode != Mode::Unlimited
    }

    /// The current bounds, or `None` when the search is not on the clock.
    pub fn bounds(&self) -> Option<TimeBounds> {
        self.is_timed().then_some(TimeBounds {
            soft_ms: self.soft_ms,
            hard_ms: self.hard_ms,
        })
    }

    /// The soft bound before any adjustment (`None`: not on the clock).
    pub fn optimum_ms(&self) -> Option<u64> {
        self.is_timed().then_some(self.optimum_ms)
    }

    /// The current soft bound (`None`: not on the clock).
    pub fn soft_ms(&self) -> Option<u64> {
        self.is_timed().then_some(self.soft_ms)
    }

    /// The hard bound (`None`: not on the clock).
    pub fn hard_ms(&self) -> Option<u64> {
        self.is_timed().then_some(self.hard_ms)
    }

    /// Whether the search must stop now, `elapsed_ms` after its start.
    #[inline]
    pub fn out_of_time(&self, elapsed_ms: u64) -> bool {
        elapsed_ms >= self.hard_ms
    }

    /// Learns from a completed iteration and answers whether to stop rather than start
    /// another one, `elapsed_ms` after the start. (A pondering search keeps going whatever the
    /// answer; it reports elapsed time from `ponderhit`.)
    pub fn iteration_done(&mut self, it: &IterationSummary, elapsed_ms: u64) -> bool {
        if self.best == Some(it.best) {
            self.stable += 1;
        } else {
            self.stable = 0;
        }
        self.best = Some(it.best);
        let score = it.score.clamp(-SCORE_CLAMP_CP, SCORE_CLAMP_CP);
        let drop = self.score_drop(score);
        if self.scores.len() > SCORE_HISTORY {
            self.scores.remove(0);
        }
        self.scores.push(score);

        if self.mode == Mode::Clock && it.depth >= ADAPT_MIN_DEPTH {
            let p = &self.params;
            let scale = stability_permille(self.stable, p) as u128
                * score_drop_permille(drop, p) as u128
                * node_share_permille(it.best_move_nodes, it.root_nodes, p) as u128;
            // Three factors in permille: divide by 1000³.
            let soft =
                (self.optimum_ms as u128 * scale / 1_000_000_000).min(u64::MAX.into()) as u64;
            let floor = (self.optimum_ms / 1000).saturating_mul(p.min_soft_permille)
                + self.optimum_ms % 1000 * p.min_soft_permille / 1000;
            self.soft_ms = soft.max(floor).max(MIN_SOFT_MS).min(self.hard_ms);
        }
        self.is_timed() && elapsed_ms >= self.soft_ms
    }

    /// How far `score` fell (centipawns, ≥ 0) below the last iteration's score or the mean of
    /// the ones before, whichever is more.
    fn score_drop(&self, score: i32) -> i32 {
        let Some(&last) = self.scores.last() else {
            return 0;
        };
        let mean = self.scores.iter().sum::<i32>() / self.scores.len() as i32;
        (last.max(mean) - score).max(0)
    }
}

/// Optimum and hard bound on the clock: `time` left, `inc` per move, `movestogo` moves to the
/// next control (`None`: sudden death), all in milliseconds.
fn clock_budget(
    time: u64,
    inc: u64,
    movestogo: Option<u32>,
    overhead: u64,
    params: &TimeParams,
) -> (u64, u64) {
    let moves = movestogo.map_or(params.sudden_death_moves.max(1), |m| {
        u64::from(m).clamp(1, MAX_MOVES_TO_GO)
    });
    let last_move = movestogo == Some(1);
    let floor = clock_floor(time, inc, movestogo);
    // What the next `moves` moves can count on: the clock and the increments still to come,
    // less one overhead per move (and one more for this move's reply) or the floor, whichever
    // is more. Both keep back time for the same risk (lag, a frozen process); stacking them
    // left nothing to think with in bullet (1+0.01: 400 ms floor + 31 × 30 ms overhead).
    let pool = time
        .saturating_add(inc.saturating_mul(moves - 1))
        .saturating_sub(floor.max(overhead.saturating_mul(moves + 1)));
    // This move alone must leave the floor and its own overhead untouched.
    let avail = time.saturating_sub(floor).saturating_sub(overhead);
    let optimum = (pool / moves).min(percent(avail, OPTIMUM_CEILING_PCT));
    let ceiling_pct = if last_move || inc >= avail {
        LAST_MOVE_CEILING_PCT
    } else {
        HARD_CEILING_PCT
    };
    // In a repeating control keep a minimal move's worth of time for every move still to
    // play before the control (the increment pays for part of it).
    let reserve = if movestogo.is_some() {
        (moves - 1).saturating_mul(
            overhead
                .saturating_add(RESERVE_PER_MOVE_MS)
                .saturating_sub(inc),
        )
    } else {
        0
    };
    let hard = optimum
        .saturating_mul(params.hard_factor.max(1))
        .min(percent(avail, ceiling_pct))
        .min(avail.saturating_sub(reserve))
        .max(MIN_HARD_MS);
    (optimum.clamp(MIN_SOFT_MS, hard), hard)
}

/// The part of the clock a sudden-death budget leaves alone (see [`FLOOR_BASE_MS`]); none in
/// a repeating control, where the clock refills and the reserve per move to go applies.
fn clock_floor(time: u64, inc: u64, movestogo: Option<u32>) -> u64 {
    if movestogo.is_some() {
        return 0;
    }
    (time / 2).min(FLOOR_BASE_MS.saturating_add(inc.saturating_mul(FLOOR_INCREMENTS)))
}

/// `pct` percent of `x`, without overflow.
fn percent(x: u64, pct: u64) -> u64 {
    x / 100 * pct + x % 100 * pct / 100
}

/// Soft-bound scale (‰) after the best move stayed the same for `stable` iterations: the
/// table's departure from 1000‰ times `stability_x100` / 100 (never below 0).
fn stability_permille(stable: usize, p: &TimeParams) -> u64 {
    let table = STABILITY_PERMILLE[stable.min(STABILITY_PERMILLE.len() - 1)] as i64;
    let scaled = 1000 + (table - 1000) * p.stability_x100.min(10_000) as i64 / 100;
    scaled.max(0) as u64
}

/// Soft-bound scale (‰) for a score drop of `drop` centipawns (≥ 1000‰, growing with it).
fn score_drop_permille(drop: i32, p: &TimeParams) -> u64 {
    let full = p.score_drop_full_cp.max(1);
    let d = (drop.max(0) as u64).min(full);
    1000 + p.score_drop_max_permille.saturating_mul(d) / full
}

/// Soft-bound scale (‰) when `best` of `total` root nodes went to the best move (never below 0).
fn node_share_permille(best: u64, total: u64, p: &TimeParams) -> u64 {
    if total == 0 {
        return 1000;
    }
    let share = (best.min(total) as u128 * 1000 / total as u128) as u64;
    p.nodes_base_permille
        .saturating_sub(p.nodes_slope_permille.saturating_mul(share) / 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;
    use crate::position::Position;

    fn clock(time: u64, inc: u64, movestogo: Option<u32>) -> SearchLimits {
        SearchLimits {
            clock: Clock {
                wtime: Some(time),
                btime: Some(time),
                winc: inc,
                binc: inc,
                movestogo,
            },
            ..Default::default()
        }
    }

    fn tm(time: u64, inc: u64, movestogo: Option<u32>, overhead: u64) -> TimeManager {
        TimeManager::new(&clock(time, inc, movestogo), Color::White, overhead)
    }

    fn moves() -> Vec<Move> {
        Position::startpos().legal_moves().to_vec()
    }

    fn summary(depth: u32, best: Move, score: i32, share_permille: u64) -> IterationSummary {
        IterationSummary {
            depth,
            best,
            score,
            best_move_nodes: share_permille * 100,
            root_nodes: 100_000,
        }
    }

    /// Runs `iterations` (best move index, score) through a fresh manager and returns its soft
    /// bound afterwards.
    fn soft_after(iterations: &[(usize, i32)], share_permille: u64) -> u64 {
        soft_after_from(tm(60_000, 0, None, 0), iterations, share_permille)
    }

    fn soft_after_from(mut t: TimeManager, iterations: &[(usize, i32)], share: u64) -> u64 {
        let ms = moves();
        for (i, &(m, s)) in iterations.iter().enumerate() {
            t.iteration_done(&summary(i as u32 + 1, ms[m], s, share), 0);
        }
        t.soft_ms().unwrap()
    }

    #[test]
    fn sudden_death_spreads_the_clock() {
        // 300 ms of the minute are the floor.
        let t = tm(60_000, 0, None, 0);
        assert_eq!(t.optimum_ms(), Some(59_700 / 30));
        assert_eq!(t.hard_ms(), Some(5 * (59_700 / 30)));
        // The increments to come are counted; the floor (300 ms + 10 increments) is kept
        // back when it is more than the overhead of every move to come.
        let t = tm(10_000, 100, None, 30);
        assert_eq!(t.optimum_ms(), Some((10_000 + 29 * 100 - 1_300) / 30));
        assert!(t.hard_ms().unwrap() <= (8_700 - 30) / 2);
    }

    #[test]
    fn bullet_keeps_time_to_think() {
        // 1+0.01 with 30 ms overhead: the 31 overheads (930 ms) are the reserve, not the
        // 400 ms floor on top of them (that left the minimum, 1 ms a move, and lost games).
        let t = tm(1_000, 10, None, 30);
        assert_eq!(t.optimum_ms(), Some((1_000 + 29 * 10 - 31 * 30) / 30));
        // With 10 ms overhead the floor is the larger reserve.
        let t = tm(1_000, 10, None, 10);
        assert_eq!(t.optimum_ms(), Some((1_000 + 29 * 10 - 400) / 30));
        assert!(t.hard_ms().unwrap() <= (1_000 - 400 - 10) / 2);
    }

    #[test]
    fn bounds_are_ordered_and_within_the_clock() {
        for time in [
            0,
            1,
            2,
            5,
            17,
            30,
            31,
            50,
            100,
            999,
            1000,
            5000,
            60_000,
            u64::MAX,
        ] {
            for inc in [0, 1, 10, 100, 5000, u64::MAX] {
                for mtg in [None, Some(1), Some(2), Some(3), Some(40), Some(1000)] {
                    for overhead in [0, 10, 30, 5000] {
                        let t = tm(time, inc, mtg, overhead);
                        let (soft, hard) = (t.soft_ms().unwrap(), t.hard_ms().unwrap());
                        let case = format!("time {time} inc {inc} mtg {mtg:?} oh {overhead}");
                        assert!(soft >= MIN_SOFT_MS && soft <= hard, "{case}: {soft} {hard}");
                        assert!(hard >= MIN_HARD_MS, "{case}");
                        let avail = time.saturating_sub(overhead);
                        if avail >= 10 {
                            assert!(hard < avail, "{case}: hard {hard} of {avail}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tiny_clock_never_underflows() {
        let t = tm(5, 0, None, 50);
        assert_eq!(t.hard_ms(), Some(MIN_HARD_MS));
        assert_eq!(t.soft_ms(), Some(MIN_SOFT_MS));
        let t = tm(0, 0, Some(1), 1000);
        assert_eq!(t.hard_ms(), Some(MIN_HARD_MS));
        let t = tm(40, 0, Some(30), 30);
        assert_eq!(t.hard_ms(), Some(MIN_HARD_MS));
    }

    #[test]
    fn movestogo_one_uses_more_but_keeps_a_margin() {
        let last = tm(10_000, 0, Some(1), 10);
        let two = tm(10_000, 0, Some(2), 10);
        let hard = last.hard_ms().unwrap();
        assert!(hard < 10_000 - 10, "{hard}");
        assert_eq!(hard, (10_000 - 10) * LAST_MOVE_CEILING_PCT / 100);
        assert!(hard > two.hard_ms().unwrap());
        assert!(two.hard_ms().unwrap() <= (10_000 - 10) / 2);
    }

    #[test]
    fn repeating_control_spreads_over_the_moves_to_go() {
        // 40/10 at the start: a 40th of the clock less the overheads.
        let t = tm(10_000, 0, Some(40), 30);
        assert_eq!(t.optimum_ms(), Some((10_000 - 41 * 30) / 40));
        // Fewer moves to go, more time per move.
        let mut prev = 0;
        for mtg in (1..=40).rev() {
            let o = tm(10_000, 0, Some(mtg), 30).optimum_ms().unwrap();
            assert!(o >= prev, "mtg {mtg}: {o} < {prev}");
            prev = o;
        }
        // With 20 moves to go and 1 s left, the hard bound keeps time for the other 19.
        let t = tm(1000, 0, Some(20), 30);
        assert!(t.hard_ms().unwrap() <= 1000 - 30 - 19 * (30 + RESERVE_PER_MOVE_MS));
    }

    #[test]
    fn increment_larger_than_the_clock() {
        // Half of the 100 ms is the floor: 20 ms remain after the overhead.
        let t = tm(100, 2000, None, 30);
        let (soft, hard) = (t.soft_ms().unwrap(), t.hard_ms().unwrap());
        assert!(hard <= 20 && soft <= hard, "{soft} {hard}");
        assert_eq!(hard, 20 * LAST_MOVE_CEILING_PCT / 100);
        let t = tm(100, 2000, Some(5), 30);
        assert!(t.hard_ms().unwrap() <= 70);
    }

    #[test]
    fn sudden_death_keeps_a_floor() {
        for time in [100, 1000, 2000, 2600, 5000, 10_000, 60_000] {
            for inc in [0, 10, 100, 600] {
                let t = tm(time, inc, None, 30);
                let floor = (time / 2).min(FLOOR_BASE_MS + FLOOR_INCREMENTS * inc);
                let hard = t.hard_ms().unwrap();
                assert!(
                    hard <= (time - floor).saturating_sub(30).max(MIN_HARD_MS),
                    "time {time} inc {inc}: hard {hard}, floor {floor}"
                );
            }
        }
        // Below twice the floor a move may take at most a quarter of the clock.
        let t = tm(2000, 100, None, 0);
        assert!(t.hard_ms().unwrap() <= 500);
        // A repeating control has no floor (its reserve per move to go does that job).
        let t = tm(10_000, 0, Some(40), 0);
        assert_eq!(t.optimum_ms(), Some(10_000 / 40));
    }

    #[test]
    fn worst_case_game_keeps_the_clock_above_the_floor() {
        // Every move spends its whole hard bound and the whole overhead allowance: at 10+0.1
        // and 60+0.6 the clock never falls below 300 ms + 0.4 increments (without the floor it
        // sank to 171 ms at 10+0.1, and a host freeze of a few hundred milliseconds lost the
        // game).
        for (start, inc) in [(10_000u64, 100u64), (60_000, 600)] {
            let (mut clock, overhead) = (start, 30u64);
            let mut lowest = clock;
            for _ in 0..300 {
                let hard = tm(clock, inc, None, overhead).hard_ms().unwrap();
                clock = clock.saturating_sub(hard + overhead) + inc;
                lowest = lowest.min(clock);
            }
            assert!(
                lowest >= FLOOR_BASE_MS + 4 * inc / 10,
                "{start}+{inc}: lowest clock {lowest} ms"
            );
        }
    }

    #[test]
    fn huge_values_saturate() {
        let t = tm(u64::MAX, u64::MAX, None, u64::MAX);
        assert_eq!(t.hard_ms(), Some(MIN_HARD_MS));
        let t = tm(u64::MAX, u64::MAX, Some(u32::MAX), 0);
        assert!(t.soft_ms().unwrap() <= t.hard_ms().unwrap());
        let l = SearchLimits {
            movetime: Some(u64::MAX),
            ..Default::default()
        };
        let t = TimeManager::new(&l, Color::Black, 30);
        assert_eq!(t.hard_ms(), Some(u64::MAX - 30));
    }

    #[test]
    fn movetime_minus_overhead() {
        let l = SearchLimits {
            movetime: Some(1000),
            ..Default::default()
        };
        let mut t = TimeManager::new(&l, Color::White, 30);
        assert_eq!(
            t.bounds(),
            Some(TimeBounds {
                soft_ms: 970,
                hard_ms: 970
            })
        );
        // Nothing the search learns moves a fixed time.
        let m = moves()[0];
        for d in 1..12 {
            assert!(!t.iteration_done(&summary(d, m, 0, 999), 969));
        }
        assert!(t.iteration_done(&summary(12, m, 0, 999), 970));
        let l = SearchLimits {
            movetime: Some(10),
            ..Default::default()
        };
        assert_eq!(
            TimeManager::new(&l, Color::White, 30).hard_ms(),
            Some(MIN_HARD_MS)
        );
    }

    #[test]
    fn side_to_move_picks_its_clock() {
        let l = SearchLimits {
            clock: Clock {
                wtime: Some(60_000),
                btime: Some(6_000),
                ..Default::default()
            },
            ..Default::default()
        };
        let w = TimeManager::new(&l, Color::White, 0).optimum_ms().unwrap();
        let b = TimeManager::new(&l, Color::Black, 0).optimum_ms().unwrap();
        // Each side's clock less its floor (300 ms, or half of it) over 30 moves.
        assert_eq!((w, b), (59_700 / 30, 5_700 / 30));
        let only_white = SearchLimits {
            clock: Clock {
                wtime: Some(1000),
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(!TimeManager::new(&only_white, Color::Black, 0).is_timed());
    }

    #[test]
    fn no_clock_no_bounds() {
        let mut t = TimeManager::new(&SearchLimits::default(), Color::White, 10);
        assert!(!t.is_timed() && t.bounds().is_none() && t.hard_ms().is_none());
        assert!(!t.out_of_time(u64::MAX - 1));
        let m = moves()[0];
        assert!(!t.iteration_done(&summary(30, m, -500, 0), u64::MAX - 1));
    }

    #[test]
    fn stable_best_move_spends_less() {
        let stable = soft_after(&[(0, 20); 12], 500);
        let changing: Vec<(usize, i32)> = (0..12).map(|i| (i % 2, 20)).collect();
        let changing = soft_after(&changing, 500);
        assert!(stable < 2000 && changing > 2000, "{stable} {changing}");
        // The longer the best move stays, the less is spent (monotonic, then flat).
        let mut prev = u64::MAX;
        for n in ADAPT_MIN_DEPTH as usize..16 {
            let mut its = vec![(1, 20); ADAPT_MIN_DEPTH as usize - 1];
            its.extend(std::iter::repeat_n((0, 20), n + 1 - its.len()));
            let s = soft_after(&its, 500);
            assert!(s <= prev, "{n}: {s} > {prev}");
            prev = s;
        }
    }

    #[test]
    fn score_drop_spends_more() {
        let mut prev = 0;
        for drop in [0, 10, 40, 80, 120, 150, 300, 5000] {
            let mut its = vec![(0, 50); 8];
            its.push((0, 50 - drop));
            let s = soft_after(&its, 500);
            assert!(s >= prev, "drop {drop}: {s} < {prev}");
            prev = s;
        }
        let flat = soft_after(&[(0, 50); 9], 500);
        let mut fell = vec![(0, 50); 8];
        fell.push((0, -100));
        assert!(soft_after(&fell, 500) > flat);
        // A rising score is no drop.
        let mut rose = vec![(0, 50); 8];
        rose.push((0, 300));
        assert_eq!(soft_after(&rose, 500), flat);
    }

    #[test]
    fn high_node_share_spends_less() {
        let its = [(0, 0); 8];
        let mut prev = u64::MAX;
        for share in [0, 100, 300, 500, 700, 900, 1000] {
            let s = soft_after(&its, share);
            assert!(s <= prev, "share {share}: {s} > {prev}");
            prev = s;
        }
        assert!(soft_after(&its, 950) < soft_after(&its, 300));
    }

    #[test]
    fn soft_stays_between_floor_and_hard() {
        // Everything says "hurry".
        let calm = soft_after(&[(0, 0); 20], 1000);
        assert!(calm >= 2000 * MIN_SOFT_PERMILLE / 1000, "{calm}");
        // Everything says "think": never past the hard bound.
        let mut its: Vec<(usize, i32)> = (0..19).map(|i| (i % 3, 0)).collect();
        its.push((1, -900));
        assert!(soft_after(&its, 0) > 6000);
        let two_to_go = tm(10_000, 0, Some(2), 0);
        let hard = two_to_go.hard_ms().unwrap();
        assert_eq!(soft_after_from(two_to_go, &its, 0), hard);
    }

    #[test]
    fn no_adjustment_before_the_minimum_depth() {
        let ms = moves();
        let mut t = tm(60_000, 0, None, 0);
        let optimum = t.optimum_ms();
        for d in 1..ADAPT_MIN_DEPTH {
            t.iteration_done(&summary(d, ms[d as usize], -100 * d as i32, 0), 0);
            assert_eq!(t.soft_ms(), optimum);
        }
    }

    #[test]
    fn iteration_done_answers_by_the_soft_bound() {
        let m = moves()[0];
        let mut t = tm(60_000, 0, None, 0);
        let (soft, hard) = (t.soft_ms().unwrap(), t.hard_ms().unwrap());
        assert!(!t.iteration_done(&summary(1, m, 0, 500), soft - 1));
        assert!(t.iteration_done(&summary(2, m, 0, 500), soft));
        assert!(!t.out_of_time(hard - 1) && t.out_of_time(hard));
    }
}
