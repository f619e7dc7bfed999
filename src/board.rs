//! The Sudoku vocabulary (cell, digit, row, column, box) and the `Board` type.
//!
//! A `Board` only exists parsed: `Board::parse` accepts the puzzle text of the design
//! contract and rejects bad characters, wrong cell counts and conflicting givens with a
//! typed error that carries the position. This module knows nothing of solving.

use std::fmt;

/// Cells on a board.
pub const CELLS: usize = 81;

/// All 27 cells of a band (three rows), as the bits of a band mask.
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// A cell index, 0..81, row-major.
pub type Cell = usize;

/// The row (0..9) of a cell.
pub const fn row_of(cell: Cell) -> usize {
    cell / 9
}

/// The column (0..9) of a cell.
pub const fn col_of(cell: Cell) -> usize {
    cell % 9
}

/// The box (0..9, row-major) of a cell.
pub const fn box_of(cell: Cell) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// A cell named the way Sudoku players write it, 1-based: `r1c5`.
pub struct CellName(pub Cell);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", row_of(self.0) + 1, col_of(self.0) + 1)
    }
}

/// The puzzle lines of a puzzle file, one puzzle a line, with their 1-based line
/// numbers: lines are trimmed, and blank lines and `#` comments are skipped.
/// Line ends are found with `memchr` (vector compares: a tenth of `str::lines`'
/// cost on an 82-byte line).
pub fn puzzle_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        // `end` is at a newline or the end, both character boundaries.
        let (line, tail) = rest.split_at(end);
        rest = tail.get(1..).unwrap_or_default();
        Some(line)
    })
    .enumerate()
    .map(|(index, line)| (index + 1, line.trim()))
    .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// A 9x9 grid whose givens do not conflict. `0` marks an empty cell, `1..=9` a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
}

/// Why a puzzle text is not a valid puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleError {
    /// A character that is neither a digit, an empty marker nor ignorable layout.
    BadCharacter {
        /// The offending character.
        character: char,
        /// Its 1-based position among the characters of the text.
        position: usize,
    },
    /// The text holds fewer or more than 81 cells.
    WrongCellCount {
        /// How many cells the text holds.
        found: usize,
    },
    /// Two givens put the same digit twice in one row, column or box.
    Conflict {
        /// The first cell, in row-major order.
        first: Cell,
        /// The second cell.
        second: Cell,
        /// The digit both hold.
        digit: u8,
    },
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PuzzleError::BadCharacter {
                character,
                position,
            } => write!(
                f,
                "bad character {character:?} at position {position}: \
                 a cell is 1-9 or one of '.', '0', '_'"
            ),
            PuzzleError::WrongCellCount { found } => {
                write!(f, "puzzle has {found} cells, expected 81")
            }
            PuzzleError::Conflict {
                first,
                second,
                digit,
            } => write!(
                f,
                "{} and {} both hold {digit}",
                CellName(first),
                CellName(second)
            ),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// The value of a cell character (`1`-`9`, or `.` `0` `_` for empty); `None` for
/// anything else.
const fn cell_value(byte: u8) -> Option<u8> {
    match cell_value_or_bad(byte) {
        (value, 0) => Some(value),
        _ => None,
    }
}

/// `cell_value` without a branch, so a loop over a line vectorizes: the value (0
/// for empty) and 1 when the character is no cell character (the value is then
/// meaningless).
const fn cell_value_or_bad(byte: u8) -> (u8, u8) {
    let digit = byte.wrapping_sub(b'0');
    let blank = (byte == b'.') as u8 | (byte == b'_') as u8;
    (digit & blank.wrapping_sub(1), (digit > 9) as u8 & !blank)
}

/// How a cell value is written: its digit, or `.` for empty.
pub const fn cell_char(value: u8) -> char {
    if value == 0 {
        '.'
    } else {
        (b'0' + value) as char
    }
}

impl Board {
    /// Parses puzzle text: 81 cells row-major, `1`-`9` givens, `.` `0` `_` empty;
    /// whitespace and the grid characters `|`, `-`, `+` are skipped.
    pub fn parse(text: &str) -> Result<Board, PuzzleError> {
        let mut cells = [0u8; CELLS];
        // The common case, 81 cell characters and nothing else: all bytes in one
        // branch-free pass (it vectorizes), checked once at the end.
        if let Ok(bytes) = <&[u8; CELLS]>::try_from(text.as_bytes()) {
            let mut bad = 0u8;
            for index in 0..CELLS {
                let (value, not_a_cell) = cell_value_or_bad(bytes[index]);
                cells[index] = value;
                bad |= not_a_cell;
            }
            if bad == 0 {
                return Board::checked(cells);
            }
            cells = [0; CELLS];
        }
        let mut count = 0usize;
        for (index, character) in text.chars().enumerate() {
            let value = match u8::try_from(character).ok().and_then(cell_value) {
                Some(value) => value,
                None if matches!(character, '|' | '-' | '+') => continue,
                None if character.is_whitespace() => continue,
                None => {
                    return Err(PuzzleError::BadCharacter {
                        character,
                        position: index + 1,
                    });
                }
            };
            if count < CELLS {
                cells[count] = value;
            }
            count += 1;
        }
        if count != CELLS {
            return Err(PuzzleError::WrongCellCount { found: count });
        }
        Board::checked(cells)
    }

    /// The board of `cells`, unless two givens conflict.
    fn checked(cells: [u8; CELLS]) -> Result<Board, PuzzleError> {
        // Bit operations on the digits' cells tell whether a clash exists; only
        // then is the first pair looked for, cell by cell.
        if !has_conflict(&cells) {
            return Ok(Board { cells });
        }
        if let Some((first, second)) = first_conflict(&cells) {
            return Err(PuzzleError::Conflict {
                first,
                second,
                digit: cells[first],
            });
        }
        Ok(Board { cells })
    }

    /// The value of a cell: `0` when empty.
    pub fn get(&self, cell: Cell) -> u8 {
        self.cells[cell]
    }

    /// All 81 cell values, row-major, `0` for empty.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when every cell holds a digit.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The board as one line of 81 characters, `.` for empty cells.
    pub fn to_line(&self) -> String {
        // Bytes, not chars: every cell character is ASCII.
        let bytes = self
            .cells
            .iter()
            .map(|&value| cell_char(value) as u8)
            .collect();
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// Sets a cell without checks; the solvers use it to build their answer.
    pub(crate) fn with_cells(cells: [u8; CELLS]) -> Board {
        Board { cells }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

/// The digits' cells per band, `[band][digit]` (digit 1-9 at index digit - 1): bit
/// `i` for cell `27 * band + i`.
pub(crate) fn band_masks(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2 (checked just above; std caches the answer).
            return unsafe { band_masks_avx2(cells) };
        }
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86_64 CPU has it.
        unsafe { band_masks_sse2(cells) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    band_masks_per_cell(cells)
}

/// `band_masks` cell by cell: the definition the vector forms are tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn band_masks_per_cell(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    let mut masks = [[0u32; 9]; 3];
    for (cell, &value) in cells.iter().enumerate() {
        if value != 0 {
            masks[cell / 27][usize::from(value - 1)] |= 1 << (cell % 27);
        }
    }
    masks
}

/// `band_masks` with AVX2: one 32-byte chunk per band, one compare and one
/// move-mask per digit. The first two bands' chunks are their 27 cells and 5
/// beyond (masked off); the last band's ends with the grid, 5 cells before it
/// (shifted off).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn band_masks_avx2(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
    };
    let chunk = |at: usize| {
        let bytes = &cells[at..at + 32];
        // SAFETY: `bytes` is 32 readable bytes; the load needs no alignment.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>()) }
    };
    // (chunk start, right shift) per band.
    let starts = [(0, 0), (27, 0), (CELLS - 32, 32 - 27)];
    std::array::from_fn(|band| {
        let (at, shift) = starts[band];
        let chunk = chunk(at);
        std::array::from_fn(|digit| {
            let wanted = _mm256_set1_epi8(digit as i8 + 1);
            let hits = _mm256_movemask_epi8(_mm256_cmpeq_epi8(chunk, wanted)) as u32;
            (hits >> shift) & BAND
        })
    })
}

/// `band_masks` sixteen cells at a time: per band, two sixteen-byte chunks (the
/// band's 27 cells and 5 beyond, masked off), one compare with a digit and one
/// move-mask per chunk, instead of a read-modify-write per cell.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn band_masks_sse2(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8,
    };
    let mut padded = [0u8; 96];
    padded[..CELLS].copy_from_slice(cells);
    let chunk = |at: usize| {
        let half = |at: usize| {
            let bytes: [u8; 8] = std::array::from_fn(|i| padded[at + i]);
            i64::from_le_bytes(bytes)
        };
        _mm_set_epi64x(half(at + 8), half(at))
    };
    std::array::from_fn(|band| {
        let (low, high): (__m128i, __m128i) = (chunk(27 * band), chunk(27 * band + 16));
        std::array::from_fn(|digit| {
            let wanted = _mm_set1_epi8(digit as i8 + 1);
            let low = _mm_movemask_epi8(_mm_cmpeq_epi8(low, wanted)) as u32;
            let high = _mm_movemask_epi8(_mm_cmpeq_epi8(high, wanted)) as u32;
            (low | high << 16) & BAND
        })
    })
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

    /// Every form of `band_masks` this CPU runs agrees with the per-cell definition
    /// on grids of random digits and blanks.
    #[test]
    fn band_masks_forms_agree() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2_000 {
            let cells: [u8; CELLS] = std::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 10) as u8
            });
            let expected = band_masks_per_cell(&cells);
            assert_eq!(band_masks(&cells), expected, "{cells:?}");
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: SSE2 is in the x86-64 baseline.
                assert_eq!(unsafe { band_masks_sse2(&cells) }, expected, "{cells:?}");
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: checked just above.
                    assert_eq!(unsafe { band_masks_avx2(&cells) }, expected, "{cells:?}");
                }
            }
        }
    }

    /// `puzzle_lines` splits as `str::lines` does (CRLF too, no empty last line),
    /// numbers lines from 1, trims them and skips blanks and comments.
    #[test]
    fn puzzle_lines_are_the_trimmed_lines_that_hold_something() {
        let texts = [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\n\n  x  \n# note\n\t#x\ny\r\n\r\nü z\n",
            "é\n\n",
        ];
        for text in texts {
            let expected: Vec<(usize, &str)> = text
                .lines()
                .enumerate()
                .map(|(index, line)| (index + 1, line.trim()))
                .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
                .collect();
            assert_eq!(puzzle_lines(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
        let numbered: Vec<_> = puzzle_lines("\n# c\n x\n\ny").collect();
        assert_eq!(numbered, [(3, "x"), (5, "y")]);
    }

    #[test]
    fn band_masks_mark_each_given() {
        let mut cells = [0u8; CELLS];
        cells[0] = 1;
        cells[80] = 9;
        cells[63] = 9;
        cells[27] = 4;
        cells[53] = 4;
        let masks = band_masks(&cells);
        let expected = |band: usize, digit: usize| match (band, digit) {
            (0, 0) => 1,
            (1, 3) => 1 | 1 << 26,
            (2, 8) => 1 << (80 - 54) | 1 << (63 - 54),
            _ => 0,
        };
        for (band, digits) in masks.iter().enumerate() {
            for (digit, &mask) in digits.iter().enumerate() {
                assert_eq!(
                    mask,
                    expected(band, digit),
                    "band {band} digit {}",
                    digit + 1
                );
            }
        }
    }

    /// The branch-free reading of a character keeps to the puzzle text's rules for
    /// every byte.
    #[test]
    fn cell_characters_are_digits_and_blanks_only() {
        for byte in 0..=u8::MAX {
            let expected = match byte {
                b'1'..=b'9' => Some(byte - b'0'),
                b'.' | b'0' | b'_' => Some(0),
                _ => None,
            };
            assert_eq!(cell_value(byte), expected, "byte {byte}");
        }
    }

    #[test]
    fn boxes_are_row_major() {
        assert_eq!(box_of(0), 0);
        assert_eq!(box_of(8), 2);
        assert_eq!(box_of(30), 4);
        assert_eq!(box_of(80), 8);
    }
}
