//! `SolveBatch`: many puzzles on one bidirectional call. A reader task takes the
//! request messages' puzzles, in chunks of 64, into a small bounded queue; one
//! worker task per solve slot takes a chunk at a time and solves each puzzle as
//! `Solve` would (in line for a slot like every other call, a turn here, the rest
//! on the compute pool); the call's own task gathers the answers as they finish
//! into response messages. Every queue is bounded, so a
//! client that stops reading answers fills them, the workers stop, the reader
//! stops reading, and HTTP/2 flow control holds the client: the puzzles in flight
//! are at most the queues' sizes. Knows nothing of the transport.

use std::sync::Arc;
use std::time::{Duration, Instant};

use prost::Message;
use tokio::sync::{Mutex, mpsc};
use tokio::task::JoinSet;
use tonic::{Code, Request, Response, Status, Streaming};
use tracing::Instrument;

use super::call::{CallEnd, deadline_of, interrupted_status, solver_failed, unavailable};
use super::outlet::{Cut, Outlet};
use super::puzzle::{Givens, Puzzle};
use super::slots::Slot;
use super::tracker::{Computing, LiveSolve};
use super::unary::LongSolve;
use super::{Readiness, SudokuSolver};
use crate::codec::{Answer, BatchItem, SolveBatchRequest, SolveBatchResponse};
use crate::convert;
use crate::pb;
use crate::solver::{Algorithm, Control, Interrupted, Mode, NoEvents, Report, Search};

/// The response stream of a batch call.
pub type BatchStream = super::outlet::Replies<SolveBatchResponse>;

/// The most answers in one response message.
pub const MAX_ANSWERS: usize = 256;

/// About the size of an answer's encoding (a 9x9 solution and its statistics).
const ANSWER_BYTES: usize = 128;

/// Puzzles a worker takes from the queue at a time.
const CHUNK: usize = 64;

/// Puzzles read but not yet taken by a worker, per worker.
const QUEUED_PER_WORKER: usize = 4 * CHUNK;

/// How long a worker computes over several puzzles before the runtime's other
/// tasks run (the connections' among them: answers wait on this thread until
/// the turn ends) and before it lets others that wait have its slot: the
/// design's slice. Measured on 17_clue with `solve --remote`: 200 µs turns
/// starve the pipeline (0.47x local), 100 µs give 0.59x, 50 µs 0.58x, and on
/// the hard set 50 µs sends too many puzzles to the pool (0.73x, 0.93x at 100).
const FAIR_TURN: Duration = Duration::from_micros(100);

impl SudokuSolver {
    /// Starts the batch's tasks and returns its answer stream at once.
    pub(super) fn open_batch(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
        mut end: CallEnd,
    ) -> Response<BatchStream> {
        let deadline = deadline_of(request.metadata());
        let (outlet, stream) = self.outlet(deadline);
        let span = end.log.span.clone();
        // From here a task that ends without saying how has panicked.
        end.unfinished(Code::Internal);
        let service = self.clone();
        let requests = request.into_inner();
        tokio::spawn(
            async move {
                let code = service.run_batch(requests, &outlet, deadline).await;
                end.set(code);
            }
            .instrument(span),
        );
        Response::new(stream)
    }

    /// Runs one batch to its end; the call's status code.
    async fn run_batch(
        &self,
        requests: Streaming<SolveBatchRequest>,
        outlet: &Outlet<SolveBatchResponse>,
        deadline: Option<Instant>,
    ) -> Code {
        let workers = self.limits.max_concurrent_solves.max(1);
        let (jobs, queue) = mpsc::channel(workers * QUEUED_PER_WORKER / CHUNK);
        let (answered, mut answers) = mpsc::channel::<SolveBatchResponse>(workers * 2);
        // Dropped with this future, the tasks are aborted: a deadline, a client
        // gone or a panic stops every puzzle of the batch at once.
        let mut tasks = JoinSet::new();
        tasks.spawn(read(requests, jobs, self.readiness.clone()));
        let queue = Arc::new(Mutex::new(queue));
        for _ in 0..workers {
            let (service, queue, answered) = (self.clone(), queue.clone(), answered.clone());
            tasks.spawn(async move {
                service.work(&queue, &answered, deadline).await;
                None
            });
        }
        drop(answered);
        loop {
            let first = tokio::select! {
                answer = answers.recv() => answer,
                cut = outlet.interruption() => return self.cut_batch(outlet, cut).await,
                () = outlet.gone() => return Code::Cancelled,
            };
            let Some(mut batch) = first else { break };
            // Chunks are at most CHUNK answers: a message stays within MAX_ANSWERS.
            while batch.len() + CHUNK <= MAX_ANSWERS {
                match answers.try_recv() {
                    Ok(more) => batch.append(more),
                    Err(_) => break,
                }
            }
            let permit = match outlet.room().await {
                Ok(permit) => permit,
                Err(Cut::Gone) => return Code::Cancelled,
                Err(cut) => return self.cut_batch(outlet, cut).await,
            };
            permit.send(Ok(batch));
        }
        // Every worker is done, so the reader is too: it says how the call ends.
        let mut ending = None;
        while let Some(result) = tasks.join_next().await {
            match result {
                Ok(status) => ending = ending.or(status),
                Err(_) => return Code::Internal,
            }
        }
        match ending {
            None => Code::Ok,
            Some(status) => {
                let code = status.code();
                let _ = outlet.send_closing(Err(status)).await;
                code
            }
        }
    }

    /// Ends a batch its deadline or the end of the shutdown grace cut.
    async fn cut_batch(&self, outlet: &Outlet<SolveBatchResponse>, cut: Cut) -> Code {
        let status = match cut {
            Cut::Gone => return Code::Cancelled,
            Cut::Deadline => Status::deadline_exceeded(
                "deadline exceeded: the puzzles not answered yet were not solved",
            ),
            Cut::Shutdown => unavailable(),
        };
        let code = status.code();
        let _ = outlet.send_closing(Err(status)).await;
        code
    }

    /// One worker: takes puzzles from the queue a chunk at a time until it is
    /// closed and empty, and hands each chunk's answers over together.
    async fn work(
        &self,
        queue: &Mutex<mpsc::Receiver<SolveBatchRequest>>,
        answered: &mpsc::Sender<SolveBatchResponse>,
        deadline: Option<Instant>,
    ) {
        let mut reused = (None, Texts::default());
        loop {
            let next = queue.lock().await.recv().await;
            let Some(chunk) = next else { return };
            let answers = self.answer_chunk(&chunk, deadline, &mut reused).await;
            if answered.send(answers).await.is_err() {
                return;
            }
        }
    }

    /// Answers a chunk under one slot, each puzzle as `Solve` would: a turn of
    /// at most `FAIR_TURN` here, on the compute pool if it needs more (in slices,
    /// its slot taking turns there). After each turn's worth of puzzles the task
    /// yields, and the slot goes back when other work waits. The chunk's search
    /// times go into the metrics together. Each answer is written into the
    /// response from the worker's one set of strings (they keep their room
    /// from puzzle to puzzle).
    async fn answer_chunk(
        &self,
        chunk: &SolveBatchRequest,
        deadline: Option<Instant>,
        (reused, texts): &mut (Option<Search>, Texts),
    ) -> SolveBatchResponse {
        let mut answers = SolveBatchResponse::with_capacity(chunk.len(), ANSWER_BYTES);
        let mut timings = Vec::with_capacity(chunk.len());
        let mut turn = None;
        for item in chunk.puzzles() {
            let id_read = write_id(&mut texts.id, item.id);
            let prepared = match prepare(&item, id_read, &self.limits) {
                Ok(prepared) => prepared,
                Err(status) => {
                    answers.push_answer(&failed(texts, &status));
                    continue;
                }
            };
            // The turn stays where it is while its puzzles run.
            let current = match &mut turn {
                Some(current) => current,
                None => match self.slots.admit(deadline).await {
                    Ok(slot) => turn.insert(Turn::start(self, (slot, self.tracker.enter()))),
                    Err(status) => {
                        answers.push_answer(&failed(texts, &status));
                        continue;
                    }
                },
            };
            // The outcome is borrowed where it lies, not moved on.
            let ran = self.run_here(&prepared, current, deadline, reused);
            let (failed, pooled): (Status, Solved);
            let outcome = match &ran {
                Ran::Over(outcome) => Ok(outcome),
                Ran::Failed => {
                    turn = None;
                    failed = solver_failed();
                    Err(&failed)
                }
                Ran::Paused => {
                    let current = turn.take().expect("the turn the puzzle ran in");
                    pooled = self
                        .finish_on_pool(reused, current, (prepared.3, deadline).into())
                        .await;
                    pooled.as_ref()
                }
            };
            let (ref puzzle, algorithm, mode, _) = prepared;
            if let Ok(Ok(report)) = outcome {
                timings.push((algorithm.name(), report.stats.elapsed));
            }
            answers.push_answer(&self.answered(texts, outcome, (algorithm, mode), puzzle));
            if let Some(over) = turn.take_if(|current| current.used >= FAIR_TURN) {
                turn = self.after_turn(over).await;
            }
        }
        self.tracker.metrics.solved_all(&timings);
        answers
    }

    /// A turn is over: the runtime's other tasks run, and the slot goes to
    /// whoever waits for one; kept for a new turn when nobody does.
    async fn after_turn(&self, over: Turn) -> Option<Turn> {
        let held = over.end();
        let kept = (!self.slots.contended()).then_some(held);
        tokio::task::yield_now().await;
        kept.map(|held| Turn::start(self, held))
    }

    /// Runs one puzzle in `turn`, here, until the turn's time is up. The
    /// search is the worker's `reused` one for a 9x9 puzzle (restarted on it).
    fn run_here(
        &self,
        &(ref puzzle, algorithm, mode, max_steps): &Prepared,
        turn: &mut Turn,
        deadline: Option<Instant>,
        reused: &mut Option<Search>,
    ) -> Ran {
        let control = Control {
            max_steps,
            stop: None,
            stop_all: Some(&self.shutdown.flag),
            deadline,
            timed: true,
            slice_steps: u64::MAX,
            // A puzzle gets a turn here (counted from where the turn's searches
            // have got to, without a clock read); one that needs more goes on on
            // the compute pool, in slices.
            slice_until: Some(turn.started + turn.used + FAIR_TURN),
        };
        let search = match &puzzle.givens {
            Givens::Classic(board) => Search::reuse(reused, board, algorithm, mode),
            Givens::Sized(_) | Givens::Constrained(..) => match puzzle.search(algorithm, mode) {
                Some(search) => reused.insert(search),
                None => return Ran::Failed,
            },
        };
        let advanced = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            search.run_once(&control, &mut NoEvents)
        }));
        match advanced {
            Err(_) => Ran::Failed,
            Ok(None) => Ran::Paused,
            Ok(Some(outcome)) => {
                turn.used = match &outcome {
                    Ok(report) => turn.used + report.stats.elapsed,
                    Err(_) => turn.started.elapsed(),
                };
                Ran::Over(outcome)
            }
        }
    }

    /// Goes on with the worker's paused search on the compute pool, in
    /// slices; the turn's slot goes with it (the pool's turns use it up).
    async fn finish_on_pool(
        &self,
        reused: &mut Option<Search>,
        turn: Turn,
        job: LongSolve,
    ) -> Solved {
        let search = reused.take().expect("the search just run");
        let outcome = self.continue_on_pool(search, turn.end(), job).await;
        outcome.map(|(search, outcome)| {
            *reused = Some(search);
            outcome
        })
    }

    /// The answer for a search's outcome (the id in `texts`), as `Solve`
    /// would answer.
    fn answered<'a>(
        &self,
        texts: &'a mut Texts,
        outcome: Result<&Result<Report, Interrupted>, &Status>,
        (algorithm, mode): (Algorithm, Mode),
        puzzle: &Puzzle,
    ) -> Answer<'a> {
        let report = match outcome {
            Ok(Ok(report)) => report,
            Ok(Err(interrupted)) => {
                if matches!(interrupted, Interrupted::StepLimit { .. }) {
                    self.tracker.metrics.rejected("max_steps");
                }
                return failed(texts, &interrupted_status(*interrupted, &self.shutdown));
            }
            Err(status) => return failed(texts, status),
        };
        let solved = convert::solve_response(report, algorithm, mode, String::new());
        texts.solution.clear();
        puzzle.write_solution(report, &mut texts.solution);
        Answer {
            id: &texts.id,
            outcome: solved.outcome,
            solution: &texts.solution,
            solution_count: solved.solution_count,
            stats: solved.stats.map(convert::answer_stats),
            code: 0,
            error: "",
            algorithm: solved.algorithm,
        }
    }
}

/// A worker's hold on a solve slot over several puzzles: counted as computing
/// while it lasts, and over once its searches have taken `FAIR_TURN`.
struct Turn {
    held: (Slot, LiveSolve),
    _computing: Computing,
    started: Instant,
    /// The search time of the turn's puzzles so far.
    used: Duration,
}

impl Turn {
    fn start(service: &SudokuSolver, held: (Slot, LiveSolve)) -> Turn {
        Turn {
            held,
            _computing: service.tracker.computing_slice(),
            started: Instant::now(),
            used: Duration::ZERO,
        }
    }

    /// The slot, no longer computing.
    fn end(self) -> (Slot, LiveSolve) {
        self.held
    }
}

/// How a puzzle's run in a worker's turn ended.
enum Ran {
    /// The search is over: its answer, or why it ended without one.
    Over(Result<Report, Interrupted>),
    /// It needs more than the turn: it goes on on the compute pool.
    Paused,
    /// The search could not be made, or it panicked.
    Failed,
}

/// A puzzle checked: the puzzle, its algorithm, mode and step cap.
type Prepared = (Puzzle, Algorithm, Mode, u64);

/// How a puzzle's search ended, or the status that kept it from running.
type Solved = Result<Result<Report, Interrupted>, Status>;

/// A puzzle's fields checked as `Solve` checks them; a puzzle or rules that
/// do not decode are the puzzle's error, not the batch's.
fn prepare(
    item: &BatchItem<'_>,
    id_read: bool,
    limits: &super::Limits,
) -> Result<Prepared, Status> {
    if !id_read {
        return Err(Status::invalid_argument("id: not UTF-8 text"));
    }
    let exact = item
        .rules
        .is_none()
        .then(|| Puzzle::read_exact(item.puzzle));
    let read = match exact.flatten() {
        Some(read) => read?,
        None => read_puzzle(item)?,
    };
    let algorithm = read.algorithm(item.algorithm)?;
    let mode = Mode::counting(item.check_unique);
    Ok((read, algorithm, mode, limits.steps_for(item.max_steps)))
}

/// A puzzle's text and rules read as `Solve` reads them.
fn read_puzzle(item: &BatchItem<'_>) -> Result<Puzzle, Status> {
    let text = std::str::from_utf8(item.puzzle)
        .map_err(|_| Status::invalid_argument("puzzle: not UTF-8 text"))?;
    let rules = match item.rules {
        None => None,
        Some(encoded) => Some(pb::Rules::decode(encoded).map_err(|error| {
            Status::invalid_argument(format!("rules: not a Rules message ({error})"))
        })?),
    };
    Puzzle::read(text, rules.as_ref())
}

/// Writes a puzzle's id into `out`, as it came, and says whether it was
/// UTF-8; one that is not (its answer an error) with its bad bytes replaced.
fn write_id(out: &mut String, id: &[u8]) -> bool {
    out.clear();
    match std::str::from_utf8(id) {
        Ok(id) => {
            out.push_str(id);
            true
        }
        Err(_) => {
            out.push_str(&String::from_utf8_lossy(id));
            false
        }
    }
}

/// The answer for a puzzle (the id in `texts`) `Solve` would have failed
/// with `status`.
fn failed<'a>(texts: &'a mut Texts, status: &Status) -> Answer<'a> {
    texts.error.clear();
    texts.error.push_str(status.message());
    Answer {
        id: &texts.id,
        code: status.code() as u32,
        error: &texts.error,
        ..Answer::default()
    }
}

/// A worker's strings, kept from puzzle to puzzle: the id as the request gave
/// it, the solution as the request wrote its puzzle, and an error's message.
#[derive(Default)]
struct Texts {
    id: String,
    solution: String,
    error: String,
}

/// Reads the request messages' puzzles into the queue until the client is done
/// (`None`), its stream fails (that status), or shutdown begins: then reading
/// stops, the puzzles read are still answered, and the call ends `UNAVAILABLE`.
async fn read(
    mut requests: Streaming<SolveBatchRequest>,
    jobs: mpsc::Sender<SolveBatchRequest>,
    readiness: Readiness,
) -> Option<Status> {
    let stopped = || {
        Some(Status::unavailable(
            "the server is shutting down: puzzles not answered were not read; \
             send them to another replica",
        ))
    };
    let lost = readiness.lost();
    tokio::pin!(lost);
    loop {
        let message = tokio::select! {
            biased;
            () = &mut lost => return stopped(),
            message = requests.message() => message,
        };
        let request = match message {
            Ok(Some(request)) => request,
            Ok(None) => return None,
            Err(status) => return Some(status),
        };
        let mut puzzles = request;
        while !puzzles.is_empty() {
            let rest = puzzles.split_off(puzzles.len().min(CHUNK));
            let chunk = std::mem::replace(&mut puzzles, rest);
            tokio::select! {
                biased;
                () = &mut lost => return stopped(),
                sent = jobs.send(chunk) => if sent.is_err() { return None },
            }
        }
    }
}
