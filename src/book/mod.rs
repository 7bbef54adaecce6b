//! Polyglot opening books: reading a `.bin` book, probing it for a position and choosing a
//! move; building one from PGN games ([`build`]); the `nullwindow book` tool ([`cli`]).
//!
//! The whole book is read into memory and checked once (size a multiple of 16 bytes, keys in
//! order); a probe is a binary search. Entries whose move is not legal in the position they
//! are filed under are ignored. Depends only on [`crate::position`].

pub mod build;
pub mod cli;
pub mod pgn;
pub mod polyglot;

use std::io::Read;
use std::path::Path;

use rand::Rng;

use crate::position::{Color, Move, Position};
pub use polyglot::{ENTRY_BYTES, Entry};

/// Largest book file read (bytes): 64 million entries.
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// Why a book could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be opened or read.
    Io(String),
    /// Not a regular file (a directory, a device, a pipe).
    NotAFile,
    /// The size is not a multiple of [`ENTRY_BYTES`]: a truncated or foreign file.
    Truncated(u64),
    /// Larger than [`MAX_BOOK_BYTES`].
    TooLarge(u64),
    /// Entry `n` (from 0) has a smaller key than the one before it.
    Unsorted(usize),
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read it ({e})"),
            BookError::NotAFile => write!(f, "not a regular file"),
            BookError::Truncated(len) => write!(
                f,
                "size {len} bytes is not a multiple of {ENTRY_BYTES}: truncated or not a Polyglot book"
            ),
            BookError::TooLarge(len) => write!(
                f,
                "size {len} bytes is more than the {MAX_BOOK_BYTES} read at most"
            ),
            BookError::Unsorted(n) => write!(
                f,
                "entry {n} has a smaller key than the one before it: not sorted, not a Polyglot book"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A Polyglot book in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// Sorted by key (checked on reading).
    entries: Vec<Entry>,
}

/// A legal book move of a position with its weight (summed when a book lists it twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its Polyglot weight.
    pub weight: u32,
}

/// How a move is chosen among the book moves of a position (`BookBestMove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// At random, each move with the chance weight / total weight (Polyglot's own rule).
    Weighted,
    /// The move of highest weight (the first of equals, in book order).
    Best,
}

impl Book {
    /// A book from its bytes (a whole `.bin` file).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Truncated(bytes.len() as u64));
        }
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(bytes.len() / ENTRY_BYTES)
            .map_err(|e| BookError::Io(e.to_string()))?;
        for chunk in bytes.chunks_exact(ENTRY_BYTES) {
            let mut b = [0u8; ENTRY_BYTES];
            b.copy_from_slice(chunk);
            entries.push(Entry::from_bytes(&b));
        }
        Book::from_entries(entries)
    }

    /// A book from entries, which must be sorted by key.
    pub fn from_entries(entries: Vec<Entry>) -> Result<Book, BookError> {
        if let Some(i) = entries.windows(2).position(|w| w[1].key < w[0].key) {
            return Err(BookError::Unsorted(i + 1));
        }
        Ok(Book { entries })
    }

    /// Reads a book file: a regular file of at most [`MAX_BOOK_BYTES`], read in full.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let io = |e: std::io::Error| BookError::Io(e.to_string());
        let file = std::fs::File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(BookError::NotAFile);
        }
        let len = meta.len();
        if len > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge(len));
        }
        if len % ENTRY_BYTES as u64 != 0 {
            return Err(BookError::Truncated(len));
        }
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len as usize)
            .map_err(|e| BookError::Io(e.to_string()))?;
        // Never more than the size said (files under /proc say 0 and go on).
        file.take(len).read_to_end(&mut bytes).map_err(io)?;
        Book::from_bytes(&bytes)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries filed under `key` (binary search).
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book moves of a position: entries under its key whose move is legal there, in book
    /// order, a move listed twice once with the weights added.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let mut out: Vec<BookMove> = Vec::new();
        for e in self.entries_for(polyglot::key(pos)) {
            let Some(mv) = polyglot::decode_move(pos, e.mv) else {
                continue;
            };
            match out.iter_mut().find(|b| b.mv == mv) {
                Some(b) => b.weight = b.weight.saturating_add(u32::from(e.weight)),
                None => out.push(BookMove {
                    mv,
                    weight: u32::from(e.weight),
                }),
            }
        }
        out
    }

    /// The book move to play in `pos`, chosen among those in `allowed` (all when empty), or
    /// `None` when the position is not in the book.
    pub fn choose<R: Rng + ?Sized>(
        &self,
        pos: &Position,
        allowed: &[Move],
        choice: Choice,
        rng: &mut R,
    ) -> Option<Move> {
        let mut moves = self.moves(pos);
        if !allowed.is_empty() {
            moves.retain(|b| allowed.contains(&b.mv));
        }
        choose(&moves, choice, rng)
    }
}

/// The chance of each book move of a position being played with [`Choice::Weighted`]: its
/// weight over the total; moves of weight 0 are never played unless every move has weight 0,
/// and then each is equally likely.
pub fn shares(moves: &[BookMove]) -> Vec<f64> {
    let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
    moves
        .iter()
        .map(|b| {
            if total == 0 {
                1.0 / moves.len() as f64
            } else {
                b.weight as f64 / total as f64
            }
        })
        .collect()
}

/// Chooses among book moves (see [`shares`] for the chances of [`Choice::Weighted`]).
pub fn choose<R: Rng + ?Sized>(moves: &[BookMove], choice: Choice, rng: &mut R) -> Option<Move> {
    if moves.is_empty() {
        return None;
    }
    let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
    match choice {
        Choice::Best => {
            // The first of the highest weights.
            let best = moves.iter().map(|b| b.weight).max()?;
            moves.iter().find(|b| b.weight == best).map(|b| b.mv)
        }
        Choice::Weighted if total == 0 => Some(moves[rng.random_range(0..moves.len())].mv),
        Choice::Weighted => {
            let mut r = rng.random_range(0..total);
            for b in moves {
                let w = u64::from(b.weight);
                if r < w {
                    return Some(b.mv);
                }
                r -= w;
            }
            None
        }
    }
}

/// Plies played in the game before `pos`, as its move counter says (the FEN's fullmove number
/// and side to move, advanced by the moves played since): 0 in the start position.
pub fn game_ply(pos: &Position) -> u32 {
    let black = u32::from(pos.turn() == Color::Black);
    pos.fullmoves()
        .saturating_sub(1)
        .saturating_mul(2)
        .saturating_add(black)
}

/// `setoption name BookFile value` of nothing or `<empty>`: no book.
pub fn is_no_file(value: &str) -> bool {
    let v = value.trim();
    v.is_empty() || v.eq_ignore_ascii_case("<empty>")
}

/// The opening book as the engine plays it: the UCI options and the book they loaded.
#[derive(Debug)]
pub struct BookPlayer {
    /// `OwnBook`: play from the book at all.
    pub enabled: bool,
    /// `BookBestMove`: the highest weight instead of a weighted random choice.
    pub best_move: bool,
    /// `BookDepth`: the book is consulted while at most this many plies have been played.
    pub max_ply: u32,
    /// The loaded book and the path it came from.
    book: Option<(Book, String)>,
}

/// `BookDepth` default, minimum and maximum.
pub const BOOK_DEPTH: (u32, u32, u32) = (255, 1, 255);

impl Default for BookPlayer {
    fn default() -> Self {
        BookPlayer {
            enabled: false,
            best_move: false,
            max_ply: BOOK_DEPTH.0,
            book: None,
        }
    }
}

impl BookPlayer {
    /// Loads the book at `path` (nothing or `<empty>`: no book) and returns its entry count.
    /// On an error the previous book stays.
    pub fn load(&mut self, path: &str) -> Result<usize, BookError> {
        let path = path.trim();
        if is_no_file(path) {
            self.book = None;
            return Ok(0);
        }
        let book = Book::open(Path::new(path))?;
        let n = book.len();
        self.book = Some((book, path.to_string()));
        Ok(n)
    }

    /// The path of the loaded book.
    pub fn path(&self) -> Option<&str> {
        self.book.as_ref().map(|(_, p)| p.as_str())
    }

    /// The book move to play now, if `OwnBook` is on, a book is loaded, the game is within
    /// `BookDepth` and the position has a book move among `allowed` (all when empty).
    pub fn pick<R: Rng + ?Sized>(
        &self,
        pos: &Position,
        allowed: &[Move],
        rng: &mut R,
    ) -> Option<Move> {
        if !self.enabled || game_ply(pos) > self.max_ply {
            return None;
        }
        let (book, _) = self.book.as_ref()?;
        let choice = if self.best_move {
            Choice::Best
        } else {
            Choice::Weighted
        };
        book.choose(pos, allowed, choice, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_FEN;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn entry(pos: &Position, uci: &str, weight: u16) -> Entry {
        Entry {
            key: polyglot::key(pos),
            mv: polyglot::encode_move(pos.parse_uci_move(uci).unwrap()),
            weight,
            learn: 0,
        }
    }

    fn bytes(entries: &[Entry]) -> Vec<u8> {
        entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    fn start_book() -> Book {
        let pos = Position::startpos();
        let mut after = Position::startpos();
        after.make(after.parse_uci_move("e2e4").unwrap());
        let mut entries = vec![
            entry(&pos, "e2e4", 6),
            entry(&pos, "d2d4", 3),
            entry(&pos, "g1f3", 1),
            entry(&pos, "a2a3", 0),
            // Not legal in the start position: ignored.
            Entry {
                key: polyglot::key(&pos),
                mv: 36 | (12 << 6),
                weight: 100,
                learn: 0,
            },
            entry(&after, "c7c5", 0),
            entry(&after, "e7e5", 0),
        ];
        entries.sort_by_key(|e| e.key);
        Book::from_bytes(&bytes(&entries)).unwrap()
    }

    #[test]
    fn probe_finds_legal_moves_only() {
        let book = start_book();
        assert_eq!(book.len(), 7);
        let pos = Position::startpos();
        let moves = book.moves(&pos);
        let names: Vec<String> = moves.iter().map(|b| pos.move_to_uci(b.mv)).collect();
        assert_eq!(names, ["e2e4", "d2d4", "g1f3", "a2a3"]);
        assert_eq!(shares(&moves), [0.6, 0.3, 0.1, 0.0]);
        let kiwi = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        assert!(book.moves(&kiwi).is_empty());
        assert!(Book::default().moves(&pos).is_empty());
    }

    #[test]
    fn weighted_choice_follows_the_weights_and_is_reproducible() {
        let book = start_book();
        let pos = Position::startpos();
        let mut rng = StdRng::seed_from_u64(24);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..10_000 {
            let m = book.choose(&pos, &[], Choice::Weighted, &mut rng).unwrap();
            *counts.entry(pos.move_to_uci(m)).or_insert(0) += 1;
        }
        // Weight 0 (a2a3) is never played; the others about 60/30/10 %.
        assert_eq!(counts.get("a2a3"), None);
        let e4 = counts["e2e4"];
        let d4 = counts["d2d4"];
        let nf3 = counts["g1f3"];
        assert!((5700..6300).contains(&e4), "{counts:?}");
        assert!((2700..3300).contains(&d4), "{counts:?}");
        assert!((800..1200).contains(&nf3), "{counts:?}");
        // The same seed, the same choices.
        let run = |seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            (0..20)
                .map(|_| book.choose(&pos, &[], Choice::Weighted, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
    }

    #[test]
    fn best_choice_and_allowed_moves() {
        let book = start_book();
        let pos = Position::startpos();
        let mut rng = StdRng::seed_from_u64(1);
        let best = book.choose(&pos, &[], Choice::Best, &mut rng);
        assert_eq!(best, pos.parse_uci_move("e2e4").ok());
        let d4 = pos.parse_uci_move("d2d4").unwrap();
        let h4 = pos.parse_uci_move("h2h4").unwrap();
        for choice in [Choice::Best, Choice::Weighted] {
            assert_eq!(book.choose(&pos, &[d4, h4], choice, &mut rng), Some(d4));
            assert_eq!(book.choose(&pos, &[h4], choice, &mut rng), None);
        }
    }

    #[test]
    fn all_zero_weights_are_played_evenly() {
        let book = start_book();
        let mut pos = Position::startpos();
        pos.make(pos.parse_uci_move("e2e4").unwrap());
        let moves = book.moves(&pos);
        assert_eq!(shares(&moves), [0.5, 0.5]);
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100 {
            seen.insert(book.choose(&pos, &[], Choice::Weighted, &mut rng).unwrap());
        }
        assert_eq!(seen.len(), 2);
    }

    #[test]
    fn bad_books_are_refused() {
        let book = start_book();
        let good = bytes(book.entries());
        assert_eq!(
            Book::from_bytes(&good[..good.len() - 3]).unwrap_err(),
            BookError::Truncated(good.len() as u64 - 3)
        );
        let mut reversed = book.entries().to_vec();
        reversed.reverse();
        assert!(matches!(
            Book::from_bytes(&bytes(&reversed)),
            Err(BookError::Unsorted(_))
        ));
        assert!(Book::from_bytes(&[]).unwrap().is_empty());
        assert!(matches!(
            Book::open(Path::new("/nonexistent/book.bin")),
            Err(BookError::Io(_))
        ));
        assert_eq!(
            Book::open(&std::env::temp_dir()).unwrap_err(),
            BookError::NotAFile
        );
    }

    #[test]
    fn game_ply_counts_from_the_start() {
        let mut pos = Position::from_fen(START_FEN, false).unwrap();
        assert_eq!(game_ply(&pos), 0);
        pos.make(pos.parse_uci_move("e2e4").unwrap());
        assert_eq!(game_ply(&pos), 1);
        pos.make(pos.parse_uci_move("e7e5").unwrap());
        assert_eq!(game_ply(&pos), 2);
        let later = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 40", false).unwrap();
        assert_eq!(game_ply(&later), 79);
    }

    #[test]
    fn player_respects_own_book_and_depth() {
        let mut player = BookPlayer {
            book: Some((start_book(), "test".into())),
            ..BookPlayer::default()
        };
        let pos = Position::startpos();
        let mut rng = StdRng::seed_from_u64(5);
        assert_eq!(player.pick(&pos, &[], &mut rng), None);
        player.enabled = true;
        assert!(player.pick(&pos, &[], &mut rng).is_some());
        let mut after = Position::startpos();
        after.make(after.parse_uci_move("e2e4").unwrap());
        player.max_ply = 1;
        assert!(player.pick(&after, &[], &mut rng).is_some());
        player.max_ply = 0;
        assert_eq!(player.pick(&after, &[], &mut rng), None);
        assert!(player.load("<empty>").is_ok());
        assert_eq!(player.path(), None);
    }
}
