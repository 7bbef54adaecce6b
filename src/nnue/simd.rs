//! The vector kernels of the NNUE evaluation: accumulator updates (row additions and
//! subtractions in wrapping `i16`) and the output layer (SCReLU, then a dot product with the
//! output weights).
//!
//! Three back ends compute the same integers: [`Backend::Avx2`] and [`Backend::Avx512`] with
//! `std::arch::x86_64` intrinsics, chosen at run time by what the CPU has (AVX-512 only when
//! asked for: see [`Backend::DEFAULT_CAP`]), and [`Backend::Scalar`], plain Rust written in
//! fixed-width chunks so that the compiler vectorises it for the target's baseline (SSE2 on
//! x86-64, NEON on aarch64). Every slice handed to a kernel has the same length, a multiple of
//! [`LANES`]; the kernels check this (the vector loads rely on it).
//!
//! Accumulator arithmetic wraps, exactly like the reference's `i32 → i16` truncation: wrapping
//! addition is a homomorphism onto `i16`, so any order of additions and subtractions of the same
//! rows gives the same bits as summing from scratch.

use std::sync::OnceLock;

/// Elements of an `i16` AVX2 register (256 bits); kernel lengths are multiples of it. (The
/// AVX-512 kernels take 32 at a time and finish an odd 16 with a masked load.)
pub const LANES: usize = 16;

/// Which kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Portable Rust that the compiler vectorises for the target's baseline features.
    Scalar,
    /// x86-64 AVX2 intrinsics (only where the CPU has AVX2; see [`Backend::is_available`]).
    Avx2,
    /// x86-64 AVX-512 intrinsics, 512-bit registers (only where the CPU has AVX-512 F and BW).
    Avx512,
}

impl Backend {
    /// Every back end, widest first.
    pub const ALL: [Backend; 3] = [Backend::Avx512, Backend::Avx2, Backend::Scalar];

    /// The back end the engine runs (detected once per process): the widest the CPU has up
    /// to [`Backend::DEFAULT_CAP`]. The environment variable `NULLWINDOW_SIMD` (`avx512`,
    /// `avx2` or `scalar`) names another cap, to measure each.
    pub fn detect() -> Backend {
        static BEST: OnceLock<Backend> = OnceLock::new();
        *BEST.get_or_init(|| {
            let cap = std::env::var("NULLWINDOW_SIMD")
                .ok()
                .and_then(|v| Backend::ALL.into_iter().find(|b| b.name() == v))
                .unwrap_or(Backend::DEFAULT_CAP);
            Backend::best_up_to(cap)
        })
    }

    /// The widest back end chosen without `NULLWINDOW_SIMD`: AVX2. The AVX-512 kernels give
    /// the same integers but no measurable speed with the shipped N = 128 network (`bench`,
    /// 40 alternated runs on a Sapphire Rapids VM: +1.3% ± 1.8% nodes a second), and on some
    /// CPUs 512-bit code lowers the clock of the whole core; at N = 256 they evaluate faster
    /// (58 – 68 against 70 – 100 ns an evaluation, `nnue_speed`), so a wider network is the
    /// time to measure them again. On an AMD EPYC (Zen 4, whose 512-bit operations take two
    /// 256-bit halves) with the kernels unrolled for N, AVX-512 is no faster at either size:
    /// 39 against 37 ns at N = 128, 59 against 53 ns at N = 256 (`nnue_speed`), and a 12-game
    /// `datagen` takes the same CPU time (5.01 against 4.98 s, 6 alternated runs each).
    pub const DEFAULT_CAP: Backend = Backend::Avx2;

    /// The widest back end this CPU runs that is no wider than `cap`.
    pub fn best_up_to(cap: Backend) -> Backend {
        Backend::ALL
            .into_iter()
            .skip_while(|&b| b != cap)
            .find(|b| b.is_available())
            .unwrap_or(Backend::Scalar)
    }

    /// Whether this CPU can run the back end.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Scalar => true,
            Backend::Avx2 => avx2_available(),
            Backend::Avx512 => avx512_available(),
        }
    }

    /// Short name for `--version` and the `eval` command: `"avx512"`, `"avx2"` or `"scalar"`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }
}

/// The name of the back end [`Backend::detect`] picks: `"avx512"`, `"avx2"` or `"scalar"`.
pub fn simd_name() -> &'static str {
    Backend::detect().name()
}

#[cfg(target_arch = "x86_64")]
fn avx2_available() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2_available() -> bool {
    false
}

/// AVX-512 Foundation and Byte/Word (the 16-bit lanes); the kernels also use AVX2 registers.
#[cfg(target_arch = "x86_64")]
fn avx512_available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx512_available() -> bool {
    false
}

/// Panics unless `len` is a whole number of vectors and every row has exactly `len` elements
/// (the AVX2 kernels read `len` elements from each row through raw pointers).
#[inline]
fn check_rows(len: usize, rows: &[&[i16]]) {
    assert!(
        len.is_multiple_of(LANES),
        "kernel length {len} is not a multiple of {LANES}"
    );
    for r in rows {
        assert_eq!(r.len(), len, "kernel row length");
    }
}

/// `dst = src + Σ adds − Σ subs`, element-wise in wrapping `i16` (the copy of a parent
/// accumulator fused with the feature changes of one move; `A = S = 0` is a plain copy).
///
/// Panics unless all slices have one length, a multiple of [`LANES`].
#[inline]
pub fn update<const A: usize, const S: usize>(
    backend: Backend,
    dst: &mut [i16],
    src: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    let n = dst.len();
    check_rows(n, &[src]);
    check_rows(n, &adds);
    check_rows(n, &subs);
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            assert!(avx2_available(), "AVX2 kernel on a CPU without AVX2");
            // SAFETY: the CPU has AVX2 (checked above, cached by std), and every slice has
            // length `n`, a multiple of 16 (`check_rows`), which is all the kernel reads/writes.
            unsafe { avx2::update(dst, src, adds, subs) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            assert!(
                avx512_available(),
                "AVX-512 kernel on a CPU without AVX-512"
            );
            // SAFETY: the CPU has AVX-512 F/BW (checked above), and every slice has length
            // `n`, a multiple of 16 (`check_rows`), which is all the kernel reads/writes.
            unsafe { avx512::update(dst, src, adds, subs) }
        }
        _ => scalar::update(dst, src, adds, subs),
    }
}

/// One step of both perspectives, straight from the parent's entry: for each view `v` (0:
/// White's, 1: Black's, `stride` elements apart in both entries),
/// `dst[v·stride..][..n] = src[v·stride..][..n] + Σ row(adds[k][v]) − Σ row(subs[k][v])`, where
/// `row(r)` is `weights[r·n..][..n]`. One dispatch and one kernel call for both views, and the
/// rows given by index, so that the caller makes no slices; the arithmetic is [`update`]'s.
///
/// Panics unless `n` is a positive multiple of [`LANES`], `stride ≥ n`, both entries hold
/// `stride + n` elements and every row index is below `weights.len() / n`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn update_pair<const A: usize, const S: usize>(
    backend: Backend,
    dst: &mut [i16],
    src: &[i16],
    stride: usize,
    n: usize,
    weights: &[i16],
    adds: [[usize; 2]; A],
    subs: [[usize; 2]; S],
) {
    assert!(
        n > 0 && n.is_multiple_of(LANES) && stride >= n,
        "kernel length {n}, stride {stride}"
    );
    assert!(
        dst.len() >= stride + n && src.len() >= stride + n,
        "accumulator entries of {} and {} elements",
        dst.len(),
        src.len()
    );
    // Every row index below `weights.len() / n`, checked on the largest without a division.
    let mut last = 0;
    for r in adds {
        last = last.max(r[0]).max(r[1]);
    }
    for r in subs {
        last = last.max(r[0]).max(r[1]);
    }
    assert!(
        last.checked_add(1)
            .and_then(|rows| rows.checked_mul(n))
            .is_some_and(|end| end <= weights.len()),
        "feature row {last} of {}",
        weights.len() / n
    );
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            assert!(avx2_available(), "AVX2 kernel on a CPU without AVX2");
            // SAFETY: AVX2 present; `n` is a multiple of 16, each view's `n` elements at 0 and
            // `stride ≥ n` lie inside both entries, and every row `r < weights.len() / n`
            // spans `weights[r·n..(r+1)·n]` (checked above); `dst` is a unique borrow.
            unsafe { avx2::update_pair(dst, src, stride, n, weights, adds, subs) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            assert!(
                avx512_available(),
                "AVX-512 kernel on a CPU without AVX-512"
            );
            // SAFETY: as for AVX2 above, with AVX-512 F/BW present.
            unsafe { avx512::update_pair(dst, src, stride, n, weights, adds, subs) }
        }
        _ => {
            let row = |r: usize| &weights[r * n..][..n];
            let (white, black) = dst.split_at_mut(stride);
            for (v, d) in [white, black].into_iter().enumerate() {
                scalar::update(
                    &mut d[..n],
                    &src[v * stride..][..n],
                    adds.map(|r| row(r[v])),
                    subs.map(|r| row(r[v])),
                );
            }
        }
    }
}

/// `dst = bias + Σ rows` in wrapping `i16` (an accumulator from scratch): the bias copied,
/// then the rows applied by [`apply_rows`]'s kernels.
///
/// Panics unless all slices have one length, a multiple of [`LANES`].
#[inline]
pub fn refresh(backend: Backend, dst: &mut [i16], bias: &[i16], rows: &[&[i16]]) {
    check_rows(dst.len(), &[bias]);
    dst.copy_from_slice(bias);
    apply_rows(backend, dst, rows, &[]);
}

/// `acc += Σ adds − Σ subs` in wrapping `i16`, `acc` kept in registers across the rows (a
/// per-view cache brought to another board).
///
/// Panics unless all slices have one length, a multiple of [`LANES`].
#[inline]
pub fn apply_rows(backend: Backend, acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
    let n = acc.len();
    check_rows(n, adds);
    check_rows(n, subs);
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            assert!(avx2_available(), "AVX2 kernel on a CPU without AVX2");
            // SAFETY: as in `update`: AVX2 present, all slices of length `n`, a multiple of 16.
            unsafe { avx2::apply_rows(acc, adds, subs) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            assert!(
                avx512_available(),
                "AVX-512 kernel on a CPU without AVX-512"
            );
            // SAFETY: as in `update`: AVX-512 present, all slices of length `n`, a multiple of 16.
            unsafe { avx512::apply_rows(acc, adds, subs) }
        }
        _ => scalar::apply_rows(acc, adds, subs),
    }
}

/// How the output layer sums `Σ clamp(a, 0, QA)² · w` exactly for one network, decided when the
/// network is loaded from its largest output weight over every output bucket (one plan serves
/// whichever bucket a position takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputPlan {
    /// `v · w` fits `i16` (`QA · max|w| ≤ 32767`, true for QA = 255 and the trainer's clipping
    /// to ±127), so the vector path runs: `p = v · w` in `i16`, then `v · p` pairwise into
    /// `i32` lanes. Every `chunk` elements (a multiple of [`LANES`]) the lanes are widened
    /// into `i64`; `chunk · QA² · max|w| ≤ i32::MAX`, so no `i32` sum can overflow. With
    /// QA = 255 and |w| ≤ 128 a chunk is 256 elements.
    Fast {
        /// Elements summed in `i32` before widening.
        chunk: usize,
    },
    /// Any other network: the reference's scalar `i64` arithmetic (always exact, slower).
    Wide,
}

impl OutputPlan {
    /// The plan for accumulator scale `qa` (1..=32767) and these output weights (all buckets'
    /// together).
    pub fn new(qa: i32, out_weights: &[i16]) -> OutputPlan {
        let max_w = out_weights
            .iter()
            .map(|&w| (w as i32).unsigned_abs() as u64)
            .max()
            .unwrap_or(0)
            .max(1);
        let qa = qa.clamp(0, i16::MAX as i32) as u64;
        if qa * max_w > i16::MAX as u64 {
            return OutputPlan::Wide;
        }
        let per_element = qa * qa * max_w;
        let chunk = (i32::MAX as u64 / per_element.max(1)) as usize / LANES * LANES;
        if chunk == 0 {
            OutputPlan::Wide
        } else {
            OutputPlan::Fast { chunk }
        }
    }
}

/// `Σ clamp(stm, 0, qa)² · w[..n] + Σ clamp(nstm, 0, qa)² · w[n..]`, exactly (the sum
/// `Network::output` takes before its divisions), with `n = stm.len()`, `out_weights` one
/// output bucket's `2n` weights and `plan` made by [`OutputPlan::new`] for `qa` and weights
/// that include them.
///
/// Panics unless `stm` and `nstm` have one length `n`, a multiple of [`LANES`], and
/// `out_weights` has `2n` elements.
#[inline(always)]
pub fn output_sum(
    backend: Backend,
    plan: OutputPlan,
    qa: i32,
    stm: &[i16],
    nstm: &[i16],
    out_weights: &[i16],
) -> i64 {
    let n = stm.len();
    assert_eq!(out_weights.len(), 2 * n, "output weights length");
    let (w_stm, w_nstm) = out_weights.split_at(n);
    check_rows(n, &[nstm, w_stm, w_nstm]);
    let chunk = match plan {
        OutputPlan::Wide => {
            return scalar::screlu_dot_wide(stm, w_stm, qa)
                + scalar::screlu_dot_wide(nstm, w_nstm, qa);
        }
        OutputPlan::Fast { chunk } => chunk,
    };
    assert!(
        chunk > 0 && chunk.is_multiple_of(LANES),
        "output chunk {chunk}"
    );
    let qa = qa.clamp(0, i16::MAX as i32) as i16;
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            assert!(avx2_available(), "AVX2 kernel on a CPU without AVX2");
            // SAFETY: AVX2 present; the accumulators and weight halves all have length `n`,
            // a multiple of 16 (checked above); `chunk` is a positive multiple of 16.
            unsafe { avx2::screlu_dot_pair([stm, nstm], [w_stm, w_nstm], qa, chunk) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            assert!(
                avx512_available(),
                "AVX-512 kernel on a CPU without AVX-512"
            );
            // SAFETY: AVX-512 present; the accumulators and weight halves all have length `n`,
            // a multiple of 16 (checked above); `chunk` is a positive multiple of 16.
            unsafe { avx512::screlu_dot_pair([stm, nstm], [w_stm, w_nstm], qa, chunk) }
        }
        _ => {
            scalar::screlu_dot(stm, w_stm, qa, chunk) + scalar::screlu_dot(nstm, w_nstm, qa, chunk)
        }
    }
}

/// The portable kernels, in fixed-width chunks the compiler turns into vector code.
mod scalar {
    use super::LANES;

    #[inline]
    pub fn update<const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        for (k, (d, s)) in dst
            .chunks_exact_mut(LANES)
            .zip(src.chunks_exact(LANES))
            .enumerate()
        {
            let mut v = [0i16; LANES];
            v.copy_from_slice(s);
            let at = k * LANES;
            for r in adds {
                for (x, &y) in v.iter_mut().zip(&r[at..at + LANES]) {
                    *x = x.wrapping_add(y);
                }
            }
            for r in subs {
                for (x, &y) in v.iter_mut().zip(&r[at..at + LANES]) {
                    *x = x.wrapping_sub(y);
                }
            }
            d.copy_from_slice(&v);
        }
    }

    #[inline]
    pub fn apply_rows(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        for r in adds {
            for (x, &y) in acc.iter_mut().zip(r.iter()) {
                *x = x.wrapping_add(y);
            }
        }
        for r in subs {
            for (x, &y) in acc.iter_mut().zip(r.iter()) {
                *x = x.wrapping_sub(y);
            }
        }
    }

    /// Chunked `i32` sums (each exact by the plan's bound), widened to `i64` per chunk. The
    /// inner loop is the shape the compiler turns into `pmaddwd`; not inlined, because once the
    /// caller's `qa ≥ 0` is known the compiler proves `v ≥ 0`, switches to unsigned widening
    /// and loses `pmaddwd` (half the speed on SSE2).
    #[inline(never)]
    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16, chunk: usize) -> i64 {
        let mut total = 0i64;
        for (ac, wc) in acc.chunks(chunk).zip(w.chunks(chunk)) {
            // Wrapping sums are exact whenever the true sum fits `i32`, whatever the order the
            // vectoriser picks; the plan guarantees that it does.
            let mut s = 0i32;
            for (&a, &w) in ac.iter().zip(wc) {
                let v = a.max(0).min(qa);
                let p = v.wrapping_mul(w);
                s = s.wrapping_add(v as i32 * p as i32);
            }
            total += s as i64;
        }
        total
    }

    /// The reference's arithmetic: `v²` in `i32`, times `w` in `i64`.
    #[inline]
    pub fn screlu_dot_wide(acc: &[i16], w: &[i16], qa: i32) -> i64 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let v = (a as i32).clamp(0, qa);
                (v * v) as i64 * w as i64
            })
            .sum()
    }
}

/// The AVX2 kernels. Callers guarantee AVX2 and the slice lengths (see each `# Safety`).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Registers kept live per tile of a from-scratch accumulation (8 × 16 = 128 elements).
    const TILE: usize = 8;

    /// # Safety
    /// The CPU has AVX2; `src` and every row have `dst.len()` elements, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update<const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = dst.len();
        let d = dst.as_mut_ptr();
        let s = src.as_ptr();
        let mut i = 0;
        while i < n {
            // SAFETY: `i + 16 <= n` (n is a multiple of 16) and every slice has `n` elements,
            // so each 32-byte unaligned load and the store stay inside their slices; `dst` is
            // a unique borrow, so the store aliases none of the reads.
            unsafe {
                let mut v = _mm256_loadu_si256(s.add(i).cast());
                for r in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i).cast()));
                }
                for r in subs {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i).cast()));
                }
                _mm256_storeu_si256(d.add(i).cast(), v);
            }
            i += 16;
        }
    }

    /// Both views of a step (see `super::update_pair`), two registers at a time.
    ///
    /// # Safety
    /// The CPU has AVX2; `n` is a positive multiple of 16, `stride ≥ n`, `dst` and `src` hold
    /// `stride + n` elements, and every row index `r` has `(r + 1)·n ≤ weights.len()`.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_pair<const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        stride: usize,
        n: usize,
        weights: &[i16],
        adds: [[usize; 2]; A],
        subs: [[usize; 2]; S],
    ) {
        // The shipped hidden sizes, with the loops unrolled (the same arithmetic).
        match n {
            // SAFETY: the caller's guarantees, with `n` = N.
            128 => {
                return unsafe {
                    update_pair_n::<128, A, S>(dst, src, stride, weights, adds, subs)
                };
            }
            256 => {
                return unsafe {
                    update_pair_n::<256, A, S>(dst, src, stride, weights, adds, subs)
                };
            }
            _ => {}
        }
        let w = weights.as_ptr();
        for v in 0..2 {
            // SAFETY (all pointer arithmetic and accesses below): by the caller's guarantees,
            // view `v`'s `n` elements at `v·stride` lie inside both entries, each row's `n`
            // elements at `r·n` inside `weights`, and `i + 16 ≤ n` (or `i + 32 ≤ n`) at every
            // access; `dst` is a unique borrow, so the stores alias none of the reads.
            unsafe {
                let d = dst.as_mut_ptr().add(v * stride);
                let s = src.as_ptr().add(v * stride);
                let a: [*const i16; A] = core::array::from_fn(|k| w.add(adds[k][v] * n));
                let b: [*const i16; S] = core::array::from_fn(|k| w.add(subs[k][v] * n));
                let mut i = 0;
                while i + 32 <= n {
                    let mut x0 = _mm256_loadu_si256(s.add(i).cast());
                    let mut x1 = _mm256_loadu_si256(s.add(i + 16).cast());
                    for r in a {
                        x0 = _mm256_add_epi16(x0, _mm256_loadu_si256(r.add(i).cast()));
                        x1 = _mm256_add_epi16(x1, _mm256_loadu_si256(r.add(i + 16).cast()));
                    }
                    for r in b {
                        x0 = _mm256_sub_epi16(x0, _mm256_loadu_si256(r.add(i).cast()));
                        x1 = _mm256_sub_epi16(x1, _mm256_loadu_si256(r.add(i + 16).cast()));
                    }
                    _mm256_storeu_si256(d.add(i).cast(), x0);
                    _mm256_storeu_si256(d.add(i + 16).cast(), x1);
                    i += 32;
                }
                if i < n {
                    let mut x = _mm256_loadu_si256(s.add(i).cast());
                    for r in a {
                        x = _mm256_add_epi16(x, _mm256_loadu_si256(r.add(i).cast()));
                    }
                    for r in b {
                        x = _mm256_sub_epi16(x, _mm256_loadu_si256(r.add(i).cast()));
                    }
                    _mm256_storeu_si256(d.add(i).cast(), x);
                }
            }
        }
    }

    /// [`update_pair`] for a hidden size N known when compiling: the same loads, additions
    /// and stores, unrolled.
    ///
    /// # Safety
    /// As for [`update_pair`], with `n` = N (a positive multiple of 16).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn update_pair_n<const N: usize, const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        stride: usize,
        weights: &[i16],
        adds: [[usize; 2]; A],
        subs: [[usize; 2]; S],
    ) {
        let w = weights.as_ptr();
        for v in 0..2 {
            // SAFETY: as in `update_pair`: view `v`'s N elements at `v·stride` lie inside both
            // entries, each row's N elements at `r·N` inside `weights`, `i + 16 ≤ N` at every
            // access; `dst` is a unique borrow, so the stores alias none of the reads.
            unsafe {
                let d = dst.as_mut_ptr().add(v * stride);
                let s = src.as_ptr().add(v * stride);
                let a: [*const i16; A] = core::array::from_fn(|k| w.add(adds[k][v] * N));
                let b: [*const i16; S] = core::array::from_fn(|k| w.add(subs[k][v] * N));
                let mut i = 0;
                while i < N {
                    let mut x = _mm256_loadu_si256(s.add(i).cast());
                    for r in a {
                        x = _mm256_add_epi16(x, _mm256_loadu_si256(r.add(i).cast()));
                    }
                    for r in b {
                        x = _mm256_sub_epi16(x, _mm256_loadu_si256(r.add(i).cast()));
                    }
                    _mm256_storeu_si256(d.add(i).cast(), x);
                    i += 16;
                }
            }
        }
    }

    /// [`screlu_dot_pair`] for a hidden size N (a multiple of 32) known when compiling, when
    /// the whole sum of both halves is exact in `i32` (`chunk ≥ 2N`): the same products, in
    /// `i32` lanes across both halves, widened once at the end, unrolled.
    ///
    /// # Safety
    /// The CPU has AVX2; both `acc` and both `w` have N elements. (Exactness, not safety,
    /// needs `2N · QA² · max|w| ≤ i32::MAX`.)
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn screlu_dot_pair_n<const N: usize>(acc: [&[i16]; 2], w: [&[i16]; 2], qa: i16) -> i64 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut s0 = _mm256_setzero_si256();
        let mut s1 = _mm256_setzero_si256();
        for h in 0..2 {
            let a = acc[h].as_ptr();
            let wp = w[h].as_ptr();
            let mut i = 0;
            while i < N {
                // SAFETY: `i + 32 <= N`: both 16-element loads from each slice stay inside.
                unsafe {
                    let x0 = _mm256_loadu_si256(a.add(i).cast());
                    let x1 = _mm256_loadu_si256(a.add(i + 16).cast());
                    let w0 = _mm256_loadu_si256(wp.add(i).cast());
                    let w1 = _mm256_loadu_si256(wp.add(i + 16).cast());
                    let v0 = _mm256_min_epi16(_mm256_max_epi16(x0, zero), top);
                    let v1 = _mm256_min_epi16(_mm256_max_epi16(x1, zero), top);
                    s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(v0, _mm256_mullo_epi16(v0, w0)));
                    s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(v1, _mm256_mullo_epi16(v1, w1)));
                }
                i += 32;
            }
        }
        // Every partial sum of the 2N terms fits `i32` (the caller's bound): no lane and no
        // sum of lanes overflows.
        let s = _mm256_add_epi32(s0, s1);
        let lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(s));
        let hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(s));
        let total = _mm256_add_epi64(lo, hi);
        let pair = _mm_add_epi64(
            _mm256_castsi256_si128(total),
            _mm256_extracti128_si256::<1>(total),
        );
        _mm_cvtsi128_si64(pair) + _mm_extract_epi64::<1>(pair)
    }

    /// # Safety
    /// The CPU has AVX2; every row has `acc.len()` elements, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply_rows(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = acc.len();
        let d = acc.as_mut_ptr();
        let mut i = 0;
        // Tiles of 8 registers: each row is read once per tile, the tile loaded and stored once.
        while i + TILE * 16 <= n {
            // SAFETY: `i + 128 <= n`, so every load at `i + 16k` (k < 8) and every store stay
            // inside slices of `n` elements; `acc` is a unique borrow.
            unsafe {
                let mut v = [_mm256_setzero_si256(); TILE];
                for (k, x) in v.iter_mut().enumerate() {
                    *x = _mm256_loadu_si256(d.add(i + 16 * k).cast());
                }
                for r in adds {
                    let p = r.as_ptr().add(i);
                    for (k, x) in v.iter_mut().enumerate() {
                        *x = _mm256_add_epi16(*x, _mm256_loadu_si256(p.add(16 * k).cast()));
                    }
                }
                for r in subs {
                    let p = r.as_ptr().add(i);
                    for (k, x) in v.iter_mut().enumerate() {
                        *x = _mm256_sub_epi16(*x, _mm256_loadu_si256(p.add(16 * k).cast()));
                    }
                }
                for (k, x) in v.iter().enumerate() {
                    _mm256_storeu_si256(d.add(i + 16 * k).cast(), *x);
                }
            }
            i += TILE * 16;
        }
        while i < n {
            // SAFETY: `i + 16 <= n` (n is a multiple of 16); as above.
            unsafe {
                let mut v = _mm256_loadu_si256(d.add(i).cast());
                for r in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i).cast()));
                }
                for r in subs {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i).cast()));
                }
                _mm256_storeu_si256(d.add(i).cast(), v);
            }
            i += 16;
        }
    }

    /// `Σ clamp(acc[h], 0, qa)² · w[h]` over both halves `h` (side to move, other side): `p =
    /// v · w` in `i16`, `madd(v, p)` into `i32` lanes, widened into `i64` lanes every `chunk`
    /// elements of a half; one horizontal sum at the end.
    ///
    /// # Safety
    /// The CPU has AVX2; both `acc` and both `w` have `acc[0].len()` elements, a multiple of
    /// 16; `chunk` is a positive multiple of 16. (Exactness, not safety, needs the
    /// `OutputPlan::Fast` bounds.)
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot_pair(acc: [&[i16]; 2], w: [&[i16]; 2], qa: i16, chunk: usize) -> i64 {
        let n = acc[0].len();
        // The shipped hidden sizes, unrolled, when one `i32` sum holds both halves exactly.
        if chunk >= 2 * n {
            match n {
                // SAFETY: the caller's guarantees, with `n` = N.
                128 => return unsafe { screlu_dot_pair_n::<128>(acc, w, qa) },
                256 => return unsafe { screlu_dot_pair_n::<256>(acc, w, qa) },
                _ => {}
            }
        }
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut total = _mm256_setzero_si256();
        for h in 0..2 {
            let a = acc[h].as_ptr();
            let wp = w[h].as_ptr();
            let mut start = 0;
            while start < n {
                let end = (start + chunk).min(n);
                let mut s0 = _mm256_setzero_si256();
                let mut s1 = _mm256_setzero_si256();
                let mut i = start;
                while i + 32 <= end {
                    // SAFETY: `i + 32 <= end <= n`: both 16-element loads from each slice stay
                    // inside `n` elements.
                    unsafe {
                        let x0 = _mm256_loadu_si256(a.add(i).cast());
                        let x1 = _mm256_loadu_si256(a.add(i + 16).cast());
                        let w0 = _mm256_loadu_si256(wp.add(i).cast());
                        let w1 = _mm256_loadu_si256(wp.add(i + 16).cast());
                        let v0 = _mm256_min_epi16(_mm256_max_epi16(x0, zero), top);
                        let v1 = _mm256_min_epi16(_mm256_max_epi16(x1, zero), top);
                        let p0 = _mm256_madd_epi16(v0, _mm256_mullo_epi16(v0, w0));
                        let p1 = _mm256_madd_epi16(v1, _mm256_mullo_epi16(v1, w1));
                        s0 = _mm256_add_epi32(s0, p0);
                        s1 = _mm256_add_epi32(s1, p1);
                    }
                    i += 32;
                }
                if i < end {
                    // SAFETY: `end - i` is 16 (a multiple of 16 below 32), so the loads stay
                    // inside.
                    unsafe {
                        let x0 = _mm256_loadu_si256(a.add(i).cast());
                        let w0 = _mm256_loadu_si256(wp.add(i).cast());
                        let v0 = _mm256_min_epi16(_mm256_max_epi16(x0, zero), top);
                        let p0 = _mm256_madd_epi16(v0, _mm256_mullo_epi16(v0, w0));
                        s0 = _mm256_add_epi32(s0, p0);
                    }
                }
                // Exact by the plan: the chunk's terms have |Σ| ≤ i32::MAX, so neither the lane
                // sums nor their pairwise sum overflow.
                let s = _mm256_add_epi32(s0, s1);
                let lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(s));
                let hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(s));
                total = _mm256_add_epi64(total, _mm256_add_epi64(lo, hi));
                start = end;
            }
        }
        let pair = _mm_add_epi64(
            _mm256_castsi256_si128(total),
            _mm256_extracti128_si256::<1>(total),
        );
        _mm_cvtsi128_si64(pair) + _mm_extract_epi64::<1>(pair)
    }
}

/// The AVX-512 kernels: 32 elements a register; a length that is an odd multiple of 16 ends
/// with one masked load (and store) of 16. Callers guarantee AVX-512 F/BW and the slice lengths.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    /// Registers kept live per tile of a from-scratch accumulation (4 × 32 = 128 elements).
    const TILE: usize = 4;

    /// The lanes of a register `n − i` elements hold from `i` on: all 32, or the low 16 at the
    /// end of a length that is an odd multiple of 16.
    #[inline(always)]
    fn mask(n: usize, i: usize) -> __mmask32 {
        if n - i >= 32 { u32::MAX } else { 0xFFFF }
    }

    /// # Safety
    /// The CPU has AVX-512 F/BW; `src` and every row have `dst.len()` elements, a multiple of 16.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update<const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = dst.len();
        let d = dst.as_mut_ptr();
        let s = src.as_ptr();
        let mut i = 0;
        while i + 32 <= n {
            // SAFETY: `i + 32 <= n` and every slice has `n` elements, so each 64-byte
            // unaligned load and the store stay inside their slices; `dst` is a unique borrow,
            // so the store aliases none of the reads.
            unsafe {
                let mut v = _mm512_loadu_si512(s.add(i).cast());
                for r in adds {
                    v = _mm512_add_epi16(v, _mm512_loadu_si512(r.as_ptr().add(i).cast()));
                }
                for r in subs {
                    v = _mm512_sub_epi16(v, _mm512_loadu_si512(r.as_ptr().add(i).cast()));
                }
                _mm512_storeu_si512(d.add(i).cast(), v);
            }
            i += 32;
        }
        if i < n {
            let k = mask(n, i);
            // SAFETY: the mask covers the last 16 elements (n − i = 16), inside every slice;
            // masked-off lanes are neither read nor written.
            unsafe {
                let mut v = _mm512_maskz_loadu_epi16(k, s.add(i).cast());
                for r in adds {
                    v = _mm512_add_epi16(v, _mm512_maskz_loadu_epi16(k, r.as_ptr().add(i).cast()));
                }
                for r in subs {
                    v = _mm512_sub_epi16(v, _mm512_maskz_loadu_epi16(k, r.as_ptr().add(i).cast()));
                }
                _mm512_mask_storeu_epi16(d.add(i).cast(), k, v);
            }
        }
    }

    /// Both views of a step (see `super::update_pair`).
    ///
    /// # Safety
    /// The CPU has AVX-512 F/BW; `n` is a positive multiple of 16, `stride ≥ n`, `dst` and
    /// `src` hold `stride + n` elements, and every row index `r` has `(r + 1)·n ≤
    /// weights.len()`.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update_pair<const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        stride: usize,
        n: usize,
        weights: &[i16],
        adds: [[usize; 2]; A],
        subs: [[usize; 2]; S],
    ) {
        // The shipped hidden sizes, with the loops unrolled (the same arithmetic).
        match n {
            // SAFETY: the caller's guarantees, with `n` = N.
            128 => {
                return unsafe {
                    update_pair_n::<128, A, S>(dst, src, stride, weights, adds, subs)
                };
            }
            256 => {
                return unsafe {
                    update_pair_n::<256, A, S>(dst, src, stride, weights, adds, subs)
                };
            }
            _ => {}
        }
        let w = weights.as_ptr();
        for v in 0..2 {
            // SAFETY (all pointer arithmetic and accesses below): by the caller's guarantees,
            // view `v`'s `n` elements at `v·stride` lie inside both entries and each row's `n`
            // elements at `r·n` inside `weights`; `i + 32 ≤ n` at the full loads, and the mask
            // keeps the last 16 inside those `n` elements; `dst` is a unique borrow, so the
            // stores alias none of the reads.
            unsafe {
                let d = dst.as_mut_ptr().add(v * stride);
                let s = src.as_ptr().add(v * stride);
                let a: [*const i16; A] = core::array::from_fn(|k| w.add(adds[k][v] * n));
                let b: [*const i16; S] = core::array::from_fn(|k| w.add(subs[k][v] * n));
                let mut i = 0;
                while i + 32 <= n {
                    let mut x = _mm512_loadu_si512(s.add(i).cast());
                    for r in a {
                        x = _mm512_add_epi16(x, _mm512_loadu_si512(r.add(i).cast()));
                    }
                    for r in b {
                        x = _mm512_sub_epi16(x, _mm512_loadu_si512(r.add(i).cast()));
                    }
                    _mm512_storeu_si512(d.add(i).cast(), x);
                    i += 32;
                }
                if i < n {
                    let m = mask(n, i);
                    let mut x = _mm512_maskz_loadu_epi16(m, s.add(i).cast());
                    for r in a {
                        x = _mm512_add_epi16(x, _mm512_maskz_loadu_epi16(m, r.add(i).cast()));
                    }
                    for r in b {
                        x = _mm512_sub_epi16(x, _mm512_maskz_loadu_epi16(m, r.add(i).cast()));
                    }
                    _mm512_mask_storeu_epi16(d.add(i).cast(), m, x);
                }
            }
        }
    }

    /// [`update_pair`] for a hidden size N (a multiple of 32) known when compiling: the same
    /// loads, additions and stores, unrolled.
    ///
    /// # Safety
    /// As for [`update_pair`], with `n` = N.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn update_pair_n<const N: usize, const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        stride: usize,
        weights: &[i16],
        adds: [[usize; 2]; A],
        subs: [[usize; 2]; S],
    ) {
        let w = weights.as_ptr();
        for v in 0..2 {
            // SAFETY: as in `update_pair`: view `v`'s N elements at `v·stride` lie inside both
            // entries, each row's N elements at `r·N` inside `weights`, `i + 32 ≤ N` at every
            // access; `dst` is a unique borrow, so the stores alias none of the reads.
            unsafe {
                let d = dst.as_mut_ptr().add(v * stride);
                let s = src.as_ptr().add(v * stride);
                let a: [*const i16; A] = core::array::from_fn(|k| w.add(adds[k][v] * N));
                let b: [*const i16; S] = core::array::from_fn(|k| w.add(subs[k][v] * N));
                let mut i = 0;
                while i < N {
                    let mut x = _mm512_loadu_si512(s.add(i).cast());
                    for r in a {
                        x = _mm512_add_epi16(x, _mm512_loadu_si512(r.add(i).cast()));
                    }
                    for r in b {
                        x = _mm512_sub_epi16(x, _mm512_loadu_si512(r.add(i).cast()));
                    }
                    _mm512_storeu_si512(d.add(i).cast(), x);
                    i += 32;
                }
            }
        }
    }

    /// [`screlu_dot_pair`] for a hidden size N (a multiple of 32) known when compiling, when
    /// the whole sum of both halves is exact in `i32` (`chunk ≥ 2N`): the same products in
    /// `i32` lanes across both halves, widened once at the end, unrolled.
    ///
    /// # Safety
    /// The CPU has AVX-512 F/BW; both `acc` and both `w` have N elements. (Exactness, not
    /// safety, needs `2N · QA² · max|w| ≤ i32::MAX`.)
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn screlu_dot_pair_n<const N: usize>(acc: [&[i16]; 2], w: [&[i16]; 2], qa: i16) -> i64 {
        let zero = _mm512_setzero_si512();
        let top = _mm512_set1_epi16(qa);
        let mut s = _mm512_setzero_si512();
        for h in 0..2 {
            let a = acc[h].as_ptr();
            let wp = w[h].as_ptr();
            let mut i = 0;
            while i < N {
                // SAFETY: `i + 32 <= N`: each 32-element load stays inside its slice.
                unsafe {
                    let x = _mm512_loadu_si512(a.add(i).cast());
                    let wv = _mm512_loadu_si512(wp.add(i).cast());
                    let v = _mm512_min_epi16(_mm512_max_epi16(x, zero), top);
                    s = _mm512_add_epi32(s, _mm512_madd_epi16(v, _mm512_mullo_epi16(v, wv)));
                }
                i += 32;
            }
        }
        // Every partial sum of the 2N terms fits `i32` (the caller's bound): no lane and no
        // sum of lanes overflows.
        let lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(s));
        let hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(s));
        _mm512_reduce_add_epi64(_mm512_add_epi64(lo, hi))
    }

    /// # Safety
    /// The CPU has AVX-512 F/BW; every row has `acc.len()` elements, a multiple of 16.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn apply_rows(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = acc.len();
        let d = acc.as_mut_ptr();
        let mut i = 0;
        // Tiles of 4 registers: each row is read once per tile, the tile loaded and stored once.
        while i + TILE * 32 <= n {
            // SAFETY: `i + 128 <= n`, so every load at `i + 32k` (k < 4) and every store stay
            // inside slices of `n` elements; `acc` is a unique borrow.
            unsafe {
                let mut v = [_mm512_setzero_si512(); TILE];
                for (k, x) in v.iter_mut().enumerate() {
                    *x = _mm512_loadu_si512(d.add(i + 32 * k).cast());
                }
                for r in adds {
                    let p = r.as_ptr().add(i);
                    for (k, x) in v.iter_mut().enumerate() {
                        *x = _mm512_add_epi16(*x, _mm512_loadu_si512(p.add(32 * k).cast()));
                    }
                }
                for r in subs {
                    let p = r.as_ptr().add(i);
                    for (k, x) in v.iter_mut().enumerate() {
                        *x = _mm512_sub_epi16(*x, _mm512_loadu_si512(p.add(32 * k).cast()));
                    }
                }
                for (k, x) in v.iter().enumerate() {
                    _mm512_storeu_si512(d.add(i + 32 * k).cast(), *x);
                }
            }
            i += TILE * 32;
        }
        while i < n {
            let k = mask(n, i);
            // SAFETY: as in `update`: the mask stays inside the `n` elements of every slice.
            unsafe {
                let mut v = _mm512_maskz_loadu_epi16(k, d.add(i).cast());
                for r in adds {
                    v = _mm512_add_epi16(v, _mm512_maskz_loadu_epi16(k, r.as_ptr().add(i).cast()));
                }
                for r in subs {
                    v = _mm512_sub_epi16(v, _mm512_maskz_loadu_epi16(k, r.as_ptr().add(i).cast()));
                }
                _mm512_mask_storeu_epi16(d.add(i).cast(), k, v);
            }
            i += 32;
        }
    }

    /// `Σ clamp(acc[h], 0, qa)² · w[h]` over both halves `h`: `p = v · w` in `i16`, `madd(v,
    /// p)` into `i32` lanes, the lanes widened into `i64` lanes every `chunk` elements of a half
    /// (masked-off lanes load as 0 and add 0); one horizontal sum at the end.
    ///
    /// # Safety
    /// The CPU has AVX-512 F/BW; both `acc` and both `w` have `acc[0].len()` elements, a
    /// multiple of 16; `chunk` is a positive multiple of 16. (Exactness, not safety, needs the
    /// `OutputPlan::Fast` bounds.)
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn screlu_dot_pair(acc: [&[i16]; 2], w: [&[i16]; 2], qa: i16, chunk: usize) -> i64 {
        let n = acc[0].len();
        // The shipped hidden sizes, unrolled, when one `i32` sum holds both halves exactly.
        if chunk >= 2 * n {
            match n {
                // SAFETY: the caller's guarantees, with `n` = N.
                128 => return unsafe { screlu_dot_pair_n::<128>(acc, w, qa) },
                256 => return unsafe { screlu_dot_pair_n::<256>(acc, w, qa) },
                _ => {}
            }
        }
        let zero = _mm512_setzero_si512();
        let top = _mm512_set1_epi16(qa);
        let mut total = _mm512_setzero_si512();
        for h in 0..2 {
            let a = acc[h].as_ptr();
            let wp = w[h].as_ptr();
            let mut start = 0;
            while start < n {
                let end = (start + chunk).min(n);
                let mut s = _mm512_setzero_si512();
                let mut i = start;
                while i < end {
                    let k = mask(end, i);
                    // SAFETY: the mask keeps both loads inside the chunk, and `end <= n`.
                    unsafe {
                        let x = _mm512_maskz_loadu_epi16(k, a.add(i).cast());
                        let wv = _mm512_maskz_loadu_epi16(k, wp.add(i).cast());
                        let v = _mm512_min_epi16(_mm512_max_epi16(x, zero), top);
                        s = _mm512_add_epi32(s, _mm512_madd_epi16(v, _mm512_mullo_epi16(v, wv)));
                    }
                    i += 32;
                }
                // Exact by the plan: every partial sum of the chunk's terms fits `i32`, so the
                // lanes do not overflow; they are widened before the next chunk adds to them.
                let lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(s));
                let hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(s));
                total = _mm512_add_epi64(total, _mm512_add_epi64(lo, hi));
                start = end;
            }
        }
        _mm512_reduce_add_epi64(total)
    }
}
