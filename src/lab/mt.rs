//! MT, the Memory-enhanced Test of Plaat, Schaeffer, Pijls and de Bruin
//! ("Best-first fixed-depth minimax algorithms", Artificial Intelligence 87,
//! 1996), and the MT drivers MT-SSS*, MT-DUAL*, C*/MTD-bi and MTD(f).
//!
//! `MT(n, gamma)` is a null-window alpha-beta search that answers "is
//! `f(n) >= gamma`?": it returns `g >= gamma` (then `g` is a lower bound of
//! `f(n)`) or `g < gamma` (then `g` is an upper bound). It keeps an upper and
//! a lower bound per node in a transposition table keyed by the node's Dewey
//! path (its [`NodeId`], which identifies the Dewey path one-to-one). The
//! table is unbounded: nothing is ever overwritten by another node, so a
//! driver's successive MT calls re-use every bound found so far.
//!
//! The code follows the paper's MT figure, in minimax form:
//!
//! * leaf: if the table has an entry return it, else evaluate;
//! * MAX node: `g = -inf`; for each child `c` while `g < gamma`: if
//!   `c.upper >= gamma` then `g' = MT(c, gamma)` else `g' = c.upper`;
//!   `g = max(g, g')`;
//! * MIN node: `g = +inf`; for each child `c` while `g >= gamma`: if
//!   `c.lower < gamma` then `g' = MT(c, gamma)` else `g' = c.lower`;
//!   `g = min(g, g')`;
//! * store: `g < gamma` sets the upper bound, otherwise the lower bound.
//!
//! Two small, behaviour-neutral choices: an evaluated leaf stores its exact
//! value as both bounds (the paper stores one bound and reads it back; the
//! value returned is the same), and a stored bound is only ever tightened
//! (`upper = min(upper, g)`, `lower = max(lower, g)`), which for these
//! drivers is what overwriting does anyway.
//!
//! The drivers, as in the paper's MT framework (`MTD(n, first, next)`):
//!
//! * MT-SSS*: `g = +inf; repeat { gamma = g; g = MT(root, gamma) } until g == gamma`;
//! * MT-DUAL*: `g = -inf; repeat { gamma = g; g = MT(root, gamma + 1) } until g == gamma`
//!   (the paper's `gamma + epsilon`; leaves are integers so `epsilon = 1`);
//! * C*/MTD-bi: keep `lower`/`upper`; test `gamma` half-way between them
//!   (rounded so that `lower < gamma <= upper`) until they meet;
//! * MTD(f): `g = guess`; test `gamma = g + 1` if `g == lower` else `g`.

use super::kinds::{Recorder, SearchResult, TreeAlgorithm};
use super::tree::{INF, NodeId, NodeKind, Tree, Value};

/// MT with its unbounded table, for building custom drivers.
pub struct Mt<'t> {
    rec: Recorder<'t>,
    /// `(lower, upper)` per node; `(-INF, INF)` means no entry.
    table: Vec<(Value, Value)>,
    calls: usize,
}

impl<'t> Mt<'t> {
    /// An MT searcher over `tree` with an empty table.
    pub fn new(tree: &'t Tree) -> Mt<'t> {
        Mt {
            rec: Recorder::new(tree),
            table: vec![(-INF, INF); tree.len()],
            calls: 0,
        }
    }

    /// One root call `MT(root, gamma)`: `g >= gamma` is a lower bound on the
    /// root value, `g < gamma` an upper bound.
    pub fn test(&mut self, gamma: Value) -> Value {
        self.calls += 1;
        self.mt(Tree::ROOT, gamma)
    }

    /// Number of root calls so far.
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// The stored `(lower, upper)` bounds of node `n`.
    pub fn bounds(&self, n: NodeId) -> (Value, Value) {
        self.table[n]
    }

    /// Finishes into a [`SearchResult`].
    pub fn finish(self, algorithm: TreeAlgorithm, value: Value) -> SearchResult {
        let calls = self.calls;
        self.rec.finish(algorithm, value, Some(calls))
    }

    fn mt(&mut self, n: NodeId, gamma: Value) -> Value {
        self.rec.visit(n);
        let tree = self.rec.tree;
        if tree.is_leaf(n) {
            let (lo, hi) = self.table[n];
            if lo == -INF && hi == INF {
                let v = self.rec.eval(n);
                self.table[n] = (v, v);
                return v;
            }
            return if hi == INF { lo } else { hi };
        }
        let g = match tree.kind(n) {
            NodeKind::Max => {
                let mut g = -INF;
                for &c in tree.children(n) {
                    if g >= gamma {
                        break;
                    }
                    let c_hi = self.table[c].1;
                    let gc = if c_hi >= gamma {
                        self.mt(c, gamma)
                    } else {
                        c_hi
                    };
                    g = g.max(gc);
                }
                g
            }
            NodeKind::Min => {
                let mut g = INF;
                for &c in tree.children(n) {
                    if g < gamma {
                        break;
                    }
                    let c_lo = self.table[c].0;
                    let gc = if c_lo < gamma {
                        self.mt(c, gamma)
                    } else {
                        c_lo
                    };
                    g = g.min(gc);
                }
                g
            }
        };
        let entry = &mut self.table[n];
        if g < gamma {
            entry.1 = entry.1.min(g);
        } else {
            entry.0 = entry.0.max(g);
        }
        g
    }
}

/// MT-SSS*: start at `gamma = +inf` and lower the upper bound until the test
/// succeeds (`g == gamma`). Evaluates the same leaves, in the same order, as
/// the OPEN-list SSS* (see the property tests).
pub fn mt_sss_star(tree: &Tree) -> SearchResult {
    let mut mt = Mt::new(tree);
    let mut g = INF;
    loop {
        let gamma = g;
        g = mt.test(gamma);
        if g == gamma {
            break;
        }
    }
    mt.finish(TreeAlgorithm::MtSssStar, g)
}

/// MT-DUAL*: start at `-inf` and raise the lower bound with tests at
/// `gamma + 1` until one fails low at `g == gamma`.
pub fn mt_dual_star(tree: &Tree) -> SearchResult {
    let mut mt = Mt::new(tree);
    let mut g = -INF;
    loop {
        let gamma = g;
        g = mt.test(gamma + 1);
        if g == gamma {
            break;
        }
    }
    mt.finish(TreeAlgorithm::MtDualStar, g)
}

/// C* / MTD-bi: bisection between the bounds `lower < upper`, testing
/// `gamma = lower + ceil((upper - lower) / 2)`, so that
/// `lower < gamma <= upper` and every test tightens one bound.
pub fn mtd_bi(tree: &Tree) -> SearchResult {
    let mut mt = Mt::new(tree);
    let (mut lower, mut upper) = (-INF, INF);
    let mut g = 0;
    while lower < upper {
        let gamma = lower + (upper - lower + 1) / 2;
        g = mt.test(gamma);
        if g < gamma {
            upper = g;
        } else {
            lower = g;
        }
    }
    mt.finish(TreeAlgorithm::MtdBi, g)
}

/// MTD(f) from the first guess `guess` (clamped into `(-inf, +inf)`).
pub fn mtd_f(tree: &Tree, guess: Value) -> SearchResult {
    let mut mt = Mt::new(tree);
    let (mut lower, mut upper) = (-INF, INF);
    let mut g = guess.clamp(-INF + 1, INF);
    while lower < upper {
        let gamma = if g == lower { g + 1 } else { g };
        g = mt.test(gamma);
        if g < gamma {
            upper = g;
        } else {
            lower = g;
        }
    }
    mt.finish(TreeAlgorithm::MtdF, g)
}
