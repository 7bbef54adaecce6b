//! The UCI protocol: the main thread reads stdin the whole time, a worker thread searches.
//!
//! All text parsing and printing of the engine lives here. Bad input never ends the engine: it
//! answers `info string error: ...`, keeps the last valid state and reads on.
//!
//! The worker owns a [`ThreadPool`]: with `Threads` above 1 it starts helper search threads of
//! its own (Lazy SMP, `src/search/smp.rs`), which share each search's `SearchControl`.
//!
//! [`Uci::sandboxed`] runs the same command handler without threads and with every search and
//! perft cut to a small fixed size, so that arbitrary input (a fuzzer's) always finishes.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::bench;
use crate::book::{self, BookPlayer};
use crate::eval::evaluate;
use crate::limits::SearchLimits;
use crate::nnue::{self, Network};
use crate::position::{CastlingMode, Move, Position, START_FEN, move_to_uci, perft_divide};
use crate::search::params;
use crate::search::strength::{self, LineRecorder, StrengthLimit};
use crate::search::wdl::{self, Wdl};
use crate::search::{
    Algorithm, Features, IterationInfo, Reporter, ScoreBound, SearchControl, SearchOptions,
    SearchStats, SyzygyConfig, ThreadPool, clock_manager, uci_score,
};
use crate::tb::Tablebases;
use crate::tt::{MAX_HASH_MB, TtBounds};

/// Engine name sent on `uci`.
pub const ENGINE_NAME: &str = concat!("Nullwindow ", env!("CARGO_PKG_VERSION"));
/// Author line sent on `uci`.
pub const ENGINE_AUTHOR: &str = "the Nullwindow developers";

pub mod options;

use options::{HASH, MOVE_OVERHEAD, MULTIPV, THREADS, UCI_ELO};

/// In a sandboxed handler every search stops after at most this many nodes.
pub const SANDBOX_NODES: u64 = 100;
/// In a sandboxed handler `go perft` is cut to this depth.
pub const SANDBOX_PERFT_DEPTH: u32 = 2;
/// In a sandboxed handler the hash table never grows beyond this (MB).
pub const SANDBOX_HASH_MB: usize = 1;
/// In a sandboxed handler every search runs on this many threads (`Threads` is accepted and
/// capped), so that it stays fast and deterministic.
pub const SANDBOX_THREADS: usize = 1;

/// Where the engine's output lines go.
#[derive(Clone, Debug)]
pub enum Output {
    /// Standard output, one flushed line at a time (what a GUI reads).
    Stdout,
    /// Nowhere (fuzzing).
    Discard,
    /// Kept in memory, one string per line (tests).
    Capture(Arc<Mutex<Vec<String>>>),
}

impl Output {
    /// Writes one line (a multi-line string is one call).
    pub fn say(&self, line: &str) {
        match self {
            Output::Stdout => {
                let out = std::io::stdout();
                let mut lock = out.lock();
                let _ = writeln!(lock, "{line}");
                let _ = lock.flush();
            }
            Output::Discard => {}
            Output::Capture(lines) => {
                if let Ok(mut v) = lines.lock() {
                    v.extend(line.lines().map(str::to_string));
                }
            }
        }
    }

    /// Writes `info string error: msg`.
    pub fn error(&self, msg: &str) {
        self.say(&format!("info string error: {msg}"));
    }
}

/// Messages from the UCI thread to the search thread.
enum Job {
    Go {
        pos: Box<Position>,
        limits: Box<SearchLimits>,
        opts: SearchOptions,
        /// This search's own flags: a later `go` gets new ones, so a `stop` meant for this
        /// search can never be undone by the next `go`.
        ctl: Arc<SearchControl>,
        debug: bool,
        /// A move from the opening book: played without a search.
        book: Option<Move>,
        /// `BookLearning`: where the search reports its score.
        learn: Option<Box<book::ScoreSink>>,
        /// The tablebases and their options.
        syzygy: SyzygyConfig,
        /// What the `info` lines show and how strong the engine plays.
        play: PlayOptions,
    },
    Perft {
        pos: Box<Position>,
        depth: u32,
    },
    Resize(usize),
    /// `setoption name TTBounds`: a new, empty table that keeps this many bounds a position.
    TtBounds(TtBounds),
    /// `setoption name Threads`: the number of search threads.
    Threads(usize),
    Clear,
    /// `isready` with no search to answer for: answered once the jobs before it are done and
    /// the table of the current `Hash`, `Threads` and `TTBounds` is made, as Stockfish makes its
    /// table before `readyok` (the first `go` then does not pay for it on the clock).
    Ready,
    Quit,
}

/// Options of a `go` beyond the search's own: `UCI_ShowWDL`, `UCI_LimitStrength`, `UCI_Elo`.
#[derive(Clone, Copy, Debug, Default)]
struct PlayOptions {
    /// `UCI_ShowWDL`: add `wdl W D L` to every `info ... score` line.
    show_wdl: bool,
    /// `UCI_LimitStrength` on: the limits of `UCI_Elo`.
    strength: Option<StrengthLimit>,
    /// `MultiPV` as the user set it (the search may run more lines for the strength noise).
    shown_multipv: usize,
}

/// Formats search reports as UCI `info` lines.
struct UciReporter {
    out: Output,
    mode: CastlingMode,
    debug: bool,
    /// `UCI_ShowWDL`: the root's material for the WDL model; `None`: no `wdl` shown.
    wdl_material: Option<i32>,
}

impl Reporter for UciReporter {
    fn iteration(&mut self, info: &IterationInfo) {
        let wdl = self.wdl_material.map(|m| wdl::wdl(info.score, m));
        self.out.say(&format_info(info, self.mode, wdl));
    }

    fn current_move(&mut self, depth: u32, mv: Move, number: usize) {
        self.out.say(&format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            move_to_uci(mv, self.mode)
        ));
    }

    fn stats(&mut self, stats: &SearchStats) {
        if self.debug {
            self.out
                .say(&format!("info string stats {}", stats.summary()));
        }
    }
}

/// One `info` line for a search report, with `wdl W D L` after the score when `wdl` is given.
pub fn format_info(info: &IterationInfo, mode: CastlingMode, wdl: Option<Wdl>) -> String {
    let (mate, v) = uci_score(info.score);
    let score = if mate {
        format!("mate {v}")
    } else {
        format!("cp {v}")
    };
    let wdl = wdl.map_or(String::new(), |w| {
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    });
    let bound = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|&m| move_to_uci(m, mode)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score,
        bound,
        wdl,
        info.nodes,
        nps,
        info.hashfull,
        info.tbhits,
        info.time_ms,
        pv.join(" ")
    )
}

/// Runs jobs one after another (on the search thread, or inline when sandboxed).
struct Worker {
    /// The search threads and their shared table. Made on the first job that needs it when
    /// `None` (the sandbox: most fuzz inputs never search, and a table costs time to clear).
    pool: Option<ThreadPool>,
    /// Size of the table to make (MB).
    hash_mb: usize,
    /// Bounds per position of the table to make.
    tt_bounds: TtBounds,
    /// Search threads of the pool to make.
    threads: usize,
    /// Most search threads this worker may run.
    max_threads: usize,
    out: Output,
    /// Searches and perfts sent and not yet answered.
    pending: Arc<AtomicUsize>,
    /// Largest hash table this worker may allocate (MB).
    max_hash_mb: usize,
    /// Whether the pages of the table last made are still to be told (once per table).
    pages_untold: bool,
}

impl Worker {
    fn pool(&mut self) -> &mut ThreadPool {
        let (hash_mb, threads, out) = (self.hash_mb, self.threads, &self.out);
        let tt_bounds = self.tt_bounds;
        self.pool.get_or_insert_with(|| {
            let mut pool = ThreadPool::new(hash_mb);
            if let Err(e) = pool.set_tt_bounds(tt_bounds) {
                out.error(&e);
            }
            if let Err(e) = pool.set_threads(threads) {
                out.error(&e);
            }
            pool
        })
    }

    /// Says once per table what pages back it: `info string Hash N MB: transparent huge
    /// pages`, or `4 KiB pages (why)`.
    fn tell_pages(&mut self) {
        if let Some(p) = self.pool.as_ref().filter(|_| self.pages_untold) {
            let pages = p.tt().pages();
            self.out
                .say(&format!("info string Hash {} MB: {pages}", p.hash_mb()));
            self.pages_untold = false;
        }
    }

    /// Runs one job; false on `Quit`.
    fn run(&mut self, job: Job) -> bool {
        match job {
            Job::Go {
                pos,
                limits,
                opts,
                ctl,
                debug,
                book,
                learn,
                syzygy,
                play,
            } => {
                let mode = pos.castling_mode();
                let result = match book {
                    Some(m) => {
                        self.out
                            .say(&format!("info string book move {}", move_to_uci(m, mode)));
                        (Some(m), None)
                    }
                    None => {
                        if debug {
                            let tm = clock_manager(&limits, pos.turn(), opts.move_overhead_ms);
                            if let Some(b) = tm.bounds() {
                                self.out.say(&format!(
                                    "info string time soft {} hard {}",
                                    b.soft_ms, b.hard_ms
                                ));
                            }
                        }
                        let mut reporter = UciReporter {
                            out: self.out.clone(),
                            mode,
                            debug,
                            wdl_material: play.show_wdl.then(|| wdl::material(&pos)),
                        };
                        self.pool();
                        self.tell_pages();
                        let pool = self.pool();
                        pool.set_syzygy(&syzygy);
                        match play.strength {
                            // UCI_LimitStrength with noise: the move may be another line's.
                            Some(s) if s.has_noise() => {
                                let mut rec = LineRecorder::new(&mut reporter, play.shown_multipv);
                                let r = pool.search(&pos, &limits, &opts, &ctl, &mut rec);
                                learn.inspect(|l| l.record(r.score));
                                let lines = rec.lines();
                                match strength::choose(&lines, s.margin_cp, pos.key()) {
                                    Some(i) => {
                                        (lines[i].pv.first().copied(), lines[i].pv.get(1).copied())
                                    }
                                    None => (r.best, r.ponder),
                                }
                            }
                            _ => {
                                let r = pool.search(&pos, &limits, &opts, &ctl, &mut reporter);
                                learn.inspect(|l| l.record(r.score));
                                (r.best, r.ponder)
                            }
                        }
                    }
                };
                // In ponder and infinite mode `bestmove` waits for `stop` or `ponderhit`.
                while !ctl.stop.load(Ordering::Relaxed)
                    && (limits.infinite || ctl.pondering.load(Ordering::Relaxed))
                {
                    thread::sleep(Duration::from_millis(1));
                }
                // Over: from now on this search counts as stopped, so that a `go` sent as soon
                // as the GUI reads the `bestmove` below is not taken for one sent mid-search.
                ctl.stop.store(true, Ordering::SeqCst);
                let line = match result {
                    (None, _) => "bestmove (none)".to_string(),
                    (Some(b), Some(p)) => {
                        format!(
                            "bestmove {} ponder {}",
                            move_to_uci(b, mode),
                            move_to_uci(p, mode)
                        )
                    }
                    (Some(b), None) => format!("bestmove {}", move_to_uci(b, mode)),
                };
                // Not busy any more before the GUI can read the answer and send what follows.
                self.pending.fetch_sub(1, Ordering::SeqCst);
                self.out.say(&line);
            }
            Job::Perft { pos, depth } => {
                let mut p = *pos;
                let start = std::time::Instant::now();
                let divide = perft_divide(&mut p, depth);
                let mut total = 0u64;
                for (m, n) in &divide {
                    self.out.say(&format!("{m}: {n}"));
                    total = total.saturating_add(*n);
                }
                let ms = start.elapsed().as_millis() as u64;
                self.out.say("");
                self.out.say(&format!("Nodes searched: {total}"));
                self.pending.fetch_sub(1, Ordering::SeqCst);
                self.out.say(&format!(
                    "Time: {ms} ms ({} nps)",
                    total.saturating_mul(1000) / ms.max(1)
                ));
            }
            Job::Resize(mb) => {
                let mb = mb.min(self.max_hash_mb);
                if let Some(p) = self.pool.as_mut() {
                    if let Err(e) = p.resize_hash(mb) {
                        self.out.error(&format!("{e}; keeping {} MB", p.hash_mb()));
                    } else {
                        self.pages_untold = true;
                        self.tell_pages();
                    }
                } else {
                    self.hash_mb = mb;
                }
            }
            Job::TtBounds(bounds) => {
                if let Some(p) = self.pool.as_mut() {
                    let changed = p.tt_bounds() != bounds;
                    if let Err(e) = p.set_tt_bounds(bounds) {
                        let keep = p.tt_bounds().count();
                        self.out.error(&format!("{e}; keeping TTBounds {keep}"));
                    } else if changed {
                        // A new table: its pages are told with the next search.
                        self.pages_untold = true;
                    }
                } else {
                    self.tt_bounds = bounds;
                }
            }
            // Search threads: joined or started between searches (the pool is idle here).
            Job::Threads(n) => {
                self.threads = n.clamp(1, self.max_threads);
                if let Some(p) = self.pool.as_mut()
                    && let Err(e) = p.set_threads(self.threads)
                {
                    self.out.error(&e);
                }
            }
            Job::Clear => {
                if let Some(p) = self.pool.as_mut() {
                    p.new_game();
                }
            }
            Job::Ready => {
                self.pool();
                self.tell_pages();
                self.out.say("readyok");
            }
            Job::Quit => return false,
        }
        true
    }
}

/// The search thread: runs jobs until `Quit` or until the channel closes.
fn worker_thread(rx: Receiver<Job>, mut worker: Worker) {
    while let Ok(job) = rx.recv() {
        if !worker.run(job) {
            break;
        }
    }
}

/// Where jobs run.
enum Backend {
    /// On the search thread, so that stdin is read during a search.
    Thread {
        tx: Sender<Job>,
        handle: Option<thread::JoinHandle<()>>,
    },
    /// At once on the caller's thread (sandbox: every search is small and never waits).
    Inline(Box<Worker>),
}

/// UCI state kept by the main thread.
pub struct Uci {
    pos: Position,
    chess960: bool,
    multipv: usize,
    move_overhead: u64,
    hash_mb: usize,
    ponder: bool,
    features: Features,
    features_spec: String,
    algorithm: Algorithm,
    /// `UseNNUE`: evaluate with `net` (else the hand-crafted evaluation).
    use_nnue: bool,
    /// The network `EvalFile` names (the embedded one by default); `None` only if this build
    /// embeds no usable network.
    net: Option<Arc<Network>>,
    /// `EvalFile` as last set successfully.
    eval_file: String,
    debug: bool,
    /// The opening book and its options (`OwnBook`, `BookFile`, `BookBestMove`, `BookDepth`).
    book: BookPlayer,
    /// The tablebases and their options (`SyzygyPath`, `SyzygyProbeDepth`,
    /// `SyzygyProbeLimit`, `Syzygy50MoveRule`).
    syzygy: SyzygyConfig,
    /// `UCI_ShowWDL`.
    show_wdl: bool,
    /// `UCI_LimitStrength`.
    limit_strength: bool,
    /// `UCI_Elo` (used when `limit_strength`).
    uci_elo: i32,
    /// A level `NULLWINDOW_STRENGTH_LEVEL` selected at start-up, used instead of `uci_elo`'s
    /// (the calibration's matches; not in the sandbox).
    strength_level: Option<i32>,
    /// Flags of the searches sent and not yet finished (the worker holds the other `Arc`).
    searches: Vec<Arc<SearchControl>>,
    /// Searches and perfts sent and not yet answered.
    pending: Arc<AtomicUsize>,
    out: Output,
    /// Sandboxed: searches and perfts are cut short and never wait for `stop`.
    sandbox: bool,
    backend: Backend,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// A handler that writes to stdout and searches on its own thread (what `main` runs).
    pub fn new() -> Uci {
        let out = Output::Stdout;
        let pending = Arc::new(AtomicUsize::new(0));
        let hash_mb = HASH.0 as usize;
        let worker = Worker {
            pool: Some(ThreadPool::new(hash_mb)),
            hash_mb,
            tt_bounds: TtBounds::One,
            threads: THREADS.0 as usize,
            max_threads: THREADS.2 as usize,
            out: out.clone(),
            pending: pending.clone(),
            max_hash_mb: MAX_HASH_MB,
            pages_untold: true,
        };
        let (tx, rx) = unbounded();
        let handle = thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || worker_thread(rx, worker))
            .ok();
        if handle.is_none() {
            out.error("cannot start the search thread");
        }
        Uci::with_backend(out, pending, hash_mb, false, Backend::Thread { tx, handle })
    }

    /// A handler for arbitrary input (fuzzing, tests): no threads, output to `out`, every
    /// `go` a search of at most [`SANDBOX_NODES`] nodes that answers at once (`infinite` and
    /// `ponder` are ignored), `go perft` cut to depth [`SANDBOX_PERFT_DEPTH`], the hash table
    /// kept at [`SANDBOX_HASH_MB`] MB, every search on [`SANDBOX_THREADS`] thread (`Threads` is
    /// accepted and capped) and `bench` refused. Everything else is as in [`Uci::new`],
    /// including every error message.
    pub fn sandboxed(out: Output) -> Uci {
        let pending = Arc::new(AtomicUsize::new(0));
        let worker = Worker {
            pool: None,
            hash_mb: SANDBOX_HASH_MB,
            tt_bounds: TtBounds::One,
            threads: SANDBOX_THREADS,
            max_threads: SANDBOX_THREADS,
            out: out.clone(),
            pending: pending.clone(),
            max_hash_mb: SANDBOX_HASH_MB,
            pages_untold: true,
        };
        let backend = Backend::Inline(Box::new(worker));
        Uci::with_backend(out, pending, SANDBOX_HASH_MB, true, backend)
    }

    fn with_backend(
        out: Output,
        pending: Arc<AtomicUsize>,
        hash_mb: usize,
        sandbox: bool,
        backend: Backend,
    ) -> Uci {
        let strength_level = if sandbox {
            None
        } else {
            strength::level_override().unwrap_or_else(|e| {
                out.error(&e);
                None
            })
        };
        Uci {
            pos: Position::startpos(),
            chess960: false,
            multipv: MULTIPV.0 as usize,
            move_overhead: MOVE_OVERHEAD.0 as u64,
            hash_mb,
            ponder: false,
            features: Features::default(),
            features_spec: "default".to_string(),
            algorithm: Algorithm::AspirationPvs,
            use_nnue: nnue::USE_BY_DEFAULT,
            net: nnue::embedded_net(),
            eval_file: nnue::EMBEDDED_NET_NAME.to_string(),
            debug: false,
            // The sandbox (fuzzing) never writes a learn file.
            book: BookPlayer::new(!sandbox),
            syzygy: SyzygyConfig::default(),
            show_wdl: false,
            limit_strength: false,
            uci_elo: UCI_ELO.0 as i32,
            strength_level,
            searches: Vec::new(),
            pending,
            out,
            sandbox,
            backend,
        }
    }

    /// Reads commands from stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // Input that cannot be read any more acts like its end.
                    self.error(&format!("cannot read input: {e}; quitting"));
                    break;
                }
            }
            let line = String::from_utf8_lossy(&buf);
            if !self.command(&line) {
                break;
            }
        }
        self.shutdown();
    }

    /// Stops any search and joins the search thread; `BookLearning` learns from the game.
    pub fn shutdown(&mut self) {
        self.stop_all();
        self.send(Job::Quit);
        if let Backend::Thread { handle, .. } = &mut self.backend
            && let Some(h) = handle.take()
        {
            let _ = h.join();
        }
        self.book.end_game();
        self.book_notes();
    }

    /// Says what the book has to say (`BookLearning`'s learn file read, refused, written).
    pub(crate) fn book_notes(&mut self) {
        for line in self.book.take_notes() {
            self.say(&line);
        }
    }

    fn say(&self, line: &str) {
        self.out.say(line);
    }

    fn error(&self, msg: &str) {
        self.out.error(msg);
    }

    /// Hands a job to the worker.
    fn send(&mut self, job: Job) {
        match &mut self.backend {
            Backend::Thread { tx, .. } => {
                if tx.send(job).is_err() {
                    self.out.error("the search thread is gone");
                }
            }
            Backend::Inline(worker) => {
                worker.run(job);
            }
        }
    }

    /// Ends every running or queued search (each answers `bestmove`).
    fn stop_all(&mut self) {
        for c in &self.searches {
            c.stop.store(true, Ordering::SeqCst);
            c.pondering.store(false, Ordering::SeqCst);
        }
        self.searches.retain(|c| Arc::strong_count(c) > 1);
    }

    /// Handles one line. Returns false on `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // UCI: skip unknown tokens before a known command ("joho debug on" is "debug on").
        let Some(start) = tokens.iter().position(|t| is_command(t)) else {
            if !tokens.is_empty() {
                self.error(&format!("unknown command '{}'", tokens.join(" ")));
            }
            return true;
        };
        if start > 0 {
            self.error(&format!(
                "ignoring unknown tokens '{}'",
                tokens[..start].join(" ")
            ));
        }
        let args = &tokens[start + 1..];
        match tokens[start] {
            "uci" => self.cmd_uci(),
            "isready" => self.cmd_isready(),
            "debug" => match args.first().copied() {
                Some("on") => self.debug = true,
                Some("off") => self.debug = false,
                _ => self.error("debug takes 'on' or 'off'"),
            },
            "register" => {}
            // During a search the clear is queued behind it, as Stockfish waits for the search
            // to end: an adapter that sends `ucinewgame` before `stop` still gets a new game.
            "ucinewgame" => {
                self.send(Job::Clear);
                self.book.end_game();
                self.book_notes();
            }
            "setoption" => self.cmd_setoption(args),
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "stop" => self.stop_all(),
            "ponderhit" => {
                for c in &self.searches {
                    c.pondering.store(false, Ordering::SeqCst);
                }
            }
            "quit" => return false,
            "d" => self.say(&self.pos.pretty()),
            "eval" => self.cmd_eval(),
            "bench" => {
                if self.searching() {
                    self.error("bench during a search is ignored");
                } else if self.sandbox {
                    self.error("bench is not run in a sandbox");
                } else {
                    match args.first().map(|d| d.parse::<u32>()) {
                        None => bench::run(bench::DEFAULT_DEPTH, self.eval_net()),
                        Some(Ok(d)) if (1..64).contains(&d) => bench::run(d, self.eval_net()),
                        Some(_) => self.error("bench takes a depth from 1 to 63"),
                    }
                }
            }
            "perft" => self.cmd_go(&tokens[start..]),
            "spsa" => self.cmd_spsa(),
            _ => {}
        }
        true
    }

    fn searching(&self) -> bool {
        self.pending.load(Ordering::SeqCst) > 0
    }

    /// Whether work nobody asked to stop is in flight: a search running or queued without
    /// `stop` (a finished one marks itself stopped), or a perft (which cannot be stopped).
    /// Searches that were stopped and are still winding down do not count: what is sent after
    /// them waits in the queue for their `bestmove`, which is what the GUI asked for.
    fn busy_unstopped(&mut self) -> bool {
        self.searches.retain(|c| Arc::strong_count(c) > 1);
        let stopped = self
            .searches
            .iter()
            .filter(|c| c.stop.load(Ordering::SeqCst))
            .count();
        stopped < self.searches.len() || self.pending.load(Ordering::SeqCst) > stopped
    }

    /// `isready`: at once while a search nobody stopped runs or a perft is in flight (the GUI
    /// asks whether the engine still listens); otherwise after the jobs queued before it (a
    /// stopped search's `bestmove`, a new `Hash` or `Threads`) and with the table made.
    fn cmd_isready(&mut self) {
        if self.sandbox || self.busy_unstopped() {
            self.say("readyok");
        } else {
            self.send(Job::Ready);
        }
    }

    fn cmd_uci(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        for o in options::OPTIONS {
            self.say(&o.uci_line());
        }
        // The search parameters, in a tune build only (src/search/params.rs).
        if params::TUNABLE {
            for p in params::PARAMS {
                self.say(&format!(
                    "option name {} type spin default {} min {} max {}",
                    p.uci_name(),
                    p.default,
                    p.min,
                    p.max
                ));
            }
        }
        self.say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <name...> [value <value...>]
        if args.first() != Some(&"name") {
            self.error("setoption needs 'name <option> [value <value>]'");
            return;
        }
        let value_at = args.iter().position(|&t| t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        if let Some(o) = options::find(&name) {
            o.set(self, value.as_deref());
            return;
        }
        #[cfg(feature = "tune")]
        if let Some(p) = params::find(&name) {
            self.set_search_param(p, value.as_deref());
            return;
        }
        self.error(&format!("unknown option '{name}'"));
    }

    /// `setoption name NAME value V` for a search parameter (tune build): an integer out of
    /// range is clamped into it, anything else is refused; both say `info string error`.
    #[cfg(feature = "tune")]
    fn set_search_param(&mut self, p: &params::Param, value: Option<&str>) {
        let name = p.uci_name();
        let Some(v) = value.map(str::trim) else {
            self.error(&format!("option {name} needs a value"));
            return;
        };
        let range = format!("{name} must be an integer from {} to {}", p.min, p.max);
        let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            self.error(&format!("{range}, got '{v}'; keeping {}", p.value()));
            return;
        }
        // Too many digits for an i64 is out of range on the side of its sign.
        let n = v.parse::<i64>().unwrap_or(if v.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        });
        let stored = p.set(n);
        if i64::from(stored) != n {
            self.error(&format!("{range}, got '{v}'; using {stored}"));
        }
    }

    /// `spsa`: the OpenBench SPSA input of the search parameters (tune build).
    fn cmd_spsa(&self) {
        if params::TUNABLE {
            self.say(params::spsa_input().trim_end());
        } else {
            self.error(&format!("spsa: {}", params::NOT_TUNABLE));
        }
    }

    /// `setoption name EvalFile value PATH`: loads a network file; the embedded network's name
    /// (or an empty value, or `<embedded>`) goes back to the embedded one. A file that cannot
    /// be read or is not a valid network is refused and the current network stays.
    fn load_eval_file(&mut self, path: &str) {
        if path.is_empty() || path == "<embedded>" || path == nnue::EMBEDDED_NET_NAME {
            match nnue::embedded_net() {
                Some(n) => {
                    self.net = Some(n);
                    self.eval_file = nnue::EMBEDDED_NET_NAME.to_string();
                }
                None => self.error("EvalFile: this build embeds no usable network"),
            }
            return;
        }
        let loaded = Network::read_file(path);
        match loaded {
            Ok(n) => {
                self.say(&format!(
                    "info string EvalFile {path} loaded: hidden size {}{}",
                    n.hidden,
                    n.shape_note()
                ));
                self.net = Some(Arc::new(n));
                self.eval_file = path.to_string();
            }
            Err(e) => self.error(&format!("EvalFile: {e}; keeping {}", self.eval_file)),
        }
    }

    /// The network searches use (`None`: the hand-crafted evaluation).
    fn eval_net(&self) -> Option<Arc<Network>> {
        if self.use_nnue {
            self.net.clone()
        } else {
            None
        }
    }

    /// `eval`: the network's and the hand-crafted evaluation of the current position.
    fn cmd_eval(&self) {
        let classical = evaluate(&self.pos);
        match &self.net {
            Some(n) => {
                let v = if self.pos.is_insufficient_material() {
                    0
                } else {
                    n.evaluate_board(self.pos.board(), self.pos.turn())
                };
                self.say(&format!(
                    "NNUE evaluation: {v} cp (side to move; {}, hidden {}{}, {}){}",
                    self.eval_file,
                    n.hidden,
                    n.shape_note(),
                    nnue::simd_name(),
                    if self.use_nnue {
                        ""
                    } else {
                        " [UseNNUE false]"
                    }
                ));
            }
            None => self.say("NNUE evaluation: none (no network)"),
        }
        self.say(&format!(
            "Classical evaluation: {classical} cp (side to move){}",
            if self.use_nnue { "" } else { " [in use]" }
        ));
    }

    /// `SyzygyPath`: loads the tables of its folders in place of the old ones. Each folder or
    /// file that cannot be used is reported; no table at all turns tablebases off.
    fn set_syzygy_path(&mut self, list: &str) {
        let mut tables = Tablebases::new();
        let report = tables.add_directories(list);
        for problem in &report.problems {
            self.error(&format!("SyzygyPath: {problem}"));
        }
        if tables.is_empty() {
            self.syzygy.tables = None;
            if !crate::tb::split_path_list(list).is_empty() {
                self.error(&format!(
                    "SyzygyPath '{}': no tablebases found; tablebases off",
                    list.trim()
                ));
            }
            return;
        }
        self.say(&format!(
            "info string found {} tablebases (up to {} pieces): {} WDL and {} DTZ files",
            report.tables(),
            report.max_pieces,
            report.wdl,
            report.dtz
        ));
        self.syzygy.tables = Some(Arc::new(tables));
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => {
                match Position::from_fen(START_FEN, self.chess960) {
                    Ok(p) => p,
                    Err(e) => {
                        self.error(&e.to_string());
                        return;
                    }
                }
            }
            Some(&"fen") if setup.len() > 1 => {
                match Position::from_fen(&setup[1..].join(" "), self.chess960) {
                    Ok(p) => p,
                    Err(e) => {
                        self.error(&e.to_string());
                        return;
                    }
                }
            }
            _ => {
                self.error(&format!(
                    "position needs 'startpos' or 'fen <fen>', got '{}'",
                    args.join(" ")
                ));
                return;
            }
        };
        let start = self.book.learning().then(|| pos.clone());
        let mut played = Vec::new();
        if let Some(i) = moves_at {
            for (n, text) in args[i + 1..].iter().enumerate() {
                match pos.parse_uci_move(text) {
                    Ok(m) => {
                        pos.make(m);
                        pos.clear_undo();
                        played.push(m);
                    }
                    Err(e) => {
                        self.error(&format!(
                            "{e} (move {} of the list); position unchanged",
                            n + 1
                        ));
                        return;
                    }
                }
            }
        }
        self.pos = pos;
        if let Some(start) = start {
            self.book.see_game(&start, &played);
            self.book_notes();
        }
    }

    fn cmd_go(&mut self, args: &[&str]) {
        let Ok(mut limits) = parse_go(args, &self.pos, &self.out) else {
            return;
        };
        // UCI_LimitStrength: the node budget and depth cap of UCI_Elo narrow the limits.
        let strength = (self.limit_strength && limits.perft.is_none()).then(|| {
            let s = match self.strength_level {
                Some(level) => StrengthLimit::at_level(level),
                None => StrengthLimit::from_elo(self.uci_elo),
            };
            // The depth cap and the candidate lines of this search, rounded at random by the
            // position (as the noise).
            let cap = s.apply(&mut limits, self.pos.key());
            let multipv = s.search_multipv(self.multipv, self.pos.key());
            if self.debug {
                // The expected candidate lines only where there is noise to choose among them.
                let lines = if s.has_noise() {
                    format!("{multipv} ({:.2})", s.lines)
                } else {
                    multipv.to_string()
                };
                self.say(&format!(
                    "info string strength elo {} level {} nodes {} depth {cap} ({:.2}) margin {} lines {lines}",
                    s.elo, s.level, s.nodes, s.depth, s.margin_cp
                ));
            }
            (s, multipv)
        });
        let multipv = strength.map_or(self.multipv, |(_, m)| m);
        let strength = strength.map(|(s, _)| s);
        if self.sandbox {
            limits.infinite = false;
            limits.ponder = false;
            limits.nodes = Some(limits.nodes.map_or(SANDBOX_NODES, |n| n.min(SANDBOX_NODES)));
            limits.perft = limits.perft.map(|d| d.min(SANDBOX_PERFT_DEPTH));
        }
        if limits.perft.is_none() && self.busy_unstopped() {
            // A GUI should not send this; queue it behind the running search. (After `stop`
            // the stopped search may still be winding down: the new one silently waits for
            // its `bestmove`.)
            self.error("go while searching: queued until the current search ends");
        }
        self.pending.fetch_add(1, Ordering::SeqCst);
        if let Some(depth) = limits.perft {
            self.send(Job::Perft {
                pos: Box::new(self.pos.clone()),
                depth,
            });
            return;
        }
        let ctl = Arc::new(SearchControl::default());
        ctl.pondering.store(limits.ponder, Ordering::SeqCst);
        self.searches.retain(|c| Arc::strong_count(c) > 1);
        self.searches.push(ctl.clone());
        // A book move is played at once (after `ponderhit` when pondering); `go infinite` and
        // `go mate` ask for a search.
        let book = if limits.infinite || limits.mate.is_some() {
            None
        } else {
            self.book
                .pick(&self.pos, &limits.searchmoves, &mut rand::rng())
        };
        let learn = book
            .is_none()
            .then(|| self.book.score_sink(&self.pos))
            .flatten()
            .map(Box::new);
        let opts = SearchOptions {
            multipv,
            move_overhead_ms: self.move_overhead,
            features: self.features,
            algorithm: self.algorithm,
            net: self.eval_net(),
            etc_depth: None,
        };
        self.send(Job::Go {
            pos: Box::new(self.pos.clone()),
            limits: Box::new(limits),
            opts,
            ctl,
            debug: self.debug,
            book,
            learn,
            syzygy: self.syzygy.clone(),
            play: PlayOptions {
                show_wdl: self.show_wdl,
                strength,
                shown_multipv: self.multipv,
            },
        });
    }
}

fn is_command(t: &str) -> bool {
    matches!(
        t,
        "uci"
            | "isready"
            | "debug"
            | "register"
            | "ucinewgame"
            | "setoption"
            | "position"
            | "go"
            | "stop"
            | "ponderhit"
            | "quit"
            | "d"
            | "eval"
            | "bench"
            | "perft"
            | "spsa"
    )
}

const GO_KEYWORDS: [&str; 14] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "multipv",
];

/// Parses a number for `go`: negative clock values count as 0, huge ones saturate, anything
/// else is reported and ignored.
fn go_number(key: &str, v: Option<&&str>, out: &Output) -> Option<u64> {
    let Some(v) = v else {
        out.error(&format!("go {key} needs a value"));
        return None;
    };
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // An integer of any length: negative counts as 0, too large saturates.
        return Some(if v.starts_with('-') {
            0
        } else {
            digits.parse::<u64>().unwrap_or(u64::MAX)
        });
    }
    out.error(&format!("go {key}: '{v}' is not a number; ignored"));
    None
}

/// Parses the arguments of `go` (and `perft N`).
fn parse_go(args: &[&str], pos: &Position, out: &Output) -> Result<SearchLimits, ()> {
    let mut l = SearchLimits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let val = args.get(i + 1);
        let mut step = 2;
        match key {
            "wtime" => l.clock.wtime = go_number(key, val, out).or(l.clock.wtime),
            "btime" => l.clock.btime = go_number(key, val, out).or(l.clock.btime),
            "winc" => l.clock.winc = go_number(key, val, out).unwrap_or(l.clock.winc),
            "binc" => l.clock.binc = go_number(key, val, out).unwrap_or(l.clock.binc),
            "movestogo" => {
                if let Some(n) = go_number(key, val, out) {
                    l.clock.movestogo = if n == 0 {
                        None
                    } else {
                        Some(n.min(1000) as u32)
                    };
                }
            }
            "depth" => {
                if let Some(n) = go_number(key, val, out) {
                    l.depth = Some(n.clamp(1, 1000) as u32);
                }
            }
            "nodes" => {
                if let Some(n) = go_number(key, val, out) {
                    l.nodes = Some(n.max(1));
                }
            }
            "mate" => {
                if let Some(n) = go_number(key, val, out) {
                    l.mate = Some(n.clamp(1, 1000) as u32);
                }
            }
            "movetime" => l.movetime = go_number(key, val, out).or(l.movetime),
            "perft" => match go_number(key, val, out) {
                Some(n) if (1..=20).contains(&n) => l.perft = Some(n as u32),
                _ => {
                    out.error("perft needs a depth from 1 to 20");
                    return Err(());
                }
            },
            "infinite" => {
                l.infinite = true;
                step = 1;
            }
            "ponder" => {
                l.ponder = true;
                step = 1;
            }
            "searchmoves" => {
                step = 1;
                while let Some(t) = args.get(i + step) {
                    if GO_KEYWORDS.contains(t) {
                        break;
                    }
                    match pos.parse_uci_move(t) {
                        Ok(m) => l.searchmoves.push(m),
                        Err(e) => out.error(&format!("searchmoves: {e}; ignored")),
                    }
                    step += 1;
                }
            }
            other => {
                out.error(&format!("go: unknown parameter '{other}' ignored"));
                step = 1;
            }
        }
        i += step;
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sandbox() -> (Uci, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        (Uci::sandboxed(Output::Capture(lines.clone())), lines)
    }

    fn take(lines: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
        std::mem::take(&mut *lines.lock().unwrap())
    }

    #[test]
    fn go_numbers_clamp_and_saturate() {
        let out = Output::Discard;
        let n = |v: &str| go_number("x", Some(&v), &out);
        assert_eq!(n("42"), Some(42));
        assert_eq!(n("+7"), Some(7));
        assert_eq!(n("-5"), Some(0));
        assert_eq!(n("-99999999999999999999999999999999999999999"), Some(0));
        assert_eq!(
            n("99999999999999999999999999999999999999999"),
            Some(u64::MAX)
        );
        for bad in ["", "-", "+", "1e9", "12ms", "--1", "0x10", "١٢"] {
            assert_eq!(n(bad), None, "{bad}");
        }
        assert_eq!(go_number("x", None, &out), None);
    }

    #[test]
    fn sandboxed_searches_answer_at_once() {
        let (mut uci, lines) = sandbox();
        for cmd in [
            "go infinite",
            "go ponder",
            "go depth 60",
            "go mate 30",
            "go",
        ] {
            assert!(uci.command(cmd));
            let out = take(&lines);
            assert!(
                out.last().is_some_and(|l| l.starts_with("bestmove ")),
                "{cmd}: {out:?}"
            );
            for l in &out {
                if let Some(n) = l.split(" nodes ").nth(1) {
                    let n: u64 = n.split(' ').next().unwrap().parse().unwrap();
                    assert!(n <= SANDBOX_NODES, "{l}");
                }
            }
        }
        uci.command("go perft 6");
        let out = take(&lines);
        assert!(out.iter().any(|l| l == "Nodes searched: 400"), "{out:?}");
        uci.command("bench");
        assert!(take(&lines).iter().any(|l| l.contains("error")));
        assert!(!uci.command("quit"));
        uci.shutdown();
    }

    #[test]
    fn stop_and_ponderhit_without_a_search_do_nothing() {
        let (mut uci, lines) = sandbox();
        uci.command("stop");
        uci.command("ponderhit");
        assert!(take(&lines).is_empty());
        uci.command("go depth 1");
        assert!(take(&lines).iter().any(|l| l.starts_with("bestmove")));
    }

    #[test]
    fn five_field_fen_is_refused() {
        let (mut uci, lines) = sandbox();
        uci.command("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0");
        assert!(take(&lines)[0].starts_with("info string error: malformed FEN"));
        uci.command("position fen 4k3/8/8/8/8/8/8/4K3 w - -");
        assert!(take(&lines).is_empty());
    }
}
