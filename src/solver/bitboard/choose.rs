//! Which cell the search guesses on, and its candidate digits.
//! Knows nothing of the search stack.

use super::OTHER_BANDS;
use super::state::State;
use super::tables::TABLES;

/// The cell to guess on (a band and its bit) and its candidate digits: among the
/// cells with the fewest candidates (two, else three, else any), the one with the
/// most unsolved peers. `pairs` are the two-candidate cells (the naked-singles
/// pass found them); only without any are the others counted.
#[inline(always)]
pub(super) fn choose(state: &State, pairs: [u32; 3]) -> (usize, u32, u16) {
    let mut best = 0;
    for (band, &cells) in pairs.iter().enumerate() {
        best = best.max(busiest_cell(state, band, cells));
    }
    if best == 0 {
        // Per band: the unsolved cells with exactly three candidates, else all
        // of them. Plain loops: iterator adapters would be functions of their
        // own, compiled without `node_v3`'s features.
        let mut classes = [[0u32; 2]; 3];
        for (band, per_class) in classes.iter_mut().enumerate() {
            let unsolved = state.unsolved[band];
            let [_, _, three, four] = state.counts(band);
            *per_class = [unsolved & three & !four, unsolved];
        }
        for class in 0..2 {
            for (band, per_class) in classes.iter().enumerate() {
                best = best.max(busiest_cell(state, band, per_class[class]));
            }
            if best != 0 {
                break;
            }
        }
    }
    let cell = 255 - (best & 0xFF) as usize;
    let (band, bit) = (cell / 27, 1 << (cell % 27));
    (band, bit, holding(&state.candidates, band * 9, bit) as u16)
}

/// Among `cells` of `band`, the one with the most unsolved peers (the guess that
/// tells the most), the first such in row-major order, as a key to compare
/// without a branch: the count above, `255 - cell` (the grid's index) below; 0
/// when `cells` is empty.
#[inline(always)]
pub(super) fn busiest_cell(state: &State, band: usize, cells: u32) -> u32 {
    let [first, second] = OTHER_BANDS[band];
    // The unsolved cells of the two other bands side by side: a cell's column in
    // both with one AND.
    let elsewhere = u64::from(state.unsolved[first]) | u64::from(state.unsolved[second]) << 32;
    let unsolved = state.unsolved[band];
    let last = 255 - band as u32 * 27;
    let mut best = 0;
    let mut rest = cells;
    while rest != 0 {
        let index = rest.trailing_zeros();
        rest &= rest - 1;
        let at = index as usize & 31;
        let score = (unsolved & TABLES.peers[at]).count_ones()
            + (elsewhere & TABLES.column_twice[at]).count_ones();
        best = best.max(score << 8 | (last - index));
    }
    best
}

/// Which of the nine boards from `first` (a band's) hold any of `cells` (bit `i`
/// for board `first + i`): for one cell, its candidate digits (bit `d` for digit
/// `d + 1`).
/// On x86-64 the first eight compare at once and one move-mask gathers them
/// (the compiler's own vector form reduced with a chain of shuffles, on the
/// update's critical path).
#[inline(always)]
pub(super) fn holding(candidates: &[u32; 32], first: usize, cells: u32) -> u32 {
    let board = |index: usize| candidates[(first + index) & 31];
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_movemask_ps, _mm_set_epi32,
            _mm_set1_epi32, _mm_setzero_si128,
        };
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86_64 CPU has it.
        unsafe {
            let lanes = |at: usize| {
                let word = |i: usize| board(at + i) as i32;
                _mm_set_epi32(word(3), word(2), word(1), word(0))
            };
            let wanted = _mm_set1_epi32(cells as i32);
            let empty = |at: usize| {
                let hit = _mm_and_si128(lanes(at), wanted);
                _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(hit, _mm_setzero_si128()))) as u32
            };
            let ninth = u32::from(board(8) & cells != 0);
            (!(empty(0) | empty(4) << 4) & 0xFF) | ninth << 8
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    (0..9).fold(0, |held, index| {
        held | u32::from(board(index) & cells != 0) << index
    })
}
