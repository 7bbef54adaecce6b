//! Every evaluation weight in one table.
//!
//! Each weight is a (middlegame, endgame) [`Score`] pair; the evaluation blends the two by the
//! game phase. Tables are indexed from White's view (a1 = 0 ... h8 = 63, or by relative rank
//! 0 = first rank ... 7 = eighth rank); Black's pieces read them mirrored.
//!
//! This file is meant to be machine-rewritten by a Texel tuner: keep it a plain list of
//! `pub const NAME: Score` / `[Score; N]` items with literal numbers. The few plain `i32`
//! constants at the end are not linear weights (divisors, thresholds, scale factors).
//!
//! Naming: `*_PST` piece-square tables, `MOBILITY_*` per-count tables, `PAWN_*` / `PASSED_*`
//! pawn structure, `KING_*` king safety, `*_UNITS` king-danger attack units (see
//! [`KING_DANGER_DIVISOR`]), `SCALE_*` endgame scale factors out of [`SCALE_NORMAL`].
//!
//! The numbers were written by hand for this engine from the usual principles (Texel tunes on
//! the TCEC set fit the data better but lost in games; see the README's Tuning section).

use super::Score;

// ------------------------------------------------------------------------------------------
// Material
// ------------------------------------------------------------------------------------------

/// Piece values, indexed by role (pawn, knight, bishop, rook, queen, king).
pub const PIECE_VALUE: [Score; 6] = [
    Score(82, 100),
    Score(330, 310),
    Score(350, 330),
    Score(480, 540),
    Score(1000, 1000),
    Score(0, 0),
];

// ------------------------------------------------------------------------------------------
// Piece-square tables
// ------------------------------------------------------------------------------------------

/// Pawn piece-square bonus (White's view, a1 = 0 ... h8 = 63, rank by rank).
#[rustfmt::skip]
pub const PAWN_PST: [Score; 64] = [
    Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0),
    Score(  -1,   2), Score(  -1,   2), Score(   0,   1), Score(  -8,   1), Score( -13,   9), Score(   6,   5), Score(  14,   0), Score(   3,   2),
    Score(   0,   5), Score(  -4,   4), Score(  -3,   1), Score(  -3,   5), Score(  -1,   3), Score(  -3,   4), Score(   4,   3), Score(   4,   4),
    Score(   0,  10), Score(  -5,  12), Score(   6,   3), Score(  15,   5), Score(  13,   2), Score(   5,   8), Score(   4,  10), Score(   0,   9),
    Score(   5,  18), Score(  -1,  20), Score(   8,  12), Score(  18,   9), Score(  17,  10), Score(  11,  11), Score(   5,  14), Score(   4,  17),
    Score(   6,  29), Score(  10,  31), Score(  18,  22), Score(  21,  23), Score(  31,  26), Score(  24,  33), Score(  13,  33), Score(  16,  34),
    Score(  38,  46), Score(  43,  53), Score(  37,  56), Score(  45,  50), Score(  43,  57), Score(  41,  53), Score(  41,  67), Score(  39,  49),
    Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0), Score(   0,   0),
];
/// Knight piece-square bonus (White's view, a1 = 0 ... h8 = 63, rank by rank).
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    Score( -50, -40), Score( -23, -23), Score( -19, -19), Score( -15, -12), Score( -10, -13), Score( -18, -18), Score( -26, -24), Score( -52, -38),
    Score( -30, -29), Score( -14,  -8), Score(  -5,  -8), Score(   2,  -3), Score(   2,  -2), Score(  -2,  -8), Score( -10,  -8), Score( -22, -21),
    Score( -21, -19), Score(  -2,  -9), Score(   4,  -2), Score(   9,   9), Score(  12,   6), Score(   4,  -1), Score(   2,  -6), Score( -16, -22),
    Score( -11, -13), Score(   4,   1), Score(  12,   7), Score(  10,  12), Score(  12,  14), Score(  15,  10), Score(   6,   4), Score( -11, -15),
    Score(  -7, -10), Score(  11,  -1), Score(  18,  12), Score(  27,  13), Score(  15,  18), Score(  19,  12), Score(   9,   2), Score(  -5, -12),
    Score( -22, -22), Score(   6,  -4), Score(  15,   5), Score(  16,  11), Score(  25,  11), Score(  14,   4), Score(   6,  -2), Score( -19, -19),
    Score( -21, -25), Score( -17,  -9), Score(   2,  -3), Score(   7,   4), Score(   3,   2), Score(   1,  -4), Score( -17, -12), Score( -25, -27),
    Score( -54, -43), Score( -32, -25), Score( -20, -19), Score( -15, -16), Score( -15, -15), Score( -21, -20), Score( -31, -26), Score( -51, -43),
];
/// Bishop piece-square bonus (White's view, a1 = 0 ... h8 = 63, rank by rank).
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    Score( -13, -15), Score(  -5, -10), Score(  -6,  -8), Score(  -4,  -5), Score(  -8,  -3), Score( -14,  -2), Score(  -6,  -8), Score( -10, -13),
    Score(  -2, -10), Score(  12, -10), Score(   9,  -5), Score(   3,  -4), Score(   4,   2), Score(   9,  -2), Score(  14,  -3), Score(   0, -11),
    Score(  -6, -12), Score(   9,  -3), Score(  10,   3), Score(   6,   6), Score(   6,   6), Score(   8,   4), Score(   9,   0), Score(   2,  -8),
    Score(  -5,  -5), Score(   2,  -3), Score(   1,   7), Score(  13,   9), Score(  14,   8), Score(   2,   6), Score(   3,  -2), Score(  -4,  -7),
    Score(  -9,  -8), Score(   1,  -2), Score(  13,   4), Score(  16,  10), Score(   7,   9), Score(  11,  10), Score(   0,   2), Score(  -3,  -6),
    Score(  -6,  -5), Score(   6,   0), Score(   7,   5), Score(   9,   0), Score(  11,   4), Score(  13,   6), Score(   9,   2), Score(   2, -10),
    Score( -14, -10), Score(  -2,  -2), Score(  -3,   2), Score(  -4,   1), Score(   1,   0), Score(  -3,  -4), Score(  -3,  -5), Score(  -9,  -8),
    Score( -16, -13), Score(  -9,  -7), Score(  -9,  -2), Score(  -9,  -4), Score(  -9,  -1), Score( -11, -11), Score( -10,  -9), Score( -14, -12),
];
/// Rook piece-square bonus (White's view, a1 = 0 ... h8 = 63, rank by rank).
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    Score(  -6, -11), Score(  -1,  -9), Score(   0,  -5), Score(   4,  -7), Score(   5,  -9), Score(   0,  -6), Score(  -5,  -9), Score(  -5, -17),
    Score( -14,  -5), Score(  -7,  -4), Score(  -5,  -3), Score(  -5,  -4), Score(  -3,  -4), Score(  -5,  -4), Score(  -5,  -4), Score(  -9, -10),
    Score( -11,  -3), Score(  -7,   2), Score(  -6,   0), Score(  -6,  -2), Score(  -6,  -3), Score(  -9,   0), Score(  -4,  -5), Score( -11,  -9),
    Score(  -9,   4), Score(   0,   3), Score(  -1,   4), Score(  -4,   2), Score(  -6,   3), Score(  -6,   1), Score(  -1,   4), Score(  -7,  -4),
    Score(  -6,  10), Score(   0,   9), Score(   7,  10), Score(   5,   6), Score(   5,   3), Score(   4,   5), Score(   3,   4), Score(  -3,   5),
    Score(  -1,  13), Score(   8,  11), Score(   7,   8), Score(  13,   8), Score(  13,   8), Score(   7,   7), Score(   7,  10), Score(  -2,   8),
    Score(  17,  10), Score(  14,  11), Score(  21,  14), Score(  23,   9), Score(  21,   9), Score(  17,  11), Score(  23,  12), Score(  16,   8),
    Score(  10,   9), Score(   8,   8), Score(   8,  10), Score(  11,  10), Score(  11,  13), Score(   8,  11), Score(   6,   7), Score(   8,  11),
];
/// Queen piece-square bonus (White's view, a1 = 0 ... h8 = 63, rank by rank).
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    Score(  -9, -20), Score(  -8, -17), Score(  -4, -17), Score(  -4,  -7), Score(  -3, -10), Score(  -5, -14), Score( -13, -21), Score( -18, -22),
    Score( -11, -16), Score(  -5,  -7), Score(   2,  -5), Score(   4, -13), Score(   3,  -4), Score(   3,  -8), Score(  -4, -12), Score( -14, -17),
    Score(  -5, -13), Score(  -1,   3), Score(   1,   3), Score(   0,   6), Score(   2,   9), Score(   3,   5), Score(   5,   0), Score(   0,  -8),
    Score(  -7,  -1), Score(  -5,   1), Score(  -1,  12), Score(   0,  13), Score(   3,  14), Score(   7,  10), Score(   5,   1), Score(   0,  -5),
    Score(  -3,  -4), Score(   2,   3), Score(   5,  10), Score(   3,  17), Score(   3,  16), Score(   7,  13), Score(   6,   4), Score(   2,  -5),
    Score(  -1,  -6), Score(   0,  -1), Score(   3,  11), Score(   7,  12), Score(   8,  14), Score(   7,  12), Score(   7,   4), Score(  -4, -10),
    Score( -10, -14), Score( -12,  -2), Score(   3,   3), Score(   2,   4), Score(   4,   4), Score(   3,   3), Score(   2,  -4), Score(  -2, -12),
    Score( -19, -22), Score(  -8, -12), Score(  -5, -10), Score(  -1,  -1), Score(  -1,  -1), Score(  -3,  -7), Score(  -8, -11), Score( -11, -18),
];
/// King piece-square bonus (White's view, a1 = 0 ... h8 = 63, rank by rank).
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    Score(  23, -51), Score(  30, -36), Score(  13, -27), Score( -22, -22), Score(   0, -27), Score( -14, -29), Score(  25, -34), Score(  18, -52),
    Score(  10, -32), Score(   8, -20), Score(  -2, -11), Score( -23,  -8), Score( -20,  -8), Score(  -9, -11), Score(  11, -22), Score(  10, -33),
    Score( -15, -26), Score( -19,  -9), Score( -22,   2), Score( -28,   6), Score( -31,   6), Score( -23,  -2), Score( -15, -12), Score( -14, -30),
    Score( -30, -24), Score( -38,  -3), Score( -42,  10), Score( -52,  18), Score( -51,  19), Score( -38,   8), Score( -33,  -4), Score( -30, -28),
    Score( -39, -12), Score( -45,   4), Score( -51,  20), Score( -62,  24), Score( -60,  22), Score( -51,  15), Score( -44,   7), Score( -40, -23),
    Score( -44, -20), Score( -50,   6), Score( -55,  21), Score( -66,  24), Score( -66,  23), Score( -54,  20), Score( -49,   9), Score( -45, -13),
    Score( -50, -28), Score( -53,  -4), Score( -59,   4), Score( -69,   9), Score( -69,   8), Score( -58,   2), Score( -54,  -8), Score( -50, -31),
    Score( -55, -52), Score( -59, -31), Score( -65, -24), Score( -74, -17), Score( -74, -16), Score( -64, -20), Score( -59, -32), Score( -56, -54),
];

// ------------------------------------------------------------------------------------------
// Mobility (squares attacked that hold no own piece and are not attacked by enemy pawns)
// ------------------------------------------------------------------------------------------

/// Knight mobility by the number of safe squares it attacks (0 ..= 8).
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    Score(-26, -40), Score(-15, -23), Score(-10, -7), Score(-5, 0), Score(-2, 5), Score(2, 8), Score(6, 11),
    Score(10, 10), Score(16, 10),
];
/// Bishop mobility by the number of safe squares it attacks (0 ..= 13).
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    Score(-24, -40), Score(-17, -26), Score(-12, -19), Score(-8, -11), Score(-5, -6), Score(-3, 0), Score(-1, 3),
    Score(1, 5), Score(2, 9), Score(2, 11), Score(8, 10), Score(12, 10), Score(13, 13), Score(15, 16),
];
/// Rook mobility by the number of safe squares it attacks (0 ..= 14).
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    Score(-17, -45), Score(-11, -28), Score(-8, -17), Score(-5, -15), Score(-5, -9), Score(-2, -4), Score(1, 0),
    Score(4, 2), Score(4, 6), Score(2, 13), Score(7, 15), Score(3, 20), Score(6, 21), Score(11, 16),
    Score(7, 23),
];
/// Queen mobility by the number of safe squares it attacks (0 ..= 27).
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    Score(-11, -38), Score(-10, -27), Score(-8, -24), Score(-9, -21), Score(-7, -20), Score(-6, -19), Score(-5, -16),
    Score(-4, -6), Score(-3, -3), Score(-1, 0), Score(0, 2), Score(1, 3), Score(2, 9), Score(3, 6),
    Score(1, 13), Score(3, 10), Score(6, 16), Score(8, 22), Score(6, 18), Score(7, 17), Score(7, 17),
    Score(7, 17), Score(7, 16), Score(6, 17), Score(7, 17), Score(8, 20), Score(9, 22), Score(10, 23),
];

// ------------------------------------------------------------------------------------------
// Pieces
// ------------------------------------------------------------------------------------------

/// Two bishops on squares of both colours.
pub const BISHOP_PAIR: Score = Score(22, 52);
/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = Score(26, 5);
/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_SEMI_OPEN_FILE: Score = Score(13, 14);
/// Rook on the seventh rank while the enemy king is on the eighth or enemy pawns are on the
/// seventh.
pub const ROOK_ON_SEVENTH: Score = Score(1, 19);
/// Knight on an outpost: relative rank 4 to 6, defended by an own pawn, on a square no enemy
/// pawn can ever attack.
pub const KNIGHT_OUTPOST: Score = Score(18, 10);
/// Bishop on an outpost (as for knights).
pub const BISHOP_OUTPOST: Score = Score(15, 3);

// ------------------------------------------------------------------------------------------
// Pawn structure (all of it cached in the pawn hash table except the `PASSED_*` terms that
// look at kings and pieces)
// ------------------------------------------------------------------------------------------

/// Pawn with no own pawn on an adjacent file.
pub const PAWN_ISOLATED: Score = Score(-10, -12);
/// Pawn with an own pawn in front of it on the same file (counted for the rear pawn).
pub const PAWN_DOUBLED: Score = Score(-12, -21);
/// Pawn whose neighbours are all ahead of it (so it can never be defended by a pawn) and whose
/// stop square is attacked by an enemy pawn.
pub const PAWN_BACKWARD: Score = Score(-7, -10);
/// Pawn defended by an own pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_SUPPORTED: [Score; 8] = [
    Score(0, 0), Score(0, 0), Score(9, 6), Score(10, 5),
    Score(17, 11), Score(29, 34), Score(52, 44), Score(0, 0),
];
/// Pawn with an own pawn beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [Score; 8] = [
    Score(0, 0), Score(2, 1), Score(5, 1), Score(9, 6),
    Score(16, 20), Score(39, 40), Score(61, 65), Score(0, 0),
];
/// Candidate passed pawn, by relative rank: not passed, no enemy pawn in front of it on its
/// file, and at least as many own pawns level with or behind it on the adjacent files as enemy
/// pawns in front of it there (it can force its way through).
#[rustfmt::skip]
pub const PAWN_CANDIDATE: [Score; 8] = [
    Score(0, 0), Score(-1, 6), Score(5, 5), Score(5, 11),
    Score(5, 20), Score(18, 36), Score(0, 0), Score(0, 0),
];
/// Passed pawn (no enemy pawn in front on its own or an adjacent file, no own pawn in front on
/// its file), by relative rank.
#[rustfmt::skip]
pub const PASSED_RANK: [Score; 8] = [
    Score(0, 0), Score(1, 13), Score(2, 13), Score(0, 29),
    Score(18, 50), Score(52, 84), Score(84, 142), Score(0, 0),
];
/// Passed pawn: per square of king distance from the own king to the square in front, by
/// relative rank (a penalty: the own king should be close).
#[rustfmt::skip]
pub const PASSED_OWN_KING_DISTANCE: [Score; 8] = [
    Score(0, 0), Score(2, 0), Score(1, -2), Score(6, -7),
    Score(4, -10), Score(0, -12), Score(-1, -16), Score(0, 0),
];
/// Passed pawn: per square of king distance from the enemy king to the square in front, by
/// relative rank (a bonus: the enemy king should be far).
#[rustfmt::skip]
pub const PASSED_ENEMY_KING_DISTANCE: [Score; 8] = [
    Score(0, 0), Score(-2, 0), Score(-2, 2), Score(-4, 8),
    Score(-6, 16), Score(-2, 22), Score(4, 25), Score(0, 0),
];
/// Passed pawn whose square in front is occupied, by relative rank.
#[rustfmt::skip]
pub const PASSED_BLOCKED: [Score; 8] = [
    Score(0, 0), Score(-4, 1), Score(0, 0), Score(-7, -9),
    Score(-5, -10), Score(-7, -21), Score(-18, -41), Score(0, 0),
];
/// Passed pawn whose square in front is empty and not attacked by the enemy, by relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PUSH: [Score; 8] = [
    Score(0, 0), Score(-1, 2), Score(1, 5), Score(-7, 14),
    Score(3, 22), Score(8, 34), Score(13, 37), Score(0, 0),
];
/// Passed pawn that the enemy king cannot catch by the rule of the square while the enemy has
/// only king and pawns, and no own piece stands in its way.
pub const PASSED_UNSTOPPABLE: Score = Score(0, 239);

// ------------------------------------------------------------------------------------------
// King safety
// ------------------------------------------------------------------------------------------

/// Pawn shield on each of the three files around the king, by how many ranks ahead of the
/// king the nearest own pawn on that file stands: none, 1, 2, 3 or more.
#[rustfmt::skip]
pub const KING_SHIELD: [Score; 4] = [
    Score(-14, 13), Score(13, -2), Score(7, -2), Score(1, -4),
];
/// File next to (or of) the king with no own pawn but an enemy pawn.
pub const KING_SEMI_OPEN_FILE: Score = Score(-1, -6);
/// File next to (or of) the king with no pawn at all.
pub const KING_OPEN_FILE: Score = Score(-8, -17);
/// Enemy pawn storming a file next to (or of) the king, by how many ranks in front of the king
/// the nearest one stands: none within three, 1, 2, 3. Not blocked by an own pawn.
#[rustfmt::skip]
pub const KING_STORM: [Score; 4] = [
    Score(0, 0), Score(2, 0), Score(-22, -5), Score(-7, -4),
];
/// As [`KING_STORM`], for a storming pawn that an own pawn blocks (stands right in front of).
#[rustfmt::skip]
pub const KING_STORM_BLOCKED: [Score; 4] = [
    Score(0, 0), Score(0, 0), Score(0, -10), Score(1, -2),
];

/// King-danger units per enemy piece attacking the king zone, indexed knight, bishop, rook,
/// queen. The middlegame units are squared (see [`KING_DANGER_DIVISOR`]), the endgame units
/// count linearly (see [`KING_DANGER_EG_DIVISOR`]).
pub const KING_ATTACKER_UNITS: [Score; 4] = [Score(3, 7), Score(0, 8), Score(2, 0), Score(2, 8)];
/// King-danger units per (attacking piece, king-zone square) pair.
pub const KING_ZONE_ATTACK_UNITS: Score = Score(2, 4);
/// King-danger units per king-zone square attacked by the enemy and defended only by the king
/// (or not at all).
pub const KING_WEAK_SQUARE_UNITS: Score = Score(3, 2);
/// King-danger units per safe checking square, indexed knight, bishop, rook, queen.
pub const KING_SAFE_CHECK_UNITS: [Score; 4] =
    [Score(11, 14), Score(5, 9), Score(12, 12), Score(8, 12)];
/// King-danger units removed when the attacker has no queen.
pub const KING_NO_QUEEN_UNITS: Score = Score(-15, -23);

// ------------------------------------------------------------------------------------------
// Threats (a bonus for the attacking side, per enemy piece threatened)
// ------------------------------------------------------------------------------------------

/// Enemy pawn that we attack and that nothing defends.
pub const THREAT_WEAK_PAWN: Score = Score(11, 31);
/// Enemy knight or bishop attacked by one of our pawns.
pub const THREAT_MINOR_BY_PAWN: Score = Score(46, 32);
/// Enemy knight or bishop attacked by one of our knights or bishops.
pub const THREAT_MINOR_BY_MINOR: Score = Score(22, 25);
/// Enemy knight or bishop that nothing defends, attacked by one of our rooks or queens.
pub const THREAT_MINOR_BY_MAJOR: Score = Score(17, 26);
/// Enemy rook attacked by one of our pawns, knights or bishops.
pub const THREAT_ROOK_BY_LESSER: Score = Score(50, 15);
/// Enemy queen attacked by one of our pawns, knights, bishops or rooks.
pub const THREAT_QUEEN: Score = Score(44, 16);
/// Enemy knight, bishop, rook or queen that we attack and that nothing defends.
pub const THREAT_HANGING: Score = Score(8, 6);
/// Enemy knight, bishop, rook or queen that one of our pawns would attack after a safe push.
pub const THREAT_PAWN_PUSH: Score = Score(14, 13);

// ------------------------------------------------------------------------------------------
// Side to move
// ------------------------------------------------------------------------------------------

/// Bonus for the side to move.
pub const TEMPO: Score = Score(16, 6);

// ------------------------------------------------------------------------------------------
// Non-linear constants (not rewritten by a linear tuner)
// ------------------------------------------------------------------------------------------

/// Middlegame king-danger penalty = `units² / KING_DANGER_DIVISOR`.
pub const KING_DANGER_DIVISOR: i32 = 10;
/// Endgame king-danger penalty = `units / KING_DANGER_EG_DIVISOR`.
pub const KING_DANGER_EG_DIVISOR: i32 = 4;
/// Middlegame king-danger units are capped here before squaring (caps the penalty at
/// `100² / 10 = 1000`).
pub const KING_DANGER_MAX_UNITS: i32 = 100;
/// King danger counts only when the attacker has a queen or at least this much non-pawn
/// material (middlegame piece values).
pub const KING_DANGER_MIN_MATERIAL: i32 = 1300;
/// King danger counts only with at least this many attackers of the king zone (a queen counts
/// as two).
pub const KING_DANGER_MIN_ATTACKERS: i32 = 2;

/// Endgame scale factors are out of this (the tapered score is multiplied by `f / 128`).
pub const SCALE_NORMAL: i32 = 128;
/// Opposite-coloured bishops and pawns only.
pub const SCALE_OPPOSITE_BISHOPS: i32 = 64;
/// The stronger side has no pawns and is less than a rook up in pieces.
pub const SCALE_NO_PAWNS_SMALL_EDGE: i32 = 16;
/// The stronger side has no pawns and at most a minor piece, or only two knights against a bare
/// king, or only rook pawns (with at most bishops that do not cover the queening square)
/// against a bare king that holds the queening corner: it cannot win.
pub const SCALE_CANNOT_WIN: i32 = 0;
