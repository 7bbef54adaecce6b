//! Move-ordering memory: butterfly history with gravity, killer moves, counter moves.

use crate::position::{Color, Move, Piece};

/// Largest magnitude a history score reaches (gravity keeps it inside).
pub const HISTORY_MAX: i32 = 16384;

/// (from, to) indices of a move; castling is king square to rook square.
#[inline]
pub fn from_to(m: Move) -> (usize, usize) {
    let to = match m {
        Move::Castle { rook, .. } => rook,
        _ => m.to(),
    };
    (m.from().map_or(0, |s| s as usize), to as usize)
}

#[inline]
fn piece_index(p: Piece) -> usize {
    (p.role as usize - 1) * 2 + p.color as usize
}

/// History tables, kept across the searches of one game.
pub struct History {
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
    counter: Box<[[Option<Move>; 64]; 12]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[None; 64]; 12]),
        }
    }
}

impl History {
    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// History score of a quiet move.
    #[inline]
    pub fn score(&self, us: Color, m: Move) -> i32 {
        let (f, t) = from_to(m);
        self.butterfly[us as usize][f][t] as i32
    }

    /// Adds `bonus` (negative: malus) with gravity, so scores stay within ±[`HISTORY_MAX`]
    /// and old information decays.
    #[inline]
    pub fn update(&mut self, us: Color, m: Move, bonus: i32) {
        let (f, t) = from_to(m);
        let e = &mut self.butterfly[us as usize][f][t];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = *e as i32;
        *e = (v + b - v * b.abs() / HISTORY_MAX) as i16;
    }

    /// The move that last refuted `prev` (a move by `prev_piece` to its square).
    #[inline]
    pub fn counter(&self, prev_piece: Piece, prev: Move) -> Option<Move> {
        self.counter[piece_index(prev_piece)][from_to(prev).1]
    }

    /// Remembers `m` as the refutation of `prev`.
    #[inline]
    pub fn set_counter(&mut self, prev_piece: Piece, prev: Move, m: Move) {
        self.counter[piece_index(prev_piece)][from_to(prev).1] = Some(m);
    }
}

/// History bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(1600)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Role, Square};

    #[test]
    fn gravity_bounds_scores() {
        let mut h = History::default();
        let m = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        for _ in 0..1000 {
            h.update(Color::White, m, 1600);
        }
        assert!(h.score(Color::White, m) <= HISTORY_MAX);
        assert!(h.score(Color::White, m) > HISTORY_MAX / 2);
        for _ in 0..1000 {
            h.update(Color::White, m, -1600);
        }
        assert!(h.score(Color::White, m) >= -HISTORY_MAX);
        assert_eq!(h.score(Color::Black, m), 0);
    }
}
