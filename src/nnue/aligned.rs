//! [`AlignedVec`]: an `i16` vector whose first element sits on a cache-line boundary.
//!
//! The vector kernels load the network's feature rows and the accumulators in 32- and 64-byte
//! registers; a row that starts off a 64-byte boundary makes some of those loads span two
//! cache lines, each then paying for two. A `Vec<i16>` of the feature weights (hundreds of
//! kilobytes, so a fresh `mmap` from the allocator) starts 16 bytes past a page boundary, which
//! is what every row of a 128-neuron network (256 bytes) then does. Alignment is a speed matter
//! only: the kernels load unaligned, so an allocator that cannot align (see
//! [`AlignedVec::is_aligned`]) costs speed, not correctness.

use std::ops::{Deref, DerefMut};

/// Alignment of the first element, in bytes (a cache line; AVX-512 registers are as wide).
pub const ALIGN_BYTES: usize = 64;
/// `i16` elements per alignment unit.
pub const ALIGN_I16: usize = ALIGN_BYTES / 2;

/// An `i16` buffer of fixed length whose first element sits on a 64-byte boundary (when the
/// allocator allows). It reads and writes as a slice; it is built zeroed, from a slice or from
/// an iterator, and a clone is aligned again (a plain `Vec` clone may land elsewhere).
pub struct AlignedVec {
    /// `len + ALIGN_I16` elements: room to start at the first aligned one.
    raw: Vec<i16>,
    start: usize,
    len: usize,
}

impl AlignedVec {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> AlignedVec {
        let raw = vec![0i16; len + ALIGN_I16];
        let offset = raw.as_ptr().align_offset(ALIGN_BYTES);
        // `align_offset` may give up (usize::MAX); then the buffer is just unaligned.
        let start = if offset < ALIGN_I16 { offset } else { 0 };
        AlignedVec { raw, start, len }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[i16]) -> AlignedVec {
        let mut v = AlignedVec::zeroed(values.len());
        v.copy_from_slice(values);
        v
    }

    /// Whether the first element sits on a 64-byte boundary.
    pub fn is_aligned(&self) -> bool {
        (self.as_ptr() as usize).is_multiple_of(ALIGN_BYTES)
    }
}

impl Deref for AlignedVec {
    type Target = [i16];

    #[inline]
    fn deref(&self) -> &[i16] {
        // SAFETY: every `AlignedVec` is made by `zeroed`, whose `raw` holds `len + ALIGN_I16`
        // elements and whose `start` is below `ALIGN_I16`, and no field changes afterwards: the
        // range lies inside `raw`. (Unchecked: the evaluation reads its buffers through here
        // several times a position.)
        unsafe { self.raw.get_unchecked(self.start..self.start + self.len) }
    }
}

impl DerefMut for AlignedVec {
    #[inline]
    fn deref_mut(&mut self) -> &mut [i16] {
        // SAFETY: as in `deref`: the range lies inside `raw`.
        unsafe {
            self.raw
                .get_unchecked_mut(self.start..self.start + self.len)
        }
    }
}

impl Clone for AlignedVec {
    fn clone(&self) -> AlignedVec {
        AlignedVec::from_slice(self)
    }
}

impl FromIterator<i16> for AlignedVec {
    fn from_iter<I: IntoIterator<Item = i16>>(iter: I) -> AlignedVec {
        let values: Vec<i16> = iter.into_iter().collect();
        AlignedVec::from_slice(&values)
    }
}

impl Extend<i16> for AlignedVec {
    /// Appends (a new buffer, aligned again: the length is fixed otherwise).
    fn extend<I: IntoIterator<Item = i16>>(&mut self, iter: I) {
        let values: Vec<i16> = self.iter().copied().chain(iter).collect();
        *self = AlignedVec::from_slice(&values);
    }
}

impl Default for AlignedVec {
    /// Empty.
    fn default() -> AlignedVec {
        AlignedVec::zeroed(0)
    }
}

impl PartialEq for AlignedVec {
    fn eq(&self, other: &AlignedVec) -> bool {
        **self == **other
    }
}

impl Eq for AlignedVec {}

impl std::fmt::Debug for AlignedVec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_however_built() {
        for len in [0, 16, 48, 1000, 4096, 200_000] {
            let z = AlignedVec::zeroed(len);
            assert_eq!(z.len(), len);
            assert!(z.iter().all(|&x| x == 0));
            assert!(z.is_aligned());
            let values: Vec<i16> = (0..len).map(|i| (i * 7) as i16).collect();
            let v: AlignedVec = values.iter().copied().collect();
            assert_eq!(&*v, &values[..]);
            assert!(v.is_aligned());
            let c = v.clone();
            assert!(c.is_aligned());
            assert_eq!(c, v);
            let mut e = v.clone();
            e.extend([1, 2, 3]);
            assert_eq!(e.len(), len + 3);
            assert_eq!(&e[..len], &values[..]);
            assert_eq!(&e[len..], &[1, 2, 3]);
            assert!(e.is_aligned());
        }
    }
}
