//! `UCI_LimitStrength` and `UCI_Elo`: a weaker engine by measurable means.
//!
//! A setting `elo` in [`ELO_MIN`]..=[`ELO_MAX`] is first turned into an internal **level**
//! through the calibration table [`CALIBRATION`] (the level whose measured strength is `elo`),
//! and the level becomes three limits ([`StrengthLimit`]), each a continuous function of the
//! level, so that neighbouring settings play alike (no steps in strength between them):
//!
//! 1. a **node budget** per move, log-linear in the level: `ln(nodes)` runs in a straight line
//!    from `ln(NODES_AT_BASE)` at `LEVEL_BASE` to `ln(NODES_AT_MAX)` at [`LEVEL_MAX`] (no fewer
//!    nodes below `LEVEL_BASE`);
//! 2. a **fractional depth cap**: `DEPTH_AT_BASE` plies at `LEVEL_BASE` and below, one more
//!    every `LEVEL_PER_DEPTH` levels, fractions included (5.37 at level 1757); each search
//!    rounds it at random, up with the probability of its fraction (5.37: depth 6 in 37% of
//!    the searches, 5 in the others), as Stockfish rounds its skill levels, so the expected cap
//!    and the strength grow smoothly instead of one ply at a time. The draw is seeded by the
//!    position (the UCI layer uses its Zobrist key): a position and a setting always get the
//!    same cap. It stops mattering where the node budget binds first;
//! 3. **move noise** below `NOISE_END_LEVEL`: the search looks at the best [`NOISE_LINES`] root
//!    moves (MultiPV) and plays the one with the highest score plus a random bonus in
//!    `0..=margin`, so any move within `margin` centipawns of the best can be played and no
//!    worse one ever is. The margin grows linearly as the level falls below `NOISE_END_LEVEL`
//!    (`NOISE_AT_BASE_CP` at `LEVEL_BASE`). Below `LEVEL_BASE`, where the margin already
//!    admits nearly any of four lines, the **number of lines** grows too, linearly to
//!    `NOISE_LINES_AT_MIN` at [`LEVEL_MIN`], fractions rounded at random per search as the
//!    depth cap is (with nw-g18, four lines at level 1000 played as level 1450 did). The random
//!    numbers come from a seed (the UCI layer uses the position's Zobrist key), so a position
//!    and a setting always give the same move.
//!
//! The clock, `go depth`, `go nodes` and `go movetime` still apply; the engine stops at
//! whichever limit comes first. A new calibration changes only [`CALIBRATION`]: `make
//! calibrate` (`scripts/calibrate.py`) plays the matches and prints the table
//! (docs/history/measurements.md, "UCI_Elo calibration with nw-g19"; the method: "... with
//! nw-g15"). For it the environment variable `NULLWINDOW_STRENGTH_LEVEL` selects a level
//! directly (see [`level_override`]).

use super::{IterationInfo, MAX_PLY, Reporter, ScoreBound, SearchStats};
use crate::limits::SearchLimits;
use crate::position::Move;

/// Lowest `UCI_Elo` (as Stockfish).
pub const ELO_MIN: i32 = 1320;
/// Highest `UCI_Elo` (as Stockfish), also the default.
pub const ELO_MAX: i32 = 3190;

// ---------------------------------------------------------------------------------------------
// The levels: limits as a function of an internal level.
// ---------------------------------------------------------------------------------------------
/// Weakest level.
pub const LEVEL_MIN: i32 = 1000;
/// Strongest level.
pub const LEVEL_MAX: i32 = 3190;
/// Where the node budget and the depth cap start to grow.
const LEVEL_BASE: i32 = 1320;
/// Node budget per move at `LEVEL_BASE` and below (enough for a complete depth-1 search in
/// most positions).
const NODES_AT_BASE: f64 = 1_000.0;
/// Node budget per move at [`LEVEL_MAX`] (about a second of search on one core).
const NODES_AT_MAX: f64 = 2_000_000.0;
/// Depth cap at `LEVEL_BASE` and below.
const DEPTH_AT_BASE: f64 = 1.0;
/// One more ply of (expected) depth cap every this many levels above `LEVEL_BASE`.
const LEVEL_PER_DEPTH: f64 = 100.0;
/// Noise margin (centipawns) at `LEVEL_BASE`; it keeps growing below it.
const NOISE_AT_BASE_CP: f64 = 200.0;
/// No noise from this level up.
const NOISE_END_LEVEL: i32 = 2400;
/// Root moves searched as candidates when there is noise (MultiPV of the search), at
/// `LEVEL_BASE` and above.
pub const NOISE_LINES: usize = 4;
/// Candidate lines (expected) at [`LEVEL_MIN`]; from [`NOISE_LINES`] at `LEVEL_BASE` they grow
/// linearly as the level falls.
const NOISE_LINES_AT_MIN: f64 = 8.0;

/// The environment variable that selects a level directly, whatever `UCI_Elo` says (for the
/// calibration's matches, which measure levels).
pub const LEVEL_ENV: &str = "NULLWINDOW_STRENGTH_LEVEL";

// ---------------------------------------------------------------------------------------------
// The calibration: (level, measured Elo on the CCRL Blitz scale), both increasing.
// CALIBRATION_BEGIN (scripts/calibrate.py prints this block)
// Measured by `make calibrate` (scripts/calibrate.py, 2026-12-07): 8,300 games of
// 11 levels against Stockfish 15.1 with UCI_LimitStrength, each setting at the
// CCRL Blitz Elo of its integer skill level by Stockfish 16's refit (scripts/fit_elo.py).
// 95% intervals of the fit: 18, 18, 18, 49, 40, 21, 24, 37, 54, 50, 52.
/// Measured strength of some levels.
pub const CALIBRATION: [(i32, i32); 11] = [
    (1000, 1262),
    (1250, 1354),
    (1450, 1372),
    (1525, 1491),
    (1600, 1777),
    (1700, 2042),
    (1750, 2121),
    (1800, 2176),
    (1900, 2365),
    (2200, 2611),
    (2500, 2854),
];
/// The network the calibration's games were played with (a test holds it to the
/// embedded one: a new net wants `make calibrate`).
pub const CALIBRATION_NET: &str = "nw-g19.nnue";
// CALIBRATION_END
// Above the last point the Elo is extrapolated with the slope of the last segment.
// ---------------------------------------------------------------------------------------------

/// What one `UCI_Elo` setting allows a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrengthLimit {
    /// The setting, clamped to [`ELO_MIN`]..=[`ELO_MAX`].
    pub elo: i32,
    /// The internal level that plays at that strength.
    pub level: i32,
    /// Most nodes per move.
    pub nodes: u64,
    /// Deepest iteration, expected: each search rounds it at random ([`Self::depth_cap`]).
    pub depth: f64,
    /// Moves within this many centipawns of the best may be played (0: always the best).
    pub margin_cp: i32,
    /// Root lines searched as candidates when there is noise, expected: each search rounds it
    /// at random ([`Self::candidate_lines`]).
    pub lines: f64,
}

/// The calibration's points with the extrapolated strongest level appended.
fn calibration_points() -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> = CALIBRATION
        .iter()
        .map(|&(l, e)| (f64::from(l), f64::from(e)))
        .collect();
    let n = points.len();
    let (l0, e0) = points[n - 2];
    let (l1, e1) = points[n - 1];
    if l1 < f64::from(LEVEL_MAX) {
        let slope = (e1 - e0) / (l1 - l0);
        let top = f64::from(LEVEL_MAX);
        points.push((top, e1 + slope * (top - l1)));
    }
    points
}

/// The piecewise-linear function through `points` (increasing in both coordinates) at `x`,
/// held at the end values outside them.
fn interpolate(points: &[(f64, f64)], x: f64) -> f64 {
    let (first, last) = (points[0], points[points.len() - 1]);
    if x <= first.0 {
        return first.1;
    }
    for w in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x <= x1 {
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
        }
    }
    last.1
}

/// The measured (or, above the last point, extrapolated) Elo of a level; below the first
/// point, the first point's.
pub fn level_elo(level: i32) -> f64 {
    interpolate(&calibration_points(), f64::from(level))
}

/// The level whose calibrated strength is `elo` (clamped to the levels there are).
pub fn level_for_elo(elo: i32) -> i32 {
    let inverse: Vec<(f64, f64)> = calibration_points().iter().map(|&(l, e)| (e, l)).collect();
    interpolate(&inverse, f64::from(elo)).round() as i32
}

/// The level `NULLWINDOW_STRENGTH_LEVEL` selects: `None` when it is not set, an error when it
/// is not a number in [`LEVEL_MIN`]..=[`LEVEL_MAX`] (read once per call; the UCI layer reads
/// it at start-up and says the error with `info string error`).
pub fn level_override() -> Result<Option<i32>, String> {
    let Ok(v) = std::env::var(LEVEL_ENV) else {
        return Ok(None);
    };
    match v.trim().parse::<i32>() {
        Ok(l) if (LEVEL_MIN..=LEVEL_MAX).contains(&l) => Ok(Some(l)),
        _ => Err(format!(
            "{LEVEL_ENV}={v:?} is not a level from {LEVEL_MIN} to {LEVEL_MAX}; UCI_Elo decides"
        )),
    }
}

impl StrengthLimit {
    /// The limits of the setting `elo` (clamped to the range), through the calibration.
    pub fn from_elo(elo: i32) -> StrengthLimit {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        StrengthLimit {
            elo,
            ..StrengthLimit::at_level(level_for_elo(elo))
        }
    }

    /// The limits of an internal level (clamped to [`LEVEL_MIN`]..=[`LEVEL_MAX`]); `elo` is
    /// the level's calibrated strength.
    pub fn at_level(level: i32) -> StrengthLimit {
        let level = level.clamp(LEVEL_MIN, LEVEL_MAX);
        let above = f64::from((level - LEVEL_BASE).max(0));
        let t = above / f64::from(LEVEL_MAX - LEVEL_BASE);
        let ln_nodes = NODES_AT_BASE.ln() + t * (NODES_AT_MAX.ln() - NODES_AT_BASE.ln());
        let depth = (DEPTH_AT_BASE + above / LEVEL_PER_DEPTH).min((MAX_PLY - 1) as f64);
        let margin = NOISE_AT_BASE_CP * f64::from((NOISE_END_LEVEL - level).max(0))
            / f64::from(NOISE_END_LEVEL - LEVEL_BASE);
        let below = f64::from((LEVEL_BASE - level).max(0)) / f64::from(LEVEL_BASE - LEVEL_MIN);
        let lines = NOISE_LINES as f64 + below * (NOISE_LINES_AT_MIN - NOISE_LINES as f64);
        StrengthLimit {
            elo: level_elo(level).round() as i32,
            level,
            nodes: ln_nodes.exp().round() as u64,
            depth,
            margin_cp: margin.round() as i32,
            lines,
        }
    }

    /// The depth cap of one search: [`Self::depth`] rounded down or up, up with the
    /// probability of its fraction, by a draw from `seed` (the same seed, the same cap).
    pub fn depth_cap(&self, seed: u64) -> u32 {
        // A stream of its own: not the first number `choose` draws from the same seed.
        round_at_random(self.depth, seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The candidate lines of one search: [`Self::lines`] rounded down or up as
    /// [`Self::depth_cap`] rounds the depth, from a stream of its own.
    pub fn candidate_lines(&self, seed: u64) -> usize {
        round_at_random(self.lines, seed ^ 0x2545_F491_4F6C_DD1D) as usize
    }

    /// Narrows `limits` to this setting, the depth cap rounded by `seed` ([`Self::depth_cap`]):
    /// the smaller node budget and depth win. Returns this search's depth cap.
    pub fn apply(&self, limits: &mut SearchLimits, seed: u64) -> u32 {
        let cap = self.depth_cap(seed);
        limits.nodes = Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes)));
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        cap
    }

    /// Whether the move may be another line's than the best ([`Self::margin_cp`] above 0):
    /// only then are candidate lines searched and chosen among.
    pub fn has_noise(&self) -> bool {
        self.margin_cp > 0
    }

    /// MultiPV the search needs: enough lines to choose among when there is noise (this
    /// search's [`Self::candidate_lines`] for `seed`).
    pub fn search_multipv(&self, shown: usize, seed: u64) -> usize {
        if self.has_noise() {
            shown.max(self.candidate_lines(seed))
        } else {
            shown
        }
    }
}

/// `x` (at least 0) rounded down or up, up with the probability of its fraction, by a draw
/// from `state` (the same state, the same result).
fn round_at_random(x: f64, mut state: u64) -> u32 {
    let floor = x.floor();
    let u = (splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64;
    floor as u32 + u32::from(u < x - floor)
}

/// One root line of the deepest iteration seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    /// Score, side to move's view.
    pub score: i32,
    /// The principal variation (the root move first).
    pub pv: Vec<Move>,
}

/// A reporter between the search and the GUI's reporter: keeps the exact lines of the deepest
/// iteration reported (the candidates for [`choose`]) and passes on only what the user's
/// `MultiPV` would have shown, so the extra lines of the noise stay hidden.
///
/// The search reports, after the `p`-th line of an iteration is found, lines 1 to `p` (each
/// line-1 report starts such a batch); the batches after line `shown_multipv` are held back.
pub struct LineRecorder<'a> {
    inner: &'a mut dyn Reporter,
    shown_multipv: usize,
    depth: u32,
    lines: Vec<Option<RootLine>>,
    /// Depth of the reports counted in `batch`.
    report_depth: u32,
    /// Batches of exact lines reported at `report_depth`.
    batch: usize,
}

impl<'a> LineRecorder<'a> {
    /// Records lines and forwards the first `shown_multipv` of each iteration to `inner`.
    pub fn new(inner: &'a mut dyn Reporter, shown_multipv: usize) -> LineRecorder<'a> {
        LineRecorder {
            inner,
            shown_multipv,
            depth: 0,
            lines: Vec::new(),
            report_depth: 0,
            batch: 0,
        }
    }

    /// The lines of the deepest iteration, best first (the lines reported so far of it).
    pub fn lines(&self) -> Vec<RootLine> {
        self.lines.iter().flatten().cloned().collect()
    }
}

impl Reporter for LineRecorder<'_> {
    fn iteration(&mut self, info: &IterationInfo) {
        if info.bound == ScoreBound::Exact && !info.pv.is_empty() && info.depth >= self.depth {
            if info.depth > self.depth {
                self.depth = info.depth;
                self.lines.clear();
            }
            let i = info.multipv.saturating_sub(1);
            if self.lines.len() <= i {
                self.lines.resize(i + 1, None);
            }
            self.lines[i] = Some(RootLine {
                score: info.score,
                pv: info.pv.clone(),
            });
        }
        if info.depth > self.report_depth {
            self.report_depth = info.depth;
            self.batch = 0;
        }
        let exact = info.bound == ScoreBound::Exact;
        if exact && info.multipv == 1 {
            self.batch += 1;
        }
        if info.multipv <= self.shown_multipv && (!exact || self.batch <= self.shown_multipv) {
            self.inner.iteration(info);
        }
    }

    fn current_move(&mut self, depth: u32, mv: Move, number: usize) {
        self.inner.current_move(depth, mv, number);
    }

    fn stats(&mut self, stats: &SearchStats) {
        self.inner.stats(stats);
    }

    fn iteration_done(&mut self, depth: u32, score: i32, stats: &SearchStats) {
        self.inner.iteration_done(depth, score, stats);
    }
}

/// SplitMix64: a small deterministic generator for the noise.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The index of the line to play: the highest `score + bonus`, each line's bonus drawn from
/// `0..=margin_cp` with the generator seeded by `seed`; lines more than `margin_cp` below the
/// best are never chosen. `None` when there are no lines.
pub fn choose(lines: &[RootLine], margin_cp: i32, seed: u64) -> Option<usize> {
    let best = lines.iter().map(|l| l.score).max()?;
    let mut state = seed;
    let mut choice = None;
    let mut top = i64::MIN;
    for (i, l) in lines.iter().enumerate() {
        let r = splitmix(&mut state);
        if l.score < best.saturating_sub(margin_cp.max(0)) {
            continue;
        }
        let bonus = (r % (margin_cp.max(0) as u64 + 1)) as i64;
        let key = i64::from(l.score) + bonus;
        if key > top {
            top = key;
            choice = Some(i);
        }
    }
    choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// The table was measured with the embedded network: a new net plays stronger at the same
    /// node budget, so embedding one wants a new calibration.
    #[test]
    fn calibration_is_of_the_embedded_net() {
        assert_eq!(
            CALIBRATION_NET,
            crate::nnue::EMBEDDED_NET_NAME,
            "the UCI_Elo table was measured with another net: run `make calibrate` \
             (CALIB_DIR a new directory, CALIB_CONCURRENCY=2: about 30 minutes)"
        );
    }

    /// Largest change of the limits between neighbouring `UCI_Elo` settings (one Elo apart):
    /// node budget ratio, expected depth cap (plies), noise margin (cp), expected candidate
    /// lines. The bounds follow the steepest part of the table: with nw-g18 levels 1250 and
    /// 1450 played within 14 Elo of each other (1348 and 1362, 1,500 games at each), so one Elo
    /// there was about 14 levels: up to ×1.063 in nodes, 0.15 ply, 3 cp and 0.19 lines (with
    /// nw-g19 18 Elo, 1354 and 1372: about 11 levels, smaller steps). The strength those
    /// settings play is as flat as the table, so the steps are not jumps in strength (below
    /// level 1250 one Elo is 3 levels, above 1450 less than one).
    const ELO_STEP: (f64, f64, i32, f64) = (1.07, 0.16, 3, 0.2);

    #[test]
    fn limits_grow_smoothly_with_the_elo() {
        let mut last = StrengthLimit::from_elo(ELO_MIN);
        for elo in ELO_MIN + 1..=ELO_MAX {
            let s = StrengthLimit::from_elo(elo);
            // Monotone: never weaker for a higher setting.
            assert!(s.level >= last.level, "{elo}");
            assert!(s.nodes >= last.nodes && s.depth >= last.depth, "{elo}");
            assert!(s.margin_cp <= last.margin_cp, "{elo}");
            assert!(s.lines <= last.lines, "{elo}");
            // Smooth: one setting up changes each limit by at most a small step.
            let ratio = s.nodes as f64 / last.nodes as f64;
            assert!(ratio <= ELO_STEP.0, "{elo}: nodes x{ratio}");
            assert!(
                s.depth - last.depth <= ELO_STEP.1,
                "{elo}: {last:?} -> {s:?}"
            );
            assert!(
                last.margin_cp - s.margin_cp <= ELO_STEP.2,
                "{elo}: {last:?} -> {s:?}"
            );
            assert!(
                last.lines - s.lines <= ELO_STEP.3,
                "{elo}: {last:?} -> {s:?}"
            );
            last = s;
        }
        assert_eq!(StrengthLimit::from_elo(0), StrengthLimit::from_elo(ELO_MIN));
        assert_eq!(
            StrengthLimit::from_elo(9999),
            StrengthLimit::from_elo(ELO_MAX)
        );
    }

    #[test]
    fn neighbouring_levels_differ_by_a_hundredth_of_a_ply() {
        let mut last = StrengthLimit::at_level(LEVEL_MIN);
        for level in LEVEL_MIN + 1..=LEVEL_MAX {
            let s = StrengthLimit::at_level(level);
            assert!(s.nodes >= last.nodes && s.nodes as f64 <= last.nodes as f64 * 1.005);
            let dd = s.depth - last.depth;
            assert!((0.0..=0.0100001).contains(&dd), "{level}: {dd}");
            assert!((0..=1).contains(&(last.margin_cp - s.margin_cp)), "{level}");
            let dl = last.lines - s.lines;
            assert!((0.0..=0.0125001).contains(&dl), "{level}: {dl}");
            last = s;
        }
    }

    #[test]
    fn levels_keep_the_old_scale_and_weaken_below_it() {
        let base = StrengthLimit::at_level(LEVEL_BASE);
        assert_eq!(base.nodes, NODES_AT_BASE as u64);
        assert_eq!(base.depth, DEPTH_AT_BASE);
        assert_eq!(base.margin_cp, NOISE_AT_BASE_CP as i32);
        let top = StrengthLimit::at_level(LEVEL_MAX);
        assert_eq!((top.nodes, top.margin_cp), (NODES_AT_MAX as u64, 0));
        assert_eq!(top.depth, 19.7);
        let bottom = StrengthLimit::at_level(LEVEL_MIN);
        assert_eq!((bottom.nodes, bottom.depth), (base.nodes, base.depth));
        assert!(bottom.margin_cp > base.margin_cp);
        assert_eq!(
            (bottom.lines, base.lines),
            (NOISE_LINES_AT_MIN, NOISE_LINES as f64)
        );
        assert_eq!(top.lines, NOISE_LINES as f64);
        // The scale at sample points (README, "Playing weaker"): the old integer cap was the
        // floor of today's expected one.
        let old = StrengthLimit::at_level(1800);
        assert_eq!((old.nodes, old.margin_cp), (7_036, 111));
        assert!((old.depth - 5.8).abs() < 1e-9, "{old:?}");
    }

    #[test]
    fn the_depth_cap_is_rounded_at_random_to_its_expected_value() {
        for level in [LEVEL_MIN, 1357, 1757, 2200, 2999] {
            let s = StrengthLimit::at_level(level);
            let (lo, hi) = (s.depth.floor() as u32, s.depth.ceil() as u32);
            let n = 20_000;
            let mut sum = 0u64;
            for seed in 0..n {
                // Mixed seeds, as Zobrist keys are.
                let key = splitmix(&mut (seed * 7 + 3));
                let cap = s.depth_cap(key);
                assert!(cap == lo || cap == hi, "{level}: {cap}");
                assert_eq!(s.depth_cap(key), cap, "the same seed, the same cap");
                sum += u64::from(cap);
            }
            let mean = sum as f64 / n as f64;
            assert!(
                (mean - s.depth).abs() < 0.015,
                "{level}: {mean} vs {}",
                s.depth
            );
        }
    }

    #[test]
    fn the_candidate_lines_are_rounded_at_random_to_their_expected_number() {
        for level in [LEVEL_MIN, 1111, 1250, LEVEL_BASE, 2000] {
            let s = StrengthLimit::at_level(level);
            let (lo, hi) = (s.lines.floor() as usize, s.lines.ceil() as usize);
            let n = 20_000;
            let mut sum = 0;
            for seed in 0..n {
                let key = splitmix(&mut (seed * 7 + 3));
                let k = s.search_multipv(1, key);
                assert!(k == lo || k == hi, "{level}: {k}");
                assert_eq!(s.search_multipv(1, key), k, "the same seed, the same lines");
                assert_eq!(
                    s.search_multipv(k + 3, key),
                    k + 3,
                    "the user's MultiPV if more"
                );
                sum += k;
            }
            let mean = sum as f64 / n as f64;
            assert!(
                (mean - s.lines).abs() < 0.015,
                "{level}: {mean} vs {}",
                s.lines
            );
        }
        // No noise, no extra lines.
        let top = StrengthLimit::at_level(LEVEL_MAX);
        assert_eq!(top.search_multipv(2, 5), 2);
    }

    /// The README's "Playing weaker" gives the calibration's net and points: the same as
    /// [`CALIBRATION_NET`] and [`CALIBRATION`] (a new `make calibrate` changes both).
    #[test]
    fn the_readme_gives_the_calibration() {
        let readme = include_str!("../../README.md").replace('\n', " ");
        let lead = "`make calibrate` measured the levels with ";
        let start = readme
            .find(lead)
            .expect("README: the calibration's sentence")
            + lead.len();
        let text = &readme[start..];
        let net = text.split_whitespace().next().expect("the net's name");
        assert_eq!(format!("{net}.nnue"), CALIBRATION_NET);
        let points = &text[text.find("): ").expect("the points") + 3..];
        let points = &points[..points.find(" (above").expect("the points' end")];
        let parsed: Vec<(i32, i32)> = points
            .split(", ")
            .map(|p| {
                let (level, elo) = p.split_once(": ").expect(p);
                (level.parse().expect(p), elo.parse().expect(p))
            })
            .collect();
        assert_eq!(parsed, CALIBRATION);
    }

    #[test]
    fn the_calibration_is_increasing_and_inverted_exactly() {
        for w in CALIBRATION.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
        assert_eq!(CALIBRATION[0].0, LEVEL_MIN);
        for &(level, elo) in &CALIBRATION {
            assert_eq!(level_elo(level).round() as i32, elo);
            if elo >= ELO_MIN {
                assert_eq!(level_for_elo(elo), level, "{elo}");
            }
        }
        for level in (LEVEL_MIN..=LEVEL_MAX).step_by(10) {
            let e = level_elo(level).round() as i32;
            assert!((level_for_elo(e) - level).abs() <= 10, "{level} -> {e}");
        }
        // Below the weakest level's strength: the weakest level; above the strongest: the top.
        assert_eq!(level_for_elo(0), LEVEL_MIN);
        assert_eq!(level_for_elo(99_999), LEVEL_MAX);
    }

    #[test]
    fn apply_keeps_the_tighter_limit() {
        let s = StrengthLimit::from_elo(2000);
        let mut l = SearchLimits::default();
        let cap = s.apply(&mut l, 11);
        assert_eq!(cap, s.depth_cap(11));
        assert_eq!((l.nodes, l.depth), (Some(s.nodes), Some(cap)));
        let mut l = SearchLimits {
            nodes: Some(10),
            depth: Some(2),
            ..Default::default()
        };
        s.apply(&mut l, 11);
        assert_eq!((l.nodes, l.depth), (Some(10), Some(2)));
    }

    fn lines(scores: &[i32]) -> Vec<RootLine> {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        scores
            .iter()
            .zip(moves.iter())
            .map(|(&score, &m)| RootLine { score, pv: vec![m] })
            .collect()
    }

    #[test]
    fn choose_stays_within_the_margin_and_is_deterministic() {
        let l = lines(&[50, 40, -100, 45]);
        assert_eq!(choose(&l, 0, 7), Some(0));
        assert_eq!(choose(&[], 100, 7), None);
        let mut seen = [0; 4];
        for seed in 0..1000 {
            let c = choose(&l, 20, seed).unwrap();
            assert_eq!(choose(&l, 20, seed), Some(c));
            seen[c] += 1;
        }
        assert_eq!(seen[2], 0, "a move 150 cp worse is never played");
        assert!(seen[0] > 0 && seen[1] > 0 && seen[3] > 0, "{seen:?}");
    }
}
