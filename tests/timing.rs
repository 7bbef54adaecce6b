//! Time management and latency, black box: pondering and `ponderhit`, `movetime` with the
//! overhead, `go mate`, `go nodes`, `go depth`, and how fast `stop` and `isready` are answered
//! in the middle of a search.
//!
//! `cargo test --release --test timing -- --ignored --nocapture` prints the latency figures
//! of 100 tries per position (docs/history/measurements.md quotes them).

mod common;

use std::time::{Duration, Instant};

use common::{Engine, bestmove};
use nullwindow::position::Position;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Sixteen queens: every node has a pile of captures, so quiescence trees are huge.
const QUEENS: &str = "qqqqkqqq/8/8/8/8/8/8/QQQQKQQQ w - - 0 1";

fn legal(fen: &str, mv: &str) -> bool {
    Position::from_fen(fen, false)
        .map(|p| p.parse_uci_move(mv).is_ok())
        .unwrap_or(false)
}

/// The `(soft, hard)` bounds the engine announces with `debug on`.
fn announced_bounds(e: &mut Engine) -> (u64, u64) {
    let l = e.expect("info string time soft ");
    let f: Vec<u64> = l
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    (f[0], f[1])
}

#[test]
fn ponderhit_starts_the_real_budget() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("debug on");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 10000 btime 10000");
    let (soft, hard) = announced_bounds(&mut e);
    assert!(soft > 100 && hard > soft, "{soft} {hard}");
    // Ponder well past the hard bound: pondering is free, so no bestmove yet.
    std::thread::sleep(Duration::from_millis(hard + 500));
    let early = e.drain(10);
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    let t = Instant::now();
    e.send("ponderhit");
    let bm = e.expect("bestmove");
    let took = t.elapsed();
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(legal(fen, &bestmove(&bm)), "{bm}");
    // The clock starts at ponderhit: had the pondering time been charged, the hard bound
    // would have stopped the search at once. The soft bound may shrink to a third of itself
    // on a stable best move, and the hard bound still applies.
    assert!(
        took >= Duration::from_millis(soft / 4),
        "bestmove {took:?} after ponderhit, soft {soft}"
    );
    assert!(
        took <= Duration::from_millis(hard + 300),
        "bestmove {took:?} after ponderhit, hard {hard}"
    );
}

#[test]
fn ponderhit_right_away_plays_like_a_normal_search() {
    let mut e = Engine::start();
    e.send("debug on");
    e.send("position startpos");
    e.send("go ponder wtime 3000 btime 3000");
    let (_, hard) = announced_bounds(&mut e);
    let t = Instant::now();
    e.send("ponderhit");
    e.expect("bestmove");
    assert!(
        t.elapsed() <= Duration::from_millis(hard + 300),
        "{:?} {hard}",
        t.elapsed()
    );
}

#[test]
fn clock_searches_stay_within_the_hard_bound() {
    let mut e = Engine::start();
    e.send("debug on");
    e.send(&format!("position fen {KIWIPETE}"));
    for go in [
        "go wtime 2000 btime 2000",
        "go wtime 2000 btime 2000 winc 50 binc 50",
        "go wtime 1500 btime 1500 movestogo 1",
        "go wtime 3000 btime 3000 movestogo 40",
        "go wtime 60 btime 60",
        "go wtime 5 btime 5",
    ] {
        let t = Instant::now();
        e.send(go);
        let (soft, hard) = announced_bounds(&mut e);
        e.expect("bestmove");
        let took = t.elapsed();
        assert!(soft <= hard, "{go}");
        assert!(
            took <= Duration::from_millis(hard + 200),
            "{go}: {took:?}, hard {hard}"
        );
    }
}

#[test]
fn movetime_keeps_the_overhead_back() {
    let mut e = Engine::start();
    e.send("setoption name Move Overhead value 150");
    e.send(&format!("position fen {KIWIPETE}"));
    let t = Instant::now();
    e.send("go movetime 400");
    e.expect("bestmove");
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(200), "{took:?}");
    assert!(took < Duration::from_millis(400), "{took:?}");
}

#[test]
fn go_mate_stops_at_a_short_enough_mate() {
    // Mate in 2: 1. Nf6+ gxf6 2. Bxf7#.
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let mut e = Engine::start();
    e.send(&format!("position fen {fen}"));
    e.send("go mate 2");
    let bm = e.expect("bestmove");
    assert_eq!(bestmove(&bm), "d5f6");
    assert!(e.seen.iter().any(|l| l.contains(" score mate 2 ")));
    // No short mate in sight: the search goes on until stopped.
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go mate 3");
    std::thread::sleep(Duration::from_millis(300));
    assert!(e.drain(10).iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    let bm = e.expect("bestmove");
    assert!(legal(KIWIPETE, &bestmove(&bm)));
}

#[test]
fn go_depth_and_nodes_are_exact() {
    let mut e = Engine::start();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go depth 5");
    e.expect("bestmove");
    let depths: Vec<u32> = e
        .seen
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .filter_map(|l| l.split_whitespace().nth(2)?.parse().ok())
        .collect();
    assert_eq!(depths.last(), Some(&5), "{depths:?}");
    assert!(depths.iter().all(|&d| d <= 5));
    for n in [1u64, 500, 30_000] {
        let from = e.seen.len();
        e.send(&format!("go nodes {n}"));
        let bm = e.expect("bestmove");
        assert!(legal(KIWIPETE, &bestmove(&bm)), "{bm}");
        for l in &e.seen[from..] {
            let mut t = l.split_whitespace().skip_while(|&t| t != "nodes");
            if let Some(v) = t.nth(1).and_then(|v| v.parse::<u64>().ok()) {
                assert!(v <= n, "go nodes {n}: {l}");
            }
        }
    }
}

/// Max and median, in ms, of `isready`→`readyok` and `stop`→`bestmove` over `tries` searches
/// of `fen`, each interrupted 20–80 ms after `go infinite`.
fn latency(fen: &str, tries: usize) -> ((f64, f64), (f64, f64)) {
    let mut e = Engine::start();
    e.send(&format!("position fen {fen}"));
    let (mut ready, mut stop) = (Vec::new(), Vec::new());
    for i in 0..tries {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(20 + (i as u64 * 37) % 60));
        let t = Instant::now();
        e.send("isready");
        e.expect("readyok");
        ready.push(t.elapsed().as_secs_f64() * 1000.0);
        let (bm, took) = e.stop_timed();
        stop.push(took.as_secs_f64() * 1000.0);
        assert!(legal(fen, &bestmove(&bm)), "{bm}");
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() - 1], v[v.len() / 2])
    };
    (stats(&mut ready), stats(&mut stop))
}

#[test]
fn stop_and_isready_are_answered_quickly() {
    for fen in [KIWIPETE, QUEENS] {
        let ((ready_max, _), (stop_max, _)) = latency(fen, 5);
        assert!(ready_max < 200.0, "isready {ready_max:.1} ms in {fen}");
        assert!(stop_max < 200.0, "stop {stop_max:.1} ms in {fen}");
    }
}

#[test]
#[ignore = "prints latency figures; about 30 s"]
fn latency_figures() {
    let start = nullwindow::position::START_FEN;
    for (name, fen) in [("start", start), ("kiwipete", KIWIPETE), ("queens", QUEENS)] {
        let ((rmax, rmed), (smax, smed)) = latency(fen, 100);
        println!(
            "{name:9} isready->readyok max {rmax:6.2} ms median {rmed:5.2} ms | \
             stop->bestmove max {smax:6.2} ms median {smed:5.2} ms (100 tries)"
        );
    }
}
