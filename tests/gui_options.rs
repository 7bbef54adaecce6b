//! Black-box tests of the options and output GUIs expect: `UCI_ShowWDL` (`wdl` in `info`),
//! `currmove`/`currmovenumber` after the first second, `UCI_LimitStrength` and `UCI_Elo`.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, bestmove};
use nullwindow::position::{Position, START_FEN};
use nullwindow::search::strength::{ELO_MAX, ELO_MIN, StrengthLimit};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A quiet middlegame (bench position style), Black to move.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 2 8";
/// White mates in one (Ra8#).
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

fn is_legal(fen: &str, mv: &str) -> bool {
    Position::from_fen(fen, false)
        .map(|p| p.parse_uci_move(mv).is_ok())
        .unwrap_or(false)
}

/// The numbers after `key` in an `info` line.
fn field(line: &str, key: &str, count: usize) -> Option<Vec<i64>> {
    let mut it = line.split_whitespace().skip_while(|&t| t != key).skip(1);
    (0..count)
        .map(|_| it.next().and_then(|t| t.parse().ok()))
        .collect()
}

/// Lines of the search started by `go` up to its `bestmove` (included).
fn search(e: &mut Engine, go: &str) -> Vec<String> {
    let from = e.seen.len();
    e.send(go);
    e.wait_for(Duration::from_secs(60), |l| l.starts_with("bestmove"));
    e.seen[from..].to_vec()
}

#[test]
fn uci_lists_the_gui_options() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    let all = e.seen.join("\n");
    for opt in [
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"),
    ] {
        assert!(all.lines().any(|l| l == opt), "missing '{opt}' in\n{all}");
    }
}

#[test]
fn wdl_is_shown_only_when_the_option_is_on() {
    let mut e = Engine::start();
    e.send(&format!("position fen {KIWIPETE}"));
    let off = search(&mut e, "go depth 5");
    assert!(off.iter().all(|l| !l.contains(" wdl ")), "{off:?}");

    e.send("setoption name UCI_ShowWDL value true");
    let on = search(&mut e, "go depth 5");
    let infos: Vec<&String> = on.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty(), "{on:?}");
    for l in infos {
        let wdl = field(l, "wdl", 3).unwrap_or_else(|| panic!("no wdl in {l}"));
        assert!(wdl.iter().all(|&x| (0..=1000).contains(&x)), "{l}");
        assert_eq!(wdl.iter().sum::<i64>(), 1000, "{l}");
        // `wdl` follows the score (and its bound, if any), before `nodes`.
        let after_score = l.split(" score ").nth(1).unwrap_or_default();
        assert!(
            after_score.contains(" wdl ") && l.find(" wdl ") < l.find(" nodes "),
            "{l}"
        );
    }

    // A mate found: certain win.
    e.send(&format!("position fen {MATE_IN_ONE}"));
    let mate = search(&mut e, "go depth 3");
    let last = mate
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("an info line");
    assert!(last.contains("score mate 1 wdl 1000 0 0 "), "{last}");

    e.send("setoption name UCI_ShowWDL value false");
    let off = search(&mut e, "go depth 3");
    assert!(off.iter().all(|l| !l.contains(" wdl ")), "{off:?}");
}

#[test]
fn currmove_is_reported_after_the_first_second() {
    let mut e = Engine::start();
    e.send(&format!("position fen {MIDDLEGAME}"));
    let started = Instant::now();
    e.send("go infinite");
    let line = e.wait_for(Duration::from_secs(60), |l| l.contains(" currmove "));
    assert!(started.elapsed() >= Duration::from_millis(1000), "{line}");
    e.send("stop");
    let bm = e.expect("bestmove");
    assert!(is_legal(MIDDLEGAME, &bestmove(&bm)), "{bm}");

    // `info depth D currmove M currmovenumber N`
    let t: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(t.len(), 7, "{line}");
    assert_eq!(
        (t[0], t[1], t[3], t[5]),
        ("info", "depth", "currmove", "currmovenumber")
    );
    assert!(t[2].parse::<u32>().is_ok_and(|d| d >= 1), "{line}");
    assert!(is_legal(MIDDLEGAME, t[4]), "{line}");
    let number: usize = t[6].parse().expect("a number");
    let moves = Position::from_fen(MIDDLEGAME, false).unwrap().legal_moves();
    assert!((1..=moves.len()).contains(&number), "{line}");
}

#[test]
fn no_currmove_in_a_short_search() {
    let mut e = Engine::start();
    e.send(&format!("position fen {MIDDLEGAME}"));
    for go in ["go movetime 300", "go depth 6", "go nodes 20000"] {
        let lines = search(&mut e, go);
        assert!(
            lines.iter().all(|l| !l.contains("currmove")),
            "{go}: {lines:?}"
        );
    }
}

/// Every `info` line's node count is within `budget`, and the depth within `depth`.
fn check_limits(lines: &[String], budget: u64, depth: u32, what: &str) {
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        if let Some(n) = field(l, "nodes", 1) {
            assert!(
                n[0] as u64 <= budget,
                "{what}: {} nodes > {budget}: {l}",
                n[0]
            );
        }
        let d = field(l, "depth", 1).expect("depth")[0] as u32;
        assert!(d <= depth, "{what}: depth {d} > {depth}: {l}");
    }
}

#[test]
fn limited_strength_plays_legal_moves_within_its_budget() {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("debug on");
    for elo in [ELO_MIN, 2200, ELO_MAX] {
        let s = StrengthLimit::from_elo(elo);
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        for fen in [START_FEN, KIWIPETE, MIDDLEGAME] {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            for (go, nodes, depth) in [
                ("go movetime 100", u64::MAX, u32::MAX),
                (
                    "go wtime 1000 btime 1000 winc 10 binc 10",
                    u64::MAX,
                    u32::MAX,
                ),
                ("go depth 5", u64::MAX, 5),
                ("go nodes 5000", 5000, u32::MAX),
            ] {
                let what = format!("elo {elo}, {go}, {fen}");
                let lines = search(&mut e, go);
                let bm = lines.last().expect("bestmove");
                assert!(is_legal(fen, &bestmove(bm)), "{what}: {bm}");
                // This search's depth cap and candidate lines: the expected ones rounded down
                // or up, and the expected candidates (one line, the user's MultiPV, and no
                // expected candidates without noise).
                let announced = lines
                    .iter()
                    .find(|l| l.starts_with("info string strength "))
                    .expect("strength line");
                let searched: Vec<String> = if s.has_noise() {
                    [s.lines.floor(), s.lines.ceil()]
                        .map(|n| format!("{n} ({:.2})", s.lines))
                        .into()
                } else {
                    vec!["1".to_string()]
                };
                let cap = [s.depth.floor() as u32, s.depth.ceil() as u32]
                    .into_iter()
                    .find(|d| {
                        searched.iter().any(|n| {
                            *announced
                                == format!(
                                    "info string strength elo {elo} level {} nodes {} depth {d} ({:.2}) margin {} lines {n}",
                                    s.level, s.nodes, s.depth, s.margin_cp
                                )
                        })
                    })
                    .unwrap_or_else(|| panic!("{what}: {announced}"));
                check_limits(&lines, s.nodes.min(nodes), cap.min(depth), &what);
                let stats = lines
                    .iter()
                    .find(|l| l.starts_with("info string stats"))
                    .expect("stats");
                let total =
                    field(stats, "nodes", 1).unwrap()[0] + field(stats, "qnodes", 1).unwrap()[0];
                assert!(total as u64 <= s.nodes.min(nodes), "{what}: {stats}");
            }
        }
    }
}

#[test]
fn limited_strength_is_deterministic_for_a_position() {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    let mut moves = Vec::new();
    for _ in 0..2 {
        e.send("ucinewgame");
        e.send(&format!("position fen {MIDDLEGAME}"));
        let lines = search(&mut e, "go nodes 3000");
        moves.push(bestmove(lines.last().expect("bestmove")));
        // The noise searches extra lines, but only MultiPV 1 is shown.
        assert!(
            lines.iter().all(|l| !l.contains(" multipv 2 ")),
            "{lines:?}"
        );
    }
    assert_eq!(moves[0], moves[1]);
}

#[test]
fn uci_elo_out_of_range_is_refused_and_kept() {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 2000");
    e.send("debug on");
    for bad in ["1319", "3191", "-5", "abc", ""] {
        e.send(&format!("setoption name UCI_Elo value {bad}"));
        let out = e.sync();
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string error: UCI_Elo")),
            "{bad}: {out:?}"
        );
    }
    let lines = search(&mut e, "go depth 1");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string strength elo 2000 ")),
        "{lines:?}"
    );
    // Off again: no strength limits.
    e.send("setoption name UCI_LimitStrength value false");
    let lines = search(&mut e, "go depth 1");
    assert!(lines.iter().all(|l| !l.contains("strength")), "{lines:?}");
}

/// The calibration's level variable: a valid level plays that level whatever `UCI_Elo` says; a
/// bad value is said with `info string error` at start-up and `UCI_Elo` decides.
#[test]
fn strength_level_variable_selects_a_level_or_is_refused() {
    let strength_line = |e: &mut Engine| {
        e.send("setoption name UCI_LimitStrength value true");
        e.send("setoption name UCI_Elo value 2000");
        e.send("debug on");
        search(e, "go depth 1")
            .into_iter()
            .find(|l| l.starts_with("info string strength"))
            .expect("a strength line")
    };
    let mut e = Engine::start_with_env(&[("NULLWINDOW_STRENGTH_LEVEL", "1800")]);
    let line = strength_line(&mut e);
    assert!(line.contains(" level 1800 "), "{line}");
    for bad in ["abc", "99999", ""] {
        let mut e = Engine::start_with_env(&[("NULLWINDOW_STRENGTH_LEVEL", bad)]);
        let first = e.sync();
        assert!(
            first
                .iter()
                .any(|l| l.starts_with("info string error: NULLWINDOW_STRENGTH_LEVEL")),
            "{bad}: {first:?}"
        );
        let line = strength_line(&mut e);
        assert!(line.starts_with("info string strength elo 2000 "), "{line}");
        assert!(!line.contains(" level 1800 "), "{line}");
    }
}
