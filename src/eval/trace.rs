//! Evaluation traces: the evaluation written as a function of its weights, for tuning.
//!
//! Every evaluation term reports to a [`Trace`] which weight of [`params`](super::params)
//! fired, for which colour and how often. The engine evaluates with [`NoTrace`], whose methods
//! are empty and compile to nothing; the tuner evaluates with an [`EvalTrace`], which collects
//! the coefficients so that the evaluation can be recomputed for any weights:
//!
//! ```text
//! score  = Σ linear_i · w_i  −  danger(units against White's king)  +  danger(units against Black's)
//! units  = Σ units_i · w_i                                    (per king, when its gates pass)
//! eval   = scale · taper(score, phase)                        (White's view)
//! ```
//!
//! `linear_i` counts weight `i` for White minus for Black (piece values, piece-square tables,
//! mobility, pawn structure, passed pawns, shelter, tempo, ...). King danger is not linear: its
//! middlegame part is the square of the capped attack units, its endgame part a clipped linear
//! function. The trace keeps its *inputs* linear (the units of each weight against each king)
//! and [`king_danger`] applies the fixed non-linearity, so a tuner can tune the unit weights
//! through the chain rule. What is held fixed per position (decided with the weights the engine
//! was built with): whether the king-danger gates pass (attacker count, the attacker's
//! material), the endgame scale factor (it depends on the material and on the sign of the
//! endgame score) and the phase.
//!
//! [`EvalTrace::white_eval`] recomputes the evaluation from the coefficients in the engine's
//! integer arithmetic; with the engine's own weights it equals the evaluation exactly (a test
//! checks this on the bench and perft-suite positions).

use super::Score;
use super::params::*;
use crate::position::Color;

/// Turns a weight into a slice of weights: `table` for an array, `one` for a single `Score`.
macro_rules! weights_of {
    (table, $name:ident) => {
        &$name
    };
    (one, $name:ident) => {
        std::slice::from_ref(&$name)
    };
}

/// Declares [`Group`] and [`GROUPS`] from one list, so that the two cannot disagree.
macro_rules! weight_groups {
    ($($variant:ident = $kind:ident $name:ident,)*) => {
        /// A named weight (or table of weights) of `params.rs`, in the file's order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Group {
            $(
                #[doc = concat!("`", stringify!($name), "`")]
                $variant,
            )*
        }

        /// Every tunable weight of `params.rs`: its name and its values, in the file's order.
        /// The flat index of weight `i` of a group is [`Group::index`].
        pub const GROUPS: &[(&str, &[Score])] = &[$((stringify!($name), weights_of!($kind, $name)),)*];
    };
}

weight_groups! {
    PieceValue = table PIECE_VALUE,
    PawnPst = table PAWN_PST,
    KnightPst = table KNIGHT_PST,
    BishopPst = table BISHOP_PST,
    RookPst = table ROOK_PST,
    QueenPst = table QUEEN_PST,
    KingPst = table KING_PST,
    MobilityKnight = table MOBILITY_KNIGHT,
    MobilityBishop = table MOBILITY_BISHOP,
    MobilityRook = table MOBILITY_ROOK,
    MobilityQueen = table MOBILITY_QUEEN,
    BishopPair = one BISHOP_PAIR,
    RookOpenFile = one ROOK_OPEN_FILE,
    RookSemiOpenFile = one ROOK_SEMI_OPEN_FILE,
    RookOnSeventh = one ROOK_ON_SEVENTH,
    KnightOutpost = one KNIGHT_OUTPOST,
    BishopOutpost = one BISHOP_OUTPOST,
    PawnIsolated = one PAWN_ISOLATED,
    PawnDoubled = one PAWN_DOUBLED,
    PawnBackward = one PAWN_BACKWARD,
    PawnSupported = table PAWN_SUPPORTED,
    PawnPhalanx = table PAWN_PHALANX,
    PawnCandidate = table PAWN_CANDIDATE,
    PassedRank = table PASSED_RANK,
    PassedOwnKingDistance = table PASSED_OWN_KING_DISTANCE,
    PassedEnemyKingDistance = table PASSED_ENEMY_KING_DISTANCE,
    PassedBlocked = table PASSED_BLOCKED,
    PassedSafePush = table PASSED_SAFE_PUSH,
    PassedUnstoppable = one PASSED_UNSTOPPABLE,
    KingShield = table KING_SHIELD,
    KingSemiOpenFile = one KING_SEMI_OPEN_FILE,
    KingOpenFile = one KING_OPEN_FILE,
    KingStorm = table KING_STORM,
    KingStormBlocked = table KING_STORM_BLOCKED,
    KingAttackerUnits = table KING_ATTACKER_UNITS,
    KingZoneAttackUnits = one KING_ZONE_ATTACK_UNITS,
    KingWeakSquareUnits = one KING_WEAK_SQUARE_UNITS,
    KingSafeCheckUnits = table KING_SAFE_CHECK_UNITS,
    KingNoQueenUnits = one KING_NO_QUEEN_UNITS,
    ThreatWeakPawn = one THREAT_WEAK_PAWN,
    ThreatMinorByPawn = one THREAT_MINOR_BY_PAWN,
    ThreatMinorByMinor = one THREAT_MINOR_BY_MINOR,
    ThreatMinorByMajor = one THREAT_MINOR_BY_MAJOR,
    ThreatRookByLesser = one THREAT_ROOK_BY_LESSER,
    ThreatQueen = one THREAT_QUEEN,
    ThreatHanging = one THREAT_HANGING,
    ThreatPawnPush = one THREAT_PAWN_PUSH,
    Tempo = one TEMPO,
}

/// First flat index of each group.
const OFFSETS: [usize; GROUPS.len()] = {
    let mut t = [0; GROUPS.len()];
    let mut g = 1;
    while g < GROUPS.len() {
        t[g] = t[g - 1] + GROUPS[g - 1].1.len();
        g += 1;
    }
    t
};

/// Number of tunable weights (each an (mg, eg) pair).
pub const NUM_WEIGHTS: usize = OFFSETS[GROUPS.len() - 1] + GROUPS[GROUPS.len() - 1].1.len();

impl Group {
    /// Flat index of weight `i` of this group (into [`weights`] and the trace vectors).
    #[inline]
    pub const fn index(self, i: usize) -> usize {
        OFFSETS[self as usize] + i
    }
}

/// The weights the engine was built with, flattened in [`Group::index`] order.
pub fn weights() -> Vec<Score> {
    GROUPS.iter().flat_map(|(_, w)| w.iter().copied()).collect()
}

/// Name of the weight at flat index `idx`, e.g. `PAWN_PST[12]` or `TEMPO`.
pub fn weight_name(idx: usize) -> String {
    for (g, (name, w)) in GROUPS.iter().enumerate() {
        let i = idx.wrapping_sub(OFFSETS[g]);
        if i < w.len() {
            return if w.len() == 1 {
                (*name).to_string()
            } else {
                format!("{name}[{i}]")
            };
        }
    }
    format!("#{idx}")
}

/// The king-danger penalty for `units` of attack: the middlegame units capped at
/// [`KING_DANGER_MAX_UNITS`] and squared over [`KING_DANGER_DIVISOR`], the endgame units
/// (at least 0) over [`KING_DANGER_EG_DIVISOR`].
#[inline]
pub fn king_danger(units: Score) -> Score {
    let mg = units.0.clamp(0, KING_DANGER_MAX_UNITS);
    let eg = units.1.max(0);
    Score(mg * mg / KING_DANGER_DIVISOR, eg / KING_DANGER_EG_DIVISOR)
}

/// Receives what the evaluation computes, term by term. Colours are the side the term counts
/// for: White's terms add to the score, Black's subtract.
pub trait Trace {
    /// Weight `i` of `group` fired `count` times for `c`.
    fn term(&mut self, c: Color, group: Group, i: usize, count: i32);
    /// `count` king-danger units of weight `i` of `group` against the king of colour `king`.
    fn units(&mut self, king: Color, group: Group, i: usize, count: i32);
    /// The king danger against the king of colour `king` counts (its gates passed).
    fn danger(&mut self, king: Color);
    /// The game phase (0 ..= [`MAX_PHASE`](super::MAX_PHASE)) and the endgame scale factor
    /// (out of [`SCALE_NORMAL`]).
    fn finish(&mut self, phase: i32, scale: i32);
}

/// The engine's tracer: records nothing and costs nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn term(&mut self, _: Color, _: Group, _: usize, _: i32) {}
    #[inline(always)]
    fn units(&mut self, _: Color, _: Group, _: usize, _: i32) {}
    #[inline(always)]
    fn danger(&mut self, _: Color) {}
    #[inline(always)]
    fn finish(&mut self, _: i32, _: i32) {}
}

/// The coefficients of one evaluation (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// Per weight: how often it fired for White minus how often for Black.
    pub linear: Vec<i32>,
    /// Per king colour (`Black = 0`, `White = 1`) and weight: attack units against that king.
    pub units: [Vec<i32>; 2],
    /// Per king colour: whether the king danger against it counts.
    pub danger: [bool; 2],
    /// Game phase, 0 ..= 24.
    pub phase: i32,
    /// Endgame scale factor out of [`SCALE_NORMAL`] (0 for insufficient material).
    pub scale: i32,
}

impl Default for EvalTrace {
    fn default() -> Self {
        EvalTrace::new()
    }
}

impl EvalTrace {
    /// An empty trace.
    pub fn new() -> EvalTrace {
        EvalTrace {
            linear: vec![0; NUM_WEIGHTS],
            units: [vec![0; NUM_WEIGHTS], vec![0; NUM_WEIGHTS]],
            danger: [false; 2],
            phase: 0,
            scale: SCALE_NORMAL,
        }
    }

    /// Forgets everything, for the next position.
    pub fn clear(&mut self) {
        self.linear.fill(0);
        self.units[0].fill(0);
        self.units[1].fill(0);
        self.danger = [false; 2];
        self.phase = 0;
        self.scale = SCALE_NORMAL;
    }

    /// The attack units against the king of colour index `king` under `weights` (whether or
    /// not its danger counts).
    pub fn king_units(&self, king: usize, weights: &[Score]) -> Score {
        dot(&self.units[king], weights)
    }

    /// The (mg, eg) score before tapering, White's view, under `weights`.
    pub fn white_score(&self, weights: &[Score]) -> Score {
        let mut score = dot(&self.linear, weights);
        if self.danger[1] {
            score -= king_danger(self.king_units(1, weights));
        }
        if self.danger[0] {
            score += king_danger(self.king_units(0, weights));
        }
        score
    }

    /// The evaluation from White's view under `weights` (flat, see [`weights`]), in the
    /// engine's integer arithmetic: with the engine's weights, exactly its evaluation.
    pub fn white_eval(&self, weights: &[Score]) -> i32 {
        super::taper(self.white_score(weights), self.phase, self.scale)
    }
}

/// Σ coef_i · w_i over both halves of the weights.
fn dot(coefs: &[i32], weights: &[Score]) -> Score {
    coefs
        .iter()
        .zip(weights)
        .filter(|(c, _)| **c != 0)
        .fold(Score::default(), |acc, (&c, &w)| acc + w * c)
}

impl Trace for EvalTrace {
    #[inline]
    fn term(&mut self, c: Color, group: Group, i: usize, count: i32) {
        let sign = if c == Color::White { 1 } else { -1 };
        self.linear[group.index(i)] += sign * count;
    }
    #[inline]
    fn units(&mut self, king: Color, group: Group, i: usize, count: i32) {
        self.units[king as usize][group.index(i)] += count;
    }
    #[inline]
    fn danger(&mut self, king: Color) {
        self.danger[king as usize] = true;
    }
    #[inline]
    fn finish(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_laid_out_in_order() {
        assert_eq!(Group::PieceValue.index(0), 0);
        assert_eq!(Group::PawnPst.index(0), 6);
        assert_eq!(Group::KnightPst.index(0), 6 + 64);
        assert_eq!(Group::Tempo.index(0), NUM_WEIGHTS - 1);
        assert_eq!(weights().len(), NUM_WEIGHTS);
        assert_eq!(weights()[Group::Tempo.index(0)], TEMPO);
        assert_eq!(weight_name(Group::PawnPst.index(12)), "PAWN_PST[12]");
        assert_eq!(weight_name(Group::Tempo.index(0)), "TEMPO");
    }

    #[test]
    fn king_danger_caps_and_clips() {
        assert_eq!(king_danger(Score(-5, -5)), Score(0, 0));
        assert_eq!(
            king_danger(Score(1000, 40)),
            Score(
                KING_DANGER_MAX_UNITS * KING_DANGER_MAX_UNITS / KING_DANGER_DIVISOR,
                10
            )
        );
    }
}
