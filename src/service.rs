//! The `sudoku.v1.SudokuService` implementation: turns requests into engine calls
//! run off the async workers, enforces limits and deadlines, and streams steps with
//! batching and backpressure. The only module that names `tonic::Status`.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::metadata::MetadataMap;
use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};
use tracing::Instrument;

use crate::board::{Board, PuzzleError};
use crate::convert;
use crate::metrics::Metrics;
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
    /// Solves computing at once (the CPU cap); default: the number of cores.
    pub max_concurrent_solves: usize,
    /// Calls that may wait for a solve slot; past this a call gets
    /// `RESOURCE_EXHAUSTED` at once. A waiting call gives up at its deadline.
    pub max_queue: usize,
    /// Largest request message decoded, in bytes (a puzzle needs well under 1 KiB).
    pub max_message_bytes: usize,
    /// After a shutdown signal, how long calls in flight may go on before every
    /// solve still running is stopped and its call ends with `UNAVAILABLE`.
    pub shutdown_grace: Duration,
    /// Longest a `SolveSteps` stream may run; its solve then ends as if the
    /// client's deadline had passed.
    pub max_stream_duration: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000_000,
            default_batch: 256,
            max_batch: 16_384,
            stream_buffer: 4,
            max_concurrent_solves: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_queue: 64,
            max_message_bytes: 64 * 1024,
            shutdown_grace: Duration::from_secs(10),
            max_stream_duration: Duration::from_secs(3600),
        }
    }
}

/// The service: stateless apart from its limits, its solve slots, the count of
/// live solves and the shutdown signal.
#[derive(Debug, Clone)]
pub struct SudokuSolver {
    limits: Limits,
    tracker: Tracker,
    slots: Slots,
    shutdown: Shutdown,
}

/// Set when the shutdown grace has run out: every solve still running stops and
/// its call ends with `UNAVAILABLE`.
#[derive(Debug, Clone, Default)]
pub struct Shutdown {
    flag: Arc<AtomicBool>,
    signal: Arc<watch::Sender<bool>>,
}

impl Shutdown {
    /// Stops every solve still running.
    pub fn stop_all(&self) {
        self.flag.store(true, Ordering::Relaxed);
        self.signal.send_replace(true);
    }

    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Completes once `stop_all` was called.
    async fn stopped(&self) {
        let mut signal = self.signal.subscribe();
        let _ = signal.wait_for(|&set| set).await;
    }
}

/// The CPU cap: a permit per computing solve, and a bounded line of calls waiting
/// for one.
#[derive(Debug, Clone)]
struct Slots {
    permits: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    max_queue: usize,
    metrics: Arc<Metrics>,
}

impl Slots {
    fn new(limits: &Limits, metrics: Arc<Metrics>) -> Slots {
        Slots {
            permits: Arc::new(Semaphore::new(limits.max_concurrent_solves.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            max_queue: limits.max_queue,
            metrics,
        }
    }

    /// A solve slot: at once when one is free, else after waiting in line within
    /// the deadline; `RESOURCE_EXHAUSTED` when the line is full.
    async fn acquire(&self, deadline: Option<Instant>) -> Result<OwnedSemaphorePermit, Status> {
        if let Ok(permit) = self.permits.clone().try_acquire_owned() {
            return Ok(permit);
        }
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.max_queue {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            self.metrics.rejected("queue_full");
            return Err(Status::resource_exhausted(format!(
                "server busy: every solve slot is taken and {} calls are already waiting",
                self.max_queue
            )));
        }
        let _in_line = InLine(self.waiting.clone(), self.metrics.clone());
        self.metrics.queue_depth.inc();
        match self.wait(deadline).await {
            Some(permit) => permit.map_err(|_| Status::unavailable("the server is shutting down")),
            None => {
                self.metrics.rejected("queue_deadline");
                Err(Status::deadline_exceeded(
                    "deadline passed while waiting for a solve slot",
                ))
            }
        }
    }

    /// A slot for a stream's solver coming back from waiting on its client: it waits
    /// in line like a new call but is never turned away for a full line.
    async fn acquire_blocking_slot(
        &self,
        deadline: Option<Instant>,
    ) -> Result<OwnedSemaphorePermit, Interrupted> {
        match self.wait(deadline).await {
            Some(permit) => permit.map_err(|_| Interrupted::Stopped),
            None => Err(Interrupted::DeadlinePassed),
        }
    }

    /// Waits for a slot: `None` when the deadline passes first, an error inside
    /// when the slots are closed.
    async fn wait(
        &self,
        deadline: Option<Instant>,
    ) -> Option<Result<OwnedSemaphorePermit, tokio::sync::AcquireError>> {
        let permit = self.permits.clone().acquire_owned();
        match deadline {
            None => Some(permit.await),
            Some(deadline) => tokio::time::timeout_at(deadline.into(), permit).await.ok(),
        }
    }
}

/// A place in the line for a solve slot; leaving it (however) frees the place.
struct InLine(Arc<AtomicUsize>, Arc<Metrics>);

impl Drop for InLine {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
        self.1.queue_depth.dec();
    }
}

/// Counts solver threads that are running now (a cancelled call must bring it back
/// down), streams whose solver waits on a slow client, and steps sent: for tests
/// and metrics.
#[derive(Debug, Clone)]
pub struct Tracker {
    live: Arc<watch::Sender<usize>>,
    waiting_on_clients: Arc<watch::Sender<usize>>,
    steps_sent: Arc<std::sync::atomic::AtomicU64>,
    solves_started: Arc<std::sync::atomic::AtomicU64>,
    metrics: Arc<Metrics>,
}

impl SudokuSolver {
    /// A service with the given limits.
    pub fn new(limits: Limits) -> Self {
        let metrics = Arc::new(Metrics::new());
        SudokuSolver {
            slots: Slots::new(&limits, metrics.clone()),
            shutdown: Shutdown::default(),
            limits,
            tracker: Tracker {
                live: Arc::new(watch::Sender::new(0)),
                waiting_on_clients: Arc::new(watch::Sender::new(0)),
                steps_sent: Arc::default(),
                solves_started: Arc::default(),
                metrics,
            },
        }
    }

    /// The metrics this service reports into.
    pub fn metrics(&self) -> Arc<Metrics> {
        self.tracker.metrics.clone()
    }

    /// The handle that ends every running solve (after the shutdown grace).
    pub fn shutdown(&self) -> Shutdown {
        self.shutdown.clone()
    }

    /// The limits this service enforces.
    pub fn limits(&self) -> &Limits {
        &self.limits
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

    /// Watches the number of streams whose solver waits for its client to read.
    pub fn subscribe_waiting(&self) -> watch::Receiver<usize> {
        self.waiting_on_clients.subscribe()
    }

    /// Steps handed to streams so far (queued or delivered).
    pub fn steps_sent(&self) -> u64 {
        self.steps_sent.load(Ordering::Relaxed)
    }

    /// Solves started since the server started.
    pub fn solves_started(&self) -> u64 {
        self.solves_started.load(Ordering::Relaxed)
    }

    fn enter(&self) -> LiveSolve {
        self.solves_started.fetch_add(1, Ordering::Relaxed);
        self.metrics.solves_in_flight.inc();
        self.live.send_modify(|n| *n += 1);
        LiveSolve {
            live: self.live.clone(),
            metrics: self.metrics.clone(),
        }
    }
}

/// Held by a running solve; dropping it counts the solve as ended.
struct LiveSolve {
    live: Arc<watch::Sender<usize>>,
    metrics: Arc<Metrics>,
}

impl Drop for LiveSolve {
    fn drop(&mut self) {
        self.metrics.solves_in_flight.dec();
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
        let log = CallLog::new("Solve", request.remote_addr());
        let result = self
            .solve_unary(request, &log)
            .instrument(log.span.clone())
            .await;
        let code = result.as_ref().map_or_else(Status::code, |_| Code::Ok);
        self.tracker.metrics.call("Solve", code);
        log.end(code, None);
        result
    }

    type SolveStepsStream = StepStream;

    async fn solve_steps(
        &self,
        request: Request<pb::SolveStepsRequest>,
    ) -> Result<Response<Self::SolveStepsStream>, Status> {
        let log = CallLog::new("SolveSteps", request.remote_addr());
        let span = log.span.clone();
        let result = self.open_stream(request, log).instrument(span).await;
        if let Err((status, log)) = &result {
            self.tracker.metrics.call("SolveSteps", status.code());
            log.end(status.code(), None);
        }
        result.map_err(|(status, _)| status)
    }
}

impl SudokuSolver {
    async fn solve_unary(
        &self,
        request: Request<pb::SolveRequest>,
        log: &CallLog,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let request = request.into_inner();
        let board = parse_puzzle(&request.puzzle)?;
        let algorithm = parse_algorithm(request.algorithm)?;
        log.algorithm(algorithm);
        let max_steps = self.limits.steps_for(request.max_steps);
        let check_unique = request.check_unique;
        let permit = self.slots.acquire(deadline).await?;

        // Most puzzles take a few microseconds: try on this thread first, within a
        // step budget small enough not to stall the runtime, and hand the search to
        // the blocking pool only when the budget runs out.
        let inline_budget = max_steps.min(INLINE_STEPS);
        let inline = Control {
            max_steps: inline_budget,
            stop: None,
            shutdown: Some(&self.shutdown.flag),
            deadline,
            timed: true,
            slice_steps: u64::MAX,
            slice_until: None,
        };
        let live = self.tracker.enter();
        let outcome = match run_solve(&board, algorithm, &inline, check_unique) {
            Err(Interrupted::StepLimit { .. }) if inline_budget < max_steps => {
                let held = (permit, live);
                self.solve_blocking(board, algorithm, max_steps, check_unique, deadline, held)
                    .await?
            }
            outcome => outcome,
        };
        self.unary_response(outcome, algorithm, check_unique, log)
    }

    /// Runs a search that outgrew the inline budget on the blocking pool, from the
    /// start; stops it when the call is dropped.
    async fn solve_blocking(
        &self,
        board: Board,
        algorithm: Algorithm,
        max_steps: u64,
        check_unique: bool,
        deadline: Option<Instant>,
        (permit, live): (OwnedSemaphorePermit, LiveSolve),
    ) -> Result<Result<solver::Report, Interrupted>, Status> {
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let shutdown = self.shutdown.clone();
        let metrics = self.tracker.metrics.clone();
        tokio::task::spawn_blocking(move || {
            let _live = live;
            let _permit = permit;
            let control = Control {
                max_steps,
                stop: Some(&stop),
                shutdown: Some(&shutdown.flag),
                deadline,
                timed: true,
                slice_steps: u64::MAX,
                slice_until: None,
            };
            let outcome = run_solve(&board, algorithm, &control, check_unique);
            if outcome == Err(Interrupted::Stopped) && !shutdown.is_set() {
                // The caller went away; nobody awaits this answer.
                metrics.cancellations.inc();
            }
            outcome
        })
        .await
        .map_err(|error| Status::internal(format!("solver failed: {error}")))
    }

    fn unary_response(
        &self,
        outcome: Result<solver::Report, Interrupted>,
        algorithm: Algorithm,
        check_unique: bool,
        log: &CallLog,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        match outcome {
            Ok(report) => {
                log.stats(&report.stats);
                let metrics = &self.tracker.metrics;
                metrics.solved(algorithm.name(), report.stats.elapsed);
                Ok(Response::new(convert::solve_response(
                    &report,
                    algorithm,
                    check_unique,
                )))
            }
            Err(interrupted) => {
                if matches!(interrupted, Interrupted::StepLimit { .. }) {
                    self.tracker.metrics.rejected("max_steps");
                }
                Err(interrupted_status(interrupted, &self.shutdown))
            }
        }
    }

    /// Checks the request, takes a slot when the stream needs one, and starts the
    /// solve; on failure hands `log` back with the status, for the caller to close.
    async fn open_stream(
        &self,
        request: Request<pb::SolveStepsRequest>,
        log: CallLog,
    ) -> Result<Response<StepStream>, (Status, CallLog)> {
        let cap = Instant::now().checked_add(self.limits.max_stream_duration);
        let deadline = match (deadline_of(request.metadata()), cap) {
            (Some(client), Some(cap)) => Some(client.min(cap)),
            (client, cap) => client.or(cap),
        };
        let request = request.into_inner();
        let checked = parse_puzzle(&request.puzzle)
            .and_then(|board| Ok((board, parse_algorithm(request.algorithm)?)));
        let (board, algorithm) = match checked {
            Ok(checked) => checked,
            Err(status) => return Err((status, log)),
        };
        log.algorithm(algorithm);
        let max_steps = self.limits.steps_for(request.max_steps);
        let pace = Duration::from_millis(u64::from(request.step_interval_ms));
        let batch = if pace.is_zero() {
            self.limits.batch_for(request.max_batch)
        } else {
            // A paced stream shows one step at a time.
            1
        };

        // A paced stream computes a step now and then: it needs no CPU slot, so a
        // thousand dashboards can watch at once. Unpaced streams compete for slots.
        let permit = if pace.is_zero() {
            match self.slots.acquire(deadline).await {
                Ok(permit) => Some(permit),
                Err(status) => return Err((status, log)),
            }
        } else {
            None
        };
        let (sender, receiver) = mpsc::channel(self.limits.stream_buffer.max(1));
        let live = self.tracker.enter();
        let handle = Handle::current();
        let slots = self.slots.clone();
        let tracker = self.tracker.clone();
        let shutdown = self.shutdown.clone();
        tokio::task::spawn_blocking(move || {
            let _live = live;
            let _in_span = log.span.enter();
            let mut sink = StreamSink {
                out: Outbox {
                    sender,
                    handle,
                    deadline: deadline.map(tokio::time::Instant::from_std),
                    slots,
                    needs_slot: permit.is_some(),
                    permit,
                    tracker,
                    shutdown,
                },
                pending: Vec::with_capacity(batch),
                batch,
                seq: 0,
                interrupted: None,
            };
            let solving = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                stream_solve(&board, algorithm, max_steps, deadline, &mut sink, &log)
            }));
            if solving.is_err() {
                log.end(Code::Internal, Some(sink.seq));
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

/// Steps a unary search may take on the runtime's own thread before it moves to the
/// blocking pool: tens of microseconds, which covers nearly every real puzzle.
const INLINE_STEPS: u64 = 2048;

/// One search without events: the first solution, or counting to two.
fn run_solve(
    board: &Board,
    algorithm: Algorithm,
    control: &Control<'_>,
    check_unique: bool,
) -> Result<solver::Report, Interrupted> {
    if check_unique {
        solver::count_solutions(board, algorithm, control)
    } else {
        solver::solve(board, algorithm, control, &mut NoEvents)
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
    log: &CallLog,
) {
    let metrics = sink.out.tracker.metrics.clone();
    metrics.streams_open.inc();
    let code = stream_to_end(board, algorithm, max_steps, deadline, sink, log);
    metrics.streams_open.dec();
    metrics.call("SolveSteps", code);
    log.end(code, Some(sink.seq));
    if code == Code::Cancelled {
        metrics.cancellations.inc();
    }
}

/// The body of [`stream_solve`]; returns the code the call ended with
/// (`CANCELLED` when the client went away).
fn stream_to_end(
    board: &Board,
    algorithm: Algorithm,
    max_steps: u64,
    deadline: Option<Instant>,
    sink: &mut StreamSink,
    log: &CallLog,
) -> Code {
    let started = pb::SolveStepsResponse {
        event: Some(pb::solve_steps_response::Event::Started(pb::Started {
            puzzle: board.to_line(),
            algorithm: convert::algorithm_to_pb(algorithm).into(),
        })),
    };
    if sink.out.send(Ok(started)).is_err() {
        return Code::Cancelled;
    }
    let shutdown = sink.out.shutdown.flag.clone();
    let control = Control {
        max_steps,
        stop: None,
        shutdown: Some(&shutdown),
        deadline,
        timed: true,
        slice_steps: u64::MAX,
        slice_until: None,
    };
    let outcome = solver::solve(board, algorithm, &control, sink);
    if sink.interrupted == Some(Interrupted::Stopped) && !sink.out.shutdown.is_set() {
        return Code::Cancelled; // The client has gone: nobody to tell.
    }
    // Steps made before a limit or the deadline are still delivered, then the status.
    if let Some(batch) = sink.take_batch()
        && sink.out.send_closing(Ok(batch)).is_err()
    {
        return Code::Cancelled;
    }
    let last = match (outcome, sink.interrupted) {
        (_, Some(why)) | (Err(why), None) => {
            if matches!(why, Interrupted::StepLimit { .. }) {
                sink.out.tracker.metrics.rejected("max_steps");
            }
            Err(interrupted_status(why, &sink.out.shutdown))
        }
        (Ok(report), None) => {
            log.stats(&report.stats);
            let metrics = &sink.out.tracker.metrics;
            metrics.solved(algorithm.name(), report.stats.elapsed);
            Ok(convert::finished_message(&report))
        }
    };
    let code = last.as_ref().map_or_else(Status::code, |_| Code::Ok);
    match sink.out.send_closing(last) {
        Ok(()) => code,
        Err(_) => Code::Cancelled,
    }
}

/// The sender side of a stream: blocking sends that give up at the call's deadline.
/// While it waits on a slow client it gives its solve slot back, so a stream that
/// waits (paced, or read slowly) does not hold CPU capacity.
struct Outbox {
    sender: mpsc::Sender<Result<pb::SolveStepsResponse, Status>>,
    handle: Handle,
    deadline: Option<tokio::time::Instant>,
    slots: Slots,
    permit: Option<OwnedSemaphorePermit>,
    /// False for paced streams, which run without a slot.
    needs_slot: bool,
    tracker: Tracker,
    shutdown: Shutdown,
}

/// How long the last messages of a stream (the final steps and the closing status)
/// may wait for a slow client, even past the deadline.
const CLOSING_GRACE: Duration = Duration::from_secs(1);

impl Outbox {
    /// Sends one message of the search, waiting while the client is slow. Fails
    /// when the client has gone or the deadline passed.
    fn send(&mut self, message: Result<pb::SolveStepsResponse, Status>) -> Result<(), Interrupted> {
        let message = match self.sender.try_send(message) {
            Ok(()) => return Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => return Err(Interrupted::Stopped),
            Err(mpsc::error::TrySendError::Full(message)) => message,
        };
        // The client is behind: wait for it without holding a solve slot.
        self.permit = None;
        let waiting = &self.tracker.waiting_on_clients;
        waiting.send_modify(|n| *n += 1);
        let sent = self.send_before_shutdown(message);
        waiting.send_modify(|n| *n -= 1);
        sent?;
        if self.needs_slot {
            let slots = self.slots.clone();
            let deadline = self.deadline.map(tokio::time::Instant::into_std);
            let permit = self
                .handle
                .block_on(slots.acquire_blocking_slot(deadline))?;
            self.permit = Some(permit);
        }
        Ok(())
    }

    /// Waits for room in the channel until the deadline or the shutdown.
    fn send_before_shutdown(
        &self,
        message: Result<pb::SolveStepsResponse, Status>,
    ) -> Result<(), Interrupted> {
        let deadline = async {
            match self.deadline {
                Some(deadline) => tokio::time::sleep_until(deadline).await,
                None => std::future::pending().await,
            }
        };
        self.handle.block_on(async {
            tokio::select! {
                sent = self.sender.send(message) => sent.map_err(|_| Interrupted::Stopped),
                () = deadline => Err(Interrupted::DeadlinePassed),
                () = self.shutdown.stopped() => Err(Interrupted::Stopped),
            }
        })
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
        let count = self.pending.len() as u64;
        let tracker = &self.out.tracker;
        tracker.steps_sent.fetch_add(count, Ordering::Relaxed);
        tracker.metrics.steps_sent.inc_by(count);
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

/// The tracing span of one call (`call{method algorithm peer code steps guesses
/// elapsed_us}`), filled in as the call goes on, and the one event that closes it:
/// at info level for a call that ended with a server-side error (deadline, limits,
/// shutdown), at debug level for the rest (`RUST_LOG=sudokud=debug` shows every
/// call).
struct CallLog {
    span: tracing::Span,
    begun: Instant,
}

impl CallLog {
    fn new(method: &'static str, peer: Option<std::net::SocketAddr>) -> Self {
        let span = tracing::info_span!(
            "call",
            method,
            peer = peer.map(tracing::field::display),
            algorithm = tracing::field::Empty,
            code = tracing::field::Empty,
            steps = tracing::field::Empty,
            guesses = tracing::field::Empty,
            elapsed_us = tracing::field::Empty,
        );
        CallLog {
            span,
            begun: Instant::now(),
        }
    }

    fn algorithm(&self, algorithm: Algorithm) {
        self.span.record("algorithm", algorithm.name());
    }

    fn stats(&self, stats: &solver::Stats) {
        self.span
            .record("steps", stats.placements + stats.backtracks)
            .record("guesses", stats.guesses);
    }

    /// Records how the call ended; `steps_sent` (streams) stands in for the step
    /// count when the search did not finish.
    fn end(&self, code: Code, steps_sent: Option<u64>) {
        let elapsed = u64::try_from(self.begun.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.span
            .record("code", tracing::field::debug(code))
            .record("elapsed_us", elapsed);
        if code != Code::Ok
            && let Some(steps) = steps_sent
        {
            self.span.record("steps", steps);
        }
        let _in_span = self.span.enter();
        match code {
            Code::Ok => tracing::debug!("call finished"),
            // The client's own doing: not worth an operator's attention by default.
            Code::InvalidArgument | Code::Cancelled => tracing::debug!("call ended early"),
            _ => tracing::info!("call ended early"),
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

fn interrupted_status(interrupted: Interrupted, shutdown: &Shutdown) -> Status {
    match interrupted {
        Interrupted::Stopped if shutdown.is_set() => {
            Status::unavailable("the server is shutting down; retry on another replica")
        }
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
