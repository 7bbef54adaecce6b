//! The one board type the engine uses: a `shakmaty::Chess` with its Zobrist key, the key
//! history for repetition detection and a copy-make undo stack.
//!
//! Everything above this module (search, evaluation, UCI) works through [`Position`]; only this
//! module (and the move encoding helpers below) talk to shakmaty's position API directly.

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, EnPassantMode, Position as _, PositionError};

pub use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, CastlingSide, Color, File, Move, MoveList,
    Piece, Rank, Role, Square, attacks,
};

/// FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// One entry of the copy-make stack.
struct State {
    chess: Chess,
    key: u64,
    /// The en passant part of `key` (0 when no capture is legal).
    ep_key: u64,
    /// The structure keys of the correction history, kept up to date move by move.
    structure: StructureKeys,
    /// The pieces giving check (`chess.checkers()`), found once when the state is made: the
    /// search asks whether it is in check several times a node (shakmaty computes it anew
    /// each time), and the move generators need it too.
    checkers: Bitboard,
    /// The pieces the move that made this state took off and put on the board (None for the
    /// first state of the stack, whose parent is unknown); a null move changes none.
    changes: Option<PieceChanges>,
    /// Null moves since the last capture or pawn move: `chess`'s halfmove clock counts them
    /// (a null move is played as a piece standing still, see [`null_stand_in`]), the rules
    /// do not, so [`Position::halfmoves`] takes them off. A byte, as `null_fullmoves`: the two
    /// fit in the padding of a state, which a larger state would make dearer to copy (a search
    /// path holds at most `MAX_PLY / 2` null moves; [`Position::make_null`] does not count past
    /// `u8::MAX`).
    null_halfmoves: u8,
    /// Black's null moves on the stack, which `chess`'s fullmove number counts (see
    /// `null_halfmoves`).
    null_fullmoves: u8,
}

impl Clone for State {
    /// Field by field, the small `Copy` ones as plain copies: the derived clone copied the
    /// tail of the state through the stack, piece by piece, and read it back in one wide load
    /// before the narrow stores had landed (a stalled store-to-load forward in
    /// [`Position::make`]).
    #[inline]
    fn clone(&self) -> State {
        State {
            chess: self.chess.clone(),
            key: self.key,
            ep_key: self.ep_key,
            structure: self.structure,
            checkers: self.checkers,
            changes: self.changes,
            null_halfmoves: self.null_halfmoves,
            null_fullmoves: self.null_fullmoves,
        }
    }
}

/// The pieces one move took off the board and put on it, as [`Position::make`] recorded them:
/// exactly the difference between the parent's and the child's boards (a piece that castling
/// leaves on its square is in neither list). No move of chess changes more than two of each
/// (castling: king and rook off, and on again elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChanges {
    removed: [(Piece, Square); 2],
    added: [(Piece, Square); 2],
    n_removed: u8,
    n_added: u8,
}

impl PieceChanges {
    /// No change (a null move).
    pub const NONE: PieceChanges = PieceChanges {
        removed: [(
            Piece {
                color: Color::White,
                role: Role::Pawn,
            },
            Square::A1,
        ); 2],
        added: [(
            Piece {
                color: Color::White,
                role: Role::Pawn,
            },
            Square::A1,
        ); 2],
        n_removed: 0,
        n_added: 0,
    };

    /// The pieces taken off the board.
    #[inline]
    pub fn removed(&self) -> &[(Piece, Square)] {
        &self.removed[..self.n_removed as usize]
    }

    /// The pieces put on the board.
    #[inline]
    pub fn added(&self) -> &[(Piece, Square)] {
        &self.added[..self.n_added as usize]
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.removed[self.n_removed as usize] = (piece, sq);
        self.n_removed += 1;
    }

    #[inline]
    fn add(&mut self, piece: Piece, sq: Square) {
        self.added[self.n_added as usize] = (piece, sq);
        self.n_added += 1;
    }

    /// Calls `toggle` for each piece taken off or put on a square (for the keys, which XOR
    /// each in or out alike).
    #[inline]
    fn for_each(&self, mut toggle: impl FnMut(Square, Piece)) {
        // Unrolled: every move takes off and puts on one or two pieces (a null move none).
        for i in 0..2 {
            if i < self.n_removed as usize {
                toggle(self.removed[i].1, self.removed[i].0);
            }
            if i < self.n_added as usize {
                toggle(self.added[i].1, self.added[i].0);
            }
        }
    }

    /// The changes of `us`'s legal move `m` (None for a drop, which chess never has).
    #[inline]
    fn of_move(us: Color, m: Move) -> Option<PieceChanges> {
        let mut ch = PieceChanges::NONE;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                ch.remove(role.of(us), from);
                if let Some(c) = capture {
                    ch.remove(c.of(!us), to);
                }
                ch.add(promotion.unwrap_or(role).of(us), to);
            }
            Move::EnPassant { from, to } => {
                ch.remove(Role::Pawn.of(us), from);
                ch.remove(
                    Role::Pawn.of(!us),
                    Square::from_coords(to.file(), from.rank()),
                );
                ch.add(Role::Pawn.of(us), to);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                let rank = us.backrank();
                let king_to = Square::from_coords(side.king_to_file(), rank);
                let rook_to = Square::from_coords(side.rook_to_file(), rank);
                // In Chess960 the king or the rook may already stand on its square.
                if king != king_to {
                    ch.remove(Role::King.of(us), king);
                    ch.add(Role::King.of(us), king_to);
                }
                if rook != rook_to {
                    ch.remove(Role::Rook.of(us), rook);
                    ch.add(Role::Rook.of(us), rook_to);
                }
            }
            Move::Put { .. } => return None,
        }
        Some(ch)
    }
}

/// Zobrist keys of parts of the placement (the pieces' keys of [`Position::key`] XORed over a
/// subset of the pieces): both colours' pawns, and each colour's other pieces (king included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct StructureKeys {
    pawns: u64,
    non_pawns: [u64; 2],
}

impl StructureKeys {
    /// The keys of a board, from scratch.
    fn of(board: &Board) -> StructureKeys {
        let mut k = StructureKeys::default();
        for (sq, piece) in board.clone() {
            k.toggle(sq, piece);
        }
        k
    }

    /// Adds or removes `piece` on `sq`.
    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        self.toggle_key(piece, piece_key(sq, piece));
    }

    /// Adds or removes `piece`, whose key on its square is `z`.
    #[inline]
    fn toggle_key(&mut self, piece: Piece, z: u64) {
        if piece.role == Role::Pawn {
            self.pawns ^= z;
        } else {
            // Both sides' keys by mask rather than by index: an indexed update keeps the
            // array in memory, and the state's copy then reads it back before the stores
            // have landed (a stalled store-to-load forward in `Position::make`).
            let white = u64::from(piece.color == Color::White).wrapping_neg();
            self.non_pawns[Color::Black as usize] ^= z & !white;
            self.non_pawns[Color::White as usize] ^= z & white;
        }
    }
}

/// A chess position with everything the search needs around it.
#[derive(Clone)]
pub struct Position {
    /// Copy-make stack; the last entry is the current position (never empty).
    states: Vec<State>,
    mode: CastlingMode,
    /// Keys of all earlier positions (game history from `position ... moves` and the search
    /// path), oldest first. The current position's key is not in it.
    history: Vec<u64>,
}

/// Why a FEN or a move could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionErr {
    /// The text is not a FEN.
    BadFen(String),
    /// The FEN parses but describes an impossible position.
    IllegalPosition(String),
    /// The text is not a move in UCI notation.
    BadMove(String),
    /// A well-formed move that is not legal here.
    IllegalMove(String),
}

impl std::fmt::Display for PositionErr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionErr::BadFen(s) => write!(f, "malformed FEN: {s}"),
            PositionErr::IllegalPosition(s) => write!(f, "illegal position: {s}"),
            PositionErr::BadMove(s) => write!(f, "malformed move: {s}"),
            PositionErr::IllegalMove(s) => write!(f, "illegal move: {s}"),
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::from_chess(Chess::default(), CastlingMode::Standard)
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::default()
    }

    fn from_chess(chess: Chess, mode: CastlingMode) -> Position {
        let key = full_key(&chess);
        let ep_key = ep_key(&chess);
        let structure = StructureKeys::of(chess.board());
        let checkers = chess.checkers();
        let mut states = Vec::with_capacity(256);
        states.push(State {
            chess,
            key,
            ep_key,
            structure,
            checkers,
            changes: None,
            null_halfmoves: 0,
            null_fullmoves: 0,
        });
        Position {
            states,
            mode,
            history: Vec::with_capacity(512),
        }
    }

    #[inline]
    fn cur(&self) -> &State {
        // The stack is never empty: it is made with one entry, `unmake` and `clear_undo` keep
        // the first. Read without an index check: every question about the position (side to
        // move, board, key, checkers) comes here, a few dozen a node.
        debug_assert!(!self.states.is_empty());
        // SAFETY: `len - 1` is an index of the stack, which is never empty (above).
        unsafe { self.states.get_unchecked(self.states.len() - 1) }
    }

    /// The shakmaty board, for the tablebase prober (`crate::tb`). The search and the
    /// evaluation never use it: they go through the methods of [`Position`]. After a null
    /// move its move counters run ahead ([`Position::halfmoves`] and
    /// [`Position::fullmoves`] are the rules' ones).
    #[inline]
    pub(crate) fn chess(&self) -> &Chess {
        &self.cur().chess
    }

    /// Parses a FEN (6 fields, or 4 fields with both move counters left out; 5 is refused).
    ///
    /// With `chess960` the castling rights may use Shredder/X-FEN letters and castling moves
    /// are king-takes-rook. Positions with an impossible check (two sliders on one line), bad
    /// castling rights or a bad en passant square are repaired where shakmaty can; positions
    /// that cannot be played (missing kings, the side not to move in check, pawns on the back
    /// rank) are refused.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, PositionErr> {
        let fen_str = fen.trim();
        let fields = fen_str.split_whitespace().count();
        if fields != 4 && fields != 6 {
            return Err(PositionErr::BadFen(format!(
                "'{fen_str}' has {fields} fields; a FEN has 6 (or 4 without move counters)"
            )));
        }
        let parsed: Fen = fen_str
            .parse()
            .map_err(|e| PositionErr::BadFen(format!("'{fen_str}' ({e})")))?;
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let chess: Chess = parsed
            .into_position(mode)
            .or_else(PositionError::ignore_invalid_castling_rights)
            .or_else(PositionError::ignore_invalid_ep_square)
            .or_else(PositionError::ignore_impossible_check)
            .map_err(|e| PositionErr::IllegalPosition(format!("'{fen_str}' ({e})")))?;
        Ok(Position::from_chess(chess, mode))
    }

    /// The position as a FEN.
    pub fn fen(&self) -> String {
        let mut setup = self.chess().to_setup(EnPassantMode::Legal);
        setup.halfmoves = self.halfmoves();
        setup.fullmoves = std::num::NonZeroU32::new(self.fullmoves()).unwrap_or(setup.fullmoves);
        Fen::try_from(setup)
            .unwrap_or_else(|e| e.ignore())
            .to_string()
    }

    /// Whether castling moves are written king-takes-rook.
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Switches how castling moves are read and written (`UCI_Chess960`).
    pub fn set_castling_mode(&mut self, mode: CastlingMode) {
        self.mode = mode;
    }

    /// Zobrist key of the position (shakmaty's 64-bit keys; en passant counted only when a
    /// capture is legal, so that repetitions are recognised as the rules define them).
    #[inline]
    pub fn key(&self) -> u64 {
        self.cur().key
    }

    /// The piece placement.
    #[inline]
    pub fn board(&self) -> &Board {
        self.chess().board()
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.chess().turn()
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        let s = self.cur();
        s.chess.halfmoves() - u32::from(s.null_halfmoves)
    }

    /// Full move number.
    pub fn fullmoves(&self) -> u32 {
        let s = self.cur();
        s.chess.fullmoves().get() - u32::from(s.null_fullmoves)
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.chess().legal_moves()
    }

    /// Legal promotions (captures or not, to every piece), in the order of
    /// [`Self::legal_moves`].
    #[inline]
    pub fn promotion_moves(&self) -> MoveList {
        self.chess().promotion_moves()
    }

    /// The legal captures (en passant included; quiet promotions not), in the order of
    /// [`Self::legal_moves`], written over `moves` (see [`crate::movegen`]; filled in place, as
    /// a returned 2 KB list would be copied).
    #[inline]
    pub fn gen_captures(&self, moves: &mut MoveList) {
        moves.clear();
        self.gen_captures_into(moves);
    }

    /// [`Self::gen_captures`], each move written to `sink` as it is found (the move picker
    /// scores them there).
    #[inline]
    pub fn gen_captures_into<S: crate::movegen::CaptureSink>(&self, sink: &mut S) {
        crate::movegen::captures(self.chess(), self.checkers(), sink);
    }

    /// The legal moves that capture nothing (quiet promotions and castling included), in the
    /// order of [`Self::legal_moves`], written over `moves`. `attacked`: [`Self::threats`],
    /// when the caller has them (they spare the king's steps a look at each square).
    #[inline]
    pub fn gen_quiets(&self, moves: &mut MoveList, attacked: Option<Bitboard>) {
        moves.clear();
        self.gen_quiets_into(moves, attacked);
    }

    /// [`Self::gen_quiets`], each move written to `sink` as it is found (the move picker
    /// scores them there).
    #[inline]
    pub fn gen_quiets_into<S: crate::movegen::QuietSink>(
        &self,
        sink: &mut S,
        attacked: Option<Bitboard>,
    ) {
        debug_assert!(attacked.is_none_or(|a| a == self.threats()));
        crate::movegen::quiets(self.chess(), self.checkers(), attacked, sink);
    }

    /// The legal moves in check (see [`crate::movegen::evasions`]): [`Self::legal_moves`]
    /// itself, in its order, written over `moves` (all of them when not in check).
    #[inline]
    pub fn gen_evasions(&self, moves: &mut MoveList) {
        if self.is_check() {
            crate::movegen::evasions(self.chess(), self.checkers(), moves);
        } else {
            moves.clear();
            moves.extend(self.legal_moves());
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces giving check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.cur().checkers
    }

    /// Every square a piece of the side not to move attacks (its pawns' capture squares, not
    /// their pushes), as the board stands.
    pub fn threats(&self) -> Bitboard {
        let board = self.board();
        let them = !self.turn();
        let occupied = board.occupied();
        let mut attacked = crate::movegen::pawn_attacks(them, board.by_piece(Role::Pawn.of(them)));
        for sq in board.by_piece(Role::Knight.of(them)) {
            attacked |= attacks::knight_attacks(sq);
        }
        for sq in board.bishops_and_queens() & board.by_color(them) {
            attacked |= attacks::bishop_attacks(sq, occupied);
        }
        for sq in board.rooks_and_queens() & board.by_color(them) {
            attacked |= attacks::rook_attacks(sq, occupied);
        }
        for sq in board.by_piece(Role::King.of(them)) {
            attacked |= attacks::king_attacks(sq);
        }
        attacked
    }

    /// Whether `m` (legal here) gives check.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to, role) = match m {
            Move::Normal {
                from,
                to,
                role,
                promotion,
                ..
            } => (from, to, promotion.unwrap_or(role)),
            _ => {
                // Castling and en passant are rare: play them out.
                let mut after = self.chess().clone();
                after.play_unchecked(m);
                return after.is_check();
            }
        };
        let b = self.board();
        let us = self.turn();
        let Some(ksq) = b.king_of(!us) else {
            return false;
        };
        let occ = (b.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        // Direct check by the moved (or promoted) piece.
        if attacks::attacks(to, role.of(us), occ).contains(ksq) {
            return true;
        }
        // Discovered check by one of our sliders behind the from-square.
        let ours = b.by_color(us) & !Bitboard::from_square(from);
        (attacks::bishop_attacks(ksq, occ) & b.bishops_and_queens() & ours).any()
            || (attacks::rook_attacks(ksq, occ) & b.rooks_and_queens() & ours).any()
    }

    /// Whether `m` is legal here.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        crate::movegen::is_legal(self.chess(), self.checkers(), m)
    }

    /// Neither side can possibly mate (KvK, KNvK, KBvK, bishops all on one colour).
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        // A pawn, rook or queen of either side is always mating material (shakmaty's first
        // test, asked here without a call: nearly every node of a search has one).
        let b = self.board();
        if (b.pawns() | b.rooks_and_queens()).any() {
            return false;
        }
        self.chess().is_insufficient_material()
    }

    /// Whether the side to move has any piece other than pawns and the king (null-move guard).
    #[inline]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        let b = self.board();
        let pieces = b.by_color(color) & !(b.pawns() | b.kings());
        pieces.any()
    }

    /// Key of the pawn structure (both colours' pawns), for the search's correction history:
    /// the Zobrist keys of the pawns XORed, updated on each move.
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.cur().structure.pawns
    }

    /// Key of where `color`'s pieces other than pawns stand (king included), for the search's
    /// correction history: the Zobrist keys of those pieces XORed, updated on each move, as
    /// [`Position::pawn_key`].
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.cur().structure.non_pawns[color as usize]
    }

    /// Material on the board at pawn 1, knight and bishop 3, rook 5, queen 9, both sides
    /// together (78 in the start position): the WDL model's and `matscale`'s measure.
    pub fn material_value(&self) -> i32 {
        let board = self.board();
        [
            (Role::Pawn, 1),
            (Role::Knight, 3),
            (Role::Bishop, 3),
            (Role::Rook, 5),
            (Role::Queen, 9),
        ]
        .iter()
        .map(|&(role, value)| board.by_role(role).count() as i32 * value)
        .sum()
    }

    /// Number of pieces on the board, kings and pawns included (tablebase cardinality).
    #[inline]
    pub fn piece_count(&self) -> usize {
        self.board().occupied().count()
    }

    /// Whether either side may still castle (tablebases hold no such position).
    #[inline]
    pub fn has_castling_rights(&self) -> bool {
        self.chess().castles().any()
    }

    /// Whether `color` still has the right to castle on `side`.
    #[inline]
    pub fn can_castle(&self, color: Color, side: CastlingSide) -> bool {
        self.chess().castles().has(color, side)
    }

    /// Whether the side to move has a pawn one step from promotion.
    #[inline]
    pub fn has_pawn_on_seventh(&self) -> bool {
        let b = self.board();
        let us = self.turn();
        let rank = match us {
            Color::White => Rank::Seventh,
            Color::Black => Rank::Second,
        };
        (b.pawns() & b.by_color(us) & Bitboard::from_rank(rank)).any()
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board().piece_at(sq)
    }

    /// Number of plies in the history (game moves and search path) before this position.
    #[inline]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// Plays a legal move (copy-make: the previous state stays on the stack for
    /// [`Position::unmake`]).
    #[inline]
    pub fn make(&mut self, m: Move) {
        self.make_hinted(m, |_| ());
    }

    /// [`Position::make`], handing `hint` the child's key as far as the move's pieces decide
    /// it, before the board is touched: exact unless castling rights change or an en passant
    /// capture appears (the search prefetches the child's table entry with it while the move
    /// is made). Not called for a move that is not a piece move (none in chess).
    #[inline]
    pub fn make_hinted(&mut self, m: Move, hint: impl FnOnce(u64)) {
        let n = self.states.len();
        // The key and the structure keys in one pass over the pieces the move changes.
        let before = &self.states[n - 1];
        let mut key = before.key ^ before.ep_key ^ Zobrist64::zobrist_for_white_turn().0;
        let mut structure = before.structure;
        let changes = PieceChanges::of_move(before.chess.turn(), m);
        if let Some(ch) = &changes {
            ch.for_each(|sq, piece| {
                let z = piece_key(sq, piece);
                key ^= z;
                structure.toggle_key(piece, z);
            });
            hint(key);
        }
        // The child starts as a copy of the current state, made in place at the end of the
        // stack (a clone pushed would be copied twice).
        self.states.extend_from_within(n - 1..n);
        let (done, now) = self.states.split_at_mut(n);
        let before = &done[n - 1];
        let after = &mut now[0];
        after.chess.play_unchecked(m);
        if after.chess.halfmoves() == 0 {
            after.null_halfmoves = 0;
        }
        after.checkers = after.chess.checkers();
        after.ep_key = ep_key(&after.chess);
        if changes.is_some() {
            if before.chess.castles().castling_rights() != after.chess.castles().castling_rights() {
                key ^= castling_key(&before.chess) ^ castling_key(&after.chess);
            }
        } else {
            key = full_key(&after.chess);
            structure = StructureKeys::of(after.chess.board());
        }
        after.key = key ^ after.ep_key;
        after.structure = structure;
        after.changes = changes;
        self.history.push(before.key);
    }

    /// The key [`Position::make`] would give after the legal move `m`, without making it: the
    /// pieces' part from the move alone, and only a double pawn push (the new en passant
    /// square) or a move that may change castling rights plays the move on a copy. For
    /// probing the table for the children (enhanced transposition cutoffs).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let s = self.cur();
        let castles = s.chess.castles();
        let needs_child = match m {
            Move::Normal { role, from, to, .. } => {
                (role == Role::Pawn && from.distance(to) == 2)
                    || (castles.any()
                        && (role == Role::King
                            || castles.castling_rights().contains(from)
                            || castles.castling_rights().contains(to)))
            }
            Move::EnPassant { .. } => false,
            Move::Castle { .. } | Move::Put { .. } => true,
        };
        if needs_child {
            let mut child = s.chess.clone();
            child.play_unchecked(m);
            return next_key(&s.chess, s.key ^ s.ep_key, m, &child) ^ ep_key(&child);
        }
        // No castling right changes and no en passant square appears.
        placement_key(s.chess.turn(), s.key ^ s.ep_key, m).unwrap_or(0)
    }

    /// Number of legal moves after `m`, without making it on the stack.
    #[inline]
    pub fn count_moves_after(&self, m: Move) -> u64 {
        let mut child = self.chess().clone();
        child.play_unchecked(m);
        child.legal_moves().len() as u64
    }

    /// Takes back the last [`Position::make`] or [`Position::make_null`].
    #[inline]
    pub fn unmake(&mut self) {
        if self.states.len() > 1 {
            self.states.pop();
            self.history.pop();
        }
    }

    /// Passes the turn (null move). Must not be called in check; returns false (and does
    /// nothing) if the position would be illegal.
    pub fn make_null(&mut self) -> bool {
        if self.is_check() {
            return false;
        }
        let s = self.cur();
        // The turn passes as a piece of ours standing still: the board, the castling rights
        // and everything but the move counters as shakmaty's `swap_turn` makes them, without
        // its validation of the whole position (about 700 instructions a null move).
        let stand_in = if s.null_halfmoves < u8::MAX && s.null_fullmoves < u8::MAX {
            null_stand_in(&s.chess)
        } else {
            None
        };
        let Some(m) = stand_in else {
            return self.make_null_by_setup();
        };
        let mut chess = s.chess.clone();
        chess.play_unchecked(m);
        // The side now to move is not in check: it was the side not to move of a legal
        // position.
        debug_assert_eq!(chess.checkers(), Bitboard::EMPTY);
        let state = State {
            chess,
            key: s.key ^ s.ep_key ^ Zobrist64::zobrist_for_white_turn().0,
            ep_key: 0,
            structure: s.structure,
            checkers: Bitboard::EMPTY,
            changes: Some(PieceChanges::NONE),
            null_halfmoves: s.null_halfmoves + 1,
            null_fullmoves: s.null_fullmoves + u8::from(s.chess.turn() == Color::Black),
        };
        let old_key = s.key;
        // A push, not `make`'s copy in place: a second user of `extend_from_within` took it
        // out of line in `make`, which paid more than the copy saves here.
        self.states.push(state);
        self.history.push(old_key);
        true
    }

    /// [`Position::make_null`] through shakmaty's `swap_turn` (which keeps the move counters),
    /// for a position without a piece that may stand still ([`null_stand_in`]).
    #[cold]
    fn make_null_by_setup(&mut self) -> bool {
        let before = self.cur();
        let Ok(swapped) = before.chess.clone().swap_turn() else {
            return false;
        };
        let old_key = before.key;
        let key = old_key ^ before.ep_key ^ Zobrist64::zobrist_for_white_turn().0;
        let structure = before.structure;
        let (null_halfmoves, null_fullmoves) = (before.null_halfmoves, before.null_fullmoves);
        let checkers = swapped.checkers();
        self.states.push(State {
            chess: swapped,
            key,
            ep_key: 0,
            structure,
            checkers,
            changes: Some(PieceChanges::NONE),
            null_halfmoves,
            null_fullmoves,
        });
        self.history.push(old_key);
        true
    }

    /// Entries on the copy-make stack (1 + moves made since the last [`Position::clear_undo`]);
    /// the current position is entry `stack_len() - 1`.
    #[inline]
    pub fn stack_len(&self) -> usize {
        self.states.len()
    }

    /// The board of stack entry `i` (see [`Position::stack_len`]).
    #[inline]
    pub fn board_at(&self, i: usize) -> &Board {
        self.states[i].chess.board()
    }

    /// The pieces the move into stack entry `i` changed (see [`Position::stack_len`]): None
    /// for an entry with no parent on the stack (entry 0) or unknown changes.
    #[inline]
    pub fn changes_at(&self, i: usize) -> Option<&PieceChanges> {
        self.states[i].changes.as_ref()
    }

    /// The key of stack entry `i` (see [`Position::stack_len`]).
    #[inline]
    pub fn key_at(&self, i: usize) -> u64 {
        self.states[i].key
    }

    /// Forgets the undo stack (keeps the key history), so that a position built from a long
    /// `moves` list does not carry thousands of saved boards into the search.
    pub fn clear_undo(&mut self) {
        let n = self.states.len();
        if n > 1 {
            self.states.drain(..n - 1);
            // The first entry has no parent on the stack any more.
            self.states[0].changes = None;
        }
    }

    /// Draw by repetition, as engines score it: a repetition of any position since `root_ply`
    /// (a two-fold inside the search tree) or a three-fold counting the game history.
    pub fn is_repetition(&self, root_ply: usize) -> bool {
        let n = self.history.len();
        let reach = (self.halfmoves() as usize).min(n);
        let mut seen_before_root = false;
        for idx in earlier_occurrences(&self.history, n, self.key(), reach) {
            if idx >= root_ply || seen_before_root {
                return true;
            }
            seen_before_root = true;
        }
        false
    }

    /// Whether the position after the legal move `m`, of key `child_key`
    /// ([`Position::key_after`]), may be scored a draw by repetition or the 50-move rule where
    /// the search meets it: it repeats any earlier position since the last irreversible move
    /// (root or not), or the move leaves 100 plies without capture or pawn move. For shortcuts
    /// that judge a child without making it (a table entry knows nothing of the path).
    pub fn child_may_be_drawn(&self, m: Move, child_key: u64) -> bool {
        if m.is_capture() || m.role() == Role::Pawn {
            return false;
        }
        if self.halfmoves() + 1 >= 100 {
            return true;
        }
        // The child's history is this one with this position's key appended.
        let len = self.history.len() + 1;
        let reach = (self.halfmoves() as usize + 1).min(len);
        earlier_occurrences(&self.history, len, child_key, reach)
            .next()
            .is_some()
    }

    /// Draw by the 50-move rule (100 plies without capture or pawn move), unless the side to
    /// move is mated.
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmoves() >= 100 && !self.is_mated()
    }

    /// Whether the side to move is checkmated (the rare case of [`Self::is_fifty_move_draw`],
    /// out of line).
    #[inline(never)]
    fn is_mated(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// Parses a move in UCI notation (as `UCI_Chess960` says castling is written) and checks
    /// that it is legal here.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, PositionErr> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| PositionErr::BadMove(text.to_string()))?;
        let m = uci
            .to_move(self.chess())
            .map_err(|_| PositionErr::IllegalMove(text.to_string()))?;
        // In standard mode shakmaty also accepts king-takes-rook; in Chess960 mode it accepts
        // e1g1 only where that is king-takes-rook anyway. Both are unambiguous, so allow them.
        Ok(m)
    }

    /// Parses a move in standard algebraic notation (`Nf3`, `exd5`, `O-O`, `e8=Q+`, as in
    /// PGN movetext) and checks that it is legal and unambiguous here.
    pub fn parse_san(&self, text: &str) -> Result<Move, PositionErr> {
        let san =
            San::from_ascii(text.as_bytes()).map_err(|_| PositionErr::BadMove(text.to_string()))?;
        san.to_move(self.chess())
            .map_err(|_| PositionErr::IllegalMove(text.to_string()))
    }

    /// The Zobrist key of the Polyglot opening book format. shakmaty's `Zobrist64` uses
    /// Polyglot's Random64 table; Polyglot counts the en passant file whenever a pawn of the
    /// side to move stands beside the pawn that just advanced two squares (a pseudo-legal
    /// capture), where [`Position::key`] asks for a legal one.
    pub fn polyglot_key(&self) -> u64 {
        self.chess()
            .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
            .0
    }

    /// A move in UCI notation (castling as `UCI_Chess960` says).
    pub fn move_to_uci(&self, m: Move) -> String {
        move_to_uci(m, self.mode)
    }

    /// Material count of one side by role (for evaluation and insufficient-material checks).
    pub fn material(&self) -> ByColor<ByRole<u8>> {
        self.board().material()
    }

    /// Rebuilds a move from its 16-bit packing (see `tt::pack_move`) if it is legal here.
    pub fn unpack_move(&self, packed: u16) -> Option<Move> {
        if packed == 0 {
            return None;
        }
        let from = Square::new((packed & 63) as u32);
        let to = Square::new(((packed >> 6) & 63) as u32);
        let board = self.board();
        let us = self.turn();
        let piece = board.piece_at(from)?;
        if piece.color != us {
            return None;
        }
        let m = if piece.role == Role::King && board.by_piece(Role::Rook.of(us)).contains(to) {
            Move::Castle {
                king: from,
                rook: to,
            }
        } else if piece.role == Role::Pawn
            && from.file() != to.file()
            && board.piece_at(to).is_none()
        {
            Move::EnPassant { from, to }
        } else {
            let promotion = match packed >> 12 {
                0 => None,
                r => Some(Role::try_from(r as u8).ok()?),
            };
            if board.by_color(us).contains(to) {
                return None;
            }
            let m = Move::Normal {
                role: piece.role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            };
            // Its piece and capture are the board's: the rest of `is_legal`.
            if let Some(king) = board.king_of(us) {
                return crate::movegen::is_legal_placed(self.chess(), self.checkers(), king, m)
                    .then_some(m);
            }
            m
        };
        self.is_legal(m).then_some(m)
    }

    /// Static exchange evaluation: does `m` (legal here) win at least `threshold` (in
    /// [`SEE_VALUE`] units) once all captures on its target square are played out, cheapest
    /// attacker first?
    #[inline]
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = match m {
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
            _ => return threshold <= 0,
        };
        let board = self.board();
        // What the legal move says it takes, which is what stands on its square: no look
        // at the board.
        debug_assert!(matches!(m, Move::EnPassant { .. }) || m.capture() == board.role_at(to));
        let captured = match m {
            Move::EnPassant { .. } => SEE_VALUE[0],
            _ => m.capture().map_or(0, see_value),
        };
        let promo_gain = m.promotion().map_or(0, |p| see_value(p) - SEE_VALUE[0]);
        let mut swap = captured + promo_gain - threshold;
        if swap < 0 {
            return false;
        }
        let mover = m.promotion().unwrap_or(m.role());
        swap = see_value(mover) - swap;
        if swap <= 0 {
            return true;
        }
        // The exchange out of line: the tests above, inlined, often decide alone.
        self.see_exchange(m, from, to, swap)
    }

    /// The exchange of [`Self::see_ge`] once `m` from `from` to `to` is made, `swap` its
    /// balance so far.
    #[inline(never)]
    fn see_exchange(&self, m: Move, from: Square, to: Square, mut swap: i32) -> bool {
        let board = self.board();
        let mut occ = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
        if let Move::EnPassant { .. } = m {
            occ ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
        }
        let bishops = board.bishops_and_queens();
        let rooks = board.rooks_and_queens();
        let mut attackers = attackers_to(board, to, occ);
        let mut stm = self.turn();
        let mut res = true;
        loop {
            stm = !stm;
            attackers &= occ;
            let ours = attackers & board.by_color(stm);
            if ours.is_empty() {
                break;
            }
            res = !res;
            let mut next = None;
            for role in Role::ALL {
                let bb = ours & board.by_role(role);
                if let Some(sq) = bb.first() {
                    next = Some((role, sq));
                    break;
                }
            }
            let Some((role, sq)) = next else { break };
            if role == Role::King {
                // The king may only take last: if the other side still attacks, it cannot.
                return if (attackers & board.by_color(!stm)).any() {
                    !res
                } else {
                    res
                };
            }
            swap = see_value(role) - swap;
            if swap < res as i32 {
                break;
            }
            occ ^= Bitboard::from_square(sq);
            if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                attackers |= attacks::bishop_attacks(to, occ) & bishops;
            }
            if matches!(role, Role::Rook | Role::Queen) {
                attackers |= attacks::rook_attacks(to, occ) & rooks;
            }
        }
        res
    }

    /// Board diagram, FEN and key (the `d` command).
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_coords(File::new(file), Rank::new(rank));
                let c = self.board().piece_at(sq).map_or(' ', |p| p.char());
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(" | {}\n", rank + 1));
            s.push_str(" +---+---+---+---+---+---+---+---+\n");
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!("Fen: {}\n", self.fen()));
        s.push_str(&format!("Key: {:016X}\n", self.key()));
        let checkers: Vec<String> = self
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        s
    }

    /// Key computed from scratch (tests compare it with the incremental key).
    pub fn key_from_scratch(&self) -> u64 {
        full_key(self.chess())
    }
}

/// Piece values used by static exchange evaluation (pawn..king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

#[inline]
fn see_value(role: Role) -> i32 {
    // By role, not `SEE_VALUE[role as usize - 1]`: the index was bounds-checked on every call.
    match role {
        Role::Pawn => SEE_VALUE[0],
        Role::Knight => SEE_VALUE[1],
        Role::Bishop => SEE_VALUE[2],
        Role::Rook => SEE_VALUE[3],
        Role::Queen => SEE_VALUE[4],
        Role::King => SEE_VALUE[5],
    }
}

/// All pieces of both colours attacking `sq` with the given occupancy.
fn attackers_to(board: &Board, sq: Square, occ: Bitboard) -> Bitboard {
    (attacks::pawn_attacks(Color::Black, sq) & board.pawns() & board.white())
        | (attacks::pawn_attacks(Color::White, sq) & board.pawns() & board.black())
        | (attacks::knight_attacks(sq) & board.knights())
        | (attacks::king_attacks(sq) & board.kings())
        | (attacks::bishop_attacks(sq, occ) & board.bishops_and_queens())
        | (attacks::rook_attacks(sq, occ) & board.rooks_and_queens())
}
/// Where `key` occurs among the positions with the same side to move as a position whose
/// history (earlier keys, oldest first) has `len` entries, of which `history` holds the first
/// (at least `len - 3`): indices `len - 4`, `len - 6`, ... no more than `reach` plies back
/// (its halfmove clock), newest first.
#[inline]
fn earlier_occurrences(
    history: &[u64],
    len: usize,
    key: u64,
    reach: usize,
) -> impl Iterator<Item = usize> + '_ {
    // The keys `len - reach ..= len - 4`, walked back from the newest in steps of two: one
    // slice, so no bounds check per key.
    let span = if reach >= 4 {
        &history[len - reach..=len - 4]
    } else {
        &[]
    };
    span.iter()
        .rev()
        .step_by(2)
        .enumerate()
        .filter(move |&(_, &k)| k == key)
        .map(move |(i, _)| len - 4 - 2 * i)
}

/// A move of the side to move's that leaves the board and the castling rights as they are (a
/// piece "moving" to its own square), so that shakmaty's `play_unchecked` passes the turn and
/// clears the en passant square as a null move does, and counts one more halfmove (and
/// fullmove after Black) than a null move: the king without castling rights, else a knight,
/// bishop or queen, else a rook that no castling right names. None if there is none (the
/// king and rooks with castling rights only).
#[inline]
fn null_stand_in(chess: &Chess) -> Option<Move> {
    let board = chess.board();
    let us = chess.turn();
    let ours = board.by_color(us);
    let rights = chess.castles().castling_rights();
    let (role, sq) = if !chess.castles().has_color(us) {
        (Role::King, board.king_of(us)?)
    } else if let Some(sq) = (ours & board.knights()).first() {
        (Role::Knight, sq)
    } else if let Some(sq) = (ours & board.bishops()).first() {
        (Role::Bishop, sq)
    } else if let Some(sq) = (ours & board.queens()).first() {
        (Role::Queen, sq)
    } else {
        (Role::Rook, (ours & board.rooks() & !rights).first()?)
    };
    Some(Move::Normal {
        role,
        from: sq,
        capture: None,
        to: sq,
        promotion: None,
    })
}

/// Zobrist key from scratch.
fn full_key(chess: &Chess) -> u64 {
    chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

fn piece_key(sq: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(sq, piece).0
}

/// Castling part of the key.
fn castling_key(chess: &Chess) -> u64 {
    let mut k = 0;
    let castles = chess.castles();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    k
}

/// En passant part of the key (only when a capture is legal).
fn ep_key(chess: &Chess) -> u64 {
    match chess.maybe_ep_square() {
        None => 0,
        Some(_) => chess
            .ep_square(EnPassantMode::Legal)
            .map_or(0, |sq| Zobrist64::zobrist_for_en_passant_file(sq.file()).0),
    }
}

/// Incremental key after `m` took `before` to `after`, without the en passant part (`key` must
/// not contain it either).
#[inline]
fn next_key(before: &Chess, key: u64, m: Move, after: &Chess) -> u64 {
    let Some(mut k) = placement_key(before.turn(), key, m) else {
        return full_key(after);
    };
    if before.castles().castling_rights() != after.castles().castling_rights() {
        k ^= castling_key(before) ^ castling_key(after);
    }
    k
}

/// The side-to-move and piece part of [`next_key`]: `key` with `us`'s move `m` applied to the
/// pieces (None for a drop, which chess never has).
#[inline]
fn placement_key(us: Color, key: u64, m: Move) -> Option<u64> {
    let mut k = key ^ Zobrist64::zobrist_for_white_turn().0;
    PieceChanges::of_move(us, m)?.for_each(|sq, piece| k ^= piece_key(sq, piece));
    Some(k)
}

/// A move in UCI notation for the given castling mode.
pub fn move_to_uci(m: Move, mode: CastlingMode) -> String {
    m.to_uci(mode).to_string()
}

/// Perft with bulk counting at the last ply, through [`Position::make`]/[`Position::unmake`].
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    if depth == 2 {
        // The last interior level: children are only counted, so skip the key and history
        // bookkeeping of `make` (the bulk of all moves made in a perft are made here).
        return moves.iter().map(|&m| pos.count_moves_after(m)).sum();
    }
    let mut total = 0;
    for &m in &moves {
        pos.make(m);
        total += perft(pos, depth - 1);
        pos.unmake();
    }
    total
}

/// A bare `shakmaty::perft` on the same position (the yardstick for `make perft-bench`).
pub fn shakmaty_perft(pos: &Position, depth: u32) -> u64 {
    shakmaty::perft(pos.chess(), depth)
}

/// Perft split by root move (`go perft N`): each move in UCI notation with its count.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(String, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in &moves {
        let name = pos.move_to_uci(m);
        pos.make(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake();
        out.push((name, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The threats are the opponent's attacks: a rook's line up to and including the first
    /// piece in its way, a king's neighbours, pawns' capture squares only.
    #[test]
    fn threats_are_the_squares_the_opponent_attacks() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", false).unwrap();
        let expected: Bitboard = [
            Square::A2,
            Square::A3,
            Square::A4,
            Square::A5,
            Square::A6,
            Square::A7,
            Square::A8,
            Square::B1,
            Square::C1,
            Square::D1,
            Square::E1,
            Square::D8,
            Square::F8,
            Square::D7,
            Square::E7,
            Square::F7,
        ]
        .into_iter()
        .collect();
        assert_eq!(pos.threats(), expected);
        // Black to move: White's king and pawn; the pawn attacks diagonally, not ahead.
        let pos = Position::from_fen("4k3/8/8/8/8/8/3P4/4K3 b - - 0 1", false).unwrap();
        let expected: Bitboard = [
            Square::D1,
            Square::F1,
            Square::D2,
            Square::E2,
            Square::F2,
            Square::C3,
            Square::E3,
        ]
        .into_iter()
        .collect();
        assert_eq!(pos.threats(), expected);
    }

    fn check_keys(pos: &mut Position, depth: u32) {
        assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
        assert_eq!(
            pos.cur().structure,
            StructureKeys::of(pos.board()),
            "structure keys in {}",
            pos.fen()
        );
        assert_eq!(
            pos.checkers(),
            pos.chess().checkers(),
            "checkers in {}",
            pos.fen()
        );
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let predicted = pos.key_after(m);
            let rights = pos.chess().castles().castling_rights();
            let may_draw = pos.child_may_be_drawn(m, predicted);
            let mut hint = None;
            pos.make_hinted(m, |k| hint = Some(k));
            assert_eq!(predicted, pos.key(), "key_after {m:?} in {}", pos.fen());
            // The hint is given for every move of chess, and misses only where castling
            // rights change or an en passant capture appears.
            assert!(hint.is_some(), "no hint for {m:?}");
            if pos.chess().castles().castling_rights() == rights && pos.cur().ep_key == 0 {
                assert_eq!(hint, Some(pos.key()), "make_hinted {m:?} in {}", pos.fen());
            }
            if pos.is_repetition(0) || pos.is_fifty_move_draw() {
                assert!(may_draw, "child_may_be_drawn {m:?} in {}", pos.fen());
            }
            check_keys(pos, depth - 1);
            pos.unmake();
        }
    }

    #[test]
    fn incremental_key_equals_scratch_key() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let mut pos = Position::from_fen(fen, false).unwrap();
            check_keys(&mut pos, 3);
        }
        let mut pos = Position::from_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            true,
        )
        .unwrap();
        check_keys(&mut pos, 3);
    }

    /// A child that repeats a position or reaches the 50-move limit is flagged before it is
    /// made; an ordinary one is not.
    #[test]
    fn child_may_be_drawn_sees_repetitions_and_the_fifty_move_rule() {
        let mut pos = Position::startpos();
        for uci in ["g1f3", "g8f6", "f3g1"] {
            let m = pos.parse_uci_move(uci).unwrap();
            assert!(!pos.child_may_be_drawn(m, pos.key_after(m)), "{uci}");
            pos.make(m);
        }
        let back = pos.parse_uci_move("f6g8").unwrap();
        assert!(pos.child_may_be_drawn(back, pos.key_after(back)));
        let other = pos.parse_uci_move("b8c6").unwrap();
        assert!(!pos.child_may_be_drawn(other, pos.key_after(other)));
        let pawn = pos.parse_uci_move("e7e5").unwrap();
        assert!(!pos.child_may_be_drawn(pawn, pos.key_after(pawn)));
        pos.make(back);
        assert!(pos.is_repetition(0));

        let pos = Position::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 99 80", false).unwrap();
        let quiet = pos.parse_uci_move("d3d1").unwrap();
        assert!(pos.child_may_be_drawn(quiet, pos.key_after(quiet)));
    }

    /// The structure keys follow the pieces they hash and nothing else: a knight move keeps
    /// the pawn key and the other side's non-pawn key, a pawn move keeps both non-pawn keys;
    /// the keys of the two colours differ, and the same placement has the same keys.
    #[test]
    fn structure_keys() {
        let mut pos = Position::startpos();
        let (pawns, white, black) = (
            pos.pawn_key(),
            pos.non_pawn_key(Color::White),
            pos.non_pawn_key(Color::Black),
        );
        assert_ne!(white, black);
        assert_ne!(pawns, white);
        pos.make(pos.parse_uci_move("g1f3").unwrap());
        assert_eq!(pos.pawn_key(), pawns);
        assert_ne!(pos.non_pawn_key(Color::White), white);
        assert_eq!(pos.non_pawn_key(Color::Black), black);
        pos.make(pos.parse_uci_move("e7e5").unwrap());
        assert_ne!(pos.pawn_key(), pawns);
        assert_eq!(pos.non_pawn_key(Color::Black), black);
        let after = (pos.pawn_key(), pos.non_pawn_key(Color::White));
        // The same position from a FEN has the same keys.
        let mut t = Position::from_fen(
            "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2",
            false,
        )
        .unwrap();
        assert_eq!((t.pawn_key(), t.non_pawn_key(Color::White)), after);
        // A white pawn on e4 and a black one on e5 is not a black pawn on e4 and a white one
        // on e5.
        t = Position::from_fen("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        let u = Position::from_fen("4k3/8/8/4P3/4p3/8/8/4K3 w - - 0 1", false).unwrap();
        assert_ne!(t.pawn_key(), u.pawn_key());
    }

    /// `earlier_occurrences` finds the indices `len - 4`, `len - 6`, ... back to `len - reach`
    /// that hold the key, newest first, for every length and reach (the history holding all
    /// `len` keys, or all but the last, as `child_may_be_drawn` calls it).
    #[test]
    fn earlier_occurrences_are_every_second_key_back_to_reach() {
        let history: Vec<u64> = (0..40u64).map(|i| i % 3 + (i % 7 == 0) as u64).collect();
        for len in 0..=history.len() + 1 {
            let held = &history[..len.min(history.len())];
            for reach in 0..=len {
                for key in 0..4 {
                    let naive: Vec<usize> = (4..=reach)
                        .step_by(2)
                        .map(|back| len - back)
                        .filter(|&idx| held[idx] == key)
                        .collect();
                    let found: Vec<usize> = earlier_occurrences(held, len, key, reach).collect();
                    assert_eq!(found, naive, "len {len} reach {reach} key {key}");
                }
            }
        }
    }

    #[test]
    fn null_move_key() {
        let mut pos = Position::from_fen(
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            false,
        )
        .unwrap();
        let structure = pos.cur().structure;
        assert!(pos.make_null());
        assert_eq!(pos.key(), pos.key_from_scratch());
        assert_eq!(pos.cur().structure, structure);
        assert_eq!(pos.checkers(), pos.chess().checkers());
        pos.unmake();
        assert_eq!(pos.key(), pos.key_from_scratch());
    }

    /// A null move is the position shakmaty's `swap_turn` makes (board, side to move, en
    /// passant square, castling rights with their rooks and paths, move counters, FEN, legal
    /// moves, checkers, key), whether played as a piece standing still or, without one,
    /// through `swap_turn` itself; and so are the moves after it. Walked two plies deep (a
    /// null move or a legal one at each) from the perft suite and 120 Chess960 positions, and
    /// three plies from positions where null moves follow captures and pawn moves.
    #[test]
    fn null_move_is_swap_turn() {
        fn same(pos: &Position, expected: &Chess, what: &str) {
            let got = pos.chess();
            assert_eq!(got.board(), expected.board(), "{what}");
            assert_eq!(got.turn(), expected.turn(), "{what}");
            assert_eq!(got.maybe_ep_square(), expected.maybe_ep_square(), "{what}");
            let (a, b) = (got.castles(), expected.castles());
            assert_eq!(a.castling_rights(), b.castling_rights(), "{what}");
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    assert_eq!(a.rook(color, side), b.rook(color, side), "{what}");
                    if b.has(color, side) {
                        assert_eq!(a.path(color, side), b.path(color, side), "{what}");
                    }
                }
            }
            assert_eq!(pos.halfmoves(), expected.halfmoves(), "{what}");
            assert_eq!(pos.fullmoves(), expected.fullmoves().get(), "{what}");
            let fen = Fen::from_position(expected, EnPassantMode::Legal).to_string();
            assert_eq!(pos.fen(), fen, "{what}");
            assert_eq!(pos.legal_moves(), expected.legal_moves(), "{what}");
            assert_eq!(pos.checkers(), expected.checkers(), "{what}");
            assert_eq!(pos.key(), pos.key_from_scratch(), "{what}");
        }

        #[derive(Default)]
        struct Seen {
            stand_ins: usize,
            by_setup: usize,
            nested: usize,
        }

        fn walk(pos: &mut Position, shadow: &Chess, depth: u32, nulls: u32, seen: &mut Seen) {
            let what = format!("{} after {nulls} null moves", pos.fen());
            same(pos, shadow, &what);
            if depth == 0 {
                return;
            }
            if !pos.is_check() {
                if null_stand_in(pos.chess()).is_some() {
                    seen.stand_ins += 1;
                } else {
                    seen.by_setup += 1;
                }
                seen.nested += usize::from(nulls > 0);
                let swapped = shadow.clone().swap_turn().expect("not in check");
                assert!(pos.make_null(), "{what}");
                walk(pos, &swapped, depth - 1, nulls + 1, seen);
                pos.unmake();
                same(pos, shadow, &what);
            }
            for m in pos.legal_moves() {
                let mut child = shadow.clone();
                child.play_unchecked(m);
                pos.make(m);
                walk(pos, &child, depth - 1, nulls, seen);
                pos.unmake();
            }
        }

        let mut seen = Seen::default();
        let line = |l: &str| l.split(';').next().unwrap_or("").trim().to_string();
        let suite = include_str!("../tests/data/perftsuite.epd")
            .lines()
            .map(line);
        let fischer = include_str!("../tests/data/fischer.epd").lines().map(line);
        let positions = suite
            .map(|f| (f, false, 2))
            .chain(fischer.take(120).map(|f| (f, true, 2)))
            .chain(
                [
                    // Kings and rooks with castling rights only: the null move through
                    // `swap_turn`, and after the rooks or kings move by a stand-in.
                    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                    "r3k2r/p6p/8/8/8/8/P6P/R3K2R b KQkq - 3 20",
                    // Captures and pawn moves between null moves (the halfmove clock).
                    "4k3/1p1n4/2P5/3p4/4P3/5n2/6P1/R3K3 w Q - 7 30",
                    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                ]
                .map(|f| (f.to_string(), false, 3)),
            );
        for (fen, chess960, depth) in positions {
            let Ok(mut pos) = Position::from_fen(&fen, chess960) else {
                continue;
            };
            let shadow = pos.chess().clone();
            walk(&mut pos, &shadow, depth, 0, &mut seen);
        }
        eprintln!(
            "null moves: {} by a stand-in, {} by swap_turn, {} after another",
            seen.stand_ins, seen.by_setup, seen.nested
        );
        assert!(seen.stand_ins > 5_000, "{}", seen.stand_ins);
        assert!(seen.by_setup > 100, "{}", seen.by_setup);
        assert!(seen.nested > 300, "{}", seen.nested);
    }

    /// The quick test of `is_insufficient_material` answers as shakmaty's own, with and
    /// without pawns, rooks and queens of either side.
    #[test]
    fn insufficient_material_as_shakmaty() {
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/5N2/8 w - - 0 1",
            "8/8/4k3/2b5/8/3K4/5B2/8 b - - 0 1",
            "8/8/4k3/3b4/8/3K4/5B2/8 b - - 0 1",
            "8/8/4k3/8/8/3K4/5P2/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/7r w - - 0 1",
            "8/2q5/4k3/8/8/3K4/8/8 w - - 0 1",
            START_FEN,
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            assert_eq!(
                pos.is_insufficient_material(),
                pos.chess().is_insufficient_material(),
                "{fen}"
            );
        }
    }

    #[test]
    fn see_examples() {
        let see = |fen: &str, mv: &str, t: i32| {
            let pos = Position::from_fen(fen, false).unwrap();
            let m = pos.parse_uci_move(mv).unwrap();
            pos.see_ge(m, t)
        };
        // Rook takes an undefended pawn: wins exactly a pawn.
        assert!(see(
            "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
            "e1e5",
            100
        ));
        assert!(!see(
            "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
            "e1e5",
            101
        ));
        // Knight takes a pawn defended twice, with x-rays behind both sides: loses material.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 1));
        // Quiet move to an attacked square loses the piece.
        assert!(!see("4k3/8/8/8/3p4/8/8/2B1K3 w - - 0 1", "c1e3", -100));
        assert!(see("4k3/8/8/8/3p4/8/8/2B1K3 w - - 0 1", "c1d2", 0));
    }

    #[test]
    fn gives_check_matches_playing_the_move() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ] {
            let mut pos = Position::from_fen(fen, false).unwrap();
            for m in pos.legal_moves() {
                pos.make(m);
                let checks = pos.is_check();
                pos.unmake();
                assert_eq!(pos.gives_check(m), checks, "{fen} {m:?}");
                pos.make(m);
                for r in pos.legal_moves() {
                    pos.make(r);
                    let c2 = pos.is_check();
                    pos.unmake();
                    assert_eq!(pos.gives_check(r), c2, "{} {r:?}", pos.fen());
                }
                pos.unmake();
            }
        }
    }

    #[test]
    fn unpack_round_trip() {
        let mut pos = Position::from_fen(
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            false,
        )
        .unwrap();
        for _ in 0..2 {
            for m in pos.legal_moves() {
                assert_eq!(pos.unpack_move(crate::tt::pack_move(m)), Some(m));
            }
            let m = pos.legal_moves()[0];
            pos.make(m);
        }
        assert_eq!(pos.unpack_move(0), None);
    }

    /// Every 16-bit value unpacks to a legal move of its squares (and promotion, when it packs
    /// one), or to nothing where no legal move packs to it: positions with pins, checks,
    /// castling, en passant and promotions.
    #[test]
    fn unpack_every_value() {
        use crate::tt::pack_move;
        for fen in [
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/4p3/8/8/1b6/8/3R4/4K2r w - - 0 1",
            "4k3/4p3/8/8/1b6/8/3N4/4K3 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            let legal = pos.legal_moves();
            for p in 1..=u16::MAX {
                match pos.unpack_move(p) {
                    Some(m) => {
                        assert!(legal.contains(&m), "{p:#x} {m:?} in {fen}");
                        assert_eq!(pack_move(m) & 0xfff, p & 0xfff, "{m:?} in {fen}");
                    }
                    None => assert!(legal.iter().all(|&m| pack_move(m) != p), "{p:#x} in {fen}"),
                }
            }
        }
    }

    #[test]
    fn repetition_detection() {
        let mut pos = Position::startpos();
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = pos.parse_uci_move(mv).unwrap();
            pos.make(m);
        }
        // Start position seen twice in the game: a repetition before the root needs a third.
        assert!(!pos.is_repetition(pos.game_ply()));
        // Inside the search tree (root before the moves) a two-fold is a draw.
        assert!(pos.is_repetition(0));
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = pos.parse_uci_move(mv).unwrap();
            pos.make(m);
        }
        assert!(pos.is_repetition(pos.game_ply()));
    }
}
