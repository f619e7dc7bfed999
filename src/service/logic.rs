//! `Rate` and `Hint`, and what `Explain` shares with them: the check that a
//! puzzle has exactly one solution (by the search, which the logic never
//! consults to choose a step) and the logical solve, both on the compute pool.
//! Knows nothing of streams.

use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

use super::SudokuSolver;
use super::call::deadline_of;
use super::compute::{Bounds, Work};
use super::puzzle::Puzzle;
use std::sync::Arc;

use crate::board::{Grid, Layout, PuzzleError};
use crate::convert;
use crate::logic::{self, Explanation, Next};
use crate::pb;
use crate::solver::{self, Interrupted, Stats, Uniqueness};

/// The unique solution of `grid` (under a variant's `rules` when given) and
/// the effort of the search that proved it unique; `FAILED_PRECONDITION` when
/// there is none or more than one.
pub(super) fn unique_solution(
    grid: &Grid,
    rules: Option<&Arc<Layout>>,
    bounds: &Bounds,
) -> Result<(Grid, Stats), Work> {
    let found = match rules {
        Some(layout) => solver::uniqueness_under(layout, grid.cells(), &bounds.control())?,
        None => solver::uniqueness_of(grid, &bounds.control())?,
    };
    match found {
        Uniqueness::One(solution, stats) => Ok((solution, stats)),
        Uniqueness::None => Err(Work::Refused(Status::failed_precondition(
            "the puzzle has no solution: there is nothing to explain or rate",
        ))),
        Uniqueness::Several => Err(Work::Refused(Status::failed_precondition(
            "the puzzle has more than one solution: explaining and rating need a unique one",
        ))),
    }
}

/// The logical solve of `grid` (under a variant's `rules` when given), `cap`
/// steps at the most, stopped by the bounds (between steps, and within the
/// contradiction rungs of the larger grids and the variants).
pub(super) fn explained(
    grid: &Grid,
    rules: Option<&Arc<Layout>>,
    bounds: &Bounds,
    cap: u64,
) -> Result<Explanation, Interrupted> {
    let mut asked = 0u64;
    let explanation = logic::explain_grid(
        grid,
        rules,
        || {
            asked += 1;
            asked <= cap && bounds.interrupted().is_none()
        },
        &|| bounds.interrupted().is_some(),
    );
    bounds.interrupted().map_or(Ok(explanation), Err)
}

impl SudokuSolver {
    pub(super) async fn rate_unary(
        &self,
        request: Request<pb::RateRequest>,
    ) -> Result<Response<pb::RateResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let puzzle = Puzzle::read(&request.puzzle, request.rules.as_ref())?;
        let (grid, rules) = (puzzle.grid(), puzzle.layout().cloned());
        let response = self
            .compute(deadline, move |bounds| {
                let (_, search) = unique_solution(&grid, rules.as_ref(), bounds)?;
                let rating = explained(&grid, rules.as_ref(), bounds, u64::MAX)?.rating();
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
        let puzzle = Puzzle::read(&request.puzzle, request.rules.as_ref())?;
        let position = player_position(&puzzle, &request.board)?;
        let (givens, rules) = (puzzle.grid(), puzzle.layout().cloned());
        let response = self
            .compute(deadline, move |bounds| {
                let (solution, _) = unique_solution(&givens, rules.as_ref(), bounds)?;
                let stop = || bounds.interrupted().is_some();
                let response = hint(&position, &solution, rules.as_ref(), &stop);
                bounds
                    .interrupted()
                    .map_or(Ok(response), |why| Err(why.into()))
            })
            .await?;
        Ok(Response::new(response))
    }
}

/// The player's position: the `board` field read as cells in the puzzle's
/// notation (wrong digits and all), every given of the puzzle where the
/// puzzle has it.
fn player_position(puzzle: &Puzzle, text: &str) -> Result<Vec<u8>, Status> {
    let givens = puzzle.grid();
    if text.trim().is_empty() {
        return Ok(givens.cells().to_vec());
    }
    let bad_board = |description: String| {
        let details = ErrorDetails::with_bad_request_violation("board", description.clone());
        Status::with_error_details(Code::InvalidArgument, description, details)
    };
    let cells = puzzle
        .read_cells(text)
        .map_err(|error: PuzzleError| bad_board(format!("invalid board: {error}")))?;
    match logic::changed_given(givens.cells(), &cells) {
        Some(changed) => Err(bad_board(format!("invalid board: {changed}"))),
        None => Ok(cells),
    }
}

/// The hint for `position` as the API gives it.
fn hint(
    position: &[u8],
    solution: &Grid,
    rules: Option<&Arc<Layout>>,
    stop: &dyn Fn() -> bool,
) -> pb::HintResponse {
    let side = solution.shape().size();
    let hint = logic::hint(position, solution, rules, stop);
    let step = hint.next.map(|next| match next {
        Next::Logic(step) => convert::logic_step_to_pb(1, &step, side),
        Next::Search(placement) => convert::search_step_to_pb(1, &[placement], side),
    });
    pb::HintResponse {
        step,
        wrong: convert::candidates_to_pb(&hint.wrong, side),
    }
}
