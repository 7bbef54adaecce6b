//! Lazy SMP: several search threads on one shared transposition table.
//!
//! A [`ThreadPool`] owns the main [`Searcher`] (run on the caller's thread, which is the UCI
//! worker thread) and `Threads − 1` helpers. On `go` every helper runs the same iterative
//! deepening over the same root with its own histories, killers, stack, PV, evaluation caches
//! and NNUE accumulators; the only thing they share is the transposition table, through which
//! they feed each other. Helper `i` skips some depths (the depth-skipping table of Stockfish 9,
//! Ethereal and many others) so that the threads spread over neighbouring depths instead of
//! searching the same tree in lockstep. Helpers report nothing. The main thread alone looks at
//! the clock and reports `info` lines; when its search ends for any reason it raises the pool's
//! `abort` flag, waits for the helpers' results and picks the best move by a depth- and
//! score-weighted vote among the threads' completed iterations ([`best_thread`]).
//!
//! # Stopping
//! Every thread borrows the `go`'s own [`SearchControl`] (the UCI layer's `stop` and
//! `pondering` flags), so `stop`, `ponderhit` and `quit` reach every thread at once: each
//! looks at the flag every 1024 nodes, as the single-threaded search always did. The pool's
//! `abort` flag, looked at in the same place, is the main thread saying "I am done" when it
//! stops on its own (time, depth, nodes, mate): it cannot set the UCI flag for that, because
//! in `go infinite` and `go ponder` the `bestmove` must still wait for `stop`/`ponderhit`.
//!
//! # Node counting
//! Each thread counts its own nodes and adds them to one shared atomic counter at least every
//! [`FLUSH_NODES`] nodes (its tablebase hits to another). `info ... nodes`, `nps` and `tbhits`
//! read those counters plus the main thread's unflushed counts. Under `go nodes N` the budget is handed out in chunks: before searching
//! on, a thread claims the next [`FLUSH_NODES`] nodes of it from a second shared counter (the
//! last claim is cut at `N`), and a thread whose claim finds the budget gone stops. So the
//! threads together search at most `N` nodes, plus the one node each may count as it unwinds.
//! (A small budget may leave the helpers with nothing to claim: a search of fewer than
//! `threads × 1024` nodes is mostly one thread's.)
//!
//! # Persistent threads
//! Helpers are persistent: spawned when `Threads` is set and parked on a channel between
//! searches, so that a `go` costs one message per helper instead of a thread start (with a
//! large stack) each time, which matters at bullet time controls and with many threads.
//! Each helper's [`Searcher`] sits in a `Mutex` that its thread holds during a search and the
//! pool takes between searches, to clear its histories (`ucinewgame`) or hand it a new table
//! (`Hash`); the lock is never contended, it only makes that hand-over safe. Shrinking the
//! pool closes the surplus helpers' channels and joins their threads; dropping it joins all.
//!
//! # No data races by construction
//! There is no `unsafe` here. What the threads share during a search is:
//! - the [`TranspositionTable`]: atomics only (two `AtomicU64` per entry with the key-xor-data
//!   check, an `AtomicU8` generation); a torn entry reads as a miss;
//! - `SmpShared`: an `AtomicU64` node counter and an `AtomicBool`;
//! - the [`SearchControl`]: two `AtomicBool`;
//! - the task: root position, limits and options behind an `Arc`, never mutated, and the
//!   network (`Arc<Network>`, immutable).
//!
//! Everything mutable is owned by one thread (a helper's `Searcher` behind its `Mutex`). All
//! atomics are `Relaxed`: none of them publishes other memory. Results come back over a
//! channel, which orders the helpers' writes before the main thread's reads; before it returns
//! a search, the pool has received every helper's result, so no helper is still searching (and
//! none holds the `SearchControl` any more: the UCI layer counts its references).
//!
//! # Drivers
//! Helpers run the same driver as the main thread, MultiPV and `searchmoves` included (the
//! vote looks at each thread's first line). The `SSS` driver keeps the helpers idle: its tree
//! lives in the searcher's OPEN list, not in the shared table, so helpers would only repeat
//! the main thread's work; with `SSS` the pool searches exactly like one thread.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, unbounded};

use super::{
    Algorithm, IterationInfo, MATE_IN_MAX, Reporter, ScoreBound, SearchControl, SearchOptions,
    SearchResult, SearchStats, Searcher, SilentReporter, SyzygyConfig,
};
use crate::limits::SearchLimits;
use crate::position::{Move, Position};
use crate::tt::{TranspositionTable, TtBounds};

/// Most search threads (the UCI `Threads` maximum).
pub const MAX_THREADS: usize = 1024;

/// A thread adds its nodes to the shared count at least this often.
pub const FLUSH_NODES: u64 = 1024;

/// Stack of each helper thread, as the UCI search thread's (the node search recurses).
pub const HELPER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// The vote's offset: a thread's weight is `(score − lowest score + VOTE_BASE) × depth`, so
/// the thread with the lowest score still counts.
const VOTE_BASE: i64 = 14;

/// Depth skipping (helper `i` uses entry `(i − 1) % 20`): a helper skips the iterations with
/// `((depth + SKIP_PHASE) / SKIP_SIZE)` odd, so that helpers work on different depths.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// What the threads of one pool share besides the table (atomics only).
#[derive(Debug, Default)]
pub(super) struct SmpShared {
    /// Nodes of the current search, as added by each thread at its checkpoints.
    nodes: AtomicU64,
    /// Tablebase hits of the current search, added with the nodes.
    tb_hits: AtomicU64,
    /// Nodes of the `go nodes` budget claimed so far (may pass the budget: the claims that
    /// did found nothing left).
    claimed: AtomicU64,
    /// Set by the main thread when its search has ended: the helpers stop.
    abort: AtomicBool,
}

/// A searcher's link to the other threads of its pool.
pub(super) struct SmpLink {
    shared: Arc<SmpShared>,
    /// 0 for the main thread, 1.. for helpers.
    id: usize,
    /// This thread's nodes already added to the shared count.
    flushed: u64,
    /// This thread's tablebase hits already added to the shared count.
    flushed_tb: u64,
    /// Node budget of the current search for all threads (`u64::MAX`: none).
    limit: u64,
    /// This thread may search until its own count reaches this (its claims so far).
    claimed_to: u64,
}

impl SmpLink {
    /// Whether this searcher is a helper (not the main thread).
    pub(super) fn is_helper(&self) -> bool {
        self.id > 0
    }

    /// Whether this helper skips the iteration at `depth` (never depth 1, never the main
    /// thread).
    pub(super) fn skips_depth(&self, depth: u32) -> bool {
        if self.id == 0 || depth <= 1 {
            return false;
        }
        let i = (self.id - 1) % SKIP_SIZE.len();
        ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
    }

    /// Starts a search with the node budget `limit`; returns the first checkpoint.
    pub(super) fn start(&mut self, limit: u64) -> u64 {
        self.flushed = 0;
        self.flushed_tb = 0;
        self.claimed_to = 0;
        self.limit = limit;
        if limit == u64::MAX { u64::MAX } else { 0 }
    }

    /// Adds this thread's new nodes and tablebase hits (`nodes` and `tb_hits` in all) to the
    /// shared counts.
    pub(super) fn flush(&mut self, nodes: u64, tb_hits: u64) {
        let new = nodes.saturating_sub(self.flushed);
        self.flushed = nodes;
        self.shared.nodes.fetch_add(new, Ordering::Relaxed);
        if tb_hits > self.flushed_tb {
            let new = tb_hits - self.flushed_tb;
            self.flushed_tb = tb_hits;
            self.shared.tb_hits.fetch_add(new, Ordering::Relaxed);
        }
    }

    /// Nodes of all threads as far as this thread knows, with its own `nodes`.
    pub(super) fn total(&self, nodes: u64) -> u64 {
        self.shared
            .nodes
            .load(Ordering::Relaxed)
            .saturating_add(nodes.saturating_sub(self.flushed))
    }

    /// Tablebase hits of all threads as far as this thread knows, with its own `tb_hits`.
    pub(super) fn total_tb_hits(&self, tb_hits: u64) -> u64 {
        self.shared
            .tb_hits
            .load(Ordering::Relaxed)
            .saturating_add(tb_hits.saturating_sub(self.flushed_tb))
    }

    /// A checkpoint, with this thread's counts `nodes` and `tb_hits`: flushes them, and at the
    /// end of this thread's claimed nodes claims more. `None` when the search must end (the
    /// main thread is done, or the budget is all claimed), else the next checkpoint.
    pub(super) fn sync(&mut self, nodes: u64, tb_hits: u64) -> Option<u64> {
        self.flush(nodes, tb_hits);
        if self.shared.abort.load(Ordering::Relaxed) {
            return None;
        }
        if self.limit == u64::MAX {
            return Some(u64::MAX);
        }
        if nodes >= self.claimed_to {
            let before = self
                .shared
                .claimed
                .fetch_add(FLUSH_NODES, Ordering::Relaxed);
            if before >= self.limit {
                return None;
            }
            self.claimed_to = nodes + FLUSH_NODES.min(self.limit - before);
        }
        Some(self.claimed_to)
    }
}

/// What each helper searches (shared, never mutated).
struct Task {
    pos: Position,
    limits: SearchLimits,
    opts: SearchOptions,
    ctl: Arc<SearchControl>,
}

/// One helper thread and its searcher.
struct Helper {
    searcher: Arc<Mutex<Searcher>>,
    /// Closed (`None`) to end the thread.
    tasks: Option<Sender<Arc<Task>>>,
    handle: Option<JoinHandle<()>>,
}

impl Drop for Helper {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop; the pool only drops helpers between
        // searches, so the join does not wait for a search.
        self.tasks = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The searcher behind `m`, whether or not a panicking thread poisoned the lock (a searcher
/// holds no invariant a panic could break that a new search does not reset).
fn lock(m: &Mutex<Searcher>) -> MutexGuard<'_, Searcher> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A helper's loop: one search per task until the pool closes the channel.
fn helper_loop(
    searcher: Arc<Mutex<Searcher>>,
    tasks: Receiver<Arc<Task>>,
    done: Sender<SearchResult>,
) {
    while let Ok(task) = tasks.recv() {
        let result = lock(&searcher).search(
            &task.pos,
            &task.limits,
            &task.opts,
            &task.ctl,
            &mut SilentReporter,
        );
        // Let go of the search's flags before saying so (the UCI layer counts references).
        drop(task);
        if done.send(result).is_err() {
            break;
        }
    }
}

/// Forwards everything but the final statistics, which the pool reports for all threads.
struct MainReporter<'a> {
    inner: &'a mut dyn Reporter,
}

impl Reporter for MainReporter<'_> {
    fn iteration(&mut self, info: &IterationInfo) {
        self.inner.iteration(info);
    }

    fn wants_iterations(&self) -> bool {
        self.inner.wants_iterations()
    }

    fn iteration_done(&mut self, depth: u32, score: i32, stats: &SearchStats) {
        self.inner.iteration_done(depth, score, stats);
    }

    fn current_move(&mut self, depth: u32, mv: Move, number: usize) {
        self.inner.current_move(depth, mv, number);
    }
}

/// One thread's finished search, as the vote sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Best move of its last completed iteration.
    pub best: Move,
    /// Its score.
    pub score: i32,
    /// The depth of that iteration (0: none completed).
    pub depth: u32,
}

/// The index of the thread whose move to play (index 0 is the main thread): a vote in which
/// each thread gives its move `(score − lowest score + 14) × depth` (Stockfish's
/// `get_best_thread`), the thread whose move has most votes winning (ties: the deeper thread,
/// then the earlier); proven mates override the vote: the shortest mate found is played, and
/// a thread that sees itself mated only gives way to another proven loss that lasts longer.
/// Threads that completed no iteration (depth 0) do not vote.
pub fn best_thread(cands: &[Candidate]) -> usize {
    let voters = || cands.iter().filter(|c| c.depth > 0);
    let Some(min) = voters().map(|c| c.score).min() else {
        return 0;
    };
    let votes = |m: Move| -> i64 {
        voters()
            .filter(|c| c.best == m)
            .map(|c| (c.score as i64 - min as i64 + VOTE_BASE) * c.depth as i64)
            .sum()
    };
    let win = |s: i32| s >= MATE_IN_MAX;
    let loss = |s: i32| s <= -MATE_IN_MAX;
    let mut best = 0;
    for (i, t) in cands.iter().enumerate().skip(1) {
        if t.depth == 0 {
            continue;
        }
        let b = &cands[best];
        let better = if b.depth == 0 {
            true
        } else if win(b.score) {
            t.score > b.score
        } else if loss(b.score) {
            t.score > b.score && (loss(t.score) || t.depth >= b.depth)
        } else {
            let (vt, vb) = (votes(t.best), votes(b.best));
            win(t.score) || (!loss(t.score) && (vt > vb || (vt == vb && t.depth > b.depth)))
        };
        if better {
            best = i;
        }
    }
    best
}

/// The search threads: the main searcher and its helpers, on one shared table.
pub struct ThreadPool {
    main: Searcher,
    helpers: Vec<Helper>,
    /// The tablebase options every thread has (given to new helpers too).
    syzygy: SyzygyConfig,
    shared: Arc<SmpShared>,
    done_tx: Sender<SearchResult>,
    done_rx: Receiver<SearchResult>,
}

impl ThreadPool {
    /// One thread with a `hash_mb` MB table (add helpers with [`Self::set_threads`]).
    pub fn new(hash_mb: usize) -> ThreadPool {
        let (done_tx, done_rx) = unbounded();
        ThreadPool {
            main: Searcher::new(hash_mb),
            helpers: Vec::new(),
            syzygy: SyzygyConfig::default(),
            shared: Arc::new(SmpShared::default()),
            done_tx,
            done_rx,
        }
    }

    /// Number of search threads, the main one included.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// The shared table.
    pub fn tt(&self) -> &TranspositionTable {
        &self.main.tt
    }

    /// Sets the number of search threads (1 to [`MAX_THREADS`]; call between searches).
    /// Surplus helpers are joined; new ones start with empty histories. If the system refuses
    /// a thread, the pool keeps the ones it has and says how many.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        let want = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(want);
        let mut failure = None;
        while self.helpers.len() < want {
            match self.spawn_helper(self.helpers.len() + 1) {
                Ok(h) => self.helpers.push(h),
                Err(e) => {
                    failure = Some(format!(
                        "cannot start search thread {} ({e}); searching with {}",
                        self.helpers.len() + 2,
                        self.helpers.len() + 1
                    ));
                    break;
                }
            }
        }
        // Alone, the main searcher runs exactly the single-threaded search.
        self.main.smp = (self.threads() > 1).then(|| self.link(0));
        failure.map_or(Ok(()), Err)
    }

    fn link(&self, id: usize) -> SmpLink {
        SmpLink {
            shared: self.shared.clone(),
            id,
            flushed: 0,
            flushed_tb: 0,
            limit: u64::MAX,
            claimed_to: 0,
        }
    }

    fn spawn_helper(&self, id: usize) -> std::io::Result<Helper> {
        let mut s = Searcher::with_table(self.main.tt.clone());
        s.smp = Some(self.link(id));
        s.set_syzygy(self.syzygy.clone());
        let searcher = Arc::new(Mutex::new(s));
        let (tx, rx) = unbounded();
        let (mine, done) = (searcher.clone(), self.done_tx.clone());
        let handle = thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(HELPER_STACK_BYTES)
            .spawn(move || helper_loop(mine, rx, done))?;
        Ok(Helper {
            searcher,
            tasks: Some(tx),
            handle: Some(handle),
        })
    }

    /// Replaces the table by an empty one of `mb` MB (call between searches). When the memory
    /// cannot be had the old table stays, and the error says why. (The old table is freed
    /// once the new one is handed out, as [`TranspositionTable::resize`] does.)
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        let bounds = self.main.tt.bounds();
        self.replace_table(TranspositionTable::try_with_bounds(mb, bounds)?);
        Ok(())
    }

    /// Replaces the table by an empty one of the same size that keeps `bounds` bounds per
    /// position (`TTBounds`; call between searches). Nothing changes if the table already
    /// does; on an allocation failure the old table stays.
    pub fn set_tt_bounds(&mut self, bounds: TtBounds) -> Result<(), String> {
        if self.main.tt.bounds() == bounds {
            return Ok(());
        }
        let mb = self.main.tt.size_mb();
        self.replace_table(TranspositionTable::try_with_bounds(mb, bounds)?);
        Ok(())
    }

    /// How many bounds the table keeps per position.
    pub fn tt_bounds(&self) -> TtBounds {
        self.main.tt.bounds()
    }

    fn replace_table(&mut self, tt: TranspositionTable) {
        let tt = Arc::new(tt);
        for h in &self.helpers {
            lock(&h.searcher).tt = tt.clone();
        }
        self.main.tt = tt;
    }

    /// Sets the tablebase options of every thread (call between searches).
    pub fn set_syzygy(&mut self, config: &SyzygyConfig) {
        self.main.set_syzygy(config.clone());
        for h in &self.helpers {
            lock(&h.searcher).set_syzygy(config.clone());
        }
        self.syzygy = config.clone();
    }

    /// Size of the table in MB.
    pub fn hash_mb(&self) -> usize {
        self.main.tt.size_mb()
    }

    /// Empties the table and every thread's histories (`ucinewgame`, `Clear Hash`).
    pub fn new_game(&mut self) {
        self.main.new_game();
        for h in &self.helpers {
            lock(&h.searcher).clear_history();
        }
    }

    /// Searches `root` with every thread (see the module documentation). With one thread, or
    /// with the `SSS` driver, this is exactly [`Searcher::search`].
    pub fn search(
        &mut self,
        root: &Position,
        limits: &SearchLimits,
        opts: &SearchOptions,
        ctl: &Arc<SearchControl>,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        if self.helpers.is_empty() || opts.algorithm == Algorithm::Sss {
            let link = self.main.smp.take();
            let result = self.main.search(root, limits, opts, ctl, reporter);
            self.main.smp = link;
            return result;
        }
        self.main.tt.new_search();
        self.shared.nodes.store(0, Ordering::Relaxed);
        self.shared.claimed.store(0, Ordering::Relaxed);
        self.shared.tb_hits.store(0, Ordering::Relaxed);
        self.shared.abort.store(false, Ordering::Relaxed);
        let task = Arc::new(Task {
            pos: root.clone(),
            limits: limits.clone(),
            opts: opts.clone(),
            ctl: ctl.clone(),
        });
        let mut running = 0;
        for h in &self.helpers {
            if h.tasks
                .as_ref()
                .is_some_and(|t| t.send(task.clone()).is_ok())
            {
                running += 1;
            }
        }
        drop(task);

        let main = self.main.search(
            root,
            limits,
            opts,
            ctl,
            &mut MainReporter {
                inner: &mut *reporter,
            },
        );
        self.shared.abort.store(true, Ordering::Relaxed);
        let mut results = vec![main];
        // The pool holds a sender itself, so this only ends when every helper has answered.
        results.extend(self.done_rx.iter().take(running));

        let mut stats = SearchStats::default();
        for r in &results {
            stats.merge(&r.stats);
        }
        let nodes = results.iter().map(|r| r.nodes).sum();
        if results[0].best.is_none() {
            reporter.stats(&stats);
            return SearchResult {
                nodes,
                stats,
                ..results.swap_remove(0)
            };
        }
        // The main thread first, as the vote wants it.
        let (threads, cands): (Vec<usize>, Vec<Candidate>) = results
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let best = r.best?;
                Some((
                    i,
                    Candidate {
                        best,
                        score: r.score,
                        depth: r.depth,
                    },
                ))
            })
            .unzip();
        let chosen = threads[best_thread(&cands)];
        let mut result = results.swap_remove(chosen);
        if chosen != 0 {
            // The GUI shows the line of the move that is played.
            reporter.iteration(&IterationInfo {
                depth: result.depth,
                seldepth: result.seldepth,
                multipv: 1,
                score: result.score,
                bound: ScoreBound::Exact,
                nodes,
                time_ms: self.main.elapsed_ms(),
                hashfull: self.main.tt.hashfull(),
                tbhits: stats.tb_hits,
                pv: result.pv.clone(),
            });
        }
        reporter.stats(&stats);
        result.nodes = nodes;
        result.stats = stats;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Square;

    fn mv(to: Square) -> Move {
        Move::Normal {
            role: crate::position::Role::Knight,
            from: Square::B1,
            capture: None,
            to,
            promotion: None,
        }
    }

    fn c(to: Square, score: i32, depth: u32) -> Candidate {
        Candidate {
            best: mv(to),
            score,
            depth,
        }
    }

    #[test]
    fn the_vote_weighs_depth_and_score() {
        use Square::*;
        // One thread alone: itself.
        assert_eq!(best_thread(&[c(A3, 10, 5)]), 0);
        // Two deeper helpers agreeing outvote the main thread.
        assert_eq!(
            best_thread(&[c(A3, 20, 10), c(C3, 20, 10), c(C3, 18, 10)]),
            1
        );
        // A much deeper thread with the same score wins.
        assert_eq!(best_thread(&[c(A3, 20, 10), c(C3, 20, 14)]), 1);
        // Same depth, the higher score wins.
        assert_eq!(best_thread(&[c(A3, 20, 10), c(C3, 60, 10)]), 1);
        // A tie keeps the main thread.
        assert_eq!(best_thread(&[c(A3, 20, 10), c(C3, 20, 10)]), 0);
        // Threads without a completed iteration do not vote.
        assert_eq!(best_thread(&[c(A3, 20, 3), c(C3, 900, 0)]), 0);
        assert_eq!(best_thread(&[c(A3, 0, 0), c(C3, 20, 1)]), 1);
    }

    #[test]
    fn proven_mates_override_the_vote() {
        use Square::*;
        let mate_in = |plies: i32| super::super::MATE - plies;
        // A proven mate beats a deeper, agreeing majority.
        assert_eq!(
            best_thread(&[c(A3, 50, 20), c(A3, 50, 20), c(C3, mate_in(7), 9)]),
            2
        );
        // The shortest mate wins.
        assert_eq!(
            best_thread(&[c(A3, mate_in(9), 12), c(C3, mate_in(5), 8)]),
            1
        );
        assert_eq!(
            best_thread(&[c(A3, mate_in(5), 12), c(C3, mate_in(9), 14)]),
            0
        );
        // Mated: a longer proven loss is preferred, a shallower unproven score is not.
        assert_eq!(
            best_thread(&[c(A3, -mate_in(4), 12), c(C3, -mate_in(8), 12)]),
            1
        );
        assert_eq!(best_thread(&[c(A3, -mate_in(4), 12), c(C3, -30, 6)]), 0);
        // A thread that sees itself mated never outvotes one that does not.
        assert_eq!(best_thread(&[c(A3, -30, 10), c(C3, -mate_in(4), 30)]), 0);
    }

    #[test]
    fn helpers_spread_over_depths() {
        let shared = Arc::new(SmpShared::default());
        let link = |id| SmpLink {
            shared: shared.clone(),
            id,
            flushed: 0,
            flushed_tb: 0,
            limit: u64::MAX,
            claimed_to: 0,
        };
        assert!((1..40).all(|d| !link(0).skips_depth(d)));
        assert!((1..=20).all(|id| !link(id).skips_depth(1)));
        // Helper 1 searches the even depths, helper 2 the odd ones.
        assert!(link(1).skips_depth(3) && !link(1).skips_depth(4));
        assert!(!link(2).skips_depth(3) && link(2).skips_depth(4));
        // Every helper searches at least every other pair of depths.
        for id in 1..=40 {
            let searched = (2..40).filter(|&d| !link(id).skips_depth(d)).count();
            assert!((15..=25).contains(&searched), "helper {id}: {searched}");
        }
    }

    /// A pool of one thread (also after helpers came and went) searches exactly as a lone
    /// [`Searcher`]: same nodes, move, score and PV.
    #[test]
    fn one_thread_is_the_single_threaded_search() {
        let limits = SearchLimits {
            depth: Some(7),
            ..Default::default()
        };
        let opts = SearchOptions::default();
        let ctl = Arc::new(SearchControl::default());
        let mut pool = ThreadPool::new(4);
        for threads in [1, 4, 1] {
            pool.set_threads(threads).unwrap();
            assert_eq!(pool.threads(), threads);
        }
        for fen in crate::bench::positions().into_iter().take(4) {
            let pos = Position::from_fen(fen, false).unwrap();
            let mut alone = Searcher::new(4);
            let a = alone.search(&pos, &limits, &opts, &ctl, &mut SilentReporter);
            pool.new_game();
            let p = pool.search(&pos, &limits, &opts, &ctl, &mut SilentReporter);
            assert_eq!(
                (a.nodes, a.best, a.score, &a.pv),
                (p.nodes, p.best, p.score, &p.pv),
                "{fen}"
            );
        }
    }

    #[test]
    fn a_pool_holds_the_node_budget_and_answers() {
        let mut pool = ThreadPool::new(4);
        pool.set_threads(3).unwrap();
        let ctl = Arc::new(SearchControl::default());
        let pos = Position::from_fen(crate::bench::positions()[1], false).unwrap();
        for n in [1, 500, 40_000] {
            let limits = SearchLimits {
                nodes: Some(n),
                ..Default::default()
            };
            let r = pool.search(
                &pos,
                &limits,
                &SearchOptions::default(),
                &ctl,
                &mut SilentReporter,
            );
            assert!(r.best.is_some());
            assert!(r.nodes <= n + 3, "{n}: {}", r.nodes);
            assert_eq!(r.nodes, r.stats.nodes + r.stats.qnodes);
        }
        // The search's flags are free again (the UCI layer counts their references).
        assert_eq!(Arc::strong_count(&ctl), 1);
    }

    #[test]
    fn threads_claim_the_node_budget_in_chunks() {
        let shared = Arc::new(SmpShared::default());
        let link = |id| SmpLink {
            shared: shared.clone(),
            id,
            flushed: 0,
            flushed_tb: 0,
            limit: u64::MAX,
            claimed_to: 0,
        };
        let (mut a, mut b) = (link(0), link(1));
        assert_eq!(a.start(2_500), 0);
        assert_eq!(b.start(2_500), 0);
        // Each claims a chunk; a checkpoint inside it claims nothing.
        assert_eq!(a.sync(0, 0), Some(FLUSH_NODES));
        assert_eq!(b.sync(0, 0), Some(FLUSH_NODES));
        assert_eq!(a.sync(700, 0), Some(FLUSH_NODES));
        assert_eq!(b.total(100), 800);
        // The last claim is cut at the budget, and then nothing is left.
        assert_eq!(a.sync(1_030, 0), Some(1_030 + 2_500 - 2 * FLUSH_NODES));
        assert_eq!(b.sync(1_024, 0), None);
        assert_eq!(a.sync(1_482, 0), None);
        assert_eq!(a.total(1_482), 1_482 + 1_024);
        // Without a budget only the main thread's end stops them.
        assert_eq!(a.start(u64::MAX), u64::MAX);
        assert_eq!(a.sync(5, 0), Some(u64::MAX));
        shared.abort.store(true, Ordering::Relaxed);
        assert_eq!(a.sync(6, 0), None);
    }
}
