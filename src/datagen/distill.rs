//! `nullwindow datagen distill`: positions labelled by a network's static evaluation instead of
//! a search, to carry one network's knowledge into another of a different input layout (a
//! horizontally mirrored net started from a plain one, see docs/nnue.md).
//!
//! Each record of the input gives its own position and `--copies` more, each reached from it
//! by 1 to `--plies` random legal moves (the kinds of positions a search evaluates near the
//! positions of real games, captures and threats included). A position in check, or without
//! a legal move, is not kept. The label is the network's evaluation in centipawns; the game
//! result is the input record's. The output is a function of the input, the network, the
//! seed and the options alone.

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::format::{self, Record};
use crate::nnue::Network;
use crate::position::Position;

/// Options of `datagen distill`.
#[derive(Clone, Debug, PartialEq)]
pub struct DistillOptions {
    /// The data file whose positions are the starting points.
    pub input: String,
    /// The network whose evaluation labels them.
    pub net: String,
    /// The data file written (replaced).
    pub out: String,
    /// Random continuations per input position.
    pub copies: usize,
    /// Most random plies of a continuation.
    pub plies: usize,
    /// Seed of the random moves.
    pub seed: u64,
}

/// Usage of `datagen distill`.
pub const USAGE: &str = "\
usage: nullwindow datagen distill IN --net NET --out OUT [--copies K] [--plies P] [--seed S]

Labels positions with network NET's static evaluation (centipawns, side to move) instead of a
search: each position of data file IN, and K more (default 3) reached from it by 1 to P
(default 4) random legal moves, not in check. Results are IN's. OUT is replaced.";

/// Parses the arguments after `distill`; `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<DistillOptions>, String> {
    let mut o = DistillOptions {
        input: String::new(),
        net: String::new(),
        out: String::new(),
        copies: 3,
        plies: 4,
        seed: 1,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = crate::cli::split_option(a);
        match key {
            "-h" | "--help" => return Ok(None),
            p if !p.starts_with("--") && o.input.is_empty() => {
                o.input = p.to_string();
                continue;
            }
            "--net" | "--out" | "--copies" | "--plies" | "--seed" => {}
            other => return Err(format!("distill: unexpected argument '{other}'\n\n{USAGE}")),
        }
        let v = inline
            .or_else(|| it.next().cloned())
            .ok_or_else(|| format!("{key} needs a value"))?;
        let number = |hi: u64| crate::cli::int_in(key, &v, 0, hi);
        match key {
            "--net" => o.net = v.clone(),
            "--out" => o.out = v.clone(),
            "--copies" => o.copies = number(100)? as usize,
            "--plies" => o.plies = number(20)?.max(1) as usize,
            _ => o.seed = number(u64::MAX)?,
        }
    }
    if o.input.is_empty() || o.net.is_empty() || o.out.is_empty() {
        return Err(format!("distill needs IN, --net and --out\n\n{USAGE}"));
    }
    Ok(Some(o))
}

/// The labelled positions of `records`: each position and `copies` random continuations of
/// it, evaluated by `net` (see the module comment).
pub fn distill(
    records: &[Record],
    net: &Network,
    copies: usize,
    plies: usize,
    seed: u64,
) -> Vec<Record> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(records.len() * (copies + 1));
    let label = |pos: &Position, r: &Record| {
        let cp = net.evaluate_board(pos.board(), pos.turn());
        Record::from_position(pos, cp.clamp(-32000, 32000), r.result)
    };
    for r in records {
        let Ok(start) = Position::from_fen(&r.fen(), false) else {
            continue;
        };
        if !start.is_check() && !start.legal_moves().is_empty() {
            out.push(label(&start, r));
        }
        for _ in 0..copies {
            let mut pos = start.clone();
            let n = rng.random_range(1..=plies);
            for _ in 0..n {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.random_range(0..moves.len())]);
            }
            if !pos.is_check() && !pos.legal_moves().is_empty() {
                out.push(label(&pos, r));
            }
        }
    }
    out
}

/// `nullwindow datagen distill ...`.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let Some(o) = parse_args(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    let net = Network::read_file(&o.net).map_err(|e| format!("--net: {e}"))?;
    let start = Instant::now();
    let records = format::read_file(&o.input)?;
    let out = distill(&records, &net, o.copies, o.plies, o.seed);
    format::write_file(&o.out, &out)?;
    println!(
        "{}: {} positions from {} of {} ({} copies, 1..={} plies, seed {}), labelled by {} in {:.1} s",
        o.out,
        out.len(),
        records.len(),
        o.input,
        o.copies,
        o.plies,
        o.seed,
        o.net,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::Wdl;

    #[test]
    fn labels_are_the_networks_evaluation_of_each_kept_position() {
        let net = crate::nnue::embedded::embedded_net().expect("embedded net");
        let fens = [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        ];
        let records: Vec<Record> = fens
            .iter()
            .map(|f| {
                Record::from_position(&Position::from_fen(f, false).unwrap(), 5, Wdl::WhiteWin)
            })
            .collect();
        let out = distill(&records, &net, 4, 3, 7);
        assert!(out.len() > 10 && out.len() <= 15, "{}", out.len());
        // The first record of each input is the input position itself, relabelled.
        assert_eq!(out[0].board, records[0].board);
        let mut moved = 0;
        for r in &out {
            let pos = Position::from_fen(&r.fen(), false).unwrap();
            assert!(!pos.is_check());
            assert_eq!(r.stm_score(), net.evaluate_board(pos.board(), pos.turn()));
            assert_eq!(r.result, Wdl::WhiteWin);
            moved += usize::from(!records.iter().any(|s| s.board == r.board));
        }
        assert!(moved >= 8, "{moved} continuations");
        // Seeded: the same output again; another seed, other continuations.
        assert_eq!(distill(&records, &net, 4, 3, 7), out);
        assert_ne!(distill(&records, &net, 4, 3, 8), out);
    }

    #[test]
    fn arguments() {
        let a = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let o = parse_args(&a(
            "in.bin --net n.nnue --out o.bin --copies 2 --plies 5 --seed 9",
        ))
        .unwrap()
        .unwrap();
        assert_eq!((o.copies, o.plies, o.seed), (2, 5, 9));
        assert_eq!((o.input.as_str(), o.out.as_str()), ("in.bin", "o.bin"));
        assert!(parse_args(&a("in.bin --net n.nnue")).is_err());
        assert!(parse_args(&a("in.bin --net n.nnue --out o --copies x")).is_err());
        assert!(parse_args(&a("--help")).unwrap().is_none());
    }
}
