//! The symmetries a generated puzzle may have, and the groups of cells each ties
//! together: a symmetric puzzle gives either every cell of a group or none;
//! and the order a dig tries the groups in.

use super::random::Random;
use crate::board::Board;

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

    /// The cell the symmetry maps `cell` of an `n` x `n` grid to in one
    /// application.
    fn image(self, cell: usize, n: usize) -> usize {
        let (row, col) = (cell / n, cell % n);
        let last = n - 1;
        let (row, col) = match self {
            Symmetry::None => (row, col),
            Symmetry::Rotate180 => (last - row, last - col),
            Symmetry::Rotate90 => (col, last - row),
            Symmetry::Mirror => (row, last - col),
            Symmetry::Diagonal => (col, row),
        };
        row * n + col
    }

    /// The groups of the 9x9 grid: each cell's orbit under the symmetry, each
    /// listed once.
    pub fn groups(self) -> Vec<Vec<u8>> {
        self.groups_of(9)
            .into_iter()
            .map(|group| group.into_iter().map(|cell| cell as u8).collect())
            .collect()
    }

    /// The groups of an `n` x `n` grid: each cell's orbit, each listed once.
    pub fn groups_of(self, n: usize) -> Vec<Vec<u16>> {
        let mut grouped = vec![false; n * n];
        let mut groups = Vec::new();
        for start in 0..n * n {
            if grouped[start] {
                continue;
            }
            let mut group = Vec::new();
            let mut cell = start;
            while !grouped[cell] {
                grouped[cell] = true;
                group.push(cell as u16);
                cell = self.image(cell, n);
            }
            groups.push(group);
        }
        groups
    }

    /// Whether `board`'s givens have this symmetry, checked cell by cell.
    pub fn holds(self, board: &Board) -> bool {
        self.holds_in(board.cells(), 9)
    }

    /// Whether the givens `cells` of an `n` x `n` grid have this symmetry.
    pub fn holds_in(self, cells: &[u8], n: usize) -> bool {
        (0..n * n).all(|cell| (cells[cell] == 0) == (cells[self.image(cell, n)] == 0))
    }
}

/// The groups of `symmetry` on a grid of side `n` that a dig tries, in random
/// order: every one for a minimal puzzle, else a random number of them.
pub(super) fn dig_order(
    symmetry: Symmetry,
    n: usize,
    minimal: bool,
    random: &mut Random,
) -> Vec<Vec<u16>> {
    let mut groups = symmetry.groups_of(n);
    random.shuffle(&mut groups);
    if !minimal {
        let tries = random.below(groups.len() as u64 + 1) as usize;
        groups.truncate(tries);
    }
    groups
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
