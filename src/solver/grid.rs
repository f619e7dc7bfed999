//! The working grid the classic algorithms share: cell values plus row, column and
//! box masks of used digits, and the row-major backtracking they all end in, as
//! resumable state. Knows nothing of the bitboard engine, which has a state of its own.

use super::{Found, Interrupted, Reason, Recorder, Sink, Status};
use crate::board::{Board, CELLS, Cell, box_of, col_of, row_of};

/// All nine digit bits: bit `d - 1` stands for digit `d`.
pub(super) const ALL_DIGITS: u16 = 0x1FF;

/// The 27 units (9 rows, 9 columns, 9 boxes), each as its 9 cells.
pub(super) use crate::board::UNITS;

/// A grid under search: values and the digits each row, column and box already holds.
#[derive(Clone)]
pub(super) struct Grid {
    pub(super) cells: [u8; CELLS],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

/// One placement made by the search, kept so it can be undone.
#[derive(Clone, Copy)]
pub(super) struct Placed {
    pub(super) cell: u8,
    pub(super) digit: u8,
    pub(super) reason: Reason,
    pub(super) depth: u32,
}

impl Placed {
    /// `digit` on `cell` for `reason`, `depth` guesses deep.
    #[inline(always)]
    pub(super) fn at(cell: u8, digit: u8, reason: Reason, depth: u32) -> Placed {
        Placed {
            cell,
            digit,
            reason,
            depth,
        }
    }
}

impl Grid {
    pub(super) fn new(board: &Board) -> Grid {
        let mut grid = Grid {
            cells: [0; CELLS],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for cell in 0..CELLS {
            let digit = board.get(cell);
            if digit != 0 {
                grid.set(cell, digit);
            }
        }
        grid
    }

    /// Digits (as bits) that may still go into `cell`, ignoring whether it is filled.
    #[inline(always)]
    pub(super) fn candidates(&self, cell: Cell) -> u16 {
        !(self.rows[row_of(cell)] | self.cols[col_of(cell)] | self.boxes[box_of(cell)]) & ALL_DIGITS
    }

    #[inline(always)]
    pub(super) fn set(&mut self, cell: Cell, digit: u8) {
        let bit = 1u16 << (digit - 1);
        self.cells[cell] = digit;
        self.rows[row_of(cell)] |= bit;
        self.cols[col_of(cell)] |= bit;
        self.boxes[box_of(cell)] |= bit;
    }

    #[inline(always)]
    pub(super) fn clear(&mut self, cell: Cell) {
        let bit = !(1u16 << (self.cells[cell] - 1));
        self.cells[cell] = 0;
        self.rows[row_of(cell)] &= bit;
        self.cols[col_of(cell)] &= bit;
        self.boxes[box_of(cell)] &= bit;
    }

    /// Places and records a digit.
    #[inline(always)]
    pub(super) fn place<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        trail: &mut Vec<Placed>,
        placed: Placed,
    ) -> Result<(), Interrupted> {
        recorder.place(
            placed.cell as Cell,
            placed.digit,
            placed.reason,
            placed.depth,
        )?;
        self.set(placed.cell as Cell, placed.digit);
        trail.push(placed);
        Ok(())
    }

    /// Takes back the placements of `trail` beyond its first `keep`, newest first;
    /// pauses after a backtrack when the recorder asks (`Done` once the trail is
    /// down to `keep`).
    pub(super) fn undo_to<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        trail: &mut Vec<Placed>,
        keep: usize,
    ) -> Result<Status, Interrupted> {
        while trail.len() > keep {
            let Some(last) = trail.pop() else { break };
            recorder.backtrack(last.cell as Cell, last.digit, last.reason, last.depth)?;
            self.clear(last.cell as Cell);
            if recorder.pausing() && trail.len() > keep {
                return Ok(Status::Paused);
            }
        }
        Ok(Status::Done)
    }
}

/// Classic row-major backtracking over the grid's empty cells, as resumable state:
/// the first empty cell, digits in increasing order, each checked against its row,
/// column and box; a digit that leads nowhere is taken back. Guesses are numbered
/// from `base_depth + 1`.
#[derive(Clone)]
pub(super) struct RowMajor {
    /// The cells that were empty when it began, in row-major order.
    empties: [u8; CELLS],
    count: usize,
    /// `untried[k]`: the digits still to try at level `k`, as bits.
    untried: [u16; CELLS + 1],
    /// Cells of `empties` filled now.
    level: usize,
    base_depth: u32,
}

impl RowMajor {
    /// The backtracking over the cells of `grid` empty now.
    pub(super) fn new(grid: &Grid, base_depth: u32) -> RowMajor {
        let mut empties = [0u8; CELLS];
        let mut count = 0;
        for cell in 0..CELLS {
            if grid.cells[cell] == 0 {
                empties[count] = cell as u8;
                count += 1;
            }
        }
        let mut untried = [0u16; CELLS + 1];
        untried[0] = ALL_DIGITS;
        RowMajor {
            empties,
            count,
            untried,
            level: 0,
            base_depth,
        }
    }

    /// Goes on with the search; pauses after a step when the recorder asks. `Done`
    /// when a wanted solution was reached (the grid holds it) or every placement it
    /// made has been taken back.
    pub(super) fn run<S: Sink>(
        &mut self,
        grid: &mut Grid,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        let mut level = self.level;
        loop {
            if level == self.count {
                if found.record(&grid.cells) {
                    self.level = level;
                    return Ok(Status::Done);
                }
            } else {
                let cell = self.empties[level] as Cell;
                let options = self.untried[level] & grid.candidates(cell);
                if options != 0 {
                    let digit = options.trailing_zeros() as u8 + 1;
                    // Digits below the one placed were refused; the next try starts above it.
                    self.untried[level] = ALL_DIGITS & !((1u16 << digit) - 1);
                    let depth = self.base_depth + level as u32 + 1;
                    recorder.place(cell, digit, Reason::Guess, depth)?;
                    grid.set(cell, digit);
                    level += 1;
                    self.untried[level] = ALL_DIGITS;
                    if recorder.pausing() {
                        self.level = level;
                        return Ok(Status::Paused);
                    }
                    continue;
                }
            }
            // A full grid (when more solutions are wanted) or a cell with no digit
            // left: take back the previous placement and try its next digit.
            if level == 0 {
                self.level = 0;
                return Ok(Status::Done);
            }
            level -= 1;
            let cell = self.empties[level] as Cell;
            let depth = self.base_depth + level as u32 + 1;
            recorder.backtrack(cell, grid.cells[cell], Reason::Guess, depth)?;
            grid.clear(cell);
            if recorder.pausing() {
                self.level = level;
                return Ok(Status::Paused);
            }
        }
    }
}
