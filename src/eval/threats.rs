//! Threats: enemy pieces that our pawns or lesser pieces attack, enemy pieces and pawns that we
//! attack and nothing defends, and safe pawn pushes that would attack a piece. Counted for the
//! attacking side, per threatened enemy piece; needs the attack maps of both sides (after the
//! piece walk).

use super::params::*;
use super::trace::{Group, Trace};
use super::{EvalInfo, Score, ci, pawn_attacks_bb};
use crate::position::{Bitboard, Board, Color};

/// Threat terms of colour `us` against the enemy (from `us`'s view).
#[inline]
pub(super) fn evaluate<T: Trace>(b: &Board, us: Color, info: &EvalInfo, tr: &mut T) -> Score {
    let them = !us;
    let (u, t) = (ci(us), ci(them));
    let ours = &info.attacked_by[u];
    let theirs = b.by_color(them);
    let by_pawn = ours[0];
    let by_minor = ours[1] | ours[2];
    let by_major = ours[3] | ours[4];
    let attacked = info.attacked[u];
    let defended = info.attacked[t];

    let minors = (b.knights() | b.bishops()) & theirs;
    let rooks = b.rooks() & theirs;
    let queens = b.queens() & theirs;
    let pieces = minors | rooks | queens;

    let mut score = Score::default();
    let mut add = |group: Group, weight: Score, set: Bitboard| {
        let n = set.count() as i32;
        if n != 0 {
            score += weight * n;
            tr.term(us, group, 0, n);
        }
    };
    add(
        Group::ThreatWeakPawn,
        THREAT_WEAK_PAWN,
        b.pawns() & theirs & attacked & !defended,
    );
    add(
        Group::ThreatMinorByPawn,
        THREAT_MINOR_BY_PAWN,
        minors & by_pawn,
    );
    add(
        Group::ThreatMinorByMinor,
        THREAT_MINOR_BY_MINOR,
        minors & by_minor,
    );
    add(
        Group::ThreatMinorByMajor,
        THREAT_MINOR_BY_MAJOR,
        minors & by_major & !defended,
    );
    add(
        Group::ThreatRookByLesser,
        THREAT_ROOK_BY_LESSER,
        rooks & (by_pawn | by_minor),
    );
    add(
        Group::ThreatQueen,
        THREAT_QUEEN,
        queens & (by_pawn | by_minor | ours[3]),
    );
    add(
        Group::ThreatHanging,
        THREAT_HANGING,
        pieces & attacked & !defended,
    );

    // Pawn pushes to an empty square that no enemy pawn attacks and that we hold at least as
    // well as they do (attacked by us or not by them), attacking a piece not yet attacked by a
    // pawn.
    let own_pawns = info.pawns[u];
    let pushes = match us {
        Color::White => own_pawns.shift(8),
        Color::Black => own_pawns.shift(-8),
    } & !info.occupied;
    let safe = pushes & !info.attacked_by[t][0] & (attacked | !defended);
    add(
        Group::ThreatPawnPush,
        THREAT_PAWN_PUSH,
        pawn_attacks_bb(us, safe) & pieces & !by_pawn,
    );
    score
}
