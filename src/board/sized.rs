//! [`Grid`]: a checked grid of any [`Shape`], the any-size counterpart of
//! [`Board`] (which stays the 9x9 fast path), and the cell names and clash check
//! at size N. Knows nothing of text (`text.rs`) or of searching.

use std::fmt;

use super::{Board, CELLS, PuzzleError, Shape};

/// A grid of any shape whose givens do not conflict. `0` marks an empty cell,
/// `1..=N` a digit.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// The grid of `cells` (N x N values, 0..=N) in `shape`, unless two givens
    /// share a row, column or box.
    pub fn checked(shape: Shape, cells: Vec<u8>) -> Result<Grid, PuzzleError> {
        if let Some((first, second)) = first_clash(shape, &cells) {
            return Err(PuzzleError::Clash {
                first,
                second,
                side: shape.size(),
                digit: cells[first],
            });
        }
        Ok(Grid { shape, cells })
    }

    /// A grid the caller knows to be consistent: a solver's answer, or a
    /// variant's givens checked against its [`super::Layout`] (whose regions
    /// may stand where the shape's boxes would clash).
    pub fn with_cells(shape: Shape, cells: Vec<u8>) -> Grid {
        Grid { shape, cells }
    }

    /// The classic board as a grid.
    pub fn from_board(board: &Board) -> Grid {
        Grid {
            shape: Shape::CLASSIC,
            cells: board.cells().to_vec(),
        }
    }

    /// The grid as a classic [`Board`], when it is 9x9.
    pub fn to_board(&self) -> Option<Board> {
        let cells: [u8; CELLS] = self.cells.as_slice().try_into().ok()?;
        self.shape.is_classic().then(|| Board::with_cells(cells))
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The value of a cell: `0` when empty.
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// All N x N values, row-major, `0` for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&value| value != 0).count()
    }

    /// True when every cell holds a digit.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&value| value != 0)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}, {:?})", self.shape, self.cells)
    }
}

/// The first pair of givens (in row-major order of the second) that share a
/// house and a digit: masks per house find whether there is one, peers name it.
fn first_clash(shape: Shape, cells: &[u8]) -> Option<(usize, usize)> {
    let geometry = shape.geometry();
    let mut seen = vec![0u64; 3 * shape.size()];
    let mut clash = false;
    for (cell, &digit) in cells.iter().enumerate() {
        if digit == 0 {
            continue;
        }
        let bit = 1u64 << (digit - 1);
        for &house in &geometry.houses[cell] {
            let mask = &mut seen[usize::from(house)];
            clash |= *mask & bit != 0;
            *mask |= bit;
        }
    }
    if !clash {
        return None;
    }
    cells.iter().enumerate().find_map(|(cell, &digit)| {
        let peers = geometry.peers_of(cell);
        let first = peers
            .iter()
            .map(|&peer| usize::from(peer))
            .filter(|&peer| peer < cell && digit != 0 && cells[peer] == digit)
            .min()?;
        Some((first, cell))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clash_in_a_two_by_three_box_names_both_cells() {
        let shape = Shape::new(2, 3).unwrap();
        let mut cells = vec![0u8; 36];
        cells[0] = 4;
        cells[6 + 2] = 4; // r2c3: same box as r1c1, other row and column
        let error = Grid::checked(shape, cells.clone()).unwrap_err();
        assert_eq!(error.to_string(), "r1c1 and r2c3 both hold 4");
        cells[6 + 2] = 5;
        let grid = Grid::checked(shape, cells).unwrap();
        assert_eq!(grid.filled(), 2);
        assert!(grid.to_board().is_none());
    }

    #[test]
    fn a_classic_grid_is_a_board() {
        let board = Board::parse(&format!("12{}", ".".repeat(79))).unwrap();
        let grid = Grid::from_board(&board);
        assert_eq!(grid.to_board(), Some(board));
    }
}
