//! The two worked SSS* examples, step by step, plus CLI, naming and SVG checks.

use nullwindow::lab::cli::run_sss_cli_to;
use nullwindow::lab::sss::{self, TraceStep, format_open, format_trace_line};
use nullwindow::lab::svg::{NodeClass, classify, render_svg};
use nullwindow::lab::{Naming, Tree, TreeAlgorithm};

const EXAMPLE_1: &str = "[[[2,2]],[[7],[6,0]],[[1]],[[2],[9]]]";
const EXAMPLE_2: &str = "[[5,-2,3],[1,-5,7],[5,5,4]]";

/// Expected (rule, OPEN) after every step of example 1. Steps 6-14 are
/// derived from the rules; all others are the published lines (filled in
/// where the publication writes "...").
const EXAMPLE_1_TRACE: [(&str, &str); 23] = [
    ("-", "e,L,inf"),
    ("3", "1,L,inf 2,L,inf 3,L,inf 4,L,inf"),
    ("2", "1.1,L,inf 2,L,inf 3,L,inf 4,L,inf"),
    ("3", "1.1.1,L,inf 1.1.2,L,inf 2,L,inf 3,L,inf 4,L,inf"),
    ("1", "1.1.2,L,inf 2,L,inf 3,L,inf 4,L,inf 1.1.1,S,2"),
    ("1", "2,L,inf 3,L,inf 4,L,inf 1.1.1,S,2 1.1.2,S,2"),
    ("2", "2.1,L,inf 3,L,inf 4,L,inf 1.1.1,S,2 1.1.2,S,2"),
    ("3", "2.1.1,L,inf 3,L,inf 4,L,inf 1.1.1,S,2 1.1.2,S,2"),
    ("1", "3,L,inf 4,L,inf 2.1.1,S,7 1.1.1,S,2 1.1.2,S,2"),
    ("2", "3.1,L,inf 4,L,inf 2.1.1,S,7 1.1.1,S,2 1.1.2,S,2"),
    ("3", "3.1.1,L,inf 4,L,inf 2.1.1,S,7 1.1.1,S,2 1.1.2,S,2"),
    ("1", "4,L,inf 2.1.1,S,7 1.1.1,S,2 1.1.2,S,2 3.1.1,S,1"),
    ("2", "4.1,L,inf 2.1.1,S,7 1.1.1,S,2 1.1.2,S,2 3.1.1,S,1"),
    ("3", "4.1.1,L,inf 2.1.1,S,7 1.1.1,S,2 1.1.2,S,2 3.1.1,S,1"),
    ("1", "2.1.1,S,7 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1"),
    ("4", "2.1,S,7 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1"),
    ("6", "2.2,L,7 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1"),
    (
        "3",
        "2.2.1,L,7 2.2.2,L,7 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1",
    ),
    (
        "1",
        "2.2.2,L,7 2.2.1,S,6 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1",
    ),
    (
        "1",
        "2.2.1,S,6 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1 2.2.2,S,0",
    ),
    ("4", "2.2,S,6 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1"),
    ("5", "2,S,6 1.1.1,S,2 1.1.2,S,2 4.1.1,S,2 3.1.1,S,1"),
    ("4", "e,S,6"),
];

/// Expected (rule, OPEN) after every step of example 2, in letters.
const EXAMPLE_2_TRACE: [(&str, &str); 16] = [
    ("-", "a,L,inf"),
    ("3", "b,L,inf c,L,inf d,L,inf"),
    ("2", "e,L,inf c,L,inf d,L,inf"),
    ("1", "c,L,inf d,L,inf e,S,5"),
    ("2", "h,L,inf d,L,inf e,S,5"),
    ("1", "d,L,inf e,S,5 h,S,1"),
    ("2", "k,L,inf e,S,5 h,S,1"),
    ("1", "e,S,5 k,S,5 h,S,1"),
    ("6", "f,L,5 k,S,5 h,S,1"),
    ("1", "k,S,5 h,S,1 f,S,-2"),
    ("6", "l,L,5 h,S,1 f,S,-2"),
    ("1", "l,S,5 h,S,1 f,S,-2"),
    ("6", "m,L,5 h,S,1 f,S,-2"),
    ("1", "m,S,4 h,S,1 f,S,-2"),
    ("5", "d,S,4 h,S,1 f,S,-2"),
    ("4", "a,S,4"),
];

fn tree(json: &str) -> Tree {
    Tree::from_json(json).expect("test tree parses")
}

fn check_trace(tree: &Tree, steps: &[TraceStep], expected: &[(&str, &str)], naming: Naming) {
    assert_eq!(steps.len(), expected.len(), "number of OPEN lists");
    for (i, (step, (rule, open))) in steps.iter().zip(expected).enumerate() {
        assert_eq!(step.step, i + 1);
        assert_eq!(
            format_open(tree, &step.open, naming),
            *open,
            "OPEN after step {}",
            i + 1
        );
        let r = step.rule.map_or_else(|| "-".to_string(), |r| r.to_string());
        assert_eq!(r, *rule, "rule at step {}", i + 1);
        assert_eq!(
            format_trace_line(tree, step, naming),
            format!("{} {} {}", i + 1, rule, open)
        );
    }
}

fn labels(tree: &Tree, ids: &[usize], naming: Naming) -> Vec<String> {
    ids.iter().map(|&n| tree.label(n, naming)).collect()
}

#[test]
fn example_1_trace_step_by_step() {
    let t = tree(EXAMPLE_1);
    let (result, steps) = sss::sss_star_traced(&t);
    check_trace(&t, &steps, &EXAMPLE_1_TRACE, Naming::Dewey);
    assert_eq!(result.value, 6);
    assert_eq!(steps.len(), 23);
    assert_eq!(result.evaluations, 7);
    assert_eq!(result.distinct_leaves(), 7);
    assert_eq!(
        labels(&t, &result.first_evaluated, Naming::Dewey),
        [
            "1.1.1", "1.1.2", "2.1.1", "3.1.1", "4.1.1", "2.2.1", "2.2.2"
        ]
    );
    for never in ["4.2", "4.2.1"] {
        let n = t.find_dewey(never).expect("node exists");
        assert!(!result.was_visited(n), "{never} must never be visited");
    }
    // The published steps 2-4 label their cases 2, 3, 2; by the rule
    // definitions they are 3 (MAX root), 2 (MIN node 1), 3 (MAX node 1.1).
    let rules: Vec<_> = steps[1..4].iter().map(|s| s.rule).collect();
    assert_eq!(rules, [Some(3), Some(2), Some(3)]);
}

#[test]
fn example_1_leaf_4_2_1_may_be_anything() {
    for v in [-1000, -1, 0, 5, 6, 7, 9, 1000] {
        let t = tree(&format!("[[[2,2]],[[7],[6,0]],[[1]],[[2],[{v}]]]"));
        let (result, steps) = sss::sss_star_traced(&t);
        check_trace(&t, &steps, &EXAMPLE_1_TRACE, Naming::Dewey);
        assert_eq!(result.value, 6);
    }
}

#[test]
fn example_2_trace_step_by_step_in_letters() {
    let t = tree(EXAMPLE_2);
    // Breadth-first letters: b, c, d for the root's children, e..m leaves.
    assert_eq!(t.letters(Tree::ROOT), "a");
    let kids: Vec<_> = t
        .children(Tree::ROOT)
        .iter()
        .map(|&c| t.letters(c))
        .collect();
    assert_eq!(kids, ["b", "c", "d"]);
    let leaves: Vec<_> = t.leaves().iter().map(|&c| t.letters(c)).collect();
    assert_eq!(leaves, ["e", "f", "g", "h", "i", "j", "k", "l", "m"]);

    let (result, steps) = sss::sss_star_traced(&t);
    check_trace(&t, &steps, &EXAMPLE_2_TRACE, Naming::Letters);
    assert_eq!(result.value, 4);
    assert_eq!(
        labels(&t, &result.first_evaluated, Naming::Letters),
        ["e", "h", "k", "f", "l", "m"]
    );
    // SSS* never evaluates g, i, j; alpha-beta skips only j.
    let ab = TreeAlgorithm::AlphaBetaFailHard.run(&t);
    assert_eq!(ab.value, 4);
    let mut ab_leaves = labels(&t, &ab.first_evaluated, Naming::Letters);
    ab_leaves.sort();
    assert_eq!(ab_leaves, ["e", "f", "g", "h", "i", "k", "l", "m"]);
    let sss_leaves = labels(&t, &result.first_evaluated, Naming::Letters);
    for skipped in ["g", "i", "j"] {
        assert!(!sss_leaves.iter().any(|l| l == skipped));
    }
}

#[test]
fn example_2_dual_star_trace() {
    let t = tree(EXAMPLE_2);
    let (result, steps) = sss::dual_star_traced(&t);
    let lines: Vec<_> = steps
        .iter()
        .map(|s| format_trace_line(&t, s, Naming::Letters))
        .collect();
    // Derived by hand from the mirrored rules (OPEN ascending in h).
    let expected = [
        "1 - a,L,-inf",
        "2 2 b,L,-inf",
        "3 3 e,L,-inf f,L,-inf g,L,-inf",
        "4 1 f,L,-inf g,L,-inf e,S,5",
        "5 1 g,L,-inf f,S,-2 e,S,5",
        "6 1 f,S,-2 g,S,3 e,S,5",
        "7 4 b,S,-2",
        "8 6 c,L,-2",
        "9 3 h,L,-2 i,L,-2 j,L,-2",
        "10 1 i,L,-2 j,L,-2 h,S,1",
        "11 1 i,S,-2 j,L,-2 h,S,1",
        "12 4 c,S,-2",
        "13 6 d,L,-2",
        "14 3 k,L,-2 l,L,-2 m,L,-2",
        "15 1 l,L,-2 m,L,-2 k,S,5",
        "16 1 m,L,-2 k,S,5 l,S,5",
        "17 1 m,S,4 k,S,5 l,S,5",
        "18 4 d,S,4",
        "19 5 a,S,4",
    ];
    assert_eq!(lines, expected);
    assert_eq!(result.value, 4);
    assert_eq!(
        labels(&t, &result.first_evaluated, Naming::Letters),
        ["e", "f", "g", "h", "i", "k", "l", "m"]
    );
}

#[test]
fn every_algorithm_on_the_examples() {
    for (json, value) in [(EXAMPLE_1, 6), (EXAMPLE_2, 4)] {
        let t = tree(json);
        for alg in TreeAlgorithm::ALL {
            let r = alg.run(&t);
            assert_eq!(r.value, value, "{alg} on {json}");
            assert_eq!(r.algorithm, alg);
            assert_eq!(r.mt_calls.is_some(), alg.is_mt_driver());
            assert!(r.evaluations >= r.distinct_leaves());
        }
        let sss = TreeAlgorithm::SssStar.run(&t);
        let mt = TreeAlgorithm::MtSssStar.run(&t);
        assert_eq!(sss.first_evaluated, mt.first_evaluated);
        let dual = TreeAlgorithm::DualStar.run(&t);
        let mt_dual = TreeAlgorithm::MtDualStar.run(&t);
        assert_eq!(dual.first_evaluated, mt_dual.first_evaluated);
    }
}

#[test]
fn algorithm_names_round_trip() {
    for alg in TreeAlgorithm::ALL {
        assert_eq!(TreeAlgorithm::from_name(alg.cli_name()), Some(alg));
        assert_eq!(TreeAlgorithm::from_name(alg.name()), Some(alg));
        assert_eq!(
            TreeAlgorithm::from_name(&alg.cli_name().to_uppercase()),
            Some(alg)
        );
    }
    assert_eq!(
        TreeAlgorithm::from_name("sss*"),
        Some(TreeAlgorithm::SssStar)
    );
    assert_eq!(TreeAlgorithm::from_name("c*"), Some(TreeAlgorithm::MtdBi));
    assert_eq!(TreeAlgorithm::from_name("nonsense"), None);
}

fn cli(args: &[&str]) -> Result<String, String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    run_sss_cli_to(&args, &mut out)?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

#[test]
fn cli_trace_lines() {
    let out = cli(&["--tree", EXAMPLE_1, "--trace"]).expect("cli runs");
    let lines: Vec<&str> = out.lines().collect();
    for (i, (rule, open)) in EXAMPLE_1_TRACE.iter().enumerate() {
        assert_eq!(lines[i], format!("{} {} {}", i + 1, rule, open));
    }
    assert_eq!(
        lines[4],
        "5 1 1.1.2,L,inf 2,L,inf 3,L,inf 4,L,inf 1.1.1,S,2"
    );
    assert!(out.contains("value: 6\n"));
    assert!(out.contains("leaf evaluations: 7\n"));
    assert!(out.contains("distinct leaves: 7\n"));

    let out = cli(&["--tree", EXAMPLE_2, "--trace", "--names", "letters"]).expect("cli runs");
    let lines: Vec<&str> = out.lines().collect();
    for (i, (rule, open)) in EXAMPLE_2_TRACE.iter().enumerate() {
        assert_eq!(lines[i], format!("{} {} {}", i + 1, rule, open));
    }
    assert!(out.contains("first-evaluation order: e h k f l m\n"));
}

#[test]
fn cli_table_and_single_algorithms() {
    let out = cli(&["--tree", EXAMPLE_2, "--algorithm", "all"]).expect("cli runs");
    assert_eq!(out.lines().count(), 1 + TreeAlgorithm::ALL.len());
    for alg in TreeAlgorithm::ALL {
        assert!(out.contains(alg.name()), "table lacks {alg}");
    }
    let out = cli(&["--tree", EXAMPLE_2, "--algorithm=mtdf", "--guess", "4"]).expect("cli runs");
    assert!(out.contains("algorithm: MTD(f)\nvalue: 4\n"));
    assert!(out.contains("MT calls: 2\n"));
    assert!(cli(&["--help"]).expect("help").contains("usage"));
}

#[test]
fn cli_rejects_bad_input() {
    for args in [
        &["--tree", "[[1,2],[3,"][..],
        &["--tree", "[]"],
        &["--tree", "[[1],[]]"],
        &["--tree", "[1.5, 2]"],
        &["--tree", "[\"x\"]"],
        &["--tree", "[1, 2] extra"],
        &["--tree"],
        &[],
        &["--tree", "[1,2]", "--bogus"],
        &["--tree", "[1,2]", "--algorithm", "nope"],
        &["--tree", "[1,2]", "--names", "roman"],
        &["--tree", "[1,2]", "--trace", "--algorithm", "alphabeta"],
        &["--tree", "[1,2]", "--guess", "x"],
        &["--tree", "[1,2]", "--svg", "/nonexistent-dir/x.svg"],
    ] {
        assert!(cli(args).is_err(), "accepted {args:?}");
    }
}

#[test]
fn svg_marks_never_visited_nodes() {
    let t = tree(EXAMPLE_1);
    let r = TreeAlgorithm::SssStar.run(&t);
    let classes = classify(&t, &r);
    let class_of = |label: &str| classes[t.find_dewey(label).expect("node exists")];
    assert_eq!(class_of("4.2"), NodeClass::NeverVisited);
    assert_eq!(class_of("4.2.1"), NodeClass::NeverVisited);
    assert_eq!(class_of("4.1.1"), NodeClass::Evaluated);
    assert_eq!(class_of("4"), NodeClass::Visited);
    let svg = render_svg(&t, &r, Naming::Dewey);
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(r#"<g class="node never-visited" data-dewey="4.2">"#));
    assert!(svg.contains(r#"<g class="node never-visited" data-dewey="4.2.1">"#));
    assert!(svg.contains(r#"<g class="node evaluated" data-dewey="2.2.2">"#));
    assert!(svg.contains(r#"<g class="node visited" data-dewey="e">"#));
    assert_eq!(svg.matches("never-visited\" data-dewey").count(), 2);
    assert!(svg.contains("never visited")); // legend

    // Through the CLI, to a file.
    let path = std::env::temp_dir().join(format!("lab-trees-{}.svg", std::process::id()));
    let path_s = path.to_string_lossy().to_string();
    let out = cli(&["--tree", EXAMPLE_1, "--svg", &path_s]).expect("cli runs");
    assert!(out.contains("SVG written"));
    let file = std::fs::read_to_string(&path).expect("svg written");
    let _ = std::fs::remove_file(&path);
    assert!(file.contains(r#"<g class="node never-visited" data-dewey="4.2">"#));
}

#[test]
fn example_2_svg_leaves() {
    let t = tree(EXAMPLE_2);
    let r = TreeAlgorithm::SssStar.run(&t);
    let classes = classify(&t, &r);
    let by_letter = |l: &str| classes[t.find_label(l, Naming::Letters).expect("node exists")];
    for l in ["g", "i", "j"] {
        assert_eq!(by_letter(l), NodeClass::NeverVisited, "{l}");
    }
    for l in ["e", "f", "h", "k", "l", "m"] {
        assert_eq!(by_letter(l), NodeClass::Evaluated, "{l}");
    }
}

#[test]
fn cli_dual_trace_and_degenerate_trees() {
    let out = cli(&[
        "--tree",
        EXAMPLE_2,
        "--trace",
        "--algorithm",
        "dual*",
        "--names",
        "letters",
    ])
    .expect("cli runs");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "1 - a,L,-inf");
    assert_eq!(lines[18], "19 5 a,S,4");
    assert_eq!(lines[19], "algorithm: DUAL*");

    // A bare integer is a one-node tree whose root is a leaf.
    let out = cli(&["--tree", "7", "--trace"]).expect("cli runs");
    assert!(out.starts_with("1 - e,L,inf\n2 1 e,S,7\nalgorithm: SSS*\nvalue: 7\n"));
    let out = cli(&["--tree", " [ [ 3 ] ] ", "--algorithm", "all"]).expect("cli runs");
    assert_eq!(out.lines().count(), 1 + TreeAlgorithm::ALL.len());
    for t in [
        "7",
        "[[[[1]]]]",
        "[1,[2,[3,[4]]]]",
        "[-2147483648,2147483647]",
    ] {
        let tree = tree(t);
        for alg in TreeAlgorithm::ALL {
            assert_eq!(alg.run(&tree).value, tree.minimax_value(), "{alg} on {t}");
        }
    }
}
