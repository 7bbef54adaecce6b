//! King safety: the king's piece-square value, its pawn shield, enemy pawn storms, open files
//! next to it, and the king danger from enemy pieces attacking the king zone (non-linear in
//! the attack units).

use super::params::*;
use super::trace::{Group, Trace, king_danger};
use super::{EvalInfo, Score, ci, non_pawn_material, piece_square};
use crate::position::{Bitboard, Board, Color, Role, Square, attacks};

/// The king zone of a `c` king on `sq`: the king square, its neighbours, and the squares one
/// rank further in front of those.
#[inline]
pub(super) fn zone(c: Color, sq: Square) -> Bitboard {
    let near = attacks::king_attacks(sq) | Bitboard::from_square(sq);
    let front = match c {
        Color::White => near.shift(8),
        Color::Black => near.shift(-8),
    };
    near | front
}

/// All squares on ranks strictly in front of `rank` from `c`'s view.
#[inline]
fn ranks_in_front(c: Color, rank: u32) -> Bitboard {
    match c {
        Color::White => Bitboard(!0u64 << 8 << (8 * rank)),
        Color::Black => Bitboard(!0u64 >> 8 >> (8 * (7 - rank))),
    }
}

/// King terms of colour `us` (from `us`'s view): needs the attack maps of both sides.
pub(super) fn evaluate<T: Trace>(b: &Board, us: Color, info: &EvalInfo, tr: &mut T) -> Score {
    let ksq = info.king_sq[ci(us)];
    piece_square(Role::King, us, ksq, tr) + shelter(us, ksq, info, tr)
        - danger(b, us, ksq, info, tr)
}

/// Pawn shield, pawn storm and open files on the king's file and its neighbours.
#[inline]
fn shelter<T: Trace>(us: Color, ksq: Square, info: &EvalInfo, tr: &mut T) -> Score {
    let own = info.pawns[ci(us)];
    let theirs = info.pawns[ci(!us)];
    let ahead = ranks_in_front(us, ksq.rank() as u32);
    let in_front = own & ahead;
    let kfile = ksq.file() as i32;
    let mut score = Score::default();
    for f in (kfile - 1).max(0)..=(kfile + 1).min(7) {
        let file = Bitboard(0x0101_0101_0101_0101u64 << f);
        let shield = in_front & file;
        let nearest = match us {
            Color::White => shield.first(),
            Color::Black => shield.last(),
        };
        let dist = nearest.map_or(0, |p| (p.rank() as i32 - ksq.rank() as i32).unsigned_abs());
        let shield_idx = (dist as usize).min(3);
        score += KING_SHIELD[shield_idx];
        tr.term(us, Group::KingShield, shield_idx, 1);

        // The nearest enemy pawn in front of the king on this file, if within three ranks.
        let storm = theirs & ahead & file;
        let stormer = match us {
            Color::White => storm.first(),
            Color::Black => storm.last(),
        };
        if let Some(p) = stormer {
            let dist = (p.rank() as i32 - ksq.rank() as i32).unsigned_abs() as usize;
            if dist <= 3 {
                // Blocked: an own pawn stands on the square the stormer would advance to.
                let next = match us {
                    Color::White => Bitboard::from_square(p).shift(-8),
                    Color::Black => Bitboard::from_square(p).shift(8),
                };
                if (own & next).any() {
                    score += KING_STORM_BLOCKED[dist];
                    tr.term(us, Group::KingStormBlocked, dist, 1);
                } else {
                    score += KING_STORM[dist];
                    tr.term(us, Group::KingStorm, dist, 1);
                }
            }
        }
        if (own & file).is_empty() {
            if (theirs & file).is_empty() {
                score += KING_OPEN_FILE;
                tr.term(us, Group::KingOpenFile, 0, 1);
            } else {
                score += KING_SEMI_OPEN_FILE;
                tr.term(us, Group::KingSemiOpenFile, 0, 1);
            }
        }
    }
    score
}

/// King danger against the `us` king (a positive penalty), from the tallies the enemy's piece
/// walk gathered plus safe checks and weak king-zone squares. Reports to `tr` whether it
/// counts and the units it adds (the piece walk reported the others).
#[inline]
fn danger<T: Trace>(b: &Board, us: Color, ksq: Square, info: &EvalInfo, tr: &mut T) -> Score {
    let them = !us;
    let (u, t) = (ci(us), ci(them));
    if info.king_attackers[t] < KING_DANGER_MIN_ATTACKERS {
        return Score::default();
    }
    let their_queens = b.queens() & b.by_color(them);
    if their_queens.is_empty() && non_pawn_material(b, them) < KING_DANGER_MIN_MATERIAL {
        return Score::default();
    }

    tr.danger(us);
    let mut units = info.king_attack_units[t];

    // Zone squares the enemy attacks that only our king (or nothing) defends.
    let ab = &info.attacked_by[u];
    let defended = ab[0] | ab[1] | ab[2] | ab[3] | ab[4];
    let weak = info.king_zone[u] & info.attacked[t] & !defended;
    units += KING_WEAK_SQUARE_UNITS * weak.count() as i32;
    tr.units(us, Group::KingWeakSquareUnits, 0, weak.count() as i32);

    // Checks from squares we do not attack and that hold no enemy piece.
    let safe = !(info.attacked[u] | b.by_color(them));
    let occ = info.occupied;
    let diag = attacks::bishop_attacks(ksq, occ);
    let line = attacks::rook_attacks(ksq, occ);
    let their = &info.attacked_by[t];
    let checks = [
        attacks::knight_attacks(ksq) & their[Role::Knight as usize - 1],
        diag & their[Role::Bishop as usize - 1],
        line & their[Role::Rook as usize - 1],
        (diag | line) & their[Role::Queen as usize - 1],
    ];
    for (i, c) in checks.into_iter().enumerate() {
        let n = (c & safe).count() as i32;
        units += KING_SAFE_CHECK_UNITS[i] * n;
        tr.units(us, Group::KingSafeCheckUnits, i, n);
    }

    if their_queens.is_empty() {
        units += KING_NO_QUEEN_UNITS;
        tr.units(us, Group::KingNoQueenUnits, 0, 1);
    }

    king_danger(units)
}
