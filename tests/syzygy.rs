//! Syzygy tablebases: loading, the root filter, probes in the search, the UCI options and a
//! KRvK conversion within the 50-move rule. The tables are the few 3-4-piece files in
//! `tests/data/syzygy/` (see `tests/data/README.md`). Every expected result below was checked
//! with python-chess 1.11.2's independent prober (`chess.syzygy`) on the same files.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::{Engine, bestmove};
use nullwindow::limits::SearchLimits;
use nullwindow::position::Position;
use nullwindow::search::{
    MATE_IN_MAX, SearchControl, SearchOptions, SearchResult, Searcher, SilentReporter,
    SyzygyConfig, TB_CURSED_WIN, TB_WIN_IN_MAX,
};
use nullwindow::tb::{Tablebases, Wdl};

/// The test tables: KQvK, KRvK, KPvK, KBvK, KNvK (promotions from KPvK) and KRvKP.
fn tb_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy").to_string()
}

fn tables() -> Arc<Tablebases> {
    let mut tb = Tablebases::new();
    let report = tb.add_directories(&tb_dir());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    Arc::new(tb)
}

fn search_with(fen: &str, config: SyzygyConfig, depth: u32) -> (Position, SearchResult) {
    let pos = Position::from_fen(fen, false).expect("fen");
    let mut s = Searcher::new(16);
    s.set_syzygy(config);
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    let r = s.search(
        &pos,
        &limits,
        &SearchOptions::default(),
        &SearchControl::default(),
        &mut SilentReporter,
    );
    (pos, r)
}

fn search(fen: &str, depth: u32) -> (Position, SearchResult) {
    let config = SyzygyConfig {
        tables: Some(tables()),
        ..Default::default()
    };
    search_with(fen, config, depth)
}

/// The tablebase result for the side that played `uci` in `fen`.
fn result_after(tb: &Tablebases, fen: &str, uci: &str) -> Wdl {
    let mut pos = Position::from_fen(fen, false).expect("fen");
    let m = pos.parse_uci_move(uci).expect("legal move");
    pos.make(m);
    tb.probe_wdl(&pos).expect("probe").flip()
}

#[test]
fn test_tables_load() {
    let mut tb = Tablebases::new();
    let report = tb.add_directories(&tb_dir());
    assert_eq!((report.wdl, report.dtz, report.max_pieces), (6, 6, 4));
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let krk = Position::from_fen("K7/8/6R1/8/8/4k3/8/8 w - - 0 1", false).unwrap();
    assert_eq!(tb.probe_wdl(&krk), Some(Wdl::Win));
    assert_eq!(tb.probe_dtz(&krk), Some(31));
    // Five pieces (no capture to resolve them into four), or castling rights: the tables
    // cannot say.
    let five = Position::from_fen("7k/8/8/8/8/8/PP6/R3K3 w - - 0 1", false).unwrap();
    assert_eq!(tb.probe_wdl(&five), None);
    let castling = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false).unwrap();
    assert_eq!(tb.probe_wdl(&castling), None);
}

#[test]
fn root_keeps_the_only_winning_move() {
    let tb = tables();
    // KRvKP, White to move: of 19 and 22 moves only Rg1 and Rf7 win.
    for (fen, win) in [
        ("8/8/8/6p1/8/4k3/K7/5R2 w - - 0 1", "f1g1"),
        ("8/R7/8/1K4k1/8/8/5p2/8 w - - 0 1", "a7f7"),
    ] {
        let (pos, r) = search(fen, 6);
        let best = pos.move_to_uci(r.best.expect("a move"));
        assert_eq!(best, win, "{fen}");
        assert_eq!(result_after(&tb, fen, &best), Wdl::Win);
        assert!(r.score >= TB_WIN_IN_MAX, "{fen}: score {}", r.score);
        assert!(r.stats.tb_hits > 0, "{fen}");
    }
}

#[test]
fn drawn_root_reports_a_draw_and_keeps_it() {
    let tb = tables();
    // KPvK, White to move: a draw whatever White plays best.
    let fen = "8/5k2/5P2/3K4/8/8/8/8 w - - 0 1";
    let (pos, r) = search(fen, 8);
    let best = pos.move_to_uci(r.best.expect("a move"));
    assert_eq!(result_after(&tb, fen, &best), Wdl::Draw);
    assert_eq!(r.score, 0);
}

#[test]
fn lost_root_resists_longest() {
    let tb = tables();
    // KRvK, Black to move, lost in 24 plies: Kd7, Ke6, Ke5 and Kd5 hold out longest.
    let fen = "8/8/3k4/8/8/8/3K4/3R4 b - - 0 1";
    let (pos, r) = search(fen, 6);
    let best = pos.move_to_uci(r.best.expect("a move"));
    assert!(
        ["d6d7", "d6e6", "d6e5", "d6d5"].contains(&best.as_str()),
        "{best}"
    );
    let mut after = pos.clone();
    after.make(r.best.unwrap());
    assert_eq!(tb.probe_dtz(&after), Some(23));
    assert!(r.score <= -TB_WIN_IN_MAX, "score {}", r.score);
}

#[test]
fn search_probes_after_a_capture() {
    // Five pieces (no table at the root): Rxa8+ leaves KRvKP, a tablebase win found by the
    // probe below the root.
    let (pos, r) = search("r6k/7p/8/8/8/8/8/R3K3 w - - 0 1", 4);
    assert_eq!(pos.move_to_uci(r.best.unwrap()), "a1a8");
    assert!(r.stats.tb_hits > 0);
    assert!(
        r.score >= TB_WIN_IN_MAX && r.score < MATE_IN_MAX,
        "{}",
        r.score
    );
    // Without tables: the same move, an evaluation score, no probe.
    let (_, r) = search_with(
        "r6k/7p/8/8/8/8/8/R3K3 w - - 0 1",
        SyzygyConfig::default(),
        4,
    );
    assert_eq!(r.stats.tb_hits, 0);
    assert!(r.score < TB_WIN_IN_MAX);
    // SyzygyProbeLimit 0: no probe either.
    let config = SyzygyConfig {
        tables: Some(tables()),
        probe_limit: 0,
        ..Default::default()
    };
    let (_, r) = search_with("r6k/7p/8/8/8/8/8/R3K3 w - - 0 1", config, 4);
    assert_eq!(r.stats.tb_hits, 0);
}

#[test]
fn fifty_move_rule_option_decides_late_wins() {
    // KRvK needs 31 plies to mate, and 20 are left before the 50-move rule draws.
    let fen = "K7/8/6R1/8/8/4k3/8/8 w - - 80 1";
    let (_, r) = search(fen, 4);
    assert_eq!(r.score, TB_CURSED_WIN);
    let config = SyzygyConfig {
        tables: Some(tables()),
        rule50: false,
        ..Default::default()
    };
    let (_, r) = search_with(fen, config, 4);
    assert!(r.score >= TB_WIN_IN_MAX, "{}", r.score);
}

#[test]
fn wdl_tables_alone_still_rank_the_root() {
    // Only the `.rtbw` files: the root is ranked by WDL.
    let dir = scratch_dir("wdl-only");
    for entry in std::fs::read_dir(tb_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let mut tb = Tablebases::new();
    let report = tb.add_directories(dir.to_str().unwrap());
    assert_eq!((report.wdl, report.dtz), (6, 0));
    let config = SyzygyConfig {
        tables: Some(Arc::new(tb)),
        ..Default::default()
    };
    let (pos, r) = search_with("8/8/8/6p1/8/4k3/K7/5R2 w - - 0 1", config, 6);
    assert_eq!(pos.move_to_uci(r.best.unwrap()), "f1g1");
    assert!(r.score >= TB_WIN_IN_MAX);
}

/// A fresh folder under cargo's scratch space for integration tests.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("syzygy-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Sends `setoption name SyzygyPath value PATH` and returns the lines it printed.
fn set_path(e: &mut Engine, path: &str) -> Vec<String> {
    e.send(&format!("setoption name SyzygyPath value {path}"));
    e.sync()
}

#[test]
fn uci_options_and_info() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    for opt in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(e.seen.iter().any(|l| l == opt), "{opt} missing");
    }
    for bad in [
        "setoption name SyzygyProbeLimit value 8",
        "setoption name SyzygyProbeDepth value 0",
        "setoption name Syzygy50MoveRule value maybe",
    ] {
        e.send(bad);
        let out = e.sync();
        assert!(
            out.iter().any(|l| l.starts_with("info string error")),
            "{bad}: {out:?}"
        );
    }
    let out = set_path(&mut e, &tb_dir());
    assert_eq!(
        out,
        vec!["info string found 12 tablebases (up to 4 pieces): 6 WDL and 6 DTZ files"]
    );
    e.send("position fen 8/8/8/6p1/8/4k3/K7/5R2 w - - 0 1");
    e.send("go depth 5");
    let bm = e.expect("bestmove");
    assert_eq!(bestmove(&bm), "f1g1");
    let info = e
        .seen
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap()
        .clone();
    let tbhits: u64 = field(&info, "tbhits").parse().unwrap();
    assert!(tbhits > 0, "{info}");
    let cp: i32 = field(&info, "cp").parse().unwrap();
    assert!(cp >= TB_WIN_IN_MAX, "{info}");
    // `<empty>` turns the tables off: no more probes.
    assert!(set_path(&mut e, "<empty>").is_empty());
    e.send("go depth 5");
    e.expect("bestmove");
    let info = e
        .seen
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap()
        .clone();
    assert_eq!(field(&info, "tbhits"), "0", "{info}");
}

/// The word after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key);
    words.next().unwrap_or("")
}

#[test]
fn bad_paths_are_refused_and_the_engine_plays_on() {
    let mut e = Engine::start();
    // A folder that does not exist.
    let out = set_path(&mut e, "/no/such/folder/for/syzygy");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error") && l.contains("cannot read folder")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.contains("no tablebases found")),
        "{out:?}"
    );
    // A folder of garbage: files named like tables with a wrong header or a wrong size, and
    // other files (ignored).
    let dir = scratch_dir("garbage");
    std::fs::write(dir.join("KQvK.rtbw"), [0u8; 80]).unwrap();
    let mut bad_size = std::fs::read(Path::new(&tb_dir()).join("KRvK.rtbz")).unwrap();
    bad_size.truncate(100);
    std::fs::write(dir.join("KRvK.rtbz"), bad_size).unwrap();
    std::fs::write(dir.join("README.txt"), "not a table").unwrap();
    std::fs::write(dir.join("KvK.rtbw"), "not a table either").unwrap();
    let out = set_path(&mut e, dir.to_str().unwrap());
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert!(errors.iter().any(|l| l.contains("KQvK.rtbw")), "{errors:?}");
    assert!(errors.iter().any(|l| l.contains("KRvK.rtbz")), "{errors:?}");
    assert!(errors.iter().any(|l| l.contains("no tablebases found")));
    // A list with a good folder after a bad one: the good one loads.
    let sep = nullwindow::tb::PATH_SEPARATOR;
    let out = set_path(&mut e, &format!("/no/such/folder{sep}{}", tb_dir()));
    assert!(out.iter().any(|l| l.starts_with("info string error")));
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string found 12 tablebases"))
    );
    // Garbage again: the tables are off and the engine still plays.
    set_path(&mut e, dir.to_str().unwrap());
    e.send("position fen 8/8/3k4/8/8/8/3K4/3R4 b - - 0 1");
    e.send("go depth 4");
    let bm = e.expect("bestmove");
    let pos = Position::from_fen("8/8/3k4/8/8/8/3K4/3R4 b - - 0 1", false).unwrap();
    assert!(pos.parse_uci_move(&bestmove(&bm)).is_ok(), "{bm}");
}

#[test]
fn krk_is_converted_within_the_fifty_move_rule() {
    // KRvK at its longest (mate in 31 plies) with the halfmove clock at 60: only 40 plies are
    // left, so the win must be played out without waste. The engine plays both sides, each
    // move a short search over UCI; the defence is the tables' longest resistance.
    let start = "K7/8/6R1/8/8/4k3/8/8 w - - 60 1";
    let mut e = Engine::start();
    set_path(&mut e, &tb_dir());
    let mut pos = Position::from_fen(start, false).unwrap();
    let mut moves: Vec<String> = Vec::new();
    loop {
        assert!(!pos.is_fifty_move_draw(), "50-move draw after {moves:?}");
        if pos.legal_moves().is_empty() {
            break;
        }
        assert!(moves.len() < 40, "no mate in 40 plies: {moves:?}");
        e.send(&format!("position fen {start} moves {}", moves.join(" ")));
        e.send("go depth 6");
        let line = e.wait_for(Duration::from_secs(60), |l| l.starts_with("bestmove"));
        let mv = bestmove(&line);
        let m = pos.parse_uci_move(&mv).expect("legal move");
        pos.make(m);
        moves.push(mv);
    }
    assert!(pos.is_check(), "stalemate after {moves:?}");
    assert!(pos.halfmoves() <= 100);
    assert_eq!(moves.len(), 31, "{moves:?}");
}
