//! The `sss` subcommand: run the lab algorithms on a tree given as JSON.
//!
//! ```text
//! nullwindow sss --tree '<json>' [--trace] [--names dewey|letters]
//!                [--svg FILE] [--algorithm NAME|all] [--guess N]
//! ```
//!
//! Prints the value and the leaf counts of the chosen algorithm (SSS* by
//! default), or with `--algorithm all` a table of every algorithm. `--trace`
//! (SSS* or DUAL* only) first prints one line per step, `step rule OPEN`.
//! `--svg FILE` draws the tree and what the algorithm (SSS* for `all`) did.

use std::io::Write;

use super::kinds::{SearchResult, TreeAlgorithm};
use super::sss::{self, format_trace_line};
use super::svg::render_svg;
use super::tree::{Naming, Tree, Value, format_value};

/// Usage text of the `sss` subcommand.
pub const USAGE: &str = "\
usage: nullwindow sss --tree '<json>' [options]

  --tree JSON            the game tree as nested integer arrays, e.g. '[[5,-2,3],[1,-5,7],[5,5,4]]'
                         (root is MAX, levels alternate, integers are leaves)
  --algorithm NAME|all   algorithm to run (default sss); 'all' prints a table. Names:
                         minimax negamax alphabeta-hard alphabeta-soft negascout
                         sss dual mt-sss mt-dual mtd-bi mtdf
  --trace                print the OPEN list after every step (sss or dual only):
                         'step rule OPEN', states written J,s,h
  --names dewey|letters  node names: Dewey (e, 1, 1.2, ...; default) or letters
                         (a, then b, c, ... breadth-first)
  --svg FILE             draw the tree: evaluated leaves, visited nodes, never-visited nodes
                         (for the chosen algorithm; SSS* with 'all')
  --guess N              first guess of MTD(f) (default 0)
  -h, --help             this text";

#[derive(Debug)]
struct Options {
    tree: Tree,
    trace: bool,
    naming: Naming,
    svg: Option<String>,
    /// `None` means `all`.
    algorithm: Option<TreeAlgorithm>,
    guess: Value,
}

enum Parsed {
    Help,
    Run(Box<Options>),
}

fn parse_args(args: &[String]) -> Result<Parsed, String> {
    let mut tree_json: Option<String> = None;
    let mut trace = false;
    let mut naming = Naming::Dewey;
    let mut svg = None;
    let mut algorithm = Some(TreeAlgorithm::SssStar);
    let mut guess: Value = 0;
    let mut flags = super::Flags::new(args);
    while let Some(flag) = flags.next_flag() {
        let inline = flags.has_inline();
        let mut value = |name: &str| flags.value(name);
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--tree" => tree_json = Some(value("--tree")?),
            "--trace" => {
                if inline {
                    return Err("--trace takes no value".into());
                }
                trace = true;
            }
            "--names" => naming = Naming::parse(&value("--names")?)?,
            "--svg" => svg = Some(value("--svg")?),
            "--algorithm" => {
                let name = value("--algorithm")?;
                algorithm = if name.eq_ignore_ascii_case("all") {
                    None
                } else {
                    Some(TreeAlgorithm::from_name(&name).ok_or_else(|| {
                        format!("unknown algorithm '{name}' (try --help for the list)")
                    })?)
                };
            }
            "--guess" => {
                let g = value("--guess")?;
                let g: i32 = g
                    .trim()
                    .parse()
                    .map_err(|_| format!("--guess needs an integer, got '{g}'"))?;
                guess = Value::from(g);
            }
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    let json = tree_json.ok_or("missing --tree '<json>' (try --help)")?;
    let tree = Tree::from_json(&json).map_err(|e| format!("bad --tree: {e}"))?;
    if trace
        && !matches!(
            algorithm,
            Some(TreeAlgorithm::SssStar | TreeAlgorithm::DualStar)
        )
    {
        return Err("--trace is only available for the OPEN-list algorithms (sss, dual)".into());
    }
    Ok(Parsed::Run(Box::new(Options {
        tree,
        trace,
        naming,
        svg,
        algorithm,
        guess,
    })))
}

/// Entry point of `nullwindow sss ARGS…` (`args` excludes the `sss` word):
/// runs and prints to stdout. Errors (bad JSON, unknown flag, I/O) are
/// returned for the caller to print; nothing panics on bad input.
pub fn run_sss_cli(args: &[String]) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    run_sss_cli_to(args, &mut lock)
}

/// Like [`run_sss_cli`] but writes to `out` (used by tests).
pub fn run_sss_cli_to(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let opts = match parse_args(args)? {
        Parsed::Help => {
            return writeln!(out, "{USAGE}").map_err(|e| e.to_string());
        }
        Parsed::Run(o) => o,
    };
    let io = |e: std::io::Error| e.to_string();
    let tree = &opts.tree;
    let naming = opts.naming;
    let svg_result = match opts.algorithm {
        Some(alg) => {
            let result = if opts.trace {
                let (result, steps) = match alg {
                    TreeAlgorithm::DualStar => sss::dual_star_traced(tree),
                    _ => sss::sss_star_traced(tree),
                };
                for step in &steps {
                    writeln!(out, "{}", format_trace_line(tree, step, naming)).map_err(io)?;
                }
                result
            } else {
                alg.run_with_guess(tree, opts.guess)
            };
            write_summary(out, tree, &result, naming).map_err(io)?;
            result
        }
        None => {
            let results: Vec<SearchResult> = TreeAlgorithm::ALL
                .iter()
                .map(|a| a.run_with_guess(tree, opts.guess))
                .collect();
            write_table(out, tree, &results, naming).map_err(io)?;
            results
                .into_iter()
                .find(|r| r.algorithm == TreeAlgorithm::SssStar)
                .unwrap_or_else(|| sss::sss_star(tree))
        }
    };
    if let Some(path) = &opts.svg {
        std::fs::write(path, render_svg(tree, &svg_result, naming))
            .map_err(|e| format!("cannot write SVG to '{path}': {e}"))?;
        writeln!(out, "SVG written to {path}").map_err(io)?;
    }
    Ok(())
}

fn write_summary(
    out: &mut dyn Write,
    tree: &Tree,
    r: &SearchResult,
    naming: Naming,
) -> std::io::Result<()> {
    writeln!(out, "algorithm: {}", r.algorithm.name())?;
    writeln!(out, "value: {}", format_value(r.value))?;
    writeln!(out, "leaf evaluations: {}", r.evaluations)?;
    writeln!(out, "distinct leaves: {}", r.distinct_leaves())?;
    if let Some(calls) = r.mt_calls {
        writeln!(out, "MT calls: {calls}")?;
    }
    writeln!(
        out,
        "first-evaluation order: {}",
        r.first_evaluated_labels(tree, naming).join(" ")
    )
}

fn write_table(
    out: &mut dyn Write,
    tree: &Tree,
    results: &[SearchResult],
    naming: Naming,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<24} {:>6} {:>6} {:>8} {:>8}  first-evaluation order",
        "algorithm", "value", "evals", "distinct", "MT calls"
    )?;
    for r in results {
        let calls = r
            .mt_calls
            .map_or_else(|| "-".to_string(), |c| c.to_string());
        writeln!(
            out,
            "{:<24} {:>6} {:>6} {:>8} {:>8}  {}",
            r.algorithm.name(),
            format_value(r.value),
            r.evaluations,
            r.distinct_leaves(),
            calls,
            r.first_evaluated_labels(tree, naming).join(" ")
        )?;
    }
    Ok(())
}
