//! The network file: a perspective network `(768 → N) × 2 → 1` with SCReLU, quantised.
//!
//! File layout (all little-endian; documented for users in `docs/nnue.md`):
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `NWNN` |
//! | 4..8 | version, `u32` = 1 |
//! | 8..12 | hidden size N, `u32` (a multiple of 16, 16..=2048) |
//! | 12..16 | QA, `u32` (accumulator scale; 255) |
//! | 16..20 | QB, `u32` (output weight scale; 64) |
//! | 20..24 | SCALE, `u32` (centipawns per unit of the float output; 400) |
//! | 24..28 | checksum, `u32`: FNV-1a of every byte after the header |
//! | 28..32 | zero |
//! | 32.. | feature weights `i16[768][N]` (feature-major), feature biases `i16[N]`, output weights `i16[2N]` (side to move's half first), output bias `i32` |
//!
//! Feature index from perspective `p` of a piece of colour `c`, role `r` on square `s`:
//! `(c == p ? 0 : 384) + (r − 1)·64 + (p == White ? s : s ^ 56)`.
//!
//! Evaluation, side to move `stm`: with `a_stm`, `a_nstm` the two accumulators (bias + the rows
//! of the active features), `v = clamp(a, 0, QA)`,
//! `out = (Σ v²·w_stm + Σ v²·w_nstm) / QA + bias`, centipawns `= out · SCALE / (QA · QB)`.

use crate::position::{Board, Color, Piece, Square};

/// Number of input features per perspective.
pub const INPUTS: usize = 768;
/// The magic of a network file.
pub const MAGIC: [u8; 4] = *b"NWNN";
/// The file format version.
pub const VERSION: u32 = 1;
/// Header bytes.
pub const HEADER: usize = 32;
/// Default accumulator scale.
pub const QA: i32 = 255;
/// Default output weight scale.
pub const QB: i32 = 64;
/// Default centipawns per unit of float output.
pub const SCALE: i32 = 400;

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Hidden size N.
    pub hidden: usize,
    /// Accumulator scale.
    pub qa: i32,
    /// Output weight scale.
    pub qb: i32,
    /// Centipawns per unit of float output.
    pub scale: i32,
    /// `INPUTS × hidden`, feature-major.
    pub ft_weights: Vec<i16>,
    /// `hidden`.
    pub ft_bias: Vec<i16>,
    /// `2 × hidden`: the side to move's accumulator, then the other's.
    pub out_weights: Vec<i16>,
    /// Output bias, scaled by `qa · qb`.
    pub out_bias: i32,
}

/// FNV-1a, 32 bits.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The feature index of `piece` on `sq` from `persp`'s view.
#[inline]
pub fn feature(persp: Color, piece: Piece, sq: Square) -> usize {
    let side = if piece.color == persp { 0 } else { 384 };
    let s = if persp == Color::White {
        sq as usize
    } else {
        sq as usize ^ 56
    };
    side + (piece.role as usize - 1) * 64 + s
}

/// SCReLU of an accumulator value, quantised: `clamp(a, 0, qa)²`.
#[inline]
fn screlu(a: i16, qa: i32) -> i32 {
    let v = (a as i32).clamp(0, qa);
    v * v
}

impl Network {
    /// Bytes of a file with hidden size `n`.
    pub fn file_size(n: usize) -> usize {
        HEADER + 2 * (INPUTS * n + n + 2 * n) + 4
    }

    /// The file's bytes (header with checksum, then the weights).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(Network::file_size(self.hidden) - HEADER);
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        body.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            self.hidden as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
            fnv1a(&body),
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&body);
        out
    }

    /// Reads and checks a network file's bytes: magic, version, sizes, checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER || bytes[..4] != MAGIC {
            return Err("not a Nullwindow network file (no NWNN magic)".into());
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = word(4);
        if version != VERSION {
            return Err(format!(
                "network file version {version}, this engine reads {VERSION}"
            ));
        }
        let hidden = word(8) as usize;
        if !(16..=2048).contains(&hidden) || !hidden.is_multiple_of(16) {
            return Err(format!(
                "hidden size {hidden} (must be a multiple of 16 in 16..=2048)"
            ));
        }
        let (qa, qb, scale) = (word(12), word(16), word(20));
        if !(1..=32767).contains(&qa)
            || !(1..=32767).contains(&qb)
            || !(1..=100_000).contains(&scale)
        {
            return Err(format!(
                "bad quantisation constants QA={qa} QB={qb} SCALE={scale}"
            ));
        }
        let want = Network::file_size(hidden);
        if bytes.len() != want {
            return Err(format!(
                "network file is {} bytes; hidden size {hidden} needs {want} (truncated or padded)",
                bytes.len()
            ));
        }
        let body = &bytes[HEADER..];
        if fnv1a(body) != word(24) {
            return Err("network file checksum mismatch (corrupt file)".into());
        }
        let mut vals = body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Vec<i16> = vals.by_ref().take(INPUTS * hidden).collect();
        let ft_bias: Vec<i16> = vals.by_ref().take(hidden).collect();
        let out_weights: Vec<i16> = vals.by_ref().take(2 * hidden).collect();
        let tail = &body[body.len() - 4..];
        Ok(Network {
            hidden,
            qa: qa as i32,
            qb: qb as i32,
            scale: scale as i32,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias: i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]),
        })
    }

    /// The accumulator of `persp` for `board`, computed from scratch (i32 to show overflow in
    /// tests; the engine keeps i16).
    pub fn accumulate(&self, board: &Board, persp: Color) -> Vec<i32> {
        let n = self.hidden;
        let mut acc: Vec<i32> = self.ft_bias.iter().map(|&b| b as i32).collect();
        for sq in board.occupied() {
            if let Some(p) = board.piece_at(sq) {
                let row = &self.ft_weights[feature(persp, p, sq) * n..][..n];
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += w as i32;
                }
            }
        }
        acc
    }

    /// The output layer on two i16 accumulators: centipawns, `stm`'s view.
    pub fn output(&self, stm: &[i16], nstm: &[i16]) -> i32 {
        let n = self.hidden;
        let mut sum: i64 = 0;
        for (a, &w) in stm.iter().zip(&self.out_weights[..n]) {
            sum += screlu(*a, self.qa) as i64 * w as i64;
        }
        for (a, &w) in nstm.iter().zip(&self.out_weights[n..]) {
            sum += screlu(*a, self.qa) as i64 * w as i64;
        }
        let out = sum / self.qa as i64 + self.out_bias as i64;
        (out * self.scale as i64 / (self.qa as i64 * self.qb as i64)) as i32
    }

    /// The reference evaluation (scalar, from scratch): centipawns from the side to move's
    /// view. The fast incremental path must agree with it exactly.
    pub fn evaluate_board(&self, board: &Board, turn: Color) -> i32 {
        let to_i16 = |v: Vec<i32>| -> Vec<i16> { v.into_iter().map(|x| x as i16).collect() };
        let stm = to_i16(self.accumulate(board, turn));
        let nstm = to_i16(self.accumulate(board, !turn));
        self.output(&stm, &nstm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Network {
        let n = 16;
        Network {
            hidden: n,
            qa: QA,
            qb: QB,
            scale: SCALE,
            ft_weights: (0..INPUTS * n)
                .map(|i| ((i * 37) % 61) as i16 - 30)
                .collect(),
            ft_bias: (0..n).map(|i| i as i16 * 3).collect(),
            out_weights: (0..2 * n).map(|i| ((i * 11) % 29) as i16 - 14).collect(),
            out_bias: 1234,
        }
    }

    #[test]
    fn file_round_trip_and_checks() {
        let net = tiny();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_size(16));
        assert_eq!(Network::from_bytes(&bytes).expect("read"), net);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(Network::from_bytes(&bad).unwrap_err().contains("checksum"));
        assert!(Network::from_bytes(b"garbage garbage garbage garbage garbage").is_err());
        assert!(Network::from_bytes(&[]).is_err());
    }

    #[test]
    fn features_mirror() {
        use crate::position::Role;
        let p = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        let q = Piece {
            color: Color::Black,
            role: Role::Knight,
        };
        assert_eq!(
            feature(Color::White, p, Square::G1),
            feature(Color::Black, q, Square::G8)
        );
        assert_eq!(feature(Color::White, q, Square::G8), 384 + 64 + 62);
    }
}
