//! Puzzle generation: a random solution grid, then clues taken away a symmetric
//! group at a time, in random order, while the solution stays unique. One pass
//! over the groups leaves the puzzle minimal within its symmetry (removing a group
//! that broke uniqueness with more clues present breaks it with fewer, too). The
//! same seed gives the same puzzles. Std only; knows nothing of ratings (the
//! caller filters by the logical solver's rating) or of the service.
//!
//! - `random`: the seeded generator (SplitMix64, written out so a seed means the
//!   same puzzles in every build);
//! - `symmetry`: the symmetries and the groups of cells they tie together;
//! - `grid`: random solution grids.

mod grid;
mod random;
mod symmetry;

use random::Random;
pub use symmetry::Symmetry;

use crate::board::{Board, CELLS};
use crate::solver::{Algorithm, Control, Search, count_solutions};

/// Attempts a caller makes for one puzzle of a rating range before it gives up
/// on the range.
pub const MAX_ATTEMPTS: u32 = 20_000;

/// One generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: unique, minimal within its symmetry.
    pub puzzle: Board,
    /// Its solution.
    pub solution: Board,
}

/// The generator: its random state and a search reused for every uniqueness check.
pub struct Generator {
    random: Random,
    search: Option<Search>,
}

impl Generator {
    /// A generator whose puzzles follow from `seed`.
    pub fn new(seed: u64) -> Generator {
        Generator {
            random: Random::new(seed),
            search: None,
        }
    }

    /// The next puzzle of `symmetry`, minimal within it.
    pub fn next(&mut self, symmetry: Symmetry) -> Generated {
        self.next_with(symmetry, true)
    }

    /// The next puzzle of `symmetry`; `minimal` false stops taking clues away
    /// at a random point of the pass (the puzzle is unique, not minimal).
    pub fn next_with(&mut self, symmetry: Symmetry, minimal: bool) -> Generated {
        let solution = grid::random_solution(&mut self.random);
        let puzzle = self.dig(&solution, symmetry, minimal);
        Generated { puzzle, solution }
    }

    /// Takes clues away from `solution`, a group at a time in random order, keeping
    /// every removal that leaves the solution unique.
    fn dig(&mut self, solution: &Board, symmetry: Symmetry, minimal: bool) -> Board {
        let mut groups = symmetry.groups();
        self.random.shuffle(&mut groups);
        let tries = if minimal {
            groups.len()
        } else {
            self.random.below(groups.len() as u64 + 1) as usize
        };
        let mut cells = *solution.cells();
        for group in &groups[..tries] {
            let kept = cells;
            for &cell in group {
                cells[usize::from(cell)] = 0;
            }
            if !self.unique(&cells) {
                cells = kept;
            }
        }
        Board::with_cells(cells)
    }

    /// Whether the grid `cells` (a subset of a solution) has exactly one solution.
    fn unique(&mut self, cells: &[u8; CELLS]) -> bool {
        let board = Board::with_cells(*cells);
        let search = Search::reuse(
            &mut self.search,
            &board,
            Algorithm::Bitboard,
            crate::solver::Mode::CountTwo,
        );
        search
            .finish(&Control::UNTIMED, &mut crate::solver::NoEvents)
            .is_ok_and(|report| report.solution_count == 1)
    }
}

/// Whether `puzzle` has exactly one solution and losing any symmetric group of
/// its clues would give it more: the check a generated puzzle must pass.
pub fn is_minimal(puzzle: &Board, symmetry: Symmetry) -> bool {
    let count = |board: &Board| {
        count_solutions(board, Algorithm::Bitboard, &Control::UNTIMED)
            .map_or(0, |report| report.solution_count)
    };
    if count(puzzle) != 1 {
        return false;
    }
    symmetry.groups().iter().all(|group| {
        let mut cells = *puzzle.cells();
        if group.iter().any(|&cell| cells[usize::from(cell)] == 0) {
            return true;
        }
        for &cell in group {
            cells[usize::from(cell)] = 0;
        }
        count(&Board::with_cells(cells)) > 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_puzzles_and_another_seed_others() {
        let take = |seed| {
            let mut generator = Generator::new(seed);
            (0..3)
                .map(|_| generator.next(Symmetry::None).puzzle.to_line())
                .collect::<Vec<_>>()
        };
        assert_eq!(take(7), take(7));
        assert_ne!(take(7), take(8));
    }

    #[test]
    fn puzzles_are_unique_minimal_and_of_their_symmetry() {
        let mut generator = Generator::new(1);
        for symmetry in Symmetry::ALL {
            for _ in 0..5 {
                let generated = generator.next(symmetry);
                assert!(is_minimal(&generated.puzzle, symmetry), "{symmetry:?}");
                assert!(symmetry.holds(&generated.puzzle), "{symmetry:?}");
                for cell in 0..CELLS {
                    let given = generated.puzzle.get(cell);
                    assert!(given == 0 || given == generated.solution.get(cell));
                }
            }
        }
    }

    #[test]
    fn a_puzzle_that_is_not_minimal_is_caught() {
        let mut generator = Generator::new(3);
        let generated = generator.next(Symmetry::None);
        let mut cells = *generated.puzzle.cells();
        let empty = (0..CELLS).find(|&cell| cells[cell] == 0).unwrap();
        cells[empty] = generated.solution.get(empty);
        assert!(!is_minimal(&Board::with_cells(cells), Symmetry::None));
    }
}
