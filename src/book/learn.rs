//! Book learning: the engine scores the book moves it played by how its games went after
//! leaving the book, and plays moves that led to bad positions less often.
//!
//! As Crafty learns (and as the `learn` field of Polyglot books was meant for), a move's value
//! comes from the game itself: the result when the end is seen on the board (checkmate,
//! stalemate, repetition, the 50-move rule or bare kings in the last position the GUI sent),
//! else the engine's own search scores [`WINDOW`] plies after its last book move. The value
//! (+1 a win, 0 a draw, -1 a loss; a score `s` in centipawns counts `2 / (1 + 10^(-s/400)) - 1`)
//! goes to the book moves the engine chose where the book offered a choice: in full to the
//! last such move, half to the one before, and so on (the earliest choices decided least).
//! Each adds [`STEP`] × value to the move's learn value `L`, kept within ±[`MAX_LEARN`], and the
//! move is then chosen as if its weight were `weight × 2^(L / STEP)`: a lost game halves the
//! chance of the last choice, a won one doubles it.
//!
//! Learned values live in a file of their own beside the book, the book's path with
//! [`LEARN_SUFFIX`] appended: the user's `.bin` is never written. The format (little-endian):
//! `"NWLEARN\0"`, version `u32` ([`VERSION`]), entry count `u32`, the entries sorted by key
//! and move, each `key: u64` (Polyglot), `move: u16` (Polyglot's code), `learn: i32`,
//! `games: u32`, then the FNV-1a 64 checksum of everything before it. A file that is not
//! exactly that is refused whole.

use std::collections::BTreeMap;
use std::path::Path;

/// Appended to the book's path to name its learn file (`book.bin.learn`).
pub const LEARN_SUFFIX: &str = ".learn";
/// First bytes of a learn file.
pub const MAGIC: [u8; 8] = *b"NWLEARN\0";
/// Format version written and read.
pub const VERSION: u32 = 1;
/// Learn value of one won game for the last choice: doubles the move's chance.
pub const STEP: i32 = 100;
/// Learn values stay within ±this (a move's chance changes at most 256-fold).
pub const MAX_LEARN: i32 = 800;
/// Plies after the last book move whose search scores value a game that did not end on the
/// board: their mean; without any, the last score before them.
pub const WINDOW: (u32, u32) = (10, 20);
/// Largest learn file read (bytes).
pub const MAX_LEARN_BYTES: u64 = 1 << 28;

const HEADER_BYTES: usize = 16;
const ENTRY_BYTES: usize = 18;
const CHECKSUM_BYTES: usize = 8;

/// What the engine learned about one book move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Learn value: the move's weight counts `2^(learn / STEP)` times.
    pub learn: i32,
    /// Games that changed it.
    pub games: u32,
}

impl Learned {
    /// The factor on the move's weight.
    pub fn factor(self) -> f64 {
        2f64.powf(f64::from(self.learn) / f64::from(STEP))
    }
}

/// Why a learn file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearnError {
    /// It could not be read.
    Io(String),
    /// Too short, or another magic: some other program's file.
    Foreign,
    /// A version this engine does not read.
    Version(u32),
    /// The size does not match the entry count.
    Size { len: u64, count: u32 },
    /// The checksum does not match.
    Checksum,
    /// Entries out of order or repeated, or a learn value out of range.
    Entry(usize),
    /// Larger than [`MAX_LEARN_BYTES`].
    TooLarge(u64),
}

impl std::fmt::Display for LearnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LearnError::Io(e) => write!(f, "cannot read it ({e})"),
            LearnError::Foreign => write!(f, "not a Nullwindow learn file"),
            LearnError::Version(v) => {
                write!(f, "format version {v}, this engine reads version {VERSION}")
            }
            LearnError::Size { len, count } => write!(
                f,
                "size {len} bytes does not fit its {count} entries: truncated or corrupt"
            ),
            LearnError::Checksum => write!(f, "checksum mismatch: corrupt"),
            LearnError::Entry(i) => {
                write!(f, "entry {i} is out of order or out of range: corrupt")
            }
            LearnError::TooLarge(len) => {
                write!(
                    f,
                    "size {len} bytes is more than the {MAX_LEARN_BYTES} read at most"
                )
            }
        }
    }
}

impl std::error::Error for LearnError {}

/// The learn file of the book at `book` (its path with [`LEARN_SUFFIX`] appended).
pub fn learn_path(book: &str) -> String {
    format!("{book}{LEARN_SUFFIX}")
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Learned values by (Polyglot key, Polyglot move code).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LearnTable {
    map: BTreeMap<(u64, u16), Learned>,
}

impl LearnTable {
    /// Number of moves with a learned value.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether nothing was learned.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// What was learned about the move `code` in the position of key `key` (default: nothing).
    pub fn get(&self, key: u64, code: u16) -> Learned {
        self.map.get(&(key, code)).copied().unwrap_or_default()
    }

    /// Adds `delta` to the move's learn value (kept within ±[`MAX_LEARN`]) and counts a game.
    pub fn add(&mut self, key: u64, code: u16, delta: i32) {
        let e = self.map.entry((key, code)).or_default();
        e.learn = e.learn.saturating_add(delta).clamp(-MAX_LEARN, MAX_LEARN);
        e.games = e.games.saturating_add(1);
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.map.len() * ENTRY_BYTES + 8);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.map.len() as u32).to_le_bytes());
        for (&(key, code), l) in &self.map {
            out.extend_from_slice(&key.to_le_bytes());
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&l.learn.to_le_bytes());
            out.extend_from_slice(&l.games.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A table from a file's bytes, or why they are refused.
    pub fn from_bytes(b: &[u8]) -> Result<LearnTable, LearnError> {
        if b.len() < HEADER_BYTES + CHECKSUM_BYTES || b[..8] != MAGIC {
            return Err(LearnError::Foreign);
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let version = u32_at(8);
        if version != VERSION {
            return Err(LearnError::Version(version));
        }
        let count = u32_at(12);
        let size = LearnError::Size {
            len: b.len() as u64,
            count,
        };
        let body = (count as usize)
            .checked_mul(ENTRY_BYTES)
            .ok_or(size.clone())?;
        if b.len() != HEADER_BYTES + body + CHECKSUM_BYTES {
            return Err(size);
        }
        let (data, sum) = b.split_at(b.len() - CHECKSUM_BYTES);
        let mut s = [0u8; 8];
        s.copy_from_slice(sum);
        if fnv1a(data) != u64::from_le_bytes(s) {
            return Err(LearnError::Checksum);
        }
        let mut map = BTreeMap::new();
        let mut last = None;
        for (i, e) in data[HEADER_BYTES..].chunks_exact(ENTRY_BYTES).enumerate() {
            let mut k = [0u8; 8];
            k.copy_from_slice(&e[..8]);
            let key = u64::from_le_bytes(k);
            let code = u16::from_le_bytes([e[8], e[9]]);
            let learn = i32::from_le_bytes([e[10], e[11], e[12], e[13]]);
            let games = u32::from_le_bytes([e[14], e[15], e[16], e[17]]);
            if last.is_some_and(|l| l >= (key, code)) || !(-MAX_LEARN..=MAX_LEARN).contains(&learn)
            {
                return Err(LearnError::Entry(i));
            }
            last = Some((key, code));
            map.insert((key, code), Learned { learn, games });
        }
        Ok(LearnTable { map })
    }

    /// Reads the learn file at `path`: `Ok(None)` when there is none.
    pub fn open(path: &Path) -> Result<Option<LearnTable>, LearnError> {
        let io = |e: std::io::Error| LearnError::Io(e.to_string());
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(e)),
        };
        if !meta.is_file() {
            return Err(LearnError::Io("not a regular file".into()));
        }
        if meta.len() > MAX_LEARN_BYTES {
            return Err(LearnError::TooLarge(meta.len()));
        }
        let bytes = std::fs::read(path).map_err(io)?;
        LearnTable::from_bytes(&bytes).map(Some)
    }

    /// Writes the table to `path` (through a temporary file beside it, renamed over it, so
    /// that a crash leaves the old file or the new one).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }
}

/// How a game went for White: +1 won, 0 drawn, -1 lost (a score maps into between).
pub fn score_value(cp: i32) -> f64 {
    2.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0)) - 1.0
}

/// One book move the engine chose in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookPlay {
    /// Plies from the game's start position to the position it was played in.
    pub ply: u32,
    /// Polyglot key of that position.
    pub key: u64,
    /// Polyglot code of the move.
    pub code: u16,
    /// Whether White played it.
    pub white: bool,
    /// Whether the book offered another move there.
    pub choice: bool,
}

/// The changes one game makes: `(key, code, delta)` for each choice the engine made from the
/// book, given its plays (those the game really contains), how the game ended on the board
/// (`result`: +1/0/-1 for White) and the search scores `(ply, White's centipawns)`.
pub fn game_deltas(
    plays: &[BookPlay],
    result: Option<f64>,
    scores: &[(u32, i32)],
) -> Vec<(u64, u16, i32)> {
    let Some(last) = plays.iter().map(|p| p.ply).max() else {
        return Vec::new();
    };
    let white = match result {
        Some(r) => r,
        None => {
            let (lo, hi) = (last + WINDOW.0, last + WINDOW.1);
            let window: Vec<i32> = scores
                .iter()
                .filter(|(p, _)| (lo..=hi).contains(p))
                .map(|&(_, s)| s)
                .collect();
            if window.is_empty() {
                // The last score after leaving the book and before the window, if any.
                match scores.iter().filter(|(p, _)| *p > last && *p < lo).max() {
                    Some(&(_, s)) => score_value(s),
                    None => return Vec::new(),
                }
            } else {
                window.iter().map(|&s| score_value(s)).sum::<f64>() / window.len() as f64
            }
        }
    };
    let mut out = Vec::new();
    for side_white in [true, false] {
        let v = if side_white { white } else { -white };
        let mut mine: Vec<&BookPlay> = plays
            .iter()
            .filter(|p| p.choice && p.white == side_white)
            .collect();
        mine.sort_by_key(|p| std::cmp::Reverse(p.ply));
        let mut share = 1.0;
        for p in mine {
            out.push((p.key, p.code, (f64::from(STEP) * v * share).round() as i32));
            share /= 2.0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> LearnTable {
        let mut t = LearnTable::default();
        t.add(0x463b_9618_1691_fc9c, 0x031c, -100);
        t.add(0x463b_9618_1691_fc9c, 0x031c, -100);
        t.add(0x463b_9618_1691_fc9c, 0x02db, 50);
        t.add(7, 1, 5000);
        t
    }

    #[test]
    fn learn_file_round_trip() {
        let t = table();
        assert_eq!(
            t.get(0x463b_9618_1691_fc9c, 0x031c),
            Learned {
                learn: -200,
                games: 2
            }
        );
        assert_eq!(t.get(7, 1).learn, MAX_LEARN);
        assert_eq!(t.get(8, 1), Learned::default());
        let bytes = t.to_bytes();
        assert_eq!(bytes.len(), 16 + 3 * 18 + 8);
        assert_eq!(LearnTable::from_bytes(&bytes), Ok(t.clone()));
        let dir = std::env::temp_dir().join(format!("nw-learn-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.bin.learn");
        assert_eq!(LearnTable::open(&path), Ok(None));
        t.save(&path).unwrap();
        assert_eq!(LearnTable::open(&path), Ok(Some(t)));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            (Learned {
                learn: -200,
                games: 2
            }
            .factor()
                - 0.25)
                .abs()
                < 1e-12
        );
        assert_eq!(LearnTable::default().to_bytes().len(), 24);
    }

    #[test]
    fn bad_learn_files_are_refused() {
        let good = table().to_bytes();
        assert_eq!(LearnTable::from_bytes(b""), Err(LearnError::Foreign));
        // A Polyglot book given as a learn file.
        assert_eq!(
            LearnTable::from_bytes(&[0x46; 32]),
            Err(LearnError::Foreign)
        );
        let mut v2 = good.clone();
        v2[8] = 2;
        assert_eq!(LearnTable::from_bytes(&v2), Err(LearnError::Version(2)));
        assert!(matches!(
            LearnTable::from_bytes(&good[..good.len() - 1]),
            Err(LearnError::Size { .. })
        ));
        let mut count = good.clone();
        count[12] = 0xff;
        count[15] = 0xff;
        assert!(matches!(
            LearnTable::from_bytes(&count),
            Err(LearnError::Size { .. })
        ));
        // Any flipped bit of an entry or of the checksum.
        for i in [16, 30, good.len() - 1] {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            assert_eq!(
                LearnTable::from_bytes(&bad),
                Err(LearnError::Checksum),
                "{i}"
            );
        }
        // Entries out of order, with a checksum that matches.
        let mut swapped = good[..16].to_vec();
        swapped.extend_from_slice(&good[16 + 18..16 + 36]);
        swapped.extend_from_slice(&good[16..16 + 18]);
        swapped.extend_from_slice(&good[16 + 36..good.len() - 8]);
        let sum = fnv1a(&swapped);
        swapped.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(LearnTable::from_bytes(&swapped), Err(LearnError::Entry(1)));
        assert!(LearnError::Checksum.to_string().contains("corrupt"));
    }

    #[test]
    fn deltas_follow_the_result_then_the_scores() {
        let play = |ply, key, choice| BookPlay {
            ply,
            key,
            code: 1,
            white: ply % 2 == 0,
            choice,
        };
        // White chose at plies 0 and 4, had no choice at 2; Black chose at 1.
        let plays = [
            play(0, 10, true),
            play(1, 11, true),
            play(2, 12, false),
            play(4, 14, true),
        ];
        let lost = game_deltas(&plays, Some(-1.0), &[(7, 500)]);
        assert_eq!(lost, [(14, 1, -100), (10, 1, -50), (11, 1, 100)]);
        // No result: the mean value of the scores 10 to 20 plies after ply 4.
        let d = game_deltas(&plays, None, &[(6, -900), (14, 0), (24, 400), (26, 9000)]);
        let half = (100.0 * score_value(400) / 2.0).round() as i32;
        assert_eq!(d[0], (14, 1, half));
        // Only earlier scores: the last of them.
        let d = game_deltas(&plays, None, &[(5, -900), (7, -300)]);
        assert_eq!(d[0].2, (100.0 * score_value(-300)).round() as i32);
        assert!(game_deltas(&plays, None, &[(3, 100)]).is_empty());
        assert!(game_deltas(&[], Some(1.0), &[]).is_empty());
        assert_eq!(score_value(0), 0.0);
        assert!(score_value(32000) > 0.999 && score_value(-400) < -0.8);
    }
}
