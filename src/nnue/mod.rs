//! NNUE: the efficiently updatable neural evaluation (a perspective network
//! `(768 → N) × 2 → 1`, trained by `nullwindow train` on our own self-play data).
//!
//! [`net`] holds the file format and the scalar reference forward pass; [`simd`] the vector
//! kernels of the fast path.

pub mod net;
pub mod simd;

pub use simd::simd_name;
