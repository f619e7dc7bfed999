//! Unique rectangles and loops, as Sudoku Explainer defines them (its four
//! types, the third naked or hidden). They rest on the puzzle having one
//! solution: the service checks that before it explains or rates. The
//! bivalue universal grave is `grave.rs`'s.
//!
//! A loop is an even ring of cells that all hold two digits `a` and `b`, each
//! house it enters entered by two of its cells an odd number of places apart
//! round the ring. Were every cell of it `a` or `b`, they could swap round the
//! ring: two solutions. So some cell of it holds another digit, which the
//! types read: one cell with more (type 1) loses `a` and `b`; cells with one
//! same extra digit (type 2) make it true in one of them; two cells with more
//! in one house make a naked or hidden set there (type 3), or, one of `a` and
//! `b` having no other place in that house, lose the other (type 4).

use super::marks::{Marks, cells_at, digits, low_bits, subsets};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::Cell;
use std::collections::HashSet;

/// The easiest unique rectangle or loop on `pencil`: by rating (4.5, more
/// for a longer loop and a larger set), then by type.
pub(super) fn easiest<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let mut best: Option<(f64, usize, LogicStep)> = None;
    for (cells, pair) in loops(pencil) {
        for step in steps(pencil, &cells, pair) {
            let rank = step.technique as usize;
            let better = best.as_ref().is_none_or(|(rating, kind, _)| {
                step.rating < rating - 1e-9 || (step.rating < rating + 1e-9 && rank < *kind)
            });
            if better {
                best = Some((step.rating, rank, step));
            }
        }
    }
    best.map(|(_, _, step)| step)
}

/// Every loop on `pencil`, each once, with its two digits: from each
/// bivalue cell, rings through cells holding both its digits, at most two
/// of them holding more, or any number holding one same digit more.
fn loops<P: Marks>(pencil: &P) -> Vec<(Vec<Cell>, u64)> {
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for start in 0..pencil.shape().cells() {
        let pair = pencil.candidates(start);
        if pair.count_ones() != 2 {
            continue;
        }
        let mut walk = Walk {
            pencil,
            pair,
            path: Vec::new(),
            count: vec![0; pencil.house_count()],
            first: vec![0; pencil.house_count()],
            open: 0,
            found: Vec::new(),
        };
        walk.enter(start);
        walk.extend(start, usize::MAX, 2, 0);
        for ring in walk.found {
            let mut key = ring.clone();
            key.sort_unstable();
            if seen.insert((key, pair)) {
                found.push((ring, pair));
            }
        }
    }
    found
}

/// A walk from one cell in search of loops of its two digits.
struct Walk<'a, P> {
    pencil: &'a P,
    pair: u64,
    path: Vec<Cell>,
    /// Per house: how many cells of the path it holds, and where the first
    /// of them stands on the path.
    count: Vec<u8>,
    first: Vec<usize>,
    /// How many houses hold one cell of the path (a loop leaves none).
    open: usize,
    found: Vec<Vec<Cell>>,
}

impl<P: Marks> Walk<'_, P> {
    /// Puts `cell` on the path when each of its houses holds no cell of the
    /// path yet, or one an odd number of places back.
    fn enter(&mut self, cell: Cell) -> bool {
        let at = self.path.len();
        let fits = self.pencil.houses_of(cell).iter().all(|&unit| {
            let unit = usize::from(unit);
            self.count[unit] == 0 || (self.count[unit] == 1 && (at - self.first[unit]) % 2 == 1)
        });
        if fits {
            for &unit in self.pencil.houses_of(cell) {
                let unit = usize::from(unit);
                if self.count[unit] == 0 {
                    self.first[unit] = at;
                    self.open += 1;
                } else {
                    self.open -= 1;
                }
                self.count[unit] += 1;
            }
            self.path.push(cell);
        }
        fits
    }

    fn leave(&mut self) {
        let Some(cell) = self.path.pop() else { return };
        for &unit in self.pencil.houses_of(cell) {
            let unit = usize::from(unit);
            self.count[unit] -= 1;
            if self.count[unit] == 0 {
                self.open -= 1;
            } else {
                self.open += 1;
            }
        }
    }

    /// Goes on from `cell` by a house of another kind than the last link's
    /// (row, column, box), `allowed` more cells with other digits to come
    /// unless they all have the one other digit `extra`.
    fn extend(&mut self, cell: Cell, last: usize, allowed: i32, extra: u64) {
        let n = self.pencil.size();
        for &unit in self.pencil.houses_of(cell) {
            let kind = usize::from(unit) / n;
            if kind == last {
                continue;
            }
            for &next in self.pencil.house(usize::from(unit)) {
                let next = usize::from(next);
                if next == self.path[0] {
                    if self.path.len() >= 4 && self.open == 0 {
                        self.found.push(self.path.clone());
                    }
                    continue;
                }
                let candidates = self.pencil.candidates(next);
                if candidates & self.pair != self.pair || self.path.contains(&next) {
                    continue;
                }
                let more = candidates & !self.pair;
                // A loop is found from its first cell of just the two digits.
                if more == 0 && next < self.path[0] {
                    continue;
                }
                let extras = extra | more;
                if (more == 0 || extras.count_ones() == 1 || allowed > 0) && self.enter(next) {
                    self.extend(next, kind, allowed - (more != 0) as i32, extras);
                    self.leave();
                }
            }
        }
    }
}

/// What a loop of `pair` on `cells` gives, of each type that applies.
fn steps<P: Marks>(pencil: &P, cells: &[Cell], pair: u64) -> Vec<LogicStep> {
    let ring = Ring {
        cells,
        pair,
        rating: loop_rating(cells.len()),
        rectangle: cells.len() == 4,
    };
    let extras: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|&cell| pencil.candidates(cell) != pair)
        .collect();
    let more = extras
        .iter()
        .fold(0, |set, &cell| set | pencil.candidates(cell))
        & !pair;
    let mut found = Vec::new();
    match extras[..] {
        [] => {}
        [cell] => found.push(ring.step(
            1,
            0.0,
            Vec::new(),
            digits(pair).map(|digit| (cell, digit)).collect(),
        )),
        [c1, c2] => {
            if more.count_ones() == 1 {
                found.extend(ring.type_two(pencil, &extras, more));
            } else {
                found.extend(ring.type_three(pencil, [c1, c2], more));
            }
            found.extend(ring.type_four(pencil, [c1, c2]));
        }
        _ => found.extend(ring.type_two(pencil, &extras, more)),
    }
    found.retain(|step| !step.eliminations.is_empty());
    found
}

/// Sudoku Explainer's rating of a loop of `len` cells: 4.5 for a rectangle,
/// 4.6 for six cells, 4.7 for eight, 5.0 from ten.
fn loop_rating(len: usize) -> f64 {
    4.5 + match len {
        0..6 => 0.0,
        6..8 => 0.1,
        8..10 => 0.2,
        _ => 0.5,
    }
}

/// A loop found, and what its steps share.
struct Ring<'a> {
    cells: &'a [Cell],
    pair: u64,
    rating: f64,
    rectangle: bool,
}

impl Ring<'_> {
    /// A step of type `kind`, rated the loop's and `more`, its pattern the
    /// loop's digits and `set` (a type 3's other cells).
    fn step(
        &self,
        kind: u8,
        more: f64,
        set: Vec<Candidate>,
        eliminations: Vec<Candidate>,
    ) -> LogicStep {
        use Technique::*;
        let technique = match (self.rectangle, kind) {
            (true, 1) => UniqueRectangle,
            (true, 2) => UniqueRectangleType2,
            (true, 3) => UniqueRectangleType3,
            (true, _) => UniqueRectangleType4,
            (false, 1) => UniqueLoop,
            (false, 2) => UniqueLoopType2,
            (false, 3) => UniqueLoopType3,
            (false, _) => UniqueLoopType4,
        };
        let mut pattern: Vec<Candidate> = self
            .cells
            .iter()
            .flat_map(|&cell| digits(self.pair).map(move |digit| (cell, digit)))
            .collect();
        pattern.extend(set);
        LogicStep {
            rating: self.rating + more,
            ..LogicStep::eliminating(technique, pattern, eliminations)
        }
    }

    /// Type 2: the cells with more all have the one digit `more` besides:
    /// one of them holds it, so the cells seeing them all lose it.
    fn type_two<P: Marks>(&self, pencil: &P, extras: &[Cell], more: u64) -> Option<LogicStep> {
        let digit = digits(more).next()?;
        let eliminations = (0..pencil.shape().cells())
            .filter(|&cell| pencil.candidates(cell) & more != 0 && !extras.contains(&cell))
            .filter(|&cell| extras.iter().all(|&extra| pencil.sees(cell, extra)))
            .map(|cell| (cell, digit))
            .collect();
        Some(self.step(2, 0.0, Vec::new(), eliminations))
    }

    /// Type 4: in a house of the two cells with more, one of the loop's
    /// digits has no other place: one of them holds it, so neither holds
    /// the other digit.
    fn type_four<P: Marks>(&self, pencil: &P, pair: [Cell; 2]) -> Vec<LogicStep> {
        let mut found = Vec::new();
        for (unit, at) in shared(pencil, pair) {
            let both = 1u64 << at[0] | 1u64 << at[1];
            let ends: Vec<u8> = digits(self.pair).collect();
            for (lock, other) in [(0, 1), (1, 0)] {
                if pencil.places(unit, ends[lock]) == both {
                    let eliminations = pair.iter().map(|&cell| (cell, ends[other])).collect();
                    found.push(self.step(4, 0.0, Vec::new(), eliminations));
                }
            }
        }
        found
    }

    /// Type 3: one of the two cells with more (`pair`) holds one of its
    /// other digits (`more`), as a cell of them would: with other cells of
    /// a house they share it makes a naked set, or, the loop's digits
    /// taking one place of the two, a hidden set.
    fn type_three<P: Marks>(&self, pencil: &P, pair: [Cell; 2], more: u64) -> Vec<LogicStep> {
        let n = pencil.size();
        let largest = if n <= 9 { 7 } else { 4 };
        let mut found = Vec::new();
        for degree in 2..=largest.min(n.saturating_sub(2)) {
            for (unit, at) in shared(pencil, pair) {
                let house = pencil.house(unit);
                let empty = (0..house.len())
                    .filter(|&at| pencil.candidates(usize::from(house[at])) != 0)
                    .fold(0u64, |set, at| set | 1 << at);
                let free = empty & !(1 << at[0]) & !(1 << at[1]);
                let room = empty.count_ones() as usize;
                if degree * 2 <= room && degree >= more.count_ones() as usize {
                    found.extend(self.naked(pencil, unit, pair, more, free, degree));
                }
                if degree * 2 < room {
                    found.extend(self.hidden(pencil, unit, at, more, degree));
                }
            }
        }
        found
    }

    /// Type 3 with a naked set of `degree` digits: the digits `more` and
    /// `degree - 1` other cells of house `unit` at the positions in `free`.
    fn naked<P: Marks>(
        &self,
        pencil: &P,
        unit: usize,
        pair: [Cell; 2],
        more: u64,
        free: u64,
        degree: usize,
    ) -> Vec<LogicStep> {
        let house = pencil.house(unit);
        let both = more & pencil.candidates(pair[0]) & pencil.candidates(pair[1]);
        let mut found = Vec::new();
        for others in subsets(free, degree as u32 - 1) {
            let held = cells_at(house, others).fold(0, |set, cell| set | pencil.candidates(cell));
            // Every other digit of one cell only is in another cell of the set.
            if (more | held).count_ones() as usize != degree || (both | held) != (more | held) {
                continue;
            }
            let set = more | held;
            let eliminations = cells_at(house, free & !others)
                .flat_map(|cell| digits(pencil.candidates(cell) & set).map(move |d| (cell, d)))
                .collect();
            let members = cells_at(house, others)
                .flat_map(|cell| digits(pencil.candidates(cell)).map(move |d| (cell, d)))
                .collect();
            let extra = (degree - 1) as f64 * 0.1;
            found.push(self.step(3, extra, members, eliminations));
        }
        found
    }

    /// Type 3 with a hidden set: the loop's digits and `degree - 2` others
    /// (not in `more`) confined in house `unit` to `degree` places, the
    /// second cell with more (at `at[1]`) set aside.
    fn hidden<P: Marks>(
        &self,
        pencil: &P,
        unit: usize,
        at: [usize; 2],
        more: u64,
        degree: usize,
    ) -> Vec<LogicStep> {
        let house = pencil.house(unit);
        let rest = low_bits(pencil.size()) & !self.pair & !more;
        let aside = !(1u64 << at[1]);
        let mut found = Vec::new();
        for chosen in subsets(rest, degree as u32 - 2) {
            let set = chosen | self.pair;
            let spots: Vec<u64> = digits(set)
                .map(|digit| pencil.places(unit, digit) & aside)
                .collect();
            let places = spots.iter().fold(0, |all, &spot| all | spot);
            if spots.contains(&0) || places.count_ones() as usize != degree {
                continue;
            }
            let cells = places & !(1 << at[0]);
            let eliminations = cells_at(house, cells)
                .flat_map(|cell| digits(pencil.candidates(cell) & !set).map(move |d| (cell, d)))
                .collect();
            let members = cells_at(house, cells)
                .flat_map(|cell| digits(pencil.candidates(cell) & set).map(move |d| (cell, d)))
                .collect();
            let extra = (degree - 2) as f64 * 0.1;
            found.push(self.step(3, extra, members, eliminations));
        }
        found
    }
}

/// The houses both cells are in, each with the two cells' positions there.
fn shared<P: Marks>(pencil: &P, pair: [Cell; 2]) -> Vec<(usize, [usize; 2])> {
    let mut found = Vec::new();
    for &unit in pencil.houses_of(pair[0]) {
        let unit = usize::from(unit);
        let house = pencil.house(unit);
        let at = pair.map(|cell| house.iter().position(|&c| usize::from(c) == cell));
        if let [Some(a), Some(b)] = at {
            found.push((unit, [a, b]));
        }
    }
    found
}
