//! `nullwindow datagen`: self-play games that label quiet positions for tuning.
//!
//! Each game starts from a random line of an opening file (the choice seeded by `--seed` and
//! the game number, so game *n* is the same whatever the thread count) and is played by the
//! engine against itself at a fixed node count (or depth) per move, with a fresh table per
//! game. A game ends by the rules (mate, stalemate, threefold repetition, fifty moves,
//! insufficient material), by a mate score, or by adjudication:
//! - resign: both sides' scores at least [`RESIGN_SCORE`] for the same side on
//!   [`RESIGN_PLIES`] plies in a row;
//! - draw: after [`DRAW_AFTER_PLY`] plies, [`DRAW_PLIES`] plies in a row within
//!   ±[`DRAW_SCORE`];
//! - length: [`MAX_PLIES`] plies is a draw.
//!
//! A position is kept when it is quiet: the side to move is not in check, the move played is
//! neither a capture nor a promotion, the score is not a mate score, and the static evaluation
//! is within `--margin` of the quiescence value. Kept positions are written once the game is
//! over, labelled with its result from White's view and the score of the move's search (EPD
//! `ce`: centipawns, side to move's view), in the tuning format:
//! `<placement> <side> <castling> <ep> c9 "1-0"; ce 35;`.

pub mod format;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::eval::evaluate;
use crate::limits::SearchLimits;
use crate::position::{Color, Position};
use crate::search::{MATE_IN_MAX, SearchControl, SearchOptions, Searcher, SilentReporter};

/// Score (centipawns) both sides must see for the same side to adjudicate a win.
pub const RESIGN_SCORE: i32 = 1000;
/// Plies in a row the resign score must hold.
pub const RESIGN_PLIES: usize = 6;
/// Score (centipawns) within which a game counts as dead drawn.
pub const DRAW_SCORE: i32 = 10;
/// Plies in a row the draw score must hold.
pub const DRAW_PLIES: usize = 12;
/// No draw adjudication before this many plies of the game.
pub const DRAW_AFTER_PLY: usize = 80;
/// A game this long is a draw.
pub const MAX_PLIES: usize = 400;

/// How each move is searched and which positions are kept.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Nodes per move (ignored when `depth` is set).
    pub nodes: u64,
    /// Fixed depth per move instead of a node count.
    pub depth: Option<u32>,
    /// Keep a position only if |static eval − quiescence value| ≤ this.
    pub quiet_margin: i32,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            nodes: 5000,
            depth: None,
            quiet_margin: 40,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Checkmate on the board.
    Checkmate,
    /// Stalemate, repetition, fifty moves or insufficient material.
    DrawByRule,
    /// A search found a forced mate.
    MateScore,
    /// Both sides agreed one side is winning.
    Resign,
    /// Both sides agreed the score is level.
    DrawAdjudicated,
    /// [`MAX_PLIES`] reached.
    TooLong,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Result from White's view: 1, 0.5 or 0.
    pub result: f32,
    /// How it ended.
    pub ending: Ending,
    /// Plies played.
    pub plies: usize,
    /// The kept positions as 4-field FENs, each with its search score (centipawns, side to
    /// move's view).
    pub positions: Vec<(String, i32)>,
}

impl GameRecord {
    /// The result as PGN writes it.
    pub fn result_text(&self) -> &'static str {
        if self.result > 0.75 {
            "1-0"
        } else if self.result < 0.25 {
            "0-1"
        } else {
            "1/2-1/2"
        }
    }

    /// The kept positions as labelled EPD lines (no line ends).
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        let r = self.result_text();
        self.positions
            .iter()
            .map(move |(f, score)| format!("{f} c9 \"{r}\"; ce {score};"))
    }
}

/// The first four fields of a FEN.
fn fen4(pos: &Position) -> String {
    pos.fen()
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A win for the side `c`, from White's view.
fn win_for(c: Color) -> f32 {
    if c == Color::White { 1.0 } else { 0.0 }
}

/// Plays one game from `opening` with `searcher` (its tables cleared first).
pub fn play_game(opening: &Position, cfg: &GameConfig, searcher: &mut Searcher) -> GameRecord {
    searcher.new_game();
    let mut pos = opening.clone();
    let limits = SearchLimits {
        nodes: cfg.depth.is_none().then_some(cfg.nodes.max(1)),
        depth: cfg.depth,
        ..Default::default()
    };
    let opts = SearchOptions::default();
    let ctl = SearchControl::default();
    let mut positions = Vec::new();
    let (mut resign_run, mut resign_side, mut draw_run) = (0, Color::White, 0);
    let mut plies = 0;
    let (result, ending) = loop {
        let us = pos.turn();
        if pos.legal_moves().is_empty() {
            break if pos.is_check() {
                (win_for(!us), Ending::Checkmate)
            } else {
                (0.5, Ending::DrawByRule)
            };
        }
        if pos.is_insufficient_material()
            || pos.is_fifty_move_draw()
            || pos.is_repetition(pos.game_ply())
        {
            break (0.5, Ending::DrawByRule);
        }
        if plies >= MAX_PLIES {
            break (0.5, Ending::TooLong);
        }
        let r = searcher.search(&pos, &limits, &opts, &ctl, &mut SilentReporter);
        let Some(best) = r.best else {
            break (0.5, Ending::DrawByRule);
        };
        if r.score.abs() >= MATE_IN_MAX {
            break (
                win_for(if r.score > 0 { us } else { !us }),
                Ending::MateScore,
            );
        }
        let white_score = if us == Color::White {
            r.score
        } else {
            -r.score
        };

        // Adjudication.
        if white_score.abs() >= RESIGN_SCORE {
            let side = if white_score > 0 {
                Color::White
            } else {
                Color::Black
            };
            resign_run = if resign_run > 0 && side == resign_side {
                resign_run + 1
            } else {
                1
            };
            resign_side = side;
            if resign_run >= RESIGN_PLIES {
                break (win_for(side), Ending::Resign);
            }
        } else {
            resign_run = 0;
        }
        draw_run = if white_score.abs() <= DRAW_SCORE {
            draw_run + 1
        } else {
            0
        };
        if plies >= DRAW_AFTER_PLY && draw_run >= DRAW_PLIES {
            break (0.5, Ending::DrawAdjudicated);
        }

        // Keep quiet positions.
        if !pos.is_check() && !best.is_capture() && best.promotion().is_none() {
            let q = searcher.quiescence_value(&pos);
            if (evaluate(&pos) - q).abs() <= cfg.quiet_margin {
                positions.push((fen4(&pos), r.score));
            }
        }
        pos.make(best);
        plies += 1;
    };
    GameRecord {
        result,
        ending,
        plies,
        positions,
    }
}

/// Settings of a datagen run.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// Opening positions, one FEN a line.
    pub openings: String,
    /// Games to play.
    pub games: usize,
    /// Output file (overwritten).
    pub out: String,
    /// Worker threads, each with its own searcher.
    pub threads: usize,
    /// Seed of the opening choice.
    pub seed: u64,
    /// Transposition table per thread (MB).
    pub hash_mb: usize,
    /// Search and selection settings.
    pub game: GameConfig,
}

impl Default for DatagenOptions {
    fn default() -> Self {
        DatagenOptions {
            openings: String::new(),
            games: 100,
            out: "datagen.epd".to_string(),
            threads: 1,
            seed: 1,
            hash_mb: 8,
            game: GameConfig::default(),
        }
    }
}

/// What a datagen run produced.
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Games won by White, drawn, won by Black.
    pub wdl: [usize; 3],
    /// Positions written with the labels 1-0, 1/2-1/2, 0-1.
    pub positions_by_result: [usize; 3],
    /// Plies over all games.
    pub plies: usize,
}

/// Usage text of the `datagen` subcommand.
pub const USAGE: &str = "\
usage: nullwindow datagen --openings FILE [options]

  --openings FILE   opening positions, one FEN (or EPD) a line; one is picked at random per game
  --games N         games to play (default 100)
  --out FILE        labelled quiet positions, '<FEN> c9 \"1-0\"; ce 35;' (result from White's
                    view, search score from the side to move's; default datagen.epd)
  --threads N       games played in parallel (default 1)
  --seed S          seed of the opening choice (default 1); game n is the same for any thread count
  --nodes N         nodes per move (default 5000)
  --depth D         fixed depth per move instead of nodes
  --hash MB         transposition table per thread (default 8)
  --margin CP       keep positions whose static eval is within CP of the quiescence value (default 40)
  -h, --help        this text";

/// Parses the arguments of `datagen`; `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<DatagenOptions>, String> {
    let mut o = DatagenOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        if matches!(key, "-h" | "--help") {
            return Ok(None);
        }
        let v = inline
            .or_else(|| it.next().cloned())
            .ok_or_else(|| format!("{key} needs a value"))?;
        let num = |v: &str| -> Result<u64, String> {
            v.parse::<u64>()
                .map_err(|_| format!("{key}: '{v}' is not a whole number"))
        };
        match key {
            "--openings" => o.openings = v,
            "--out" => o.out = v,
            "--games" => o.games = num(&v)? as usize,
            "--threads" => o.threads = (num(&v)? as usize).max(1),
            "--seed" => o.seed = num(&v)?,
            "--nodes" => o.game.nodes = num(&v)?.max(1),
            "--depth" => o.game.depth = Some((num(&v)? as u32).clamp(1, 64)),
            "--hash" => o.hash_mb = (num(&v)? as usize).clamp(1, 4096),
            "--margin" => o.game.quiet_margin = num(&v)?.min(10_000) as i32,
            _ => return Err(format!("unknown option '{a}'\n\n{USAGE}")),
        }
    }
    if o.openings.is_empty() {
        return Err(format!("--openings FILE is required\n\n{USAGE}"));
    }
    Ok(Some(o))
}

/// The FEN of an opening line: 6 fields if the move counters are there, else 4 (EPD
/// operations after them are ignored).
fn opening_fen(line: &str) -> Option<String> {
    let fields: Vec<&str> = line.split(';').next()?.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    let counters =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    Some(fields[..if counters { 6 } else { 4 }].join(" "))
}

/// A generator of game seeds: splitmix64 of the run seed and the game number.
fn game_seed(seed: u64, game: usize) -> u64 {
    let mut z = seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Picks the opening of game `game`: a random line, retried if it is not a playable position.
fn pick_opening(lines: &[&str], seed: u64, game: usize) -> Option<Position> {
    let mut rng = StdRng::seed_from_u64(game_seed(seed, game));
    for _ in 0..100 {
        let line = lines[rng.random_range(0..lines.len())];
        if let Some(p) = opening_fen(line).and_then(|f| Position::from_fen(&f, false).ok())
            && !p.legal_moves().is_empty()
        {
            return Some(p);
        }
    }
    None
}

/// Plays the games of `o` and writes the kept positions; `progress` receives the summary
/// after each game (from whichever thread finished it).
pub fn run(
    o: &DatagenOptions,
    progress: &(dyn Fn(&DatagenSummary) + Sync),
) -> Result<DatagenSummary, String> {
    let text =
        std::fs::read(&o.openings).map_err(|e| format!("cannot read {}: {e}", o.openings))?;
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return Err(format!("{} holds no positions", o.openings));
    }
    let file = File::create(&o.out).map_err(|e| format!("cannot create {}: {e}", o.out))?;
    let out = Mutex::new((BufWriter::new(file), DatagenSummary::default()));
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);

    std::thread::scope(|s| {
        for _ in 0..o.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(o.hash_mb);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= o.games {
                        break;
                    }
                    let Some(opening) = pick_opening(&lines, o.seed, g) else {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some(format!("no playable opening found in {}", o.openings));
                        break;
                    };
                    let rec = play_game(&opening, &o.game, &mut searcher);
                    let mut guard = out.lock().unwrap_or_else(|e| e.into_inner());
                    let (w, sum) = &mut *guard;
                    let mut written = 0;
                    for line in rec.lines() {
                        if let Err(e) = writeln!(w, "{line}") {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(format!("cannot write {}: {e}", o.out));
                            return;
                        }
                        written += 1;
                    }
                    let r = match rec.result_text() {
                        "1-0" => 0,
                        "0-1" => 2,
                        _ => 1,
                    };
                    sum.games += 1;
                    sum.wdl[r] += 1;
                    sum.positions += written;
                    sum.positions_by_result[r] += written;
                    sum.plies += rec.plies;
                    progress(sum);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let (mut w, sum) = out.into_inner().unwrap_or_else(|e| e.into_inner());
    w.flush()
        .map_err(|e| format!("cannot write {}: {e}", o.out))?;
    Ok(sum)
}

/// `nullwindow datagen ...`: plays the games, prints progress, writes the positions.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let Some(o) = parse_args(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    let start = Instant::now();
    let every = (o.games / 20).max(1);
    let report = |s: &DatagenSummary| {
        if s.games.is_multiple_of(every) || s.games == o.games {
            println!(
                "games {:6}/{}  positions {:8}  +{} ={} -{}  {:.1} games/s",
                s.games,
                o.games,
                s.positions,
                s.wdl[0],
                s.wdl[1],
                s.wdl[2],
                s.games as f64 / start.elapsed().as_secs_f64().max(1e-9)
            );
        }
    };
    let sum = run(&o, &report)?;
    println!(
        "wrote {} positions from {} games ({:.1} plies a game) to {} in {:.1} s",
        sum.positions,
        sum.games,
        sum.plies as f64 / sum.games.max(1) as f64,
        o.out,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_lines() {
        assert_eq!(
            opening_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(
            opening_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";")
                .as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -")
        );
        assert_eq!(opening_fen("8/8 w"), None);
    }

    #[test]
    fn game_seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }

    #[test]
    fn args_are_checked() {
        let a = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse_args(&a("--openings o.epd --games 3 --nodes=700 --seed 9"))
            .expect("parse")
            .expect("options");
        assert_eq!((o.games, o.game.nodes, o.seed), (3, 700, 9));
        assert!(parse_args(&a("--games 3")).is_err());
        assert!(parse_args(&a("--openings o --games x")).is_err());
        assert!(parse_args(&a("--openings o --bogus 1")).is_err());
    }
}
