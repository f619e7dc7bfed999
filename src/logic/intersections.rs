//! Locked candidates: pointing (a box's places for a digit on one line) and
//! claiming (a line's places for a digit in one box).

use super::pencil::{Pencil, UNITS, bit};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::{box_of, col_of, row_of};

/// Every intersection of a unit in `bases` with a unit of the other kind
/// that holds every place of a digit in the base and still has the digit
/// elsewhere: the rest of the other unit loses it.
fn locked(pencil: &Pencil, bases: std::ops::Range<usize>, technique: Technique) -> Vec<LogicStep> {
    let mut found = Vec::new();
    for base in bases {
        for digit in 1..=9 {
            let places = pencil.places(base, digit);
            if places.count_ones() < 2 {
                continue;
            }
            let cells = (0..9)
                .filter(move |at| places & 1 << at != 0)
                .map(move |at| usize::from(UNITS[base][at]));
            let first = usize::from(UNITS[base][places.trailing_zeros() as usize]);
            let all_in =
                |unit_of: fn(usize) -> usize| cells.clone().all(|c| unit_of(c) == unit_of(first));
            // The units of the other kind that hold every place.
            let covers = if base >= 18 {
                [
                    all_in(row_of).then_some(row_of(first)),
                    all_in(col_of).then_some(9 + col_of(first)),
                ]
            } else {
                [all_in(box_of).then_some(18 + box_of(first)), None]
            };
            for cover in covers.into_iter().flatten() {
                let unit = &UNITS[cover];
                let eliminations: Vec<Candidate> = unit
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| pencil.candidates(c) & bit(digit) != 0)
                    .filter(|&c| !cells.clone().any(|at| at == c))
                    .map(|c| (c, digit))
                    .collect();
                if !eliminations.is_empty() {
                    found.push(LogicStep::eliminating(
                        technique,
                        cells.clone().map(|c| (c, digit)).collect(),
                        eliminations,
                    ));
                }
            }
        }
    }
    found
}

/// Pointing: a box's places for a digit on one row or column.
pub(super) fn pointing(pencil: &Pencil) -> Vec<LogicStep> {
    locked(pencil, 18..27, Technique::Pointing)
}

/// Claiming: a row's or column's places for a digit in one box.
pub(super) fn claiming(pencil: &Pencil) -> Vec<LogicStep> {
    locked(pencil, 0..18, Technique::Claiming)
}
