//! NNUE: the efficiently updatable neural evaluation (a perspective network
//! `(768 → N) × 2 → 1`, trained by `nullwindow train` on our own self-play data).

pub mod net;
