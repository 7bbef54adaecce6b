//! Transposition table: clusters of four 16-byte entries (one 64-byte cache line), lockless.
//!
//! Each entry is two `AtomicU64`: the data word and the key xor the data word. A reader
//! recomputes `key ^ data` and accepts the entry only if it matches, so a torn write from
//! another thread reads as a miss, never as a wrong entry (Hyatt's lockless hashing), with no
//! data race in the Rust sense: all access is through relaxed atomics.
//!
//! The search generation is an atomic too, and [`TranspositionTable::new_search`] and
//! [`TranspositionTable::clear`] take `&self`: one table is shared by every thread of a Lazy
//! SMP search (`src/search/smp.rs`) behind an `Arc`. Only [`TranspositionTable::resize`] needs
//! `&mut self` (the pool replaces the table instead when it is shared).
//!
//! # Two-bound memory
//!
//! A table made with [`TtBounds::Two`] keeps, per position, a lower and an upper bound, each
//! with the depth it was searched to, as the MT of Plaat et al. (1996) does: an MTD(f) pass
//! that fails high no longer overwrites the upper bound an earlier pass that failed low left
//! (and the other way round). It uses the same 16-byte slots, so a table of the same size
//! holds as many positions. The two words of a slot then each carry a bound and a part of
//! the key ([`TwoBoundEntry`]): the lower word the move, the lower bound, its depth, the age
//! and key bits 0-17; the upper word the static evaluation, the upper bound, its depth and
//! key bits 18-41. A probe accepts a slot only when both key parts match, and each word is
//! self-contained, so a torn write from another thread reads either as a miss or, between
//! two writes of the same position, as a lower bound from one and an upper bound from the
//! other: two bounds the search did prove. The node search reads a two-bound entry through
//! [`TranspositionTable::probe_window`], which returns the bound that decides the node's
//! window as a one-bound [`TtEntry`], so the search code is the same for both kinds. The
//! default is [`TtBounds::One`]; the mode is fixed when the table is made.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::position::{Move, Role};

mod memory;

use memory::ClusterMemory;
pub use memory::{Pages, huge_pages_wanted};

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// No bound (empty entry).
    None = 0,
    /// Score is an upper bound (failed low).
    Upper = 1,
    /// Score is a lower bound (failed high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// How many bounds a table keeps per position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TtBounds {
    /// One score with its bound type (the engine's default).
    #[default]
    One,
    /// A lower and an upper bound, each with its depth (Plaat's MT memory).
    Two,
}

impl TtBounds {
    /// `1` or `2`, as the UCI option `TTBounds` and `nullwindow lab --tt-bounds` write it.
    pub fn count(self) -> u8 {
        match self {
            TtBounds::One => 1,
            TtBounds::Two => 2,
        }
    }

    /// The mode for `1` or `2`.
    pub fn from_count(n: i64) -> Option<TtBounds> {
        match n {
            1 => Some(TtBounds::One),
            2 => Some(TtBounds::Two),
            _ => None,
        }
    }
}

/// A move packed into 16 bits: from (6) | to (6) << 6 | promotion role (3) << 12.
/// Castling is stored as king square to rook square, as shakmaty represents it.
pub fn pack_move(m: Move) -> u16 {
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => from as u16 | (to as u16) << 6 | (promotion.map_or(0, |r| r as u16)) << 12,
        Move::EnPassant { from, to } => from as u16 | (to as u16) << 6,
        Move::Castle { king, rook } => king as u16 | (rook as u16) << 6,
        Move::Put { to, .. } => (to as u16) << 6,
    }
}

/// Whether a legal move matches a packed move.
#[inline]
pub fn same_move(packed: u16, m: Move) -> bool {
    packed != 0 && pack_move(m) == packed
}

/// Promotion role of a packed move (for tests and debugging).
pub fn packed_promotion(packed: u16) -> Option<Role> {
    match packed >> 12 {
        2 => Some(Role::Knight),
        3 => Some(Role::Bishop),
        4 => Some(Role::Rook),
        5 => Some(Role::Queen),
        _ => None,
    }
}

/// One probed entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move, packed (0 = none).
    pub mv: u16,
    /// Score, adjusted for mate distance from this node (see [`score_from_tt`]).
    pub score: i16,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// Bound type.
    pub bound: Bound,
    /// Search generation (5 bits, `AGE_MASK`).
    pub age: u8,
    /// Whether the position was on a principal variation when stored, or came from an entry
    /// that was (Stockfish's `ttPv`; one-bound tables only).
    pub pv: bool,
}

/// Search generations wrap at this mask (5 bits: the entry word keeps one bit for the PV flag).
const AGE_MASK: u8 = 31;

impl TtEntry {
    /// Packs the entry into one word.
    pub fn pack(&self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.bound as u64) << 56
            | (self.pv as u64) << 58
            | ((self.age & AGE_MASK) as u64) << 59
    }

    /// Unpacks a word made by [`TtEntry::pack`].
    pub fn unpack(w: u64) -> TtEntry {
        TtEntry {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8,
            bound: Bound::from_bits(w >> 56),
            pv: (w >> 58) & 1 == 1,
            age: ((w >> 59) as u8) & AGE_MASK,
        }
    }
}

/// One position of a two-bound table, unpacked: a lower and an upper bound on its value,
/// each with the depth it was searched to. A missing bound is [`TwoBoundEntry::NO_LOWER`]
/// or [`TwoBoundEntry::NO_UPPER`] (with depth 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwoBoundEntry {
    /// Best or refutation move, packed (0 = none).
    pub mv: u16,
    /// Lower bound (score adjusted for mate distance, as [`score_to_tt`] makes it).
    pub lower: i16,
    /// Upper bound (likewise).
    pub upper: i16,
    /// Remaining depth the lower bound was searched to.
    pub lower_depth: u8,
    /// Remaining depth the upper bound was searched to.
    pub upper_depth: u8,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Search generation (6 bits) of the last store.
    pub age: u8,
}

/// Key bits each word of a two-bound slot keeps: the lower word bits 0-17, the upper word
/// bits 18-41 (the cluster index comes from the top bits).
const TB_KEY_LO_BITS: u32 = 18;
const TB_KEY_HI_BITS: u32 = 24;
/// Deepest depth a two-bound entry records (7 bits; the search never goes deeper than
/// `MAX_PLY` = 128 plies).
pub const TWO_BOUND_MAX_DEPTH: i32 = 127;

impl TwoBoundEntry {
    /// The lower bound of an entry without one.
    pub const NO_LOWER: i16 = i16::MIN;
    /// The upper bound of an entry without one.
    pub const NO_UPPER: i16 = i16::MAX;

    /// An entry with neither bound.
    pub const EMPTY: TwoBoundEntry = TwoBoundEntry {
        mv: 0,
        lower: TwoBoundEntry::NO_LOWER,
        upper: TwoBoundEntry::NO_UPPER,
        lower_depth: 0,
        upper_depth: 0,
        eval: 0,
        age: 0,
    };

    /// Whether the entry has a lower bound.
    #[inline]
    pub fn has_lower(&self) -> bool {
        self.lower != Self::NO_LOWER
    }

    /// Whether the entry has an upper bound.
    #[inline]
    pub fn has_upper(&self) -> bool {
        self.upper != Self::NO_UPPER
    }

    /// Depth of the deeper bound (for replacement).
    #[inline]
    pub fn depth(&self) -> u8 {
        match (self.has_lower(), self.has_upper()) {
            (true, true) => self.lower_depth.max(self.upper_depth),
            (true, false) => self.lower_depth,
            (false, true) => self.upper_depth,
            (false, false) => 0,
        }
    }

    /// The two words of the slot for `key`: lower word `key bits 0-17 | used (1) | age (6) |
    /// lower depth (7) | lower (16) | move (16)`, upper word `key bits 18-41 | used (1) |
    /// upper depth (7) | upper (16) | eval (16)`.
    pub fn pack(&self, key: u64) -> (u64, u64) {
        let klo = key & ((1 << TB_KEY_LO_BITS) - 1);
        let khi = (key >> TB_KEY_LO_BITS) & ((1 << TB_KEY_HI_BITS) - 1);
        let lo = self.mv as u64
            | (self.lower as u16 as u64) << 16
            | ((self.lower_depth as u64) & 127) << 32
            | ((self.age as u64) & 63) << 39
            | 1 << 45
            | klo << 46;
        let hi = self.eval as u16 as u64
            | (self.upper as u16 as u64) << 16
            | ((self.upper_depth as u64) & 127) << 32
            | 1 << 39
            | khi << 40;
        (lo, hi)
    }

    /// Unpacks the words made by [`TwoBoundEntry::pack`] (whatever key they carry).
    pub fn unpack(lo: u64, hi: u64) -> TwoBoundEntry {
        TwoBoundEntry {
            mv: lo as u16,
            lower: (lo >> 16) as u16 as i16,
            lower_depth: ((lo >> 32) & 127) as u8,
            age: ((lo >> 39) & 63) as u8,
            eval: hi as u16 as i16,
            upper: (hi >> 16) as u16 as i16,
            upper_depth: ((hi >> 32) & 127) as u8,
        }
    }

    /// Whether a lower word holds an entry.
    #[inline]
    fn used(lo: u64) -> bool {
        lo >> 45 & 1 == 1
    }

    /// Whether both words hold an entry of `key`.
    #[inline]
    pub fn matches(lo: u64, hi: u64, key: u64) -> bool {
        let klo = key & ((1 << TB_KEY_LO_BITS) - 1);
        let khi = (key >> TB_KEY_LO_BITS) & ((1 << TB_KEY_HI_BITS) - 1);
        lo >> 45 == (klo << 1 | 1) && hi >> 39 == (khi << 1 | 1)
    }

    /// The entry after storing a result (the arguments of [`TranspositionTable::store`]) over
    /// `old`, the entry of the same position if there is one; `None`: keep `old` as it is.
    ///
    /// Per bound, with `d` the new depth and `D` the stored bound's: a missing bound is set;
    /// at `d == D` the bound tightens (the larger lower bound, the smaller upper bound); at
    /// `d > D` it is replaced; at `d < D` too, unless the stored bound is from this search and
    /// at least 4 plies deeper (the one-bound table's rule). An exact result sets both bounds.
    /// The other bound stays, unless it contradicts the new one at the same depth (a lower
    /// bound above the upper bound), when it goes. The move is the new one, or the old one when
    /// the result has none.
    pub fn merged(
        old: Option<TwoBoundEntry>,
        mv: u16,
        score: i16,
        eval: i16,
        depth: i32,
        bound: Bound,
        age: u8,
    ) -> Option<TwoBoundEntry> {
        let d = depth.clamp(0, TWO_BOUND_MAX_DEPTH) as u8;
        let mut e = old.unwrap_or(TwoBoundEntry::EMPTY);
        let this_search = old.is_some() && e.age == age;
        let keeps =
            |has: bool, old_depth: u8| has && this_search && d as i32 + 3 < old_depth as i32;
        match bound {
            Bound::None => return None,
            Bound::Exact => {
                e.lower = score;
                e.upper = score;
                e.lower_depth = d;
                e.upper_depth = d;
            }
            Bound::Lower => {
                if keeps(e.has_lower(), e.lower_depth) {
                    return None;
                }
                if e.has_lower() && e.lower_depth == d {
                    e.lower = e.lower.max(score);
                } else {
                    e.lower = score;
                    e.lower_depth = d;
                }
                if e.has_upper() && e.upper_depth == d && e.upper < e.lower {
                    e.upper = TwoBoundEntry::NO_UPPER;
                    e.upper_depth = 0;
                }
            }
            Bound::Upper => {
                if keeps(e.has_upper(), e.upper_depth) {
                    return None;
                }
                if e.has_upper() && e.upper_depth == d {
                    e.upper = e.upper.min(score);
                } else {
                    e.upper = score;
                    e.upper_depth = d;
                }
                if e.has_lower() && e.lower_depth == d && e.lower > e.upper {
                    e.lower = TwoBoundEntry::NO_LOWER;
                    e.lower_depth = 0;
                }
            }
        }
        if mv != 0 {
            e.mv = mv;
        }
        e.eval = eval;
        e.age = age;
        Some(e)
    }

    /// The entry as a one-bound [`TtEntry`] for a node searched to `depth` with the window
    /// `(alpha, beta)` at `ply`: the exact value if both bounds meet at a usable depth, else
    /// the lower bound if it is at least `beta`, the upper bound if it is at most `alpha`
    /// (a bound is usable at its own depth, or deeper with `deeper`), else
    /// [`Self::representative`]. The node search then cuts exactly when a bound allows it.
    #[inline]
    pub fn view(&self, alpha: i32, beta: i32, depth: i32, deeper: bool, ply: usize) -> TtEntry {
        let fits = |d: u8| d as i32 == depth || (deeper && d as i32 > depth);
        let lower_fits = self.has_lower() && fits(self.lower_depth);
        let upper_fits = self.has_upper() && fits(self.upper_depth);
        if lower_fits && upper_fits && self.lower == self.upper {
            return self.as_entry(
                self.lower,
                self.lower_depth.min(self.upper_depth),
                Bound::Exact,
            );
        }
        if lower_fits && score_from_tt(self.lower, ply) >= beta {
            return self.as_entry(self.lower, self.lower_depth, Bound::Lower);
        }
        if upper_fits && score_from_tt(self.upper, ply) <= alpha {
            return self.as_entry(self.upper, self.upper_depth, Bound::Upper);
        }
        self.representative()
    }

    /// The entry as one bound, without a window: exact when both bounds meet at one depth,
    /// else the deeper bound (the lower one at equal depth), or the only one.
    pub fn representative(&self) -> TtEntry {
        match (self.has_lower(), self.has_upper()) {
            (true, true) if self.lower == self.upper && self.lower_depth == self.upper_depth => {
                self.as_entry(self.lower, self.lower_depth, Bound::Exact)
            }
            (true, true) if self.upper_depth > self.lower_depth => {
                self.as_entry(self.upper, self.upper_depth, Bound::Upper)
            }
            (true, _) => self.as_entry(self.lower, self.lower_depth, Bound::Lower),
            (false, true) => self.as_entry(self.upper, self.upper_depth, Bound::Upper),
            (false, false) => self.as_entry(0, 0, Bound::None),
        }
    }

    #[inline]
    fn as_entry(&self, score: i16, depth: u8, bound: Bound) -> TtEntry {
        TtEntry {
            mv: self.mv,
            score,
            eval: self.eval,
            depth,
            bound,
            age: self.age,
            pv: false,
        }
    }
}

/// One 16-byte slot. One-bound table: `data` is a packed [`TtEntry`] and `check` the key xor
/// `data`. Two-bound table: `check` is the lower word and `data` the upper word of a
/// [`TwoBoundEntry`], each with its part of the key.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const CLUSTER: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Cluster {
    slots: [Slot; CLUSTER],
}

/// The table. Share it by reference (or `Arc`) between search threads.
pub struct TranspositionTable {
    /// The clusters, on transparent huge pages where the system gives them (`memory.rs`).
    clusters: ClusterMemory,
    /// Search generation (6 bits), bumped once per search by whoever starts it.
    age: AtomicU8,
    /// What a slot holds: one bound, or two (see the module docs).
    bounds: TtBounds,
}

/// Mate-score threshold: scores beyond it encode a distance to mate.
pub const MATE_BOUND: i32 = 30000;

/// Converts a score to be stored at a node `ply` plies from the root (mate scores become
/// distance from this node).
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

/// Converts a stored score back to a distance from the root.
#[inline]
pub fn score_from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Largest `Hash` in MB that the engine accepts.
pub const MAX_HASH_MB: usize = 65536;

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one cluster).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::with_bounds(mb, TtBounds::One)
    }

    /// A table of `mb` megabytes that keeps `bounds` bounds per position.
    pub fn with_bounds(mb: usize, bounds: TtBounds) -> TranspositionTable {
        let mut tt = TranspositionTable {
            clusters: ClusterMemory::empty(),
            age: AtomicU8::new(0),
            bounds,
        };
        // A failed allocation at start-up falls back to 1 MB rather than aborting.
        if tt.resize(mb).is_err() {
            let _ = tt.resize(1);
        }
        tt
    }

    /// Reallocates to `mb` megabytes, cleared. On allocation failure the old table stays.
    /// A table of 2 MiB or more asks for transparent huge pages on Linux, unless the
    /// environment variable `NULLWINDOW_HUGEPAGES` is `0` ([`Self::pages`] says what it got).
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        self.clusters = ClusterMemory::new(n, mb, huge_pages_wanted())?;
        *self.age.get_mut() = 0;
        Ok(())
    }

    /// What pages back the table: huge ones, or ordinary ones and why.
    pub fn pages(&self) -> &Pages {
        self.clusters.pages()
    }

    /// A new table of `mb` megabytes, or the reason it cannot be had (see [`Self::resize`]).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        TranspositionTable::try_with_bounds(mb, TtBounds::One)
    }

    /// A new table of `mb` megabytes keeping `bounds` bounds per position, or the reason it
    /// cannot be had.
    pub fn try_with_bounds(mb: usize, bounds: TtBounds) -> Result<TranspositionTable, String> {
        let mut tt = TranspositionTable {
            clusters: ClusterMemory::empty(),
            age: AtomicU8::new(0),
            bounds,
        };
        tt.resize(mb)?;
        Ok(tt)
    }

    /// How many bounds the table keeps per position.
    pub fn bounds(&self) -> TtBounds {
        self.bounds
    }

    /// Size in MB.
    pub fn size_mb(&self) -> usize {
        std::mem::size_of_val(self.clusters.as_slice()) / (1024 * 1024)
    }

    /// Empties every entry. Call it between searches: an entry stored by a running search
    /// while the table is cleared may survive (harmless, but not empty).
    pub fn clear(&self) {
        for c in self.clusters.as_slice() {
            for s in &c.slots {
                s.data.store(0, Ordering::Relaxed);
                s.check.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation (older entries become preferred victims). Once per
    /// search, before its threads start.
    pub fn new_search(&self) {
        let next = (self.age.load(Ordering::Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Ordering::Relaxed);
    }

    /// The current search generation.
    #[inline]
    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        let clusters = self.clusters.as_slice();
        let idx = ((key as u128 * clusters.len() as u128) >> 64) as usize;
        &clusters[idx]
    }

    /// Hints the CPU to fetch the cluster of `key`.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: prefetching is a hint and never faults; the pointer is in bounds.
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch(
                self.cluster(key) as *const Cluster as *const i8,
                _MM_HINT_T0,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`. A two-bound entry is returned as its more informative bound (see
    /// [`TwoBoundEntry::representative`]): for the move, the evaluation and the PV.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        if self.bounds == TtBounds::Two {
            return self.probe_two(key).map(|e| e.representative());
        }
        self.probe_one(key)
    }

    /// Looks up `key` for a node searched to `depth` with the window `(alpha, beta)` at `ply`
    /// (`deeper`: entries searched deeper may cut, [`crate::search::Features::tt_deeper`]).
    /// A one-bound table returns its entry as [`Self::probe`] does; a two-bound one the bound
    /// that cuts this window if one does ([`TwoBoundEntry::view`]).
    #[inline(always)]
    pub fn probe_window(
        &self,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: i32,
        deeper: bool,
        ply: usize,
    ) -> Option<TtEntry> {
        if self.bounds == TtBounds::Two {
            return self.probe_window_two(key, alpha, beta, depth, deeper, ply);
        }
        self.probe_one(key)
    }

    /// [`Self::probe_window`] in a two-bound table, out of line: the one-bound path the
    /// engine plays with stays as small as before.
    #[inline(never)]
    fn probe_window_two(
        &self,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: i32,
        deeper: bool,
        ply: usize,
    ) -> Option<TtEntry> {
        self.probe_two(key)
            .map(|e| e.view(alpha, beta, depth, deeper, ply))
    }

    /// Looks up `key` in a one-bound table.
    #[inline(always)]
    fn probe_one(&self, key: u64) -> Option<TtEntry> {
        for s in &self.cluster(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(TtEntry::unpack(data));
            }
        }
        None
    }

    /// Looks up `key` in a two-bound table (both key parts must match).
    #[inline]
    pub fn probe_two(&self, key: u64) -> Option<TwoBoundEntry> {
        for s in &self.cluster(key).slots {
            let lo = s.check.load(Ordering::Relaxed);
            let hi = s.data.load(Ordering::Relaxed);
            if TwoBoundEntry::matches(lo, hi, key) {
                return Some(TwoBoundEntry::unpack(lo, hi));
            }
        }
        None
    }

    /// Stores a result. `score` must already be converted with [`score_to_tt`]. A two-bound
    /// table tightens the bound `bound` names and keeps the other ([`TwoBoundEntry::merged`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: u16,
        score: i16,
        eval: i16,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        if self.bounds == TtBounds::Two {
            self.store_two(key, mv, score, eval, depth, bound);
            return;
        }
        self.store_one(
            key,
            TtEntry {
                mv,
                score,
                eval,
                depth: depth.clamp(0, 255) as u8,
                bound,
                age: self.age(),
                pv,
            },
        );
    }

    /// [`Self::store`] in a one-bound table: `e` carries the current generation.
    #[inline]
    fn store_one(&self, key: u64, mut e: TtEntry) {
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        let mut old: Option<TtEntry> = None;
        for s in &cluster.slots {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = s;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if check ^ data == key {
                victim = s;
                old = Some(TtEntry::unpack(data));
                break;
            }
            let o = TtEntry::unpack(data);
            let age_diff = (e.age as i32 - o.age as i32) & AGE_MASK as i32;
            let worth = o.depth as i32 - 8 * age_diff;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        if let Some(o) = old {
            // Keep a deeper result of the same position from this search unless the new one
            // is exact; keep the old move when the new result has none.
            if e.bound != Bound::Exact && o.age == e.age && (e.depth as i32) + 3 < o.depth as i32 {
                return;
            }
            if e.mv == 0 {
                e.mv = o.mv;
            }
        }
        let data = e.pack();
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// [`Self::store`] in a two-bound table: the slot of the same position, else an empty one,
    /// else the one worth least (its deeper bound's depth less 8 per generation of age).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn store_two(&self, key: u64, mv: u16, score: i16, eval: i16, depth: i32, bound: Bound) {
        let cluster = self.cluster(key);
        let age = self.age();
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        let mut old = None;
        for s in &cluster.slots {
            let lo = s.check.load(Ordering::Relaxed);
            let hi = s.data.load(Ordering::Relaxed);
            if TwoBoundEntry::matches(lo, hi, key) {
                victim = s;
                old = Some(TwoBoundEntry::unpack(lo, hi));
                break;
            }
            if !TwoBoundEntry::used(lo) {
                if victim_worth > i32::MIN {
                    victim = s;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let e = TwoBoundEntry::unpack(lo, hi);
            let age_diff = (age as i32 - e.age as i32) & AGE_MASK as i32;
            let worth = e.depth() as i32 - 8 * age_diff;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        if let Some(e) = TwoBoundEntry::merged(old, mv, score, eval, depth, bound, age) {
            let (lo, hi) = e.pack(key);
            victim.check.store(lo, Ordering::Relaxed);
            victim.data.store(hi, Ordering::Relaxed);
        }
    }

    /// Permille of entries written in the current generation (sampled from the first 1000).
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let mut used: u32 = 0;
        let mut total: u32 = 0;
        for c in self.clusters.as_slice().iter().take(250) {
            for s in &c.slots {
                total += 1;
                let used_now = if self.bounds == TtBounds::Two {
                    let lo = s.check.load(Ordering::Relaxed);
                    TwoBoundEntry::used(lo) && TwoBoundEntry::unpack(lo, 0).age == age
                } else {
                    let data = s.data.load(Ordering::Relaxed);
                    data != 0 && TtEntry::unpack(data).age == age
                };
                if used_now {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(total).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_round_trip() {
        for &(mv, score, eval, depth, bound, age, pv) in &[
            (0u16, 0i16, 0i16, 0u8, Bound::Upper, 0u8, false),
            (0xffff, -32000, 32000, 255, Bound::Exact, AGE_MASK, true),
            (1234, -31990, -5, 17, Bound::Lower, 22, true),
            (777, 31999, i16::MIN, 1, Bound::Upper, 1, false),
        ] {
            let e = TtEntry {
                mv,
                score,
                eval,
                depth,
                bound,
                age,
                pv,
            };
            assert_eq!(TtEntry::unpack(e.pack()), e);
        }
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        tt.store(0xdead_beef, 99, 50, 20, 7, Bound::Exact, false);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (99, 50, 20, 7, Bound::Exact)
        );
        assert!(tt.probe(0xdead_beee).is_none());
        assert!(!e.pv);
        // The PV flag is kept with the entry, and a new store sets it anew.
        tt.store(0xdead_beef, 99, 60, 20, 8, Bound::Lower, true);
        assert!(tt.probe(0xdead_beef).unwrap().pv);
        tt.store(0xdead_beef, 99, 60, 20, 9, Bound::Lower, false);
        assert!(!tt.probe(0xdead_beef).unwrap().pv);
    }

    #[test]
    fn generations_wrap_without_touching_the_pv_flag() {
        let tt = TranspositionTable::new(1);
        for _ in 0..AGE_MASK {
            tt.new_search();
        }
        tt.store(7, 1, 2, 3, 4, Bound::Upper, true);
        let e = tt.probe(7).unwrap();
        assert_eq!((e.age, e.pv, e.bound), (AGE_MASK, true, Bound::Upper));
        tt.new_search();
        assert_eq!(tt.age(), 0);
    }

    #[test]
    fn mate_scores_adjust_by_ply() {
        let mate_in_3_from_root = 32000 - 5;
        let stored = score_to_tt(mate_in_3_from_root, 2);
        assert_eq!(score_from_tt(stored, 2), mate_in_3_from_root);
        assert_eq!(score_from_tt(stored, 0), mate_in_3_from_root + 2);
        assert_eq!(score_from_tt(score_to_tt(-31990, 4), 4), -31990);
        assert_eq!(score_from_tt(score_to_tt(123, 9), 1), 123);
    }

    /// Keys that share one cluster of a table with `clusters` clusters (the index comes from
    /// the top bits, here zero: the first cluster), told apart by their low bits.
    fn same_cluster_keys(n: u64) -> Vec<u64> {
        (1..=n).map(|i| i * 0x0101_0101).collect()
    }

    #[test]
    fn two_bound_entry_round_trip_and_key_check() {
        let key = 0x9abc_def0_1234_5678;
        let e = TwoBoundEntry {
            mv: 0xbeef,
            lower: -31990,
            upper: 31999,
            lower_depth: 127,
            upper_depth: 3,
            eval: -5,
            age: 63,
        };
        let (lo, hi) = e.pack(key);
        assert!(TwoBoundEntry::matches(lo, hi, key));
        assert_eq!(TwoBoundEntry::unpack(lo, hi), e);
        // Another key, or a key differing in a bit either word keeps, does not match.
        assert!(!TwoBoundEntry::matches(lo, hi, key ^ 1));
        assert!(!TwoBoundEntry::matches(lo, hi, key ^ 1 << 30));
        // Empty words match nothing, not even key 0.
        assert!(!TwoBoundEntry::matches(0, 0, 0));
        let (lo0, hi0) = TwoBoundEntry::EMPTY.pack(0);
        assert!(TwoBoundEntry::matches(lo0, hi0, 0));
        // A torn slot (the words of two positions) matches neither.
        let other = 0x1111_2222_3333_4444;
        let (lo2, hi2) = e.pack(other);
        assert!(!TwoBoundEntry::matches(lo, hi2, key) && !TwoBoundEntry::matches(lo, hi2, other));
        assert!(!TwoBoundEntry::matches(lo2, hi, key) && !TwoBoundEntry::matches(lo2, hi, other));
    }

    #[test]
    fn two_bound_table_keeps_a_lower_and_an_upper_bound() {
        let tt = TranspositionTable::with_bounds(1, TtBounds::Two);
        assert_eq!(tt.bounds(), TtBounds::Two);
        let key = 0xdead_beef_cafe_f00d;
        assert!(tt.probe_two(key).is_none() && tt.probe(key).is_none());
        tt.store(key, 99, 40, 20, 6, Bound::Lower, false);
        tt.store(key, 0, 70, 20, 6, Bound::Upper, false);
        let e = tt.probe_two(key).unwrap();
        assert_eq!(
            (e.lower, e.lower_depth, e.upper, e.upper_depth, e.mv, e.eval),
            (40, 6, 70, 6, 99, 20)
        );
        // The view for a window: the bound that cuts it, at the right depth only.
        let v = tt.probe_window(key, 10, 11, 6, false, 0).unwrap();
        assert_eq!((v.bound, v.score, v.depth, v.mv), (Bound::Lower, 40, 6, 99));
        let v = tt.probe_window(key, 80, 81, 6, false, 0).unwrap();
        assert_eq!((v.bound, v.score, v.depth), (Bound::Upper, 70, 6));
        let v = tt.probe_window(key, 50, 51, 6, false, 0).unwrap();
        // Neither bound cuts (50, 51): the view is the representative, the lower bound.
        assert_eq!((v.bound, v.score), (Bound::Lower, 40));
        // Depth 5 may use them only when deeper entries may cut; depth 7 never.
        let v = tt.probe_window(key, 10, 11, 5, false, 0).unwrap();
        assert_ne!(v.depth, 5);
        assert_eq!(
            tt.probe_window(key, 10, 11, 5, true, 0).unwrap().bound,
            Bound::Lower
        );
        let v = tt.probe_window(key, 80, 81, 7, true, 0).unwrap();
        assert!(v.depth < 7);
        // Bounds that meet are exact.
        tt.store(key, 0, 55, 20, 6, Bound::Lower, false);
        tt.store(key, 0, 55, 20, 6, Bound::Upper, false);
        let v = tt.probe_window(key, 50, 51, 6, false, 0).unwrap();
        assert_eq!((v.bound, v.score, v.mv), (Bound::Exact, 55, 99));
        assert_eq!(tt.probe(key).unwrap().bound, Bound::Exact);
        // Mate scores are read relative to the ply.
        tt.store(
            key,
            0,
            score_to_tt(MATE_BOUND + 100, 3),
            20,
            9,
            Bound::Lower,
            false,
        );
        let v = tt
            .probe_window(key, 0, MATE_BOUND + 100, 9, false, 3)
            .unwrap();
        assert_eq!(
            (v.bound, score_from_tt(v.score, 3)),
            (Bound::Lower, MATE_BOUND + 100)
        );
    }

    #[test]
    fn two_bound_depth_rules() {
        let merge = |old, score, depth, bound| {
            TwoBoundEntry::merged(Some(old), 0, score, 0, depth, bound, 1).unwrap_or(old)
        };
        let e = TwoBoundEntry::merged(None, 7, 10, 0, 5, Bound::Lower, 1).unwrap();
        assert_eq!(
            (e.lower, e.lower_depth, e.has_upper(), e.mv),
            (10, 5, false, 7)
        );
        // Same depth: the bound tightens, a looser one leaves it.
        assert_eq!(merge(e, 20, 5, Bound::Lower).lower, 20);
        assert_eq!(merge(e, 5, 5, Bound::Lower).lower, 10);
        // Deeper replaces, even when looser; the other bound stays.
        let e2 = merge(merge(e, 30, 3, Bound::Upper), 4, 6, Bound::Lower);
        assert_eq!(
            (e2.lower, e2.lower_depth, e2.upper, e2.upper_depth),
            (4, 6, 30, 3)
        );
        // Shallower by up to 3 plies replaces; by 4 or more, from this search, it is kept;
        // from an earlier search it is replaced.
        assert_eq!(merge(e2, 1, 3, Bound::Lower).lower_depth, 3);
        assert_eq!(merge(e2, 1, 2, Bound::Lower).lower_depth, 6);
        assert!(TwoBoundEntry::merged(Some(e2), 0, 1, 0, 2, Bound::Lower, 1).is_none());
        let later = TwoBoundEntry::merged(Some(e2), 0, 1, 0, 2, Bound::Lower, 2).unwrap();
        assert_eq!((later.lower, later.lower_depth, later.age), (1, 2, 2));
        // A bound that contradicts the other at the same depth removes it.
        let e3 = merge(merge(e, 12, 5, Bound::Upper), 15, 5, Bound::Lower);
        assert_eq!((e3.lower, e3.has_upper()), (15, false));
        let e4 = merge(merge(e, 12, 5, Bound::Upper), 11, 5, Bound::Upper);
        assert_eq!((e4.lower, e4.upper), (10, 11));
        let e5 = merge(merge(e, 12, 5, Bound::Upper), 3, 5, Bound::Upper);
        assert_eq!((e5.has_lower(), e5.upper), (false, 3));
        // Exact sets both, whatever was there; a result without a bound changes nothing.
        let x = merge(e2, 9, 1, Bound::Exact);
        assert_eq!(
            (x.lower, x.upper, x.lower_depth, x.upper_depth),
            (9, 9, 1, 1)
        );
        assert!(TwoBoundEntry::merged(Some(e2), 0, 1, 0, 9, Bound::None, 1).is_none());
        // Depths beyond 7 bits are clamped.
        let deep = TwoBoundEntry::merged(None, 0, 1, 0, 300, Bound::Upper, 1).unwrap();
        assert_eq!(deep.upper_depth as i32, TWO_BOUND_MAX_DEPTH);
    }

    #[test]
    fn two_bound_replacement_takes_the_least_worth_slot() {
        let tt = TranspositionTable::with_bounds(1, TtBounds::Two);
        let keys = same_cluster_keys(5);
        let cluster = |k: u64| tt.cluster(k) as *const Cluster;
        assert!(keys.iter().all(|&k| cluster(k) == cluster(keys[0])));
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, 0, 1, 0, 10 + i as i32, Bound::Lower, false);
        }
        assert!(keys[..4].iter().all(|&k| tt.probe_two(k).is_some()));
        // The fifth position replaces the shallowest.
        tt.store(keys[4], 0, 1, 0, 12, Bound::Upper, false);
        assert!(tt.probe_two(keys[0]).is_none());
        assert!(keys[1..].iter().all(|&k| tt.probe_two(k).is_some()));
        // An entry from an earlier search goes before a deeper one of this search.
        tt.new_search();
        tt.store(keys[1], 0, 1, 0, 11, Bound::Lower, false);
        tt.store(keys[3], 0, 1, 0, 13, Bound::Lower, false);
        tt.store(keys[4], 0, 1, 0, 12, Bound::Upper, false);
        tt.store(keys[0], 0, 1, 0, 1, Bound::Lower, false);
        assert!(tt.probe_two(keys[2]).is_none());
        assert!(tt.probe_two(keys[0]).is_some());
        assert_eq!(tt.hashfull(), 4);
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe_two(k).is_none()));
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn one_bound_table_probe_window_is_probe() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.bounds(), TtBounds::One);
        tt.store(0xdead_beef, 99, 50, 20, 7, Bound::Lower, false);
        tt.store(0xdead_beef, 0, 30, 20, 7, Bound::Upper, false);
        let e = tt.probe(0xdead_beef);
        assert_eq!(tt.probe_window(0xdead_beef, -100, 100, 3, false, 0), e);
        // One bound: the upper bound replaced the lower one (the move stays).
        let e = e.unwrap();
        assert_eq!((e.bound, e.score, e.mv), (Bound::Upper, 30, 99));
        assert_eq!(TtBounds::from_count(2), Some(TtBounds::Two));
        assert_eq!(TtBounds::from_count(3), None);
        assert_eq!(TtBounds::default().count(), 1);
    }
}
