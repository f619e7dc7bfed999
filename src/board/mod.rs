//! The Sudoku vocabulary (cell, digit, row, column, box) and the `Board` type.
//!
//! `cells.rs` holds the vocabulary and the `Board` value itself.
//! A `Board` only exists parsed and checked: `parse` reads the puzzle text of the
//! design contract (`parse.rs`, with the rules of puzzle files), and `conflict.rs`
//! rejects conflicting givens, so every `Board` holds givens that do not clash.
//! `bands.rs` holds the givens' one representation besides the cell array: per-band
//! digit masks, read by the conflict check and by the bitboard engine's intake.
//! `shape.rs` holds the other sizes' shapes (N x N with boxes of box_rows x
//! box_cols) and their geometry, `sized.rs` the any-size [`Grid`], and `text.rs`
//! their puzzle text in its two forms (numbers and symbols). `variant.rs` holds
//! the rules beyond rows, columns and boxes (jigsaw regions, diagonals, cages,
//! thermometers, ...) with their checks, and `layout.rs` the houses and peers a
//! variant grid makes.
//! This module knows nothing of searching. Std and `memchr` (line splitting) only.

mod bands;
mod cells;
mod conflict;
mod layout;
mod parse;
mod shape;
mod sized;
mod text;
mod variant;

pub(crate) use bands::{BAND, band_masks};
pub use cells::{Board, CELLS, Cell, CellName, PEERS, UNITS, box_of, cell_char, col_of, row_of};
pub use layout::{Crossing, Layout, PEER_BITS_CELLS};
pub use parse::{PuzzleError, puzzle_lines};
pub use shape::{BOX_SIDES, CellAt, Geometry, MAX_SIZE, Shape, ShapeError};
pub use sized::Grid;
pub use text::{
    DEFAULT_SYMBOLS, Form, Notation, SymbolsError, read_cells, write_cells, write_cells_into,
};
pub use variant::{Cage, RuleError, Variant, connected, neighbours, read_regions, sum_range};
