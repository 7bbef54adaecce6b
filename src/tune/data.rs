//! Labelled positions for tuning: parsing the EPD lines and the compact sparse traces.
//!
//! A line is a FEN (4 fields, or 6 with the move counters) followed by the game result from
//! White's point of view, in any of the usual spellings:
//!
//! ```text
//! r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ - c9 "1/2-1/2";
//! r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ - 0 14 [0.5]
//! r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ - "1-0"
//! ```
//!
//! An EPD `ce` operation after the label (`... c9 "1-0"; ce 35;`, centipawns from the side to
//! move's view, as `nullwindow datagen` writes it) is the search score of the position; `tune
//! --lambda` blends it into the training target ([`Dataset::blend_scores`]).
//!
//! Each position is evaluated once with [`evaluate_traced`]; only the non-zero coefficients
//! are kept, as a `u16` weight index and an `i8` count (a count beyond the `i8` range is split
//! over several entries), so a position costs about 16 bytes plus 3 per non-zero coefficient.

use crate::eval::evaluate_traced;
use crate::eval::trace::{EvalTrace, NUM_WEIGHTS};
use crate::position::{Color, Position};

/// Parses the result label of a line: `1-0`, `0-1`, `1/2-1/2` (also quoted, or `½-½`) or a
/// number from 0 to 1 (also in brackets). White's point of view.
pub fn parse_result(text: &str) -> Option<f32> {
    let t = text
        .trim()
        .trim_end_matches(';')
        .trim()
        .trim_matches(|c| c == '"' || c == '[' || c == ']')
        .trim();
    match t {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "½-½" | "=" => Some(0.5),
        _ => t.parse::<f32>().ok().filter(|r| (0.0..=1.0).contains(r)),
    }
}

/// Splits a labelled line into its FEN (4 or 6 fields) and its result (White's view), or
/// `None` if the line has no recognisable label or too few fields. The FEN itself is not
/// checked here.
pub fn parse_labelled_line(line: &str) -> Option<(String, f32)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    // The label: in brackets, in quotes (after an opcode such as `c9`), or the last word.
    let (body, result) = if let Some(open) = line.rfind('[') {
        let close = line[open..].find(']')? + open;
        (&line[..open], parse_result(&line[open + 1..close])?)
    } else if let Some(close) = line.rfind('"') {
        let open = line[..close].rfind('"')?;
        (&line[..open], parse_result(&line[open + 1..close])?)
    } else {
        let trimmed = line.trim_end_matches(';').trim_end();
        let split = trimmed.rfind(char::is_whitespace)?;
        let word = trimmed[split..].trim();
        // A bare integer is the full-move counter of an unlabelled FEN, not a result.
        if word.parse::<u32>().is_ok() {
            return None;
        }
        (&trimmed[..split], parse_result(word)?)
    };
    let fields: Vec<&str> = body.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    // Keep the move counters when they are there.
    let counters = fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let n = if counters { 6 } else { 4 };
    let fen = fields[..n].join(" ");
    Some((fen, result))
}

/// The search score of a labelled line: the integer of its EPD `ce` operation (centipawns,
/// side to move's view), if it has one.
pub fn parse_score(line: &str) -> Option<i32> {
    line.split(';').find_map(|op| {
        let op = op.trim();
        let v = op.strip_prefix("ce")?;
        if !v.starts_with(char::is_whitespace) {
            return None;
        }
        v.trim().parse::<i32>().ok().filter(|x| x.abs() < 32_000)
    })
}

/// Deterministic train/validation split: a position is held out when the FNV-1a hash of its
/// FEN is 0 modulo 10 (about 10%, independent of the order and of `--limit`).
pub fn is_validation(fen: &str) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in fen.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    // Mix the high bits in so that the low digit is well spread.
    (h ^ (h >> 29)).is_multiple_of(10)
}

/// Per-position data next to the coefficient entries.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meta {
    /// First entry of this position in the coefficient arrays.
    pub start: u64,
    /// Entries of the linear part.
    pub linear: u16,
    /// Entries of the king-danger units against the Black and the White king (0 when that
    /// king's danger does not count).
    pub units: [u8; 2],
    /// Whether the king danger against the Black / White king counts.
    pub danger: [bool; 2],
    /// Game phase 0 ..= 24.
    pub phase: u8,
    /// Endgame scale factor out of 128.
    pub scale: u8,
    /// Training target, White's view, 0 ..= 1: the game result, or a blend of it with the
    /// search score (see [`Dataset::blend_scores`]).
    pub result: f32,
    /// Search score in centipawns, White's view; NaN when the line had none.
    pub score: f32,
}

/// Positions with their sparse traces and results.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub(super) meta: Vec<Meta>,
    pub(super) index: Vec<u16>,
    pub(super) coef: Vec<i8>,
}

impl Dataset {
    /// An empty dataset.
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.meta.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }

    /// Approximate memory held, in bytes.
    pub fn bytes(&self) -> usize {
        self.meta.len() * std::mem::size_of::<Meta>() + self.index.len() * 3
    }

    /// Number of coefficient entries over all positions.
    pub fn entries(&self) -> usize {
        self.index.len()
    }

    /// Adds a position labelled `result` (White's view, 0 ..= 1), tracing its evaluation in
    /// `trace` (a scratch buffer, cleared first).
    pub fn push(&mut self, pos: &Position, result: f32, trace: &mut EvalTrace) {
        self.push_scored(pos, result, None, trace);
    }

    /// As [`Dataset::push`], with the search score of the position (centipawns, side to move's
    /// view) if known.
    pub fn push_scored(
        &mut self,
        pos: &Position,
        result: f32,
        score: Option<i32>,
        trace: &mut EvalTrace,
    ) {
        evaluate_traced(pos, trace);
        let score = match score {
            Some(s) if pos.turn() == Color::White => s as f32,
            Some(s) => -s as f32,
            None => f32::NAN,
        };
        let start = self.index.len() as u64;
        let linear = self.push_coefs(&trace.linear);
        let mut units = [0u8; 2];
        for (k, u) in units.iter_mut().enumerate() {
            if trace.danger[k] {
                // At most a dozen unit weights, each split at most a few times.
                *u = self.push_coefs(&trace.units[k]).min(255) as u8;
            }
        }
        self.meta.push(Meta {
            start,
            linear: linear.min(u16::MAX as usize) as u16,
            units,
            danger: trace.danger,
            phase: trace.phase.clamp(0, 255) as u8,
            scale: trace.scale.clamp(0, 255) as u8,
            result,
            score,
        });
    }

    /// Appends the non-zero coefficients of `dense`; returns how many entries that took.
    fn push_coefs(&mut self, dense: &[i32]) -> usize {
        let before = self.index.len();
        for (i, &c) in dense.iter().enumerate().take(NUM_WEIGHTS) {
            let mut left = c;
            while left != 0 {
                let part = left.clamp(i8::MIN as i32, i8::MAX as i32);
                self.index.push(i as u16);
                self.coef.push(part as i8);
                left -= part;
            }
        }
        self.index.len() - before
    }

    /// Appends all positions of `other`.
    pub fn append(&mut self, other: Dataset) {
        let base = self.index.len() as u64;
        self.meta.extend(other.meta.into_iter().map(|mut m| {
            m.start += base;
            m
        }));
        self.index.extend(other.index);
        self.coef.extend(other.coef);
    }

    /// The results of all positions (White's view).
    pub fn results(&self) -> impl Iterator<Item = f32> + '_ {
        self.meta.iter().map(|m| m.result)
    }

    /// Number of positions that carry a search score.
    pub fn scored(&self) -> usize {
        self.meta.iter().filter(|m| !m.score.is_nan()).count()
    }

    /// Replaces the target of every position that has a search score by
    /// `(1 − lambda)·result + lambda·sigmoid(k, score)`: the game result says who won, the
    /// score what the position was worth when it was on the board (less noise per position,
    /// the engine's own bias). Positions without a score keep their result.
    pub fn blend_scores(&mut self, k: f64, lambda: f64) {
        let lambda = lambda.clamp(0.0, 1.0);
        for m in &mut self.meta {
            if !m.score.is_nan() {
                let s = super::sigmoid(k, f64::from(m.score));
                m.result = ((1.0 - lambda) * f64::from(m.result) + lambda * s) as f32;
            }
        }
    }

    /// Replaces the result of every position (tests build synthetic labels this way).
    pub fn set_results(&mut self, mut f: impl FnMut(usize) -> f32) {
        for (i, m) in self.meta.iter_mut().enumerate() {
            m.result = f(i);
        }
    }
}

/// What loading a data file found.
#[derive(Clone, Debug, Default)]
pub struct LoadStats {
    /// Lines read (blank and `#` lines not counted).
    pub lines: usize,
    /// Lines skipped: no label, or the FEN does not give a legal position.
    pub malformed: usize,
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub validation: usize,
}

/// Reads the labelled positions of `text` (at most `limit` positions), traces them on
/// `threads` threads and splits them into training and validation sets.
pub fn load_text(
    text: &str,
    limit: Option<usize>,
    threads: usize,
) -> (Dataset, Dataset, LoadStats) {
    let mut stats = LoadStats::default();
    let mut items: Vec<(String, f32, Option<i32>)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if limit.is_some_and(|n| items.len() >= n) {
            break;
        }
        stats.lines += 1;
        match parse_labelled_line(t) {
            Some((fen, result)) => items.push((fen, result, parse_score(t))),
            None => stats.malformed += 1,
        }
    }

    // Trace in parallel, one contiguous chunk per thread, then join in order.
    let threads = threads.max(1);
    let chunk = items.len().div_ceil(threads).max(1);
    let parts: Vec<(Dataset, Dataset, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut trace = EvalTrace::new();
                    let (mut train, mut val, mut bad) = (Dataset::new(), Dataset::new(), 0);
                    for (fen, result, score) in part {
                        let Ok(pos) = Position::from_fen(fen, false) else {
                            bad += 1;
                            continue;
                        };
                        let set = if is_validation(fen) {
                            &mut val
                        } else {
                            &mut train
                        };
                        set.push_scored(&pos, *result, *score, &mut trace);
                    }
                    (train, val, bad)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let (mut train, mut val) = (Dataset::new(), Dataset::new());
    for (t, v, bad) in parts {
        train.append(t);
        val.append(v);
        stats.malformed += bad;
    }
    stats.train = train.len();
    stats.validation = val.len();
    (train, val, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_in_every_spelling() {
        let fen = "r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ -";
        for (line, want) in [
            (format!("{fen} c9 \"1/2-1/2\";"), 0.5),
            (format!("{fen} c9 \"1-0\";"), 1.0),
            (format!("{fen} c9 \"0-1\";"), 0.0),
            (format!("{fen} [1.0]"), 1.0),
            (format!("{fen} [0.5]"), 0.5),
            (format!("{fen} [0.0]"), 0.0),
            (format!("{fen} \"1-0\""), 1.0),
            (format!("{fen} 0-1"), 0.0),
        ] {
            let (f, r) = parse_labelled_line(&line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(f, fen, "{line}");
            assert_eq!(r, want, "{line}");
        }
        // Move counters are kept.
        let (f, r) = parse_labelled_line(&format!("{fen} 0 14 [1.0]")).expect("six fields");
        assert_eq!(f, format!("{fen} 0 14"));
        assert_eq!(r, 1.0);
    }

    #[test]
    fn search_scores_are_read_and_blended() {
        let fen = "r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ -";
        assert_eq!(
            parse_score(&format!("{fen} c9 \"1-0\"; ce -35;")),
            Some(-35)
        );
        assert_eq!(parse_score(&format!("{fen} c9 \"1-0\";")), None);
        assert_eq!(parse_score(&format!("{fen} c9 \"1-0\"; ce x;")), None);
        assert_eq!(parse_score(&format!("{fen} c9 \"1-0\"; cex 5;")), None);
        let (f, r) = parse_labelled_line(&format!("{fen} c9 \"1-0\"; ce -35;")).expect("label");
        assert_eq!((f.as_str(), r), (fen, 1.0));
        // Black to move: -35 for Black is +35 for White.
        let text = format!("{fen} c9 \"1-0\"; ce -35;\n{fen} c9 \"0-1\";\n");
        let (a, b, _) = load_text(&text, None, 1);
        let mut d = if a.is_empty() { b } else { a };
        assert_eq!((d.len(), d.scored()), (2, 1));
        assert_eq!(d.meta[0].score, 35.0);
        d.blend_scores(1.0, 0.5);
        let want = 0.5 + 0.5 * super::super::sigmoid(1.0, 35.0);
        assert!((f64::from(d.meta[0].result) - want).abs() < 1e-6);
        assert_eq!(d.meta[1].result, 0.0);
    }

    #[test]
    fn malformed_lines_are_refused() {
        for line in [
            "",
            "# comment",
            "8/8/8/8 w \"1-0\"",
            "r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ - c9 \"2-0\";",
            "r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ - [1.5]",
            "r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ -",
            "garbage",
            "r1bq1rk1/ppp2pbn/3p2p1/2nPp1Pp/2P1P3/2N1BP2/PP1QB2P/R3K1NR b KQ - 0 1",
        ] {
            assert!(parse_labelled_line(line).is_none(), "{line}");
        }
    }

    #[test]
    fn load_counts_and_splits() {
        let mut text = String::new();
        for (i, fen) in crate::bench::positions().iter().enumerate() {
            text.push_str(&format!("{fen} [{}]\n", ["0.0", "0.5", "1.0"][i % 3]));
        }
        text.push_str("not a position \"1-0\"\n");
        text.push_str("8/8/8/8/8/8/8/8 w - - [0.5]\n"); // no kings: parses, but illegal
        let (train, val, stats) = load_text(&text, None, 2);
        let n = crate::bench::positions().len();
        assert_eq!(stats.lines, n + 2);
        assert_eq!(stats.malformed, 2);
        assert_eq!(train.len() + val.len(), n);
        assert_eq!((stats.train, stats.validation), (train.len(), val.len()));
        assert!(train.entries() > 0);
        // The limit counts lines from the top.
        let (t, v, s) = load_text(&text, Some(10), 1);
        assert_eq!((t.len() + v.len(), s.lines), (10, 10));
    }

    #[test]
    fn big_coefficients_are_split() {
        let mut d = Dataset::new();
        let mut dense = vec![0; NUM_WEIGHTS];
        dense[3] = 300;
        dense[7] = -129;
        assert_eq!(d.push_coefs(&dense), 5);
        let sum = |i: u16| -> i32 {
            d.index
                .iter()
                .zip(&d.coef)
                .filter(|(x, _)| **x == i)
                .map(|(_, &c)| c as i32)
                .sum()
        };
        assert_eq!((sum(3), sum(7)), (300, -129));
    }
}
