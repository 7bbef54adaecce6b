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

/// The pieces `Position::make` records for a move (`Position::changes_at`) must be exactly the
/// difference between the parent's and the child's boards (the NNUE accumulators are updated
/// from them), for every move two plies deep from the perft suite and from a Chess960 sample
/// (castling with the king or the rook staying, or swapping squares), and a null move is no
/// change. Entry 0 of the stack has no recorded changes (a FEN's position, or after
/// `clear_undo`).
#[test]
fn recorded_piece_changes_equal_the_board_difference() {
    use nullwindow::position::{Board, Move, Piece, Square};

    #[derive(Default, Debug)]
    struct Seen {
        moves: usize,
        captures: usize,
        en_passant: usize,
        promotions: usize,
        capture_promotions: usize,
        castles: usize,
        castles_king_stays: usize,
        castles_rook_stays: usize,
        nulls: usize,
    }

    /// Pieces on squares.
    type Placed = Vec<(Piece, Square)>;

    /// The pieces only `before` has, and the pieces only `after` has.
    fn difference(before: &Board, after: &Board) -> (Placed, Placed) {
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        for sq in Square::ALL {
            let (was, now) = (before.piece_at(sq), after.piece_at(sq));
            if was != now {
                removed.extend(was.map(|p| (p, sq)));
                added.extend(now.map(|p| (p, sq)));
            }
        }
        (removed, added)
    }

    fn key(&(p, sq): &(Piece, Square)) -> (u8, u8, u8) {
        (p.color as u8, p.role as u8, sq as u8)
    }

    fn check(pos: &Position, what: &str) {
        let top = pos.stack_len() - 1;
        let ch = pos
            .changes_at(top)
            .unwrap_or_else(|| panic!("{what}: no changes recorded"));
        let (mut removed, mut added) = difference(pos.board_at(top - 1), pos.board_at(top));
        let (mut got_removed, mut got_added) = (ch.removed().to_vec(), ch.added().to_vec());
        for list in [&mut removed, &mut added, &mut got_removed, &mut got_added] {
            list.sort_by_key(key);
        }
        assert_eq!(got_removed, removed, "{what}: removed pieces");
        assert_eq!(got_added, added, "{what}: added pieces");
    }

    fn walk(pos: &mut Position, depth: u32, fen: &str, seen: &mut Seen) {
        if depth == 0 {
            return;
        }
        if !pos.is_check() && pos.make_null() {
            seen.nulls += 1;
            check(pos, &format!("{fen}: null move"));
            let top = pos.stack_len() - 1;
            let ch = pos.changes_at(top).expect("a null move's changes");
            assert!(ch.removed().is_empty() && ch.added().is_empty());
            pos.unmake();
        }
        for m in pos.legal_moves() {
            seen.moves += 1;
            match m {
                Move::Normal {
                    capture, promotion, ..
                } => {
                    seen.captures += capture.is_some() as usize;
                    seen.promotions += promotion.is_some() as usize;
                    seen.capture_promotions += (capture.is_some() && promotion.is_some()) as usize;
                }
                Move::EnPassant { .. } => seen.en_passant += 1,
                Move::Castle { king, rook } => {
                    seen.castles += 1;
                    let board = pos.board().clone();
                    pos.make(m);
                    let now = pos.board();
                    seen.castles_king_stays +=
                        (now.piece_at(king) == board.piece_at(king)) as usize;
                    seen.castles_rook_stays +=
                        (now.piece_at(rook) == board.piece_at(rook)) as usize;
                    pos.unmake();
                }
                Move::Put { .. } => {}
            }
            pos.make(m);
            check(pos, &format!("{fen}: {m:?}"));
            walk(pos, depth - 1, fen, seen);
            pos.unmake();
        }
    }

    let mut seen = Seen::default();
    let suite = parse(SUITE);
    let fischer = parse(FISCHER);
    let lines = suite
        .iter()
        .map(|(fen, _)| (fen, false))
        .chain(fischer.iter().take(120).map(|(fen, _)| (fen, true)));
    for (fen, chess960) in lines {
        let Ok(mut pos) = Position::from_fen(fen, chess960) else {
            continue;
        };
        assert!(pos.changes_at(0).is_none(), "{fen}: the root has no parent");
        walk(&mut pos, 2, fen, &mut seen);
        // After `clear_undo` the bottom entry's parent is gone.
        if let Some(&m) = pos.legal_moves().first() {
            pos.make(m);
            pos.clear_undo();
            assert_eq!(pos.stack_len(), 1);
            assert!(pos.changes_at(0).is_none(), "{fen}: after clear_undo");
        }
    }
    eprintln!("{seen:?}");
    assert!(seen.moves > 100_000, "{seen:?}");
    for (n, what) in [
        (seen.captures, "captures"),
        (seen.en_passant, "en passant"),
        (seen.promotions, "promotions"),
        (seen.capture_promotions, "capture promotions"),
        (seen.castles, "castles"),
        (seen.castles_king_stays, "castles with the king staying"),
        (seen.castles_rook_stays, "castles with the rook staying"),
        (seen.nulls, "null moves"),
    ] {
        assert!(n > 0, "no {what} met: {seen:?}");
    }
}
