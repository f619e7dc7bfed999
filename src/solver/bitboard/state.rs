//! The candidate boards of one node of the search, the intake that builds the
//! first from the givens (band masks read from `board::band_masks`), and the grid
//! of a solved one (cell by cell, or with AVX2 from four bit planes).
//! Knows nothing of guesses or of the recorder.

use super::{BAND, at, reach_of};
use crate::board::{Board, CELLS};

/// The candidate boards: `candidates[at(digit, band)]` has a bit for each cell of
/// the band where the digit may stand (solved cells included).
///
/// Updates are lazy, as in JCZSolve: placing a digit clears only its own board's
/// peers in the band and marks the board dirty; the board's update finds the
/// solved cell, clears it from the other digits and locks its column in the other
/// bands. So a placement costs one AND, and an update is straight-line code.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// Sized 32 (the last five unused) so that masked indexes need no bounds check.
    pub(super) candidates: [u32; 32],
    /// Boards (bit `at(digit, band)`) changed since their last update.
    pub(super) dirty: u32,
    /// Cells placed (naked singles, guesses) but not yet cleared from the other
    /// digits, per band: their digit's update does it.
    pub(super) pending: [u32; 3],
    /// Cells not yet solved, per band.
    pub(super) unsolved: [u32; 3],
    /// Some board was updated since column claiming last ran.
    pub(super) stale: bool,
}

/// Propagation stopped short: the grid cannot be completed, or the search was
/// interrupted (then `Run::interrupted` says why). Zero-sized, so the hot
/// paths return a single flag.
pub(super) struct Fail;

impl State {
    pub(super) const EMPTY: State = State {
        candidates: [BAND; 32],
        unsolved: [BAND; 3],
        dirty: BAND,
        pending: [0; 3],
        stale: false,
    };

    /// The state of a puzzle's givens, built in bulk: every given clears its cell
    /// from the other digits and its digit from its peers (the board has no
    /// conflict, so a digit's givens are no peers).
    #[inline(always)]
    pub(super) fn from_givens(board: &Board) -> State {
        let placed = crate::board::band_masks(board.cells());
        // Loops over the nine digits inside, the same operations on each: they
        // vectorize.
        let mut reach = [[0u32; 9]; 3];
        let mut columns = [0u32; 9];
        for (band, digits) in placed.iter().enumerate() {
            for digit in 0..9 {
                let (cells, digit_columns) = reach_of(digits[digit]);
                reach[band][digit] = cells;
                columns[digit] |= digit_columns;
            }
        }
        let mut state = State::EMPTY;
        for (band, digits) in placed.iter().enumerate() {
            let filled = digits.iter().fold(0, |all, &cells| all | cells);
            for digit in 0..9 {
                state.candidates[at(digit, band)] =
                    (BAND & !filled & !(reach[band][digit] | columns[digit])) | digits[digit];
            }
            state.unsolved[band] = BAND & !filled;
        }
        state
    }

    /// The cells of `band` with at least one, two, ... `N` candidates (index
    /// `k` for at least `k + 1`), counted bit-sliced across the nine digit boards.
    #[inline(always)]
    pub(super) fn counts<const N: usize>(&self, band: usize) -> [u32; N] {
        let mut at_least = [0; N];
        for digit in 0..9 {
            let x = self.candidates[at(digit, band)];
            for level in (1..N).rev() {
                at_least[level] |= at_least[level - 1] & x;
            }
            at_least[0] |= x;
        }
        at_least
    }

    /// `counts::<3>`, with AVX2 when `V3` (true only in code compiled for
    /// x86-64-v3 and run where the CPU has it: `Isa::V3`).
    #[inline(always)]
    pub(super) fn counts3<const V3: bool>(&self, band: usize) -> [u32; 3] {
        #[cfg(target_arch = "x86_64")]
        if V3 {
            // SAFETY: with `V3` the CPU has AVX2 (above).
            return unsafe { self.counts3_avx2(band) };
        }
        self.counts(band)
    }

    /// `counts::<3>` with AVX2: the band's first eight boards in the lanes of a
    /// vector, merged as counts of at least one, two and three: neighbouring
    /// lanes, then pairs of them, then the two halves; the ninth board last.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn counts3_avx2(&self, band: usize) -> [u32; 3] {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cvtsi128_si32, _mm_or_si128, _mm256_and_si256,
            _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_or_si256,
            _mm256_shuffle_epi32,
        };
        let first = band.min(2) * 9;
        let boards = &self.candidates[first..first + 8];
        // SAFETY: `boards` is eight u32 (32 bytes) to read; no alignment needed.
        let lanes = unsafe { _mm256_loadu_si256(boards.as_ptr().cast()) };
        // Each lane with its neighbour: at least one, two.
        let next = _mm256_shuffle_epi32::<0b10_11_00_01>(lanes);
        let (one, two) = (_mm256_or_si256(lanes, next), _mm256_and_si256(lanes, next));
        // Each pair with the next pair: at least one, two, three.
        let (one_next, two_next) = (
            _mm256_shuffle_epi32::<0b01_00_11_10>(one),
            _mm256_shuffle_epi32::<0b01_00_11_10>(two),
        );
        let three = _mm256_or_si256(
            _mm256_and_si256(two, one_next),
            _mm256_and_si256(one, two_next),
        );
        let two = _mm256_or_si256(
            _mm256_or_si256(two, two_next),
            _mm256_and_si256(one, one_next),
        );
        let one = _mm256_or_si256(one, one_next);
        // The two halves.
        let halves = |x| (_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
        let ((one_lo, one_hi), (two_lo, two_hi)) = (halves(one), halves(two));
        let (three_lo, three_hi) = halves(three);
        let or = |a: __m128i, b: __m128i| _mm_or_si128(a, b);
        let and = |a: __m128i, b: __m128i| _mm_and_si128(a, b);
        let three = or(
            or(three_lo, three_hi),
            or(and(two_lo, one_hi), and(one_lo, two_hi)),
        );
        let two = or(or(two_lo, two_hi), and(one_lo, one_hi));
        let one = or(one_lo, one_hi);
        let [one, two, three] = [one, two, three].map(|x| _mm_cvtsi128_si32(x) as u32);
        let ninth = self.candidates[first + 8];
        [one | ninth, two | (one & ninth), three | (two & ninth)]
    }

    /// Whether column claiming can narrow anything (or fail) at a fixpoint of the
    /// band rule: only while no band is solved. In a solved band each digit keeps
    /// one column in each stack, and its update cleared that column from the other
    /// two bands. So in a stack where a column holds the digit in one band only,
    /// the band beside it has one column left there and clears it from that band
    /// too, which leaves that band's box with the lone column already; and a
    /// column with the digit in no band would have left a box empty.
    #[inline(always)]
    pub(super) fn claiming_can_act(&self) -> bool {
        self.unsolved.iter().all(|&cells| cells != 0)
    }

    /// The grid of a solved state (every cell on exactly one digit's board).
    pub(super) fn solution(&self) -> [u8; CELLS] {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2 (checked just above; std caches the answer).
            return unsafe { self.solution_avx2() };
        }
        self.solution_per_cell()
    }

    /// `solution`, one cell at a time.
    pub(super) fn solution_per_cell(&self) -> [u8; CELLS] {
        let mut cells = [0u8; CELLS];
        for digit in 0..9 {
            for band in 0..3 {
                let mut bits = self.candidates[at(digit, band)];
                while bits != 0 {
                    cells[band * 27 + bits.trailing_zeros() as usize] = digit as u8 + 1;
                    bits &= bits - 1;
                }
            }
        }
        cells
    }

    /// `solution` with AVX2: per band, the four bits of the cells' digits as four
    /// masks (each the union of the boards of the digits with that bit), each
    /// spread to a byte per cell; the bands written 27 bytes apart.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) fn solution_avx2(&self) -> [u8; CELLS] {
        use std::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_or_si256, _mm256_set1_epi8,
            _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setzero_si256,
            _mm256_shuffle_epi8, _mm256_storeu_si256,
        };
        // Byte k of a mask to bytes 8k to 8k + 7 (the shuffle stays in its half).
        let to_bytes = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
            3, 3, 3,
        );
        // Each byte of a group of eight tests its own bit.
        let bit_of_byte = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        let mut bytes = [0u8; 96];
        for band in 0..3 {
            let mut planes = [0u32; 4];
            for digit in 0..9 {
                for (bit, plane) in planes.iter_mut().enumerate() {
                    if (digit + 1) >> bit & 1 == 1 {
                        *plane |= self.candidates[at(digit, band)];
                    }
                }
            }
            let mut cells = _mm256_setzero_si256();
            for (bit, &plane) in planes.iter().enumerate() {
                let spread = _mm256_shuffle_epi8(_mm256_set1_epi32(plane as i32), to_bytes);
                let set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit_of_byte), bit_of_byte);
                cells = _mm256_or_si256(cells, _mm256_and_si256(set, _mm256_set1_epi8(1 << bit)));
            }
            let out = &mut bytes[27 * band..27 * band + 32];
            // SAFETY: `out` is 32 writable bytes; the store needs no alignment.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), cells) };
        }
        std::array::from_fn(|cell| bytes[cell])
    }
}
