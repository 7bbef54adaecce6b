//! Static evaluation: a hand-crafted evaluation tapered between middlegame and endgame by the
//! material left. Scores are centipawns from the side to move's view.
//!
//! Terms, each in its own module, all weights in [`params`]:
//! - material and piece-square tables (`pieces.rs`, pawns in `pawns.rs`);
//! - mobility of knights, bishops, rooks and queens over safe squares, bishop pair, rooks on
//!   open files and the seventh rank (`pieces.rs`);
//! - pawn structure (passed, candidate, isolated, doubled, backward, supported and phalanx
//!   pawns), cached in a pawn hash table keyed by the pawns alone, plus the passed-pawn terms
//!   that look at kings and pieces, the rule of the square among them (`pawns.rs`);
//! - king safety: pawn shield, pawn storms, open files next to the king and non-linear king
//!   danger from attacks on the king zone (`king.rs`);
//! - threats: pieces attacked by pawns or lesser pieces, hanging pieces, weak pawns, safe pawn
//!   pushes that would attack a piece (`threats.rs`);
//! - a tempo bonus for the side to move, and scaling of drawish endgames: lone minors,
//!   opposite-coloured bishops, rook pawns with the wrong bishop (`endgame.rs`).
//!
//! [`Evaluator`] owns the pawn hash table; the search holds one. The free function
//! [`evaluate`] gives the same value without a cache, for callers that hold no state.
//!
//! Every term also reports the weights it used to a [`trace::Trace`]: the engine's tracer
//! does nothing, the tuner's ([`evaluate_traced`]) records the evaluation as a function of
//! the weights (see [`trace`]).

pub mod endgame;
mod king;
pub mod params;
mod pawns;
mod pieces;
mod threats;
pub mod trace;

use crate::position::{Bitboard, Board, Color, File, Position, Rank, Role, Square, attacks};
use trace::{EvalTrace, Group, NoTrace, Trace};

pub use params::PIECE_VALUE;

/// A middlegame/endgame score pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0, -self.1)
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}
impl std::ops::AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for Score {
    #[inline]
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

/// Value of a role for ordering and SEE-like decisions (middlegame value).
#[inline]
pub fn role_value(role: Role) -> i32 {
    // By role, not `PIECE_VALUE[role as usize - 1]`: the index was bounds-checked.
    match role {
        Role::Pawn => PIECE_VALUE[0].0,
        Role::Knight => PIECE_VALUE[1].0,
        Role::Bishop => PIECE_VALUE[2].0,
        Role::Rook => PIECE_VALUE[3].0,
        Role::Queen => PIECE_VALUE[4].0,
        Role::King => PIECE_VALUE[5].0,
    }
}

/// Piece-square tables by role (pawn .. king).
const PST: [&[Score; 64]; 6] = [
    &params::PAWN_PST,
    &params::KNIGHT_PST,
    &params::BISHOP_PST,
    &params::ROOK_PST,
    &params::QUEEN_PST,
    &params::KING_PST,
];

/// Piece-square table groups by role (pawn .. king), for the trace.
pub const PST_GROUP: [Group; 6] = [
    Group::PawnPst,
    Group::KnightPst,
    Group::BishopPst,
    Group::RookPst,
    Group::QueenPst,
    Group::KingPst,
];

/// Material plus piece-square value of a `role` of colour `c` on `sq`, from `c`'s view.
#[inline]
fn piece_square<T: Trace>(role: Role, c: Color, sq: Square, tr: &mut T) -> Score {
    let r = role as usize - 1;
    let s = relative_sq(c, sq);
    tr.term(c, Group::PieceValue, r, 1);
    tr.term(c, PST_GROUP[r], s, 1);
    PIECE_VALUE[r] + PST[r][s]
}

/// Phase weight of each role; the full phase of the starting position is [`MAX_PHASE`].
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position (and the cap for positions with extra promoted pieces).
pub const MAX_PHASE: i32 = 24;

/// Game phase from 0 (bare kings and pawns) to 24 (all pieces on).
pub fn phase(pos: &Position) -> i32 {
    board_phase(pos.board())
}

#[inline]
fn board_phase(b: &Board) -> i32 {
    let mut p = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        p += PHASE_WEIGHT[role as usize - 1] * b.by_role(role).count() as i32;
    }
    p.min(MAX_PHASE)
}

/// Static evaluation in centipawns from the side to move's view, without a pawn cache.
///
/// Gives exactly the value of [`Evaluator::evaluate`]; the search should hold an
/// [`Evaluator`] instead, which caches the pawn structure.
pub fn evaluate(pos: &Position) -> i32 {
    if pos.is_insufficient_material() {
        return 0;
    }
    let entry = pawns::PawnEntry::compute(pos.board());
    evaluate_with(pos, &entry, &mut NoTrace)
}

/// Static evaluation (as [`evaluate`]) that also records in `trace` the coefficient of every
/// weight, so that [`EvalTrace::white_eval`] can recompute it for other weights. `trace` is
/// cleared first. Insufficient material is recorded as scale factor 0.
pub fn evaluate_traced(pos: &Position, trace: &mut EvalTrace) -> i32 {
    trace.clear();
    if pos.is_insufficient_material() {
        trace.finish(board_phase(pos.board()), 0);
        return 0;
    }
    let entry = pawns::PawnEntry::compute_with(pos.board(), trace);
    evaluate_with(pos, &entry, trace)
}

/// An evaluator with its own pawn hash table (one per search thread).
#[derive(Clone)]
pub struct Evaluator {
    pawns: pawns::PawnTable,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new()
    }
}

impl Evaluator {
    /// An evaluator with an empty pawn hash table.
    pub fn new() -> Evaluator {
        Evaluator {
            pawns: pawns::PawnTable::new(),
        }
    }

    /// Empties the pawn hash table.
    pub fn clear(&mut self) {
        self.pawns.clear();
    }

    /// Static evaluation in centipawns from the side to move's view (same value as
    /// [`evaluate`]).
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        if pos.is_insufficient_material() {
            return 0;
        }
        let entry = *self.pawns.probe(pos);
        evaluate_with(pos, &entry, &mut NoTrace)
    }
}

/// Colour index into the per-colour arrays of [`EvalInfo`].
#[inline]
fn ci(c: Color) -> usize {
    c as usize
}

/// Square index from `c`'s point of view (a1 for White is a8 for Black).
#[inline]
fn relative_sq(c: Color, sq: Square) -> usize {
    match c {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    }
}

/// Rank index 0..=7 from `c`'s point of view.
#[inline]
fn relative_rank(c: Color, sq: Square) -> usize {
    relative_sq(c, sq) >> 3
}

/// The square where a `c` pawn on `file` queens.
#[inline]
fn queening_square(c: Color, file: File) -> Square {
    let rank = match c {
        Color::White => Rank::Eighth,
        Color::Black => Rank::First,
    };
    Square::from_coords(file, rank)
}

/// Squares attacked by the pawns in `pawns` of colour `c`.
#[inline]
fn pawn_attacks_bb(c: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    Bitboard(match c {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    })
}

/// Squares that the pawns in `pawns` of colour `c` attack now or after advancing (their attacks
/// filled towards `c`'s promotion rank).
#[inline]
fn pawn_attack_span(c: Color, pawns: Bitboard) -> Bitboard {
    let mut a = pawn_attacks_bb(c, pawns).0;
    match c {
        Color::White => {
            a |= a << 8;
            a |= a << 16;
            a |= a << 32;
        }
        Color::Black => {
            a |= a >> 8;
            a |= a >> 16;
            a |= a >> 32;
        }
    }
    Bitboard(a)
}

/// Knights, bishops, rooks and queens of `c` at middlegame values.
#[inline]
fn non_pawn_material(b: &Board, c: Color) -> i32 {
    let own = b.by_color(c);
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| PIECE_VALUE[r as usize - 1].0 * (b.by_role(r) & own).count() as i32)
        .sum()
}

/// What the term modules share while one position is evaluated: occupancy, attack maps and
/// the king attack tallies. Arrays are indexed by [`Color`] (`Black = 0`, `White = 1`).
struct EvalInfo {
    occupied: Bitboard,
    pawns: [Bitboard; 2],
    king_sq: [Square; 2],
    /// Squares where a piece of this colour counts for mobility.
    mobility_area: [Bitboard; 2],
    /// King square, its neighbours and the squares in front of those (this colour's king).
    king_zone: [Bitboard; 2],
    /// Squares attacked by this colour's pieces of each role (pawn .. king).
    attacked_by: [[Bitboard; 6]; 2],
    /// Squares attacked by any piece of this colour, the king included.
    attacked: [Bitboard; 2],
    /// Attackers of the enemy king zone (a queen counts twice).
    king_attackers: [i32; 2],
    /// King-danger units gathered against the enemy king.
    king_attack_units: [Score; 2],
}

impl EvalInfo {
    fn new(b: &Board) -> EvalInfo {
        let occupied = b.occupied();
        let pawns = [b.pawns() & b.black(), b.pawns() & b.white()];
        let king_sq = [
            b.king_of(Color::Black).unwrap_or(Square::E8),
            b.king_of(Color::White).unwrap_or(Square::E1),
        ];
        let pawn_att = [
            pawn_attacks_bb(Color::Black, pawns[0]),
            pawn_attacks_bb(Color::White, pawns[1]),
        ];
        let king_att = [
            attacks::king_attacks(king_sq[0]),
            attacks::king_attacks(king_sq[1]),
        ];
        let mut attacked_by = [[Bitboard::EMPTY; 6]; 2];
        for c in 0..2 {
            attacked_by[c][0] = pawn_att[c];
            attacked_by[c][5] = king_att[c];
        }
        EvalInfo {
            occupied,
            pawns,
            king_sq,
            mobility_area: [!(b.black() | pawn_att[1]), !(b.white() | pawn_att[0])],
            king_zone: [
                king::zone(Color::Black, king_sq[0]),
                king::zone(Color::White, king_sq[1]),
            ],
            attacked_by,
            attacked: [pawn_att[0] | king_att[0], pawn_att[1] | king_att[1]],
            king_attackers: [0; 2],
            king_attack_units: [Score::default(); 2],
        }
    }
}

/// The evaluation proper, given the pawn entry of the position. Every term also reports to
/// `tr` (the engine passes [`NoTrace`], which compiles to nothing).
fn evaluate_with<T: Trace>(pos: &Position, entry: &pawns::PawnEntry, tr: &mut T) -> i32 {
    let b = pos.board();
    let mut info = EvalInfo::new(b);

    // White's view throughout; every term is computed for both colours the same way.
    let mut score = entry.score;
    score += pieces::evaluate(b, Color::White, &mut info, tr);
    score -= pieces::evaluate(b, Color::Black, &mut info, tr);
    // King safety and passed pawns read the attack maps the piece terms filled in.
    score += king::evaluate(b, Color::White, &info, tr);
    score -= king::evaluate(b, Color::Black, &info, tr);
    score += threats::evaluate(b, Color::White, &info, tr);
    score -= threats::evaluate(b, Color::Black, &info, tr);
    score += pawns::evaluate_passed(b, pos.turn(), Color::White, entry.passed, &info, tr);
    score -= pawns::evaluate_passed(b, pos.turn(), Color::Black, entry.passed, &info, tr);
    score += match pos.turn() {
        Color::White => params::TEMPO,
        Color::Black => -params::TEMPO,
    };
    tr.term(pos.turn(), Group::Tempo, 0, 1);

    // Taper by phase; drawish endgames scale the whole score (they have little material, so
    // the endgame part dominates anyway).
    let ph = board_phase(b);
    let strong = if score.1 > 0 {
        Color::White
    } else {
        Color::Black
    };
    let scale = endgame::scale_factor(b, strong);
    tr.finish(ph, scale);
    let white = taper(score, ph, scale);
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Blends the middlegame and endgame halves of `score` by the phase `ph` (0 ..= 24) and
/// multiplies by the endgame scale factor `scale` (out of `SCALE_NORMAL`).
#[inline]
fn taper(score: Score, ph: i32, scale: i32) -> i32 {
    (score.0 * ph + score.1 * (MAX_PHASE - ph)) * scale / (MAX_PHASE * params::SCALE_NORMAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen, false).unwrap())
    }

    #[test]
    fn startpos_is_small() {
        let e = evaluate(&Position::startpos());
        assert!(e.abs() < 50, "startpos {e}");
    }

    #[test]
    fn pawn_attack_maps() {
        let wp = Bitboard::from_square(Square::A2) | Square::H2 | Square::D4;
        let att = pawn_attacks_bb(Color::White, wp);
        let expect = Bitboard::from_square(Square::B3) | Square::G3 | Square::C5 | Square::E5;
        assert_eq!(att, expect);
        let bp = Bitboard::from_square(Square::A7) | Square::H7 | Square::E5;
        let att = pawn_attacks_bb(Color::Black, bp);
        let expect = Bitboard::from_square(Square::B6) | Square::G6 | Square::D4 | Square::F4;
        assert_eq!(att, expect);
    }

    #[test]
    fn extra_piece_is_good() {
        // White is a knight up (black's b8 knight is missing), either side to move.
        assert!(eval_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 200);
        assert!(eval_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1") < -200);
    }

    #[test]
    fn bare_minor_is_a_draw() {
        assert_eq!(eval_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"), 0);
        assert_eq!(eval_fen("8/8/4k3/8/8/3BK3/8/8 b - - 0 1"), 0);
    }
}
