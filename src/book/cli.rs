//! `nullwindow book`: build a Polyglot book from PGN, or list a book's moves for a position.

use std::path::Path;

use super::build::{self, BuildOptions};
use super::learn::{self, LearnTable};
use super::{Book, learned_shares, polyglot, shares};
use crate::position::{Position, START_FEN};

/// Usage of `nullwindow book`.
pub const USAGE: &str = "\
usage: nullwindow book build --pgn FILE --out FILE [--max-ply N] [--min-games N]
       nullwindow book probe --book FILE [--fen FEN] [--moves M1 M2 ...] [--960]

build   reads the games of a PGN file and writes a Polyglot book (.bin) of their openings
  --pgn FILE        the games (SAN movetext; comments, variations, NAGs are skipped; games
                    that cannot be played out are skipped and counted)
  --out FILE        the book to write
  --max-ply N       plies of each game that go into the book (default 24)
  --min-games N     a move must be played in at least N games (default 1)
  Weights: per game 2 for a win, 1 for a draw or no result, 0 for a loss, from the mover's
  view, summed; moves of weight 0 are dropped where the position has better ones.

probe   lists the book moves of a position: move (UCI), weight, share (the chance of being
        played with BookBestMove false); where the book has a learn file (FILE.learn, written
        by BookLearning), also each move's learn value and games, the share counting them
  --book FILE       the book
  --fen FEN         the position (default: the start position)
  --moves M1 ...    moves in UCI notation played from it first
  --960             Chess960: Shredder/X-FEN castling, castling written king-takes-rook

  -h, --help        this text";

/// Runs `nullwindow book ARGS`.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("build") => build_cmd(&args[1..]),
        Some("probe") => probe_cmd(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown book command '{other}'\n\n{USAGE}")),
        None => Err(format!("book needs a command\n\n{USAGE}")),
    }
}

/// Options and the values after each: `--fen` and `--moves` take every word up to the next
/// option, the others one.
fn options(args: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        if a.starts_with("--") || a == "-h" {
            out.push((a.clone(), Vec::new()));
        } else if let Some((key, values)) = out.last_mut() {
            if values.is_empty() || matches!(key.as_str(), "--fen" | "--moves") {
                values.push(a.clone());
            } else {
                return Err(format!("unexpected '{a}' after {key} {}", values.join(" ")));
            }
        } else {
            return Err(format!("unexpected '{a}'\n\n{USAGE}"));
        }
    }
    Ok(out)
}

/// The one value of an option.
fn one(key: &str, values: &[String]) -> Result<String, String> {
    match values {
        [v] => Ok(v.clone()),
        _ => Err(format!("{key} needs one value")),
    }
}

fn number(
    key: &str,
    values: &[String],
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, String> {
    let v = one(key, values)?;
    match v.parse::<u32>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "{key} takes a whole number from {} to {}, got '{v}'",
            range.start(),
            range.end()
        )),
    }
}

fn build_cmd(args: &[String]) -> Result<(), String> {
    let mut opts = BuildOptions::default();
    let (mut pgn, mut out) = (None, None);
    for (key, values) in options(args)? {
        match key.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            "--pgn" => pgn = Some(one(&key, &values)?),
            "--out" => out = Some(one(&key, &values)?),
            "--max-ply" => opts.max_ply = number(&key, &values, 1..=1000)?,
            "--min-games" => opts.min_games = number(&key, &values, 1..=u32::MAX)?,
            _ => return Err(format!("unknown option '{key}'\n\n{USAGE}")),
        }
    }
    let pgn = pgn.ok_or_else(|| format!("build needs --pgn FILE\n\n{USAGE}"))?;
    let out = out.ok_or_else(|| format!("build needs --out FILE\n\n{USAGE}"))?;
    let bytes = std::fs::read(&pgn).map_err(|e| format!("cannot read '{pgn}': {e}"))?;
    let (entries, report) = build::build_from_pgn(&String::from_utf8_lossy(&bytes), opts);
    if report.skipped > 0 {
        eprintln!(
            "warning: {} game(s) skipped (could not be played out); the first:",
            report.skipped
        );
        for e in &report.first_errors {
            eprintln!("warning:   {e}");
        }
    }
    build::write_book(Path::new(&out), &entries)
        .map_err(|e| format!("cannot write '{out}': {e}"))?;
    println!(
        "read {} games ({} skipped), first {} plies, moves in at least {} game(s): \
         wrote {} positions, {} entries to {out}",
        report.games + report.skipped,
        report.skipped,
        opts.max_ply,
        opts.min_games,
        report.positions,
        report.entries
    );
    Ok(())
}

fn probe_cmd(args: &[String]) -> Result<(), String> {
    let (mut path, mut fen, mut moves, mut chess960) = (None, None, Vec::new(), false);
    for (key, values) in options(args)? {
        match key.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            "--book" => path = Some(one(&key, &values)?),
            "--fen" if !values.is_empty() => fen = Some(values.join(" ")),
            "--moves" => moves.extend(
                values
                    .iter()
                    .flat_map(|v| v.split_whitespace().map(str::to_string).collect::<Vec<_>>()),
            ),
            "--960" if values.is_empty() => chess960 = true,
            "--fen" => return Err("--fen needs a FEN".to_string()),
            _ => return Err(format!("unknown option '{key}'\n\n{USAGE}")),
        }
    }
    let path = path.ok_or_else(|| format!("probe needs --book FILE\n\n{USAGE}"))?;
    let book = Book::open(Path::new(&path)).map_err(|e| format!("book '{path}': {e}"))?;
    let mut pos = Position::from_fen(fen.as_deref().unwrap_or(START_FEN), chess960)
        .map_err(|e| e.to_string())?;
    for (i, mv) in moves.iter().enumerate() {
        let m = pos
            .parse_uci_move(mv)
            .map_err(|e| format!("--moves: {e} (move {})", i + 1))?;
        pos.make(m);
    }
    println!("book {path}: {} entries", book.len());
    let file = learn::learn_path(&path);
    let learned = match LearnTable::open(Path::new(&file)) {
        Ok(Some(t)) => {
            println!("learn {file}: {} moves learned", t.len());
            Some(t)
        }
        Ok(None) => None,
        Err(e) => {
            eprintln!("warning: learn file '{file}': {e}; shares without learning");
            None
        }
    };
    for line in probe_lines_learned(&book, learned.as_ref(), &pos) {
        println!("{line}");
    }
    Ok(())
}

/// What `book probe` prints for a position: its FEN and key, then one line per book move
/// (`e2e4 weight 6 share 60.0%`), best first as the book lists them, and how many entries
/// under the key were ignored (no legal move).
pub fn probe_lines(book: &Book, pos: &Position) -> Vec<String> {
    probe_lines_learned(book, None, pos)
}

/// [`probe_lines`] with what the engine learned about the moves, when `learned` is given:
/// `e2e4 weight 6 learn -200 games 2 share 27.3%`, the share as `BookLearning` plays it.
pub fn probe_lines_learned(
    book: &Book,
    learned: Option<&LearnTable>,
    pos: &Position,
) -> Vec<String> {
    let key = polyglot::key(pos);
    let mut out = vec![format!("fen {}", pos.fen()), format!("key {key:016x}")];
    let moves = book.moves(pos);
    if moves.is_empty() {
        out.push("no book moves".to_string());
    }
    match learned {
        None => {
            for (b, share) in moves.iter().zip(shares(&moves)) {
                out.push(format!(
                    "{} weight {} share {:.1}%",
                    pos.move_to_uci(b.mv),
                    b.weight,
                    share * 100.0
                ));
            }
        }
        Some(t) => {
            let l: Vec<_> = moves
                .iter()
                .map(|b| t.get(key, polyglot::encode_move(b.mv)))
                .collect();
            for ((b, l), share) in moves.iter().zip(&l).zip(learned_shares(&moves, &l)) {
                out.push(format!(
                    "{} weight {} learn {} games {} share {:.1}%",
                    pos.move_to_uci(b.mv),
                    b.weight,
                    l.learn,
                    l.games,
                    share * 100.0
                ));
            }
        }
    }
    let unmatched: Vec<String> = book
        .entries_for(key)
        .iter()
        .filter(|e| polyglot::decode_move(pos, e.mv).is_none())
        .map(|e| polyglot::code_to_string(e.mv))
        .collect();
    if !unmatched.is_empty() {
        out.push(format!(
            "{} entries ignored (not a legal move here): {}",
            unmatched.len(),
            unmatched.join(" ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_lists_moves_with_shares() {
        let (entries, _) = build::build_from_pgn(
            "1. e4 e5 1-0\n1. e4 c5 1-0\n1. d4 d5 1-0\n1. c4 e5 0-1\n",
            BuildOptions::default(),
        );
        let book = Book::from_entries(entries).unwrap();
        let lines = probe_lines(&book, &Position::startpos());
        assert_eq!(
            lines,
            [
                format!("fen {START_FEN}"),
                "key 463b96181691fc9c".to_string(),
                "e2e4 weight 4 share 66.7%".to_string(),
                "d2d4 weight 2 share 33.3%".to_string(),
            ]
        );
        let kiwi = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(probe_lines(&book, &kiwi)[2], "no book moves");
    }

    #[test]
    fn bad_arguments_are_errors() {
        let run = |a: &str| run_cli(&a.split_whitespace().map(String::from).collect::<Vec<_>>());
        for bad in [
            "",
            "frobnicate",
            "build",
            "build --pgn",
            "build --pgn a.pgn",
            "build --out x.bin",
            "build --pgn a b --out x.bin",
            "build --pgn /nonexistent/a.pgn --out x.bin",
            "build --pgn a.pgn --out x.bin --max-ply 0",
            "build --pgn a.pgn --out x.bin --min-games lots",
            "build --pgn a.pgn --out x.bin --colour white",
            "probe",
            "probe --book",
            "probe --book /nonexistent/book.bin",
            "probe stray",
        ] {
            assert!(run(bad).is_err(), "'{bad}'");
        }
        assert!(run("--help").is_ok());
    }
}
