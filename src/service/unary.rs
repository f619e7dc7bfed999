//! Unary `Solve`: the search runs its first slice on the runtime's thread (a step
//! budget that covers nearly every puzzle) and, when that is not enough, goes on
//! from where it paused on the compute pool, handing its slot over whenever other
//! work waits for one. Knows nothing of streams.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tonic::{Request, Response, Status};

use super::SudokuSolver;
use super::call::{CallLog, deadline_of, interrupted_status, solver_failed, unavailable};
use super::compute::StopOnDrop;
use super::puzzle::Puzzle;
use super::slots::Slot;
use super::tracker::LiveSolve;
use crate::convert;
use crate::pb;
use crate::solver::{Algorithm, Control, Interrupted, Mode, NoEvents, Progress, Report, Search};

/// Steps a unary search may take on the runtime's own thread before it moves to the
/// compute pool: tens of microseconds, which covers nearly every real puzzle.
pub(super) const INLINE_STEPS: u64 = 2048;

/// How long a slice on the compute pool runs before it looks whether other work
/// waits for its slot.
const SLICE: Duration = Duration::from_micros(100);

impl SudokuSolver {
    pub(super) async fn solve_unary(
        &self,
        request: Request<pb::SolveRequest>,
        log: &mut CallLog,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let puzzle = Puzzle::read(&request.puzzle, request.rules.as_ref())?;
        let algorithm = puzzle.algorithm(request.algorithm)?;
        log.algorithm(algorithm);
        let max_steps = self.limits.steps_for(request.max_steps);
        let mode = Mode::counting(request.check_unique);
        let (search, outcome) = self
            .search_once(&puzzle, algorithm, mode, (max_steps, deadline))
            .await?;
        if outcome.is_err() {
            log.steps(search.steps());
        }
        self.unary_response(outcome, (algorithm, mode), &puzzle, log)
    }

    /// One search to its end as `Solve` makes it (and each puzzle of a batch): in
    /// line for a slot, a first slice on this thread, the rest on the compute
    /// pool, within `max_steps` and the deadline.
    pub(super) async fn search_once(
        &self,
        puzzle: &Puzzle,
        algorithm: Algorithm,
        mode: Mode,
        (max_steps, deadline): (u64, Option<Instant>),
    ) -> Result<(Search, Result<Report, Interrupted>), Status> {
        let search = puzzle.search(algorithm, mode).ok_or_else(solver_failed)?;
        self.run_search(search, (max_steps, deadline)).await
    }

    /// A search made by the caller run to its end as [`Self::search_once`]
    /// runs one.
    pub(super) async fn run_search(
        &self,
        mut search: Search,
        (max_steps, deadline): (u64, Option<Instant>),
    ) -> Result<(Search, Result<Report, Interrupted>), Status> {
        let slot = self.slots.admit(deadline).await?;
        let live = self.tracker.enter();
        let inline = Control {
            max_steps,
            stop: None,
            stop_all: Some(&self.shutdown.flag),
            deadline,
            timed: true,
            slice_steps: INLINE_STEPS,
            slice_until: None,
        };
        let first = {
            let _computing = self.tracker.computing_slice();
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search.run(&inline, &mut NoEvents)
            }))
        };
        match first.map_err(|_| solver_failed())? {
            Progress::Done(outcome) => Ok((search, outcome)),
            Progress::Paused => {
                let job = LongSolve {
                    max_steps,
                    deadline,
                };
                // Boxed: the long way's state stays out of every call's future.
                Box::pin(self.continue_on_pool(search, (slot, live), job)).await
            }
        }
    }

    /// Goes on with a search that outgrew its first slice, on the compute pool, in
    /// slices; between turns it waits in line for a slot like everyone else. Stops
    /// the search when the call is dropped; the search counts as live until it
    /// has stopped.
    pub(super) async fn continue_on_pool(
        &self,
        mut search: Search,
        (mut slot, mut live): (Slot, LiveSolve),
        job: LongSolve,
    ) -> Result<(Search, Result<Report, Interrupted>), Status> {
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        loop {
            let turn = {
                let (stop, shutdown) = (stop.clone(), self.shutdown.clone());
                let (slots, tracker) = (self.slots.clone(), self.tracker.clone());
                self.pool
                    .run(move || {
                        let _computing = tracker.computing_slice();
                        let mut control = Control {
                            max_steps: job.max_steps,
                            stop: Some(&stop),
                            stop_all: Some(&shutdown.flag),
                            deadline: job.deadline,
                            timed: true,
                            slice_steps: u64::MAX,
                            slice_until: None,
                        };
                        // The slot (and the count of live solves) go back with
                        // the search, so the slot is held for exactly as long as
                        // this thread computes, also when the call is gone.
                        let outcome = loop {
                            control.slice_until = Some(Instant::now() + SLICE);
                            match search.run(&control, &mut NoEvents) {
                                Progress::Done(outcome) => break Some(outcome),
                                Progress::Paused if slots.contended() => break None,
                                Progress::Paused => {
                                    tracker.metrics.compute_slices.inc();
                                }
                            }
                        };
                        (search, outcome, (slot, live))
                    })
                    .await
            };
            let Some((paused, outcome, (held, still_live))) = turn else {
                return Err(solver_failed());
            };
            if let Some(outcome) = outcome {
                return Ok((paused, outcome));
            }
            (search, live) = (paused, still_live);
            drop(held);
            slot = self.next_turn(job.deadline).await?;
        }
    }

    /// The next slot for a search already admitted, within its deadline.
    async fn next_turn(&self, deadline: Option<Instant>) -> Result<Slot, Status> {
        let expired = Status::deadline_exceeded("deadline exceeded before the search finished");
        let turn = async {
            tokio::select! {
                slot = self.slots.next_turn() => slot.map_err(|_| unavailable()),
                () = self.shutdown.stopped() => Err(unavailable()),
            }
        };
        match deadline {
            None => turn.await,
            Some(deadline) => tokio::time::timeout_at(deadline.into(), turn)
                .await
                .unwrap_or(Err(expired)),
        }
    }

    fn unary_response(
        &self,
        outcome: Result<Report, Interrupted>,
        (algorithm, mode): (Algorithm, Mode),
        puzzle: &Puzzle,
        log: &mut CallLog,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        match outcome {
            Ok(report) => {
                log.stats(&report.stats);
                let metrics = &self.tracker.metrics;
                metrics.solved(algorithm.name(), report.stats.elapsed);
                let solution = puzzle.solution_text(&report);
                let mut response = convert::solve_response(&report, algorithm, mode, solution);
                response.fpuzzles = puzzle.answer_link(&report);
                Ok(Response::new(response))
            }
            Err(interrupted) => {
                if matches!(interrupted, Interrupted::StepLimit { .. }) {
                    self.tracker.metrics.rejected("max_steps");
                }
                Err(interrupted_status(interrupted, &self.shutdown))
            }
        }
    }
}

/// The bounds of a search that goes on past its first slice.
#[derive(Debug, Clone, Copy)]
pub(super) struct LongSolve {
    pub(super) max_steps: u64,
    pub(super) deadline: Option<Instant>,
}
