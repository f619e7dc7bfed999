//! A request's puzzle read in its `rules`: the givens (a 9x9 `Board`, or a
//! `Grid` of another size), the notation and form its answers are written in,
//! the algorithm checked against its shape, and the statuses for rules and
//! puzzle text that make no puzzle. Knows nothing of slots or streams.

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use super::call::{parse_puzzle, puzzle_status};
use crate::board::{
    BOX_SIDES, Board, Form, Grid, Notation, PuzzleError, Shape, read_cells, write_cells,
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
}

/// A request's puzzle and how its answers are written.
#[derive(Clone)]
pub(super) struct Puzzle {
    pub(super) givens: Givens,
    /// The notation of the request's rules; `None` without rules (9x9 text as
    /// it always was).
    notation: Option<Notation>,
    form: Form,
}

impl Puzzle {
    /// Reads `text` in `rules` (absent: the classic 9x9 text, byte for byte as
    /// before rules existed).
    pub(super) fn read(text: &str, rules: Option<&pb::Rules>) -> Result<Puzzle, Status> {
        let Some(notation) = notation_of(rules)? else {
            return Ok(Puzzle {
                givens: Givens::Classic(parse_puzzle(text)?),
                notation: None,
                form: Form::Symbols,
            });
        };
        if text.trim().is_empty() {
            return Err(parse_puzzle(text)
                .err()
                .unwrap_or_else(|| Status::invalid_argument("")));
        }
        let (grid, form) = notation.read(text).map_err(|error| puzzle_status(&error))?;
        let givens = match grid.to_board() {
            Some(board) => Givens::Classic(board),
            None => Givens::Sized(grid),
        };
        Ok(Puzzle {
            givens,
            notation: Some(notation),
            form,
        })
    }

    /// The givens as a grid of their shape.
    pub(super) fn grid(&self) -> Grid {
        match &self.givens {
            Givens::Classic(board) => Grid::from_board(board),
            Givens::Sized(grid) => grid.clone(),
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
        }
    }

    /// A request's `algorithm` for this puzzle: unspecified is the fastest engine
    /// for the shape; an engine that does not search the shape is refused.
    pub(super) fn algorithm(&self, value: i32) -> Result<Algorithm, Status> {
        let shape = self.shape();
        if value == pb::Algorithm::Unspecified as i32 {
            return Ok(Algorithm::default_for(shape));
        }
        let algorithm = super::call::parse_algorithm(value)?;
        if algorithm.supports(shape) {
            return Ok(algorithm);
        }
        let description = format!(
            "algorithm {} searches 9x9 grids only; this puzzle is {shape}: leave the algorithm \
             unspecified or choose ALGORITHM_WIDE",
            convert::algorithm_to_pb(algorithm).as_str_name()
        );
        let details = ErrorDetails::with_bad_request_violation("algorithm", description.clone());
        Err(Status::with_error_details(
            Code::InvalidArgument,
            description,
            details,
        ))
    }

    /// A search of the puzzle (`algorithm` as [`Puzzle::algorithm`] checked it).
    pub(super) fn search(&self, algorithm: Algorithm, mode: Mode) -> Option<Search> {
        match &self.givens {
            Givens::Classic(board) => Some(Search::new(board, algorithm, mode)),
            Givens::Sized(grid) => Search::sized(grid, algorithm, mode),
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
        }
    }

    /// The solution of a report as the request wrote its puzzle (empty: none).
    pub(super) fn solution_text(&self, report: &Report) -> String {
        report
            .cells()
            .map(|cells| self.write(cells))
            .unwrap_or_default()
    }

    /// The request's rules with the shape and symbols filled in; `None` for a
    /// request without rules.
    pub(super) fn rules(&self) -> Option<pb::Rules> {
        let notation = self.notation.as_ref()?;
        let shape = notation.shape();
        Some(pb::Rules {
            box_rows: shape.box_rows() as u32,
            box_cols: shape.box_cols() as u32,
            symbols: notation.symbols(),
        })
    }
}

/// The notation of a request's rules; `None` when it has none (or only empty
/// fields: the classic text).
fn notation_of(rules: Option<&pb::Rules>) -> Result<Option<Notation>, Status> {
    let Some(rules) = rules else { return Ok(None) };
    if *rules == pb::Rules::default() {
        return Ok(None);
    }
    let shape = Shape::new(rules.box_rows, rules.box_cols).map_err(|error| {
        let field = if rules.box_rows == 0 || !BOX_SIDES.contains(&rules.box_rows) {
            "rules.box_rows"
        } else {
            "rules.box_cols"
        };
        rules_status(field, error.to_string())
    })?;
    Notation::new(shape, &rules.symbols)
        .map(Some)
        .map_err(|error| rules_status("rules.symbols", error.to_string()))
}

fn rules_status(field: &str, description: String) -> Status {
    let message = format!("invalid rules: {description}");
    let details = ErrorDetails::with_bad_request_violation(field, description);
    Status::with_error_details(Code::InvalidArgument, message, details)
}

/// The notation of a request's rules when they name a shape other than 9x9
/// (`None`: the classic grid, whatever symbols).
pub(super) fn sized_notation(rules: Option<&pb::Rules>) -> Result<Option<Notation>, Status> {
    Ok(notation_of(rules)?.filter(|notation| !notation.shape().is_classic()))
}
