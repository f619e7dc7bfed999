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
pub(super) struct House<'a> {
    pub(super) candidates: &'a mut [u64],
}

impl House<'_> {
    /// Keeps in each cell only the candidates some perfect matching allows;
    /// false when there is no perfect matching (some set of cells has fewer
    /// digits than cells).
    pub(super) fn filter(&mut self) -> bool {
        let cells = self.candidates.len();
        let Some(matched) = self.matching() else {
            return false;
        };
        // The cell each digit is matched to.
        let mut owner = [0u8; 64];
        for (cell, &digit) in matched.iter().enumerate() {
            owner[usize::from(digit)] = cell as u8;
        }
        // reach[i]: the cells i can hand its digit on to, directly at first.
        let mut reach = [0u64; 64];
        for (cell, &options) in self.candidates.iter().enumerate() {
            let mut others = options & !(1u64 << matched[cell]);
            while others != 0 {
                let digit = others.trailing_zeros() as usize;
                others &= others - 1;
                reach[cell] |= 1u64 << owner[digit];
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
    fn matching(&self) -> Option<Vec<u8>> {
        const FREE: u8 = u8::MAX;
        let mut cell_of = [FREE; 64];
        let mut digit_of = vec![FREE; self.candidates.len()];
        for start in 0..self.candidates.len() {
            let mut seen = 0u64;
            if !self.augment(start, &mut seen, &mut cell_of, &mut digit_of) {
                return None;
            }
        }
        Some(digit_of)
    }

    /// Finds a digit for `cell`, moving other cells to other digits along the
    /// way when it must; `seen` holds the digits this search has visited.
    fn augment(
        &self,
        cell: usize,
        seen: &mut u64,
        cell_of: &mut [u8; 64],
        digit_of: &mut [u8],
    ) -> bool {
        let mut options = self.candidates[cell] & !*seen;
        // Free digits first: most cells find one without moving anybody.
        let mut free = options;
        while free != 0 {
            let digit = free.trailing_zeros() as usize;
            free &= free - 1;
            if cell_of[digit] == u8::MAX {
                cell_of[digit] = cell as u8;
                digit_of[cell] = digit as u8;
                return true;
            }
        }
        while options != 0 {
            let digit = options.trailing_zeros() as usize;
            options &= options - 1;
            if *seen & (1u64 << digit) != 0 {
                continue;
            }
            *seen |= 1u64 << digit;
            let holder = usize::from(cell_of[digit]);
            if self.augment(holder, seen, cell_of, digit_of) {
                cell_of[digit] = cell as u8;
                digit_of[cell] = digit as u8;
                return true;
            }
        }
        false
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
