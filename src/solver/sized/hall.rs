//! Every Hall set of a house at once: the empty cells of a house must take its
//! missing digits one each, so a cell may keep a digit only when some perfect
//! matching of cells to digits gives it that digit (Régin's all-different
//! filtering). Naked and hidden subsets of every size are the special cases.
//!
//! With one maximum matching in hand, a cell's candidate digit `d`, matched to
//! another cell `b`, belongs to some perfect matching exactly when the cell and
//! `b` lie on a common alternating cycle: in the graph where a cell points at
//! the cells whose matched digits it could take instead, when each reaches the
//! other. Houses are at most 64 cells, so every set here is one `u64`.

/// The house's empty cells' candidates, at most 64 of them, all drawn from the
/// house's missing digits.
pub(in crate::solver) struct House<'a> {
    pub(in crate::solver) candidates: &'a mut [u64],
}

impl House<'_> {
    /// Keeps in each cell only the candidates some perfect matching allows;
    /// false when there is no perfect matching (some set of cells has fewer
    /// digits than cells).
    pub(in crate::solver) fn filter(&mut self) -> bool {
        let cells = self.candidates.len();
        let Some(matching) = self.matching() else {
            return false;
        };
        let (matched, owner) = (&matching.digit_of, &matching.cell_of);
        // reach[i]: the cells i can hand its digit on to, directly at first.
        let mut reach = [0u64; 64];
        for (cell, &options) in self.candidates.iter().enumerate() {
            let mut others = options & !(1u64 << matched[cell]);
            while others != 0 {
                let digit = others.trailing_zeros() as usize;
                others &= others - 1;
                // Every candidate is a missing digit, so matched to some cell.
                reach[cell] |= 1u64.checked_shl(u32::from(owner[digit])).unwrap_or(0);
            }
        }
        // Transitive closure (Warshall, one bit-set row a cell).
        for middle in 0..cells {
            let through = reach[middle];
            for row in reach.iter_mut().take(cells) {
                if *row & (1u64 << middle) != 0 {
                    *row |= through;
                }
            }
        }
        for cell in 0..cells {
            let mut allowed = 1u64 << matched[cell];
            let mut cycle = reach[cell];
            while cycle != 0 {
                let other = cycle.trailing_zeros() as usize;
                cycle &= cycle - 1;
                if reach[other] & (1u64 << cell) != 0 {
                    allowed |= 1u64 << matched[other];
                }
            }
            self.candidates[cell] &= allowed;
        }
        true
    }

    /// A perfect matching of cells to digits (each cell's digit as a bit
    /// index), or `None` when there is none. Augmenting paths from each cell in
    /// turn (Kuhn's algorithm).
    fn matching(&self) -> Option<Matching> {
        let mut state = Matching {
            cell_of: [u8::MAX; 64],
            digit_of: [u8::MAX; 64],
            free: u64::MAX,
        };
        for start in 0..self.candidates.len() {
            let mut seen = 0u64;
            if !self.augment(start, &mut seen, &mut state) {
                return None;
            }
        }
        Some(state)
    }

    /// Finds a digit for `cell`, moving other cells to other digits along the
    /// way when it must; `seen` holds the digits this search has visited.
    fn augment(&self, cell: usize, seen: &mut u64, state: &mut Matching) -> bool {
        let options = self.candidates[cell] & !*seen;
        // A free digit first: most cells find one without moving anybody.
        let free = options & state.free;
        if free != 0 {
            state.take(cell, free.trailing_zeros() as usize);
            return true;
        }
        *seen |= options;
        let mut rest = options;
        while rest != 0 {
            let digit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let holder = usize::from(state.cell_of[digit]);
            if self.augment(holder, seen, state) {
                state.take(cell, digit);
                return true;
            }
        }
        false
    }
}

/// A matching under construction.
struct Matching {
    /// The cell each digit is matched to (`u8::MAX`: none).
    cell_of: [u8; 64],
    /// The digit each cell is matched to.
    digit_of: [u8; 64],
    /// The digits matched to no cell.
    free: u64,
}

impl Matching {
    fn take(&mut self, cell: usize, digit: usize) {
        self.cell_of[digit] = cell as u8;
        self.digit_of[cell] = digit as u8;
        self.free &= !(1u64 << digit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(candidates: &[u64]) -> Option<Vec<u64>> {
        let mut kept = candidates.to_vec();
        (House {
            candidates: &mut kept,
        })
        .filter()
        .then_some(kept)
    }

    #[test]
    fn a_naked_pair_leaves_the_other_cells() {
        // Cells 0 and 1 hold {0, 1}: cell 2 loses both.
        assert_eq!(
            kept(&[0b011, 0b011, 0b111]),
            Some(vec![0b011, 0b011, 0b100])
        );
    }

    #[test]
    fn a_hidden_pair_keeps_only_its_digits() {
        // Digits 2 and 3 fit only cells 0 and 1, which lose digits 0 and 1.
        let candidates = [0b1111, 0b1111, 0b0011, 0b0011];
        assert_eq!(
            kept(&candidates),
            Some(vec![0b1100, 0b1100, 0b0011, 0b0011])
        );
    }

    #[test]
    fn three_cells_with_two_digits_are_broken() {
        assert_eq!(kept(&[0b011, 0b011, 0b011]), None);
    }

    #[test]
    fn a_free_choice_keeps_everything() {
        assert_eq!(kept(&[0b11, 0b11]), Some(vec![0b11, 0b11]));
    }

    #[test]
    fn a_matching_that_must_move_a_cell_is_found() {
        // Cell 0 takes digit 0 first; cell 1 can only have digit 0, so cell 0
        // moves to digit 1, and digit 1 leaves nothing for a cell 2 of {1, 2}
        // but digit 2.
        assert_eq!(
            kept(&[0b011, 0b001, 0b110]),
            Some(vec![0b010, 0b001, 0b100])
        );
    }
}
