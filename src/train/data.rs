//! Training samples: the records of the data files turned into feature lists and targets,
//! shuffled once with a seeded generator and split into training and validation sets.

use std::fs::File;
use std::io::Read;

use crate::datagen::format::{RECORD_SIZE, Record, check_file};
use crate::nnue::net::{INPUTS, Inputs, NO_KING_SQUARE, View, feature, own_king};
use crate::position::Color;

/// Most active features of one perspective (a record holds at most 32 pieces).
pub const MAX_FEATURES: usize = 32;

/// One position as the trainer sees it: the side to move's active features and the target.
///
/// The other perspective's features follow from these by [`mirror`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    feats: [u16; MAX_FEATURES],
    len: u8,
    /// The side to move's king's square and the other king's, each in its own side's frame
    /// (rank-flipped for Black): what king buckets and mirroring read.
    kings: [u8; 2],
    /// Target win probability from the side to move's view, in `[0, 1]`.
    pub target: f32,
}

/// The feature of the same piece seen from the other perspective: the square flips
/// vertically and "ours" becomes "theirs".
#[inline]
pub fn mirror(f: usize) -> usize {
    let g = f ^ 56;
    if g >= INPUTS / 2 {
        g - INPUTS / 2
    } else {
        g + INPUTS / 2
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// The sample of `r`: target `(1 − lambda)·sigmoid(score / scale) + lambda·result`, both
    /// from the side to move's view.
    pub fn from_record(r: &Record, lambda: f32, scale: f32) -> Sample {
        let mut feats = [0u16; MAX_FEATURES];
        let mut len = 0;
        for sq in r.board.occupied() {
            if let Some(p) = r.board.piece_at(sq)
                && len < MAX_FEATURES
            {
                feats[len] = feature(r.turn, p, sq) as u16;
                len += 1;
            }
        }
        let white = r.result.as_f32();
        let result = if r.turn == Color::White {
            white
        } else {
            1.0 - white
        };
        let score = sigmoid(r.stm_score() as f32 / scale);
        let king = |c: Color| own_king(&r.board, c) as u8;
        Sample {
            feats,
            len: len as u8,
            kings: [king(r.turn), king(!r.turn)],
            target: (1.0 - lambda) * score + lambda * result,
        }
    }

    /// A sample from raw parts (tests and benchmarks); at most [`MAX_FEATURES`] features are
    /// kept, each must be below [`INPUTS`].
    pub fn new(features: &[usize], target: f32) -> Sample {
        let mut feats = [0u16; MAX_FEATURES];
        let len = features.len().min(MAX_FEATURES);
        for (d, &f) in feats.iter_mut().zip(features) {
            *d = (f % INPUTS) as u16;
        }
        Sample {
            feats,
            len: len as u8,
            kings: [NO_KING_SQUARE as u8; 2],
            target,
        }
    }

    /// This sample with the king-wing bits `kings` (bit 0: the side to move's king on files
    /// a–d, bit 1: the other's; d1 or e1 in each side's frame), for tests of mirrored networks
    /// on made-up features.
    #[cfg(test)]
    pub fn with_kings(self, kings: u8) -> Sample {
        let square = |bit: u8| if kings & bit != 0 { 3 } else { 4 };
        self.with_king_squares([square(1), square(2)])
    }

    /// This sample with the kings on `squares` (the side to move's, the other's; each in its
    /// own frame), for tests on made-up features.
    #[cfg(test)]
    pub fn with_king_squares(mut self, squares: [u8; 2]) -> Sample {
        self.kings = squares.map(|s| s & 63);
        self
    }

    /// The same position mirrored left to right (files a↔h): a square's file is the low
    /// three bits of its feature index. Only valid without castling rights.
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for f in m.feats[..m.len as usize].iter_mut() {
            *f ^= 7;
        }
        // Every king changes file (and wing: files a–d ↔ e–h).
        m.kings = m.kings.map(|k| k ^ 7);
        m
    }

    /// How the side to move's and the other side's perspective read a network's rows (see
    /// [`Inputs::view_at`]).
    #[inline(always)]
    pub fn views(&self, inputs: &Inputs) -> [View; 2] {
        if inputs.is_plain() {
            return [View::PLAIN; 2];
        }
        self.kings.map(|k| inputs.view_at(k as usize))
    }

    /// The side to move's active features.
    #[inline]
    pub fn features(&self) -> &[u16] {
        &self.feats[..self.len as usize]
    }

    /// Mixes this sample into a running fingerprint of a data set.
    fn fingerprint(&self, h: u64) -> u64 {
        // (`kings` follows from the features, which hold both kings.)
        let mut h = mix(h ^ self.target.to_bits() as u64 ^ (self.len as u64) << 32);
        for c in self.feats.chunks_exact(4) {
            let w = c.iter().fold(0u64, |a, &f| a << 16 | f as u64);
            h = mix(h ^ w);
        }
        h
    }
}

/// A splitmix64 step: a good 64-bit mixing function.
fn mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A small seeded generator (xoshiro256**) whose whole state can be saved in a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    /// The state words.
    pub s: [u64; 4],
}

impl Rng {
    /// A generator seeded from `seed` (through splitmix64, so that any seed is fine).
    pub fn new(seed: u64) -> Rng {
        let mut s = [0u64; 4];
        for (i, w) in s.iter_mut().enumerate() {
            *w = mix(seed.wrapping_add((i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        }
        if s == [0; 4] {
            s[0] = 1;
        }
        Rng { s }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let out = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A float uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The loaded data: training and validation samples, and a fingerprint of both (so that a
/// resumed run can check it sees the same data).
#[derive(Clone, Debug)]
pub struct DataSet {
    /// Training samples, in the order of the initial shuffle.
    pub train: Vec<Sample>,
    /// Held-out samples.
    pub val: Vec<Sample>,
    /// A hash of every sample, in order, and of the split.
    pub fingerprint: u64,
}

/// Shuffles `samples` with `rng` and holds out `val_fraction` of them (rounded down, at
/// least one if the fraction is positive and there are two or more samples). With `tail`
/// the held-out samples are the last ones in file order instead, taken before the shuffle:
/// as a data file is written game by game, they are whole games the training set never saw
/// (but the one game the cut falls in), so neighbouring positions of one game cannot flatter
/// the validation loss.
pub fn split(mut samples: Vec<Sample>, val_fraction: f64, tail: bool, rng: &mut Rng) -> DataSet {
    let n = samples.len();
    let mut n_val = (n as f64 * val_fraction) as usize;
    if val_fraction > 0.0 && n_val == 0 && n >= 2 {
        n_val = 1;
    }
    let n_val = n_val.min(n.saturating_sub(1));
    let val = if tail {
        let val = samples.split_off(n - n_val);
        rng.shuffle(&mut samples);
        val
    } else {
        rng.shuffle(&mut samples);
        samples.split_off(n - n_val)
    };
    let mut h = mix(n as u64) ^ mix(n_val as u64 + 1) ^ if tail { mix(u64::MAX) } else { 0 };
    for s in samples.iter().chain(&val) {
        h = s.fingerprint(h);
    }
    DataSet {
        train: samples,
        val,
        fingerprint: h,
    }
}

/// Records decoded per read while loading.
const READ_CHUNK: usize = 1 << 15;

/// Reads every record of every file and turns it into a sample, a chunk at a time (the
/// records of a file are never all in memory at once); with `mirror`, a castling-less
/// position also gives its left-right mirror (see [`Sample::mirrored`]). A file that is not a
/// whole, valid data file is an error with the data reader's wording: foreign, truncated (a
/// partial last record) or holding a record that does not decode.
pub fn load(
    paths: &[String],
    lambda: f32,
    scale: f32,
    mirror: bool,
) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let mut f = File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        let (n, tail) = check_file(&mut f, path)?;
        if tail != 0 {
            return Err(format!(
                "{path} is truncated: {tail} bytes after its last whole record ({n} records)"
            ));
        }
        samples.reserve(n as usize);
        let mut buf = vec![0u8; READ_CHUNK * RECORD_SIZE];
        let mut left = n as usize;
        let mut index = 0;
        while left > 0 {
            let k = left.min(READ_CHUNK);
            let bytes = &mut buf[..k * RECORD_SIZE];
            f.read_exact(bytes)
                .map_err(|e| format!("cannot read {path}: {e}"))?;
            for c in bytes.chunks_exact(RECORD_SIZE) {
                let mut a = [0u8; RECORD_SIZE];
                a.copy_from_slice(c);
                let r = Record::from_bytes(&a)
                    .map_err(|e| format!("{path}: record {index} is corrupt ({e})"))?;
                let sample = Sample::from_record(&r, lambda, scale);
                samples.push(sample);
                if mirror && r.castling == 0 {
                    samples.push(sample.mirrored());
                }
                index += 1;
            }
            left -= k;
        }
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::Wdl;
    use crate::position::Position;

    #[test]
    fn mirror_matches_the_other_perspective() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            false,
        )
        .expect("fen");
        let r = Record::from_position(&pos, 10, Wdl::Draw);
        let s = Sample::from_record(&r, 0.0, 400.0);
        let mut ours: Vec<usize> = s.features().iter().map(|&f| mirror(f as usize)).collect();
        let mut want: Vec<usize> = pos
            .board()
            .occupied()
            .into_iter()
            .filter_map(|sq| {
                pos.board()
                    .piece_at(sq)
                    .map(|p| feature(!pos.turn(), p, sq))
            })
            .collect();
        ours.sort_unstable();
        want.sort_unstable();
        assert_eq!(ours, want);
        assert!((s.target - sigmoid(10.0 / 400.0)).abs() < 1e-6);
    }

    #[test]
    fn targets_are_from_the_side_to_move() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R b - - 0 1", false).expect("fen");
        // Black to move, White wins, White's engine score +500 (Black's -500).
        let r = Record::from_position(&pos, -500, Wdl::WhiteWin);
        let s = Sample::from_record(&r, 0.5, 400.0);
        let want = 0.5 * sigmoid(-500.0 / 400.0);
        assert!((s.target - want).abs() < 1e-6);
    }

    #[test]
    fn mirrored_sample_is_the_file_flipped_position() {
        let pos = Position::from_fen("4k3/1p6/8/3q4/8/5N2/P7/6K1 w - - 0 1", false).expect("fen");
        let flipped =
            Position::from_fen("3k4/6p1/8/4q3/8/2N5/7P/1K6 w - - 0 1", false).expect("fen");
        let s = Sample::from_record(&Record::from_position(&pos, 30, Wdl::Draw), 0.3, 400.0);
        let f = Sample::from_record(&Record::from_position(&flipped, 30, Wdl::Draw), 0.3, 400.0);
        let sorted = |x: &Sample| {
            let mut v = x.features().to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&s.mirrored()), sorted(&f));
        assert_eq!(s.mirrored().target, s.target);
        assert_eq!(sorted(&s.mirrored().mirrored()), sorted(&s));
    }

    #[test]
    fn loading_streams_every_record() {
        use crate::datagen::format::{read_file, write_file};
        let dir = std::env::temp_dir().join(format!("nullwindow-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("d.bin").to_string_lossy().into_owned();
        let pos = Position::startpos();
        let mut recs = Vec::new();
        for i in 0..(READ_CHUNK + 7) {
            let wdl = [Wdl::BlackWin, Wdl::Draw, Wdl::WhiteWin][i % 3];
            recs.push(Record::from_position(&pos, i as i32 % 900 - 450, wdl));
        }
        write_file(&path, &recs).expect("write");
        let want: Vec<Sample> = read_file(&path)
            .expect("read")
            .iter()
            .map(|r| Sample::from_record(r, 0.3, 400.0))
            .collect();
        let got = load(&[path.clone(), path], 0.3, 400.0, false).expect("load");
        assert_eq!(got.len(), 2 * want.len());
        assert_eq!(got[..want.len()], want[..]);
        assert_eq!(got[want.len()..], want[..]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn split_is_seeded() {
        let samples: Vec<Sample> = (0..100).map(|i| Sample::new(&[i], i as f32)).collect();
        let a = split(samples.clone(), 0.1, false, &mut Rng::new(5));
        let b = split(samples.clone(), 0.1, false, &mut Rng::new(5));
        let c = split(samples.clone(), 0.1, false, &mut Rng::new(6));
        assert_eq!((a.train.len(), a.val.len()), (90, 10));
        assert_eq!(a.train, b.train);
        assert_eq!(a.fingerprint, b.fingerprint);
        assert_ne!(a.fingerprint, c.fingerprint);
        // The tail split holds out the last samples in file order and shuffles the rest.
        let t = split(samples.clone(), 0.1, true, &mut Rng::new(5));
        assert_eq!(t.val, samples[90..]);
        let mut train = t.train.clone();
        train.sort_by(|x, y| x.target.total_cmp(&y.target));
        assert_eq!(train, samples[..90]);
        assert_ne!(t.train, samples[..90], "the training part is shuffled");
        assert_ne!(t.fingerprint, a.fingerprint);
    }
}
