//! Every UCI option, declared once in [`OPTIONS`]: its name, kind, default, range (spin) or
//! values (combo) and the handler that applies a value. `uci` announces the table, `setoption`
//! looks the name up in it (case-insensitively) and parses the value by the option's kind
//! before its handler runs, and the README's option table is tested against it. A new option is
//! one row (a handler longer than a line goes into a function below the table).
//!
//! The search parameters of a tune build (`--features tune`) are UCI options too; they are
//! declared once in src/search/params.rs and announced after these.

use super::{Job, Uci};
use crate::book;
use crate::nnue;
use crate::position::CastlingMode;
use crate::search::strength;
use crate::search::{Algorithm, Features};
use crate::tb::MAX_TB_PIECES;
use crate::tt::{MAX_HASH_MB, TtBounds};

/// A spin option's (default, min, max).
pub type Range = (i64, i64, i64);

/// `Hash` in MB (also the handler's starting size).
pub(super) const HASH: Range = (16, 1, MAX_HASH_MB as i64);
/// `Threads` (also the worker's starting and largest count).
pub(super) const THREADS: Range = (1, 1, 1024);
/// `MultiPV`.
pub(super) const MULTIPV: Range = (1, 1, 256);
/// `Move Overhead` in milliseconds.
pub(super) const MOVE_OVERHEAD: Range = (30, 0, 5000);
/// `UCI_Elo`, on the scale of src/search/strength.rs.
pub(super) const UCI_ELO: Range = (
    strength::ELO_MAX as i64,
    strength::ELO_MIN as i64,
    strength::ELO_MAX as i64,
);

/// What an option takes, its default, and what setting it does.
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut Uci, i64),
    },
    /// `true` or `false` (any case).
    Check {
        default: bool,
        set: fn(&mut Uci, bool),
    },
    /// One of `vars` (any case); the handler gets it as declared. `current` names the value in
    /// force for the error message of a refused one.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
        current: fn(&Uci) -> &'static str,
        set: fn(&mut Uci, &'static str),
    },
    /// Any text (empty when `value` is missing); the handler judges it.
    String {
        default: &'static str,
        set: fn(&mut Uci, &str),
    },
    /// No value (one given is ignored).
    Button { press: fn(&mut Uci) },
}

/// One UCI option.
pub struct UciOption {
    /// The name as `uci` announces it; `setoption` matches it in any case.
    pub name: &'static str,
    pub kind: Kind,
}

const fn spin(name: &'static str, r: Range, set: fn(&mut Uci, i64)) -> UciOption {
    let (default, min, max) = r;
    UciOption {
        name,
        kind: Kind::Spin {
            default,
            min,
            max,
            set,
        },
    }
}

const fn check(name: &'static str, default: bool, set: fn(&mut Uci, bool)) -> UciOption {
    UciOption {
        name,
        kind: Kind::Check { default, set },
    }
}

const fn string(name: &'static str, default: &'static str, set: fn(&mut Uci, &str)) -> UciOption {
    UciOption {
        name,
        kind: Kind::String { default, set },
    }
}

const fn combo(
    name: &'static str,
    default: &'static str,
    vars: &'static [&'static str],
    current: fn(&Uci) -> &'static str,
    set: fn(&mut Uci, &'static str),
) -> UciOption {
    UciOption {
        name,
        kind: Kind::Combo {
            default,
            vars,
            current,
            set,
        },
    }
}

const fn button(name: &'static str, press: fn(&mut Uci)) -> UciOption {
    UciOption {
        name,
        kind: Kind::Button { press },
    }
}

/// Every UCI option, in the order `uci` announces them. One row each (`rustfmt::skip` keeps
/// them so); handlers longer than a row are functions below.
#[rustfmt::skip]
pub static OPTIONS: &[UciOption] = &[
    spin("Hash", HASH, set_hash),
    spin("Threads", THREADS, set_threads),
    spin("MultiPV", MULTIPV, |u, n| u.multipv = n as usize),
    spin("Move Overhead", MOVE_OVERHEAD, |u, n| u.move_overhead = n as u64),
    button("Clear Hash", clear_hash),
    check("Ponder", false, |u, b| u.ponder = b),
    check("UCI_Chess960", false, set_chess960),
    combo("SearchAlgorithm", ALGORITHM, &Algorithm::NAMES, |u| u.algorithm.name(), set_algorithm),
    string("SearchFeatures", "default", set_features),
    // Bounds per position in the hash table: 1, or 2 (a lower and an upper bound, as Plaat's
    // MT keeps them; for the null-window drivers).
    spin("TTBounds", (1, 1, 2), set_tt_bounds),
    check("OwnBook", false, |u, b| u.book.enabled = b),
    string("BookFile", "<empty>", set_book_file),
    check("BookBestMove", false, |u, b| u.book.best_move = b),
    check("BookLearning", false, |u, b| {
        u.book.set_learning(b);
        u.book_notes();
    }),
    spin("BookDepth", BOOK_DEPTH, |u, n| u.book.max_ply = n as u32),
    check("UseNNUE", nnue::USE_BY_DEFAULT, set_use_nnue),
    string("EvalFile", nnue::EMBEDDED_NET_NAME, |u, v| u.load_eval_file(v.trim())),
    string("SyzygyPath", "<empty>", |u, v| u.set_syzygy_path(v)),
    spin("SyzygyProbeDepth", (1, 1, 100), |u, n| u.syzygy.probe_depth = n as i32),
    spin("SyzygyProbeLimit", TB_PIECES, |u, n| u.syzygy.probe_limit = n as usize),
    check("Syzygy50MoveRule", true, |u, b| u.syzygy.rule50 = b),
    check("UCI_ShowWDL", false, |u, b| u.show_wdl = b),
    check("UCI_LimitStrength", false, |u, b| u.limit_strength = b),
    spin("UCI_Elo", UCI_ELO, |u, n| u.uci_elo = n as i32),
];

/// `SearchAlgorithm`'s default driver.
const ALGORITHM: &str = Algorithm::AspirationPvs.name();

const BOOK_DEPTH: Range = (
    book::BOOK_DEPTH.0 as i64,
    book::BOOK_DEPTH.1 as i64,
    book::BOOK_DEPTH.2 as i64,
);
const TB_PIECES: Range = (MAX_TB_PIECES as i64, 0, MAX_TB_PIECES as i64);

fn set_hash(u: &mut Uci, n: i64) {
    if u.busy_unstopped() {
        u.error("Hash cannot change during a search");
    } else {
        u.hash_mb = n as usize;
        u.send(Job::Resize(u.hash_mb));
    }
}

fn set_threads(u: &mut Uci, n: i64) {
    if u.busy_unstopped() {
        u.error("Threads cannot change during a search");
    } else {
        u.send(Job::Threads(n as usize));
    }
}

fn set_tt_bounds(u: &mut Uci, n: i64) {
    if u.busy_unstopped() {
        u.error("TTBounds cannot change during a search");
    } else if let Some(b) = TtBounds::from_count(n) {
        u.send(Job::TtBounds(b));
    }
}

fn clear_hash(u: &mut Uci) {
    if u.busy_unstopped() {
        u.error("Clear Hash during a search is ignored");
    } else {
        u.send(Job::Clear);
    }
}

fn set_chess960(u: &mut Uci, b: bool) {
    u.chess960 = b;
    u.pos.set_castling_mode(if b {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    });
}

fn set_algorithm(u: &mut Uci, name: &'static str) {
    if let Some(a) = Algorithm::from_name(name) {
        u.algorithm = a;
    }
}

fn set_features(u: &mut Uci, spec: &str) {
    match Features::parse(spec) {
        Ok(f) => {
            u.features = f;
            u.features_spec = spec.to_string();
        }
        Err(e) => u.error(&format!(
            "SearchFeatures: {e}; keeping '{}'",
            u.features_spec
        )),
    }
}

fn set_book_file(u: &mut Uci, path: &str) {
    let keep = u
        .book
        .path()
        .map_or("no book".to_string(), |p| format!("'{p}'"));
    match u.book.load(path) {
        Ok(_) if book::is_no_file(path) => {}
        Ok(n) => u.say(&format!("info string book '{}': {n} entries", path.trim())),
        Err(e) => u.error(&format!("BookFile '{}': {e}; keeping {keep}", path.trim())),
    }
    u.book_notes();
}

fn set_use_nnue(u: &mut Uci, b: bool) {
    if b && u.net.is_none() {
        u.error("UseNNUE: no network loaded; set EvalFile first");
    } else {
        u.use_nnue = b;
    }
}

/// The option named `name` (any case).
pub fn find(name: &str) -> Option<&'static UciOption> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

impl UciOption {
    /// The line `uci` announces it with.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match &self.kind {
            Kind::Spin {
                default, min, max, ..
            } => format!("option name {name} type spin default {default} min {min} max {max}"),
            Kind::Check { default, .. } => {
                format!("option name {name} type check default {default}")
            }
            Kind::Combo { default, vars, .. } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::String { default, .. } => {
                format!("option name {name} type string default {default}")
            }
            Kind::Button { .. } => format!("option name {name} type button"),
        }
    }

    /// `setoption name NAME [value VALUE]`: parses `value` by the option's kind and applies
    /// it, or says `info string error` and keeps the value in force.
    pub(super) fn set(&self, u: &mut Uci, value: Option<&str>) {
        let name = self.name;
        match &self.kind {
            Kind::Spin { min, max, set, .. } => {
                let Some(v) = value else {
                    u.error(&format!("option {name} needs a value"));
                    return;
                };
                match v.trim().parse::<i64>() {
                    Ok(n) if (*min..=*max).contains(&n) => set(u, n),
                    _ => u.error(&format!(
                        "{name} must be an integer from {min} to {max}, got '{v}'"
                    )),
                }
            }
            Kind::Check { set, .. } => {
                match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                    Some("true") => set(u, true),
                    Some("false") => set(u, false),
                    other => u.error(&format!(
                        "{name} must be true or false, got '{}'",
                        other.unwrap_or_default()
                    )),
                }
            }
            Kind::Combo {
                vars, current, set, ..
            } => {
                let v = value.unwrap_or_default().trim();
                match vars.iter().find(|var| var.eq_ignore_ascii_case(v)) {
                    Some(var) => set(u, var),
                    None => {
                        let keep = current(u);
                        u.error(&format!(
                            "{name} must be one of {}; keeping {keep}",
                            vars.join(" ")
                        ))
                    }
                }
            }
            Kind::String { set, .. } => set(u, value.unwrap_or_default()),
            Kind::Button { press } => press(u),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are unique in any case (`setoption` matches them so), every spin default lies in
    /// its range and every combo default is one of its values.
    #[test]
    fn the_table_is_consistent() {
        for (i, o) in OPTIONS.iter().enumerate() {
            assert!(
                OPTIONS[..i]
                    .iter()
                    .all(|p| !p.name.eq_ignore_ascii_case(o.name)),
                "{} twice",
                o.name
            );
            assert!(std::ptr::eq(find(&o.name.to_ascii_uppercase()).unwrap(), o));
            match &o.kind {
                Kind::Spin {
                    default, min, max, ..
                } => assert!(min <= default && default <= max, "{}", o.name),
                Kind::Combo { default, vars, .. } => assert!(vars.contains(default), "{}", o.name),
                _ => {}
            }
        }
        assert!(find("no such option").is_none());
    }
}
