//! Polyglot opening books: reading a `.bin` book, probing it for a position and choosing a
//! move; building one from PGN games ([`build`]); the `nullwindow book` tool ([`cli`]);
//! learning from the games played out of it (`BookLearning`, [`learn`]).
//!
//! The whole book is read into memory and checked once (size a multiple of 16 bytes, keys in
//! order); a probe is a binary search. Entries whose move is not legal in the position they
//! are filed under are ignored. Depends only on [`crate::position`].

pub mod build;
pub mod cli;
pub mod learn;
pub mod pgn;
pub mod polyglot;

use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};

use rand::Rng;

use crate::position::{Color, Move, Position};
use learn::{BookPlay, LearnTable, Learned};
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

/// The chance of each book move with [`Choice::Weighted`] when the engine learned `learned`
/// about them: as [`shares`], with each weight multiplied by [`Learned::factor`].
pub fn learned_shares(moves: &[BookMove], learned: &[Learned]) -> Vec<f64> {
    let w = learned_weights(moves, learned);
    let total: f64 = w.iter().sum();
    w.iter()
        .map(|&x| {
            if total > 0.0 {
                x / total
            } else {
                1.0 / moves.len() as f64
            }
        })
        .collect()
}

fn learned_weights(moves: &[BookMove], learned: &[Learned]) -> Vec<f64> {
    moves
        .iter()
        .zip(learned)
        .map(|(b, l)| f64::from(b.weight) * l.factor())
        .collect()
}

/// [`choose`] with the weights multiplied by what was learned about each move.
pub fn choose_learned<R: Rng + ?Sized>(
    moves: &[BookMove],
    learned: &[Learned],
    choice: Choice,
    rng: &mut R,
) -> Option<Move> {
    let w = learned_weights(moves, learned);
    let total: f64 = w.iter().sum();
    match choice {
        _ if moves.is_empty() => None,
        Choice::Best => {
            let best = w.iter().copied().fold(f64::MIN, f64::max);
            moves
                .iter()
                .zip(&w)
                .find(|(_, x)| **x == best)
                .map(|(b, _)| b.mv)
        }
        Choice::Weighted if total <= 0.0 => Some(moves[rng.random_range(0..moves.len())].mv),
        Choice::Weighted => {
            let mut r = rng.random::<f64>() * total;
            for (b, &x) in moves.iter().zip(&w) {
                if r < x {
                    return Some(b.mv);
                }
                r -= x;
            }
            moves
                .iter()
                .zip(&w)
                .rev()
                .find(|(_, x)| **x > 0.0)
                .map(|(b, _)| b.mv)
        }
    }
}

/// Whether the game is over in `pos`, and how for White: +1 won, 0 drawn, -1 lost
/// (checkmate, stalemate, bare kings or too little to mate, the 50-move rule, a three-fold
/// repetition counting the moves the GUI sent).
pub fn white_result(pos: &Position) -> Option<f64> {
    if pos.legal_moves().is_empty() {
        return Some(match (pos.is_check(), pos.turn()) {
            (false, _) => 0.0,
            (true, Color::White) => -1.0,
            (true, Color::Black) => 1.0,
        });
    }
    let drawn = pos.is_insufficient_material()
        || pos.is_fifty_move_draw()
        || pos.is_repetition(pos.game_ply());
    drawn.then_some(0.0)
}

/// `1 move`, `2 moves`.
fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
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
    /// Whether what `BookLearning` learns is written to the learn file (false: kept in memory,
    /// as in the sandbox the fuzzer drives).
    pub save_learning: bool,
    /// `BookLearning` and what it learned.
    learning: Learning,
}

/// `BookLearning`: what was learned, and the game being played (see [`learn`]).
#[derive(Debug, Default)]
struct Learning {
    /// The option.
    on: bool,
    /// The learned values of the loaded book.
    table: LearnTable,
    /// The learn file they are written to (`None`: not written: no book, or the file there
    /// was refused).
    file: Option<String>,
    /// The book moves the engine chose this game (confirmed by the moves the GUI sends).
    chosen: Vec<BookPlay>,
    /// The game as the GUI last sent it: the Polyglot key of its start position, and the key
    /// and move code of every ply.
    start: Option<u64>,
    plies: Vec<(u64, u16)>,
    /// How the game ended for White, when the last position sent was over.
    result: Option<f64>,
    /// The engine's search scores: (game, ply, White's centipawns), written by the search.
    scores: Arc<Mutex<Vec<(u64, u32, i32)>>>,
    /// Number of this game (scores of earlier ones are ignored).
    game: u64,
    /// `info string` lines to show.
    notes: Vec<String>,
}

/// Where a search reports its score for `BookLearning` (made by [`BookPlayer::score_sink`]).
#[derive(Clone, Debug)]
pub struct ScoreSink {
    log: Arc<Mutex<Vec<(u64, u32, i32)>>>,
    game: u64,
    ply: u32,
    white: bool,
}

impl ScoreSink {
    /// Records the search's score (centipawns, from the side to move's view).
    pub fn record(&self, score: i32) {
        let cp = if self.white { score } else { -score };
        if let Ok(mut log) = self.log.lock() {
            log.push((self.game, self.ply, cp));
        }
    }
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
            save_learning: true,
            learning: Learning::default(),
        }
    }
}

impl BookPlayer {
    /// No book, the options at their defaults; `save_learning` false keeps what
    /// `BookLearning` learns in memory.
    pub fn new(save_learning: bool) -> BookPlayer {
        BookPlayer {
            save_learning,
            ..BookPlayer::default()
        }
    }

    /// Loads the book at `path` (nothing or `<empty>`: no book) and returns its entry count.
    /// On an error the previous book stays.
    /// With `BookLearning` on, the game so far is learned from first (for the old book) and
    /// the new book's learn file read.
    pub fn load(&mut self, path: &str) -> Result<usize, BookError> {
        let path = path.trim();
        if is_no_file(path) {
            self.end_game();
            self.book = None;
            self.load_learning();
            return Ok(0);
        }
        let book = Book::open(Path::new(path))?;
        let n = book.len();
        self.end_game();
        self.book = Some((book, path.to_string()));
        self.load_learning();
        Ok(n)
    }

    /// `BookLearning`: on, the learn file of the book is read (and written after each game);
    /// off, what the game so far taught is saved and the book plays as its file says.
    pub fn set_learning(&mut self, on: bool) {
        if on == self.learning.on {
            return;
        }
        self.end_game();
        self.learning.on = on;
        self.load_learning();
    }

    /// Whether `BookLearning` is on.
    pub fn learning(&self) -> bool {
        self.learning.on
    }

    /// Reads the learn file of the loaded book when learning is on; forgets it otherwise.
    fn load_learning(&mut self) {
        let l = &mut self.learning;
        l.table = LearnTable::default();
        l.file = None;
        let Some((_, book)) = self.book.as_ref().filter(|_| l.on) else {
            return;
        };
        let file = learn::learn_path(book);
        match LearnTable::open(Path::new(&file)) {
            Ok(Some(t)) => {
                l.notes.push(format!(
                    "info string book learning '{file}': {} learned",
                    plural(t.len(), "move")
                ));
                l.table = t;
                l.file = Some(file);
            }
            Ok(None) => {
                l.notes.push(format!(
                    "info string book learning '{file}': nothing learned yet"
                ));
                l.file = Some(file);
            }
            Err(e) => l.notes.push(format!(
                "info string error: book learn file '{file}': {e}; the book plays unlearned \
                 and the file is left as it is"
            )),
        }
    }

    /// The `info string` lines the book has to say (learn file read, refused, or written).
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.learning.notes)
    }

    /// What was learned about the book moves of `pos` (all nothing when learning is off).
    pub fn learned(&self, pos: &Position, moves: &[BookMove]) -> Vec<Learned> {
        let key = polyglot::key(pos);
        moves
            .iter()
            .map(|b| self.learning.table.get(key, polyglot::encode_move(b.mv)))
            .collect()
    }

    /// `position`: the game as the GUI sends it, `moves` played from `start`. With learning
    /// on, a position that is not the last game going on ends that game first: another start,
    /// more than two plies fewer, or other moves before the last ply of the shorter list (the
    /// last may differ: a ponder miss replaces the move the engine pondered on).
    pub fn see_game(&mut self, start: &Position, moves: &[Move]) {
        if !self.learning.on {
            return;
        }
        let mut pos = start.clone();
        let mut plies = Vec::with_capacity(moves.len());
        for &m in moves {
            plies.push((polyglot::key(&pos), polyglot::encode_move(m)));
            pos.make(m);
            pos.clear_undo();
        }
        let start_key = polyglot::key(start);
        let l = &self.learning;
        let n = l.plies.len().min(plies.len()).saturating_sub(1);
        let other = |k: u64| {
            k != start_key || plies.len() + 2 < l.plies.len() || l.plies[..n] != plies[..n]
        };
        if l.start.is_some_and(other) {
            self.end_game();
        }
        let l = &mut self.learning;
        l.start = Some(start_key);
        l.plies = plies;
        l.result = white_result(&pos);
    }

    /// Where the search of `pos` reports its score, when learning is on.
    pub fn score_sink(&self, pos: &Position) -> Option<ScoreSink> {
        (self.learning.on && self.book.is_some()).then(|| ScoreSink {
            log: self.learning.scores.clone(),
            game: self.learning.game,
            ply: pos.game_ply() as u32,
            white: pos.turn() == Color::White,
        })
    }

    /// The game is over (`ucinewgame`, `quit`, another book): with learning on, the book moves
    /// the engine chose in it and the game contains are valued ([`learn::game_deltas`]), and
    /// the learn file written. Then a new game begins.
    pub fn end_game(&mut self) {
        let l = &mut self.learning;
        let game = l.game;
        let mut scores: Vec<(u32, i32)> = Vec::new();
        if let Ok(mut log) = l.scores.lock() {
            scores = log
                .iter()
                .filter(|(g, _, _)| *g == game)
                .map(|&(_, p, s)| (p, s))
                .collect();
            log.clear();
        }
        let plays: Vec<BookPlay> = l
            .chosen
            .iter()
            .filter(|p| l.plies.get(p.ply as usize) == Some(&(p.key, p.code)))
            .copied()
            .collect();
        let deltas = if l.on {
            learn::game_deltas(&plays, l.result, &scores)
        } else {
            Vec::new()
        };
        for &(key, code, delta) in &deltas {
            l.table.add(key, code, delta);
        }
        if !deltas.is_empty()
            && self.save_learning
            && let Some(file) = &l.file
        {
            match l.table.save(Path::new(file)) {
                Ok(()) => l.notes.push(format!(
                    "info string book learning '{file}': {} updated",
                    plural(deltas.len(), "move")
                )),
                Err(e) => l.notes.push(format!(
                    "info string error: cannot write book learn file '{file}': {e}; \
                     learning kept in memory"
                )),
            }
        }
        l.chosen.clear();
        l.plies.clear();
        l.start = None;
        l.result = None;
        l.game += 1;
    }

    /// The path of the loaded book.
    pub fn path(&self) -> Option<&str> {
        self.book.as_ref().map(|(_, p)| p.as_str())
    }

    /// The book move to play now, if `OwnBook` is on, a book is loaded, the game is within
    /// `BookDepth` and the position has a book move among `allowed` (all when empty).
    /// With `BookLearning` on, the weights count with what was learned, and the move is
    /// remembered for learning.
    pub fn pick<R: Rng + ?Sized>(
        &mut self,
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
        if !self.learning.on {
            return book.choose(pos, allowed, choice, rng);
        }
        let mut moves = book.moves(pos);
        // A choice the book offered, though `searchmoves` may have narrowed it.
        let choice_offered = moves.len() > 1;
        if !allowed.is_empty() {
            moves.retain(|b| allowed.contains(&b.mv));
        }
        let learned = self.learned(pos, &moves);
        let mv = choose_learned(&moves, &learned, choice, rng)?;
        self.learning.chosen.push(BookPlay {
            ply: pos.game_ply() as u32,
            key: polyglot::key(pos),
            code: polyglot::encode_move(mv),
            white: pos.turn() == Color::White,
            choice: choice_offered,
        });
        Some(mv)
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
    fn learning_from_a_game_seen_through_positions_and_scores() {
        let mut player = BookPlayer {
            enabled: true,
            best_move: true,
            book: Some((start_book(), "/nonexistent/test.bin".into())),
            ..BookPlayer::new(false)
        };
        player.set_learning(true);
        assert!(player.take_notes()[0].ends_with("nothing learned yet"));
        let start = Position::startpos();
        let line = |uci: &str| -> (Vec<Move>, Position) {
            let mut pos = start.clone();
            let mut moves = Vec::new();
            for t in uci.split_whitespace() {
                let m = pos.parse_uci_move(t).unwrap();
                pos.make(m);
                moves.push(m);
            }
            (moves, pos)
        };
        let e4 = start.parse_uci_move("e2e4").unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        assert_eq!(player.pick(&start, &[], &mut rng), Some(e4));
        // 1. e4 a6, out of the book; twelve plies in, the engine (White) scores -500.
        let game = "e2e4 a7a6 g1f3 a7a5 f3g1 a5a4 g1f3 h7h6 f3g1 h6h5 g1f3 h5h4";
        let game = game.replace("a7a5", "a6a5");
        let (moves, pos) = line(&game);
        player.see_game(&start, &moves[..2]);
        player.see_game(&start, &moves);
        player.score_sink(&pos).unwrap().record(-500);
        // A ponder miss (the last ply replaced) and a takeback are the same game.
        let (missed, _) = line(&game.replace("h5h4", "g7g6"));
        player.see_game(&start, &missed);
        player.see_game(&start, &moves[..10]);
        player.see_game(&start, &moves);
        assert!(player.learning.table.is_empty());
        // A game from the start again: the last one is learned from (its score: no result).
        player.see_game(&start, &[]);
        let learned = player
            .learning
            .table
            .get(polyglot::key(&start), polyglot::encode_move(e4));
        let want = (100.0 * learn::score_value(-500)).round() as i32;
        assert_eq!((learned.learn, learned.games), (want, 1));
        assert!(want < -60);
        // Not written (this player keeps learning in memory), and the choice follows it.
        assert!(player.take_notes().is_empty());
        let shares = learned_shares(
            &book_moves(&player),
            &player.learned(&start, &book_moves(&player)),
        );
        assert!(shares[0] < 0.6 && shares[0] > 0.3, "{shares:?}");
        // The search of another game's position reports nothing into this one.
        let old = player.score_sink(&pos).unwrap();
        player.end_game();
        old.record(9000);
        player.end_game();
        assert_eq!(
            player
                .learning
                .table
                .get(polyglot::key(&start), polyglot::encode_move(e4)),
            learned
        );
    }

    fn book_moves(player: &BookPlayer) -> Vec<BookMove> {
        player.book.as_ref().unwrap().0.moves(&Position::startpos())
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
