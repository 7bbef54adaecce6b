//! `nullwindow train loss`: the loss of finished network files on data, without training.
//!
//! Each net is read and dequantised (the float network of its quantised weights, its output
//! rescaled from the SCALE in its header to `--scale`), and its mean loss
//! `(sigmoid(output) − target)²` is taken over the positions, the target as in training:
//! `(1 − λ)·sigmoid(score / scale) + λ·result`. With `--val X` (and `--val-tail`, `--seed`)
//! only the positions a training run with those options would hold out are used, so that
//! candidates trained with a held-out tail are compared on positions none of them saw.
//! A checkpoint (`*.ckpt`, `train --checkpoint-dir`) in place of a net gives the float network
//! as trained, before quantisation: the two losses side by side are what quantising costs.

use super::checkpoint;
use super::data::{self, Rng, Sample};
use super::model::{Model, Scratch};
use super::{TrainOptions, mean_abs_output};
use crate::nnue::net::Network;

/// Usage text of `train loss`.
pub const USAGE: &str = "\
usage: nullwindow train loss NET [NET...] --data FILE[,FILE...] [options]

  The mean loss of each network file on the data (the dequantised net; the same loss and
  target as training), and its mean |evaluation| in centipawns. A checkpoint of a run
  (NAME.ckpt) gives its float net before quantisation, at the run's --scale.

  --data FILES        data in the binary datagen format, comma-separated (may be repeated)
  --lambda X          weight of the game result in the target (default 0.3, as train)
  --scale CP          centipawns per unit of the sigmoid (default 400, as train); each net's
                      output is rescaled from its own header's SCALE
  --val X             use only the positions a training run with this --val (and
                      --val-tail, --seed) holds out; default: all positions
  --val-tail          the held-out positions are the last --val in file order
  --seed S            seed of the split of a random --val (default 1, as train)
  --threads N         worker threads (default: the available cores)
  -h, --help          this text";

/// Settings of `train loss`.
#[derive(Clone, Debug, PartialEq)]
pub struct LossOptions {
    /// Network files.
    pub nets: Vec<String>,
    /// Data files.
    pub data: Vec<String>,
    /// Weight of the game result in the target.
    pub lambda: f32,
    /// Centipawns per unit of the sigmoid.
    pub scale: u32,
    /// Held-out fraction to evaluate on (None: every position).
    pub val: Option<f64>,
    /// The held-out positions are the file's tail.
    pub val_tail: bool,
    /// Seed of a random split.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// Parses the arguments after `train loss`; `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<LossOptions>, String> {
    let d = TrainOptions::default();
    let mut o = LossOptions {
        nets: Vec::new(),
        data: Vec::new(),
        lambda: d.lambda,
        scale: d.scale,
        val: None,
        val_tail: false,
        seed: d.seed,
        threads: d.threads,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = crate::cli::split_option(a);
        match key {
            "-h" | "--help" => return Ok(None),
            "--val-tail" => {
                if inline.is_some() {
                    return Err("--val-tail takes no value".into());
                }
                o.val_tail = true;
                continue;
            }
            k if !k.starts_with("--") => {
                o.nets.push(a.clone());
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
            "--lambda" => o.lambda = float(0.0, 1.0, "a weight in [0, 1]")? as f32,
            "--scale" => o.scale = int(1, 100_000)? as u32,
            "--val" => o.val = Some(float(0.0, 0.5, "a fraction in [0, 0.5]")?),
            "--seed" => o.seed = int(0, u64::MAX)?,
            "--threads" => o.threads = int(1, 1024)? as usize,
            _ => return Err(format!("unknown option '{a}'\n\n{USAGE}")),
        }
    }
    if o.nets.is_empty() {
        return Err(format!("no network file given\n\n{USAGE}"));
    }
    if o.data.is_empty() {
        return Err(format!("--data FILE is required\n\n{USAGE}"));
    }
    if o.val_tail && o.val.is_none() {
        return Err("--val-tail needs --val X (the fraction held out)".into());
    }
    Ok(Some(o))
}

/// The positions of `samples` that `o` selects: all, or a training run's held-out ones.
pub fn select(samples: Vec<Sample>, o: &LossOptions) -> Vec<Sample> {
    match o.val {
        None => samples,
        Some(val) => data::split(samples, val, o.val_tail, &mut Rng::new(o.seed)).val,
    }
}

/// Mean loss of `model` over `samples` on `threads` threads (the parts summed in order, so
/// the figure does not depend on which thread finishes first); 0 for no samples.
pub fn mean_loss(model: &Model, samples: &[Sample], threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let per = samples.len().div_ceil(threads.max(1));
    let sums: Vec<f64> = std::thread::scope(|s| {
        let parts: Vec<_> = samples
            .chunks(per)
            .map(|part| {
                s.spawn(move || {
                    let mut scratch = Scratch::new(model.hidden);
                    model.loss_sum(part, &mut scratch)
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .collect()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The float model of network file `path` (or of the checkpoint `*.ckpt`), its output in
/// units of `scale` centipawns.
pub fn read_model(path: &str, scale: u32) -> Result<Model, String> {
    if path.ends_with(".ckpt") {
        let c = checkpoint::load(std::path::Path::new(path))?;
        let (model, trained) = c.float_net().map_err(|e| format!("{path}: {e}"))?;
        return Ok(model.rescaled(trained as f32, scale as f32));
    }
    let net = Network::read_file(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(Model::from_network(&net).rescaled(net.scale as f32, scale as f32))
}

/// One net's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct NetLoss {
    /// Mean loss.
    pub loss: f64,
    /// Mean |evaluation| in centipawns.
    pub mean_abs_cp: f64,
}

/// Loads the data of `o` and measures every net (all nets are read before the data, so a
/// bad file fails at once).
pub fn run(o: &LossOptions) -> Result<(usize, Vec<NetLoss>), String> {
    let models = o
        .nets
        .iter()
        .map(|p| read_model(p, o.scale))
        .collect::<Result<Vec<_>, _>>()?;
    let samples = data::load(&o.data, o.lambda, o.scale as f32, false)?;
    let samples = select(samples, o);
    if samples.is_empty() {
        return Err("no positions to measure on".into());
    }
    let figures = models
        .iter()
        .map(|m| NetLoss {
            loss: mean_loss(m, &samples, o.threads),
            mean_abs_cp: mean_abs_output(m, &samples) * o.scale as f64,
        })
        .collect();
    Ok((samples.len(), figures))
}

/// `nullwindow train loss ...`: one line per net.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let Some(o) = parse_args(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    let (n, figures) = run(&o)?;
    let what = match o.val {
        None => "all positions".to_string(),
        Some(v) if o.val_tail => format!("the last {v} in file order"),
        Some(v) => format!("a random {v} (seed {})", o.seed),
    };
    println!(
        "{n} positions of {} ({what}), lambda {} scale {}",
        o.data.join(","),
        o.lambda,
        o.scale
    );
    for (net, f) in o.nets.iter().zip(&figures) {
        println!(
            "loss {:.6}  mean |eval| {:6.1} cp  {net}",
            f.loss, f.mean_abs_cp
        );
    }
    Ok(())
}
