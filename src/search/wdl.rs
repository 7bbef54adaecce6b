//! The win/draw/loss model behind `UCI_ShowWDL`: a score and the material on the board turned
//! into the chances of winning, drawing and losing, in per mille, from the side to move's view.
//!
//! As in Stockfish, with `v` the score in centipawns and `m` the material (pawn 1, knight and
//! bishop 3, rook 5, queen 9, both sides), `x = clamp(m, 17, 78) / 58`:
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a(x) - v) / b(x)))
//! P(loss) = 1 / (1 + exp((a(x) + v) / b(x)))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! `a` (the score that wins half the games) and `b` (the spread) are cubic polynomials in `x`,
//! fitted by maximum likelihood to the results of Nullwindow's own self-play games by
//! `scripts/fit_wdl.py` (see the constants below). Pure arithmetic: no search, no position
//! other than the material count.

use super::MATE_IN_MAX;
use crate::position::Position;

/// Coefficients of `a(x) = A[0] + A[1]·x + A[2]·x² + A[3]·x³` (centipawns).
///
/// Fitted 2026-11-25 by `scripts/fit_wdl.py` on 229,770 positions of `data/gen1.bin` (engine
/// self-play of `nullwindow datagen`, 5000 soft nodes a move; a position's label is its game's
/// result). Fit quality: log-loss 0.6215 nats per position against 1.0954 for the outcome
/// frequencies alone (a free `(a, b)` per material value reaches 0.6135); predicted and
/// observed win/draw/loss rates agree within 0.066 in every score bucket from −400 to +400 cp
/// and beyond (the model sees slightly too few draws near 0 cp, where datagen's draw
/// adjudication after ply 80 adds some). Refit with `python3 scripts/fit_wdl.py COPY_OF_DATA`.
const A: [f64; 4] = [678.6020, -1959.3512, 2135.3080, -756.8362];
/// Coefficients of `b(x)` (centipawns), fitted with [`A`].
const B: [f64; 4] = [207.5707, -560.2670, 723.8404, -277.8785];

/// Material is clamped to this range before scaling (as in Stockfish).
const MATERIAL_RANGE: (i32, i32) = (17, 78);
/// `x = material / MATERIAL_SCALE`.
const MATERIAL_SCALE: f64 = 58.0;

/// Chances of a win, a draw and a loss for the side to move, per mille (they sum to 1000).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Win, per mille.
    pub win: u32,
    /// Draw, per mille.
    pub draw: u32,
    /// Loss, per mille.
    pub loss: u32,
}

/// Material on the board as the model counts it: pawn 1, knight and bishop 3, rook 5, queen 9,
/// both sides together (78 in the start position).
pub fn material(pos: &Position) -> i32 {
    pos.material_value()
}

fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

/// `1000 / (1 + exp((a - v) / b))`, rounded: the per-mille chance of winning with score `v`.
fn win_per_mille(v: f64, a: f64, b: f64) -> u32 {
    (1000.0 / (1.0 + ((a - v) / b).exp())).round() as u32
}

/// The model's win/draw/loss chances for `score` (centipawns or a mate score as the search
/// reports it, side to move's view) with `material` on the board (see [`material`]).
/// Mate scores (and tablebase wins, which lie far beyond the fitted range) give 1000/0/0 or
/// 0/0/1000. Symmetric: `wdl(-v)` is `wdl(v)` with win and loss swapped.
pub fn wdl(score: i32, material: i32) -> Wdl {
    if score >= MATE_IN_MAX {
        return Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        };
    }
    if score <= -MATE_IN_MAX {
        return Wdl {
            win: 0,
            draw: 0,
            loss: 1000,
        };
    }
    let x = f64::from(material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)) / MATERIAL_SCALE;
    // b > 0 keeps the chances monotone in the score, and a ≥ 1% of b keeps win + loss below
    // 1000 after rounding; the fitted polynomials meet both with room over the clamped range.
    let b = cubic(&B, x).max(1.0);
    let a = cubic(&A, x).max(b / 100.0);
    let v = f64::from(score);
    let win = win_per_mille(v, a, b);
    let loss = win_per_mille(-v, a, b);
    Wdl {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    const MATERIALS: [i32; 6] = [0, 17, 30, 45, 62, 78];

    #[test]
    fn sums_to_1000_everywhere() {
        for m in 0..=100 {
            for v in (-3000..=3000).step_by(7) {
                let w = wdl(v, m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "v {v} m {m}: {w:?}");
            }
        }
    }

    #[test]
    fn monotone_in_the_score() {
        for m in MATERIALS {
            let mut last = wdl(-5000, m);
            for v in -4999..=5000 {
                let w = wdl(v, m);
                assert!(w.win >= last.win && w.loss <= last.loss, "v {v} m {m}");
                last = w;
            }
        }
    }

    #[test]
    fn symmetric() {
        for m in MATERIALS {
            for v in -3000..=3000 {
                let (w, r) = (wdl(v, m), wdl(-v, m));
                assert_eq!(
                    (w.win, w.draw, w.loss),
                    (r.loss, r.draw, r.win),
                    "v {v} m {m}"
                );
            }
        }
    }

    #[test]
    fn fitted_shape() {
        // In a level position a draw is the likeliest outcome, with equal chances either way
        // (more draws with less material: self-play endgames are drawn more often).
        for m in MATERIALS {
            let w = wdl(0, m);
            assert_eq!(w.win, w.loss);
            assert!(w.draw > w.win, "{w:?}");
        }
        assert!(wdl(0, 17).draw > wdl(0, 78).draw);
        // A pawn up is better than even; a queen up nearly always wins.
        assert!(wdl(100, 60).win > wdl(0, 60).win);
        assert!(wdl(900, 60).win > 950);
        // Mate scores are certain, whatever the material.
        assert_eq!(wdl(MATE - 3, 40).win, 1000);
        assert_eq!(wdl(-MATE + 4, 40).loss, 1000);
    }

    #[test]
    fn material_of_the_start_position() {
        assert_eq!(material(&Position::startpos()), 78);
    }
}
