//! Hidden singles (box, then row or column) and naked singles.

use super::pencil::{Pencil, UNITS, bit};
use super::step::{LogicStep, Technique};
use crate::board::CELLS;

/// The first digit with one place left in a box (`boxes`) or in a row or column.
pub(super) fn hidden_single(pencil: &Pencil, boxes: bool) -> Option<LogicStep> {
    let units = if boxes { 18..27 } else { 0..18 };
    for unit in units {
        for digit in 1..=9 {
            let places = pencil.places(unit, digit);
            if places.count_ones() == 1 && !pencil.holds(unit, digit) {
                let cell = usize::from(UNITS[unit][places.trailing_zeros() as usize]);
                let technique = if boxes {
                    Technique::HiddenSingleBox
                } else {
                    Technique::HiddenSingleLine
                };
                return Some(LogicStep::placing(technique, (cell, digit)));
            }
        }
    }
    None
}

/// The first cell with one candidate left.
pub(super) fn naked_single(pencil: &Pencil) -> Option<LogicStep> {
    (0..CELLS).find_map(|cell| {
        let candidates = pencil.candidates(cell);
        (candidates.count_ones() == 1).then(|| {
            let digit = candidates.trailing_zeros() as u8 + 1;
            debug_assert_eq!(bit(digit), candidates);
            LogicStep::placing(Technique::NakedSingle, (cell, digit))
        })
    })
}

/// The first unit with one empty cell left: its missing digit goes there.
pub(super) fn full_house(pencil: &Pencil) -> Option<LogicStep> {
    UNITS.iter().find_map(|unit| {
        let mut empty = unit
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| pencil.value(c) == 0);
        let cell = empty.next()?;
        if empty.next().is_some() {
            return None;
        }
        let digit = pencil.candidates(cell);
        (digit.count_ones() == 1).then(|| {
            let digit = digit.trailing_zeros() as u8 + 1;
            LogicStep::placing(Technique::FullHouse, (cell, digit))
        })
    })
}

/// The hidden single that `step`'s eliminations leave, if any: a unit holding an
/// eliminated cell where an eliminated digit had two places or more and has one.
pub(super) fn revealed_single(
    pencil: &Pencil,
    step: &LogicStep,
    units: std::ops::Range<usize>,
) -> Option<(usize, u8)> {
    let mut after = pencil.clone();
    for &(cell, digit) in &step.eliminations {
        after.eliminate(cell, digit);
    }
    for (unit, cells) in UNITS
        .iter()
        .enumerate()
        .filter(|(unit, _)| units.contains(unit))
    {
        for &(cell, digit) in &step.eliminations {
            if !cells.contains(&(cell as u8)) || pencil.holds(unit, digit) {
                continue;
            }
            let places = after.places(unit, digit);
            if places.count_ones() == 1 && pencil.places(unit, digit).count_ones() > 1 {
                return Some((usize::from(cells[places.trailing_zeros() as usize]), digit));
            }
        }
    }
    None
}
