//! Non-consecutive: orthogonal neighbours never hold digits that differ by
//! one. Since neighbours share a row or a column, a neighbour never holds a
//! digit `d` when every candidate of the cell is `d - 1`, `d` or `d + 1`.

use super::grid::{Constrained, Rule, members};
use crate::board::neighbours;

/// The rule on an N x N grid.
#[derive(Debug)]
pub(super) struct NonConsecutive {
    size: usize,
}

impl NonConsecutive {
    pub(super) fn new(size: usize) -> NonConsecutive {
        NonConsecutive { size }
    }
}

/// The digits a neighbour of a cell with `options` can never hold: those
/// within one of every option (the neighbour shares a row or a column with the
/// cell, so it never holds the cell's own digit either). At most three options
/// leave any.
fn forbidden(options: u64) -> u64 {
    if options == 0 || options.count_ones() > 3 {
        return 0;
    }
    let mut out = !0u64;
    let mut rest = options;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        out &= (bit << 1) | bit | (bit >> 1);
    }
    out
}

impl NonConsecutive {
    /// Takes out of `cell`'s neighbours the digits its options forbid there;
    /// true when it took any (or broke the grid).
    fn exclude(&self, grid: &mut Constrained, cell: usize) -> bool {
        let out = forbidden(grid.options(cell));
        if out == 0 {
            return false;
        }
        let mut changed = false;
        for neighbour in neighbours(self.size, cell) {
            changed |= grid.restrict(neighbour, !out);
            if grid.is_broken() {
                return true;
            }
        }
        changed
    }

    /// True when `a` and `b` are one cell or orthogonal neighbours.
    fn near(&self, a: usize, b: usize) -> bool {
        let gap = a.abs_diff(b);
        gap == 0 || gap == self.size || (gap == 1 && !a.max(b).is_multiple_of(self.size))
    }

    /// A digit `d` whose two or three places in a house each are, or touch,
    /// one cell: whichever place takes `d`, that cell holds `d` or neighbours
    /// it, so it never holds `d - 1` or `d + 1`. Looks at the digits in
    /// `moved[house]` of each house only. True when it took any.
    fn touching(&self, grid: &mut Constrained, moved: &[u64]) -> bool {
        let model = grid.model();
        let layout = &model.layout;
        let mut changed = false;
        for (house, &digits) in moved.iter().enumerate() {
            let cells = layout.house(house);
            let mut left = digits;
            while left != 0 {
                let digit = left.trailing_zeros();
                left &= left - 1;
                // The digit's places in the house, as a bit a place.
                let slots = grid.slots(cells, digit);
                if !(2..=3).contains(&slots.count_ones()) {
                    continue;
                }
                let first = usize::from(cells[slots.trailing_zeros() as usize]);
                let out = !((1u64 << digit << 1) | ((1u64 << digit) >> 1));
                for spot in neighbours(self.size, first).chain([first]) {
                    let mut rest = slots;
                    let mut touches = true;
                    while rest != 0 && touches {
                        let place = usize::from(cells[rest.trailing_zeros() as usize]);
                        touches = self.near(place, spot);
                        rest &= rest - 1;
                    }
                    if touches {
                        changed |= grid.restrict(spot, out);
                        if grid.is_broken() {
                            return true;
                        }
                    }
                }
            }
        }
        changed
    }
}

impl Rule for NonConsecutive {
    fn propagate(&self, grid: &mut Constrained, changed: &[u64]) -> bool {
        let mut any = false;
        for cell in members(changed) {
            any |= self.exclude(grid, cell);
            if grid.is_broken() {
                return true;
            }
        }
        any
    }

    fn deduce(&self, grid: &mut Constrained, moved: &[u64]) -> bool {
        self.touching(grid, moved)
    }

    fn holds(&self, cells: &[u8]) -> bool {
        (0..cells.len()).all(|cell| {
            cells[cell] == 0
                || neighbours(self.size, cell)
                    .all(|other| cells[other] == 0 || cells[cell].abs_diff(cells[other]) != 1)
        })
    }
}
