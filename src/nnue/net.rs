//! The network file: a perspective network `(768 → N) × 2 → 1` with SCReLU and `B` material
//! output buckets, quantised.
//!
//! File layout (all little-endian; documented for users in `docs/nnue.md`):
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `NWNN` |
//! | 4..8 | version, `u32`: 1 (one output layer), 2 (`B` output buckets) or 3 (`B` output buckets, horizontally mirrored inputs) |
//! | 8..12 | hidden size N, `u32` (a multiple of 16, 16..=2048) |
//! | 12..16 | QA, `u32` (accumulator scale; 255) |
//! | 16..20 | QB, `u32` (output weight scale; 64) |
//! | 20..24 | SCALE, `u32` (centipawns per unit of the float output; 400) |
//! | 24..28 | checksum, `u32`: FNV-1a of every byte after the header |
//! | 28..32 | version 1: zero; versions 2 and 3: output buckets B, `u32` (1..=16) |
//! | 32.. | feature weights `i16[768][N]` (feature-major), feature biases `i16[N]`, output weights `i16[B][2N]` (bucket-major; in each, the side to move's half first), output biases `i32[B]` |
//!
//! A version 1 file is a version 2 file with B = 1 and a zero word for B; networks with one
//! bucket are written as version 1, so that the files of older engines stay byte for byte.
//!
//! Feature index from perspective `p` of a piece of colour `c`, role `r` on square `s`:
//! `(c == p ? 0 : 384) + (r − 1)·64 + (p == White ? s : s ^ 56)`. In a version 3 network
//! ("horizontal mirroring") the index is then XORed with 7 (the file flipped a↔h) whenever
//! `p`'s own king stands on files a–d: each perspective sees the board with its king on the
//! e–h side, so what is learnt about a king's wing serves both wings.
//!
//! Output bucket of a position with `pieces` pieces on the board (kings included):
//! `min((pieces − 2) / ⌈32 / B⌉, B − 1)` (B = 8: `(pieces − 2) / 4`, 0..=7; B = 1: always 0).
//!
//! Evaluation, side to move `stm`: with `a_stm`, `a_nstm` the two accumulators (bias + the rows
//! of the active features), `v = clamp(a, 0, QA)` and `w`, `bias` the position's bucket's,
//! `out = (Σ v²·w_stm + Σ v²·w_nstm) / QA + bias`, centipawns `= out · SCALE / (QA · QB)`.

use crate::position::{Board, Color, Piece, Square};

/// Number of input features per perspective.
pub const INPUTS: usize = 768;
/// The magic of a network file.
pub const MAGIC: [u8; 4] = *b"NWNN";
/// The file format version of networks with output buckets (B > 1).
pub const VERSION: u32 = 2;
/// The file format version of networks with one output layer (B = 1), which older engines
/// read; still read and written for them.
pub const VERSION_SINGLE: u32 = 1;
/// The file format version of horizontally mirrored networks (any B).
pub const VERSION_MIRRORED: u32 = 3;
/// Most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
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
    /// Output buckets B (1..=[`MAX_BUCKETS`]): output layers, chosen by the piece count.
    pub buckets: usize,
    /// `buckets × 2 × hidden`: per bucket, the side to move's accumulator, then the other's.
    pub out_weights: Vec<i16>,
    /// `buckets` output biases, scaled by `qa · qb`.
    pub out_bias: Vec<i32>,
    /// Horizontal mirroring (version 3): each perspective's features are flipped a↔h when
    /// its king stands on files a–d (see [`mirror_mask`]).
    pub mirrored: bool,
}

/// The little-endian `u32` of a file's header at byte `at` (the caller checks the length).
fn header_word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
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

/// What a horizontally mirrored network XORs into `persp`'s feature indices on `board`: 7
/// (files a↔h) when `persp`'s king stands on files a–d, else 0 (no king: 0).
#[inline]
pub fn mirror_mask(board: &Board, persp: Color) -> usize {
    match board.king_of(persp) {
        Some(k) if (k as usize & 7) < 4 => 7,
        _ => 0,
    }
}

/// Pieces per output bucket for `buckets` buckets: `⌈32 / buckets⌉`.
#[inline]
pub fn bucket_divisor(buckets: usize) -> usize {
    32usize.div_ceil(buckets.max(1))
}

/// The output bucket (0..buckets) of a position with `pieces` pieces on the board, kings
/// included: `(pieces − 2) / ⌈32 / buckets⌉`, at most `buckets − 1` (reached only by boards
/// with more than 32 pieces).
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) / bucket_divisor(buckets)).min(buckets.max(1) - 1)
}

/// SCReLU of an accumulator value, quantised: `clamp(a, 0, qa)²`.
#[inline]
fn screlu(a: i16, qa: i32) -> i32 {
    let v = (a as i32).clamp(0, qa);
    v * v
}

impl Network {
    /// Bytes of a file with hidden size `n` and `buckets` output buckets.
    pub fn file_size(n: usize, buckets: usize) -> usize {
        HEADER + 2 * (INPUTS * n + n + buckets * 2 * n) + 4 * buckets
    }

    /// The output weights of `bucket`: `2 × hidden`, the side to move's half first.
    #[inline]
    pub fn bucket_weights(&self, bucket: usize) -> &[i16] {
        let len = 2 * self.hidden;
        &self.out_weights[bucket * len..][..len]
    }

    /// What a network's hidden size leaves unsaid, for the messages that name it:
    /// `", B output buckets"` for more than one and `", mirrored"` for horizontally mirrored
    /// inputs, else nothing.
    pub fn shape_note(&self) -> String {
        let mut note = String::new();
        if self.buckets > 1 {
            note += &format!(", {} output buckets", self.buckets);
        }
        if self.mirrored {
            note += ", mirrored";
        }
        note
    }

    /// The mask this network XORs into `persp`'s feature indices on `board` (0 unless
    /// mirrored; see [`mirror_mask`]).
    #[inline]
    pub fn feature_mask(&self, board: &Board, persp: Color) -> usize {
        if self.mirrored {
            mirror_mask(board, persp)
        } else {
            0
        }
    }

    /// The output bucket of `board` (see [`output_bucket`]).
    #[inline]
    pub fn bucket_of(&self, board: &Board) -> usize {
        output_bucket(board.occupied().count(), self.buckets)
    }

    /// The file's bytes (header with checksum, then the weights): version 3 if mirrored, else
    /// version 1 for one output bucket and version 2 for more.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(Network::file_size(self.hidden, self.buckets) - HEADER);
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let (version, bucket_word) = if self.mirrored {
            (VERSION_MIRRORED, self.buckets as u32)
        } else if self.buckets == 1 {
            (VERSION_SINGLE, 0)
        } else {
            (VERSION, self.buckets as u32)
        };
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(&MAGIC);
        for v in [
            version,
            self.hidden as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
            fnv1a(&body),
            bucket_word,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&body);
        out
    }

    /// Reads and checks a network file's bytes (version 1, 2 or 3): magic, version, sizes,
    /// output buckets, checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER || bytes[..4] != MAGIC {
            return Err("not a Nullwindow network file (no NWNN magic)".into());
        }
        let word = |at: usize| header_word(bytes, at);
        let version = word(4);
        let buckets = match version {
            VERSION_SINGLE => 1,
            VERSION | VERSION_MIRRORED => word(28) as usize,
            _ => {
                return Err(format!(
                    "network file version {version}, this engine reads {VERSION_SINGLE} to \
                     {VERSION_MIRRORED}"
                ));
            }
        };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "{buckets} output buckets (must be 1..={MAX_BUCKETS})"
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
        let want = Network::file_size(hidden, buckets);
        if bytes.len() != want {
            return Err(format!(
                "network file is {} bytes; hidden size {hidden} with {buckets} output buckets \
                 needs {want} (truncated or padded)",
                bytes.len()
            ));
        }
        let body = &bytes[HEADER..];
        if fnv1a(body) != word(24) {
            return Err("network file checksum mismatch (corrupt file)".into());
        }
        let (i16s, i32s) = body.split_at(2 * (INPUTS * hidden + hidden + buckets * 2 * hidden));
        let mut vals = i16s
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Vec<i16> = vals.by_ref().take(INPUTS * hidden).collect();
        let ft_bias: Vec<i16> = vals.by_ref().take(hidden).collect();
        let out_weights: Vec<i16> = vals.collect();
        let out_bias: Vec<i32> = i32s
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network {
            hidden,
            qa: qa as i32,
            qb: qb as i32,
            scale: scale as i32,
            ft_weights,
            ft_bias,
            buckets,
            out_weights,
            out_bias,
            mirrored: version == VERSION_MIRRORED,
        })
    }

    /// Reads and checks the network file at `path` (see [`Network::from_bytes`]); the error
    /// names the path.
    pub fn read_file(path: &str) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// The accumulator of `persp` for `board`, computed from scratch (i32 to show overflow in
    /// tests; the engine keeps i16).
    pub fn accumulate(&self, board: &Board, persp: Color) -> Vec<i32> {
        let n = self.hidden;
        let mut acc: Vec<i32> = self.ft_bias.iter().map(|&b| b as i32).collect();
        let mask = self.feature_mask(board, persp);
        for sq in board.occupied() {
            if let Some(p) = board.piece_at(sq) {
                let row = &self.ft_weights[(feature(persp, p, sq) ^ mask) * n..][..n];
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += w as i32;
                }
            }
        }
        acc
    }

    /// The output layer of `bucket` on two i16 accumulators: centipawns, `stm`'s view.
    pub fn output(&self, stm: &[i16], nstm: &[i16], bucket: usize) -> i32 {
        let n = self.hidden;
        let (w_stm, w_nstm) = self.bucket_weights(bucket).split_at(n);
        let mut sum: i64 = 0;
        for (a, &w) in stm.iter().zip(w_stm) {
            sum += screlu(*a, self.qa) as i64 * w as i64;
        }
        for (a, &w) in nstm.iter().zip(w_nstm) {
            sum += screlu(*a, self.qa) as i64 * w as i64;
        }
        let out = sum / self.qa as i64 + self.out_bias[bucket] as i64;
        (out * self.scale as i64 / (self.qa as i64 * self.qb as i64)) as i32
    }

    /// The reference evaluation (scalar, from scratch): centipawns from the side to move's
    /// view. The fast incremental path must agree with it exactly.
    pub fn evaluate_board(&self, board: &Board, turn: Color) -> i32 {
        let to_i16 = |v: Vec<i32>| -> Vec<i16> { v.into_iter().map(|x| x as i16).collect() };
        let stm = to_i16(self.accumulate(board, turn));
        let nstm = to_i16(self.accumulate(board, !turn));
        self.output(&stm, &nstm, self.bucket_of(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(buckets: usize) -> Network {
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
            buckets,
            out_weights: (0..buckets * 2 * n)
                .map(|i| ((i * 11) % 29) as i16 - 14)
                .collect(),
            out_bias: (0..buckets as i32).map(|b| 1234 - 300 * b).collect(),
            mirrored: false,
        }
    }

    #[test]
    fn file_round_trip_and_checks() {
        let net = tiny(1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_size(16, 1));
        // One bucket: the version 1 file of older engines, a zero word where B would be.
        assert_eq!(
            (header_word(&bytes, 4), header_word(&bytes, 28)),
            (VERSION_SINGLE, 0)
        );
        assert_eq!(Network::from_bytes(&bytes).expect("read"), net);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(Network::from_bytes(&bad).unwrap_err().contains("checksum"));
        let mut bad = bytes.clone();
        bad[4] = 4;
        assert!(Network::from_bytes(&bad).unwrap_err().contains("version 4"));
        assert!(Network::from_bytes(b"garbage garbage garbage garbage garbage").is_err());
        assert!(Network::from_bytes(&[]).is_err());
    }

    /// Version 2: B in the header's last word, `B × 2N` output weights and B biases; a bad B
    /// or an output section of another size is refused.
    #[test]
    fn bucketed_file_round_trip_and_checks() {
        let net = tiny(8);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_size(16, 8));
        assert_eq!(
            bytes.len(),
            Network::file_size(16, 1) + 7 * (2 * 2 * 16 + 4)
        );
        assert_eq!(
            (header_word(&bytes, 4), header_word(&bytes, 28)),
            (VERSION, 8)
        );
        let back = Network::from_bytes(&bytes).expect("read");
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        for b in [0u32, 17, u32::MAX] {
            let mut bad = bytes.clone();
            bad[28..32].copy_from_slice(&b.to_le_bytes());
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(e.contains("output buckets (must be 1..=16)"), "{e}");
        }
        // The last bucket's bias, or its weights and bias, cut off.
        for cut in [4, 1, 2 * 2 * 16 + 4] {
            let e = Network::from_bytes(&bytes[..bytes.len() - cut]).unwrap_err();
            assert!(e.contains("truncated or padded"), "{e}");
        }
        // A header that claims more buckets than the body holds, and the other way round.
        let seven = tiny(7).to_bytes();
        let mut bad = seven.clone();
        bad[28..32].copy_from_slice(&8u32.to_le_bytes());
        assert!(Network::from_bytes(&bad).unwrap_err().contains("truncated"));
        let mut bad = bytes.clone();
        bad[28..32].copy_from_slice(&7u32.to_le_bytes());
        assert!(Network::from_bytes(&bad).unwrap_err().contains("padded"));
        // A version 1 header on a bucketed body is refused too (sized for one bucket).
        let mut bad = bytes.clone();
        bad[4..8].copy_from_slice(&VERSION_SINGLE.to_le_bytes());
        assert!(Network::from_bytes(&bad).unwrap_err().contains("truncated"));
        // Version 2 with B = 1 is read (and written again as version 1).
        let one = tiny(1);
        let mut v2 = one.to_bytes();
        v2[4..8].copy_from_slice(&VERSION.to_le_bytes());
        v2[28..32].copy_from_slice(&1u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&v2).expect("v2 with one bucket"), one);
    }

    /// Version 3: a horizontally mirrored net, with B in the last header word whatever B is;
    /// it reads back mirrored, and the same bytes under version 1 or 2 read back plain.
    #[test]
    fn mirrored_file_round_trip() {
        for buckets in [1, 8] {
            let net = Network {
                mirrored: true,
                ..tiny(buckets)
            };
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), Network::file_size(16, buckets));
            assert_eq!(
                (header_word(&bytes, 4), header_word(&bytes, 28)),
                (VERSION_MIRRORED, buckets as u32)
            );
            let back = Network::from_bytes(&bytes).expect("read");
            assert_eq!(back, net);
            assert!(back.shape_note().ends_with(", mirrored"));
            let mut plain = bytes.clone();
            plain[4..8].copy_from_slice(&VERSION.to_le_bytes());
            let plain = Network::from_bytes(&plain).expect("version 2");
            assert!(!plain.mirrored);
            assert_eq!(plain.out_weights, net.out_weights);
        }
    }

    /// The version 1 file of the shipped net still loads as one bucket, writes back byte for
    /// byte and evaluates as the engine did before buckets (figures of the `eval` command at
    /// commit c97d5e9).
    #[test]
    fn version_1_files_load_as_one_bucket() {
        let bytes = include_bytes!("../../nets/nw-g4.nnue");
        assert_eq!(header_word(bytes, 4), 1);
        let net = Network::from_bytes(bytes).expect("nw-g4");
        assert_eq!((net.hidden, net.buckets, net.out_bias.len()), (128, 1, 1));
        assert_eq!(net.to_bytes(), bytes);
        for (fen, cp) in [
            (crate::position::START_FEN, 35),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                66,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 8),
            ("4k3/8/8/8/8/8/3QK3/8 b - - 0 1", -965),
        ] {
            let pos = crate::position::Position::from_fen(fen, false).expect("fen");
            assert_eq!(net.evaluate_board(pos.board(), pos.turn()), cp, "{fen}");
        }
    }

    #[test]
    fn buckets_follow_the_piece_count() {
        assert_eq!(bucket_divisor(8), 4);
        let b8: Vec<usize> = (2..=32).map(|p| output_bucket(p, 8)).collect();
        assert_eq!(b8[..4], [0; 4]);
        assert_eq!(b8[4..8], [1; 4]);
        assert_eq!(b8[28..], [7; 3]);
        for buckets in 1..=MAX_BUCKETS {
            let d = bucket_divisor(buckets);
            assert!(d * buckets >= 32);
            for pieces in 0..=64 {
                let b = output_bucket(pieces, buckets);
                assert!(b < buckets, "{pieces} pieces, {buckets} buckets: {b}");
                if (2..=32).contains(&pieces) {
                    assert_eq!(b, (pieces - 2) / d);
                }
            }
            assert_eq!(output_bucket(32, buckets), (30 / d).min(buckets - 1));
        }
        assert!((0..=64).all(|p| output_bucket(p, 1) == 0));
    }

    /// The reference pass takes the position's bucket: with zero output weights the
    /// evaluation is the bucket's bias.
    #[test]
    fn evaluation_uses_the_position_bucket() {
        let mut net = tiny(8);
        net.out_weights.fill(0);
        net.out_bias = (0..8).map(|b| b * QA * QB).collect();
        for (fen, bucket) in [
            (crate::position::START_FEN, 7),
            ("4k3/8/8/8/8/8/3QK3/8 b - - 0 1", 0),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 2),
            ("4kr2/pppppppp/8/8/8/8/PPPPPPPP/4KR2 w - - 0 1", 4),
        ] {
            let pos = crate::position::Position::from_fen(fen, false).expect("fen");
            assert_eq!(net.bucket_of(pos.board()), bucket, "{fen}");
            assert_eq!(
                net.evaluate_board(pos.board(), pos.turn()),
                bucket as i32 * SCALE,
                "{fen}"
            );
        }
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
