//! Why SSS*/DUAL* break ties to the leftmost node: with either other natural
//! rule (FIFO: a new state goes behind equal merits; LIFO: in front of them)
//! the worked traces are not reproduced, Stockman's dominance over
//! alpha-beta fails and the equivalence with MT-SSS*/MT-DUAL* fails. The
//! trees below are the smallest counterexamples found by enumerating every
//! tree of up to 6 leaves and depth up to 4 with leaf values in {0, 1}
//! (in order of leaf count); the leftmost rule passed on all of them.

use std::collections::HashSet;

use nullwindow::lab::sss::{self, Side, TieBreak, format_trace_line};
use nullwindow::lab::{Naming, SearchResult, Tree, TreeAlgorithm};

fn tree(json: &str) -> Tree {
    Tree::from_json(json).expect("test tree parses")
}

fn first_labels(t: &Tree, r: &SearchResult) -> Vec<String> {
    r.first_evaluated_labels(t, Naming::Dewey)
}

fn dominated(small: &SearchResult, big: &SearchResult) -> bool {
    let big: HashSet<_> = big.first_evaluated.iter().collect();
    small.first_evaluated.iter().all(|n| big.contains(n))
}

fn trace(t: &Tree, tie: TieBreak) -> Vec<String> {
    sss::run(t, Side::Sss, tie, true)
        .1
        .iter()
        .map(|s| format_trace_line(t, s, Naming::Dewey))
        .collect()
}

#[test]
fn only_leftmost_reproduces_the_worked_traces() {
    let ex1 = tree("[[[2,2]],[[7],[6,0]],[[1]],[[2],[9]]]");
    let ex2 = tree("[[5,-2,3],[1,-5,7],[5,5,4]]");
    // FIFO: the MIN node's child goes behind the older states of equal h.
    assert_eq!(
        trace(&ex1, TieBreak::Fifo)[2],
        "3 2 2,L,inf 3,L,inf 4,L,inf 1.1,L,inf"
    );
    assert_eq!(
        trace(&ex2, TieBreak::Fifo)[2],
        "3 2 2,L,inf 3,L,inf 1.1,L,inf"
    );
    // LIFO: the newer 1.1.2,S,2 jumps in front of 1.1.1,S,2.
    assert_eq!(
        trace(&ex1, TieBreak::Lifo)[5],
        "6 1 2,L,inf 3,L,inf 4,L,inf 1.1.2,S,2 1.1.1,S,2"
    );
    // LIFO: k,S,5 in front of e,S,5 (step 8).
    assert_eq!(
        trace(&ex2, TieBreak::Lifo)[7],
        "8 1 3.1,S,5 1.1,S,5 2.1,S,1"
    );
    // Leftmost reproduces them (checked line by line in lab_trees.rs).
    assert_eq!(trace(&ex1, TieBreak::Leftmost).len(), 23);
    assert_eq!(
        trace(&ex2, TieBreak::Leftmost)[7],
        "8 1 1.1,S,5 3.1,S,5 2.1,S,1"
    );
}

#[test]
fn fifo_counterexamples() {
    // MT-SSS* equivalence: same leaves, different order.
    let t = tree("[[0],0]");
    let fifo = sss::run(&t, Side::Sss, TieBreak::Fifo, false).0;
    assert_eq!(first_labels(&t, &fifo), ["2", "1.1"]);
    let mt = TreeAlgorithm::MtSssStar.run(&t);
    assert_eq!(first_labels(&t, &mt), ["1.1", "2"]);
    assert_eq!(
        first_labels(&t, &TreeAlgorithm::SssStar.run(&t)),
        ["1.1", "2"]
    );

    // MT-DUAL* equivalence.
    let t = tree("[[[0],0]]");
    let fifo = sss::run(&t, Side::Dual, TieBreak::Fifo, false).0;
    let mt = TreeAlgorithm::MtDualStar.run(&t);
    assert_ne!(fifo.first_evaluated, mt.first_evaluated);
    assert_eq!(
        TreeAlgorithm::DualStar.run(&t).first_evaluated,
        mt.first_evaluated
    );

    // DUAL* dominance over alpha-beta.
    let t = tree("[0,[0,0]]");
    let ab = TreeAlgorithm::AlphaBetaFailHard.run(&t);
    assert_eq!(first_labels(&t, &ab), ["1", "2.1"]);
    let fifo = sss::run(&t, Side::Dual, TieBreak::Fifo, false).0;
    assert!(!dominated(&fifo, &ab));
    assert!(dominated(&TreeAlgorithm::DualStar.run(&t), &ab));

    // SSS* dominance over alpha-beta: FIFO evaluates 2.2, alpha-beta cuts it.
    let t = tree("[[[0]],[0,0]]");
    let ab = TreeAlgorithm::AlphaBetaFailHard.run(&t);
    assert_eq!(first_labels(&t, &ab), ["1.1.1", "2.1"]);
    let fifo = sss::run(&t, Side::Sss, TieBreak::Fifo, false).0;
    assert!(first_labels(&t, &fifo).contains(&"2.2".to_string()));
    assert!(dominated(&TreeAlgorithm::SssStar.run(&t), &ab));
}

#[test]
fn lifo_counterexamples() {
    // SSS* dominance and MT-SSS* equivalence: after (1,S,0) the newer
    // (2.1,S,0) is popped first, so 2.2 is evaluated; alpha-beta cuts 2.2
    // since 2.1 = 0 <= alpha = 0.
    let t = tree("[0,[0,0]]");
    let lifo = sss::run(&t, Side::Sss, TieBreak::Lifo, false).0;
    assert_eq!(first_labels(&t, &lifo), ["1", "2.1", "2.2"]);
    let ab = TreeAlgorithm::AlphaBetaFailHard.run(&t);
    assert_eq!(first_labels(&t, &ab), ["1", "2.1"]);
    assert!(!dominated(&lifo, &ab));
    let sss = TreeAlgorithm::SssStar.run(&t);
    assert_eq!(first_labels(&t, &sss), ["1", "2.1"]);
    assert_eq!(
        sss.first_evaluated,
        TreeAlgorithm::MtSssStar.run(&t).first_evaluated
    );

    // DUAL* dominance and MT-DUAL* equivalence.
    let t = tree("[[0,[0,0]]]");
    let lifo = sss::run(&t, Side::Dual, TieBreak::Lifo, false).0;
    let ab = TreeAlgorithm::AlphaBetaFailHard.run(&t);
    assert!(!dominated(&lifo, &ab));
    assert_ne!(
        lifo.first_evaluated,
        TreeAlgorithm::MtDualStar.run(&t).first_evaluated
    );
    assert!(dominated(&TreeAlgorithm::DualStar.run(&t), &ab));
}
