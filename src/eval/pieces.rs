//! Knights, bishops, rooks and queens: material, piece-square tables, mobility over safe
//! squares, bishop pair, rooks on open files and on the seventh rank. While walking the pieces
//! this fills the attack maps and the king-attack tallies that [`super::king`] reads.

use super::params::*;
use super::{EvalInfo, Score, ci, piece_square, relative_rank};
use crate::position::{Bitboard, Board, Color, Rank, Role, attacks};

/// Index of knight .. queen into the per-piece tables (`KING_ATTACKER_UNITS`, ...).
#[inline]
fn piece_index(role: Role) -> usize {
    role as usize - 2
}

/// Piece terms of colour `us` (from `us`'s view); records attacks in `info`.
pub(super) fn evaluate(b: &Board, us: Color, info: &mut EvalInfo) -> Score {
    let them = !us;
    let (u, t) = (ci(us), ci(them));
    let own = b.by_color(us);
    let occ = info.occupied;
    let area = info.mobility_area[u];
    let enemy_zone = info.king_zone[t];
    let mut score = Score::default();

    // Knights.
    for sq in b.knights() & own {
        let att = attacks::knight_attacks(sq);
        score += piece_square(Role::Knight, us, sq);
        score += MOBILITY_KNIGHT[(att & area).count()];
        record(info, us, Role::Knight, att, enemy_zone);
    }

    // Bishops.
    let bishops = b.bishops() & own;
    for sq in bishops {
        let att = attacks::bishop_attacks(sq, occ);
        score += piece_square(Role::Bishop, us, sq);
        score += MOBILITY_BISHOP[(att & area).count()];
        record(info, us, Role::Bishop, att, enemy_zone);
    }
    if (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any() {
        score += BISHOP_PAIR;
    }

    // Rooks.
    let all_pawns = info.pawns[0] | info.pawns[1];
    let seventh = Bitboard::from_rank(match us {
        Color::White => Rank::Seventh,
        Color::Black => Rank::Second,
    });
    let seventh_matters =
        relative_rank(us, info.king_sq[t]) == 7 || (info.pawns[t] & seventh).any();
    for sq in b.rooks() & own {
        let att = attacks::rook_attacks(sq, occ);
        score += piece_square(Role::Rook, us, sq);
        score += MOBILITY_ROOK[(att & area).count()];
        record(info, us, Role::Rook, att, enemy_zone);
        let file = Bitboard::from_file(sq.file());
        if (file & all_pawns).is_empty() {
            score += ROOK_OPEN_FILE;
        } else if (file & info.pawns[u]).is_empty() {
            score += ROOK_SEMI_OPEN_FILE;
        }
        if seventh_matters && relative_rank(us, sq) == 6 {
            score += ROOK_ON_SEVENTH;
        }
    }

    // Queens.
    for sq in b.queens() & own {
        let att = attacks::queen_attacks(sq, occ);
        score += piece_square(Role::Queen, us, sq);
        score += MOBILITY_QUEEN[(att & area).count()];
        record(info, us, Role::Queen, att, enemy_zone);
    }
    score
}

/// Adds one piece's attacks to the maps and, when they reach the enemy king zone, to the
/// king-attack tallies.
#[inline]
fn record(info: &mut EvalInfo, us: Color, role: Role, att: Bitboard, enemy_zone: Bitboard) {
    let u = ci(us);
    info.attacked_by[u][role as usize - 1] |= att;
    info.attacked[u] |= att;
    let hits = att & enemy_zone;
    if hits.any() {
        let i = piece_index(role);
        info.king_attackers[u] += if role == Role::Queen { 2 } else { 1 };
        info.king_attack_units[u] +=
            KING_ATTACKER_UNITS[i] + KING_ZONE_ATTACK_UNITS * hits.count() as i32;
    }
}
