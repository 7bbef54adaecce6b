//! The search: iterative deepening with aspiration windows over a fail-soft PVS (NegaScout)
//! node search, a Zobrist transposition table and a quiescence search.
//!
//! `mod.rs` is the driver (iterative deepening, aspiration, MultiPV, reporting); `node.rs`
//! holds the node search in numbered steps; `sss.rs` Stockman's OPEN-list SSS* over the
//! chess tree (the `SSS` driver); `params.rs` every margin; `stats.rs` the counters and
//! technique switches; `syzygy.rs` the tablebase root filter and probes; `smp.rs` the Lazy SMP
//! thread pool that runs several searchers on one shared transposition table. The search never
//! prints: it reports through the [`Reporter`] trait, and the UCI layer turns reports into
//! `info` lines.

mod driver;
mod node;
pub mod ordering;
pub mod params;
pub mod smp;
pub mod stats;
pub mod strength;
mod syzygy;
pub mod wdl;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::eval::Evaluator;
use crate::limits::SearchLimits;
use crate::nnue::{self, Network, Nnue};
use crate::position::{Bitboard, Color, Move, Piece, Position};
use crate::search::ordering::history::History;
use crate::timeman::{IterationSummary, TimeManager};
use crate::tt::{TranspositionTable, same_move};

pub use driver::sss;
pub use smp::ThreadPool;
pub use stats::{FEATURE_NAMES, Features, OFF_BY_DEFAULT, REMOVED, SearchStats};
pub use syzygy::{SyzygyConfig, TB_CURSED_WIN, TB_WIN, TB_WIN_IN_MAX, tb_score};

/// The time manager the main thread searches `limits` with: the clock budget for `us` under
/// the time manager's constants in force (the `tm_*` parameters), `move_overhead_ms` kept back.
pub fn clock_manager(limits: &SearchLimits, us: Color, move_overhead_ms: u64) -> TimeManager {
    TimeManager::with_params(limits, us, move_overhead_ms, params::time_params())
}

/// Deepest ply the search reaches (stack and PV sizes).
pub const MAX_PLY: usize = 128;
/// Frames of the search stack: a few beyond [`MAX_PLY`] for the children's reads.
const STACK_LEN: usize = MAX_PLY + 8;
/// Score of a mate at the root.
pub const MATE: i32 = 32000;
/// Larger than any score.
pub const INFINITE: i32 = 32001;
/// Scores at or above this are mates.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// The draw score.
pub const DRAW: i32 = 0;
/// Root moves are reported as they start (`info currmove`) once the search has run this long
/// (milliseconds), as in Stockfish: shorter searches would only flood the GUI.
pub const CURRMOVE_AFTER_MS: u64 = 1000;

/// Flags shared between the UCI thread and the search.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while the engine ponders; clearing it (`ponderhit`) starts the clock.
    pub pondering: AtomicBool,
}

/// Options that shape a search (from UCI options).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept back for communication delays.
    pub move_overhead_ms: u64,
    /// Which techniques are on.
    pub features: Features,
    /// The root driver.
    pub algorithm: Algorithm,
    /// The network the static evaluation uses; `None`: the hand-crafted evaluation.
    pub net: Option<Arc<Network>>,
    /// The lowest depth of enhanced transposition cutoffs when `etc` is on; `None`: the
    /// parameter `ETC_DEPTH`. The lab sets it to study ETC at every interior node.
    pub etc_depth: Option<i32>,
}

/// The root driver: how each iteration turns root searches into a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Fail-soft alpha-beta: every move searched with the full window (no null windows).
    AlphaBeta,
    /// NegaScout/PVS, full window at the root.
    Pvs,
    /// PVS inside aspiration windows around the previous score, widened on failure.
    AspirationPvs,
    /// MTD(f): null-window (MT) searches from the previous iteration's value.
    MtdF,
    /// C*/MTD-bi: MT searches bisecting the interval between the bounds.
    MtdBi,
    /// MT-SSS*: MT searches from +infinity downwards (SSS* as null-window searches).
    MtSss,
    /// MT-DUAL*: MT searches from -infinity upwards.
    MtDual,
    /// Stockman's SSS* with an explicit OPEN list over the tree cut at the iteration depth
    /// (quiescence at the leaves), no TT inside the tree (see [`sss`]).
    Sss,
}

impl Algorithm {
    /// Every driver, in the order of the UCI combo.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Pvs,
        Algorithm::AlphaBeta,
        Algorithm::AspirationPvs,
        Algorithm::MtdF,
        Algorithm::MtdBi,
        Algorithm::MtSss,
        Algorithm::MtDual,
        Algorithm::Sss,
    ];

    /// The UCI names, in the order of [`Algorithm::ALL`] (the values of the UCI combo).
    pub const NAMES: [&'static str; 8] = {
        let mut names = [""; 8];
        let mut i = 0;
        while i < names.len() {
            names[i] = Algorithm::ALL[i].name();
            i += 1;
        }
        names
    };

    /// UCI name.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "AlphaBeta",
            Algorithm::Pvs => "PVS",
            Algorithm::AspirationPvs => "AspirationPVS",
            Algorithm::MtdF => "MTDf",
            Algorithm::MtdBi => "MTDbi",
            Algorithm::MtSss => "MTSSS",
            Algorithm::MtDual => "MTDUAL",
            Algorithm::Sss => "SSS",
        }
    }

    /// Parses a UCI name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether this is a null-window (MT) driver.
    pub fn is_mt(self) -> bool {
        matches!(
            self,
            Algorithm::MtdF | Algorithm::MtdBi | Algorithm::MtSss | Algorithm::MtDual
        )
    }

    /// Whether the driver finds one root value per iteration (no MultiPV): the MT drivers and
    /// SSS*.
    pub fn single_value(self) -> bool {
        self.is_mt() || self == Algorithm::Sss
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead_ms: 10,
            features: Features::default(),
            algorithm: Algorithm::AspirationPvs,
            net: crate::nnue::default_net(),
            etc_depth: None,
        }
    }
}

/// Kind of score in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The exact score of the line.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One line of search progress (one PV of one iteration).
#[derive(Clone, Debug)]
pub struct IterationInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the PV (MultiPV).
    pub multipv: usize,
    /// Score from the side to move's view (mate scores as `MATE - plies`).
    pub score: i32,
    /// Whether the score is exact or a bound.
    pub bound: ScoreBound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// TT fill in permille.
    pub hashfull: u32,
    /// Tablebase probes that gave a result so far.
    pub tbhits: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Receives search progress. The UCI layer formats it; tests collect it.
pub trait Reporter {
    /// A PV line of a completed (or cut) iteration.
    fn iteration(&mut self, info: &IterationInfo);
    /// Whether [`Reporter::iteration`] reads its lines: a reporter that ignores them saves
    /// the search making them (the table's fill is counted over a thousand slots a line).
    fn wants_iterations(&self) -> bool {
        true
    }
    /// The main thread starts searching root move `mv` of iteration `depth`, the `number`-th
    /// searched in this iteration (1-based, counted across the MultiPV lines). Sent only after
    /// [`CURRMOVE_AFTER_MS`] of search.
    fn current_move(&mut self, _depth: u32, _mv: Move, _number: usize) {}
    /// Statistics of the finished search.
    fn stats(&mut self, _stats: &SearchStats) {}
    /// A completed iteration: its depth, the root value and the statistics of the search so
    /// far (cumulative; the lab reads the cost of each depth from them).
    fn iteration_done(&mut self, _depth: u32, _score: i32, _stats: &SearchStats) {}
}

/// A reporter that ignores everything (bench, tests).
pub struct SilentReporter;
impl Reporter for SilentReporter {
    fn iteration(&mut self, _info: &IterationInfo) {}

    fn wants_iterations(&self) -> bool {
        false
    }
}

/// What a search returns.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Best move (None only when there is no legal move).
    pub best: Option<Move>,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched (by every thread, for a [`ThreadPool`] search).
    pub nodes: u64,
    /// Principal variation of the last completed depth (starts with `best`).
    pub pv: Vec<Move>,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Statistics of the search (summed over the threads for a [`ThreadPool`] search).
    pub stats: SearchStats,
}

/// Converts a score into the UCI form: `(is_mate, value)` with the mate value in moves.
pub fn uci_score(score: i32) -> (bool, i32) {
    if score >= MATE_IN_MAX {
        (true, (MATE - score + 1) / 2)
    } else if score <= -MATE_IN_MAX {
        (true, -(MATE + score) / 2)
    } else {
        (false, score)
    }
}

struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    /// Nodes searched below this move in the current iteration (for the time manager).
    nodes: u64,
    /// Syzygy: rank of the move by the tables (higher is better), when the root is in them.
    tb_rank: Option<i32>,
    /// Syzygy: the move's tablebase score, reported while the search finds no mate.
    tb_score: Option<i32>,
}

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Static evaluation (NONE_EVAL in check).
    eval: i32,
    killers: [Option<Move>; 2],
    /// Move made from this ply (None: null move or not yet).
    mv: Option<Move>,
    /// Piece that made it.
    piece: Option<Piece>,
    /// Move excluded by a singular search at this ply.
    excluded: Option<Move>,
    /// Double extensions on the path to this ply.
    double_ext: i32,
    /// The squares the opponent attacked at this node (`threathist`; empty otherwise), the
    /// butterfly slot of the move made from it.
    threats: Bitboard,
    /// The late move reduction of the move being searched from this ply (0 outside its
    /// reduced search), read by the child as its prior reduction (`hindsight`).
    reduction: i32,
}

/// The network's evaluation is clamped to this, well inside the mate scores.
const NNUE_EVAL_LIMIT: i32 = MATE_IN_MAX / 2;

/// Static eval of a node in check (no eval).
const NONE_EVAL: i32 = -INFINITE;

/// The searcher: the history tables and per-search state of one search thread, and a handle
/// on the transposition table (its own, or the one a [`ThreadPool`] shares).
pub struct Searcher {
    /// The transposition table (kept across searches of a game; shared between the threads
    /// of a [`ThreadPool`]).
    pub tt: Arc<TranspositionTable>,
    /// Set when this searcher is one thread of a Lazy SMP search with others.
    smp: Option<smp::SmpLink>,
    /// Static evaluation with its pawn hash table.
    evaluator: Evaluator,
    /// The NNUE evaluator with its accumulators, when the search uses a network.
    nnue: Option<Nnue>,
    history: History,
    /// A fixed length, so that the index checks of `stack[ply ± k]` after the search's own
    /// `ply < MAX_PLY - 1` check fold away.
    stack: Box<[Frame; STACK_LEN]>,
    stats: SearchStats,
    features: Features,
    /// Lowest depth of enhanced transposition cutoffs ([`SearchOptions::etc_depth`]).
    etc_depth: i32,
    /// The `MTDf` driver with `mtdpv`: its null-window passes search the first root move as a
    /// PV node.
    mt_pv_line: bool,
    /// False for the AlphaBeta driver: no null-window searches of later moves.
    pvs: bool,
    root_ply: usize,
    root_depth: i32,
    nmp_min_ply: usize,
    start: Instant,
    time: TimeManager,
    node_limit: u64,
    stopped: bool,
    seldepth: usize,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[i32; 64]; 64]>,
    /// The (`lmr_base_x100`, `lmr_divisor_x100`) the `lmr` table was built with.
    lmr_key: (i32, i32),
    /// What the `SSS` driver keeps between its iterations (src/search/driver/sss.rs).
    sss: sss::SssState,
    /// Syzygy tablebases: options and what they mean for this search.
    tb: syzygy::TbState,
    /// Index of the MultiPV line the root search is working on (for `currmovenumber`).
    pv_idx: usize,
}

/// The late move reductions by depth and move number:
/// `base/100 + ln(depth)·ln(moves) / (divisor/100)` plies, truncated.
fn lmr_table(base_x100: i32, divisor_x100: i32) -> Box<[[i32; 64]; 64]> {
    let (base, divisor) = (base_x100 as f64 / 100.0, divisor_x100 as f64 / 100.0);
    let mut lmr = Box::new([[0; 64]; 64]);
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    lmr
}

impl Searcher {
    /// A searcher with a `hash_mb` MB table of its own.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::with_table(Arc::new(TranspositionTable::new(hash_mb)))
    }

    /// A searcher on the table `tt` (shared with other searchers of a [`ThreadPool`]).
    pub fn with_table(tt: Arc<TranspositionTable>) -> Searcher {
        let lmr_key = (params::lmr_base_x100(), params::lmr_divisor_x100());
        Searcher {
            tt,
            smp: None,
            evaluator: Evaluator::new(),
            nnue: None,
            history: History::default(),
            stack: Box::new([Frame::default(); STACK_LEN]),
            stats: SearchStats::default(),
            features: Features::default(),
            etc_depth: params::etc_depth(),
            mt_pv_line: false,
            pvs: true,
            root_ply: 0,
            root_depth: 0,
            nmp_min_ply: 0,
            start: Instant::now(),
            time: TimeManager::unlimited(),
            node_limit: u64::MAX,
            stopped: false,
            seldepth: 0,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr: lmr_table(lmr_key.0, lmr_key.1),
            lmr_key,
            sss: sss::SssState::default(),
            tb: syzygy::TbState::default(),
            pv_idx: 0,
        }
    }

    /// Forgets everything learned in earlier searches (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.clear_history();
    }

    /// Forgets what this searcher learned in earlier searches, apart from the transposition
    /// table (which a [`ThreadPool`] clears once for all its threads).
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.evaluator.clear();
        if let Some(n) = self.nnue.as_mut() {
            n.clear();
        }
    }

    /// Makes the static evaluation use `net` (`None`: the hand-crafted evaluation).
    pub fn set_net(&mut self, net: Option<&Arc<Network>>) {
        let same = match (net, &self.nnue) {
            (Some(a), Some(n)) => std::ptr::eq(a.as_ref(), n.net()),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.nnue = net.map(|n| Nnue::new(n.clone()));
        }
    }

    /// Sets the most states an SSS* iteration may hold before it is abandoned (default
    /// [`sss::SSS_MAX_STATES`]; at least 1).
    pub fn set_sss_max_states(&mut self, states: usize) {
        self.sss.max_states = states.max(1);
    }

    /// Nodes searched by the last (or current) search of this searcher.
    pub fn nodes(&self) -> u64 {
        self.stats.nodes + self.stats.qnodes
    }

    /// Nodes searched by every thread of the current search: [`Self::nodes`] alone, or in a
    /// Lazy SMP search the shared count plus this thread's nodes not yet added to it (the
    /// other threads' unflushed nodes, at most [`smp::FLUSH_NODES`] each, are missing).
    fn total_nodes(&self) -> u64 {
        match &self.smp {
            None => self.nodes(),
            Some(link) => link.total(self.nodes()),
        }
    }

    /// Tablebase hits of every thread of the current search (as [`Self::total_nodes`]).
    fn total_tb_hits(&self) -> u64 {
        match &self.smp {
            None => self.stats.tb_hits,
            Some(link) => link.total_tb_hits(self.stats.tb_hits),
        }
    }

    /// Rebuilds the LMR table if its parameters changed (they can only in the tune build).
    fn refresh_lmr(&mut self) {
        let key = (params::lmr_base_x100(), params::lmr_divisor_x100());
        if key != self.lmr_key {
            self.lmr = lmr_table(key.0, key.1);
            self.lmr_key = key;
        }
    }

    /// Searches `root` within `limits`, reporting each iteration to `reporter`.
    pub fn search(
        &mut self,
        root: &Position,
        limits: &SearchLimits,
        opts: &SearchOptions,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.start = Instant::now();
        self.stats = SearchStats::default();
        self.stopped = false;
        self.features = opts.features;
        self.etc_depth = opts.etc_depth.unwrap_or_else(params::etc_depth);
        self.set_net(opts.net.as_ref());
        self.refresh_lmr();
        self.nmp_min_ply = 0;
        self.sss.new_search();
        // In a Lazy SMP search the pool starts the table's new generation once, for all.
        if self.smp.is_none() {
            self.tt.new_search();
        }
        for f in self.stack.iter_mut() {
            *f = Frame {
                eval: NONE_EVAL,
                ..Frame::default()
            };
        }
        let mut pos = root.clone();
        pos.clear_undo();
        self.root_ply = pos.game_ply();
        // Only the main thread looks at the clock: a helper runs until the main thread stops.
        self.time = match &self.smp {
            Some(link) if link.is_helper() => TimeManager::unlimited(),
            _ => clock_manager(limits, pos.turn(), opts.move_overhead_ms),
        };
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        if let Some(link) = self.smp.as_mut() {
            self.node_limit = link.start(self.node_limit);
        }

        let legal = pos.legal_moves();
        let mut root_moves: Vec<RootMove> = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                pv: vec![mv],
                nodes: 0,
                tb_rank: None,
                tb_score: None,
            })
            .collect();
        if root_moves.is_empty() {
            return SearchResult::default();
        }
        // First order: TT move, then the picker's capture-first ordering (a stable sort later
        // keeps it among equal scores).
        let tt_move = self.tt.probe(pos.key()).map_or(0, |e| e.mv);
        root_moves.sort_by_key(|rm| -node::root_order(&pos, rm.mv, tt_move));
        // Syzygy: in a tablebase position only the moves that keep the best result stay.
        self.stats.tb_hits += self.tb_root(&mut pos, &mut root_moves);

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        // The null-window drivers find one value per iteration: MultiPV needs a window driver.
        let multipv = if opts.algorithm.single_value() {
            1
        } else {
            opts.multipv.clamp(1, root_moves.len())
        };
        self.pvs = opts.algorithm != Algorithm::AlphaBeta;
        self.mt_pv_line = opts.algorithm == Algorithm::MtdF && opts.features.mtd_pv;
        let mut result = SearchResult {
            best: Some(root_moves[0].mv),
            ..Default::default()
        };

        // The best move's value at the last two completed iterations (the MTD(f) first guess
        // may average them, `mtdavg`).
        let (mut prev2, mut prev1) = (-INFINITE, -INFINITE);
        for depth in 1..=max_depth {
            if let Some(link) = &self.smp
                && link.is_helper()
            {
                // Lazy SMP: helpers spread over the depths (all search the last one `go
                // depth` asks for), and one that starts after the main thread has finished
                // searches nothing.
                if depth < max_depth && link.skips_depth(depth) {
                    continue;
                }
                if self.poll_stop(ctl) {
                    break;
                }
            }
            self.seldepth = 0;
            self.root_depth = depth as i32;
            for rm in root_moves.iter_mut() {
                rm.prev_score = rm.score;
                rm.score = -INFINITE;
                rm.nodes = 0;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                let d = depth as i32;
                match opts.algorithm {
                    Algorithm::AlphaBeta | Algorithm::Pvs => {
                        self.stats.root_searches += 1;
                        self.search_root(
                            &mut pos,
                            &mut root_moves[pv_idx..],
                            d,
                            -INFINITE,
                            INFINITE,
                            ctl,
                            reporter,
                        );
                        root_moves[pv_idx..].sort_by_key(|rm| -rm.score);
                    }
                    Algorithm::AspirationPvs => {
                        self.aspiration(&mut pos, &mut root_moves, pv_idx, d, ctl, reporter)
                    }
                    Algorithm::MtdF | Algorithm::MtdBi | Algorithm::MtSss | Algorithm::MtDual => {
                        self.mtd(
                            &mut pos,
                            &mut root_moves,
                            d,
                            opts.algorithm,
                            prev2,
                            ctl,
                            reporter,
                        )
                    }
                    Algorithm::Sss => self.sss(&mut pos, &mut root_moves, d, ctl),
                }
                if self.stopped {
                    break;
                }
                if reporter.wants_iterations() {
                    for (i, rm) in root_moves.iter().enumerate().take(pv_idx + 1) {
                        reporter.iteration(&self.info(depth, i, rm, ScoreBound::Exact));
                    }
                }
            }
            if self.stopped {
                break;
            }
            let best = &root_moves[0];
            (prev2, prev1) = (prev1, best.score);
            result.best = Some(best.mv);
            result.ponder = best.pv.get(1).copied();
            result.score = Self::tb_reported(best, best.score);
            result.depth = depth;
            result.pv.clone_from(&best.pv);
            result.seldepth = self.seldepth.max(1) as u32;
            reporter.iteration_done(depth, best.score, &self.stats);

            if limits.soft_nodes.is_some_and(|n| self.total_nodes() >= n) {
                break;
            }
            if let Some(n) = limits.mate
                && best.score >= MATE_IN_MAX
                && (MATE - best.score + 1) / 2 <= n as i32
            {
                break;
            }
            // The time manager learns from every iteration; a pondering search goes on.
            let summary = IterationSummary {
                depth,
                best: best.mv,
                score: best.score,
                best_move_nodes: best.nodes,
                root_nodes: root_moves.iter().map(|rm| rm.nodes).sum(),
            };
            if self.time.iteration_done(&summary, self.elapsed_ms())
                && !ctl.pondering.load(Ordering::Relaxed)
            {
                break;
            }
        }
        result.nodes = self.nodes();
        if let Some(link) = self.smp.as_mut() {
            link.flush(self.stats.nodes + self.stats.qnodes, self.stats.tb_hits);
        }
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            result.ponder = self.ponder_from_tt(&mut pos, best);
        }
        result.stats = self.stats.clone();
        reporter.stats(&self.stats);
        result
    }

    fn info(&self, depth: u32, idx: usize, rm: &RootMove, bound: ScoreBound) -> IterationInfo {
        let score = if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        };
        let score = Self::tb_reported(rm, score);
        IterationInfo {
            depth,
            seldepth: self.seldepth.max(1) as u32,
            multipv: idx + 1,
            score,
            bound,
            nodes: self.total_nodes(),
            time_ms: self.elapsed_ms(),
            hashfull: self.tt.hashfull(),
            tbhits: self.total_tb_hits(),
            pv: rm.pv.clone(),
        }
    }

    /// The principal variation read from the TT, starting with `first`.
    fn pv_from_tt(&self, pos: &mut Position, first: Move, max_len: usize) -> Vec<Move> {
        let mut pv = vec![first];
        pos.make(first);
        let mut made = 1;
        while pv.len() < max_len.max(1) {
            let Some(m) = self.tt.probe(pos.key()).and_then(|e| pos.unpack_move(e.mv)) else {
                break;
            };
            pv.push(m);
            pos.make(m);
            made += 1;
            if pos.is_repetition(self.root_ply) {
                break;
            }
        }
        for _ in 0..made {
            pos.unmake();
        }
        pv
    }

    fn ponder_from_tt(&self, pos: &mut Position, best: Move) -> Option<Move> {
        pos.make(best);
        let reply = self
            .tt
            .probe(pos.key())
            .and_then(|e| pos.legal_moves().into_iter().find(|&m| same_move(e.mv, m)));
        pos.unmake();
        reply
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Checks the node budget, the stop flag and (every 1024 nodes) the clock.
    #[inline]
    fn check_stop(&mut self, ctl: &SearchControl) -> bool {
        if self.stopped {
            return true;
        }
        let nodes = self.nodes();
        // Alone, `node_limit` is the budget; in a Lazy SMP search it is this thread's next
        // checkpoint, where it adds its nodes to the shared count and looks at the budget.
        if nodes >= self.node_limit && self.node_budget_spent() {
            self.stopped = true;
            return true;
        }
        if nodes & 1023 == 0 {
            self.poll_stop(ctl);
        }
        self.stopped
    }

    /// Checks the node budget, the stop flag and the clock now (for loops that do not count
    /// nodes steadily, such as SSS*'s OPEN list).
    fn poll_stop(&mut self, ctl: &SearchControl) -> bool {
        if self.stopped {
            return true;
        }
        let budget_spent = match self.smp {
            None => self.nodes() >= self.node_limit,
            Some(_) => self.node_budget_spent(),
        };
        if budget_spent || ctl.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if ctl.pondering.load(Ordering::Relaxed) {
            // Keep the clock at zero until ponderhit.
            self.start = Instant::now();
        } else if self.time.out_of_time(self.elapsed_ms()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the node budget of the search is spent: alone, always (called when the count
    /// reached `node_limit`); in a Lazy SMP search this thread adds its nodes to the shared
    /// count, answers for all threads (also true once the main thread has finished) and moves
    /// its checkpoint `node_limit` on.
    fn node_budget_spent(&mut self) -> bool {
        let (nodes, tb_hits) = (self.stats.nodes + self.stats.qnodes, self.stats.tb_hits);
        match self.smp.as_mut() {
            None => true,
            Some(link) => match link.sync(nodes, tb_hits) {
                Some(checkpoint) => {
                    self.node_limit = checkpoint;
                    false
                }
                None => true,
            },
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = Some(m);
        let child_len = self.pv_len[ply + 1];
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// The quiescence-search value of `pos` (side to move's view) with a full window: the
    /// static evaluation once the captures are played out. For tools (data generation picks
    /// quiet positions with it); call it between searches. Uses the transposition table.
    pub fn quiescence_value(&mut self, pos: &Position) -> i32 {
        self.stopped = false;
        self.node_limit = u64::MAX;
        self.time = TimeManager::unlimited();
        let mut p = pos.clone();
        p.clear_undo();
        self.root_ply = p.game_ply();
        // Alone: a pool's node budget and stop signal belong to its searches.
        let link = self.smp.take();
        let v = self.quiescence::<true>(&mut p, -INFINITE, INFINITE, 0, &SearchControl::default());
        self.smp = link;
        v
    }

    /// Static evaluation (counted): the network's when the search has one, else the
    /// hand-crafted one. Every caller has already scored dead-drawn material as a draw (the
    /// node and quiescence searches test it first), so the network is not asked about it.
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.stats.evals += 1;
        match self.nnue.as_mut() {
            Some(n) => {
                let mut v = n.evaluate(pos);
                if self.features.mat_scale {
                    v = nnue::scale_by_material(v, pos, params::matscale_base());
                }
                v.clamp(-NNUE_EVAL_LIMIT, NNUE_EVAL_LIMIT)
            }
            None => self.evaluator.evaluate(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Searcher, lmr_table};
    use crate::nnue::material_scale;
    use crate::position::Position;

    /// `matscale`: the factor is 700 plus a 24th of the material, in 1024ths; on, the
    /// network's evaluation is multiplied by it, off it is not; the hand-crafted evaluation
    /// never is.
    #[test]
    fn mat_scale_scales_the_network_eval_by_the_material() {
        let start = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(material_scale(&start, 700), 700 + 7800 / 24);
        let rook = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 60", false).unwrap();
        assert_eq!(material_scale(&rook, 700), 700 + 500 / 24);
        let mut s = Searcher::new(1);
        let hce = s.evaluate(&rook);
        s.features.mat_scale = true;
        assert_eq!(s.evaluate(&rook), hce);
        s.features.mat_scale = false;
        let net = crate::nnue::embedded_net().expect("the embedded network loads");
        s.set_net(Some(&net));
        let raw = s.evaluate(&rook);
        assert!(raw > 300, "a rook up: {raw}");
        s.features.mat_scale = true;
        assert_eq!(s.evaluate(&rook), raw * (700 + 20) / 1024);
    }

    /// The tunable hundredths give exactly the table of the former `f64` constants.
    #[test]
    fn lmr_table_of_the_default_hundredths_is_the_f64_table() {
        let t = lmr_table(75, 225);
        for d in 1..64 {
            for m in 1..64 {
                let v = 0.75 + (d as f64).ln() * (m as f64).ln() / 2.25;
                assert_eq!(t[d][m], v as i32, "depth {d} move {m}");
            }
        }
        assert_eq!(t[0], [0; 64]);
        let sum = |t: &[[i32; 64]; 64]| t.iter().flatten().sum::<i32>();
        assert!(sum(&lmr_table(150, 225)) > sum(&t) && sum(&lmr_table(75, 150)) > sum(&t));
    }
}
