//! Pawn structure: material and piece-square value of the pawns, passed, isolated, doubled,
//! backward, supported and phalanx pawns. All of it depends on the pawns alone and is cached
//! in a [`PawnTable`] keyed by [`Position::pawn_key`]; the passed-pawn terms that look at kings and
//! pieces ([`evaluate_passed`]) are computed at every evaluation from the cached passed set.

use super::params::*;
use super::trace::{Group, NoTrace, Trace};
use super::{EvalInfo, Score, ci, pawn_attacks_bb, piece_square, queening_square, relative_rank};
use crate::position::{Bitboard, Board, Color, Position, Role, Square, attacks};

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Files next to each file.
const ADJACENT_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= FILE_A << (f - 1);
        }
        if f < 7 {
            t[f] |= FILE_A << (f + 1);
        }
        f += 1;
    }
    t
};

/// Ranks strictly in front of a rank, by colour index (`Black = 0`, `White = 1`) and rank.
const RANKS_AHEAD: [[u64; 8]; 2] = {
    let mut t = [[0u64; 8]; 2];
    let mut r = 0;
    while r < 8 {
        // White: ranks r+1 ..= 7. Black: ranks 0 ..= r-1.
        t[1][r] = if r == 7 { 0 } else { !0u64 << (8 * (r + 1)) };
        t[0][r] = if r == 0 { 0 } else { !0u64 >> (8 * (8 - r)) };
        r += 1;
    }
    t
};

/// Squares strictly in front of a square on its file, by colour index and square.
const FORWARD_FILE: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = FILE_A << (sq % 8);
        t[0][sq] = file & RANKS_AHEAD[0][sq / 8];
        t[1][sq] = file & RANKS_AHEAD[1][sq / 8];
        sq += 1;
    }
    t
};

/// Squares an enemy pawn must not occupy for a pawn on this square to be passed: in front on
/// the same and the adjacent files. By colour index and square.
const PASSED_SPAN: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let files = (FILE_A << (sq % 8)) | ADJACENT_FILES[sq % 8];
        t[0][sq] = files & RANKS_AHEAD[0][sq / 8];
        t[1][sq] = files & RANKS_AHEAD[1][sq / 8];
        sq += 1;
    }
    t
};

/// The cached pawn evaluation of one pawn structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PawnEntry {
    /// [`Position::pawn_key`] of the structure in a [`PawnTable`] (0 outside one). A board
    /// without pawns has key 0, which is what the empty table entries hold (with a zero score
    /// and no passed pawns, the correct entry for it).
    pub key: u64,
    /// Pawn material, piece-square values and structure terms, White's view.
    pub score: Score,
    /// Passed pawns of both colours.
    pub passed: Bitboard,
}

impl PawnEntry {
    /// Evaluates the pawn structure of `b` from scratch.
    pub fn compute(b: &Board) -> PawnEntry {
        PawnEntry::compute_with(b, &mut NoTrace)
    }

    /// Evaluates the pawn structure of `b` from scratch, reporting the terms to `tr`.
    pub fn compute_with<T: Trace>(b: &Board, tr: &mut T) -> PawnEntry {
        let white = b.pawns() & b.white();
        let black = b.pawns() & b.black();
        let mut passed = Bitboard::EMPTY;
        let score = structure(Color::White, white, black, &mut passed, tr)
            - structure(Color::Black, black, white, &mut passed, tr);
        PawnEntry {
            key: 0,
            score,
            passed,
        }
    }
}

/// Entries in a [`PawnTable`] (a power of two; 24 bytes each).
const PAWN_TABLE_ENTRIES: usize = 1 << 14;

/// A direct-mapped cache of pawn evaluations, one per [`super::Evaluator`].
#[derive(Clone)]
pub(super) struct PawnTable {
    entries: Box<[PawnEntry]>,
}

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        PawnTable {
            entries: vec![PawnEntry::default(); PAWN_TABLE_ENTRIES].into_boxed_slice(),
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }

    /// The entry for the pawns of `pos`, computed and stored on a miss.
    #[inline]
    pub fn probe(&mut self, pos: &Position) -> &PawnEntry {
        let key = pos.pawn_key();
        let idx = key as usize & (PAWN_TABLE_ENTRIES - 1);
        let slot = &mut self.entries[idx];
        if slot.key != key {
            *slot = PawnEntry {
                key,
                ..PawnEntry::compute(pos.board())
            };
        }
        slot
    }
}

/// Structure terms of the `own` pawns of colour `us` against the `opp` pawns, from `us`'s
/// view; adds `us`'s passed pawns to `passed`.
fn structure<T: Trace>(
    us: Color,
    own: Bitboard,
    opp: Bitboard,
    passed: &mut Bitboard,
    tr: &mut T,
) -> Score {
    let them = !us;
    let u = ci(us);
    let opp_attacks = pawn_attacks_bb(them, opp).0;
    let mut score = Score::default();
    for sq in own {
        let s = sq as usize;
        let r = relative_rank(us, sq);
        let file = sq.file() as usize;
        let adjacent = Bitboard(ADJACENT_FILES[file]);
        score += piece_square(Role::Pawn, us, sq, tr);

        let isolated = (own & adjacent).is_empty();
        let doubled = (own.0 & FORWARD_FILE[u][s]) != 0;
        let supported = (own & attacks::pawn_attacks(them, sq)).any();
        let phalanx = (own & adjacent & Bitboard::from_rank(sq.rank())).any();
        // Neighbours only ahead: no pawn can ever defend it; backward if it cannot advance
        // safely either.
        let behind_or_level = !RANKS_AHEAD[u][sq.rank() as usize];
        let stop = forward_one(us, sq);
        let backward = !isolated
            && (own.0 & ADJACENT_FILES[file] & behind_or_level) == 0
            && (opp_attacks & stop) != 0;

        if isolated {
            score += PAWN_ISOLATED;
            tr.term(us, Group::PawnIsolated, 0, 1);
        }
        if doubled {
            score += PAWN_DOUBLED;
            tr.term(us, Group::PawnDoubled, 0, 1);
        }
        if backward {
            score += PAWN_BACKWARD;
            tr.term(us, Group::PawnBackward, 0, 1);
        }
        if supported {
            score += PAWN_SUPPORTED[r];
            tr.term(us, Group::PawnSupported, r, 1);
        }
        if phalanx {
            score += PAWN_PHALANX[r];
            tr.term(us, Group::PawnPhalanx, r, 1);
        }
        if !doubled && (opp.0 & PASSED_SPAN[u][s]) == 0 {
            score += PASSED_RANK[r];
            tr.term(us, Group::PassedRank, r, 1);
            passed.add(sq);
        } else if !doubled && (opp.0 & FORWARD_FILE[u][s]) == 0 {
            // Candidate: the file ahead is free of enemy pawns and our helpers on the
            // adjacent files (level or behind) are at least as many as their sentries there.
            let sentries = (opp.0 & PASSED_SPAN[u][s]).count_ones();
            let helpers = (own.0 & ADJACENT_FILES[file] & behind_or_level).count_ones();
            if helpers >= sentries {
                score += PAWN_CANDIDATE[r];
                tr.term(us, Group::PawnCandidate, r, 1);
            }
        }
    }
    score
}

/// The square in front of `sq` from `c`'s view, as a bitboard (empty off the board).
#[inline]
fn forward_one(c: Color, sq: Square) -> u64 {
    let b = 1u64 << (sq as u32);
    match c {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// Passed-pawn terms of colour `us` that depend on kings and pieces (from `us`'s view): king
/// distances to the square in front, blocked pawns, safe pushes, and the rule of the square
/// when the enemy has only king and pawns (`turn` is the side to move).
#[inline]
pub(super) fn evaluate_passed<T: Trace>(
    b: &Board,
    turn: Color,
    us: Color,
    passed: Bitboard,
    info: &EvalInfo,
    tr: &mut T,
) -> Score {
    let (u, t) = (ci(us), ci(!us));
    let mut score = Score::default();
    let them_pawn_ending = (b.by_color(!us) & !b.pawns() & !b.kings()).is_empty();
    for sq in passed & info.pawns[u] {
        let r = relative_rank(us, sq);
        // A pawn never stands on its last rank, so the square in front exists.
        let front_bb = Bitboard(forward_one(us, sq));
        let Some(front) = front_bb.first() else {
            continue;
        };
        let own_distance = info.king_sq[u].distance(front) as i32;
        let enemy_distance = info.king_sq[t].distance(front) as i32;
        score += PASSED_OWN_KING_DISTANCE[r] * own_distance;
        score += PASSED_ENEMY_KING_DISTANCE[r] * enemy_distance;
        tr.term(us, Group::PassedOwnKingDistance, r, own_distance);
        tr.term(us, Group::PassedEnemyKingDistance, r, enemy_distance);
        if (info.occupied & front_bb).any() {
            score += PASSED_BLOCKED[r];
            tr.term(us, Group::PassedBlocked, r, 1);
        } else if (info.attacked[t] & front_bb).is_empty() {
            score += PASSED_SAFE_PUSH[r];
            tr.term(us, Group::PassedSafePush, r, 1);
        }
        if them_pawn_ending && unstoppable(info, turn, us, sq) {
            score += PASSED_UNSTOPPABLE;
            tr.term(us, Group::PassedUnstoppable, 0, 1);
        }
    }
    score
}

/// The rule of the square: the `us` pawn on `sq` (passed) queens before the enemy king can
/// reach its queening square, and nothing stands in its way. `turn` is the side to move.
#[inline]
fn unstoppable(info: &EvalInfo, turn: Color, us: Color, sq: Square) -> bool {
    if (info.occupied.0 & FORWARD_FILE[ci(us)][sq as usize]) != 0 {
        return false;
    }
    // Moves to queen; from the second rank the double step saves one.
    let moves = (7 - relative_rank(us, sq)).min(5) as i32;
    let king = info.king_sq[ci(!us)];
    let king_moves = king.distance(queening_square(us, sq.file())) as i32 - i32::from(turn != us);
    king_moves > moves
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(fen: &str) -> PawnEntry {
        PawnEntry::compute(Position::from_fen(fen, false).unwrap().board())
    }

    #[test]
    fn masks() {
        assert_eq!(
            Bitboard(FORWARD_FILE[1][Square::E4 as usize]),
            Bitboard::from_square(Square::E5) | Square::E6 | Square::E7 | Square::E8
        );
        assert_eq!(
            Bitboard(FORWARD_FILE[0][Square::E4 as usize]),
            Bitboard::from_square(Square::E3) | Square::E2 | Square::E1
        );
        assert_eq!(
            Bitboard(PASSED_SPAN[1][Square::A7 as usize]),
            Bitboard::from_square(Square::A8) | Square::B8
        );
        assert_eq!(RANKS_AHEAD[1][7], 0);
        assert_eq!(RANKS_AHEAD[0][0], 0);
    }

    #[test]
    fn passed_pawns_found() {
        // White d5 is passed (no black pawn on c-e files ahead); black h7 is passed; a2/a7
        // block each other, b-pawns face each other.
        let e = entry("4k3/p6p/1p6/3P4/8/1P6/P7/4K3 w - - 0 1");
        let expect = Bitboard::from_square(Square::D5) | Square::H7;
        assert_eq!(e.passed, expect);
    }

    #[test]
    fn no_pawns_key_is_zero() {
        assert_eq!(
            entry("4k3/8/8/8/8/8/8/4K2R w - - 0 1"),
            PawnEntry::default()
        );
    }

    #[test]
    fn structure_penalties() {
        // Doubled, isolated c-pawns against a healthy pair: worse for White.
        let bad = entry("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1").score;
        let good = entry("4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1").score;
        assert!(bad.1 < good.1, "{bad:?} vs {good:?}");
    }
}
