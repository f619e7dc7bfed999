//! Unary `Solve`: the search runs its first slice on the runtime's thread (a step
//! budget that covers nearly every puzzle) and, when that is not enough, goes on
//! from where it paused on the compute pool, handing its slot over whenever other
//! work waits for one. Knows nothing of streams.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tonic::{Request, Response, Status};

use super::SudokuSolver;
use super::call::{CallLog, deadline_of, interrupted_status, solver_failed, unavailable};
use super::compute::StopOnDrop;
use super::puzzle::{Givens, Puzzle};
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
    /// A unary solve. When a slot is free and the first slice finishes the search
    /// (nearly every call), all of it runs in this first poll and the future
    /// holds no search state; the long way is boxed.
    pub(super) async fn solve_unary(
        &self,
        request: Request<pb::SolveRequest>,
        log: &mut CallLog,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        match self.unary_first(request, log)? {
            Unary::Answered(response) => Ok(response),
            Unary::Later(later) => Box::pin(self.unary_later(later, log)).await,
        }
    }

    /// Reads the request and, when a slot is free at once, runs the first slice.
    fn unary_first(
        &self,
        request: Request<pb::SolveRequest>,
        log: &mut CallLog,
    ) -> Result<Unary, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let puzzle = Puzzle::read(&request.puzzle, request.rules.as_ref())?;
        let algorithm = puzzle.algorithm(request.algorithm)?;
        log.algorithm(algorithm);
        let bounds = (self.limits.steps_for(request.max_steps), deadline);
        let kind = (algorithm, Mode::counting(request.check_unique));
        let mut search = spare_search(&puzzle, kind).ok_or_else(solver_failed)?;
        let held = match self.slots.try_now() {
            None => None,
            Some(slot) => match self.first_slice(&mut search, slot, bounds)? {
                First::Done(outcome) => {
                    let answer = self.unary_response(outcome, &search, kind, &puzzle, log);
                    keep_spare(&puzzle, search);
                    return answer.map(Unary::Answered);
                }
                First::Paused(slot, live) => Some((slot, live)),
            },
        };
        Ok(Unary::Later(Box::new(Later {
            puzzle,
            search,
            kind,
            bounds,
            held,
        })))
    }

    /// A unary solve that waits for a slot or outgrew its first slice.
    async fn unary_later(
        &self,
        later: Box<Later>,
        log: &mut CallLog,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        let Later {
            puzzle,
            search,
            kind,
            bounds,
            held,
        } = *later;
        let (search, outcome) = match held {
            None => self.run_search(search, bounds).await?,
            Some(held) => {
                let job = LongSolve::from(bounds);
                self.continue_on_pool(search, held, job).await?
            }
        };
        self.unary_response(outcome, &search, kind, &puzzle, log)
    }

    /// A search made by the caller run to its end as `Solve` runs one (a
    /// `Solve` that found no slot free, `TrueCandidates`): in line for a slot, a
    /// first slice on this thread, the rest on the compute pool, within
    /// `max_steps` and the deadline.
    pub(super) async fn run_search(
        &self,
        mut search: Search,
        bounds: (u64, Option<Instant>),
    ) -> Result<(Search, Result<Report, Interrupted>), Status> {
        let slot = self.slots.admit(bounds.1).await?;
        match self.first_slice(&mut search, slot, bounds)? {
            First::Done(outcome) => Ok((search, outcome)),
            // Boxed: the long way's state stays out of every call's future.
            First::Paused(slot, live) => {
                let job = LongSolve::from(bounds);
                Box::pin(self.continue_on_pool(search, (slot, live), job)).await
            }
        }
    }

    /// The first slice of a search, on this thread under `slot`: its outcome, or
    /// the slot and the live count to go on with.
    fn first_slice(
        &self,
        search: &mut Search,
        slot: Slot,
        (max_steps, deadline): (u64, Option<Instant>),
    ) -> Result<First, Status> {
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
            Progress::Done(outcome) => Ok(First::Done(outcome)),
            Progress::Paused => Ok(First::Paused(slot, live)),
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
        search: &Search,
        (algorithm, mode): (Algorithm, Mode),
        puzzle: &Puzzle,
        log: &mut CallLog,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        if outcome.is_err() {
            log.steps(search.steps());
        }
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

thread_local! {
    /// The search of the last 9x9 Solve this thread answered in its first poll,
    /// restarted by the next one (as a batch's worker keeps one), so a call does
    /// not allocate a search's levels anew.
    static SPARE: Cell<Option<Search>> = const { Cell::new(None) };
}

/// A search of `puzzle`: this thread's spare restarted on it when the puzzle
/// is a 9x9 one, else a new one.
fn spare_search(puzzle: &Puzzle, (algorithm, mode): (Algorithm, Mode)) -> Option<Search> {
    let Givens::Classic(board) = &puzzle.givens else {
        return puzzle.search(algorithm, mode);
    };
    let mut spare = SPARE.take();
    Search::reuse(&mut spare, board, algorithm, mode);
    spare
}

/// Keeps a finished search of `puzzle` as this thread's spare when
/// [`spare_search`] would restart it (9x9 only).
fn keep_spare(puzzle: &Puzzle, search: Search) {
    if matches!(puzzle.givens, Givens::Classic(_)) {
        SPARE.set(Some(search));
    }
}

/// The bounds of a search that goes on past its first slice.
#[derive(Debug, Clone, Copy)]
pub(super) struct LongSolve {
    pub(super) max_steps: u64,
    pub(super) deadline: Option<Instant>,
}

impl From<(u64, Option<Instant>)> for LongSolve {
    fn from((max_steps, deadline): (u64, Option<Instant>)) -> LongSolve {
        LongSolve {
            max_steps,
            deadline,
        }
    }
}

/// A first slice's outcome: the search's, or the slot and live count it goes on with.
enum First {
    Done(Result<Report, Interrupted>),
    Paused(Slot, LiveSolve),
}

/// Where a unary solve stands after its first poll.
enum Unary {
    Answered(Response<pb::SolveResponse>),
    Later(Box<Later>),
}

/// A unary solve that goes on past its first poll, with what its answer needs.
struct Later {
    puzzle: Puzzle,
    search: Search,
    kind: (Algorithm, Mode),
    bounds: (u64, Option<Instant>),
    /// The slot and live count of a search that outgrew its first slice; `None`
    /// when no slot was free.
    held: Option<(Slot, LiveSolve)>,
}
