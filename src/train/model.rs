//! The float network the trainer optimises, its forward and backward passes, and its
//! quantisation into an [`nnue::net::Network`](crate::nnue::net::Network).
//!
//! All parameters live in one flat `Vec<f32>` (so that the optimiser, the gradient buffers and
//! the checkpoint treat them alike), in the order of the network file:
//! feature weights `[K·768][N]` (feature-major; K king buckets, 1 without), feature biases `[N]`, output weights `[B][2N]`
//! (per output bucket, side to move's half first), output biases `[B]`. A factorised model
//! (king buckets with a factoriser, [`Model::factor`]) has a `K+1`-th block of 768 shared
//! rows after the K blocks, added to whichever block a perspective reads: every
//! position trains the shared rows, and each block learns only how its bucket differs. The
//! network file holds the sums (block + shared rows), so the engine never sees the factoriser.
//!
//! Forward pass for a sample with side-to-move features `F` (the other perspective's are
//! `mirror(F)`): `a_stm = b + Σ_{f∈F} W[v_stm(f)]`, `a_nstm = b + Σ_{f∈F} W[v_nstm(mirror f)]`,
//! where each perspective's view `v` picks the row: `f` itself, or with king buckets the block
//! of its king's bucket, and in a horizontally mirrored network `f ^ 7` while its king stands
//! on files a–d (see [`Inputs`]),
//! `out = Σ screlu(a_stm)·w_stm + Σ screlu(a_nstm)·w_nstm + c` with `screlu(x) = clamp(x,0,1)²`,
//! where `w` and `c` are the output layer of the sample's bucket (its piece count, `|F|`: see
//! [`output_bucket`]); the predicted win probability is `sigmoid(out)` and the evaluation
//! `out · SCALE` centipawns. Loss: `(sigmoid(out) − target)²`; its gradient reaches only the
//! sample's bucket's output layer.

use crate::nnue::net::{INPUTS, Inputs, MAX_BUCKETS, Network, QA, QB, View, output_bucket};
use crate::nnue::simd::OutputPlan;

use std::ops::Range;

use super::data::{MAX_FEATURES, Rng, Sample, mirror, sigmoid};

/// Lanes of the manual dot-product reductions: the hidden size is a multiple of it, and a
/// fixed lane count makes the sums the same on every instruction set.
const LANES: usize = 16;

/// Feature weights start uniform in `±FT_INIT`: with about 30 active features the
/// accumulators start with a spread of about 0.3, inside SCReLU's working range.
pub const FT_INIT: f32 = 0.1;

/// The largest output quantisation the trainer writes (`--qb`, and `--qb fit`'s search).
pub const QB_MAX: i32 = 16384;

/// Every parameter is clipped to `±CLIP` after each step: `QA·CLIP` and `QB·CLIP` fit an
/// `i16`, and up to [`QA_MAX`] a whole accumulator does too.
pub const CLIP: f32 = 1.98;

/// The largest feature quantisation the trainer writes (`--qa`): 32 active features and the
/// bias, each clipped to `±CLIP·QA`, fit the engine's `i16` accumulator (501).
pub const QA_MAX: i32 = (i16::MAX as f32 / (33.0 * CLIP)) as i32;

/// The float network: hidden size, output buckets and parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Hidden size N (a multiple of 16).
    pub hidden: usize,
    /// Output buckets B (1..=[`MAX_BUCKETS`]).
    pub buckets: usize,
    /// Which feature rows each perspective reads (mirroring, king buckets).
    pub inputs: Inputs,
    /// A block of shared feature rows follows the K blocks and is added to each (the
    /// factoriser of the module comment); only with king buckets.
    pub factor: bool,
    /// All parameters, in the layout of the module comment.
    pub params: Vec<f32>,
}

/// Where each block of parameters starts in the flat vector.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Hidden size.
    pub n: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Feature rows: 768 per king bucket, and 768 more for a factoriser.
    pub rows: usize,
    /// The first of the factoriser's shared rows (`768·K`), if the model has them.
    pub factor: Option<usize>,
}

impl Layout {
    /// Start of the feature biases (the feature weights start at 0).
    pub fn ft_bias(self) -> usize {
        self.rows * self.n
    }
    /// Start of the output weights.
    pub fn out_weights(self) -> usize {
        (self.rows + 1) * self.n
    }
    /// Start of the output biases (one per bucket).
    pub fn out_bias(self) -> usize {
        self.out_weights() + self.buckets * 2 * self.n
    }
    /// Number of parameters.
    pub fn size(self) -> usize {
        self.out_bias() + self.buckets
    }
    /// The range of `bucket`'s output weights.
    pub fn bucket_weights(self, bucket: usize) -> Range<usize> {
        let at = self.out_weights() + bucket * 2 * self.n;
        at..at + 2 * self.n
    }
    /// The distance between two feature rows in the padded layout (see [`ROW_PAD`]).
    pub fn stride(self) -> usize {
        self.n + ROW_PAD
    }
    /// Numbers of a gradient in the padded layout: the feature rows [`Layout::stride`] apart,
    /// then the other parameters' as in the parameters' layout.
    pub fn padded_size(self) -> usize {
        self.rows * self.stride() + self.size() - self.ft_bias()
    }
}

/// Numbers left unused after each feature row in the padded layout, the one the gradient pass
/// reads the feature weights in and writes their gradient in. Rows of 128 or 256 numbers put a
/// sample's rows 4096 bytes apart or a multiple of that (a feature and its mirror, a block's row
/// and the factoriser's), so the loads and stores of the backward pass's rows aliased in the
/// cache and in the store buffer; a stride of 132 numbers (528 bytes) cut a small run's CPU time
/// by about 13%. Only where the numbers are: the sums are the same.
pub const ROW_PAD: usize = 4;

/// The parameters' layout `canonical` (of `l`) into the padded one (see
/// [`Layout::padded_size`]) in `to`, the gaps zero; only its first `l.ft_bias()` numbers (the
/// feature rows) if `canonical` has no more.
fn to_padded(l: Layout, canonical: &[f32], to: &mut Vec<f32>) {
    let (n, stride) = (l.n, l.stride());
    let (rows, rest) = canonical.split_at(l.ft_bias().min(canonical.len()));
    to.resize(l.rows * stride + rest.len(), 0.0);
    let (to_rows, to_rest) = to.split_at_mut(l.rows * stride);
    for (to, from) in to_rows.chunks_exact_mut(stride).zip(rows.chunks_exact(n)) {
        to[..n].copy_from_slice(from);
    }
    to_rest.copy_from_slice(rest);
}

/// The padded layout `padded` back into the parameters' layout `to` (see [`to_padded`]).
fn from_padded(l: Layout, padded: &[f32], to: &mut [f32]) {
    let (n, stride) = (l.n, l.stride());
    let (rows, rest) = padded.split_at(l.rows * stride);
    let (to_rows, to_rest) = to.split_at_mut(l.ft_bias());
    for (to, from) in to_rows.chunks_exact_mut(n).zip(rows.chunks_exact(stride)) {
        to.copy_from_slice(&from[..n]);
    }
    to_rest.copy_from_slice(rest);
}

/// Scratch space of one worker: the two accumulators, and the padded copies
/// [`Model::add_gradients`] works in.
#[derive(Clone, Debug)]
pub struct Scratch {
    acc_stm: Vec<f32>,
    acc_nstm: Vec<f32>,
    /// The feature weights and the gradient in the padded layout.
    w_pad: Vec<f32>,
    g_pad: Vec<f32>,
}

impl Scratch {
    /// Accumulators for hidden size `n`.
    pub fn new(n: usize) -> Scratch {
        Scratch {
            acc_stm: vec![0.0; n],
            acc_nstm: vec![0.0; n],
            w_pad: Vec::new(),
            g_pad: Vec::new(),
        }
    }
}

/// For a king-bucket map `to` that refines `from` (every square of each bucket of `to` lies in
/// one bucket of `from`, the mirroring the same): for each bucket of `to`, the bucket of
/// `from` it lies in. `None` if `to` splits no bucket of `from` this way.
pub fn refined_blocks(from: &Inputs, to: &Inputs) -> Option<Vec<usize>> {
    if from.mirrored != to.mirrored {
        return None;
    }
    let mut src: Vec<Option<usize>> = vec![None; to.king_buckets];
    for (&t, &f) in to.king_map.iter().zip(&from.king_map) {
        let slot = src.get_mut(usize::from(t))?;
        match *slot {
            None => *slot = Some(usize::from(f)),
            Some(b) if b == usize::from(f) => {}
            Some(_) => return None,
        }
    }
    src.into_iter().collect()
}

impl Model {
    /// A freshly initialised network: feature weights uniform in `±FT_INIT`, feature biases
    /// zero, output weights uniform in `±1/√(2N)` (each bucket its own), output biases zero.
    pub fn new(hidden: usize, buckets: usize, rng: &mut Rng) -> Model {
        let l = Layout {
            n: hidden,
            buckets,
            rows: INPUTS,
            factor: None,
        };
        let mut params = vec![0.0; l.size()];
        for p in &mut params[..l.ft_bias()] {
            *p = rng.uniform(-FT_INIT, FT_INIT);
        }
        let a = 1.0 / ((2 * hidden) as f32).sqrt();
        for p in &mut params[l.out_weights()..l.out_bias()] {
            *p = rng.uniform(-a, a);
        }
        Model {
            hidden,
            buckets,
            inputs: Inputs::PLAIN,
            factor: false,
            params,
        }
    }

    /// The float network whose weights are exactly a quantised network's (`q / QA` for the
    /// feature transformer, `q / QB` for the output weights, `q / (QA·QB)` for the output
    /// biases): the start of a run that continues an older net (`train --init`).
    pub fn from_network(net: &Network) -> Model {
        let (qa, qb) = (net.qa as f32, net.qb as f32);
        let params = net
            .ft_weights
            .iter()
            .chain(&net.ft_bias)
            .map(|&w| w as f32 / qa)
            .chain(net.out_weights.iter().map(|&w| w as f32 / qb))
            .chain(net.out_bias.iter().map(|&b| b as f32 / (qa * qb)))
            .collect();
        Model {
            hidden: net.hidden,
            buckets: net.buckets,
            inputs: net.inputs,
            factor: false,
            params,
        }
    }

    /// This one-bucket network with its output layer copied into each of `buckets` buckets:
    /// the same output for every position, the start of a bucketed run that continues a
    /// one-bucket net. `None` unless this network has one bucket (or already `buckets`).
    pub fn with_buckets(&self, buckets: usize) -> Option<Model> {
        if buckets == self.buckets {
            return Some(self.clone());
        }
        if self.buckets != 1 || !(1..=MAX_BUCKETS).contains(&buckets) {
            return None;
        }
        let l = self.layout();
        let p = &self.params;
        let mut params = p[..l.out_weights()].to_vec();
        for _ in 0..buckets {
            params.extend_from_slice(&p[l.out_weights()..l.out_bias()]);
        }
        params.extend(std::iter::repeat_n(p[l.out_bias()], buckets));
        Some(Model {
            hidden: self.hidden,
            buckets,
            inputs: self.inputs,
            factor: self.factor,
            params,
        })
    }

    /// This network reading its rows as `inputs` says: a network without king buckets has
    /// its block of feature rows copied into each of `inputs`' king buckets (the same output
    /// as before for every position, when the mirroring is the same); a network with them
    /// keeps its rows if `inputs` has the same map, and if `inputs`' map refines its own
    /// (each new bucket's squares within one of its buckets, see [`refined_blocks`]) each new
    /// block is a copy of the block it lies in, again the same output everywhere. `None` if
    /// the king buckets do not fit.
    pub fn with_inputs(&self, inputs: Inputs) -> Option<Model> {
        let kb = inputs.king_buckets;
        let l = self.layout();
        let mut params = Vec::new();
        let block = INPUTS * self.hidden;
        if self.inputs.king_buckets == kb && (kb == 1 || self.inputs.king_map == inputs.king_map) {
            params.clone_from(&self.params);
        } else if self.inputs.king_buckets == 1 && !self.factor {
            params.reserve(self.params.len() + (kb - 1) * l.ft_bias());
            for _ in 0..kb {
                params.extend_from_slice(&self.params[..l.ft_bias()]);
            }
            params.extend_from_slice(&self.params[l.ft_bias()..]);
        } else if !self.factor {
            let from = refined_blocks(&self.inputs, &inputs)?;
            params.reserve(self.params.len() + (kb - self.inputs.king_buckets) * block);
            for b in from {
                params.extend_from_slice(&self.params[b * block..][..block]);
            }
            params.extend_from_slice(&self.params[l.ft_bias()..]);
        } else {
            return None;
        }
        Some(Model {
            hidden: self.hidden,
            buckets: self.buckets,
            inputs,
            factor: self.factor,
            params,
        })
    }

    /// This network with a factoriser: the shared rows the mean of the K blocks, each block
    /// what it adds to them, so every position evaluates as before (exactly when the blocks
    /// are copies, as a plain net spread by [`Model::with_inputs`] has them). `None` without
    /// king buckets; a factorised network as it is.
    pub fn factorised(&self) -> Option<Model> {
        if self.factor {
            return Some(self.clone());
        }
        let k = self.inputs.king_buckets;
        if k < 2 {
            return None;
        }
        let l = self.layout();
        let block = INPUTS * self.hidden;
        let (w, rest) = self.params.split_at(l.ft_bias());
        let shared: Vec<f32> = (0..block)
            .map(|i| (0..k).map(|b| w[b * block + i]).sum::<f32>() / k as f32)
            .collect();
        let mut params = Vec::with_capacity(self.params.len() + block);
        for b in 0..k {
            params.extend(
                w[b * block..][..block]
                    .iter()
                    .zip(&shared)
                    .map(|(x, s)| x - s),
            );
        }
        params.extend_from_slice(&shared);
        params.extend_from_slice(rest);
        Some(Model {
            factor: true,
            params,
            ..self.clone()
        })
    }

    /// A checkpoint's network read back as factorised: its last block of rows (which the
    /// checkpoint counts as one more king bucket) is the shared one. `None` with fewer than
    /// three blocks or already factorised.
    pub fn with_last_block_as_factor(&self) -> Option<Model> {
        let k = self.inputs.king_buckets;
        if self.factor || k < 3 {
            return None;
        }
        Some(Model {
            inputs: Inputs {
                king_buckets: k - 1,
                ..self.inputs
            },
            factor: true,
            ..self.clone()
        })
    }

    /// The same network without its factoriser: each block plus the shared rows (what the
    /// network file holds). A network without one as it is.
    pub fn merged(&self) -> Model {
        let Some(base) = self.layout().factor else {
            return self.clone();
        };
        let l = self.layout();
        let n = self.hidden;
        let (w, rest) = self.params.split_at(l.ft_bias());
        let shared = &w[base * n..];
        let mut params = Vec::with_capacity(self.params.len() - shared.len());
        for r in 0..base {
            let row = &w[r * n..][..n];
            let s = &shared[(r % INPUTS) * n..][..n];
            params.extend(row.iter().zip(s).map(|(x, y)| x + y));
        }
        params.extend_from_slice(rest);
        Model {
            factor: false,
            params,
            ..self.clone()
        }
    }

    /// This network with `hidden` ≥ its hidden size: the old neurons keep their weights, each
    /// new one gets feature weights uniform in `±FT_INIT`, a zero bias and zero output weights,
    /// so the output is this network's for every position and training can put the new
    /// neurons to use (a wider net continuing a narrower one). The same size is this network
    /// as it is; `None` if `hidden` is smaller or not a multiple of 16.
    pub fn widened(&self, hidden: usize, rng: &mut Rng) -> Option<Model> {
        if hidden == self.hidden {
            return Some(self.clone());
        }
        if hidden < self.hidden || !hidden.is_multiple_of(LANES) {
            return None;
        }
        let (old, new) = (
            self.layout(),
            Layout {
                n: hidden,
                ..self.layout()
            },
        );
        let (n, p) = (self.hidden, &self.params);
        let mut params = vec![0.0; new.size()];
        for f in 0..old.rows {
            let row = &mut params[f * hidden..(f + 1) * hidden];
            row[..n].copy_from_slice(&p[f * n..(f + 1) * n]);
            for w in &mut row[n..] {
                *w = rng.uniform(-FT_INIT, FT_INIT);
            }
        }
        params[new.ft_bias()..new.ft_bias() + n]
            .copy_from_slice(&p[old.ft_bias()..old.out_weights()]);
        for b in 0..self.buckets {
            let (from, to) = (old.bucket_weights(b), new.bucket_weights(b));
            // Each bucket's weights are the side to move's half, then the other side's.
            params[to.start..to.start + n].copy_from_slice(&p[from.start..from.start + n]);
            params[to.start + hidden..to.start + hidden + n]
                .copy_from_slice(&p[from.start + n..from.end]);
        }
        params[new.out_bias()..].copy_from_slice(&p[old.out_bias()..]);
        Some(Model {
            hidden,
            buckets: self.buckets,
            inputs: self.inputs,
            factor: self.factor,
            params,
        })
    }

    /// This network for another sigmoid scale: the output layer (weights and biases) times
    /// `old_scale / new_scale`, so that output × `new_scale` is the same evaluation in
    /// centipawns as output × `old_scale` was.
    pub fn rescaled(&self, old_scale: f32, new_scale: f32) -> Model {
        let mut m = self.clone();
        let start = self.layout().out_weights();
        for w in &mut m.params[start..] {
            *w *= old_scale / new_scale;
        }
        m
    }

    /// The parameter layout.
    pub fn layout(&self) -> Layout {
        let blocks = self.inputs.rows();
        Layout {
            n: self.hidden,
            buckets: self.buckets,
            rows: blocks + if self.factor { INPUTS } else { 0 },
            factor: self.factor.then_some(blocks),
        }
    }

    /// The float output (win-probability logit; × SCALE for centipawns) for a sample.
    pub fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above), the only requirement of
            // calling a function compiled with it enabled.
            return unsafe { forward_avx2(self, s, scratch) };
        }
        self.forward_portable(s, scratch)
    }

    /// [`Model::forward`] without the AVX2 dispatch (the same bits: the sums run in fixed
    /// lanes).
    #[inline(always)]
    fn forward_portable(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        let l = self.layout();
        forward_body(
            &self.params,
            l,
            &self.inputs,
            bucket(l, s),
            s,
            &mut scratch.acc_stm,
            &mut scratch.acc_nstm,
        )
    }

    /// Sum of the squared errors over `samples`.
    pub fn loss_sum(&self, samples: &[Sample], scratch: &mut Scratch) -> f64 {
        samples
            .iter()
            .map(|s| {
                let e = sigmoid(self.forward(s, scratch)) - s.target;
                (e * e) as f64
            })
            .sum()
    }

    /// Adds the gradient of the summed loss over `samples` to `grad` (the parameters'
    /// layout) and returns the summed loss.
    pub fn add_gradients(
        &self,
        samples: &[Sample],
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f64 {
        let l = self.layout();
        let mut w_pad = std::mem::take(&mut scratch.w_pad);
        let mut g_pad = std::mem::take(&mut scratch.g_pad);
        self.padded_weights(&mut w_pad);
        to_padded(l, &grad[..l.size()], &mut g_pad);
        let loss = self.add_gradients_padded(&w_pad, samples, &mut g_pad, scratch);
        from_padded(l, &g_pad, grad);
        scratch.w_pad = w_pad;
        scratch.g_pad = g_pad;
        loss
    }

    /// The feature weights in the padded layout (see [`ROW_PAD`]) into `to`, as
    /// [`Model::add_gradients_padded`] reads them.
    pub fn padded_weights(&self, to: &mut Vec<f32>) {
        let l = self.layout();
        to_padded(l, &self.params[..l.ft_bias()], to);
    }

    /// [`Model::add_gradients`] in the padded layout: `w_pad` holds this model's feature
    /// weights as [`Model::padded_weights`] gives them, `grad` is [`Layout::padded_size`]
    /// long. The training loop works in it, so that nothing is copied per batch.
    pub fn add_gradients_padded(
        &self,
        w_pad: &[f32],
        samples: &[Sample],
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f64 {
        let (acc_s, acc_n) = (&mut scratch.acc_stm, &mut scratch.acc_nstm);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above), the only requirement of
            // calling a function compiled with it enabled.
            return unsafe { gradients_avx2(self, w_pad, samples, grad, acc_s, acc_n) };
        }
        gradients_body(
            &self.params,
            self.layout(),
            &self.inputs,
            w_pad,
            samples,
            grad,
            acc_s,
            acc_n,
        )
    }

    /// The largest QB (at most [`QB_MAX`]) at which the output weights, rounded, stay on the
    /// engine's fast output kernel ([`OutputPlan::new`] decides, as when the net is loaded).
    pub fn fitted_qb(&self, qa: i32) -> i32 {
        let m = self.merged();
        let l = m.layout();
        let max_w = m.params[l.out_weights()..l.out_bias()]
            .iter()
            .fold(0f32, |acc, w| acc.max(w.clamp(-CLIP, CLIP).abs()));
        let fast = |qb: i32| {
            let w = (max_w as f64 * qb as f64).round().min(i16::MAX as f64) as i16;
            matches!(OutputPlan::new(qa, &[w]), OutputPlan::Fast { .. })
        };
        // `fast` holds up to some QB and fails above it (the weight grows with QB): bisect,
        // with `lo` fast (or 1, the floor) and `hi` above the answer (first past the range).
        let (mut lo, mut hi) = (1, QB_MAX + 1);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if fast(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The quantised network at the default [`QA`] and [`QB`] (see [`Model::quantise_with`]).
    pub fn quantise(&self, scale: i32) -> Network {
        self.quantise_with(scale, QA, QB)
    }

    /// The quantised network: feature weights and biases `round(x·qa)`, output weights
    /// `round(x·qb)`, output biases `round(c·qa·qb)`; `scale`, `qa` and `qb` go into the
    /// header.
    pub fn quantise_with(&self, scale: i32, qa: i32, qb: i32) -> Network {
        if self.factor {
            // Each part is clipped to ±CLIP, their sum could reach twice that: clipped again
            // here, so the accumulator bound of `CLIP` holds for the file (trained nets stay
            // far inside it).
            let mut m = self.merged();
            let rows = m.layout().ft_bias();
            for w in &mut m.params[..rows] {
                *w = w.clamp(-CLIP, CLIP);
            }
            return m.quantise_with(scale, qa, qb);
        }
        let l = self.layout();
        let q16 = |x: &f32, q: i32| (x * q as f32).round().clamp(-32767.0, 32767.0) as i16;
        let p = &self.params;
        Network {
            hidden: self.hidden,
            qa,
            qb,
            scale,
            ft_weights: p[..l.ft_bias()].iter().map(|x| q16(x, qa)).collect(),
            ft_bias: p[l.ft_bias()..l.out_weights()]
                .iter()
                .map(|x| q16(x, qa))
                .collect(),
            buckets: self.buckets,
            out_weights: p[l.out_weights()..l.out_bias()]
                .iter()
                .map(|x| q16(x, qb))
                .collect(),
            out_bias: p[l.out_bias()..l.size()]
                .iter()
                .map(|&c| (c as f64 * (qa as f64 * qb as f64)).round() as i32)
                .collect(),
            inputs: self.inputs,
        }
    }
}

/// [`gradients_body`] compiled for AVX2 (eight f32 lanes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn gradients_avx2(
    m: &Model,
    w_pad: &[f32],
    samples: &[Sample],
    grad: &mut [f32],
    acc_s: &mut [f32],
    acc_n: &mut [f32],
) -> f64 {
    gradients_body(
        &m.params,
        m.layout(),
        &m.inputs,
        w_pad,
        samples,
        grad,
        acc_s,
        acc_n,
    )
}

/// [`Model::forward`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn forward_avx2(m: &Model, s: &Sample, scratch: &mut Scratch) -> f32 {
    m.forward_portable(s, scratch)
}

/// `Σ screlu(a_i)·w_i`, summed in [`LANES`] fixed lanes.
#[inline(always)]
fn screlu_dot(a: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    for (ac, wc) in a.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for ((l, &x), &w) in lanes.iter_mut().zip(ac).zip(wc) {
            let v = x.clamp(0.0, 1.0);
            *l += v * v * w;
        }
    }
    lanes.iter().sum()
}

/// Hidden units per register block of the accumulate and scatter loops: the block of both
/// perspectives (2 × 32 f32) stays in eight AVX2 registers while the feature rows stream by.
const BLOCK: usize = 32;

/// The start of the last block of [`BLOCK`] units in `0..n`; `n` is a multiple of 16, so
/// one block of 16 may follow. (Plain loops rather than a closure per block: a closure
/// would be compiled without the AVX2 of its caller.)
#[inline(always)]
fn full_blocks(n: usize) -> usize {
    n / BLOCK * BLOCK
}

/// The feature-weight rows of a sample, feature by feature: the side to move's row, the other
/// perspective's, and with a factoriser the shared rows of the same two features (as each view
/// reads them, mirroring included; without one, the first two again, unread). Worked out once
/// per sample, not once per block of hidden units.
type Rows = [[usize; 4]; MAX_FEATURES];

/// The rows of `feats` read through `views` (see [`Rows`]); only the first `feats.len()` are set.
#[inline(always)]
fn sample_rows(feats: &[u16], views: [View; 2], factor: Option<usize>, rows: &mut Rows) {
    for (r, &f) in rows.iter_mut().zip(feats) {
        let f = f as usize;
        let (row_s, row_n) = (views[0].row(f), views[1].row(mirror(f)));
        *r = match factor {
            Some(base) => [row_s, row_n, base + row_s % INPUTS, base + row_n % INPUTS],
            None => [row_s, row_n, row_s, row_n],
        };
    }
}

/// Hidden units `off..off + B` of both accumulators: the bias plus the feature rows, summed
/// in registers.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn accumulate_block<const B: usize>(
    w: &[f32],
    n: usize,
    off: usize,
    rows: &[[usize; 4]],
    factor: bool,
    bias: &[f32],
    acc_s: &mut [f32],
    acc_n: &mut [f32],
) {
    let mut rs = [0.0f32; B];
    rs.copy_from_slice(&bias[off..][..B]);
    let mut rn = rs;
    for &[row_s, row_n, fac_s, fac_n] in rows {
        let ws = &w[row_s * n + off..][..B];
        let wn = &w[row_n * n + off..][..B];
        for (r, &x) in rs.iter_mut().zip(ws) {
            *r += x;
        }
        for (r, &x) in rn.iter_mut().zip(wn) {
            *r += x;
        }
        if factor {
            // The shared row of the same feature.
            let ws = &w[fac_s * n + off..][..B];
            let wn = &w[fac_n * n + off..][..B];
            for (r, &x) in rs.iter_mut().zip(ws) {
                *r += x;
            }
            for (r, &x) in rn.iter_mut().zip(wn) {
                *r += x;
            }
        }
    }
    acc_s[off..][..B].copy_from_slice(&rs);
    acc_n[off..][..B].copy_from_slice(&rn);
}

/// Adds hidden units `off..off + B` of the accumulator gradients to the sample's feature rows
/// of the feature-weight gradient (the gradients held in registers).
#[inline(always)]
fn scatter_block<const B: usize>(
    g_w: &mut [f32],
    n: usize,
    off: usize,
    rows: &[[usize; 4]],
    factor: bool,
    d_s: &[f32],
    d_n: &[f32],
) {
    let mut rs = [0.0f32; B];
    rs.copy_from_slice(&d_s[off..][..B]);
    let mut rn = [0.0f32; B];
    rn.copy_from_slice(&d_n[off..][..B]);
    for &[row_s, row_n, fac_s, fac_n] in rows {
        for (g, &x) in g_w[row_s * n + off..][..B].iter_mut().zip(&rs) {
            *g += x;
        }
        for (g, &x) in g_w[row_n * n + off..][..B].iter_mut().zip(&rn) {
            *g += x;
        }
        if factor {
            for (g, &x) in g_w[fac_s * n + off..][..B].iter_mut().zip(&rs) {
                *g += x;
            }
            for (g, &x) in g_w[fac_n * n + off..][..B].iter_mut().zip(&rn) {
                *g += x;
            }
        }
    }
}

/// The output bucket of sample `s` (its piece count is its feature count).
#[inline(always)]
fn bucket(l: Layout, s: &Sample) -> usize {
    output_bucket(s.features().len(), l.buckets)
}

/// Fills the two accumulators of `s` (each perspective reading the rows as `inputs` says) and
/// returns the output of bucket `k` (`s`'s bucket, which the caller has computed: the backward
/// pass needs it too).
#[inline(always)]
fn forward_body(
    p: &[f32],
    l: Layout,
    inputs: &Inputs,
    k: usize,
    s: &Sample,
    acc_s: &mut [f32],
    acc_n: &mut [f32],
) -> f32 {
    let mut rows = [[0; 4]; MAX_FEATURES];
    let feats = s.features();
    sample_rows(feats, s.views(inputs), l.factor, &mut rows);
    forward_rows(
        &p[..l.ft_bias()],
        l.n,
        p,
        l,
        &rows[..feats.len()],
        k,
        acc_s,
        acc_n,
    )
}

/// [`forward_body`] on the sample's rows (see [`sample_rows`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn forward_rows(
    w: &[f32],
    stride: usize,
    p: &[f32],
    l: Layout,
    rows: &[[usize; 4]],
    k: usize,
    acc_s: &mut [f32],
    acc_n: &mut [f32],
) -> f32 {
    let n = l.n;
    let b = &p[l.ft_bias()..l.out_weights()];
    let (ow_s, ow_n) = p[l.bucket_weights(k)].split_at(n);
    let factor = l.factor.is_some();
    let full = full_blocks(n);
    for off in (0..full).step_by(BLOCK) {
        accumulate_block::<BLOCK>(w, stride, off, rows, factor, b, acc_s, acc_n);
    }
    if full < n {
        accumulate_block::<16>(w, stride, full, rows, factor, b, acc_s, acc_n);
    }
    p[l.out_bias() + k] + screlu_dot(acc_s, ow_s) + screlu_dot(acc_n, ow_n)
}

/// For one perspective, given `g = ∂loss/∂out`: adds `g·screlu(a)` to the output weights'
/// gradient and turns `a` into `∂loss/∂a = g·w·screlu'(a)`.
#[inline(always)]
fn backward_half(acc: &mut [f32], ow: &[f32], g_ow: &mut [f32], g: f32) {
    for ((a, &w), gw) in acc.iter_mut().zip(ow).zip(g_ow) {
        let x = *a;
        let v = x.clamp(0.0, 1.0);
        *gw += g * v * v;
        *a = if x > 0.0 && x < 1.0 {
            2.0 * g * w * x
        } else {
            0.0
        };
    }
}

/// The forward and backward passes over a slice of a batch (see
/// [`Model::add_gradients_padded`]): the feature weights `w` and the gradient `grad` in the
/// padded layout.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gradients_body(
    p: &[f32],
    l: Layout,
    inputs: &Inputs,
    w: &[f32],
    samples: &[Sample],
    grad: &mut [f32],
    acc_s: &mut [f32],
    acc_n: &mut [f32],
) -> f64 {
    let (n, stride) = (l.n, l.stride());
    let w = &w[..l.rows * stride];
    let (g_pad, rest) = grad[..l.padded_size()].split_at_mut(l.rows * stride);
    let (g_b, rest) = rest.split_at_mut(n);
    let (g_ow, g_c) = rest.split_at_mut(l.buckets * 2 * n);
    let mut loss = 0.0f64;
    // Each bucket's bias gradient, summed here and added once at the end.
    let mut g_bias = [0.0f32; MAX_BUCKETS];
    let (acc_s, acc_n) = (&mut acc_s[..n], &mut acc_n[..n]);
    let mut rows = [[0; 4]; MAX_FEATURES];
    let (factor, full) = (l.factor.is_some(), full_blocks(n));
    for s in samples {
        // Only the sample's bucket's output layer takes part.
        let k = bucket(l, s);
        let feats = s.features();
        sample_rows(feats, s.views(inputs), l.factor, &mut rows);
        let rows = &rows[..feats.len()];
        let out = forward_rows(w, stride, p, l, rows, k, acc_s, acc_n);
        let pred = sigmoid(out);
        let err = pred - s.target;
        loss += (err * err) as f64;
        // ∂(pred − t)²/∂out = 2·err·pred·(1 − pred).
        let g = 2.0 * err * pred * (1.0 - pred);
        g_bias[k] += g;
        let (ow_s, ow_n) = p[l.bucket_weights(k)].split_at(n);
        let (g_ow_s, g_ow_n) = g_ow[k * 2 * n..][..2 * n].split_at_mut(n);
        backward_half(acc_s, ow_s, g_ow_s, g);
        backward_half(acc_n, ow_n, g_ow_n, g);
        for ((gb, &ds), &dn) in g_b.iter_mut().zip(acc_s.iter()).zip(acc_n.iter()) {
            *gb += ds + dn;
        }
        for off in (0..full).step_by(BLOCK) {
            scatter_block::<BLOCK>(g_pad, stride, off, rows, factor, acc_s, acc_n);
        }
        if full < n {
            scatter_block::<16>(g_pad, stride, full, rows, factor, acc_s, acc_n);
        }
    }
    for (c, b) in g_c.iter_mut().zip(g_bias) {
        *c += b;
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic gradient agrees with central finite differences (in f64 terms of the
    /// f32 net: a relative tolerance of a few per cent), with one output bucket and with 16
    /// (the two samples in buckets 2 and 1, bucket 5 in neither).
    #[test]
    fn gradient_matches_finite_differences() {
        for buckets in [1, 16] {
            let mut rng = Rng::new(3);
            let mut m = Model::new(16, buckets, &mut rng);
            // Push accumulators into SCReLU's curved range.
            let l = m.layout();
            for b in &mut m.params[l.ft_bias()..l.out_weights()] {
                *b = 0.4;
            }
            let samples = vec![
                Sample::new(&[0, 70, 200, 400, 767, 5], 0.8),
                Sample::new(&[13, 100, 300, 600], 0.1),
            ];
            let mut probe = vec![0, 70 * 16 + 3, mirror(200) * 16 + 7, l.ft_bias() + 2];
            for s in &samples {
                let k = output_bucket(s.features().len(), buckets);
                let w = l.bucket_weights(k).start;
                probe.extend([w + 1, w + 20, l.out_bias() + k]);
            }
            if buckets > 5 {
                probe.extend([l.bucket_weights(5).start + 3, l.out_bias() + 5]);
            }
            check_gradient(&m, &samples, &probe);
        }
    }

    /// The same with horizontally mirrored inputs: a sample whose side to move's king is on
    /// files a–d reads (and trains) the rows of its features flipped a↔h (`f ^ 7`), the other
    /// perspective by its own king; the unflipped rows get no gradient from it.
    #[test]
    fn mirrored_gradient_matches_finite_differences() {
        let mut rng = Rng::new(4);
        let mut m = Model::new(16, 1, &mut rng)
            .with_inputs(Inputs::MIRRORED)
            .expect("mirrored");
        let l = m.layout();
        for b in &mut m.params[l.ft_bias()..l.out_weights()] {
            *b = 0.4;
        }
        // Stm king on a–d only; the other king on a–d only.
        let samples = vec![
            Sample::new(&[0, 70, 200, 400, 767, 5], 0.8).with_kings(1),
            Sample::new(&[13, 100, 300, 600], 0.1).with_kings(2),
        ];
        let probe = [
            (70 ^ 7) * 16 + 3,
            (mirror(70)) * 16 + 3,
            (mirror(100) ^ 7) * 16 + 5,
            100 * 16 + 5,
            l.ft_bias() + 2,
            l.bucket_weights(0).start + 1,
        ];
        check_gradient(&m, &samples, &probe);
        let mut grad = vec![0.0; l.size()];
        m.add_gradients(&samples, &mut grad, &mut Scratch::new(16));
        for j in [(70 ^ 7) * 16 + 3, (mirror(100) ^ 7) * 16 + 5, 100 * 16 + 5] {
            assert!(grad[j] != 0.0, "param {j}: no gradient");
        }
        // Feature 70 is read flipped (stm) and feature 100 as it is (stm, king on e–h): no
        // sample reads row 70 or row mirror(100).
        for j in [70 * 16 + 3, mirror(100) * 16 + 5] {
            assert_eq!(grad[j], 0.0, "param {j}");
        }
    }

    /// With king buckets (`kb2`, mirrored too): a perspective reads and trains the block of
    /// its king's bucket only; a run starting from copied blocks gives the plain output.
    #[test]
    fn king_bucket_gradient_matches_finite_differences() {
        let (k, map) = Inputs::king_layout("kb2").expect("kb2");
        let inputs = Inputs {
            mirrored: true,
            king_buckets: k,
            king_map: map,
        };
        let mut rng = Rng::new(5);
        let plain = Model::new(16, 1, &mut rng);
        let copies = plain
            .with_inputs(Inputs {
                mirrored: false,
                ..inputs
            })
            .expect("copies");
        let mut sc = Scratch::new(16);
        let probe_sample = Sample::new(&[3, 70, 500], 0.5).with_king_squares([20, 60]);
        assert_eq!(
            copies.forward(&probe_sample, &mut sc).to_bits(),
            plain.forward(&probe_sample, &mut sc).to_bits()
        );
        let mut m = plain.with_inputs(inputs).expect("kb2 mirrored");
        let l = m.layout();
        assert_eq!(l.ft_bias(), 2 * INPUTS * 16);
        for b in &mut m.params[l.ft_bias()..l.out_weights()] {
            *b = 0.4;
        }
        let samples = kb2_samples();
        let block = INPUTS * 16;
        let probe = [
            block + (70 ^ 7) * 16 + 3,
            block + mirror(70) * 16 + 3,
            100 * 16 + 5,
            (mirror(100) ^ 7) * 16 + 5,
            l.ft_bias() + 2,
            l.bucket_weights(0).start + 1,
        ];
        check_gradient(&m, &samples, &probe);
        let mut grad = vec![0.0; l.size()];
        m.add_gradients(&samples, &mut grad, &mut sc);
        for j in probe {
            assert!(grad[j] != 0.0, "param {j}: no gradient");
        }
        // The other block's rows of the same features take nothing.
        for j in [(70 ^ 7) * 16 + 3, mirror(70) * 16 + 3, block + 100 * 16 + 5] {
            assert_eq!(grad[j], 0.0, "param {j}");
        }
    }

    /// A king-bucket map that splits the buckets of another continues a net of the other
    /// exactly (each new block a copy of the block it lies in), plain or then factorised;
    /// a map that does not split them, or differs in mirroring, is refused.
    #[test]
    fn a_refined_king_map_continues_the_same_network() {
        let layout = |spec: &str| {
            let (k, map) = Inputs::king_layout(spec).expect(spec);
            Inputs {
                mirrored: false,
                king_buckets: k,
                king_map: map,
            }
        };
        let kb4 = layout("kb4");
        let kb8r = layout("kb8r");
        assert_eq!(
            refined_blocks(&kb4, &kb8r),
            Some(vec![0, 1, 2, 0, 1, 2, 3, 3])
        );
        assert_eq!(refined_blocks(&kb4, &kb4), Some(vec![0, 1, 2, 3]));
        assert_eq!(
            refined_blocks(&kb8r, &layout("kb16r")),
            Some(vec![0, 0, 1, 1, 2, 2, 2, 3, 4, 5, 5, 6, 6, 6, 7, 7])
        );
        assert_eq!(
            refined_blocks(&kb4, &layout("kb16r")),
            Some(vec![0, 0, 1, 1, 2, 2, 2, 0, 1, 2, 2, 3, 3, 3, 3, 3])
        );
        assert_eq!(
            refined_blocks(&kb4, &layout("kb8")),
            None,
            "c-d crosses a-c | d-e"
        );
        assert_eq!(refined_blocks(&kb8r, &kb4), None, "a merge is no split");
        let hm = Inputs {
            mirrored: true,
            ..kb8r
        };
        assert_eq!(refined_blocks(&kb4, &hm), None);

        let mut rng = Rng::new(11);
        let mut parent = Model::new(32, 2, &mut rng).with_inputs(kb4).expect("kb4");
        // Blocks that differ, so that a wrong copy shows.
        for (i, w) in parent.params[..4 * INPUTS * 32].iter_mut().enumerate() {
            *w += ((i * 7919) % 101) as f32 * 1e-3 - 0.05;
        }
        let child = parent.with_inputs(kb8r).expect("a split of kb4");
        assert_eq!(child.inputs, kb8r);
        assert_eq!(child.params.len(), parent.params.len() + 4 * INPUTS * 32);
        assert!(parent.with_inputs(layout("kb8")).is_none());
        let f = child.factorised().expect("factorised");
        let mut sc = Scratch::new(32);
        for i in 0..64 {
            let feats: Vec<usize> = (0..12).map(|j| (i * 37 + j * 61) % 768).collect();
            let s = Sample::new(&feats, 0.5).with_king_squares([i as u8, (i * 13 % 64) as u8]);
            let want = parent.forward(&s, &mut sc);
            assert_eq!(child.forward(&s, &mut sc).to_bits(), want.to_bits(), "{i}");
            let got = f.forward(&s, &mut sc);
            assert!((got - want).abs() < 1e-4, "{i}: {got} {want}");
        }
    }

    /// A factorised model evaluates as the model it was made from (bit for bit when the
    /// blocks are copies of a plain net, within float rounding otherwise), `merged` gives the
    /// blocks back, and the quantised net is the merged one's.
    #[test]
    fn factorised_model_is_the_same_network() {
        let (k, map) = Inputs::king_layout("kb4").expect("kb4");
        let inputs = Inputs {
            mirrored: false,
            king_buckets: k,
            king_map: map,
        };
        let mut rng = Rng::new(6);
        let plain = Model::new(32, 2, &mut rng);
        let copies = plain.with_inputs(inputs).expect("copies");
        assert!(
            plain.factorised().is_none(),
            "no king buckets, no factoriser"
        );
        let f = copies.factorised().expect("factorised");
        let l = f.layout();
        assert_eq!(l.factor, Some(4 * INPUTS));
        assert_eq!(l.rows, 5 * INPUTS);
        assert_eq!(f.params.len(), copies.params.len() + INPUTS * 32);
        // Copies: the shared rows are the plain rows, every block's difference is zero.
        assert_eq!(
            &f.params[l.factor.unwrap() * 32..l.ft_bias()],
            &plain.params[..INPUTS * 32]
        );
        assert!(f.params[..4 * INPUTS * 32].iter().all(|&x| x == 0.0));
        let samples: Vec<Sample> = (0..40)
            .map(|i| {
                let feats: Vec<usize> = (0..12).map(|j| (i * 37 + j * 61) % 768).collect();
                Sample::new(&feats, 0.5)
                    .with_king_squares([(i * 7 % 64) as u8, (i * 13 % 64) as u8])
            })
            .collect();
        let mut sc = Scratch::new(32);
        for s in &samples {
            assert_eq!(
                f.forward(s, &mut sc).to_bits(),
                copies.forward(s, &mut sc).to_bits()
            );
        }
        assert_eq!(f.merged(), copies);
        assert_eq!(f.quantise(400), copies.quantise(400));
        // Blocks that differ: the mean plus each block's difference.
        let mut varied = copies.clone();
        for (i, w) in varied.params[..4 * INPUTS * 32].iter_mut().enumerate() {
            *w += ((i * 7919) % 101) as f32 * 1e-3 - 0.05;
        }
        let g = varied.factorised().expect("factorised");
        for s in &samples {
            let (a, b) = (g.forward(s, &mut sc), varied.forward(s, &mut sc));
            assert!((a - b).abs() < 1e-4, "{a} {b}");
        }
        let back = g.merged();
        for (a, b) in back.params.iter().zip(&varied.params) {
            assert!((a - b).abs() < 1e-6, "{a} {b}");
        }
        // The checkpoint's reading (the shared rows as one more block) and back.
        let read = Model {
            inputs: Inputs {
                king_buckets: 5,
                ..Inputs::PLAIN
            },
            factor: false,
            ..g.clone()
        };
        let again = read.with_last_block_as_factor().expect("five blocks");
        assert_eq!((again.inputs.king_buckets, again.factor), (4, true));
        assert_eq!(again.params, g.params);
        assert!(g.with_last_block_as_factor().is_none());
    }

    /// The gradient of a factorised, mirrored king-bucket model: each active feature trains
    /// its row in its perspective's block and the shared row of the same (flipped) feature.
    #[test]
    fn factor_gradient_matches_finite_differences() {
        let (k, map) = Inputs::king_layout("kb2").expect("kb2");
        let inputs = Inputs {
            mirrored: true,
            king_buckets: k,
            king_map: map,
        };
        let mut rng = Rng::new(7);
        let mut m = Model::new(16, 1, &mut rng)
            .with_inputs(inputs)
            .expect("kb2")
            .factorised()
            .expect("factorised");
        let l = m.layout();
        let base = l.factor.expect("factor");
        assert_eq!(base, 2 * INPUTS);
        // Blocks that differ from the shared rows, accumulators in SCReLU's curve.
        for (i, w) in m.params[..base * 16].iter_mut().enumerate() {
            *w = ((i * 31) % 17) as f32 * 0.01 - 0.08;
        }
        for b in &mut m.params[l.ft_bias()..l.out_weights()] {
            *b = 0.4;
        }
        let samples = kb2_samples();
        let block = INPUTS * 16;
        let probe = [
            block + (70 ^ 7) * 16 + 3,
            (base + (70 ^ 7)) * 16 + 3,
            (base + mirror(70)) * 16 + 3,
            100 * 16 + 5,
            (base + 100) * 16 + 5,
            (base + (mirror(100) ^ 7)) * 16 + 5,
            l.ft_bias() + 2,
            l.bucket_weights(0).start + 1,
        ];
        check_gradient(&m, &samples, &probe);
        let mut grad = vec![0.0; l.size()];
        let mut sc = Scratch::new(16);
        m.add_gradients(&samples, &mut grad, &mut sc);
        for j in probe {
            assert!(grad[j] != 0.0, "param {j}: no gradient");
        }
        // A shared row no sample reads takes nothing.
        assert_eq!(grad[(base + 1) * 16], 0.0);
    }

    /// Two samples for the mirrored `kb2` gradient tests: stm king on c3 (bucket 1, flipped),
    /// the other on e8 in its frame (bucket 1, as it is); then stm king on g1 (bucket 0, as it
    /// is), the other on b2 (bucket 0, flipped).
    fn kb2_samples() -> Vec<Sample> {
        vec![
            Sample::new(&[0, 70, 200, 400, 767, 5], 0.8).with_king_squares([18, 60]),
            Sample::new(&[13, 100, 300, 600], 0.1).with_king_squares([6, 9]),
        ]
    }

    /// Central finite differences against the analytic gradient at the parameters `probe`.
    fn check_gradient(m: &Model, samples: &[Sample], probe: &[usize]) {
        let l = m.layout();
        let mut grad = vec![0.0; l.size()];
        let mut sc = Scratch::new(m.hidden);
        m.add_gradients(samples, &mut grad, &mut sc);
        for &j in probe {
            let h = 1e-2;
            let mut plus = m.clone();
            plus.params[j] += h;
            let mut minus = m.clone();
            minus.params[j] -= h;
            let num = (plus.loss_sum(samples, &mut sc) - minus.loss_sum(samples, &mut sc))
                / (2.0 * h as f64);
            let ana = grad[j] as f64;
            assert!(
                (num - ana).abs() <= 0.05 * num.abs().max(ana.abs()) + 1e-5,
                "param {j}: numeric {num}, analytic {ana}"
            );
        }
    }

    /// The dispatched kernel (AVX2 where the CPU has it) and the portable one give the same
    /// bits: the reductions run in fixed lanes, so no instruction set reorders a sum.
    #[test]
    fn kernels_agree_bit_for_bit() {
        for buckets in [1, 8] {
            let mut rng = Rng::new(11);
            let m = Model::new(80, buckets, &mut rng); // two blocks of 32 and one of 16
            // 2 to 21 features: buckets 0 to 4 of 8.
            let samples: Vec<Sample> = (0..50)
                .map(|i| {
                    let feats: Vec<usize> =
                        (0..2 + i % 20).map(|k| (i * 31 + k * 97) % 768).collect();
                    Sample::new(&feats, (i % 7) as f32 / 7.0)
                })
                .collect();
            let mut sc = Scratch::new(80);
            let mut fast = vec![0.0; m.layout().size()];
            let loss_fast = m.add_gradients(&samples, &mut fast, &mut sc);
            let l = m.layout();
            let mut w_pad = Vec::new();
            m.padded_weights(&mut w_pad);
            let mut padded = vec![0.0; l.padded_size()];
            let loss_portable = gradients_body(
                &m.params,
                l,
                &m.inputs,
                &w_pad,
                &samples,
                &mut padded,
                &mut sc.acc_stm,
                &mut sc.acc_nstm,
            );
            let mut portable = vec![0.0; l.size()];
            from_padded(l, &padded, &mut portable);
            assert_eq!(loss_fast.to_bits(), loss_portable.to_bits());
            assert!(
                fast.iter()
                    .zip(&portable)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
            for s in &samples {
                let fast = m.forward(s, &mut sc);
                assert_eq!(fast.to_bits(), m.forward_portable(s, &mut sc).to_bits());
            }
        }
    }

    /// A sample's gradient reaches its own bucket's output weights and bias and no other
    /// bucket's.
    #[test]
    fn gradient_reaches_only_the_samples_bucket() {
        let mut rng = Rng::new(12);
        let mut m = Model::new(32, 8, &mut rng);
        let l = m.layout();
        for b in &mut m.params[l.ft_bias()..l.out_weights()] {
            *b = 0.3;
        }
        // 10 pieces: bucket (10 − 2) / 4 = 2.
        let feats: Vec<usize> = (0..10).map(|k| 64 * (k % 6) + 5 * k).collect();
        let s = Sample::new(&feats, 0.9);
        assert_eq!(bucket(l, &s), 2);
        let mut grad = vec![0.0; l.size()];
        m.add_gradients(&[s], &mut grad, &mut Scratch::new(32));
        for k in 0..8 {
            let w = &grad[l.bucket_weights(k)];
            let c = grad[l.out_bias() + k];
            if k == 2 {
                assert!(w.iter().any(|&g| g != 0.0) && c != 0.0, "bucket {k}");
            } else {
                assert!(w.iter().all(|&g| g == 0.0) && c == 0.0, "bucket {k}");
            }
        }
    }

    /// A one-bucket net spread over eight buckets gives the same output bit for bit on every
    /// piece count; only a one-bucket net (or one of the same count) can be spread.
    #[test]
    fn spreading_one_bucket_keeps_the_output() {
        let mut rng = Rng::new(13);
        let one = Model::new(32, 1, &mut rng);
        let eight = one.with_buckets(8).expect("spread");
        assert_eq!(
            (eight.buckets, eight.params.len()),
            (8, eight.layout().size())
        );
        let mut sc = Scratch::new(32);
        for len in 2..=32 {
            let feats: Vec<usize> = (0..len).map(|k| (k * 53 + len) % 768).collect();
            let s = Sample::new(&feats, 0.5);
            let (a, b) = (one.forward(&s, &mut sc), eight.forward(&s, &mut sc));
            assert_eq!(a.to_bits(), b.to_bits(), "{len} pieces");
        }
        assert_eq!(one.with_buckets(1).as_ref(), Some(&one));
        assert_eq!(eight.with_buckets(8).as_ref(), Some(&eight));
        assert!(eight.with_buckets(4).is_none() && eight.with_buckets(1).is_none());
        assert!(one.with_buckets(0).is_none() && one.with_buckets(17).is_none());
    }

    #[test]
    fn gradients_add_up_over_slices() {
        let mut rng = Rng::new(9);
        let m = Model::new(48, 1, &mut rng);
        let samples: Vec<Sample> = (0..10)
            .map(|i| Sample::new(&[i, i + 100, i + 500], i as f32 / 10.0))
            .collect();
        let mut sc = Scratch::new(48);
        let mut all = vec![0.0; m.layout().size()];
        let loss = m.add_gradients(&samples, &mut all, &mut sc);
        assert!((loss - m.loss_sum(&samples, &mut sc)).abs() < 1e-9);
        let mut halves = vec![0.0; m.layout().size()];
        m.add_gradients(&samples[..4], &mut halves, &mut sc);
        m.add_gradients(&samples[4..], &mut halves, &mut sc);
        for (a, b) in all.iter().zip(&halves) {
            assert!((a - b).abs() <= 1e-6 * a.abs().max(1e-3), "{a} vs {b}");
        }
    }
}
