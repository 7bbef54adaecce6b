//! Every margin, depth gate and reduction of the search, named by what it does, each declared
//! once in `search_params!` with its default, range and SPSA step.
//!
//! Vocabulary: `*_depth` is a depth gate (the technique applies at or below / above it),
//! `*_margin` a per-depth slope in centipawns, `*_base` an offset, `*_divisor` a divisor,
//! `*_x100` a fraction in hundredths.
//!
//! The search reads each parameter through the function of its name (`rfp_margin()`). In the
//! default build that function returns the default, a constant the compiler folds into the
//! code: the search is the same machine code as with plain constants (Bench unchanged). Built
//! with `--features tune` (`make tune`), each parameter is a global atomic instead, a UCI spin
//! option named in capitals (`RFP_MARGIN`) that `setoption` sets, and the `spsa` command prints
//! the OpenBench SPSA input, one `NAME, int, value, min, max, step, 0.002` line each ([`Param`]).
//!
//! Ranges are wide enough for a tuner to explore and narrow enough to keep the search sound:
//! divisors stay at least 1, and `lmr_depth ≥ 2` with `se_depth ≥ 4` keeps every reduced
//! depth positive. The step (OpenBench's `c_end`, the perturbation at the end of a run) is
//! about a twentieth of the range, and at least 1.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

use crate::timeman::TimeParams;

/// The OpenBench SPSA `r_end` (learning rate at the end of a run) printed on every line.
pub const SPSA_R_END: f64 = 0.002;

/// Whether the parameters are tunable in this build (`--features tune`).
pub const TUNABLE: bool = cfg!(feature = "tune");

/// One tunable parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The accessor's name (`rfp_margin`); the UCI option is the same in capitals.
    pub name: &'static str,
    /// The built-in value.
    pub default: i32,
    /// Smallest value allowed.
    pub min: i32,
    /// Largest value allowed.
    pub max: i32,
    /// SPSA perturbation at the end of a run (OpenBench's `c_end`).
    pub step: i32,
    /// Position in [`PARAMS`] (and in the tune build's values).
    #[cfg_attr(not(feature = "tune"), allow(dead_code))]
    index: usize,
}

/// Declares the parameters: each becomes an entry of [`PARAMS`] and an accessor function, a
/// constant in the default build and a relaxed atomic load with `--features tune`.
macro_rules! search_params {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $default:expr, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        #[allow(non_camel_case_types)]
        enum Id { $($name),* }

        /// Every search parameter, in declaration order.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
            index: Id::$name as usize,
        }),*];

        /// The values of the tune build, in the order of [`PARAMS`].
        #[cfg(feature = "tune")]
        static VALUES: [AtomicI32; PARAMS.len()] = [$(AtomicI32::new($default)),*];

        $(
            $(#[doc = $doc])*
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
                #[cfg(feature = "tune")]
                {
                    VALUES[Id::$name as usize].load(Ordering::Relaxed)
                }
            }
        )*
    };
}

search_params! {
    /// Aspiration: first half-width of the window around the previous score.
    asp_delta: 20, 5..=60, step 3;
    /// Aspiration: iterations before this depth use a full window.
    asp_min_depth: 4, 1..=10, step 1;
    /// Aspiration: the half-width grows by this many percent after each fail (at least 1).
    asp_growth: 50, 20..=150, step 6;

    /// MTD(f) (`mtdstep`): each further pass that moves the same bound multiplies the step
    /// past the fail-soft value by this many hundredths (the first step is 1 cp).
    mtd_step_x100: 200, 120..=400, step 14;
    /// MTD(f) (`mtdfallback`): null-window passes of one iteration before a PVS window
    /// search between the bounds ends it.
    mtd_max_passes: 8, 3..=24, step 1;

    /// Reverse futility pruning: applies at depth ≤ this.
    rfp_depth: 8, 3..=14, step 1;
    /// Reverse futility pruning: margin per ply of depth.
    rfp_margin: 75, 30..=150, step 6;
    /// Reverse futility pruning: margin taken off when the static eval is improving.
    rfp_improving: 60, 0..=120, step 6;

    /// Razoring: applies at depth ≤ this.
    razor_depth: 3, 1..=6, step 1;
    /// Razoring: base margin below alpha.
    razor_base: 250, 100..=500, step 20;
    /// Razoring: margin per ply.
    razor_margin: 200, 50..=400, step 18;

    /// Null move: minimum depth.
    nmp_depth: 3, 1..=6, step 1;
    /// Null move: base reduction.
    nmp_base: 3, 1..=6, step 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor: 4, 2..=8, step 1;
    /// Null move: one more ply of reduction per this many centipawns of eval above beta, up to
    /// `nmp_eval_max` plies.
    nmp_eval_divisor: 200, 50..=400, step 18;
    /// Null move: most plies of reduction the eval above beta adds.
    nmp_eval_max: 3, 0..=6, step 1;
    /// Null move: verify with a reduced normal search at depth ≥ this (zugzwang guard).
    nmp_verify_depth: 12, 6..=20, step 1;

    /// ProbCut: minimum depth (at least `probcut_reduction`).
    probcut_depth: 5, 4..=10, step 1;
    /// ProbCut: how far above beta a capture must score.
    probcut_margin: 180, 50..=350, step 15;
    /// ProbCut: depth reduction of the verification search.
    probcut_reduction: 4, 2..=4, step 1;

    /// Internal iterative reduction: minimum depth.
    iir_depth: 4, 2..=10, step 1;

    /// Futility pruning of quiet moves: applies at depth ≤ this.
    fp_depth: 7, 2..=12, step 1;
    /// Futility pruning: base margin.
    fp_base: 90, 0..=250, step 12;
    /// Futility pruning: margin per ply.
    fp_margin: 100, 30..=200, step 9;

    /// Late move pruning: applies at depth ≤ this.
    lmp_depth: 8, 2..=14, step 1;
    /// Late move pruning: quiets tried before pruning is `lmp_base + depth²` (halved when not
    /// improving).
    lmp_base: 3, 0..=10, step 1;

    /// SEE pruning in the main search: applies at depth ≤ this.
    see_depth: 8, 2..=14, step 1;
    /// SEE pruning: quiet moves may lose at most this per ply.
    see_quiet_margin: 60, 10..=150, step 7;
    /// SEE pruning: captures may lose at most this per ply squared.
    see_noisy_margin: 20, 5..=60, step 3;

    /// Late move reductions: minimum depth (at least 2, so that a reduced search keeps a ply).
    lmr_depth: 3, 2..=6, step 1;
    /// Late move reductions: moves searched before reducing (plus one in PV nodes).
    lmr_min_moves: 2, 0..=6, step 1;
    /// Late move reductions: table base in hundredths of a ply
    /// (`base/100 + ln(depth)·ln(moves) / (divisor/100)`).
    lmr_base_x100: 75, 0..=200, step 10;
    /// Late move reductions: table divisor in hundredths.
    lmr_divisor_x100: 225, 150..=400, step 12;
    /// Late move reductions: history points per ply of reduction removed or added.
    lmr_history_divisor: 6000, 2000..=16000, step 700;
    /// Late move reductions: the most plies a quiet move's history takes off or adds (as
    /// Ethereal's ±2). The butterfly score alone, within ±16384, stays inside ±2 at the
    /// default divisor.
    lmr_history_max: 2, 0..=6, step 1;

    /// Singular extensions: minimum depth.
    se_depth: 7, 4..=12, step 1;
    /// Singular extensions: the TT entry may be at most this much shallower than the node.
    se_tt_depth_slack: 3, 1..=6, step 1;
    /// Singular extensions: singular beta is `tt_score - se_margin · depth / 16`.
    se_margin: 32, 8..=64, step 3;
    /// Singular extensions: a double extension needs the excluded search this far below.
    se_double_margin: 20, 0..=60, step 3;
    /// Singular extensions: double extensions allowed on one path.
    se_double_limit: 6, 0..=12, step 1;

    /// Enhanced transposition cutoffs: minimum depth (the literature finds ETC pays only away
    /// from the leaves).
    etc_depth: 6, 2..=12, step 1;

    /// Quiescence: delta pruning margin over the captured piece's value.
    delta_margin: 200, 50..=400, step 18;
    /// Quiescence: captures losing more than this by SEE are skipped.
    qs_see_margin: 0, -100..=100, step 10;

    /// History bonus of a cutoff at depth d: `min(quad·d² + linear·d, max)`.
    hist_bonus_quad: 16, 0..=48, step 2;
    /// History bonus: the linear term.
    hist_bonus_linear: 32, 0..=96, step 5;
    /// History bonus: its largest value.
    hist_bonus_max: 1600, 400..=4000, step 180;

    /// Continuation history: weight, in halves, of the row of the move 1 ply back in a quiet
    /// move's ordering score (the butterfly score counts once).
    conthist_weight_1: 2, 0..=4, step 1;
    /// Continuation history: weight, in halves, of the row of the move 2 plies back.
    conthist_weight_2: 2, 0..=4, step 1;
    /// Continuation history: weight, in halves, of the row of the move 4 plies back.
    conthist_weight_4: 1, 0..=4, step 1;

    /// Capture history: its bonus per cutoff is the butterfly bonus times this, in halves.
    capthist_bonus_scale: 2, 1..=6, step 1;
    /// Capture history: the picker orders captures by `MVV-LVA + capture history / this`.
    /// MVV-LVA gives 16 points per centipawn of the victim (a pawn about 1300), so at 2 a
    /// capture history near its bound (±16384) is worth about six pawns of victim, as the
    /// capture term of Stockfish's ordering is (at 8 it only broke ties within a victim).
    capthist_order_divisor: 2, 1..=32, step 2;
    /// Capture history: a capture is good (searched before the quiets) when its SEE is at least
    /// `-capture history / this`.
    capthist_see_divisor: 64, 8..=256, step 12;

    /// Material scaling of the network's evaluation (`matscale`): the scale in 1024ths with
    /// no material but the kings; each 24 cp of material on the board adds one.
    matscale_base: 700, 400..=1000, step 30;

    /// Time manager: moves the clock is spread over in sudden death.
    tm_sudden_death_moves: TM.sudden_death_moves as i32, 12..=60, step 3;
    /// Time manager: the hard bound as a multiple of the optimum.
    tm_hard_factor: TM.hard_factor as i32, 2..=10, step 1;
    /// Time manager: the best move's stability scales the soft bound by its table's departure
    /// from 1 times this / 100.
    tm_stability_x100: TM.stability_x100 as i32, 0..=200, step 10;
    /// Time manager: a score drop of this many centipawns gives the full extra time.
    tm_score_drop_full_cp: TM.score_drop_full_cp as i32, 30..=400, step 18;
    /// Time manager: the extra soft bound (‰) of a full score drop.
    tm_score_drop_max_permille: TM.score_drop_max_permille as i32, 0..=1500, step 70;
    /// Time manager: the node-share scale (‰) when the best move took none of the nodes.
    tm_nodes_base_permille: TM.nodes_base_permille as i32, 1000..=2500, step 70;
    /// Time manager: the scale (‰) taken off when the best move took all the nodes.
    tm_nodes_slope_permille: TM.nodes_slope_permille as i32, 0..=1000, step 50;
    /// Time manager: the adjusted soft bound never falls below this share (‰) of the optimum.
    tm_min_soft_permille: TM.min_soft_permille as i32, 100..=800, step 35;
}

/// The time manager's built-in constants: the defaults of the `tm_*` parameters.
const TM: TimeParams = TimeParams::DEFAULT;

/// The time manager's constants in force (the `tm_*` parameters).
pub fn time_params() -> TimeParams {
    time_params_from(Param::value)
}

/// The time manager's constants with each `tm_*` parameter's value read by `value` (the one
/// place that maps a parameter to its field).
fn time_params_from(value: impl Fn(&Param) -> i32) -> TimeParams {
    let v = |id: Id| value(&PARAMS[id as usize]) as u64;
    TimeParams {
        sudden_death_moves: v(Id::tm_sudden_death_moves),
        hard_factor: v(Id::tm_hard_factor),
        stability_x100: v(Id::tm_stability_x100),
        score_drop_full_cp: v(Id::tm_score_drop_full_cp),
        score_drop_max_permille: v(Id::tm_score_drop_max_permille),
        nodes_base_permille: v(Id::tm_nodes_base_permille),
        nodes_slope_permille: v(Id::tm_nodes_slope_permille),
        min_soft_permille: v(Id::tm_min_soft_permille),
    }
}

impl Param {
    /// The UCI option name: the accessor's name in capitals (`RFP_MARGIN`).
    pub fn uci_name(&self) -> String {
        self.name.to_ascii_uppercase()
    }

    /// The value in force: the default, or in the tune build the last one set.
    pub fn value(&self) -> i32 {
        #[cfg(feature = "tune")]
        {
            VALUES[self.index].load(Ordering::Relaxed)
        }
        #[cfg(not(feature = "tune"))]
        {
            self.default
        }
    }

    /// Sets the value (tune build), clamped into `min..=max`; returns the value stored.
    #[cfg(feature = "tune")]
    pub fn set(&self, value: i64) -> i32 {
        let v = value.clamp(self.min as i64, self.max as i64) as i32;
        VALUES[self.index].store(v, Ordering::Relaxed);
        v
    }

    /// The OpenBench SPSA input line: `NAME, int, value, min, max, step, r_end`.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.uci_name(),
            self.value(),
            self.min,
            self.max,
            self.step,
            SPSA_R_END
        )
    }
}

/// The parameter whose UCI name (or accessor name) is `name`, in any case.
pub fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// Puts every parameter back to its default (tune build).
#[cfg(feature = "tune")]
pub fn reset() {
    for p in PARAMS {
        p.set(p.default as i64);
    }
}

/// The OpenBench SPSA input, one line per parameter with the values in force.
pub fn spsa_input() -> String {
    PARAMS.iter().map(|p| p.spsa_line() + "\n").collect()
}

/// What `spsa` answers in a build without `--features tune`.
pub const NOT_TUNABLE: &str = "the search parameters are UCI options only in a tune build: \
                               cargo build --release --features tune (make tune)";

/// Correction history: entries per side to move in each table (a power of two).
pub const CORRHIST_SIZE: usize = 16384;
/// Correction history: entries hold centipawns times this.
pub const CORRHIST_GRAIN: i32 = 256;
/// Correction history: the most one table corrects, in centipawns (each gap it learns from is
/// clamped to this first).
pub const CORRHIST_LIMIT: i32 = 64;
/// Correction history: a node searched to depth `d` moves an entry `min(d + 1, this)` / 256
/// of the way towards what it learned.
pub const CORRHIST_WEIGHT_MAX: i32 = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_range_holds_its_default_and_keeps_the_search_sound() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert_eq!(p.index, i, "{}", p.name);
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(
                p.step >= 1 && p.step <= (p.max - p.min).max(1),
                "{}",
                p.name
            );
            if p.name.contains("divisor") {
                assert!(p.min >= 1, "{} may not reach 0", p.name);
            }
            assert_eq!(find(&p.uci_name()), Some(p));
        }
        let mut names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PARAMS.len());
        let get = |n: &str| *find(n).unwrap();
        assert!(get("lmr_depth").min >= 2 && get("se_depth").min >= 4);
        assert!(get("probcut_depth").min >= get("probcut_reduction").max);
    }

    #[test]
    fn spsa_lines_have_the_openbench_format() {
        let text = spsa_input();
        assert_eq!(text.lines().count(), PARAMS.len());
        let line = text.lines().find(|l| l.starts_with("RFP_MARGIN,")).unwrap();
        if !TUNABLE {
            assert_eq!(line, "RFP_MARGIN, int, 75, 30, 150, 6, 0.002");
        }
    }

    /// The clamp on the plies history takes off or adds in LMR does not bind at the default
    /// divisor: the butterfly score alone never reaches it.
    #[test]
    #[cfg(not(feature = "tune"))]
    fn lmr_history_clamp_leaves_the_butterfly_reduction_alone() {
        let hmax = crate::search::ordering::history::HISTORY_MAX;
        assert!(hmax / lmr_history_divisor() <= lmr_history_max());
    }

    /// The time manager's parameters map onto its constants field by field, and at every
    /// corner of their ranges its bounds stay ordered and inside the clock.
    #[test]
    fn time_params_map_onto_the_time_manager() {
        use crate::limits::{Clock, SearchLimits};
        use crate::position::Color;
        use crate::timeman::TimeManager;
        #[cfg(not(feature = "tune"))]
        assert_eq!(time_params(), TimeParams::DEFAULT);
        let tm = PARAMS.iter().filter(|p| p.name.starts_with("tm_")).count();
        assert_eq!(tm, 8);
        assert_eq!(time_params_from(|p| p.default), TimeParams::DEFAULT);
        let best = crate::position::Position::startpos().legal_moves()[0];
        for corner in [time_params_from(|p| p.min), time_params_from(|p| p.max)] {
            for (time, inc, mtg) in [(60_000, 0, None), (1_000, 10, None), (5_000, 50, Some(1))] {
                let limits = SearchLimits {
                    clock: Clock {
                        wtime: Some(time),
                        winc: inc,
                        movestogo: mtg,
                        ..Clock::default()
                    },
                    ..SearchLimits::default()
                };
                let mut t = TimeManager::with_params(&limits, Color::White, 10, corner);
                for depth in 1..12 {
                    let it = crate::timeman::IterationSummary {
                        depth,
                        best,
                        score: -300 * depth as i32,
                        best_move_nodes: 10,
                        root_nodes: 1000,
                    };
                    t.iteration_done(&it, 0);
                    let b = t.bounds().unwrap();
                    assert!(b.soft_ms >= 1 && b.soft_ms <= b.hard_ms, "{corner:?} {b:?}");
                    assert!(b.hard_ms < time, "{corner:?} {b:?}");
                }
            }
        }
    }

    #[test]
    #[cfg(not(feature = "tune"))]
    fn accessors_are_the_defaults() {
        assert_eq!(rfp_margin(), 75);
        assert_eq!(lmr_base_x100(), 75);
        assert!(PARAMS.iter().all(|p| p.value() == p.default));
    }
}
