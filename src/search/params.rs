//! Every margin, depth gate and reduction of the search, named by what it does.
//!
//! Vocabulary: `*_DEPTH` is a depth gate (the technique applies at or below / above it),
//! `*_MARGIN` a per-depth slope in centipawns, `*_BASE` an offset, `*_DIVISOR` a divisor.

/// Aspiration: first half-width of the window around the previous score.
pub const ASP_DELTA: i32 = 20;
/// Aspiration: iterations before this depth use a full window.
pub const ASP_MIN_DEPTH: i32 = 4;

/// Reverse futility pruning: applies at depth ≤ this.
pub const RFP_DEPTH: i32 = 8;
/// Reverse futility pruning: margin per ply of depth.
pub const RFP_MARGIN: i32 = 75;
/// Reverse futility pruning: margin taken off when the static eval is improving.
pub const RFP_IMPROVING: i32 = 60;

/// Razoring: applies at depth ≤ this.
pub const RAZOR_DEPTH: i32 = 3;
/// Razoring: base margin below alpha.
pub const RAZOR_BASE: i32 = 250;
/// Razoring: margin per ply.
pub const RAZOR_MARGIN: i32 = 200;

/// Null move: minimum depth.
pub const NMP_DEPTH: i32 = 3;
/// Null move: base reduction.
pub const NMP_BASE: i32 = 3;
/// Null move: one more ply of reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null move: one more ply of reduction per this many centipawns of eval above beta (max 3).
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// Null move: verify with a reduced normal search at depth ≥ this (zugzwang guard).
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// ProbCut: minimum depth.
pub const PROBCUT_DEPTH: i32 = 5;
/// ProbCut: how far above beta a capture must score.
pub const PROBCUT_MARGIN: i32 = 180;
/// ProbCut: depth reduction of the verification search.
pub const PROBCUT_REDUCTION: i32 = 4;

/// Internal iterative reduction: minimum depth.
pub const IIR_DEPTH: i32 = 4;

/// Futility pruning of quiet moves: applies at depth ≤ this.
pub const FP_DEPTH: i32 = 7;
/// Futility pruning: base margin.
pub const FP_BASE: i32 = 90;
/// Futility pruning: margin per ply.
pub const FP_MARGIN: i32 = 100;

/// Late move pruning: applies at depth ≤ this.
pub const LMP_DEPTH: i32 = 8;
/// Late move pruning: quiets tried before pruning is `LMP_BASE + depth²` (halved when not
/// improving).
pub const LMP_BASE: i32 = 3;

/// SEE pruning in the main search: applies at depth ≤ this.
pub const SEE_DEPTH: i32 = 8;
/// SEE pruning: quiet moves may lose at most this per ply.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// SEE pruning: captures may lose at most this per ply squared.
pub const SEE_NOISY_MARGIN: i32 = 20;

/// Late move reductions: minimum depth.
pub const LMR_DEPTH: i32 = 3;
/// Late move reductions: moves searched before reducing (plus one in PV nodes).
pub const LMR_MIN_MOVES: usize = 2;
/// Late move reductions: table base, in hundredths of a ply.
pub const LMR_BASE: f64 = 0.75;
/// Late move reductions: table divisor (`base + ln(depth)·ln(moves) / divisor`).
pub const LMR_DIVISOR: f64 = 2.25;
/// Late move reductions: history points per ply of reduction removed or added.
pub const LMR_HISTORY_DIVISOR: i32 = 6000;
/// Late move reductions with `histlmr`: points of butterfly plus continuation history (the
/// quiet ordering score) per ply of reduction removed or added, instead of the above.
pub const LMR_CONTHIST_DIVISOR: i32 = 10000;

/// Quiet-history pruning: applies at depth ≤ this.
pub const HISTPRUNE_DEPTH: i32 = 3;
/// Quiet-history pruning: a quiet move whose continuation history (1 and 2 plies back) is
/// below `-HISTPRUNE_MARGIN · depth` is skipped.
pub const HISTPRUNE_MARGIN: i32 = 2000;

/// Singular extensions: minimum depth.
pub const SE_DEPTH: i32 = 7;
/// Singular extensions: the TT entry may be at most this much shallower than the node.
pub const SE_TT_DEPTH_SLACK: i32 = 3;
/// Singular extensions: singular beta is `tt_score - SE_MARGIN · depth / 16`.
pub const SE_MARGIN: i32 = 32;
/// Singular extensions: a double extension needs the excluded search this far below.
pub const SE_DOUBLE_MARGIN: i32 = 20;
/// Singular extensions: double extensions allowed on one path.
pub const SE_DOUBLE_LIMIT: i32 = 6;

/// Enhanced transposition cutoffs: minimum depth (the literature finds ETC pays only away
/// from the leaves).
pub const ETC_DEPTH: i32 = 6;

/// Quiescence: delta pruning margin over the captured piece's value.
pub const DELTA_MARGIN: i32 = 200;
/// Quiescence: captures losing more than this by SEE are skipped.
pub const QS_SEE_MARGIN: i32 = 0;

/// Continuation history: weights, in halves, of the rows of the moves 1, 2 and 4 plies back
/// in a quiet move's ordering score (the butterfly score counts once).
pub const CONTHIST_ORDER_WEIGHTS: [i32; 3] = [2, 2, 1];

/// Capture history: its bonus per cutoff is the butterfly bonus times this, in halves.
pub const CAPTHIST_BONUS_SCALE: i32 = 2;
/// Capture history: the picker orders captures by `MVV-LVA + capture history / this`.
pub const CAPTHIST_ORDER_DIVISOR: i32 = 8;
/// Capture history: a capture is good (searched before the quiets) when its SEE is at least
/// `-capture history / this`.
pub const CAPTHIST_SEE_DIVISOR: i32 = 64;

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
