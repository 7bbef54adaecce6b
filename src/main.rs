//! Command line: `nullwindow` speaks UCI; subcommands run bench, perft, the opening book tool,
//! the tuning tools (datagen, tune, spsa) and the lab tools.

use std::process::ExitCode;
use std::time::Instant;

use nullwindow::bench;
use nullwindow::position::{Position, START_FEN, perft, shakmaty_perft};
use nullwindow::uci::{ENGINE_NAME, Uci};

const HELP: &str = "\
Nullwindow - a UCI chess engine

USAGE:
    nullwindow                      speak UCI on stdin/stdout (what a GUI runs)
    nullwindow bench [DEPTH] [nnue|hce]
                                    search the bench positions; last line 'N nodes M nps'
                                    (the evaluation: the default's, or the one named)
    nullwindow perft DEPTH [FEN]    count leaf nodes (Chess960 FENs with --960)
    nullwindow perft-bench DEPTH [FEN]  perft speed next to a bare shakmaty::perft
    nullwindow book build --pgn FILE --out FILE [--max-ply N] [--min-games N]
                                    a Polyglot opening book from PGN games
    nullwindow book probe --book FILE [--fen FEN] [--moves M1 ...]
                                    a book's moves for a position (book --help)
    nullwindow datagen [--games N] [--out FILE] [--threads N] [--seed S] [--nodes N]
                   [--random-plies P] [--openings FILE] ...
                                    self-play games; appends labelled positions (resumable)
    nullwindow datagen inspect FILE [--head N] [--to-epd OUT]
                                    check and print a data file, or convert it to EPD
    nullwindow datagen distill IN --net NET --out OUT [--copies K] [--plies P]
                                    label positions with a network's static evaluation
    nullwindow tune --data FILE [--epochs N] [--lr X] [--threads N] [--limit N] [--out FILE]
                                    Texel-tune the evaluation weights; writes a new params.rs
    nullwindow train --data FILE[,FILE...] --out NET [--hidden N] [--epochs N] [--threads N] ...
                                    train the NNUE network on datagen data (train --help)
    nullwindow train loss NET [NET...] --data FILE[,FILE...] [--val X --val-tail]
                                    the loss of network files on data (train loss --help)
    nullwindow sss --tree JSON [--trace] [--names dewey|letters] [--algorithm NAME|all]
                   [--svg FILE] [--guess N]
                                    the minimax family on an explicit game tree (docs/lab-trees.md)
    nullwindow lab [--pure|--engine] [--depth A-B] [--hash MB] [--epd FILE] [--positions N]
                   [--algorithms LIST] [--csv FILE] [--svg FILE] [--tt-sweep [--hashes LIST]]
                                    every search driver at fixed depths on the bench positions:
                                    value agreement and node counts (lab --help)
    nullwindow spsa                 the OpenBench SPSA input of the search parameters, one
                                    'NAME, int, value, min, max, step, 0.002' line each
                                    (a build with --features tune: make tune)
    nullwindow --help | --version
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            Uci::new().run();
            ExitCode::SUCCESS
        }
        Some("bench") => bench_cmd(&args[1..]),
        Some(cmd @ ("perft" | "perft-bench")) => perft_cmd(cmd == "perft-bench", &args[1..]),
        Some("book") => match nullwindow::book::cli::run_cli(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        Some("datagen") => match nullwindow::datagen::run_cli(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        Some("train") => match nullwindow::train::run_cli(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        Some("tune") => match nullwindow::tune::run_cli(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        Some("sss") => match nullwindow::lab::cli::run_sss_cli(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        Some("lab") => match nullwindow::lab::chess::run_lab_cli(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        Some("spsa") => {
            if !nullwindow::search::params::TUNABLE {
                return fail(nullwindow::search::params::NOT_TUNABLE);
            }
            print!("{}", nullwindow::search::params::spsa_input());
            ExitCode::SUCCESS
        }
        Some("--help" | "-h" | "help") => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            println!("{ENGINE_NAME}");
            match nullwindow::nnue::embedded_net() {
                Some(n) => println!(
                    "network: {} (embedded, hidden {}{}, {}; UseNNUE default {})",
                    nullwindow::nnue::EMBEDDED_NET_NAME,
                    n.hidden,
                    n.shape_note(),
                    nullwindow::nnue::simd_name(),
                    nullwindow::nnue::USE_BY_DEFAULT
                ),
                None => println!("network: none usable embedded"),
            }
            ExitCode::SUCCESS
        }
        Some(other) => fail(&format!("unknown command '{other}'\n\n{HELP}")),
    }
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

fn perft_cmd(compare: bool, args: &[String]) -> ExitCode {
    let chess960 = args.iter().any(|a| a == "--960");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--960").collect();
    let Some(Ok(depth)) = rest.first().map(|d| d.parse::<u32>()) else {
        return fail("perft needs a depth");
    };
    let fen = if rest.len() > 1 {
        rest[1..]
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        START_FEN.to_string()
    };
    let mut pos = match Position::from_fen(&fen, chess960) {
        Ok(p) => p,
        Err(e) => return fail(&e.to_string()),
    };
    if !compare {
        let t = Instant::now();
        let n = perft(&mut pos, depth);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "perft({depth}) = {n}  {secs:.3} s  {:.0} nps",
            n as f64 / secs.max(1e-9)
        );
        return ExitCode::SUCCESS;
    }
    // Alternate the two counters and keep each one's best time, so that a busy machine or a
    // frequency change hurts both alike. Time is this thread's CPU time where Linux tells it
    // (/proc/thread-self/schedstat), so that waiting for a core does not count; wall time
    // elsewhere.
    const ROUNDS: usize = 5;
    let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
    let (mut n, mut m) = (0, 0);
    for _ in 0..ROUNDS {
        let t = Timer::start();
        n = perft(&mut pos, depth);
        ours = ours.min(t.seconds());
        let t = Timer::start();
        m = shakmaty_perft(&pos, depth);
        theirs = theirs.min(t.seconds());
    }
    let clock = if cpu_seconds().is_some() {
        "CPU time"
    } else {
        "wall time"
    };
    println!("best of {ROUNDS} runs ({clock}), depth {depth}, {fen}");
    println!(
        "  nullwindow perft      {n:>12} nodes {ours:7.3} s {:>12.0} nps",
        n as f64 / ours
    );
    println!(
        "  bare shakmaty::perft  {m:>12} nodes {theirs:7.3} s {:>12.0} nps",
        m as f64 / theirs
    );
    println!(
        "  speed ratio (nullwindow / shakmaty nps) = {:.3}",
        theirs / ours
    );
    if m != n {
        return fail("node counts differ");
    }
    ExitCode::SUCCESS
}

/// CPU time of this thread in seconds (Linux), or None.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Measures this thread's CPU time where available, wall time otherwise.
struct Timer {
    wall: Instant,
    cpu: Option<f64>,
}

impl Timer {
    fn start() -> Timer {
        Timer {
            wall: Instant::now(),
            cpu: cpu_seconds(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, cpu_seconds()) {
            (Some(a), Some(b)) => (b - a).max(1e-9),
            _ => self.wall.elapsed().as_secs_f64().max(1e-9),
        }
    }
}

/// `bench [DEPTH] [nnue|hce]`.
fn bench_cmd(args: &[String]) -> ExitCode {
    let mut depth = bench::DEFAULT_DEPTH;
    let mut net = nullwindow::nnue::default_net();
    for a in args {
        match a.as_str() {
            "nnue" => match nullwindow::nnue::embedded_net() {
                Some(n) => net = Some(n),
                None => return fail("this build embeds no usable network"),
            },
            "hce" => net = None,
            d => match d.parse::<u32>() {
                Ok(d) if (1..64).contains(&d) => depth = d,
                _ => return fail("bench takes a depth from 1 to 63 and/or 'nnue' or 'hce'"),
            },
        }
    }
    bench::run(depth, net);
    ExitCode::SUCCESS
}
