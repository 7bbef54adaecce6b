//! The binary training-data format: a 32-byte file header, then 32-byte position records.
//!
//! Documented for users in `docs/datagen-format.md`. Every number is little-endian.
//!
//! Header (32 bytes): the magic `NWPOS\0\0\x01` (8 bytes: name, version 1), the record size
//! as a `u32` (32), then 20 zero bytes.
//!
//! Record (32 bytes):
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy bitboard, `u64` (bit 0 = a1, bit 63 = h8) |
//! | 8..24 | the pieces of the occupied squares in ascending square order, a nibble each (low nibble first): bit 3 = black, bits 0..2 = role (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king); unused nibbles 0 |
//! | 24 | flags: bit 0 = Black to move; bits 1..4 = castling rights K, Q, k, q; bits 5..7 zero |
//! | 25 | halfmove clock (saturated at 255) |
//! | 26..28 | fullmove number, `u16` |
//! | 28..30 | search score in centipawns from White's view, `i16` |
//! | 30 | game result from White's view: 0 = Black won, 1 = draw, 2 = White won |
//! | 31 | zero (reserved) |

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};

use crate::position::{Bitboard, Board, CastlingSide, Color, Piece, Position, Role};

/// Bytes of the file header and of each record.
pub const RECORD_SIZE: usize = 32;
/// The first 8 bytes of a data file.
pub const MAGIC: [u8; 8] = *b"NWPOS\0\0\x01";

/// The file header.
pub fn header() -> [u8; RECORD_SIZE] {
    let mut h = [0u8; RECORD_SIZE];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    h
}

/// Game result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// Black won.
    BlackWin = 0,
    /// Draw.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl Wdl {
    /// 0, 0.5 or 1 (White's view).
    pub fn as_f32(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The result as PGN writes it.
    pub fn text(self) -> &'static str {
        match self {
            Wdl::BlackWin => "0-1",
            Wdl::Draw => "1/2-1/2",
            Wdl::WhiteWin => "1-0",
        }
    }
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Castling rights K, Q, k, q as bits 0..3.
    pub castling: u8,
    /// Halfmove clock.
    pub halfmoves: u8,
    /// Fullmove number.
    pub fullmoves: u16,
    /// Search score, centipawns, White's view.
    pub score: i16,
    /// Game result.
    pub result: Wdl,
}

fn role_code(r: Role) -> u8 {
    r as u8 // shakmaty: Pawn = 1 .. King = 6
}

fn role_from_code(c: u8) -> Option<Role> {
    Some(match c {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        6 => Role::King,
        _ => return None,
    })
}

impl Record {
    /// A record of `pos` with a score from the side to move's view and the game result.
    pub fn from_position(pos: &Position, stm_score: i32, result: Wdl) -> Record {
        let mut castling = 0;
        for (i, (color, side)) in [
            (Color::White, CastlingSide::KingSide),
            (Color::White, CastlingSide::QueenSide),
            (Color::Black, CastlingSide::KingSide),
            (Color::Black, CastlingSide::QueenSide),
        ]
        .into_iter()
        .enumerate()
        {
            if pos.can_castle(color, side) {
                castling |= 1 << i;
            }
        }
        let white = if pos.turn() == Color::White {
            stm_score
        } else {
            -stm_score
        };
        Record {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling,
            halfmoves: pos.halfmoves().min(255) as u8,
            fullmoves: pos.fullmoves().min(u16::MAX as u32) as u16,
            score: white.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16,
            result,
        }
    }

    /// The packed 32 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        let occ = self.board.occupied();
        b[..8].copy_from_slice(&u64::from(occ).to_le_bytes());
        for (i, sq) in occ.into_iter().enumerate().take(32) {
            let Some(p) = self.board.piece_at(sq) else {
                continue;
            };
            let nib = role_code(p.role) | if p.color == Color::Black { 8 } else { 0 };
            b[8 + i / 2] |= nib << (4 * (i % 2));
        }
        b[24] = u8::from(self.turn == Color::Black) | (self.castling & 0xf) << 1;
        b[25] = self.halfmoves;
        b[26..28].copy_from_slice(&self.fullmoves.to_le_bytes());
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        b[30] = self.result as u8;
        b
    }

    /// Unpacks and checks a record: at most 32 pieces, valid piece codes, one king a side,
    /// zero padding, a known result.
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Result<Record, String> {
        let mut occ_bytes = [0u8; 8];
        occ_bytes.copy_from_slice(&b[..8]);
        let occ = Bitboard(u64::from_le_bytes(occ_bytes));
        let n = occ.count();
        if n > 32 {
            return Err(format!("{n} pieces"));
        }
        let mut board = Board::empty();
        for (i, sq) in occ.into_iter().enumerate() {
            let nib = (b[8 + i / 2] >> (4 * (i % 2))) & 0xf;
            let role = role_from_code(nib & 7).ok_or_else(|| format!("bad piece code {nib}"))?;
            let color = if nib & 8 != 0 {
                Color::Black
            } else {
                Color::White
            };
            board.set_piece_at(sq, Piece { color, role });
        }
        for i in n..32 {
            if (b[8 + i / 2] >> (4 * (i % 2))) & 0xf != 0 {
                return Err("stray piece nibble".into());
            }
        }
        if (board.kings() & board.by_color(Color::White)).count() != 1
            || (board.kings() & board.by_color(Color::Black)).count() != 1
        {
            return Err("not one king a side".into());
        }
        if b[24] & 0xe0 != 0 || b[31] != 0 {
            return Err("nonzero reserved bits".into());
        }
        let result = match b[30] {
            0 => Wdl::BlackWin,
            1 => Wdl::Draw,
            2 => Wdl::WhiteWin,
            r => return Err(format!("bad result {r}")),
        };
        Ok(Record {
            board,
            turn: if b[24] & 1 != 0 {
                Color::Black
            } else {
                Color::White
            },
            castling: (b[24] >> 1) & 0xf,
            halfmoves: b[25],
            fullmoves: u16::from_le_bytes([b[26], b[27]]),
            score: i16::from_le_bytes([b[28], b[29]]),
            result,
        })
    }

    /// The score from the side to move's view.
    pub fn stm_score(&self) -> i32 {
        if self.turn == Color::White {
            self.score as i32
        } else {
            -(self.score as i32)
        }
    }

    /// The position as a FEN (castling rights as recorded, no en passant square).
    pub fn fen(&self) -> String {
        let mut castling: String = ['K', 'Q', 'k', 'q']
            .iter()
            .enumerate()
            .filter(|(i, _)| self.castling & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        if castling.is_empty() {
            castling.push('-');
        }
        format!(
            "{} {} {} - {} {}",
            self.board,
            if self.turn == Color::White { 'w' } else { 'b' },
            castling,
            self.halfmoves,
            self.fullmoves.max(1)
        )
    }

    /// The record as an EPD line in the tuner's format: `<FEN 4 fields> c9 "1-0"; ce 35;`
    /// (`ce` from the side to move's view).
    pub fn epd(&self) -> String {
        let fen = self.fen();
        let four: Vec<&str> = fen.split_whitespace().take(4).collect();
        format!(
            "{} c9 \"{}\"; ce {};",
            four.join(" "),
            self.result.text(),
            self.stm_score()
        )
    }
}

/// Checks the header of an open data file and returns the number of whole records in it;
/// `Err` for a foreign file. A trailing partial record is reported in the second value
/// (its byte count).
pub fn check_file(f: &mut File, path: &str) -> Result<(u64, u64), String> {
    let len = f
        .metadata()
        .map_err(|e| format!("cannot read {path}: {e}"))?
        .len();
    let mut h = [0u8; RECORD_SIZE];
    f.seek(SeekFrom::Start(0))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if len < RECORD_SIZE as u64 || f.read_exact(&mut h).is_err() {
        return Err(format!(
            "{path} is not a Nullwindow data file (shorter than its {RECORD_SIZE}-byte header)"
        ));
    }
    if h[..8] != MAGIC {
        return Err(format!(
            "{path} is not a Nullwindow data file (its first bytes are not the NWPOS magic of version 1)"
        ));
    }
    if h != header() {
        return Err(format!(
            "{path}: unsupported header (record size or reserved bytes)"
        ));
    }
    let body = len - RECORD_SIZE as u64;
    Ok((body / RECORD_SIZE as u64, body % RECORD_SIZE as u64))
}

/// Reads a whole data file: every record, checked. A truncated file (a partial last record)
/// or a record that does not decode is an error naming the file and the record.
pub fn read_file(path: &str) -> Result<Vec<Record>, String> {
    let mut f = File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let (n, tail) = check_file(&mut f, path)?;
    if tail != 0 {
        return Err(format!(
            "{path} is truncated: {tail} bytes after its last whole record ({n} records)"
        ));
    }
    let mut bytes = Vec::with_capacity(n as usize * RECORD_SIZE);
    f.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    bytes
        .chunks_exact(RECORD_SIZE)
        .enumerate()
        .map(|(i, c)| {
            let mut a = [0u8; RECORD_SIZE];
            a.copy_from_slice(c);
            Record::from_bytes(&a).map_err(|e| format!("{path}: record {i} is corrupt ({e})"))
        })
        .collect()
}

/// Writes a complete data file (header and records), replacing `path`.
pub fn write_file(path: &str, records: &[Record]) -> Result<(), String> {
    let mut f = File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
    let mut buf = Vec::with_capacity((records.len() + 1) * RECORD_SIZE);
    buf.extend_from_slice(&header());
    for r in records {
        buf.extend_from_slice(&r.to_bytes());
    }
    f.write_all(&buf)
        .map_err(|e| format!("cannot write {path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17",
            "8/8/4k3/8/8/8/2K5/8 w - - 99 120",
        ] {
            let pos = Position::from_fen(fen, false).expect("fen");
            let r = Record::from_position(&pos, -57, Wdl::BlackWin);
            let back = Record::from_bytes(&r.to_bytes()).expect("decode");
            assert_eq!(back, r);
            assert_eq!(back.fen(), fen);
            assert_eq!(back.stm_score(), -57);
        }
    }

    #[test]
    fn corrupt_records_are_refused() {
        let pos = Position::startpos();
        let good = Record::from_position(&pos, 0, Wdl::Draw).to_bytes();
        let mut bad = good;
        bad[30] = 3;
        assert!(Record::from_bytes(&bad).is_err());
        let mut bad = good;
        bad[8] = 0x07; // role code 7
        assert!(Record::from_bytes(&bad).is_err());
        let mut bad = good;
        bad[31] = 1;
        assert!(Record::from_bytes(&bad).is_err());
        assert!(Record::from_bytes(&[0u8; RECORD_SIZE]).is_err());
    }
}
