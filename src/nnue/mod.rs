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
    base + 100 * material_value(pos) / 24
}

/// [`Position::material_value`], with the CPU's `popcnt` where it has one: the portable build
/// counts each piece set with a dozen shifts and masks, five times an evaluation.
#[inline]
fn material_value(pos: &Position) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has `popcnt` (checked just above, cached by std).
        return unsafe { material_value_popcnt(pos) };
    }
    pos.material_value()
}

/// [`Position::material_value`] compiled with `popcnt` (the same count).
///
/// # Safety
/// The CPU has `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn material_value_popcnt(pos: &Position) -> i32 {
    pos.material_value()
}

/// The network's evaluation `v` scaled by the material on the board (`matscale`).
pub fn scale_by_material(v: i32, pos: &Position, base: i32) -> i32 {
    v * material_scale(pos, base) / 1024
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `popcnt` build of the material count gives `Position::material_value` everywhere.
    #[test]
    fn fast_counts_equal_the_portable_ones() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(68);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                assert_eq!(material_value(&pos), pos.material_value());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}
