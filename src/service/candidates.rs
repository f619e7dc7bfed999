//! `TrueCandidates`: the digits each cell holds in some solution, found by
//! enumerating solutions (up to a cap) with the constrained engine, which
//! reads every rule and size (a classic grid is a variant with no rule
//! added). The search runs as `Solve`'s does (a first slice inline, the rest
//! on the compute pool) and stops a little before the caller's deadline, so a
//! cut enumeration still answers OK with the masks so far.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tonic::{Request, Response, Status};

use super::SudokuSolver;
use super::call::{CallLog, deadline_of, interrupted_status};
use super::puzzle::Puzzle;
use crate::board::{Layout, Variant};
use crate::pb;
use crate::solver::{Algorithm, Interrupted, Mode, Search};

/// The most solutions one call enumerates (`max_solutions` 0 or above it).
pub(super) const MOST_SOLUTIONS: u32 = 100_000;

/// How much of the time left before the caller's deadline the enumeration
/// leaves for the answer's way back: a tenth, at most this much.
const ANSWER_MARGIN: Duration = Duration::from_millis(50);

impl SudokuSolver {
    pub(super) async fn true_candidates_unary(
        &self,
        request: Request<pb::TrueCandidatesRequest>,
        log: &mut CallLog,
    ) -> Result<Response<pb::TrueCandidatesResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let puzzle = Puzzle::read(&request.puzzle, request.rules.as_ref())?;
        log.algorithm(Algorithm::Wide);
        let cap = match request.max_solutions {
            0 => MOST_SOLUTIONS,
            asked => asked.min(MOST_SOLUTIONS),
        };
        let layout = match puzzle.layout() {
            Some(layout) => Arc::clone(layout),
            None => Arc::new(Layout::new(puzzle.shape(), Variant::default())),
        };
        let givens = puzzle.grid().cells().to_vec();
        let search = Search::constrained(layout, &givens, Algorithm::Wide, Mode::Enumerate(cap))
            .ok_or_else(super::call::solver_failed)?;
        let bounds = (self.limits.steps_for(0), deadline.map(answer_by));
        let (search, outcome) = self.run_search(search, bounds).await?;
        log.steps(search.steps());
        let complete = match outcome {
            Ok(report) => report.solution_count <= cap,
            Err(Interrupted::StepLimit { .. } | Interrupted::DeadlinePassed) => false,
            Err(interrupted) => return Err(interrupted_status(interrupted, &self.shutdown)),
        };
        let mut candidates = search
            .seen()
            .map(<[u64]>::to_vec)
            .unwrap_or_else(|| vec![0; givens.len()]);
        candidates.resize(givens.len(), 0);
        for (mask, &digit) in candidates.iter_mut().zip(&givens) {
            if digit != 0 {
                *mask |= 1u64 << (digit - 1);
            }
        }
        Ok(Response::new(pb::TrueCandidatesResponse {
            candidates,
            solution_count: search.found_count().min(cap),
            complete,
        }))
    }
}

/// When an enumeration due at `deadline` stops, to answer in time.
fn answer_by(deadline: Instant) -> Instant {
    let left = deadline.saturating_duration_since(Instant::now());
    deadline - (left / 10).min(ANSWER_MARGIN)
}
