//! Staged legal move generation on top of shakmaty: the captures alone and the quiet moves
//! alone, for the move picker.
//!
//! shakmaty's `Chess` has no generator of a subset: its `capture_moves` is `legal_moves`
//! filtered, so a node that searched its captures and then its quiets generated every move
//! twice, and every quiescence node generated all of them to keep the captures. Out of check
//! these generate each subset directly, with shakmaty's own legality rule (a pinned piece
//! moves along its pin line; the king steps only to squares no enemy piece attacks) and **in
//! shakmaty's order**, so that each list is exactly `legal_moves()` filtered (the search's
//! tie-breaks, and so the bench signature, do not change). In check both fall back to the
//! filtered `legal_moves()`; the move picker takes all moves in check from [`evasions`], which
//! generates `legal_moves()` itself, in its order, without shakmaty's list and second check.
//!
//! [`is_legal`] answers for one move (the TT move of every node) what shakmaty's `is_legal`
//! answers by generating the legal moves of the moving role to the target square.

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, Move, MoveList, Position as _, Role, Square, attacks,
};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Where [`captures`] writes the captures, in order. A [`MoveList`] takes them as they come;
/// the move picker scores each as it is written.
pub trait CaptureSink {
    /// The move of a `role` piece from `from` taking the `victim` on `to` (promoting to
    /// `promotion`).
    fn capture(
        &mut self,
        role: Role,
        from: Square,
        to: Square,
        victim: Role,
        promotion: Option<Role>,
    );
    /// Any other capture: en passant, or any capture in check.
    fn push(&mut self, m: Move);
}

impl CaptureSink for MoveList {
    #[inline]
    fn capture(
        &mut self,
        role: Role,
        from: Square,
        to: Square,
        victim: Role,
        promotion: Option<Role>,
    ) {
        MoveList::push(
            self,
            Move::Normal {
                role,
                from,
                capture: Some(victim),
                to,
                promotion,
            },
        );
    }
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Legal captures, en passant included (capture promotions to every piece, quiet promotions
/// not): `pos.legal_moves()` filtered by `is_capture`, in its order, written to `sink`.
pub fn captures<S: CaptureSink>(pos: &Chess, checkers: Bitboard, sink: &mut S) {
    debug_assert_eq!(checkers, pos.checkers());
    let Some(king) = king_out_of_check(pos, checkers) else {
        for m in pos.legal_moves() {
            if m.is_capture() {
                sink.push(m);
            }
        }
        return;
    };
    let board = pos.board();
    let us = pos.turn();
    let them = pos.them();
    // En passant first, as shakmaty generates it (already checked for a discovered check).
    if pos.maybe_ep_square().is_some() {
        for m in pos.en_passant_moves() {
            sink.push(m);
        }
    }
    // A pinned piece moves only along its pin line (the moves off it are never written, so
    // the rest stand in the order they would).
    let blockers = pinned(pos, king);
    // By hand, not by loops over the directions and roles: unrolled, each piece's attacks
    // are its own table lookup, not `attacks`' match on the role.
    let [west, east] = pawn_capture_directions(us);
    pawn_captures(pos, king, blockers, west, sink);
    pawn_captures(pos, king, blockers, east, sink);
    let occupied = board.occupied();
    piece_captures(pos, king, blockers, Role::Knight, sink);
    piece_captures(pos, king, blockers, Role::Bishop, sink);
    piece_captures(pos, king, blockers, Role::Rook, sink);
    piece_captures(pos, king, blockers, Role::Queen, sink);
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !us, occupied).is_empty()
            && let Some(victim) = board.role_at(to)
        {
            sink.capture(Role::King, king, to, victim, None);
        }
    }
}

/// The captures of our pawns in one direction (a shift and the pawns that may take that
/// way), promotions after the rest; a pawn pinned (`blockers`) takes only along its pin line.
#[inline(always)]
fn pawn_captures<S: CaptureSink>(
    pos: &Chess,
    king: Square,
    blockers: Bitboard,
    (offset, mask): (i32, u64),
    sink: &mut S,
) {
    let board = pos.board();
    let caps = Bitboard(pos.our(Role::Pawn).0 & mask).shift(offset) & pos.them();
    for to in caps & !Bitboard::BACKRANKS {
        let from = from_offset(to, offset);
        if blockers.contains(from) && !attacks::aligned(from, to, king) {
            continue;
        }
        if let Some(victim) = board.role_at(to) {
            sink.capture(Role::Pawn, from, to, victim, None);
        }
    }
    for to in caps & Bitboard::BACKRANKS {
        let from = from_offset(to, offset);
        if blockers.contains(from) && !attacks::aligned(from, to, king) {
            continue;
        }
        if let Some(victim) = board.role_at(to) {
            for promotion in PROMOTIONS {
                sink.capture(Role::Pawn, from, to, victim, Some(promotion));
            }
        }
    }
}

/// The captures of our `role` pieces (not pawns, not the king); a pinned one (`blockers`)
/// takes only along its pin line.
#[inline(always)]
fn piece_captures<S: CaptureSink>(
    pos: &Chess,
    king: Square,
    blockers: Bitboard,
    role: Role,
    sink: &mut S,
) {
    let board = pos.board();
    let piece = role.of(pos.turn());
    for from in pos.our(role) {
        let mut targets = attacks::attacks(from, piece, board.occupied()) & pos.them();
        if blockers.contains(from) {
            targets &= attacks::ray(king, from);
        }
        for to in targets {
            if let Some(victim) = board.role_at(to) {
                sink.capture(role, from, to, victim, None);
            }
        }
    }
}

/// Where [`quiets`] writes the quiet moves, in order. A [`MoveList`] takes them as they come;
/// the move picker scores each as it is written (the move is known there in parts).
pub trait QuietSink {
    /// The quiet move of a `role` piece from `from` to `to` (not a promotion).
    fn normal(&mut self, role: Role, from: Square, to: Square);
    /// The quiet moves of the `role` piece (not a pawn) on `from` to each square of
    /// `targets`, in square order.
    #[inline]
    fn targets(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.normal(role, from, to);
        }
    }
    /// Any other quiet move: a promotion, castling, or any move in check.
    fn push(&mut self, m: Move);
}

impl QuietSink for MoveList {
    #[inline]
    fn normal(&mut self, role: Role, from: Square, to: Square) {
        self.push(normal(role, from, None, to));
    }
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// The quiet moves of our `role` pieces (not pawns, not the king); a pinned one (`blockers`)
/// moves only along its pin line.
#[inline(always)]
fn piece_quiets<S: QuietSink>(
    pos: &Chess,
    king: Square,
    blockers: Bitboard,
    role: Role,
    sink: &mut S,
) {
    let occupied = pos.board().occupied();
    let piece = role.of(pos.turn());
    for from in pos.our(role) {
        let mut targets = attacks::attacks(from, piece, occupied) & !occupied;
        if blockers.contains(from) {
            targets &= attacks::ray(king, from);
        }
        sink.targets(role, from, targets);
    }
}

/// Legal quiet moves (pushes, quiet promotions to every piece, castling): `pos.legal_moves()`
/// filtered by `!is_capture`, in its order, written to `sink` (`MoveList`: over it).
/// `attacked`: every square the opponent attacks, when the caller has them (the king's steps
/// are then read off it).
pub fn quiets<S: QuietSink>(
    pos: &Chess,
    checkers: Bitboard,
    attacked: Option<Bitboard>,
    sink: &mut S,
) {
    debug_assert_eq!(checkers, pos.checkers());
    let Some(king) = king_out_of_check(pos, checkers) else {
        for m in pos.legal_moves() {
            if !m.is_capture() {
                sink.push(m);
            }
        }
        return;
    };
    let board = pos.board();
    let us = pos.turn();
    let empty = !board.occupied();
    // A pinned piece moves only along its pin line (the moves off it are never written, so
    // the rest stand in the order they would).
    let blockers = pinned(pos, king);
    let up = pawn_push(us);
    // A pinned pawn pushes only along a file through its king.
    let pushers = pos.our(Role::Pawn) & !(blockers & !Bitboard::from_file(king.file()));
    let single = pushers.shift(up) & empty;
    for to in single & !Bitboard::BACKRANKS {
        sink.normal(Role::Pawn, from_offset(to, up), to);
    }
    for to in single & Bitboard::BACKRANKS {
        let from = from_offset(to, up);
        for promotion in PROMOTIONS {
            sink.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to,
                promotion: Some(promotion),
            });
        }
    }
    for to in single.shift(up) & empty & double_push_rank(us) {
        sink.normal(Role::Pawn, from_offset(to, 2 * up), to);
    }
    let occupied = board.occupied();
    // By hand, not a loop over the roles (as for the captures).
    piece_quiets(pos, king, blockers, Role::Knight, sink);
    piece_quiets(pos, king, blockers, Role::Bishop, sink);
    piece_quiets(pos, king, blockers, Role::Rook, sink);
    piece_quiets(pos, king, blockers, Role::Queen, sink);
    match attacked {
        // Out of check no enemy slider sees through our king, so the squares beside it that
        // the opponent attacks with it on the board are those it attacks without it.
        Some(attacked) => {
            for to in attacks::king_attacks(king) & empty & !attacked {
                debug_assert!(board.attacks_to(to, !us, board.occupied()).is_empty());
                sink.normal(Role::King, king, to);
            }
        }
        None => {
            for to in attacks::king_attacks(king) & empty {
                if board.attacks_to(to, !us, occupied).is_empty() {
                    sink.normal(Role::King, king, to);
                }
            }
        }
    }
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        if let Some(m) = castle(pos, king, side) {
            sink.push(m);
        }
    }
}

/// Legal moves in check (`checkers` not empty), written over `moves`: `pos.legal_moves()`
/// itself, in its order (the search's tie-breaks): en passant first (kept when it leaves the
/// king unattacked), then the king's steps to squares no enemy piece attacks and off the
/// lines of the sliders that check it, then, against a lone checker, the moves that take it
/// or block its line: pawn captures west then east (promotions after the rest of each),
/// single pushes (promotions after), double pushes, knights, bishops, rooks, queens. A pinned
/// piece keeps only moves along its pin line (shakmaty's filter; none such block or take).
pub fn evasions(pos: &Chess, checkers: Bitboard, moves: &mut MoveList) {
    debug_assert_eq!(checkers, pos.checkers());
    debug_assert!(checkers.any());
    moves.clear();
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        moves.extend(pos.legal_moves());
        return;
    };
    if pos.maybe_ep_square().is_some() {
        for m in pos.en_passant_moves() {
            moves.push(m);
        }
    }
    let occupied = board.occupied();
    // The squares behind the king on a checking slider's line stay attacked once it steps.
    let mut behind = Bitboard(0);
    for checker in checkers & board.sliders() {
        behind |= attacks::ray(checker, king) ^ Bitboard::from_square(checker);
    }
    for to in attacks::king_attacks(king) & !pos.us() & !behind {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(normal(Role::King, king, board.role_at(to), to));
        }
    }
    if checkers.more_than_one() {
        return;
    }
    let Some(checker) = checkers.first() else {
        return;
    };
    let target = attacks::between(king, checker) | checkers;
    let blockers = pinned(pos, king);
    let safe =
        |from: Square, to: Square| !blockers.contains(from) || attacks::aligned(from, to, king);
    let pawns = pos.our(Role::Pawn);
    for (offset, mask) in pawn_capture_directions(us) {
        let caps = Bitboard(pawns.0 & mask).shift(offset) & pos.them() & target;
        for to in caps & !Bitboard::BACKRANKS {
            let from = from_offset(to, offset);
            if safe(from, to) {
                moves.push(normal(Role::Pawn, from, board.role_at(to), to));
            }
        }
        for to in caps & Bitboard::BACKRANKS {
            let from = from_offset(to, offset);
            if safe(from, to) {
                push_promotions(moves, from, to, board.role_at(to));
            }
        }
    }
    let up = pawn_push(us);
    let single = pawns.shift(up) & !occupied;
    for to in single & target & !Bitboard::BACKRANKS {
        let from = from_offset(to, up);
        if safe(from, to) {
            moves.push(normal(Role::Pawn, from, None, to));
        }
    }
    for to in single & target & Bitboard::BACKRANKS {
        let from = from_offset(to, up);
        if safe(from, to) {
            push_promotions(moves, from, to, None);
        }
    }
    for to in single.shift(up) & !occupied & double_push_rank(us) & target {
        let from = from_offset(to, 2 * up);
        if safe(from, to) {
            moves.push(normal(Role::Pawn, from, None, to));
        }
    }
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let piece = role.of(us);
        for from in pos.our(role) {
            for to in attacks::attacks(from, piece, occupied) & target {
                if safe(from, to) {
                    moves.push(normal(role, from, board.role_at(to), to));
                }
            }
        }
    }
}

#[inline]
fn push_promotions(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in PROMOTIONS {
        moves.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: Some(promotion),
        });
    }
}

/// Whether `m` is legal in `pos`: shakmaty's `is_legal` without its move generation, for a
/// normal move (the same rule as the generators above: the piece stands there and reaches the
/// square, a pinned piece stays on its pin line, the king steps only where no enemy piece
/// attacks; in check, a move other than the king's must take a lone checker or block it).
/// Castling and en passant ask shakmaty.
pub fn is_legal(pos: &Chess, checkers: Bitboard, m: Move) -> bool {
    debug_assert_eq!(checkers, pos.checkers());
    let Move::Normal {
        role,
        from,
        capture,
        to,
        ..
    } = m
    else {
        return pos.is_legal(m);
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return pos.is_legal(m);
    };
    if board.piece_at(from) != Some(role.of(us))
        || board.by_color(us).contains(to)
        || board.role_at(to) != capture
    {
        return false;
    }
    is_legal_placed(pos, checkers, king, m)
}

/// [`is_legal`] of a normal move whose piece stands on its from square, whose capture is what
/// stands on its to square and whose to square holds no piece of ours (the TT move as
/// `Position::unpack_move` builds it from the board), with the king of the side to move.
#[inline]
pub fn is_legal_placed(pos: &Chess, checkers: Bitboard, king: Square, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return pos.is_legal(m);
    };
    let board = pos.board();
    let us = pos.turn();
    debug_assert_eq!(board.king_of(us), Some(king));
    debug_assert_eq!(board.piece_at(from), Some(role.of(us)));
    debug_assert!(!board.by_color(us).contains(to) && board.role_at(to) == capture);
    if role == Role::King {
        // The king leaves its square: a slider checking it along the line must still see
        // through to the squares behind.
        let occupied = board.occupied() ^ Bitboard::from_square(king);
        return promotion.is_none()
            && attacks::king_attacks(from).contains(to)
            && board.attacks_to(to, !us, occupied).is_empty();
    }
    if checkers.any() {
        if checkers.more_than_one() {
            return false;
        }
        let checker = checkers.first().expect("one checker");
        if !(attacks::between(king, checker) | checkers).contains(to) {
            return false;
        }
    }
    let reaches = match role {
        Role::Pawn => {
            let last_rank = Bitboard::BACKRANKS.contains(to);
            let promotes_right = match promotion {
                None => !last_rank,
                Some(p) => last_rank && p != Role::Pawn && p != Role::King,
            };
            promotes_right
                && if capture.is_some() {
                    attacks::pawn_attacks(us, from).contains(to)
                } else {
                    // One step, or two from the home rank over an empty square (the rule of
                    // `quiets`).
                    let up = pawn_push(us);
                    let step = from as i32 + up;
                    to as i32 == step
                        || (to as i32 == step + up
                            && double_push_rank(us).contains(to)
                            && !board.occupied().contains(Square::new(step as u32)))
                }
        }
        _ => {
            promotion.is_none()
                && attacks::attacks(from, role.of(us), board.occupied()).contains(to)
        }
    };
    // A piece off every line through its king is pinned by nothing: the pins are looked for
    // only for a piece on one.
    reaches
        && (attacks::ray(king, from).is_empty()
            || attacks::aligned(from, to, king)
            || !pinned(pos, king).contains(from))
}

/// The king of the side to move when it is not in check (`checkers` empty: the direct
/// generators' case).
#[inline]
fn king_out_of_check(pos: &Chess, checkers: Bitboard) -> Option<Square> {
    let king = pos.board().king_of(pos.turn())?;
    checkers.is_empty().then_some(king)
}

/// The squares the pawns `pawns` of `color` attack (all of them at once).
#[inline]
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let [(o1, m1), (o2, m2)] = pawn_capture_directions(color);
    Bitboard(pawns.0 & m1).shift(o1) | Bitboard(pawns.0 & m2).shift(o2)
}

/// The square offset of a pawn step of `us`.
#[inline]
fn pawn_push(us: Color) -> i32 {
    match us {
        Color::White => 8,
        Color::Black => -8,
    }
}

/// The rank a pawn of `us` reaches by a double step.
#[inline]
fn double_push_rank(us: Color) -> Bitboard {
    match us {
        Color::White => Bitboard(0x0000_0000_ff00_0000),
        Color::Black => Bitboard(0x0000_00ff_0000_0000),
    }
}

/// The two capture directions of the side's pawns in shakmaty's order (west first), as a
/// shift and the mask of pawns that may take that way (not off the board's edge).
#[inline]
fn pawn_capture_directions(us: Color) -> [(i32, u64); 2] {
    match us {
        Color::White => [(7, !FILE_A), (9, !FILE_H)],
        Color::Black => [(-9, !FILE_A), (-7, !FILE_H)],
    }
}

#[inline]
fn from_offset(to: Square, offset: i32) -> Square {
    Square::new((to as i32 - offset) as u32)
}

#[inline]
fn normal(role: Role, from: Square, capture: Option<Role>, to: Square) -> Move {
    Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    }
}

/// The pieces (of either side) that stand alone between `king` and an enemy slider aiming at
/// it: ours among them may move only along that line.
#[inline]
fn pinned(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & pos.them() {
        let b = attacks::between(king, sniper) & board.occupied();
        if !b.more_than_one() {
            blockers |= b;
        }
    }
    blockers
}

/// Castling to `side` if it is legal (shakmaty's rule, standard and Chess960: the squares
/// between king and rook and their targets are empty but for those two, the king is not in
/// check (the caller's case) and crosses and lands on no attacked square). shakmaty's own
/// `castling_moves` returns a 2 KB list by value, copied twice per quiet generation.
#[inline]
fn castle(pos: &Chess, king: Square, side: CastlingSide) -> Option<Move> {
    let us = pos.turn();
    let castles = pos.castles();
    let rook = castles.rook(us, side)?;
    let board = pos.board();
    let occupied = board.occupied();
    if (castles.path(us, side) & occupied).any() {
        return None;
    }
    let king_to = side.king_to(us);
    let after = occupied
        ^ Bitboard::from_square(king)
        ^ Bitboard::from_square(rook)
        ^ Bitboard::from_square(side.rook_to(us));
    if board.attacks_to(king_to, !us, after).any() {
        return None;
    }
    let without_king = occupied ^ Bitboard::from_square(king);
    for sq in attacks::between(king, king_to) {
        if board.attacks_to(sq, !us, without_king).any() {
            return None;
        }
    }
    Some(Move::Castle { king, rook })
}
