//! An f-puzzles link (or its `load=` payload) made into a puzzle and its
//! `Rules`: the payload is LZ-string base64 of a JSON board whose known keys
//! become the rules' fields. Keys that only describe the puzzle (title,
//! author, rules text, pencil marks, the solver's settings) are ignored; any
//! other constraint that is present and not empty is refused by name, never
//! dropped.

use serde_json::{Map, Value};

use super::lzstring::{LzError, decompress_base64};
use crate::board::{Form, Notation, RuleError, Shape};
use crate::pb;

/// The request field every mistake is under.
const FIELD: &str = "rules.fpuzzles";

/// The longest board text a link may hold, in UTF-16 units (f-puzzles'
/// largest boards are tens of kilobytes).
pub const MAX_BOARD_UNITS: usize = 1 << 20;

/// Keys that say nothing the solver needs.
const IGNORED: [&str; 6] = [
    "title",
    "author",
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
];

/// The constraints read.
const KNOWN: [&str; 11] = [
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "killercage",
    "cage",
    "thermometer",
    "extraregion",
];

/// Why a link makes no puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FpuzzlesError {
    /// A mistake in the link: the field it is at and what is wrong.
    Invalid(RuleError),
    /// The board decompresses past [`MAX_BOARD_UNITS`].
    TooLarge(String),
}

impl std::fmt::Display for FpuzzlesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FpuzzlesError::Invalid(error) => write!(f, "{error}"),
            FpuzzlesError::TooLarge(message) => f.write_str(message),
        }
    }
}

fn invalid(field: impl Into<String>, description: impl Into<String>) -> FpuzzlesError {
    FpuzzlesError::Invalid(RuleError {
        field: field.into(),
        description: description.into(),
    })
}

/// A puzzle read from an f-puzzles link: the rules it sets and its givens,
/// written one symbol a cell in the rules' notation.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub rules: pb::Rules,
    pub puzzle: String,
    /// The board as the link held it, to be given back with an answer.
    pub board: Value,
}

/// True for text that is an f-puzzles or SudokuPad link or its payload (a
/// web address, a `load=` part, or LZ-string of a JSON object), not a grid.
pub fn is_link(text: &str) -> bool {
    let text = text.trim();
    text.starts_with("http://")
        || text.starts_with("https://")
        || text.contains("load=")
        || text.starts_with("N4Ig")
}

/// Where answer links open.
const ANSWER_SITE: &str = "https://www.f-puzzles.com/?load=";

/// The f-puzzles link of `board` (as read from a link) with `cells` (a digit
/// a cell, row-major) filled into the cells it does not give.
pub fn answer_link(board: &Value, cells: &[u8]) -> String {
    let mut board = board.clone();
    if let Some(rows) = board.get_mut("grid").and_then(Value::as_array_mut) {
        let size = rows.len();
        for (row, line) in rows.iter_mut().enumerate() {
            let Some(line) = line.as_array_mut() else {
                continue;
            };
            for (col, cell) in line.iter_mut().enumerate() {
                let digit = cells.get(row * size + col).copied().unwrap_or(0);
                let given = cell.get("given").and_then(Value::as_bool) == Some(true);
                if let (Some(keys), false, 1..) = (cell.as_object_mut(), given, digit) {
                    keys.insert("value".to_owned(), Value::from(digit));
                }
            }
        }
    }
    format!(
        "{ANSWER_SITE}{}",
        lz_str::compress_to_base64(board.to_string().as_str())
    )
}

/// Reads `link`: an f-puzzles (or SudokuPad) address with `load=`, or the
/// payload alone.
pub fn read_fpuzzles(link: &str) -> Result<Imported, FpuzzlesError> {
    let text =
        decompress_base64(&payload_of(link), MAX_BOARD_UNITS).map_err(|error| match error {
            LzError::TooLong(_) => {
                FpuzzlesError::TooLarge(format!("the f-puzzles board is too large: {error}"))
            }
            _ => invalid(
                FIELD,
                format!("not an f-puzzles payload (LZ-string base64): {error}"),
            ),
        })?;
    let board: Value = serde_json::from_str(&text)
        .map_err(|error| invalid(FIELD, format!("the f-puzzles payload is no JSON: {error}")))?;
    let Some(keys) = board.as_object() else {
        return Err(invalid(FIELD, "the f-puzzles payload is no JSON object"));
    };
    for (key, value) in keys {
        if !KNOWN.contains(&key.as_str()) && !IGNORED.contains(&key.as_str()) && !empty(value) {
            return Err(invalid(
                format!("{FIELD}.{key}"),
                format!(
                    "the f-puzzles constraint {key:?} is not played here (played: {})",
                    KNOWN[2..].join(", ")
                ),
            ));
        }
    }
    let (rules, puzzle) = read_board(keys)?;
    Ok(Imported {
        rules,
        puzzle,
        board,
    })
}

/// The base64 payload of a link: what follows `load=` up to the next `&` or
/// `#`, or the whole text, percent escapes undone (a `+` written as a space
/// is a `+`).
fn payload_of(link: &str) -> String {
    let link = link.trim();
    let payload = match link.find("load=") {
        Some(at) => link[at + 5..].split(['&', '#']).next().unwrap_or_default(),
        None => link,
    };
    let bytes = payload.as_bytes();
    let mut out = String::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escaped = (bytes[at] == b'%')
            .then(|| payload.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(char::from(byte));
                at += 3;
            }
            None => {
                out.push(if bytes[at] == b' ' {
                    '+'
                } else {
                    char::from(bytes[at])
                });
                at += 1;
            }
        }
    }
    out
}

/// True for a key that sets nothing: absent, false, zero, empty.
fn empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(set) => !set,
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(keys) => keys.is_empty(),
    }
}

/// The rules and givens of a board's keys.
fn read_board(keys: &Map<String, Value>) -> Result<(pb::Rules, String), FpuzzlesError> {
    let grid = Grid::read(keys)?;
    let shape = Shape::for_size(grid.size).ok_or_else(|| {
        invalid(
            format!("{FIELD}.size"),
            format!(
                "a {0}x{0} grid: this server plays sizes that are a product of two box sides \
                 of 2 to 8 (4, 6, 8, 9, 10, 12, 14, 15, 16)",
                grid.size
            ),
        )
    })?;
    let mut rules = pb::Rules {
        box_rows: shape.box_rows() as u32,
        box_cols: shape.box_cols() as u32,
        ..pb::Rules::default()
    };
    let boxes: Vec<usize> = (0..shape.cells()).map(|cell| shape.box_of(cell)).collect();
    if grid.regions != boxes {
        rules.regions = grid
            .regions
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",");
    }
    let flag = |key: &str| -> Result<bool, FpuzzlesError> {
        match keys.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(set)) => Ok(*set),
            Some(_) => Err(invalid(
                format!("{FIELD}.{key}"),
                format!("{key:?} is true or false"),
            )),
        }
    };
    let size = grid.size;
    let (down, up) = (flag("diagonal-")?, flag("diagonal+")?);
    rules.diagonal = down && up;
    if down != up {
        let cells = (0..size).map(|row| row * size + if down { row } else { size - 1 - row });
        rules.extra_regions.push(pb::Region {
            cells: cells.map(|cell| cell as u32).collect(),
        });
    }
    rules.anti_knight = flag("antiknight")?;
    rules.anti_king = flag("antiking")?;
    rules.non_consecutive = flag("nonconsecutive")?;
    read_lists(keys, size, &mut rules)?;
    let notation = Notation::new(shape, "").map_err(|error| invalid(FIELD, error.to_string()))?;
    Ok((rules, notation.write(&grid.givens, Form::Symbols)))
}

/// The constraints that are lists of cells: cages, thermometers, extra
/// regions.
fn read_lists(
    keys: &Map<String, Value>,
    size: usize,
    rules: &mut pb::Rules,
) -> Result<(), FpuzzlesError> {
    for key in ["killercage", "cage"] {
        for (index, cage) in list(keys, key)?.iter().enumerate() {
            let at = format!("{FIELD}.{key}[{index}]");
            rules.cages.push(pb::Cage {
                cells: cells_of(cage.get("cells"), size, &format!("{at}.cells"))?,
                sum: sum_of(cage.get("value"), &format!("{at}.value"))?,
            });
        }
    }
    for (index, thermometer) in list(keys, "thermometer")?.iter().enumerate() {
        let at = format!("{FIELD}.thermometer[{index}].lines");
        let lines = thermometer.get("lines").and_then(Value::as_array);
        let lines = lines.ok_or_else(|| invalid(&at, "a thermometer has a list of lines"))?;
        for (line, cells) in lines.iter().enumerate() {
            rules.thermometers.push(pb::Thermometer {
                cells: cells_of(Some(cells), size, &format!("{at}[{line}]"))?,
            });
        }
    }
    for (index, region) in list(keys, "extraregion")?.iter().enumerate() {
        let at = format!("{FIELD}.extraregion[{index}].cells");
        rules.extra_regions.push(pb::Region {
            cells: cells_of(region.get("cells"), size, &at)?,
        });
    }
    Ok(())
}

/// The grid of a board: its size, givens and each cell's region.
struct Grid {
    size: usize,
    givens: Vec<u8>,
    regions: Vec<usize>,
}

impl Grid {
    fn read(keys: &Map<String, Value>) -> Result<Grid, FpuzzlesError> {
        let field = format!("{FIELD}.grid");
        let rows = keys.get("grid").and_then(Value::as_array);
        let rows = rows.ok_or_else(|| invalid(&field, "the board has no grid (a list of rows)"))?;
        let size = match keys.get("size") {
            None => rows.len(),
            Some(size) => size
                .as_u64()
                .filter(|&size| (1..=64).contains(&size))
                .ok_or_else(|| invalid(format!("{FIELD}.size"), "size is a number of 1 to 64"))?
                as usize,
        };
        if rows.len() != size {
            return Err(invalid(
                &field,
                format!("size {size} but the grid has {} rows", rows.len()),
            ));
        }
        let default = Shape::for_size(size);
        let mut grid = Grid {
            size,
            givens: vec![0; size * size],
            regions: vec![0; size * size],
        };
        for (row, cells) in rows.iter().enumerate() {
            let cells = cells.as_array().filter(|cells| cells.len() == size);
            let cells = cells.ok_or_else(|| {
                invalid(
                    format!("{field}[{row}]"),
                    format!("row {} is not {size} cells", row + 1),
                )
            })?;
            for (col, cell) in cells.iter().enumerate() {
                let at = format!("{field}[{row}][{col}]");
                let index = row * size + col;
                grid.givens[index] = given_of(cell, size, &at)?;
                grid.regions[index] = region_of(cell, index, default, &at)?;
            }
        }
        Ok(grid)
    }
}

/// The region of `cell` (0-based `index`): its label, or its box in
/// `default` when it has none.
fn region_of(
    cell: &Value,
    index: usize,
    default: Option<Shape>,
    at: &str,
) -> Result<usize, FpuzzlesError> {
    let Some(region) = cell.get("region") else {
        return default.map(|shape| shape.box_of(index)).ok_or_else(|| {
            invalid(
                format!("{at}.region"),
                "this grid size has no boxes: every cell needs its region",
            )
        });
    };
    region
        .as_u64()
        .and_then(|region| usize::try_from(region).ok())
        .ok_or_else(|| invalid(format!("{at}.region"), "a region is a label number from 0"))
}

/// The digit a cell gives (0 unless it is marked `given`).
fn given_of(cell: &Value, size: usize, at: &str) -> Result<u8, FpuzzlesError> {
    if cell.get("given").and_then(Value::as_bool) != Some(true) {
        return Ok(0);
    }
    cell.get("value")
        .and_then(Value::as_u64)
        .filter(|&value| (1..=size as u64).contains(&value))
        .map(|value| value as u8)
        .ok_or_else(|| {
            invalid(
                format!("{at}.value"),
                format!("a given is a digit of 1 to {size}"),
            )
        })
}

/// The list under `key` (none when absent).
fn list<'a>(keys: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], FpuzzlesError> {
    match keys.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(invalid(
            format!("{FIELD}.{key}"),
            format!("{key:?} is a list"),
        )),
    }
}

/// Cells written `R1C1` (1-based), as row-major indices.
fn cells_of(cells: Option<&Value>, size: usize, at: &str) -> Result<Vec<u32>, FpuzzlesError> {
    let cells = cells.and_then(Value::as_array);
    let cells = cells.ok_or_else(|| invalid(at, "a list of cells such as \"R1C1\""))?;
    let one = |index: usize, cell: &Value| {
        let text = cell.as_str().unwrap_or_default().to_ascii_uppercase();
        let (row, col) = text
            .strip_prefix('R')
            .and_then(|rest| rest.split_once('C'))
            .and_then(|(row, col)| Some((row.parse::<usize>().ok()?, col.parse::<usize>().ok()?)))
            .filter(|&(row, col)| (1..=size).contains(&row) && (1..=size).contains(&col))
            .ok_or_else(|| {
                invalid(
                    format!("{at}[{index}]"),
                    format!("{cell} is no cell of the {size}x{size} grid (R1C1 to R{size}C{size})"),
                )
            })?;
        Ok(((row - 1) * size + col - 1) as u32)
    };
    cells
        .iter()
        .enumerate()
        .map(|(index, cell)| one(index, cell))
        .collect()
}

/// A cage's sum: its value, a number or its text (none: 0).
fn sum_of(value: Option<&Value>, at: &str) -> Result<u32, FpuzzlesError> {
    let sum = match value {
        None | Some(Value::Null) => return Ok(0),
        Some(Value::String(text)) if text.trim().is_empty() => return Ok(0),
        Some(Value::String(text)) => text.trim().parse::<u32>().ok(),
        Some(Value::Number(number)) => number.as_u64().and_then(|sum| u32::try_from(sum).ok()),
        Some(_) => None,
    };
    sum.ok_or_else(|| {
        invalid(
            at,
            format!(
                "a cage's value is its sum, a whole number, not {}",
                value.map_or(Value::Null, Clone::clone)
            ),
        )
    })
}
