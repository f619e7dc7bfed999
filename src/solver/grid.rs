//! The working grid the classic algorithms share: cell values plus row, column and
//! box masks of used digits, and the row-major backtracking they all end in.

use super::{Found, Interrupted, Reason, Recorder, Sink};
use crate::board::{Board, CELLS, Cell, box_of, col_of, row_of};

/// All nine digit bits: bit `d - 1` stands for digit `d`.
pub(super) const ALL_DIGITS: u16 = 0x1FF;

/// The 27 units (9 rows, 9 columns, 9 boxes), each as its 9 cells.
pub(super) const UNITS: [[u8; 9]; 27] = units();

/// A grid under search: values and the digits each row, column and box already holds.
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

    /// Takes back the placements of `trail` beyond its first `keep`, newest first.
    pub(super) fn undo_to<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        trail: &mut Vec<Placed>,
        keep: usize,
    ) -> Result<(), Interrupted> {
        while trail.len() > keep {
            let Some(last) = trail.pop() else { break };
            recorder.backtrack(last.cell as Cell, last.digit, last.reason, last.depth)?;
            self.clear(last.cell as Cell);
        }
        Ok(())
    }

    /// Empty cells in row-major order.
    pub(super) fn empty_cells(&self) -> Vec<u8> {
        (0..CELLS as u8)
            .filter(|&cell| self.cells[cell as usize] == 0)
            .collect()
    }
}

/// Classic row-major backtracking over the grid's empty cells: the first empty cell,
/// digits in increasing order, each checked against its row, column and box; a
/// digit that leads nowhere is taken back. Guesses are numbered from `base_depth + 1`.
/// On return every placement it made has been taken back, unless a wanted solution
/// was reached (then the grid holds it).
pub(super) fn row_major<S: Sink>(
    grid: &mut Grid,
    recorder: &mut Recorder<'_, '_, S>,
    found: &mut Found,
    base_depth: u32,
) -> Result<(), Interrupted> {
    let empties = grid.empty_cells();
    let count = empties.len();
    // next[k]: the digits still to try at level k, as bits.
    let mut untried = [0u16; CELLS + 1];
    let mut level = 0usize;
    untried[0] = ALL_DIGITS;
    loop {
        if level == count {
            if found.record(&grid.cells) {
                return Ok(());
            }
        } else {
            let cell = empties[level] as Cell;
            let options = untried[level] & grid.candidates(cell);
            if options != 0 {
                let digit = options.trailing_zeros() as u8 + 1;
                // Digits below the one placed were refused; the next try starts above it.
                untried[level] = ALL_DIGITS & !((1u16 << digit) - 1);
                let depth = base_depth + level as u32 + 1;
                recorder.place(cell, digit, Reason::Guess, depth)?;
                grid.set(cell, digit);
                level += 1;
                untried[level] = ALL_DIGITS;
                continue;
            }
        }
        // A full grid (when more solutions are wanted) or a cell with no digit
        // left: take back the previous placement and try its next digit.
        if level == 0 {
            return Ok(());
        }
        level -= 1;
        take_back(
            grid,
            recorder,
            empties[level] as Cell,
            base_depth + level as u32 + 1,
        )?;
    }
}

fn take_back<S: Sink>(
    grid: &mut Grid,
    recorder: &mut Recorder<'_, '_, S>,
    cell: Cell,
    depth: u32,
) -> Result<(), Interrupted> {
    recorder.backtrack(cell, grid.cells[cell], Reason::Guess, depth)?;
    grid.clear(cell);
    Ok(())
}

const fn units() -> [[u8; 9]; 27] {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (i * 9 + j) as u8;
            units[9 + i][j] = (j * 9 + i) as u8;
            units[18 + i][j] = ((i / 3) * 27 + (i % 3) * 3 + (j / 3) * 9 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
}
