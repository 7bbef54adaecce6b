//! Knights, bishops, rooks and queens: material, piece-square tables, mobility over safe
//! squares, knight and bishop outposts, bishop pair, rooks on open files and on the seventh
//! rank. While walking the pieces
//! this fills the attack maps and the king-attack tallies that [`super::king`] reads.

use super::params::*;
use super::trace::{Group, Trace};
use super::{EvalInfo, Score, ci, piece_square, relative_rank};
use crate::position::{Bitboard, Board, Color, Rank, Role, attacks};

/// Index of knight .. queen into the per-piece tables (`KING_ATTACKER_UNITS`, ...).
#[inline]
fn piece_index(role: Role) -> usize {
    role as usize - 2
}

/// Piece terms of colour `us` (from `us`'s view); records attacks in `info`.
pub(super) fn evaluate<T: Trace>(b: &Board, us: Color, info: &mut EvalInfo, tr: &mut T) -> Score {
    let them = !us;
    let (u, t) = (ci(us), ci(them));
    let own = b.by_color(us);
    let occ = info.occupied;
    let area = info.mobility_area[u];
    let enemy_zone = info.king_zone[t];
    let outposts = outpost_squares(us, info);
    let mut score = Score::default();

    // Knights.
    for sq in b.knights() & own {
        let att = attacks::knight_attacks(sq);
        let mobility = (att & area).count();
        score += piece_square(Role::Knight, us, sq, tr);
        score += MOBILITY_KNIGHT[mobility];
        tr.term(us, Group::MobilityKnight, mobility, 1);
        record(info, us, Role::Knight, att, enemy_zone, tr);
        if outposts.contains(sq) {
            score += KNIGHT_OUTPOST;
            tr.term(us, Group::KnightOutpost, 0, 1);
        }
    }

    // Bishops.
    let bishops = b.bishops() & own;
    for sq in bishops {
        let att = attacks::bishop_attacks(sq, occ);
        let mobility = (att & area).count();
        score += piece_square(Role::Bishop, us, sq, tr);
        score += MOBILITY_BISHOP[mobility];
        tr.term(us, Group::MobilityBishop, mobility, 1);
        record(info, us, Role::Bishop, att, enemy_zone, tr);
        if outposts.contains(sq) {
            score += BISHOP_OUTPOST;
            tr.term(us, Group::BishopOutpost, 0, 1);
        }
    }
    if (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any() {
        score += BISHOP_PAIR;
        tr.term(us, Group::BishopPair, 0, 1);
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
        let mobility = (att & area).count();
        score += piece_square(Role::Rook, us, sq, tr);
        score += MOBILITY_ROOK[mobility];
        tr.term(us, Group::MobilityRook, mobility, 1);
        record(info, us, Role::Rook, att, enemy_zone, tr);
        let file = Bitboard::from_file(sq.file());
        if (file & all_pawns).is_empty() {
            score += ROOK_OPEN_FILE;
            tr.term(us, Group::RookOpenFile, 0, 1);
        } else if (file & info.pawns[u]).is_empty() {
            score += ROOK_SEMI_OPEN_FILE;
            tr.term(us, Group::RookSemiOpenFile, 0, 1);
        }
        if seventh_matters && relative_rank(us, sq) == 6 {
            score += ROOK_ON_SEVENTH;
            tr.term(us, Group::RookOnSeventh, 0, 1);
        }
    }

    // Queens.
    for sq in b.queens() & own {
        let att = attacks::queen_attacks(sq, occ);
        let mobility = (att & area).count();
        score += piece_square(Role::Queen, us, sq, tr);
        score += MOBILITY_QUEEN[mobility];
        tr.term(us, Group::MobilityQueen, mobility, 1);
        record(info, us, Role::Queen, att, enemy_zone, tr);
    }
    score
}

/// Outposts of `us`: squares on relative ranks 4 to 6 that an own pawn defends and that no
/// enemy pawn attacks now or after any advance.
#[inline]
pub(super) fn outpost_squares(us: Color, info: &EvalInfo) -> Bitboard {
    let them = !us;
    let span = super::pawn_attack_span(them, info.pawns[ci(them)]);
    let ranks = match us {
        Color::White => Bitboard(0x0000_FFFF_FF00_0000),
        Color::Black => Bitboard(0x0000_00FF_FFFF_0000),
    };
    ranks & info.attacked_by[ci(us)][0] & !span
}

/// Adds one piece's attacks to the maps and, when they reach the enemy king zone, to the
/// king-attack tallies.
#[inline]
fn record<T: Trace>(
    info: &mut EvalInfo,
    us: Color,
    role: Role,
    att: Bitboard,
    enemy_zone: Bitboard,
    tr: &mut T,
) {
    let u = ci(us);
    info.attacked_by[u][role as usize - 1] |= att;
    info.attacked[u] |= att;
    let hits = att & enemy_zone;
    if hits.any() {
        let i = piece_index(role);
        let n = hits.count() as i32;
        info.king_attackers[u] += if role == Role::Queen { 2 } else { 1 };
        info.king_attack_units[u] += KING_ATTACKER_UNITS[i] + KING_ZONE_ATTACK_UNITS * n;
        tr.units(!us, Group::KingAttackerUnits, i, 1);
        tr.units(!us, Group::KingZoneAttackUnits, 0, n);
    }
}
