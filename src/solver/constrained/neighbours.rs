//! Non-consecutive: orthogonal neighbours never hold digits that differ by
//! one. Since neighbours share a row or a column, a neighbour never holds a
//! digit `d` when every candidate of the cell is `d - 1`, `d` or `d + 1`.

use super::grid::{Constrained, Rule};

/// The rule on an N x N grid.
#[derive(Debug)]
pub(super) struct NonConsecutive {
    size: usize,
}

impl NonConsecutive {
    pub(super) fn new(size: usize) -> NonConsecutive {
        NonConsecutive { size }
    }

    /// The cells orthogonally next to `cell`.
    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        let n = self.size;
        let (row, col) = (cell / n, cell % n);
        [
            (row > 0).then(|| cell - n),
            (row + 1 < n).then(|| cell + n),
            (col > 0).then(|| cell - 1),
            (col + 1 < n).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
    }
}

/// The digits a neighbour of a cell with `options` can never hold: those
/// next to every option.
fn forbidden(options: u64) -> u64 {
    match options.count_ones() {
        1 => (options << 1) | (options >> 1),
        2 => {
            let low = options & options.wrapping_neg();
            if options == low | (low << 2) {
                low << 1
            } else {
                0
            }
        }
        _ => 0,
    }
}

impl NonConsecutive {
    /// A digit `d` whose two or three places in a house each are, or touch,
    /// one cell: whichever place takes `d`, that cell holds `d` or neighbours
    /// it, so it never holds `d - 1` or `d + 1`. True when it took any.
    fn touching(&self, grid: &mut Constrained) -> bool {
        let model = grid.model();
        let layout = &model.layout;
        let n = self.size;
        let mut changed = false;
        let near =
            |a: usize, b: usize| a == b || (a / n).abs_diff(b / n) + (a % n).abs_diff(b % n) == 1;
        // Each digit's first places in a house (up to 4) and how many it has.
        let mut places = [[0u16; 4]; 64];
        for house in 0..layout.house_count() {
            let mut count = [0u8; 64];
            for &cell in layout.house(house) {
                let mut options = grid.candidates[usize::from(cell)];
                while options != 0 {
                    let digit = options.trailing_zeros() as usize;
                    options &= options - 1;
                    let seen = usize::from(count[digit]);
                    if seen < 4 {
                        places[digit][seen] = cell;
                        count[digit] += 1;
                    }
                }
            }
            for digit in 0..n {
                let cells = &places[digit][..usize::from(count[digit])];
                if !(2..=3).contains(&cells.len()) {
                    continue;
                }
                let first = usize::from(cells[0]);
                let out = !((1u64 << digit << 1) | ((1u64 << digit) >> 1));
                for spot in self.neighbours(first).chain([first]) {
                    if cells.iter().all(|&place| near(usize::from(place), spot)) {
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
    fn propagate(&self, grid: &mut Constrained) -> bool {
        let mut changed = false;
        for cell in 0..self.size * self.size {
            let out = forbidden(grid.options(cell));
            if out == 0 {
                continue;
            }
            for neighbour in self.neighbours(cell) {
                changed |= grid.restrict(neighbour, !out);
                if grid.is_broken() {
                    return true;
                }
            }
        }
        changed
    }

    fn deduce(&self, grid: &mut Constrained) -> bool {
        self.touching(grid)
    }

    fn holds(&self, cells: &[u8]) -> bool {
        (0..cells.len()).all(|cell| {
            cells[cell] == 0
                || self
                    .neighbours(cell)
                    .all(|other| cells[other] == 0 || cells[cell].abs_diff(cells[other]) != 1)
        })
    }
}
