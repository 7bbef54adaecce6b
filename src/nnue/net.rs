//! The network file: a perspective network `(768 → N) × 2 → 1` with SCReLU and `B` material
//! output buckets, quantised.
//!
//! File layout (all little-endian; documented for users in `docs/nnue.md`):
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `NWNN` |
//! | 4..8 | version, `u32`: 1 (one output layer), 2 (`B` output buckets), 3 (`B` output buckets, horizontally mirrored inputs) or 4 (`B` output buckets, `K` king buckets, mirrored or not) |
//! | 8..12 | hidden size N, `u32` (a multiple of 16, 16..=2048) |
//! | 12..16 | QA, `u32` (accumulator scale; 255) |
//! | 16..20 | QB, `u32` (output weight scale; 64) |
//! | 20..24 | SCALE, `u32` (centipawns per unit of the float output; 400) |
//! | 24..28 | checksum, `u32`: FNV-1a of every byte after the header |
//! | 28..32 | version 1: zero; versions 2 to 4: output buckets B, `u32` (1..=16) |
//! | 32..104 | version 4 only (inside the checksum): flags `u32` (bit 0: mirrored inputs), king buckets K `u32` (2..=32), the king bucket map `u8[64]` |
//! | then | feature weights `i16[K·768][N]` (feature-major; K = 1 before version 4), feature biases `i16[N]`, output weights `i16[B][2N]` (bucket-major; in each, the side to move's half first), output biases `i32[B]` |
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
//! King buckets (version 4): each perspective reads one of K blocks of 768 feature rows,
//! chosen by where its own king stands: the map's entry for the king's square in that
//! perspective's frame (rank-flipped for Black, as the features), before any mirroring. The
//! row of a feature `f` is `k·768 + f` (`k·768 + (f ^ 7)` when mirrored as above). A network
//! with K copies of one block evaluates as the one-block network (see [`Inputs`]).
//!
//! Output bucket of a position with `pieces` pieces on the board (kings included):
//! `min((pieces − 2) / ⌈32 / B⌉, B − 1)` (B = 8: `(pieces − 2) / 4`, 0..=7; B = 1: always 0).
//!
//! Evaluation, side to move `stm`: with `a_stm`, `a_nstm` the two accumulators (bias + the rows
//! of the active features), `v = clamp(a, 0, QA)` and `w`, `bias` the position's bucket's,
//! `out = (Σ v²·w_stm + Σ v²·w_nstm) / QA + bias`, centipawns `= out · SCALE / (QA · QB)`.

use super::aligned::AlignedVec;
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
/// The file format version of networks with king buckets (K > 1; mirrored or not, any B).
pub const VERSION_KING_BUCKETS: u32 = 4;
/// Most king buckets a network may have.
pub const MAX_KING_BUCKETS: usize = 32;
/// The named king layouts of [`Inputs::king_layout`], each a name and its bucket by (file, rank)
/// of the king's square in its own frame: the one declaration of them (the trainer's help and
/// docs/nnue.md name each: held by a test).
pub const KING_LAYOUTS: [(&str, KingBucket); 5] = [
    ("kb2", |_, r| u8::from(r >= 2)),
    ("kb4", |f, r| if r <= 1 { wing(f) } else { 3 }),
    ("kb8", |f, r| match r {
        0..=1 => (f / 2) as u8,
        2..=3 => 4 + u8::from(f >= 4),
        _ => 6 + u8::from(f >= 4),
    }),
    ("kb8r", |f, r| match r {
        0..=1 => (r * 3) as u8 + wing(f),
        2..=3 => 6,
        _ => 7,
    }),
    ("kb16r", |f, r| match r {
        0 => f.saturating_sub(1) as u8,
        1 => 7 + wing(f) + u8::from(f >= 6),
        2 => 11 + u8::from(f >= 4),
        3 => 13,
        4..=5 => 14,
        _ => 15,
    }),
];

/// A named layout's bucket of the king's square by (file, rank), 0-based, in its own frame.
pub type KingBucket = fn(usize, usize) -> u8;

/// Ranks 1–2 of `kb4`, `kb8r` and `kb16r`: queen's wing a–c, centre d–e, king's wing f–h.
const fn wing(f: usize) -> u8 {
    match f {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    }
}

/// Bytes of version 4's header extension: flags, K and the 64-entry king bucket map.
pub const KING_EXTENSION: usize = 8 + 64;
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
    /// `inputs.rows() × hidden`, feature-major.
    pub ft_weights: AlignedVec,
    /// `hidden`.
    pub ft_bias: Vec<i16>,
    /// Output buckets B (1..=[`MAX_BUCKETS`]): output layers, chosen by the piece count.
    pub buckets: usize,
    /// `buckets × 2 × hidden`: per bucket, the side to move's accumulator, then the other's.
    pub out_weights: AlignedVec,
    /// `buckets` output biases, scaled by `qa · qb`.
    pub out_bias: Vec<i32>,
    /// Which feature rows each perspective reads (mirroring, king buckets).
    pub inputs: Inputs,
}

/// How a network's perspectives read its feature rows: horizontal mirroring (version 3 and 4)
/// and king buckets (version 4). The plain layout has neither: one block of 768 rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Each perspective's features are flipped a↔h while its king stands on files a–d.
    pub mirrored: bool,
    /// King buckets K: blocks of 768 feature rows.
    pub king_buckets: usize,
    /// The block a perspective reads for each square of its own king, in its own frame
    /// (rank-flipped for Black); every entry below `king_buckets`.
    pub king_map: [u8; 64],
}

/// One perspective's reading of the feature rows on one board (see [`Inputs::view_at`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// First row of the king bucket's block.
    block: usize,
    /// XORed into the feature (7: files flipped a↔h).
    mask: usize,
}

impl View {
    /// The plain reading: block 0, no mirroring.
    pub const PLAIN: View = View { block: 0, mask: 0 };

    /// The feature-weight row of feature `f` (`0..768`).
    #[inline(always)]
    pub fn row(self, f: usize) -> usize {
        self.block + (f ^ self.mask)
    }

    /// A small number for each reading (king bucket · 2 + mirrored), below
    /// `2 · king_buckets`: the per-view caches are kept per slot.
    #[inline]
    pub fn slot(self) -> usize {
        self.block / INPUTS * 2 + usize::from(self.mask != 0)
    }
}

impl Inputs {
    /// One block, no mirroring.
    pub const PLAIN: Inputs = Inputs {
        mirrored: false,
        king_buckets: 1,
        king_map: [0; 64],
    };

    /// Horizontal mirroring, one block.
    pub const MIRRORED: Inputs = Inputs {
        mirrored: true,
        ..Inputs::PLAIN
    };

    /// Every perspective reads the one block as it is (no mirroring, no king buckets).
    #[inline]
    pub fn is_plain(&self) -> bool {
        !self.mirrored && self.king_buckets == 1
    }

    /// Feature rows: `768 · K`.
    #[inline]
    pub fn rows(&self) -> usize {
        INPUTS * self.king_buckets
    }

    /// The reading of a perspective whose own king stands on `king` (0..64) in its own frame.
    #[inline]
    pub fn view_at(&self, king: usize) -> View {
        View {
            block: self.king_map[king & 63] as usize * INPUTS,
            mask: if self.mirrored && (king & 7) < 4 {
                7
            } else {
                0
            },
        }
    }

    /// `persp`'s reading of `board` (see [`own_king`]).
    #[inline]
    pub fn view(&self, board: &Board, persp: Color) -> View {
        if self.is_plain() {
            return View::PLAIN;
        }
        self.view_at(own_king(board, persp))
    }

    /// The king bucket map of a named layout, or of 64 comma-separated bucket numbers (a1,
    /// b1, ..., h8 in the perspective's own frame): `kb4` (ranks 1–2 split a–c, d–e, f–h;
    /// ranks 3–8 one bucket), `kb2` (ranks 1–2, ranks 3–8), `kb8` (ranks 1–2 split a–b, c–d,
    /// e–f, g–h; rank 3–4 halves a–d, e–h; ranks 5–8 halves), `kb8r` (`kb4` split by rank: rank
    /// 1 a–c, d–e, f–h; rank 2 the same; ranks 3–4; ranks 5–8; a net of `kb4` continues under
    /// it exactly), `kb16r` (`kb8r` split further: rank 1 a–b, then each file c – h; rank 2 a–c,
    /// d–e, f, g–h; rank 3 halves a–d, e–h; rank 4; ranks 5–6; ranks 7–8; a net of `kb4` or
    /// `kb8r` continues under it exactly). The buckets are numbered from 0 and each is used.
    pub fn king_layout(spec: &str) -> Result<(usize, [u8; 64]), String> {
        let map = match KING_LAYOUTS.iter().find(|(name, _)| *name == spec) {
            Some(&(_, bucket)) => std::array::from_fn(|s| bucket(s & 7, s >> 3)),
            None => {
                let nums: Vec<u8> = spec
                    .split(',')
                    .map(|x| x.trim().parse::<u8>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| {
                        format!(
                            "king buckets '{spec}': not one of {} or 64 numbers",
                            KING_LAYOUTS.map(|(name, _)| name).join(", ")
                        )
                    })?;
                <[u8; 64]>::try_from(nums.as_slice())
                    .map_err(|_| format!("king buckets '{spec}': {} numbers, not 64", nums.len()))?
            }
        };
        let k = usize::from(map.iter().copied().max().unwrap_or(0)) + 1;
        if k > MAX_KING_BUCKETS || (0..k).any(|b| !map.contains(&(b as u8))) {
            return Err(format!(
                "king buckets '{spec}': buckets must be 0..K, each used, K at most \
                 {MAX_KING_BUCKETS}"
            ));
        }
        Ok((k, map))
    }
}

/// `sq` in `persp`'s own frame: as it is for White, rank-flipped for Black.
#[inline]
fn own_square(persp: Color, sq: Square) -> usize {
    match persp {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    }
}

/// Where a side without a king is taken to have it (boards of tests; the trainer's made-up
/// samples): e1 in its own frame, on the unmirrored wing.
pub const NO_KING_SQUARE: usize = 4;

/// `persp`'s king square in its own frame, what mirroring and king buckets read
/// ([`NO_KING_SQUARE`] without one).
#[inline]
pub fn own_king(board: &Board, persp: Color) -> usize {
    board
        .king_of(persp)
        .map_or(NO_KING_SQUARE, |k| own_square(persp, k))
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
    side + (piece.role as usize - 1) * 64 + own_square(persp, sq)
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
    /// Bytes of a file with hidden size `n`, `buckets` output buckets and no king buckets.
    pub fn file_size(n: usize, buckets: usize) -> usize {
        Network::file_size_kb(n, buckets, 1)
    }

    /// Bytes of a file with hidden size `n`, `buckets` output buckets and `king_buckets`
    /// king buckets (more than one: version 4, with its header extension).
    pub fn file_size_kb(n: usize, buckets: usize, king_buckets: usize) -> usize {
        let extension = if king_buckets > 1 { KING_EXTENSION } else { 0 };
        HEADER + extension + 2 * (INPUTS * king_buckets * n + n + buckets * 2 * n) + 4 * buckets
    }

    /// The output weights of `bucket`: `2 × hidden`, the side to move's half first.
    #[inline]
    pub fn bucket_weights(&self, bucket: usize) -> &[i16] {
        let len = 2 * self.hidden;
        &self.out_weights[bucket * len..][..len]
    }

    /// What a network's hidden size leaves unsaid, for the messages that name it:
    /// `", B output buckets"` for more than one, `", K king buckets"` for more than one and
    /// `", mirrored"` for horizontally mirrored inputs, else nothing.
    pub fn shape_note(&self) -> String {
        let mut note = String::new();
        if self.buckets > 1 {
            note += &format!(", {} output buckets", self.buckets);
        }
        if self.inputs.king_buckets > 1 {
            note += &format!(", {} king buckets", self.inputs.king_buckets);
        }
        if self.inputs.mirrored {
            note += ", mirrored";
        }
        note
    }

    /// `persp`'s reading of the feature rows on `board` (see [`Inputs::view`]).
    #[inline]
    pub fn view(&self, board: &Board, persp: Color) -> View {
        self.inputs.view(board, persp)
    }

    /// The output bucket of `board` (see [`output_bucket`]).
    #[inline]
    pub fn bucket_of(&self, board: &Board) -> usize {
        output_bucket(board.occupied().count(), self.buckets)
    }

    /// The file's bytes (header with checksum, then the weights): version 4 with king
    /// buckets, else version 3 if mirrored, else version 1 for one output bucket and version 2
    /// for more.
    pub fn to_bytes(&self) -> Vec<u8> {
        let kb = self.inputs.king_buckets;
        let mut body =
            Vec::with_capacity(Network::file_size_kb(self.hidden, self.buckets, kb) - HEADER);
        if kb > 1 {
            body.extend_from_slice(&u32::from(self.inputs.mirrored).to_le_bytes());
            body.extend_from_slice(&(kb as u32).to_le_bytes());
            body.extend_from_slice(&self.inputs.king_map);
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(self.out_weights.iter())
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let (version, bucket_word) = if kb > 1 {
            (VERSION_KING_BUCKETS, self.buckets as u32)
        } else if self.inputs.mirrored {
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

    /// Reads and checks a network file's bytes (versions 1 to 4): magic, version, sizes,
    /// output and king buckets, checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER || bytes[..4] != MAGIC {
            return Err("not a Nullwindow network file (no NWNN magic)".into());
        }
        let word = |at: usize| header_word(bytes, at);
        let version = word(4);
        let buckets = match version {
            VERSION_SINGLE => 1,
            VERSION | VERSION_MIRRORED | VERSION_KING_BUCKETS => word(28) as usize,
            _ => {
                return Err(format!(
                    "network file version {version}, this engine reads {VERSION_SINGLE} to \
                     {VERSION_KING_BUCKETS}"
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
        let mut inputs = Inputs {
            mirrored: version == VERSION_MIRRORED,
            ..Inputs::PLAIN
        };
        if version == VERSION_KING_BUCKETS {
            if bytes.len() < HEADER + KING_EXTENSION {
                return Err("network file truncated in its king bucket header".into());
            }
            // (K sizes the file; the flags and the map are checked after the checksum.)
            let kb = word(HEADER + 4) as usize;
            if !(2..=MAX_KING_BUCKETS).contains(&kb) {
                return Err(format!(
                    "{kb} king buckets (must be 2..={MAX_KING_BUCKETS})"
                ));
            }
            let mut map = [0u8; 64];
            map.copy_from_slice(&bytes[HEADER + 8..HEADER + KING_EXTENSION]);
            inputs = Inputs {
                mirrored: word(HEADER) & 1 != 0,
                king_buckets: kb,
                king_map: map,
            };
        }
        let kb = inputs.king_buckets;
        let want = Network::file_size_kb(hidden, buckets, kb);
        if bytes.len() != want {
            return Err(format!(
                "network file is {} bytes; hidden size {hidden} with {buckets} output buckets \
                 and {kb} king buckets needs {want} (truncated or padded)",
                bytes.len()
            ));
        }
        let body = &bytes[HEADER..];
        if fnv1a(body) != word(24) {
            return Err("network file checksum mismatch (corrupt file)".into());
        }
        if kb > 1 {
            let flags = word(HEADER);
            if flags > 1 {
                return Err(format!("unknown network flags {flags:#x}"));
            }
            if inputs.king_map.iter().any(|&b| b as usize >= kb) {
                return Err(format!("king bucket map names a bucket beyond {kb}"));
            }
        }
        let weights = if kb > 1 {
            &body[KING_EXTENSION..]
        } else {
            body
        };
        let rows = inputs.rows();
        let (i16s, i32s) = weights.split_at(2 * (rows * hidden + hidden + buckets * 2 * hidden));
        let mut vals = i16s
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: AlignedVec = vals.by_ref().take(rows * hidden).collect();
        let ft_bias: Vec<i16> = vals.by_ref().take(hidden).collect();
        let out_weights: AlignedVec = vals.collect();
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
            inputs,
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
        let view = self.view(board, persp);
        for sq in board.occupied() {
            if let Some(p) = board.piece_at(sq) {
                let row = &self.ft_weights[view.row(feature(persp, p, sq)) * n..][..n];
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
            inputs: Inputs::PLAIN,
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
        bad[4] = 5;
        assert!(Network::from_bytes(&bad).unwrap_err().contains("version 5"));
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
                inputs: Inputs::MIRRORED,
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
            assert!(!plain.inputs.mirrored);
            assert_eq!(plain.out_weights, net.out_weights);
        }
    }

    fn king_bucketed(net: &Network, spec: &str, mirrored: bool) -> Network {
        let (k, map) = Inputs::king_layout(spec).expect("layout");
        let rows = net.ft_weights.len();
        Network {
            // Each block its own weights (the copy plus a block-dependent shift).
            ft_weights: (0..k * rows)
                .map(|i| net.ft_weights[i % rows].wrapping_add((i / rows) as i16 * 3))
                .collect(),
            inputs: Inputs {
                mirrored,
                king_buckets: k,
                king_map: map,
            },
            ..net.clone()
        }
    }

    /// Version 4: king buckets (mirrored or not) after an extension inside the checksum; a
    /// bad K, map or flag word, or a body of another size, is refused.
    #[test]
    fn king_bucket_file_round_trip_and_checks() {
        for (buckets, mirrored) in [(1, false), (8, true)] {
            let net = king_bucketed(&tiny(buckets), "kb4", mirrored);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), Network::file_size_kb(16, buckets, 4));
            assert_eq!(
                bytes.len(),
                Network::file_size(16, buckets) + KING_EXTENSION + 3 * INPUTS * 16 * 2
            );
            assert_eq!(header_word(&bytes, 4), VERSION_KING_BUCKETS);
            let back = Network::from_bytes(&bytes).expect("read");
            assert_eq!(back, net);
            assert_eq!(back.to_bytes(), bytes);
            assert!(back.shape_note().contains(", 4 king buckets"));
            assert_eq!(back.shape_note().ends_with(", mirrored"), mirrored);
            // Changing the extension breaks the checksum; with it fixed, the checks speak.
            let refix = |mut b: Vec<u8>| {
                let sum = fnv1a(&b[HEADER..]);
                b[24..28].copy_from_slice(&sum.to_le_bytes());
                b
            };
            let mut bad = bytes.clone();
            bad[HEADER + 8] = 9;
            assert!(Network::from_bytes(&bad).unwrap_err().contains("checksum"));
            let e = Network::from_bytes(&refix(bad)).unwrap_err();
            assert!(e.contains("beyond 4"), "{e}");
            let mut bad = bytes.clone();
            bad[HEADER] = 2;
            let e = Network::from_bytes(&refix(bad)).unwrap_err();
            assert!(e.contains("flags"), "{e}");
            for kb in [0u32, 1, 33] {
                let mut bad = bytes.clone();
                bad[HEADER + 4..HEADER + 8].copy_from_slice(&kb.to_le_bytes());
                let e = Network::from_bytes(&refix(bad)).unwrap_err();
                assert!(e.contains("king buckets (must be 2..=32)"), "{e}");
            }
            let mut bad = bytes.clone();
            bad[HEADER + 4..HEADER + 8].copy_from_slice(&5u32.to_le_bytes());
            let e = Network::from_bytes(&refix(bad)).unwrap_err();
            assert!(e.contains("truncated or padded"), "{e}");
            let e = Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
            assert!(e.contains("truncated or padded"), "{e}");
            assert!(Network::from_bytes(&bytes[..HEADER + 10]).is_err());
        }
    }

    #[test]
    fn king_layouts() {
        for (spec, k) in KING_LAYOUTS
            .map(|(name, _)| name)
            .into_iter()
            .zip([2, 4, 8, 8, 16])
        {
            let (kb, map) = Inputs::king_layout(spec).expect(spec);
            assert_eq!(kb, k);
            assert!(map.iter().all(|&b| (b as usize) < k));
        }
        let (_, kb4) = Inputs::king_layout("kb4").expect("kb4");
        // c1, d1, g1, g2, g3 in the own frame.
        assert_eq!([kb4[2], kb4[3], kb4[6], kb4[14], kb4[22]], [0, 1, 2, 2, 3]);
        // a1, b1, c1, h1, c2, f2, g2, d3, e3, a4, h6, a7 in the own frame.
        let (_, kb16r) = Inputs::king_layout("kb16r").expect("kb16r");
        assert_eq!(
            [0, 1, 2, 7, 10, 13, 14, 19, 20, 24, 47, 48].map(|s| kb16r[s]),
            [0, 0, 1, 6, 7, 9, 10, 11, 12, 13, 14, 15]
        );
        let list: Vec<String> = (0..64).map(|s| (s / 32).to_string()).collect();
        assert_eq!(Inputs::king_layout(&list.join(",")).expect("list").0, 2);
        assert!(Inputs::king_layout("kb5").is_err());
        assert!(Inputs::king_layout(&list[..63].join(",")).is_err());
        let gap: Vec<String> = (0..64).map(|s| (2 * (s / 32)).to_string()).collect();
        assert!(Inputs::king_layout(&gap.join(",")).is_err());
        // Black's king reads its square rank-flipped: e8 for Black is e1 for White.
        let inputs = Inputs {
            mirrored: true,
            king_buckets: 4,
            king_map: kb4,
        };
        let pos = crate::position::Position::from_fen("2k5/8/8/8/8/8/6K1/8 w - - 0 1", false)
            .expect("fen");
        let (w, b) = (
            inputs.view(pos.board(), Color::White),
            inputs.view(pos.board(), Color::Black),
        );
        assert_eq!((w.row(0), w.slot()), (2 * INPUTS, 4));
        assert_eq!((b.row(0), b.slot()), (7, 1));
    }

    /// A network whose K blocks are copies of one block evaluates as the one-block network
    /// everywhere (how a king-bucketed run starts from a plain net).
    #[test]
    fn copied_blocks_evaluate_as_one_block() {
        let plain = tiny(1);
        let mut copies = king_bucketed(&plain, "kb8", false);
        let rows = plain.ft_weights.len();
        copies.ft_weights = (0..8 * rows).map(|i| plain.ft_weights[i % rows]).collect();
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/3QK3/8 b - - 0 1",
        ] {
            let pos = crate::position::Position::from_fen(fen, false).expect("fen");
            assert_eq!(
                copies.evaluate_board(pos.board(), pos.turn()),
                plain.evaluate_board(pos.board(), pos.turn()),
                "{fen}"
            );
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
