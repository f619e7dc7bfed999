//! The candidate boards of one node of the search, and the intake that builds the
//! first from the givens (band masks read from `board::band_masks`).
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

    pub(super) fn solution(&self) -> [u8; CELLS] {
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
}
