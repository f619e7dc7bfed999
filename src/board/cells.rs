//! The vocabulary (cells, rows, columns, boxes, units, peers, how a cell is
//! written) and the `Board` value with its accessors; how a board is parsed and
//! checked is `parse.rs`'s and `conflict.rs`'s.

use std::fmt;

/// Cells on a board.
pub const CELLS: usize = 81;

/// A cell index, 0..81, row-major.
pub type Cell = usize;

/// The row (0..9) of a cell.
pub const fn row_of(cell: Cell) -> usize {
    cell / 9
}

/// The column (0..9) of a cell.
pub const fn col_of(cell: Cell) -> usize {
    cell % 9
}

/// The box (0..9, row-major) of a cell.
pub const fn box_of(cell: Cell) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// The 27 units, each its cells in order: rows 0..9, columns 9..18, boxes 18..27
/// (box cells row-major).
pub const UNITS: [[u8; 9]; 27] = {
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
};

/// The 20 peers of each cell (its row, column and box, itself not included).
pub const PEERS: [[u8; 20]; CELLS] = {
    let mut peers = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut n = 0;
        let mut other = 0;
        while other < CELLS {
            let same_row = row_of(other) == row_of(cell);
            let same_col = col_of(other) == col_of(cell);
            let same_box = box_of(other) == box_of(cell);
            if other != cell && (same_row || same_col || same_box) {
                peers[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
};

/// A cell named the way Sudoku players write it, 1-based: `r1c5`.
pub struct CellName(pub Cell);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", row_of(self.0) + 1, col_of(self.0) + 1)
    }
}

/// A 9x9 grid whose givens do not conflict. `0` marks an empty cell, `1..=9` a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
}

/// How a cell value is written: its digit, or `.` for empty.
pub const fn cell_char(value: u8) -> char {
    if value == 0 {
        '.'
    } else {
        (b'0' + value) as char
    }
}

impl Board {
    /// The value of a cell: `0` when empty.
    pub fn get(&self, cell: Cell) -> u8 {
        self.cells[cell]
    }

    /// All 81 cell values, row-major, `0` for empty.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when every cell holds a digit.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The board as one line of 81 characters, `.` for empty cells.
    pub fn to_line(&self) -> String {
        // Bytes, not chars: every cell character is ASCII.
        let bytes = self
            .cells
            .iter()
            .map(|&value| cell_char(value) as u8)
            .collect();
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// Sets a cell without checks; the solvers use it to build their answer.
    pub(crate) fn with_cells(cells: [u8; CELLS]) -> Board {
        Board { cells }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_are_row_major() {
        assert_eq!(box_of(0), 0);
        assert_eq!(box_of(8), 2);
        assert_eq!(box_of(30), 4);
        assert_eq!(box_of(80), 8);
    }
}
