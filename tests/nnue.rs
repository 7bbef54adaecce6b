//! The fast NNUE evaluator (`nnue::Nnue`): incremental accumulators agree exactly with the
//! scalar reference (`Network::evaluate_board`) along random walks full of castling (standard
//! and Chess960), en passant, promotions, captures, null moves and take-backs; colour symmetry;
//! the AVX2 and scalar kernels agree; switching between unrelated positions stays correct; all
//! of it also for networks with output buckets (B = 8: the layer a piece count picks) and for
//! horizontally mirrored networks (whose perspectives flip a↔h with their king's wing) and
//! networks with king buckets (whose perspectives read the rows of their king's bucket).
//! A by-hand speed figure: `cargo test --profile release-test --test nnue -- --ignored
//! --nocapture nnue_speed`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use nullwindow::nnue::Nnue;
use nullwindow::nnue::net::{INPUTS, Inputs, Network, QA, QB, SCALE};
use nullwindow::nnue::simd::{self, Backend, LANES, OutputPlan};
use nullwindow::position::{File, Move, Position, START_FEN, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shakmaty::Setup;
use shakmaty::fen::{Fen, LossyFenError};

/// A network with random weights inside the trainer's clipping: feature weights and biases
/// within ±505 (mostly small, so that SCReLU's slope is exercised, not only its two flat
/// ends), output weights within ±127; one output bucket.
fn random_net(n: usize, seed: u64) -> Network {
    random_bucketed_net(n, 1, seed)
}

/// As [`random_net`], with `buckets` output buckets (each its own random weights and bias).
fn random_bucketed_net(n: usize, buckets: usize, seed: u64) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let ft = |rng: &mut StdRng| -> i16 {
        if rng.random_bool(0.1) {
            rng.random_range(-505..=505)
        } else {
            rng.random_range(-60..=60)
        }
    };
    Network {
        hidden: n,
        qa: QA,
        qb: QB,
        scale: SCALE,
        ft_weights: (0..INPUTS * n).map(|_| ft(&mut rng)).collect(),
        ft_bias: (0..n).map(|_| ft(&mut rng)).collect(),
        buckets,
        out_weights: (0..buckets * 2 * n)
            .map(|_| rng.random_range(-127..=127))
            .collect(),
        out_bias: (0..buckets)
            .map(|_| rng.random_range(-200_000..=200_000))
            .collect(),
        inputs: Inputs::PLAIN,
    }
}

/// A network of the given shape: hidden size, output buckets, horizontally mirrored, king
/// buckets (a layout of `Inputs::king_layout`; each block its own random rows).
fn shaped_net(
    (n, buckets, mirrored, king): (usize, usize, bool, Option<&str>),
    seed: u64,
) -> Network {
    let mut net = random_bucketed_net(n, buckets, seed);
    let (king_buckets, king_map) = match king {
        Some(spec) => Inputs::king_layout(spec).expect("layout"),
        None => (1, [0; 64]),
    };
    let mut rng = StdRng::seed_from_u64(seed ^ 0x6b62);
    let extra = (king_buckets - 1) * INPUTS * n;
    net.ft_weights
        .extend((0..extra).map(|_| rng.random_range(-60i16..=60)));
    net.inputs = Inputs {
        mirrored,
        king_buckets,
        king_map,
    };
    net
}

/// Every back end this CPU runs.
fn backends() -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_available())
        .collect()
}

fn reference(net: &Network, pos: &Position) -> i32 {
    net.evaluate_board(pos.board(), pos.turn())
}

/// Start positions of the walks: (FEN, Chess960).
const WALKS: &[(&str, bool)] = &[
    (START_FEN, false),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    // Promotions for both sides (with captures on the back rank), en passant, castling.
    ("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1", false),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        false,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    // Four pieces: the first output bucket of eight.
    ("8/5k2/8/8/2P5/3NK3/8/8 w - - 0 1", false),
    // Chess960: a start position (Shredder castling letters), a middlegame, X-FEN rights with
    // the king on b1, a castle where the rook stays on f1 and one where the king stays on g1.
    (
        "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",
        true,
    ),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    ("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1", true),
    ("4kr2/pppppppp/8/8/8/8/PPPPPPPP/4KR2 w Ff - 0 1", true),
    ("6kr/pppppppp/8/8/8/8/PPPPPPPP/6KR w Hh - 0 1", true),
];

/// What the walks did (each kind must really happen).
#[derive(Default, Debug)]
struct Counts {
    moves: usize,
    captures: usize,
    castles: usize,
    castles_960: usize,
    /// Chess960 castles where the king or the rook does not move.
    castles_960_one_piece: usize,
    en_passant: usize,
    /// Promotions to knight, bishop, rook, queen.
    promotions: [usize; 4],
    nulls: usize,
    unmakes: usize,
    evals: usize,
    /// Evaluations per output bucket.
    buckets: [usize; 16],
}

impl Counts {
    fn record(&mut self, m: Move, chess960: bool) {
        self.moves += 1;
        if m.is_capture() {
            self.captures += 1;
        }
        if m.is_en_passant() {
            self.en_passant += 1;
        }
        if let Some(r) = m.promotion() {
            self.promotions[r as usize - 2] += 1;
        }
        if let Move::Castle { king, rook } = m {
            if chess960 {
                self.castles_960 += 1;
                let (king_file, rook_file) = if king < rook {
                    (File::G, File::F)
                } else {
                    (File::C, File::D)
                };
                let rank = king.rank();
                if king == Square::from_coords(king_file, rank)
                    || rook == Square::from_coords(rook_file, rank)
                {
                    self.castles_960_one_piece += 1;
                }
            } else {
                self.castles += 1;
            }
        }
    }
}

/// A random walk of `plies` steps from `fen`: moves (special ones preferred), take-backs and
/// null moves, evaluating after most steps (the skipped ones make the next evaluation catch
/// up over several moves) and checking each evaluation against the reference.
fn walk(
    nnue: &mut Nnue,
    fen: &str,
    chess960: bool,
    plies: usize,
    rng: &mut StdRng,
    counts: &mut Counts,
) {
    let net = nnue.net().clone();
    let mut pos = Position::from_fen(fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for _ in 0..plies {
        let r = rng.random_range(0..100);
        let moves = pos.legal_moves();
        if (r < 15 || moves.is_empty()) && pos.stack_len() > 1 {
            pos.unmake();
            counts.unmakes += 1;
        } else if r < 25 && !pos.is_check() {
            assert!(pos.make_null());
            counts.nulls += 1;
        } else if !moves.is_empty() {
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                .collect();
            let m = if !special.is_empty() && rng.random_bool(0.6) {
                special[rng.random_range(0..special.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            counts.record(m, chess960);
            pos.make(m);
        }
        if rng.random_bool(0.7) {
            counts.buckets[net.bucket_of(pos.board())] += 1;
            assert_eq!(
                nnue.evaluate(&pos),
                reference(&net, &pos),
                "{} (N = {}, {:?})",
                pos.fen(),
                net.hidden,
                nnue.backend()
            );
            counts.evals += 1;
        }
    }
    assert_eq!(nnue.evaluate(&pos), reference(&net, &pos), "{}", pos.fen());
}

/// Hidden sizes, output buckets, mirroring and king buckets of the networks the walks run on.
const SHAPES: [(usize, usize, bool, Option<&str>); 7] = [
    (32, 1, false, None),
    (128, 1, false, None),
    (128, 8, false, None),
    (32, 1, true, None),
    (128, 8, true, None),
    (32, 1, false, Some("kb4")),
    (64, 8, true, Some("kb8")),
];

#[test]
fn incremental_equals_full_refresh_on_random_walks() {
    for shape in SHAPES {
        let (n, buckets, mirrored, king) = shape;
        let net = Arc::new(shaped_net(shape, 1000 + n as u64));
        for backend in backends() {
            let mut nnue = Nnue::with_backend(Arc::clone(&net), backend).expect("available");
            let mut rng = StdRng::seed_from_u64(7);
            let mut counts = Counts::default();
            for &(fen, chess960) in WALKS {
                for _ in 0..3 {
                    walk(&mut nnue, fen, chess960, 40, &mut rng, &mut counts);
                }
            }
            let c = &counts;
            assert!(c.moves > 500 && c.evals > 500, "{c:?}");
            assert!(c.captures > 20, "{c:?}");
            assert!(c.castles > 5 && c.castles_960 > 5, "{c:?}");
            assert!(c.castles_960_one_piece > 0, "{c:?}");
            assert!(c.en_passant > 3, "{c:?}");
            assert!(c.promotions.iter().all(|&k| k > 0), "{c:?}");
            assert!(c.nulls > 20 && c.unmakes > 20, "{c:?}");
            // The incremental path does the work: most entries come from their parent.
            let st = nnue.stats();
            assert_eq!(st.evals as usize, c.evals + 3 * WALKS.len());
            assert!(st.updates > 4 * st.refreshes, "{st:?}");
            // Piece counts from 32 down to four: every bucket takes part.
            let used = c.buckets.iter().filter(|&&k| k > 0).count();
            assert_eq!(used, buckets, "{c:?}");
            // Kings changed wing or bucket: the per-view cache brought those views up to date.
            assert_eq!(st.view_refreshes > 10, mirrored || king.is_some(), "{st:?}");
            eprintln!(
                "N={n} B={buckets} mirrored={mirrored} king={king:?} {backend:?}: {c:?} {st:?}"
            );
        }
    }
}

#[test]
fn deep_stacks_grow_the_cache() {
    // More plies than the cache starts with, without take-backs (null moves pad the stack).
    let net = Arc::new(random_net(32, 5));
    let mut nnue = Nnue::new(Arc::clone(&net));
    let mut rng = StdRng::seed_from_u64(11);
    let mut pos = Position::startpos();
    for ply in 0..400 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos.unmake();
        } else if ply % 3 == 0 && !pos.is_check() {
            assert!(pos.make_null());
        } else {
            pos.make(moves[rng.random_range(0..moves.len())]);
        }
        if ply % 5 != 0 {
            assert_eq!(nnue.evaluate(&pos), reference(&net, &pos), "{}", pos.fen());
        }
    }
    assert!(pos.stack_len() > 200, "stack {}", pos.stack_len());
    // Back down the whole stack: the cached entries below must still be right.
    while pos.stack_len() > 1 {
        pos.unmake();
        assert_eq!(nnue.evaluate(&pos), reference(&net, &pos));
    }
}

#[test]
fn siblings_below_a_long_unevaluated_line_share_its_accumulators() {
    // As when the search takes the static evaluations of a line's nodes from the table: the
    // root is evaluated, then nothing for 20 plies, then every child of the last node. The walk
    // up from the root fills the line once; the siblings after the first need one step each.
    let net = Arc::new(random_net(32, 9));
    let mut nnue = Nnue::new(Arc::clone(&net));
    let mut rng = StdRng::seed_from_u64(5);
    let mut pos = Position::startpos();
    assert_eq!(nnue.evaluate(&pos), reference(&net, &pos));
    for _ in 0..20 {
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "{}", pos.fen());
        pos.make(moves[rng.random_range(0..moves.len())]);
    }
    let children = pos.legal_moves();
    assert!(children.len() > 5, "{}", pos.fen());
    for &m in children.iter() {
        pos.make(m);
        assert_eq!(nnue.evaluate(&pos), reference(&net, &pos), "{}", pos.fen());
        pos.unmake();
    }
    let st = nnue.stats();
    assert_eq!(st.refreshes, 1, "only the root from scratch: {st:?}");
    assert_eq!(st.updates as usize, 20 + children.len(), "{st:?}");
}

/// The FEN flipped vertically with colours, side to move, castling rights and en passant
/// square swapped.
fn mirror_fen(fen: &str) -> String {
    let parsed: Fen = fen.parse().expect("fen");
    let setup: Setup = parsed.into();
    Fen::try_from_setup(setup.into_mirrored())
        .unwrap_or_else(LossyFenError::ignore)
        .to_string()
}

#[test]
fn evaluation_is_colour_symmetric() {
    assert_eq!(
        mirror_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
        "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq f3 0 3"
    );
    for shape in SHAPES {
        let net = Arc::new(shaped_net(shape, 77 + shape.0 as u64));
        let mut nnue = Nnue::new(Arc::clone(&net));
        let mut rng = StdRng::seed_from_u64(3);
        let mut checked = 0;
        for &(fen, chess960) in WALKS {
            // The start position and positions along a random line from it.
            let mut pos = Position::from_fen(fen, chess960).unwrap();
            for _ in 0..12 {
                let here = pos.fen();
                let mirrored = mirror_fen(&here);
                let m = Position::from_fen(&mirrored, chess960)
                    .unwrap_or_else(|e| panic!("{mirrored}: {e}"));
                assert_ne!(pos.turn(), m.turn());
                let a = nnue.evaluate(&pos);
                let b = nnue.evaluate(&m);
                assert_eq!(a, b, "{here} vs its mirror {mirrored}");
                assert_eq!(a, reference(&net, &pos), "{here}");
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 100, "{checked}");
    }
}

/// A horizontally mirrored network: each perspective sees the board flipped a↔h while its own
/// king stands on files a–d. So (1) with both kings on files e–h it evaluates as the same
/// weights without mirroring; (2) with both on a–d, as those weights on the board flipped
/// left to right; (3) every board evaluates as its left-right flip; and the fast evaluator
/// agrees with the reference throughout, also after a king crosses between the d and e files.
#[test]
fn mirrored_network_sees_each_king_on_the_e_to_h_side() {
    let plain = Arc::new(random_bucketed_net(32, 8, 31));
    let mirrored = Arc::new(Network {
        inputs: Inputs::MIRRORED,
        ..(*plain).clone()
    });
    let mut fast = Nnue::new(Arc::clone(&mirrored));
    let mut rng = StdRng::seed_from_u64(17);
    let (mut kingside, mut queenside, mut mixed, mut differs) = (0, 0, 0, 0);
    for &(fen, chess960) in WALKS {
        let mut pos = Position::from_fen(fen, chess960).unwrap();
        for _ in 0..60 {
            let here = pos.fen();
            // The board flipped left to right (files a↔h), the same side to move.
            let mut flipped = pos.board().clone();
            flipped.flip_horizontal();
            let m = reference(&mirrored, &pos);
            assert_eq!(fast.evaluate(&pos), m, "{here}");
            assert_eq!(
                mirrored.evaluate_board(&flipped, pos.turn()),
                m,
                "{here} flipped"
            );
            let wing = |c| pos.board().king_of(c).map(|k: Square| (k as usize & 7) < 4);
            match (wing(shakmaty::Color::White), wing(shakmaty::Color::Black)) {
                (Some(false), Some(false)) => {
                    assert_eq!(m, reference(&plain, &pos), "{here}");
                    kingside += 1;
                }
                (Some(true), Some(true)) => {
                    assert_eq!(m, plain.evaluate_board(&flipped, pos.turn()), "{here}");
                    queenside += 1;
                }
                _ => mixed += 1,
            }
            if m != reference(&plain, &pos) {
                differs += 1;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // King moves preferred, so that kings cross between the wings.
            let kings: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.role() == shakmaty::Role::King)
                .collect();
            let m = if !kings.is_empty() && rng.random_bool(0.5) {
                kings[rng.random_range(0..kings.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.make(m);
        }
    }
    assert!(
        kingside > 50 && queenside > 30 && mixed > 50 && differs > 50,
        "{kingside} {queenside} {mixed} {differs}"
    );
}

#[test]
fn switching_between_unrelated_positions() {
    let net = Arc::new(random_net(128, 99));
    for backend in backends() {
        let mut nnue = Nnue::with_backend(Arc::clone(&net), backend).expect("available");
        let mut rng = StdRng::seed_from_u64(21);
        // Several games played side by side; each evaluation may hit another game's stack
        // entries at the same depth (different keys: must be refreshed or walked, never used).
        let mut games: Vec<Position> = WALKS
            .iter()
            .map(|&(fen, c960)| Position::from_fen(fen, c960).unwrap())
            .collect();
        // Two lines from one root: entry 0 matches, entry 1 differs.
        games.push(Position::startpos());
        games.push(Position::startpos());
        for round in 0..60 {
            for g in games.iter_mut() {
                let moves = g.legal_moves();
                if moves.is_empty() || rng.random_bool(0.1) {
                    g.unmake();
                } else {
                    g.make(moves[rng.random_range(0..moves.len())]);
                }
                if round % 17 == 5 {
                    // A new search root: the stack restarts at entry 0 with the same board.
                    g.clear_undo();
                }
            }
            let order: Vec<usize> = (0..games.len()).collect();
            for &i in order.iter().rev().chain(&order) {
                let g = &games[i];
                assert_eq!(nnue.evaluate(g), reference(&net, g), "{}", g.fen());
            }
            if round % 13 == 0 {
                nnue.clear();
            }
        }
        // The same position twice in a row from a fresh Position object (one entry stack).
        for fen in [START_FEN, "8/8/4k3/8/8/3NK3/3N4/8 w - - 0 1"] {
            let p = Position::from_fen(fen, false).unwrap();
            assert_eq!(nnue.evaluate(&p), reference(&net, &p));
            assert_eq!(nnue.evaluate(&p), reference(&net, &p));
        }
    }
}

/// Random `i16` data of length `n`, over the whole range.
fn random_row(rng: &mut StdRng, n: usize) -> Vec<i16> {
    (0..n).map(|_| rng.random::<i16>()).collect()
}

#[test]
fn vector_and_scalar_kernels_agree() {
    let vector: Vec<Backend> = backends()
        .into_iter()
        .filter(|&b| b != Backend::Scalar)
        .collect();
    if vector.is_empty() {
        eprintln!("no vector back end on this CPU: nothing to compare");
        return;
    }
    for v in vector {
        kernels_agree_with_scalar(v);
    }
}

/// `v`'s kernels give the scalar kernels' integers (and the row sums) on random data of every
/// shape: odd and even multiples of 16, row counts across the refresh tiles.
fn kernels_agree_with_scalar(v: Backend) {
    let s = Backend::Scalar;
    let mut rng = StdRng::seed_from_u64(42);
    for n in [16, 32, 48, 128, 144, 256, 1024, 2048] {
        let src = random_row(&mut rng, n);
        let rows: Vec<Vec<i16>> = (0..40).map(|_| random_row(&mut rng, n)).collect();
        let r = |k: usize| rows[k].as_slice();
        let (mut a, mut b) = (vec![0i16; n], vec![0i16; n]);
        macro_rules! both {
            ($adds:expr, $subs:expr) => {{
                simd::update(s, &mut a, &src, $adds, $subs);
                simd::update(v, &mut b, &src, $adds, $subs);
                assert_eq!(a, b, "{v:?} update n={n}");
            }};
        }
        both!([], []);
        assert_eq!(a, src);
        both!([r(0)], [r(1)]);
        both!([r(0)], [r(1), r(2)]);
        both!([r(0), r(3)], [r(1), r(2)]);
        // The wrapping sum of the rows, element by element, is what both must give.
        let expect: Vec<i16> = (0..n)
            .map(|i| {
                src[i]
                    .wrapping_add(rows[0][i])
                    .wrapping_add(rows[3][i])
                    .wrapping_sub(rows[1][i])
                    .wrapping_sub(rows[2][i])
            })
            .collect();
        assert_eq!(b, expect);
        for count in [0, 1, 7, 32, 40] {
            let refs: Vec<&[i16]> = rows[..count].iter().map(Vec::as_slice).collect();
            simd::refresh(s, &mut a, &src, &refs);
            simd::refresh(v, &mut b, &src, &refs);
            assert_eq!(a, b, "{v:?} refresh n={n} rows={count}");
        }

        // The output layer: random accumulators around the clamp range, weights at the clip.
        for qa in [QA, 64, 128] {
            for max_w in [127i16, 128, 32767 / qa as i16] {
                let w: Vec<i16> = (0..2 * n)
                    .map(|_| rng.random_range(-max_w..=max_w))
                    .collect();
                let plan = OutputPlan::new(qa, &w);
                assert!(matches!(plan, OutputPlan::Fast { .. }), "{qa} {max_w}");
                let acc = |rng: &mut StdRng| -> Vec<i16> {
                    (0..n)
                        .map(|_| rng.random_range(-2 * qa as i16..=2 * qa as i16))
                        .collect()
                };
                let (us, them) = (acc(&mut rng), acc(&mut rng));
                let wide = simd::output_sum(s, OutputPlan::Wide, qa, &us, &them, &w);
                assert_eq!(simd::output_sum(s, plan, qa, &us, &them, &w), wide);
                assert_eq!(simd::output_sum(v, plan, qa, &us, &them, &w), wide);
            }
        }
    }
}

/// A rebuild from the per-view cache that changes more rows than one kernel call takes (all
/// 30 pieces but the kings elsewhere: 30 rows off and 30 on in each view) stays exact, plain
/// and with king buckets, on every back end; and `apply_rows` agrees with the row sums.
#[test]
fn per_view_cache_rebuilds_with_many_changes() {
    let far = [
        "4k3/pppppppp/nnbbrrq1/8/8/NNBBRRQ1/PPPPPPPP/4K3 w - - 0 1",
        "4k3/8/PPPPPPPP/1QRRBBNN/1qrrbbnn/pppppppp/8/4K3 b - - 0 1",
    ];
    for shape in [(128, 1, false, None), (128, 1, true, Some("kb4"))] {
        let net = Arc::new(shaped_net(shape, 7));
        for backend in backends() {
            let mut nnue = Nnue::with_backend(Arc::clone(&net), backend).expect("available");
            for round in 0..3 {
                for fen in far {
                    let p = Position::from_fen(fen, false).unwrap();
                    let what = format!("{shape:?} {backend:?} round {round} {fen}");
                    assert_eq!(nnue.evaluate(&p), reference(&net, &p), "{what}");
                }
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(69);
    for n in [16, 48, 128, 144, 256] {
        let rows: Vec<Vec<i16>> = (0..40).map(|_| random_row(&mut rng, n)).collect();
        let start = random_row(&mut rng, n);
        for (na, ns) in [(0, 0), (1, 0), (0, 1), (3, 5), (16, 16), (40, 7)] {
            let adds: Vec<&[i16]> = rows[..na].iter().map(Vec::as_slice).collect();
            let subs: Vec<&[i16]> = rows[40 - ns..].iter().map(Vec::as_slice).collect();
            let expect: Vec<i16> = (0..n)
                .map(|i| {
                    let x = adds.iter().fold(start[i], |x, r| x.wrapping_add(r[i]));
                    subs.iter().fold(x, |x, r| x.wrapping_sub(r[i]))
                })
                .collect();
            for backend in backends() {
                let mut acc = start.clone();
                simd::apply_rows(backend, &mut acc, &adds, &subs);
                assert_eq!(acc, expect, "{backend:?} n={n} ({na}, {ns})");
            }
        }
    }
}

/// `update_pair` (both views of a step from the parent's entry, rows by index) gives each
/// view the wrapping sum `src + Σ adds − Σ subs` on every back end, for every shape of step,
/// and leaves the padding between the views (and after them) untouched.
#[test]
fn update_pair_equals_the_row_sums_of_each_view() {
    let mut rng = StdRng::seed_from_u64(68);
    for n in [16, 32, 48, 128, 144, 256] {
        let rows = 12;
        let weights = random_row(&mut rng, rows * n);
        let row = |r: usize| &weights[r * n..][..n];
        for stride in [n, n.div_ceil(32) * 32 + 32] {
            let src = random_row(&mut rng, 2 * stride);
            let pick = |rng: &mut StdRng| [rng.random_range(0..rows), rng.random_range(0..rows)];
            let adds: Vec<[usize; 2]> = (0..2).map(|_| pick(&mut rng)).collect();
            let subs: Vec<[usize; 2]> = (0..2).map(|_| pick(&mut rng)).collect();
            for backend in backends() {
                for (na, ns) in [(0, 0), (1, 1), (1, 2), (2, 2), (2, 1)] {
                    let before = random_row(&mut rng, 2 * stride);
                    let mut dst = before.clone();
                    let (a, s) = (&adds[..na], &subs[..ns]);
                    match (na, ns) {
                        (0, 0) => {
                            simd::update_pair(backend, &mut dst, &src, stride, n, &weights, [], [])
                        }
                        (1, 1) => simd::update_pair(
                            backend,
                            &mut dst,
                            &src,
                            stride,
                            n,
                            &weights,
                            [a[0]],
                            [s[0]],
                        ),
                        (1, 2) => simd::update_pair(
                            backend,
                            &mut dst,
                            &src,
                            stride,
                            n,
                            &weights,
                            [a[0]],
                            [s[0], s[1]],
                        ),
                        (2, 2) => simd::update_pair(
                            backend,
                            &mut dst,
                            &src,
                            stride,
                            n,
                            &weights,
                            [a[0], a[1]],
                            [s[0], s[1]],
                        ),
                        _ => simd::update_pair(
                            backend,
                            &mut dst,
                            &src,
                            stride,
                            n,
                            &weights,
                            [a[0], a[1]],
                            [s[0]],
                        ),
                    }
                    for v in 0..2 {
                        let at = v * stride;
                        let expect: Vec<i16> = (0..n)
                            .map(|i| {
                                let mut x = src[at + i];
                                for r in a {
                                    x = x.wrapping_add(row(r[v])[i]);
                                }
                                for r in s {
                                    x = x.wrapping_sub(row(r[v])[i]);
                                }
                                x
                            })
                            .collect();
                        let what =
                            format!("{backend:?} n={n} stride={stride} ({na}, {ns}) view {v}");
                        assert_eq!(&dst[at..at + n], &expect[..], "{what}");
                        assert_eq!(
                            &dst[at + n..at + stride],
                            &before[at + n..at + stride],
                            "{what}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn output_sum_is_exact_at_the_bounds() {
    // Every accumulator saturated and every weight at the clip: at N = 128 both halves
    // together just fit one i32 sum (the unrolled kernels' single pass: 256 · 255² · 128 <
    // 2³¹); at 256 and at the largest N the sum is beyond i32, so only the chunked widening
    // keeps it exact.
    for n in [128, 256, 2048] {
        let full = vec![i16::MAX; n];
        for w in [127i16, -127, 128, -128] {
            let ws = vec![w; 2 * n];
            let plan = OutputPlan::new(QA, &ws);
            assert_eq!(plan, OutputPlan::Fast { chunk: 256 });
            let expect = (QA as i64 * QA as i64) * w as i64 * 2 * n as i64;
            for b in backends() {
                assert_eq!(
                    simd::output_sum(b, plan, QA, &full, &full, &ws),
                    expect,
                    "{b:?} n={n} {w}"
                );
            }
        }
    }
    // Weights past the i16 product bound take the wide path.
    assert_eq!(OutputPlan::new(QA, &[129]), OutputPlan::Wide);
    assert_eq!(OutputPlan::new(1000, &[127]), OutputPlan::Wide);
}

#[test]
fn nets_outside_the_clip_use_the_wide_path_and_stay_exact() {
    let mut big_weights = random_net(64, 8);
    let mut rng = StdRng::seed_from_u64(8);
    for w in big_weights.out_weights.iter_mut() {
        *w = rng.random_range(-3000..=3000);
    }
    let mut big_qa = random_net(64, 9);
    big_qa.qa = 2000;
    // One weight past the bound in one bucket of eight: the plan covers every bucket.
    let mut big_in_one_bucket = random_bucketed_net(64, 8, 10);
    assert!(matches!(
        Nnue::new(Arc::new(big_in_one_bucket.clone())).output_plan(),
        OutputPlan::Fast { .. }
    ));
    big_in_one_bucket.out_weights[5 * 2 * 64 + 17] = 3000;
    for net in [big_weights, big_qa, big_in_one_bucket] {
        let net = Arc::new(net);
        for backend in backends() {
            let mut nnue = Nnue::with_backend(Arc::clone(&net), backend).expect("available");
            assert_eq!(nnue.output_plan(), OutputPlan::Wide);
            let mut counts = Counts::default();
            let mut rng = StdRng::seed_from_u64(1);
            for &(fen, c960) in &WALKS[..4] {
                walk(&mut nnue, fen, c960, 40, &mut rng, &mut counts);
            }
        }
    }
}

#[test]
fn evaluator_can_move_to_a_search_thread() {
    fn is_send<T: Send + Clone>() {}
    is_send::<Nnue>();
    // A clone carries its cache and stays exact on its own.
    let net = Arc::new(random_net(32, 4));
    let mut a = Nnue::new(Arc::clone(&net));
    let mut pos = Position::startpos();
    for mv in ["e2e4", "c7c5", "g1f3"] {
        pos.make(pos.parse_uci_move(mv).unwrap());
        a.evaluate(&pos);
    }
    let mut b = a.clone();
    let handle = std::thread::spawn(move || {
        pos.unmake();
        let e = b.evaluate(&pos);
        (e, b.net().evaluate_board(pos.board(), pos.turn()))
    });
    let (e, want) = handle.join().unwrap();
    assert_eq!(e, want);
}

#[test]
fn simd_name_names_the_detected_backend() {
    assert_eq!(nullwindow::nnue::simd_name(), Backend::detect().name());
    assert!(["avx512", "avx2", "scalar"].contains(&nullwindow::nnue::simd_name()));
    assert_eq!(LANES, 16);
    // A cap picks the widest available back end at or below it.
    assert_eq!(Backend::best_up_to(Backend::Scalar), Backend::Scalar);
    for cap in Backend::ALL {
        let b = Backend::best_up_to(cap);
        assert!(b.is_available());
        let rank = |x: Backend| Backend::ALL.iter().position(|&y| y == x);
        assert!(rank(b) >= rank(cap), "{b:?} is wider than {cap:?}");
        if cap.is_available() {
            assert_eq!(b, cap);
        }
    }
}

/// One step of a replayed walk.
#[derive(Clone, Copy)]
enum Op {
    Make(Move),
    Unmake,
}

/// A search-like walk: depth-first lines up to 10 plies from the bench positions.
fn speed_walk(len: usize) -> Vec<(String, Vec<Op>)> {
    let text = include_str!("../bench-positions/bench.epd");
    let mut rng = StdRng::seed_from_u64(2024);
    let mut out = Vec::new();
    let fens: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let per = len / fens.len();
    for fen in fens {
        let mut pos = Position::from_fen(fen, false).unwrap();
        let mut ops = Vec::with_capacity(per);
        while ops.len() < per {
            let moves = pos.legal_moves();
            let depth = pos.stack_len() - 1;
            if moves.is_empty() || depth >= 10 || (depth > 0 && rng.random_bool(0.4)) {
                if depth == 0 {
                    break;
                }
                pos.unmake();
                ops.push(Op::Unmake);
            } else {
                let m = moves[rng.random_range(0..moves.len())];
                pos.make(m);
                ops.push(Op::Make(m));
            }
        }
        out.push((fen.to_string(), ops));
    }
    out
}

/// CPU time of this thread (Linux `schedstat`, in ns: steadier than the wall clock on a shared
/// machine), else the wall clock since the first call.
fn thread_time() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed())
}

/// Replays the walks, evaluating after each step with `eval` (None: no evaluation).
fn replay(
    walks: &[(String, Vec<Op>)],
    mut eval: Option<&mut dyn FnMut(&Position) -> i32>,
) -> (Duration, i64, usize) {
    let start = thread_time();
    let mut sum = 0i64;
    let mut count = 0;
    for (fen, ops) in walks {
        let mut pos = Position::from_fen(fen, false).unwrap();
        for &op in ops {
            match op {
                Op::Make(m) => pos.make(m),
                Op::Unmake => pos.unmake(),
            }
            if let Some(f) = eval.as_mut() {
                sum += f(&pos) as i64;
                count += 1;
            }
        }
    }
    (thread_time() - start, sum, count)
}

#[test]
#[ignore = "by-hand speed figure"]
fn nnue_speed() {
    let walks = speed_walk(2_000_000);
    let best = |f: &mut dyn FnMut() -> (Duration, i64, usize)| {
        (0..5).map(|_| f()).min_by_key(|r| r.0).unwrap()
    };
    let (base, _, _) = best(&mut || replay(&walks, None));
    println!(
        "walk without evaluation: {:.1} ms",
        base.as_secs_f64() * 1e3
    );
    for n in [128, 256] {
        let net = Arc::new(random_net(n, n as u64));
        let mut sums = Vec::new();
        for backend in backends() {
            let mut nnue = Nnue::with_backend(Arc::clone(&net), backend).unwrap();
            let (t, sum, count) = best(&mut || replay(&walks, Some(&mut |p| nnue.evaluate(p))));
            let net_t = t.saturating_sub(base).as_secs_f64();
            println!(
                "N={n:4} {:6}: {count} evals, {:.2} M evals/s ({:.0} ns each)",
                backend.name(),
                count as f64 / net_t / 1e6,
                net_t / count as f64 * 1e9
            );
            let st = nnue.stats();
            println!(
                "         per evaluation: {:.2} incremental updates, {:.4} refreshes",
                st.updates as f64 / st.evals as f64,
                st.refreshes as f64 / st.evals as f64
            );
            sums.push(sum);
        }
        let mut full = |p: &Position| net.evaluate_board(p.board(), p.turn());
        let short = &walks[..walks.len() / 10];
        let (t, _, count) = replay(short, Some(&mut full));
        let (b, _, _) = replay(short, None);
        let net_t = t.saturating_sub(b).as_secs_f64();
        println!(
            "N={n:4} reference evaluate_board (from scratch): {:.3} M evals/s",
            count as f64 / net_t / 1e6
        );
        assert!(sums.windows(2).all(|w| w[0] == w[1]));
    }
}
