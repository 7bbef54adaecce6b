//! The algorithm catalogue ([`Algorithm`]), the common [`SearchResult`], and
//! the depth-first algorithms: minimax, negamax, alpha-beta (fail-hard and
//! fail-soft) and NegaScout.
//!
//! Every algorithm counts leaf evaluations: `evaluations` counts every call
//! of the static evaluation (a leaf evaluated twice counts twice), while
//! `first_evaluated` lists each evaluated leaf once, in the order of its first
//! evaluation.

use super::mt;
use super::sss;
use super::tree::{INF, Naming, NodeId, NodeKind, Tree, Value};

/// The algorithms of the lab, in the order of [`Algorithm::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain minimax: evaluates every leaf, left to right.
    Minimax,
    /// Minimax in negamax form (values from the side to move's view).
    Negamax,
    /// Alpha-beta, fail-hard: returned values are clamped into the window.
    AlphaBetaFailHard,
    /// Alpha-beta, fail-soft: returned values may lie outside the window.
    AlphaBetaFailSoft,
    /// Reinefeld's NegaScout: full window for the first child, null window
    /// for the others, re-search on a fail-high inside the window.
    NegaScout,
    /// Stockman's SSS* with an explicit OPEN list ([`sss::sss_star`]).
    SssStar,
    /// DUAL*, the mirror of SSS* ([`sss::dual_star`]).
    DualStar,
    /// MT-SSS*: MT calls from `+inf` downwards ([`mt::mt_sss_star`]).
    MtSssStar,
    /// MT-DUAL*: MT calls from `-inf` upwards ([`mt::mt_dual_star`]).
    MtDualStar,
    /// C* / MTD-bi: MT calls bisecting the interval between the bounds.
    MtdBi,
    /// MTD(f) from a first guess (0 unless set, see [`mt::mtd_f`]).
    MtdF,
}

impl Algorithm {
    /// Every algorithm, in table order.
    pub const ALL: [Algorithm; 11] = [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBetaFailHard,
        Algorithm::AlphaBetaFailSoft,
        Algorithm::NegaScout,
        Algorithm::SssStar,
        Algorithm::DualStar,
        Algorithm::MtSssStar,
        Algorithm::MtDualStar,
        Algorithm::MtdBi,
        Algorithm::MtdF,
    ];

    /// Display name, e.g. `SSS*`, `MTD(f)`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBetaFailHard => "alpha-beta (fail-hard)",
            Algorithm::AlphaBetaFailSoft => "alpha-beta (fail-soft)",
            Algorithm::NegaScout => "NegaScout",
            Algorithm::SssStar => "SSS*",
            Algorithm::DualStar => "DUAL*",
            Algorithm::MtSssStar => "MT-SSS*",
            Algorithm::MtDualStar => "MT-DUAL*",
            Algorithm::MtdBi => "C*/MTD-bi",
            Algorithm::MtdF => "MTD(f)",
        }
    }

    /// Command-line name, e.g. `sss`, `mtdf` (see [`Algorithm::from_name`]).
    pub fn cli_name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBetaFailHard => "alphabeta-hard",
            Algorithm::AlphaBetaFailSoft => "alphabeta-soft",
            Algorithm::NegaScout => "negascout",
            Algorithm::SssStar => "sss",
            Algorithm::DualStar => "dual",
            Algorithm::MtSssStar => "mt-sss",
            Algorithm::MtDualStar => "mt-dual",
            Algorithm::MtdBi => "mtd-bi",
            Algorithm::MtdF => "mtdf",
        }
    }

    /// Parses a name case-insensitively: the [`cli_name`](Self::cli_name),
    /// the display [`name`](Self::name), or a common alias (`ab-hard`,
    /// `alphabeta` (= fail-soft), `pvs`, `sss*`, `dual*`, `c*`, `mtd(f)`, …).
    pub fn from_name(s: &str) -> Option<Algorithm> {
        let l = s.to_ascii_lowercase();
        if let Some(a) = Algorithm::ALL
            .iter()
            .find(|a| a.cli_name() == l || a.name().to_ascii_lowercase() == l)
        {
            return Some(*a);
        }
        Some(match l.as_str() {
            "ab-hard" | "alphabeta-failhard" | "alpha-beta-hard" => Algorithm::AlphaBetaFailHard,
            "ab-soft" | "ab" | "alphabeta" | "alpha-beta" | "alphabeta-failsoft" => {
                Algorithm::AlphaBetaFailSoft
            }
            "ns" | "pvs" => Algorithm::NegaScout,
            "sss*" | "ssss" | "stockman" => Algorithm::SssStar,
            "dual*" => Algorithm::DualStar,
            "mt-sss*" | "mtsss" => Algorithm::MtSssStar,
            "mt-dual*" | "mtdual" => Algorithm::MtDualStar,
            "c*" | "mtdbi" | "mtd-bi" | "mtd(bi)" | "cstar" => Algorithm::MtdBi,
            "mtd(f)" | "mtd-f" | "mtd" => Algorithm::MtdF,
            _ => return None,
        })
    }

    /// Whether this is one of the MT drivers (reports MT calls).
    pub fn is_mt_driver(self) -> bool {
        matches!(
            self,
            Algorithm::MtSssStar | Algorithm::MtDualStar | Algorithm::MtdBi | Algorithm::MtdF
        )
    }

    /// Runs the algorithm on `tree` (MTD(f) with first guess 0).
    pub fn run(self, tree: &Tree) -> SearchResult {
        self.run_with_guess(tree, 0)
    }

    /// Runs the algorithm; `guess` is MTD(f)'s first guess and is ignored by
    /// the other algorithms.
    pub fn run_with_guess(self, tree: &Tree, guess: Value) -> SearchResult {
        match self {
            Algorithm::Minimax => minimax(tree),
            Algorithm::Negamax => negamax(tree),
            Algorithm::AlphaBetaFailHard => alpha_beta_fail_hard(tree),
            Algorithm::AlphaBetaFailSoft => alpha_beta_fail_soft(tree),
            Algorithm::NegaScout => negascout(tree),
            Algorithm::SssStar => sss::sss_star(tree),
            Algorithm::DualStar => sss::dual_star(tree),
            Algorithm::MtSssStar => mt::mt_sss_star(tree),
            Algorithm::MtDualStar => mt::mt_dual_star(tree),
            Algorithm::MtdBi => mt::mtd_bi(tree),
            Algorithm::MtdF => mt::mtd_f(tree, guess),
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What every algorithm reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Which algorithm produced this.
    pub algorithm: Algorithm,
    /// The minimax value found for the root.
    pub value: Value,
    /// Total number of leaf evaluations (re-evaluations count again).
    pub evaluations: usize,
    /// Every evaluated leaf once, in order of first evaluation.
    pub first_evaluated: Vec<NodeId>,
    /// Number of MT calls at the root (MT drivers only).
    pub mt_calls: Option<usize>,
    /// `visited[n]`: whether node `n` was ever visited (generated): entered
    /// by a depth-first search, or placed on the OPEN list by SSS*/DUAL*.
    pub visited: Vec<bool>,
}

impl SearchResult {
    /// Number of distinct leaves evaluated.
    pub fn distinct_leaves(&self) -> usize {
        self.first_evaluated.len()
    }

    /// Labels of [`first_evaluated`](Self::first_evaluated) in the naming.
    pub fn first_evaluated_labels(&self, tree: &Tree, naming: Naming) -> Vec<String> {
        self.first_evaluated
            .iter()
            .map(|&n| tree.label(n, naming))
            .collect()
    }

    /// `evaluated[n]`: whether leaf `n` was evaluated at least once.
    pub fn evaluated_mask(&self) -> Vec<bool> {
        let mut m = vec![false; self.visited.len()];
        for &n in &self.first_evaluated {
            m[n] = true;
        }
        m
    }

    /// Whether node `n` was visited.
    pub fn was_visited(&self, n: NodeId) -> bool {
        self.visited.get(n).copied().unwrap_or(false)
    }
}

/// Bookkeeping shared by all algorithms: visits and leaf evaluations.
pub(crate) struct Recorder<'t> {
    pub(crate) tree: &'t Tree,
    evaluations: usize,
    first: Vec<NodeId>,
    evaluated: Vec<bool>,
    visited: Vec<bool>,
}

impl<'t> Recorder<'t> {
    pub(crate) fn new(tree: &'t Tree) -> Recorder<'t> {
        Recorder {
            tree,
            evaluations: 0,
            first: Vec::new(),
            evaluated: vec![false; tree.len()],
            visited: vec![false; tree.len()],
        }
    }

    /// Marks `n` visited.
    pub(crate) fn visit(&mut self, n: NodeId) {
        self.visited[n] = true;
    }

    /// Evaluates leaf `n` (counts it). Interior nodes evaluate to 0; callers
    /// only evaluate leaves.
    pub(crate) fn eval(&mut self, n: NodeId) -> Value {
        self.visited[n] = true;
        self.evaluations += 1;
        if !self.evaluated[n] {
            self.evaluated[n] = true;
            self.first.push(n);
        }
        self.tree.leaf_value(n).unwrap_or(0)
    }

    pub(crate) fn finish(
        self,
        algorithm: Algorithm,
        value: Value,
        mt_calls: Option<usize>,
    ) -> SearchResult {
        SearchResult {
            algorithm,
            value,
            evaluations: self.evaluations,
            first_evaluated: self.first,
            mt_calls,
            visited: self.visited,
        }
    }
}

/// Plain minimax, every leaf evaluated once, left to right.
pub fn minimax(tree: &Tree) -> SearchResult {
    fn go(r: &mut Recorder, n: NodeId) -> Value {
        r.visit(n);
        if r.tree.is_leaf(n) {
            return r.eval(n);
        }
        let max = r.tree.kind(n) == NodeKind::Max;
        let mut best = if max { -INF } else { INF };
        for &c in r.tree.children(n) {
            let v = go(r, c);
            best = if max { best.max(v) } else { best.min(v) };
        }
        best
    }
    let mut r = Recorder::new(tree);
    let v = go(&mut r, Tree::ROOT);
    r.finish(Algorithm::Minimax, v, None)
}

/// Sign of the side to move at `n` in negamax form: `+1` at MAX nodes.
fn color(tree: &Tree, n: NodeId) -> Value {
    match tree.kind(n) {
        NodeKind::Max => 1,
        NodeKind::Min => -1,
    }
}

/// Negamax without pruning: `v(n) = max_c -v(c)`, leaves seen from the side to
/// move (`+value` at MAX depth, `-value` at MIN depth).
pub fn negamax(tree: &Tree) -> SearchResult {
    fn go(r: &mut Recorder, n: NodeId) -> Value {
        r.visit(n);
        if r.tree.is_leaf(n) {
            return color(r.tree, n) * r.eval(n);
        }
        let mut best = -INF;
        for &c in r.tree.children(n) {
            best = best.max(-go(r, c));
        }
        best
    }
    let mut r = Recorder::new(tree);
    let v = go(&mut r, Tree::ROOT);
    r.finish(Algorithm::Negamax, v, None)
}

/// Alpha-beta, fail-hard (results clamped into `[alpha, beta]`), minimax
/// form, root window `(-inf, +inf)`. Cut-offs on `v >= beta` at MAX nodes and
/// `v <= alpha` at MIN nodes.
pub fn alpha_beta_fail_hard(tree: &Tree) -> SearchResult {
    fn go(r: &mut Recorder, n: NodeId, mut alpha: Value, mut beta: Value) -> Value {
        r.visit(n);
        if r.tree.is_leaf(n) {
            return r.eval(n);
        }
        match r.tree.kind(n) {
            NodeKind::Max => {
                for &c in r.tree.children(n) {
                    let v = go(r, c, alpha, beta);
                    if v >= beta {
                        return beta;
                    }
                    alpha = alpha.max(v);
                }
                alpha
            }
            NodeKind::Min => {
                for &c in r.tree.children(n) {
                    let v = go(r, c, alpha, beta);
                    if v <= alpha {
                        return alpha;
                    }
                    beta = beta.min(v);
                }
                beta
            }
        }
    }
    let mut r = Recorder::new(tree);
    let v = go(&mut r, Tree::ROOT, -INF, INF);
    r.finish(Algorithm::AlphaBetaFailHard, v, None)
}

/// Alpha-beta, fail-soft (returns the best value seen even outside the
/// window), minimax form, root window `(-inf, +inf)`. Visits exactly the
/// nodes fail-hard visits.
pub fn alpha_beta_fail_soft(tree: &Tree) -> SearchResult {
    let mut r = Recorder::new(tree);
    let v = alpha_beta_soft_rec(&mut r, Tree::ROOT, -INF, INF);
    r.finish(Algorithm::AlphaBetaFailSoft, v, None)
}

fn alpha_beta_soft_rec(r: &mut Recorder, n: NodeId, alpha: Value, beta: Value) -> Value {
    r.visit(n);
    if r.tree.is_leaf(n) {
        return r.eval(n);
    }
    match r.tree.kind(n) {
        NodeKind::Max => {
            let mut best = -INF;
            for &c in r.tree.children(n) {
                let v = alpha_beta_soft_rec(r, c, alpha.max(best), beta);
                best = best.max(v);
                if best >= beta {
                    break;
                }
            }
            best
        }
        NodeKind::Min => {
            let mut best = INF;
            for &c in r.tree.children(n) {
                let v = alpha_beta_soft_rec(r, c, alpha, beta.min(best));
                best = best.min(v);
                if best <= alpha {
                    break;
                }
            }
            best
        }
    }
}

/// NegaScout (Reinefeld 1983/1989), fail-soft negamax form.
///
/// The first child is searched with the full window `(a, beta)`, every later
/// child with the null window `(a, a + 1)` where `a` is the best value so far
/// (at least `alpha`). If that test returns `t` with `a < t < beta` the child
/// is re-searched with the window `(t, beta)` and its value is the larger of
/// `t` and the re-search result (Reinefeld's `a := -NegaScout(p, -beta, -t)`
/// followed by `max`). As in Reinefeld's formulation, no re-search is made
/// when the child is a leaf, whose null-window value is already exact; the
/// re-searched subtrees re-evaluate their leaves, so NegaScout's
/// `evaluations` can exceed its distinct leaves.
pub fn negascout(tree: &Tree) -> SearchResult {
    fn go(r: &mut Recorder, n: NodeId, alpha: Value, beta: Value) -> Value {
        r.visit(n);
        if r.tree.is_leaf(n) {
            return color(r.tree, n) * r.eval(n);
        }
        let mut best = -INF;
        for (i, &c) in r.tree.children(n).iter().enumerate() {
            let a = alpha.max(best);
            let t = if i == 0 {
                -go(r, c, -beta, -a)
            } else {
                let t = -go(r, c, -a - 1, -a);
                if t > a && t < beta && !r.tree.is_leaf(c) {
                    t.max(-go(r, c, -beta, -t))
                } else {
                    t
                }
            };
            best = best.max(t);
            if best >= beta {
                break;
            }
        }
        best
    }
    let mut r = Recorder::new(tree);
    let v = go(&mut r, Tree::ROOT, -INF, INF);
    r.finish(Algorithm::NegaScout, v, None)
}
