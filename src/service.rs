//! The `sudoku.v1.SudokuService` implementation: turns requests into engine calls
//! run off the async workers, enforces limits and deadlines, and streams steps with
//! batching and backpressure. The only module that names `tonic::Status`.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio::sync::{mpsc, watch};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::metadata::MetadataMap;
use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::board::{Board, PuzzleError};
use crate::convert;
use crate::pb;
use crate::solver::{self, Algorithm, Control, Event, Flow, Interrupted, NoEvents, Sink};

/// Server-side bounds on what one call may ask for.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The step cap of every call; a request's `max_steps` can only lower it.
    pub max_steps: u64,
    /// Steps per stream message when the request leaves `max_batch` at 0.
    pub default_batch: u32,
    /// The largest `max_batch` honoured; larger requests are clamped to it.
    pub max_batch: u32,
    /// Messages buffered per stream between the solver and the client. With the
    /// batch size it bounds how far a solver runs ahead of a slow client.
    pub stream_buffer: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000_000,
            default_batch: 256,
            max_batch: 16_384,
            stream_buffer: 4,
        }
    }
}

/// The service: stateless apart from its limits and the count of live solves.
#[derive(Debug, Clone)]
pub struct SudokuSolver {
    limits: Limits,
    tracker: Tracker,
}

/// Counts solver threads that are running now, for tests and metrics: a cancelled
/// call must bring it back down.
#[derive(Debug, Clone)]
pub struct Tracker {
    live: Arc<watch::Sender<usize>>,
}

impl SudokuSolver {
    /// A service with the given limits.
    pub fn new(limits: Limits) -> Self {
        SudokuSolver {
            limits,
            tracker: Tracker {
                live: Arc::new(watch::Sender::new(0)),
            },
        }
    }

    /// The live-solve counter of this service (shared by its clones).
    pub fn tracker(&self) -> Tracker {
        self.tracker.clone()
    }
}

impl Tracker {
    /// Watches the number of solves running now.
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.live.subscribe()
    }

    /// The number of solves running now.
    pub fn live(&self) -> usize {
        *self.live.borrow()
    }

    fn enter(&self) -> LiveSolve {
        self.live.send_modify(|n| *n += 1);
        LiveSolve {
            live: self.live.clone(),
        }
    }
}

/// Held by a running solve; dropping it counts the solve as ended.
struct LiveSolve {
    live: Arc<watch::Sender<usize>>,
}

impl Drop for LiveSolve {
    fn drop(&mut self) {
        self.live.send_modify(|n| *n -= 1);
    }
}

/// Sets the stop signal when the call's future is dropped (the client went away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

type StepStream = Pin<Box<dyn Stream<Item = Result<pb::SolveStepsResponse, Status>> + Send>>;

#[tonic::async_trait]
impl pb::sudoku_service_server::SudokuService for SudokuSolver {
    async fn solve(
        &self,
        request: Request<pb::SolveRequest>,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let board = parse_puzzle(&request.puzzle)?;
        let algorithm = parse_algorithm(request.algorithm)?;
        let max_steps = self.limits.steps_for(request.max_steps);
        let check_unique = request.check_unique;

        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let live = self.tracker.enter();
        let outcome = tokio::task::spawn_blocking(move || {
            let _live = live;
            let control = Control {
                max_steps,
                stop: Some(&stop),
                deadline,
            };
            if check_unique {
                solver::count_solutions(&board, algorithm, &control)
            } else {
                solver::solve(&board, algorithm, &control, &mut NoEvents)
            }
        })
        .await
        .map_err(|error| Status::internal(format!("solver failed: {error}")))?;

        match outcome {
            Ok(report) => Ok(Response::new(convert::solve_response(
                &report,
                algorithm,
                check_unique,
            ))),
            Err(interrupted) => Err(interrupted_status(interrupted)),
        }
    }

    type SolveStepsStream = StepStream;

    async fn solve_steps(
        &self,
        request: Request<pb::SolveStepsRequest>,
    ) -> Result<Response<Self::SolveStepsStream>, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let board = parse_puzzle(&request.puzzle)?;
        let algorithm = parse_algorithm(request.algorithm)?;
        let max_steps = self.limits.steps_for(request.max_steps);
        let pace = Duration::from_millis(u64::from(request.step_interval_ms));
        let batch = if pace.is_zero() {
            self.limits.batch_for(request.max_batch)
        } else {
            // A paced stream shows one step at a time.
            1
        };

        let (sender, receiver) = mpsc::channel(self.limits.stream_buffer.max(1));
        let live = self.tracker.enter();
        let handle = Handle::current();
        tokio::task::spawn_blocking(move || {
            let _live = live;
            let mut sink = StreamSink {
                out: Outbox {
                    sender,
                    handle,
                    deadline: deadline.map(tokio::time::Instant::from_std),
                },
                pending: Vec::with_capacity(batch),
                batch,
                seq: 0,
                interrupted: None,
            };
            let solving = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                stream_solve(&board, algorithm, max_steps, deadline, &mut sink)
            }));
            if solving.is_err() {
                let _ = sink
                    .out
                    .send_closing(Err(Status::internal("the solver failed")));
            }
        });

        let stream = ReceiverStream::new(receiver);
        let stream: StepStream = if pace.is_zero() {
            Box::pin(stream)
        } else {
            Box::pin(tokio_stream::StreamExt::throttle(stream, pace))
        };
        Ok(Response::new(stream))
    }
}

impl Limits {
    /// The step cap of a call: the request's, when it asks for less than the server's.
    fn steps_for(&self, requested: u64) -> u64 {
        if requested == 0 {
            self.max_steps
        } else {
            requested.min(self.max_steps)
        }
    }

    /// Steps per stream message for a request's `max_batch`.
    fn batch_for(&self, requested: u32) -> usize {
        let batch = if requested == 0 {
            self.default_batch
        } else {
            requested.min(self.max_batch)
        };
        batch.max(1) as usize
    }
}

/// Runs one streamed solve on the current (blocking) thread: `started`, the steps in
/// batches, then `finished` or the status that ended the search.
fn stream_solve(
    board: &Board,
    algorithm: Algorithm,
    max_steps: u64,
    deadline: Option<Instant>,
    sink: &mut StreamSink,
) {
    let started = pb::SolveStepsResponse {
        event: Some(pb::solve_steps_response::Event::Started(pb::Started {
            puzzle: board.to_line(),
            algorithm: convert::algorithm_to_pb(algorithm).into(),
        })),
    };
    if sink.out.send(Ok(started)).is_err() {
        return;
    }
    let control = Control {
        max_steps,
        stop: None,
        deadline,
    };
    let outcome = solver::solve(board, algorithm, &control, sink);
    if sink.interrupted == Some(Interrupted::Stopped) {
        return; // The client has gone: nobody to tell.
    }
    // Steps made before a limit or the deadline are still delivered, then the status.
    if let Some(batch) = sink.take_batch()
        && sink.out.send_closing(Ok(batch)).is_err()
    {
        return;
    }
    let last = match (outcome, sink.interrupted) {
        (_, Some(why)) | (Err(why), None) => Err(interrupted_status(why)),
        (Ok(report), None) => Ok(convert::finished_message(&report)),
    };
    let _ = sink.out.send_closing(last);
}

/// The sender side of a stream: blocking sends that give up at the call's deadline.
struct Outbox {
    sender: mpsc::Sender<Result<pb::SolveStepsResponse, Status>>,
    handle: Handle,
    deadline: Option<tokio::time::Instant>,
}

/// How long the last messages of a stream (the final steps and the closing status)
/// may wait for a slow client, even past the deadline.
const CLOSING_GRACE: Duration = Duration::from_secs(1);

impl Outbox {
    /// Sends one message of the search, waiting while the client is slow. Fails
    /// when the client has gone or the deadline passed.
    fn send(&self, message: Result<pb::SolveStepsResponse, Status>) -> Result<(), Interrupted> {
        match self.deadline {
            None => self
                .sender
                .blocking_send(message)
                .map_err(|_| Interrupted::Stopped),
            Some(deadline) => self.send_until(message, deadline),
        }
    }

    /// Sends one of the closing messages, which may wait a short grace.
    fn send_closing(
        &self,
        message: Result<pb::SolveStepsResponse, Status>,
    ) -> Result<(), Interrupted> {
        self.send_until(message, tokio::time::Instant::now() + CLOSING_GRACE)
    }

    fn send_until(
        &self,
        message: Result<pb::SolveStepsResponse, Status>,
        until: tokio::time::Instant,
    ) -> Result<(), Interrupted> {
        let sending = tokio::time::timeout_at(until, self.sender.send(message));
        match self.handle.block_on(sending) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(Interrupted::Stopped),
            Err(_) => Err(Interrupted::DeadlinePassed),
        }
    }
}

/// Batches solver events into stream messages with consecutive `seq` numbers.
struct StreamSink {
    out: Outbox,
    pending: Vec<pb::Step>,
    batch: usize,
    seq: u64,
    /// Why sending stopped the search, when it did.
    interrupted: Option<Interrupted>,
}

impl StreamSink {
    /// Sends the pending steps as one message, if there are any.
    fn flush(&mut self) -> Result<(), Interrupted> {
        match self.take_batch() {
            Some(message) => self.out.send(Ok(message)),
            None => Ok(()),
        }
    }

    fn take_batch(&mut self) -> Option<pb::SolveStepsResponse> {
        if self.pending.is_empty() {
            return None;
        }
        let steps = std::mem::replace(&mut self.pending, Vec::with_capacity(self.batch));
        Some(pb::SolveStepsResponse {
            event: Some(pb::solve_steps_response::Event::Steps(pb::StepBatch {
                steps,
            })),
        })
    }
}

impl Sink for StreamSink {
    fn event(&mut self, event: Event) -> Flow {
        self.seq += 1;
        self.pending.push(convert::step_to_pb(self.seq, event));
        if self.pending.len() < self.batch {
            return Flow::Continue;
        }
        match self.flush() {
            Ok(()) => Flow::Continue,
            Err(why) => {
                self.interrupted = Some(why);
                Flow::Stop
            }
        }
    }
}

/// Parses the `puzzle` field, or explains what is wrong with it.
fn parse_puzzle(text: &str) -> Result<Board, Status> {
    Board::parse(text).map_err(|error| puzzle_status(&error))
}

fn puzzle_status(error: &PuzzleError) -> Status {
    let message = format!("invalid puzzle: {error}");
    let details = ErrorDetails::with_bad_request_violation("puzzle", error.to_string());
    Status::with_error_details(Code::InvalidArgument, message, details)
}

fn parse_algorithm(value: i32) -> Result<Algorithm, Status> {
    convert::algorithm_from_pb(value).map_err(|unknown| {
        let description = format!("unknown algorithm {unknown}");
        let details = ErrorDetails::with_bad_request_violation("algorithm", description.clone());
        Status::with_error_details(Code::InvalidArgument, description, details)
    })
}

fn interrupted_status(interrupted: Interrupted) -> Status {
    match interrupted {
        Interrupted::StepLimit { limit } => Status::resource_exhausted(format!(
            "step limit reached: the search took {limit} steps without finishing"
        )),
        Interrupted::DeadlinePassed => {
            Status::deadline_exceeded("deadline exceeded before the search finished")
        }
        Interrupted::Stopped => Status::cancelled("the solve was cancelled"),
    }
}

/// Slack taken off the client's deadline so our `DEADLINE_EXCEEDED` answer goes out
/// before tonic's own timeout (which answers `CANCELLED`) fires at the same instant.
const DEADLINE_SLACK: Duration = Duration::from_millis(2);

/// The instant the client's `grpc-timeout` header gives up at, if it sent one.
fn deadline_of(metadata: &MetadataMap) -> Option<Instant> {
    let timeout = parse_grpc_timeout(metadata.get("grpc-timeout")?.to_str().ok()?)?;
    Some(Instant::now() + timeout.saturating_sub(DEADLINE_SLACK))
}

/// Parses a `grpc-timeout` value: at most 8 digits and a unit (`H M S m u n`).
fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    if value.len() < 2 || value.len() > 9 {
        return None;
    }
    let (digits, unit) = value.split_at(value.len() - 1);
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount.checked_mul(3600)?),
        "M" => Duration::from_secs(amount.checked_mul(60)?),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeout_values() {
        let check = |text: &str, expected: Option<Duration>| {
            assert_eq!(parse_grpc_timeout(text), expected, "{text}");
        };
        check("1H", Some(Duration::from_secs(3600)));
        check("2M", Some(Duration::from_secs(120)));
        check("3S", Some(Duration::from_secs(3)));
        check("250m", Some(Duration::from_millis(250)));
        check("99999999u", Some(Duration::from_micros(99_999_999)));
        check("7n", Some(Duration::from_nanos(7)));
        check("100", None);
        check("m", None);
        check("123456789S", None);
        check("-1S", None);
    }
}
