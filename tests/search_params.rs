//! The search parameters of `src/search/params.rs` as seen from outside. The default build has
//! no tuning option and refuses `spsa`; a tune build (`cargo test --features tune --test
//! search_params`, part of `make test`) lists every parameter as a UCI spin option that
//! round-trips, clamps out-of-range values and refuses non-numbers with `info string error`,
//! prints the OpenBench SPSA input, and searches differently with other LMR parameters.

mod common;

use std::process::Command;

use common::Engine;
use nullwindow::search::params::PARAMS;

/// `nullwindow spsa` on the command line: (exit success, stdout, stderr).
fn spsa_cli() -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
        .arg("spsa")
        .output()
        .expect("run nullwindow spsa");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `uci` reply; then `isready`, as a GUI sends it, which makes the table and tells its
/// pages, so that later `isready`s show only what the commands before them said.
fn uci_lines(e: &mut Engine) -> Vec<String> {
    let from = e.seen.len();
    e.send("uci");
    e.expect("uciok");
    let lines = e.seen[from..].to_vec();
    e.sync();
    lines
}

#[test]
#[cfg(not(feature = "tune"))]
fn the_default_build_exposes_no_tuning_option() {
    let mut e = Engine::start();
    let uci = uci_lines(&mut e);
    for p in PARAMS {
        let name = p.uci_name();
        assert!(
            !uci.iter().any(|l| l.contains(&format!("name {name} "))),
            "{name} in {uci:?}"
        );
    }
    e.send("setoption name RFP_MARGIN value 80");
    e.send("spsa");
    let lines = e.sync();
    assert_eq!(
        lines,
        [
            "info string error: unknown option 'RFP_MARGIN'".to_string(),
            format!(
                "info string error: spsa: {}",
                nullwindow::search::params::NOT_TUNABLE
            ),
        ]
    );
    let (ok, out, err) = spsa_cli();
    assert!(
        !ok && out.is_empty() && err.contains("--features tune"),
        "{err}"
    );
}

#[cfg(feature = "tune")]
mod tune_build {
    use super::*;
    use std::time::Duration;

    use nullwindow::search::params::{Param, SPSA_R_END};

    /// The `spsa` reply: the current value of each parameter by UCI name, in order.
    fn spsa(e: &mut Engine) -> Vec<(String, i32)> {
        e.send("spsa");
        let lines = e.sync();
        assert_eq!(lines.len(), PARAMS.len(), "{lines:?}");
        lines
            .iter()
            .zip(PARAMS)
            .map(|(l, p)| {
                let f: Vec<&str> = l.split(", ").collect();
                let expect = [
                    p.uci_name(),
                    "int".into(),
                    f[2].into(),
                    p.min.to_string(),
                    p.max.to_string(),
                    p.step.to_string(),
                    SPSA_R_END.to_string(),
                ];
                assert_eq!(f, expect, "line '{l}'");
                (f[0].to_string(), f[2].parse().expect("value"))
            })
            .collect()
    }

    fn value(e: &mut Engine, p: &Param) -> i32 {
        let name = p.uci_name();
        spsa(e).into_iter().find(|(n, _)| *n == name).unwrap().1
    }

    /// `setoption`; returns the lines it answered.
    fn set(e: &mut Engine, name: &str, value: &str) -> Vec<String> {
        e.send(&format!("setoption name {name} value {value}"));
        e.sync()
    }

    #[test]
    fn every_parameter_is_a_spin_option() {
        let mut e = Engine::start();
        let uci = uci_lines(&mut e);
        for p in PARAMS {
            let line = format!(
                "option name {} type spin default {} min {} max {}",
                p.uci_name(),
                p.default,
                p.min,
                p.max
            );
            assert!(uci.contains(&line), "missing '{line}'");
        }
        // After the standard options, before `uciok`.
        assert!(uci.last().unwrap() == "uciok" && uci.iter().any(|l| l.contains("name Hash")));
    }

    #[test]
    fn spsa_prints_the_openbench_input_of_the_values_in_force() {
        let (ok, out, _) = spsa_cli();
        assert!(ok);
        let mut e = Engine::start();
        e.sync(); // the first `isready` makes the table and tells its pages
        let defaults = spsa(&mut e);
        assert!(
            defaults
                .iter()
                .zip(PARAMS)
                .all(|((_, v), p)| *v == p.default)
        );
        e.send("spsa");
        assert_eq!(e.sync().join("\n") + "\n", out);
        assert!(
            out.contains("\nRFP_MARGIN, int, 75, 30, 150, 6, 0.002\n"),
            "{out}"
        );
    }

    #[test]
    fn options_round_trip_clamp_and_refuse_non_numbers() {
        let mut e = Engine::start();
        e.sync(); // the first `isready` makes the table and tells its pages
        // Every parameter: a value in range is read back exactly, silently.
        for p in PARAMS {
            let v = if p.default < p.max {
                p.default + 1
            } else {
                p.default - 1
            };
            assert!(set(&mut e, &p.uci_name(), &v.to_string()).is_empty());
            assert_eq!(value(&mut e, p), v, "{}", p.name);
        }
        let p = nullwindow::search::params::find("RFP_MARGIN").unwrap();
        let range = format!("RFP_MARGIN must be an integer from {} to {}", p.min, p.max);
        // Case does not matter in the name (UCI).
        assert!(set(&mut e, "rfp_margin", "80").is_empty());
        assert_eq!(value(&mut e, p), 80);
        // Out of range: clamped, with an error.
        for (v, to) in [
            ("1000", p.max),
            ("-5", p.min),
            ("99999999999999999999999", p.max),
            ("-99999999999999999999999", p.min),
        ] {
            assert_eq!(
                set(&mut e, "RFP_MARGIN", v),
                [format!("info string error: {range}, got '{v}'; using {to}")]
            );
            assert_eq!(value(&mut e, p), to);
        }
        // Not an integer: refused, the value kept.
        assert!(set(&mut e, "RFP_MARGIN", "80").is_empty());
        for v in ["abc", "80.5", "1e2", "-", "8 0"] {
            assert_eq!(
                set(&mut e, "RFP_MARGIN", v),
                [format!("info string error: {range}, got '{v}'; keeping 80")]
            );
            assert_eq!(value(&mut e, p), 80);
        }
        e.send("setoption name RFP_MARGIN");
        assert_eq!(
            e.sync(),
            ["info string error: option RFP_MARGIN needs a value"]
        );
        assert_eq!(value(&mut e, p), 80);
    }

    /// Nodes of `bench DEPTH` (its last line, `N nodes M nps`).
    fn bench_nodes(e: &mut Engine, depth: u32) -> u64 {
        e.send(&format!("bench {depth}"));
        let l = e.wait_for(Duration::from_secs(120), |l| l.ends_with(" nps"));
        l.split_whitespace().next().unwrap().parse().unwrap()
    }

    /// Nodes of `go depth DEPTH` from the start position after `ucinewgame` (the worker's
    /// searcher, which keeps its LMR table between searches).
    fn go_nodes(e: &mut Engine, depth: u32) -> u64 {
        e.send("ucinewgame");
        e.send("position startpos");
        let from = e.seen.len();
        e.send(&format!("go depth {depth}"));
        e.expect("bestmove");
        let info = e.seen[from..]
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let mut it = info.split_whitespace().skip_while(|&t| t != "nodes");
        it.nth(1).unwrap().parse().unwrap()
    }

    #[test]
    fn lmr_parameters_change_the_search_and_the_defaults_restore_it() {
        let mut e = Engine::start();
        let (bench0, go0) = (bench_nodes(&mut e, 7), go_nodes(&mut e, 10));
        for (name, v) in [("LMR_BASE_X100", "150"), ("LMR_DIVISOR_X100", "150")] {
            assert!(set(&mut e, name, v).is_empty());
            assert_ne!(bench_nodes(&mut e, 7), bench0, "{name} {v}");
            assert_ne!(go_nodes(&mut e, 10), go0, "{name} {v}");
            assert!(set(&mut e, name, &find_default(name)).is_empty());
            assert_eq!(bench_nodes(&mut e, 7), bench0);
            assert_eq!(go_nodes(&mut e, 10), go0);
        }
        // And another engine at its defaults agrees.
        let mut fresh = Engine::start();
        assert_eq!(bench_nodes(&mut fresh, 7), bench0);
    }

    fn find_default(name: &str) -> String {
        nullwindow::search::params::find(name)
            .unwrap()
            .default
            .to_string()
    }
}
