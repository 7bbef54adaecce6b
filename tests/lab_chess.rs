//! The chess lab: in `Features::pure()` mode every root driver, Stockman's SSS* included,
//! searches the same fixed-depth tree and must return the same root value; and the `SSS`
//! driver on its own (mates, draw rules, memory cap, determinism, searchmoves).

use nullwindow::bench;
use std::sync::Arc;

use nullwindow::lab::chess::{
    Mode, REFERENCE, Row, Setup, markdown_table, measure, measure_with, parse_positions, run_one,
    run_one_etc,
};
use nullwindow::limits::SearchLimits;
use nullwindow::position::Position;
use nullwindow::search::{
    Algorithm, Features, SearchControl, SearchOptions, SearchResult, Searcher, SilentReporter,
};
use nullwindow::tt::{TranspositionTable, TtBounds};

fn bench_positions() -> Vec<Position> {
    let p = parse_positions(bench::BENCH_EPD).expect("bench positions parse");
    assert_eq!(p.len(), bench::positions().len());
    p
}

/// Fails with the tables of the offending depths when a driver disagrees.
fn assert_all_agree(rows: &[Row], n: usize) {
    let bad: Vec<&Row> = rows
        .iter()
        .filter(|r| r.agree != n || r.positions != n)
        .collect();
    if !bad.is_empty() {
        let mut depths: Vec<u32> = bad.iter().map(|r| r.depth).collect();
        depths.dedup();
        let tables: Vec<String> = depths
            .iter()
            .map(|&d| markdown_table(rows, d, REFERENCE))
            .collect();
        panic!("drivers disagree:\n{}", tables.join("\n"));
    }
}

#[test]
fn pure_mode_every_driver_agrees_on_every_bench_position_depth_1_to_4() {
    let pos = bench_positions();
    let rows = measure(
        &pos,
        &Algorithm::ALL,
        REFERENCE,
        Mode::Pure,
        1..=4,
        16,
        &mut |_, _| {},
    );
    assert_eq!(rows.len(), 4 * Algorithm::ALL.len());
    assert_all_agree(&rows, pos.len());
}

/// The same with two-bound memory (Plaat's MT table): every driver agrees with AspirationPVS
/// on the same memory, and that with AspirationPVS on the one-bound table, at every depth.
#[test]
fn pure_mode_every_driver_agrees_with_two_bound_memory_depth_1_to_4() {
    let pos = bench_positions();
    let setup = Setup {
        mode: Mode::Pure,
        depths: 1..=4,
        hash_mb: 16,
        bounds: TtBounds::Two,
        caps: Vec::new(),
    };
    let rows = measure_with(
        &pos,
        &Algorithm::ALL,
        REFERENCE,
        &setup,
        None,
        &mut |_, _| {},
    );
    assert_eq!(rows.len(), 4 * Algorithm::ALL.len());
    assert!(rows.iter().all(|r| r.bounds == TtBounds::Two));
    assert_all_agree(&rows, pos.len());
    let mut one = Searcher::new(16);
    let mut two =
        Searcher::with_table(Arc::new(TranspositionTable::with_bounds(16, TtBounds::Two)));
    for (i, p) in pos.iter().enumerate() {
        let values = |s: &mut Searcher| -> Vec<(u32, i32)> {
            run_one(s, p, REFERENCE, Features::pure(), 4)
                .iter()
                .map(|x| (x.depth, x.value))
                .collect()
        };
        assert_eq!(
            values(&mut one),
            values(&mut two),
            "bench position {}",
            i + 1
        );
    }
}

/// Enhanced transposition cutoffs as the lab runs them (`--pure-etc`: every node of depth ≥ 2,
/// children of exactly depth − 1) keep every driver's value at depths 1 to 4 on both memories,
/// and they do cut.
#[test]
fn pure_etc_mode_keeps_every_value_depth_1_to_4() {
    let pos = bench_positions();
    assert_eq!(Mode::PureEtc.etc_depth(), Some(2));
    assert!(Mode::PureEtc.features().etc && !Mode::Pure.features().etc);
    let mut cutoffs = 0;
    for bounds in [TtBounds::One, TtBounds::Two] {
        let mut s = Searcher::with_table(Arc::new(TranspositionTable::with_bounds(16, bounds)));
        for (i, p) in pos.iter().enumerate() {
            let reference: Vec<(u32, i32)> = run_one(&mut s, p, REFERENCE, Features::pure(), 4)
                .iter()
                .map(|x| (x.depth, x.value))
                .collect();
            for a in [
                REFERENCE,
                Algorithm::Pvs,
                Algorithm::MtdF,
                Algorithm::MtdBi,
                Algorithm::MtDual,
            ] {
                let samples = run_one_etc(
                    &mut s,
                    p,
                    a,
                    Mode::PureEtc.features(),
                    Mode::PureEtc.etc_depth(),
                    4,
                );
                let values: Vec<(u32, i32)> = samples.iter().map(|x| (x.depth, x.value)).collect();
                assert_eq!(
                    values,
                    reference,
                    "bench position {} ({a:?}, {bounds:?})",
                    i + 1
                );
                cutoffs += samples.last().map_or(0, |x| x.stats.etc_cutoffs);
            }
        }
    }
    assert!(cutoffs > 0, "ETC never cut");
}

/// The MTD(f) driver as it plays (first guess from the last two iterations, growing steps
/// with bisection, the window search after too many passes: the `mtd*` switches, off in pure
/// mode) still finds AspirationPVS's value on every bench position at depths 1 to 4, on both
/// memories; with `mtd_max_passes` passes at most before the window search.
#[test]
fn pure_mode_enhanced_mtdf_agrees_with_aspiration_depth_1_to_4() {
    let pos = bench_positions();
    let mut enhanced = Features::pure();
    enhanced.mtd_avg = true;
    enhanced.mtd_steps = true;
    enhanced.mtd_fallback = true;
    assert_eq!(
        Features::parse("pure +mtdavg +mtdstep +mtdfallback").unwrap(),
        enhanced
    );
    for bounds in [TtBounds::One, TtBounds::Two] {
        let mut s = Searcher::with_table(Arc::new(TranspositionTable::with_bounds(16, bounds)));
        for (i, p) in pos.iter().enumerate() {
            let values = |s: &mut Searcher, a: Algorithm, f: Features| -> Vec<(u32, i32)> {
                run_one(s, p, a, f, 4)
                    .iter()
                    .map(|x| (x.depth, x.value))
                    .collect()
            };
            let reference = values(&mut s, REFERENCE, Features::pure());
            assert_eq!(reference.len(), 4);
            assert_eq!(
                values(&mut s, Algorithm::MtdF, enhanced),
                reference,
                "bench position {} ({bounds:?})",
                i + 1
            );
            // Each switch alone too.
            for name in ["mtdavg", "mtdstep", "mtdfallback"] {
                let f = Features::parse(&format!("pure +{name}")).unwrap();
                assert_eq!(
                    values(&mut s, Algorithm::MtdF, f),
                    reference,
                    "bench position {} ({bounds:?}, +{name})",
                    i + 1
                );
            }
        }
    }
}

/// Depths 5 and 6 take long (SSS* above all): `make lab-check`.
#[test]
#[ignore]
fn pure_mode_every_driver_agrees_on_every_bench_position_depth_5_and_6() {
    let pos = bench_positions();
    let rows = measure(
        &pos,
        &Algorithm::ALL,
        REFERENCE,
        Mode::Pure,
        5..=6,
        16,
        &mut |_, _| {},
    );
    assert_all_agree(&rows, pos.len());
}

fn search(fen: &str, algorithm: Algorithm, depth: u32) -> SearchResult {
    let pos = Position::from_fen(fen, false).expect("test FEN");
    let mut s = Searcher::new(8);
    let opts = SearchOptions {
        features: Features::pure(),
        algorithm,
        ..Default::default()
    };
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    s.search(
        &pos,
        &limits,
        &opts,
        &SearchControl::default(),
        &mut SilentReporter,
    )
}

/// Positions where the terminal rules matter: mates, stalemate, the 50-move rule, perpetual
/// check (repetition), promotions, insufficient material.
const SPECIAL: [&str; 7] = [
    // Back-rank mate in one.
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    // Queen and king against king: stalemates near the root.
    "7k/8/5KQ1/8/8/8/8/8 w - - 0 1",
    // 50-move rule two plies away: only pawn moves keep the game going.
    "8/8/8/4k3/8/8/4P3/4K3 w - - 98 80",
    // Perpetual check available to the side behind in material.
    "6k1/5ppp/8/8/8/1q6/5PPP/3QR1K1 b - - 0 1",
    // Promotion race.
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
    // Bishop takes the last pawn: insufficient material.
    "8/8/4k3/8/3p4/4B3/3K4/8 w - - 0 1",
    // Scholar's mate: Qxf7 mates at once.
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
];

#[test]
fn sss_equals_pvs_and_mtsss_at_depths_1_to_4() {
    for fen in SPECIAL {
        for depth in 1..=4 {
            let pvs = search(fen, Algorithm::Pvs, depth);
            let mtsss = search(fen, Algorithm::MtSss, depth);
            let sss = search(fen, Algorithm::Sss, depth);
            assert_eq!(
                (sss.score, sss.depth),
                (pvs.score, depth),
                "SSS against PVS, depth {depth}: {fen}"
            );
            assert_eq!(
                sss.score, mtsss.score,
                "SSS against MTSSS, depth {depth}: {fen}"
            );
            let best = sss.best.expect("a best move");
            let pos = Position::from_fen(fen, false).expect("test FEN");
            assert!(pos.legal_moves().contains(&best));
        }
    }
}

#[test]
fn sss_finds_the_mates() {
    let r = search(SPECIAL[0], Algorithm::Sss, 2);
    assert_eq!(r.score, nullwindow::search::MATE - 1);
    let pos = Position::from_fen(SPECIAL[0], false).expect("test FEN");
    assert_eq!(r.best.map(|m| pos.move_to_uci(m)), Some("d1d8".to_string()));
    let r = search(SPECIAL[6], Algorithm::Sss, 4);
    assert_eq!(r.score, nullwindow::search::MATE - 1);
    let pos = Position::from_fen(SPECIAL[6], false).expect("test FEN");
    assert_eq!(r.best.map(|m| pos.move_to_uci(m)), Some("h5f7".to_string()));
}

#[test]
fn sss_counts_leaves_and_expansions() {
    let r = search(bench::positions()[1], Algorithm::Sss, 3);
    let s = &r.stats;
    assert!(s.leaves > 0 && s.interior > 0 && s.sss_expansions > 0 && s.sss_peak_open > 0);
    assert_eq!(s.root_searches, 3);
    // Every node popped live below the root is a leaf or an interior node.
    assert_eq!(s.nodes, s.leaves + s.interior);
    // The same search again gives the same counts.
    assert_eq!(
        search(bench::positions()[1], Algorithm::Sss, 3).stats,
        r.stats
    );
}

#[test]
fn sss_memory_cap_keeps_the_last_complete_iteration() {
    let pos = Position::startpos();
    let mut s = Searcher::new(1);
    s.set_sss_max_states(100);
    let opts = SearchOptions {
        features: Features::pure(),
        algorithm: Algorithm::Sss,
        ..Default::default()
    };
    let limits = SearchLimits {
        depth: Some(6),
        ..Default::default()
    };
    let r = s.search(
        &pos,
        &limits,
        &opts,
        &SearchControl::default(),
        &mut SilentReporter,
    );
    // Depth 1 needs 21 states, depth 2 some 40, depth 3 more than 100.
    assert!((1..3).contains(&r.depth), "depth {}", r.depth);
    assert!(r.best.is_some_and(|m| pos.legal_moves().contains(&m)));
    assert!(r.stats.sss_peak_open <= 101, "{}", r.stats.sss_peak_open);
}

#[test]
fn sss_honours_searchmoves() {
    let pos = Position::startpos();
    let only = pos.parse_uci_move("a2a3").expect("legal");
    let mut s = Searcher::new(1);
    let opts = SearchOptions {
        features: Features::all(),
        algorithm: Algorithm::Sss,
        ..Default::default()
    };
    let limits = SearchLimits {
        depth: Some(3),
        searchmoves: vec![only],
        ..Default::default()
    };
    let r = s.search(
        &pos,
        &limits,
        &opts,
        &SearchControl::default(),
        &mut SilentReporter,
    );
    assert_eq!(r.best, Some(only));
}

#[test]
fn lab_command_writes_tables_csv_and_svg_and_refuses_bad_input() {
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_nullwindow");
    let dir = std::env::temp_dir().join(format!("nullwindow-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let csv = dir.join("lab.csv");
    let svg = dir.join("lab.svg");
    let out = Command::new(exe)
        .args(["lab", "--pure", "--depth", "1-2", "--positions", "3", "-q"])
        .arg(format!("--csv={}", csv.display()))
        .arg("--svg")
        .arg(&svg)
        .output()
        .expect("run lab");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("### depth 2 (pure mode, 3 positions, hash 16 MB)"),
        "{text}"
    );
    assert!(text.contains("| SSS | 3/3 |"), "{text}");
    let rows = std::fs::read_to_string(&csv).expect("csv written");
    assert_eq!(rows.lines().count(), 1 + 2 * Algorithm::ALL.len());
    assert!(rows.starts_with("mode,depth,hash_mb,algorithm,"));
    let chart = std::fs::read_to_string(&svg).expect("svg written");
    assert!(chart.contains("<polyline") && chart.contains("MTDUAL"));

    let sweep = Command::new(exe)
        .args(["lab", "--tt-sweep", "--depth", "2", "--positions", "2"])
        .args(["--hashes", "1,2", "-q"])
        .output()
        .expect("run sweep");
    assert!(sweep.status.success());
    let text = String::from_utf8_lossy(&sweep.stdout);
    assert!(text.contains("| 2 | MTSSS | 2/2 |"), "{text}");

    // Both memories, a capped driver and a journal that a second run takes every search from.
    let journal = dir.join("journal.txt");
    let both = |csv: &std::path::Path| {
        Command::new(exe)
            .args(["lab", "--depth", "1-2", "--positions", "2", "-q"])
            .args([
                "--algorithms",
                "MTDf,SSS",
                "--cap",
                "SSS=1",
                "--tt-bounds",
                "1,2",
            ])
            .arg("--journal")
            .arg(&journal)
            .arg("--csv")
            .arg(csv)
            .output()
            .expect("run lab")
    };
    let first = both(&dir.join("b1.csv"));
    assert!(first.status.success());
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(
        text.contains("### depth 2 (pure mode, 2 positions, hash 16 MB, two-bound TT)"),
        "{text}"
    );
    assert_eq!(text.matches("| SSS | 2/2 |").count(), 2, "{text}");
    assert_eq!(text.matches("| MTDf | 2/2 |").count(), 4, "{text}");
    let rows = std::fs::read_to_string(dir.join("b1.csv")).expect("csv written");
    // (AspirationPVS, MTDf) x 2 depths + SSS at depth 1, for each memory.
    assert_eq!(rows.lines().count(), 1 + 2 * 5, "{rows}");
    assert!(
        rows.lines()
            .skip(1)
            .all(|l| l.ends_with(",1") || l.ends_with(",2"))
    );
    let searches = std::fs::read_to_string(&journal).expect("journal written");
    assert_eq!(searches.lines().count(), 2 * 2 * 3);
    let again = both(&dir.join("b2.csv"));
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.join("b1.csv")).expect("csv"),
        std::fs::read_to_string(dir.join("b2.csv")).expect("csv"),
        "a resumed run gives the same rows"
    );
    assert_eq!(
        std::fs::read_to_string(&journal).expect("journal"),
        searches,
        "nothing searched again"
    );

    for bad in [
        &["lab", "--depth", "3-1"][..],
        &["lab", "--tt-bounds", "3"],
        &["lab", "--cap", "SSS"],
        &["lab", "--cap", "Nonsense=3"],
        &["lab", "--algorithms", "PVS,Nonsense"],
        &["lab", "--epd", "/nonexistent/file.epd"],
        &["lab", "--hash", "0"],
        &["lab", "--frobnicate"],
    ] {
        let out = Command::new(exe).args(bad).output().expect("run lab");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
