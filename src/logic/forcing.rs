//! Contradictions: a candidate is false when assuming it leads, by forced
//! moves, to a cell with no candidate or a unit where a digit has no place.
//! Three depths, each a rung of the ladder with Sudoku Explainer's rating for
//! that kind of reasoning: the moves of the assumed digit alone (an X-chain's
//! reach, from 6.5), singles of every digit (a forcing chain, from 7.0), and
//! singles with locked candidates (a dynamic forcing chain, from 8.5). Of all
//! the candidates that break, the one with the fewest forced moves is taken
//! (the easiest, as Sudoku Explainer takes its easiest chain), and the length
//! adds tenths as Sudoku Explainer's length modifier does.

use super::pencil::{ALL, CELL_UNITS, Digits, PEERS, Pencil, UNITS, bit, digits};
use super::step::{LogicStep, Technique};
use crate::board::{CELLS, Cell};

/// What the propagation after an assumption may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Depth {
    /// Hidden singles of the assumed digit only.
    OneDigit,
    /// Naked and hidden singles of every digit.
    Singles,
    /// Singles, and pointing and claiming.
    Locked,
}

/// The candidate whose assumption leads to a contradiction at `depth` in the
/// fewest forced moves, eliminated; its rating is the technique's plus the
/// length modifier of those moves.
pub(super) fn contradiction(
    pencil: &Pencil,
    depth: Depth,
    technique: Technique,
) -> Option<LogicStep> {
    let start = Forced::new(pencil);
    let mut best: Option<(usize, Cell, u8)> = None;
    for cell in 0..CELLS {
        let candidates = pencil.candidates(cell);
        if candidates.count_ones() < 2 {
            continue;
        }
        for digit in digits(candidates) {
            let limit = best.map_or(usize::MAX, |(moves, _, _)| moves);
            let mut trial = start.clone();
            if let Trial::Broke(moves) = trial.moves_to_contradiction(cell, digit, depth, limit)
                && best.is_none_or(|(shortest, _, _)| moves < shortest)
            {
                best = Some((moves, cell, digit));
            }
        }
    }
    let (moves, cell, digit) = best?;
    let mut step = LogicStep::eliminating(technique, vec![(cell, digit)], vec![(cell, digit)]);
    step.rating = (technique.rating() * 10.0 + length_modifier(moves)).round() / 10.0;
    Some(step)
}

/// How one trial ended.
enum Trial {
    /// The grid broke after this many moves.
    Broke(usize),
    /// No move was left, and the grid holds.
    Held,
    /// The limit of moves was reached first.
    Capped,
}

/// Tenths added for a chain of `moves` forced moves: one more each time the
/// length passes 4, 6, 8, 12, 16, 24, 32, 48, ... (each step half again or a
/// third again the last), the shape of Sudoku Explainer's length modifier.
fn length_modifier(moves: usize) -> f64 {
    let mut tenths = 0.0;
    let mut limit = 4usize;
    let mut grow_by_half = true;
    while moves > limit {
        tenths += 1.0;
        limit = if grow_by_half {
            limit + limit / 2
        } else {
            limit * 4 / 3
        };
        grow_by_half = !grow_by_half;
    }
    tenths
}

/// A pencil-mark grid that keeps, move by move, what a trial asks after each
/// one: the cells left with one candidate, the units where a digit has one
/// place, and whether the grid broke. A move touches a cell and its peers, so
/// a trial never looks over the whole grid again.
#[derive(Clone)]
struct Forced {
    pencil: Pencil,
    /// The digits placed in each unit.
    held: [Digits; 27],
    /// The empty cells with one candidate, as bits of their numbers.
    naked: u128,
    /// For each digit, the units (as bits) where it is not placed and has one place.
    hidden: [u32; 9],
    /// Some cell has neither digit nor candidate, or some unit has a digit
    /// neither placed nor with a place.
    broken: bool,
}

impl Forced {
    fn new(pencil: &Pencil) -> Forced {
        let mut forced = Forced {
            pencil: pencil.clone(),
            held: [0; 27],
            naked: 0,
            hidden: [0; 9],
            broken: false,
        };
        for (cell, units) in CELL_UNITS.iter().enumerate() {
            for &(unit, _) in units {
                forced.held[usize::from(unit)] |= bit(pencil.value(cell));
            }
            match (pencil.value(cell), pencil.candidates(cell).count_ones()) {
                (0, 0) => forced.broken = true,
                (0, 1) => forced.naked |= 1 << cell,
                _ => {}
            }
        }
        for unit in 0..UNITS.len() {
            for digit in digits(ALL & !forced.held[unit]) {
                match pencil.places(unit, digit).count_ones() {
                    0 => forced.broken = true,
                    1 => forced.hidden[usize::from(digit - 1)] |= 1 << unit,
                    _ => {}
                }
            }
        }
        forced
    }

    /// Places `digit` in `cell` and makes the forced moves of `depth` until
    /// the grid breaks, none is left, or `limit` moves are made.
    fn moves_to_contradiction(
        &mut self,
        cell: Cell,
        digit: u8,
        depth: Depth,
        limit: usize,
    ) -> Trial {
        self.place(cell, digit);
        let wanted = match depth {
            Depth::OneDigit => bit(digit),
            Depth::Singles | Depth::Locked => ALL,
        };
        let mut moves = 1;
        loop {
            if self.broken {
                return Trial::Broke(moves);
            }
            if moves >= limit {
                return Trial::Capped;
            }
            let naked = match depth {
                Depth::OneDigit => None,
                Depth::Singles | Depth::Locked => self.first_naked(),
            };
            match naked.or_else(|| self.first_hidden(wanted)) {
                Some((cell, digit)) => self.place(cell, digit),
                None if depth == Depth::Locked && self.locked() => {}
                None => return Trial::Held,
            }
            moves += 1;
        }
    }

    /// The naked single in the first cell that has one.
    fn first_naked(&self) -> Option<(Cell, u8)> {
        (self.naked != 0).then(|| {
            let cell = self.naked.trailing_zeros() as usize;
            (
                cell,
                self.pencil.candidates(cell).trailing_zeros() as u8 + 1,
            )
        })
    }

    /// The hidden single of a digit in `wanted` in the first unit that has
    /// one, its lowest digit there.
    fn first_hidden(&self, wanted: Digits) -> Option<(Cell, u8)> {
        let (unit, digit) = digits(wanted)
            .map(|digit| (self.hidden[usize::from(digit - 1)].trailing_zeros(), digit))
            .min()?;
        let unit = usize::try_from(unit)
            .ok()
            .filter(|&unit| unit < UNITS.len())?;
        let at = self.pencil.places(unit, digit).trailing_zeros() as usize;
        Some((usize::from(UNITS[unit][at]), digit))
    }

    /// Writes `digit` into `cell` and takes it from its peers' candidates.
    fn place(&mut self, cell: Cell, digit: u8) {
        let d = usize::from(digit - 1);
        for &(unit, _) in &CELL_UNITS[cell] {
            self.held[usize::from(unit)] |= bit(digit);
            self.hidden[d] &= !(1 << unit);
        }
        let others = self.pencil.candidates(cell) & !bit(digit);
        self.naked &= !(1 << cell);
        for other in digits(others) {
            self.pencil.eliminate(cell, other);
            self.count_places(cell, other);
        }
        for &peer in &PEERS[cell] {
            self.eliminate(usize::from(peer), digit);
        }
        self.pencil.place(cell, digit);
    }

    /// Takes `digit` from the candidates of `cell`, if it is one.
    #[inline]
    fn eliminate(&mut self, cell: Cell, digit: u8) {
        let candidates = self.pencil.candidates(cell);
        if candidates & bit(digit) == 0 {
            return;
        }
        self.pencil.eliminate(cell, digit);
        match (candidates & !bit(digit)).count_ones() {
            0 => {
                self.broken = true;
                self.naked &= !(1 << cell);
            }
            1 => self.naked |= 1 << cell,
            _ => {}
        }
        self.count_places(cell, digit);
    }

    /// Looks again at the places of `digit` in the units of `cell`, which
    /// just lost it: one place left is a hidden single, none a broken grid.
    #[inline]
    fn count_places(&mut self, cell: Cell, digit: u8) {
        let d = usize::from(digit - 1);
        for &(unit, _) in &CELL_UNITS[cell] {
            let unit = usize::from(unit);
            if self.held[unit] & bit(digit) == 0 {
                match self.pencil.places(unit, digit).count_ones() {
                    0 => {
                        self.broken = true;
                        self.hidden[d] &= !(1 << unit);
                    }
                    1 => self.hidden[d] |= 1 << unit,
                    _ => {}
                }
            }
        }
    }

    /// Makes the eliminations of one pointing or claiming; false when there is none.
    fn locked(&mut self) -> bool {
        let step = super::intersections::pointing(&self.pencil)
            .into_iter()
            .chain(super::intersections::claiming(&self.pencil))
            .next();
        let Some(step) = step else {
            return false;
        };
        for &(cell, digit) in &step.placements {
            self.place(cell, digit);
        }
        for &(cell, digit) in &step.eliminations {
            self.eliminate(cell, digit);
        }
        true
    }
}
