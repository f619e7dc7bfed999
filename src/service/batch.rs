//! `SolveBatch`: many puzzles on one bidirectional call. A reader task takes the
//! request messages' puzzles into a small bounded queue; one worker task per solve
//! slot takes puzzles from it and solves each as `Solve` would (`search_once`:
//! in line for a slot like every other call); the call's own task gathers the
//! answers as they finish into response messages. Every queue is bounded, so a
//! client that stops reading answers fills them, the workers stop, the reader
//! stops reading, and HTTP/2 flow control holds the client: the puzzles in flight
//! are at most the queues' sizes. Knows nothing of the transport.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{Mutex, mpsc};
use tokio::task::JoinSet;
use tonic::{Code, Request, Response, Status, Streaming};
use tracing::Instrument;

use super::call::{
    CallEnd, deadline_of, interrupted_status, parse_algorithm, parse_puzzle, unavailable,
};
use super::outlet::{Cut, Outlet};
use super::{Readiness, SudokuSolver};
use crate::convert;
use crate::pb;
use crate::solver::{Interrupted, Mode};

/// The response stream of a batch call.
pub type BatchStream =
    tokio_stream::wrappers::ReceiverStream<Result<pb::SolveBatchResponse, Status>>;

/// The most answers in one response message.
pub const MAX_ANSWERS: usize = 256;

/// Puzzles read but not yet taken by a worker, per worker.
const QUEUED_PER_WORKER: usize = 4;

impl SudokuSolver {
    /// Starts the batch's tasks and returns its answer stream at once.
    pub(super) fn open_batch(
        &self,
        request: Request<Streaming<pb::SolveBatchRequest>>,
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
        requests: Streaming<pb::SolveBatchRequest>,
        outlet: &Outlet<pb::SolveBatchResponse>,
        deadline: Option<Instant>,
    ) -> Code {
        let workers = self.limits.max_concurrent_solves.max(1);
        let (jobs, queue) = mpsc::channel(workers * QUEUED_PER_WORKER);
        let (answered, mut answers) = mpsc::channel(MAX_ANSWERS);
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
            let Some(first) = first else { break };
            let mut batch = vec![first];
            while batch.len() < MAX_ANSWERS {
                match answers.try_recv() {
                    Ok(answer) => batch.push(answer),
                    Err(_) => break,
                }
            }
            let permit = match outlet.room().await {
                Ok(permit) => permit,
                Err(Cut::Gone) => return Code::Cancelled,
                Err(cut) => return self.cut_batch(outlet, cut).await,
            };
            permit.send(Ok(pb::SolveBatchResponse { answers: batch }));
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
    async fn cut_batch(&self, outlet: &Outlet<pb::SolveBatchResponse>, cut: Cut) -> Code {
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

    /// One worker: takes puzzles from the queue until it is closed and empty.
    async fn work(
        &self,
        queue: &Mutex<mpsc::Receiver<pb::BatchPuzzle>>,
        answered: &mpsc::Sender<pb::BatchAnswer>,
        deadline: Option<Instant>,
    ) {
        loop {
            let next = queue.lock().await.recv().await;
            let Some(puzzle) = next else { return };
            let answer = self.answer(puzzle, deadline).await;
            if answered.send(answer).await.is_err() {
                return;
            }
        }
    }

    /// What `Solve` would answer for one puzzle, as an answer of the batch.
    async fn answer(&self, puzzle: pb::BatchPuzzle, deadline: Option<Instant>) -> pb::BatchAnswer {
        let pb::BatchPuzzle {
            id,
            puzzle,
            algorithm,
            check_unique,
            max_steps,
        } = puzzle;
        let solved = async {
            let board = parse_puzzle(&puzzle)?;
            let algorithm = parse_algorithm(algorithm)?;
            let mode = Mode::counting(check_unique);
            let bounds = (self.limits.steps_for(max_steps), deadline);
            let (_, outcome) = self.search_once(&board, algorithm, mode, bounds).await?;
            match outcome {
                Ok(report) => {
                    let metrics = &self.tracker.metrics;
                    metrics.solved(algorithm.name(), report.stats.elapsed);
                    Ok(convert::solve_response(&report, algorithm, mode))
                }
                Err(interrupted) => {
                    if matches!(interrupted, Interrupted::StepLimit { .. }) {
                        self.tracker.metrics.rejected("max_steps");
                    }
                    Err(interrupted_status(interrupted, &self.shutdown))
                }
            }
        };
        match solved.await {
            Ok(solved) => pb::BatchAnswer {
                id,
                outcome: solved.outcome,
                solution: solved.solution,
                solution_count: solved.solution_count,
                stats: solved.stats,
                algorithm: solved.algorithm,
                code: 0,
                error: String::new(),
            },
            Err(status) => pb::BatchAnswer {
                id,
                code: status.code() as u32,
                error: status.message().to_owned(),
                ..Default::default()
            },
        }
    }
}

/// Reads the request messages' puzzles into the queue until the client is done
/// (`None`), its stream fails (that status), or shutdown begins: then reading
/// stops, the puzzles read are still answered, and the call ends `UNAVAILABLE`.
async fn read(
    mut requests: Streaming<pb::SolveBatchRequest>,
    jobs: mpsc::Sender<pb::BatchPuzzle>,
    readiness: Readiness,
) -> Option<Status> {
    let stopped = || {
        Some(Status::unavailable(
            "the server is shutting down: puzzles not answered were not read; \
             send them to another replica",
        ))
    };
    loop {
        let message = tokio::select! {
            biased;
            () = readiness.lost() => return stopped(),
            message = requests.message() => message,
        };
        let request = match message {
            Ok(Some(request)) => request,
            Ok(None) => return None,
            Err(status) => return Some(status),
        };
        for puzzle in request.puzzles {
            tokio::select! {
                biased;
                () = readiness.lost() => return stopped(),
                sent = jobs.send(puzzle) => if sent.is_err() { return None },
            }
        }
    }
}
