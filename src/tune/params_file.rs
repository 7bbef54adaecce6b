//! Writes tuned weights as a new `src/eval/params.rs`.
//!
//! The file the engine was built from is the template: every `pub const NAME: Score` or
//! `[Score; N]` item has its `Score(mg, eg)` literals replaced, in order, by the new values;
//! everything else (comments, section rules, the plain `i32` constants, the layout) is kept.
//! Tables whose literals are padded into columns stay aligned (a column widens if a new number
//! needs it); compact literals stay compact. With the engine's own weights the output is the
//! template byte for byte (a test checks this).

use crate::eval::Score;
use crate::eval::trace::GROUPS;

/// The source of `params.rs` this binary was built with.
pub const TEMPLATE: &str = include_str!("../eval/params.rs");

/// One `Score(` ... `)` literal in the template: byte range of its inside and the two fields
/// as written (the second with its separating space).
struct Literal<'a> {
    start: usize,
    end: usize,
    first: &'a str,
    second: &'a str,
}

/// The `Score(` literals of an item body starting at byte `base` of the template.
fn literals(body: &str, base: usize) -> Result<Vec<Literal<'_>>, String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = body[from..].find("Score(") {
        let start = from + p + "Score(".len();
        let close = body[start..]
            .find(')')
            .ok_or_else(|| format!("unclosed Score( at byte {}", base + start))?
            + start;
        let inside = &body[start..close];
        let (first, second) = inside
            .split_once(',')
            .ok_or_else(|| format!("Score literal without a comma at byte {}", base + start))?;
        out.push(Literal {
            start: base + start,
            end: base + close,
            first,
            second,
        });
        from = close + 1;
    }
    Ok(out)
}

/// Renders `template` with `weights` (flat, in [`GROUPS`] order) in place of its `Score`
/// literals. Fails if the template's `Score` items do not match [`GROUPS`] in name, order and
/// length.
pub fn render(template: &str, weights: &[Score]) -> Result<String, String> {
    let expected: usize = GROUPS.iter().map(|(_, w)| w.len()).sum();
    if weights.len() != expected {
        return Err(format!(
            "{} weights given, the tables hold {expected}",
            weights.len()
        ));
    }
    let mut out = String::with_capacity(template.len() + 1024);
    let mut copied = 0; // template bytes already copied to `out`
    let mut group = 0;
    let mut next_weight = 0;
    let mut search = 0;
    while let Some(p) = template[search..].find("pub const ") {
        let item = search + p;
        search = item + 1;
        // Only items at the start of a line (the header comment mentions `pub const` too).
        let line_start = template[..item].rfind('\n').map_or(0, |n| n + 1);
        if !template[line_start..item].trim().is_empty() {
            continue;
        }
        let name_start = item + "pub const ".len();
        let rest = &template[name_start..];
        let colon = rest.find(':').ok_or("pub const without a type")?;
        let name = rest[..colon].trim();
        let eq = rest.find('=').ok_or("pub const without a value")?;
        let ty = rest[colon + 1..eq].trim();
        let semi = rest.find(';').ok_or("pub const without a semicolon")?;
        // An array type holds a `;` too: the item ends at the first `;` after the `=`.
        let end = eq + rest[eq..].find(';').unwrap_or(semi);
        search = name_start + end + 1;
        if !(ty == "Score" || ty.starts_with("[Score;")) {
            continue;
        }
        let Some((gname, gweights)) = GROUPS.get(group) else {
            return Err(format!(
                "{name}: not a known weight (params.rs and GROUPS disagree)"
            ));
        };
        if *gname != name {
            return Err(format!("expected {gname}, found {name} in the template"));
        }
        let body_start = name_start + eq;
        let lits = literals(&template[body_start..name_start + end], body_start)?;
        if lits.len() != gweights.len() {
            return Err(format!(
                "{name}: {} literals in the template, {} weights",
                lits.len(),
                gweights.len()
            ));
        }
        let new = &weights[next_weight..next_weight + lits.len()];
        // A padded table: some field carries more than the separating space.
        let padded = lits
            .iter()
            .any(|l| l.first.starts_with(' ') || l.second.starts_with("  "));
        let width = |f: &dyn Fn(&Literal) -> usize, g: &dyn Fn(&Score) -> i32| {
            let old = lits.iter().map(f).max().unwrap_or(0);
            let now = new
                .iter()
                .map(|s| g(s).to_string().len())
                .max()
                .unwrap_or(0);
            old.max(now)
        };
        let w1 = width(&|l| l.first.len(), &|s| s.0);
        let w2 = width(&|l| l.second.len().saturating_sub(1), &|s| s.1);
        for (lit, s) in lits.iter().zip(new) {
            out.push_str(&template[copied..lit.start]);
            if padded {
                out.push_str(&format!("{:>w1$}, {:>w2$}", s.0, s.1));
            } else {
                out.push_str(&format!("{}, {}", s.0, s.1));
            }
            copied = lit.end;
        }
        next_weight += lits.len();
        group += 1;
    }
    if group != GROUPS.len() {
        return Err(format!(
            "the template has {group} weight items, GROUPS {}",
            GROUPS.len()
        ));
    }
    out.push_str(&template[copied..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::trace::weights;

    #[test]
    fn current_weights_reproduce_params_rs() {
        // Also proves that GROUPS lists every Score item of params.rs, in order.
        let text = render(TEMPLATE, &weights()).expect("render");
        assert_eq!(text, TEMPLATE);
    }

    #[test]
    fn new_values_land_in_place_and_columns_stay_aligned() {
        let mut w = weights();
        w[0] = Score(95, 120); // PIECE_VALUE[0]
        let pst = crate::eval::trace::Group::PawnPst.index(8); // a2
        w[pst] = Score(-1000, 7);
        let last = w.len() - 1; // TEMPO
        w[last] = Score(21, -3);
        let text = render(TEMPLATE, &w).expect("render");
        let knight = w[1];
        let after_pawn = format!(
            "    Score(95, 120),\n    Score({}, {}),",
            knight.0, knight.1
        );
        assert!(text.contains(&after_pawn), "{after_pawn}");
        assert!(text.contains("pub const TEMPO: Score = Score(21, -3);"));
        // The pawn table's first column widened to five characters on every line: the second
        // entry of each rank starts at the same place.
        let pawn_rows: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("pub const PAWN_PST"))
            .skip(1)
            .take(8)
            .collect();
        assert!(
            pawn_rows[1].starts_with("    Score(-1000,   7), Score("),
            "{}",
            pawn_rows[1]
        );
        let second = |l: &str| l[1..].find("Score(").map(|i| i + 1);
        assert!(second(pawn_rows[0]).is_some());
        for row in &pawn_rows {
            assert_eq!(second(row), second(pawn_rows[0]), "{row}");
        }
        // Everything else is untouched.
        assert_eq!(text.lines().count(), TEMPLATE.lines().count());
        assert!(text.contains("pub const KING_DANGER_DIVISOR: i32 = 10;"));
    }

    #[test]
    fn mismatched_template_is_refused() {
        let w = weights();
        assert!(render(TEMPLATE, &w[1..]).is_err());
        let renamed = TEMPLATE.replace("pub const TEMPO:", "pub const TEMPI:");
        assert!(render(&renamed, &w).is_err());
    }
}
