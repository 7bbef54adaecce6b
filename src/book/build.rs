//! Building a Polyglot book from PGN games (`nullwindow book build`).
//!
//! Every (position, move) pair of the first `max_ply` plies of each game is counted once per
//! game, and scored from the mover's view: 2 for a win, 1 for a draw or an unknown result
//! (`*`, so that opening collections without results still make a book), 0 for a loss. A
//! move's weight is the sum of its scores. Pairs seen in fewer than `min_games` games are
//! dropped; so are moves of weight 0 where the position has a move of positive weight (where
//! every move lost, they stay, and are played evenly). Weights above 65535 are scaled down per
//! position, keeping every positive weight at least 1.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::pgn::{self, Game, Outcome};
use super::polyglot::{self, ENTRY_BYTES, Entry};
use crate::position::Color;

/// Settings of a book build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Plies of each game that go into the book.
    pub max_ply: u32,
    /// Fewest games a move must be played in to stay.
    pub min_games: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_ply: 24,
            min_games: 1,
        }
    }
}

/// What a build read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Games used.
    pub games: usize,
    /// Games skipped because they could not be played out (bad FEN, illegal move, variant).
    pub skipped: usize,
    /// The first few reasons for skipping, as `game N: reason`.
    pub first_errors: Vec<String>,
    /// Positions in the book.
    pub positions: usize,
    /// Entries in the book.
    pub entries: usize,
}

/// How many skip reasons a report keeps.
const KEPT_ERRORS: usize = 5;

/// Counts of one (position, move) pair.
#[derive(Clone, Copy, Debug, Default)]
struct MoveStats {
    games: u32,
    score: u64,
}

/// Collects games; [`Builder::finish`] turns them into sorted book entries.
#[derive(Debug, Default)]
pub struct Builder {
    opts: BuildOptions,
    stats: HashMap<(u64, u16), MoveStats>,
    report: BuildReport,
    /// Games offered so far (numbering in error messages).
    seen: usize,
}

impl Builder {
    /// An empty builder.
    pub fn new(opts: BuildOptions) -> Builder {
        Builder {
            opts,
            ..Builder::default()
        }
    }

    /// Adds every game of a PGN text.
    pub fn add_pgn(&mut self, text: &str) {
        for game in pgn::read_games(text) {
            self.add_game(&game);
        }
    }

    /// Adds one game, or counts it as skipped if it cannot be played out.
    pub fn add_game(&mut self, game: &Game) {
        self.seen += 1;
        let (mut pos, moves) = match game.play() {
            Ok(played) => played,
            Err(e) => {
                self.report.skipped += 1;
                if self.report.first_errors.len() < KEPT_ERRORS {
                    self.report
                        .first_errors
                        .push(format!("game {}: {e}", self.seen));
                }
                return;
            }
        };
        self.report.games += 1;
        let outcome = game.outcome();
        let mut this_game = HashSet::new();
        for &m in moves.iter().take(self.opts.max_ply as usize) {
            let score = match (outcome, pos.turn()) {
                (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 2,
                (Outcome::WhiteWins, Color::Black) | (Outcome::BlackWins, Color::White) => 0,
                (Outcome::Draw | Outcome::Unknown, _) => 1,
            };
            let pair = (polyglot::key(&pos), polyglot::encode_move(m));
            if this_game.insert(pair) {
                let s = self.stats.entry(pair).or_default();
                s.games = s.games.saturating_add(1);
                s.score = s.score.saturating_add(score);
            }
            pos.make(m);
            pos.clear_undo();
        }
    }

    /// The book entries, sorted by key (then weight, highest first, then move), and the report.
    pub fn finish(self) -> (Vec<Entry>, BuildReport) {
        let mut report = self.report;
        let mut by_key: HashMap<u64, Vec<(u16, u64)>> = HashMap::new();
        for ((key, mv), s) in self.stats {
            if s.games >= self.opts.min_games {
                by_key.entry(key).or_default().push((mv, s.score));
            }
        }
        let mut entries = Vec::new();
        for (key, mut moves) in by_key {
            if moves.iter().any(|&(_, w)| w > 0) {
                moves.retain(|&(_, w)| w > 0);
            }
            let max = moves.iter().map(|&(_, w)| w).max().unwrap_or(0);
            for (mv, w) in moves {
                let weight = if max > u64::from(u16::MAX) {
                    // Scaled to fit, a positive weight never becoming 0.
                    (w * u64::from(u16::MAX) / max).max(u64::from(w > 0))
                } else {
                    w
                };
                entries.push(Entry {
                    key,
                    mv,
                    weight: u16::try_from(weight).unwrap_or(u16::MAX),
                    learn: 0,
                });
            }
        }
        entries.sort_by(|a, b| {
            (a.key, std::cmp::Reverse(a.weight), a.mv).cmp(&(
                b.key,
                std::cmp::Reverse(b.weight),
                b.mv,
            ))
        });
        report.entries = entries.len();
        report.positions = entries.windows(2).filter(|w| w[0].key != w[1].key).count()
            + usize::from(!entries.is_empty());
        (entries, report)
    }
}

/// Builds the entries of a book from a PGN text.
pub fn build_from_pgn(text: &str, opts: BuildOptions) -> (Vec<Entry>, BuildReport) {
    let mut b = Builder::new(opts);
    b.add_pgn(text);
    b.finish()
}

/// The bytes of a book file (entries must already be sorted).
pub fn book_bytes(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * ENTRY_BYTES);
    for e in entries {
        out.extend_from_slice(&e.to_bytes());
    }
    out
}

/// Writes a book file.
pub fn write_book(path: &Path, entries: &[Entry]) -> std::io::Result<()> {
    std::fs::write(path, book_bytes(entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;
    use crate::position::Position;

    fn weights(book: &Book, moves: &str) -> Vec<(String, u32)> {
        let mut pos = Position::startpos();
        for mv in moves.split_whitespace() {
            let m = pos.parse_uci_move(mv).unwrap();
            pos.make(m);
        }
        book.moves(&pos)
            .iter()
            .map(|b| (pos.move_to_uci(b.mv), b.weight))
            .collect()
    }

    #[test]
    fn scores_from_the_movers_view() {
        let pgn = "1. e4 e5 2. Nf3 1-0\n1. e4 c5 0-1\n1. d4 d5 1/2-1/2\n1. e4 e5 *\n";
        let (entries, report) = build_from_pgn(pgn, BuildOptions::default());
        assert_eq!(report.games, 4);
        assert_eq!(report.skipped, 0);
        let book = Book::from_entries(entries).unwrap();
        // e4: win 2 + loss 0 + unknown 1 = 3; d4: draw 1. Highest weight first.
        assert_eq!(
            weights(&book, ""),
            [("e2e4".to_string(), 3), ("d2d4".to_string(), 1)]
        );
        // After e4, for Black: e5 lost once (0) and unknown once (1); c5 won (2).
        assert_eq!(
            weights(&book, "e2e4"),
            [("c7c5".to_string(), 2), ("e7e5".to_string(), 1)]
        );
        // Nf3 only won: weight 2.
        assert_eq!(weights(&book, "e2e4 e7e5"), [("g1f3".to_string(), 2)]);
        assert_eq!(report.positions, 4);
        assert_eq!(report.entries, 6);
    }

    #[test]
    fn zero_weights_min_games_and_max_ply() {
        // After d4: d5 always lost for Black (weight 0) next to Nf6 (a draw): d5 goes. After
        // e4 the only move, c5, always lost: it stays.
        let pgn = "1. d4 d5 1-0\n1. d4 Nf6 1/2-1/2\n1. e4 c5 1-0\n";
        let (entries, _) = build_from_pgn(pgn, BuildOptions::default());
        let book = Book::from_entries(entries).unwrap();
        assert_eq!(weights(&book, "d2d4"), [("g8f6".to_string(), 1)]);
        assert_eq!(weights(&book, "e2e4"), [("c7c5".to_string(), 0)]);

        let opts = BuildOptions {
            max_ply: 1,
            min_games: 2,
        };
        let (entries, report) = build_from_pgn(pgn, opts);
        let book = Book::from_entries(entries).unwrap();
        assert_eq!(weights(&book, ""), [("d2d4".to_string(), 3)]);
        assert!(weights(&book, "d2d4").is_empty());
        assert_eq!(report.positions, 1);
    }

    #[test]
    fn repeated_positions_count_once_per_game_and_large_weights_scale() {
        // Knights out and back twice: each (position, move) once per game.
        let game = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0\n";
        let (entries, _) = build_from_pgn(game, BuildOptions::default());
        let book = Book::from_entries(entries).unwrap();
        assert_eq!(weights(&book, ""), [("g1f3".to_string(), 2)]);

        let mut b = Builder::new(BuildOptions::default());
        b.stats.insert(
            (1, 10),
            MoveStats {
                games: 1,
                score: 200_000,
            },
        );
        b.stats.insert((1, 11), MoveStats { games: 1, score: 1 });
        b.stats.insert(
            (1, 12),
            MoveStats {
                games: 1,
                score: 100_000,
            },
        );
        let (entries, _) = b.finish();
        let w: Vec<u16> = entries.iter().map(|e| e.weight).collect();
        assert_eq!(w, [65535, 32767, 1]);
    }

    #[test]
    fn bad_games_are_counted_and_skipped() {
        let pgn = "1. e4 e5 1-0\n1. e4 e6 2. Nf3 1-0\n[Variant \"Atomic\"]\n1. e4 *\n1. e5 *\n";
        let (_, report) = build_from_pgn(pgn, BuildOptions::default());
        assert_eq!(report.games, 2);
        assert_eq!(report.skipped, 2);
        assert_eq!(report.first_errors.len(), 2);
        assert!(report.first_errors[0].starts_with("game 3: "));
        let (entries, report) = build_from_pgn("", BuildOptions::default());
        assert!(entries.is_empty());
        assert_eq!(report, BuildReport::default());
    }
}
