//! Staged move picker: TT move, good captures (MVV-LVA plus capture history, SEE ≥ 0), quiet
//! queen promotions, killers, counter move, quiets by butterfly plus continuation history, bad
//! captures. In check: all evasions, ordered the same way. The quiescence picker yields only
//! captures and queen promotions.

use arrayvec::ArrayVec;

use crate::eval::role_value;
use crate::movegen::{CaptureSink, QuietSink};
use crate::position::{Bitboard, Move, MoveList, Position, Role, Square};
use crate::search::ordering::history::{ContContext, History, NO_CONT, QuietScorer, slot_threats};
use crate::search::params::{capthist_order_divisor, capthist_see_divisor};

/// Where the picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Yield the TT move (checked for legality, before any generation).
    TtMove,
    /// Generate and score captures.
    GenCaptures,
    /// Captures that do not lose material, best victim first.
    GoodCaptures,
    /// Generate and score the quiet moves.
    GenQuiets,
    /// Quiet moves: queen promotions, killers, counter move, then by history.
    Quiets,
    /// Captures that lose material by SEE.
    BadCaptures,
    /// Generate all evasions (in check).
    GenEvasions,
    /// Evasions in order.
    Evasions,
    /// Nothing left.
    Done,
}

// Every score fits in 24 bits (`pick_key`): the bands are far apart, quiet history scores stay within
// ±(1 + 3·4/2)·HISTORY_MAX and capture scores within a few ten thousand.
const TT_SCORE: i32 = 8_000_000;
const QUEEN_PROMO: i32 = 3_000_000;
const KILLER_1: i32 = 2_000_000;
const KILLER_2: i32 = 1_900_000;
const COUNTER: i32 = 1_800_000;
const CAPTURE: i32 = 5_000_000;

/// A move picker for one node.
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// Continuation rows for quiet ordering ([`NO_CONT`]: butterfly history only).
    cont: ContContext,
    /// Whether captures are ordered by capture history too.
    capthist: bool,
    moves: MoveList,
    /// The ordering score of each move of `moves` with its position in the list (see [`pick_key`]),
    /// so that one maximum finds the move to pick (not zeroed in advance: a 1 KB `memset` per
    /// node was about 0.7% of the search's instructions).
    keys: ArrayVec<i32, 256>,
    idx: usize,
    bad: MoveList,
    bad_idx: usize,
    /// Set when the quiet moves hold no promotion (no pawn of ours on its seventh rank).
    no_promotions: bool,
    qsearch: bool,
    /// Set by the search (late move pruning) to stop yielding quiet moves.
    pub skip_quiets: bool,
    /// The squares the opponent attacks, which pick the butterfly history's slot of a quiet
    /// move (`threathist`); found when first needed (`None` until then: a node that is cut by
    /// its TT move or a capture never needs them), empty without [`Self::use_threats`].
    threats: Option<Bitboard>,
    /// Whether [`Self::threats`] are the opponent's attacks (else empty: one slot).
    threat_hist: bool,
}

impl MovePicker {
    /// Picker for a main-search node: quiets are ordered by the butterfly history plus the
    /// continuation rows of `cont`, captures by MVV-LVA plus, with `capthist`, the capture
    /// history.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        cont: ContContext,
        capthist: bool,
    ) -> MovePicker {
        let stage = if pos.is_check() {
            Stage::GenEvasions
        } else {
            Stage::TtMove
        };
        MovePicker {
            stage,
            tt_move,
            killers,
            counter,
            cont,
            capthist,
            moves: MoveList::new(),
            keys: ArrayVec::new(),
            idx: 0,
            bad: MoveList::new(),
            bad_idx: 0,
            no_promotions: false,
            qsearch: false,
            skip_quiets: false,
            threats: None,
            threat_hist: false,
        }
    }

    /// Picker for a quiescence node: captures and queen promotions (all evasions in check).
    pub fn new_qsearch(pos: &Position, tt_move: Option<Move>, capthist: bool) -> MovePicker {
        let mut p = MovePicker::new(pos, tt_move, [None; 2], None, NO_CONT, capthist);
        p.qsearch = true;
        p
    }

    /// Ordering score of a capture or promotion: MVV-LVA, plus the capture history when on.
    #[inline]
    fn capture_score(&self, pos: &Position, history: &History, m: Move) -> i32 {
        let hist = if self.capthist {
            history.capture_score(pos.turn(), m) / capthist_order_divisor()
        } else {
            0
        };
        mvv_lva(m) + hist
    }

    /// SEE a capture needs to count as good: 0, or with capture history the less the better
    /// its history (a capture that kept cutting may lose a little material by SEE).
    #[inline]
    fn good_capture_threshold(&self, pos: &Position, history: &History, m: Move) -> i32 {
        if self.capthist {
            -history.capture_score(pos.turn(), m) / capthist_see_divisor()
        } else {
            0
        }
    }

    /// Orders quiet moves by the butterfly history slot of the threats against their squares
    /// (`threathist`; off: one slot).
    pub fn use_threats(&mut self, on: bool) {
        self.threat_hist = on;
    }

    /// The squares the opponent attacks when [`Self::use_threats`] is on (else empty), found
    /// at the first call (what the search stores for the history of a quiet move).
    #[inline]
    pub fn threats(&mut self, pos: &Position) -> Bitboard {
        let on = self.threat_hist;
        *self.threats.get_or_insert_with(|| slot_threats(pos, on))
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The first move of the highest score among those not yet taken, swapped into place.
    #[inline(always)]
    fn take_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.idx >= n {
            return None;
        }
        // The greatest key is the highest score's, of those the first one's (the least
        // position): one maximum, which vectorises, gives both.
        let top = max_key(&self.keys[self.idx..n]);
        let best = key_position(top);
        debug_assert!(self.idx <= best && best < n);
        // The move at `idx` goes to `best`: its key says so.
        self.keys[best] = pick_key(self.keys[self.idx] >> KEY_SHIFT, best);
        self.moves.swap(self.idx, best);
        let m = self.moves[self.idx];
        self.idx += 1;
        Some(m)
    }

    // The generation stages, out of line: inlined, their registers and locals made `next` save
    // and set up a large frame on every call, most of which only take the next move.

    /// Generates and scores the captures (and in quiescence the quiet queen promotions).
    #[inline(never)]
    fn gen_captures(&mut self, pos: &Position, history: &History) {
        let mut sink = CaptureScoring {
            out: KeyedList::new(&mut self.moves, &mut self.keys),
            history,
            us: pos.turn(),
            capthist: self.capthist,
        };
        pos.gen_captures_into(&mut sink);
        sink.out.finish();
        if self.qsearch {
            let start = self.moves.len();
            add_quiet_queen_promotions(pos, &mut self.moves);
            for i in start..self.moves.len() {
                let s = self.capture_score(pos, history, self.moves[i]);
                self.keys.push(pick_key(s, i));
            }
        }
        self.idx = 0;
        self.stage = Stage::GoodCaptures;
    }

    /// Generates and scores the quiet moves (only the quiet queen promotions once late move
    /// pruning skips quiets).
    #[inline(never)]
    fn gen_quiets(&mut self, pos: &Position, history: &History) {
        self.stage = Stage::Quiets;
        if self.skip_quiets {
            // Quiet moves are pruned, quiet queen promotions are not: generate only
            // those (the quiet stage then yields them in one pass).
            self.moves.clear();
            add_quiet_queen_promotions(pos, &mut self.moves);
            self.keys.clear();
            self.keys
                .extend((0..self.moves.len()).map(|i| pick_key(QUEEN_PROMO, i)));
            self.idx = 0;
            return;
        }
        // The threats, when they are the opponent's attacks, also give the king's safe steps.
        let threats = self.threats(pos);
        self.no_promotions = !pos.has_pawn_on_seventh();
        // Killers and counter compared as one integer each (`quiet_key`): the derived equality
        // of two `Option<Move>`s, three a move, cost more than the history lookups.
        let special = [
            self.killers[0].map_or(NO_KEY, |k| quiet_key(k).0),
            self.killers[1].map_or(NO_KEY, |k| quiet_key(k).0),
            self.counter.map_or(NO_KEY, |k| quiet_key(k).0),
        ];
        let mut special_from = Bitboard::EMPTY;
        for k in special {
            if k != NO_KEY && k >> 31 == 0 {
                special_from.add(Square::new(k >> 8 & 63));
            }
        }
        let mut sink = QuietScoring {
            out: KeyedList::new(&mut self.moves, &mut self.keys),
            scorer: history.quiet_scorer(&self.cont, pos.turn(), threats),
            special,
            special_from,
        };
        pos.gen_quiets_into(&mut sink, self.threat_hist.then_some(threats));
        sink.out.finish();
        self.idx = 0;
    }

    /// Generates and scores all evasions.
    #[inline(never)]
    fn gen_evasions(&mut self, pos: &Position, history: &History) {
        pos.gen_evasions(&mut self.moves);
        let us = pos.turn();
        let threats = self.threats(pos);
        self.keys.clear();
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            let s = if Some(m) == self.tt_move {
                TT_SCORE
            } else if m.is_capture() || m.promotion() == Some(Role::Queen) {
                CAPTURE + self.capture_score(pos, history, m)
            } else if Some(m) == self.killers[0] {
                KILLER_1
            } else if Some(m) == self.killers[1] {
                KILLER_2
            } else {
                history.quiet_score(&self.cont, us, m, threats)
            };
            self.keys.push(pick_key(s, i));
        }
        self.idx = 0;
        self.stage = Stage::Evasions;
    }

    /// The next move, or `None` when all are done.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    if let Some(m) = self.tt_move
                        && (!self.qsearch || is_noisy(m))
                    {
                        return Some(m);
                    }
                }
                Stage::GenCaptures => self.gen_captures(pos, history),
                Stage::GoodCaptures => match self.take_best() {
                    Some(m) => {
                        if Some(m) == self.tt_move {
                            continue;
                        }
                        if !self.qsearch
                            && !pos.see_ge(m, self.good_capture_threshold(pos, history, m))
                        {
                            self.bad.push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    None => {
                        self.stage = if self.qsearch {
                            Stage::Done
                        } else {
                            Stage::GenQuiets
                        };
                    }
                },
                Stage::GenQuiets => self.gen_quiets(pos, history),
                Stage::Quiets => {
                    if self.skip_quiets {
                        // Promotions are not quiet for pruning purposes: still yield them. They
                        // score highest of the quiets, so they are the rest's next picks, in
                        // the order they stand: one pass finds them (no selection needed), and
                        // none is needed without a pawn on the seventh rank.
                        if self.no_promotions {
                            self.idx = self.moves.len();
                        }
                        while self.idx < self.moves.len() {
                            let (m, k) = (self.moves[self.idx], self.keys[self.idx]);
                            self.idx += 1;
                            if k >> KEY_SHIFT == QUEEN_PROMO && Some(m) != self.tt_move {
                                return Some(m);
                            }
                        }
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.take_best() {
                        Some(m) => {
                            if Some(m) == self.tt_move {
                                continue;
                            }
                            return Some(m);
                        }
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_idx < self.bad.len() {
                        self.bad_idx += 1;
                        return Some(self.bad[self.bad_idx - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => self.gen_evasions(pos, history),
                Stage::Evasions => match self.take_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

/// Bits of a [`pick_key`] below its score.
const KEY_SHIFT: u32 = 8;

/// The selection key of the move of ordering score `score` at position `i` of the list: the
/// score above, `255 - i` below, so that the greater key is the higher score and, of equal
/// scores, the earlier move (a list holds at most 256 moves; every score fits in 24 bits).
#[inline(always)]
fn pick_key(score: i32, i: usize) -> i32 {
    debug_assert!((-(1 << 23)..1 << 23).contains(&score), "{score}");
    debug_assert!(i < 256);
    score << KEY_SHIFT | (255 - i as i32)
}

/// The greatest of `keys` (`i32::MIN` for none). A maximum may read an element twice, so the
/// tail that does not fill a block of eight is read as the last eight (or for four to seven
/// keys as the first four and the last four), not one by one after the blocks.
#[inline(always)]
fn max_key(keys: &[i32]) -> i32 {
    #[inline(always)]
    fn block<const N: usize>(acc: &mut [i32; N], c: &[i32]) {
        for j in 0..N {
            acc[j] = acc[j].max(c[j]);
        }
    }
    let n = keys.len();
    if n >= 8 {
        let mut acc = [i32::MIN; 8];
        for c in keys.chunks_exact(8) {
            block(&mut acc, c);
        }
        block(&mut acc, &keys[n - 8..]);
        acc.into_iter().fold(i32::MIN, i32::max)
    } else if n >= 4 {
        let mut acc = [i32::MIN; 4];
        block(&mut acc, &keys[..4]);
        block(&mut acc, &keys[n - 4..]);
        acc.into_iter().fold(i32::MIN, i32::max)
    } else {
        keys.iter().copied().fold(i32::MIN, i32::max)
    }
}

/// The list position a [`pick_key`] holds.
#[inline(always)]
fn key_position(k: i32) -> usize {
    255 - (k & 255) as usize
}

/// The picker's move list and the selection key of each move, as a generator sink fills them
/// (from empty): written place by place with the count in a register, the lists' lengths set
/// once by [`KeyedList::finish`]. (Two `push`es a move each loaded, checked and stored their
/// list's length: about a tenth of the instructions of quiet generation.)
struct KeyedList<'a> {
    moves: &'a mut MoveList,
    keys: &'a mut ArrayVec<i32, 256>,
    /// Places written.
    len: usize,
}

/// The places of a [`KeyedList`], the capacity of both its lists.
const KEYED_CAPACITY: usize = 256;

impl<'a> KeyedList<'a> {
    /// A writer that empties both lists.
    #[inline(always)]
    fn new(moves: &'a mut MoveList, keys: &'a mut ArrayVec<i32, 256>) -> KeyedList<'a> {
        debug_assert_eq!(moves.capacity(), KEYED_CAPACITY);
        debug_assert_eq!(keys.capacity(), KEYED_CAPACITY);
        moves.clear();
        keys.clear();
        KeyedList {
            moves,
            keys,
            len: 0,
        }
    }

    /// Appends `m` with the key of its ordering `score` at its place in the list.
    #[inline(always)]
    fn write(&mut self, m: Move, score: i32) {
        let i = self.len;
        if i >= KEYED_CAPACITY {
            // Never: a position has at most 218 legal moves.
            keyed_list_full();
        }
        // SAFETY: `i < KEYED_CAPACITY`, the capacity of both lists (checked above), so place
        // `i` lies inside each list's buffer; the lists' lengths are 0 (emptied by `new`, set
        // only by `finish`, which takes the writer), so no element is overwritten, and
        // `finish` counts exactly the places written here (0 to `i`).
        unsafe {
            self.moves.as_mut_ptr().add(i).write(m);
            self.keys.as_mut_ptr().add(i).write(pick_key(score, i));
        }
        self.len = i + 1;
    }

    /// Gives both lists the moves written.
    #[inline(always)]
    fn finish(self) {
        // SAFETY: places 0 to `len − 1` of both lists were written by `write`, and `len` is
        // at most their capacity (`write` never writes at or past it).
        unsafe {
            self.moves.set_len(self.len);
            self.keys.set_len(self.len);
        }
    }
}

#[cold]
#[inline(never)]
fn keyed_list_full() -> ! {
    panic!("more than {KEYED_CAPACITY} moves generated")
}

/// The captures as the generator writes them, each with its selection key: MVV-LVA plus,
/// with `capthist`, the capture history (the score [`MovePicker::capture_score`] gives the
/// move, here from its parts).
struct CaptureScoring<'a> {
    out: KeyedList<'a>,
    history: &'a History,
    us: crate::position::Color,
    capthist: bool,
}

impl CaptureSink for CaptureScoring<'_> {
    #[inline(always)]
    fn capture(
        &mut self,
        role: Role,
        from: Square,
        to: Square,
        victim: Role,
        promotion: Option<Role>,
    ) {
        let hist = if self.capthist {
            self.history
                .capture_score_of(self.us, role, to as usize, victim as usize)
                / capthist_order_divisor()
        } else {
            0
        };
        let mvv_lva =
            role_value(victim) * 16 + promotion.map_or(0, role_value) - role_value(role) / 16;
        self.out.write(
            Move::Normal {
                role,
                from,
                capture: Some(victim),
                to,
                promotion,
            },
            mvv_lva + hist,
        );
    }

    #[inline]
    fn push(&mut self, m: Move) {
        let hist = if self.capthist {
            self.history.capture_score(self.us, m) / capthist_order_divisor()
        } else {
            0
        };
        self.out.write(m, mvv_lva(m) + hist);
    }
}

/// The quiet moves as the generator writes them, each with its selection key: a queen
/// promotion, killer or counter move by its rank, any other by its history (the score the
/// move picker gives it; a move is known here in parts, so it is not taken apart again).
struct QuietScoring<'a> {
    out: KeyedList<'a>,
    scorer: QuietScorer<'a>,
    /// The `quiet_key`s of the first killer, the second and the counter move ([`NO_KEY`]:
    /// none).
    special: [u32; 3],
    /// The from squares of the normal moves among `special`: a piece on any other square has
    /// none of them among its moves.
    special_from: Bitboard,
}

impl QuietScoring<'_> {
    /// The ordering score of the quiet move of `quiet_key` `qk` and (role, from, to).
    #[inline(always)]
    fn score(&self, qk: u32, role: Role, f: usize, t: usize) -> i32 {
        if qk >> PROMOTION_SHIFT == Role::Queen as u32 {
            QUEEN_PROMO
        } else if qk == self.special[0] {
            KILLER_1
        } else if qk == self.special[1] {
            KILLER_2
        } else if qk == self.special[2] {
            COUNTER
        } else {
            self.scorer.score_of(role, f, t)
        }
    }

    /// Appends the normal quiet move of `role` from `from` to `to`, scored `s`.
    #[inline(always)]
    fn write_normal(&mut self, role: Role, from: Square, to: Square, s: i32) {
        let m = Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        };
        self.out.write(m, s);
    }
}

impl QuietSink for QuietScoring<'_> {
    #[inline(always)]
    fn normal(&mut self, role: Role, from: Square, to: Square) {
        let qk = normal_key(role, from, to, None);
        let s = self.score(qk, role, from as usize, to as usize);
        self.write_normal(role, from, to, s);
    }

    #[inline(always)]
    fn targets(&mut self, role: Role, from: Square, targets: Bitboard) {
        if self.special_from.contains(from) {
            for to in targets {
                self.normal(role, from, to);
            }
            return;
        }
        // No killer or counter move comes from here: every move scores by its history.
        for to in targets {
            let s = self.scorer.score_of(role, from as usize, to as usize);
            self.write_normal(role, from, to, s);
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        debug_assert!(!m.is_capture());
        let (qk, role, f, t) = quiet_key(m);
        let s = self.score(qk, role, f, t);
        self.out.write(m, s);
    }
}

/// A `quiet_key` that no move has.
const NO_KEY: u32 = u32::MAX;
/// The top byte of the `quiet_key` of a normal move: its promotion (0: none).
const PROMOTION_SHIFT: u32 = 24;

/// A quiet move as one integer, with the moving role and the from and to squares that score
/// it (castling: the king to the rook's square). Two quiet moves are equal exactly when their
/// keys are: a normal move is its role, squares and promotion (it captures nothing), castling
/// is its two squares with bit 31 set. A move that is not quiet (a capture, en passant) or a
/// drop gets [`NO_KEY`], which no quiet move has, so a killer of that kind matches nothing, as
/// `Some(m) == killer` did not.
#[inline(always)]
fn quiet_key(m: Move) -> (u32, Role, usize, usize) {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let key = if capture.is_some() {
                NO_KEY
            } else {
                normal_key(role, from, to, promotion)
            };
            (key, role, from as usize, to as usize)
        }
        Move::Castle { king, rook } => (
            1 << 31 | (king as u32) << 8 | (rook as u32) << 16,
            Role::King,
            king as usize,
            rook as usize,
        ),
        Move::EnPassant { from, to } => (NO_KEY, Role::Pawn, from as usize, to as usize),
        Move::Put { role, to } => (NO_KEY, role, 0, to as usize),
    }
}

/// The [`quiet_key`] of a normal move that captures nothing.
#[inline(always)]
fn normal_key(role: Role, from: Square, to: Square, promotion: Option<Role>) -> u32 {
    role as u32
        | (from as u32) << 8
        | (to as u32) << 16
        | promotion.map_or(0, |p| p as u32) << PROMOTION_SHIFT
}

/// Captures, promotions to a queen.
#[inline]
pub fn is_noisy(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Most valuable victim, least valuable attacker.
#[inline]
fn mvv_lva(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => role_value(Role::Pawn),
        _ => m.capture().map_or(0, role_value),
    };
    let promo = m.promotion().map_or(0, role_value);
    victim * 16 + promo - role_value(m.role()) / 16
}

/// Appends the quiet queen promotions (none without a pawn on the seventh rank, the common
/// case, which is asked inline).
#[inline(always)]
fn add_quiet_queen_promotions(pos: &Position, moves: &mut MoveList) {
    if pos.has_pawn_on_seventh() {
        add_promotions_from_seventh(pos, moves);
    }
}

#[inline(never)]
fn add_promotions_from_seventh(pos: &Position, moves: &mut MoveList) {
    // shakmaty's `promotion_moves` generates pawn moves onto the back ranks only; filtered,
    // the same moves in the same order as `legal_moves()` filtered.
    for m in pos.promotion_moves() {
        if !m.is_capture() && m.promotion() == Some(Role::Queen) {
            moves.push(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::perft;

    /// Perft that takes its moves from the picker (with a TT move and killers to skip).
    fn picker_perft(pos: &mut Position, depth: u32, h: &History) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = pos.legal_moves();
        // Use the last legal move as a fake TT move and two others as killers.
        let tt = legal.last().copied();
        let killers = [legal.first().copied(), legal.get(1).copied()];
        let mut picker = MovePicker::new(pos, tt, killers, legal.get(2).copied(), NO_CONT, true);
        let mut seen = Vec::new();
        let mut n = 0;
        while let Some(m) = picker.next(pos, h) {
            assert!(!seen.contains(&m), "{m:?} twice in {}", pos.fen());
            seen.push(m);
            pos.make(m);
            n += picker_perft(pos, depth - 1, h);
            pos.unmake();
        }
        assert_eq!(seen.len(), legal.len(), "{}", pos.fen());
        n
    }

    #[test]
    fn picker_perft_equals_perft() {
        let h = History::default();
        for (fen, depth) in [
            (crate::position::START_FEN, 4),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                3,
            ),
            ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 3),
        ] {
            let mut pos = Position::from_fen(fen, false).unwrap();
            let expected = perft(&mut pos, depth);
            assert_eq!(picker_perft(&mut pos, depth, &h), expected, "{fen}");
        }
    }

    /// The blockwise maximum of the keys, its tail read as overlapping blocks, is the plain
    /// maximum for every length (none to several blocks and a tail of each size) and wherever
    /// the greatest key stands.
    #[test]
    fn max_key_is_the_maximum() {
        let mut seed = 99u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as i32 - (1 << 30)
        };
        for n in 0..=40 {
            for top_at in 0..n.max(1) {
                let mut keys: Vec<i32> = (0..n).map(|_| next()).collect();
                if n > 0 {
                    keys[top_at] = i32::MAX - 1;
                }
                let plain = keys.iter().copied().fold(i32::MIN, i32::max);
                assert_eq!(max_key(&keys), plain, "{n} keys, greatest at {top_at}");
            }
        }
    }

    /// The position with the most legal moves (218) fills the picker's lists
    /// (256 places, written without a check of each list's length) through every stage, in
    /// the main search's picker and in quiescence's.
    #[test]
    fn picker_holds_the_most_moves() {
        let h = History::default();
        let fen = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
        let mut pos = Position::from_fen(fen, false).unwrap();
        let legal = pos.legal_moves();
        assert_eq!(legal.len(), 218);
        assert_eq!(picker_perft(&mut pos, 2, &h), perft(&mut pos, 2));
        let mut picker = MovePicker::new(&pos, None, [None; 2], None, NO_CONT, true);
        let mut n = 0;
        while let Some(m) = picker.next(&pos, &h) {
            assert!(legal.contains(&m));
            n += 1;
        }
        assert_eq!(n, 218);
        let mut q = MovePicker::new_qsearch(&pos, None, true);
        let captures = legal.iter().filter(|m| m.is_capture()).count();
        let mut n = 0;
        while let Some(m) = q.next(&pos, &h) {
            assert!(m.is_capture());
            n += 1;
        }
        assert_eq!(n, captures);
    }

    /// A quiet move that the continuation history likes after the previous move comes first
    /// among the quiets, even against a better butterfly score; without the context it does
    /// not.
    #[test]
    fn continuation_history_orders_quiets() {
        use crate::position::{Color, Piece, Square};
        use crate::search::ordering::history::ContKey;
        let mut h = History::default();
        let pos = Position::from_fen(crate::position::START_FEN, false).unwrap();
        let e4 = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::E4)
            .unwrap();
        let nf3 = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::F3)
            .unwrap();
        let prev = Move::Normal {
            role: Role::Pawn,
            from: Square::E7,
            capture: None,
            to: Square::E5,
            promotion: None,
        };
        let pawn = Piece {
            color: Color::Black,
            role: Role::Pawn,
        };
        let ctx = [Some(ContKey::new(pawn, prev)), None, None];
        h.update(Color::White, e4, Bitboard::EMPTY, 1000);
        h.update_cont(&ctx, Color::White, nf3, 4000);
        let first_quiet = |cont| {
            let mut p = MovePicker::new(&pos, None, [None; 2], None, cont, true);
            p.next(&pos, &h).unwrap()
        };
        assert_eq!(first_quiet(ctx), nf3);
        assert_eq!(first_quiet(NO_CONT), e4);
    }

    /// `quiet_key` tells two moves apart exactly as `==` does when the first is quiet, the
    /// second any move (a killer from another position may be a capture, en passant or a
    /// king move onto the square a rook castles from), and a queen promotion by its top byte.
    #[test]
    fn quiet_keys_are_equal_exactly_when_the_moves_are() {
        let mut all = Vec::new();
        for fen in [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/4P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            // Chess960: castling g1-h1 beside a plain king step g1-h1.
            "4k3/8/8/8/8/8/8/6KR w H - 0 1",
            "4k3/8/8/8/8/8/8/6K1 w - - 0 1",
        ] {
            all.extend(Position::from_fen(fen, true).unwrap().legal_moves());
        }
        for &m in all.iter().filter(|m| !m.is_capture()) {
            let (key, role, f, t) = quiet_key(m);
            assert_ne!(key, NO_KEY, "{m:?}");
            assert_eq!((role, f, t), super::super::history::role_from_to(m));
            assert_eq!(
                key >> PROMOTION_SHIFT == Role::Queen as u32,
                m.promotion() == Some(Role::Queen),
                "{m:?}"
            );
            for &k in &all {
                assert_eq!(key == quiet_key(k).0, m == k, "{m:?} {k:?}");
            }
        }
    }

    /// `take_best` by keys picks what a selection by scores picks: of the highest score left,
    /// the first in the list as the swaps have left it (ties are common, so the order of
    /// equal scores is the search's too).
    #[test]
    fn take_best_is_selection_with_first_of_ties() {
        let pos = promotion_position();
        let legal = pos.legal_moves();
        let mut seed = 12345u64;
        for round in 0..200 {
            let mut p = MovePicker::new(&pos, None, [None; 2], None, NO_CONT, true);
            p.moves.clear();
            p.moves.extend(legal.iter().copied());
            let n = p.moves.len();
            let mut moves: Vec<Move> = p.moves.to_vec();
            let mut scores: Vec<i32> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let r = (seed >> 33) as i32;
                    // Few distinct values (many ties), and the extremes of the range.
                    match round % 3 {
                        0 => r % 4,
                        1 => r % 200_001 - 100_000,
                        _ => [TT_SCORE, -(1 << 23), (1 << 23) - 1, 0][(r % 4) as usize],
                    }
                })
                .collect();
            p.keys.clear();
            p.keys
                .extend(scores.iter().enumerate().map(|(i, &s)| pick_key(s, i)));
            p.idx = 0;
            for idx in 0..n {
                let top = *scores[idx..].iter().max().unwrap();
                let best = idx + scores[idx..].iter().position(|&s| s == top).unwrap();
                moves.swap(idx, best);
                scores.swap(idx, best);
                assert_eq!(p.take_best(), Some(moves[idx]), "round {round}, pick {idx}");
            }
            assert_eq!(p.take_best(), None);
        }
    }

    /// The quiet stage writes the moves `gen_quiets` lists, each with the score the picker
    /// gives it (queen promotion, killers, counter, else butterfly plus continuation
    /// history), with killers and counters of every kind: quiet, a promotion, castling, a
    /// capture, and none.
    #[test]
    fn quiet_stage_scores_each_move_as_ranked() {
        use crate::search::ordering::history::ContKey;
        for (fen, chess960) in [
            (
                "r3k2r/pPppqpb1/bn2pnp1/3PN3/4P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                false,
            ),
            ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
            ("4k3/8/8/8/8/8/8/6KR w H - 0 1", true),
        ] {
            let pos = Position::from_fen(fen, chess960).unwrap();
            let us = pos.turn();
            let threats = pos.threats();
            let legal = pos.legal_moves();
            let quiets: Vec<Move> = legal.iter().copied().filter(|m| !m.is_capture()).collect();
            let capture = legal.iter().copied().find(|m| m.is_capture());
            let prev = ContKey::new(
                crate::position::Piece {
                    color: !us,
                    role: Role::Knight,
                },
                quiets[0],
            );
            let ctx = [Some(prev), None, Some(prev)];
            let mut h = History::default();
            for (i, &m) in legal.iter().enumerate() {
                let b = (i as i32 * 7919) % 4001 - 2000;
                h.update(us, m, threats, b);
                h.update(us, m, Bitboard::EMPTY, -b / 2);
                h.update_cont(&ctx, us, m, (i as i32 * 104_729) % 3001 - 1500);
            }
            let n = quiets.len();
            let specials: Vec<[Option<Move>; 3]> = vec![
                [Some(quiets[1]), Some(quiets[n / 2]), Some(quiets[n - 1])],
                [Some(quiets[n - 1]), capture, None],
                [None, Some(quiets[0]), Some(quiets[2])],
                [capture, None, Some(quiets[n / 3])],
            ];
            for [k0, k1, counter] in specials {
                let mut p = MovePicker::new(&pos, None, [k0, k1], counter, ctx, true);
                p.use_threats(true);
                p.gen_quiets(&pos, &h);
                assert_eq!(p.moves.to_vec(), quiets, "{fen}");
                for (i, &m) in quiets.iter().enumerate() {
                    let s = if m.promotion() == Some(Role::Queen) {
                        QUEEN_PROMO
                    } else if Some(m) == k0 {
                        KILLER_1
                    } else if Some(m) == k1 {
                        KILLER_2
                    } else if Some(m) == counter {
                        COUNTER
                    } else {
                        h.quiet_score(&ctx, us, m, threats)
                    };
                    assert_eq!(p.keys[i], pick_key(s, i), "{m:?} in {fen}");
                }
            }
        }
    }

    /// The capture stage writes the moves `gen_captures` lists (in quiescence the quiet queen
    /// promotions after them), each with its MVV-LVA plus capture history score.
    #[test]
    fn capture_stage_scores_each_move_by_mvv_lva_and_history() {
        for fen in [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/4P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            let us = pos.turn();
            let mut h = History::default();
            for (i, &m) in pos.legal_moves().iter().enumerate() {
                if is_noisy(m) {
                    h.update_capture(us, m, (i as i32 * 7919) % 4001 - 2000);
                }
            }
            for (qsearch, capthist) in [(false, true), (true, true), (false, false)] {
                let mut p = if qsearch {
                    MovePicker::new_qsearch(&pos, None, capthist)
                } else {
                    MovePicker::new(&pos, None, [None; 2], None, NO_CONT, capthist)
                };
                p.gen_captures(&pos, &h);
                let mut expected = MoveList::new();
                pos.gen_captures(&mut expected);
                if qsearch {
                    add_quiet_queen_promotions(&pos, &mut expected);
                }
                assert_eq!(p.moves, expected, "{fen}");
                for (i, &m) in expected.iter().enumerate() {
                    let hist = if capthist {
                        h.capture_score(us, m) / capthist_order_divisor()
                    } else {
                        0
                    };
                    assert_eq!(p.keys[i], pick_key(mvv_lva(m) + hist, i), "{m:?} in {fen}");
                }
            }
        }
    }

    /// Kiwipete with a white pawn on b7: quiet and capturing promotions on a8 and c8.
    fn promotion_position() -> Position {
        Position::from_fen(
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/4P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap()
    }

    #[test]
    fn qsearch_picker_yields_only_noisy_moves() {
        let h = History::default();
        let pos = promotion_position();
        assert!(!pos.is_check());
        let mut p = MovePicker::new_qsearch(&pos, None, true);
        let mut n = 0;
        while let Some(m) = p.next(&pos, &h) {
            assert!(is_noisy(m), "{m:?}");
            n += 1;
        }
        let noisy = pos.legal_moves().iter().filter(|m| is_noisy(**m)).count();
        assert_eq!(n, noisy);
    }

    /// With quiets skipped from the start (late move pruning before the quiet stage), the
    /// picker still yields every capture and every queen promotion, quiet ones included, and
    /// no other quiet move.
    #[test]
    fn skipping_quiets_keeps_quiet_queen_promotions() {
        let h = History::default();
        let pos = promotion_position();
        let mut p = MovePicker::new(&pos, None, [None; 2], None, NO_CONT, true);
        p.skip_quiets = true;
        let mut seen = Vec::new();
        while let Some(m) = p.next(&pos, &h) {
            assert!(is_noisy(m), "{m:?}");
            seen.push(m);
        }
        let noisy: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| is_noisy(*m))
            .collect();
        assert_eq!(seen.len(), noisy.len());
        assert!(noisy.iter().all(|m| seen.contains(m)));
        assert!(
            seen.iter()
                .any(|m| !m.is_capture() && m.promotion() == Some(Role::Queen))
        );
    }
}
