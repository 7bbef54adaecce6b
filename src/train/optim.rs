//! AdamW and the learning-rate schedule.

use std::f64::consts::PI;
use std::ops::Range;

use super::model::CLIP;

/// Adam's first-moment decay.
pub const BETA1: f32 = 0.9;
/// Adam's second-moment decay.
pub const BETA2: f32 = 0.999;
/// Adam's denominator guard.
pub const EPSILON: f32 = 1e-8;
/// The cosine schedule ends at this fraction of the initial rate.
pub const COSINE_FINAL: f64 = 0.01;

/// How the learning rate moves over the run.
#[derive(Clone, Debug, PartialEq)]
pub enum Schedule {
    /// The initial rate throughout.
    Constant,
    /// Cosine annealing, step by step, from the initial rate to [`COSINE_FINAL`] of it at
    /// the last step of the last epoch.
    Cosine,
    /// The rate is multiplied by the drop factor at the start of each listed epoch
    /// (1-based: `[8, 14]` trains epochs 1–7 at `lr`, 8–13 at `lr·γ`, 14– at `lr·γ²`).
    Steps(Vec<usize>),
}

impl Schedule {
    /// Parses `cosine`, `constant` or a comma-separated list of epochs.
    pub fn parse(text: &str) -> Result<Schedule, String> {
        match text {
            "cosine" => Ok(Schedule::Cosine),
            "constant" | "none" => Ok(Schedule::Constant),
            _ => {
                let mut epochs = Vec::new();
                for e in text.split(',') {
                    match e.trim().parse::<usize>() {
                        Ok(e) if e >= 1 => epochs.push(e),
                        _ => {
                            return Err(format!(
                                "--lr-drop: '{text}' is neither cosine, constant nor a list of epochs (1, 2, ...)"
                            ));
                        }
                    }
                }
                epochs.sort_unstable();
                Ok(Schedule::Steps(epochs))
            }
        }
    }

    /// The schedule as `parse` reads it.
    pub fn text(&self) -> String {
        match self {
            Schedule::Constant => "constant".into(),
            Schedule::Cosine => "cosine".into(),
            Schedule::Steps(e) => e
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// The rate at optimiser step `step` (0-based) of `total`, in epoch `epoch` (0-based),
    /// for initial rate `lr` and drop factor `gamma`.
    pub fn rate(&self, lr: f32, gamma: f32, epoch: usize, step: u64, total: u64) -> f32 {
        match self {
            Schedule::Constant => lr,
            Schedule::Cosine => {
                let t = step as f64 / total.saturating_sub(1).max(1) as f64;
                let c = 0.5 * (1.0 + (PI * t.min(1.0)).cos());
                (lr as f64 * (COSINE_FINAL + (1.0 - COSINE_FINAL) * c)) as f32
            }
            Schedule::Steps(drops) => {
                let k = drops.iter().filter(|&&e| e <= epoch + 1).count();
                lr * gamma.powi(k as i32)
            }
        }
    }
}

/// AdamW with decoupled weight decay: `p ← p − lr·(m̂/(√v̂ + ε) + wd·p)`, or toward an
/// anchor `a` (L2-SP: `wd·(p − a)` in place of `wd·p`), then every parameter clipped to
/// `±CLIP`.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

impl AdamW {
    /// Zero moments for `len` parameters.
    pub fn new(len: usize) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step: `grad` times `grad_scale` is the gradient; the parameters in each range
    /// of `segments` are decayed by `wd` if its flag is set, toward zero or toward `anchor`
    /// (the same length as `params`) when it is given.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        grad_scale: f32,
        lr: f32,
        wd: f32,
        anchor: Option<&[f32]>,
        segments: &[(Range<usize>, bool)],
    ) {
        self.step_of_sum(
            params,
            grad,
            None,
            GradRows::PLAIN,
            grad_scale,
            lr,
            wd,
            anchor,
            segments,
        );
    }

    /// [`AdamW::step`] on the gradient `grad + more` (summed element by element as it is
    /// read, the same bits as adding `more` into `grad` first), with `more` empty when absent:
    /// a two-thread run's gradients need no pass of their own to be added up. Both gradients
    /// are laid out as `layout` says (the trainer's padded layout, or [`GradRows::PLAIN`]).
    #[allow(clippy::too_many_arguments)]
    pub fn step_of_sum(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        more: Option<&[f32]>,
        layout: GradRows,
        grad_scale: f32,
        lr: f32,
        wd: f32,
        anchor: Option<&[f32]>,
        segments: &[(Range<usize>, bool)],
    ) {
        self.t += 1;
        let c1 = 1.0 / (1.0 - (BETA1 as f64).powf(self.t as f64)) as f32;
        let c2 = 1.0 / (1.0 - (BETA2 as f64).powf(self.t as f64)) as f32;
        // Each segment a run at a time: parameters whose gradients lie one after the other.
        let runs = segments.iter().flat_map(|(range, decay)| {
            let end = range.end;
            let mut i = range.start;
            std::iter::from_fn(move || {
                let start = i;
                i = layout.run_end(start, end);
                (start < end).then_some((start..i, *decay))
            })
        });
        for (range, decay) in runs {
            let keep = if decay { 1.0 - lr * wd } else { 1.0 };
            let at = layout.at(range.start);
            let in_grad = at..at + range.len();
            let (Some(p), Some(g), Some(m), Some(v)) = (
                params.get_mut(range.clone()),
                grad.get(in_grad.clone()),
                self.m.get_mut(range.clone()),
                self.v.get_mut(range.clone()),
            ) else {
                continue;
            };
            let more = more.and_then(|x| x.get(in_grad.clone()));
            // The decay's pull toward the anchor: `(1 − keep)·a` puts back what `keep` takes.
            let anchor = anchor.and_then(|a| a.get(range.clone()));
            let k = Coefs {
                grad_scale,
                c1,
                c2,
                keep,
                lr,
            };
            let s = Slices {
                p,
                g,
                more,
                m,
                v,
                anchor,
            };
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 (checked just above), the only requirement
                // of calling a function compiled with it enabled.
                unsafe { update_avx2(s, k) };
                continue;
            }
            update(s, k);
        }
    }
}

/// Where a gradient's numbers are (see [`AdamW::step_of_sum`]): the first `rows` rows of `n`
/// parameters each start `stride` numbers apart, the parameters after them follow one after
/// the other (the trainer's padded layout of the feature rows, see
/// [`crate::train::model::ROW_PAD`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GradRows {
    /// Rows laid out apart.
    pub rows: usize,
    /// Parameters in a row (at least 1).
    pub n: usize,
    /// Distance between two rows' starts (at least `n`).
    pub stride: usize,
}

impl GradRows {
    /// The parameters' own layout.
    pub const PLAIN: GradRows = GradRows {
        rows: 0,
        n: 1,
        stride: 1,
    };

    /// Where parameter `i`'s gradient is.
    fn at(self, i: usize) -> usize {
        let head = self.rows * self.n;
        if i < head {
            i / self.n * self.stride + i % self.n
        } else {
            i - head + self.rows * self.stride
        }
    }

    /// The end (at most `end`) of the run from parameter `i` on whose gradients lie one after
    /// the other.
    fn run_end(self, i: usize, end: usize) -> usize {
        if i < self.rows * self.n {
            ((i / self.n + 1) * self.n).min(end)
        } else {
            end
        }
    }
}

/// The scalars of one step over one run of parameters.
#[derive(Clone, Copy)]
struct Coefs {
    grad_scale: f32,
    c1: f32,
    c2: f32,
    keep: f32,
    lr: f32,
}

/// The arrays of one segment (all of `p`'s length).
struct Slices<'a> {
    p: &'a mut [f32],
    g: &'a [f32],
    more: Option<&'a [f32]>,
    m: &'a mut [f32],
    v: &'a mut [f32],
    anchor: Option<&'a [f32]>,
}

/// [`update`] compiled for AVX2 (the same bits: element by element, no fused multiply-add).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2(s: Slices, k: Coefs) {
    update(s, k);
}

/// The update of each parameter of a segment, one loop for each case (a second gradient
/// or not, an anchor or not) so that each is a plain vector loop.
#[inline(always)]
fn update(s: Slices, k: Coefs) {
    match (s.more, s.anchor) {
        (None, None) => update_lanes::<false, false>(s.p, s.g, &[], s.m, s.v, &[], k),
        (Some(x), None) => update_lanes::<true, false>(s.p, s.g, x, s.m, s.v, &[], k),
        (None, Some(a)) => update_lanes::<false, true>(s.p, s.g, &[], s.m, s.v, a, k),
        (Some(x), Some(a)) => update_lanes::<true, true>(s.p, s.g, x, s.m, s.v, a, k),
    }
}

/// `p ← clamp(p·keep + (1 − keep)·a − lr·m̂/(√v̂ + ε))` element by element, the gradient
/// `(g + more)·grad_scale` (`more` read only with `MORE`, `a` only with `ANCHOR`, otherwise
/// the term is `0.0`: the same operations as ever, so the same bits).
#[inline(always)]
fn update_lanes<const MORE: bool, const ANCHOR: bool>(
    p: &mut [f32],
    g: &[f32],
    more: &[f32],
    m: &mut [f32],
    v: &mut [f32],
    a: &[f32],
    k: Coefs,
) {
    let n = p.len();
    let (g, m, v) = (&g[..n], &mut m[..n], &mut v[..n]);
    let more = if MORE { &more[..n] } else { &more[..0] };
    let a = if ANCHOR { &a[..n] } else { &a[..0] };
    for i in 0..n {
        let g = if MORE { g[i] + more[i] } else { g[i] };
        let g = g * k.grad_scale;
        m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
        v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
        let upd = (m[i] * k.c1) / ((v[i] * k.c2).sqrt() + EPSILON);
        let back = if ANCHOR { (1.0 - k.keep) * a[i] } else { 0.0 };
        p[i] = (p[i] * k.keep + back - k.lr * upd).clamp(-CLIP, CLIP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        let c = Schedule::parse("cosine").expect("cosine");
        assert_eq!(c.rate(1.0, 0.1, 0, 0, 101), 1.0);
        assert!((c.rate(1.0, 0.1, 5, 50, 101) - 0.505).abs() < 1e-6);
        assert!((c.rate(1.0, 0.1, 9, 100, 101) - 0.01).abs() < 1e-6);
        let s = Schedule::parse("14,8").expect("steps");
        assert_eq!(s, Schedule::Steps(vec![8, 14]));
        assert_eq!(s.text(), "8,14");
        assert_eq!(s.rate(1.0, 0.5, 6, 0, 1), 1.0);
        assert_eq!(s.rate(1.0, 0.5, 7, 0, 1), 0.5);
        assert_eq!(s.rate(1.0, 0.5, 13, 0, 1), 0.25);
        assert!(Schedule::parse("0").is_err());
        assert!(Schedule::parse("3,x").is_err());
        assert!(Schedule::parse("").is_err());
    }

    #[test]
    fn adamw_moves_against_the_gradient_and_clips() {
        let mut p = vec![1.0, -1.0, 1.97];
        let mut a = AdamW::new(3);
        a.step(
            &mut p,
            &[1.0, -1.0, -1.0],
            1.0,
            0.1,
            0.0,
            None,
            &[(0..3, false)],
        );
        // The first Adam step moves each weight by about lr against its gradient's sign.
        assert!((p[0] - 0.9).abs() < 1e-4 && (p[1] + 0.9).abs() < 1e-4);
        assert_eq!(p[2], CLIP);
        let mut q = vec![1.0];
        let mut b = AdamW::new(1);
        b.step(&mut q, &[0.0], 1.0, 0.1, 0.5, None, &[(0..1, true)]);
        assert!((q[0] - 0.95).abs() < 1e-6);
    }

    /// A gradient in a padded layout (rows apart, the gaps holding junk) steps the parameters
    /// to the same bits as the same gradient in the parameters' own layout, with and without a
    /// second gradient added as it is read.
    #[test]
    fn padded_gradients_step_the_same() {
        let (rows, n, stride) = (3, 4, 7);
        let len = rows * n + 5;
        let val = |i: usize, k: f32| ((i * 37 + 11) % 19) as f32 * k - 0.3;
        let grad: Vec<f32> = (0..len).map(|i| val(i, 0.07)).collect();
        let more: Vec<f32> = (0..len).map(|i| val(i + 5, 0.05)).collect();
        let anchor: Vec<f32> = (0..len).map(|i| val(i + 2, 0.01)).collect();
        let layout = GradRows { rows, n, stride };
        let pad = |g: &[f32]| {
            let mut out = Vec::new();
            for r in 0..rows {
                out.extend_from_slice(&g[r * n..][..n]);
                out.extend(std::iter::repeat_n(9.0, stride - n));
            }
            out.extend_from_slice(&g[rows * n..]);
            out
        };
        // Segments that cut a row, as the trainer's do not, and one past the end.
        let segments = [
            (0..5, true),
            (5..14, false),
            (14..len, true),
            (len..len + 3, true),
        ];
        for with_more in [false, true] {
            let start: Vec<f32> = (0..len).map(|i| val(i + 1, 0.1)).collect();
            let (mut p, mut q) = (start.clone(), start.clone());
            let (mut a, mut b) = (AdamW::new(len), AdamW::new(len));
            for _ in 0..3 {
                let m = with_more.then_some(&more[..]);
                a.step_of_sum(
                    &mut p,
                    &grad,
                    m,
                    GradRows::PLAIN,
                    0.5,
                    0.01,
                    0.1,
                    Some(&anchor),
                    &segments,
                );
                let (pg, pm) = (pad(&grad), pad(&more));
                let pm = with_more.then_some(&pm[..]);
                b.step_of_sum(
                    &mut q,
                    &pg,
                    pm,
                    layout,
                    0.5,
                    0.01,
                    0.1,
                    Some(&anchor),
                    &segments,
                );
            }
            assert!(p.iter().zip(&q).all(|(x, y)| x.to_bits() == y.to_bits()));
            assert_eq!(a, b);
            assert_ne!(p, start, "the steps moved the parameters");
        }
    }

    #[test]
    fn decay_toward_an_anchor_pulls_to_it_not_to_zero() {
        // No gradient: each decayed weight moves lr·wd = 5% of its way to the anchor; the
        // weight that sits on its anchor and the undecayed one stay put.
        let mut p = vec![1.0, 0.5, 1.0];
        let anchor = [0.8, 0.5, -1.0];
        let mut a = AdamW::new(3);
        a.step(
            &mut p,
            &[0.0; 3],
            1.0,
            0.1,
            0.5,
            Some(&anchor),
            &[(0..2, true), (2..3, false)],
        );
        assert!((p[0] - 0.99).abs() < 1e-6, "{}", p[0]);
        assert!((p[1] - 0.5).abs() < 1e-6, "{}", p[1]);
        assert_eq!(p[2], 1.0);
    }
}
