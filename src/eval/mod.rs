//! Static evaluation: material and piece-square tables, tapered between middlegame and endgame
//! by the amount of material left. Scores are centipawns from the side to move's view.

use crate::position::{Color, Position, Role, Square};

/// A middlegame/endgame score pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

/// Piece values (middlegame, endgame), indexed by role (pawn..king).
pub const PIECE_VALUE: [Score; 6] = [
    Score(82, 100),
    Score(330, 310),
    Score(350, 330),
    Score(480, 540),
    Score(1000, 1000),
    Score(0, 0),
];

/// Value of a role for ordering and SEE-like decisions (middlegame value).
#[inline]
pub fn role_value(role: Role) -> i32 {
    PIECE_VALUE[role as usize - 1].0
}

/// Phase weight of each role; the full phase of the starting position is 24.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

// Piece-square tables from White's view, a1 = index 0 ... h8 = index 63 (rank by rank).
// Written for this engine by hand from the usual principles (centralise knights, bishops on
// long diagonals, rooks on the seventh, king sheltered in the middlegame and central in the
// endgame, pawns pushed in the endgame); the evaluation issue replaces them with tuned tables.
#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   2,   2, -12, -12,   6,   6,   0,
      2,  -2,  -4,   2,   2,  -6,  -2,   2,
      0,   0,   6,  16,  16,   2,   0,   0,
      4,   6,  10,  20,  20,  10,   6,   4,
     10,  14,  20,  26,  26,  20,  14,  10,
     40,  40,  40,  40,  40,  40,  40,  40,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      4,   4,   4,   4,   4,   4,   4,   4,
     12,  12,  10,  10,  10,  10,  12,  12,
     26,  24,  22,  20,  20,  22,  24,  26,
     50,  48,  44,  40,  40,  44,  48,  50,
     90,  90,  85,  80,  80,  85,  90,  90,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -50, -25, -20, -15, -15, -20, -25, -50,
    -25, -15,   0,   5,   5,   0, -15, -25,
    -20,   0,  10,  12,  12,  10,   0, -20,
    -15,   5,  14,  18,  18,  14,   5, -15,
    -15,   8,  18,  22,  22,  18,   8, -15,
    -20,   5,  16,  20,  20,  16,   5, -20,
    -25, -15,   0,   5,   5,   0, -15, -25,
    -50, -30, -20, -15, -15, -20, -30, -50,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -40, -25, -20, -15, -15, -20, -25, -40,
    -25, -10,  -5,   0,   0,  -5, -10, -25,
    -20,  -5,   5,  10,  10,   5,  -5, -20,
    -15,   0,  10,  15,  15,  10,   0, -15,
    -15,   0,  10,  15,  15,  10,   0, -15,
    -20,  -5,   5,  10,  10,   5,  -5, -20,
    -25, -10,  -5,   0,   0,  -5, -10, -25,
    -40, -25, -20, -15, -15, -20, -25, -40,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -15,  -8, -10,  -8,  -8, -10,  -8, -15,
     -5,  10,   5,   5,   5,   5,  10,  -5,
     -5,   8,  10,   8,   8,  10,   8,  -5,
     -5,   5,  10,  14,  14,  10,   5,  -5,
     -5,   8,  10,  14,  14,  10,   8,  -5,
     -5,   5,   8,  10,  10,   8,   5,  -5,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -15, -10, -10, -10, -10, -10, -10, -15,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
     -8,   0,   5,   5,   5,   5,   0,  -8,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -8,   0,   5,   5,   5,   5,   0,  -8,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     -4,  -2,   2,   6,   6,   2,  -2,  -4,
     -8,  -4,   0,   0,   0,   0,  -4,  -8,
     -8,  -4,   0,   0,   0,   0,  -4,  -8,
     -8,  -4,   0,   0,   0,   0,  -4,  -8,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -4,   0,   4,   6,   6,   4,   0,  -4,
     15,  20,  20,  20,  20,  20,  20,  15,
      5,   5,   5,   8,   8,   5,   5,   5,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     -5,  -3,  -2,   0,   0,  -2,  -3,  -5,
     -3,   0,   0,   0,   0,   0,   0,  -3,
     -2,   0,   0,   0,   0,   0,   0,  -2,
      0,   0,   2,   2,   2,   2,   0,   0,
      2,   2,   4,   4,   4,   4,   2,   2,
      4,   4,   4,   4,   4,   4,   4,   4,
     10,  12,  12,  12,  12,  12,  12,  10,
      6,   6,   6,   6,   6,   6,   6,   6,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -15, -10,  -5,   0,   0,  -5, -10, -15,
    -10,   0,   4,   4,   4,   4,   0, -10,
     -5,   2,   5,   5,   5,   5,   2,  -5,
     -2,   2,   5,   6,   6,   5,   2,  -2,
     -2,   2,   5,   6,   6,   5,   2,  -2,
     -5,   2,   5,   5,   5,   5,   2,  -5,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
    -15, -10,  -5,  -5,  -5,  -5, -10, -15,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -20, -15, -10,  -5,  -5, -10, -15, -20,
    -15,  -5,   0,   0,   0,   0,  -5, -15,
    -10,   0,   8,  10,  10,   8,   0, -10,
     -5,   0,  10,  15,  15,  10,   0,  -5,
     -5,   0,  10,  15,  15,  10,   0,  -5,
    -10,   0,   8,  10,  10,   8,   0, -10,
    -15,  -5,   0,   0,   0,   0,  -5, -15,
    -20, -15, -10,  -5,  -5, -10, -15, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
     20,  35,  10, -10,   0, -10,  35,  25,
     10,  10,  -5, -25, -25,  -5,  10,  10,
    -15, -20, -25, -35, -35, -25, -20, -15,
    -30, -35, -40, -50, -50, -40, -35, -30,
    -40, -45, -50, -60, -60, -50, -45, -40,
    -45, -50, -55, -65, -65, -55, -50, -45,
    -50, -55, -60, -70, -70, -60, -55, -50,
    -55, -60, -65, -75, -75, -65, -60, -55,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -25,  -5,  10,  15,  15,  10,  -5, -25,
    -20,   0,  15,  25,  25,  15,   0, -20,
    -20,   0,  15,  25,  25,  15,   0, -20,
    -25,  -5,  10,  15,  15,  10,  -5, -25,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -50, -35, -25, -20, -20, -25, -35, -50,
];

const PST_MG: [&[i32; 64]; 6] = [
    &PAWN_MG, &KNIGHT_MG, &BISHOP_MG, &ROOK_MG, &QUEEN_MG, &KING_MG,
];
const PST_EG: [&[i32; 64]; 6] = [
    &PAWN_EG, &KNIGHT_EG, &BISHOP_EG, &ROOK_EG, &QUEEN_EG, &KING_EG,
];

/// Material plus square bonus of one piece, from its owner's view.
#[inline]
fn piece_square(role: Role, color: Color, sq: Square) -> Score {
    let idx = if color == Color::White {
        sq as usize
    } else {
        sq as usize ^ 56
    };
    let r = role as usize - 1;
    PIECE_VALUE[r] + Score(PST_MG[r][idx], PST_EG[r][idx])
}

/// Game phase from 0 (bare kings and pawns) to 24 (all pieces on).
pub fn phase(pos: &Position) -> i32 {
    let b = pos.board();
    let mut p = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        p += PHASE_WEIGHT[role as usize - 1] * b.by_role(role).count() as i32;
    }
    p.min(MAX_PHASE)
}

/// Static evaluation in centipawns from the side to move's view.
pub fn evaluate(pos: &Position) -> i32 {
    if pos.is_insufficient_material() {
        return 0;
    }
    let b = pos.board();
    let mut score = Score::default();
    for (sq, piece) in b {
        let s = piece_square(piece.role, piece.color, sq);
        if piece.color == Color::White {
            score += s;
        } else {
            score -= s;
        }
    }
    let ph = phase(pos);
    let white = (score.0 * ph + score.1 * (MAX_PHASE - ph)) / MAX_PHASE;
    let tempo = 10;
    if pos.turn() == Color::White {
        white + tempo
    } else {
        -white + tempo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_is_tempo_only() {
        assert_eq!(evaluate(&Position::startpos()), 10);
    }
}
