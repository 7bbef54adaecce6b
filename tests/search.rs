//! Search correctness: exact mate scores, draws by repetition and stalemate, determinism.
//! Positions and mate distances were checked with Stockfish 16 (Debian) at depth 22-30.

use nullwindow::limits::SearchLimits;
use nullwindow::position::Position;
use nullwindow::search::{
    Algorithm, MATE, SearchControl, SearchOptions, SearchResult, Searcher, SilentReporter,
    uci_score,
};

fn search(pos: &Position, limits: SearchLimits, algorithm: Algorithm) -> SearchResult {
    let opts = SearchOptions {
        algorithm,
        ..Default::default()
    };
    search_with(pos, &limits, &opts)
}

/// One search with a fresh 16 MB searcher and the given options.
fn search_with(pos: &Position, limits: &SearchLimits, opts: &SearchOptions) -> SearchResult {
    Searcher::new(16).search(
        pos,
        limits,
        opts,
        &SearchControl::default(),
        &mut SilentReporter,
    )
}

fn depth(d: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(d),
        ..Default::default()
    }
}

fn uci(pos: &Position, r: &SearchResult) -> String {
    r.best.map(|m| pos.move_to_uci(m)).unwrap_or_default()
}

#[test]
fn finds_mates_with_exact_distance() {
    for (fen, mate_in, best) in [
        // Mate in 2: Nf6+ gxf6 Bxf7#.
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            2,
            Some("d5f6"),
        ),
        // Bratko-Kopec 1: Qd1+ mates in 3.
        (
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
            3,
            Some("d6d1"),
        ),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, Some("f6a6")),
        // Rook and bishop against king and pawn: mate in 4.
        ("8/8/4K1k1/8/4p3/8/2R2B2/8 w - - 0 1", 4, None),
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        // The other drivers prune differently; in mating nets with many quiet moves they may
        // report a longer mate first, so the deepest case is checked for the default only.
        let algos: &[Algorithm] = if mate_in <= 3 {
            &[Algorithm::Pvs, Algorithm::AspirationPvs, Algorithm::MtdF]
        } else {
            &[Algorithm::Pvs]
        };
        // Forward pruning (late move and futility pruning of quiet moves) delays the shortest
        // mate in quiet mating nets: in the rook-and-bishop ending the engine reports a longer
        // mate from depth 16 and the mate in 4 from depth 21 (nw-g13); with nw-g14 the test's
        // search still reports a mate in 6 at depth 24 and the mate in 4 at 26. So that case
        // searches deeper (26 holds with nw-g15 too).
        let d = if mate_in <= 3 { 2 * mate_in + 8 } else { 26 };
        for &algo in algos {
            let r = search(&pos, depth(d), algo);
            assert_eq!(uci_score(r.score), (true, mate_in as i32), "{fen} {algo:?}");
            assert_eq!(r.score, MATE - (2 * mate_in as i32 - 1), "{fen} {algo:?}");
            if let Some(b) = best {
                assert_eq!(uci(&pos, &r), b, "{fen} {algo:?}");
            }
        }
    }
}

#[test]
fn exact_mate_in_pure_mode() {
    // With reductions on, the engine first finds a mate in 6 here (LMR reduces the quiet
    // mating moves); the full-width search finds the shortest mate, Stockfish's #4.
    let pos = Position::from_fen("8/8/8/8/8/k2K4/5B2/2R5 w - - 0 1", false).unwrap();
    let opts = SearchOptions {
        features: nullwindow::search::Features::pure(),
        ..Default::default()
    };
    let r = search_with(&pos, &depth(9), &opts);
    assert_eq!(uci_score(r.score), (true, 4));
}

#[test]
fn go_mate_stops_at_the_mate() {
    let pos = Position::from_fen("8/8/4K1k1/8/4p3/8/2R2B2/8 w - - 0 1", false).unwrap();
    let r = search(
        &pos,
        SearchLimits {
            mate: Some(4),
            ..Default::default()
        },
        Algorithm::Pvs,
    );
    assert_eq!(uci_score(r.score), (true, 4));
}

#[test]
fn repetition_line_scores_zero() {
    // The knights went out and back twice; Ng8 now repeats the start position a third time.
    let mut pos = Position::startpos();
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        let m = pos.parse_uci_move(mv).unwrap();
        pos.make(m);
    }
    let ng8 = pos.parse_uci_move("f6g8").unwrap();
    let limits = SearchLimits {
        depth: Some(8),
        searchmoves: vec![ng8],
        ..Default::default()
    };
    for algo in [Algorithm::Pvs, Algorithm::MtdF, Algorithm::AlphaBeta] {
        let r = search(&pos, limits.clone(), algo);
        assert_eq!(r.score, 0, "{algo:?}");
    }
}

#[test]
fn stalemate_trick_scores_zero() {
    // Lost for White, except Qxg7+ Kxg7 stalemate.
    let pos = Position::from_fen("6k1/5pp1/8/8/6Q1/8/1r5q/K7 w - - 0 1", false).unwrap();
    let r = search(&pos, depth(6), Algorithm::Pvs);
    assert_eq!(uci(&pos, &r), "g4g7");
    assert_eq!(r.score, 0);
}

#[test]
fn fixed_nodes_search_is_deterministic() {
    let pos = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    )
    .unwrap();
    let limits = SearchLimits {
        nodes: Some(50_000),
        ..Default::default()
    };
    let a = search(&pos, limits.clone(), Algorithm::Pvs);
    let b = search(&pos, limits, Algorithm::Pvs);
    assert_eq!(
        (a.best, a.score, a.nodes, a.depth),
        (b.best, b.score, b.nodes, b.depth)
    );
    assert!(a.nodes <= 50_000);
}

#[test]
fn all_drivers_agree_in_pure_mode() {
    let pos = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    )
    .unwrap();
    let mut values = Vec::new();
    for algo in Algorithm::ALL {
        let opts = SearchOptions {
            algorithm: algo,
            features: nullwindow::search::Features::pure(),
            ..Default::default()
        };
        let r = search_with(&pos, &depth(4), &opts);
        values.push((algo, r.score));
    }
    assert!(values.iter().all(|v| v.1 == values[0].1), "{values:?}");
}

/// With the correction histories on (pawn and non-pawn), a search is still repeatable (a
/// fresh searcher, and the same searcher after `new_game`, find the same move, score and
/// node count), and corrected evals make no false mates: the mate in 2 is still found with
/// its exact distance.
#[test]
fn correction_history_search_is_deterministic_and_keeps_mates_exact() {
    let features = nullwindow::search::Features::parse("default +corrhist +corrnp").unwrap();
    let opts = SearchOptions {
        features,
        ..Default::default()
    };
    let limits = SearchLimits {
        nodes: Some(60_000),
        ..Default::default()
    };
    let run = |s: &mut Searcher, fen: &str, limits: &SearchLimits| {
        let pos = Position::from_fen(fen, false).unwrap();
        s.search(
            &pos,
            limits,
            &opts,
            &SearchControl::default(),
            &mut SilentReporter,
        )
    };
    let mut reused = Searcher::new(16);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        let a = run(&mut Searcher::new(16), fen, &limits);
        reused.new_game();
        let b = run(&mut reused, fen, &limits);
        assert_eq!(
            (a.best, a.score, a.nodes, a.depth),
            (b.best, b.score, b.nodes, b.depth),
            "{fen}"
        );
        assert!(a.score.abs() < MATE - 200, "{fen}: {}", a.score);
    }
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let r = run(&mut Searcher::new(16), fen, &depth(6));
    assert_eq!(uci_score(r.score), (true, 2));
}

/// `bench` is the behaviour signature: two runs give the same node count.
#[test]
fn bench_is_repeatable() {
    let a = nullwindow::bench::bench(6, None, |_, _, _| {});
    let b = nullwindow::bench::bench(6, None, |_, _, _| {});
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 0);
}

/// Every switch that is off by default is wired into the search: turning it on changes the
/// node count of a fixed-depth search on at least one of a few positions (a switch whose
/// condition is implied by others, and so can never act, fails here). The `MTDf` driver's
/// switches shape that driver only and are left out.
#[test]
fn every_off_switch_changes_the_search() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 30 9",
        "6k1/5pp1/1p5p/p1rR4/P1P5/1P4P1/5P1P/6K1 b - - 12 34",
        // With nw-g19 `etc` leaves the three above unchanged at depth 12; here it acts.
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    ];
    let nodes = |features: nullwindow::search::Features| -> Vec<u64> {
        let opts = SearchOptions {
            features,
            ..Default::default()
        };
        fens.iter()
            .map(|fen| {
                let pos = Position::from_fen(fen, false).unwrap();
                search_with(&pos, &depth(12), &opts).nodes
            })
            .collect()
    };
    let base = nodes(nullwindow::search::Features::default());
    for name in nullwindow::search::OFF_BY_DEFAULT {
        if name.starts_with("mtd") {
            continue;
        }
        let f = nullwindow::search::Features::parse(&format!("default +{name}")).unwrap();
        assert_ne!(
            nodes(f),
            base,
            "+{name} searches the same tree as the default"
        );
    }
}
