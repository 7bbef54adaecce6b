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
