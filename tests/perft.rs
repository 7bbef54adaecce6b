//! Perft: the classic suite and a Chess960 sample, every depth up to a node budget.
//! `make perft-full` runs every depth (`--ignored` tests).

use nullwindow::position::{Position, perft};

const SUITE: &str = include_str!("data/perftsuite.epd");
const FISCHER: &str = include_str!("data/fischer.epd");

/// (fen, [(depth, nodes)]) for each line of an EPD perft file.
fn parse(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let counts = parts
                .filter_map(|p| {
                    let p = p.trim();
                    let (d, n) = p.strip_prefix('D')?.split_once(' ')?;
                    Some((d.parse().ok()?, n.trim().parse().ok()?))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

fn run(text: &str, chess960: bool, every: usize, budget: u64) -> u64 {
    let mut checked = 0;
    for (i, (fen, counts)) in parse(text).into_iter().enumerate() {
        if i % every != 0 {
            continue;
        }
        let mut pos =
            Position::from_fen(&fen, chess960).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        for (depth, expected) in counts {
            if expected > budget {
                continue;
            }
            assert_eq!(
                perft(&mut pos, depth),
                expected,
                "line {} depth {depth}: {fen}",
                i + 1
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_suite_all_positions() {
    let n = run(SUITE, false, 1, 3_000_000);
    assert!(n > 600, "only {n} (position, depth) pairs checked");
}

#[test]
fn suite_has_128_positions_including_impossible_check() {
    let lines = parse(SUITE);
    assert_eq!(lines.len(), 128);
    assert!(Position::from_fen(&lines[50].0, false).is_ok());
}

#[test]
fn chess960_sample() {
    // Every 12th of the 960 positions: 80 positions, depths up to 1M nodes.
    let n = run(FISCHER, true, 12, 1_000_000);
    assert!(n >= 80 * 3, "only {n} pairs checked");
}

#[test]
fn named_edge_cases() {
    // Counts cross-checked with python-chess 1.11, an independent move generator.
    for (fen, depth, nodes) in [
        // En passant capture bxc6 would expose the king on a5 to the rook on h5: illegal.
        ("8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2", 1, 16),
        ("8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2", 3, 2883),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
        // In check from g1: castling is illegal, three replies.
        ("r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1", 1, 3),
        ("r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1", 3, 1774),
        // Promotions with and without capture.
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 4, 182_838),
        // Four-field FEN (no move counters).
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
            3,
            97_862,
        ),
    ] {
        let mut pos = Position::from_fen(fen, false).expect(fen);
        assert_eq!(perft(&mut pos, depth), nodes, "{fen}");
    }
}

#[test]
#[ignore = "every depth of both files: minutes; run with `make perft-full`"]
fn perft_full_suite() {
    run(SUITE, false, 1, u64::MAX);
}

#[test]
#[ignore = "every depth of all 960 positions: long; run with `make perft-full`"]
fn perft_full_chess960() {
    run(FISCHER, true, 1, u64::MAX);
}
