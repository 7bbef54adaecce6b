//! NNUE: the efficiently updatable neural evaluation (a perspective network
//! `(768 → N) × 2 → 1` with material output buckets, trained by `nullwindow train` on our own
//! self-play data).
//!
//! [`net`] holds the file format and the scalar reference forward pass; [`Nnue`] is the fast
//! evaluator a search thread keeps (incremental accumulators, see [`accumulator`]), built on
//! the vector kernels in [`simd`].

pub mod accumulator;
pub mod aligned;
pub mod embedded;
pub mod net;
pub mod simd;

pub use accumulator::{Nnue, NnueStats};
pub use embedded::{EMBEDDED_NET_NAME, USE_BY_DEFAULT, default_net, embedded_net};
pub use net::Network;
pub use simd::simd_name;

use crate::position::Position;

/// The `matscale` factor of the network's evaluation, in 1024ths: `base` (the search
/// parameter `matscale_base`) plus one for each 24 cp of material on the board (both sides'
/// pieces at 100 cp a pawn, [`Position::material_value`]): 700 + 325 = 1025 in the start
/// position, 700 with bare kings.
pub fn material_scale(pos: &Position, base: i32) -> i32 {
    base + 100 * pos.material_value() / 24
}

/// The network's evaluation `v` scaled by the material on the board (`matscale`).
pub fn scale_by_material(v: i32, pos: &Position, base: i32) -> i32 {
    v * material_scale(pos, base) / 1024
}
