//! The symmetries a generated puzzle may have, and the groups of cells each ties
//! together: a symmetric puzzle gives either every cell of a group or none.

use crate::board::{Board, CELLS, Cell};

/// A symmetry of the pattern of givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    /// No symmetry: every cell is a group of its own.
    None,
    /// Unchanged by a half turn about the centre.
    Rotate180,
    /// Unchanged by a quarter turn about the centre.
    Rotate90,
    /// Unchanged by a mirror through the middle column (left and right swap).
    Mirror,
    /// Unchanged by a mirror through the main diagonal (rows and columns swap).
    Diagonal,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The symmetry's name, as the command line takes it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The cells the symmetry maps `cell` to in one application.
    fn image(self, cell: Cell) -> Cell {
        let (row, col) = (cell / 9, cell % 9);
        let (row, col) = match self {
            Symmetry::None => (row, col),
            Symmetry::Rotate180 => (8 - row, 8 - col),
            Symmetry::Rotate90 => (col, 8 - row),
            Symmetry::Mirror => (row, 8 - col),
            Symmetry::Diagonal => (col, row),
        };
        row * 9 + col
    }

    /// The groups: each cell's orbit under the symmetry, each listed once.
    pub fn groups(self) -> Vec<Vec<u8>> {
        let mut grouped = [false; CELLS];
        let mut groups = Vec::new();
        for start in 0..CELLS {
            if grouped[start] {
                continue;
            }
            let mut group = Vec::new();
            let mut cell = start;
            while !grouped[cell] {
                grouped[cell] = true;
                group.push(cell as u8);
                cell = self.image(cell);
            }
            groups.push(group);
        }
        groups
    }

    /// Whether `board`'s givens have this symmetry, checked cell by cell.
    pub fn holds(self, board: &Board) -> bool {
        (0..CELLS).all(|cell| (board.get(cell) == 0) == (board.get(self.image(cell)) == 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_every_cell_once_with_the_orbit_sizes_of_each_symmetry() {
        for (symmetry, groups) in [
            (Symmetry::None, 81),
            (Symmetry::Rotate180, 41),
            (Symmetry::Rotate90, 21),
            (Symmetry::Mirror, 45),
            (Symmetry::Diagonal, 45),
        ] {
            let found = symmetry.groups();
            assert_eq!(found.len(), groups, "{symmetry:?}");
            let mut cells: Vec<u8> = found.concat();
            cells.sort_unstable();
            assert_eq!(cells, (0..81).collect::<Vec<u8>>(), "{symmetry:?}");
        }
    }
}
