//! The Polyglot book format: entries, position keys and the 16-bit move code.
//!
//! Format (the Polyglot book format specification by Michel Van den Bergh, public domain): a
//! book is a sequence of 16-byte big-endian entries `key: u64, move: u16, weight: u16,
//! learn: u32`, sorted by key. The key is the position's Zobrist key with Polyglot's
//! 781 Random64 constants; shakmaty's `Zobrist64` is that very table, so
//! [`Position::polyglot_key`] computes it (the published test keys are checked below).

use crate::position::{Move, Position, Role, Square};

/// Bytes of one book entry.
pub const ENTRY_BYTES: usize = 16;

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    /// Polyglot Zobrist key of the position.
    pub key: u64,
    /// The move, in Polyglot's 16-bit code (see [`encode_move`]).
    pub mv: u16,
    /// Relative weight: the chance of a move is its weight over the position's total.
    pub weight: u16,
    /// Learning data; read and written unchanged, not used.
    pub learn: u32,
}

impl Entry {
    /// Reads one entry from its 16 big-endian bytes.
    pub fn from_bytes(b: &[u8; ENTRY_BYTES]) -> Entry {
        let mut key = [0u8; 8];
        key.copy_from_slice(&b[0..8]);
        Entry {
            key: u64::from_be_bytes(key),
            mv: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }

    /// The entry's 16 big-endian bytes.
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut b = [0u8; ENTRY_BYTES];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }
}

/// The Polyglot key of a position.
pub fn key(pos: &Position) -> u64 {
    pos.polyglot_key()
}

/// Polyglot's code of a move: to-file in bits 0-2, to-row 3-5, from-file 6-8, from-row 9-11,
/// promotion 12-14 (1 knight, 2 bishop, 3 rook, 4 queen). Castling is written as the king
/// taking its own rook (`e1h1`, `e8a8`, and in Chess960 wherever the rook stands), in standard
/// chess too. Drops (which chess has not) are 0.
pub fn encode_move(m: Move) -> u16 {
    let (from, to, promotion) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => (king, rook, None),
        Move::Put { .. } => return 0,
    };
    let promo = match promotion {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    square_index(to) | (square_index(from) << 6) | (promo << 12)
}

/// The legal move of `pos` whose Polyglot code is `code`, if there is one. Castling matches
/// only as king-takes-rook, so the move found is right in standard and Chess960 modes alike
/// (it is written back in the mode's own UCI notation).
pub fn decode_move(pos: &Position, code: u16) -> Option<Move> {
    // Bit 15 is unused; a code with it set, or with a promotion above queen, matches nothing.
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| encode_move(m) == code)
}

/// A Polyglot move code in coordinate notation (castling as king-takes-rook), for moves that
/// may not be legal anywhere: `e2e4`, `a7a8q`, or `?` and the number for bits no move has.
pub fn code_to_string(code: u16) -> String {
    let sq = |i: u16| Square::new(u32::from(i & 63)).to_string();
    let promo = match (code >> 12) & 7 {
        0 => "",
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => return format!("?{code}"),
    };
    if code >> 15 != 0 {
        return format!("?{code}");
    }
    format!("{}{}{promo}", sq(code >> 6), sq(code))
}

/// Index of a square in Polyglot's numbering (`a1` = 0, `h1` = 7, `h8` = 63), which is
/// shakmaty's too.
fn square_index(sq: Square) -> u16 {
    u32::from(sq) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::CastlingMode;

    fn after(moves: &str) -> Position {
        let mut pos = Position::startpos();
        for mv in moves.split_whitespace() {
            let m = pos.parse_uci_move(mv).unwrap();
            pos.make(m);
        }
        pos
    }

    /// The test positions of the Polyglot book format specification.
    #[test]
    fn published_polyglot_keys() {
        for (moves, expected) in [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            // The specification's line ends a1a3 (an en passant capture, then the rook).
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ] {
            assert_eq!(key(&after(moves)), expected, "after '{moves}'");
        }
    }

    #[test]
    fn en_passant_counts_when_pseudo_legal() {
        // After c2c4 the b4 pawn beside it could capture: Polyglot counts the file (the key
        // above). Here the capture exists but is illegal (the pawn is pinned against its
        // king): Polyglot still counts it, the engine's own key does not.
        let fen_ep = "8/8/8/8/kpP4R/8/8/4K3 b - c3 0 1";
        let fen_no = "8/8/8/8/kpP4R/8/8/4K3 b - - 0 1";
        let ep = Position::from_fen(fen_ep, false).unwrap();
        let no = Position::from_fen(fen_no, false).unwrap();
        assert_ne!(key(&ep), key(&no));
        assert_eq!(ep.key(), no.key());
    }

    #[test]
    fn move_codes() {
        let pos = Position::startpos();
        let e2e4 = pos.parse_uci_move("e2e4").unwrap();
        // e2 = 12, e4 = 28.
        assert_eq!(encode_move(e2e4), 28 | (12 << 6));
        assert_eq!(decode_move(&pos, 28 | (12 << 6)), Some(e2e4));
        assert_eq!(code_to_string(encode_move(e2e4)), "e2e4");
        // Not legal from the start: nothing.
        assert_eq!(decode_move(&pos, 36 | (12 << 6)), None);
        assert_eq!(decode_move(&pos, 0), None);
        assert_eq!(decode_move(&pos, 0xffff), None);
        assert_eq!(code_to_string(0xffff), "?65535");

        let promo = Position::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1", false).unwrap();
        for (uci, p) in [("a7a8n", 1), ("a7a8b", 2), ("a7a8r", 3), ("a7a8q", 4)] {
            let m = promo.parse_uci_move(uci).unwrap();
            let code = 56 | (48 << 6) | (p << 12);
            assert_eq!(encode_move(m), code, "{uci}");
            assert_eq!(decode_move(&promo, code), Some(m), "{uci}");
            assert_eq!(code_to_string(code), uci);
        }
        let capture = promo.parse_uci_move("a7b8q").unwrap();
        assert_eq!(
            decode_move(&promo, 57 | (48 << 6) | (4 << 12)),
            Some(capture)
        );
    }

    #[test]
    fn castling_is_king_takes_rook_in_both_modes() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for chess960 in [false, true] {
            let mut pos = Position::from_fen(fen, chess960).unwrap();
            // e1h1: e1 = 4, h1 = 7; e1a1: a1 = 0.
            let short = decode_move(&pos, 7 | (4 << 6)).unwrap();
            let long = decode_move(&pos, 4 << 6).unwrap();
            assert!(matches!(short, Move::Castle { .. }));
            assert!(matches!(long, Move::Castle { .. }));
            let (s, l) = if chess960 {
                ("e1h1", "e1a1")
            } else {
                ("e1g1", "e1c1")
            };
            assert_eq!(pos.move_to_uci(short), s);
            assert_eq!(pos.move_to_uci(long), l);
            // The king's two-square step is no Polyglot castling code.
            assert_eq!(decode_move(&pos, 6 | (4 << 6)), None);
            pos.make(short);
            // Black: e8a8 (e8 = 60, a8 = 56; e8h8 is illegal, the rook on f1 covers f8).
            assert_eq!(decode_move(&pos, 63 | (60 << 6)), None);
            let black = decode_move(&pos, 56 | (60 << 6)).unwrap();
            assert!(matches!(black, Move::Castle { .. }));
        }
        // A Chess960 start with the king on b1 and rooks on a1 and h1.
        let fen = "1k6/8/8/8/8/8/8/RK5R w HA - 0 1";
        let pos = Position::from_fen(fen, true).unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        let long = decode_move(&pos, 1 << 6).unwrap();
        assert_eq!(pos.move_to_uci(long), "b1a1");
        let short = decode_move(&pos, 7 | (1 << 6)).unwrap();
        assert_eq!(pos.move_to_uci(short), "b1h1");
    }

    #[test]
    fn entry_bytes_round_trip() {
        let e = Entry {
            key: 0x463b96181691fc9c,
            mv: 0x031c,
            weight: 0xfffe,
            learn: 0x01020304,
        };
        let b = e.to_bytes();
        assert_eq!(&b[..8], &[0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c]);
        assert_eq!(&b[8..], &[0x03, 0x1c, 0xff, 0xfe, 1, 2, 3, 4]);
        assert_eq!(Entry::from_bytes(&b), e);
    }
}
