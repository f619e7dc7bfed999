//! A killer cage's sum. The sets of distinct digits that make the sum are
//! listed once (when there are few enough); at each round the sets the cage's
//! placed digits and candidates still allow are kept, each empty cell keeps
//! only their digits, and a digit every set needs that only one cell can take
//! goes there. A cage with too many sets to list keeps each cell within the
//! bounds the other cells' smallest and largest candidates leave.

use super::grid::{Constrained, Rule, has_any};

/// The most digit sets listed for one cage.
const MOST_SETS: usize = 1 << 14;

/// Steps of listing digit sets one grid's cages may take in all; cages past
/// it keep to bounds (so no rule set costs more than this to set up).
pub(super) const LISTING_STEPS: u64 = 1 << 21;

/// One cage with a sum.
#[derive(Debug)]
pub(super) struct CageSum {
    cells: Vec<u16>,
    sum: u32,
    /// Every set of distinct digits of the cage's size that makes the sum;
    /// `None` when there are more than [`MOST_SETS`].
    sets: Option<Vec<u64>>,
}

impl CageSum {
    /// The cage, its digit sets listed within `steps` (what is left of the
    /// grid's [`LISTING_STEPS`], taken down by what the listing took).
    pub(super) fn new(cells: &[u32], sum: u32, size: usize, steps: &mut u64) -> CageSum {
        CageSum {
            cells: cells.iter().map(|&cell| cell as u16).collect(),
            sum,
            sets: digit_sets(cells.len(), sum, size, steps),
        }
    }

    /// Keeps the digit sets that fit; true when it took any candidate out.
    fn by_sets(&self, grid: &mut Constrained, sets: &[u64], placed: u64) -> bool {
        let empty: Vec<usize> = self
            .cells
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| !grid.filled(cell))
            .collect();
        let union = empty.iter().fold(0, |acc, &cell| acc | grid.options(cell));
        let (mut allowed, mut needed, mut any) = (0u64, u64::MAX, false);
        for &set in sets {
            let rest = set & !placed;
            if set & placed != placed || rest & !union != 0 {
                continue;
            }
            if empty.iter().all(|&cell| grid.options(cell) & rest != 0) {
                (allowed, needed, any) = (allowed | rest, needed & rest, true);
            }
        }
        if !any {
            grid.fail(&self.cells);
            return true;
        }
        let mut changed = false;
        for &cell in &empty {
            changed |= grid.restrict(cell, allowed);
        }
        // A needed digit with one cell left for it goes there.
        let mut digits = needed;
        while digits != 0 && !grid.is_broken() {
            let bit = digits & digits.wrapping_neg();
            digits ^= bit;
            let mut places = empty.iter().filter(|&&cell| grid.options(cell) & bit != 0);
            if let (Some(&only), None) = (places.next(), places.next()) {
                changed |= grid.restrict(only, bit);
            }
        }
        changed
    }

    /// Keeps each empty cell within what the others' extremes leave.
    fn by_bounds(&self, grid: &mut Constrained, left: u32) -> bool {
        let (mut low, mut high) = (0u32, 0u32);
        for &cell in &self.cells {
            let options = grid.options(usize::from(cell));
            if !grid.filled(usize::from(cell)) {
                low += options.trailing_zeros() + 1;
                high += u64::BITS - options.leading_zeros();
            }
        }
        if !(low..=high).contains(&left) {
            grid.fail(&self.cells);
            return true;
        }
        let mut changed = false;
        for &cell in &self.cells {
            let cell = usize::from(cell);
            if grid.filled(cell) {
                continue;
            }
            let options = grid.options(cell);
            let (own_low, own_high) = (
                options.trailing_zeros() + 1,
                u64::BITS - options.leading_zeros(),
            );
            // The others take at least low - own_low and at most high - own_high.
            let most = left - (low - own_low);
            let least = left.saturating_sub(high - own_high).max(1);
            let range = digits_between(least, most);
            changed |= grid.restrict(cell, range);
        }
        changed
    }
}

/// Digits `least..=most` as bits (`most` past 64 means up to 64).
fn digits_between(least: u32, most: u32) -> u64 {
    if least > most || least > 64 {
        return 0;
    }
    let top = if most >= 64 {
        u64::MAX
    } else {
        (1u64 << most) - 1
    };
    top & !((1u64 << (least - 1)) - 1)
}

impl Rule for CageSum {
    fn propagate(&self, grid: &mut Constrained, changed: &[u64]) -> bool {
        if !has_any(changed, &self.cells) {
            return false;
        }
        let (mut placed, mut total, mut empty) = (0u64, 0u32, 0usize);
        for &cell in &self.cells {
            if grid.filled(usize::from(cell)) {
                let bit = grid.options(usize::from(cell));
                placed |= bit;
                total += bit.trailing_zeros() + 1;
            } else {
                empty += 1;
            }
        }
        if empty == 0 || total >= self.sum {
            if empty != 0 || total != self.sum {
                grid.fail(&self.cells);
                return true;
            }
            return false;
        }
        match &self.sets {
            Some(sets) => self.by_sets(grid, sets, placed),
            None => self.by_bounds(grid, self.sum - total),
        }
    }

    fn holds(&self, cells: &[u8]) -> bool {
        let digits = self
            .cells
            .iter()
            .map(|&cell| u32::from(cells[usize::from(cell)]));
        let (total, full) = digits.fold((0, true), |(total, full), digit| {
            (total + digit, full && digit != 0)
        });
        if full {
            total == self.sum
        } else {
            total < self.sum
        }
    }
}

/// Every set of `count` distinct digits of 1..=`size` adding up to `sum`, as
/// bits; `None` when there are more than [`MOST_SETS`] or listing them takes
/// more than `steps` (which it takes down).
fn digit_sets(count: usize, sum: u32, size: usize, steps: &mut u64) -> Option<Vec<u64>> {
    let mut sets = Vec::new();
    // Depth-first over increasing digits: (digits chosen, their sum, last digit).
    let mut stack = vec![(0u64, 0u32, 0u32)];
    while let Some((set, total, last)) = stack.pop() {
        *steps = steps.checked_sub(1)?;
        let chosen = set.count_ones() as usize;
        if chosen == count {
            if total == sum {
                sets.push(set);
                if sets.len() > MOST_SETS {
                    return None;
                }
            }
            continue;
        }
        let left = (count - chosen) as u32;
        for digit in last + 1..=size as u32 {
            // The smallest and largest totals the rest can still reach.
            let least = total + left * digit + left * (left - 1) / 2;
            let most = total + digit + (left - 1) * (2 * size as u32 - left + 2) / 2;
            if least > sum {
                break;
            }
            if most >= sum {
                stack.push((set | 1u64 << (digit - 1), total + digit, digit));
            }
        }
    }
    Some(sets)
}

#[cfg(test)]
mod tests {
    use super::{digit_sets, digits_between};

    #[test]
    fn digit_sets_are_every_set_with_the_sum() {
        let sets = digit_sets(2, 10, 9, &mut 1_000).unwrap();
        let mut pairs: Vec<(u32, u32)> = sets
            .iter()
            .map(|&set| (set.trailing_zeros() + 1, 64 - set.leading_zeros()))
            .collect();
        pairs.sort_unstable();
        assert_eq!(pairs, [(1, 9), (2, 8), (3, 7), (4, 6)]);
        assert_eq!(digit_sets(9, 45, 9, &mut 100).unwrap(), [0x1FF]);
        assert!(digit_sets(3, 5, 9, &mut 100).unwrap().is_empty());
        // Brute force at 12: every 4-subset with sum 26.
        let brute = (0u64..1 << 12)
            .filter(|set| set.count_ones() == 4)
            .filter(|set| {
                (0..12)
                    .filter(|d| set >> d & 1 == 1)
                    .map(|d| d + 1)
                    .sum::<u64>()
                    == 26
            })
            .count();
        assert_eq!(digit_sets(4, 26, 12, &mut 100_000).unwrap().len(), brute);
        // Past its steps, a listing gives up.
        assert_eq!(digit_sets(8, 68, 16, &mut 1_000), None);
    }

    #[test]
    fn digits_between_covers_the_range() {
        assert_eq!(digits_between(2, 4), 0b1110);
        assert_eq!(digits_between(5, 3), 0);
        assert_eq!(digits_between(1, 64), u64::MAX);
        assert_eq!(digits_between(64, 70), 1u64 << 63);
    }
}
