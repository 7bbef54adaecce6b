//! `nullwindow train`: a CPU trainer for the NNUE network (`(768 → N) × 2 → 1`, SCReLU; see
//! [`crate::nnue::net`]).
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
pub mod model;
pub mod optim;
