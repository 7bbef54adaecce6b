//! Move-ordering memory: butterfly history with gravity, continuation history, capture
//! history, killer moves, counter moves; and the correction history of the static
//! evaluation.
//!
//! Every table is per [`History`], and a `History` belongs to one searcher (one thread).

use crate::position::{Bitboard, Color, Move, Piece, Position, Role};
use crate::search::params::{
    CORRHIST_GRAIN, CORRHIST_LIMIT, CORRHIST_SIZE, CORRHIST_WEIGHT_MAX, capthist_bonus_scale,
    conthist_weight_1, conthist_weight_2, conthist_weight_4, hist_bonus_linear, hist_bonus_max,
    hist_bonus_quad,
};

/// Largest magnitude a history score reaches (gravity keeps it inside).
pub const HISTORY_MAX: i32 = 16384;

/// (moving role, from, to) of a move, with one look at it; castling is the king from its
/// square to the rook's square, a drop comes from square 0.
#[inline]
pub(super) fn role_from_to(m: Move) -> (Role, usize, usize) {
    let (role, f, t) = match m {
        Move::Normal { role, from, to, .. } => (role, from as usize, to as usize),
        Move::EnPassant { from, to } => (Role::Pawn, from as usize, to as usize),
        Move::Castle { king, rook } => (Role::King, king as usize, rook as usize),
        Move::Put { role, to } => (role, 0, to as usize),
    };
    // Squares are below 64; masked, the tables' square indices need no checks.
    (role, f & 63, t & 63)
}

/// The squares the opponent attacks, which pick the butterfly history's slot of a quiet move
/// when `threathist` is on (`on`); empty (one slot) when it is off.
#[inline]
pub fn slot_threats(pos: &Position, on: bool) -> Bitboard {
    if on { pos.threats() } else { Bitboard::EMPTY }
}

/// (from, to) indices of a move; castling is king square to rook square.
#[inline]
pub fn from_to(m: Move) -> (usize, usize) {
    let (_, f, t) = role_from_to(m);
    (f, t)
}

/// The butterfly slot of a move by the threats against its squares: 2·(from attacked by the
/// opponent) + (to attacked). With no threats given (`threathist` off), always 0.
#[inline]
fn threat_slot(threats: Bitboard, f: usize, t: usize) -> usize {
    (2 * (threats.0 >> f & 1) + (threats.0 >> t & 1)) as usize
}

#[inline]
fn piece_index(p: Piece) -> usize {
    (p.role as usize - 1) * 2 + p.color as usize
}

/// (moving piece, to) indices of move `m` by `us`: the column of the continuation and capture
/// tables.
#[inline]
fn piece_to(us: Color, m: Move) -> (usize, usize) {
    let (role, _, t) = role_from_to(m);
    (piece_index(Piece { color: us, role }), t)
}

/// Index of what a noisy move takes: 0 nothing (a quiet queen promotion), else the role
/// (en passant takes a pawn).
#[inline]
fn captured_index(m: Move) -> usize {
    match m {
        Move::EnPassant { .. } => Role::Pawn as usize,
        _ => m.capture().map_or(0, |r| r as usize),
    }
}

/// Adds `bonus` (negative: malus) to a history entry with gravity: the entry moves towards
/// ±[`HISTORY_MAX`] by less the closer it already is, so it never leaves that range and old
/// information decays.
#[inline]
fn gravity(e: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *e as i32;
    *e = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

/// Largest magnitude of a correction-history entry: [`CORRHIST_LIMIT`] centipawns, in
/// units of 1/[`CORRHIST_GRAIN`] centipawn.
pub const CORRHIST_MAX: i32 = CORRHIST_LIMIT * CORRHIST_GRAIN;

/// Moves a correction entry `weight`/256 of the way towards `target` (clamped to
/// ±[`CORRHIST_MAX`] first): a moving average weighted by depth. The new value lies between
/// the old one and the target, so it never leaves ±[`CORRHIST_MAX`].
#[inline]
fn corr_towards(e: &mut i16, target: i32, weight: i32) {
    let t = target.clamp(-CORRHIST_MAX, CORRHIST_MAX);
    let w = weight.clamp(0, 256);
    let v = *e as i32;
    *e = ((v * (256 - w) + t * w) / 256) as i16;
}

/// The keys that select a position's correction-history entries; `None`: that table is not
/// used (switched off, or the node is not corrected).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrKeys {
    /// [`Position::pawn_key`].
    pub pawn: Option<u64>,
    /// [`Position::non_pawn_key`] of White and of Black.
    pub non_pawn: Option<[u64; 2]>,
}

impl CorrKeys {
    /// The keys of `pos` for the tables that are on.
    #[inline]
    pub fn new(pos: &Position, pawn: bool, non_pawn: bool) -> CorrKeys {
        CorrKeys {
            pawn: pawn.then(|| pos.pawn_key()),
            non_pawn: non_pawn.then(|| [Color::White, Color::Black].map(|c| pos.non_pawn_key(c))),
        }
    }

    /// Whether any table is used.
    #[inline]
    pub fn any(&self) -> bool {
        self.pawn.is_some() || self.non_pawn.is_some()
    }
}

#[inline]
fn corr_index(key: u64) -> usize {
    (key as usize) & (CORRHIST_SIZE - 1)
}

/// A move made earlier on the search path, as the continuation history sees it: the piece
/// that moved and its destination (castling: the rook's square). It selects one row of the
/// continuation table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContKey(u16);

impl ContKey {
    /// The key of move `m` made by `piece`.
    #[inline]
    pub fn new(piece: Piece, m: Move) -> ContKey {
        ContKey((piece_index(piece) * 64 + from_to(m).1) as u16)
    }
}

/// The moves 1, 2 and 4 plies back, in that order, whose continuation rows score and learn
/// from a quiet move. `None`: no such move (near the root, a null move) or continuation
/// history switched off.
pub type ContContext = [Option<ContKey>; 3];

/// No continuation context.
pub const NO_CONT: ContContext = [None; 3];

/// One continuation row: a score for every (piece, destination) of the reply.
type ContRow = [[i16; 64]; 12];

/// History tables, kept across the searches of one game.
pub struct History {
    /// Butterfly history: side to move, the threat slot of the move (whether the opponent
    /// attacks its from and its to square; only slot 0 without `threathist`), from, to.
    butterfly: Box<[[[[i16; 64]; 64]; 4]; 2]>,
    /// Continuation history: row [`ContKey`] of the earlier move, then (piece, to) of the
    /// quiet move (12·64 rows of 12·64 entries, 1.2 MB).
    cont: Box<[ContRow]>,
    /// Capture history: (moving piece, to, captured role or 0) of a noisy move.
    capture: Box<[[[i16; 7]; 64]; 12]>,
    counter: Box<[[Option<Move>; 64]; 12]>,
    /// Pawn correction history: row side to move, column [`Position::pawn_key`] modulo
    /// [`CORRHIST_SIZE`]; what the search found beyond the static evaluation of positions
    /// with that pawn structure, in 1/[`CORRHIST_GRAIN`] centipawns.
    pawn_corr: Box<[[i16; CORRHIST_SIZE]; 2]>,
    /// Non-pawn correction history: row 2·(side to move) + colour, column that colour's
    /// [`Position::non_pawn_key`] modulo [`CORRHIST_SIZE`].
    non_pawn_corr: Box<[[i16; CORRHIST_SIZE]; 4]>,
}

/// A zeroed correction table of `N` rows, built on the heap (a row is 32 KB) with a length
/// the type states, so that its row indices need no checks.
fn corr_table<const N: usize>() -> Box<[[i16; CORRHIST_SIZE]; N]> {
    let rows = vec![[0; CORRHIST_SIZE]; N].into_boxed_slice();
    match rows.try_into() {
        Ok(table) => table,
        Err(_) => unreachable!("a Vec of N rows has N rows"),
    }
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[[0; 64]; 64]; 4]; 2]),
            // Built on the heap: a 1.2 MB array would go through the stack first.
            cont: vec![[[0; 64]; 12]; 12 * 64].into_boxed_slice(),
            capture: Box::new([[[0; 7]; 64]; 12]),
            counter: Box::new([[None; 64]; 12]),
            pawn_corr: corr_table(),
            non_pawn_corr: corr_table(),
        }
    }
}

/// The quiet-move ordering score of one node ([`History::quiet_scorer`]).
///
/// A missing continuation row reads `ZERO_ROW`, so a score is the same handful of
/// loads for every move, with no branch per row (with an `Option` per row and the move taken
/// apart once per table, scoring was about 9% of the search's instructions).
pub struct QuietScorer<'a> {
    /// The butterfly table of the side to move.
    butterfly: &'a [[[i16; 64]; 64]; 4],
    us: Color,
    threats: Bitboard,
    rows: [&'a ContRow; 3],
    /// The rows' weights, read once a node in the tune build (where the parameters are
    /// atomics); the other build folds the constants into the scoring ([`Self::weights`]).
    #[cfg(feature = "tune")]
    weights: [i32; 3],
}

/// The row a missing continuation row reads: all zero.
static ZERO_ROW: ContRow = [[0; 64]; 12];

/// The weights of the continuation rows 1, 2 and 4 plies back (in halves), as the parameters
/// give them now.
#[inline(always)]
fn cont_weights() -> [i32; 3] {
    [
        conthist_weight_1(),
        conthist_weight_2(),
        conthist_weight_4(),
    ]
}

impl QuietScorer<'_> {
    /// The weights of the continuation rows 1, 2 and 4 plies back (in halves).
    #[inline(always)]
    fn weights(&self) -> [i32; 3] {
        #[cfg(feature = "tune")]
        {
            self.weights
        }
        #[cfg(not(feature = "tune"))]
        {
            cont_weights()
        }
    }

    /// Butterfly history plus the weighted continuation scores (in halves) of quiet move `m`:
    /// the same value as the butterfly [`History::score`] plus [`History::cont_scores`]
    /// weighted.
    #[inline]
    pub fn score(&self, m: Move) -> i32 {
        let (role, f, t) = role_from_to(m);
        self.score_of(role, f, t)
    }

    /// [`Self::score`] of the move of `role` from square `f` to square `t` (castling: the
    /// king to the rook's square), for a caller that has taken the move apart already.
    #[inline(always)]
    pub fn score_of(&self, role: Role, f: usize, t: usize) -> i32 {
        // Squares are below 64; masked, the table indices need no checks.
        debug_assert!(f < 64 && t < 64);
        let (f, t) = (f & 63, t & 63);
        let p = piece_index(Piece {
            color: self.us,
            role,
        });
        let slot = threat_slot(self.threats, f, t);
        let w = self.weights();
        let s = self.rows[0][p][t] as i32 * w[0]
            + self.rows[1][p][t] as i32 * w[1]
            + self.rows[2][p][t] as i32 * w[2];
        self.butterfly[slot][f][t] as i32 + s / 2
    }
}

impl History {
    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Butterfly history score of a quiet move, `threats` the squares the opponent attacks
    /// (empty: the one table of plain butterfly history).
    #[inline]
    pub fn score(&self, us: Color, m: Move, threats: Bitboard) -> i32 {
        let (f, t) = from_to(m);
        self.butterfly[us as usize][threat_slot(threats, f, t)][f][t] as i32
    }

    /// Adds `bonus` (negative: malus) to the butterfly score of `m` with gravity, so scores
    /// stay within ±[`HISTORY_MAX`] and old information decays.
    #[inline]
    pub fn update(&mut self, us: Color, m: Move, threats: Bitboard, bonus: i32) {
        let (f, t) = from_to(m);
        gravity(
            &mut self.butterfly[us as usize][threat_slot(threats, f, t)][f][t],
            bonus,
        );
    }

    /// The continuation scores of quiet move `m` by `us` after the moves of `ctx` (0 where
    /// `ctx` has no move), in the order of `ctx`.
    #[inline]
    pub fn cont_scores(&self, ctx: &ContContext, us: Color, m: Move) -> [i32; 3] {
        let (p, t) = piece_to(us, m);
        ctx.map(|k| k.map_or(0, |k| self.cont[k.0 as usize][p][t] as i32))
    }

    /// Ordering score of a quiet move: butterfly plus the weighted continuation scores
    /// (`conthist_weight_1`, `_2`, `_4` for the rows 1, 2 and 4 plies back, in halves).
    #[inline]
    pub fn quiet_score(&self, ctx: &ContContext, us: Color, m: Move, threats: Bitboard) -> i32 {
        self.quiet_scorer(ctx, us, threats).score(m)
    }

    /// [`Self::quiet_score`] for the quiet moves of one node: the continuation rows (and in
    /// the tune build the weights) looked up once, not for every move.
    #[inline]
    pub fn quiet_scorer(&self, ctx: &ContContext, us: Color, threats: Bitboard) -> QuietScorer<'_> {
        QuietScorer {
            butterfly: &self.butterfly[us as usize],
            us,
            threats,
            rows: [0, 1, 2].map(|i| ctx[i].map_or(&ZERO_ROW, |k| &self.cont[k.0 as usize])),
            #[cfg(feature = "tune")]
            weights: cont_weights(),
        }
    }

    /// Adds `bonus` (negative: malus) to the continuation entries of quiet move `m` by `us`
    /// in every row `ctx` names, with gravity.
    #[inline]
    pub fn update_cont(&mut self, ctx: &ContContext, us: Color, m: Move, bonus: i32) {
        let (p, t) = piece_to(us, m);
        for k in ctx.iter().flatten() {
            gravity(&mut self.cont[k.0 as usize][p][t], bonus);
        }
    }

    /// Capture history score of noisy move `m` by `us`.
    #[inline]
    pub fn capture_score(&self, us: Color, m: Move) -> i32 {
        let (role, _, t) = role_from_to(m);
        self.capture_score_of(us, role, t, captured_index(m))
    }

    /// [`Self::capture_score`] of the move of a `role` piece to square `t` taking what
    /// `captured` indexes (0: nothing, else the role), for a caller that has the move in
    /// parts.
    #[inline(always)]
    pub fn capture_score_of(&self, us: Color, role: Role, t: usize, captured: usize) -> i32 {
        debug_assert!(t < 64 && captured < 7);
        self.capture[piece_index(Piece { color: us, role })][t & 63][captured] as i32
    }

    /// Adds `bonus` (negative: malus), times `capthist_bonus_scale` / 2, to the capture
    /// history of noisy move `m` by `us`, with gravity.
    #[inline]
    pub fn update_capture(&mut self, us: Color, m: Move, bonus: i32) {
        let (p, t) = piece_to(us, m);
        let e = &mut self.capture[p][t][captured_index(m)];
        gravity(e, bonus * capthist_bonus_scale() / 2);
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

    /// The correction, in centipawns, of the static evaluation of a position with `us` to
    /// move and the keys `keys`: the sum of the entries of the tables in use. Each table adds
    /// at most [`CORRHIST_LIMIT`].
    #[inline]
    pub fn correction(&self, us: Color, keys: &CorrKeys) -> i32 {
        let u = us as usize;
        let mut sum = 0;
        if let Some(k) = keys.pawn {
            sum += self.pawn_corr[u][corr_index(k)] as i32;
        }
        if let Some(ks) = keys.non_pawn {
            for (c, k) in ks.into_iter().enumerate() {
                sum += self.non_pawn_corr[2 * u + c][corr_index(k)] as i32;
            }
        }
        sum / CORRHIST_GRAIN
    }

    /// Learns from a node searched to `depth`: its score was `gap` centipawns above the
    /// corrected static evaluation (below, when negative). Each table in use moves its entry
    /// towards the entry plus the gap, so that one table alone learns the average gap to the
    /// raw evaluation and several share it out between them; deeper nodes weigh more
    /// (`min(depth + 1, CORRHIST_WEIGHT_MAX)` / 256).
    #[inline]
    pub fn update_correction(&mut self, us: Color, keys: &CorrKeys, gap: i32, depth: i32) {
        let u = us as usize;
        let w = (depth + 1).clamp(1, CORRHIST_WEIGHT_MAX);
        let g = gap.clamp(-2 * CORRHIST_LIMIT, 2 * CORRHIST_LIMIT) * CORRHIST_GRAIN;
        if let Some(k) = keys.pawn {
            let e = &mut self.pawn_corr[u][corr_index(k)];
            corr_towards(e, *e as i32 + g, w);
        }
        if let Some(ks) = keys.non_pawn {
            for (c, k) in ks.into_iter().enumerate() {
                let e = &mut self.non_pawn_corr[2 * u + c][corr_index(k)];
                corr_towards(e, *e as i32 + g, w);
            }
        }
    }
}

/// History bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * hist_bonus_quad() + depth * hist_bonus_linear()).min(hist_bonus_max())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Role, Square};

    /// Ng1-f3, the quiet move these tests score.
    fn knight_g1f3() -> Move {
        Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        }
    }

    #[test]
    fn gravity_bounds_scores() {
        let mut h = History::default();
        let m = knight_g1f3();
        for _ in 0..1000 {
            h.update(Color::White, m, Bitboard::EMPTY, 1600);
        }
        assert!(h.score(Color::White, m, Bitboard::EMPTY) <= HISTORY_MAX);
        assert!(h.score(Color::White, m, Bitboard::EMPTY) > HISTORY_MAX / 2);
        for _ in 0..1000 {
            h.update(Color::White, m, Bitboard::EMPTY, -1600);
        }
        assert!(h.score(Color::White, m, Bitboard::EMPTY) >= -HISTORY_MAX);
        assert_eq!(h.score(Color::Black, m, Bitboard::EMPTY), 0);
    }

    /// With threats given, a move's butterfly score is kept apart by whether its from and its
    /// to square are attacked (`threathist`); other squares' threats do not matter.
    #[test]
    fn threats_on_a_moves_squares_pick_its_butterfly_slot() {
        let mut h = History::default();
        let m = knight_g1f3();
        let (g1, f3) = (Bitboard::from(Square::G1), Bitboard::from(Square::F3));
        let far = Bitboard::from(Square::A8);
        h.update(Color::White, m, f3, 1000);
        assert_eq!(h.score(Color::White, m, f3), 1000);
        assert_eq!(h.score(Color::White, m, f3 | far), 1000);
        for other in [Bitboard::EMPTY, far, g1, g1 | f3] {
            assert_eq!(h.score(Color::White, m, other), 0, "{other:?}");
        }
        h.update(Color::White, m, g1 | f3, -500);
        assert_eq!(h.score(Color::White, m, g1 | f3), -500);
        assert_eq!(h.score(Color::White, m, f3), 1000);
        assert_eq!(h.quiet_score(&NO_CONT, Color::White, m, f3), 1000);
    }
}

#[cfg(test)]
mod random_tests {
    use super::*;
    use crate::position::Square;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    const ROLES: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    fn random_move(rng: &mut StdRng, capture: bool) -> Move {
        Move::Normal {
            role: ROLES[rng.random_range(0..6)],
            from: Square::new(rng.random_range(0..64)),
            capture: capture.then(|| ROLES[rng.random_range(0..5)]),
            to: Square::new(rng.random_range(0..64)),
            promotion: None,
        }
    }

    fn random_color(rng: &mut StdRng) -> Color {
        if rng.random_bool(0.5) {
            Color::White
        } else {
            Color::Black
        }
    }

    fn in_bounds(v: i16) -> bool {
        (-HISTORY_MAX..=HISTORY_MAX).contains(&(v as i32))
    }

    /// Random bonuses and maluses, many beyond the clamp, on a few hot entries and many
    /// cold ones: no entry of any table ever leaves ±HISTORY_MAX.
    #[test]
    fn every_table_stays_bounded_under_random_updates() {
        let mut rng = StdRng::seed_from_u64(23);
        let mut h = History::default();
        let hot: Vec<Move> = (0..4).map(|_| random_move(&mut rng, false)).collect();
        let hot_ctx: ContContext = [Some(ContKey::new(
            Piece {
                color: Color::White,
                role: Role::Knight,
            },
            hot[0],
        )); 3];
        for i in 0..200_000 {
            let us = random_color(&mut rng);
            let bonus = rng.random_range(-3 * HISTORY_MAX..=3 * HISTORY_MAX);
            let quiet = if i % 2 == 0 {
                hot[rng.random_range(0..hot.len())]
            } else {
                random_move(&mut rng, false)
            };
            let ctx: ContContext = if i % 3 == 0 {
                hot_ctx
            } else {
                [0, 1, 2].map(|_| {
                    rng.random_bool(0.8).then(|| {
                        let capture = rng.random_bool(0.3);
                        let m = random_move(&mut rng, capture);
                        let color = random_color(&mut rng);
                        ContKey::new(
                            Piece {
                                color,
                                role: m.role(),
                            },
                            m,
                        )
                    })
                })
            };
            h.update(us, quiet, Bitboard::EMPTY, bonus);
            h.update_cont(&ctx, us, quiet, bonus);
            let noisy = random_move(&mut rng, true);
            h.update_capture(us, noisy, bonus);
            for c in h.cont_scores(&ctx, us, quiet) {
                assert!(c.abs() <= HISTORY_MAX);
            }
            assert!(h.score(us, quiet, Bitboard::EMPTY).abs() <= HISTORY_MAX);
            assert!(h.capture_score(us, noisy).abs() <= HISTORY_MAX);
        }
        assert!(
            h.butterfly
                .iter()
                .flatten()
                .flatten()
                .flatten()
                .all(|&v| in_bounds(v))
        );
        assert!(h.cont.iter().flatten().flatten().all(|&v| in_bounds(v)));
        assert!(h.capture.iter().flatten().flatten().all(|&v| in_bounds(v)));
        // The hot entries were pushed hard both ways: somewhere they came near a bound.
        let hot_max = hot
            .iter()
            .flat_map(|&m| h.cont_scores(&hot_ctx, Color::White, m))
            .map(i32::abs)
            .max()
            .unwrap();
        assert!(hot_max > 0);
    }

    /// Random gaps, many far beyond the limit, at random depths, on a few hot pawn and
    /// non-pawn keys and many cold ones, with either table or both in use: no entry ever
    /// leaves ±CORRHIST_MAX and no correction exceeds CORRHIST_LIMIT per table.
    #[test]
    fn correction_tables_stay_bounded_under_random_updates() {
        let mut rng = StdRng::seed_from_u64(29);
        let mut h = History::default();
        let hot: Vec<u64> = (0..4).map(|_| rng.random()).collect();
        for i in 0..200_000 {
            let us = random_color(&mut rng);
            let mut key = || {
                if i % 2 == 0 {
                    hot[rng.random_range(0..hot.len())]
                } else {
                    rng.random()
                }
            };
            let (pawn, white, black) = (key(), key(), key());
            let keys = CorrKeys {
                pawn: (i % 3 != 1).then_some(pawn),
                non_pawn: (i % 3 != 0).then_some([white, black]),
            };
            // Gaps up to a mate score either way, a few huge ones included.
            let gap = if rng.random_bool(0.01) {
                rng.random_range(-40_000..=40_000)
            } else {
                rng.random_range(-4 * CORRHIST_LIMIT..=4 * CORRHIST_LIMIT)
            };
            let depth = rng.random_range(-2..=80);
            h.update_correction(us, &keys, gap, depth);
            let c = h.correction(us, &keys);
            assert!(c.abs() <= 4 * CORRHIST_LIMIT, "{c}");
        }
        let in_corr_bounds = |v: &i16| (-CORRHIST_MAX..=CORRHIST_MAX).contains(&(*v as i32));
        assert!(h.pawn_corr.iter().flatten().all(in_corr_bounds));
        assert!(h.non_pawn_corr.iter().flatten().all(in_corr_bounds));
        // The hot entries were pushed hard both ways: somewhere they came near a bound.
        let hot_max = hot
            .iter()
            .map(|&k| h.pawn_corr[0][corr_index(k)].unsigned_abs())
            .max()
            .unwrap();
        assert!(hot_max > 0);
    }

    /// A steady gap is learned: one table alone comes to correct by the gap (a gap beyond the
    /// limit: by about the limit); several tables share it out, and their sum comes near it. The
    /// sides to move have separate entries, and clearing forgets.
    #[test]
    fn correction_learns_a_steady_gap() {
        let mut h = History::default();
        let pawn_only = CorrKeys {
            pawn: Some(0x1234_5678_9abc_def0),
            non_pawn: None,
        };
        for _ in 0..2000 {
            let gap = 40 - h.correction(Color::White, &pawn_only);
            h.update_correction(Color::White, &pawn_only, gap, 8);
        }
        assert!((39..=40).contains(&h.correction(Color::White, &pawn_only)));
        assert_eq!(h.correction(Color::Black, &pawn_only), 0);
        for _ in 0..2000 {
            let gap = -1000 - h.correction(Color::Black, &pawn_only);
            h.update_correction(Color::Black, &pawn_only, gap, 8);
        }
        let c = h.correction(Color::Black, &pawn_only);
        assert!((-CORRHIST_LIMIT..=-CORRHIST_LIMIT + 1).contains(&c), "{c}");
        let both = CorrKeys {
            pawn: Some(7),
            non_pawn: Some([11, 13]),
        };
        for _ in 0..5000 {
            let gap = 90 - h.correction(Color::White, &both);
            h.update_correction(Color::White, &both, gap, 3);
        }
        let c = h.correction(Color::White, &both);
        assert!((85..=90).contains(&c), "{c}");
        // No table in use: no correction and nothing learned.
        let none = CorrKeys::default();
        h.update_correction(Color::White, &none, 50, 10);
        assert_eq!(h.correction(Color::White, &none), 0);
        h.clear();
        assert_eq!(h.correction(Color::White, &pawn_only), 0);
        assert_eq!(h.correction(Color::White, &both), 0);
    }

    /// Without continuation rows the quiet score is the butterfly score; each row adds its
    /// weighted entry; an update touches only the rows named.
    #[test]
    fn continuation_rows_add_to_the_butterfly_score() {
        let mut h = History::default();
        let knight = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        let prev = Move::Normal {
            role: Role::Pawn,
            from: Square::E7,
            capture: None,
            to: Square::E5,
            promotion: None,
        };
        let m = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        let black_pawn = Piece {
            color: Color::Black,
            role: Role::Pawn,
        };
        let ctx: ContContext = [Some(ContKey::new(black_pawn, prev)), None, None];
        h.update(Color::White, m, Bitboard::EMPTY, 1000);
        h.update_cont(&ctx, Color::White, m, 800);
        assert_eq!(
            h.quiet_score(&NO_CONT, Color::White, m, Bitboard::EMPTY),
            1000
        );
        assert_eq!(h.cont_scores(&ctx, Color::White, m), [800, 0, 0]);
        assert_eq!(
            h.quiet_score(&ctx, Color::White, m, Bitboard::EMPTY),
            1000 + 800 * conthist_weight_1() / 2
        );
        // Another row (the same move by the knight instead of the pawn) is untouched.
        let other: ContContext = [Some(ContKey::new(knight, prev)), None, None];
        assert_eq!(h.cont_scores(&other, Color::White, m), [0; 3]);
        // Capture history is keyed by what is taken.
        let nxe5 = Move::Normal {
            role: Role::Knight,
            from: Square::F3,
            capture: Some(Role::Pawn),
            to: Square::E5,
            promotion: None,
        };
        h.update_capture(Color::White, nxe5, 500);
        assert!(h.capture_score(Color::White, nxe5) > 0);
        let nxe5_knight = Move::Normal {
            role: Role::Knight,
            from: Square::F3,
            capture: Some(Role::Knight),
            to: Square::E5,
            promotion: None,
        };
        assert_eq!(h.capture_score(Color::White, nxe5_knight), 0);
    }
}
