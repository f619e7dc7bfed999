//! What every technique reads and changes on a pencil-mark grid, whatever its
//! size: [`Marks`], which the 9x9 grid (`pencil.rs`) and the grid of any other
//! shape (`wide.rs`) both are, and the sets of digits and positions as 64-bit
//! masks. Houses are numbered as [`Geometry`] numbers them: rows 0..N, columns
//! N..2N, boxes 2N..3N, each house's cells in row-major order.

use super::houses::Killer;
use crate::board::{Cell, Geometry, Shape, Variant};

/// A pencil-mark grid: each cell's digit, or the digits it may still hold.
pub trait Marks: Clone {
    /// The grid's shape.
    fn shape(&self) -> Shape;

    /// The digit of `cell`, 0 when empty.
    fn value(&self, cell: Cell) -> u8;

    /// The candidates of `cell` (none for a filled cell), bit `d - 1` for `d`.
    fn candidates(&self, cell: Cell) -> u64;

    /// The positions of house `unit` where `digit` is still a candidate.
    fn places(&self, unit: usize, digit: u8) -> u64;

    /// Writes `digit` into `cell` and takes it from the candidates of its peers.
    fn place(&mut self, cell: Cell, digit: u8);

    /// Takes `digit` from the candidates of `cell`, if it is one.
    fn eliminate(&mut self, cell: Cell, digit: u8);

    /// The rows, columns and boxes of the grid's shape: what the defaults of
    /// the house methods below read. A grid with other houses (a variant's)
    /// overrides every one of them, and techniques call those, never this.
    fn geometry(&self) -> &'static Geometry {
        self.shape().geometry()
    }

    /// How many houses there are: 3N (rows, columns, boxes) but for a variant.
    fn house_count(&self) -> usize {
        3 * self.size()
    }

    /// The cells of house `unit`, N of them.
    fn house(&self, unit: usize) -> &[u16] {
        self.geometry().unit(unit)
    }

    /// The houses `cell` is in.
    fn houses_of(&self, cell: Cell) -> &[u16] {
        &self.geometry().houses[cell]
    }

    /// The cells that may not hold `cell`'s digit.
    fn peers_of(&self, cell: Cell) -> &[u16] {
        self.geometry().peers_of(cell)
    }

    /// True when two different cells may not hold the same digit.
    fn sees(&self, a: Cell, b: Cell) -> bool {
        self.shape().sees(a, b)
    }

    /// What the 45 rule reads of a killer (its cages with sums, the regions
    /// of known total), when the grid is one whose cages do not overlap.
    fn killer(&self) -> Option<&Killer> {
        None
    }

    /// `cell`'s peers as a bit set over the cells, when the grid keeps them
    /// (a variant's does).
    fn peer_set(&self, _cell: Cell) -> Option<&[u64]> {
        None
    }

    /// True when house `unit` is a box (or a jigsaw region).
    fn is_area(&self, unit: usize) -> bool {
        unit / self.size() == 2
    }

    /// The box (or jigsaw region) of `cell`.
    fn area_of(&self, cell: Cell) -> usize {
        self.shape().box_of(cell)
    }

    /// The variant rules beyond the houses and peers (cage sums,
    /// thermometers, neighbours), when the grid has any.
    fn rules(&self) -> Option<&Variant> {
        None
    }

    /// True when the puzzle's rules keep the uniqueness techniques sound:
    /// rows, columns and boxes or jigsaw regions, and nothing else.
    fn uniqueness_holds(&self) -> bool {
        self.rules().is_none_or(|rules| {
            Variant {
                regions: None,
                ..rules.clone()
            }
            .is_classic()
        })
    }

    /// N: digits, and cells in a house.
    fn size(&self) -> usize {
        self.shape().size()
    }

    /// True when every cell holds a digit.
    fn is_solved(&self) -> bool {
        (0..self.shape().cells()).all(|cell| self.value(cell) != 0)
    }

    /// True when `digit` already stands in house `unit`.
    fn holds(&self, unit: usize, digit: u8) -> bool {
        self.house(unit)
            .iter()
            .any(|&cell| self.value(usize::from(cell)) == digit)
    }

    /// The grid's digits, row-major, 0 for empty.
    fn values(&self) -> Vec<u8> {
        (0..self.shape().cells())
            .map(|cell| self.value(cell))
            .collect()
    }
}

/// The bit of `digit` (none for 0).
pub const fn bit(digit: u8) -> u64 {
    if digit == 0 { 0 } else { 1 << (digit - 1) }
}

/// The positions (or digits less one) set in `set`, lowest first.
pub fn members(mut set: u64) -> impl Iterator<Item = usize> + Clone {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let at = set.trailing_zeros() as usize;
            set &= set - 1;
            at
        })
    })
}

/// The digits of a set, in order.
pub fn digits(set: u64) -> impl Iterator<Item = u8> + Clone {
    members(set).map(|at| at as u8 + 1)
}

/// The subsets of `mask` with `size` members, in increasing order: only the
/// subsets of `mask` are visited, not every set of its width.
pub fn subsets(mask: u64, size: u32) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        loop {
            let set = next?;
            // The next subset of `mask` above `set`; back to 0 when none is left.
            let after = (set | !mask).wrapping_add(1) & mask;
            next = (after != 0).then_some(after);
            if set.count_ones() == size {
                return Some(set);
            }
        }
    })
}

/// The cells of a house (`cells`) at the positions `places`.
pub fn cells_at(cells: &[u16], places: u64) -> impl Iterator<Item = Cell> + Clone + '_ {
    members(places).map(move |at| usize::from(cells[at]))
}

/// The lowest `width` bits.
pub const fn low_bits(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_those_of_all_sets_in_order() {
        for mask in [0u64, 0b1, 0b1011_0110, 0x1FF, 0b1_0000_0001] {
            for size in 1..=4 {
                let all: Vec<u64> = (0u64..512)
                    .filter(|set| set & !mask == 0 && set.count_ones() == size)
                    .collect();
                assert_eq!(
                    subsets(mask, size).collect::<Vec<_>>(),
                    all,
                    "{mask:b} {size}"
                );
            }
        }
        let ends = 1 << 63 | 1;
        assert_eq!(subsets(ends, 1).collect::<Vec<_>>(), [1, 1 << 63]);
        assert_eq!(subsets(ends, 2).collect::<Vec<_>>(), [ends]);
    }

    #[test]
    fn members_and_digits_list_the_set_bits() {
        assert_eq!(members(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
        assert_eq!(digits(1 << 63 | 2).collect::<Vec<_>>(), [2, 64]);
        assert_eq!(bit(64), 1 << 63);
        assert_eq!(bit(0), 0);
        assert_eq!(low_bits(64), u64::MAX);
        assert_eq!(low_bits(3), 0b111);
    }
}
