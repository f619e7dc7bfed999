//! `Explain`: the logical solve is computed on the compute pool when the call
//! arrives (at most a few hundred steps, each a bounded search of patterns, and
//! no more than the step cap),
//! then streamed by a task that holds no thread, batched and paced as
//! `SolveSteps` is, each message made once the client has room for it. Knows
//! nothing of how steps are found.

use std::pin::Pin;
use std::time::Duration;

use tokio_stream::Stream;
use tonic::{Code, Request, Response, Status};
use tracing::Instrument;

use super::SudokuSolver;
use super::call::{CallEnd, deadline_of, unavailable};
use super::logic::{explained, unique_solution};
use super::outlet::{Cut, Outlet};
use super::puzzle::Puzzle;
use super::tracker::OpenStream;
use crate::board::Grid;
use crate::convert;
use crate::logic::Explanation;
use crate::pb;

/// The response stream of `Explain`.
pub(super) type ExplainStream =
    Pin<Box<dyn Stream<Item = Result<pb::ExplainResponse, Status>> + Send>>;

/// An explanation ready to stream.
struct Explained {
    started: pb::ExplainResponse,
    steps: Vec<pb::LogicStep>,
    finished: Result<pb::ExplainResponse, Status>,
}

impl SudokuSolver {
    /// Checks the request, admits the stream (the open-stream cap), computes the
    /// explanation and starts the task that streams it, which takes `end` over.
    pub(super) async fn open_explain(
        &self,
        request: Request<pb::ExplainRequest>,
        mut end: CallEnd,
    ) -> Result<Response<ExplainStream>, Status> {
        let deadline = self.stream_deadline(deadline_of(request.metadata()));
        let request = request.into_inner();
        let pace = Duration::from_millis(u64::from(request.step_interval_ms));
        let admitted = async {
            let puzzle = Puzzle::read(&request.puzzle, request.rules.as_ref())?;
            let open = self.admit_open_stream(!pace.is_zero())?;
            let finish = request.finish_by_search;
            let cap = self.limits.steps_for(request.max_steps);
            let explained = self
                .compute(deadline, move |bounds| {
                    let (grid, rules) = (puzzle.grid(), puzzle.layout());
                    let (solution, _) = unique_solution(&grid, rules, bounds)?;
                    let explanation = explained(&grid, rules, bounds, cap)?;
                    Ok(explanation_messages(
                        &puzzle,
                        &solution,
                        &explanation,
                        finish,
                        cap,
                    ))
                })
                .await?;
            if explained.finished.is_err() {
                self.tracker.metrics.rejected("max_steps");
            }
            Ok::<_, Status>((explained, open))
        };
        let (explained, open) = match admitted.await {
            Ok(admitted) => admitted,
            Err(status) => {
                end.set(status.code());
                return Err(status);
            }
        };
        let batch = if pace.is_zero() {
            self.limits.batch_for(request.max_batch)
        } else {
            1
        };
        let (out, receiver) = self.outlet(deadline);
        let span = end.log.span.clone();
        end.unfinished(Code::Internal);
        let task = Explaining {
            explained,
            batch,
            pace,
            end: ExplainEnd {
                call: end,
                _open: open,
            },
        };
        tokio::spawn(task.run(out).instrument(span));
        Ok(Response::new(receiver))
    }
}

/// The messages of an explanation: the steps numbered from 1, a search step
/// for what the techniques left when `finish` asks for it, and the last message
/// (`RESOURCE_EXHAUSTED` when the solve had `cap` steps without finishing).
fn explanation_messages(
    puzzle: &Puzzle,
    solution: &Grid,
    explanation: &Explanation,
    finish: bool,
    cap: u64,
) -> Explained {
    let side = puzzle.side();
    let capped = !explanation.solved() && explanation.steps.len() as u64 >= cap;
    let mut steps: Vec<pb::LogicStep> = (1u64..)
        .zip(&explanation.steps)
        .map(|(seq, step)| convert::logic_step_to_pb(seq, step, side))
        .collect();
    let end = &explanation.end;
    if finish && !explanation.solved() && !capped {
        let placements: Vec<_> = (0..end.len())
            .filter(|&cell| end[cell] == 0)
            .map(|cell| (cell, solution.get(cell)))
            .collect();
        steps.push(convert::search_step_to_pb(
            steps.len() as u64 + 1,
            &placements,
            side,
        ));
    }
    Explained {
        started: pb::ExplainResponse {
            event: Some(pb::explain_response::Event::Started(pb::ExplainStarted {
                puzzle: puzzle.givens_text(),
                rules: puzzle.rules(),
            })),
        },
        steps,
        finished: if capped {
            Err(Status::resource_exhausted(format!(
                "step limit reached: the explanation took {cap} steps without finishing"
            )))
        } else {
            Ok(convert::explain_finished(
                puzzle.write(solution.cells()),
                puzzle.write(end),
                &explanation.rating(),
            ))
        },
    }
}

/// The task of one `Explain` stream.
struct Explaining {
    explained: Explained,
    batch: usize,
    pace: Duration,
    end: ExplainEnd,
}

/// Held by the task: the call is closed, then the stream released, however the
/// task ends.
struct ExplainEnd {
    call: CallEnd,
    _open: OpenStream,
}

impl Explaining {
    async fn run(mut self, out: Outlet<pb::ExplainResponse>) {
        let code = match self.send(&out).await {
            Ok(code) => code,
            Err(Cut::Gone) => Code::Cancelled,
            Err(cut) => {
                let status = match cut {
                    Cut::Deadline => Status::deadline_exceeded(
                        "deadline exceeded before the explanation was sent",
                    ),
                    _ => unavailable(),
                };
                let code = status.code();
                match out.send_closing(Err(status)).await {
                    Ok(()) => code,
                    Err(()) => Code::Cancelled,
                }
            }
        };
        self.end.call.set(code);
    }

    /// `started`, the steps in batches (paced when asked), then `finished`;
    /// the code the call ends with.
    async fn send(&mut self, out: &Outlet<pb::ExplainResponse>) -> Result<Code, Cut> {
        let started = self.explained.started.clone();
        out.room().await?.send(Ok(started));
        let mut next = tokio::time::Instant::now();
        let steps = std::mem::take(&mut self.explained.steps);
        let mut sent = 0u64;
        for chunk in steps.chunks(self.batch) {
            if !self.pace.is_zero() {
                out.wait_until(next).await?;
                next = (next + self.pace).max(tokio::time::Instant::now());
            }
            let message = pb::ExplainResponse {
                event: Some(pb::explain_response::Event::Steps(pb::LogicStepBatch {
                    steps: chunk.to_vec(),
                })),
            };
            out.room().await?.send(Ok(message));
            sent += chunk.len() as u64;
            self.end.call.sent(sent);
        }
        let finished = self.explained.finished.clone();
        let code = finished.as_ref().map_or_else(Status::code, |_| Code::Ok);
        out.send_closing(finished).await.map_err(|()| Cut::Gone)?;
        Ok(code)
    }
}
