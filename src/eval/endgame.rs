//! Scaling of drawish endgames: the tapered score is multiplied by a factor out of
//! [`SCALE_NORMAL`] chosen from the material of the side that is ahead in the endgame score.

use super::params::*;
use super::{non_pawn_material, queening_square, role_value};
use crate::position::{Bitboard, Board, Color, File, Role};

/// Scale factor (out of [`SCALE_NORMAL`]) of `b` when `strong` is the side ahead: 0 where it
/// cannot win (no pawns and at most a minor piece, two knights against a bare king, the
/// rook-pawn fortress), [`SCALE_NO_PAWNS_SMALL_EDGE`] for a pawnless edge smaller than a rook,
/// [`SCALE_OPPOSITE_BISHOPS`] for opposite-coloured bishops with only pawns besides. The
/// hand-crafted evaluation applies it to its endgame score (the side ahead by that score's
/// sign).
#[inline]
pub fn scale_factor(b: &Board, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pieces = b.by_color(strong);
    let strong_pawns = b.pawns() & strong_pieces;

    if rook_pawn_fortress(b, strong, strong_pawns) {
        return SCALE_CANNOT_WIN;
    }

    if strong_pawns.is_empty() {
        let strong_npm = non_pawn_material(b, strong);
        let weak_npm = non_pawn_material(b, weak);
        // A lone minor piece (or nothing) cannot mate.
        if strong_npm <= role_value(Role::Bishop) {
            return SCALE_CANNOT_WIN;
        }
        // Two knights cannot force mate against a bare king.
        let knights_only = (strong_pieces & !b.kings() & !b.knights()).is_empty();
        if knights_only && (b.by_color(weak) & !b.kings()).is_empty() {
            return SCALE_CANNOT_WIN;
        }
        if strong_npm - weak_npm < role_value(Role::Rook) {
            return SCALE_NO_PAWNS_SMALL_EDGE;
        }
    }

    // Opposite-coloured bishops with nothing but pawns besides.
    let bishops = b.bishops();
    let others = b.knights() | b.rooks() | b.queens();
    if others.is_empty()
        && (bishops & b.white()).count() == 1
        && (bishops & b.black()).count() == 1
        && (bishops & Bitboard::LIGHT_SQUARES).count() == 1
    {
        return SCALE_OPPOSITE_BISHOPS;
    }
    SCALE_NORMAL
}

/// The stronger side has pawns only on one rook file and, besides, at most bishops that do not
/// cover the queening square; the bare enemy king stands on or next to that square. Drawn:
/// the king cannot be driven out of the corner.
#[inline]
fn rook_pawn_fortress(b: &Board, strong: Color, strong_pawns: Bitboard) -> bool {
    let weak = !strong;
    if strong_pawns.is_empty() || (b.by_color(weak) & !b.kings()).any() {
        return false;
    }
    let pieces = b.by_color(strong) & !b.kings() & !b.pawns();
    if (pieces & !b.bishops()).any() {
        return false;
    }
    let file = if (strong_pawns & !Bitboard::from_file(File::A)).is_empty() {
        File::A
    } else if (strong_pawns & !Bitboard::from_file(File::H)).is_empty() {
        File::H
    } else {
        return false;
    };
    let queening = queening_square(strong, file);
    let colour = if Bitboard::LIGHT_SQUARES.contains(queening) {
        Bitboard::LIGHT_SQUARES
    } else {
        Bitboard::DARK_SQUARES
    };
    let Some(king) = b.king_of(weak) else {
        return false;
    };
    (pieces & colour).is_empty() && king.distance(queening) <= 1
}
