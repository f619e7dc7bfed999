//! A thermometer: digits strictly increase from the bulb along the line. Each
//! cell keeps only digits above the smallest possible before it and below the
//! largest possible after it.

use super::grid::{Constrained, Rule, has_any};

/// One thermometer's cells, bulb first.
#[derive(Debug)]
pub(super) struct Thermometer {
    cells: Vec<u16>,
}

impl Thermometer {
    pub(super) fn new(cells: &[u32]) -> Thermometer {
        Thermometer {
            cells: cells.iter().map(|&cell| cell as u16).collect(),
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
        for &cell in &self.cells {
            changed |= grid.restrict(usize::from(cell), from_digit(floor));
            let options = grid.options(usize::from(cell));
            if grid.is_broken() || options == 0 {
                grid.fail(&self.cells);
                return true;
            }
            floor = options.trailing_zeros() + 2;
        }
        // Downwards: below the largest digit the cell after may hold.
        let mut ceiling = grid.size() as u32 + 1;
        for &cell in self.cells.iter().rev() {
            changed |= grid.restrict(usize::from(cell), below(ceiling));
            let options = grid.options(usize::from(cell));
            if grid.is_broken() || options == 0 {
                grid.fail(&self.cells);
                return true;
            }
            ceiling = u64::BITS - options.leading_zeros();
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
