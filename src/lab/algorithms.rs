//! The depth-first algorithms: minimax, negamax, alpha-beta (fail-hard and
//! fail-soft) and NegaScout (the catalogue [`TreeAlgorithm`] and the common
//! [`SearchResult`] are in [`super::kinds`]).
//!
//! Every algorithm counts leaf evaluations: `evaluations` counts every call
//! of the static evaluation (a leaf evaluated twice counts twice), while
//! `first_evaluated` lists each evaluated leaf once, in the order of its first
//! evaluation.

use super::kinds::{Recorder, SearchResult, TreeAlgorithm};
use super::tree::{INF, NodeId, NodeKind, Tree, Value};

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
    r.finish(TreeAlgorithm::Minimax, v, None)
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
    r.finish(TreeAlgorithm::Negamax, v, None)
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
    r.finish(TreeAlgorithm::AlphaBetaFailHard, v, None)
}

/// Alpha-beta, fail-soft (returns the best value seen even outside the
/// window), minimax form, root window `(-inf, +inf)`. Visits exactly the
/// nodes fail-hard visits.
pub fn alpha_beta_fail_soft(tree: &Tree) -> SearchResult {
    let mut r = Recorder::new(tree);
    let v = alpha_beta_soft_rec(&mut r, Tree::ROOT, -INF, INF);
    r.finish(TreeAlgorithm::AlphaBetaFailSoft, v, None)
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
    r.finish(TreeAlgorithm::NegaScout, v, None)
}
