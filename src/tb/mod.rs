//! Syzygy endgame tablebases, probed through `shakmaty-syzygy`.
//!
//! [`Tablebases`] owns the prober and the tables found in the folders of `SyzygyPath`; it
//! answers WDL and DTZ probes for a [`Position`] and ranks the root moves of a tablebase
//! position. Results are in this module's own small types ([`Wdl`], [`RootRanking`]), so the
//! search above never sees shakmaty or shakmaty-syzygy; turning them into search scores is the
//! search's business (`search::syzygy`), since the score scale is the search's.
//!
//! Tables are opened lazily by the prober on the first probe that needs them. Loading only
//! lists the folders, checks each table file's name, size and magic bytes, and refuses files
//! that fail, so that a bad file is reported once at `setoption` time instead of failing
//! every probe in the search.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;

use crate::position::{Move, Position};

/// Separator of folders in `SyzygyPath`, as Stockfish reads it: `;` on Windows, `:` elsewhere.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Largest number of pieces (kings included) of any Syzygy table of standard chess.
pub const MAX_TB_PIECES: usize = 7;

/// Rank unit of [`RootRanking`] (Stockfish's `MAX_DTZ`): larger than any DTZ, so that every
/// win outranks every cursed win, draw and loss.
pub const MAX_DTZ: i32 = 1 << 18;

/// The first four bytes of a WDL table (`.rtbw`).
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// The first four bytes of a DTZ table (`.rtbz`).
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// A tablebase result from the side to move's view, under the 50-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost whatever the 50-move rule says.
    Loss,
    /// Lost, but saved by the 50-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but the 50-move rule draws it.
    CursedWin,
    /// Won whatever the 50-move rule says.
    Win,
}

impl Wdl {
    /// The same result from the other side's view.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    fn from_syzygy(w: shakmaty_syzygy::Wdl) -> Wdl {
        match w {
            shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => Wdl::Win,
        }
    }

    /// DTZ of a position whose best move zeroes the halfmove clock (Stockfish's
    /// `dtz_before_zeroing`): ±1 for a win or loss, ±101 for a cursed win or blessed loss.
    fn dtz_before_zeroing(self) -> i32 {
        match self {
            Wdl::Loss => -1,
            Wdl::BlessedLoss => -101,
            Wdl::Draw => 0,
            Wdl::CursedWin => 101,
            Wdl::Win => 1,
        }
    }
}

/// The folders named by a `SyzygyPath` value: split at [`PATH_SEPARATOR`], each trimmed,
/// empty entries dropped. An empty value or `<empty>` names none (tablebases off).
pub fn split_path_list(list: &str) -> Vec<PathBuf> {
    let list = list.trim();
    if list.is_empty() || list == "<empty>" {
        return Vec::new();
    }
    list.split(PATH_SEPARATOR)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// What [`Tablebases::add_directories`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// WDL table files added.
    pub wdl: usize,
    /// DTZ table files added.
    pub dtz: usize,
    /// Most pieces of any table loaded so far.
    pub max_pieces: usize,
    /// One line for each folder or file that could not be used (missing folder, unreadable
    /// file, wrong size or header); the rest were still loaded.
    pub problems: Vec<String>,
}

impl LoadReport {
    /// WDL and DTZ files added.
    pub fn tables(&self) -> usize {
        self.wdl + self.dtz
    }
}

/// The moves of a root position ranked by the tables (see [`Tablebases::rank_root_moves`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// For each move (in the order given): a larger rank is a better move. Wins outrank draws,
    /// draws outrank losses; with DTZ a faster win and a slower loss rank higher.
    pub ranks: Vec<i32>,
    /// For each move: its result for the side to move at the root, counting the halfmove
    /// clock of the root (a win the 50-move rule would reach first is a cursed win).
    pub results: Vec<Wdl>,
    /// Whether DTZ tables ranked the moves (false: only WDL tables were there).
    pub by_dtz: bool,
}

/// A set of Syzygy tables.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    /// File names of the tables added (one table found in two folders counts once).
    names: BTreeSet<String>,
    wdl: usize,
    dtz: usize,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("wdl", &self.wdl)
            .field("dtz", &self.dtz)
            .field("max_pieces", &self.max_pieces())
            .finish_non_exhaustive()
    }
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases::new()
    }
}

impl Tablebases {
    /// No tables.
    pub fn new() -> Tablebases {
        Tablebases {
            tables: Tablebase::new(),
            names: BTreeSet::new(),
            wdl: 0,
            dtz: 0,
        }
    }

    /// Adds the tables of every folder of a `SyzygyPath` value (see [`split_path_list`]).
    /// Files that are not named like tables of standard chess (`KQvKR.rtbw`, `KQvKR.rtbz`)
    /// are ignored; table files of the wrong size or with the wrong header are refused and
    /// reported, as are folders that cannot be read.
    pub fn add_directories(&mut self, list: &str) -> LoadReport {
        let mut report = LoadReport::default();
        for dir in split_path_list(list) {
            self.add_directory(&dir, &mut report);
        }
        report.wdl = self.wdl;
        report.dtz = self.dtz;
        report.max_pieces = self.max_pieces();
        report
    }

    fn add_directory(&mut self, dir: &Path, report: &mut LoadReport) {
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                report
                    .problems
                    .push(format!("cannot read folder '{}': {e}", dir.display()));
                return;
            }
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let Some(magic) = table_kind(&path) else {
                continue;
            };
            let shown = path.display();
            match check_header(&path, magic) {
                Ok(()) => {}
                Err(why) => {
                    report.problems.push(format!("'{shown}': {why}; skipped"));
                    continue;
                }
            }
            match self.tables.add_file(&path) {
                Ok(()) => {
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    if self.names.insert(name) {
                        if magic == WDL_MAGIC {
                            self.wdl += 1;
                        } else {
                            self.dtz += 1;
                        }
                    }
                }
                // Not a table name after all (e.g. `KvK.rtbw`, `KQQQQQQvK.rtbw`): ignored.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {}
                Err(e) => report.problems.push(format!("'{shown}': {e}; skipped")),
            }
        }
    }

    /// Most pieces (kings included) of any table loaded; 0 when none is.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Whether no table is loaded.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// WDL of `pos` as if its halfmove clock had just been reset (the search probes right
    /// after a capture or pawn move, where this is exact). `None` when the tables cannot say
    /// (too many pieces, castling rights, a table missing or unreadable).
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.tables
            .probe_wdl_after_zeroing(pos.chess())
            .ok()
            .map(Wdl::from_syzygy)
    }

    /// DTZ of `pos` in plies (positive: the side to move wins, negative: loses, beyond ±100:
    /// cursed or blessed), rounding of the tables ignored. `None` when the tables cannot say.
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        self.tables
            .probe_dtz(pos.chess())
            .ok()
            .map(|d| d.ignore_rounding().0)
    }

    /// Ranks `moves` (legal in `pos`) by the tables, as Stockfish's `root_probe` does with
    /// DTZ ranking on: by DTZ when the DTZ tables of every move are there, else by WDL
    /// (`root_probe_wdl`). `None` when even WDL cannot rank them all. A move that repeats a
    /// position a third time, or reaches the 50-move limit, counts as a draw. `rule50` false
    /// ranks as well, but reports cursed wins and blessed losses as wins and losses.
    pub fn rank_root_moves(
        &self,
        pos: &mut Position,
        moves: &[Move],
        rule50: bool,
    ) -> Option<RootRanking> {
        if moves.is_empty() || self.is_empty() {
            return None;
        }
        self.rank_by_dtz(pos, moves, rule50)
            .or_else(|| self.rank_by_wdl(pos, moves, rule50))
    }

    fn rank_by_dtz(&self, pos: &mut Position, moves: &[Move], rule50: bool) -> Option<RootRanking> {
        let cnt50 = pos.halfmoves() as i32;
        let mut ranks = Vec::with_capacity(moves.len());
        let mut results = Vec::with_capacity(moves.len());
        for &m in moves {
            pos.make(m);
            let dtz = if is_checkmate(pos) {
                // A mating move wins at once.
                Some(1)
            } else if pos.halfmoves() == 0 {
                // A zeroing move: the WDL table says everything.
                self.probe_wdl(pos).map(|w| w.flip().dtz_before_zeroing())
            } else if draw_by_rule(pos) {
                Some(0)
            } else {
                // The child's DTZ, one ply further from the root.
                self.probe_dtz(pos).map(|d| match -d {
                    d if d > 0 => d + 1,
                    d if d < 0 => d - 1,
                    _ => 0,
                })
            };
            pos.unmake();
            let dtz = dtz?;
            // Better moves rank higher; wins the 50-move rule does not reach first rank above
            // every cursed win, losses it does not save below every blessed loss.
            let (rank, result) = if dtz > 0 {
                if dtz + cnt50 <= 99 {
                    (MAX_DTZ - dtz, Wdl::Win)
                } else {
                    (MAX_DTZ / 2 - (dtz + cnt50), Wdl::CursedWin)
                }
            } else if dtz < 0 {
                if -dtz * 2 + cnt50 < 100 {
                    (-MAX_DTZ - dtz, Wdl::Loss)
                } else {
                    (-MAX_DTZ / 2 + (-dtz + cnt50), Wdl::BlessedLoss)
                }
            } else {
                (0, Wdl::Draw)
            };
            ranks.push(rank);
            results.push(without_rule50(result, rule50));
        }
        Some(RootRanking {
            ranks,
            results,
            by_dtz: true,
        })
    }

    fn rank_by_wdl(&self, pos: &mut Position, moves: &[Move], rule50: bool) -> Option<RootRanking> {
        let mut ranks = Vec::with_capacity(moves.len());
        let mut results = Vec::with_capacity(moves.len());
        for &m in moves {
            pos.make(m);
            let wdl = if draw_by_rule(pos) {
                Some(Wdl::Draw)
            } else {
                self.probe_wdl(pos).map(Wdl::flip)
            };
            pos.unmake();
            let wdl = wdl?;
            ranks.push(match wdl {
                Wdl::Loss => -MAX_DTZ,
                Wdl::BlessedLoss => -MAX_DTZ + 101,
                Wdl::Draw => 0,
                Wdl::CursedWin => MAX_DTZ - 101,
                Wdl::Win => MAX_DTZ,
            });
            results.push(without_rule50(wdl, rule50));
        }
        Some(RootRanking {
            ranks,
            results,
            by_dtz: false,
        })
    }
}

/// Whether the side to move is mated.
fn is_checkmate(pos: &Position) -> bool {
    pos.is_check() && pos.legal_moves().is_empty()
}

/// A draw the rules give at once: a third repetition or the 50-move limit.
fn draw_by_rule(pos: &Position) -> bool {
    // `usize::MAX`: no position counts as inside the search, so it takes a three-fold.
    pos.is_repetition(usize::MAX) || pos.is_fifty_move_draw()
}

/// `wdl` as the result counts when the 50-move rule is (`rule50`) or is not applied.
fn without_rule50(wdl: Wdl, rule50: bool) -> Wdl {
    match wdl {
        Wdl::CursedWin if !rule50 => Wdl::Win,
        Wdl::BlessedLoss if !rule50 => Wdl::Loss,
        w => w,
    }
}

/// The magic bytes a file should start with if its name is that of a table of standard chess
/// (`.rtbw` or `.rtbz`); `None` for any other file.
fn table_kind(path: &Path) -> Option<[u8; 4]> {
    if !path.is_file() {
        return None;
    }
    match path.extension()?.to_str()? {
        "rtbw" => Some(WDL_MAGIC),
        "rtbz" => Some(DTZ_MAGIC),
        _ => None,
    }
}

/// Checks that a table file starts with `magic`.
fn check_header(path: &Path, magic: [u8; 4]) -> Result<(), String> {
    let mut head = [0u8; 4];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map_err(|e| format!("cannot read: {e}"))?;
    if head == magic {
        Ok(())
    } else {
        Err("not a Syzygy table (wrong header)".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_lists_split_like_stockfish() {
        assert!(split_path_list("").is_empty());
        assert!(split_path_list("  <empty> ").is_empty());
        let sep = PATH_SEPARATOR;
        let list = format!(" /a/b {sep}{sep} /c {sep}");
        assert_eq!(
            split_path_list(&list),
            vec![PathBuf::from("/a/b"), PathBuf::from("/c")]
        );
    }

    #[test]
    fn flip_is_an_involution() {
        for w in [
            Wdl::Loss,
            Wdl::BlessedLoss,
            Wdl::Draw,
            Wdl::CursedWin,
            Wdl::Win,
        ] {
            assert_eq!(w.flip().flip(), w);
            assert_eq!(w.dtz_before_zeroing(), -w.flip().dtz_before_zeroing());
        }
    }

    #[test]
    fn rule50_off_counts_cursed_wins_as_wins() {
        assert_eq!(without_rule50(Wdl::CursedWin, false), Wdl::Win);
        assert_eq!(without_rule50(Wdl::BlessedLoss, false), Wdl::Loss);
        assert_eq!(without_rule50(Wdl::CursedWin, true), Wdl::CursedWin);
    }
}
