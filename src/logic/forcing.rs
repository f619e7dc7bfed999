//! Contradictions: a candidate is false when assuming it leads, by forced
//! moves, to a cell with no candidate or a unit where a digit has no place.
//! Three depths, each a rung of the ladder with Sudoku Explainer's rating for
//! that kind of reasoning: the moves of the assumed digit alone (an X-chain's
//! reach, from 6.5), singles of every digit (a forcing chain, from 7.0), and
//! singles with locked candidates (a dynamic forcing chain, from 8.5). Of all
//! the candidates that break, the one with the fewest forced moves is taken
//! (the easiest, as Sudoku Explainer takes its easiest chain), and the length
//! adds tenths as Sudoku Explainer's length modifier does.

use super::pencil::{ALL, Digits, Pencil, UNITS, bit};
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
    let mut best: Option<(usize, Cell, u8)> = None;
    for cell in 0..CELLS {
        let candidates = pencil.candidates(cell);
        if candidates.count_ones() < 2 {
            continue;
        }
        for digit in (1..=9u8).filter(|&digit| candidates & bit(digit) != 0) {
            let limit = best.map_or(usize::MAX, |(moves, _, _)| moves);
            let mut trial = pencil.clone();
            if let Trial::Broke(moves) =
                moves_to_contradiction(&mut trial, cell, digit, depth, limit)
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

/// Places `digit` in `cell` on `trial` and makes the forced moves of `depth`
/// until the grid breaks, none is left, or `limit` moves are made.
fn moves_to_contradiction(
    trial: &mut Pencil,
    cell: Cell,
    digit: u8,
    depth: Depth,
    limit: usize,
) -> Trial {
    trial.place(cell, digit);
    let wanted = match depth {
        Depth::OneDigit => bit(digit),
        Depth::Singles | Depth::Locked => ALL,
    };
    let mut moves = 1;
    loop {
        let Scan::Whole { naked, hidden } = scan(trial, wanted) else {
            return Trial::Broke(moves);
        };
        if moves >= limit {
            return Trial::Capped;
        }
        match (depth, naked, hidden) {
            (Depth::Singles | Depth::Locked, Some((cell, digit)), _)
            | (_, _, Some((cell, digit))) => trial.place(cell, digit),
            (Depth::Locked, None, None) if locked(trial) => {}
            _ => return Trial::Held,
        }
        moves += 1;
    }
}

/// What one look over the grid found.
enum Scan {
    /// A cell with no digit and no candidate, or a unit where a digit is neither
    /// placed nor has a place.
    Broken,
    /// Nothing broken: the first naked single and the first hidden single (of a
    /// digit in `wanted`), if any.
    Whole {
        naked: Option<(Cell, u8)>,
        hidden: Option<(Cell, u8)>,
    },
}

/// One pass over the cells and one over the units.
fn scan(trial: &Pencil, wanted: Digits) -> Scan {
    let mut naked = None;
    for cell in 0..CELLS {
        let candidates = trial.candidates(cell);
        if candidates == 0 {
            if trial.value(cell) == 0 {
                return Scan::Broken;
            }
        } else if naked.is_none() && candidates & (candidates - 1) == 0 {
            naked = Some((cell, candidates.trailing_zeros() as u8 + 1));
        }
    }
    let mut hidden = None;
    for (unit, cells) in UNITS.iter().enumerate() {
        let (once, more, held) = unit_digits(trial, unit);
        if once | held != ALL {
            return Scan::Broken;
        }
        let singles = once & !more & !held & wanted;
        if hidden.is_none() && singles != 0 {
            let digit = singles.trailing_zeros() as u8 + 1;
            let at = trial.places(unit, digit).trailing_zeros() as usize;
            hidden = Some((usize::from(cells[at]), digit));
        }
    }
    Scan::Whole { naked, hidden }
}

/// The digits of `unit` with one place or more, with two places or more, and
/// the digits placed there, as candidate sets: one pass over its cells.
fn unit_digits(trial: &Pencil, unit: usize) -> (Digits, Digits, Digits) {
    let (mut once, mut more, mut held) = (0, 0, 0);
    for &cell in &UNITS[unit] {
        let cell = usize::from(cell);
        let candidates = trial.candidates(cell);
        more |= once & candidates;
        once |= candidates;
        held |= bit(trial.value(cell));
    }
    (once, more, held)
}

/// Makes the eliminations of one pointing or claiming; false when there is none.
fn locked(trial: &mut Pencil) -> bool {
    let step = super::intersections::pointing(trial)
        .into_iter()
        .chain(super::intersections::claiming(trial))
        .next();
    if let Some(step) = &step {
        super::apply(trial, step);
    }
    step.is_some()
}
