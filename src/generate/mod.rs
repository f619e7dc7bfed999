//! Puzzle generation: a random solution grid, then clues taken away a symmetric
//! group at a time, in random order, while the solution stays unique. One pass
//! over the groups leaves the puzzle minimal within its symmetry (removing a group
//! that broke uniqueness with more clues present breaks it with fewer, too). The
//! same seed gives the same puzzles. Std only; a puzzle wanted in a rating range
//! is rated by the logical solver ([`Generator::attempt`]); knows nothing of
//! the service.
//!
//! - `random`: the seeded generator (SplitMix64, written out so a seed means the
//!   same puzzles in every build);
//! - `symmetry`: the symmetries, the groups of cells they tie together and the
//!   order a dig tries them in;
//! - `grid`: random solution grids;
//! - `hard`: puzzles rated 10 and more, from the hardest known, remade and
//!   changed;
//! - `sized`: the same at every other size, bounded by the caller's control;
//! - `variant`: the same under variant rules, with random jigsaw regions and
//!   killer cages drawn when asked.

mod grid;
mod hard;
mod random;
mod sized;
mod symmetry;
mod variant;

use random::Random;
pub use sized::{GeneratedGrid, is_minimal_grid};
pub use symmetry::Symmetry;
pub use variant::{
    GeneratedVariant, Unmade, VariantRules, is_minimal_variant, random_cages, random_regions,
};

use std::sync::Arc;

use crate::board::{Board, CELLS, Grid, Layout, PEERS, Shape, UNITS, box_of, col_of, row_of};
use crate::logic::{Rating, RatingRange};
use crate::solver::{Algorithm, Control, Interrupted, Search, count_solutions};

/// The rating of `puzzle` (under a variant's `layout` when given) by the
/// logical solve within `control`; why not when `control` stopped the solve.
fn rated(
    puzzle: &Grid,
    layout: Option<&Arc<Layout>>,
    control: &Control<'_>,
) -> Result<Rating, Interrupted> {
    let halted = || control.interrupted().is_some();
    let explanation = crate::logic::explain_grid(puzzle, layout, || !halted(), &halted);
    control
        .interrupted()
        .map_or_else(|| Ok(explanation.rating()), Err)
}

/// Attempts a caller makes for one puzzle of a rating range before it gives up
/// on the range.
pub const MAX_ATTEMPTS: u32 = 20_000;

/// The most attempts for one puzzle of `shape` in a rating range: as many as
/// at 9x9 up to 9x9, then fewer as a puzzle and its rating take longer (by the
/// fourth power of the cells: seconds of work on one core up to 16x16), at
/// least five.
pub fn attempts_for(shape: Shape) -> u32 {
    let scale = (81.0 / shape.cells() as f64).powi(4);
    (f64::from(MAX_ATTEMPTS) * scale).clamp(5.0, f64::from(MAX_ATTEMPTS)) as u32
}

/// One generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: unique, minimal within its symmetry.
    pub puzzle: Board,
    /// Its solution.
    pub solution: Board,
}

/// An attempt its caller stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

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

    /// The next puzzle of `shape` (any but 9x9) and `symmetry`, minimal within
    /// it unless `minimal` is false (as [`Generator::next_with`]), its
    /// uniqueness checks bounded by `control`: stopped before a solution grid
    /// is made, `Stopped`; stopped later, the puzzle as it stands, unique but
    /// not minimal ([`GeneratedGrid::minimal`] says which).
    pub fn next_sized(
        &mut self,
        shape: Shape,
        symmetry: Symmetry,
        minimal: bool,
        control: &Control<'_>,
    ) -> Result<GeneratedGrid, Stopped> {
        sized::generate(&mut self.random, shape, symmetry, minimal, control).ok_or(Stopped)
    }

    /// The next puzzle under variant `rules` and `symmetry` (any size), its
    /// random regions and cages drawn when the rules ask for them, minimal
    /// unless `minimal` is false, bounded by `control` as
    /// [`Generator::next_sized`]; [`Unmade::NoSolution`] when the rules admit
    /// no solution.
    pub fn next_variant(
        &mut self,
        rules: &VariantRules,
        symmetry: Symmetry,
        minimal: bool,
        control: &Control<'_>,
    ) -> Result<GeneratedVariant, Unmade> {
        variant::generate(&mut self.random, rules, symmetry, minimal, control)
    }

    /// The next puzzle under variant `rules` (as [`Generator::next_variant`]),
    /// rated by the logical solve under its rules within `control` when
    /// `range` bounds the rating: with its rating when that is in `range`,
    /// `None` when it is not. Unrated (`None` for the rating) when any
    /// rating will do: a variant's solve may take a second's trials.
    pub fn attempt_variant(
        &mut self,
        rules: &VariantRules,
        symmetry: Symmetry,
        minimal: bool,
        range: RatingRange,
        control: &Control<'_>,
    ) -> Result<Option<(GeneratedVariant, Option<Rating>)>, Unmade> {
        let made = self.next_variant(rules, symmetry, minimal, control)?;
        if range == RatingRange::ANY {
            return Ok(Some((made, None)));
        }
        let layout = Arc::new(Layout::new(made.puzzle.shape(), made.variant.clone()));
        let rating = rated(&made.puzzle, Some(&layout), control).map_err(Unmade::Stopped)?;
        Ok(range.contains(rating.value).then_some((made, Some(rating))))
    }

    /// The next puzzle of `shape` (as [`Generator::next_sized`]), rated by the
    /// logical solve within `control`: with its rating when that is in
    /// `range`, `None` when it is not. A solve `control` stops leaves the
    /// puzzle unrated (`None` for the rating), which only a caller taking any
    /// rating gets.
    pub fn attempt_sized(
        &mut self,
        shape: Shape,
        symmetry: Symmetry,
        minimal: bool,
        range: RatingRange,
        control: &Control<'_>,
    ) -> Result<Option<(GeneratedGrid, Option<Rating>)>, Stopped> {
        let generated = self.next_sized(shape, symmetry, minimal, control)?;
        match rated(&generated.puzzle, None, control) {
            Ok(rating) => Ok(range
                .contains(rating.value)
                .then_some((generated, Some(rating)))),
            Err(_) if range == RatingRange::ANY => Ok(Some((generated, None))),
            Err(_) => Err(Stopped),
        }
    }

    /// The next puzzle (as [`Generator::next_with`]), rated by the logical
    /// solver, asking `go_on` before each step: with its rating when that is
    /// in `range`, `None` when it is not.
    pub fn attempt(
        &mut self,
        symmetry: Symmetry,
        minimal: bool,
        range: RatingRange,
        mut go_on: impl FnMut() -> bool,
    ) -> Result<Option<(Generated, Rating)>, Stopped> {
        let hard = (range.low >= hard::FROM && symmetry == Symmetry::None)
            .then(|| self.next_hard(minimal))
            .flatten();
        let generated = match hard {
            Some(generated) => generated,
            None => self.next_with(symmetry, minimal),
        };
        let mut stopped = false;
        let explanation = crate::logic::explain_while(&generated.puzzle, range.high, || {
            stopped = !go_on();
            !stopped
        });
        let rating = explanation.rating();
        match () {
            _ if stopped => Err(Stopped),
            _ if range.contains(rating.value) => Ok(Some((generated, rating))),
            _ => Ok(None),
        }
    }

    /// A puzzle near one of the hardest known (`hard`): remade, a given moved
    /// to an empty cell while it stays unique (up to 32 tries, else as it
    /// came), dug again; minimal unless `minimal` is false.
    fn next_hard(&mut self, minimal: bool) -> Option<Generated> {
        let cells = hard::remade_hardest(&mut self.random);
        let report = count_solutions(
            &Board::with_cells(cells),
            Algorithm::Bitboard,
            &Control::UNTIMED,
        )
        .ok()?;
        let solution = report.solution?;
        let givens: Vec<usize> = (0..CELLS).filter(|&cell| cells[cell] != 0).collect();
        let empty: Vec<usize> = (0..CELLS).filter(|&cell| cells[cell] == 0).collect();
        let mut moved = cells;
        for _ in 0..32 {
            let from = givens[self.random.below(givens.len() as u64) as usize];
            let to = empty[self.random.below(empty.len() as u64) as usize];
            let mut changed = cells;
            changed[from] = 0;
            changed[to] = solution.cells()[to];
            if self.unique(&changed) {
                moved = changed;
                break;
            }
        }
        let puzzle = self.dig_from(moved, Symmetry::None, minimal);
        Some(Generated { puzzle, solution })
    }

    /// Takes clues away from `solution`, a group at a time in random order, keeping
    /// every removal that leaves the solution unique.
    fn dig(&mut self, solution: &Board, symmetry: Symmetry, minimal: bool) -> Board {
        self.dig_from(*solution.cells(), symmetry, minimal)
    }

    /// [`Generator::dig`] from `cells`, a unique puzzle whose groups are each
    /// all given or all empty.
    fn dig_from(&mut self, mut cells: [u8; CELLS], symmetry: Symmetry, minimal: bool) -> Board {
        for group in &symmetry::dig_order(symmetry, 9, minimal, &mut self.random) {
            if cells[usize::from(group[0])] == 0 {
                continue;
            }
            let kept = cells;
            // Unique without a search when each clue of the group, taken away
            // in turn, is a single of the clues left: they still force it.
            let mut forced = true;
            for &cell in group {
                let cell = usize::from(cell);
                cells[cell] = 0;
                forced = forced && is_single(&cells, cell, kept[cell]);
            }
            if !forced && !self.unique(&cells) {
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

/// Whether `digit` is a naked or a hidden single of the empty `cell` among the
/// clues `cells`: the clues alone force it there.
fn is_single(cells: &[u8; CELLS], cell: usize, digit: u8) -> bool {
    let taken = |cell: usize| {
        PEERS[cell]
            .iter()
            .fold(0u16, |taken, &peer| taken | 1 << cells[usize::from(peer)])
    };
    let others = 0b11_1111_1110 & !(1 << digit);
    taken(cell) & others == others
        || [row_of(cell), 9 + col_of(cell), 18 + box_of(cell)]
            .iter()
            .any(|&unit| {
                UNITS[unit]
                    .iter()
                    .map(|&other| usize::from(other))
                    .filter(|&other| other != cell && cells[other] == 0)
                    .all(|other| taken(other) & 1 << digit != 0)
            })
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
    fn an_attempt_keeps_a_puzzle_only_in_range_and_stops_when_asked() {
        let mut generator = Generator::new(5);
        let (generated, rating) = generator
            .attempt(Symmetry::None, true, RatingRange::ANY, || true)
            .unwrap()
            .unwrap();
        assert_eq!(rating, crate::logic::explain(&generated.puzzle).rating());
        let never = RatingRange {
            low: 0.0,
            high: 0.5,
        };
        assert_eq!(
            generator.attempt(Symmetry::None, true, never, || true),
            Ok(None)
        );
        let mut asked = 0;
        let stopped = generator.attempt(Symmetry::None, true, RatingRange::ANY, || {
            asked += 1;
            asked < 3
        });
        assert_eq!(stopped, Err(Stopped));
        assert_eq!(asked, 3);
    }

    #[test]
    fn a_range_from_ten_gives_unique_minimal_puzzles_rated_in_it() {
        let range = RatingRange {
            low: 10.0,
            high: 20.0,
        };
        let mut generator = Generator::new(3);
        let (generated, rating) = (0..8)
            .find_map(|_| {
                generator
                    .attempt(Symmetry::None, true, range, || true)
                    .unwrap()
            })
            .expect("no puzzle rated 10 or more in 8 attempts");
        assert!(rating.value >= 10.0, "{}", rating.value);
        assert_eq!(rating, crate::logic::explain(&generated.puzzle).rating());
        let report =
            count_solutions(&generated.puzzle, Algorithm::Propagation, &Control::UNTIMED).unwrap();
        assert_eq!(report.solution_count, 1);
        assert_eq!(report.solution.unwrap(), generated.solution);
        assert!(is_minimal(&generated.puzzle, Symmetry::None));
    }

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
