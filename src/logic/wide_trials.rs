//! The contradiction rungs on grids other than 9x9: the same definition as the
//! 9x9 trials (`forcing.rs`: an assumption, forced moves at a depth, the
//! candidate that breaks the grid in the fewest moves), made for grids of up to
//! 4,096 cells. A trial keeps a queue of the singles its moves left instead of
//! bitboards, and trials run in rounds of rising move limits, each round
//! starting every trial afresh, so memory holds one trial at a time; `stop` is
//! asked between trials.

use std::collections::VecDeque;

use super::marks::{Marks, bit, digits};
use super::step::{LogicStep, Technique};
use super::trials::{Attempt, Depth, Forcing, Logged, Progress, Trial, Trials, broken_by};
use super::wide::WidePencil;
use crate::board::Cell;

impl Trials for WidePencil {
    /// No nested trials here yet: each nested move searches the whole grid's
    /// static chains, seconds a step at 16x16 (the 9x9 grid has them).
    fn contradiction(
        &self,
        depth: Depth,
        technique: Technique,
        stop: &dyn Fn() -> bool,
    ) -> Option<LogicStep> {
        if depth >= Depth::Nested {
            return None;
        }
        let start = Forced::new(self);
        let assumptions: Vec<(Cell, u8)> = (0..self.shape().cells())
            .filter(|&cell| self.candidates(cell).count_ones() >= 2)
            .flat_map(|cell| digits(self.candidates(cell)).map(move |digit| (cell, digit)))
            .collect();
        if start.progress.broken {
            // Every assumption finds the grid broken at its first move.
            let first = *assumptions.first()?;
            return Some(broken_by(1, first, technique));
        }
        let (moves, candidate) = deepening(&start, &assumptions, depth, stop)?;
        let mut step = broken_by(moves, candidate, technique);
        let mut trial = start.clone();
        trial.assume(candidate.0, candidate.1, depth);
        Logged::trace(&mut step, self, trial, moves);
        Some(step)
    }
}

/// The assumption that breaks the grid in the fewest moves (the first of those
/// as short): rounds of limits 4, 8, 16, ..., each trying every assumption not
/// yet known to hold up to the limit. The first round where one breaks has the
/// shortest, as every trial that did not break in the round before needs more
/// moves than its limit.
fn deepening(
    start: &Forced,
    assumptions: &[(Cell, u8)],
    depth: Depth,
    stop: &dyn Fn() -> bool,
) -> Option<(usize, (Cell, u8))> {
    let mut open: Vec<(Cell, u8)> = assumptions.to_vec();
    let mut trial = start.clone();
    let mut limit = 4usize;
    while !open.is_empty() {
        let mut best: Option<(usize, (Cell, u8))> = None;
        let mut capped = Vec::new();
        for &(cell, digit) in &open {
            if stop() {
                return None;
            }
            trial.clone_from(start);
            trial.assume(cell, digit, depth);
            let shortest = best.map_or(limit, |(moves, _)| moves);
            match trial.go_on(shortest) {
                Trial::Broke(moves) if best.is_none_or(|(known, _)| moves < known) => {
                    best = Some((moves, (cell, digit)));
                }
                Trial::Capped => capped.push((cell, digit)),
                _ => {}
            }
        }
        if best.is_some() {
            return best;
        }
        open = capped;
        limit = limit.saturating_mul(2);
    }
    None
}

/// A single a move left, to be made if it still holds when its turn comes.
#[derive(Debug, Clone, Copy)]
enum Single {
    /// The cell has one candidate.
    Naked(Cell),
    /// The digit has one place in the house.
    Hidden(usize, u8),
}

/// A grid under forced moves: what each house holds, the singles left to
/// make, whether it broke.
struct Forced {
    pencil: WidePencil,
    /// The digits placed in each house.
    held: Vec<u64>,
    /// The singles the moves left, oldest first.
    singles: VecDeque<Single>,
    /// Whether it broke, how deep it goes, how far it is.
    progress: Progress,
    /// The assumed digit: the only one a `Depth::OneDigit` trial places.
    digit: u8,
}

impl Clone for Forced {
    fn clone(&self) -> Forced {
        Forced {
            pencil: self.pencil.clone(),
            held: self.held.clone(),
            singles: self.singles.clone(),
            ..*self
        }
    }

    /// Copies into the buffers already held: a trial starts this way.
    fn clone_from(&mut self, source: &Forced) {
        self.pencil.clone_from(&source.pencil);
        self.held.clone_from(&source.held);
        self.singles.clone_from(&source.singles);
        (self.progress, self.digit) = (source.progress, source.digit);
    }
}

impl Forced {
    fn new(pencil: &WidePencil) -> Forced {
        let mut forced = Forced {
            pencil: pencil.clone(),
            held: vec![0; pencil.house_count()],
            singles: VecDeque::new(),
            progress: Progress::START,
            digit: 0,
        };
        for cell in 0..pencil.shape().cells() {
            let value = pencil.value(cell);
            for &unit in pencil.houses_of(cell) {
                forced.held[usize::from(unit)] |= bit(value);
            }
            forced.progress.broken |= value == 0 && pencil.candidates(cell) == 0;
        }
        for unit in 0..pencil.house_count() {
            for digit in digits(pencil.shape().all_digits() & !forced.held[unit]) {
                forced.progress.broken |= pencil.places(unit, digit) == 0;
            }
        }
        forced
    }

    /// Places `digit` in `cell`, the first move of a trial of `depth`.
    fn assume(&mut self, cell: Cell, digit: u8, depth: Depth) {
        self.progress.depth = depth;
        self.digit = digit;
        self.singles.clear();
        self.place(cell, digit);
        self.progress.moves = 1;
    }

    /// Writes `digit` into `cell`, takes it from the peers and the cell's
    /// other candidates away, and notes what that broke or left single.
    fn place(&mut self, cell: Cell, digit: u8) {
        for k in 0..self.pencil.houses_of(cell).len() {
            self.held[usize::from(self.pencil.houses_of(cell)[k])] |= bit(digit);
        }
        for k in 0..self.pencil.peers_of(cell).len() {
            self.eliminate(usize::from(self.pencil.peers_of(cell)[k]), digit);
        }
        for other in digits(self.pencil.candidates(cell) & !bit(digit)) {
            self.pencil.eliminate(cell, other);
            self.count_places(cell, other);
        }
        self.pencil.place(cell, digit);
    }

    /// Takes `digit` from the candidates of `cell`, if it is one.
    fn eliminate(&mut self, cell: Cell, digit: u8) {
        let before = self.pencil.candidates(cell);
        if before & bit(digit) == 0 {
            return;
        }
        self.pencil.eliminate(cell, digit);
        match (before & !bit(digit)).count_ones() {
            0 => self.progress.broken = true,
            1 if self.progress.depth != Depth::OneDigit => {
                self.singles.push_back(Single::Naked(cell))
            }
            _ => {}
        }
        self.count_places(cell, digit);
    }

    /// Looks again at the places of `digit` in the houses of `cell`, which
    /// just lost it: one place left is a hidden single, none a broken grid.
    fn count_places(&mut self, cell: Cell, digit: u8) {
        for k in 0..self.pencil.houses_of(cell).len() {
            let unit = usize::from(self.pencil.houses_of(cell)[k]);
            if self.held[unit] & bit(digit) != 0 {
                continue;
            }
            match self.pencil.places(unit, digit).count_ones() {
                0 => self.progress.broken = true,
                1 if self.progress.depth != Depth::OneDigit || digit == self.digit => {
                    self.singles.push_back(Single::Hidden(unit, digit));
                }
                _ => {}
            }
        }
    }

    /// The next single that still holds, if any.
    fn next_single(&mut self) -> Option<(Cell, u8)> {
        while let Some(single) = self.singles.pop_front() {
            match single {
                Single::Naked(cell) => {
                    let held = self.pencil.candidates(cell);
                    if self.pencil.value(cell) == 0 && held.count_ones() == 1 {
                        return Some((cell, held.trailing_zeros() as u8 + 1));
                    }
                }
                Single::Hidden(unit, digit) => {
                    let places = self.pencil.places(unit, digit);
                    if self.held[unit] & bit(digit) == 0 && places.count_ones() == 1 {
                        let cells = self.pencil.house(unit);
                        return Some((usize::from(cells[places.trailing_zeros() as usize]), digit));
                    }
                }
            }
        }
        None
    }
}

impl Forcing for Forced {
    type Grid = WidePencil;

    fn grid(&self) -> &WidePencil {
        &self.pencil
    }

    fn progress(&mut self) -> &mut Progress {
        &mut self.progress
    }

    fn next_single(&mut self) -> Option<(Cell, u8)> {
        Forced::next_single(self)
    }

    fn place(&mut self, cell: Cell, digit: u8) {
        Forced::place(self, cell, digit);
    }

    fn eliminate(&mut self, cell: Cell, digit: u8) {
        Forced::eliminate(self, cell, digit);
    }
}
