//! `bench`: a fixed-depth search of the embedded bench positions. The total node count is the
//! engine's behaviour signature (a commit that changes search behaviour changes it).

use std::sync::Arc;
use std::time::Instant;

use crate::limits::SearchLimits;
use crate::nnue::Network;
use crate::position::Position;
use crate::search::{SearchControl, SearchOptions, Searcher, SilentReporter};

/// The bench positions, embedded at build time.
pub const BENCH_EPD: &str = include_str!("../bench-positions/bench.epd");
/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 11;
/// Hash size of the bench (MB).
pub const BENCH_HASH_MB: usize = 16;

/// The bench FENs.
pub fn positions() -> Vec<&'static str> {
    BENCH_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Result of a bench run.
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub ms: u64,
}

/// Searches every bench position to `depth` on one thread, a fresh table for each, with the
/// evaluation `net` (`None`: hand-crafted). `each` receives (index, fen, nodes) per position.
pub fn bench(
    depth: u32,
    net: Option<Arc<Network>>,
    mut each: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let mut searcher = Searcher::new(BENCH_HASH_MB);
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    let opts = SearchOptions {
        net,
        ..Default::default()
    };
    let ctl = SearchControl::default();
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in positions().into_iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen, false) else {
            continue;
        };
        searcher.new_game();
        let r = searcher.search(&pos, &limits, &opts, &ctl, &mut SilentReporter);
        each(i + 1, fen, r.nodes);
        nodes += r.nodes;
    }
    BenchResult {
        nodes,
        ms: start.elapsed().as_millis() as u64,
    }
}

/// Runs the bench and prints one line per position and `N nodes M nps` last.
pub fn run(depth: u32, net: Option<Arc<Network>>) {
    let r = bench(depth, net, |i, fen, n| {
        println!("position {i:2} nodes {n:10}  {fen}")
    });
    println!("Total time (ms) : {}", r.ms);
    println!("{} nodes {} nps", r.nodes, r.nodes * 1000 / r.ms.max(1));
}
