//! `nullwindow train`: a CPU trainer for the NNUE network (`(768 → N) × 2 → 1`, SCReLU,
//! `--buckets` material output buckets; see [`crate::nnue::net`]).
//!
//! The data files (the binary format of [`crate::datagen::format`]) are read whole, turned into
//! samples (the side to move's features and a target), shuffled once with the seed and split
//! into training and validation sets. Target, side to move's view:
//! `(1 − λ)·sigmoid(score / scale) + λ·result`. Each epoch reshuffles the training set and
//! walks it in mini-batches; the batch is cut into one slice per thread, each thread adds its
//! slice's gradient into its own buffer (only the rows of the active features of the feature
//! weights), and the buffers are summed in thread order, so that a run is the same for a seed
//! and a thread count whichever thread finishes first. AdamW then takes a step and clips every
//! parameter to `±1.98`.
//!
//! Learning rate: by default cosine annealing, step by step, from `--lr` to 1% of it at the
//! last step (`--lr-drop cosine`); `--lr-drop 8,14` multiplies the rate by `--lr-gamma` at the
//! start of epochs 8 and 14 instead; `--lr-drop constant` keeps it.
//!
//! With `--checkpoint-dir`, the float weights, Adam's moments and the generator's state are
//! saved after every epoch, and `--resume` continues from the latest checkpoint exactly (with
//! the same data, options and thread count). The quantised network is written to `--out` at
//! the end.

pub mod checkpoint;
pub mod data;
pub mod loss;
pub mod model;
pub mod optim;

use std::ops::{ControlFlow, Range};
use std::path::{Path, PathBuf};
use std::time::Instant;

use self::checkpoint::Checkpoint;
use self::data::{DataSet, Rng, Sample};
use self::model::{Model, Scratch};
use self::optim::{AdamW, GradRows, Schedule};
use crate::nnue::net::{Inputs, MAX_BUCKETS, MAX_KING_BUCKETS, Network, QA, QB};

/// Settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Data files.
    pub data: Vec<String>,
    /// The quantised network's file.
    pub out: String,
    /// Hidden size N.
    pub hidden: usize,
    /// Output buckets B (output layers chosen by the piece count).
    pub buckets: usize,
    /// Epochs (passes over the training set).
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Initial learning rate.
    pub lr: f32,
    /// Learning-rate schedule.
    pub schedule: Schedule,
    /// Factor of each drop of a step schedule.
    pub lr_gamma: f32,
    /// Decoupled weight decay (weights only, not biases).
    pub wd: f32,
    /// Decay the weights toward the `--init` net's instead of toward zero (L2-SP), so that a
    /// continuation on new data keeps what the old net knew unless the new data outweighs it.
    pub wd_to_init: bool,
    /// Weight of the game result in the target.
    pub lambda: f32,
    /// Centipawns per unit of the float output (sigmoid scale of the scores; written into the
    /// network's header).
    pub scale: u32,
    /// Fraction of the positions held out for validation.
    pub val: f64,
    /// Hold out the last positions in file order (whole games) instead of a random sample.
    pub val_tail: bool,
    /// Seed of the shuffles and the initial weights.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Where checkpoints go (none without it).
    pub checkpoint_dir: Option<String>,
    /// Continue from the latest checkpoint.
    pub resume: bool,
    /// Also write the quantised network after each epoch, as `OUT.epochK`.
    pub epoch_nets: bool,
    /// Also train on every castling-less position mirrored left to right (files a↔h), which
    /// is the same position for the rules of chess.
    pub mirror: bool,
    /// Horizontally mirrored inputs (a version 3 network): each perspective's features are
    /// flipped a↔h while its king stands on files a–d.
    pub hm: bool,
    /// King buckets (a version 4 network): the layout's name or its 64 numbers as given to
    /// `--king-buckets`, checked by the parser; None: one block of feature rows.
    pub king_buckets: Option<String>,
    /// Train the king buckets through a factoriser: shared feature rows added to every block,
    /// so that each position trains what all buckets share (written into the blocks at the
    /// end; see [`Model::factor`]).
    pub factorise: bool,
    /// Start from this network's weights (dequantised) instead of random ones.
    pub init: Option<String>,
    /// Set the written SCALE so that the net's evaluations have this network's mean size.
    pub size_like: Option<String>,
    /// Quantisation of the written network: feature weights and biases × `qa`, output
    /// weights × `qb` (the header's QA and QB).
    pub qa: i32,
    /// See `qa`; 0: the largest QB that keeps the engine's fast output kernel (`--qb fit`).
    pub qb: i32,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            data: Vec::new(),
            out: String::new(),
            hidden: 128,
            buckets: 1,
            epochs: 20,
            batch: 16384,
            lr: 0.001,
            schedule: Schedule::Cosine,
            lr_gamma: 0.1,
            wd: 0.01,
            wd_to_init: false,
            lambda: 0.3,
            scale: 400,
            val: 0.01,
            val_tail: false,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            checkpoint_dir: None,
            resume: false,
            epoch_nets: false,
            mirror: false,
            hm: false,
            king_buckets: None,
            factorise: false,
            init: None,
            size_like: None,
            qa: QA,
            qb: QB,
        }
    }
}

impl TrainOptions {
    /// The options that shape the weights, as text: a checkpoint records it and a resumed
    /// run must match it. (The epoch count only matters to the cosine schedule.)
    pub fn run_key(&self) -> String {
        let mut k = format!(
            "hidden={} batch={} lr={} lr-drop={} lr-gamma={} wd={} lambda={} scale={} val={} seed={}",
            self.hidden,
            self.batch,
            self.lr,
            self.schedule.text(),
            self.lr_gamma,
            self.wd,
            self.lambda,
            self.scale,
            self.val,
            self.seed
        );
        if self.schedule == Schedule::Cosine {
            k += &format!(" epochs={}", self.epochs);
        }
        if self.buckets > 1 {
            // Not named for one bucket, so that runs from before buckets still resume.
            k += &format!(" buckets={}", self.buckets);
        }
        if self.mirror {
            k += " mirror";
        }
        if self.hm {
            k += " hm";
        }
        if let Some(spec) = &self.king_buckets {
            k += &format!(" king-buckets={spec}");
        }
        if self.factorise {
            k += " factorise";
        }
        if self.wd_to_init {
            k += " wd-to-init";
        }
        if self.val_tail {
            k += " val-tail";
        }
        if let Some(net) = &self.init {
            k += &format!(" init={net}");
        }
        k
    }

    /// How the network of this run reads its feature rows (`--hm`, `--king-buckets`).
    pub fn inputs(&self) -> Result<Inputs, String> {
        let (king_buckets, king_map) = match &self.king_buckets {
            Some(spec) => Inputs::king_layout(spec).map_err(|e| format!("--king-buckets: {e}"))?,
            None => (1, [0; 64]),
        };
        Ok(Inputs {
            mirrored: self.hm,
            king_buckets,
            king_map,
        })
    }
}

/// Usage text of the `train` subcommand.
pub const USAGE: &str = "\
usage: nullwindow train --data FILE[,FILE...] --out NET [options]
       nullwindow train loss NET [NET...] --data FILE[,FILE...] [--val X --val-tail]
                      (the loss of finished nets on data: train loss --help)

  --data FILES        training data in the binary datagen format, comma-separated (the option
                      may be repeated); all positions are loaded and shuffled together
  --out NET           the quantised network file, written at the end
  --hidden N          hidden size, a multiple of 16 in 16..=2048 (default 128)
  --buckets B         material output buckets, 1..=16 (default 1): B output layers, a
                      position's chosen by its piece count, (pieces - 2) / ceil(32 / B)
  --epochs N          passes over the training set (default 20)
  --batch N           positions per optimiser step (default 16384)
  --lr X              initial learning rate of AdamW (default 0.001)
  --lr-drop S         schedule: cosine (default: cosine annealing step by step from --lr down
                      to 1% of it at the last step), constant, or a list of epochs such as 8,14
                      (the rate is multiplied by --lr-gamma at the start of each)
  --lr-gamma G        factor of each drop of a list schedule (default 0.1)
  --wd X              decoupled weight decay of the weights, not the biases (default 0.01)
  --wd-to-init        decay the weights toward the --init net's instead of toward zero
                      (L2-SP): a continuation keeps what the old net knew where the new
                      data does not say otherwise
  --lambda X          weight of the game result in the target, against the score (default 0.3)
  --scale CP          centipawns per unit of the network output: the target is
                      sigmoid(score/CP); written into the network header (default 400)
  --val X             fraction of the positions held out for validation (default 0.01)
  --val-tail          hold out the last --val of the data in file order (whole games the
                      training set never sees) instead of a random sample of positions
  --seed S            seed of the shuffles and the initial weights (default 1)
  --threads N         worker threads (default: the available cores); a run is reproducible
                      for a seed and a thread count
  --checkpoint-dir D  write a checkpoint (float weights, Adam moments, generator state) after
                      each epoch into D as epoch-NNNN.ckpt; D must not hold checkpoints already
                      unless --resume is given
  --resume            continue from the latest checkpoint in --checkpoint-dir, with the same
                      data and options
  --epoch-nets        also write the quantised network after each epoch as NET.epochK
  --mirror            also train on each castling-less position mirrored left to right
  --hm                horizontally mirrored inputs (a version 3 net): each side's features
                      are flipped a<->h while its own king stands on files a-d, so what is
                      learnt of one wing serves both. An --init net without it starts the
                      run as it is (its king-on-e-h half serves both wings)
  --king-buckets L    king buckets (a version 4 net): each side reads one of K blocks of
                      feature rows, chosen by its own king's square (in its own frame). L is
                      kb2 (ranks 1-2 | 3-8), kb4 (ranks 1-2 split a-c | d-e | f-h; ranks
                      3-8), kb8 (ranks 1-2 in file pairs; ranks 3-4 and 5-8 in halves), kb8r
                      (kb4 with ranks 1 and 2 apart and ranks 3-4 apart from 5-8), kb16r
                      (kb8r split further: rank 1 a-b, then each file; rank 2 a-c | d-e | f
                      | g-h; rank 3 halves; rank 4; ranks 5-6; ranks 7-8) or 64
                      comma-separated bucket numbers (a1, b1, ..., h8). An --init net
                      without king buckets has its rows copied into each block (the same
                      evaluation to start with); one with them must have the same map or
                      one that splits its buckets (each new bucket within one of its own,
                      which is copied into it: the same evaluation again)
  --factorise         with --king-buckets (at most 31): train through a factoriser, 768
                      shared rows added to every block, so that every position trains what
                      the buckets share and a block learns only how its bucket differs; the
                      written net holds the sums (an --init net's blocks become their mean
                      plus each block's difference from it, the same evaluation; with
                      --wd-to-init the differences decay toward the init's)
  --init NET          start from the weights of network file NET (a net of this format with
                      the same --hidden or a smaller one; dequantised) instead of random
                      weights: a new net continues an older one on new data. A narrower NET
                      is widened: the added neurons start with small random feature weights
                      and zero output weights (the same output as NET). NET has the same
                      --buckets, or one bucket: its output layer is then copied into each.
                      A NET of another --scale has its output layer rescaled to give the
                      same centipawns
  --qa N, --qb N      the written net's quantisation (default 255 and 64): feature weights
                      and biases rounded to 1/QA (QA at most 501), output weights to 1/QB
                      (at most 16384), or `--qb fit`: the largest QB whose output weights
                      times QA fit 16 bits (the engine's fast output kernel; beyond it the
                      engine is exact but several times slower). The output weights lose the
                      most: at QB 64 a net's held-out loss is 2 - 5% above its float net's, at
                      512 within 0.3%
  --size-like NET     write the new net with the SCALE (its header's centipawns per unit of
                      output) that gives its evaluations NET's mean size over up to 100,000
                      of the positions (NET may have any hidden size): a continuation trained
                      on search scores tends to evaluate larger than its parent, and the
                      search's margins are set for the parent's size (see docs/nnue.md)
  -h, --help          this text";

/// Parses the arguments of `train`; `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<TrainOptions>, String> {
    let mut o = TrainOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = crate::cli::split_option(a);
        match key {
            "-h" | "--help" => return Ok(None),
            "--resume" | "--epoch-nets" | "--mirror" | "--val-tail" | "--wd-to-init" | "--hm"
            | "--factorise" => {
                if inline.is_some() {
                    return Err(format!("{key} takes no value"));
                }
                match key {
                    "--resume" => o.resume = true,
                    "--epoch-nets" => o.epoch_nets = true,
                    "--val-tail" => o.val_tail = true,
                    "--wd-to-init" => o.wd_to_init = true,
                    "--hm" => o.hm = true,
                    "--factorise" => o.factorise = true,
                    _ => o.mirror = true,
                }
                continue;
            }
            _ => {}
        }
        let v = inline
            .or_else(|| it.next().cloned())
            .ok_or_else(|| format!("{key} needs a value"))?;
        let int = |lo: u64, hi: u64| crate::cli::int_in(key, &v, lo, hi);
        let float = |lo: f64, hi: f64, what: &str| crate::cli::float_in(key, &v, lo, hi, what);
        match key {
            "--data" => crate::cli::push_files(key, &v, &mut o.data)?,
            "--out" => o.out = v,
            "--hidden" => {
                let n = int(16, 2048)? as usize;
                if !n.is_multiple_of(16) {
                    return Err(format!("--hidden: {n} is not a multiple of 16"));
                }
                o.hidden = n;
            }
            "--buckets" => o.buckets = int(1, MAX_BUCKETS as u64)? as usize,
            "--epochs" => o.epochs = int(1, 100_000)? as usize,
            "--batch" => o.batch = int(1, 1 << 24)? as usize,
            "--lr" => {
                o.lr = float(1e-9, 10.0, "a learning rate in (0, 10]")? as f32;
            }
            "--lr-drop" => o.schedule = Schedule::parse(&v)?,
            "--lr-gamma" => o.lr_gamma = float(1e-9, 1.0, "a factor in (0, 1]")? as f32,
            "--wd" => o.wd = float(0.0, 1.0, "a weight decay in [0, 1]")? as f32,
            "--lambda" => o.lambda = float(0.0, 1.0, "a weight in [0, 1]")? as f32,
            "--scale" => o.scale = int(1, 100_000)? as u32,
            "--val" => {
                o.val = float(0.0, 0.5, "a fraction in [0, 0.5]")?;
            }
            "--seed" => o.seed = int(0, u64::MAX)?,
            "--threads" => o.threads = int(1, 1024)? as usize,
            "--checkpoint-dir" => o.checkpoint_dir = Some(v),
            "--king-buckets" => {
                let (k, _) = Inputs::king_layout(&v).map_err(|e| format!("--king-buckets: {e}"))?;
                // One bucket is the plain layout.
                o.king_buckets = (k > 1).then_some(v);
            }
            "--init" => o.init = Some(v),
            "--size-like" => o.size_like = Some(v),
            "--qa" => o.qa = int(1, model::QA_MAX as u64)? as i32,
            "--qb" if v == "fit" => o.qb = 0,
            "--qb" => o.qb = int(1, model::QB_MAX as u64)? as i32,
            _ => return Err(format!("unknown option '{a}'\n\n{USAGE}")),
        }
    }
    if o.data.is_empty() {
        return Err(format!("--data FILE is required\n\n{USAGE}"));
    }
    if o.out.is_empty() {
        return Err(format!("--out NET is required\n\n{USAGE}"));
    }
    if o.resume && o.checkpoint_dir.is_none() {
        return Err("--resume needs --checkpoint-dir".into());
    }
    if o.factorise {
        let k = o.inputs()?.king_buckets;
        if !(2..MAX_KING_BUCKETS).contains(&k) {
            return Err(format!(
                "--factorise needs --king-buckets with 2 to {} buckets",
                MAX_KING_BUCKETS - 1
            ));
        }
    }
    if o.wd_to_init && o.init.is_none() {
        return Err("--wd-to-init needs --init NET (the weights to decay toward)".into());
    }
    Ok(Some(o))
}

/// The figures of one finished epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Epoch number, 1-based.
    pub epoch: usize,
    /// Epochs of the run.
    pub epochs: usize,
    /// Mean loss over the epoch's training batches.
    pub train_loss: f64,
    /// Mean loss over the validation set after the epoch (`None` without one).
    pub val_loss: Option<f64>,
    /// Learning rate of the epoch's last step.
    pub lr: f32,
    /// Training positions per second over the epoch's batches.
    pub positions_per_sec: f64,
    /// Seconds since the start of training.
    pub elapsed: f64,
    /// The checkpoint written, if any.
    pub checkpoint: Option<PathBuf>,
}

/// What the trainer reports while it runs.
#[derive(Clone, Debug)]
pub enum Progress {
    /// The data is split.
    Data {
        /// Training positions.
        train: usize,
        /// Validation positions.
        val: usize,
    },
    /// The run continues from a checkpoint.
    Resumed {
        /// Its file.
        path: PathBuf,
        /// Epochs it had finished.
        epoch: usize,
        /// Set if it was made with another thread count (the run is then not bit-identical
        /// to an uninterrupted one).
        threads_differ: Option<usize>,
    },
    /// An epoch is finished.
    Epoch(EpochReport),
    /// The trained net was sized by `--size-like` (mean |evaluation| in centipawns).
    Sized {
        /// The new net's at `--scale`.
        ours: f64,
        /// The reference net's.
        theirs: f64,
        /// The SCALE written.
        scale: u32,
    },
}

/// A worker's buffers: its slice of the batch (copied together, so that the random reads of
/// the shuffled samples overlap instead of stalling the arithmetic), its gradient (the
/// padded layout of `model::ROW_PAD`), its accumulators and the loss of its last slice.
struct Worker {
    batch: Vec<Sample>,
    grad: Vec<f32>,
    scratch: Scratch,
    loss: f64,
}

/// Fills `workers[t].grad` with the gradient of `batch`'s `t`-th slice in the padded layout
/// (one scoped thread each; slice 0 on this thread; `w_pad`: the model's feature weights as
/// [`Model::padded_weights`] gives them) and returns the summed loss and the batch's gradient
/// as [`AdamW::step_of_sum`] takes it: with two workers their two gradients, left apart for the
/// optimiser to add as it reads them; otherwise `workers[0].grad` with the others summed into
/// it in thread order (the same sums either way).
fn batch_gradients<'w>(
    model: &Model,
    w_pad: &[f32],
    samples: &[Sample],
    batch: &[u32],
    workers: &'w mut [Worker],
) -> (f64, &'w [f32], Option<&'w [f32]>) {
    let per = batch.len().div_ceil(workers.len().max(1)).max(1);
    let slice = |t: usize| batch.get((t * per).min(batch.len())..((t + 1) * per).min(batch.len()));
    let work = |w: &mut Worker, idx: &[u32]| {
        w.batch.clear();
        w.batch
            .extend(idx.iter().filter_map(|&i| samples.get(i as usize)));
        w.grad.fill(0.0);
        w.loss = model.add_gradients_padded(w_pad, &w.batch, &mut w.grad, &mut w.scratch);
    };
    std::thread::scope(|s| {
        let Some((first, rest)) = workers.split_first_mut() else {
            return;
        };
        for (t, w) in rest.iter_mut().enumerate() {
            let idx = slice(t + 1).unwrap_or(&[]);
            s.spawn(move || work(w, idx));
        }
        work(first, slice(0).unwrap_or(&[]));
    });
    let Some((first, rest)) = workers.split_first_mut() else {
        return (0.0, &[], None);
    };
    let loss = rest.iter().fold(first.loss, |sum, w| sum + w.loss);
    if let [second] = rest {
        return (loss, &first.grad, Some(&second.grad));
    }
    for w in rest.iter() {
        for (g, &x) in first.grad.iter_mut().zip(&w.grad) {
            *g += x;
        }
    }
    (loss, &first.grad, None)
}

/// Trains on `samples` (split here with the seed) and returns the float network.
/// `progress` hears of the split, a resume and each epoch; returning `Break` from an epoch's
/// report stops the run there (its checkpoint is written first).
pub fn train(
    o: &TrainOptions,
    samples: Vec<Sample>,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<Model, String> {
    let mut rng = Rng::new(o.seed);
    let DataSet {
        train: set,
        val,
        fingerprint,
    } = data::split(samples, o.val, o.val_tail, &mut rng);
    if set.is_empty() {
        return Err("no training positions".into());
    }
    if set.len() > u32::MAX as usize {
        return Err(format!(
            "{} positions: at most 2^32 are supported",
            set.len()
        ));
    }
    let _ = progress(&Progress::Data {
        train: set.len(),
        val: val.len(),
    });
    let inputs = o.inputs()?;
    let mut model = Model::new(o.hidden, o.buckets, &mut rng)
        .with_inputs(inputs)
        .ok_or("king buckets")?;
    if o.factorise {
        model = model.factorised().ok_or("--factorise needs king buckets")?;
    }
    // The --init net, loaded once: the start of a fresh run and, with --wd-to-init, the
    // weights the decay pulls toward (made again on a resume: loading and widening it are
    // deterministic).
    let init = if o.resume && !o.wd_to_init {
        None
    } else {
        initial_model(o)?
    };
    let anchor = if o.wd_to_init {
        let a = init.as_ref().ok_or("--wd-to-init needs --init NET")?;
        if a.params.len() != model.params.len() {
            return Err("--wd-to-init: the --init net does not fit this net's size".into());
        }
        Some(a.params.clone())
    } else {
        None
    };
    if !o.resume
        && let Some(init) = init
    {
        // A resumed run takes its weights from the checkpoint (whose run key names the net).
        model = init;
    }
    let mut adam = AdamW::new(model.params.len());
    let mut first_epoch = 0;
    let key = o.run_key();
    let dir = o.checkpoint_dir.as_deref().map(Path::new);
    match dir {
        Some(dir) if o.resume => {
            let path = checkpoint::latest(dir)?
                .ok_or_else(|| format!("--resume: no checkpoint in {}", dir.display()))?;
            let c = checkpoint::load(&path)?;
            if c.run_key != key {
                return Err(other_options(&path, &c.run_key, &key));
            }
            if (c.model.hidden, c.model.buckets) != (o.hidden, o.buckets) {
                return Err(format!(
                    "--resume: {} holds a net of hidden size {} with {} output buckets, not {} \
                     with {}",
                    path.display(),
                    c.model.hidden,
                    c.model.buckets,
                    o.hidden,
                    o.buckets
                ));
            }
            if c.fingerprint != fingerprint {
                return Err(format!(
                    "--resume: {} was made with other data (or another --val/--seed split)",
                    path.display()
                ));
            }
            let threads_differ = (c.threads as usize != o.threads).then_some(c.threads as usize);
            first_epoch = c.epoch as usize;
            model = if o.factorise {
                c.model.with_last_block_as_factor().ok_or_else(|| {
                    format!("--resume: {} holds no factorised net", path.display())
                })?
            } else {
                c.model
            };
            adam = c.adam;
            rng.s = c.rng;
            let _ = progress(&Progress::Resumed {
                path,
                epoch: first_epoch,
                threads_differ,
            });
        }
        Some(dir) => {
            if let Some(p) = checkpoint::latest(dir)? {
                return Err(format!(
                    "{} already holds checkpoints ({}): pass --resume to continue that run, or \
                     choose another --checkpoint-dir",
                    dir.display(),
                    p.display()
                ));
            }
        }
        None => {}
    }

    if model.inputs.king_buckets != inputs.king_buckets {
        return Err(format!(
            "--resume: the checkpoint's net has {} king buckets, this run {}",
            model.inputs.king_buckets, inputs.king_buckets
        ));
    }
    model.inputs = inputs;
    let l = model.layout();
    // Weight decay on the weights, not on the biases.
    let segments: [(Range<usize>, bool); 4] = [
        (0..l.ft_bias(), true),
        (l.ft_bias()..l.out_weights(), false),
        (l.out_weights()..l.out_bias(), true),
        (l.out_bias()..l.size(), false),
    ];
    let mut workers: Vec<Worker> = (0..o.threads.max(1))
        .map(|_| Worker {
            batch: Vec::new(),
            grad: vec![0.0; l.padded_size()],
            scratch: Scratch::new(o.hidden),
            loss: 0.0,
        })
        .collect();
    let batch = o.batch.max(1);
    let total_steps = (set.len().div_ceil(batch) * o.epochs) as u64;
    let start = Instant::now();
    let mut order: Vec<u32> = Vec::with_capacity(set.len());
    // The feature weights in the padded layout the gradient pass reads (and writes the
    // gradient in: see `model::ROW_PAD`), made again after every step.
    let mut w_pad = Vec::new();
    model.padded_weights(&mut w_pad);
    let grad_rows = GradRows {
        rows: l.rows,
        n: l.n,
        stride: l.stride(),
    };
    for epoch in first_epoch..o.epochs {
        // A fresh permutation of the split's order, so that the epoch depends only on the
        // generator's state.
        order.clear();
        order.extend(0..set.len() as u32);
        rng.shuffle(&mut order);
        let t0 = Instant::now();
        let mut loss = 0.0;
        let mut lr = o.lr;
        for b in order.chunks(batch) {
            lr = o
                .schedule
                .rate(o.lr, o.lr_gamma, epoch, adam.t, total_steps);
            let (batch_loss, grad, more) = batch_gradients(&model, &w_pad, &set, b, &mut workers);
            loss += batch_loss;
            adam.step_of_sum(
                &mut model.params,
                grad,
                more,
                grad_rows,
                1.0 / b.len() as f32,
                lr,
                o.wd,
                anchor.as_deref(),
                &segments,
            );
            model.padded_weights(&mut w_pad);
        }
        let secs = t0.elapsed().as_secs_f64();
        let train_loss = loss / set.len() as f64;
        if !train_loss.is_finite() {
            return Err(format!(
                "training diverged in epoch {} (the loss is not a number): lower --lr",
                epoch + 1
            ));
        }
        let val_loss = (!val.is_empty()).then(|| loss::mean_loss(&model, &val, workers.len()));
        let ckpt = match dir {
            Some(dir) => Some(checkpoint::save(
                dir,
                &Checkpoint {
                    epoch: (epoch + 1) as u32,
                    threads: workers.len() as u32,
                    rng: rng.s,
                    fingerprint,
                    run_key: key.clone(),
                    model: model.clone(),
                    adam: adam.clone(),
                },
            )?),
            None => None,
        };
        if o.epoch_nets {
            write_net(
                &format!("{}.epoch{}", o.out, epoch + 1),
                &model,
                o.scale,
                (o.qa, o.qb),
            )?;
        }
        let report = EpochReport {
            epoch: epoch + 1,
            epochs: o.epochs,
            train_loss,
            val_loss,
            lr,
            positions_per_sec: set.len() as f64 / secs.max(1e-9),
            elapsed: start.elapsed().as_secs_f64(),
            checkpoint: ckpt,
        };
        if progress(&Progress::Epoch(report)).is_break() {
            break;
        }
    }
    Ok(model)
}

/// Writes the quantised `model` to `path`.
pub fn write_net(
    path: &str,
    model: &Model,
    scale: u32,
    (qa, qb): (i32, i32),
) -> Result<(), String> {
    let qb = if qb == 0 { model.fitted_qb(qa) } else { qb };
    std::fs::write(path, model.quantise_with(scale as i32, qa, qb).to_bytes())
        .map_err(|e| format!("cannot write {path}: {e}"))
}

/// The checks that need no data, made before the (possibly long) loading: the `--init`
/// network must load and fit, a fresh run must not mix its checkpoints with another run's, a resumed one
/// needs a checkpoint made with the same options. ([`train`] checks again, and the data.)
fn preflight(o: &TrainOptions) -> Result<(), String> {
    if !o.resume {
        initial_model(o)?;
    }
    size_reference(o)?;
    let Some(dir) = o.checkpoint_dir.as_deref().map(Path::new) else {
        return Ok(());
    };
    match (checkpoint::latest(dir)?, o.resume) {
        (Some(p), false) => Err(format!(
            "{} already holds checkpoints ({}): pass --resume to continue that run, or \
             choose another --checkpoint-dir",
            dir.display(),
            p.display()
        )),
        (None, true) => Err(format!("--resume: no checkpoint in {}", dir.display())),
        (Some(p), true) => {
            let c = checkpoint::load(&p)?;
            if c.run_key != o.run_key() {
                return Err(other_options(&p, &c.run_key, &o.run_key()));
            }
            Ok(())
        }
        (None, false) => Ok(()),
    }
}

/// Mixed into `--seed` for the feature weights of the neurons a wider run adds to its `--init`.
const WIDEN_SEED: u64 = 0x5749_4445_4e45_4421;

/// The model of `--init`, if given: the network file read, checked against `--hidden` and
/// `--buckets`, and dequantised; a net of another `--scale` has its output layer rescaled (the
/// same centipawns); a one-bucket net's output layer is copied into
/// each of `--buckets` buckets (the same output as the net for every position).
fn initial_model(o: &TrainOptions) -> Result<Option<Model>, String> {
    let Some(path) = &o.init else {
        return Ok(None);
    };
    let net = Network::read_file(path).map_err(|e| format!("--init: {e}"))?;
    if net.inputs.mirrored && !o.hm {
        return Err(format!(
            "--init {path}: a horizontally mirrored net continues only with --hm"
        ));
    }
    let inputs = o.inputs()?;
    // New neurons of a wider run draw their feature weights from a generator of their own,
    // so that the run's shuffles stay those of `--seed`.
    let mut rng = Rng::new(o.seed ^ WIDEN_SEED);
    let Some(model) = Model::from_network(&net).widened(o.hidden, &mut rng) else {
        return Err(format!(
            "--init {path}: hidden size {} but --hidden is {} (a net can start a run of its \
             own hidden size or a wider one)",
            net.hidden, o.hidden
        ));
    };
    // (`Network::from_bytes` refuses a scale outside 1..=100000, so the ratio is finite.)
    let model = model.with_inputs(inputs).ok_or_else(|| {
        format!(
            "--init {path}: a net with {} king buckets continues only with its own \
                 --king-buckets map or one that splits its buckets",
            net.inputs.king_buckets
        )
    })?;
    let model = if o.factorise {
        model
            .factorised()
            .ok_or_else(|| format!("--init {path}: --factorise needs king buckets"))?
    } else {
        model
    };
    model
        .rescaled(net.scale as f32, o.scale as f32)
        .with_buckets(o.buckets)
        .map(Some)
        .ok_or_else(|| {
            format!(
                "--init {path}: {} output buckets but --buckets is {} (a net with one bucket or \
                 with {} can start the run)",
                net.buckets, o.buckets, o.buckets
            )
        })
}

/// The model of `--size-like`, if given, its output in units of `--scale` (rescaled from its
/// own SCALE, so that the same centipawns compare).
fn size_reference(o: &TrainOptions) -> Result<Option<Model>, String> {
    let Some(path) = &o.size_like else {
        return Ok(None);
    };
    let net = Network::read_file(path).map_err(|e| format!("--size-like: {e}"))?;
    Ok(Some(
        Model::from_network(&net).rescaled(net.scale as f32, o.scale as f32),
    ))
}

/// Mean |output| of `model` over `samples` (0 for none).
fn mean_abs_output(model: &Model, samples: &[Sample]) -> f64 {
    let mut scratch = Scratch::new(model.hidden);
    let sum: f64 = samples
        .iter()
        .map(|s| model.forward(s, &mut scratch).abs() as f64)
        .sum();
    sum / samples.len().max(1) as f64
}

/// The SCALE that gives evaluations of mean size `ours` (now `scale` centipawns per unit) the
/// mean size `theirs` (in the same units; see [`mean_abs_output`]), within the header's range
/// 1..=100000.
fn matched_scale(ours: f64, theirs: f64, scale: u32) -> u32 {
    if ours <= 0.0 || !ours.is_finite() || !theirs.is_finite() {
        return scale;
    }
    (scale as f64 * theirs / ours).round().clamp(1.0, 100_000.0) as u32
}

/// The error of a resume with options other than the checkpoint's.
fn other_options(path: &Path, theirs: &str, ours: &str) -> String {
    format!(
        "--resume: {} was made with other options:\n  checkpoint: {theirs}\n  now:        {ours}",
        path.display()
    )
}

/// Loads the data of `o`, trains, writes the network; `progress` as for [`train`].
pub fn run(
    o: &TrainOptions,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<Model, String> {
    if let Some(parent) = Path::new(&o.out).parent()
        && !parent.as_os_str().is_empty()
        && !parent.is_dir()
    {
        return Err(format!(
            "--out {}: the directory {} does not exist",
            o.out,
            parent.display()
        ));
    }
    preflight(o)?;
    let samples = data::load(&o.data, o.lambda, o.scale as f32, o.mirror)?;
    if samples.is_empty() {
        return Err("the data files hold no positions".into());
    }
    // Up to 100,000 positions spread over the data, kept to size the new net by.
    let probe: Vec<Sample> = match o.size_like {
        Some(_) => {
            let step = samples.len().div_ceil(100_000).max(1);
            samples.iter().step_by(step).cloned().collect()
        }
        None => Vec::new(),
    };
    let model = train(o, samples, progress)?;
    let scale = match size_reference(o)? {
        Some(reference) => {
            // Each mean once: the scale and the report read the same figures.
            let ours = mean_abs_output(&model, &probe);
            let theirs = mean_abs_output(&reference, &probe);
            let scale = matched_scale(ours, theirs, o.scale);
            let _ = progress(&Progress::Sized {
                ours: ours * o.scale as f64,
                theirs: theirs * o.scale as f64,
                scale,
            });
            scale
        }
        None => o.scale,
    };
    write_net(&o.out, &model, scale, (o.qa, o.qb))?;
    Ok(model)
}

/// `nullwindow train ...`: trains, printing a line per epoch, and writes the network.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("loss") {
        return loss::run_cli(&args[1..]);
    }
    let Some(o) = parse_args(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    println!(
        "training {} on {} ({} threads): {}",
        o.out,
        o.data.join(","),
        o.threads,
        o.run_key()
    );
    let mut print = |p: &Progress| {
        match p {
            Progress::Data { train, val } => {
                println!("{train} training positions, {val} validation positions");
            }
            Progress::Resumed {
                path,
                epoch,
                threads_differ,
            } => {
                println!("resumed from {} after epoch {epoch}", path.display());
                if let Some(t) = threads_differ {
                    println!(
                        "warning: the checkpoint was made with {t} threads; the run will not be \
                         bit-identical to an uninterrupted one"
                    );
                }
            }
            Progress::Sized {
                ours,
                theirs,
                scale,
            } => {
                println!(
                    "size: mean |eval| {ours:.1} cp at SCALE {}, {theirs:.1} cp for --size-like: \
                     written with SCALE {scale}",
                    o.scale
                );
            }
            Progress::Epoch(r) => {
                let val = r
                    .val_loss
                    .map_or_else(|| "-".to_string(), |v| format!("{v:.6}"));
                println!(
                    "epoch {:>3}/{}  train {:.6}  val {val}  lr {:.3e}  {:.0} pos/s  {:.1} s",
                    r.epoch, r.epochs, r.train_loss, r.lr, r.positions_per_sec, r.elapsed
                );
            }
        }
        ControlFlow::Continue(())
    };
    run(&o, &mut print)?;
    println!("wrote {}", o.out);
    Ok(())
}

#[cfg(test)]
mod tests;
