//! The check that makes a `Board`: no digit twice in a row, column or box, found
//! by bit operations on the band masks, and the first clashing pair located cell
//! by cell for the error. Knows nothing of text: it sees cells only.

use super::bands::band_masks;
#[cfg(target_arch = "x86_64")]
use super::bands::band_masks_avx2;
use super::{Board, CELLS, Cell, PuzzleError, box_of, col_of, row_of};

impl Board {
    /// The board of `cells`, unless two givens conflict: two peers (cells sharing
    /// a row, column or box) holding the same digit.
    ///
    /// `has_conflict` filters with bit operations and the cell-by-cell search
    /// `first_conflict` decides and names the pair. The two cannot disagree: every
    /// term of the bit formula is nonzero exactly when some pair of one digit's
    /// cells are peers, so the filter holds for a board exactly when it holds for
    /// some pair of its givens, and a test checks it on every pair of cells
    /// (`both_checks_agree_on_every_pair_of_givens`).
    pub(super) fn checked(cells: [u8; CELLS]) -> Result<Board, PuzzleError> {
        let clash = if has_conflict(&cells) {
            first_conflict(&cells)
        } else {
            None
        };
        match clash {
            None => Ok(Board::with_cells(cells)),
            Some((first, second)) => Err(PuzzleError::Conflict {
                first,
                second,
                digit: cells[first],
            }),
        }
    }
}

/// True when some digit stands twice in a row, column or box.
fn has_conflict(cells: &[u8; CELLS]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: this CPU has AVX2 (checked just above; std caches the answer).
        return unsafe { has_conflict_avx2(cells) };
    }
    // Twelve lanes (three of them empty): three whole SSE2 vectors.
    clashes::<12>(&band_masks(cells))
}

/// `has_conflict` with AVX2: sixteen lanes, two whole vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn has_conflict_avx2(cells: &[u8; CELLS]) -> bool {
    clashes::<16>(&band_masks_avx2(cells))
}

/// True when some digit stands twice in a row, column or box, from the digits'
/// cells per band (see `band_masks`), in `LANES` lanes (9 or more; the rest
/// empty). The inner loop runs over the lanes with the same operations on each,
/// so it vectorizes.
#[inline(always)]
fn clashes<const LANES: usize>(bands: &[[u32; 9]; 3]) -> bool {
    let mut clash = [0u32; LANES];
    let mut columns = [0u32; LANES];
    for band in bands {
        let mut lanes = [0u32; LANES];
        lanes[..9].copy_from_slice(band);
        for digit in 0..LANES {
            let cells = lanes[digit];
            let rows = [cells & 0x1FF, (cells >> 9) & 0x1FF, cells >> 18];
            // Boxes of each row: bit 3k set when the row holds the digit in box k.
            let boxes = rows.map(|row| (row | row >> 1 | row >> 2) & 0b001_001_001);
            let seen = rows[0] | rows[1] | rows[2];
            clash[digit] |= rows[0] & rows[0].wrapping_sub(1)
                | rows[1] & rows[1].wrapping_sub(1)
                | rows[2] & rows[2].wrapping_sub(1)
                | rows[0] & rows[1]
                | rows[0] & rows[2]
                | rows[1] & rows[2]
                | boxes[0] & boxes[1]
                | boxes[0] & boxes[2]
                | boxes[1] & boxes[2]
                | columns[digit] & seen;
            columns[digit] |= seen;
        }
    }
    clash.iter().fold(0, |all, &one| all | one) != 0
}

/// The first pair of givens (in row-major order of the second cell) that share a
/// row, column or box and hold the same digit. Bitmasks find that a clash exists;
/// only then is the earlier cell looked for.
fn first_conflict(cells: &[u8; CELLS]) -> Option<(Cell, Cell)> {
    // Digits seen per unit: rows at 0..9, columns at 9..18, boxes at 18..27.
    let mut seen = [0u16; 27];
    for second in 0..CELLS {
        let digit = cells[second];
        // No branch on empty cells: their bit is 0 and never conflicts.
        let bit = (1u16 << (digit & 15)) & !1;
        let [row, col, box_] = UNITS[second].map(usize::from);
        if (seen[row] | seen[col] | seen[box_]) & bit != 0 {
            let (row, col, box_) = (row_of(second), col_of(second), box_of(second));
            let first = (0..second).find(|&first| {
                cells[first] == digit
                    && (row_of(first) == row || col_of(first) == col || box_of(first) == box_)
            })?;
            return Some((first, second));
        }
        seen[row] |= bit;
        seen[col] |= bit;
        seen[box_] |= bit;
    }
    None
}

/// For each cell, the indexes of its row, column and box in `first_conflict`'s
/// table of units.
const UNITS: [[u8; 3]; CELLS] = {
    let mut units = [[0u8; 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        units[cell] = [
            row_of(cell) as u8,
            9 + col_of(cell) as u8,
            18 + box_of(cell) as u8,
        ];
        cell += 1;
    }
    units
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Both checks flag exactly the pairs of peers holding the same digit, for
    /// every pair of cells and every digit (and no pair of different digits): with
    /// the formula's terms each nonzero only for such a pair, they agree on every
    /// board.
    #[test]
    fn both_checks_agree_on_every_pair_of_givens() {
        let peers = |a: Cell, b: Cell| {
            row_of(a) == row_of(b) || col_of(a) == col_of(b) || box_of(a) == box_of(b)
        };
        for first in 0..CELLS {
            for second in first + 1..CELLS {
                for (a, b) in (1..=9).map(|d| (d, d)).chain([(2, 5), (9, 1)]) {
                    let mut cells = [0u8; CELLS];
                    cells[first] = a;
                    cells[second] = b;
                    let expected = a == b && peers(first, second);
                    assert_eq!(has_conflict(&cells), expected, "{first} {second} {a} {b}");
                    assert_eq!(
                        clashes::<12>(&band_masks(&cells)),
                        expected,
                        "{first} {second}"
                    );
                    let found = first_conflict(&cells);
                    assert_eq!(found, expected.then_some((first, second)));
                }
            }
        }
    }

    /// The bit-parallel check agrees with the cell-by-cell search on every kind of
    /// clash, on none, and on two givens that are not peers.
    #[test]
    fn conflict_check_agrees_with_the_cell_search() {
        let mut cases = vec![[0u8; CELLS]];
        for (first, second) in [(0, 8), (0, 72), (0, 20), (40, 50), (30, 80), (10, 19)] {
            let mut cells = [0u8; CELLS];
            cells[first] = 7;
            cells[second] = 7;
            cases.push(cells);
            cells[second] = 3;
            cases.push(cells);
        }
        // And random sparse boards, about half of them with a clash.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below) as usize
        };
        for _ in 0..5_000 {
            let mut cells = [0u8; CELLS];
            for _ in 0..4 + next(12) {
                cells[next(81)] = 1 + next(9) as u8;
            }
            cases.push(cells);
        }
        let mut clashes = 0;
        for cells in &cases {
            let clash = first_conflict(cells).is_some();
            assert_eq!(has_conflict(cells), clash, "{cells:?}");
            assert_eq!(super::clashes::<12>(&band_masks(cells)), clash, "{cells:?}");
            clashes += usize::from(clash);
        }
        assert!(
            clashes > 1_000 && cases.len() - clashes > 1_000,
            "{clashes}"
        );
    }
}
