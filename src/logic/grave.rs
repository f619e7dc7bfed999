//! The bivalue universal grave, as Sudoku Explainer defines it (types 1 to
//! 4). A grid where every empty cell holds two digits and every digit has two
//! places (or none) in every house has two solutions: the puzzle having one
//! (the service checks that), some cell holds one of the digits that keep the
//! grid from being one, its "BUG values". One such cell holds its BUG value
//! (type 1); cells with one same BUG value make it true in one of them
//! (type 2); their BUG values make a naked set with other cells of a house
//! they share (type 3); or two of them in one house, sharing one other digit,
//! lose what is neither that digit nor a BUG value (type 4).

use super::marks::{Marks, cells_at, digits, subsets};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::Cell;

/// The easiest BUG step on `pencil`: by rating (5.6 type 1, 5.7 types 2
/// and 4, 5.8 and up type 3), then as Sudoku Explainer finds them.
pub(super) fn easiest<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let grave = Grave::find(pencil)?;
    let mut found = Vec::new();
    match grave.cells[..] {
        [(cell, values)] => found.push(grave.type_one(pencil, cell, values)),
        _ if grave.all.count_ones() == 1 => {
            found.push(grave.type_two(pencil));
            found.extend(grave.type_four(pencil));
        }
        _ => {
            found.extend(grave.type_four(pencil));
            found.extend(grave.type_three(pencil));
        }
    }
    found
        .into_iter()
        .filter(|step| !step.eliminations.is_empty() || !step.placements.is_empty())
        .reduce(|best, step| {
            if step.rating < best.rating - 1e-9 {
                step
            } else {
                best
            }
        })
}

/// The cells that break a grave, each with its BUG values, and all their
/// BUG values.
struct Grave {
    cells: Vec<(Cell, u64)>,
    all: u64,
}

impl Grave {
    /// The grave `pencil` would be but for some cells' digits, if any: each
    /// digit with other than two places in a house falls to the one cell of
    /// three digits or more among them (or, when one digit alone breaks the
    /// houses, to every such cell).
    fn find<P: Marks>(pencil: &P) -> Option<Grave> {
        let n = pencil.size();
        let mut cells: Vec<(Cell, u64)> = Vec::new();
        let mut add = |cell: Cell, digit: u8| match cells.iter_mut().find(|(c, _)| *c == cell) {
            Some((_, values)) => *values |= 1 << (digit - 1),
            None => cells.push((cell, 1 << (digit - 1))),
        };
        let mut wide_cells: Vec<Cell> = Vec::new();
        let mut only: Option<Option<u8>> = None;
        for unit in 0..pencil.house_count() {
            let house = pencil.house(unit);
            for digit in 1..=n as u8 {
                let places = pencil.places(unit, digit);
                if matches!(places.count_ones(), 0 | 2) {
                    continue;
                }
                let wide: Vec<Cell> = cells_at(house, places)
                    .filter(|&cell| pencil.candidates(cell).count_ones() >= 3)
                    .collect();
                match wide[..] {
                    [] => return None,
                    [cell] => add(cell, digit),
                    _ => {}
                }
                wide_cells.extend(wide);
                only = match only {
                    None => Some(Some(digit)),
                    Some(Some(same)) if same == digit => Some(Some(same)),
                    _ => Some(None),
                };
            }
        }
        if let Some(Some(digit)) = only {
            for cell in wide_cells {
                add(cell, digit);
            }
        }
        let grave = Grave {
            all: cells.iter().fold(0, |all, &(_, values)| all | values),
            cells,
        };
        grave.holds(pencil).then_some(grave)
    }

    /// The candidates of `cell` but its BUG values.
    fn rest<P: Marks>(&self, pencil: &P, cell: Cell) -> u64 {
        let values = self.cells.iter().find(|(c, _)| *c == cell);
        pencil.candidates(cell) & !values.map_or(0, |&(_, values)| values)
    }

    /// True when, without the BUG values, every empty cell holds two digits
    /// and every digit has two places or none in every house.
    fn holds<P: Marks>(&self, pencil: &P) -> bool {
        if self.cells.is_empty() {
            return false;
        }
        let cells = pencil.shape().cells();
        let pairs = (0..cells)
            .filter(|&cell| pencil.candidates(cell) != 0)
            .all(|cell| self.rest(pencil, cell).count_ones() == 2);
        pairs
            && (0..pencil.house_count()).all(|unit| {
                let house = pencil.house(unit);
                (1..=pencil.size() as u8).all(|digit| {
                    let bit = 1 << (digit - 1);
                    let places = cells_at(house, pencil.places(unit, digit))
                        .filter(|&cell| self.rest(pencil, cell) & bit != 0)
                        .count();
                    places == 0 || places == 2
                })
            })
    }

    fn step(
        &self,
        technique: Technique,
        rating: f64,
        set: Vec<Candidate>,
        eliminations: Vec<Candidate>,
    ) -> LogicStep {
        let mut pattern: Vec<Candidate> = self
            .cells
            .iter()
            .flat_map(|&(cell, values)| digits(values).map(move |digit| (cell, digit)))
            .collect();
        pattern.extend(set);
        LogicStep {
            rating,
            ..LogicStep::eliminating(technique, pattern, eliminations)
        }
    }

    /// Type 1: the one cell holds one of its BUG values (placed when it has
    /// one).
    fn type_one<P: Marks>(&self, pencil: &P, cell: Cell, values: u64) -> LogicStep {
        let others = digits(pencil.candidates(cell) & !values)
            .map(|digit| (cell, digit))
            .collect();
        let mut step = self.step(Technique::BugPlusOne, 5.6, Vec::new(), others);
        if values.count_ones() == 1 {
            step.placements = digits(values).map(|digit| (cell, digit)).collect();
            step.eliminations.clear();
        }
        step
    }

    /// Type 2: one BUG value for all: the cells that see every BUG cell
    /// lose it.
    fn type_two<P: Marks>(&self, pencil: &P) -> LogicStep {
        let eliminations = self
            .seeing_all(pencil)
            .filter(|&cell| pencil.candidates(cell) & self.all != 0)
            .flat_map(|cell| digits(self.all).map(move |digit| (cell, digit)))
            .collect();
        self.step(Technique::BugType2, 5.7, Vec::new(), eliminations)
    }

    /// The empty cells that see every BUG cell, not being one.
    fn seeing_all<'a, P: Marks>(&'a self, pencil: &'a P) -> impl Iterator<Item = Cell> + 'a {
        (0..pencil.shape().cells()).filter(move |&cell| {
            pencil.candidates(cell) != 0
                && self
                    .cells
                    .iter()
                    .all(|&(bug, _)| bug != cell && pencil.sees(bug, cell))
        })
    }

    /// The houses holding every BUG cell.
    fn houses<P: Marks>(&self, pencil: &P) -> Vec<usize> {
        let cell = self.cells[0].0;
        pencil
            .houses_of(cell)
            .iter()
            .map(|&unit| usize::from(unit))
            .filter(|&unit| {
                let house = pencil.house(unit);
                self.cells
                    .iter()
                    .all(|&(cell, _)| house.iter().any(|&c| usize::from(c) == cell))
            })
            .collect()
    }

    /// Type 4: two BUG cells in a house, with one other digit in common:
    /// each loses its digit that is neither that one nor a BUG value.
    fn type_four<P: Marks>(&self, pencil: &P) -> Option<LogicStep> {
        let [(a, _), (b, _)] = self.cells[..] else {
            return None;
        };
        let common = pencil.candidates(a) & pencil.candidates(b) & !self.all;
        if common.count_ones() != 1 || self.houses(pencil).is_empty() {
            return None;
        }
        let eliminations = [a, b]
            .into_iter()
            .flat_map(|cell| {
                digits(self.rest(pencil, cell) & !common).map(move |digit| (cell, digit))
            })
            .collect();
        Some(self.step(Technique::BugType4, 5.7, Vec::new(), eliminations))
    }

    /// Type 3: the BUG values, as one cell, and other cells of a house of
    /// every BUG cell make a naked set: the house's other cells lose its
    /// digits.
    fn type_three<P: Marks>(&self, pencil: &P) -> Option<LogicStep> {
        let largest = if pencil.size() <= 9 { 6 } else { 4 };
        for degree in 2..=largest {
            for unit in self.houses(pencil) {
                let house = pencil.house(unit);
                let free = (0..house.len())
                    .filter(|&at| {
                        let cell = usize::from(house[at]);
                        pencil.candidates(cell) != 0 && self.cells.iter().all(|&(c, _)| c != cell)
                    })
                    .fold(0u64, |set, at| set | 1 << at);
                if (free.count_ones() as usize) < degree {
                    continue;
                }
                for others in subsets(free, degree as u32 - 1) {
                    let held = cells_at(house, others).fold(0, |set, c| set | pencil.candidates(c));
                    if held.count_ones() as usize != degree || self.all & !held != 0 {
                        continue;
                    }
                    let eliminations: Vec<Candidate> = cells_at(house, free & !others)
                        .flat_map(|c| digits(pencil.candidates(c) & held).map(move |d| (c, d)))
                        .collect();
                    if eliminations.is_empty() {
                        continue;
                    }
                    let set = cells_at(house, others)
                        .flat_map(|c| digits(pencil.candidates(c)).map(move |d| (c, d)))
                        .collect();
                    let rating = 5.7 + (degree - 1) as f64 * 0.1;
                    return Some(self.step(Technique::BugType3, rating, set, eliminations));
                }
            }
        }
        None
    }
}
