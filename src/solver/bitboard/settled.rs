//! Which boards of a node an update would change, found without updating them:
//! the root marks only those dirty (after the givens' intake most boards are
//! settled). Scalar, and for AVX2 eight digits of a band in the lanes of a vector.
//! Knows nothing of the search or the recorder: it only reads a state.

use super::claiming::row_singles;
use super::columns_of;
use super::state::State;
use super::tables::{TABLES, triads_of};

/// The boards of `state` whose update would change anything: narrow the board
/// (the band rule), clear a column from the digit's other bands (pointing), or
/// solve a cell or clear a placed one (or fail). The others are settled: their
/// update would leave the state as it is, so they need none until they change.
/// At the root, after the givens' intake, most boards are (nine in ten on
/// `serg_benchmark`): this finds them with no store and no branch, at a
/// fraction of an update's cost.
#[inline(always)]
pub(super) fn unsettled(state: &State) -> u32 {
    (0..27).fold(0, |dirty, board| {
        dirty | u32::from(acts(state, board)) << board
    })
}

/// Whether updating `board` would change `state` or fail (see `unsettled`).
#[inline(always)]
fn acts(state: &State, board: usize) -> bool {
    let band = board / 9;
    let before = state.candidates[board];
    let after = before & TABLES.by_box.kept_cells[triads_of(before)];
    let locked = TABLES.lone_columns[columns_of(after) as usize];
    // The digit's boards in the other two bands.
    let (one, two) = ((board + 9) % 27, (board + 18) % 27);
    let elsewhere = (state.candidates[one] | state.candidates[two]) & locked;
    let placed = row_singles(after) & (state.unsolved[band] | state.pending[band]);
    (after ^ before) | elsewhere | placed != 0 || after == 0
}

#[cfg(target_arch = "x86_64")]
pub(super) use self::lanes::unsettled_avx2;

/// `unsettled` with AVX2. Each function here is compiled with AVX2 and called
/// only from code compiled with it too.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use super::super::OTHER_BANDS;
    use super::{State, TABLES, acts};
    use crate::board::BAND;
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps,
        _mm256_cmpeq_epi32, _mm256_i32gather_epi32, _mm256_loadu_si256, _mm256_movemask_ps,
        _mm256_or_si256, _mm256_set1_epi32, _mm256_setzero_si256, _mm256_slli_epi32,
        _mm256_srli_epi32, _mm256_sub_epi32, _mm256_xor_si256,
    };

    /// `unsettled` per band: digits 1-8 in the eight lanes of a vector (the band
    /// rule's table read with one gather), digit 9 as `acts` does it.
    #[target_feature(enable = "avx2")]
    pub(in super::super) fn unsettled_avx2(state: &State) -> u32 {
        let mut dirty = 0;
        for (band, [first, second]) in OTHER_BANDS.into_iter().enumerate() {
            let before = eight(state, 9 * band);
            let after = and(before, kept_cells(before));
            let elsewhere = and(
                or(eight(state, 9 * first), eight(state, 9 * second)),
                lone_columns(after),
            );
            let open = state.unsolved[band] | state.pending[band];
            let placed = and(row_singles(after), splat(open));
            let changes = or(_mm256_xor_si256(after, before), or(elsewhere, placed));
            let zero = _mm256_setzero_si256();
            let quiet = _mm256_andnot_si256(
                _mm256_cmpeq_epi32(after, zero),
                _mm256_cmpeq_epi32(changes, zero),
            );
            let settled = _mm256_movemask_ps(_mm256_castsi256_ps(quiet)) as u32;
            let ninth = u32::from(acts(state, 9 * band + 8)) << 8;
            dirty |= (!settled & 0xFF | ninth) << (9 * band);
        }
        dirty
    }

    /// The eight boards from `first` (digits 1-8 of a band).
    #[target_feature(enable = "avx2")]
    fn eight(state: &State, first: usize) -> __m256i {
        let words = &state.candidates[first..first + 8];
        // SAFETY: `words` is eight readable u32; the load needs no alignment.
        unsafe { _mm256_loadu_si256(words.as_ptr().cast::<__m256i>()) }
    }

    /// `TABLES.by_box.kept_cells[triads_of(board)]` lane by lane.
    #[target_feature(enable = "avx2")]
    fn kept_cells(board: __m256i) -> __m256i {
        let spread = or(_mm256_srli_epi32(board, 1), _mm256_srli_epi32(board, 2));
        let any = and(or(board, spread), splat(0x124_9249));
        let index = or(
            and(any, splat(0x49)),
            or(
                and(_mm256_srli_epi32(any, 8), splat(0x92)),
                and(_mm256_srli_epi32(any, 16), splat(0x124)),
            ),
        );
        // SAFETY: every index is 9 bits, within the table's 512 entries.
        unsafe { _mm256_i32gather_epi32::<4>(TABLES.by_box.kept_cells.as_ptr().cast(), index) }
    }

    /// `TABLES.lone_columns[columns_of(board)]` lane by lane: the columns alone
    /// in their box, spread over the band.
    #[target_feature(enable = "avx2")]
    fn lone_columns(board: __m256i) -> __m256i {
        let spread = or(_mm256_srli_epi32(board, 9), _mm256_srli_epi32(board, 18));
        let columns = and(or(board, spread), splat(0x1FF));
        let first = splat(0b001_001_001);
        let left = and(columns, first);
        let middle = and(_mm256_srli_epi32(columns, 1), first);
        let right = and(_mm256_srli_epi32(columns, 2), first);
        let odd = _mm256_xor_si256(left, _mm256_xor_si256(middle, right));
        let one = _mm256_andnot_si256(and(left, and(middle, right)), odd);
        let boxes = or(
            one,
            or(_mm256_slli_epi32(one, 1), _mm256_slli_epi32(one, 2)),
        );
        let lone = and(columns, boxes);
        or(
            lone,
            or(_mm256_slli_epi32(lone, 9), _mm256_slli_epi32(lone, 18)),
        )
    }

    /// `claiming::row_singles` lane by lane.
    #[target_feature(enable = "avx2")]
    fn row_singles(board: __m256i) -> __m256i {
        const LOW: u32 = 1 | 1 << 9 | 1 << 18;
        const HIGH: u32 = LOW << 8;
        const REST: u32 = BAND & !HIGH;
        let rest = and(board, _mm256_sub_epi32(board, splat(LOW)));
        let carried = _mm256_add_epi32(and(rest, splat(REST)), splat(REST));
        let taken = and(or(carried, rest), splat(HIGH));
        let several = or(_mm256_sub_epi32(taken, _mm256_srli_epi32(taken, 8)), taken);
        _mm256_andnot_si256(several, board)
    }

    #[target_feature(enable = "avx2")]
    fn splat(value: u32) -> __m256i {
        _mm256_set1_epi32(value as i32)
    }

    #[target_feature(enable = "avx2")]
    fn and(a: __m256i, b: __m256i) -> __m256i {
        _mm256_and_si256(a, b)
    }

    #[target_feature(enable = "avx2")]
    fn or(a: __m256i, b: __m256i) -> __m256i {
        _mm256_or_si256(a, b)
    }
}
