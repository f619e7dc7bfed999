//! The givens as per-band digit masks: for each band (three rows, 27 cells) and
//! digit, a bit per cell holding it. The conflict check reads them, and so does
//! the bitboard engine's intake (`solver::bitboard`); the vector forms are here
//! once, tested against the per-cell definition.
//! Knows nothing of what the masks are for beyond their layout.

use super::CELLS;

/// All 27 cells of a band (three rows), as the bits of a band mask.
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// The digits' cells per band, `[band][digit]` (digit 1-9 at index digit - 1): bit
/// `i` for cell `27 * band + i`.
pub(crate) fn band_masks(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2 (checked just above; std caches the answer).
            return unsafe { band_masks_avx2(cells) };
        }
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86_64 CPU has it.
        unsafe { band_masks_sse2(cells) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    band_masks_per_cell(cells)
}

/// `band_masks` cell by cell: the definition the vector forms are tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn band_masks_per_cell(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    let mut masks = [[0u32; 9]; 3];
    for (cell, &value) in cells.iter().enumerate() {
        if value != 0 {
            masks[cell / 27][usize::from(value - 1)] |= 1 << (cell % 27);
        }
    }
    masks
}

/// `band_masks` with AVX2: one 32-byte chunk per band, one compare and one
/// move-mask per digit. The first two bands' chunks are their 27 cells and 5
/// beyond (masked off); the last band's ends with the grid, 5 cells before it
/// (shifted off).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn band_masks_avx2(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
    };
    let chunk = |at: usize| {
        let bytes = &cells[at..at + 32];
        // SAFETY: `bytes` is 32 readable bytes; the load needs no alignment.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>()) }
    };
    // (chunk start, right shift) per band.
    let starts = [(0, 0), (27, 0), (CELLS - 32, 32 - 27)];
    std::array::from_fn(|band| {
        let (at, shift) = starts[band];
        let chunk = chunk(at);
        std::array::from_fn(|digit| {
            let wanted = _mm256_set1_epi8(digit as i8 + 1);
            let hits = _mm256_movemask_epi8(_mm256_cmpeq_epi8(chunk, wanted)) as u32;
            (hits >> shift) & BAND
        })
    })
}

/// `band_masks` sixteen cells at a time: per band, two sixteen-byte chunks (the
/// band's 27 cells and 5 beyond, masked off), one compare with a digit and one
/// move-mask per chunk, instead of a read-modify-write per cell.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn band_masks_sse2(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8,
    };
    let mut padded = [0u8; 96];
    padded[..CELLS].copy_from_slice(cells);
    let chunk = |at: usize| {
        let half = |at: usize| {
            let bytes: [u8; 8] = std::array::from_fn(|i| padded[at + i]);
            i64::from_le_bytes(bytes)
        };
        _mm_set_epi64x(half(at + 8), half(at))
    };
    std::array::from_fn(|band| {
        let (low, high): (__m128i, __m128i) = (chunk(27 * band), chunk(27 * band + 16));
        std::array::from_fn(|digit| {
            let wanted = _mm_set1_epi8(digit as i8 + 1);
            let low = _mm_movemask_epi8(_mm_cmpeq_epi8(low, wanted)) as u32;
            let high = _mm_movemask_epi8(_mm_cmpeq_epi8(high, wanted)) as u32;
            (low | high << 16) & BAND
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form of `band_masks` this CPU runs agrees with the per-cell definition
    /// on grids of random digits and blanks.
    #[test]
    fn band_masks_forms_agree() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2_000 {
            let cells: [u8; CELLS] = std::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 10) as u8
            });
            let expected = band_masks_per_cell(&cells);
            assert_eq!(band_masks(&cells), expected, "{cells:?}");
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: SSE2 is in the x86-64 baseline.
                assert_eq!(unsafe { band_masks_sse2(&cells) }, expected, "{cells:?}");
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: checked just above.
                    assert_eq!(unsafe { band_masks_avx2(&cells) }, expected, "{cells:?}");
                }
            }
        }
    }

    #[test]
    fn band_masks_mark_each_given() {
        let mut cells = [0u8; CELLS];
        cells[0] = 1;
        cells[80] = 9;
        cells[63] = 9;
        cells[27] = 4;
        cells[53] = 4;
        let masks = band_masks(&cells);
        let expected = |band: usize, digit: usize| match (band, digit) {
            (0, 0) => 1,
            (1, 3) => 1 | 1 << 26,
            (2, 8) => 1 << (80 - 54) | 1 << (63 - 54),
            _ => 0,
        };
        for (band, digits) in masks.iter().enumerate() {
            for (digit, &mask) in digits.iter().enumerate() {
                assert_eq!(
                    mask,
                    expected(band, digit),
                    "band {band} digit {}",
                    digit + 1
                );
            }
        }
    }
}
