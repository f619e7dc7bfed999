//! Puzzle text: the characters of a cell, the 81 cells of a puzzle, the lines of
//! a puzzle file, and the errors that say what is wrong and where.
//! Knows nothing of clashes (`conflict.rs`) or of searching.

use std::fmt;

use super::{Board, CELLS, Cell, CellAt, CellName, Shape};

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

/// Why a puzzle text is not a valid puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleError {
    /// A character that is neither a digit, an empty marker nor ignorable layout.
    BadCharacter {
        /// The offending character.
        character: char,
        /// The cell it stands in for: the count of cells before it (row-major,
        /// 0-based; 81 or more when the text already held 81 cells).
        cell: usize,
        /// Its 1-based position among the characters of the text (layout
        /// characters and whitespace included).
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
    /// A character of a symbols-form text (at any size but 9x9 without rules)
    /// that is no symbol, empty marker or layout.
    BadSymbol {
        /// The offending character.
        character: char,
        /// The count of cells before it.
        cell: usize,
        /// Its 1-based position among the characters of the text.
        position: usize,
        /// The shape read.
        shape: Shape,
        /// The shape's symbols (empty when it has none: the numbers form only).
        symbols: String,
    },
    /// A token of a numbers-form text that is no number from 0 to N.
    BadNumber {
        /// The token (its first characters).
        token: String,
        /// The count of cells before it.
        cell: usize,
        /// The 1-based position of its first character in the text.
        position: usize,
        /// The shape read.
        shape: Shape,
    },
    /// A text at any size but 9x9 without rules with other than N x N cells.
    CellCount {
        /// How many cells the text holds.
        found: usize,
        /// The shape read.
        shape: Shape,
    },
    /// Two givens of a grid N wide put one digit twice in a row, column or box.
    Clash {
        /// The first cell, in row-major order.
        first: usize,
        /// The second cell.
        second: usize,
        /// N: cells in a row.
        side: usize,
        /// The digit both hold.
        digit: u8,
    },
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PuzzleError::BadCharacter {
                character,
                cell,
                position,
            } => bad_character(f, character, cell, position),
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
            PuzzleError::BadSymbol {
                character,
                cell,
                position,
                shape,
                ref symbols,
            } => bad_symbol(
                f,
                character,
                CellAt::of(cell, shape),
                position,
                shape,
                symbols,
            ),
            PuzzleError::BadNumber {
                ref token,
                cell,
                position,
                shape,
            } => bad_number(f, token, CellAt::of(cell, shape), position, shape),
            PuzzleError::CellCount { found, shape } => {
                write!(
                    f,
                    "puzzle has {found} cells, expected {} for {shape}",
                    shape.cells()
                )
            }
            PuzzleError::Clash {
                first,
                second,
                side,
                digit,
            } => write!(
                f,
                "{} and {} both hold {digit}",
                CellAt { cell: first, side },
                CellAt { cell: second, side }
            ),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// The message of [`PuzzleError::BadCharacter`].
fn bad_character(
    f: &mut fmt::Formatter<'_>,
    character: char,
    cell: usize,
    position: usize,
) -> fmt::Result {
    if cell < CELLS {
        write!(f, "bad character {character:?} at {}", CellName(cell))?;
    } else {
        write!(f, "bad character {character:?} after the 81st cell")?;
    }
    write!(
        f,
        " (character {position} of the text): a cell is 1-9 or one of '.', '0', '_'"
    )
}

/// The message of [`PuzzleError::BadSymbol`].
fn bad_symbol(
    f: &mut fmt::Formatter<'_>,
    character: char,
    at: CellAt,
    position: usize,
    shape: Shape,
    symbols: &str,
) -> fmt::Result {
    if at.cell < shape.cells() {
        write!(f, "bad character {character:?} at {at}")?;
    } else {
        write!(f, "bad character {character:?} after the last cell")?;
    }
    write!(f, " (character {position} of the text): ")?;
    if symbols.is_empty() {
        return write!(
            f,
            "{shape} has no default symbols: write numbers separated by commas, \
             or give rules.symbols"
        );
    }
    let zero = if symbols.contains('0') { "" } else { ", '0'" };
    write!(
        f,
        "a cell of {shape} is one of {symbols:?} or '.', '_'{zero} for empty"
    )
}

/// The message of [`PuzzleError::BadNumber`].
fn bad_number(
    f: &mut fmt::Formatter<'_>,
    token: &str,
    at: CellAt,
    position: usize,
    shape: Shape,
) -> fmt::Result {
    let side = shape.size();
    if token.bytes().all(|byte| byte.is_ascii_digit()) {
        write!(
            f,
            "number {token} at {at} (character {position} of the text) is past \
             {side}, the largest digit of {shape}"
        )
    } else {
        write!(
            f,
            "bad cell {token:?} at {at} (character {position} of the text): a cell \
             of {shape} is a number from 0 (empty) to {side}"
        )
    }
}

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

/// The cells of exactly 81 cell characters and nothing else, the common case:
/// all bytes in one branch-free pass (it vectorizes), checked once at the end.
#[inline]
fn exact_cells(bytes: &[u8]) -> Option<[u8; CELLS]> {
    let bytes = <&[u8; CELLS]>::try_from(bytes).ok()?;
    let mut cells = [0u8; CELLS];
    let mut bad = 0u8;
    for index in 0..CELLS {
        let (value, not_a_cell) = cell_value_or_bad(bytes[index]);
        cells[index] = value;
        bad |= not_a_cell;
    }
    (bad == 0).then_some(cells)
}

impl Board {
    /// Parses puzzle text: 81 cells row-major, `1`-`9` givens, `.` `0` `_` empty;
    /// whitespace and the grid characters `|`, `-`, `+` are skipped.
    pub fn parse(text: &str) -> Result<Board, PuzzleError> {
        Board::checked(Board::parse_cells(text)?)
    }

    /// [`Board::parse`] of the common case, exactly 81 cell characters and
    /// nothing else, read from bytes not yet checked as UTF-8 (such bytes are
    /// ASCII): `None` for any other bytes, which [`Board::parse`] reads from
    /// their text or names what is wrong.
    pub fn parse_exact(bytes: &[u8]) -> Option<Result<Board, PuzzleError>> {
        exact_cells(bytes).map(Board::checked)
    }

    /// The cells of puzzle text, as [`Board::parse`] reads them, without the
    /// check for conflicts (a player's position may hold wrong digits).
    #[inline]
    pub fn parse_cells(text: &str) -> Result<[u8; CELLS], PuzzleError> {
        if let Some(cells) = exact_cells(text.as_bytes()) {
            return Ok(cells);
        }
        let mut cells = [0u8; CELLS];
        let mut count = 0usize;
        for (index, character) in text.chars().enumerate() {
            let value = match u8::try_from(character).ok().and_then(cell_value) {
                Some(value) => value,
                None if matches!(character, '|' | '-' | '+') => continue,
                None if character.is_whitespace() => continue,
                None => {
                    return Err(PuzzleError::BadCharacter {
                        character,
                        cell: count,
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
        Ok(cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// Bytes read without a UTF-8 check give what the text's parse gives,
        /// or are left to it: 81 of them from cell characters, a clash,
        /// separators, and bytes that are no UTF-8.
        #[test]
        fn exact_bytes_parse_as_their_text_does(
            picks in proptest::collection::vec(0..200usize, 81),
        ) {
            // Mostly blanks, a few givens (so some boards clash and some do
            // not), now and then a separator or bytes that are no UTF-8.
            const OTHERS: [&[u8]; 6] = [b" ", b"|", b"a", "\u{e9}".as_bytes(), b"\xff", b"\n"];
            const CELLS_: [&[u8]; 12] = [
                b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9", b"0", b"_", b".",
            ];
            let byte = |pick: usize| match pick {
                0..6 => OTHERS[pick],
                6..18 => CELLS_[pick - 6],
                _ => b".",
            };
            let bytes: Vec<u8> = picks.iter().flat_map(|&pick| byte(pick)).copied().collect();
            let exact = Board::parse_exact(&bytes);
            match std::str::from_utf8(&bytes) {
                Ok(text) if exact.is_some() => {
                    proptest::prop_assert_eq!(exact, Some(Board::parse(text)));
                }
                Ok(text) => proptest::prop_assert!(
                    bytes.len() != CELLS || Board::parse(text).is_err(),
                    "{text:?} left to the text's parse, which reads it"
                ),
                Err(_) => proptest::prop_assert!(exact.is_none()),
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
}
