//! Contradictions: a candidate is false when assuming it leads, by forced
//! moves, to a cell with no candidate or a unit where a digit has no place.
//! Three depths, each a rung of the ladder with Sudoku Explainer's rating for
//! that kind of reasoning: the moves of the assumed digit alone (an X-chain's
//! reach, from 6.5), singles of every digit (a forcing chain, from 7.0), and
//! singles with locked candidates (a dynamic forcing chain, from 8.5). Of all
//! the candidates that break, the one with the fewest forced moves is taken
//! (the easiest, as Sudoku Explainer takes its easiest chain), and the length
//! adds tenths as Sudoku Explainer's length modifier does.

use super::chains::{Move, contradiction_links};
use super::pencil::{ALL, CELL_UNITS, Digits, PEERS, Pencil, UNITS, bit, digits};
use super::step::{LogicStep, Technique};
use super::trials::{
    Attempt, Depth, Forcing, Logged, Progress, Trial, Trials, broken_by, rate_by_chain,
};
use crate::board::{CELLS, Cell};

/// The candidate whose assumption leads to a contradiction at `depth` in the
/// fewest forced moves, eliminated; its rating is the technique's plus the
/// length modifier of those moves; `None` too when `stop` says to stop.
pub(super) fn contradiction(
    pencil: &Pencil,
    depth: Depth,
    technique: Technique,
    stop: &dyn Fn() -> bool,
) -> Option<LogicStep> {
    let start = Forced::new(pencil);
    let mut assumptions = (0..CELLS)
        .filter(|&cell| pencil.candidates(cell).count_ones() >= 2)
        .flat_map(|cell| digits(pencil.candidates(cell)).map(move |digit| (cell, digit)));
    if start.progress.broken {
        // Every assumption finds the grid broken at its first move.
        let (cell, digit) = assumptions.next()?;
        return Some(broken_by(1, (cell, digit), technique));
    }
    if depth == Depth::OneDigit {
        let lines = OneDigit::new(&start);
        let trials = assumptions.map(|(cell, digit)| (cell, digit, lines.assume(cell, digit)));
        let (moves, cell, digit) = shortest(trials, stop)?;
        let mut step = broken_by(moves, (cell, digit), technique);
        step.links = contradiction_links(pencil, &lines.assume(cell, digit).moves());
        rate_by_chain(&mut step, 0);
        return Some(step);
    }
    let (moves, cell, digit) = shortest(
        assumptions.map(|(cell, digit)| {
            let mut trial = start.clone();
            trial.assume(cell, digit, depth);
            (cell, digit, trial)
        }),
        stop,
    )?;
    let mut step = broken_by(moves, (cell, digit), technique);
    let mut trial = start.clone();
    trial.assume(cell, digit, depth);
    Logged::trace(&mut step, pencil, trial, moves);
    Some(step)
}

/// The trial that breaks in the fewest moves, the first in the given order
/// of those as short: the number of moves, the cell and the digit. Trials
/// are run in rounds of rising limits (4, 8, 16, ...), each round taking up
/// the trials the last one capped where they stopped, so once a short
/// contradiction is known no trial runs past it.
fn shortest<T: Attempt>(
    trials: impl Iterator<Item = (Cell, u8, T)>,
    stop: &dyn Fn() -> bool,
) -> Option<(usize, Cell, u8)> {
    let mut best: Option<(usize, Cell, u8)> = None;
    let mut capped = Vec::new();
    let mut run = |round: usize, (cell, digit, mut trial): (Cell, u8, T), capped: &mut Vec<_>| {
        let shortest = best.map_or(usize::MAX, |(moves, _, _)| moves);
        let limit = shortest.min(round);
        match trial.go_on(limit) {
            Trial::Broke(moves) if moves < shortest => best = Some((moves, cell, digit)),
            Trial::Capped if limit < shortest => capped.push((cell, digit, trial)),
            _ => {}
        }
    };
    // The first round makes each trial as it comes, the next ones go on with
    // those it capped.
    let mut round = 4usize;
    for trial in trials {
        if stop() {
            return None;
        }
        run(round, trial, &mut capped);
    }
    while !capped.is_empty() {
        round = round.saturating_mul(2);
        for trial in std::mem::take(&mut capped) {
            if stop() {
                return None;
            }
            run(round, trial, &mut capped);
        }
    }
    best
}

/// A pencil-mark grid that keeps, move by move, what a trial asks after each
/// one: the cells left with one candidate, the units where a digit has one
/// place, and whether the grid broke. A move touches a cell and its peers, so
/// a trial never looks over the whole grid again. Its trials are those of
/// every digit's singles (`Depth::Singles` and `Depth::Locked`); `OneDigit`
/// makes the others.
#[derive(Clone)]
pub(super) struct Forced {
    pencil: Pencil,
    /// The digits placed in each unit.
    held: [Digits; 27],
    /// The empty cells with one candidate, as bits of their numbers.
    naked: u128,
    /// For each digit, the units (as bits) where it is not placed and has one place.
    hidden: [u32; 9],
    /// Whether it broke, how deep it goes, how far it is.
    pub(super) progress: Progress,
}

impl Forced {
    pub(super) fn new(pencil: &Pencil) -> Forced {
        let mut forced = Forced {
            pencil: pencil.clone(),
            held: [0; 27],
            naked: 0,
            hidden: [0; 9],
            progress: Progress::START,
        };
        for (cell, units) in CELL_UNITS.iter().enumerate() {
            for &(unit, _) in units {
                forced.held[usize::from(unit)] |= bit(pencil.value(cell));
            }
            match (pencil.value(cell), pencil.candidates(cell).count_ones()) {
                (0, 0) => forced.progress.broken = true,
                (0, 1) => forced.naked |= 1 << cell,
                _ => {}
            }
        }
        for unit in 0..UNITS.len() {
            for digit in digits(ALL & !forced.held[unit]) {
                match pencil.places(unit, digit).count_ones() {
                    0 => forced.progress.broken = true,
                    1 => forced.hidden[usize::from(digit - 1)] |= 1 << unit,
                    _ => {}
                }
            }
        }
        forced
    }

    /// Places `digit` in `cell`, the first move of a trial of `depth`.
    pub(super) fn assume(&mut self, cell: Cell, digit: u8, depth: Depth) {
        self.place(cell, digit);
        self.progress.depth = depth;
        self.progress.moves = 1;
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

    /// The hidden single in the first unit that has one, its lowest digit there.
    fn first_hidden(&self) -> Option<(Cell, u8)> {
        let (unit, digit) = digits(ALL)
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
        // The peers that have the digit, unit by unit (a cell in two of the
        // units is met once: the second time it no longer has the digit).
        for &(unit, _) in &CELL_UNITS[cell] {
            let unit = usize::from(unit);
            let mut places = self.pencil.places(unit, digit);
            while places != 0 {
                let peer = usize::from(UNITS[unit][places.trailing_zeros() as usize]);
                places &= places - 1;
                if peer != cell {
                    self.eliminate(peer, digit);
                }
            }
        }
        self.pencil.fill(cell, digit);
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
                self.progress.broken = true;
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
                        self.progress.broken = true;
                        self.hidden[d] &= !(1 << unit);
                    }
                    1 => self.hidden[d] |= 1 << unit,
                    _ => {}
                }
            }
        }
    }
}

impl Forcing for Forced {
    type Grid = Pencil;

    fn grid(&self) -> &Pencil {
        &self.pencil
    }

    fn progress(&mut self) -> &mut Progress {
        &mut self.progress
    }

    fn next_single(&mut self) -> Option<(Cell, u8)> {
        self.first_naked().or_else(|| self.first_hidden())
    }

    fn place(&mut self, cell: Cell, digit: u8) {
        Forced::place(self, cell, digit);
    }

    fn eliminate(&mut self, cell: Cell, digit: u8) {
        Forced::eliminate(self, cell, digit);
    }

    fn dynamic_step(&self) -> Option<LogicStep> {
        let technique = Technique::DynamicForcingChain;
        // The grid's own trials: a contradiction, or where there is none a
        // cell's or house's forcing chains (SE nests its whole dynamic rung).
        Trials::contradiction(&self.pencil, Depth::Singles, technique, &|| false)
    }
}

/// Each cell's peers, as bits of cell numbers.
const PEER_BITS: [u128; CELLS] = {
    let mut bits = [0u128; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut n = 0;
        while n < 20 {
            bits[cell] |= 1 << PEERS[cell][n];
            n += 1;
        }
        cell += 1;
    }
    bits
};

/// Each unit's cells, as bits of cell numbers.
const UNIT_BITS: [u128; 27] = {
    let mut bits = [0u128; 27];
    let mut unit = 0;
    while unit < 27 {
        let mut at = 0;
        while at < 9 {
            bits[unit] |= 1 << UNITS[unit][at];
            at += 1;
        }
        unit += 1;
    }
    bits
};

/// The trials of `Depth::OneDigit` on bitboards: such a trial only ever
/// places its own digit (a hidden single of it), so it needs that digit's
/// places, which cells it fills, and the grid as it was to tell whether a move
/// broke it. The moves, in their order, are those of the ladder's definition:
/// the assumed digit's hidden single in the first unit that has one.
struct OneDigit<'a> {
    /// The grid as it was (whole: not broken).
    start: &'a Forced,
    /// Where each digit is a candidate, as bits of cell numbers.
    places: [u128; 9],
    /// For each digit, the empty cells where it is the only candidate.
    lone: [u128; 9],
    /// For each digit, the units (as bits) where it stands.
    held: [u32; 9],
}

impl OneDigit<'_> {
    fn new(start: &Forced) -> OneDigit<'_> {
        let mut lines = OneDigit {
            start,
            places: [0; 9],
            lone: [0; 9],
            held: [0; 9],
        };
        for cell in 0..CELLS {
            let candidates = start.pencil.candidates(cell);
            for digit in digits(candidates) {
                lines.places[usize::from(digit - 1)] |= 1 << cell;
                if candidates.count_ones() == 1 {
                    lines.lone[usize::from(digit - 1)] |= 1 << cell;
                }
            }
        }
        for (unit, held) in start.held.iter().enumerate() {
            for digit in digits(*held) {
                lines.held[usize::from(digit - 1)] |= 1 << unit;
            }
        }
        lines
    }

    /// A trial that assumes `digit` in `cell`.
    fn assume(&self, cell: Cell, digit: u8) -> LineTrial<'_> {
        let d = usize::from(digit - 1);
        let mut trial = LineTrial {
            lines: self,
            digit,
            places: self.places[d],
            filled: 0,
            held: self.held[d],
            moves: 0,
            broke: false,
            next: None,
        };
        trial.place(cell);
        trial
    }
}

/// A trial of `OneDigit`: its digit's places and what it filled.
struct LineTrial<'a> {
    lines: &'a OneDigit<'a>,
    digit: u8,
    /// Where the digit may still go.
    places: u128,
    /// The cells the trial filled.
    filled: u128,
    /// The units (as bits) where the digit stands.
    held: u32,
    /// The moves made so far.
    moves: usize,
    /// The last move broke the grid.
    broke: bool,
    /// Where the next move goes: the hidden single in the first unit that has one.
    next: Option<Cell>,
}

impl LineTrial<'_> {
    /// Fills `cell` with the digit and looks at what that broke or left.
    fn place(&mut self, cell: Cell) {
        let (lines, digit) = (self.lines, self.digit);
        let d = usize::from(digit - 1);
        self.moves += 1;
        self.filled |= 1 << cell;
        self.places &= !(PEER_BITS[cell] | 1 << cell);
        for &(unit, _) in &CELL_UNITS[cell] {
            self.held |= 1 << unit;
        }
        // A cell whose one candidate was the digit lost it.
        let mut broke = lines.lone[d] & PEER_BITS[cell] != 0;
        // Another digit of the filled cell lost its last place in a unit.
        for other in digits(lines.start.pencil.candidates(cell) & !bit(digit)) {
            let o = usize::from(other - 1);
            let left = lines.places[o] & !self.filled;
            broke |= CELL_UNITS[cell].iter().any(|&(unit, _)| {
                lines.held[o] & 1 << unit == 0 && left & UNIT_BITS[usize::from(unit)] == 0
            });
        }
        // The digit's own units: one with no place breaks the grid, the first
        // with one place gives the next move.
        let mut single = None;
        for (unit, cells) in UNIT_BITS.iter().enumerate() {
            if self.held & 1 << unit != 0 {
                continue;
            }
            let places = self.places & cells;
            broke |= places == 0;
            if single.is_none() && places != 0 && places & (places - 1) == 0 {
                single = Some(places.trailing_zeros() as usize);
            }
        }
        self.broke = broke;
        self.next = single;
    }
}

impl LineTrial<'_> {
    /// Its moves from here to where it breaks or holds, the assumption (the
    /// cell it was made on) first.
    fn moves(mut self) -> Vec<Move> {
        let mut moves = Vec::new();
        if let Some(first) = (self.filled != 0).then(|| self.filled.trailing_zeros() as usize) {
            moves.push(Move::Place(first, self.digit));
        }
        while !self.broke {
            let Some(cell) = self.next else {
                break;
            };
            moves.push(Move::Place(cell, self.digit));
            self.place(cell);
        }
        moves
    }
}

impl Attempt for LineTrial<'_> {
    fn go_on(&mut self, limit: usize) -> Trial {
        loop {
            if self.broke {
                return Trial::Broke(self.moves);
            }
            if self.moves >= limit {
                return Trial::Capped;
            }
            match self.next {
                Some(cell) => self.place(cell),
                None => return Trial::Held,
            }
        }
    }
}
