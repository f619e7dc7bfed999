//! The rules of cells in a line: thermometers (digits rise from the bulb, so
//! each cell is bounded by what its neighbours on the thermometer can hold)
//! and non-consecutive neighbours (a digit takes its neighbours' one-off
//! digits, and a cell whose every candidate is within one of a digit takes
//! that digit from its neighbours). Each found on the pencil marks alone.

use super::marks::{Marks, bit, digits, low_bits};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::{Cell, Shape};

/// What `cell` holds as a set: its digit, or its candidates.
fn held<P: Marks>(pencil: &P, cell: Cell) -> u64 {
    match pencil.value(cell) {
        0 => pencil.candidates(cell),
        digit => bit(digit),
    }
}

/// The first thermometer whose bounds take candidates: each cell holds more
/// than the least its bulb side can hold and less than the most its tip side can.
pub(super) fn thermometer<P: Marks>(pencil: &P) -> Option<LogicStep> {
    for thermometer in &pencil.rules()?.thermometers {
        let cells: Vec<Cell> = thermometer.iter().map(|&c| c as usize).collect();
        let sets: Vec<u64> = cells.iter().map(|&c| held(pencil, c)).collect();
        let (mut low, mut high) = (vec![0u32; cells.len()], vec![0u32; cells.len()]);
        let mut floor = 0;
        for (at, &set) in sets.iter().enumerate() {
            // The least digit above `floor` the cell can hold.
            let above = set & !low_bits(floor as usize);
            floor = if above == 0 {
                65
            } else {
                above.trailing_zeros() + 1
            };
            low[at] = floor;
        }
        let mut ceiling = 65;
        for (at, &set) in sets.iter().enumerate().rev() {
            let below = set & low_bits((ceiling as usize).saturating_sub(1));
            ceiling = if below == 0 {
                0
            } else {
                64 - below.leading_zeros()
            };
            high[at] = ceiling;
        }
        let eliminations: Vec<Candidate> = cells
            .iter()
            .enumerate()
            .flat_map(|(at, &cell)| {
                let (low, high) = (low[at], high[at]);
                digits(pencil.candidates(cell))
                    .filter(move |&d| u32::from(d) < low || u32::from(d) > high)
                    .map(move |d| (cell, d))
            })
            .collect();
        if !eliminations.is_empty() {
            let pattern = cells
                .iter()
                .flat_map(|&cell| digits(held(pencil, cell)).map(move |d| (cell, d)))
                .collect();
            return Some(LogicStep::eliminating(
                Technique::Thermometer,
                pattern,
                eliminations,
            ));
        }
    }
    None
}

/// The cells beside `cell` across an edge.
fn beside(shape: Shape, cell: Cell) -> impl Iterator<Item = Cell> {
    let (n, row, col) = (shape.size(), shape.row_of(cell), shape.col_of(cell));
    [
        (row > 0).then(|| cell - n),
        (col > 0).then(|| cell - 1),
        (col + 1 < n).then_some(cell + 1),
        (row + 1 < n).then_some(cell + n),
    ]
    .into_iter()
    .flatten()
}

/// The first cell whose digit or candidates take digits from a neighbour
/// under the non-consecutive rule: a neighbour loses `d` when every digit the
/// cell can hold is `d - 1`, `d` or `d + 1` (`d` itself, as neighbours share
/// a row or a column).
pub(super) fn non_consecutive<P: Marks>(pencil: &P) -> Option<LogicStep> {
    if !pencil.rules()?.non_consecutive {
        return None;
    }
    let shape = pencil.shape();
    for cell in 0..shape.cells() {
        let set = held(pencil, cell);
        if set.count_ones() > 3 || set == 0 {
            continue;
        }
        let eliminations: Vec<Candidate> = beside(shape, cell)
            .flat_map(|other| {
                digits(pencil.candidates(other))
                    .filter(move |&d| set & !(bit(d) | bit(d) << 1 | bit(d) >> 1) == 0)
                    .map(move |d| (other, d))
            })
            .collect();
        if !eliminations.is_empty() {
            let pattern = digits(set).map(|d| (cell, d)).collect();
            return Some(LogicStep::eliminating(
                Technique::NonConsecutive,
                pattern,
                eliminations,
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::board::{Grid, Layout, Variant};
    use crate::logic::wide::WidePencil;

    fn under(variant: Variant, cells: Vec<u8>) -> WidePencil {
        let layout = Arc::new(Layout::new(Shape::CLASSIC, variant));
        WidePencil::with_rules(&Grid::checked(Shape::CLASSIC, cells).unwrap(), &layout)
    }

    #[test]
    fn a_thermometer_bounds_each_cell_by_its_place() {
        let variant = Variant {
            thermometers: vec![vec![0, 1, 2]],
            ..Variant::default()
        };
        let step = thermometer(&under(variant, vec![0; 81])).unwrap();
        let mut removed = step.eliminations.clone();
        removed.sort_unstable();
        assert_eq!(removed, [(0, 8), (0, 9), (1, 1), (1, 9), (2, 1), (2, 2)]);
    }

    #[test]
    fn a_digit_takes_its_neighbours_one_off_digits() {
        let mut cells = vec![0; 81];
        cells[10] = 5;
        let variant = Variant {
            non_consecutive: true,
            ..Variant::default()
        };
        let pencil = under(variant.clone(), cells);
        let step = non_consecutive(&pencil).unwrap();
        let mut removed = step.eliminations.clone();
        removed.sort_unstable();
        let expected: Vec<Candidate> = [1, 9, 11, 19]
            .into_iter()
            .flat_map(|cell| [(cell, 4), (cell, 6)])
            .collect();
        assert_eq!(removed, expected);
        assert!(!pencil.uniqueness_holds());
        let regions = Variant {
            regions: Some((0..81).map(|c| (c / 27 * 3 + c % 9 / 3) as u8).collect()),
            ..Variant::default()
        };
        assert!(under(regions, vec![0; 81]).uniqueness_holds());
    }
}
