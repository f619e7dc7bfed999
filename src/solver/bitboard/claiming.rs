//! Column claiming for all digits at once, and the rows of a board that hold a
//! single candidate: lane-parallel bit operations.
//! Knows nothing of events: it only narrows candidates.

use super::state::{Fail, State};
use super::{BAND, at, boxes_of, columns_of, spread_columns};

/// Column claiming, for all digits at once: a column whose candidates for a digit
/// lie in one band only holds the digit in that band's box, so the box's other
/// columns lose the digit. Fails when a column has no place left for a digit.
/// Digits 1-8 go in eight lanes (one AVX2 vector), digit 9 in one.
#[inline(always)]
// Index loops: they pair the eight-lane and the one-lane halves, and compile to
// fewer instructions than the iterator forms tried (cachegrind).
#[allow(clippy::needless_range_loop)]
pub(super) fn column_claiming(state: &mut State) -> Result<(), Fail> {
    state.stale = false;
    let mut eight = [[0u32; 8]; 3];
    for (band, lanes) in eight.iter_mut().enumerate() {
        for (digit, lane) in lanes.iter_mut().enumerate() {
            *lane = columns_of(state.candidates[at(digit, band)]);
        }
    }
    let ninth = [0, 1, 2].map(|band| [columns_of(state.candidates[at(8, band)])]);
    let (gone_eight, missing_eight) = claimed(&eight);
    let (gone_ninth, missing_ninth) = claimed(&ninth);
    if missing_eight | missing_ninth != 0 {
        return Err(Fail);
    }
    let mut any_gone = 0;
    for band in 0..3 {
        for lane in 0..8 {
            any_gone |= gone_eight[band][lane];
        }
        any_gone |= gone_ninth[band][0];
    }
    if any_gone == 0 {
        return Ok(());
    }
    for band in 0..3 {
        for digit in 0..9 {
            let columns = if digit < 8 {
                gone_eight[band][digit]
            } else {
                gone_ninth[band][0]
            };
            if columns != 0 {
                let board = at(digit, band);
                state.candidates[board] &= !spread_columns(columns);
                state.dirty |= 1 << board;
            }
        }
    }
    Ok(())
}

/// Column claiming on lanes of digits: from each digit's columns per band, the
/// columns each band loses (the other columns of a box holding the only place of
/// a column), and the columns with no place left in any band (any lane).
#[inline(always)]
pub(super) fn claimed<const N: usize>(columns: &[[u32; N]; 3]) -> ([[u32; N]; 3], u32) {
    let mut gone = [[0u32; N]; 3];
    let mut missing = 0;
    for lane in 0..N {
        let [top, middle, bottom] = [columns[0][lane], columns[1][lane], columns[2][lane]];
        missing |= !(top | middle | bottom) & 0x1FF;
        let only = [
            top & !(middle | bottom),
            middle & !(top | bottom),
            bottom & !(top | middle),
        ];
        for band in 0..3 {
            gone[band][lane] = boxes_of(only[band]) & !only[band] & columns[band][lane];
        }
    }
    (gone, missing)
}

/// The cells of rows that hold exactly one candidate, for a board whose three rows
/// each hold at least one (the band rule leaves no row empty). Three 9-bit lanes in
/// one word, no branch: with no row empty, subtracting one from each row borrows
/// within it, which clears each row's lowest candidate; a row is single when
/// nothing is left of it.
#[inline(always)]
pub(super) fn row_singles(board: u32) -> u32 {
    /// Bit 0 of each row.
    const LOW: u32 = 1 | 1 << 9 | 1 << 18;
    /// Bit 8 of each row.
    const HIGH: u32 = LOW << 8;
    /// Bits 0-7 of each row.
    const REST: u32 = BAND & !HIGH;
    let rest = board & board.wrapping_sub(LOW);
    // Bit 8 of a row ends up set when any bit of the row is: bits 0-7 carry into it
    // when adding 0xFF (never beyond it), and bit 8 stands for itself.
    let taken = (((rest & REST) + REST) | rest) & HIGH;
    // Each row's bit 8 spread over the row: 0x100 - 1 = 0xFF, plus 0x100.
    let several = (taken - (taken >> 8)) | taken;
    board & !several
}
