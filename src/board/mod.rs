//! The Sudoku vocabulary (cell, digit, row, column, box) and the `Board` type.
//!
//! `cells.rs` holds the vocabulary and the `Board` value itself.
//! A `Board` only exists parsed and checked: `parse` reads the puzzle text of the
//! design contract (`parse.rs`, with the rules of puzzle files), and `conflict.rs`
//! rejects conflicting givens, so every `Board` holds givens that do not clash.
//! `bands.rs` holds the givens' one representation besides the cell array: per-band
//! digit masks, read by the conflict check and by the bitboard engine's intake.
//! This module knows nothing of searching. Std and `memchr` (line splitting) only.

mod bands;
mod cells;
mod conflict;
mod parse;

pub(crate) use bands::{BAND, band_masks};
pub use cells::{Board, CELLS, Cell, CellName, PEERS, UNITS, box_of, cell_char, col_of, row_of};
pub use parse::{PuzzleError, puzzle_lines};
