//! A request's puzzle read in its `rules`: the givens (a 9x9 `Board`, or a
//! `Grid` of another size), the notation and form its answers are written in,
//! the algorithm checked against its shape, and the statuses for rules and
//! puzzle text that make no puzzle. Knows nothing of slots or streams.

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use std::sync::Arc;

use super::call::{parse_puzzle, puzzle_status};
use super::rules;
use crate::board::{
    Board, Form, Grid, Layout, Notation, PuzzleError, Shape, read_cells, write_cells,
    write_cells_into,
};
use crate::convert;
use crate::pb;
use crate::solver::{Algorithm, Mode, Report, Search};

/// The givens of a request.
#[derive(Clone)]
pub(super) enum Givens {
    /// 9x9: the classic engines' board.
    Classic(Board),
    /// Any other size.
    Sized(Grid),
    /// A variant (any size): the cells and the layout of its rules.
    Constrained(Vec<u8>, Arc<Layout>),
}

/// A request's puzzle and how its answers are written.
#[derive(Clone)]
pub(super) struct Puzzle {
    pub(super) givens: Givens,
    /// The notation of the request's rules; `None` without rules (9x9 text as
    /// it always was).
    notation: Option<Notation>,
    form: Form,
    /// The request's rules, to be given back with the shape filled in (boxed:
    /// a puzzle without rules, the most common, moves a pointer's worth).
    rules: Option<Box<pb::Rules>>,
    /// The board of the request's f-puzzles link, to give answers back as one.
    board: Option<Arc<serde_json::Value>>,
}

impl Puzzle {
    /// Reads `text` in `rules` (absent: the classic 9x9 text, byte for byte as
    /// before rules existed).
    pub(super) fn read(text: &str, rules: Option<&pb::Rules>) -> Result<Puzzle, Status> {
        let imported = rules::imported(text, rules)?;
        let (text, rules) = match &imported {
            Some(imported) => (imported.puzzle.as_str(), Some(&imported.rules)),
            None => (text, rules),
        };
        let Some(read) = rules::read(rules)? else {
            return Ok(Puzzle::classic(parse_puzzle(text)?));
        };
        if text.trim().is_empty() {
            return Err(parse_puzzle(text)
                .err()
                .unwrap_or_else(|| Status::invalid_argument("")));
        }
        let notation = read.notation;
        let (givens, form) = match read.layout {
            Some(layout) => read_variant(&notation, text, layout)?,
            None => {
                let (grid, form) = notation.read(text).map_err(|error| puzzle_status(&error))?;
                match grid.to_board() {
                    Some(board) => (Givens::Classic(board), form),
                    None => (Givens::Sized(grid), form),
                }
            }
        };
        let shape = notation.shape();
        let rules = rules.map(|rules| {
            Box::new(pb::Rules {
                box_rows: shape.box_rows() as u32,
                box_cols: shape.box_cols() as u32,
                symbols: notation.symbols(),
                ..rules.clone()
            })
        });
        Ok(Puzzle {
            givens,
            notation: Some(notation),
            form,
            rules,
            board: imported.map(|imported| Arc::new(imported.board)),
        })
    }

    /// A puzzle without rules given as exactly 81 cell characters, the common
    /// case of a batch, read from its bytes before any UTF-8 check (they are
    /// ASCII): as [`Puzzle::read`] reads it. `None` for any other bytes, for
    /// `Puzzle::read` to read (or to name what is wrong).
    pub(super) fn read_exact(bytes: &[u8]) -> Option<Result<Puzzle, Status>> {
        let board = Board::parse_exact(bytes)?;
        Some(
            board
                .map(Puzzle::classic)
                .map_err(|error| puzzle_status(&error)),
        )
    }

    /// A 9x9 puzzle without rules: its text written back as it always was.
    fn classic(board: Board) -> Puzzle {
        Puzzle {
            givens: Givens::Classic(board),
            notation: None,
            form: Form::Symbols,
            rules: None,
            board: None,
        }
    }

    /// The variant's layout, when the rules add any.
    pub(super) fn layout(&self) -> Option<&Arc<Layout>> {
        match &self.givens {
            Givens::Constrained(_, layout) => Some(layout),
            _ => None,
        }
    }

    /// The givens as a grid of their shape.
    pub(super) fn grid(&self) -> Grid {
        match &self.givens {
            Givens::Classic(board) => Grid::from_board(board),
            Givens::Sized(grid) => grid.clone(),
            Givens::Constrained(cells, layout) => Grid::with_cells(layout.shape, cells.clone()),
        }
    }

    /// Reads `text` as cells of this puzzle's shape and notation, without
    /// checking that they agree with each other (a player's position may not).
    pub(super) fn read_cells(&self, text: &str) -> Result<Vec<u8>, PuzzleError> {
        read_cells(self.notation.as_ref(), text)
    }

    /// The grid's shape.
    pub(super) fn shape(&self) -> Shape {
        match &self.givens {
            Givens::Classic(_) => Shape::CLASSIC,
            Givens::Sized(grid) => grid.shape(),
            Givens::Constrained(_, layout) => layout.shape,
        }
    }

    /// A request's `algorithm` for this puzzle: unspecified is the fastest engine
    /// for the shape; an engine that does not search the shape is refused.
    pub(super) fn algorithm(&self, value: i32) -> Result<Algorithm, Status> {
        let shape = self.shape();
        let variant = matches!(self.givens, Givens::Constrained(..));
        if value == pb::Algorithm::Unspecified as i32 {
            return Ok(if variant {
                Algorithm::Wide
            } else {
                Algorithm::default_for(shape)
            });
        }
        let algorithm = super::call::parse_algorithm(value)?;
        if variant {
            return match algorithm {
                Algorithm::Wide | Algorithm::Propagation => Ok(algorithm),
                _ => Err(algorithm_status(format!(
                    "algorithm {} does not search variants; under these rules leave the \
                     algorithm unspecified or choose ALGORITHM_WIDE or ALGORITHM_PROPAGATION",
                    convert::algorithm_to_pb(algorithm).as_str_name()
                ))),
            };
        }
        if algorithm.supports(shape) {
            return Ok(algorithm);
        }
        let description = format!(
            "algorithm {} searches 9x9 grids only; this puzzle is {shape}: leave the algorithm \
             unspecified or choose ALGORITHM_WIDE",
            convert::algorithm_to_pb(algorithm).as_str_name()
        );
        Err(algorithm_status(description))
    }

    /// A search of the puzzle (`algorithm` as [`Puzzle::algorithm`] checked it).
    pub(super) fn search(&self, algorithm: Algorithm, mode: Mode) -> Option<Search> {
        match &self.givens {
            Givens::Classic(board) => Some(Search::new(board, algorithm, mode)),
            Givens::Sized(grid) => Search::sized(grid, algorithm, mode),
            Givens::Constrained(cells, layout) => {
                Search::constrained(Arc::clone(layout), cells, algorithm, mode)
            }
        }
    }

    /// N: cells in a row (steps name cells by row and column).
    pub(super) fn side(&self) -> usize {
        self.shape().size()
    }

    /// Cells written as the request wrote its puzzle.
    pub(super) fn write(&self, cells: &[u8]) -> String {
        write_cells(self.notation.as_ref(), cells, self.form)
    }

    /// The givens as the request wrote them.
    pub(super) fn givens_text(&self) -> String {
        match &self.givens {
            Givens::Classic(board) => self.write(board.cells()),
            Givens::Sized(grid) => self.write(grid.cells()),
            Givens::Constrained(cells, _) => self.write(cells),
        }
    }

    /// The solution of a report as the request wrote its puzzle (empty: none).
    pub(super) fn solution_text(&self, report: &Report) -> String {
        let mut text = String::new();
        self.write_solution(report, &mut text);
        text
    }

    /// Writes [`Puzzle::solution_text`] after what `out` holds.
    pub(super) fn write_solution(&self, report: &Report, out: &mut String) {
        if let Some(cells) = report.cells() {
            write_cells_into(self.notation.as_ref(), cells, self.form, out);
        }
    }

    /// The f-puzzles link of a report's solution when the puzzle came as a
    /// link (empty otherwise, or without a solution).
    pub(super) fn answer_link(&self, report: &Report) -> String {
        match (&self.board, report.cells()) {
            (Some(board), Some(cells)) => convert::answer_link(board, cells),
            _ => String::new(),
        }
    }

    /// The request's rules with the shape and symbols filled in; `None` for a
    /// request without rules.
    pub(super) fn rules(&self) -> Option<pb::Rules> {
        self.rules.as_deref().cloned()
    }
}

/// The givens of a variant's puzzle `text` in `notation`, and its form;
/// givens that clash under the layout's rules are refused naming both.
fn read_variant(
    notation: &Notation,
    text: &str,
    layout: Arc<Layout>,
) -> Result<(Givens, Form), Status> {
    let (cells, form) = notation
        .read_cells(text)
        .map_err(|error| puzzle_status(&error))?;
    if let Some((first, second)) = layout.first_clash(&cells) {
        let side = layout.size();
        let digit = cells[first];
        let error = PuzzleError::Clash {
            first,
            second,
            side,
            digit,
        };
        return Err(puzzle_status(&error));
    }
    Ok((Givens::Constrained(cells, layout), form))
}

/// `INVALID_ARGUMENT` for an `algorithm` that does not search the puzzle.
fn algorithm_status(description: String) -> Status {
    let details = ErrorDetails::with_bad_request_violation("algorithm", description.clone());
    Status::with_error_details(Code::InvalidArgument, description, details)
}
