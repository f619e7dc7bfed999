//! A thermometer: digits strictly increase from the bulb along the line. Each
//! cell keeps only digits above the smallest possible before it and below the
//! largest possible after it; under non-consecutive, a step between
//! orthogonal neighbours rises by two at least.

use super::grid::{Constrained, Rule, has_any};

/// One thermometer's cells, bulb first.
#[derive(Debug)]
pub(super) struct Thermometer {
    cells: Vec<u16>,
    /// How much each step rises at least (one a cell after the bulb).
    rises: Vec<u32>,
}

impl Thermometer {
    /// The thermometer along `cells` of an N x N grid (`size`), with the
    /// steps between orthogonal neighbours rising by two when
    /// `non_consecutive`.
    pub(super) fn new(cells: &[u32], size: usize, non_consecutive: bool) -> Thermometer {
        let orthogonal = |a: u32, b: u32| {
            let (a, b) = (a as usize, b as usize);
            (a / size).abs_diff(b / size) + (a % size).abs_diff(b % size) == 1
        };
        let rises = cells
            .windows(2)
            .map(|step| 1 + u32::from(non_consecutive && orthogonal(step[0], step[1])))
            .collect();
        Thermometer {
            cells: cells.iter().map(|&cell| cell as u16).collect(),
            rises,
        }
    }
}

/// The digits from `digit` up (bits of digits `digit..`); none past 64.
fn from_digit(digit: u32) -> u64 {
    u64::MAX.checked_shl(digit.saturating_sub(1)).unwrap_or(0)
}

/// The digits below `digit`.
fn below(digit: u32) -> u64 {
    !from_digit(digit)
}

impl Rule for Thermometer {
    fn propagate(&self, grid: &mut Constrained, changed: &[u64]) -> bool {
        if !has_any(changed, &self.cells) {
            return false;
        }
        let mut changed = false;
        // Upwards: above the smallest digit the cell before may hold.
        let mut floor = 1;
        for (index, &cell) in self.cells.iter().enumerate() {
            changed |= grid.restrict(usize::from(cell), from_digit(floor));
            let options = grid.options(usize::from(cell));
            if grid.is_broken() || options == 0 {
                grid.fail(&self.cells);
                return true;
            }
            floor = options.trailing_zeros() + 1 + self.rises.get(index).unwrap_or(&1);
        }
        // Downwards: below the largest digit the cell after may hold.
        let mut ceiling = grid.size() as u32 + 1;
        for (index, &cell) in self.cells.iter().enumerate().rev() {
            changed |= grid.restrict(usize::from(cell), below(ceiling));
            let options = grid.options(usize::from(cell));
            if grid.is_broken() || options == 0 {
                grid.fail(&self.cells);
                return true;
            }
            let rise = index.checked_sub(1).map_or(1, |step| self.rises[step]);
            ceiling = (u64::BITS - options.leading_zeros() + 1).saturating_sub(rise);
        }
        changed
    }

    fn holds(&self, cells: &[u8]) -> bool {
        let mut last: Option<(usize, u8)> = None;
        for (index, &cell) in self.cells.iter().enumerate() {
            let digit = cells[usize::from(cell)];
            if digit == 0 {
                continue;
            }
            if let Some((before, low)) = last
                && usize::from(digit) < usize::from(low) + (index - before)
            {
                return false;
            }
            last = Some((index, digit));
        }
        true
    }
}
