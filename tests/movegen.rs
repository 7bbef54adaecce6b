//! The staged generators (`Position::gen_captures`, `gen_quiets` with and without the
//! opponent's attacks, `promotion_moves`) against shakmaty's `legal_moves()` filtered: the same moves **in the same order** (the order decides
//! the search's tie-breaks), in every position two plies deep from the perft suite and from the
//! first Chess960 positions of `tests/data/fischer.epd` (both described in tests/data/README.md).
//! `Position::threats` against shakmaty's attacks piece by piece in all of them.
//! `Position::gen_evasions` against `legal_moves()` itself (same moves, same order) in every
//! position in check there and in random games from the perft suite that seek checks.
//! In every eighth of them and all in check, `Position::is_legal` against shakmaty's `is_legal` for every move a
//! 16-bit TT entry can name (and some it cannot: wrong pieces, wrong captures).

use nullwindow::position::{Bitboard, Move, MoveList, Position};

fn fens(file: &str, chess960: bool, take: usize) -> Vec<(String, bool)> {
    let text = std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR")))
        .expect("test data");
    text.lines()
        .filter_map(|l| l.split(';').next())
        .map(|f| (f.trim().to_string(), chess960))
        .filter(|(f, _)| !f.is_empty())
        .take(take)
        .collect()
}

#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    in_check: usize,
    double_check: usize,
    en_passant: usize,
    capture_promotions: usize,
    quiet_promotions: usize,
    castles: usize,
    /// Positions where a pinned piece had a move the generators had to drop.
    pins_dropped: usize,
    /// Candidate moves `is_legal` judged, and how many of them were legal.
    candidates: usize,
    candidates_legal: usize,
}

/// `Position::is_legal` must agree with shakmaty's on every move from a square of ours to any
/// square, with the piece and capture the board shows (as a TT move is unpacked), with every
/// promotion piece (pawn and king included), and with a wrong capture or a wrong piece.
fn check_is_legal(pos: &Position, chess960: bool, seen: &mut Seen) {
    use nullwindow::position::Role;
    use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let fen: Fen = pos.fen().parse().expect("own FEN");
    // Play reaches checks a FEN cannot prove possible (shakmaty's IMPOSSIBLE_CHECK).
    let chess: Chess = match fen.into_position(mode) {
        Ok(chess) => chess,
        Err(e) => e.ignore_impossible_check().expect("own position"),
    };
    let board = pos.board();
    let us = pos.turn();
    let mut judge = |m: Move| {
        let fast = pos.is_legal(m);
        assert_eq!(fast, chess.is_legal(m), "{m:?} in {}", pos.fen());
        seen.candidates += 1;
        seen.candidates_legal += usize::from(fast);
    };
    for from in board.by_color(us) {
        let role = board.role_at(from).expect("occupied");
        for to in shakmaty::Square::ALL {
            let capture = board.role_at(to);
            let promotions: &[Option<Role>] = if role == Role::Pawn {
                &[
                    None,
                    Some(Role::Queen),
                    Some(Role::Knight),
                    Some(Role::King),
                    Some(Role::Pawn),
                ]
            } else {
                &[None, Some(Role::Queen)]
            };
            for &promotion in promotions {
                judge(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion,
                });
            }
            let other = if capture.is_some() {
                None
            } else {
                Some(Role::Knight)
            };
            judge(Move::Normal {
                role,
                from,
                capture: other,
                to,
                promotion: None,
            });
            let wrong = if role == Role::Bishop {
                Role::Rook
            } else {
                Role::Bishop
            };
            judge(Move::Normal {
                role: wrong,
                from,
                capture,
                to,
                promotion: None,
            });
        }
    }
    for m in pos.legal_moves() {
        judge(m);
    }
}

fn check(pos: &Position, chess960: bool, seen: &mut Seen) {
    let legal = pos.legal_moves();
    let caps: Vec<Move> = legal.iter().copied().filter(|m| m.is_capture()).collect();
    let quiets: Vec<Move> = legal.iter().copied().filter(|m| !m.is_capture()).collect();
    let mut list = MoveList::new();
    pos.gen_captures(&mut list);
    assert_eq!(list.to_vec(), caps, "captures of {}", pos.fen());
    pos.gen_quiets(&mut list, None);
    assert_eq!(list.to_vec(), quiets, "quiets of {}", pos.fen());
    // With the opponent's attacks given (the king's steps read off them): the same.
    pos.gen_quiets(&mut list, Some(pos.threats()));
    assert_eq!(
        list.to_vec(),
        quiets,
        "quiets given the threats of {}",
        pos.fen()
    );
    // In check, the evasion generator is `legal_moves()` itself, in its order.
    if pos.is_check() {
        pos.gen_evasions(&mut list);
        assert_eq!(list.to_vec(), legal.to_vec(), "evasions of {}", pos.fen());
    }
    let promotions: Vec<Move> = legal.iter().copied().filter(|m| m.is_promotion()).collect();
    assert_eq!(
        pos.promotion_moves().to_vec(),
        promotions,
        "promotions of {}",
        pos.fen()
    );
    // The squares the side not to move attacks, against shakmaty's piece by piece.
    let board = pos.board();
    let threats = board
        .by_color(!pos.turn())
        .into_iter()
        .fold(Bitboard::EMPTY, |a, sq| a | board.attacks_from(sq));
    assert_eq!(pos.threats(), threats, "threats of {}", pos.fen());
    seen.positions += 1;
    seen.in_check += usize::from(pos.is_check());
    seen.double_check += usize::from(pos.checkers().more_than_one());
    seen.en_passant += caps.iter().filter(|m| m.is_en_passant()).count();
    seen.capture_promotions += caps.iter().filter(|m| m.is_promotion()).count();
    seen.quiet_promotions += quiets.iter().filter(|m| m.is_promotion()).count();
    seen.castles += quiets
        .iter()
        .filter(|m| matches!(m, Move::Castle { .. }))
        .count();
    // A pinned piece's pseudo-legal moves off the pin line are what the generators drop:
    // count positions where some piece of ours could reach more squares unpinned.
    if !pos.is_check() && pinned_piece_has_fewer_moves(pos) {
        seen.pins_dropped += 1;
    }
    if seen.positions.is_multiple_of(8) || pos.is_check() {
        check_is_legal(pos, chess960, seen);
    }
}

/// Whether the side to move has a piece whose legal moves are fewer than its pseudo-legal
/// ones for a reason other than the king (a pin): a cheap witness that pins occur.
fn pinned_piece_has_fewer_moves(pos: &Position) -> bool {
    use nullwindow::position::{Role, attacks};
    let board = pos.board();
    let us = pos.turn();
    let legal = pos.legal_moves();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_piece(role.of(us)) {
            let reach = attacks::attacks(from, role.of(us), board.occupied()) & !board.by_color(us);
            let n = legal.iter().filter(|m| m.from() == Some(from)).count();
            if n < reach.count() {
                return true;
            }
        }
    }
    false
}

fn walk(pos: &mut Position, chess960: bool, depth: u32, seen: &mut Seen) {
    check(pos, chess960, seen);
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        pos.make(m);
        walk(pos, chess960, depth - 1, seen);
        pos.unmake();
    }
}

#[test]
fn staged_generators_equal_the_filtered_legal_moves() {
    let mut seen = Seen::default();
    let mut starts = fens("perftsuite.epd", false, usize::MAX);
    starts.extend(fens("fischer.epd", true, 60));
    assert!(starts.len() > 150, "{}", starts.len());
    // Double checks (rare in the suite) where a piece or pawn could take or block one checker.
    for fen in [
        "k3r3/8/8/8/1R6/5n2/6P1/3QK3 w - - 0 1",
        "3qk3/6p1/5N2/1r6/8/8/8/K3R3 b - - 0 1",
    ] {
        starts.push((fen.to_string(), false));
    }
    for (fen, chess960) in &starts {
        let mut pos = Position::from_fen(fen, *chess960).expect(fen);
        walk(&mut pos, *chess960, 2, &mut seen);
    }
    // Every case the generators treat apart must have come up.
    assert!(seen.positions > 50_000, "{seen:?}");
    assert!(seen.in_check > 1000, "{seen:?}");
    assert!(seen.en_passant > 50, "{seen:?}");
    assert!(seen.capture_promotions > 100, "{seen:?}");
    assert!(seen.quiet_promotions > 100, "{seen:?}");
    assert!(seen.castles > 1000, "{seen:?}");
    assert!(seen.pins_dropped > 500, "{seen:?}");
    assert!(seen.candidates_legal > 100_000, "{seen:?}");
    assert!(seen.double_check >= 3, "{seen:?}");
}

#[derive(Default, Debug)]
struct EvasionSeen {
    in_check: usize,
    double_check: usize,
    king_steps: usize,
    king_captures: usize,
    checker_taken: usize,
    blocks: usize,
    en_passant: usize,
    promotions: usize,
    /// Positions in check with a piece of ours pinned to the king.
    pinned: usize,
}

/// Whether a piece of the side to move stands alone between its king and an enemy slider.
fn has_pin(pos: &Position) -> bool {
    use nullwindow::position::attacks;
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let them = board.by_color(!us);
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    (snipers & them).into_iter().any(|s| {
        let b = attacks::between(king, s) & board.occupied();
        b.count() == 1 && (b & board.by_color(us)).any()
    })
}

fn check_evasions(pos: &Position, list: &mut MoveList, seen: &mut EvasionSeen) {
    let legal = pos.legal_moves();
    pos.gen_evasions(list);
    assert_eq!(list.to_vec(), legal.to_vec(), "evasions of {}", pos.fen());
    let checkers = pos.checkers();
    seen.in_check += 1;
    seen.double_check += usize::from(checkers.more_than_one());
    seen.pinned += usize::from(has_pin(pos));
    for m in &legal {
        let king_move = m.role() == nullwindow::position::Role::King;
        seen.king_steps += usize::from(king_move);
        seen.king_captures += usize::from(king_move && m.is_capture());
        seen.en_passant += usize::from(m.is_en_passant());
        seen.promotions += usize::from(m.is_promotion());
        if !king_move && !m.is_en_passant() {
            if checkers.contains(m.to()) {
                seen.checker_taken += 1;
            } else {
                seen.blocks += 1;
            }
        }
    }
}

/// Random games from every perft-suite position, choosing a checking move when there is one
/// half of the time (checks are what is tested): the evasions of every position in check on
/// the way against `legal_moves()`, move for move in order.
#[test]
fn evasions_equal_the_legal_moves_in_random_games() {
    const GAMES: usize = 256;
    const PLIES: usize = 40;
    const CHECK_ONE_IN: u64 = 4;
    let mut seen = EvasionSeen::default();
    let mut list = MoveList::new();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let starts = fens("perftsuite.epd", false, usize::MAX);
    assert!(starts.len() > 120, "{}", starts.len());
    for (fen, chess960) in &starts {
        for _game in 0..GAMES {
            let mut pos = Position::from_fen(fen, *chess960).expect(fen);
            for _ply in 0..PLIES {
                if pos.is_check() {
                    check_evasions(&pos, &mut list, &mut seen);
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut m = legal[(next() % legal.len() as u64) as usize];
                if next() % CHECK_ONE_IN == 0 {
                    let checks: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&c| {
                            pos.make(c);
                            let check = pos.is_check();
                            pos.unmake();
                            check
                        })
                        .collect();
                    if !checks.is_empty() {
                        m = checks[(next() % checks.len() as u64) as usize];
                    }
                }
                pos.make(m);
            }
        }
    }
    // Every case the generator treats apart must have come up (the games are fixed by the
    // seed: 118,101 positions in check, 285 double checks, 32 en passant and 32 promotion
    // evasions, 661 with a pin).
    assert!(seen.in_check > 100_000, "{seen:?}");
    assert!(seen.double_check > 200, "{seen:?}");
    assert!(seen.king_captures > 20_000, "{seen:?}");
    assert!(seen.checker_taken > 10_000, "{seen:?}");
    assert!(seen.blocks > 10_000, "{seen:?}");
    assert!(seen.en_passant > 20, "{seen:?}");
    assert!(seen.promotions > 20, "{seen:?}");
    assert!(seen.pinned > 500, "{seen:?}");
}
