//! The tree lab's shared vocabulary, below every algorithm that uses it: the catalogue of
//! algorithms ([`TreeAlgorithm`]: names and parsing), the [`SearchResult`] they all report and
//! the `Recorder` that counts their visits and leaf evaluations. Which function each
//! algorithm runs is chosen above them, in [`super`] (`TreeAlgorithm::run`).

use super::tree::{Naming, NodeId, Tree, Value};

/// The algorithms of the lab, in the order of [`TreeAlgorithm::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreeAlgorithm {
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
    /// Stockman's SSS* with an explicit OPEN list ([`super::sss::sss_star`]).
    SssStar,
    /// DUAL*, the mirror of SSS* ([`super::sss::dual_star`]).
    DualStar,
    /// MT-SSS*: MT calls from `+inf` downwards ([`super::mt::mt_sss_star`]).
    MtSssStar,
    /// MT-DUAL*: MT calls from `-inf` upwards ([`super::mt::mt_dual_star`]).
    MtDualStar,
    /// C* / MTD-bi: MT calls bisecting the interval between the bounds.
    MtdBi,
    /// MTD(f) from a first guess (0 unless set, see [`super::mt::mtd_f`]).
    MtdF,
}

impl TreeAlgorithm {
    /// Every algorithm, in table order.
    pub const ALL: [TreeAlgorithm; 11] = [
        TreeAlgorithm::Minimax,
        TreeAlgorithm::Negamax,
        TreeAlgorithm::AlphaBetaFailHard,
        TreeAlgorithm::AlphaBetaFailSoft,
        TreeAlgorithm::NegaScout,
        TreeAlgorithm::SssStar,
        TreeAlgorithm::DualStar,
        TreeAlgorithm::MtSssStar,
        TreeAlgorithm::MtDualStar,
        TreeAlgorithm::MtdBi,
        TreeAlgorithm::MtdF,
    ];

    /// Display name, e.g. `SSS*`, `MTD(f)`.
    pub fn name(self) -> &'static str {
        match self {
            TreeAlgorithm::Minimax => "minimax",
            TreeAlgorithm::Negamax => "negamax",
            TreeAlgorithm::AlphaBetaFailHard => "alpha-beta (fail-hard)",
            TreeAlgorithm::AlphaBetaFailSoft => "alpha-beta (fail-soft)",
            TreeAlgorithm::NegaScout => "NegaScout",
            TreeAlgorithm::SssStar => "SSS*",
            TreeAlgorithm::DualStar => "DUAL*",
            TreeAlgorithm::MtSssStar => "MT-SSS*",
            TreeAlgorithm::MtDualStar => "MT-DUAL*",
            TreeAlgorithm::MtdBi => "C*/MTD-bi",
            TreeAlgorithm::MtdF => "MTD(f)",
        }
    }

    /// Command-line name, e.g. `sss`, `mtdf` (see [`TreeAlgorithm::from_name`]).
    pub fn cli_name(self) -> &'static str {
        match self {
            TreeAlgorithm::Minimax => "minimax",
            TreeAlgorithm::Negamax => "negamax",
            TreeAlgorithm::AlphaBetaFailHard => "alphabeta-hard",
            TreeAlgorithm::AlphaBetaFailSoft => "alphabeta-soft",
            TreeAlgorithm::NegaScout => "negascout",
            TreeAlgorithm::SssStar => "sss",
            TreeAlgorithm::DualStar => "dual",
            TreeAlgorithm::MtSssStar => "mt-sss",
            TreeAlgorithm::MtDualStar => "mt-dual",
            TreeAlgorithm::MtdBi => "mtd-bi",
            TreeAlgorithm::MtdF => "mtdf",
        }
    }

    /// Parses a name case-insensitively: the [`cli_name`](Self::cli_name),
    /// the display [`name`](Self::name), or a common alias (`ab-hard`,
    /// `alphabeta` (= fail-soft), `pvs`, `sss*`, `dual*`, `c*`, `mtd(f)`, …).
    pub fn from_name(s: &str) -> Option<TreeAlgorithm> {
        let l = s.to_ascii_lowercase();
        if let Some(a) = TreeAlgorithm::ALL
            .iter()
            .find(|a| a.cli_name() == l || a.name().to_ascii_lowercase() == l)
        {
            return Some(*a);
        }
        Some(match l.as_str() {
            "ab-hard" | "alphabeta-failhard" | "alpha-beta-hard" => {
                TreeAlgorithm::AlphaBetaFailHard
            }
            "ab-soft" | "ab" | "alphabeta" | "alpha-beta" | "alphabeta-failsoft" => {
                TreeAlgorithm::AlphaBetaFailSoft
            }
            "ns" | "pvs" => TreeAlgorithm::NegaScout,
            "sss*" | "ssss" | "stockman" => TreeAlgorithm::SssStar,
            "dual*" => TreeAlgorithm::DualStar,
            "mt-sss*" | "mtsss" => TreeAlgorithm::MtSssStar,
            "mt-dual*" | "mtdual" => TreeAlgorithm::MtDualStar,
            "c*" | "mtdbi" | "mtd-bi" | "mtd(bi)" | "cstar" => TreeAlgorithm::MtdBi,
            "mtd(f)" | "mtd-f" | "mtd" => TreeAlgorithm::MtdF,
            _ => return None,
        })
    }

    /// Whether this is one of the MT drivers (reports MT calls).
    pub fn is_mt_driver(self) -> bool {
        matches!(
            self,
            TreeAlgorithm::MtSssStar
                | TreeAlgorithm::MtDualStar
                | TreeAlgorithm::MtdBi
                | TreeAlgorithm::MtdF
        )
    }
}

impl std::fmt::Display for TreeAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What every algorithm reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Which algorithm produced this.
    pub algorithm: TreeAlgorithm,
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
        algorithm: TreeAlgorithm,
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
