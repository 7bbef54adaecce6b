//! Lazy SMP (`Threads` above 1) through the real binary: results agree with one thread, `go
//! nodes` holds its budget across threads, `stop` reaches every thread at once, resizing the
//! pool leaks no thread, every driver and MultiPV, `searchmoves`, ponder and the tablebases
//! still work, and `bench` stays single-threaded.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{Engine, bestmove};
use nullwindow::position::{Position, START_FEN};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A quiet middlegame (Bratko-Kopec 2) and an endgame, besides the start position.
const POSITIONS: [&str; 3] = [
    START_FEN,
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
];

fn engine_with_threads(threads: usize) -> Engine {
    let mut e = Engine::start();
    e.send(&format!("setoption name Threads value {threads}"));
    let out = e.sync();
    assert!(
        !out.iter().any(|l| l.contains("error")),
        "Threads {threads}: {out:?}"
    );
    e
}

fn legal(fen: &str, mv: &str) -> bool {
    Position::from_fen(fen, false).is_ok_and(|p| p.parse_uci_move(mv).is_ok())
}

/// A field of an `info` line (`nodes`, `depth`, ...).
fn field(line: &str, name: &str) -> Option<i64> {
    let mut it = line.split_whitespace();
    it.find(|&w| w == name)?;
    it.next()?.parse().ok()
}

/// The score of an `info` line in centipawns (mates as ±30000).
fn score_cp(line: &str) -> Option<i64> {
    field(line, "cp").or_else(|| field(line, "mate").map(|m| 30000 * m.signum()))
}

/// Runs `go` on `fen` and returns the `bestmove` line and the last `info ... score` line.
fn go(e: &mut Engine, fen: &str, go: &str) -> (String, String) {
    e.send(&format!("position fen {fen}"));
    let from = e.seen.len();
    e.send(go);
    let bm = e.expect("bestmove");
    let last = e.seen[from..]
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .cloned()
        .unwrap_or_default();
    (bm, last)
}

#[test]
fn one_and_four_threads_agree_at_fixed_depth() {
    let mut one = engine_with_threads(1);
    let mut four = engine_with_threads(4);
    for fen in POSITIONS {
        let (bm1, info1) = go(&mut one, fen, "go depth 9");
        let (bm4, info4) = go(&mut four, fen, "go depth 9");
        for bm in [&bm1, &bm4] {
            assert!(legal(fen, &bestmove(bm)), "{fen}: {bm}");
        }
        let (s1, s4) = (score_cp(&info1).unwrap(), score_cp(&info4).unwrap());
        assert!((s1 - s4).abs() <= 120, "{fen}: {info1} vs {info4}");
        // The main thread reached the asked depth; the move played may be a helper's from
        // a depth or two less (the vote weighs depth and score), whose line is then the last.
        assert!(
            four.seen.iter().any(|l| l.starts_with("info depth 9 ")),
            "{fen}: no depth 9"
        );
        assert!(field(&info4, "depth").unwrap() >= 7, "{info4}");
        assert!(field(&info4, "nodes").unwrap() > 0, "{info4}");
    }
}

#[test]
fn go_nodes_with_four_threads_stops_near_the_budget() {
    let mut e = engine_with_threads(4);
    e.send("debug on");
    for (fen, n) in [(START_FEN, 60_000), (KIWIPETE, 150_000)] {
        let (bm, info) = go(&mut e, fen, &format!("go nodes {n}"));
        assert!(legal(fen, &bestmove(&bm)), "{bm}");
        assert!(field(&info, "nodes").unwrap() <= n + 64, "{info}");
        // Every thread's nodes, summed: within a node per thread of the budget, and the
        // budget was used (each thread leaves at most one claimed chunk of 1024 unsearched).
        let stats = e
            .seen
            .iter()
            .rev()
            .find(|l| l.starts_with("info string stats"))
            .expect("stats line")
            .clone();
        let total = field(&stats, "nodes").unwrap() + field(&stats, "qnodes").unwrap();
        assert!(total <= n + 4, "{n}: {stats}");
        assert!(total >= n - 4 * 1024, "{n}: {stats}");
    }
}

#[test]
fn stop_reaches_eight_threads_at_once() {
    let mut e = engine_with_threads(8);
    let mut took = Vec::new();
    for fen in [START_FEN, KIWIPETE, START_FEN, KIWIPETE, START_FEN] {
        e.send(&format!("position fen {fen}"));
        e.send("go infinite");
        e.wait_for(Duration::from_secs(30), |l| {
            l.starts_with("info depth") && field(l, "depth").is_some_and(|d| d >= 6)
        });
        let (bm, latency) = e.stop_timed();
        took.push(latency);
        assert!(legal(fen, &bestmove(&bm)), "{bm}");
    }
    // Every thread must see the flag and answer before the vote. The median, as a shared
    // machine can stall a process now and then (this one froze them for up to 0.7 s).
    took.sort();
    assert!(
        took[took.len() / 2] < Duration::from_millis(200),
        "{took:?}"
    );
    assert!(took[took.len() - 1] < Duration::from_secs(2), "{took:?}");
}

/// Threads of a process (Linux: entries of /proc/PID/task).
fn thread_count(pid: u32) -> Option<usize> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()
        .map(|d| d.count())
}

#[test]
fn resizing_the_pool_leaks_no_thread() {
    let mut e = engine_with_threads(1);
    let fen = START_FEN;
    // A search after each change: jobs run in order, so the pool is resized by then.
    go(&mut e, fen, "go depth 3");
    let base = thread_count(e.pid());
    let mut counts = Vec::new();
    for threads in [4, 1, 4, 2, 4] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        let (bm, _) = go(&mut e, fen, "go depth 6");
        assert!(legal(fen, &bestmove(&bm)), "{bm}");
        counts.push(thread_count(e.pid()).zip(base).map(|(n, b)| n - b));
    }
    if base.is_some() {
        assert_eq!(
            counts,
            [3, 0, 3, 1, 3].map(Some),
            "helper threads after each change"
        );
    }
    // Not during a search: refused like Hash, and the search goes on.
    e.send("go infinite");
    e.expect("info depth");
    e.send("setoption name Threads value 2");
    e.wait_for(Duration::from_secs(5), |l| {
        l.starts_with("info string error") && l.contains("Threads")
    });
    e.send("stop");
    e.expect("bestmove");
    e.send("quit");
    assert!(
        e.exited_within(Duration::from_secs(5)),
        "no exit after quit"
    );
}

#[test]
fn every_driver_multipv_searchmoves_and_ponder_work_with_threads() {
    let mut e = engine_with_threads(3);
    for algo in [
        "PVS",
        "AlphaBeta",
        "AspirationPVS",
        "MTDf",
        "MTDbi",
        "MTSSS",
        "MTDUAL",
        "SSS",
    ] {
        e.send(&format!("setoption name SearchAlgorithm value {algo}"));
        let depth = if algo == "SSS" { 3 } else { 6 };
        let (bm, info) = go(&mut e, KIWIPETE, &format!("go depth {depth}"));
        assert!(legal(KIWIPETE, &bestmove(&bm)), "{algo}: {bm}");
        assert!(info.contains(" pv "), "{algo}: {info}");
    }
    e.send("setoption name SearchAlgorithm value AspirationPVS");
    // MultiPV: three lines at the last depth.
    e.send("setoption name MultiPV value 3");
    go(&mut e, KIWIPETE, "go depth 6");
    assert!(
        e.seen
            .iter()
            .any(|l| l.starts_with("info depth 6 ") && l.contains(" multipv 3 "))
    );
    e.send("setoption name MultiPV value 1");
    // searchmoves: the answer is one of them.
    let (bm, _) = go(&mut e, START_FEN, "go depth 7 searchmoves a2a3 h2h4");
    assert!(["a2a3", "h2h4"].contains(&bestmove(&bm).as_str()), "{bm}");
    // Ponder: no bestmove before ponderhit, a legal one after.
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go ponder wtime 2000 btime 2000");
    e.expect("info depth");
    let early = e.drain(150);
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit");
    let bm = e.wait_for(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    assert!(legal(KIWIPETE, &bestmove(&bm)), "{bm}");
}

#[test]
fn tablebases_reach_every_thread() {
    let mut e = engine_with_threads(3);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    e.send(&format!("setoption name SyzygyPath value {dir}"));
    e.sync();
    // KRvKP: only f1g1 keeps the win (see tests/syzygy.rs).
    let fen = "8/8/8/6p1/8/4k3/K7/5R2 w - - 0 1";
    let (bm, info) = go(&mut e, fen, "go depth 8");
    assert_eq!(bestmove(&bm), "f1g1", "{bm}");
    assert!(field(&info, "tbhits").unwrap() > 0, "{info}");
    assert!(
        field(&info, "cp").unwrap() >= i64::from(nullwindow::search::TB_WIN_IN_MAX),
        "{info}"
    );
}

#[test]
fn bench_stays_single_threaded() {
    let mut e = engine_with_threads(4);
    e.send("bench 6");
    let uci = e.wait_for(Duration::from_secs(30), |l| l.ends_with(" nps"));
    let cli = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .args(["bench", "6"])
        .output()
        .expect("run bench");
    let cli = String::from_utf8_lossy(&cli.stdout);
    let nodes = |l: &str| l.split_whitespace().next().unwrap_or("").to_string();
    let last = cli.lines().last().unwrap_or("");
    assert_eq!(nodes(&uci), nodes(last), "{uci} vs {last}");
}
