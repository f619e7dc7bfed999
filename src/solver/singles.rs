//! `Algorithm::Singles`: naked and hidden singles to a fixpoint, then classic
//! row-major backtracking over the cells still empty. Also owns the singles
//! fixpoint that `Algorithm::Propagation` runs at every node.

use super::grid::{ALL_DIGITS, Grid, Placed, UNITS, row_major};
use super::{Found, Interrupted, Reason, Recorder, Sink};
use crate::board::{Board, CELLS};

pub(super) fn search<S: Sink>(
    board: &Board,
    recorder: &mut Recorder<'_, '_, S>,
    wanted: u32,
) -> Result<Found, Interrupted> {
    let mut grid = Grid::new(board);
    let mut found = Found::new(wanted);
    let mut trail = Vec::with_capacity(CELLS);
    if fixpoint(&mut grid, recorder, &mut trail, 0)? == Consistency::Consistent {
        row_major(&mut grid, recorder, &mut found, 0)?;
    }
    if found.count < wanted {
        // Exhausted: leave the grid as the givens were, so a replay ends where it began.
        grid.undo_to(recorder, &mut trail, 0)?;
    }
    Ok(found)
}

/// Whether the grid can still be completed, as far as singles can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Consistency {
    /// No empty cell without candidates, no digit without a place in a unit.
    Consistent,
    /// The grid cannot be completed.
    Contradiction,
}

/// Fills naked singles, then hidden singles, until nothing changes, recording each
/// placement on `trail` at `depth`.
pub(super) fn fixpoint<S: Sink>(
    grid: &mut Grid,
    recorder: &mut Recorder<'_, '_, S>,
    trail: &mut Vec<Placed>,
    depth: u32,
) -> Result<Consistency, Interrupted> {
    loop {
        let mut progress = false;
        for cell in 0..CELLS {
            if grid.cells[cell] != 0 {
                continue;
            }
            let candidates = grid.candidates(cell);
            if candidates == 0 {
                return Ok(Consistency::Contradiction);
            }
            if candidates.is_power_of_two() {
                let digit = candidates.trailing_zeros() as u8 + 1;
                let placed = Placed {
                    cell: cell as u8,
                    digit,
                    reason: Reason::NakedSingle,
                    depth,
                };
                grid.place(recorder, trail, placed)?;
                progress = true;
            }
        }
        for unit in &UNITS {
            loop {
                match hidden_single(grid, unit) {
                    Hidden::None => break,
                    Hidden::Contradiction => return Ok(Consistency::Contradiction),
                    Hidden::Single(cell, digit) => {
                        let placed = Placed {
                            cell,
                            digit,
                            reason: Reason::HiddenSingle,
                            depth,
                        };
                        grid.place(recorder, trail, placed)?;
                        progress = true;
                    }
                }
            }
        }
        if !progress {
            return Ok(Consistency::Consistent);
        }
    }
}

enum Hidden {
    None,
    Contradiction,
    Single(u8, u8),
}

/// The first digit with exactly one place left in `unit`.
fn hidden_single(grid: &Grid, unit: &[u8; 9]) -> Hidden {
    let mut placed = 0u16;
    let mut once = 0u16;
    let mut twice = 0u16;
    for &cell in unit {
        let value = grid.cells[cell as usize];
        if value != 0 {
            placed |= 1 << (value - 1);
            continue;
        }
        let candidates = grid.candidates(cell as usize);
        twice |= once & candidates;
        once |= candidates;
    }
    if (once | placed) != ALL_DIGITS {
        return Hidden::Contradiction;
    }
    let singles = once & !twice & !placed;
    if singles == 0 {
        return Hidden::None;
    }
    let bit = singles & singles.wrapping_neg();
    let digit = bit.trailing_zeros() as u8 + 1;
    for &cell in unit {
        if grid.cells[cell as usize] == 0 && grid.candidates(cell as usize) & bit != 0 {
            return Hidden::Single(cell, digit);
        }
    }
    Hidden::None
}
