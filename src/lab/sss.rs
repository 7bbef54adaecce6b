//! Stockman's SSS* (1979) with an explicit OPEN list, its mirror DUAL*, and a
//! step-by-step trace of the OPEN list.
//!
//! # SSS*
//!
//! OPEN holds states `(J, s, h)`: a node `J`, a status `s` (`L` live or `S`
//! solved) and a merit `h` (an upper bound on the root value). Start with
//! `OPEN = {(e, L, +inf)}`. Repeatedly remove the head of OPEN; stop when it
//! is `(e, S, h)` and return `h`; otherwise apply the Γ operator:
//!
//! | rule | state | condition | action |
//! |------|-------|-----------|--------|
//! | 1 | `(J, L, h)` | `J` terminal | add `(J, S, min(h, value(J)))` |
//! | 2 | `(J, L, h)` | `J` a MIN node | add `(J.1, L, h)` |
//! | 3 | `(J, L, h)` | `J` a MAX node | add `(J.j, L, h)` for every child `j` |
//! | 4 | `(J, S, h)` | `J` a MIN node | add `(parent(J), S, h)`; remove every state of a descendant of `parent(J)` |
//! | 5 | `(J, S, h)` | `J` a MAX node, last child of its parent | add `(parent(J), S, h)` |
//! | 6 | `(J, S, h)` | otherwise (`J` a MAX node with a next sibling) | add `(next sibling of J, L, h)` |
//!
//! Rule 1 takes precedence over 2 and 3 (a terminal is never expanded); a
//! solved terminal falls under 4, 5 or 6 according to its level. These are
//! the rule numbers the trace prints. Note: the published worked-example
//! table labels the expansion steps 2-4 of the first example as cases
//! 2, 3, 2, i.e. it swaps the labels of cases 2 and 3 relative to the rules
//! above; the trace here prints 3, 2, 3 (step 2 expands the MAX root by
//! rule 3, step 3 the MIN node `1` by rule 2, step 4 the MAX node `1.1` by
//! rule 3).
//!
//! ## Order of OPEN and tie-breaking (exactly as implemented)
//!
//! OPEN is kept sorted by the key `(h descending, node in left-to-right
//! order)`, where "left-to-right order" is pre-order: of two nodes the one
//! whose subtree lies further left comes first (an ancestor would precede its
//! descendants, although SSS* never has both on OPEN). The head is the first
//! state. Equivalently: a newly added state is inserted after every state
//! with a larger `h`, and, among the states with the same `h`, before the
//! states of nodes to its right and after those of nodes to its left; it
//! does *not* matter when the state was added. This reproduces every line of
//! both worked examples, where "insert in front of equal `h`" (LIFO) or
//! "behind equal `h`" (FIFO) would each fail on some line: e.g. `f,L,5` goes
//! in front of the older `k,S,5` (not FIFO) while `k,S,5` went behind the
//! older `e,S,5` (not LIFO), and `4.1.1,S,2` goes behind `1.1.2,S,2` but in
//! front of `3.1.1,S,1`.
//!
//! # DUAL*
//!
//! DUAL* is SSS* played for the MIN player: it is exactly SSS* run on the
//! dual tree (every leaf negated, MAX and MIN swapped), with all merits
//! negated back. Written out on the original tree: start with
//! `(e, L, -inf)`, OPEN sorted by `h` *ascending* (ties again to the
//! leftmost node), stop at `(e, S, h)`, and
//!
//! | rule | state | condition | action |
//! |------|-------|-----------|--------|
//! | 1 | `(J, L, h)` | `J` terminal | add `(J, S, max(h, value(J)))` |
//! | 2 | `(J, L, h)` | `J` a MAX node | add `(J.1, L, h)` |
//! | 3 | `(J, L, h)` | `J` a MIN node | add `(J.j, L, h)` for every child `j` |
//! | 4 | `(J, S, h)` | `J` a MAX node | add `(parent(J), S, h)`; remove every state of a descendant of `parent(J)` |
//! | 5 | `(J, S, h)` | `J` a MIN node, last child | add `(parent(J), S, h)` |
//! | 6 | `(J, S, h)` | otherwise | add `(next sibling of J, L, h)` |
//!
//! (the root, a MAX node, is therefore expanded by rule 2: only its first
//! child). `h` is a lower bound on the root value throughout. This matches
//! DUAL* as described by Plaat et al. 1996 (and Marsland, Reinefeld and
//! Schaeffer 1987): SSS* with the roles of the players exchanged.

use std::cmp::Reverse;
use std::collections::BTreeSet;
use std::ops::Bound;

use super::kinds::{Recorder, SearchResult, TreeAlgorithm};
use super::tree::{INF, Naming, NodeId, NodeKind, Tree, Value, format_value};

/// Status of an OPEN-list state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// `L`: the node still has to be explored.
    Live,
    /// `S`: the node is solved with merit `h`.
    Solved,
}

impl Status {
    /// `L` or `S`.
    pub fn letter(self) -> char {
        match self {
            Status::Live => 'L',
            Status::Solved => 'S',
        }
    }
}

/// One OPEN-list state `(J, s, h)`, with `h` as the algorithm defines it
/// (upper bound for SSS*, lower bound for DUAL*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The node `J`.
    pub node: NodeId,
    /// The status `s`.
    pub status: Status,
    /// The merit `h`.
    pub h: Value,
}

/// The OPEN list after one step of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// Step number, starting at 1 for the initial list.
    pub step: usize,
    /// Γ rule applied to get here (`None` for step 1).
    pub rule: Option<u8>,
    /// OPEN after the step, head first.
    pub open: Vec<State>,
}

/// How states with equal merit `h` are ordered on OPEN.
///
/// Only [`TieBreak::Leftmost`] is Stockman's rule and reproduces the worked
/// examples; the two others exist to demonstrate (in tests) what goes wrong
/// without it. In all three, the states added by one Γ step keep the
/// left-to-right order of their nodes among themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TieBreak {
    /// Equal `h`: the node further left in the tree comes first, regardless
    /// of when the state was added (the rule implemented by SSS*/DUAL*).
    #[default]
    Leftmost,
    /// Equal `h`: older states first (a new state goes behind equal `h`).
    Fifo,
    /// Equal `h`: newer states first (a new state goes in front of equal `h`).
    Lifo,
}

/// Which of the two OPEN-list algorithms to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// SSS*: best-first for MAX, merits are upper bounds.
    Sss,
    /// DUAL*: best-first for MIN, merits are lower bounds.
    Dual,
}

/// SSS* (no trace).
pub fn sss_star(tree: &Tree) -> SearchResult {
    run(tree, Side::Sss, TieBreak::Leftmost, false).0
}

/// DUAL* (no trace).
pub fn dual_star(tree: &Tree) -> SearchResult {
    run(tree, Side::Dual, TieBreak::Leftmost, false).0
}

/// SSS* with the OPEN list after every step.
pub fn sss_star_traced(tree: &Tree) -> (SearchResult, Vec<TraceStep>) {
    run(tree, Side::Sss, TieBreak::Leftmost, true)
}

/// DUAL* with the OPEN list after every step.
pub fn dual_star_traced(tree: &Tree) -> (SearchResult, Vec<TraceStep>) {
    run(tree, Side::Dual, TieBreak::Leftmost, true)
}

/// Formats a state as `J,s,h`, e.g. `1.1.2,L,inf`.
pub fn format_state(tree: &Tree, s: &State, naming: Naming) -> String {
    format!(
        "{},{},{}",
        tree.label(s.node, naming),
        s.status.letter(),
        format_value(s.h)
    )
}

/// Formats an OPEN list: states separated by single spaces, head first.
pub fn format_open(tree: &Tree, open: &[State], naming: Naming) -> String {
    open.iter()
        .map(|s| format_state(tree, s, naming))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Formats a trace line `step rule OPEN`, rule `-` for step 1, e.g.
/// `5 1 1.1.2,L,inf 2,L,inf 3,L,inf 4,L,inf 1.1.1,S,2`.
pub fn format_trace_line(tree: &Tree, step: &TraceStep, naming: Naming) -> String {
    let rule = step.rule.map_or_else(|| "-".to_string(), |r| r.to_string());
    format!(
        "{} {} {}",
        step.step,
        rule,
        format_open(tree, &step.open, naming)
    )
}

/// Internal OPEN list. Merits are stored in SSS* orientation: for DUAL* the
/// run works on the dual tree (negated merits and leaves, roles swapped), so
/// one ordering serves both: `(h descending, tie key, node ascending)`, where
/// the tie key is 0 for [`TieBreak::Leftmost`] and the Γ-step number
/// (FIFO) or its negation (LIFO) otherwise.
struct Open {
    by_priority: BTreeSet<(Reverse<Value>, i64, NodeId, Status)>,
    by_node: BTreeSet<(NodeId, Reverse<Value>, i64, Status)>,
    tie: TieBreak,
    batch: i64,
}

impl Open {
    fn new(tie: TieBreak) -> Open {
        Open {
            by_priority: BTreeSet::new(),
            by_node: BTreeSet::new(),
            tie,
            batch: 0,
        }
    }

    /// Starts a new Γ step (states added by one step share a tie key).
    fn next_batch(&mut self) {
        self.batch += 1;
    }

    fn insert(&mut self, node: NodeId, status: Status, h: Value) {
        let key = match self.tie {
            TieBreak::Leftmost => 0,
            TieBreak::Fifo => self.batch,
            TieBreak::Lifo => -self.batch,
        };
        self.by_priority.insert((Reverse(h), key, node, status));
        self.by_node.insert((node, Reverse(h), key, status));
    }

    fn pop_head(&mut self) -> Option<(NodeId, Status, Value)> {
        let (Reverse(h), key, node, status) = self.by_priority.pop_first()?;
        self.by_node.remove(&(node, Reverse(h), key, status));
        Some((node, status, h))
    }

    /// Removes every state whose node lies in `first ..= last`.
    fn purge_range(&mut self, first: NodeId, last: NodeId) {
        if first > last {
            return;
        }
        let lo = (first, Reverse(Value::MAX), i64::MIN, Status::Live);
        let hi = (last, Reverse(Value::MIN), i64::MAX, Status::Solved);
        let doomed: Vec<_> = self
            .by_node
            .range((Bound::Included(lo), Bound::Included(hi)))
            .copied()
            .collect();
        for (node, h, key, status) in doomed {
            self.by_node.remove(&(node, h, key, status));
            self.by_priority.remove(&(h, key, node, status));
        }
    }

    fn snapshot(&self, side: Side) -> Vec<State> {
        self.by_priority
            .iter()
            .map(|&(Reverse(h), _, node, status)| State {
                node,
                status,
                h: external(side, h),
            })
            .collect()
    }
}

fn external(side: Side, h: Value) -> Value {
    match side {
        Side::Sss => h,
        Side::Dual => -h,
    }
}

/// Runs SSS* or DUAL* with the given tie-breaking; with `trace`, records the
/// OPEN list after each step.
pub fn run(tree: &Tree, side: Side, tie: TieBreak, trace: bool) -> (SearchResult, Vec<TraceStep>) {
    let mut rec = Recorder::new(tree);
    let mut steps = Vec::new();
    // The role a node plays for the searching side ("MAX" = the side itself).
    let role = |n: NodeId| match side {
        Side::Sss => tree.kind(n),
        Side::Dual => tree.kind(n).opposite(),
    };
    let mut open = Open::new(tie);
    open.insert(Tree::ROOT, Status::Live, INF);
    rec.visit(Tree::ROOT);
    let mut step = 1;
    if trace {
        steps.push(TraceStep {
            step,
            rule: None,
            open: open.snapshot(side),
        });
    }
    let value = loop {
        // Every rule adds at least one state, so OPEN is never empty here.
        let Some((j, status, h)) = open.pop_head() else {
            unreachable!("OPEN list emptied: every Γ rule adds a state");
        };
        if j == Tree::ROOT && status == Status::Solved {
            break external(side, h);
        }
        open.next_batch();
        let rule: u8 = match status {
            Status::Live => {
                if tree.is_leaf(j) {
                    let v = rec.eval(j);
                    let v = match side {
                        Side::Sss => v,
                        Side::Dual => -v,
                    };
                    open.insert(j, Status::Solved, h.min(v));
                    1
                } else if role(j) == NodeKind::Min {
                    let c = tree.children(j)[0];
                    rec.visit(c);
                    open.insert(c, Status::Live, h);
                    2
                } else {
                    for &c in tree.children(j) {
                        rec.visit(c);
                        open.insert(c, Status::Live, h);
                    }
                    3
                }
            }
            Status::Solved => {
                // `j` is not the root here, so it has a parent.
                let Some(p) = tree.parent(j) else {
                    unreachable!("only the root has no parent");
                };
                if role(j) == NodeKind::Min {
                    open.purge_range(p + 1, tree.subtree_end(p));
                    open.insert(p, Status::Solved, h);
                    4
                } else if let Some(sib) = tree.next_sibling(j) {
                    rec.visit(sib);
                    open.insert(sib, Status::Live, h);
                    6
                } else {
                    open.insert(p, Status::Solved, h);
                    5
                }
            }
        };
        step += 1;
        if trace {
            steps.push(TraceStep {
                step,
                rule: Some(rule),
                open: open.snapshot(side),
            });
        }
    };
    let algorithm = match side {
        Side::Sss => TreeAlgorithm::SssStar,
        Side::Dual => TreeAlgorithm::DualStar,
    };
    (rec.finish(algorithm, value, None), steps)
}
