//! The tuning pipeline: the tuner lowers the error on a synthetic set, K fitting finds the scale
//! the labels were drawn with, datagen plays games and writes correctly labelled lines, and
//! both subcommands run end to end on tiny inputs.

use std::path::PathBuf;
use std::process::Command;

use std::sync::atomic::AtomicBool;

use nullwindow::datagen::format::read_file;
use nullwindow::datagen::{self, DatagenOptions, GameConfig, play_game};
use nullwindow::eval::trace::{EvalTrace, Group, weights};
use nullwindow::position::{Color, Position};
use nullwindow::search::Searcher;
use nullwindow::tune::{
    Adam, Dataset, evaluations, fit_k, float_weights, gradient, mse, normalise,
    parse_labelled_line, parse_score, sigmoid,
};

const BENCH: &str = include_str!("../bench-positions/bench.epd");
const SUITE: &str = include_str!("data/perftsuite.epd");

fn positions() -> Vec<Position> {
    BENCH
        .lines()
        .chain(SUITE.lines())
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|f| Position::from_fen(f, false).ok())
        .collect()
}

fn dataset(copies: usize) -> Dataset {
    let mut d = Dataset::new();
    let mut tr = EvalTrace::new();
    for p in positions() {
        for _ in 0..copies {
            d.push(&p, 0.5, &mut tr);
        }
    }
    d
}

/// A uniform number in [0, 1) from two integers (splitmix64).
fn uniform(a: usize, b: usize) -> f64 {
    let mut z = (a as u64) << 32 ^ b as u64 ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nullwindow-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn tuner_lowers_the_error_on_a_synthetic_set() {
    // Labels are the expected scores of a "true" evaluation in which knights are worth 120
    // more and the tempo 30 more; tuning from the built-in weights must find its values.
    let mut d = dataset(1);
    let start = float_weights(&weights());
    let mut truth = start.clone();
    let knight = Group::PieceValue.index(1);
    truth[knight][0] += 120.0;
    truth[knight][1] += 120.0;
    truth[Group::Tempo.index(0)][0] += 30.0;
    let k = 1.0;
    let target = evaluations(&d, &truth, 1);
    d.set_results(|i| sigmoid(k, target[i]) as f32);

    let mut w = start.clone();
    let before = mse(&d, &w, k, 2);
    let mut adam = Adam::new(w.len(), 2.0);
    let mut losses = Vec::new();
    for _ in 0..150 {
        let (g, loss) = gradient(&d, &w, k, 2);
        losses.push(loss);
        adam.step(&mut w, &g);
    }
    let after = mse(&d, &w, k, 2);
    assert!(after < before * 0.1, "MSE {before} -> {after}");
    // Adam's momentum does not make every step better, but the trend must be down.
    assert!(
        losses[50] < before && losses[100] < losses[10],
        "{losses:?}"
    );

    // The tuned evaluations have moved to the true ones (the weights need not: on 190
    // positions many weight sets give the same evaluations).
    let gap = |x: &[f64]| -> f64 {
        x.iter()
            .zip(&target)
            .map(|(a, b)| (a - b).abs())
            .sum::<f64>()
            / x.len() as f64
    };
    let gap_before = gap(&evaluations(&d, &start, 1));
    let gap_after = gap(&evaluations(&d, &w, 1));
    assert!(
        gap_after < 0.2 * gap_before,
        "mean |eval - true eval| {gap_before} -> {gap_after}"
    );
    // Normalising the tables keeps every evaluation.
    let mut n = w.clone();
    normalise(&mut n, &start);
    assert!((gap(&evaluations(&d, &n, 1)) - gap_after).abs() < 1e-6);
}

#[test]
fn k_fit_finds_the_scale_of_drawn_results() {
    // Each position played 60 times, won with probability sigmoid(1.3 · eval): the fitted K
    // must land near 1.3 even though every label is 0 or 1.
    let copies = 60;
    let mut d = dataset(copies);
    let w = float_weights(&weights());
    let evals = evaluations(&d, &w, 2);
    d.set_results(|i| {
        if uniform(i / copies, i % copies) < sigmoid(1.3, evals[i]) {
            1.0
        } else {
            0.0
        }
    });
    let k = fit_k(&d, &w, 2);
    assert!((1.0..1.6).contains(&k), "K = {k}");
}

#[test]
fn datagen_games_are_labelled_by_their_result() {
    // Queen against bare king: White wins (mate on the board, a mate score or resignation),
    // and every kept position carries "1-0", whoever is to move.
    let cfg = GameConfig {
        nodes: 400,
        ..Default::default()
    };
    let mut searcher = Searcher::new(1);
    for fen in [
        "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
        "8/8/8/4k3/8/8/3QK3/8 b - - 0 1",
    ] {
        let rec = play_game(
            &Position::from_fen(fen, false).expect("fen"),
            &cfg,
            &mut searcher,
        );
        assert_eq!(rec.result_text(), "1-0", "{fen}: {rec:?}");
        assert!(!rec.positions.is_empty(), "{fen}: nothing kept");
        for line in rec.lines() {
            let (f, r) = parse_labelled_line(&line).expect("parseable");
            assert_eq!(r, 1.0, "{line}");
            let p = Position::from_fen(&f, false).expect("legal position");
            assert!(!p.is_check(), "{line}");
            assert!(line.contains(" c9 \"1-0\"; ce "), "{line}");
            // The search score, side to move's view: White is a queen up.
            let score = parse_score(&line).expect("search score");
            let white = if p.turn() == Color::White {
                score
            } else {
                -score
            };
            assert!(white > 300, "{line}");
        }
    }
}

fn datagen_options(
    dir: &std::path::Path,
    name: &str,
    games: usize,
    threads: usize,
) -> DatagenOptions {
    DatagenOptions {
        openings: None,
        random_plies: 8,
        opening_max_score: 400,
        games,
        out: dir.join(name).to_string_lossy().into_owned(),
        threads,
        seed: 7,
        hash_mb: 1,
        game: GameConfig {
            nodes: 300,
            ..Default::default()
        },
    }
}

#[test]
fn datagen_writes_checked_binary_records() {
    let dir = temp_dir("datagen");
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n\
         not an opening\n\
         rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2\n",
    )
    .expect("write openings");
    let mut o = datagen_options(&dir, "book.bin", 2, 2);
    o.openings = Some(openings.to_string_lossy().into_owned());
    o.random_plies = 2;
    let sum = datagen::run(&o, &AtomicBool::new(false), &|_| {}).expect("datagen");
    assert_eq!(sum.games, 2);
    let records = read_file(&o.out).expect("records");
    assert_eq!(records.len(), sum.positions);
    assert!(sum.positions > 10, "{sum:?}");
    let mut by_result = [0; 3];
    for r in &records {
        let p = Position::from_fen(&r.fen(), false).expect("legal position");
        assert!(!p.is_check(), "{}", r.fen());
        assert!(
            r.score.unsigned_abs() < 20_000,
            "mate score kept: {}",
            r.epd()
        );
        by_result[2 - r.result as usize] += 1;
    }
    assert_eq!(by_result, sum.positions_by_result);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_noisy_nodes_cost_less_and_stay_deterministic() {
    // A cheaper search for positions that are not kept (in check, or a capture expected)
    // spends fewer nodes per kept position than a full search of every ply, is the same file
    // for a seed on 1 and 2 threads, and a run cannot be resumed with another budget.
    let dir = temp_dir("datagen-noisy");
    let mut full = datagen_options(&dir, "full.bin", 6, 2);
    full.game.nodes = 600;
    let full_sum = datagen::run(&full, &AtomicBool::new(false), &|_| {}).expect("full run");
    let mut cheap = datagen_options(&dir, "cheap1.bin", 6, 1);
    cheap.game.nodes = 600;
    cheap.game.noisy_nodes = Some(100);
    let one = datagen::run(&cheap, &AtomicBool::new(false), &|_| {}).expect("cheap run");
    let per = |s: &datagen::DatagenSummary| s.nodes as f64 / s.positions.max(1) as f64;
    assert!(one.positions > 50, "{one:?}");
    assert!(
        per(&one) < 0.95 * per(&full_sum),
        "nodes a kept position: {} with --noisy-nodes, {} without",
        per(&one),
        per(&full_sum)
    );
    let mut two = cheap.clone();
    two.threads = 2;
    two.out = dir.join("cheap2.bin").to_string_lossy().into_owned();
    datagen::run(&two, &AtomicBool::new(false), &|_| {}).expect("2 threads");
    assert_eq!(
        std::fs::read(&cheap.out).expect("1"),
        std::fs::read(&two.out).expect("2")
    );
    for r in read_file(&cheap.out).expect("records") {
        let p = Position::from_fen(&r.fen(), false).expect("legal position");
        assert!(!p.is_check(), "{}", r.fen());
    }
    // The budget is one of the settings a resumed run must keep.
    cheap.games = 7;
    cheap.game.noisy_nodes = Some(200);
    let err = datagen::run(&cheap, &AtomicBool::new(false), &|_| {}).expect_err("other budget");
    assert!(err.contains("noisy-nodes=100"), "{err}");
    // So is the table's size: it changes the games.
    cheap.game.noisy_nodes = Some(100);
    cheap.hash_mb = 2;
    let err = datagen::run(&cheap, &AtomicBool::new(false), &|_| {}).expect_err("other hash");
    assert!(err.contains("noisy-nodes=100 hash=1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_is_deterministic_and_resumes() {
    let dir = temp_dir("datagen-resume");
    // One run of 5 games on 2 threads ...
    let whole = datagen_options(&dir, "whole.bin", 5, 2);
    datagen::run(&whole, &AtomicBool::new(false), &|_| {}).expect("whole run");
    let whole_bytes = std::fs::read(&whole.out).expect("whole");
    // ... equals 2 games on 1 thread, then a resumed run to 5 on 2 threads after a crash
    // left a partial record at the end of the file.
    let mut part = datagen_options(&dir, "part.bin", 2, 1);
    let sum = datagen::run(&part, &AtomicBool::new(false), &|_| {}).expect("first part");
    assert_eq!(sum.games_total, 2);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&part.out)
        .expect("open");
    std::io::Write::write_all(&mut f, &[0xAB; 45]).expect("torn tail");
    drop(f);
    part.games = 5;
    part.threads = 2;
    let sum = datagen::run(&part, &AtomicBool::new(false), &|_| {}).expect("resumed");
    assert_eq!((sum.games, sum.games_total), (3, 5));
    assert_eq!(std::fs::read(&part.out).expect("part"), whole_bytes);
    // Nothing left to do: a rerun plays no game.
    let sum = datagen::run(&part, &AtomicBool::new(false), &|_| {}).expect("rerun");
    assert_eq!(sum.games, 0);
    // Other settings for the same seed are refused, not mixed in.
    part.game.nodes = 301;
    assert!(datagen::run(&part, &AtomicBool::new(false), &|_| {}).is_err());
    // A foreign file is refused and left alone.
    let foreign = dir.join("foreign.bin");
    let junk = b"this is not a data file at all, no magic here";
    std::fs::write(&foreign, junk).expect("w");
    let mut o = datagen_options(&dir, "foreign.bin", 1, 1);
    o.out = foreign.to_string_lossy().into_owned();
    let err = datagen::run(&o, &AtomicBool::new(false), &|_| {}).expect_err("foreign");
    assert!(err.contains("not a Nullwindow data file"), "{err}");
    assert_eq!(std::fs::read(&foreign).expect("r"), junk);
    // The reader refuses a truncated file.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &whole_bytes[..whole_bytes.len() - 7]).expect("w");
    let err = read_file(&cut.to_string_lossy()).expect_err("truncated");
    assert!(err.contains("truncated"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_and_tune_run_from_the_command_line() {
    let dir = temp_dir("pipeline");
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n",
    )
    .expect("write openings");
    let bin_data = dir.join("data.bin");
    let data = dir.join("data.epd");
    let params = dir.join("params.rs");
    let bin = env!("CARGO_BIN_EXE_nullwindow");
    let run = |args: &[&str]| {
        let out = Command::new(bin).args(args).output().expect("run");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{args:?}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let s = |p: &PathBuf| p.to_string_lossy().into_owned();
    let text = run(&[
        "datagen",
        "--openings",
        &s(&openings),
        "--games",
        "2",
        "--nodes",
        "300",
        "--hash",
        "1",
        "--out",
        &s(&bin_data),
    ]);
    assert!(text.contains("from 2 games"), "{text}");
    let text = run(&["datagen", "inspect", &s(&bin_data), "--to-epd", &s(&data)]);
    assert!(text.contains(" positions; results 1-0 "), "{text}");
    assert!(text.contains("EPD lines to"), "{text}");
    // A malformed line is skipped and counted.
    let mut lines = std::fs::read_to_string(&data).expect("data");
    lines.push_str("this is not a position \"1-0\"\n");
    std::fs::write(&data, lines).expect("write data");

    let text = run(&[
        "tune",
        "--data",
        &s(&data),
        "--epochs",
        "5",
        "--threads",
        "2",
        "--lambda",
        "0.5",
        "--out",
        &s(&params),
    ]);
    assert!(text.contains("1 skipped as malformed"), "{text}");
    assert!(text.contains("K = "), "{text}");
    assert!(text.contains("training target: 0.50·result"), "{text}");
    let written = std::fs::read_to_string(&params).expect("params");
    assert!(
        written.contains("pub const TEMPO: Score = Score("),
        "{written}"
    );
    assert!(written.contains("pub const KING_DANGER_DIVISOR: i32 = 10;"));

    // Bad arguments fail with a message, not a panic.
    let out = Command::new(bin)
        .args(["tune", "--data"])
        .output()
        .expect("run");
    assert!(!out.status.success());
    let out = Command::new(bin)
        .args(["tune", "--data", &s(&dir.join("missing.epd"))])
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let _ = std::fs::remove_dir_all(&dir);
}
