//! The search lab, chess half: `nullwindow lab` runs every root driver of the engine
//! ([`Algorithm::ALL`], SSS* included) at fixed depths on a set of positions and tabulates
//! what each one cost, relative to AspirationPVS.
//!
//! ```text
//! nullwindow lab [--pure|--engine] [--depth A-B] [--hash MB] [--epd FILE] [--positions N]
//!                [--algorithms LIST] [--tt-bounds 1|2|1,2] [--journal FILE]
//!                [--csv FILE] [--svg FILE]
//! nullwindow lab --tt-sweep [--depth D] [--hashes LIST] [--pure|--engine] ...
//! ```
//!
//! Every search starts from a fresh TT, history and pawn table ([`Searcher::new_game`]), so
//! runs are independent and deterministic. A search to depth `B` reports the statistics after
//! each iteration (`Reporter::iteration_done`); as the iterations of a search to `B` are those
//! of a search to `d < B`, the figures at depth `d` are the cost of an iterative-deepening
//! search to `d`. Counts: *leaves* are the hand-overs to quiescence at the horizon (SSS*: its
//! quiescence calls at the leaves), *interior* the nodes entered with depth left below the
//! root, *nodes* every position visited (main search and quiescence), *root searches* the
//! root searches of iteration `d` alone (aspiration re-searches, MT calls), as a mean per
//! position. In `--pure` mode ([`Features::pure`]) every driver searches the same tree and
//! must find the same value.
//!
//! `--tt-bounds` picks the table every search runs with: one bound per position (the engine's
//! default), two (a lower and an upper bound, Plaat's MT memory, [`TtBounds::Two`]) or both,
//! one after the other; each memory's rows are compared with AspirationPVS on the same
//! memory. `--journal` makes a long run resumable: every finished search is appended to the
//! file, and a run started again with the same file takes those searches from it.
//!
//! The module prints (it is a tool, not the engine); the measuring itself is [`measure`],
//! which tests call.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Instant;

use crate::bench;
use crate::limits::SearchLimits;
use crate::position::Position;
use crate::search::{
    Algorithm, Features, IterationInfo, Reporter, SearchControl, SearchOptions, SearchStats,
    Searcher,
};
use crate::tt::{TranspositionTable, TtBounds};

/// Usage text of the `lab` subcommand.
pub const USAGE: &str = "\
usage: nullwindow lab [options]

Runs every search driver at fixed depths on the bench positions (or an EPD file) and prints
one Markdown table per depth: value agreement with AspirationPVS, leaves, interior nodes,
total nodes, root searches per iteration and time, each also as % of AspirationPVS.

  --pure                 Features::pure(): TT and move ordering, quiescence at the leaves, no
                         pruning, reductions or extensions; all values must agree (default)
  --engine               Features::all(): everything on
  --pure-etc             --pure with enhanced transposition cutoffs at every node of depth >= 2
                         (children of exactly depth - 1), as Plaat et al. ran ETC in MT
  --depth A-B | D        depths to tabulate (default 1-6; with --tt-sweep one depth, default 5)
  --hash MB              TT size (default 16); a fresh table for every search
  --epd FILE             positions: one a line, the FEN before any ';' or EPD opcodes
                         (default: bench-positions/bench.epd, built in)
  --positions N          only the first N positions
  --algorithms LIST      comma-separated driver names (default: all; AspirationPVS always runs)
  --tt-bounds 1|2|1,2    bounds per position in the TT: 1 (default, the engine's table), 2 (a
                         lower and an upper bound, as Plaat's MT), or 1,2: every driver with
                         each, one table per depth and memory (% of AspirationPVS, same memory)
  --journal FILE         append every finished search to FILE and take the searches FILE
                         already holds from it (run again with the same FILE to resume)
  --cap NAME=D[,...]     search these drivers only to depth D (e.g. SSS=6 with --depth 1-7)
  --csv FILE             write every row as CSV
  --svg FILE             line chart: total nodes relative to AspirationPVS by depth
  --tt-sweep             MTSSS, MTDf and PVS at one depth over hash sizes
  --hashes LIST          hash sizes for --tt-sweep in MB (default 1,2,4,...,256)
  -q, --quiet            no progress on stderr
  -h, --help             this text";

/// The driver every row is compared with.
pub const REFERENCE: Algorithm = Algorithm::AspirationPvs;

/// Which techniques the searches run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// [`Features::pure`]: the setting of Plaat et al.
    Pure,
    /// [`Features::all`]: the engine as it plays.
    Engine,
    /// [`Features::pure`] with enhanced transposition cutoffs at every node of depth ≥ 2 (from
    /// children of exactly depth − 1), as Plaat et al. used ETC with their MT drivers.
    PureEtc,
}

impl Mode {
    /// The technique switches of the mode.
    pub fn features(self) -> Features {
        match self {
            Mode::Pure => Features::pure(),
            Mode::Engine => Features::all(),
            Mode::PureEtc => Features {
                etc: true,
                ..Features::pure()
            },
        }
    }

    /// The lowest depth of ETC in this mode (`None`: the engine's parameter `ETC_DEPTH`).
    pub fn etc_depth(self) -> Option<i32> {
        match self {
            Mode::PureEtc => Some(2),
            Mode::Pure | Mode::Engine => None,
        }
    }

    /// `pure` or `engine`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Pure => "pure",
            Mode::Engine => "engine",
            Mode::PureEtc => "pure+etc",
        }
    }
}

/// The state of a search after one completed iteration.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Depth of the iteration.
    pub depth: u32,
    /// Root value (side to move).
    pub value: i32,
    /// Statistics of the search so far.
    pub stats: SearchStats,
    /// Milliseconds since the search started.
    pub time_ms: f64,
}

struct SampleRecorder {
    start: Instant,
    samples: Vec<Sample>,
}

impl Reporter for SampleRecorder {
    fn iteration(&mut self, _info: &IterationInfo) {}
    fn iteration_done(&mut self, depth: u32, score: i32, stats: &SearchStats) {
        self.samples.push(Sample {
            depth,
            value: score,
            stats: stats.clone(),
            time_ms: self.start.elapsed().as_secs_f64() * 1000.0,
        });
    }
}

/// Searches `pos` with `algorithm` to `max_depth` from a fresh table; one sample per
/// completed iteration (fewer than `max_depth` if SSS* ran out of memory).
pub fn run_one(
    searcher: &mut Searcher,
    pos: &Position,
    algorithm: Algorithm,
    features: Features,
    max_depth: u32,
) -> Vec<Sample> {
    run_one_etc(searcher, pos, algorithm, features, None, max_depth)
}

/// [`run_one`] with the lowest depth of ETC set ([`SearchOptions::etc_depth`]).
pub fn run_one_etc(
    searcher: &mut Searcher,
    pos: &Position,
    algorithm: Algorithm,
    features: Features,
    etc_depth: Option<i32>,
    max_depth: u32,
) -> Vec<Sample> {
    searcher.new_game();
    let limits = SearchLimits {
        depth: Some(max_depth),
        ..Default::default()
    };
    // The lab keeps the hand-crafted evaluation, so its tables stay comparable across nets.
    let opts = SearchOptions {
        features,
        algorithm,
        net: None,
        etc_depth,
        ..Default::default()
    };
    let mut rec = SampleRecorder {
        start: Instant::now(),
        samples: Vec::new(),
    };
    searcher.search(pos, &limits, &opts, &SearchControl::default(), &mut rec);
    rec.samples
}

/// Totals of one driver at one depth over the positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Pure or engine.
    pub mode: Mode,
    /// Depth of the iteration.
    pub depth: u32,
    /// TT size in MB.
    pub hash_mb: usize,
    /// Bounds per position in the TT.
    pub bounds: TtBounds,
    /// The driver.
    pub algorithm: Algorithm,
    /// Positions whose search completed this depth (the sums are over these).
    pub positions: usize,
    /// Of those, positions where the value equals the reference driver's.
    pub agree: usize,
    /// Positions (index into the list) where the value differs: (index, value, reference).
    pub mismatches: Vec<(usize, i32, i32)>,
    /// Frontier nodes (quiescence hand-overs at the horizon).
    pub leaves: u64,
    /// Interior nodes below the root.
    pub interior: u64,
    /// Every position visited (main search and quiescence).
    pub nodes: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    /// Static evaluations.
    pub evals: u64,
    /// Root searches of this iteration alone, summed over the positions.
    pub root_searches: u64,
    /// Milliseconds to complete this depth, summed over the positions.
    pub time_ms: f64,
}

/// Runs `algorithms` (the reference driver is added first if missing) on every position to
/// the last depth of `depths` and returns one row per (depth, driver), depth-major.
/// `progress(position index, driver)` is called before each search. One-bound table, no
/// journal: [`measure_with`] has both.
pub fn measure(
    positions: &[Position],
    algorithms: &[Algorithm],
    reference: Algorithm,
    mode: Mode,
    depths: RangeInclusive<u32>,
    hash_mb: usize,
    progress: &mut dyn FnMut(usize, Algorithm),
) -> Vec<Row> {
    let setup = Setup {
        mode,
        depths,
        hash_mb,
        bounds: TtBounds::One,
        caps: Vec::new(),
    };
    measure_with(positions, algorithms, reference, &setup, None, progress)
}

/// What every search of a [`measure_with`] run shares.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Pure or engine.
    pub mode: Mode,
    /// Depths to tabulate (every search goes to the last).
    pub depths: RangeInclusive<u32>,
    /// TT size in MB (a fresh table for every search).
    pub hash_mb: usize,
    /// Bounds per position in the TT.
    pub bounds: TtBounds,
    /// Drivers searched only to a smaller depth than the others (their rows stop there).
    pub caps: Vec<(Algorithm, u32)>,
}

impl Setup {
    /// The depth `algorithm` is searched to.
    pub fn max_depth(&self, algorithm: Algorithm) -> u32 {
        let d = *self.depths.end();
        self.caps
            .iter()
            .filter(|c| c.0 == algorithm)
            .fold(d, |d, c| d.min(c.1))
    }
}

/// [`measure`] with the TT's bounds per position and an optional [`Journal`] that searches
/// are taken from and appended to.
pub fn measure_with(
    positions: &[Position],
    algorithms: &[Algorithm],
    reference: Algorithm,
    setup: &Setup,
    mut journal: Option<&mut Journal>,
    progress: &mut dyn FnMut(usize, Algorithm),
) -> Vec<Row> {
    let Setup {
        mode,
        ref depths,
        hash_mb,
        bounds,
        ..
    } = *setup;
    let mut algos = vec![reference];
    algos.extend(algorithms.iter().copied().filter(|&a| a != reference));
    let table = TranspositionTable::with_bounds(hash_mb, bounds);
    let mut searcher = Searcher::with_table(Arc::new(table));
    // samples[a][p]: the iterations of driver a on position p.
    let mut samples: Vec<Vec<Vec<Sample>>> = vec![Vec::new(); algos.len()];
    for (p, pos) in positions.iter().enumerate() {
        for (a, &algorithm) in algos.iter().enumerate() {
            progress(p, algorithm);
            let max_depth = setup.max_depth(algorithm);
            let key = journal_key(setup, max_depth, pos, algorithm);
            let done = journal.as_ref().and_then(|j| j.done.get(&key).cloned());
            let s = match done {
                Some(s) => s,
                None => {
                    let s = run_one_etc(
                        &mut searcher,
                        pos,
                        algorithm,
                        mode.features(),
                        mode.etc_depth(),
                        max_depth,
                    );
                    if let Some(j) = journal.as_mut() {
                        j.append(&key, &s);
                    }
                    s
                }
            };
            samples[a].push(s);
        }
    }
    let at = |s: &[Sample], d: u32| s.iter().find(|x| x.depth == d).cloned();
    let mut rows = Vec::new();
    for d in depths.clone() {
        for (a, &algorithm) in algos.iter().enumerate() {
            if d > setup.max_depth(algorithm) {
                continue;
            }
            let mut row = Row {
                mode,
                depth: d,
                hash_mb,
                bounds,
                algorithm,
                positions: 0,
                agree: 0,
                mismatches: Vec::new(),
                leaves: 0,
                interior: 0,
                nodes: 0,
                qnodes: 0,
                evals: 0,
                root_searches: 0,
                time_ms: 0.0,
            };
            for (p, (runs, reference_runs)) in samples[a].iter().zip(&samples[0]).enumerate() {
                let Some(s) = at(runs, d) else {
                    continue;
                };
                let before = at(runs, d.saturating_sub(1)).map_or(0, |x| x.stats.root_searches);
                row.positions += 1;
                match at(reference_runs, d) {
                    Some(r) if r.value == s.value => row.agree += 1,
                    Some(r) => row.mismatches.push((p, s.value, r.value)),
                    None => {}
                }
                row.leaves += s.stats.leaves;
                row.interior += s.stats.interior;
                row.nodes += s.stats.nodes + s.stats.qnodes;
                row.qnodes += s.stats.qnodes;
                row.evals += s.stats.evals;
                row.root_searches += s.stats.root_searches - before;
                row.time_ms += s.time_ms;
            }
            rows.push(row);
        }
    }
    rows
}

/// The searches of earlier runs, by `journal_key`, and the file new ones are appended to:
/// one line per finished search, `key<TAB>samples`, the samples `;`-separated as
/// `depth:value:leaves:interior:nodes:qnodes:evals:root_searches:time_ms`. A line cut short
/// (a run killed while writing it) is ignored, and the search runs again.
pub struct Journal {
    done: HashMap<String, Vec<Sample>>,
    file: std::fs::File,
    path: String,
}

impl Journal {
    /// Opens (or creates) the journal at `path` and reads the searches it holds.
    pub fn open(path: &str) -> Result<Journal, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read {path}: {e}")),
        };
        let mut done = HashMap::new();
        for line in text.lines() {
            if let Some((key, samples)) = line.rsplit_once('\t')
                && let Some(samples) = parse_samples(samples)
            {
                done.insert(key.to_string(), samples);
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {path}: {e}"))?;
        // A line cut short by a killed run must not swallow the next one.
        if !text.is_empty() && !text.ends_with('\n') {
            let _ = writeln!(file);
        }
        Ok(Journal {
            done,
            file,
            path: path.to_string(),
        })
    }

    /// Number of searches the journal holds.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Whether the journal holds no search.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    fn append(&mut self, key: &str, samples: &[Sample]) {
        let text: Vec<String> = samples
            .iter()
            .map(|x| {
                let st = &x.stats;
                format!(
                    "{}:{}:{}:{}:{}:{}:{}:{}:{}",
                    x.depth,
                    x.value,
                    st.leaves,
                    st.interior,
                    st.nodes,
                    st.qnodes,
                    st.evals,
                    st.root_searches,
                    x.time_ms
                )
            })
            .collect();
        // One write per line, flushed at once: a kill leaves at most the last line partial.
        let line = format!("{key}\t{}\n", text.join(";"));
        if let Err(e) = self.file.write_all(line.as_bytes()) {
            eprintln!("warning: cannot append to {}: {e}", self.path);
        }
        self.done.insert(key.to_string(), samples.to_vec());
    }
}

/// What identifies a search in a [`Journal`]: mode, hash, bounds, depth, position, driver.
fn journal_key(setup: &Setup, max_depth: u32, pos: &Position, algorithm: Algorithm) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}",
        setup.mode.name(),
        setup.hash_mb,
        setup.bounds.count(),
        max_depth,
        pos.fen(),
        algorithm.name()
    )
}

fn parse_samples(text: &str) -> Option<Vec<Sample>> {
    let mut out = Vec::new();
    for part in text.split(';').filter(|p| !p.is_empty()) {
        let f: Vec<&str> = part.split(':').collect();
        if f.len() != 9 {
            return None;
        }
        let n = |i: usize| f[i].parse::<u64>().ok();
        let stats = SearchStats {
            leaves: n(2)?,
            interior: n(3)?,
            nodes: n(4)?,
            qnodes: n(5)?,
            evals: n(6)?,
            root_searches: n(7)?,
            ..SearchStats::default()
        };
        out.push(Sample {
            depth: f[0].parse().ok()?,
            value: f[1].parse().ok()?,
            stats,
            time_ms: f[8].parse().ok()?,
        });
    }
    Some(out)
}

/// Reads positions from EPD/FEN text: one a line, blank lines and `#` comments skipped, the
/// FEN before any `;`; after the four board fields, the move counters are taken if numeric
/// (anything else is an EPD opcode and ends the FEN).
pub fn parse_positions(text: &str) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(format!("line {}: not a FEN: '{line}'", n + 1));
        }
        let mut fen: Vec<&str> = fields[..4].to_vec();
        let counters: Vec<&str> = fields[4..]
            .iter()
            .take(2)
            .take_while(|f| f.parse::<u32>().is_ok())
            .copied()
            .collect();
        match counters.len() {
            2 => fen.extend(counters),
            1 => fen.extend([counters[0], "1"]),
            _ => fen.extend(["0", "1"]),
        }
        let fen = fen.join(" ");
        let pos = Position::from_fen(&fen, false).map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push(pos);
    }
    Ok(out)
}

fn pct(x: f64, reference: f64) -> String {
    if reference > 0.0 {
        format!("{:.1}", 100.0 * x / reference)
    } else {
        "-".to_string()
    }
}

/// The Markdown table of one depth (rows of other depths are ignored; pass the rows of one
/// memory, [`Row::bounds`]).
pub fn markdown_table(rows: &[Row], depth: u32, reference: Algorithm) -> String {
    let rows: Vec<&Row> = rows.iter().filter(|r| r.depth == depth).collect();
    let Some(r0) = rows.iter().find(|r| r.algorithm == reference) else {
        return String::new();
    };
    let mut s = String::new();
    let memory = match r0.bounds {
        TtBounds::One => "",
        TtBounds::Two => ", two-bound TT",
    };
    let _ = writeln!(
        s,
        "### depth {depth} ({} mode, {} positions, hash {} MB{memory})\n",
        r0.mode.name(),
        r0.positions,
        r0.hash_mb
    );
    let _ = writeln!(
        s,
        "| algorithm | agree | leaves | % | interior | % | nodes | % | root searches | % | time ms | % |"
    );
    let _ = writeln!(
        s,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let mean = |r: &Row| r.root_searches as f64 / r.positions.max(1) as f64;
    for r in &rows {
        let _ = writeln!(
            s,
            "| {} | {}/{} | {} | {} | {} | {} | {} | {} | {:.2} | {} | {:.0} | {} |",
            r.algorithm.name(),
            r.agree,
            r.positions,
            r.leaves,
            pct(r.leaves as f64, r0.leaves as f64),
            r.interior,
            pct(r.interior as f64, r0.interior as f64),
            r.nodes,
            pct(r.nodes as f64, r0.nodes as f64),
            mean(r),
            pct(mean(r), mean(r0)),
            r.time_ms,
            pct(r.time_ms, r0.time_ms),
        );
    }
    for r in &rows {
        if r.positions < r0.positions {
            let _ = writeln!(
                s,
                "\n{}: {} of {} positions did not complete this depth (memory cap); its sums \
                 are over the others.",
                r.algorithm.name(),
                r0.positions - r.positions,
                r0.positions
            );
        }
        for &(p, v, rv) in &r.mismatches {
            let _ = writeln!(
                s,
                "\n{}: position {} value {v}, {} {rv}",
                r.algorithm.name(),
                p + 1,
                reference.name()
            );
        }
    }
    s
}

/// CSV header of [`csv_rows`].
pub const CSV_HEADER: &str = "mode,depth,hash_mb,algorithm,positions,agree,leaves,interior,\
                              nodes,qnodes,evals,root_searches,time_ms,tt_bounds";

/// The rows as CSV lines (no header).
pub fn csv_rows(rows: &[Row]) -> String {
    let mut s = String::new();
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{:.1},{}",
            r.mode.name(),
            r.depth,
            r.hash_mb,
            r.algorithm.name(),
            r.positions,
            r.agree,
            r.leaves,
            r.interior,
            r.nodes,
            r.qnodes,
            r.evals,
            r.root_searches,
            r.time_ms,
            r.bounds.count()
        );
    }
    s
}

const COLORS: [&str; 8] = [
    "#000000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
];

/// A percentage for an axis label: whole numbers from 1 up, else as few decimals as needed.
fn format_pct(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        let t = format!("{v:.4}");
        t.trim_end_matches('0').to_string()
    }
}

/// A line of the chart: a driver on a memory.
type Series = (Algorithm, TtBounds);

/// An SVG line chart of total nodes relative to the reference driver (%, log scale) by depth,
/// one line per driver, with axes and a legend.
pub fn svg_chart(rows: &[Row], reference: Algorithm, title: &str) -> String {
    let mut depths: Vec<u32> = rows.iter().map(|r| r.depth).collect();
    depths.sort_unstable();
    depths.dedup();
    // One series per (driver, memory); the reference is the driver on the first memory.
    let mut algos: Vec<Series> = Vec::new();
    for r in rows {
        if !algos.contains(&(r.algorithm, r.bounds)) {
            algos.push((r.algorithm, r.bounds));
        }
    }
    let reference_bounds = rows.first().map_or(TtBounds::One, |r| r.bounds);
    let reference_nodes = |d: u32| {
        rows.iter()
            .find(|r| r.depth == d && r.algorithm == reference && r.bounds == reference_bounds)
            .map_or(0, |r| r.nodes)
    };
    let series: Vec<(Series, Vec<(u32, f64)>)> = algos
        .iter()
        .map(|&(a, b)| {
            let pts = rows
                .iter()
                .filter(|r| {
                    r.algorithm == a
                        && r.bounds == b
                        && reference_nodes(r.depth) > 0
                        && r.positions > 0
                })
                .map(|r| {
                    (
                        r.depth,
                        100.0 * r.nodes as f64 / reference_nodes(r.depth) as f64,
                    )
                })
                .collect();
            ((a, b), pts)
        })
        .collect();
    // Log scale: one grid line per doubling.
    let values = series.iter().flat_map(|(_, p)| p.iter().map(|x| x.1));
    let (lo, hi) = values
        .filter(|v| *v > 0.0)
        .fold((100.0f64, 100.0f64), |(l, h), v| (l.min(v), h.max(v)));
    let k0 = (lo / 100.0).log2().floor().min(-1.0);
    let k1 = (hi / 100.0).log2().ceil().max(1.0);
    let k_step = ((k1 - k0) / 10.0).ceil().max(1.0);
    let (w, h) = (760.0, 420.0);
    // Both memories: a wider legend for the labels of the two-bound lines.
    let both = algos.iter().any(|x| x.1 != reference_bounds);
    let right = if both { 240.0 } else { 190.0 };
    let (left, top, bottom) = (70.0, 40.0, 50.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let (d0, d1) = (
        *depths.first().unwrap_or(&1) as f64,
        *depths.last().unwrap_or(&1) as f64,
    );
    let x = |d: f64| {
        if d1 > d0 {
            left + (d - d0) / (d1 - d0) * pw
        } else {
            left + pw / 2.0
        }
    };
    let y = |v: f64| top + (k1 - (v.max(1e-9) / 100.0).log2()) / (k1 - k0) * ph;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    // Horizontal grid and y ticks.
    let mut k = k0;
    while k <= k1 + 0.5 {
        let v = 100.0 * k.exp2();
        let yy = y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}%</text>"##,
            left + pw,
            left - 6.0,
            yy + 4.0,
            format_pct(v)
        );
        k += k_step;
    }
    // X ticks.
    for &d in &depths {
        let xx = x(d as f64);
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#000"/><text x="{xx:.1}" y="{:.1}" text-anchor="middle">{d}</text>"##,
            top + ph,
            top + ph + 5.0,
            top + ph + 18.0
        );
    }
    // Axes and labels.
    let _ = writeln!(
        s,
        r##"<line x1="{left}" y1="{top}" x2="{left}" y2="{:.1}" stroke="#000"/><line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#000"/>"##,
        top + ph,
        top + ph,
        left + pw,
        top + ph
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">depth</text>"#,
        left + pw / 2.0,
        h - 12.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">total nodes, % of {}{} (log scale)</text>"#,
        top + ph / 2.0,
        top + ph / 2.0,
        reference.name(),
        series_suffix(reference_bounds, &algos)
    );
    // Series and legend.
    let mut distinct: Vec<Algorithm> = Vec::new();
    for (a, _) in &algos {
        if !distinct.contains(a) {
            distinct.push(*a);
        }
    }
    for (i, ((a, b), pts)) in series.iter().enumerate() {
        // A driver keeps its colour on both memories; the second memory is dashed.
        let k = distinct.iter().position(|x| x == a).unwrap_or(i);
        let color = COLORS[k % COLORS.len()];
        let dash = if k >= COLORS.len() || *b != reference_bounds {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let coords: Vec<String> = pts
            .iter()
            .map(|&(d, v)| format!("{:.1},{:.1}", x(d as f64), y(v)))
            .collect();
        if !coords.is_empty() {
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"{dash}/>"#,
                coords.join(" ")
            );
        }
        for &(d, v) in pts {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{color}"/>"#,
                x(d as f64),
                y(v)
            );
        }
        let ly = top + 10.0 + 20.0 * i as f64;
        let lx = left + pw + 20.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{color}" stroke-width="2"{dash}/><text x="{:.1}" y="{:.1}">{}{}</text>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0,
            a.name(),
            series_suffix(*b, &algos)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The memory in a series label, when the chart has both: ` (2 bounds)` on the two-bound
/// lines (dashed), nothing on the one-bound ones.
fn series_suffix(b: TtBounds, series: &[Series]) -> &'static str {
    let both = series.iter().any(|s| s.1 != b);
    match (both, b) {
        (true, TtBounds::Two) => " (2 bounds)",
        _ => "",
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The table of a TT sweep: one row per (hash size, driver), nodes also as % of the first
/// driver at the same hash size.
pub fn sweep_table(rows: &[Row], depth: u32, first: Algorithm) -> String {
    let mut s = String::new();
    let mode = rows.first().map_or("pure", |r| r.mode.name());
    let n = rows.first().map_or(0, |r| r.positions);
    let _ = writeln!(
        s,
        "### TT sweep at depth {depth} ({mode} mode, {n} positions)\n"
    );
    let _ = writeln!(
        s,
        "| hash MB | algorithm | agree | leaves | interior | nodes | % of {} | time ms |",
        first.name()
    );
    let _ = writeln!(s, "|---:|---|---:|---:|---:|---:|---:|---:|");
    for r in rows.iter().filter(|r| r.depth == depth) {
        let base = rows
            .iter()
            .find(|x| x.depth == depth && x.hash_mb == r.hash_mb && x.algorithm == first)
            .map_or(0, |x| x.nodes);
        let _ = writeln!(
            s,
            "| {} | {} | {}/{} | {} | {} | {} | {} | {:.0} |",
            r.hash_mb,
            r.algorithm.name(),
            r.agree,
            r.positions,
            r.leaves,
            r.interior,
            r.nodes,
            pct(r.nodes as f64, base as f64),
            r.time_ms
        );
    }
    s
}

/// Parsed command line of `nullwindow lab`.
#[derive(Clone, Debug)]
struct LabOptions {
    mode: Mode,
    depths: Option<RangeInclusive<u32>>,
    hash_mb: usize,
    epd: Option<String>,
    positions: Option<usize>,
    algorithms: Vec<Algorithm>,
    csv: Option<String>,
    svg: Option<String>,
    tt_sweep: bool,
    hashes: Vec<usize>,
    quiet: bool,
    bounds: Vec<TtBounds>,
    journal: Option<String>,
    caps: Vec<(Algorithm, u32)>,
}

fn parse_num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{flag} needs a number, got '{v}'"))
}

fn parse_depths(v: &str) -> Result<RangeInclusive<u32>, String> {
    let (a, b) = match v.split_once('-') {
        Some((a, b)) => (parse_num("--depth", a)?, parse_num("--depth", b)?),
        None => {
            let d = parse_num("--depth", v)?;
            (d, d)
        }
    };
    if a < 1 || b < a || b > 63 {
        return Err(format!(
            "--depth wants A-B with 1 <= A <= B <= 63, got '{v}'"
        ));
    }
    Ok(a..=b)
}

fn parse_lab_args(args: &[String]) -> Result<Option<LabOptions>, String> {
    let mut o = LabOptions {
        mode: Mode::Pure,
        depths: None,
        hash_mb: 16,
        epd: None,
        positions: None,
        algorithms: Algorithm::ALL.to_vec(),
        csv: None,
        svg: None,
        tt_sweep: false,
        hashes: (0..=8).map(|i| 1usize << i).collect(),
        quiet: false,
        bounds: vec![TtBounds::One],
        journal: None,
        caps: Vec::new(),
    };
    let mut flags = super::Flags::new(args);
    while let Some(flag) = flags.next_flag() {
        let mut value = |name: &str| flags.value(name);
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--pure" => o.mode = Mode::Pure,
            "--engine" => o.mode = Mode::Engine,
            "--pure-etc" => o.mode = Mode::PureEtc,
            "--depth" => o.depths = Some(parse_depths(&value("--depth")?)?),
            "--hash" => {
                o.hash_mb = parse_num("--hash", &value("--hash")?)?;
                if !(1..=65536).contains(&o.hash_mb) {
                    return Err("--hash wants 1 to 65536 MB".into());
                }
            }
            "--epd" => o.epd = Some(value("--epd")?),
            "--positions" => {
                let n: usize = parse_num("--positions", &value("--positions")?)?;
                if n == 0 {
                    return Err("--positions wants at least 1".into());
                }
                o.positions = Some(n);
            }
            "--algorithms" => {
                o.algorithms = value("--algorithms")?
                    .split(',')
                    .map(|n| {
                        Algorithm::from_name(n).ok_or_else(|| {
                            format!(
                                "unknown algorithm '{n}' (known: {})",
                                Algorithm::ALL.map(|a| a.name()).join(" ")
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--csv" => o.csv = Some(value("--csv")?),
            "--svg" => o.svg = Some(value("--svg")?),
            "--tt-sweep" => o.tt_sweep = true,
            "--hashes" => {
                o.hashes = value("--hashes")?
                    .split(',')
                    .map(|h| parse_num::<usize>("--hashes", h))
                    .collect::<Result<_, _>>()?;
                if o.hashes.iter().any(|h| !(1..=65536).contains(h)) {
                    return Err("--hashes wants sizes from 1 to 65536 MB".into());
                }
            }
            "--tt-bounds" => {
                let v = value("--tt-bounds")?;
                o.bounds = v
                    .split(',')
                    .map(|b| {
                        b.trim()
                            .parse()
                            .ok()
                            .and_then(TtBounds::from_count)
                            .ok_or_else(|| format!("--tt-bounds wants 1, 2 or 1,2, got '{v}'"))
                    })
                    .collect::<Result<_, _>>()?;
                o.bounds.dedup();
            }
            "--journal" => o.journal = Some(value("--journal")?),
            "--cap" => {
                let v = value("--cap")?;
                for c in v.split(',') {
                    let (name, d) = c
                        .split_once('=')
                        .ok_or_else(|| format!("--cap wants NAME=DEPTH[,...], got '{v}'"))?;
                    let a = Algorithm::from_name(name)
                        .ok_or_else(|| format!("unknown algorithm '{name}' in --cap"))?;
                    let d: u32 = parse_num("--cap", d)?;
                    if d == 0 {
                        return Err("--cap wants depths of at least 1".into());
                    }
                    o.caps.push((a, d));
                }
            }
            "-q" | "--quiet" => o.quiet = true,
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    Ok(Some(o))
}

fn write_file(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
}

/// Runs `nullwindow lab` with its arguments (after `lab`): prints the tables on stdout and
/// progress on stderr.
pub fn run_lab_cli(args: &[String]) -> Result<(), String> {
    let Some(o) = parse_lab_args(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    let text = match &o.epd {
        Some(f) => std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?,
        None => bench::BENCH_EPD.to_string(),
    };
    let mut positions = parse_positions(&text)?;
    positions.retain(|p| !p.legal_moves().is_empty());
    if let Some(n) = o.positions {
        positions.truncate(n);
    }
    if positions.is_empty() {
        return Err("no position with a legal move to search".into());
    }
    let quiet = o.quiet;
    let total = positions.len();
    let mut journal = match &o.journal {
        Some(f) => {
            let j = Journal::open(f)?;
            if !quiet && !j.is_empty() {
                eprintln!("{f}: {} searches done before", j.len());
            }
            Some(j)
        }
        None => None,
    };
    let mut csv = format!("{CSV_HEADER}\n");
    let setup = |depths: RangeInclusive<u32>, hash_mb: usize, bounds: TtBounds| Setup {
        mode: o.mode,
        depths,
        hash_mb,
        bounds,
        caps: o.caps.clone(),
    };
    if o.tt_sweep {
        let depth = o.depths.clone().map_or(5, |d| *d.end());
        let algos = [Algorithm::MtSss, Algorithm::MtdF, Algorithm::Pvs];
        let bounds = o.bounds.first().copied().unwrap_or_default();
        let mut rows = Vec::new();
        for &hash in &o.hashes {
            let mut progress = |p: usize, a: Algorithm| {
                if !quiet {
                    eprint!(
                        "\rhash {hash:5} MB position {:3}/{total} {:<14}",
                        p + 1,
                        a.name()
                    );
                }
            };
            rows.extend(measure_with(
                &positions,
                &algos,
                Algorithm::Pvs,
                &setup(depth..=depth, hash, bounds),
                journal.as_mut(),
                &mut progress,
            ));
        }
        if !quiet {
            eprintln!();
        }
        println!("{}", sweep_table(&rows, depth, Algorithm::Pvs));
        csv.push_str(&csv_rows(&rows));
    } else {
        let depths = o.depths.clone().unwrap_or(1..=6);
        let mut rows = Vec::new();
        for &bounds in &o.bounds {
            let mut progress = |p: usize, a: Algorithm| {
                if !quiet {
                    eprint!(
                        "\r{} bound(s) position {:3}/{total} {:<14}",
                        bounds.count(),
                        p + 1,
                        a.name()
                    );
                }
            };
            let mine = measure_with(
                &positions,
                &o.algorithms,
                REFERENCE,
                &setup(depths.clone(), o.hash_mb, bounds),
                journal.as_mut(),
                &mut progress,
            );
            if !quiet {
                eprintln!();
            }
            for d in depths.clone() {
                println!("{}", markdown_table(&mine, d, REFERENCE));
            }
            rows.extend(mine);
        }
        csv.push_str(&csv_rows(&rows));
        if let Some(f) = &o.svg {
            let memory = match o.bounds.as_slice() {
                [TtBounds::Two] => ", two-bound TT",
                [TtBounds::One, TtBounds::Two] => "; dashed: two-bound TT",
                [_, _] => "; dashed: one-bound TT",
                _ => "",
            };
            let title = format!(
                "Total nodes relative to {} ({} mode, {} positions, hash {} MB{memory})",
                REFERENCE.name(),
                o.mode.name(),
                positions.len(),
                o.hash_mb
            );
            write_file(f, &svg_chart(&rows, REFERENCE, &title))?;
        }
    }
    if let Some(f) = &o.csv {
        write_file(f, &csv)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_give_fens() {
        let text = "# comment\n\n\
            rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
            r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";\n\
            8/8/8/4k3/8/8/4P3/4K3 w - - 7 40 ; c0 \"counters kept\"\n";
        let p = parse_positions(text).unwrap_or_default();
        assert_eq!(p.len(), 3);
        assert_eq!(
            p[1].fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"
        );
        assert_eq!(p[2].halfmoves(), 7);
        assert!(parse_positions("not a fen at all\n").is_err());
        assert!(parse_positions("8/8/8/8 w - -\n").is_err());
    }

    #[test]
    fn depth_ranges() {
        assert_eq!(parse_depths("1-6"), Ok(1..=6));
        assert_eq!(parse_depths("4"), Ok(4..=4));
        assert!(parse_depths("0-3").is_err());
        assert!(parse_depths("5-3").is_err());
        assert!(parse_depths("x").is_err());
    }

    #[test]
    fn table_csv_and_svg_from_a_small_run() {
        let pos = parse_positions(bench::BENCH_EPD).unwrap_or_default();
        let algos = [Algorithm::Pvs, Algorithm::MtdF, Algorithm::Sss];
        let rows = measure(
            &pos[..2],
            &algos,
            REFERENCE,
            Mode::Pure,
            1..=2,
            1,
            &mut |_, _| {},
        );
        assert_eq!(rows.len(), 2 * 4);
        assert!(rows.iter().all(|r| r.agree == 2 && r.positions == 2));
        let t = markdown_table(&rows, 2, REFERENCE);
        assert!(t.contains("| AspirationPVS | 2/2 |"), "{t}");
        assert!(t.contains("| SSS | 2/2 |"), "{t}");
        assert_eq!(csv_rows(&rows).lines().count(), 8);
        let svg = svg_chart(&rows, REFERENCE, "t");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 4);
        let sweep = sweep_table(&rows, 2, Algorithm::Pvs);
        assert!(sweep.contains("| 1 | MTDf | 2/2 |"), "{sweep}");
    }
}
