//! `Rate` and `Hint`, and what `Explain` shares with them: the check that a
//! puzzle has exactly one solution (by the search, which the logic never
//! consults to choose a step) and the logical solve, both on the compute pool.
//! Knows nothing of streams.

use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

use super::SudokuSolver;
use super::call::{deadline_of, parse_puzzle};
use super::compute::{Bounds, Work};
use crate::board::{Board, CELLS, CellName, PuzzleError};
use crate::convert;
use crate::logic::{self, Explanation, Pencil};
use crate::pb;
use crate::solver::{Algorithm, Interrupted, Mode, NoEvents, Search, Stats};

/// The unique solution of `board` and the effort of the search that proved it
/// unique; `FAILED_PRECONDITION` when there is none or more than one.
pub(super) fn unique_solution(board: &Board, bounds: &Bounds) -> Result<(Board, Stats), Work> {
    let mut search = Search::new(board, Algorithm::DEFAULT, Mode::CountTwo);
    let report = search.finish(&bounds.control(), &mut NoEvents)?;
    match (report.solution_count, report.solution) {
        (1, Some(solution)) => Ok((solution, report.stats)),
        (0, _) | (_, None) => Err(Work::Refused(Status::failed_precondition(
            "the puzzle has no solution: there is nothing to explain or rate",
        ))),
        _ => Err(Work::Refused(Status::failed_precondition(
            "the puzzle has more than one solution: explaining and rating need a unique one",
        ))),
    }
}

/// The logical solve of `board`, stopped by the bounds.
pub(super) fn explained(board: &Board, bounds: &Bounds) -> Result<Explanation, Interrupted> {
    let mut why = None;
    let explanation = logic::explain_while(board, || {
        why = bounds.interrupted();
        why.is_none()
    });
    match why {
        Some(why) => Err(why),
        None => Ok(explanation),
    }
}

impl SudokuSolver {
    pub(super) async fn rate_unary(
        &self,
        request: Request<pb::RateRequest>,
    ) -> Result<Response<pb::RateResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let board = parse_puzzle(&request.into_inner().puzzle)?;
        let response = self
            .compute(deadline, move |bounds| {
                let (_, search) = unique_solution(&board, bounds)?;
                let rating = explained(&board, bounds)?.rating();
                Ok(convert::rate_response(&rating, &search))
            })
            .await?;
        Ok(Response::new(response))
    }

    pub(super) async fn hint_unary(
        &self,
        request: Request<pb::HintRequest>,
    ) -> Result<Response<pb::HintResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let givens = parse_puzzle(&request.puzzle)?;
        let position = player_position(&givens, &request.board)?;
        let response = self
            .compute(deadline, move |bounds| {
                let (solution, _) = unique_solution(&givens, bounds)?;
                Ok(hint(&position, &solution))
            })
            .await?;
        Ok(Response::new(response))
    }
}

/// The player's position: the `board` field read as cells (wrong digits and
/// all), every given of the puzzle where the puzzle has it.
fn player_position(givens: &Board, text: &str) -> Result<[u8; CELLS], Status> {
    if text.trim().is_empty() {
        return Ok(*givens.cells());
    }
    let bad_board = |description: String| {
        let details = ErrorDetails::with_bad_request_violation("board", description.clone());
        Status::with_error_details(Code::InvalidArgument, description, details)
    };
    let cells = Board::parse_cells(text)
        .map_err(|error: PuzzleError| bad_board(format!("invalid board: {error}")))?;
    for (cell, (&given, &now)) in givens.cells().iter().zip(&cells).enumerate() {
        if given != 0 && now != given {
            return Err(bad_board(format!(
                "invalid board: {} holds {} but the puzzle gives {given} there",
                CellName(cell),
                crate::board::cell_char(now)
            )));
        }
    }
    Ok(cells)
}

/// The hint for `position`: its digits that contradict `solution`, and the next
/// step from the position without them (a step of the search when the
/// techniques run out; none when it is solved).
fn hint(position: &[u8; CELLS], solution: &Board) -> pb::HintResponse {
    let mut right = *position;
    let mut wrong = Vec::new();
    for (cell, value) in right.iter_mut().enumerate() {
        if *value != 0 && *value != solution.get(cell) {
            wrong.push(convert::candidate_to_pb((cell, *value)));
            *value = 0;
        }
    }
    let pencil = Pencil::new(&Board::with_cells(right));
    let step = if pencil.is_solved() {
        None
    } else if let Some(step) = logic::next_step(&pencil) {
        Some(convert::logic_step_to_pb(1, &step))
    } else {
        // The cell with the fewest candidates, filled from the solution.
        let cell = (0..CELLS)
            .filter(|&cell| pencil.value(cell) == 0)
            .min_by_key(|&cell| pencil.candidates(cell).count_ones())
            .unwrap_or(0);
        Some(convert::search_step_to_pb(1, &[(cell, solution.get(cell))]))
    };
    pb::HintResponse { step, wrong }
}
