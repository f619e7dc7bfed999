//! Hidden singles (box, then row or column) and naked singles.

use super::marks::{Marks, cells_at};
use super::step::{LogicStep, Technique};

/// The first digit with one place left in a box or region (`boxes`), or in
/// any other house (a row, a column, a variant's diagonal, window, extra
/// region or cage of N cells).
pub(super) fn hidden_single<P: Marks>(pencil: &P, boxes: bool) -> Option<LogicStep> {
    let n = pencil.size();
    let units = (0..pencil.house_count()).filter(|&unit| pencil.is_area(unit) == boxes);
    for unit in units {
        for digit in 1..=n as u8 {
            let places = pencil.places(unit, digit);
            if places.count_ones() == 1 && !pencil.holds(unit, digit) {
                let cell = cells_at(pencil.house(unit), places).next()?;
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
pub(super) fn naked_single<P: Marks>(pencil: &P) -> Option<LogicStep> {
    (0..pencil.shape().cells()).find_map(|cell| {
        let candidates = pencil.candidates(cell);
        (candidates.count_ones() == 1).then(|| {
            let digit = candidates.trailing_zeros() as u8 + 1;
            LogicStep::placing(Technique::NakedSingle, (cell, digit))
        })
    })
}

/// The first unit with one empty cell left: its missing digit goes there.
pub(super) fn full_house<P: Marks>(pencil: &P) -> Option<LogicStep> {
    (0..pencil.house_count()).find_map(|unit| {
        let mut empty = pencil
            .house(unit)
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

/// The hidden single that `step`'s eliminations leave, if any: a house that
/// `counts`, holding an eliminated cell, where an eliminated digit had two
/// places or more and has one.
pub(super) fn revealed_single<P: Marks>(
    pencil: &P,
    step: &LogicStep,
    counts: &dyn Fn(usize) -> bool,
) -> Option<(usize, u8)> {
    let mut after = pencil.clone();
    for &(cell, digit) in &step.eliminations {
        after.eliminate(cell, digit);
    }
    for unit in (0..pencil.house_count()).filter(|&unit| counts(unit)) {
        let cells = pencil.house(unit);
        for &(cell, digit) in &step.eliminations {
            if !cells.contains(&(cell as u16)) || pencil.holds(unit, digit) {
                continue;
            }
            let places = after.places(unit, digit);
            if places.count_ones() == 1 && pencil.places(unit, digit).count_ones() > 1 {
                return cells_at(cells, places).next().map(|c| (c, digit));
            }
        }
    }
    None
}

/// True when house `unit` holds every cell of `step`'s pattern, and each of
/// its digits has no other place there: the house a hidden set is hidden in.
pub(super) fn hidden_in<P: Marks>(pencil: &P, step: &LogicStep, unit: usize) -> bool {
    let house = pencil.house(unit);
    let at = |cell: usize| house.iter().position(|&c| usize::from(c) == cell);
    let mut places = 0u64;
    for &(cell, _) in &step.pattern {
        match at(cell) {
            Some(position) => places |= 1 << position,
            None => return false,
        }
    }
    step.pattern
        .iter()
        .all(|&(_, digit)| pencil.places(unit, digit) & !places == 0)
}
