//! Texel tuning of the hand-crafted evaluation (`nullwindow tune`).
//!
//! The labelled positions are traced once ([`data`]); the evaluation of a position is then a
//! function of the weights alone (see [`crate::eval::trace`]):
//!
//! ```text
//! E(w)  = scale/128 · (mg(w)·phase + eg(w)·(24 − phase)) / 24          (White's view)
//! p(E)  = 1 / (1 + 10^(−K·E/400))                                      (expected score)
//! MSE   = mean over positions of (p(E) − result)²
//! ```
//!
//! `mg` and `eg` are the linear terms plus the king danger, whose non-linearity (squared capped
//! units in the middlegame, clipped linear units in the endgame) is applied to tunable unit
//! weights, so their gradient goes through the chain rule. Fixed per position: phase, scale
//! factor and whether the king-danger gates pass (all decided with the built-in weights). The
//! float `E` differs from the engine's integer evaluation only by the engine's truncating
//! divisions (under 1 cp for the taper and under 1 cp per king for each of the danger's `/10`
//! and `/4`), so by less than 3 cp.
//!
//! Steps: fit `K` to the built-in weights by a 1-D search ([`fit_k`]), then minimise the MSE
//! over all weights at once by full-batch gradient descent with Adam ([`Adam`]), the gradient
//! summed over chunks of the positions on `std::thread::scope` threads ([`gradient`]). A
//! deterministic 10% of the positions (by FEN hash) is held out for validation. The result is
//! written as a new `params.rs` ([`params_file`]), rounded to integers, after moving the mean
//! drift of each piece-square and mobility table into the piece value (which changes no
//! evaluation, see [`normalise`]). An optional L2 penalty towards the built-in weights
//! ([`regularise`], `--reg`) keeps rarely seen weights, and combinations of weights that
//! always fire together, from wandering.

pub mod data;
pub mod params_file;

use std::ops::Range;
use std::time::Instant;

use crate::eval::MAX_PHASE;
use crate::eval::Score;
use crate::eval::params::{
    KING_DANGER_DIVISOR, KING_DANGER_EG_DIVISOR, KING_DANGER_MAX_UNITS, SCALE_NORMAL,
};
use crate::eval::trace::{Group, NUM_WEIGHTS, weight_name, weights};

pub use data::{Dataset, LoadStats, load_text, parse_labelled_line, parse_result, parse_score};

/// Weights as floats, `[mg, eg]` per weight, in [`Group::index`] order.
pub type Weights = Vec<[f64; 2]>;

/// The integer weights as floats.
pub fn float_weights(w: &[Score]) -> Weights {
    w.iter().map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// Float weights rounded to the nearest integers.
pub fn round_weights(w: &[[f64; 2]]) -> Vec<Score> {
    w.iter()
        .map(|x| Score(x[0].round() as i32, x[1].round() as i32))
        .collect()
}

/// Expected score (0 ..= 1) of an evaluation `e` in centipawns: `1 / (1 + 10^(−k·e/400))`.
#[inline]
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e * std::f64::consts::LN_10 / 400.0).exp())
}

/// Runs `f` over `threads` contiguous chunks of `0..len` on scoped threads; the results in
/// chunk order.
fn par_chunks<R: Send>(len: usize, threads: usize, f: impl Fn(Range<usize>) -> R + Sync) -> Vec<R> {
    let threads = threads.clamp(1, len.max(1));
    if threads == 1 {
        return vec![f(0..len)];
    }
    let chunk = len.div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let range = (t * chunk).min(len)..((t + 1) * chunk).min(len);
                s.spawn(move || f(range))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// The forward pass of one position: its evaluation and what the backward pass needs.
struct Forward {
    /// Evaluation in centipawns, White's view.
    eval: f64,
    /// dE/d(mg score) and dE/d(eg score).
    d_mg: f64,
    d_eg: f64,
    /// Per king (Black, White): d(score)/d(units) for mg and eg, the sign of the side included.
    d_units: [[f64; 2]; 2],
}

/// Evaluates position `p` of `d` under `w`.
#[inline]
fn forward(d: &Dataset, p: usize, w: &[[f64; 2]]) -> Forward {
    let m = &d.meta[p];
    let mut at = m.start as usize;
    let (mut mg, mut eg) = (0.0, 0.0);
    for j in at..at + m.linear as usize {
        let c = d.coef[j] as f64;
        let x = w[d.index[j] as usize];
        mg += c * x[0];
        eg += c * x[1];
    }
    at += m.linear as usize;
    let mut d_units = [[0.0; 2]; 2];
    let max = KING_DANGER_MAX_UNITS as f64;
    let div = KING_DANGER_DIVISOR as f64;
    let eg_div = KING_DANGER_EG_DIVISOR as f64;
    for (k, du) in d_units.iter_mut().enumerate() {
        let n = m.units[k] as usize;
        if !m.danger[k] || n == 0 {
            continue;
        }
        let (mut u_mg, mut u_eg) = (0.0, 0.0);
        for j in at..at + n {
            let c = d.coef[j] as f64;
            let x = w[d.index[j] as usize];
            u_mg += c * x[0];
            u_eg += c * x[1];
        }
        at += n;
        // Danger against the White king (k = 1) counts against White.
        let sign = if k == 1 { -1.0 } else { 1.0 };
        let capped = u_mg.clamp(0.0, max);
        mg += sign * capped * capped / div;
        eg += sign * u_eg.max(0.0) / eg_div;
        du[0] = if u_mg > 0.0 && u_mg < max {
            sign * 2.0 * u_mg / div
        } else {
            0.0
        };
        du[1] = if u_eg > 0.0 { sign / eg_div } else { 0.0 };
    }
    let scale = m.scale as f64 / SCALE_NORMAL as f64;
    let ph = m.phase as f64 / MAX_PHASE as f64;
    let (d_mg, d_eg) = (ph * scale, (1.0 - ph) * scale);
    Forward {
        eval: mg * d_mg + eg * d_eg,
        d_mg,
        d_eg,
        d_units,
    }
}

/// Evaluations (White's view, centipawns) of every position of `d` under `w`.
pub fn evaluations(d: &Dataset, w: &[[f64; 2]], threads: usize) -> Vec<f64> {
    par_chunks(d.len(), threads, |r| {
        r.map(|p| forward(d, p, w).eval).collect::<Vec<_>>()
    })
    .concat()
}

/// Mean squared error of `d` under `w` with sigmoid scale `k` (0 for an empty set).
pub fn mse(d: &Dataset, w: &[[f64; 2]], k: f64, threads: usize) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let sums = par_chunks(d.len(), threads, |r| {
        r.map(|p| {
            let e = sigmoid(k, forward(d, p, w).eval) - d.meta[p].result as f64;
            e * e
        })
        .sum::<f64>()
    });
    sums.iter().sum::<f64>() / d.len() as f64
}

/// The gradient of the MSE of `d` under `w` with respect to every weight, and the MSE itself
/// (both at `w`).
pub fn gradient(d: &Dataset, w: &[[f64; 2]], k: f64, threads: usize) -> (Weights, f64) {
    let n = d.len().max(1) as f64;
    let c = k * std::f64::consts::LN_10 / 400.0;
    let parts = par_chunks(d.len(), threads, |r| {
        let mut g = vec![[0.0f64; 2]; w.len()];
        let mut loss = 0.0;
        for p in r {
            let f = forward(d, p, w);
            let m = &d.meta[p];
            let s = sigmoid(k, f.eval);
            let err = s - m.result as f64;
            loss += err * err;
            // d(err²)/dE = 2·err·s·(1 − s)·k·ln10/400
            let de = 2.0 * err * s * (1.0 - s) * c;
            let (gm, ge) = (de * f.d_mg, de * f.d_eg);
            let mut at = m.start as usize;
            for j in at..at + m.linear as usize {
                let x = d.coef[j] as f64;
                let gi = &mut g[d.index[j] as usize];
                gi[0] += gm * x;
                gi[1] += ge * x;
            }
            at += m.linear as usize;
            for kk in 0..2 {
                let units = m.units[kk] as usize;
                if !m.danger[kk] || units == 0 {
                    continue;
                }
                let (um, ue) = (gm * f.d_units[kk][0], ge * f.d_units[kk][1]);
                for j in at..at + units {
                    let x = d.coef[j] as f64;
                    let gi = &mut g[d.index[j] as usize];
                    gi[0] += um * x;
                    gi[1] += ue * x;
                }
                at += units;
            }
        }
        (g, loss)
    });
    let mut g = vec![[0.0f64; 2]; w.len()];
    let mut loss = 0.0;
    for (pg, pl) in parts {
        for (a, b) in g.iter_mut().zip(&pg) {
            a[0] += b[0] / n;
            a[1] += b[1] / n;
        }
        loss += pl;
    }
    (g, loss / n)
}

/// The sigmoid scale `K` that minimises the MSE of `d` under `w`: a scan of 0.02 ..= 5 in
/// steps of 0.02, then a golden-section search around the best step.
pub fn fit_k(d: &Dataset, w: &[[f64; 2]], threads: usize) -> f64 {
    let evals = evaluations(d, w, threads);
    let results: Vec<f64> = d.results().map(f64::from).collect();
    let err = |k: f64| -> f64 {
        let sums = par_chunks(evals.len(), threads, |r| {
            r.map(|i| {
                let e = sigmoid(k, evals[i]) - results[i];
                e * e
            })
            .sum::<f64>()
        });
        sums.iter().sum::<f64>() / evals.len().max(1) as f64
    };
    let step = 0.02;
    let mut best = (step, f64::MAX);
    for i in 1..=250 {
        let k = i as f64 * step;
        let e = err(k);
        if e < best.1 {
            best = (k, e);
        }
    }
    let (mut a, mut b) = ((best.0 - step).max(1e-6), best.0 + step);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = b - phi * (b - a);
    let mut x2 = a + phi * (b - a);
    let (mut f1, mut f2) = (err(x1), err(x2));
    while b - a > 1e-5 {
        if f1 < f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - phi * (b - a);
            f1 = err(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + phi * (b - a);
            f2 = err(x2);
        }
    }
    (a + b) / 2.0
}

/// Adds the gradient of `reg · Σ (w − start)²` to `g`.
pub fn regularise(g: &mut [[f64; 2]], w: &[[f64; 2]], start: &[[f64; 2]], reg: f64) {
    if reg == 0.0 {
        return;
    }
    for ((gi, wi), si) in g.iter_mut().zip(w).zip(start) {
        for h in 0..2 {
            gi[h] += 2.0 * reg * (wi[h] - si[h]);
        }
    }
}

/// Adam: per-weight step sizes from running means of the gradient and its square.
#[derive(Clone, Debug)]
pub struct Adam {
    m: Weights,
    v: Weights,
    t: i32,
    /// Step size (centipawns per step at the start).
    pub lr: f64,
}

impl Adam {
    /// β₁ (gradient mean decay).
    pub const BETA1: f64 = 0.9;
    /// β₂ (squared gradient mean decay).
    pub const BETA2: f64 = 0.999;
    /// ε (keeps the division finite).
    pub const EPSILON: f64 = 1e-8;

    /// An optimiser for `n` weights with step size `lr`.
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam {
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
            t: 0,
            lr,
        }
    }

    /// One step of `w` against the gradient `g`.
    pub fn step(&mut self, w: &mut [[f64; 2]], g: &[[f64; 2]]) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for i in 0..w.len() {
            for h in 0..2 {
                let gi = g[i][h];
                self.m[i][h] = Self::BETA1 * self.m[i][h] + (1.0 - Self::BETA1) * gi;
                self.v[i][h] = Self::BETA2 * self.v[i][h] + (1.0 - Self::BETA2) * gi * gi;
                let mh = self.m[i][h] / c1;
                let vh = self.v[i][h] / c2;
                w[i][h] -= self.lr * mh / (vh.sqrt() + Self::EPSILON);
            }
        }
    }
}

/// Removes the directions the evaluation cannot see, so that the tables stay readable: every
/// knight, bishop, rook, queen and pawn gets its piece value, one piece-square entry and (not
/// pawns) one mobility entry, so a constant can move between those without changing any
/// evaluation. Each piece-square table (pawns: ranks 2-7 only) and mobility table is shifted
/// back to the mean it has in `reference`, the difference going into the piece value. The
/// king's table is shifted likewise (a constant on both kings cancels).
pub fn normalise(w: &mut [[f64; 2]], reference: &[[f64; 2]]) {
    shift_tables(w, reference, true);
}

/// `--freeze-material`: projects `w` back onto the weights whose material is that of
/// `reference`. The piece values are reset to the reference and every piece-square and
/// mobility table is shifted back to its reference mean, the shift dropped. Applied after
/// every step (projected gradient descent), so the tables can only redistribute value
/// between squares and move counts, never raise or lower a piece as a whole.
pub fn freeze_material(w: &mut [[f64; 2]], reference: &[[f64; 2]]) {
    shift_tables(w, reference, false);
    for role in 0..5 {
        w[Group::PieceValue.index(role)] = reference[Group::PieceValue.index(role)];
    }
}

/// Shifts each piece-square and mobility table back to its mean in `reference`; the shift
/// goes into the piece value when `into_piece_value`, else it is dropped.
fn shift_tables(w: &mut [[f64; 2]], reference: &[[f64; 2]], into_piece_value: bool) {
    let pst = crate::eval::PST_GROUP;
    let mobility = [
        (1, Group::MobilityKnight, 9),
        (2, Group::MobilityBishop, 14),
        (3, Group::MobilityRook, 15),
        (4, Group::MobilityQueen, 28),
    ];
    let mut tables: Vec<(usize, Range<usize>)> = Vec::new();
    for (role, g) in pst.into_iter().enumerate() {
        let squares = if role == 0 { 8..56 } else { 0..64 };
        tables.push((role, g.index(squares.start)..g.index(squares.end)));
    }
    for (role, g, n) in mobility {
        tables.push((role, g.index(0)..g.index(n)));
    }
    for (role, range) in tables {
        for h in 0..2 {
            let len = range.len() as f64;
            let mean = |x: &[[f64; 2]]| x[range.clone()].iter().map(|v| v[h]).sum::<f64>() / len;
            let shift = mean(w) - mean(reference);
            for v in &mut w[range.clone()] {
                v[h] -= shift;
            }
            if into_piece_value && role < 5 {
                w[Group::PieceValue.index(role)][h] += shift;
            }
        }
    }
}

/// Which weights a run may change: those whose name starts with one of `prefixes` (every
/// weight when there are none).
pub fn tunable_mask(prefixes: &[String]) -> Vec<bool> {
    (0..NUM_WEIGHTS)
        .map(|i| {
            let name = weight_name(i);
            prefixes.is_empty() || prefixes.iter().any(|p| name.starts_with(p.as_str()))
        })
        .collect()
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Labelled positions.
    pub data: String,
    /// Gradient steps over the whole training set.
    pub epochs: usize,
    /// Adam step size.
    pub lr: f64,
    /// Worker threads.
    pub threads: usize,
    /// Use only the first this many positions.
    pub limit: Option<usize>,
    /// Where the tuned `params.rs` goes.
    pub out: String,
    /// A fixed `K` instead of fitting it.
    pub k: Option<f64>,
    /// Also write the output every this many epochs (0: only at the end).
    pub save_every: usize,
    /// L2 penalty on the distance from the built-in weights (0: none).
    pub reg: f64,
    /// Keep the material of the built-in weights (see [`freeze_material`]).
    pub freeze_material: bool,
    /// Tune only the weights whose `params.rs` name starts with one of these (empty: all).
    pub only: Vec<String>,
    /// Weight of the search score in the training target (0: the game result alone).
    pub lambda: f64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            data: String::new(),
            epochs: 500,
            lr: 1.0,
            threads: 1,
            limit: None,
            out: "params-tuned.rs".to_string(),
            k: None,
            save_every: 0,
            reg: 0.0,
            freeze_material: false,
            only: Vec::new(),
            lambda: 0.0,
        }
    }
}

/// Usage text of the `tune` subcommand.
pub const USAGE: &str = "\
usage: nullwindow tune --data FILE [options]

  --data FILE[,FILE...]
                    labelled positions, one a line: '<FEN> c9 \"1-0\";', '<FEN> [0.5]',
                    '<FEN> \"1/2-1/2\"' (result from White's view; bad lines are skipped),
                    optionally with the search score '... ce 35;' (side to move's view)
  --lambda X        training target (1−X)·result + X·sigmoid(K·score) for positions with a
                    'ce' score (0 ..= 1, default 0); the validation set keeps the results
  --epochs N        full-batch Adam steps (default 500)
  --lr X            Adam step size in centipawns (default 1.0)
  --threads N       worker threads (default 1)
  --limit N         use only the first N positions
  --k X             sigmoid scale K (default: fitted to the built-in weights)
  --out FILE        where the tuned params.rs goes (default params-tuned.rs)
  --save-every N    also write FILE every N epochs (default: only at the end)
  --reg X           add X·Σ(w − w_built_in)² to the error (default 0): keeps weights the data
                    barely sees, and directions it cannot see at all, near their start
  --only P1,P2,...  tune only the weights whose name in params.rs starts with one of these
                    prefixes (e.g. THREAT_,KING_STORM); the others keep their built-in values
  --freeze-material keep the built-in piece values and the mean of every piece-square and
                    mobility table (each step is projected back): tunes where a piece stands
                    and how it moves, not what it is worth
  -h, --help        this text

A deterministic 10% of the positions (by FEN hash) is the validation set. Each epoch prints
the training and validation MSE of the weights it starts from.";

/// Parses the arguments of `tune`; `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<TuneOptions>, String> {
    let mut o = TuneOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = crate::cli::split_option(a);
        if matches!(key, "-h" | "--help") {
            return Ok(None);
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{key} needs a value"))
        };
        let num = |v: String| -> Result<usize, String> {
            v.parse::<usize>()
                .map_err(|_| format!("{key}: '{v}' is not a whole number"))
        };
        // A finite real number that `ok` accepts, or an error saying it must be `what`.
        let real = |v: String, ok: fn(f64) -> bool, what: &str| -> Result<f64, String> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && ok(*x))
                .ok_or_else(|| format!("{key}: '{v}' is not {what}"))
        };
        if key == "--freeze-material" {
            o.freeze_material = true;
            continue;
        }
        match key {
            "--data" => o.data = value()?,
            "--out" => o.out = value()?,
            "--epochs" => o.epochs = num(value()?)?,
            "--threads" => o.threads = num(value()?)?.max(1),
            "--limit" => o.limit = Some(num(value()?)?),
            "--save-every" => o.save_every = num(value()?)?,
            "--only" => {
                o.only = value()?
                    .split(',')
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
                    .collect();
                let names: Vec<String> = (0..NUM_WEIGHTS).map(weight_name).collect();
                if let Some(p) = o
                    .only
                    .iter()
                    .find(|p| !names.iter().any(|n| n.starts_with(*p)))
                {
                    return Err(format!("--only: no weight is called {p}..."));
                }
            }
            "--reg" => o.reg = real(value()?, |x| x >= 0.0, "a number ≥ 0")?,
            "--lambda" => {
                o.lambda = real(
                    value()?,
                    |x| (0.0..=1.0).contains(&x),
                    "a number from 0 to 1",
                )?
            }
            "--lr" => o.lr = real(value()?, |x| x > 0.0, "a positive number")?,
            "--k" => o.k = Some(real(value()?, |x| x > 0.0, "a positive number")?),
            _ => return Err(format!("unknown option '{a}'\n\n{USAGE}")),
        }
    }
    if o.data.is_empty() {
        return Err(format!("--data FILE is required\n\n{USAGE}"));
    }
    Ok(Some(o))
}

/// Writes the weights `w` (normalised against `reference`, rounded) as a `params.rs` to
/// `path`.
fn save(path: &str, w: &[[f64; 2]], reference: &[[f64; 2]]) -> Result<Vec<Score>, String> {
    let mut w = w.to_vec();
    normalise(&mut w, reference);
    let rounded = round_weights(&w);
    let text = params_file::render(params_file::TEMPLATE, &rounded)?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
    Ok(rounded)
}

/// `nullwindow tune ...`: loads the data, fits K, tunes, writes the table. Progress goes to
/// standard output.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let Some(o) = parse_args(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    let start = Instant::now();
    let (mut train, mut val) = (Dataset::new(), Dataset::new());
    for path in o.data.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let limit = o.limit.map(|n| n.saturating_sub(train.len() + val.len()));
        let (t, v, stats) = load_text(&text, limit, o.threads);
        println!(
            "data {path}: {} lines, {} skipped as malformed, {} training + {} validation \
             positions, {} with a search score",
            stats.lines,
            stats.malformed,
            stats.train,
            stats.validation,
            t.scored() + v.scored()
        );
        train.append(t);
        val.append(v);
    }
    println!(
        "traces: {} coefficient entries ({:.1} per position), {:.1} MB, {:.1} s",
        train.entries() + val.entries(),
        (train.entries() + val.entries()) as f64 / (train.len() + val.len()).max(1) as f64,
        (train.bytes() + val.bytes()) as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    if train.is_empty() {
        return Err("no training positions".to_string());
    }

    let reference = float_weights(&weights());
    let mut w = reference.clone();
    let t = Instant::now();
    let k = match o.k {
        Some(k) => k,
        None => fit_k(&train, &w, o.threads),
    };
    if o.freeze_material {
        println!("material frozen at the built-in piece values");
    }
    if o.reg > 0.0 {
        println!(
            "L2 penalty {} on the distance from the built-in weights",
            o.reg
        );
    }
    println!(
        "K = {k:.4} ({}, {:.1} s)",
        if o.k.is_some() { "given" } else { "fitted" },
        t.elapsed().as_secs_f64()
    );

    if o.lambda > 0.0 {
        train.blend_scores(k, o.lambda);
        println!(
            "training target: {:.2}·result + {:.2}·sigmoid(K·score) for the {} positions with a score",
            1.0 - o.lambda,
            o.lambda,
            train.scored()
        );
    }

    let mask = tunable_mask(&o.only);
    if !o.only.is_empty() {
        println!(
            "tuning {} of {NUM_WEIGHTS} weights (--only {})",
            mask.iter().filter(|&&t| t).count(),
            o.only.join(",")
        );
    }
    let mut adam = Adam::new(NUM_WEIGHTS, o.lr);
    let tuning = Instant::now();
    println!("epoch      train MSE   validation MSE   seconds");
    for epoch in 0..o.epochs {
        let (mut g, train_mse) = gradient(&train, &w, k, o.threads);
        regularise(&mut g, &w, &reference, o.reg);
        for (gi, &t) in g.iter_mut().zip(&mask) {
            if !t {
                *gi = [0.0; 2];
            }
        }
        let val_mse = mse(&val, &w, k, o.threads);
        println!(
            "{epoch:5}   {train_mse:12.7}   {val_mse:14.7}   {:7.1}",
            tuning.elapsed().as_secs_f64()
        );
        adam.step(&mut w, &g);
        if o.freeze_material {
            freeze_material(&mut w, &reference);
        }
        if o.save_every > 0 && (epoch + 1) % o.save_every == 0 {
            save(&o.out, &w, &reference)?;
        }
    }
    let secs = tuning.elapsed().as_secs_f64();
    let rounded = save(&o.out, &w, &reference)?;
    let (before, after) = (reference.clone(), float_weights(&rounded));
    println!(
        "{} epochs in {secs:.1} s ({:.3} s per epoch, {} threads)",
        o.epochs,
        secs / o.epochs.max(1) as f64,
        o.threads
    );
    println!(
        "built-in weights: train {:.7} validation {:.7}",
        mse(&train, &before, k, o.threads),
        mse(&val, &before, k, o.threads)
    );
    println!(
        "tuned (rounded):  train {:.7} validation {:.7}",
        mse(&train, &after, k, o.threads),
        mse(&val, &after, k, o.threads)
    );
    let mut changes: Vec<(f64, usize)> = (0..NUM_WEIGHTS)
        .map(|i| {
            let d = (after[i][0] - before[i][0]).abs() + (after[i][1] - before[i][1]).abs();
            (d, i)
        })
        .collect();
    changes.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("largest changes:");
    for &(_, i) in changes.iter().take(12) {
        println!(
            "  {:28} ({:5}, {:5}) -> ({:5}, {:5})",
            weight_name(i),
            before[i][0],
            before[i][1],
            after[i][0],
            after[i][1]
        );
    }
    println!(
        "wrote {} (replace src/eval/params.rs with it, then cargo fmt)",
        o.out
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::trace::EvalTrace;
    use crate::position::Position;

    fn bench_set() -> Dataset {
        let mut d = Dataset::new();
        let mut tr = EvalTrace::new();
        for fen in crate::bench::positions() {
            if let Ok(p) = Position::from_fen(fen, false) {
                d.push(&p, 0.5, &mut tr);
            }
        }
        d
    }

    #[test]
    fn float_evaluation_is_the_engine_evaluation_within_rounding() {
        let d = bench_set();
        let w = float_weights(&weights());
        let evals = evaluations(&d, &w, 2);
        for (i, fen) in crate::bench::positions().iter().enumerate() {
            let p = Position::from_fen(fen, false).expect("bench fen");
            let e = crate::eval::evaluate(&p);
            let white = if p.turn() == crate::position::Color::White {
                e
            } else {
                -e
            };
            // Truncating divisions in the engine: taper and the danger of each king.
            assert!(
                (evals[i] - white as f64).abs() < 3.0,
                "{fen}: {} vs {white}",
                evals[i]
            );
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let mut d = bench_set();
        d.set_results(|i| [0.0, 0.5, 1.0][i % 3]);
        let w = float_weights(&weights());
        let k = 1.1;
        let (g, loss) = gradient(&d, &w, k, 2);
        assert!((loss - mse(&d, &w, k, 1)).abs() < 1e-12);
        let h = 1e-3;
        let mut checked = 0;
        for i in [
            Group::PieceValue.index(1),
            Group::PawnPst.index(28),
            Group::MobilityBishop.index(6),
            Group::KingShield.index(1),
            Group::KingAttackerUnits.index(3),
            Group::KingSafeCheckUnits.index(0),
            Group::Tempo.index(0),
        ] {
            for half in 0..2 {
                let mut up = w.clone();
                up[i][half] += h;
                let mut down = w.clone();
                down[i][half] -= h;
                let numeric = (mse(&d, &up, k, 1) - mse(&d, &down, k, 1)) / (2.0 * h);
                let tol = 1e-6 + 1e-3 * numeric.abs();
                assert!(
                    (numeric - g[i][half]).abs() < tol,
                    "{} half {half}: analytic {} numeric {numeric}",
                    weight_name(i),
                    g[i][half]
                );
                checked += usize::from(numeric != 0.0);
            }
        }
        assert!(checked >= 8, "too few non-zero derivatives: {checked}");
    }

    #[test]
    fn k_fit_recovers_the_scale_of_the_labels() {
        // Labels that are exactly the expected score at K = 1.3 under the built-in weights.
        let mut d = bench_set();
        let w = float_weights(&weights());
        let evals = evaluations(&d, &w, 1);
        d.set_results(|i| sigmoid(1.3, evals[i]) as f32);
        let k = fit_k(&d, &w, 2);
        assert!((k - 1.3).abs() < 0.01, "K = {k}");
    }

    #[test]
    fn regularisation_pulls_towards_the_start() {
        let start = vec![[10.0, -4.0]; 3];
        let w = vec![[12.0, -4.0], [10.0, 0.0], [10.0, -4.0]];
        let mut g = vec![[0.0; 2]; 3];
        regularise(&mut g, &w, &start, 0.5);
        assert_eq!(g, vec![[2.0, 0.0], [0.0, 4.0], [0.0, 0.0]]);
    }

    #[test]
    fn normalising_changes_no_evaluation() {
        let d = bench_set();
        let reference = float_weights(&weights());
        let mut w = reference.clone();
        // Drift: a constant on every knight square and bishop mobility, another on the kings.
        for i in 0..64 {
            w[Group::KnightPst.index(i)][0] += 7.0;
            w[Group::KingPst.index(i)][1] -= 5.0;
        }
        for i in 0..14 {
            w[Group::MobilityBishop.index(i)][1] += 3.0;
        }
        let before = evaluations(&d, &w, 1);
        normalise(&mut w, &reference);
        let after = evaluations(&d, &w, 1);
        for (a, b) in before.iter().zip(&after) {
            assert!((a - b).abs() < 1e-9);
        }
        // The tables are back where they started; the knight and bishop values took the drift.
        let mut expect = reference.clone();
        expect[Group::PieceValue.index(1)][0] += 7.0;
        expect[Group::PieceValue.index(2)][1] += 3.0;
        for (i, (a, b)) in w.iter().zip(&expect).enumerate() {
            let same = (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9;
            assert!(same, "{}: {a:?} vs {b:?}", weight_name(i));
        }
    }

    #[test]
    fn args_are_checked() {
        let a = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse_args(&a("--data x.epd --epochs 3 --lr=0.5 --threads 2 --limit 9"))
            .expect("parse")
            .expect("options");
        assert_eq!((o.epochs, o.lr, o.threads, o.limit), (3, 0.5, 2, Some(9)));
        assert!(parse_args(&a("--epochs 3")).is_err());
        let o = parse_args(&a("--data x --only THREAT_,KING_STORM"))
            .expect("parse")
            .expect("options");
        assert_eq!(o.only, vec!["THREAT_", "KING_STORM"]);
        let mask = tunable_mask(&o.only);
        assert!(mask[Group::ThreatQueen.index(0)] && mask[Group::KingStormBlocked.index(2)]);
        assert!(!mask[Group::PieceValue.index(0)] && !mask[Group::KingShield.index(0)]);
        assert!(tunable_mask(&[]).iter().all(|&t| t));
        assert!(parse_args(&a("--data x --only NO_SUCH_WEIGHT")).is_err());
        assert!(parse_args(&a("--data x --lr -1")).is_err());
        assert!(parse_args(&a("--data x --epochs")).is_err());
        assert!(parse_args(&a("--data x --bogus 1")).is_err());
        assert!(parse_args(&a("--help")).expect("help").is_none());
        assert!(parse_args(&a("--data x --reg -1")).is_err());
        let o = parse_args(&a("--data x --reg 1e-7"))
            .expect("parse")
            .expect("options");
        assert_eq!(o.reg, 1e-7);
        assert!(!o.freeze_material);
        let o = parse_args(&a("--data x,y --lambda 0.5"))
            .expect("parse")
            .expect("options");
        assert_eq!((o.data.as_str(), o.lambda), ("x,y", 0.5));
        assert!(parse_args(&a("--data x --lambda 1.5")).is_err());
        let o = parse_args(&a("--freeze-material --data x"))
            .expect("parse")
            .expect("options");
        assert!(o.freeze_material && o.data == "x");
    }

    #[test]
    fn frozen_material_keeps_piece_values_and_table_means() {
        let reference = float_weights(&weights());
        let mut w = reference.clone();
        // A step that raises the pawn value, lifts every knight square and tilts the rook
        // mobility table (its mean rises too).
        w[Group::PieceValue.index(0)][0] += 9.0;
        for i in 0..64 {
            w[Group::KnightPst.index(i)][1] += 4.0;
        }
        for i in 0..15 {
            w[Group::MobilityRook.index(i)][0] += i as f64;
        }
        freeze_material(&mut w, &reference);
        assert_eq!(
            w[Group::PieceValue.index(0)],
            reference[Group::PieceValue.index(0)]
        );
        for i in 0..64 {
            let d = w[Group::KnightPst.index(i)][1] - reference[Group::KnightPst.index(i)][1];
            assert!(d.abs() < 1e-9, "knight square {i} moved by {d}");
        }
        // The tilt stays (a slope of 1 per move around the old mean), the mean does not.
        let rook = |x: &[[f64; 2]], i: usize| x[Group::MobilityRook.index(i)][0];
        let drift: Vec<f64> = (0..15).map(|i| rook(&w, i) - rook(&reference, i)).collect();
        assert!(drift.iter().sum::<f64>().abs() < 1e-9);
        assert!((drift[14] - drift[0] - 14.0).abs() < 1e-9);
    }
}
