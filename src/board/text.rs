//! Puzzle text at any size: the two forms (numbers and symbols), the alphabet of
//! a shape, reading a text into cells and writing cells back in the form they
//! came in. Knows nothing of clashes (`sized.rs`) or of searching; the 9x9
//! text without rules keeps its own fast reader (`parse.rs`).

use std::fmt::{self, Write as _};

use super::{Board, CELLS, Grid, PuzzleError, Shape, cell_char};

/// The default symbols, cut to N: `1`-`9`, then the letters.
pub const DEFAULT_SYMBOLS: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Characters a symbol may not be: the empty markers, separators and layout.
const RESERVED: &[char] = &['.', '_', ',', '|', '-', '+'];

/// How a puzzle text writes its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Decimal numbers separated by commas and/or whitespace, 0 for empty.
    Numbers,
    /// One character a cell from the shape's symbols, `.` for empty.
    Symbols,
}

/// Why a `symbols` string makes no alphabet for a shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolsError {
    /// Not N characters.
    WrongCount {
        /// Characters given.
        found: usize,
        /// The shape's N.
        size: usize,
    },
    /// A character twice (ignoring case).
    Repeated(char),
    /// A character that is an empty marker, separator or layout character.
    Reserved(char),
}

impl fmt::Display for SymbolsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SymbolsError::WrongCount { found, size } => write!(
                f,
                "symbols has {found} characters, expected {size} (one for each digit)"
            ),
            SymbolsError::Repeated(symbol) => {
                write!(f, "symbols holds {symbol:?} twice (case is ignored)")
            }
            SymbolsError::Reserved(symbol) => write!(
                f,
                "symbols may not hold {symbol:?} (reserved: '.', '_', ',', whitespace, '|', '-', '+')"
            ),
        }
    }
}

impl std::error::Error for SymbolsError {}

/// A shape and its alphabet: how its puzzle texts are read and its answers
/// written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notation {
    shape: Shape,
    /// The k-th symbol stands for digit k + 1; empty when N is past the default
    /// symbols and none were given (the numbers form only).
    symbols: Vec<char>,
}

impl Notation {
    /// The notation of `shape` with `symbols` (empty: the default symbols).
    pub fn new(shape: Shape, symbols: &str) -> Result<Notation, SymbolsError> {
        let size = shape.size();
        if symbols.is_empty() {
            let symbols = DEFAULT_SYMBOLS.chars().take(size).collect::<Vec<_>>();
            let symbols = if symbols.len() == size {
                symbols
            } else {
                Vec::new()
            };
            return Ok(Notation { shape, symbols });
        }
        let chars: Vec<char> = symbols.chars().collect();
        if chars.len() != size {
            return Err(SymbolsError::WrongCount {
                found: chars.len(),
                size,
            });
        }
        for (index, &symbol) in chars.iter().enumerate() {
            if RESERVED.contains(&symbol) || symbol.is_whitespace() {
                return Err(SymbolsError::Reserved(symbol));
            }
            if chars[..index]
                .iter()
                .any(|&other| same_symbol(other, symbol))
            {
                return Err(SymbolsError::Repeated(symbol));
            }
        }
        Ok(Notation {
            shape,
            symbols: chars,
        })
    }

    /// The symbols, the k-th for digit k (empty when the shape has none).
    pub fn symbols(&self) -> String {
        self.symbols.iter().collect()
    }

    /// The shape read and written.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The form a text is in: numbers when it holds a comma, or exactly N x N
    /// whitespace-separated tokens one of which is two or more characters long
    /// (`12 0 3 ...`), or when the shape has no symbols; symbols otherwise.
    pub fn form_of(&self, text: &str) -> Form {
        if self.symbols.is_empty() || text.contains(',') {
            return Form::Numbers;
        }
        let mut tokens = 0;
        let mut long = false;
        for token in text.split_whitespace() {
            tokens += 1;
            long |= token.chars().nth(1).is_some();
        }
        if long && tokens == self.shape.cells() {
            Form::Numbers
        } else {
            Form::Symbols
        }
    }

    /// Reads a puzzle text into a checked grid, and the form it was in.
    pub fn read(&self, text: &str) -> Result<(Grid, Form), PuzzleError> {
        let (cells, form) = self.read_cells(text)?;
        Ok((Grid::checked(self.shape, cells)?, form))
    }

    /// The cells of a puzzle text (N x N values, 0 for empty) without the clash
    /// check, and the form it was in.
    pub fn read_cells(&self, text: &str) -> Result<(Vec<u8>, Form), PuzzleError> {
        let form = self.form_of(text);
        let cells = match form {
            Form::Numbers => self.read_numbers(text)?,
            Form::Symbols => self.read_symbols(text)?,
        };
        if cells.len() != self.shape.cells() {
            return Err(PuzzleError::CellCount {
                found: cells.len(),
                shape: self.shape,
            });
        }
        Ok((cells, form))
    }

    fn read_symbols(&self, text: &str) -> Result<Vec<u8>, PuzzleError> {
        let mut cells = Vec::with_capacity(self.shape.cells());
        let zero_is_empty = !self.symbols.contains(&'0');
        for (index, character) in text.chars().enumerate() {
            let value = match character {
                '.' | '_' => 0,
                '0' if zero_is_empty => 0,
                '|' | '-' | '+' => continue,
                _ if character.is_whitespace() => continue,
                _ => match self.digit_of(character) {
                    Some(digit) => digit,
                    None => {
                        return Err(PuzzleError::BadSymbol {
                            character,
                            cell: cells.len(),
                            position: index + 1,
                            shape: self.shape,
                            symbols: self.symbols.iter().collect(),
                        });
                    }
                },
            };
            cells.push(value);
        }
        Ok(cells)
    }

    fn read_numbers(&self, text: &str) -> Result<Vec<u8>, PuzzleError> {
        let mut cells = Vec::with_capacity(self.shape.cells());
        let size = self.shape.size();
        let mut chars = text.char_indices().peekable();
        let mut position = 0;
        while let Some((start, character)) = chars.next() {
            position += 1;
            if character == ',' || character.is_whitespace() || matches!(character, '|' | '-' | '+')
            {
                continue;
            }
            let mut end = start + character.len_utf8();
            let begun = position;
            while let Some(&(at, next)) = chars.peek() {
                if next == ',' || next.is_whitespace() {
                    break;
                }
                end = at + next.len_utf8();
                position += 1;
                chars.next();
            }
            let token = &text[start..end];
            let value = match token {
                "." | "_" => Some(0),
                _ if token.bytes().all(|byte| byte.is_ascii_digit()) => token
                    .parse::<usize>()
                    .ok()
                    .filter(|&value| value <= size)
                    .map(|value| value as u8),
                _ => None,
            };
            match value {
                Some(value) => cells.push(value),
                None => {
                    return Err(PuzzleError::BadNumber {
                        token: token.chars().take(12).collect(),
                        cell: cells.len(),
                        position: begun,
                        shape: self.shape,
                    });
                }
            }
        }
        Ok(cells)
    }

    /// The digit a symbol stands for (case ignored).
    fn digit_of(&self, character: char) -> Option<u8> {
        self.symbols
            .iter()
            .position(|&symbol| same_symbol(symbol, character))
            .map(|index| index as u8 + 1)
    }

    /// Cells written in `form`: numbers as comma-separated decimals (0 for
    /// empty), symbols as the alphabet gives them (`.` for empty). A shape
    /// without symbols writes numbers.
    pub fn write(&self, cells: &[u8], form: Form) -> String {
        let mut text = String::with_capacity(cells.len() * 3);
        self.write_into(cells, form, &mut text);
        text
    }

    /// Writes `cells` after what `out` holds, as [`Notation::write`] would.
    pub fn write_into(&self, cells: &[u8], form: Form, out: &mut String) {
        if form == Form::Numbers || self.symbols.is_empty() {
            for (index, &value) in cells.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                // Writing to a String does not fail.
                let _ = write!(out, "{value}");
            }
            return;
        }
        out.extend(cells.iter().map(|&value| match value {
            0 => '.',
            digit => self.symbols[usize::from(digit) - 1],
        }));
    }
}

/// Symbols compare ignoring case.
fn same_symbol(one: char, other: char) -> bool {
    one == other || one.to_lowercase().eq(other.to_lowercase())
}

/// The cells of `text` in `notation`, or of a 9x9 line without one, not
/// checked for clashing digits (a player's position may clash).
pub fn read_cells(notation: Option<&Notation>, text: &str) -> Result<Vec<u8>, PuzzleError> {
    match notation {
        Some(notation) => Ok(notation.read_cells(text)?.0),
        None => Ok(Board::parse_cells(text)?.to_vec()),
    }
}

/// `cells` written in `notation` and `form`, or as a 9x9 line without a
/// notation (nothing when they are not 81).
pub fn write_cells(notation: Option<&Notation>, cells: &[u8], form: Form) -> String {
    let mut text = String::new();
    write_cells_into(notation, cells, form, &mut text);
    text
}

/// Writes `cells` after what `out` holds, as [`write_cells`] would.
pub fn write_cells_into(notation: Option<&Notation>, cells: &[u8], form: Form, out: &mut String) {
    match notation {
        Some(notation) => notation.write_into(cells, form, out),
        None if cells.len() == CELLS => {
            let text: [u8; CELLS] = std::array::from_fn(|cell| cell_char(cells[cell]) as u8);
            // A 9x9 grid's values are at most 9: its characters are ASCII.
            out.push_str(std::str::from_utf8(&text).unwrap_or_default());
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notation(rows: u32, cols: u32, symbols: &str) -> Notation {
        Notation::new(Shape::new(rows, cols).unwrap(), symbols).unwrap()
    }

    #[test]
    fn sixteen_by_sixteen_reads_default_symbols_in_any_case_and_writes_them_upper() {
        let sixteen = notation(4, 4, "");
        let text = format!("1g{}", ".".repeat(254));
        let (grid, form) = sixteen.read(&text).unwrap();
        assert_eq!(form, Form::Symbols);
        assert_eq!((grid.get(0), grid.get(1)), (1, 16));
        assert_eq!(
            sixteen.write(grid.cells(), form),
            format!("1G{}", ".".repeat(254))
        );
    }

    #[test]
    fn numbers_are_read_with_commas_or_spaces_and_written_with_commas() {
        let six = notation(2, 3, "");
        let mut text = vec!["0"; 36];
        text[0] = "6";
        text[35] = "1";
        let with_commas = text.join(",");
        let (grid, form) = six.read(&with_commas).unwrap();
        assert_eq!(form, Form::Numbers);
        assert_eq!(six.write(grid.cells(), form), with_commas);
        let sixteen = notation(4, 4, "");
        let mut spaced = vec!["0"; 256];
        spaced[3] = "12";
        let (grid, form) = sixteen.read(&spaced.join(" ")).unwrap();
        assert_eq!((grid.get(3), form), (12, Form::Numbers));
    }

    #[test]
    fn zero_is_a_symbol_when_the_alphabet_says_so() {
        let hex = notation(4, 4, "0123456789ABCDEF");
        let (grid, _) = hex.read(&format!("0f{}", "_".repeat(254))).unwrap();
        assert_eq!((grid.get(0), grid.get(1)), (1, 16));
        assert_eq!(
            hex.write(grid.cells(), Form::Symbols)[..2].to_string(),
            "0F"
        );
    }

    #[test]
    fn bad_text_says_what_and_where() {
        let sixteen = notation(4, 4, "");
        let text = format!("{}H", ".".repeat(18));
        let error = sixteen.read(&text).unwrap_err().to_string();
        assert!(
            error.contains("'H' at r2c3 (character 19 of the text)"),
            "{error}"
        );
        let error = sixteen.read("1,2,17").unwrap_err().to_string();
        assert!(error.contains("17 at r1c3"), "{error}");
        assert!(error.contains("past 16"), "{error}");
        let error = sixteen.read("1,2,3").unwrap_err().to_string();
        assert!(error.contains("3 cells, expected 256"), "{error}");
        assert!(matches!(
            Notation::new(Shape::new(2, 2).unwrap(), "12a").unwrap_err(),
            SymbolsError::WrongCount { .. }
        ));
        assert_eq!(
            Notation::new(Shape::new(2, 2).unwrap(), "abcA").unwrap_err(),
            SymbolsError::Repeated('A')
        );
        assert_eq!(
            Notation::new(Shape::new(2, 2).unwrap(), "ab.c").unwrap_err(),
            SymbolsError::Reserved('.')
        );
    }

    #[test]
    fn past_thirty_five_only_numbers_unless_symbols_are_given() {
        let big = notation(6, 6, "");
        assert_eq!(big.form_of("1"), Form::Numbers);
        let cells = vec![0u8; 36 * 36];
        assert!(big.write(&cells, Form::Symbols).starts_with("0,0,"));
    }
}
