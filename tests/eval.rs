//! Evaluation: colour symmetry, the cached evaluator agreeing with the stateless one, the
//! tuning trace reproducing the evaluation, and a few sanity values.

use nullwindow::eval::trace::{EvalTrace, NUM_WEIGHTS, weights};
use nullwindow::eval::{Evaluator, evaluate, evaluate_traced, phase};
use nullwindow::position::{Position, START_FEN};
use shakmaty::Setup;
use shakmaty::fen::{Fen, LossyFenError};

const BENCH: &str = include_str!("../bench-positions/bench.epd");
const SUITE: &str = include_str!("data/perftsuite.epd");
/// Test suites in EPD (four FEN fields, then opcodes such as `bm`).
const TEST_SUITES: [&str; 3] = [
    include_str!("data/bratko-kopec.epd"),
    include_str!("data/ecmgcp.epd"),
    include_str!("data/arasan2024.epd"),
];

/// Extra positions that exercise king safety, passed pawns and the endgame scaling.
const EXTRA: &[&str] = &[
    // Attack on a castled king with queen and minor pieces.
    "r1b2rk1/ppp2ppp/2n5/3qp1N1/3P4/2PB4/P4PPP/R2QK2R w KQ - 0 12",
    "r4rk1/pp3ppp/2n1b3/q2pN1B1/3P4/2PBQ3/P4PPP/R4RK1 b - - 3 15",
    // Passed pawns, kings near and far.
    "8/5k2/8/2P5/8/8/1K6/8 w - - 0 1",
    "8/1P6/8/8/8/5k2/8/1K6 b - - 0 1",
    "8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1",
    // Opposite-coloured bishops, pawnless small edges, two knights.
    "8/5k2/3b4/8/2P5/3B4/2K5/8 w - - 0 1",
    "8/8/4k3/8/8/2B1K3/3N4/8 w - - 0 1",
    "8/8/4k3/8/3r4/8/3BK3/8 b - - 0 1",
    "8/8/4k3/8/8/3NK3/3N4/8 w - - 0 1",
    // Rooks on open files and the seventh.
    "6k1/1R3ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1",
    // Outposts, threats, pawn storms, candidates, wrong bishop, the rule of the square.
    "4k3/pp3ppp/8/3N4/4P3/8/PPP2PPP/4K3 w - - 0 1",
    "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1",
    "6k1/8/8/8/7p/6p1/5PPP/6K1 w - - 0 1",
    "4k3/8/1p6/8/1PP5/8/8/4K3 w - - 0 1",
    "k7/8/P7/1K6/8/8/8/2B5 w - - 0 1",
    "k7/8/P7/1K6/8/8/8/3B4 w - - 0 1",
    "8/8/8/P3k3/8/8/8/K7 w - - 0 1",
    "8/8/8/P3k3/8/8/8/K7 b - - 0 1",
    "r2qk2r/ppp2ppp/2n5/3np3/2B1P3/2NP1N2/PPP2PPP/R2QK2R b KQkq - 0 8",
];

/// FENs of an EPD file (the part of each line before the first `;`; `#` lines skipped).
fn fens(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// FENs of an EPD suite: the four position fields of each line, with move counters added.
fn epd_fens(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>())
        .filter(|f| f.len() == 4)
        .map(|f| format!("{} 0 1", f.join(" ")))
        .collect()
}

fn all_fens() -> Vec<String> {
    let mut v = fens(BENCH);
    v.extend(fens(SUITE));
    for suite in TEST_SUITES {
        v.extend(epd_fens(suite));
    }
    v.extend(EXTRA.iter().map(|s| s.to_string()));
    v
}

/// The FEN flipped vertically with colours, side to move, castling rights and en passant
/// square swapped: the same situation for the side to move.
fn mirror_fen(fen: &str) -> String {
    let parsed: Fen = fen.parse().expect("fen");
    let setup: Setup = parsed.into();
    Fen::try_from_setup(setup.into_mirrored())
        .unwrap_or_else(LossyFenError::ignore)
        .to_string()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn mirror_helper_works() {
    assert_eq!(mirror_fen(START_FEN), START_FEN.replace(" w ", " b "));
    assert_eq!(
        mirror_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
        "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq f3 0 3"
    );
}

#[test]
fn evaluation_is_colour_symmetric() {
    let mut checked = 0;
    for fen in all_fens() {
        let p = pos(&fen);
        let m = pos(&mirror_fen(&fen));
        assert_eq!(
            evaluate(&p),
            evaluate(&m),
            "{fen} vs its mirror {}",
            m.fen()
        );
        assert_eq!(phase(&p), phase(&m), "{fen}");
        checked += 1;
    }
    assert!(checked > 580, "only {checked} positions");
}

#[test]
fn cached_evaluator_agrees_with_stateless() {
    let mut ev = Evaluator::new();
    for round in 0..2 {
        for fen in all_fens() {
            let p = pos(&fen);
            assert_eq!(ev.evaluate(&p), evaluate(&p), "{fen} (round {round})");
        }
    }
    // A small number of entries would keep evicting; also check after clearing.
    ev.clear();
    for fen in all_fens() {
        let p = pos(&fen);
        assert_eq!(ev.evaluate(&p), evaluate(&p), "{fen} after clear");
    }
}

#[test]
fn cached_evaluator_agrees_along_a_search_tree() {
    // Walk two plies from a few positions so that the cache sees related structures.
    let mut ev = Evaluator::new();
    for fen in fens(BENCH).iter().take(12) {
        let mut p = pos(fen);
        for m in p.legal_moves() {
            p.make(m);
            assert_eq!(ev.evaluate(&p), evaluate(&p), "{fen} after {m:?}");
            for r in p.legal_moves().into_iter().take(8) {
                p.make(r);
                assert_eq!(ev.evaluate(&p), evaluate(&p), "{fen} after {m:?} {r:?}");
                p.unmake();
            }
            p.unmake();
        }
    }
}

#[test]
fn piece_up_is_clearly_better() {
    // White is a knight up (Black's b8 knight is missing), either side to move.
    let fen = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(evaluate(&pos(fen)) > 200);
    assert!(evaluate(&pos(&fen.replace(" w ", " b "))) < -200);
    // A rook up in the endgame.
    assert!(evaluate(&pos("8/5pk1/6p1/8/8/6P1/5PK1/R7 w - - 0 1")) > 300);
}

#[test]
fn insufficient_material_is_zero() {
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3NK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    ] {
        assert_eq!(evaluate(&pos(fen)), 0, "{fen}");
        assert_eq!(Evaluator::new().evaluate(&pos(fen)), 0, "{fen}");
    }
}

#[test]
fn startpos_is_small() {
    let e = evaluate(&Position::startpos());
    assert!(e.abs() < 50, "startpos {e}");
}

#[test]
fn drawish_endgames_are_scaled_down() {
    // Bishop against knight without pawns: a draw, whatever the bishop's edge.
    assert!(evaluate(&pos("8/8/4k3/8/3n4/8/3BK3/8 w - - 0 1")).abs() < 20);
    // Two knights against a bare king.
    assert!(evaluate(&pos("8/8/4k3/8/8/3NK3/3N4/8 w - - 0 1")).abs() < 20);
    // Rook against bishop: far less than the material difference.
    assert!(evaluate(&pos("8/8/4k3/8/3b4/8/3RK3/8 w - - 0 1")) < 60);
    // Opposite-coloured bishops a pawn up is worth less than same-coloured bishops a pawn up.
    // (d3 and e6 are light squares, d6 is dark.)
    let ocb = evaluate(&pos("8/5k2/3b4/5p2/2P1P3/3B4/2K5/8 w - - 0 1"));
    let same = evaluate(&pos("8/5k2/4b3/5p2/2P1P3/3B4/2K5/8 w - - 0 1"));
    assert!(ocb > 0 && ocb < same, "ocb {ocb} same {same}");
}

#[test]
fn passed_pawn_with_far_enemy_king_is_strong() {
    let far = evaluate(&pos("8/k7/8/8/6P1/8/6K1/8 w - - 0 1"));
    let near = evaluate(&pos("8/8/8/6k1/6P1/8/6K1/8 w - - 0 1"));
    assert!(far > near + 30, "far {far} near {near}");
}

#[test]
fn exposed_king_is_worse() {
    // Same material and pawns; Black's king walked out of its pawn shield into the centre.
    let sheltered = evaluate(&pos(
        "r1bq1rk1/ppp2ppp/2n2n2/3pp3/3PP3/2NB1N2/PPP2PPP/R2QK2R w KQ - 0 8",
    ));
    let exposed = evaluate(&pos(
        "r1bq1r2/ppp2ppp/2n1kn2/3pp3/3PP3/2NB1N2/PPP2PPP/R2QK2R w KQ - 0 8",
    ));
    assert!(
        exposed > sheltered,
        "exposed {exposed} sheltered {sheltered}"
    );
}

/// The trace coefficient (White's count minus Black's) of the weight called `name`.
fn coefficient(fen: &str, name: &str) -> i32 {
    let mut trace = EvalTrace::new();
    evaluate_traced(&pos(fen), &mut trace);
    let i = (0..NUM_WEIGHTS)
        .find(|&i| nullwindow::eval::trace::weight_name(i) == name)
        .unwrap_or_else(|| panic!("no weight {name}"));
    trace.linear[i]
}

#[test]
fn new_terms_fire_where_they_should() {
    // White knight on d5, defended by e4; Black has no c- or e-pawn to chase it.
    let outpost = "4k3/pp3ppp/8/3N4/4P3/8/PPP2PPP/4K3 w - - 0 1";
    assert_eq!(coefficient(outpost, "KNIGHT_OUTPOST"), 1);
    // With a black pawn on c7 the square can be attacked one day: no outpost.
    let chased = "4k3/ppp2ppp/8/3N4/4P3/8/PPP2PPP/4K3 w - - 0 1";
    assert_eq!(coefficient(chased, "KNIGHT_OUTPOST"), 0);

    // A black knight attacked by a pawn and defended by nothing.
    let threat = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(threat, "THREAT_MINOR_BY_PAWN"), 1);
    assert_eq!(coefficient(threat, "THREAT_HANGING"), 1);
    // Black's own view of the same: the d5 knight threatens nothing.
    assert_eq!(coefficient(threat, "THREAT_WEAK_PAWN"), 0);
    // c3-c4 would attack the knight on d5 (c4 is safe: nothing black attacks it).
    let push = "4k3/8/8/3n4/8/2P5/8/4K3 w - - 0 1";
    assert_eq!(coefficient(push, "THREAT_PAWN_PUSH"), 1);

    // Black pawns on g3 (blocked by g2) and h4 (free) in front of White's king on g1.
    let storm = "6k1/8/8/8/7p/6p1/5PPP/6K1 w - - 0 1";
    assert_eq!(coefficient(storm, "KING_STORM_BLOCKED[2]"), 1);
    assert_eq!(coefficient(storm, "KING_STORM[3]"), 1);

    // c4 has a clear file and b4 against b6 as helper and sentry: a candidate.
    let candidate = "4k3/8/1p6/8/1PP5/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(candidate, "PAWN_CANDIDATE[3]"), 1);
    // Two sentries (b6, d6) against one helper: not a candidate.
    let held = "4k3/8/1p1p4/8/1PP5/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(held, "PAWN_CANDIDATE[3]"), 0);

    // a5 against a king on e5: White to move queens first, Black to move catches it.
    assert_eq!(
        coefficient("8/8/8/P3k3/8/8/8/K7 w - - 0 1", "PASSED_UNSTOPPABLE"),
        1
    );
    assert_eq!(
        coefficient("8/8/8/P3k3/8/8/8/K7 b - - 0 1", "PASSED_UNSTOPPABLE"),
        0
    );
}

#[test]
fn rook_pawn_with_the_wrong_bishop_is_a_draw() {
    // a-pawn, dark-squared bishop, a8 is light: the king in the corner holds.
    assert_eq!(evaluate(&pos("k7/8/P7/1K6/8/8/8/2B5 w - - 0 1")), 0);
    assert_eq!(evaluate(&pos("k7/8/P7/1K6/8/8/8/2B5 b - - 0 1")), 0);
    // The right bishop wins, and so does the wrong one when the king is far from the corner.
    assert!(evaluate(&pos("k7/8/P7/1K6/8/8/8/3B4 w - - 0 1")) > 300);
    assert!(evaluate(&pos("8/8/P7/1K6/8/5k2/8/2B5 w - - 0 1")) > 300);
    // A bare rook pawn against the king in front of it.
    assert_eq!(evaluate(&pos("8/k7/8/P7/8/8/8/4K3 w - - 0 1")), 0);
}

#[test]
fn trace_reproduces_the_evaluation_exactly() {
    // The trace recomputes the evaluation from the coefficients in the engine's integer
    // arithmetic, so with the engine's weights it must match to the centipawn.
    let w = weights();
    assert_eq!(w.len(), NUM_WEIGHTS);
    let mut trace = EvalTrace::new();
    let (mut checked, mut with_danger) = (0, 0);
    for fen in all_fens() {
        let p = pos(&fen);
        let stm = evaluate_traced(&p, &mut trace);
        assert_eq!(stm, evaluate(&p), "{fen}: traced evaluation differs");
        let white = if p.turn() == shakmaty::Color::White {
            stm
        } else {
            -stm
        };
        assert_eq!(trace.white_eval(&w), white, "{fen}: trace {trace:?}");
        assert_eq!(trace.phase, phase(&p), "{fen}");
        checked += 1;
        with_danger += usize::from(trace.danger.iter().any(|&d| d));
    }
    assert!(checked > 580, "only {checked} positions");
    assert!(
        with_danger > 5,
        "king danger fired in only {with_danger} positions"
    );
}

#[test]
fn trace_counts_white_minus_black() {
    // The start position is symmetric: every linear coefficient cancels except the tempo.
    let mut trace = EvalTrace::new();
    evaluate_traced(&Position::startpos(), &mut trace);
    let nonzero: Vec<usize> = (0..NUM_WEIGHTS).filter(|&i| trace.linear[i] != 0).collect();
    assert_eq!(nonzero.len(), 1, "{nonzero:?}");
    assert_eq!(
        nullwindow::eval::trace::weight_name(nonzero[0]),
        "TEMPO",
        "only the tempo is left"
    );
    // Black to move: the tempo counts for Black.
    let black = pos(&START_FEN.replace(" w ", " b "));
    evaluate_traced(&black, &mut trace);
    assert_eq!(trace.linear[nonzero[0]], -1);
}
