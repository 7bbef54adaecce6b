//! Black-box UCI tests against the real binary.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, bestmove};
use nullwindow::position::{Position, START_FEN};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn is_legal(fen: &str, chess960: bool, mv: &str) -> bool {
    Position::from_fen(fen, chess960)
        .map(|p| p.parse_uci_move(mv).is_ok())
        .unwrap_or(false)
}

/// Plays eight moves from the start position on a 1.5 s + 20 ms clock: every answer must be
/// legal and come within 800 ms (`label` names the setting in a failure).
fn play_short_clock_game(e: &mut Engine, label: &str) {
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..8 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let t = Instant::now();
        e.send("go wtime 1500 btime 1500 winc 20 binc 20");
        let mv = bestmove(&e.expect("bestmove"));
        assert!(
            t.elapsed() < Duration::from_millis(800),
            "{label}: {:?}",
            t.elapsed()
        );
        let m = pos.parse_uci_move(&mv).expect("legal bestmove");
        pos.make(m);
        moves.push(mv);
    }
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    let all = e.seen.join("\n");
    assert!(all.contains("id name Nullwindow"));
    assert!(all.contains("id author"));
    for opt in [
        "option name Hash type spin default 16 min 1 max",
        "option name Threads type spin default 1 min 1",
        "option name Clear Hash type button",
        "option name MultiPV type spin default 1 min 1",
        "option name Move Overhead type spin default 30 min 0",
        "option name Ponder type check default false",
        "option name UCI_Chess960 type check default false",
        "option name TTBounds type spin default 1 min 1 max 2",
    ] {
        assert!(all.contains(opt), "missing '{opt}' in\n{all}");
    }
    e.sync();
}

#[test]
fn plays_a_legal_move_and_reports_info() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 4");
    let bm = e.expect("bestmove");
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert!(is_legal(fen, false, &bestmove(&bm)), "{bm}");
    let info = e
        .seen
        .iter()
        .find(|l| l.starts_with("info depth 4"))
        .expect("info line for depth 4")
        .clone();
    for field in [
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "'{field}' missing in {info}");
    }
    assert!(bm.contains(" ponder "), "{bm}");
}

#[test]
fn bad_input_is_reported_and_state_kept() {
    let mut e = Engine::start();
    e.send(&format!("position fen {KIWIPETE}"));
    assert_eq!(e.fen(), KIWIPETE);
    for bad in [
        "position fen not/a/fen w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5",
        "position startpos moves e2e4 zz99",
        "position startpos moves e2e4 e2e4",
        "position",
        "position sideways",
        "flurble",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name MultiPV value 100000",
        "setoption name Ponder value maybe",
        "setoption name TTBounds value 3",
        "setoption name No Such Option value 1",
        "setoption",
    ] {
        let from = e.seen.len();
        e.send(bad);
        e.sync();
        let got = e.seen[from..].join("\n");
        assert!(
            got.contains("info string error: "),
            "no error for '{bad}': {got}"
        );
        assert_eq!(e.fen(), KIWIPETE, "state changed by '{bad}'");
    }
    e.send("go depth 2");
    let bm = e.expect("bestmove");
    assert!(is_legal(KIWIPETE, false, &bestmove(&bm)), "{bm}");
}

#[test]
fn blank_lines_crlf_and_garbage_are_survived() {
    let mut e = Engine::start();
    e.send("");
    e.send("   ");
    e.send_bytes(b"position startpos moves e2e4\r\n");
    e.send_bytes(b"\xff\xfe\x00garbage\x01\n");
    e.send_bytes(b"isready\r\n");
    e.expect("readyok");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    e.send("go depth 1");
    e.expect("bestmove");
}

#[test]
fn unknown_leading_tokens_are_skipped() {
    let mut e = Engine::start();
    e.send("joho isready");
    e.expect("readyok");
}

#[test]
fn moves_keyword_with_nothing_after_it() {
    let mut e = Engine::start();
    e.send("position startpos moves");
    assert_eq!(e.fen(), START_FEN);
    let out = e.sync();
    assert!(out.iter().all(|l| !l.contains("error")), "{out:?}");
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Engine::start();
    // Black is checkmated (fool's mate).
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 3");
    assert_eq!(e.expect("bestmove"), "bestmove (none)");
    // Stalemate.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    assert_eq!(e.expect("bestmove"), "bestmove (none)");
}

#[test]
fn finds_mate_in_one() {
    let mut e = Engine::start();
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go depth 3");
    let bm = e.expect("bestmove");
    assert_eq!(bestmove(&bm), "d1d8");
    assert!(e.seen.iter().any(|l| l.contains("score mate 1")));
}

#[test]
fn stop_ends_infinite_search_with_one_bestmove() {
    let mut e = Engine::start();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // isready is answered at once during a search.
    let t = Instant::now();
    e.send("isready");
    e.expect("readyok");
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(!e.seen.iter().any(|l| l.starts_with("bestmove")));
    let (bm, took) = e.stop_timed();
    assert!(took < Duration::from_millis(500), "{:?}", took);
    assert!(is_legal(KIWIPETE, false, &bestmove(&bm)));
    let extra = e.drain(200);
    assert!(
        extra.iter().all(|l| !l.starts_with("bestmove")),
        "second bestmove: {extra:?}"
    );
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 1000 btime 1000");
    // Far past the time budget: still pondering, so no bestmove yet.
    std::thread::sleep(Duration::from_millis(600));
    let early = e.drain(50);
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit");
    let bm = e.expect("bestmove");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(is_legal(fen, false, &bestmove(&bm)), "{bm}");
}

#[test]
fn quit_during_search_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.exited_within(Duration::from_secs(2)));
}

#[test]
fn end_of_input_exits() {
    let mut e = Engine::start();
    e.send("isready");
    e.expect("readyok");
    e.close_stdin();
    assert!(e.exited_within(Duration::from_secs(2)));
}

/// `TTBounds 2`: the MT drivers (and the others) play on a two-bound table, with one thread
/// and with two; `TTBounds 1` goes back to the default table.
#[test]
fn two_bound_table_plays() {
    let mut e = Engine::start();
    e.send("setoption name TTBounds value 2");
    for (algorithm, threads) in [("MTDf", 1), ("MTDbi", 2), ("AspirationPVS", 2)] {
        e.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(&format!("position fen {KIWIPETE}"));
        e.send("go depth 6");
        let bm = e.expect("bestmove");
        assert!(
            is_legal(KIWIPETE, false, &bestmove(&bm)),
            "{algorithm}: {bm}"
        );
    }
    e.send("setoption name TTBounds value 1");
    e.send("setoption name SearchAlgorithm value MTDf");
    e.send("position startpos");
    e.send("go depth 5");
    let bm = e.expect("bestmove");
    assert!(is_legal(START_FEN, false, &bestmove(&bm)), "{bm}");
    assert!(!e.seen.iter().any(|l| l.contains("error")), "{:?}", e.seen);
}

#[test]
fn go_nodes_is_deterministic() {
    let run = || {
        let mut e = Engine::start();
        e.send(&format!("position fen {KIWIPETE}"));
        e.send("go nodes 20000");
        let bm = e.expect("bestmove");
        let infos: Vec<String> = e
            .seen
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| {
                // Drop the timing fields, keep the search's own output.
                l.split_whitespace()
                    .collect::<Vec<_>>()
                    .chunks(2)
                    .filter(|kv| !matches!(kv[0], "nps" | "time"))
                    .map(|kv| kv.join(" "))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        (bm, infos)
    };
    assert_eq!(run(), run());
}

#[test]
fn searchmoves_and_multipv() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 3 searchmoves a2a3 h2h4");
    let bm = bestmove(&e.expect("bestmove"));
    assert!(bm == "a2a3" || bm == "h2h4", "{bm}");

    e.send("setoption name MultiPV value 3");
    e.send("go depth 3");
    e.expect("bestmove");
    for k in 1..=3 {
        let pat = format!(" multipv {k} ");
        assert!(
            e.seen
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&pat)),
            "no multipv {k}"
        );
    }
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    e.expect("Nodes searched: 21");
    // White can castle h-side: the king goes g1 -> g1, written g1h1.
    let castle = "2k5/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    e.send(&format!("position fen {castle} moves e1h1"));
    assert!(e.fen().starts_with("2k5/8/8/8/8/8/8/R4RK1 b"));
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {castle} moves e1g1"));
    assert!(e.fen().starts_with("2k5/8/8/8/8/8/8/R4RK1 b"));
}

#[test]
fn go_perft_divides() {
    let mut e = Engine::start();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go perft 3");
    e.expect("Nodes searched: 97862");
    let divide: Vec<&String> = e.seen.iter().filter(|l| l.contains(": ")).collect();
    assert!(divide.iter().any(|l| l.starts_with("e1g1: ")), "{divide:?}");
    assert_eq!(
        divide.iter().filter(|l| !l.starts_with("Nodes")).count(),
        48
    );
}

#[test]
fn clock_search_answers_in_time() {
    let mut e = Engine::start();
    e.send("position startpos");
    let t = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 0 binc 0");
    e.expect("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(900),
        "{:?}",
        t.elapsed()
    );
    let t = Instant::now();
    e.send("go wtime 5 btime 5");
    e.expect("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn odd_go_values_still_give_a_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos");
    for go in [
        "go wtime -500 btime -500",
        "go depth abc movetime 50",
        "go depth 3 nodes 99999999999999999999999999",
        "go movetime 0",
        "go depth 1 frobnicate",
    ] {
        e.send(go);
        let bm = e.expect("bestmove");
        assert!(is_legal(START_FEN, false, &bestmove(&bm)), "{go}: {bm}");
    }
}

#[test]
fn d_and_eval_commands() {
    let mut e = Engine::start();
    e.send("d");
    e.expect("Key: ");
    e.send("eval");
    e.expect("NNUE evaluation: ");
    e.expect("Classical evaluation: ");
}

#[test]
fn mtdf_driver_plays_legal_moves_and_stops_on_time() {
    let mut e = Engine::start();
    // The MTD(f) of play (default switches) and Plaat's (the `mtd*` switches off).
    for spec in ["default", "default -mtdavg -mtdstep -mtdfallback"] {
        e.send("setoption name SearchAlgorithm value MTDf");
        e.send(&format!("setoption name SearchFeatures value {spec}"));
        e.send(&format!("position fen {KIWIPETE}"));
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let (bm, took) = e.stop_timed();
        assert!(took < Duration::from_millis(500), "{spec}: {:?}", took);
        assert!(is_legal(KIWIPETE, false, &bestmove(&bm)), "{spec}: {bm}");
        // The last info line before bestmove carries a PV starting with the best move.
        let pv_line = e
            .seen
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth") && l.contains(" pv "))
            .expect("an info line with a pv")
            .clone();
        let first = pv_line
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(is_legal(KIWIPETE, false, first), "{spec}: {pv_line}");

        play_short_clock_game(&mut e, spec);
        e.sync();
    }
}

#[test]
fn sss_driver_plays_on_the_clock_and_stops_at_once() {
    let mut e = Engine::start();
    e.send("uci");
    let combo = e.expect("option name SearchAlgorithm");
    assert!(combo.ends_with(" var SSS"), "{combo}");
    e.send("setoption name SearchAlgorithm value SSS");
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let (bm, took) = e.stop_timed();
    assert!(took < Duration::from_millis(300), "{:?}", took);
    assert!(is_legal(KIWIPETE, false, &bestmove(&bm)));

    // The same node budget twice gives the same move.
    let mut fixed = Vec::new();
    for _ in 0..2 {
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go nodes 20000");
        fixed.push(bestmove(&e.expect("bestmove")));
    }
    assert_eq!(fixed[0], fixed[1]);

    play_short_clock_game(&mut e, "SSS");
}

/// One row of an option table: name, type, default, range (backticks kept), from the table
/// that follows `section` in the file `doc` (relative to the crate).
fn option_rows(doc: &str, section: &str) -> Vec<[String; 4]> {
    let path = format!("{}/{doc}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {doc}: {e}"));
    let section = text
        .split(section)
        .nth(1)
        .unwrap_or_else(|| panic!("{doc} has a {section:?} section"));
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<String> = l.split('|').map(|c| c.trim().to_string()).collect();
            [
                cells[1].clone(),
                cells[2].clone(),
                cells[3].clone(),
                cells[4].clone(),
            ]
        })
        .collect()
}

/// The README is the manual: its option table names exactly the options of the one
/// declaration (`uci::options::OPTIONS`, which `uci` announces: checked here too), each with
/// its type, default (the first backticked or plain word of the cell, so a note may follow it),
/// spin range and combo values. A renamed option, a new default (a new embedded net's name) or
/// a changed range fails here until the README says so too; and so does docs/uci.md's longer
/// table of the same options.
#[test]
fn readme_option_table_matches_uci() {
    use nullwindow::uci::options::OPTIONS;
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    let announced: Vec<String> = e
        .seen
        .iter()
        .filter(|l| l.starts_with("option name "))
        .cloned()
        .collect();
    let declared: Vec<String> = OPTIONS.iter().map(|o| o.uci_line()).collect();
    assert_eq!(announced, declared, "uci announces the table, in its order");
    for (doc, section) in [
        ("README.md", "\n## UCI options\n"),
        ("docs/uci.md", "\n## Options\n"),
    ] {
        check_option_table(doc, &option_rows(doc, section));
    }
}

/// `rows` (the option table of `doc`) against the one declaration.
fn check_option_table(doc: &str, rows: &[[String; 4]]) {
    use nullwindow::uci::options::{Kind, OPTIONS};
    let strip = |s: &str| s.trim_matches('`').to_string();
    assert_eq!(rows.len(), OPTIONS.len(), "{doc} rows {rows:?}");
    for opt in OPTIONS {
        let name = opt.name;
        let row = rows
            .iter()
            .find(|r| strip(&r[0]) == name)
            .unwrap_or_else(|| panic!("option '{name}' is missing from {doc}'s table"));
        let default_cell = strip(row[2].split(" (").next().unwrap_or_default());
        let (kind, default) = match &opt.kind {
            Kind::Spin {
                default, min, max, ..
            } => {
                assert_eq!(row[3], format!("{min} – {max}"), "{doc}: range of {name}");
                ("spin", default.to_string())
            }
            Kind::Check { default, .. } => ("check", default.to_string()),
            Kind::Combo { default, vars, .. } => {
                let listed: Vec<String> = row[3].split_whitespace().map(strip).collect();
                assert_eq!(listed, *vars, "{doc}: values of {name}");
                ("combo", default.to_string())
            }
            Kind::String { default, .. } => ("string", default.to_string()),
            Kind::Button { .. } => ("button", String::new()),
        };
        assert_eq!(row[1], kind, "{doc}: type of {name}");
        assert_eq!(default_cell, default, "{doc}: default of {name}");
    }
}

/// The README's `SearchFeatures` row lists every switch of the one declaration
/// (`FEATURE_NAMES`, in its order) and, as the default's exceptions, exactly `OFF_BY_DEFAULT`;
/// the removed switches appear in neither, and each has its record in
/// docs/history/experiments.md.
#[test]
fn readme_switch_lists_match_the_declaration() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let text = std::fs::read_to_string(path).expect("read README.md");
    let row = text
        .lines()
        .find(|l| l.starts_with("| `SearchFeatures`"))
        .expect("README's option table has a SearchFeatures row");
    let list_after = |marker: &str| -> Vec<String> {
        let rest = row
            .split(marker)
            .nth(1)
            .unwrap_or_else(|| panic!("'{marker}' in the SearchFeatures row"));
        let span = rest.split('`').nth(1).expect("a backticked list");
        span.split_whitespace().map(str::to_string).collect()
    };
    let names: Vec<&str> = nullwindow::search::FEATURE_NAMES.to_vec();
    assert_eq!(list_after("which techniques are on: "), names);
    let off: Vec<&str> = nullwindow::search::OFF_BY_DEFAULT.to_vec();
    assert_eq!(list_after("every technique but "), off);
    let history = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/history/experiments.md");
    let history = std::fs::read_to_string(history).expect("read docs/history/experiments.md");
    for name in nullwindow::search::REMOVED {
        assert!(!names.contains(&name), "{name}");
        assert!(
            history.contains(&format!("### `{name}`")),
            "docs/history/experiments.md has no '### `{name}`' entry"
        );
    }
}

/// docs/architecture.md's technique table names only switches that exist.
#[test]
fn architecture_technique_table_names_existing_switches() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/architecture.md");
    let text = std::fs::read_to_string(path).expect("read docs/architecture.md");
    let section = text
        .split("\n## Search techniques in full\n")
        .nth(1)
        .expect("a '## Search techniques in full' section");
    let rows: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .collect();
    assert!(rows.len() >= 5, "{rows:?}");
    for row in rows {
        // The switch column: its backticked names, before any note in parentheses.
        let switch = row.split('|').nth(2).expect("a switch column");
        let names = switch.split(" (").next().unwrap_or_default();
        for name in names.split('`').skip(1).step_by(2) {
            assert!(
                nullwindow::search::FEATURE_NAMES.contains(&name),
                "docs/architecture.md names '{name}', no switch of SearchFeatures"
            );
        }
    }
}

/// `isready` with no search running answers after the jobs sent before it, with the table of
/// the current `Hash` made (so a GUI's first clock does not pay for it, as with Stockfish);
/// after `stop` it answers after the stopped search's `bestmove`. During a search nobody
/// stopped it answers at once (`stop_ends_infinite_search_with_one_bestmove`).
#[test]
fn isready_waits_for_the_table_and_for_a_stopped_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name Hash value 32");
    let before = e.sync();
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string Hash 32 MB: ")),
        "table not made before readyok: {before:?}"
    );
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.send("isready");
    let first = e.wait_for(Duration::from_secs(30), |l| {
        l.starts_with("bestmove") || l == "readyok"
    });
    assert!(first.starts_with("bestmove"), "readyok before bestmove");
    e.expect("readyok");
    // The table was told once: not again with the search.
    let told = e
        .seen
        .iter()
        .filter(|l| l.starts_with("info string Hash"))
        .count();
    assert_eq!(told, 1, "{:?}", e.seen);
}

/// What pages back the hash table is told once per table: for the table made at start with
/// the first search (before its `bestmove`) or `isready`, for one `setoption Hash` makes at
/// once. A table
/// of 2 MiB or more is on transparent huge pages where the kernel gives them on request.
#[test]
fn hash_tells_its_pages_once_per_table() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send("position startpos");
    e.send("go depth 1");
    let first = e.wait_for(Duration::from_secs(30), |l| {
        l.starts_with("info string Hash") || l.starts_with("bestmove")
    });
    assert!(first.starts_with("info string Hash 16 MB: "), "{first}");
    e.expect("bestmove");
    e.send("go depth 1");
    e.expect("bestmove");
    let told = |e: &Engine| {
        e.seen
            .iter()
            .filter(|l| l.starts_with("info string Hash"))
            .count()
    };
    assert_eq!(told(&e), 1, "{:?}", e.seen);
    e.send("setoption name Hash value 64");
    let l = e.expect("info string Hash 64 MB: ");
    let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
    let given = thp.is_ok_and(|s| s.contains("[always]") || s.contains("[madvise]"));
    if cfg!(target_os = "linux") && given {
        assert_eq!(l, "info string Hash 64 MB: transparent huge pages");
    } else {
        assert!(l.contains("4 KiB pages ("), "{l}");
    }
    e.send("setoption name Hash value 1");
    let l = e.expect("info string Hash 1 MB: ");
    assert_eq!(l, "info string Hash 1 MB: 4 KiB pages (table under 2 MiB)");
    e.send("go depth 1");
    e.expect("bestmove");
    assert_eq!(told(&e), 3, "{:?}", e.seen);
}
