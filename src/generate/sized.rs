//! Generation at sizes other than 9x9, as at 9x9: a random solution grid, then
//! clues taken away a symmetric group at a time in random order while the
//! solution stays unique (the wide engine counts to two). A caller's
//! [`Control`] bounds the counts: when it stops one, the clues taken so far
//! stay away and the puzzle is unique but not known to be minimal.

use super::random::Random;
use super::symmetry::Symmetry;
use crate::board::{Grid, Shape};
use crate::solver::{Algorithm, Control, Mode, NoEvents, Search};

/// One generated puzzle of any size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedGrid {
    /// The puzzle: unique.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Whether every group of clues was tried, so the puzzle is minimal
    /// within its symmetry: false when a count was stopped, and when a puzzle
    /// not minimal was asked for (it stopped at a random point).
    pub minimal: bool,
}

/// The next puzzle of `shape` and `symmetry` from `random` (minimal within
/// the symmetry unless `minimal` is false, as [`super::Generator::next_with`]),
/// its uniqueness checks bounded by `control`: stopped before a solution grid
/// is made, `None`; stopped later, the puzzle as it stands, not minimal.
pub(super) fn generate(
    random: &mut Random,
    shape: Shape,
    symmetry: Symmetry,
    minimal: bool,
    control: &Control<'_>,
) -> Option<GeneratedGrid> {
    let solution = random_solution(shape, random, control)?;
    let groups = super::symmetry::dig_order(symmetry, shape.size(), minimal, random);
    let mut cells = solution.cells().to_vec();
    let mut finished = true;
    for group in &groups {
        let kept = cells.clone();
        let mut forced = true;
        for &cell in group {
            let cell = usize::from(cell);
            cells[cell] = 0;
            forced = forced && is_single(shape, &cells, cell, kept[cell]);
        }
        if forced {
            continue;
        }
        match count(&Grid::with_cells(shape, cells.clone()), control) {
            Some(1) => {}
            Some(_) => cells = kept,
            None => {
                cells = kept;
                finished = false;
                break;
            }
        }
    }
    Some(GeneratedGrid {
        puzzle: Grid::with_cells(shape, cells),
        solution,
        minimal: finished && minimal,
    })
}

/// The solutions of `grid` counted to two by the wide engine; `None` when
/// `control` stopped the count.
fn count(grid: &Grid, control: &Control<'_>) -> Option<u32> {
    let mut search = Search::sized(grid, Algorithm::Wide, Mode::CountTwo)?;
    let report = search.finish(control, &mut NoEvents).ok()?;
    Some(report.solution_count)
}

/// Whether `digit` is a naked or a hidden single of the empty `cell` among the
/// clues `cells`: the clues alone force it there.
fn is_single(shape: Shape, cells: &[u8], cell: usize, digit: u8) -> bool {
    let geometry = shape.geometry();
    let bit = |digit: u8| if digit == 0 { 0 } else { 1u64 << (digit - 1) };
    let taken = |cell: usize| {
        geometry
            .peers_of(cell)
            .iter()
            .fold(0u64, |taken, &peer| taken | bit(cells[usize::from(peer)]))
    };
    let others = shape.all_digits() & !bit(digit);
    taken(cell) & others == others
        || geometry.houses[cell].iter().any(|&house| {
            geometry
                .unit(usize::from(house))
                .iter()
                .map(|&other| usize::from(other))
                .filter(|&other| other != cell && cells[other] == 0)
                .all(|other| taken(other) & bit(digit) != 0)
        })
}

/// A random complete grid of `shape`: the boxes on the diagonal of bands and
/// stacks (they share no row, column or box) filled with random permutations,
/// the rest completed by the wide engine, then shuffled by moves that keep a
/// solution a solution (rows within a band, bands, columns within a stack,
/// stacks, the digits' names, a transposition when boxes are square). Small
/// boxes filled at random do not always complete (2x2: a digit can be shut
/// out of a row): after a few such fills the boxes are left empty.
fn random_solution(shape: Shape, random: &mut Random, control: &Control<'_>) -> Option<Grid> {
    const FILLS: usize = 16;
    let (rows, cols, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    for fill in 0..=FILLS {
        let mut cells = vec![0u8; n * n];
        for diagonal in (0..(n / rows).min(n / cols)).filter(|_| fill < FILLS) {
            let mut digits: Vec<u8> = (1..=n as u8).collect();
            random.shuffle(&mut digits);
            for (i, digit) in digits.into_iter().enumerate() {
                let (row, col) = (diagonal * rows + i / cols, diagonal * cols + i % cols);
                cells[row * n + col] = digit;
            }
        }
        let grid = Grid::with_cells(shape, cells);
        let mut search = Search::sized(&grid, Algorithm::Wide, Mode::First)?;
        let report = search.finish(control, &mut NoEvents).ok()?;
        let solution = report
            .grid
            .or_else(|| report.solution.map(|board| Grid::from_board(&board)));
        if let Some(solution) = solution {
            return Some(shuffled(shape, solution.cells(), random));
        }
    }
    // An empty grid always has a solution.
    None
}

/// `cells` under a random choice of the moves that keep a grid valid.
fn shuffled(shape: Shape, cells: &[u8], random: &mut Random) -> Grid {
    let (rows, cols, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    let row_order = line_order(n, rows, random);
    let col_order = line_order(n, cols, random);
    let transpose = rows == cols && random.below(2) == 1;
    let mut names: Vec<u8> = (1..=n as u8).collect();
    random.shuffle(&mut names);
    let out = (0..n * n)
        .map(|cell| {
            let (row, col) = (row_order[cell / n], col_order[cell % n]);
            let (row, col) = if transpose { (col, row) } else { (row, col) };
            names[usize::from(cells[row * n + col]) - 1]
        })
        .collect();
    Grid::with_cells(shape, out)
}

/// A random order of `n` lines that keeps each run of `run` lines together.
fn line_order(n: usize, run: usize, random: &mut Random) -> Vec<usize> {
    let mut runs: Vec<usize> = (0..n / run).collect();
    random.shuffle(&mut runs);
    let mut order = Vec::with_capacity(n);
    for first in runs {
        let mut lines: Vec<usize> = (0..run).map(|line| first * run + line).collect();
        random.shuffle(&mut lines);
        order.extend(lines);
    }
    order
}

/// Whether `puzzle` has exactly one solution and losing any symmetric group
/// of its clues would give it more (counted by the wide engine).
pub fn is_minimal_grid(puzzle: &Grid, symmetry: Symmetry) -> bool {
    let shape = puzzle.shape();
    let counted = |cells: Vec<u8>| count(&Grid::with_cells(shape, cells), &Control::UNTIMED);
    if counted(puzzle.cells().to_vec()) != Some(1) {
        return false;
    }
    symmetry.groups_of(shape.size()).iter().all(|group| {
        let mut cells = puzzle.cells().to_vec();
        if group.iter().any(|&cell| cells[usize::from(cell)] == 0) {
            return true;
        }
        for &cell in group {
            cells[usize::from(cell)] = 0;
        }
        counted(cells).is_some_and(|count| count > 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Generator, Stopped};

    /// A plain search of its own, counting to two (naked and hidden singles
    /// at every node, then the cell with the fewest digits; a mask a row,
    /// column and box): nothing of the engines or the generator.
    #[derive(Clone)]
    struct Counter {
        shape: Shape,
        grid: Vec<u8>,
        used: Vec<u64>,
    }

    impl Counter {
        fn count(shape: Shape, cells: &[u8]) -> u32 {
            let n = shape.size();
            let mut counter = Counter {
                shape,
                grid: vec![0; n * n],
                used: vec![0; 3 * n],
            };
            for (cell, &digit) in cells.iter().enumerate().filter(|(_, d)| **d != 0) {
                if !counter.place(cell, digit) {
                    return 0;
                }
            }
            let mut count = 0;
            counter.search(&mut count);
            count
        }

        fn houses(&self, cell: usize) -> [usize; 3] {
            let n = self.shape.size();
            let (row, col) = (cell / n, cell % n);
            [row, n + col, 2 * n + self.shape.box_of(cell)]
        }

        fn free(&self, cell: usize) -> u64 {
            let all = self.shape.all_digits();
            self.houses(cell)
                .iter()
                .fold(all, |free, &house| free & !self.used[house])
        }

        /// Puts `digit` in `cell`; false when a house has it already.
        fn place(&mut self, cell: usize, digit: u8) -> bool {
            let bit = 1 << (digit - 1);
            if self.grid[cell] != 0 || self.free(cell) & bit == 0 {
                return false;
            }
            self.grid[cell] = digit;
            for house in self.houses(cell) {
                self.used[house] |= bit;
            }
            true
        }

        /// Singles to a fixpoint; false at a dead end.
        fn singles(&mut self) -> bool {
            let n = self.shape.size();
            let mut changed = true;
            while changed {
                changed = false;
                let mut places = vec![0u32; 3 * n * n];
                let mut last = vec![0usize; 3 * n * n];
                for cell in 0..n * n {
                    if self.grid[cell] != 0 {
                        continue;
                    }
                    let free = self.free(cell);
                    match free.count_ones() {
                        0 => return false,
                        1 => {
                            self.place(cell, free.trailing_zeros() as u8 + 1);
                            changed = true;
                            continue;
                        }
                        _ => {}
                    }
                    for digit in 0..n {
                        if free >> digit & 1 == 1 {
                            for house in self.houses(cell) {
                                places[house * n + digit] += 1;
                                last[house * n + digit] = cell;
                            }
                        }
                    }
                }
                if changed {
                    continue;
                }
                for house in 0..3 * n {
                    for digit in 0..n {
                        if self.used[house] >> digit & 1 == 1 {
                            continue;
                        }
                        match places[house * n + digit] {
                            0 => return false,
                            1 => {
                                let cell = last[house * n + digit];
                                changed |= self.place(cell, digit as u8 + 1);
                            }
                            _ => {}
                        }
                    }
                }
            }
            true
        }

        fn search(mut self, count: &mut u32) {
            if !self.singles() {
                return;
            }
            let n = self.shape.size();
            let best = (0..n * n)
                .filter(|&cell| self.grid[cell] == 0)
                .min_by_key(|&cell| self.free(cell).count_ones());
            let Some(cell) = best else {
                *count += 1;
                return;
            };
            let mut options = self.free(cell);
            while options != 0 && *count < 2 {
                let digit = options.trailing_zeros() as u8 + 1;
                options &= options - 1;
                let mut next = self.clone();
                next.place(cell, digit);
                next.search(count);
            }
        }
    }

    #[test]
    fn puzzles_of_every_small_shape_are_unique_minimal_and_of_their_symmetry() {
        let mut generator = Generator::new(11);
        for (rows, cols, symmetry) in [
            (2, 2, Symmetry::None),
            (2, 3, Symmetry::Rotate180),
            (3, 2, Symmetry::Mirror),
            (2, 4, Symmetry::None),
            (3, 4, Symmetry::Diagonal),
            (4, 4, Symmetry::Rotate90),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let generated = generator
                .next_sized(shape, symmetry, true, &Control::UNTIMED)
                .unwrap_or_else(|_| panic!("{shape}"));
            let (puzzle, solution) = (generated.puzzle.cells(), generated.solution.cells());
            assert!(generated.minimal);
            assert!(symmetry.holds_in(puzzle, shape.size()), "{shape}");
            assert_eq!(Counter::count(shape, solution), 1, "{shape}: a solution");
            assert!(puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s));
            assert_eq!(Counter::count(shape, puzzle), 1, "{shape}: unique");
            // Every group of givens is needed.
            for group in symmetry.groups_of(shape.size()) {
                let mut cells = puzzle.to_vec();
                if group.iter().any(|&cell| cells[usize::from(cell)] == 0) {
                    continue;
                }
                group.iter().for_each(|&cell| cells[usize::from(cell)] = 0);
                assert_eq!(
                    Counter::count(shape, &cells),
                    2,
                    "{shape}: {group:?} can go"
                );
            }
            assert!(is_minimal_grid(&generated.puzzle, symmetry));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_grids_and_only_a_full_pass_says_minimal() {
        let shape = Shape::new(2, 3).unwrap();
        let take = |seed| {
            let mut generator = Generator::new(seed);
            (0..3)
                .map(|_| {
                    let generated =
                        generator.next_sized(shape, Symmetry::None, true, &Control::UNTIMED);
                    generated.unwrap().puzzle
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(take(5), take(5));
        assert_ne!(take(5), take(6));
        // A count of no steps at all stops at once: the solution grid is not
        // made, so nothing comes back.
        let none = Control {
            max_steps: 0,
            ..Control::UNTIMED
        };
        let mut generator = Generator::new(5);
        assert_eq!(
            generator.next_sized(Shape::new(4, 4).unwrap(), Symmetry::None, true, &none),
            Err(Stopped)
        );
        // Asked for a puzzle that is not minimal: unique, not said minimal.
        let loose = generator
            .next_sized(shape, Symmetry::None, false, &Control::UNTIMED)
            .unwrap();
        assert!(!loose.minimal);
        assert_eq!(Counter::count(shape, loose.puzzle.cells()), 1);
    }
}
