//! Training checkpoints: everything needed to continue a run exactly.
//!
//! One file per finished epoch, `DIR/epoch-NNNN.ckpt`, written to a temporary name and
//! renamed, so that a crash never leaves a half-written checkpoint under the real name.
//! Layout (little-endian):
//! | field | type |
//! |---|---|
//! | magic `NWCKPT\0\0` | 8 bytes |
//! | version (2) | `u32` |
//! | hidden size N | `u32` |
//! | output buckets B (not in version 1, whose nets have one) | `u32` |
//! | epochs finished | `u32` |
//! | worker threads of the run | `u32` |
//! | optimiser steps taken | `u64` |
//! | generator state | `u64 × 4` |
//! | data fingerprint | `u64` |
//! | run key length K, then the run key (UTF-8: the options that shape the run) | `u32`, K bytes |
//! | parameter count P (= (768·K + 1)·N + B·(2N + 1), K king buckets) | `u64` |
//! | parameters, Adam first moments, Adam second moments | `f32 × P` each |
//! | FNV-1a of every byte before it | `u32` |

use std::fs;
use std::path::{Path, PathBuf};

use crate::nnue::net::{INPUTS, Inputs, MAX_BUCKETS, MAX_KING_BUCKETS, fnv1a};

use super::model::{Layout, Model};
use super::optim::AdamW;

/// The first 8 bytes of a checkpoint.
pub const MAGIC: [u8; 8] = *b"NWCKPT\0\0";
/// The format version.
pub const VERSION: u32 = 2;
/// The version before output buckets (one bucket, no field for it); still read.
pub const VERSION_SINGLE: u32 = 1;

/// The state of a run after a finished epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs finished.
    pub epoch: u32,
    /// Worker threads the run used (the float sums, and so the weights, depend on it).
    pub threads: u32,
    /// The shuffling generator's state.
    pub rng: [u64; 4],
    /// Fingerprint of the training and validation data.
    pub fingerprint: u64,
    /// The options that shape the run, as text; a resumed run must have the same.
    pub run_key: String,
    /// The float network.
    pub model: Model,
    /// The optimiser's moments and step count.
    pub adam: AdamW,
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let p = self.model.params.len();
        let mut b = Vec::with_capacity(96 + self.run_key.len() + 12 * p);
        b.extend_from_slice(&MAGIC);
        for w in [
            VERSION,
            self.model.hidden as u32,
            self.model.buckets as u32,
            self.epoch,
            self.threads,
        ] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&self.adam.t.to_le_bytes());
        for w in self.rng {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&self.fingerprint.to_le_bytes());
        b.extend_from_slice(&(self.run_key.len() as u32).to_le_bytes());
        b.extend_from_slice(self.run_key.as_bytes());
        b.extend_from_slice(&(p as u64).to_le_bytes());
        for x in self
            .model
            .params
            .iter()
            .chain(&self.adam.m)
            .chain(&self.adam.v)
        {
            b.extend_from_slice(&x.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads and checks a checkpoint's bytes: magic, version, sizes, checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err("not a Nullwindow training checkpoint (no NWCKPT magic)".into());
        }
        let version = r.u32()?;
        if version != VERSION && version != VERSION_SINGLE {
            return Err(format!(
                "checkpoint version {version}, this trainer reads {VERSION_SINGLE} and {VERSION}"
            ));
        }
        let hidden = r.u32()? as usize;
        if !(16..=2048).contains(&hidden) || !hidden.is_multiple_of(16) {
            return Err(format!("checkpoint has a bad hidden size {hidden}"));
        }
        let buckets = if version == VERSION_SINGLE {
            1
        } else {
            r.u32()? as usize
        };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "checkpoint has {buckets} output buckets (must be 1..={MAX_BUCKETS})"
            ));
        }
        let epoch = r.u32()?;
        let threads = r.u32()?;
        let t = r.u64()?;
        let rng = [r.u64()?, r.u64()?, r.u64()?, r.u64()?];
        let fingerprint = r.u64()?;
        let key_len = r.u32()? as usize;
        let run_key = String::from_utf8(r.take(key_len)?.to_vec())
            .map_err(|_| "checkpoint run key is not UTF-8".to_string())?;
        let p = r.u64()?;
        // The feature rows follow from the count: 768 per king bucket.
        let other = (hidden + buckets * (2 * hidden + 1)) as u64;
        let rows = p.saturating_sub(other) / hidden as u64;
        let king_buckets = (rows / INPUTS as u64).clamp(1, MAX_KING_BUCKETS as u64) as usize;
        let want = Layout {
            n: hidden,
            buckets,
            rows: king_buckets * INPUTS,
            factor: None,
        }
        .size();
        if p != want as u64 {
            return Err(format!(
                "checkpoint holds {p} parameters; hidden size {hidden} with {buckets} output \
                 buckets needs 768·K·{hidden} + {other} for K king buckets (1..={MAX_KING_BUCKETS})"
            ));
        }
        let body = r.at + 12 * want;
        if bytes.len() != body + 4 {
            return Err(format!(
                "checkpoint is {} bytes, expected {} (truncated or padded)",
                bytes.len(),
                body + 4
            ));
        }
        let sum = u32::from_le_bytes([
            bytes[body],
            bytes[body + 1],
            bytes[body + 2],
            bytes[body + 3],
        ]);
        if fnv1a(&bytes[..body]) != sum {
            return Err("checkpoint checksum mismatch (corrupt file)".into());
        }
        let mut floats = || -> Result<Vec<f32>, String> {
            Ok(r.take(4 * want)?
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect())
        };
        let params = floats()?;
        let m = floats()?;
        let v = floats()?;
        Ok(Checkpoint {
            epoch,
            threads,
            rng,
            fingerprint,
            run_key,
            // How the inputs read the rows (mirroring, the king bucket map) is an option of
            // the run (in its key), set by the trainer that resumes it; only K is known here.
            model: Model {
                hidden,
                buckets,
                inputs: Inputs {
                    king_buckets,
                    ..Inputs::PLAIN
                },
                // A factorised run's shared rows read as one more block: the trainer that
                // resumes it knows (`Model::with_last_block_as_factor`).
                factor: false,
                params,
            },
            adam: AdamW { m, v, t },
        })
    }

    /// The float network as the run had it (its inputs and factoriser read from the run key,
    /// the shared rows merged into each block, as a network file holds them) and the `--scale`
    /// its output is in.
    pub fn float_net(&self) -> Result<(Model, u32), String> {
        let mut o = super::TrainOptions::default();
        let mut scale = None;
        for kv in self.run_key.split_whitespace() {
            match kv.split_once('=') {
                Some(("scale", v)) => scale = v.parse().ok(),
                Some(("king-buckets", v)) => o.king_buckets = Some(v.to_string()),
                None if kv == "hm" => o.hm = true,
                None if kv == "factorise" => o.factorise = true,
                _ => {}
            }
        }
        let scale = scale.ok_or("no scale= in the checkpoint's options")?;
        let inputs = o.inputs()?;
        let mut model = if o.factorise {
            self.model
                .with_last_block_as_factor()
                .ok_or("its options say factorise, its net has no factoriser")?
        } else {
            self.model.clone()
        };
        if model.inputs.king_buckets != inputs.king_buckets {
            return Err(format!(
                "its net has {} king buckets, its options {}",
                model.inputs.king_buckets, inputs.king_buckets
            ));
        }
        model.inputs = inputs;
        Ok((model.merged(), scale))
    }
}

/// A cursor over a byte slice whose reads fail instead of panicking at the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self
            .bytes
            .get(self.at..self.at.saturating_add(n))
            .ok_or_else(|| "checkpoint is truncated".to_string())?;
        self.at += n;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    fn u64(&mut self) -> Result<u64, String> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_le_bytes(a))
    }
}

/// The file name of the checkpoint after `epoch` epochs.
pub fn file_name(epoch: u32) -> String {
    format!("epoch-{epoch:04}.ckpt")
}

/// The epoch of a checkpoint file name, if it is one.
fn epoch_of(name: &str) -> Option<u32> {
    name.strip_prefix("epoch-")?
        .strip_suffix(".ckpt")?
        .parse()
        .ok()
}

/// Writes `c` into `dir` (created if missing) and returns its path.
pub fn save(dir: &Path, c: &Checkpoint) -> Result<PathBuf, String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(file_name(c.epoch));
    let tmp = dir.join(format!("{}.tmp", file_name(c.epoch)));
    fs::write(&tmp, c.to_bytes()).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, &path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The checkpoint of the latest epoch in `dir`, if there is one (a missing directory has
/// none).
pub fn latest(dir: &Path) -> Result<Option<PathBuf>, String> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    let mut best: Option<(u32, PathBuf)> = None;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let name = entry.file_name();
        if let Some(k) = name.to_str().and_then(epoch_of)
            && best.as_ref().is_none_or(|(b, _)| k > *b)
        {
            best = Some((k, entry.path()));
        }
    }
    Ok(best.map(|(_, p)| p))
}

/// Reads the checkpoint at `path`.
pub fn load(path: &Path) -> Result<Checkpoint, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::Rng;

    fn sample() -> Checkpoint {
        sample_with(1)
    }

    fn sample_with(buckets: usize) -> Checkpoint {
        let mut rng = Rng::new(4);
        let model = Model::new(16, buckets, &mut rng);
        let mut adam = AdamW::new(model.params.len());
        adam.t = 17;
        adam.m[5] = 0.25;
        adam.v[9] = 1e-6;
        Checkpoint {
            epoch: 3,
            threads: 2,
            rng: rng.s,
            fingerprint: 0xdead_beef,
            run_key: "hidden=16 lr=0.001".into(),
            model,
            adam,
        }
    }

    #[test]
    fn checkpoint_bytes_round_trip_and_checks() {
        let c = sample();
        let b = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&b).expect("read"), c);
        assert!(
            Checkpoint::from_bytes(&b[..b.len() - 1])
                .unwrap_err()
                .contains("truncated")
        );
        assert!(Checkpoint::from_bytes(&b[..20]).is_err());
        let mut bad = b.clone();
        bad[200] ^= 1;
        assert!(
            Checkpoint::from_bytes(&bad)
                .unwrap_err()
                .contains("checksum")
        );
        let mut bad = b.clone();
        bad[8] = 9;
        assert!(
            Checkpoint::from_bytes(&bad)
                .unwrap_err()
                .contains("version")
        );
        assert!(Checkpoint::from_bytes(b"NWNN garbage").is_err());
        assert!(Checkpoint::from_bytes(&[]).is_err());
    }

    /// A king-bucketed model's checkpoint reads back with its K (the map and mirroring are
    /// the run's options, set again by the trainer).
    #[test]
    fn checkpoint_of_king_buckets() {
        let mut c = sample_with(8);
        let (k, map) = Inputs::king_layout("kb4").expect("kb4");
        let inputs = Inputs {
            mirrored: true,
            king_buckets: k,
            king_map: map,
        };
        c.model = c.model.with_inputs(inputs).expect("kb4");
        c.adam = AdamW::new(c.model.params.len());
        let back = Checkpoint::from_bytes(&c.to_bytes()).expect("read");
        assert_eq!(back.model.inputs.king_buckets, 4);
        assert_eq!(back.model.params, c.model.params);
        // A count that fits no K is refused.
        let mut b = sample().to_bytes();
        let at = 8 + 4 * 5 + 8 + 32 + 8 + 4 + "hidden=16 lr=0.001".len();
        let p = u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        b[at..at + 8].copy_from_slice(&(p + 16).to_le_bytes());
        let e = Checkpoint::from_bytes(&b).unwrap_err();
        assert!(e.contains("king buckets"), "{e}");
    }

    /// Version 2 records the output buckets; a version 1 checkpoint (written before buckets,
    /// no field for them) still reads, as one bucket.
    #[test]
    fn checkpoint_buckets_and_version_1() {
        let c = sample_with(8);
        let b = c.to_bytes();
        let back = Checkpoint::from_bytes(&b).expect("read");
        assert_eq!((back.model.buckets, &back), (8, &c));
        for bad_buckets in [0u32, 17] {
            let mut bad = b.clone();
            bad[16..20].copy_from_slice(&bad_buckets.to_le_bytes());
            let e = Checkpoint::from_bytes(&bad).unwrap_err();
            assert!(e.contains("output buckets"), "{e}");
        }
        // The bytes of version 1: no bucket word, the checksum over the rest.
        let one = sample();
        let v2 = one.to_bytes();
        let mut v1 = v2[..8].to_vec();
        v1.extend_from_slice(&VERSION_SINGLE.to_le_bytes());
        v1.extend_from_slice(&v2[12..16]);
        v1.extend_from_slice(&v2[20..v2.len() - 4]);
        let sum = fnv1a(&v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(Checkpoint::from_bytes(&v1).expect("version 1"), one);
    }

    #[test]
    fn latest_checkpoint_is_found() {
        assert_eq!(epoch_of("epoch-0012.ckpt"), Some(12));
        assert_eq!(epoch_of("epoch-0012.ckpt.tmp"), None);
        let dir = std::env::temp_dir().join(format!("nullwindow-ckpt-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(latest(&dir).expect("missing dir"), None);
        let mut c = sample();
        for e in [2, 10, 9] {
            c.epoch = e;
            save(&dir, &c).expect("save");
        }
        let p = latest(&dir).expect("read dir").expect("some");
        assert!(p.ends_with("epoch-0010.ckpt"));
        assert_eq!(load(&p).expect("load").epoch, 10);
        let _ = fs::remove_dir_all(&dir);
    }
}
