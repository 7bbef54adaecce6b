//! `nullwindow datagen`: self-play games that label positions for the NNUE trainer (and, via
//! `inspect --to-epd`, for the Texel tuner).
//!
//! Game *n* of a run is a function of the seed and *n* alone: its opening (random legal plies
//! from the start position, or a random line of an EPD book, then the random plies), and the
//! games themselves (the engine against itself, a fresh table per game, a soft node limit per
//! move). Games are written in game order whatever the thread count, so a run is the same
//! file for a seed, and a run that was interrupted resumes where its last whole game ended.
//!
//! A game ends by the rules (mate, stalemate, threefold repetition, fifty moves, insufficient
//! material), by a mate score, or by adjudication:
//! - resign: the score at least [`RESIGN_SCORE`] for the same side on [`RESIGN_PLIES`] plies
//!   in a row;
//! - draw: after [`DRAW_AFTER_PLY`] plies, [`DRAW_PLIES`] plies in a row within
//!   ±[`DRAW_SCORE`];
//! - length: [`MAX_PLIES`] plies is a draw.
//!
//! A position is kept when the side to move is not in check, the move played is neither a
//! capture nor a promotion, and the score is not a mate score (optionally also when its static
//! evaluation is within `--margin` of its quiescence value). Kept positions are labelled with
//! the search score and the game's result, in the binary format of [`format`](mod@format).

pub mod distill;
pub mod format;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::eval::evaluate;
use crate::limits::SearchLimits;
use crate::nnue::Network;
use crate::position::{Color, Move, Position};
use crate::search::{MATE_IN_MAX, SearchControl, SearchOptions, Searcher, SilentReporter};
use format::{RECORD_SIZE, Record, Wdl};

/// Score (centipawns) the search must see for the same side to adjudicate a win.
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
/// Default transposition table per thread (MB).
pub const DEFAULT_HASH_MB: usize = 8;
/// The hard node limit is this many times the soft one.
pub const HARD_NODES_FACTOR: u64 = 8;

/// How each move is searched and which positions are kept.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Soft node limit per move: no new iteration after this many nodes (the hard limit is
    /// [`HARD_NODES_FACTOR`] times it). Ignored when `depth` is set.
    pub nodes: u64,
    /// Fixed depth per move instead of a node count.
    pub depth: Option<u32>,
    /// Soft node limit for a position that is expected not to be kept (the side to move is in
    /// check, or the previous search expected a capture or promotion here); `None`: `nodes`.
    /// A position so searched whose best move turns out quiet is searched again with `nodes`
    /// (the table still warm), so every kept label comes from a full search.
    pub noisy_nodes: Option<u64>,
    /// Keep a position only if |static eval − quiescence value| ≤ this (None: no such filter).
    pub quiet_margin: Option<i32>,
    /// The evaluation the games are played with (`None`: hand-crafted).
    pub net: Option<Arc<Network>>,
    /// What `net` is, for the resume check ("hce", "nnue" for the embedded net, or a path).
    pub eval_name: String,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            nodes: 5000,
            depth: None,
            noisy_nodes: None,
            quiet_margin: None,
            net: crate::nnue::default_net(),
            eval_name: if crate::nnue::USE_BY_DEFAULT {
                "nnue".to_string()
            } else {
                "hce".to_string()
            },
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
    /// One side's score stayed decisive.
    Resign,
    /// The score stayed level.
    DrawAdjudicated,
    /// [`MAX_PLIES`] reached.
    TooLong,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Result from White's view.
    pub result: Wdl,
    /// How it ended.
    pub ending: Ending,
    /// Plies played.
    pub plies: usize,
    /// Nodes searched to play the game (not counting the opening's check).
    pub nodes: u64,
    /// The kept positions, labelled with the search score and the game's result.
    pub positions: Vec<Record>,
}

impl GameRecord {
    /// The result as PGN writes it.
    pub fn result_text(&self) -> &'static str {
        self.result.text()
    }

    /// The kept positions as labelled EPD lines (no line ends), the tuner's format.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.positions.iter().map(Record::epd)
    }
}

/// A move that leaves a position worth keeping: neither a capture nor a promotion.
fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// A win for the side `c`.
fn win_for(c: Color) -> Wdl {
    if c == Color::White {
        Wdl::WhiteWin
    } else {
        Wdl::BlackWin
    }
}

/// The search of self-play: the default techniques with evaluation `net`, but without
/// `matscale`. The kept scores teach the next network its own raw output; scaled by material
/// here, each generation would learn the scaling the engine then applies again on top.
pub fn search_options(net: &Option<Arc<Network>>) -> SearchOptions {
    let mut opts = SearchOptions {
        net: net.clone(),
        ..Default::default()
    };
    opts.features.mat_scale = false;
    opts
}

/// Plays one game from `opening` with `searcher` (its tables cleared first).
pub fn play_game(opening: &Position, cfg: &GameConfig, searcher: &mut Searcher) -> GameRecord {
    searcher.new_game();
    let mut pos = opening.clone();
    let soft = cfg.nodes.max(1);
    let limits = SearchLimits {
        nodes: cfg
            .depth
            .is_none()
            .then_some(soft.saturating_mul(HARD_NODES_FACTOR)),
        soft_nodes: cfg.depth.is_none().then_some(soft),
        depth: cfg.depth,
        ..Default::default()
    };
    // The cheaper search of a position that is expected not to be kept.
    let noisy_limits = cfg.noisy_nodes.filter(|_| cfg.depth.is_none()).map(|n| {
        let n = n.clamp(1, soft);
        SearchLimits {
            nodes: Some(n.saturating_mul(HARD_NODES_FACTOR)),
            soft_nodes: Some(n),
            ..Default::default()
        }
    });
    let opts = search_options(&cfg.net);
    let ctl = SearchControl::default();
    // The reply the previous search expected: a capture or promotion there foretells a
    // position whose best move is noisy.
    let mut expected: Option<Move> = None;
    // Labelled as a draw until the game's result is known.
    let mut kept: Vec<Record> = Vec::new();
    let (mut resign_run, mut resign_side, mut draw_run) = (0, Color::White, 0);
    let mut plies = 0;
    let mut nodes = 0;
    let (result, ending) = loop {
        let us = pos.turn();
        if pos.legal_moves().is_empty() {
            break if pos.is_check() {
                (win_for(!us), Ending::Checkmate)
            } else {
                (Wdl::Draw, Ending::DrawByRule)
            };
        }
        if pos.is_insufficient_material()
            || pos.is_fifty_move_draw()
            || pos.is_repetition(pos.game_ply())
        {
            break (Wdl::Draw, Ending::DrawByRule);
        }
        if plies >= MAX_PLIES {
            break (Wdl::Draw, Ending::TooLong);
        }
        let in_check = pos.is_check();
        let noisy_guess = in_check || expected.is_some_and(|m| !is_quiet(m));
        let mut r = searcher.search(
            &pos,
            noisy_limits
                .as_ref()
                .filter(|_| noisy_guess)
                .unwrap_or(&limits),
            &opts,
            &ctl,
            &mut SilentReporter,
        );
        nodes += r.nodes;
        if noisy_guess
            && noisy_limits.is_some()
            && !in_check
            && r.score.abs() < MATE_IN_MAX
            && r.best.is_some_and(is_quiet)
        {
            // Guessed wrong: a position to keep, so it gets the full search (the table warm).
            r = searcher.search(&pos, &limits, &opts, &ctl, &mut SilentReporter);
            nodes += r.nodes;
        }
        expected = r.ponder.take();
        let Some(best) = r.best else {
            break (Wdl::Draw, Ending::DrawByRule);
        };
        if r.score.abs() >= MATE_IN_MAX {
            let winner = if r.score > 0 { us } else { !us };
            break (win_for(winner), Ending::MateScore);
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
            break (Wdl::Draw, Ending::DrawAdjudicated);
        }

        // Keep quiet positions.
        if !in_check && is_quiet(best) {
            let quiet = match cfg.quiet_margin {
                None => true,
                Some(m) => (evaluate(&pos) - searcher.quiescence_value(&pos)).abs() <= m,
            };
            if quiet {
                kept.push(Record::from_position(&pos, r.score, Wdl::Draw));
            }
        }
        pos.make(best);
        plies += 1;
    };
    GameRecord {
        result,
        ending,
        plies,
        nodes,
        positions: kept.into_iter().map(|r| Record { result, ..r }).collect(),
    }
}

/// Settings of a datagen run.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// Opening lines (one FEN or EPD a line), or None: the start position.
    pub openings: Option<String>,
    /// Random legal plies played from the opening: `random_plies` or one more, chosen per game.
    pub random_plies: u32,
    /// Openings whose short search is beyond ± this many centipawns are drawn again.
    pub opening_max_score: i32,
    /// Games of the run (for its seed), counting games written by earlier, interrupted runs.
    pub games: usize,
    /// Output file (appended to; created with its header when missing).
    pub out: String,
    /// Worker threads, each with its own searcher.
    pub threads: usize,
    /// Seed of the run.
    pub seed: u64,
    /// Transposition table per thread (MB).
    pub hash_mb: usize,
    /// Search and selection settings.
    pub game: GameConfig,
}

impl Default for DatagenOptions {
    fn default() -> Self {
        DatagenOptions {
            openings: None,
            random_plies: 8,
            opening_max_score: 400,
            games: 100,
            out: "datagen.bin".to_string(),
            threads: 1,
            seed: 1,
            hash_mb: DEFAULT_HASH_MB,
            game: GameConfig::default(),
        }
    }
}

/// What a datagen run produced (this invocation's games, not the resumed ones).
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    /// Games of the run written so far (including those of earlier invocations).
    pub games_total: usize,
    /// Games played by this invocation.
    pub games: usize,
    /// Positions written by this invocation.
    pub positions: usize,
    /// Games won by White, drawn, won by Black.
    pub wdl: [usize; 3],
    /// Positions written with the labels 1-0, 1/2-1/2, 0-1.
    pub positions_by_result: [usize; 3],
    /// Plies over all games.
    pub plies: usize,
    /// Nodes searched to play the games.
    pub nodes: u64,
}

/// Usage text of the `datagen` subcommand.
pub const USAGE: &str = "\
usage: nullwindow datagen [options]
       nullwindow datagen inspect FILE [--head N] [--to-epd OUT]
       nullwindow datagen distill IN --net NET --out OUT [--copies K] [--plies P] [--seed S]

Plays the engine against itself and appends labelled positions to a binary file
(docs/datagen-format.md). Rerun the same command after an interrupt: it resumes.

  --out FILE          binary output, appended to (default datagen.bin); FILE.progress
                      records the run's seed, settings and games written
  --games N           games in the run for this seed (default 100)
  --threads N         games played in parallel (default 1)
  --seed S            seed (default 1); the file is the same for a seed whatever the threads
  --nodes N           soft node limit per move (default 5000; hard limit 8x)
  --depth D           fixed depth per move instead of nodes
  --noisy-nodes N     soft node limit for a position expected not to be kept (in check,
                      or the previous search expected a capture or promotion there); one
                      whose best move is quiet after all is searched again with --nodes
                      (default: --nodes for every position)
  --random-plies P    random legal plies from the opening: P or P+1 (default 8)
  --opening-max CP    draw the opening again if a short search scores it beyond ±CP
                      (default 400)
  --openings FILE     start from random lines of an EPD/FEN file instead of the start position
  --hash MB           transposition table per thread (default 8); it changes the games,
                      so a resumed run must keep it
  --margin CP         keep only positions whose static eval is within CP of their
                      quiescence value (default: no such filter)
  --eval E            the evaluation the games are played with: hce, nnue (the embedded
                      network) or a network file (default: the engine's default)
  -h, --help          this text

inspect: counts the records of FILE (checking each), prints the first N as EPD (default 5),
and with --to-epd writes all of them as '<FEN> c9 \"1-0\"; ce 35;' lines for the tuner.

distill: labels the positions of IN, and random continuations of them, with network NET's
static evaluation instead of a search (distill --help).";

/// Parses the arguments of `datagen`; `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<DatagenOptions>, String> {
    let mut o = DatagenOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = crate::cli::split_option(a);
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
            "--openings" => o.openings = Some(v),
            "--out" => o.out = v,
            "--games" => o.games = num(&v)? as usize,
            "--threads" => o.threads = (num(&v)? as usize).clamp(1, 1024),
            "--seed" => o.seed = num(&v)?,
            "--nodes" => o.game.nodes = num(&v)?.max(1),
            "--depth" => o.game.depth = Some((num(&v)? as u32).clamp(1, 64)),
            "--noisy-nodes" => o.game.noisy_nodes = Some(num(&v)?.max(1)),
            "--random-plies" => o.random_plies = num(&v)?.min(40) as u32,
            "--opening-max" => o.opening_max_score = num(&v)?.clamp(1, 30_000) as i32,
            "--hash" => o.hash_mb = (num(&v)? as usize).clamp(1, 4096),
            "--margin" => o.game.quiet_margin = Some(num(&v)?.min(10_000) as i32),
            "--eval" => {
                o.game.net = match v.as_str() {
                    "hce" => None,
                    "nnue" => Some(
                        crate::nnue::embedded_net().ok_or("this build embeds no usable network")?,
                    ),
                    path => Some(Arc::new(Network::read_file(path)?)),
                };
                o.game.eval_name = v;
            }
            _ => return Err(format!("unknown option '{a}'\n\n{USAGE}")),
        }
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

/// Nodes of the search that vets a random opening.
const OPENING_CHECK_NODES: u64 = 1000;

/// Picks the opening of game `game`: a base position (the start position or a random book
/// line), then `random_plies` (or one more) random legal plies; drawn again while the result
/// is over, or a short search scores it beyond ±`opening_max_score`.
pub fn pick_opening(
    book: &[&str],
    o: &DatagenOptions,
    game: usize,
    searcher: &mut Searcher,
) -> Option<Position> {
    let mut rng = StdRng::seed_from_u64(game_seed(o.seed, game));
    let limits = SearchLimits {
        nodes: Some(OPENING_CHECK_NODES * HARD_NODES_FACTOR),
        soft_nodes: Some(OPENING_CHECK_NODES),
        ..Default::default()
    };
    for _ in 0..1000 {
        let base = if book.is_empty() {
            Some(Position::startpos())
        } else {
            let line = book[rng.random_range(0..book.len())];
            opening_fen(line).and_then(|f| Position::from_fen(&f, false).ok())
        };
        let Some(mut pos) = base else { continue };
        let plies = o.random_plies + rng.random_range(0..2);
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos.make(moves[rng.random_range(0..moves.len())]);
        }
        if !ok || pos.legal_moves().is_empty() {
            continue;
        }
        pos.clear_undo();
        searcher.new_game();
        let r = searcher.search(
            &pos,
            &limits,
            &search_options(&o.game.net),
            &SearchControl::default(),
            &mut SilentReporter,
        );
        if r.best.is_some() && r.score.abs() <= o.opening_max_score {
            return Some(pos);
        }
    }
    None
}

/// The resume state kept beside the output file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Progress {
    seed: u64,
    settings: String,
    games: usize,
    bytes: u64,
}

impl Progress {
    fn text(&self) -> String {
        format!(
            "seed {}\nsettings {}\ngames {}\nbytes {}\n",
            self.seed, self.settings, self.games, self.bytes
        )
    }

    fn parse(text: &str) -> Option<Progress> {
        let mut p = Progress {
            seed: 0,
            settings: String::new(),
            games: 0,
            bytes: 0,
        };
        let mut seen = 0;
        for line in text.lines() {
            let (k, v) = line.split_once(' ')?;
            match k {
                "seed" => p.seed = v.parse().ok()?,
                "settings" => p.settings = v.to_string(),
                "games" => p.games = v.parse().ok()?,
                "bytes" => p.bytes = v.parse().ok()?,
                _ => return None,
            }
            seen += 1;
        }
        (seen == 4).then_some(p)
    }
}

/// The settings that make game *n* what it is (a resumed run must use the same ones).
fn settings_text(o: &DatagenOptions) -> String {
    format!(
        "nodes={} depth={:?} random-plies={} opening-max={} openings={} margin={:?}{}{}{}",
        o.game.nodes,
        o.game.depth,
        o.random_plies,
        o.opening_max_score,
        o.openings.as_deref().unwrap_or("startpos"),
        o.game.quiet_margin,
        // Runs with the hand-crafted evaluation were written before this field existed.
        if o.game.eval_name == "hce" {
            String::new()
        } else {
            format!(" eval={}", o.game.eval_name)
        },
        // Runs without it were written before this field existed.
        o.game
            .noisy_nodes
            .map_or(String::new(), |n| format!(" noisy-nodes={n}")),
        // The table's size changes the games too; runs at the old default never said it.
        if o.hash_mb == DEFAULT_HASH_MB {
            String::new()
        } else {
            format!(" hash={}", o.hash_mb)
        }
    )
}

fn write_progress(path: &str, p: &Progress) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, p.text()).map_err(|e| format!("cannot write {tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {path}: {e}"))
}

/// Opens (or creates) the output, checks it, cuts any partial tail and returns the file
/// positioned at its end with the run's progress.
fn open_output(o: &DatagenOptions, progress_path: &str) -> Result<(File, Progress), String> {
    let path = &o.out;
    let exists = std::path::Path::new(path).exists();
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {path}: {e}"))?;
    let len = if exists {
        f.metadata()
            .map_err(|e| format!("cannot read {path}: {e}"))?
            .len()
    } else {
        0
    };
    if len == 0 {
        f.write_all(&format::header())
            .map_err(|e| format!("cannot write {path}: {e}"))?;
    } else {
        format::check_file(&mut f, path)?;
    }
    let len = f
        .metadata()
        .map_err(|e| format!("cannot read {path}: {e}"))?
        .len();
    let whole = len - (len - RECORD_SIZE as u64) % RECORD_SIZE as u64;
    let settings = settings_text(o);
    let saved = std::fs::read_to_string(progress_path)
        .ok()
        .and_then(|t| Progress::parse(&t));
    let progress = match saved {
        Some(p) if p.seed == o.seed && p.bytes <= whole => {
            if p.settings != settings {
                return Err(format!(
                    "{path} holds games of seed {} made with other settings ({}); resume with \
                     those, or use another seed or file",
                    p.seed, p.settings
                ));
            }
            p
        }
        Some(p) if p.seed == o.seed => {
            return Err(format!(
                "{progress_path} says {} bytes but {path} has only {whole}: the files do not \
                 belong together",
                p.bytes
            ));
        }
        // A new seed (or no progress file): a new run appended after the whole records.
        _ => Progress {
            seed: o.seed,
            settings,
            games: 0,
            bytes: whole,
        },
    };
    if progress.bytes < len {
        f.set_len(progress.bytes)
            .map_err(|e| format!("cannot truncate {path}: {e}"))?;
    }
    use std::io::Seek;
    f.seek(std::io::SeekFrom::End(0))
        .map_err(|e| format!("cannot seek {path}: {e}"))?;
    Ok((f, progress))
}

/// The shared state of a run's writer: finished games wait here until every earlier one is
/// written, so the file is in game order.
struct Writer {
    out: BufWriter<File>,
    pending: BTreeMap<usize, GameRecord>,
    progress: Progress,
    summary: DatagenSummary,
}

/// Plays the games of `o` and appends the kept positions; `report` receives the summary
/// after each written game. `stop` ends the run early (after the games under way).
pub fn run(
    o: &DatagenOptions,
    stop: &AtomicBool,
    report: &(dyn Fn(&DatagenSummary) + Sync),
) -> Result<DatagenSummary, String> {
    let book_text = match &o.openings {
        Some(p) => {
            let t = std::fs::read(p).map_err(|e| format!("cannot read {p}: {e}"))?;
            String::from_utf8_lossy(&t).into_owned()
        }
        None => String::new(),
    };
    let book: Vec<&str> = book_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if o.openings.is_some() && book.is_empty() {
        return Err(format!(
            "{} holds no positions",
            o.openings.as_deref().unwrap_or("")
        ));
    }
    let progress_path = format!("{}.progress", o.out);
    let (file, progress) = open_output(o, &progress_path)?;
    write_progress(&progress_path, &progress)?;
    let first = progress.games;
    let writer = Mutex::new(Writer {
        out: BufWriter::new(file),
        pending: BTreeMap::new(),
        summary: DatagenSummary {
            games_total: first,
            ..Default::default()
        },
        progress,
    });
    let next = AtomicUsize::new(first);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let fail = |e: String| {
        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
        stop.store(true, Ordering::Relaxed);
    };

    std::thread::scope(|s| {
        for _ in 0..o.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(o.hash_mb);
                while !stop.load(Ordering::Relaxed) {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= o.games {
                        break;
                    }
                    let Some(opening) = pick_opening(&book, o, g, &mut searcher) else {
                        fail(format!("no playable opening found for game {g}"));
                        break;
                    };
                    let rec = play_game(&opening, &o.game, &mut searcher);
                    let mut guard = writer.lock().unwrap_or_else(|e| e.into_inner());
                    let w = &mut *guard;
                    w.pending.insert(g, rec);
                    if let Err(e) = flush_in_order(w, &o.out, &progress_path) {
                        fail(e);
                        return;
                    }
                    report(&w.summary);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let w = writer.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(w.summary)
}

/// Writes every pending game that is next in order, then records the progress.
fn flush_in_order(w: &mut Writer, out: &str, progress_path: &str) -> Result<(), String> {
    let mut wrote = false;
    while let Some(rec) = w.pending.remove(&w.progress.games) {
        for r in &rec.positions {
            w.out
                .write_all(&r.to_bytes())
                .map_err(|e| format!("cannot write {out}: {e}"))?;
        }
        let n = rec.positions.len();
        let r = match rec.result {
            Wdl::WhiteWin => 0,
            Wdl::Draw => 1,
            Wdl::BlackWin => 2,
        };
        let s = &mut w.summary;
        s.games += 1;
        s.games_total += 1;
        s.wdl[r] += 1;
        s.positions += n;
        s.positions_by_result[r] += n;
        s.plies += rec.plies;
        s.nodes += rec.nodes;
        w.progress.games += 1;
        w.progress.bytes += (n * RECORD_SIZE) as u64;
        wrote = true;
    }
    if wrote {
        w.out
            .flush()
            .map_err(|e| format!("cannot write {out}: {e}"))?;
        write_progress(progress_path, &w.progress)?;
    }
    Ok(())
}

/// `nullwindow datagen inspect FILE [--head N] [--to-epd OUT]`.
pub fn inspect_cli(args: &[String]) -> Result<(), String> {
    let mut path = None;
    let mut head = 5usize;
    let mut to_epd = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--head" => {
                let v = it.next().ok_or("--head needs a value")?;
                head = v
                    .parse()
                    .map_err(|_| format!("--head: '{v}' is not a whole number"))?;
            }
            "--to-epd" => to_epd = Some(it.next().ok_or("--to-epd needs a value")?.clone()),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            p if path.is_none() && !p.starts_with("--") => path = Some(p.to_string()),
            other => return Err(format!("inspect: unexpected argument '{other}'\n\n{USAGE}")),
        }
    }
    let path = path.ok_or(format!("inspect needs a FILE\n\n{USAGE}"))?;
    let records = format::read_file(&path)?;
    let mut by_result = [0usize; 3];
    let mut abs_sum = 0f64;
    for r in &records {
        by_result[r.result as usize] += 1;
        abs_sum += (r.score as f64).abs();
    }
    let n = records.len().max(1) as f64;
    println!(
        "{path}: {} positions; results 1-0 {:.1}%, 1/2 {:.1}%, 0-1 {:.1}%; mean |score| {:.0} cp",
        records.len(),
        100.0 * by_result[2] as f64 / n,
        100.0 * by_result[1] as f64 / n,
        100.0 * by_result[0] as f64 / n,
        abs_sum / n
    );
    for r in records.iter().take(head) {
        println!("{}", r.epd());
    }
    if let Some(out) = to_epd {
        let f = File::create(&out).map_err(|e| format!("cannot create {out}: {e}"))?;
        let mut w = BufWriter::new(f);
        for r in &records {
            writeln!(w, "{}", r.epd()).map_err(|e| format!("cannot write {out}: {e}"))?;
        }
        w.flush().map_err(|e| format!("cannot write {out}: {e}"))?;
        println!("wrote {} EPD lines to {out}", records.len());
    }
    Ok(())
}

/// `nullwindow datagen ...`: plays the games, prints progress, appends the positions.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("inspect") => return inspect_cli(&args[1..]),
        Some("distill") => return distill::run_cli(&args[1..]),
        _ => {}
    }
    let Some(o) = parse_args(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    let start = Instant::now();
    let last = Mutex::new(Instant::now());
    let report = |s: &DatagenSummary| {
        let mut l = last.lock().unwrap_or_else(|e| e.into_inner());
        if l.elapsed().as_secs_f64() < 10.0 && s.games_total < o.games {
            return;
        }
        *l = Instant::now();
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let left = o.games.saturating_sub(s.games_total) as f64;
        let eta = left * secs / s.games.max(1) as f64;
        println!(
            "games {}/{}  positions {} this run  {:.0} pos/s  {:.2} games/s  +{} ={} -{}  \
             ETA {:.0} min",
            s.games_total,
            o.games,
            s.positions,
            s.positions as f64 / secs,
            s.games as f64 / secs,
            s.wdl[0],
            s.wdl[1],
            s.wdl[2],
            eta / 60.0
        );
    };
    let stop = AtomicBool::new(false);
    let sum = run(&o, &stop, &report)?;
    println!(
        "wrote {} positions from {} games ({:.1} plies a game, {:.0} nodes a position) to {} in \
         {:.1} s; the run has {} of {} games",
        sum.positions,
        sum.games,
        sum.plies as f64 / sum.games.max(1) as f64,
        sum.nodes as f64 / sum.positions.max(1) as f64,
        o.out,
        start.elapsed().as_secs_f64(),
        sum.games_total,
        o.games
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Self-play searches with every default technique but `matscale` (on by default), so
    /// that the scores a network learns are in its own raw scale.
    #[test]
    fn self_play_searches_without_material_scaling() {
        let defaults = SearchOptions::default().features;
        let opts = search_options(&None);
        assert!(defaults.mat_scale && !opts.features.mat_scale);
        let mut expected = defaults;
        expected.mat_scale = false;
        assert_eq!(opts.features, expected);
    }

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
    fn progress_round_trips() {
        let p = Progress {
            seed: 3,
            settings: "nodes=5000 depth=None".into(),
            games: 17,
            bytes: 32 * 900,
        };
        assert_eq!(Progress::parse(&p.text()), Some(p));
        assert_eq!(Progress::parse("seed x\n"), None);
    }

    #[test]
    fn args_are_checked() {
        let a = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse_args(&a("--games 3 --nodes=700 --seed 9 --random-plies 6"))
            .expect("parse")
            .expect("options");
        assert_eq!(
            (o.games, o.game.nodes, o.seed, o.random_plies),
            (3, 700, 9, 6)
        );
        assert!(o.openings.is_none());
        assert!(parse_args(&a("--openings o --games x")).is_err());
        assert!(parse_args(&a("--openings o --bogus 1")).is_err());
        assert!(parse_args(&a("--nodes")).is_err());
    }
}
