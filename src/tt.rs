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

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::position::{Move, Role};

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
    /// Search generation (6 bits).
    pub age: u8,
}

impl TtEntry {
    /// Packs the entry into one word.
    pub fn pack(&self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.bound as u64) << 56
            | ((self.age as u64) & 63) << 58
    }

    /// Unpacks a word made by [`TtEntry::pack`].
    pub fn unpack(w: u64) -> TtEntry {
        TtEntry {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8,
            bound: Bound::from_bits(w >> 56),
            age: ((w >> 58) & 63) as u8,
        }
    }
}

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
    clusters: Vec<Cluster>,
    /// Search generation (6 bits), bumped once per search by whoever starts it.
    age: AtomicU8,
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
        let mut tt = TranspositionTable {
            clusters: Vec::new(),
            age: AtomicU8::new(0),
        };
        // A failed allocation at start-up falls back to 1 MB rather than aborting.
        if tt.resize(mb).is_err() {
            let _ = tt.resize(1);
        }
        tt
    }

    /// Reallocates to `mb` megabytes, cleared. On allocation failure the old table stays.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        let mut v: Vec<Cluster> = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|e| format!("cannot allocate {mb} MB for the hash table ({e})"))?;
        v.resize_with(n, Cluster::default);
        self.clusters = v;
        *self.age.get_mut() = 0;
        Ok(())
    }

    /// A new table of `mb` megabytes, or the reason it cannot be had (see [`Self::resize`]).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let mut tt = TranspositionTable {
            clusters: Vec::new(),
            age: AtomicU8::new(0),
        };
        tt.resize(mb)?;
        Ok(tt)
    }

    /// Size in MB.
    pub fn size_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Empties every entry. Call it between searches: an entry stored by a running search
    /// while the table is cleared may survive (harmless, but not empty).
    pub fn clear(&self) {
        for c in &self.clusters {
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
        let next = (self.age.load(Ordering::Relaxed) + 1) & 63;
        self.age.store(next, Ordering::Relaxed);
    }

    /// The current search generation.
    #[inline]
    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        let idx = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[idx]
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

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.cluster(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(TtEntry::unpack(data));
            }
        }
        None
    }

    /// Stores a result. `score` must already be converted with [`score_to_tt`].
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: u16, score: i16, eval: i16, depth: i32, bound: Bound) {
        let cluster = self.cluster(key);
        let age = self.age();
        let depth = depth.clamp(0, 255) as u8;
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
            let e = TtEntry::unpack(data);
            let age_diff = (age as i32 - e.age as i32) & 63;
            let worth = e.depth as i32 - 8 * age_diff;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        let mut mv = mv;
        if let Some(o) = old {
            // Keep a deeper result of the same position from this search unless the new one
            // is exact; keep the old move when the new result has none.
            if bound != Bound::Exact && o.age == age && (depth as i32) + 3 < o.depth as i32 {
                return;
            }
            if mv == 0 {
                mv = o.mv;
            }
        }
        let e = TtEntry {
            mv,
            score,
            eval,
            depth,
            bound,
            age,
        };
        let data = e.pack();
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of entries written in the current generation (sampled from the first 1000).
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let mut used: u32 = 0;
        let mut total: u32 = 0;
        for c in self.clusters.iter().take(250) {
            for s in &c.slots {
                total += 1;
                let data = s.data.load(Ordering::Relaxed);
                if data != 0 && TtEntry::unpack(data).age == age {
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
        for &(mv, score, eval, depth, bound, age) in &[
            (0u16, 0i16, 0i16, 0u8, Bound::Upper, 0u8),
            (0xffff, -32000, 32000, 255, Bound::Exact, 63),
            (1234, -31990, -5, 17, Bound::Lower, 42),
            (777, 31999, i16::MIN, 1, Bound::Upper, 1),
        ] {
            let e = TtEntry {
                mv,
                score,
                eval,
                depth,
                bound,
                age,
            };
            assert_eq!(TtEntry::unpack(e.pack()), e);
        }
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        tt.store(0xdead_beef, 99, 50, 20, 7, Bound::Exact);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (99, 50, 20, 7, Bound::Exact)
        );
        assert!(tt.probe(0xdead_beee).is_none());
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
}
