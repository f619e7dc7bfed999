//! `SolveSteps`: a stream is a task and the state of its search, never a thread.
//! It computes its next message only once the client has room for it (a permit of
//! the small channel to tonic's response stream), paces with the runtime's timer,
//! and computes in short slices under the solve slots, so a paced or slowly read
//! stream costs memory only. Knows nothing of unary calls.

use std::pin::Pin;
use std::time::{Duration, Instant};

use tokio_stream::Stream;
use tonic::{Code, Request, Response, Status};
use tracing::Instrument;

use super::call::{CallEnd, CallLog, deadline_of, interrupted_status, solver_failed};
use super::outlet::{Cut, Outlet};
use super::puzzle::Puzzle;
use super::slots::{Slot, Slots};
use super::tracker::{LiveSolve, OpenStream, Tracker};
use super::{Shutdown, SudokuSolver};
use crate::convert;
use crate::pb;
use crate::solver::{
    Algorithm, Control, ENGINE_VERSION, Event, Flow, Interrupted, Mode, Progress, Report, Search,
    Sink,
};

/// The response stream of `SolveSteps`.
pub(super) type StepStream = Pin<Box<dyn Stream<Item = Message> + Send>>;

type Message = Result<pb::SolveStepsResponse, Status>;

type Out = Outlet<pb::SolveStepsResponse>;

/// How long a slice of a stream's search may run before it hands its slot over
/// (only batches of thousands of steps take that long).
const SLICE: Duration = Duration::from_micros(100);

impl SudokuSolver {
    /// Checks the request, admits the stream (the open-stream cap; an unpaced stream
    /// also waits for a slot like a unary call) and starts its task, which takes
    /// `end` over; on failure `end` closes the call with the status.
    pub(super) async fn open_stream(
        &self,
        request: Request<pb::SolveStepsRequest>,
        mut end: CallEnd,
    ) -> Result<Response<StepStream>, Status> {
        match self.admit_stream(request, &mut end.log).await {
            Ok(admitted) => Ok(self.start_stream(admitted, end)),
            Err(status) => {
                end.set(status.code());
                Err(status)
            }
        }
    }

    /// The checks and admission of a stream, before anything is sent.
    async fn admit_stream(
        &self,
        request: Request<pb::SolveStepsRequest>,
        log: &mut CallLog,
    ) -> Result<Admitted, Status> {
        let deadline = self.stream_deadline(deadline_of(request.metadata()));
        let phase = grid_phase(request.remote_addr());
        let request = request.into_inner();
        let puzzle = Puzzle::read(&request.puzzle, request.rules.as_ref())?;
        let algorithm = puzzle.algorithm(request.algorithm)?;
        log.algorithm(algorithm);
        let pace = Duration::from_millis(u64::from(request.step_interval_ms));
        let paced = !pace.is_zero();
        let resume_after = request.resume_after_seq;
        if resume_after > 0 && request.resume_engine_version != ENGINE_VERSION {
            return Err(Status::failed_precondition(format!(
                "cannot resume: the stream's steps came from engine build {:?}, this server \
                 runs {ENGINE_VERSION:?}, which may search differently; start the stream over",
                request.resume_engine_version
            )));
        }
        let open = self.admit_open_stream(paced)?;
        // An unpaced stream computes flat out: it is admitted like a unary call.
        // A paced one computes a step now and then, and the cap admits it.
        let first_slot = if paced {
            None
        } else {
            Some(self.slots.admit(deadline).await?)
        };
        Ok(Admitted {
            puzzle,
            algorithm,
            // A paced stream shows one step at a time.
            batch: if paced {
                1
            } else {
                self.limits.batch_for(request.max_batch)
            },
            max_steps: self.limits.steps_for(request.max_steps),
            resume_after,
            deadline,
            pace,
            phase,
            open,
            first_slot,
        })
    }

    /// A stream's deadline: the client's, or the stream cap's when sooner.
    pub(super) fn stream_deadline(&self, client: Option<Instant>) -> Option<Instant> {
        let cap = Instant::now().checked_add(self.limits.max_stream_duration);
        match (client, cap) {
            (Some(client), Some(cap)) => Some(client.min(cap)),
            (client, cap) => client.or(cap),
        }
    }

    /// A place under the open-stream cap, or `RESOURCE_EXHAUSTED`.
    pub(super) fn admit_open_stream(&self, paced: bool) -> Result<OpenStream, Status> {
        let cap = self.limits.max_open_streams;
        self.tracker.open_stream(cap, paced).ok_or_else(|| {
            self.tracker.metrics.rejected("max_open_streams");
            Status::resource_exhausted(format!(
                "too many open streams: the server's cap of {cap} (--max-open-streams) is reached; retry later"
            ))
        })
    }

    /// Starts the task of an admitted stream; it closes the call when it ends.
    fn start_stream(&self, admitted: Admitted, mut end: CallEnd) -> Response<StepStream> {
        let Admitted {
            puzzle, algorithm, ..
        } = admitted;
        let started = convert::started_message(puzzle.givens_text(), algorithm, puzzle.rules());
        let Some(search) = puzzle.search(algorithm, Mode::First) else {
            end.set(Code::Internal);
            let failed: StepStream = Box::pin(tokio_stream::once(Err(solver_failed())));
            return Response::new(failed);
        };
        let (out, receiver) = self.outlet(admitted.deadline);
        let span = end.log.span.clone();
        // From here a task that ends without saying how has panicked.
        end.unfinished(Code::Internal);
        let steps = Steps {
            search,
            batcher: Batcher::new(admitted.batch, admitted.resume_after, puzzle.side()),
            puzzle,
            algorithm,
            max_steps: admitted.max_steps,
            pace: admitted.pace,
            phase: admitted.phase,
            slots: self.slots.clone(),
            tracker: self.tracker.clone(),
            shutdown: self.shutdown.clone(),
            end: StreamEnd {
                call: end,
                _open: admitted.open,
                _live: self.tracker.enter(),
            },
        };
        let first_slot = admitted.first_slot;
        tokio::spawn(steps.run(started, first_slot, out).instrument(span));
        Response::new(receiver)
    }
}

/// A stream that passed its checks and admission.
struct Admitted {
    puzzle: Puzzle,
    algorithm: Algorithm,
    batch: usize,
    max_steps: u64,
    resume_after: u64,
    deadline: Option<Instant>,
    pace: Duration,
    phase: u64,
    open: OpenStream,
    first_slot: Option<Slot>,
}

/// One stream's task state: its search, the batch being filled, and its bounds.
struct Steps {
    search: Search,
    /// The puzzle searched (its answer is written as the request wrote it).
    puzzle: Puzzle,
    batcher: Batcher,
    algorithm: Algorithm,
    max_steps: u64,
    /// Pause between steps; zero for as fast as the client reads.
    pace: Duration,
    /// Where on the pace's grid this stream's connection falls (see `on_grid`).
    phase: u64,
    slots: Slots,
    tracker: Tracker,
    shutdown: Shutdown,
    end: StreamEnd,
}

impl From<Cut> for End {
    fn from(cut: Cut) -> End {
        match cut {
            Cut::Gone => End::Gone,
            Cut::Deadline => End::Outcome(Err(Interrupted::DeadlinePassed)),
            Cut::Shutdown => End::Outcome(Err(Interrupted::Stopped)),
        }
    }
}

/// How a stream comes to its end.
enum End {
    /// The search is over, or a limit, the deadline or the shutdown ended it: the
    /// steps so far go out, then `finished` or the status.
    Outcome(Result<Report, Interrupted>),
    /// The client went away: nobody to tell.
    Gone,
    /// The search panicked (a bug): the client gets `INTERNAL`.
    Panicked,
}

impl Steps {
    async fn run(mut self, started: pb::SolveStepsResponse, first_slot: Option<Slot>, out: Out) {
        let end = self.stream(started, first_slot, &out).await;
        let code = self.close(end, &out).await;
        self.end.call.sent(self.batcher.seq);
        self.end.call.set(code);
    }

    /// `started`, then a batch of steps whenever the client has room for one (and,
    /// paced, the pace allows), until the stream ends.
    async fn stream(
        &mut self,
        started: pb::SolveStepsResponse,
        mut slot: Option<Slot>,
        out: &Out,
    ) -> End {
        match out.room().await {
            Ok(permit) => permit.send(Ok(started)),
            Err(cut) => return cut.into(),
        }
        let mut next_step = tokio::time::Instant::now();
        loop {
            if !self.pace.is_zero() {
                if let Err(cut) = out
                    .wait_until(on_grid(next_step, self.pace, self.phase))
                    .await
                {
                    return cut.into();
                }
                next_step = (next_step + self.pace).max(tokio::time::Instant::now());
            }
            let permit = match out.room().await {
                Ok(permit) => permit,
                Err(cut) => return cut.into(),
            };
            match self.next_batch(&mut slot, out).await {
                Ok(None) => {
                    if let Some(batch) = self.batcher.take(&self.tracker) {
                        permit.send(Ok(batch));
                    }
                }
                Ok(Some(outcome)) => return End::Outcome(outcome),
                Err(end) => return end,
            }
        }
    }

    /// Fills the next batch, in slices under the slots; `None` when the batch is
    /// full, the outcome when the search is over.
    async fn next_batch(
        &mut self,
        slot: &mut Option<Slot>,
        out: &Out,
    ) -> Result<Option<Result<Report, Interrupted>>, End> {
        loop {
            let held = match slot.take() {
                Some(slot) => slot,
                None => out.turn(&self.slots).await?,
            };
            let now = Instant::now();
            if out.expired() {
                return Err(End::Outcome(Err(Interrupted::DeadlinePassed)));
            }
            let control = Control {
                max_steps: self.max_steps,
                stop: None,
                stop_all: Some(&self.shutdown.flag),
                deadline: out.deadline,
                timed: true,
                slice_steps: u64::MAX,
                slice_until: Some(now + SLICE),
            };
            let progress = {
                let _computing = self.tracker.computing_slice();
                let (search, batcher) = (&mut self.search, &mut self.batcher);
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    search.run(&control, batcher)
                }))
            };
            drop(held);
            match progress {
                Err(_) => return Err(End::Panicked),
                Ok(Progress::Done(outcome)) => return Ok(Some(outcome)),
                Ok(Progress::Paused) if self.batcher.is_full() => return Ok(None),
                // The slice ran out before the batch filled: let others run first.
                Ok(Progress::Paused) => tokio::task::yield_now().await,
            }
        }
    }

    /// Sends what ends the stream (the steps so far, then `finished` or the
    /// status), within a short grace; the code the call ended with.
    async fn close(&mut self, end: End, out: &Out) -> Code {
        let outcome = match end {
            End::Gone => return Code::Cancelled,
            End::Panicked => {
                return match out.send_closing(Err(solver_failed())).await {
                    Ok(()) => Code::Internal,
                    Err(()) => Code::Cancelled,
                };
            }
            End::Outcome(outcome) => outcome,
        };
        if let Err(Interrupted::Stopped) = outcome
            && !self.shutdown.is_set()
        {
            return Code::Cancelled;
        }
        // Steps made before a limit or the deadline are still delivered.
        if let Some(batch) = self.batcher.take(&self.tracker)
            && out.send_closing(Ok(batch)).await.is_err()
        {
            return Code::Cancelled;
        }
        let metrics = &self.tracker.metrics;
        let last = match outcome {
            Ok(_) if self.batcher.seq < self.batcher.skip => Err(Status::out_of_range(format!(
                "resume_after_seq {} is past the last step of this search ({})",
                self.batcher.skip, self.batcher.seq
            ))),
            Ok(report) => {
                self.end.call.log.stats(&report.stats);
                metrics.solved(self.algorithm.name(), report.stats.elapsed);
                Ok(convert::finished_message(
                    &report,
                    self.puzzle.solution_text(&report),
                ))
            }
            Err(why) => {
                if matches!(why, Interrupted::StepLimit { .. }) {
                    metrics.rejected("max_steps");
                }
                Err(interrupted_status(why, &self.shutdown))
            }
        };
        let code = last.as_ref().map_or_else(Status::code, |_| Code::Ok);
        match out.send_closing(last).await {
            Ok(()) => code,
            Err(()) => Code::Cancelled,
        }
    }
}

/// Paced steps fall due on a grid a twentieth of the pace wide (at most 50 ms),
/// the same for every stream of that pace on one connection: the steps of the many
/// streams a connection carries then go out in one write (see the server's
/// admission), not one write each. Each connection's grid is shifted by its
/// `phase`, so that the connections take their turns across the grid's width
/// rather than all at once, and a unary call waits behind one connection's steps at
/// most, not everyone's. A step is at most a grid's width late; the pace holds on
/// average.
fn on_grid(due: tokio::time::Instant, pace: Duration, phase: u64) -> tokio::time::Instant {
    static EPOCH: std::sync::OnceLock<tokio::time::Instant> = std::sync::OnceLock::new();
    let epoch = *EPOCH.get_or_init(tokio::time::Instant::now);
    let grid = u64::try_from(
        (pace / 20)
            .min(Duration::from_millis(50))
            .as_micros()
            .max(1),
    )
    .unwrap_or(1);
    // The grid's points are epoch + phase + k * grid, k >= 0; `lead` moves them to
    // multiples of the grid.
    let lead = grid - phase % grid;
    let since = u64::try_from(due.saturating_duration_since(epoch).as_micros()).unwrap_or(u64::MAX);
    let point = since.saturating_add(lead).div_ceil(grid) * grid - lead;
    epoch + Duration::from_micros(point)
}

/// A connection's phase on the pace grids: its peer's address hashed (0 when the
/// transport has no address).
fn grid_phase(peer: Option<std::net::SocketAddr>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    peer.hash(&mut hasher);
    hasher.finish()
}

/// The sink of a stream's search: steps numbered 1, 2, 3, ... gathered into a
/// batch (those up to `skip`, which a resumed stream's client has, counted only);
/// asks the search to pause when the batch is full.
struct Batcher {
    steps: Vec<pb::Step>,
    size: usize,
    /// N: cells in a row of the grid searched.
    side: usize,
    seq: u64,
    skip: u64,
}

impl Batcher {
    fn new(size: usize, skip: u64, side: usize) -> Batcher {
        Batcher {
            steps: Vec::with_capacity(size.min(256)),
            size,
            side,
            seq: 0,
            skip,
        }
    }

    fn is_full(&self) -> bool {
        self.steps.len() >= self.size
    }

    /// The steps gathered so far as one message, if there are any.
    fn take(&mut self, tracker: &Tracker) -> Option<pb::SolveStepsResponse> {
        if self.steps.is_empty() {
            return None;
        }
        tracker.sent(self.steps.len() as u64);
        let steps = std::mem::replace(&mut self.steps, Vec::with_capacity(self.size.min(256)));
        Some(convert::steps_message(steps))
    }
}

impl Sink for Batcher {
    fn event(&mut self, event: Event) -> Flow {
        self.seq += 1;
        if self.seq <= self.skip {
            return Flow::Continue;
        }
        self.steps
            .push(convert::step_to_pb(self.seq, event, self.side));
        if self.steps.len() < self.size {
            Flow::Continue
        } else {
            Flow::Pause
        }
    }
}

/// Held by a stream's task: when it drops, however the task ends (a panic
/// included), the call is closed (counted and logged), then the stream and its
/// live solve are released, in this order (fields drop in declaration order).
struct StreamEnd {
    call: CallEnd,
    _open: OpenStream,
    _live: LiveSolve,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paced_steps_fall_due_on_their_connections_grid_never_early() {
        let pace = Duration::from_secs(1);
        let ms = |ms| Duration::from_millis(ms);
        for phase in [0, 1, 20_000, 49_999, u64::MAX] {
            let base = on_grid(tokio::time::Instant::now(), pace, phase);
            let mut seen = Vec::new();
            for offset_ms in [1, 7, 49, 50, 51, 99] {
                let due = base + ms(offset_ms);
                let at = on_grid(due, pace, phase);
                assert!(at >= due && at - due < ms(50), "{phase} {offset_ms}");
                assert_eq!(on_grid(at, pace, phase), at, "a grid point is on the grid");
                seen.push(at - base);
            }
            assert_eq!(seen, [ms(50), ms(50), ms(50), ms(50), ms(100), ms(100)]);
            // The phase counts modulo the grid's width (50 ms here).
            if let Some(next) = phase.checked_add(50_000) {
                assert_eq!(on_grid(base + ms(3), pace, next), base + ms(50));
            }
        }
        // Another connection's phase shifts its grid by that many microseconds.
        let base = on_grid(tokio::time::Instant::now(), pace, 0);
        assert_eq!(on_grid(base + ms(1), pace, 20_000), base + ms(20));
        // A short pace gets a fine grid.
        let due = base + Duration::from_micros(130);
        assert!(on_grid(due, ms(2), 7) - due < Duration::from_micros(100));
    }
}
