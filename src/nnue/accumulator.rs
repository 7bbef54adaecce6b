//! The fast evaluator: a stack of cached accumulators that follows the position's copy-make
//! stack and is brought up to date lazily, when [`Nnue::evaluate`] is called.
//!
//! Entry `i` of the cache belongs to `pos.board_at(i)` and remembers the key (`pos.key_at(i)`)
//! of the position it was computed for. A cached entry is used only while its key matches, so
//! the cache never needs to hear about `make`/`unmake`, and a completely different position
//! (a new game, another search root, `clear_undo`) just misses and is computed afresh.
//!
//! An evaluation looks down from the top of the stack for the nearest entry whose key matches,
//! then walks back up one move at a time, copying the parent's accumulators and applying the
//! feature changes in the same pass. The changes of a step are the pieces the move took off
//! and put on the board, as `Position::make` recorded them on the entry ([`Position::changes_at`]:
//! exactly the difference of the two boards), so quiet moves, captures, castling (standard and
//! Chess960), en passant, promotions and null moves (no change: a copy) all take the one code
//! path; an entry without recorded changes is rebuilt. The walk has no length limit: every entry it fills serves the siblings
//! and descendants of that node later. Only when no entry of the stack matches is the bottom
//! entry (the first board of the stack) rebuilt, and the walk starts there.
//!
//! A rebuild takes each view from a per-view cache ("Finny table": per side and reading of
//! the rows, i.e. king bucket and mirror state, the accumulator of the last board rebuilt
//! there), applying only the pieces that differ from that board. With king buckets or a
//! horizontally mirrored network, a step where a king changes its reading (another bucket, the
//! other wing) rebuilds that side's view the same way and updates the other view as usual.

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::aligned::{ALIGN_I16, AlignedVec};
use super::net::{MAX_BUCKETS, Network, View, feature, output_bucket};
use super::simd::{self, Backend, OutputPlan};
use crate::position::{Bitboard, Board, Color, Piece, PieceChanges, Position, Role, Square};

/// Entries allocated at first (grown by doubling as the stack gets deeper).
const INITIAL_ENTRIES: usize = 128;
/// Rows a per-view cache applies in one kernel call (more are applied in several calls).
const BATCH: usize = 16;

/// The feature row of `piece` on `sq` from White's and from Black's view, each as its entry
/// of `views` reads it.
#[inline]
fn features(piece: Piece, sq: Square, views: [View; 2]) -> [usize; 2] {
    [
        views[0].row(feature(Color::White, piece, sq)),
        views[1].row(feature(Color::Black, piece, sq)),
    ]
}

/// The feature index from `persp`'s view of piece `k` (`piece_sets` order) on `sq`.
#[inline]
fn piece_feature(persp: Color, k: usize, sq: Square) -> usize {
    let color = if k < 6 { Color::White } else { Color::Black };
    feature(persp, Role::ALL[k % 6].of(color), sq)
}

/// Truncating division of an `i64` by a positive constant, through one multiplication (an
/// `idiv` per evaluation, twice, was a tenth of the fast path's time). Granlund & Montgomery,
/// "Division by invariant integers using multiplication" (1994), Theorem 4.2 with N = 62: for
/// `l = ⌈log2 d⌉` and `m = ⌈2^(62+l) / d⌉`, `⌊n / d⌋ = ⌊m·n / 2^(62+l)⌋` for `0 ≤ n < 2^62`.
/// Larger magnitudes (never met by a network within its bounds) fall back to `/`.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    d: i64,
    magic: u64,
    shift: u32,
}

impl Divisor {
    /// Bits of the dividend's magnitude the multiplication covers.
    const BITS: u32 = 62;

    fn new(d: i64) -> Divisor {
        assert!(d > 0, "divisor {d}");
        let l = 64 - (d as u64 - 1).leading_zeros();
        let shift = Divisor::BITS + l;
        // d > 2^(l−1), so 2^(62+l) / d < 2^63 and its ceiling m ≤ 2^63 fits a u64.
        let magic = (1u128 << shift).div_ceil(d as u128);
        Divisor {
            d,
            magic: u64::try_from(magic).expect("magic fits 64 bits"),
            shift,
        }
    }

    /// `x / d`, rounded toward zero like Rust's `/`.
    #[inline]
    fn div(self, x: i64) -> i64 {
        let n = x.unsigned_abs();
        if n >= 1 << Divisor::BITS {
            return x / self.d;
        }
        let q = ((n as u128 * self.magic as u128) >> self.shift) as i64;
        if x < 0 { -q } else { q }
    }
}

/// A per-search-thread NNUE evaluator with incrementally updated accumulators.
///
/// `evaluate(pos)` equals `net.evaluate_board(pos.board(), pos.turn())` exactly, for any
/// sequence of positions.
#[derive(Clone)]
pub struct Nnue {
    net: Arc<Network>,
    backend: Backend,
    plan: OutputPlan,
    /// The output bucket of each piece count (0..=64): a look-up instead of a division.
    bucket_of: [u8; 65],
    /// Division by QA, then by QA·QB (the output's two divisions).
    by_qa: Divisor,
    by_qa_qb: Divisor,
    /// Hidden size N.
    n: usize,
    /// Elements per perspective in the buffer: N rounded up to a whole cache line.
    stride: usize,
    /// Entries that fit in `buf`.
    capacity: usize,
    /// Entry `i` at `i · 2 · stride`: White's accumulator, then Black's at `+ stride`.
    buf: AlignedVec,
    /// The key each entry was computed for (None: empty).
    keys: Vec<Option<u64>>,
    /// How each computed entry's views read the rows (White's, Black's): a step whose kings
    /// stay takes its parent's.
    entry_views: Vec<[View; 2]>,
    /// Per perspective and reading of the rows ([`View::slot`]: king bucket and mirror state),
    /// the accumulator of the last board that perspective's view was rebuilt for: the next
    /// rebuild in the same state applies only the pieces that differ ("Finny table"). A king
    /// changing bucket, or a mirrored network's king crossing between the d and e files,
    /// rebuilds its view, back and forth in a search.
    views: [Vec<ViewCache>; 2],
    /// The network reads every view plainly (no king buckets, no mirroring).
    plain: bool,
    stats: NnueStats,
}

/// One perspective's accumulator for the board whose pieces are `pieces`.
#[derive(Clone, Debug, Default)]
struct ViewCache {
    acc: AlignedVec,
    /// The board's squares of each piece ([`piece_sets`] order); None: nothing cached yet.
    pieces: Option<[Bitboard; 12]>,
}

/// The squares of each of the twelve pieces of `board` (White's pawn … king, then Black's).
fn piece_sets(board: &Board) -> [Bitboard; 12] {
    let mut sets = [Bitboard::EMPTY; 12];
    for (k, set) in sets.iter_mut().enumerate() {
        let color = if k < 6 { Color::White } else { Color::Black };
        *set = board.by_piece(Role::ALL[k % 6].of(color));
    }
    sets
}

/// How an evaluator's accumulators were brought up to date (counts since it was made).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NnueStats {
    /// Evaluations.
    pub evals: u64,
    /// Accumulator pairs rebuilt without a cached ancestor (from the per-view cache, from
    /// scratch the first time).
    pub refreshes: u64,
    /// Accumulator pairs computed from their parent's (one move each).
    pub updates: u64,
    /// Single perspectives brought up to date from the per-view cache (a king changing bucket,
    /// or a mirrored network's king changing wing).
    pub view_refreshes: u64,
}

impl std::fmt::Debug for Nnue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nnue")
            .field("hidden", &self.n)
            .field("backend", &self.backend)
            .field("plan", &self.plan)
            .field("entries", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl Nnue {
    /// An evaluator for `net` with the fastest kernels this CPU runs.
    pub fn new(net: Arc<Network>) -> Nnue {
        Nnue::with_backend(net, Backend::detect()).expect("the detected back end is available")
    }

    /// An evaluator with the given kernels (tests and benchmarks compare them), or None if this
    /// CPU cannot run them.
    ///
    /// Panics if `net`'s vectors do not have the sizes its hidden size N asks for, or N is not
    /// a positive multiple of 16 (a network read by `Network::from_bytes` always passes).
    pub fn with_backend(net: Arc<Network>, backend: Backend) -> Option<Nnue> {
        if !backend.is_available() {
            return None;
        }
        let n = net.hidden;
        assert!(
            n > 0 && n.is_multiple_of(simd::LANES),
            "hidden size {n} is not a positive multiple of {}",
            simd::LANES
        );
        assert_eq!(
            net.ft_weights.len(),
            net.inputs.rows() * n,
            "feature weights size"
        );
        assert_eq!(net.ft_bias.len(), n, "feature bias size");
        let buckets = net.buckets;
        assert!(
            (1..=MAX_BUCKETS).contains(&buckets),
            "{buckets} output buckets"
        );
        assert_eq!(
            net.out_weights.len(),
            buckets * 2 * n,
            "output weights size"
        );
        assert_eq!(net.out_bias.len(), buckets, "output biases");
        assert!((1..=i16::MAX as i32).contains(&net.qa), "QA {}", net.qa);
        assert!(net.qb >= 1, "QB {}", net.qb);
        let stride = n.div_ceil(ALIGN_I16) * ALIGN_I16;
        let plan = OutputPlan::new(net.qa, &net.out_weights);
        let mut bucket_of = [0u8; 65];
        for (pieces, b) in bucket_of.iter_mut().enumerate() {
            *b = output_bucket(pieces, buckets) as u8;
        }
        let by_qa = Divisor::new(net.qa as i64);
        let by_qa_qb = Divisor::new(net.qa as i64 * net.qb as i64);
        let slots = 2 * net.inputs.king_buckets;
        let plain = net.inputs.is_plain();
        Some(Nnue {
            net,
            backend,
            plan,
            bucket_of,
            by_qa,
            by_qa_qb,
            n,
            stride,
            capacity: INITIAL_ENTRIES,
            buf: AlignedVec::zeroed(INITIAL_ENTRIES * 2 * stride),
            keys: vec![None; INITIAL_ENTRIES],
            entry_views: vec![[View::PLAIN; 2]; INITIAL_ENTRIES],
            views: [
                vec![ViewCache::default(); slots],
                vec![ViewCache::default(); slots],
            ],
            plain,
            stats: NnueStats::default(),
        })
    }

    /// The network.
    pub fn net(&self) -> &Network {
        &self.net
    }

    /// The kernels in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// How the output layer sums for this network (decided from its weights at load).
    pub fn output_plan(&self) -> OutputPlan {
        self.plan
    }

    /// Counts of evaluations, refreshes and incremental updates so far.
    pub fn stats(&self) -> NnueStats {
        self.stats
    }

    /// Forgets every cached stack entry (the next evaluation rebuilds its stack's first entry;
    /// the per-view cache stays, since it is right for any board).
    pub fn clear(&mut self) {
        self.keys.fill(None);
    }

    /// The evaluation of `pos` in centipawns, from the side to move's view; identical to
    /// `self.net().evaluate_board(pos.board(), pos.turn())`.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let top = pos.stack_len() - 1;
        self.reserve(top + 1);
        self.stats.evals += 1;
        // Walking up from the nearest cached ancestor fills every entry between it and the
        // top, which the siblings and descendants of those nodes then share: each node of the
        // path is computed once, by one step. (A walk bounded by the cost of one refresh left
        // the ancestors empty whenever the search took their evaluations from the table, and
        // then every sibling refreshed: a third of the evaluations of `bench` were refreshes.)
        let from = match self.nearest_cached(pos, top) {
            Some(from) => from,
            None => {
                self.refresh(pos.board_at(0), 0);
                self.keys[0] = Some(pos.key_at(0));
                0
            }
        };
        for i in from + 1..=top {
            self.step(pos.board_at(i - 1), pos.board_at(i), pos.changes_at(i), i);
            self.keys[i] = Some(pos.key_at(i));
        }
        self.output(top, pos.turn(), pos.board())
    }

    /// Makes room for `entries` stack entries, keeping what is cached.
    fn reserve(&mut self, entries: usize) {
        if entries <= self.capacity {
            return;
        }
        let capacity = entries.max(2 * self.capacity);
        let mut buf = AlignedVec::zeroed(capacity * 2 * self.stride);
        buf[..self.buf.len()].copy_from_slice(&self.buf);
        self.buf = buf;
        self.keys.resize(capacity, None);
        self.entry_views.resize(capacity, [View::PLAIN; 2]);
        self.capacity = capacity;
    }

    /// The highest entry at or below `top` whose cache matches its position, if any.
    fn nearest_cached(&self, pos: &Position, top: usize) -> Option<usize> {
        (0..=top)
            .rev()
            .find(|&i| self.keys[i] == Some(pos.key_at(i)))
    }

    /// Element range of `persp`'s accumulator in entry `i` (White's view first, as in
    /// [`features`]).
    #[inline]
    fn range(&self, i: usize, persp: Color) -> std::ops::Range<usize> {
        let at = i * 2 * self.stride
            + match persp {
                Color::White => 0,
                Color::Black => self.stride,
            };
        at..at + self.n
    }

    /// The weight row of feature `f`.
    #[inline]
    fn row(net: &Network, f: usize) -> &[i16] {
        let n = net.hidden;
        &net.ft_weights[f * n..][..n]
    }

    /// Entry `i` for `board`, both views rebuilt (see [`Nnue::rebuild_view`]).
    fn refresh(&mut self, board: &Board, i: usize) {
        self.stats.refreshes += 1;
        self.entry_views[i] = Color::ALL.map(|c| self.net.view(board, c));
        for persp in Color::ALL {
            self.rebuild_view(board, i, persp);
        }
    }

    /// `persp`'s accumulator of entry `i` for `board`, from the per-view cache of its reading
    /// of the rows: the cached board's accumulator plus the rows of the pieces `board` has and
    /// it had not, minus the reverse (the first time: the bias plus every piece's row).
    /// Refreshes and a king changing its reading (bucket or wing) both come here.
    fn rebuild_view(&mut self, board: &Board, i: usize, persp: Color) {
        let range = self.range(i, persp);
        let net = &*self.net;
        let view = net.view(board, persp);
        let cache = &mut self.views[persp as usize][view.slot()];
        let now = piece_sets(board);
        let row = |k: usize, sq: Square| Nnue::row(net, view.row(piece_feature(persp, k, sq)));
        match cache.pieces {
            Some(old) => {
                // The rows in batches, each applied with the accumulator in registers (the
                // lists need no filling beforehand; a piece set that did not change is passed
                // over with one comparison).
                let mut adds = ArrayVec::<&[i16], BATCH>::new();
                let mut subs = ArrayVec::<&[i16], BATCH>::new();
                for k in 0..12 {
                    let (before, after) = (old[k], now[k]);
                    if before == after {
                        continue;
                    }
                    for sq in before & !after {
                        if subs.is_full() {
                            simd::apply_rows(self.backend, &mut cache.acc, &adds, &subs);
                            adds.clear();
                            subs.clear();
                        }
                        subs.push(row(k, sq));
                    }
                    for sq in after & !before {
                        if adds.is_full() {
                            simd::apply_rows(self.backend, &mut cache.acc, &adds, &subs);
                            adds.clear();
                            subs.clear();
                        }
                        adds.push(row(k, sq));
                    }
                }
                simd::apply_rows(self.backend, &mut cache.acc, &adds, &subs);
            }
            None => {
                let mut rows: [&[i16]; 64] = [&[]; 64];
                let mut count = 0;
                for (k, &set) in now.iter().enumerate() {
                    for sq in set {
                        rows[count] = row(k, sq);
                        count += 1;
                    }
                }
                cache.acc = AlignedVec::zeroed(self.n);
                simd::refresh(self.backend, &mut cache.acc, &net.ft_bias, &rows[..count]);
            }
        }
        cache.pieces = Some(now);
        self.buf[range].copy_from_slice(&cache.acc);
    }

    /// Entry `i` (for `child`) from entry `i − 1` (for `parent`), by the pieces the move
    /// `changes` (a refresh when they are not known).
    #[inline(always)]
    fn step(&mut self, parent: &Board, child: &Board, changes: Option<&PieceChanges>, i: usize) {
        // With king buckets a perspective reads the block of its king's bucket, and a mirrored
        // network sees it flipped a↔h while its king is on files a–d: a king changing bucket
        // or crossing between the d and e files changes every row of its view, which is then
        // brought up to date from the per-view cache instead.
        let before = self.entry_views[i - 1];
        let (views, crossed) = if self.plain || parent.kings() == child.kings() {
            (before, [false; 2])
        } else {
            let views = Color::ALL.map(|c| self.net.view(child, c));
            (views, [views[0] != before[0], views[1] != before[1]])
        };
        self.entry_views[i] = views;
        let Some(ch) = changes else {
            self.refresh(child, i);
            return;
        };
        let (added, removed) = (ch.added(), ch.removed());
        match (added.len(), removed.len()) {
            (1, 1) => self.apply::<1, 1>(added, removed, views, crossed, child, i),
            (1, 2) => self.apply::<1, 2>(added, removed, views, crossed, child, i),
            (0, 0) => self.apply::<0, 0>(added, removed, views, crossed, child, i),
            (2, 2) => self.apply::<2, 2>(added, removed, views, crossed, child, i),
            // No move of chess changes a board otherwise (a quiet move or a promotion: one
            // piece off, one on; a capture or en passant: two off, one on; castling: two and
            // two, or one and one in Chess960 when the king or the rook stays; a null move:
            // nothing).
            _ => self.refresh(child, i),
        }
    }

    /// Entry `i` (for `child`) from entry `i − 1` by the `A` pieces `added` and the `S`
    /// pieces `removed` (at least that many each), their rows as `views` read them, both views
    /// in one kernel call; a view in `crossed` is rebuilt from the per-view cache instead.
    #[inline(always)]
    fn apply<const A: usize, const S: usize>(
        &mut self,
        added: &[(Piece, Square)],
        removed: &[(Piece, Square)],
        views: [View; 2],
        crossed: [bool; 2],
        child: &Board,
        i: usize,
    ) {
        self.stats.updates += 1;
        let added: [[usize; 2]; A] = std::array::from_fn(|k| {
            let (piece, sq) = added[k];
            features(piece, sq, views)
        });
        let removed: [[usize; 2]; S] = std::array::from_fn(|k| {
            let (piece, sq) = removed[k];
            features(piece, sq, views)
        });
        if crossed[0] || crossed[1] {
            self.apply_crossed(added, removed, crossed, child, i);
            return;
        }
        let stride = self.stride;
        let (below, above) = self.buf.split_at_mut(i * 2 * stride);
        let src = &below[(i - 1) * 2 * stride..];
        let weights = &self.net.ft_weights;
        simd::update_pair(
            self.backend,
            above,
            src,
            stride,
            self.n,
            weights,
            added,
            removed,
        );
    }

    /// [`Nnue::apply`] when a king changed its reading: the views in `crossed` rebuilt from
    /// the per-view cache, the others updated by the rows.
    #[cold]
    #[inline(never)]
    fn apply_crossed<const A: usize, const S: usize>(
        &mut self,
        added: [[usize; 2]; A],
        removed: [[usize; 2]; S],
        crossed: [bool; 2],
        child: &Board,
        i: usize,
    ) {
        for (view, persp) in Color::ALL.into_iter().enumerate() {
            if crossed[view] {
                self.stats.view_refreshes += 1;
                self.rebuild_view(child, i, persp);
            }
        }
        let (n, stride) = (self.n, self.stride);
        let net = &*self.net;
        let (below, above) = self.buf.split_at_mut(i * 2 * stride);
        let src = &below[(i - 1) * 2 * stride..];
        for view in 0..2 {
            if !crossed[view] {
                let off = view * stride;
                let dst = &mut above[off..][..n];
                let a = added.map(|f| Nnue::row(net, f[view]));
                let s = removed.map(|f| Nnue::row(net, f[view]));
                simd::update(self.backend, dst, &src[off..][..n], a, s);
            }
        }
    }

    /// The output layer on entry `i` (for `board`), `stm` to move; the number of pieces on
    /// `board` picks the output bucket (counted only when there is more than one).
    #[inline(always)]
    fn output(&self, i: usize, stm: Color, board: &Board) -> i32 {
        let net = &*self.net;
        let buf = &self.buf[..];
        let us = &buf[self.range(i, stm)];
        let them = &buf[self.range(i, !stm)];
        let bucket = if net.buckets == 1 {
            0
        } else {
            self.bucket_of[board.occupied().count().min(64)] as usize
        };
        let weights = net.bucket_weights(bucket);
        let sum = simd::output_sum(self.backend, self.plan, net.qa, us, them, weights);
        // The reference's arithmetic, in the same order and width (its divisions as
        // multiplications, with the same results).
        let out = self.by_qa.div(sum) + net.out_bias[bucket] as i64;
        self.by_qa_qb.div(out * net.scale as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisor_equals_integer_division() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut ds: Vec<i64> = vec![1, 2, 3, 7, 64, 255, 255 * 64, 32767, 32767 * 32767];
        ds.extend((0..200).map(|_| rng.random_range(1..=32767 * 32767)));
        let edges = [
            0,
            1,
            -1,
            (1 << 62) - 1,
            -(1 << 62) + 1,
            1 << 62,
            -(1 << 62),
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ];
        for &d in &ds {
            let div = Divisor::new(d);
            for k in -3..=3 {
                // Multiples of d and their neighbours, where rounding goes wrong first.
                for m in [1i64, 1000, 1 << 20, (1 << 61) / d] {
                    let x = m * d + k;
                    assert_eq!(div.div(x), x / d, "{x} / {d}");
                    assert_eq!(div.div(-x), -x / d, "{} / {d}", -x);
                }
            }
            for &x in &edges {
                assert_eq!(div.div(x), x / d, "{x} / {d}");
            }
            for _ in 0..2000 {
                let x: i64 = rng.random::<i64>() >> rng.random_range(0..63);
                assert_eq!(div.div(x), x / d, "{x} / {d}");
            }
        }
    }
}
