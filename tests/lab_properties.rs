//! Property tests of the lab algorithms on thousands of random trees
//! (deterministic seeds).
//!
//! Families: uniform trees with random values, the same trees well-ordered
//! (best child first everywhere), trees of non-uniform depth, trees with many
//! equal leaf values (values drawn from {0, 1, 2} or {-1, 0, 1}), and small
//! degenerate trees with single-child nodes.
//!
//! Properties checked on every tree:
//!
//! 1. every algorithm returns the minimax value;
//! 2. Stockman's dominance: the leaves SSS* evaluates are a subset of the
//!    leaves alpha-beta evaluates; the same for DUAL*;
//! 3. MT-SSS* (unbounded table) evaluates the same leaves, first evaluations
//!    in the same order, as the OPEN-list SSS*; the same for DUAL* and
//!    MT-DUAL*;
//! 4. fail-hard and fail-soft alpha-beta evaluate the same leaves in the same
//!    order; every algorithm except NegaScout evaluates each leaf at most
//!    once; minimax and negamax evaluate every leaf left to right;
//! 5. C*/MTD-bi and MTD(f) (with an unbounded table) evaluate only leaves
//!    that alpha-beta evaluates.
//!
//! If a property fails, the failing tree is shrunk greedily to a small
//! counterexample, which the panic message prints as JSON.

use std::collections::HashSet;
use std::time::Instant;

use nullwindow::lab::{NodeKind, SearchResult, Tree, TreeAlgorithm, TreeSpec, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Upper bound on the number of leaves of a generated tree.
const LEAF_CAP: usize = 20_000;

#[derive(Clone, Copy, Debug)]
struct Shape {
    depth: usize,
    bmin: usize,
    bmax: usize,
    /// Probability that a non-root node above the maximum depth is a leaf.
    leaf_prob: f64,
    lo: i32,
    hi: i32,
}

fn generate(rng: &mut StdRng, s: &Shape) -> TreeSpec {
    fn go(rng: &mut StdRng, s: &Shape, d: usize) -> TreeSpec {
        if d == s.depth || (d > 0 && s.leaf_prob > 0.0 && rng.random_bool(s.leaf_prob)) {
            TreeSpec::Leaf(rng.random_range(s.lo..=s.hi))
        } else {
            let b = rng.random_range(s.bmin..=s.bmax);
            TreeSpec::Node((0..b).map(|_| go(rng, s, d + 1)).collect())
        }
    }
    loop {
        let spec = go(rng, s, 0);
        if leaf_count(&spec) <= LEAF_CAP {
            return spec;
        }
    }
}

fn leaf_count(spec: &TreeSpec) -> usize {
    match spec {
        TreeSpec::Leaf(_) => 1,
        TreeSpec::Node(c) => c.iter().map(leaf_count).sum(),
    }
}

/// Reorders children best-first at every node (MAX: descending value, MIN:
/// ascending; stable), returning the subtree's minimax value.
fn order_best_first(spec: &mut TreeSpec, max: bool) -> Value {
    match spec {
        TreeSpec::Leaf(v) => Value::from(*v),
        TreeSpec::Node(children) => {
            let mut valued: Vec<(Value, TreeSpec)> = children
                .drain(..)
                .map(|mut c| (order_best_first(&mut c, !max), c))
                .collect();
            if max {
                valued.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
            } else {
                valued.sort_by_key(|(v, _)| *v);
            }
            let best = valued[0].0;
            children.extend(valued.into_iter().map(|(_, c)| c));
            best
        }
    }
}

fn leaf_set(r: &SearchResult) -> HashSet<usize> {
    r.first_evaluated.iter().copied().collect()
}

fn labels(tree: &Tree, ids: &[usize]) -> String {
    ids.iter()
        .map(|&n| tree.dewey(n))
        .collect::<Vec<_>>()
        .join(" ")
}

fn subset_violation(tree: &Tree, small: &SearchResult, big: &SearchResult) -> Option<String> {
    let big_set = leaf_set(big);
    let extra: Vec<usize> = small
        .first_evaluated
        .iter()
        .copied()
        .filter(|n| !big_set.contains(n))
        .collect();
    (!extra.is_empty()).then(|| {
        format!(
            "{} evaluates leaves {} that {} does not",
            small.algorithm,
            labels(tree, &extra),
            big.algorithm
        )
    })
}

fn same_order(tree: &Tree, a: &SearchResult, b: &SearchResult) -> Option<String> {
    (a.first_evaluated != b.first_evaluated || a.evaluations != b.evaluations).then(|| {
        format!(
            "{} evaluates [{}] ({} evals) but {} evaluates [{}] ({} evals)",
            a.algorithm,
            labels(tree, &a.first_evaluated),
            a.evaluations,
            b.algorithm,
            labels(tree, &b.first_evaluated),
            b.evaluations
        )
    })
}

/// Which properties a check covers (so a failure can be shrunk against the
/// property that failed only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Property {
    Value,
    SssDominance,
    DualDominance,
    MtSssEquivalence,
    MtDualEquivalence,
    AlphaBetaVariants,
    SingleEvaluation,
    MtDriversDominance,
}

const PROPERTIES: [Property; 8] = [
    Property::Value,
    Property::SssDominance,
    Property::DualDominance,
    Property::MtSssEquivalence,
    Property::MtDualEquivalence,
    Property::AlphaBetaVariants,
    Property::SingleEvaluation,
    Property::MtDriversDominance,
];

fn check(tree: &Tree, prop: Property, results: &[SearchResult]) -> Option<String> {
    let get =
        |a: TreeAlgorithm| &results[TreeAlgorithm::ALL.iter().position(|&b| b == a).unwrap_or(0)];
    let ab = get(TreeAlgorithm::AlphaBetaFailHard);
    match prop {
        Property::Value => {
            let v = tree.minimax_value();
            results
                .iter()
                .find(|r| r.value != v)
                .map(|r| format!("{} returns {} instead of {v}", r.algorithm, r.value))
        }
        Property::SssDominance => subset_violation(tree, get(TreeAlgorithm::SssStar), ab),
        Property::DualDominance => subset_violation(tree, get(TreeAlgorithm::DualStar), ab),
        Property::MtSssEquivalence => same_order(
            tree,
            get(TreeAlgorithm::SssStar),
            get(TreeAlgorithm::MtSssStar),
        ),
        Property::MtDualEquivalence => same_order(
            tree,
            get(TreeAlgorithm::DualStar),
            get(TreeAlgorithm::MtDualStar),
        ),
        Property::AlphaBetaVariants => same_order(tree, ab, get(TreeAlgorithm::AlphaBetaFailSoft)),
        Property::SingleEvaluation => {
            let all: Vec<usize> = tree.leaves().to_vec();
            for r in results {
                if r.algorithm != TreeAlgorithm::NegaScout && r.evaluations != r.distinct_leaves() {
                    return Some(format!("{} re-evaluates leaves", r.algorithm));
                }
            }
            for a in [TreeAlgorithm::Minimax, TreeAlgorithm::Negamax] {
                if get(a).first_evaluated != all {
                    return Some(format!("{a} does not evaluate all leaves left to right"));
                }
            }
            None
        }
        Property::MtDriversDominance => subset_violation(tree, get(TreeAlgorithm::MtdBi), ab)
            .or_else(|| subset_violation(tree, get(TreeAlgorithm::MtdF), ab)),
    }
}

fn run_all(tree: &Tree) -> Vec<SearchResult> {
    TreeAlgorithm::ALL.iter().map(|a| a.run(tree)).collect()
}

fn first_failure(tree: &Tree) -> Option<(Property, String)> {
    let results = run_all(tree);
    PROPERTIES
        .iter()
        .find_map(|&p| check(tree, p, &results).map(|m| (p, m)))
}

fn fails(spec: &TreeSpec, prop: Property) -> bool {
    match Tree::from_spec(spec) {
        Ok(t) => check(&t, prop, &run_all(&t)).is_some(),
        Err(_) => false,
    }
}

fn size(spec: &TreeSpec) -> usize {
    match spec {
        TreeSpec::Leaf(v) => 1 + v.unsigned_abs() as usize,
        TreeSpec::Node(c) => 1 + c.iter().map(size).sum::<usize>(),
    }
}

/// All trees one shrinking step smaller than `spec`: a subtree replaced by
/// one of its children or by a leaf, a child removed, a leaf value moved
/// towards 0.
fn shrink_candidates(spec: &TreeSpec) -> Vec<TreeSpec> {
    let mut out = Vec::new();
    match spec {
        TreeSpec::Leaf(v) => {
            if *v != 0 {
                out.push(TreeSpec::Leaf(0));
                out.push(TreeSpec::Leaf(v - v.signum()));
            }
        }
        TreeSpec::Node(children) => {
            for c in children {
                out.push(c.clone());
            }
            out.push(TreeSpec::Leaf(0));
            if children.len() > 1 {
                for i in 0..children.len() {
                    let mut c = children.clone();
                    c.remove(i);
                    out.push(TreeSpec::Node(c));
                }
            }
            for i in 0..children.len() {
                for smaller in shrink_candidates(&children[i]) {
                    let mut c = children.clone();
                    c[i] = smaller;
                    out.push(TreeSpec::Node(c));
                }
            }
        }
    }
    out
}

fn shrink(mut spec: TreeSpec, prop: Property) -> TreeSpec {
    loop {
        let mut best: Option<TreeSpec> = None;
        for cand in shrink_candidates(&spec) {
            if size(&cand) < size(&spec)
                && best.as_ref().is_none_or(|b| size(&cand) < size(b))
                && fails(&cand, prop)
            {
                best = Some(cand);
            }
        }
        match best {
            Some(b) => spec = b,
            None => return spec,
        }
    }
}

#[derive(Default)]
struct Tally {
    trees: usize,
    leaves: usize,
    /// Trees where SSS* evaluates strictly fewer leaves than alpha-beta.
    sss_strictly_better: usize,
    /// Trees where DUAL* evaluates strictly fewer leaves than alpha-beta.
    dual_strictly_better: usize,
    /// Trees where SSS* and DUAL* evaluate different leaf sets.
    sss_dual_differ: usize,
    /// Trees where NegaScout re-evaluates some leaf.
    negascout_reevaluates: usize,
}

/// On a best-first ordered tree alpha-beta evaluates the minimal tree, so no
/// algorithm that never evaluates more (SSS*, DUAL*, the MT drivers) can
/// evaluate anything else; NegaScout's null-window tests all fail low and it
/// evaluates the same leaves too. For a uniform tree of branching `b` and
/// depth `d` with distinct values that is Knuth and Moore's
/// `b^ceil(d/2) + b^floor(d/2) - 1` leaves.
fn well_ordered_violation(tree: &Tree, results: &[SearchResult]) -> Option<String> {
    let ab = &results[2];
    for r in results {
        if !matches!(r.algorithm, TreeAlgorithm::Minimax | TreeAlgorithm::Negamax)
            && leaf_set(r) != leaf_set(ab)
        {
            return Some(format!(
                "on a well-ordered tree {} evaluates [{}], alpha-beta [{}]",
                r.algorithm,
                labels(tree, &r.first_evaluated),
                labels(tree, &ab.first_evaluated)
            ));
        }
    }
    None
}

fn run_family(
    name: &str,
    seed: u64,
    count: usize,
    tally: &mut Tally,
    well_ordered: bool,
    mut make: impl FnMut(&mut StdRng) -> TreeSpec,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    let start = Instant::now();
    let mut leaves = 0;
    for i in 0..count {
        let spec = make(&mut rng);
        let tree = Tree::from_spec(&spec).expect("generated tree is valid");
        leaves += tree.leaves().len();
        let results = run_all(&tree);
        let get = |a: TreeAlgorithm| {
            &results[TreeAlgorithm::ALL.iter().position(|&b| b == a).unwrap_or(0)]
        };
        let ab = get(TreeAlgorithm::AlphaBetaFailHard).distinct_leaves();
        let sss = get(TreeAlgorithm::SssStar);
        let dual = get(TreeAlgorithm::DualStar);
        tally.sss_strictly_better += usize::from(sss.distinct_leaves() < ab);
        tally.dual_strictly_better += usize::from(dual.distinct_leaves() < ab);
        tally.sss_dual_differ += usize::from(leaf_set(sss) != leaf_set(dual));
        let ns = get(TreeAlgorithm::NegaScout);
        tally.negascout_reevaluates += usize::from(ns.evaluations > ns.distinct_leaves());
        assert_eq!(results[2].algorithm, TreeAlgorithm::AlphaBetaFailHard);
        if well_ordered && let Some(msg) = well_ordered_violation(&tree, &results) {
            panic!(
                "{name} tree #{i} (seed {seed}): {msg}\ntree: {}",
                spec.to_json()
            );
        }
        let failure = PROPERTIES
            .iter()
            .find_map(|&p| check(&tree, p, &results).map(|m| (p, m)));
        if let Some((prop, msg)) = failure {
            let small = shrink(spec.clone(), prop);
            let small_tree = Tree::from_spec(&small).expect("shrunk tree is valid");
            let why = first_failure(&small_tree)
                .map(|(_, m)| m)
                .unwrap_or_default();
            panic!(
                "{name} tree #{i} (seed {seed}) violates {prop:?}: {msg}\n\
                 minimal counterexample: {}\n  {why}",
                small.to_json()
            );
        }
    }
    println!(
        "{name}: {count} trees, {leaves} leaves, {:.2?}",
        start.elapsed()
    );
    tally.trees += count;
    tally.leaves += leaves;
}

fn random_shape(rng: &mut StdRng, lo: i32, hi: i32, leaf_prob: f64) -> Shape {
    // Mostly small trees; depth 7 only with branching up to 4 (4^7 = 16384
    // leaves), so the leaf cap is never hit for uniform trees.
    let depth = match rng.random_range(0..100) {
        0..=29 => rng.random_range(2..=3),
        30..=64 => 4,
        65..=84 => 5,
        85..=94 => 6,
        _ => 7,
    };
    let bmax = match depth {
        7 => rng.random_range(2..=4),
        6 => rng.random_range(2..=5),
        _ => rng.random_range(2..=5),
    };
    let bmin = rng.random_range(2..=bmax);
    Shape {
        depth,
        bmin,
        bmax,
        leaf_prob,
        lo,
        hi,
    }
}

#[test]
fn properties_on_random_trees() {
    let start = Instant::now();
    let mut tally = Tally::default();
    run_family(
        "uniform, random values",
        1,
        1500,
        &mut tally,
        false,
        |rng| {
            let s = random_shape(rng, -100, 100, 0.0);
            generate(rng, &s)
        },
    );
    run_family("uniform, well-ordered", 2, 1000, &mut tally, true, |rng| {
        let s = random_shape(rng, -100, 100, 0.0);
        let mut spec = generate(rng, &s);
        order_best_first(&mut spec, true);
        spec
    });
    run_family("non-uniform depth", 3, 1500, &mut tally, false, |rng| {
        let p = rng.random_range(0.1..0.5);
        let s = random_shape(rng, -100, 100, p);
        generate(rng, &s)
    });
    run_family("many ties {0,1,2}", 4, 1500, &mut tally, false, |rng| {
        let s = random_shape(rng, 0, 2, 0.0);
        generate(rng, &s)
    });
    run_family(
        "non-uniform, ties {-1,0,1}",
        5,
        1500,
        &mut tally,
        false,
        |rng| {
            let p = rng.random_range(0.1..0.5);
            let s = random_shape(rng, -1, 1, p);
            generate(rng, &s)
        },
    );
    run_family(
        "well-ordered, ties {0,1,2}",
        6,
        500,
        &mut tally,
        true,
        |rng| {
            let s = random_shape(rng, 0, 2, 0.2);
            let mut spec = generate(rng, &s);
            order_best_first(&mut spec, true);
            spec
        },
    );
    run_family(
        "small, single-child nodes",
        7,
        3000,
        &mut tally,
        false,
        |rng| {
            let s = Shape {
                depth: rng.random_range(1..=5),
                bmin: 1,
                bmax: 3,
                leaf_prob: 0.25,
                lo: -3,
                hi: 3,
            };
            generate(rng, &s)
        },
    );
    println!(
        "total: {} trees, {} leaves, {:.2?}",
        tally.trees,
        tally.leaves,
        start.elapsed()
    );
    println!(
        "SSS* < alpha-beta on {} trees, DUAL* < alpha-beta on {}, SSS* != DUAL* leaves on {}, \
         NegaScout re-evaluates on {}",
        tally.sss_strictly_better,
        tally.dual_strictly_better,
        tally.sss_dual_differ,
        tally.negascout_reevaluates
    );
    assert!(tally.trees >= 10_000);
    // The properties are not vacuous: the algorithms really differ.
    assert!(tally.sss_strictly_better > 1000);
    assert!(tally.dual_strictly_better > 1000);
    assert!(tally.sss_dual_differ > 1000);
    assert!(tally.negascout_reevaluates > 1000);
}

/// Every tree shape with `leaves` leaves and height at most `depth`, written
/// as JSON with `x` for each leaf (single-child nodes included).
fn shapes(leaves: usize, depth: usize) -> Vec<String> {
    fn compositions(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for first in 1..=n {
            for mut rest in compositions(n - first) {
                rest.insert(0, first);
                out.push(rest);
            }
        }
        out
    }
    let mut out = Vec::new();
    if leaves == 1 {
        out.push("x".to_string());
    }
    if depth == 0 {
        return out;
    }
    for parts in compositions(leaves) {
        let mut partial = vec![String::new()];
        for (i, &part) in parts.iter().enumerate() {
            let subs = shapes(part, depth - 1);
            let mut next = Vec::new();
            for p in &partial {
                for sub in &subs {
                    next.push(if i == 0 {
                        sub.clone()
                    } else {
                        format!("{p},{sub}")
                    });
                }
            }
            partial = next;
        }
        out.extend(partial.into_iter().map(|p| format!("[{p}]")));
    }
    out
}

/// Runs the properties on every filling of every shape with values
/// `0..values`; returns the number of trees.
fn exhaustive(max_leaves: usize, depth: usize, values: usize) -> usize {
    let mut count = 0;
    for n in 1..=max_leaves {
        for shape in shapes(n, depth) {
            let holes = shape.matches('x').count();
            for mut code in 0..values.pow(holes as u32) {
                let mut json = String::with_capacity(shape.len());
                for ch in shape.chars() {
                    if ch == 'x' {
                        json.push_str(&(code % values).to_string());
                        code /= values;
                    } else {
                        json.push(ch);
                    }
                }
                let tree = Tree::from_json(&json).expect("valid tree");
                if let Some((prop, msg)) = first_failure(&tree) {
                    panic!("{json} violates {prop:?}: {msg}");
                }
                count += 1;
            }
        }
    }
    count
}

/// Exhaustive check of every small tree with few distinct values: the place
/// where ties matter most (all shapes, including single-child chains and
/// leaves at any depth).
#[test]
fn properties_on_all_small_trees() {
    let start = Instant::now();
    let a = exhaustive(4, 4, 3);
    let b = exhaustive(5, 3, 2);
    println!(
        "exhaustive: {a} trees (<= 4 leaves, height <= 4, values 0..=2) + \
         {b} trees (<= 5 leaves, height <= 3, values 0..=1), {:.2?}",
        start.elapsed()
    );
    // Counts include the one-node trees whose root is a leaf.
    assert_eq!(a, 3 + 12 + 270 + 6642 + 164_997);
    assert_eq!(b, 2 + 6 + 56 + 560 + 5648 + 57_024);
}

/// Uniform trees (branching `b`, depth `d`) with distinct values, ordered
/// best-first: every pruning algorithm evaluates exactly Knuth and Moore's
/// minimal tree of `b^ceil(d/2) + b^floor(d/2) - 1` leaves.
#[test]
fn knuth_moore_minimal_tree_on_perfectly_ordered_trees() {
    use rand::seq::SliceRandom;
    fn build(b: usize, d: usize, values: &mut impl Iterator<Item = i32>) -> TreeSpec {
        if d == 0 {
            TreeSpec::Leaf(values.next().unwrap_or(0))
        } else {
            TreeSpec::Node((0..b).map(|_| build(b, d - 1, values)).collect())
        }
    }
    let mut rng = StdRng::seed_from_u64(8);
    let mut count = 0;
    for b in 2..=5usize {
        for d in 1..=6usize {
            if b.pow(d as u32) > LEAF_CAP {
                continue;
            }
            for _ in 0..5 {
                let n = b.pow(d as u32) as i32;
                let mut vals: Vec<i32> = (0..n).collect();
                vals.shuffle(&mut rng);
                let mut spec = build(b, d, &mut vals.into_iter());
                order_best_first(&mut spec, true);
                let tree = Tree::from_spec(&spec).expect("valid tree");
                let minimal = b.pow(d.div_ceil(2) as u32) + b.pow((d / 2) as u32) - 1;
                for alg in TreeAlgorithm::ALL {
                    let r = alg.run(&tree);
                    assert_eq!(r.value, tree.minimax_value());
                    if !matches!(alg, TreeAlgorithm::Minimax | TreeAlgorithm::Negamax) {
                        assert_eq!(r.distinct_leaves(), minimal, "{alg}, b={b}, d={d}");
                    }
                }
                count += 1;
            }
        }
    }
    println!("perfectly ordered uniform trees: {count}");
}

#[test]
fn kinds_alternate() {
    let t = Tree::from_json("[[1,[2,[3]]]]").expect("valid");
    for n in 0..t.len() {
        let expected = if t.depth(n).is_multiple_of(2) {
            NodeKind::Max
        } else {
            NodeKind::Min
        };
        assert_eq!(t.kind(n), expected);
    }
}
