//! The UCI protocol: the main thread reads stdin the whole time, a worker thread searches.
//!
//! All text parsing and printing of the engine lives here. Bad input never ends the engine: it
//! answers `info string error: ...`, keeps the last valid state and reads on.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::bench;
use crate::eval::evaluate;
use crate::limits::SearchLimits;
use crate::position::{CastlingMode, Position, START_FEN, move_to_uci, perft_divide};
use crate::search::{
    Algorithm, Features, IterationInfo, Reporter, ScoreBound, SearchControl, SearchOptions,
    SearchStats, Searcher, uci_score,
};
use crate::tt::MAX_HASH_MB;

/// Engine name sent on `uci`.
pub const ENGINE_NAME: &str = concat!("Nullwindow ", env!("CARGO_PKG_VERSION"));
/// Author line sent on `uci`.
pub const ENGINE_AUTHOR: &str = "the Nullwindow developers";

/// Default and range of every spin option: (name, default, min, max).
const HASH: (&str, i64, i64, i64) = ("Hash", 16, 1, MAX_HASH_MB as i64);
const THREADS: (&str, i64, i64, i64) = ("Threads", 1, 1, 1024);
const MULTIPV: (&str, i64, i64, i64) = ("MultiPV", 1, 1, 256);
const MOVE_OVERHEAD: (&str, i64, i64, i64) = ("Move Overhead", 30, 0, 5000);

/// Messages from the UCI thread to the search thread.
enum Job {
    Go {
        pos: Box<Position>,
        limits: Box<SearchLimits>,
        opts: SearchOptions,
        debug: bool,
    },
    Perft {
        pos: Box<Position>,
        depth: u32,
    },
    Resize(usize),
    Clear,
    Quit,
}

/// Prints one line to stdout at once (stdout is line-buffered and locked per call).
fn say(line: &str) {
    let out = std::io::stdout();
    let mut lock = out.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

fn error(msg: &str) {
    say(&format!("info string error: {msg}"));
}

/// Formats search reports as UCI `info` lines.
struct UciReporter {
    mode: CastlingMode,
    debug: bool,
}

impl Reporter for UciReporter {
    fn iteration(&mut self, info: &IterationInfo) {
        say(&format_info(info, self.mode));
    }

    fn stats(&mut self, stats: &SearchStats) {
        if self.debug {
            say(&format!("info string stats {}", stats.summary()));
        }
    }
}

/// One `info` line for a search report.
pub fn format_info(info: &IterationInfo, mode: CastlingMode) -> String {
    let (mate, v) = uci_score(info.score);
    let score = if mate {
        format!("mate {v}")
    } else {
        format!("cp {v}")
    };
    let bound = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|&m| move_to_uci(m, mode)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score,
        bound,
        info.nodes,
        nps,
        info.hashfull,
        info.time_ms,
        pv.join(" ")
    )
}

/// The search thread: runs jobs one after another.
fn worker(rx: Receiver<Job>, ctl: Arc<SearchControl>, busy: Arc<AtomicBool>, hash_mb: usize) {
    let mut searcher = Searcher::new(hash_mb);
    while let Ok(job) = rx.recv() {
        match job {
            Job::Go {
                pos,
                limits,
                opts,
                debug,
            } => {
                let mut reporter = UciReporter {
                    mode: pos.castling_mode(),
                    debug,
                };
                let result = searcher.search(&pos, &limits, &opts, &ctl, &mut reporter);
                // In ponder and infinite mode `bestmove` waits for `stop` or `ponderhit`.
                while !ctl.stop.load(Ordering::Relaxed)
                    && (limits.infinite || ctl.pondering.load(Ordering::Relaxed))
                {
                    thread::sleep(Duration::from_millis(1));
                }
                let mode = pos.castling_mode();
                let line = match (result.best, result.ponder) {
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
                say(&line);
                busy.store(false, Ordering::SeqCst);
            }
            Job::Perft { pos, depth } => {
                let mut p = *pos;
                let start = std::time::Instant::now();
                let divide = perft_divide(&mut p, depth);
                let mut total = 0;
                for (m, n) in &divide {
                    say(&format!("{m}: {n}"));
                    total += n;
                }
                let ms = start.elapsed().as_millis() as u64;
                say("");
                say(&format!("Nodes searched: {total}"));
                say(&format!("Time: {ms} ms ({} nps)", total * 1000 / ms.max(1)));
                busy.store(false, Ordering::SeqCst);
            }
            Job::Resize(mb) => {
                if let Err(e) = searcher.tt.resize(mb) {
                    error(&format!("{e}; keeping {} MB", searcher.tt.size_mb()));
                }
            }
            Job::Clear => searcher.new_game(),
            Job::Quit => break,
        }
    }
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
    debug: bool,
    ctl: Arc<SearchControl>,
    busy: Arc<AtomicBool>,
    tx: Sender<Job>,
    worker: Option<thread::JoinHandle<()>>,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// Starts the search thread.
    pub fn new() -> Uci {
        let (tx, rx) = unbounded();
        let ctl = Arc::new(SearchControl::default());
        let busy = Arc::new(AtomicBool::new(false));
        let hash_mb = HASH.1 as usize;
        let (c, b) = (ctl.clone(), busy.clone());
        let worker = thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || worker(rx, c, b, hash_mb))
            .ok();
        Uci {
            pos: Position::startpos(),
            chess960: false,
            multipv: MULTIPV.1 as usize,
            move_overhead: MOVE_OVERHEAD.1 as u64,
            hash_mb,
            ponder: false,
            features: Features::all(),
            features_spec: "all".to_string(),
            algorithm: Algorithm::Pvs,
            debug: false,
            ctl,
            busy,
            tx,
            worker,
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
                Err(e) => {
                    error(&format!("cannot read input: {e}"));
                    continue;
                }
            }
            let line = String::from_utf8_lossy(&buf);
            if !self.command(&line) {
                break;
            }
        }
        self.shutdown();
    }

    /// Stops any search and joins the search thread.
    pub fn shutdown(&mut self) {
        self.ctl.stop.store(true, Ordering::SeqCst);
        self.ctl.pondering.store(false, Ordering::SeqCst);
        let _ = self.tx.send(Job::Quit);
        if let Some(h) = self.worker.take() {
            let _ = h.join();
        }
    }

    /// Handles one line. Returns false on `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // UCI: skip unknown tokens before a known command ("joho debug on" is "debug on").
        let Some(start) = tokens.iter().position(|t| is_command(t)) else {
            if !tokens.is_empty() {
                error(&format!("unknown command '{}'", tokens.join(" ")));
            }
            return true;
        };
        if start > 0 {
            error(&format!(
                "ignoring unknown tokens '{}'",
                tokens[..start].join(" ")
            ));
        }
        let args = &tokens[start + 1..];
        match tokens[start] {
            "uci" => self.cmd_uci(),
            "isready" => say("readyok"),
            "debug" => match args.first().copied() {
                Some("on") => self.debug = true,
                Some("off") => self.debug = false,
                _ => error("debug takes 'on' or 'off'"),
            },
            "register" => {}
            "ucinewgame" => {
                if self.searching() {
                    error("ucinewgame during a search is ignored");
                } else {
                    let _ = self.tx.send(Job::Clear);
                }
            }
            "setoption" => self.cmd_setoption(args),
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "stop" => {
                self.ctl.stop.store(true, Ordering::SeqCst);
                self.ctl.pondering.store(false, Ordering::SeqCst);
            }
            "ponderhit" => self.ctl.pondering.store(false, Ordering::SeqCst),
            "quit" => return false,
            "d" => say(&self.pos.pretty()),
            "eval" => say(&format!(
                "Static evaluation: {} cp (side to move)",
                evaluate(&self.pos)
            )),
            "bench" => {
                if self.searching() {
                    error("bench during a search is ignored");
                } else {
                    match args.first().map(|d| d.parse::<u32>()) {
                        None => bench::run(bench::DEFAULT_DEPTH),
                        Some(Ok(d)) if (1..64).contains(&d) => bench::run(d),
                        Some(_) => error("bench takes a depth from 1 to 63"),
                    }
                }
            }
            "perft" => self.cmd_go(&tokens[start..]),
            _ => {}
        }
        true
    }

    fn searching(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    fn cmd_uci(&self) {
        say(&format!("id name {ENGINE_NAME}"));
        say(&format!("id author {ENGINE_AUTHOR}"));
        for (name, def, min, max) in [HASH, THREADS, MULTIPV, MOVE_OVERHEAD] {
            say(&format!(
                "option name {name} type spin default {def} min {min} max {max}"
            ));
        }
        say("option name Clear Hash type button");
        say("option name Ponder type check default false");
        say("option name UCI_Chess960 type check default false");
        let algos: Vec<String> = Algorithm::ALL
            .iter()
            .map(|a| format!(" var {}", a.name()))
            .collect();
        say(&format!(
            "option name SearchAlgorithm type combo default {}{}",
            Algorithm::Pvs.name(),
            algos.concat()
        ));
        say("option name SearchFeatures type string default all");
        say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <name...> [value <value...>]
        if args.first() != Some(&"name") {
            error("setoption needs 'name <option> [value <value>]'");
            return;
        }
        let value_at = args.iter().position(|&t| t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let lname = name.to_ascii_lowercase();
        let spin = |opt: (&str, i64, i64, i64)| -> Option<i64> {
            let Some(v) = value.as_deref() else {
                error(&format!("option {} needs a value", opt.0));
                return None;
            };
            match v.trim().parse::<i64>() {
                Ok(n) if (opt.2..=opt.3).contains(&n) => Some(n),
                _ => {
                    error(&format!(
                        "{} must be an integer from {} to {}, got '{v}'",
                        opt.0, opt.2, opt.3
                    ));
                    None
                }
            }
        };
        let check = |opt: &str| -> Option<bool> {
            match value.as_deref().map(|v| v.trim().to_ascii_lowercase()) {
                Some(v) if v == "true" => Some(true),
                Some(v) if v == "false" => Some(false),
                other => {
                    error(&format!(
                        "{opt} must be true or false, got '{}'",
                        other.unwrap_or_default()
                    ));
                    None
                }
            }
        };
        match lname.as_str() {
            "hash" => {
                if let Some(n) = spin(HASH) {
                    if self.searching() {
                        error("Hash cannot change during a search");
                    } else {
                        self.hash_mb = n as usize;
                        let _ = self.tx.send(Job::Resize(self.hash_mb));
                    }
                }
            }
            "threads" => {
                if let Some(n) = spin(THREADS)
                    && n > 1
                {
                    say("info string Threads accepted; this version searches with 1 thread");
                }
            }
            "multipv" => {
                if let Some(n) = spin(MULTIPV) {
                    self.multipv = n as usize;
                }
            }
            "move overhead" => {
                if let Some(n) = spin(MOVE_OVERHEAD) {
                    self.move_overhead = n as u64;
                }
            }
            "clear hash" => {
                if self.searching() {
                    error("Clear Hash during a search is ignored");
                } else {
                    let _ = self.tx.send(Job::Clear);
                }
            }
            "ponder" => {
                if let Some(b) = check("Ponder") {
                    self.ponder = b;
                }
            }
            "uci_chess960" => {
                if let Some(b) = check("UCI_Chess960") {
                    self.chess960 = b;
                    self.pos.set_castling_mode(if b {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::Standard
                    });
                }
            }
            "searchalgorithm" => match Algorithm::from_name(value.as_deref().unwrap_or("")) {
                Some(a) => self.algorithm = a,
                None => error(&format!(
                    "SearchAlgorithm must be one of {}; keeping {}",
                    Algorithm::ALL.map(|a| a.name()).join(" "),
                    self.algorithm.name()
                )),
            },
            "searchfeatures" => {
                let spec = value.unwrap_or_default();
                match Features::parse(&spec) {
                    Ok(f) => {
                        self.features = f;
                        self.features_spec = spec;
                    }
                    Err(e) => error(&format!(
                        "SearchFeatures: {e}; keeping '{}'",
                        self.features_spec
                    )),
                }
            }
            _ => error(&format!("unknown option '{name}'")),
        }
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => {
                match Position::from_fen(START_FEN, self.chess960) {
                    Ok(p) => p,
                    Err(e) => {
                        error(&e.to_string());
                        return;
                    }
                }
            }
            Some(&"fen") if setup.len() > 1 => {
                match Position::from_fen(&setup[1..].join(" "), self.chess960) {
                    Ok(p) => p,
                    Err(e) => {
                        error(&e.to_string());
                        return;
                    }
                }
            }
            _ => {
                error(&format!(
                    "position needs 'startpos' or 'fen <fen>', got '{}'",
                    args.join(" ")
                ));
                return;
            }
        };
        if let Some(i) = moves_at {
            for (n, text) in args[i + 1..].iter().enumerate() {
                match pos.parse_uci_move(text) {
                    Ok(m) => {
                        pos.make(m);
                        pos.clear_undo();
                    }
                    Err(e) => {
                        error(&format!(
                            "{e} (move {} of the list); position unchanged",
                            n + 1
                        ));
                        return;
                    }
                }
            }
        }
        self.pos = pos;
    }

    fn cmd_go(&mut self, args: &[&str]) {
        let limits = match parse_go(args, &self.pos) {
            Ok(l) => l,
            Err(()) => return,
        };
        if self.searching() && limits.perft.is_none() {
            // A GUI should not send this; queue it behind the running search.
            error("go while searching: queued until the current search ends");
        }
        self.busy.store(true, Ordering::SeqCst);
        if let Some(depth) = limits.perft {
            let _ = self.tx.send(Job::Perft {
                pos: Box::new(self.pos.clone()),
                depth,
            });
            return;
        }
        self.ctl.stop.store(false, Ordering::SeqCst);
        self.ctl.pondering.store(limits.ponder, Ordering::SeqCst);
        let opts = SearchOptions {
            multipv: self.multipv,
            move_overhead_ms: self.move_overhead,
            features: self.features,
            algorithm: self.algorithm,
        };
        let _ = self.tx.send(Job::Go {
            pos: Box::new(self.pos.clone()),
            limits: Box::new(limits),
            opts,
            debug: self.debug,
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
fn go_number(key: &str, v: Option<&&str>) -> Option<u64> {
    let Some(v) = v else {
        error(&format!("go {key} needs a value"));
        return None;
    };
    if let Ok(n) = v.parse::<i128>() {
        return Some(n.clamp(0, u64::MAX as i128) as u64);
    }
    error(&format!("go {key}: '{v}' is not a number; ignored"));
    None
}

/// Parses the arguments of `go` (and `perft N`).
fn parse_go(args: &[&str], pos: &Position) -> Result<SearchLimits, ()> {
    let mut l = SearchLimits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let val = args.get(i + 1);
        let mut step = 2;
        match key {
            "wtime" => l.clock.wtime = go_number(key, val).or(l.clock.wtime),
            "btime" => l.clock.btime = go_number(key, val).or(l.clock.btime),
            "winc" => l.clock.winc = go_number(key, val).unwrap_or(l.clock.winc),
            "binc" => l.clock.binc = go_number(key, val).unwrap_or(l.clock.binc),
            "movestogo" => {
                if let Some(n) = go_number(key, val) {
                    l.clock.movestogo = if n == 0 {
                        None
                    } else {
                        Some(n.min(1000) as u32)
                    };
                }
            }
            "depth" => {
                if let Some(n) = go_number(key, val) {
                    l.depth = Some(n.clamp(1, 1000) as u32);
                }
            }
            "nodes" => {
                if let Some(n) = go_number(key, val) {
                    l.nodes = Some(n.max(1));
                }
            }
            "mate" => {
                if let Some(n) = go_number(key, val) {
                    l.mate = Some(n.clamp(1, 1000) as u32);
                }
            }
            "movetime" => l.movetime = go_number(key, val).or(l.movetime),
            "perft" => match go_number(key, val) {
                Some(n) if (1..=20).contains(&n) => l.perft = Some(n as u32),
                _ => {
                    error("perft needs a depth from 1 to 20");
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
                        Err(e) => error(&format!("searchmoves: {e}; ignored")),
                    }
                    step += 1;
                }
            }
            other => {
                error(&format!("go: unknown parameter '{other}' ignored"));
                step = 1;
            }
        }
        i += step;
    }
    Ok(l)
}
