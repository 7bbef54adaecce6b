//! Hardening: the real binary fed malformed, hostile and extreme input. After every kind of
//! bad input the engine must still answer, say `info string error: ...` where the input was
//! wrong, keep its last valid state and go on playing legal moves.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, bestmove};
use nullwindow::position::{Position, START_FEN};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Output of `line`, up to the `readyok` of an `isready` sent after it.
fn reply(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.sync()
}

fn has_error(out: &[String]) -> bool {
    out.iter().any(|l| l.starts_with("info string error: "))
}

/// Sends `line`, which must be answered with an error and leave the position alone.
fn refused(e: &mut Engine, line: &str) {
    let before = e.fen();
    let out = reply(e, line);
    assert!(has_error(&out), "no error for '{line}': {out:?}");
    assert_eq!(e.fen(), before, "state changed by '{line}'");
}

/// The engine searches the current position and answers a legal move within `limit`.
fn plays_legal_move(e: &mut Engine, go: &str, limit: Duration) -> String {
    let fen = e.fen();
    let t = Instant::now();
    e.send(go);
    let bm = e.expect("bestmove");
    let took = t.elapsed();
    let mv = bestmove(&bm);
    let pos = Position::from_fen(&fen, false).expect("engine reports a valid FEN");
    assert!(pos.parse_uci_move(&mv).is_ok(), "'{go}' in {fen}: {bm}");
    assert!(took <= limit, "'{go}' took {took:?}");
    mv
}

fn quick_move(e: &mut Engine) {
    plays_legal_move(e, "go depth 3", Duration::from_secs(10));
}

#[test]
fn malformed_and_impossible_fens_are_refused() {
    let mut e = Engine::start();
    e.send(&format!("position fen {KIWIPETE}"));
    for fen in [
        // Wrong field counts.
        "",
        "8/8/8/8/8/8/8/8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        // Malformed fields.
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
        "rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        // Impossible positions.
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/4K3 b - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",
        "4kk2/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        "4k3/4q3/8/8/8/8/8/4K3 b - - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/p3K3 b - - 0 1",
    ] {
        refused(&mut e, &format!("position fen {fen}"));
        refused(&mut e, &format!("position fen {fen} moves e2e4"));
    }
    assert_eq!(e.fen(), KIWIPETE);
    quick_move(&mut e);
}

#[test]
fn illegal_and_malformed_moves_are_refused() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5");
    for moves in [
        "e2e5",
        "e7e6",
        "e4e5",
        "g1g3",
        "e1g1",
        "d1h5 d8h4 h5h5",
        "zz99",
        "e2",
        "e2e4e5",
        "g1f3q",
        "a7a8k",
        "a2a1q",
        "0000",
        "@@@@",
        "é2é4",
        "moves",
        "g1f3 g8f6 f3g1 f6g8 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8 e1e1",
    ] {
        refused(
            &mut e,
            &format!("position startpos moves e2e4 e7e5 {moves}"),
        );
    }
    refused(&mut e, "position startpos e2e4");
    refused(&mut e, "position fen moves e2e4");
    refused(&mut e, "position kiwipete");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    quick_move(&mut e);
    // A game that is over takes no more moves.
    refused(&mut e, "position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3");
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 2");
    assert_eq!(e.expect("bestmove"), "bestmove (none)");
}

#[test]
fn odd_go_values_are_reported_or_clamped() {
    let mut e = Engine::start();
    e.send(&format!("position fen {KIWIPETE}"));
    let quick = Duration::from_secs(5);
    // Non-numeric values: reported, ignored, and the search still answers.
    for go in [
        "go depth abc movetime 50",
        "go depth 2 movetime 1e9",
        "go depth 2 nodes -x",
        "go depth 2 wtime",
        "go depth 2 wtime ten btime ten",
        "go depth 2 movestogo many",
        "go depth 2 mate m3",
        "go depth 2 sideways 12",
    ] {
        let from = e.seen.len();
        let mv = plays_legal_move(&mut e, go, quick);
        let said = e.seen[from..].join("\n");
        assert!(said.contains("info string error: "), "{go}: {said}");
        assert!(!mv.is_empty());
    }
    // A perft without a valid depth is refused and runs nothing.
    for go in [
        "go perft",
        "go perft 0",
        "go perft 21",
        "go perft x",
        "perft -1",
    ] {
        let out = reply(&mut e, go);
        assert!(has_error(&out), "{go}: {out:?}");
        assert!(out.iter().all(|l| !l.starts_with("Nodes")), "{go}: {out:?}");
    }
    // Out-of-range numbers are clamped without fuss: negative clocks count as 0, huge
    // values saturate.
    for go in [
        "go wtime -1 btime -1",
        "go wtime -99999999999999999999999999 btime -5 winc -10 binc -10",
        "go wtime 0 btime 0",
        "go wtime 1 btime 1 movestogo 1",
        "go wtime 100 btime 100 winc 99999999999999999999999999 binc 5",
        "go wtime 50 btime 50 movestogo -3",
        "go movetime -20",
        "go movetime 0",
        "go depth 0",
        "go depth -4",
        "go nodes 0",
        "go nodes 1",
        "go mate 0 depth 3",
        "go depth 3 nodes 99999999999999999999999999999999999999999999",
    ] {
        plays_legal_move(&mut e, go, quick);
    }
    // Huge budgets search until `stop`.
    for go in [
        "go wtime 99999999999999999999999999999 btime 99999999999999999999999999999",
        "go movetime 99999999999",
        "go depth 99999999999999999999",
        "go mate 99999999999",
        "go infinite depth 1",
    ] {
        let from = e.seen.len();
        e.send(go);
        std::thread::sleep(Duration::from_millis(100));
        let (bm, took) = e.stop_timed();
        assert!(took < Duration::from_secs(1), "{go}: {:?}", took);
        let pos = Position::from_fen(KIWIPETE, false).unwrap();
        assert!(pos.parse_uci_move(&bestmove(&bm)).is_ok(), "{go}: {bm}");
        let bms = e.seen[from..]
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count();
        assert_eq!(bms, 1, "{go}");
    }
    quick_move(&mut e);
}

#[test]
fn hash_and_unknown_options() {
    let mut e = Engine::start();
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 1e9",
        "setoption name Hash value 1000000",
        "setoption name Hash value -1",
        "setoption name Hash value 99999999999999999999999",
        "setoption name Hash value",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name MultiPV value 0",
        "setoption name Move Overhead value -1",
        "setoption name Move Overhead value 5001",
        "setoption name UCI_Chess960 value yes",
        "setoption name SearchAlgorithm value Minimax",
        "setoption name SearchFeatures value -warp",
        "setoption name Frobnicator value 12",
        "setoption name value 12",
        "setoption name",
        "setoption Hash value 16",
        "setoption",
    ] {
        let out = reply(&mut e, bad);
        assert!(has_error(&out), "no error for '{bad}': {out:?}");
    }
    for good in [
        "setoption name Hash value 1",
        "setoption name hash value 2",
        "setoption name Move Overhead value 0",
        "setoption name Threads value 4",
        "setoption name Clear Hash",
    ] {
        let out = reply(&mut e, good);
        assert!(!has_error(&out), "error for '{good}': {out:?}");
    }
    e.send("ucinewgame");
    e.send("position startpos moves d2d4");
    plays_legal_move(&mut e, "go wtime 300 btime 300", Duration::from_secs(2));
}

#[test]
fn garbage_blank_lines_and_crlf() {
    let mut e = Engine::start();
    e.send("");
    e.send("   \t  ");
    e.send_bytes(b"\r\n\r\n");
    e.send_bytes(b"\x00\x01\x02\x03\xff\xfe\xfd\n");
    e.send_bytes(b"\x1b[31mred\x1b[0m\n");
    e.send_bytes(&[0x80, 0x81, b' ', 0xc3, 0x28, b'\n']);
    // Random bytes without a command among them, and a 100 KB line of garbage.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut noise = Vec::new();
    for _ in 0..4000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let b = (x >> 24) as u8;
        noise.push(if b.is_ascii_alphabetic() { b'#' } else { b });
    }
    noise.push(b'\n');
    e.send_bytes(&noise);
    e.send_bytes(&[b'q'; 100_000]);
    e.send_bytes(b"\n");
    let out = e.sync();
    assert!(has_error(&out), "{out:?}");
    // CRLF and tabs around real commands.
    e.send_bytes(b"position startpos moves e2e4 c7c5\r\n");
    e.send_bytes(b"\tisready\t\r\n");
    e.expect("readyok");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    e.send_bytes(b"go depth 2\r\n");
    e.expect("bestmove");
    quick_move(&mut e);
}

#[test]
fn ten_thousand_ply_game_is_accepted() {
    let mut e = Engine::start();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().cycle().take(10_000).copied().collect();
    let line = format!("position startpos moves {}", moves.join(" "));
    let t = Instant::now();
    let out = reply(&mut e, &line);
    assert!(!has_error(&out), "{out:?}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10000 5001"
    );
    // Drawn many times over, but a move is still a move, and promptly.
    plays_legal_move(
        &mut e,
        "go wtime 1000 btime 1000",
        Duration::from_millis(1000),
    );
    plays_legal_move(&mut e, "go movetime 100", Duration::from_millis(600));
    plays_legal_move(&mut e, "go depth 8", Duration::from_secs(10));
    // The same game a ply further, then a pawn move, then a bad move at the very end.
    let line2 = format!("{line} e2e4");
    reply(&mut e, &line2);
    assert!(e.fen().ends_with(" b KQkq - 0 5001"), "{}", e.fen());
    plays_legal_move(
        &mut e,
        "go wtime 1000 btime 1000",
        Duration::from_millis(1000),
    );
    refused(&mut e, &format!("{line2} e2e4"));
}

#[test]
fn commands_out_of_order() {
    let mut e = Engine::start();
    // go before any position: the start position.
    let mv = plays_legal_move(&mut e, "go depth 2", Duration::from_secs(5));
    assert!(
        Position::from_fen(START_FEN, false)
            .unwrap()
            .parse_uci_move(&mv)
            .is_ok()
    );
    // stop and ponderhit with no search: nothing happens, in particular no bestmove.
    for cmd in [
        "stop",
        "ponderhit",
        "stop",
        "ponderhit ponderhit",
        "stop now",
    ] {
        let out = reply(&mut e, cmd);
        assert!(
            out.iter().all(|l| !l.starts_with("bestmove")),
            "{cmd}: {out:?}"
        );
    }
    // The next search is not stopped by the earlier stray stops.
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    e.expect("bestmove");
    assert!(e.seen.iter().any(|l| l.starts_with("info depth 5 ")));
    // ucinewgame, uci and debug in between, and a stop right after go.
    e.send("ucinewgame");
    e.send("uci");
    e.expect("uciok");
    e.send("debug on");
    e.send("debug maybe");
    e.send("go infinite");
    e.send("stop");
    e.expect("bestmove");
    e.send("debug off");
    // stop; position; go in one burst: the new search is not the old one's victim, and
    // exactly two bestmoves come.
    let from = e.seen.len();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.send("position startpos moves d2d4");
    e.send("go depth 4");
    e.expect("bestmove");
    e.expect("bestmove");
    assert!(
        e.seen[from..]
            .iter()
            .any(|l| l.starts_with("info depth 4 "))
    );
    assert_eq!(
        e.drain(100)
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        0
    );
    quick_move(&mut e);
    e.send("quit");
    assert!(e.exited_within(Duration::from_secs(2)));
}

#[test]
fn ponder_then_stop_then_go() {
    // A ponder miss: stop, then the real position and go. The ponder search must answer the
    // stop, and the new search must run to its own end.
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.send("position startpos moves e2e4 c7c5");
    let t = Instant::now();
    e.send("go wtime 2000 btime 2000");
    e.expect("bestmove");
    let bm = e.expect("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    let fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2";
    let pos = Position::from_fen(fen, false).unwrap();
    assert!(pos.parse_uci_move(&bestmove(&bm)).is_ok(), "{bm}");
}

#[test]
fn ucinewgame_during_a_search_waits_for_it() {
    // An adapter may send `ucinewgame` before `stop` (xboard `new` during analysis). Like
    // Stockfish, the engine clears after the running search instead of refusing: no error,
    // one `bestmove` for the search, and the next search starts from empty tables, so it
    // visits exactly as many nodes as in a fresh engine.
    fn nodes_of_depth_6(e: &mut Engine) -> String {
        e.send("position startpos moves e2e4");
        e.send("go depth 6");
        e.expect("bestmove");
        let last = e
            .seen
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 6 ") && l.contains(" nodes "))
            .cloned()
            .expect("an info line of depth 6");
        let nodes = last.split(" nodes ").nth(1).expect("nodes");
        nodes.split_whitespace().next().unwrap_or("").to_string()
    }
    let mut fresh = Engine::start();
    let want = nodes_of_depth_6(&mut fresh);

    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let from = e.seen.len();
    e.send("ucinewgame");
    e.send("stop");
    let bm = e.expect("bestmove");
    assert!(
        Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            false
        )
        .unwrap()
        .parse_uci_move(&bestmove(&bm))
        .is_ok(),
        "{bm}"
    );
    let got = nodes_of_depth_6(&mut e);
    e.sync();
    let out = e.seen[from..].to_vec();
    assert!(!has_error(&out), "{out:?}");
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove")).count(),
        2,
        "{out:?}"
    );
    assert_eq!(
        got, want,
        "the search after ucinewgame did not start from empty tables"
    );
}

#[test]
fn go_after_stop_is_queued_silently() {
    // Issue 24 item 5: an adapter (Debian `polyglot`) sends `stop`, `position`, `go` (and
    // `stop`, `ucinewgame`, ...) in one burst. The stopped search may still be winding down when the `go` arrives; the new
    // search must wait for its `bestmove` without an error, and each `go` gets one answer,
    // in order, legal for its own position.
    const BURSTS: usize = 50;
    let mut e = Engine::start();
    // The second is what polyglot sends on xboard's `new` during a search.
    let bursts = [
        "position startpos\ngo infinite\nstop\nposition startpos moves e2e4\ngo depth 3\n",
        "position startpos\ngo infinite\nisready\nstop\nucinewgame\nposition startpos moves e2e4\ngo depth 3\n",
    ];
    let from = e.seen.len();
    for i in 0..BURSTS {
        // One write, as the adapter sends it; the next burst after the second `bestmove`, as a
        // GUI waits for the move it asked for.
        e.send_bytes(bursts[i % 2].as_bytes());
        e.expect("bestmove");
        e.expect("bestmove");
    }
    e.sync();
    let out = e.seen[from..].to_vec();
    assert!(!has_error(&out), "{out:?}");
    let after_e4 = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
    )
    .unwrap();
    let positions = [Position::startpos(), after_e4];
    // The search whose `bestmove` is still to come: every `info` line and the `bestmove` must
    // be legal in its position.
    let mut answered = 0;
    for line in &out {
        let pos = &positions[answered % 2];
        if line.starts_with("bestmove") {
            let mv = bestmove(line);
            assert!(pos.parse_uci_move(&mv).is_ok(), "answer {answered}: {line}");
            answered += 1;
        } else if let Some(pv) = line.split(" pv ").nth(1) {
            let first = pv.split_whitespace().next().unwrap_or("");
            assert!(
                pos.parse_uci_move(first).is_ok(),
                "answer {answered}: {line}"
            );
        }
    }
    assert_eq!(answered, 2 * BURSTS);
    assert!(
        e.drain(200).iter().all(|l| !l.starts_with("bestmove")),
        "a bestmove too many"
    );
    // A `go` while a search really runs (no stop) is still reported and queued.
    e.send("go infinite");
    e.send("go depth 1");
    e.send("stop");
    let out = e.sync();
    assert!(has_error(&out), "{out:?}");
    // `isready` after `stop` is answered once both stopped searches have answered.
    let answers = out.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(answers, 2, "{out:?}");
}

#[test]
fn bad_eval_files_keep_the_engine_playing() {
    let dir = std::env::temp_dir().join(format!("nw-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = nullwindow::nnue::embedded_net().expect("embedded network");
    let bytes = good.to_bytes();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("write");
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"NWNN but then nothing that makes sense at all").expect("write");
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    let corrupt = dir.join("corrupt.nnue");
    std::fs::write(&corrupt, &flipped).expect("write");
    let copy = dir.join("copy.nnue");
    std::fs::write(&copy, &bytes).expect("write");
    // A net of one output layer (the embedded net's first bucket), and the same layer in each
    // of eight output buckets: the two load and evaluate alike; with B = 0 in its header the
    // second is refused.
    let mut single = (*good).clone();
    single.buckets = 1;
    single.out_weights = good.bucket_weights(0).iter().copied().collect();
    single.out_bias = good.out_bias[..1].to_vec();
    let single_file = dir.join("single.nnue");
    std::fs::write(&single_file, single.to_bytes()).expect("write");
    let mut spread = single.clone();
    spread.buckets = 8;
    spread.out_weights = single.out_weights.repeat(8).into_iter().collect();
    spread.out_bias = single.out_bias.repeat(8);
    let bucketed = dir.join("bucketed.nnue");
    std::fs::write(&bucketed, spread.to_bytes()).expect("write");
    let mut no_buckets = spread.to_bytes();
    no_buckets[28..32].fill(0);
    let zero_buckets = dir.join("zero-buckets.nnue");
    std::fs::write(&zero_buckets, &no_buckets).expect("write");

    let mut e = Engine::start();
    for on in ["true", "false"] {
        let out = reply(&mut e, &format!("setoption name UseNNUE value {on}"));
        assert!(!has_error(&out), "{out:?}");
        for bad in [
            dir.join("missing.nnue"),
            truncated.clone(),
            garbage.clone(),
            corrupt.clone(),
            zero_buckets.clone(),
        ] {
            let out = reply(
                &mut e,
                &format!("setoption name EvalFile value {}", bad.display()),
            );
            assert!(has_error(&out), "no error for {}: {out:?}", bad.display());
            assert!(
                out.iter().any(|l| l.contains("keeping")),
                "{}: {out:?}",
                bad.display()
            );
            quick_move(&mut e);
        }
    }
    refused(&mut e, "setoption name UseNNUE value maybe");
    // A valid file loads, and the embedded one comes back by name.
    let out = reply(
        &mut e,
        &format!("setoption name EvalFile value {}", copy.display()),
    );
    assert!(!has_error(&out), "{out:?}");
    let nnue_cp = |e: &mut Engine| -> String {
        let out = reply(e, "eval");
        out.iter()
            .find_map(|l| l.strip_prefix("NNUE evaluation: "))
            .and_then(|l| l.split_once(" (").map(|(cp, _)| cp.to_string()))
            .unwrap_or_else(|| panic!("no NNUE evaluation: {out:?}"))
    };
    let out = reply(
        &mut e,
        &format!("setoption name EvalFile value {}", single_file.display()),
    );
    assert!(!has_error(&out), "{out:?}");
    e.send("position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    let one_bucket = nnue_cp(&mut e);
    let out = reply(
        &mut e,
        &format!("setoption name EvalFile value {}", bucketed.display()),
    );
    assert!(!has_error(&out), "{out:?}");
    assert!(
        out.iter().any(|l| l.contains("8 output buckets")),
        "{out:?}"
    );
    assert_eq!(nnue_cp(&mut e), one_bucket);
    let out = reply(
        &mut e,
        &format!(
            "setoption name EvalFile value {}",
            nullwindow::nnue::EMBEDDED_NET_NAME
        ),
    );
    assert!(!has_error(&out), "{out:?}");
    let out = reply(&mut e, "setoption name UseNNUE value true");
    assert!(!has_error(&out), "{out:?}");
    let out = reply(&mut e, "eval");
    assert!(
        out.iter().any(|l| l.starts_with("NNUE evaluation: ")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("Classical evaluation: ")),
        "{out:?}"
    );
    e.send("position startpos moves e2e4 e7e5 g1f3");
    plays_legal_move(&mut e, "go wtime 500 btime 500", Duration::from_secs(3));
    let _ = std::fs::remove_dir_all(&dir);
}
