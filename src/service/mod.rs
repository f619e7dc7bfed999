//! The `sudoku.v1.SudokuService` implementation. Requests become resumable engine
//! searches run in short slices under the solve slots; nothing holds a thread
//! while it waits. Every status a call gets once it reaches the service is made
//! here; what the transport turns away before that (auth, message size, unknown
//! paths) is `server`'s. Knows nothing of the transport: `server` wraps it.
//!
//! - `state`: [`SudokuSolver`], what every call shares (limits, slots, pool,
//!   counters, shutdown, readiness).
//! - `limits`: the bounds calls are held to ([`Limits`]).
//! - `call`: what every call shares: deadline, field checks, statuses, its log, and
//!   the guard that closes it (`CallEnd`).
//! - `slots`: the CPU cap (fair solve slots, the bounded line) and the compute pool.
//! - `trace`: the caller's trace context (W3C `traceparent`, B3), for the call's
//!   span and log.
//! - `tracker`: counters of what runs ([`Tracker`]), behind the caps and metrics.
//! - `shutdown`: the signal that ends every solve once the grace is over, and
//!   the readiness lost when shutdown begins.
//! - `unary`: `Solve`.
//! - `outlet`: what every stream's task shares: room for the next message, the
//!   pace timer, a slot, each ending early when the client leaves, the deadline
//!   passes or the shutdown grace is over.
//! - `stream`: `SolveSteps`.
//! - `compute`: work that is no resumable search (a logical solve, a
//!   generator's attempts) on the compute pool under a slot, within its bounds.
//! - `logic`: `Rate` and `Hint`, and the unique-solution check `Explain` shares.
//! - `explain`: `Explain`, computed at once, streamed batched and paced by a task.
//! - `generate`: `Generate` and `GenerateMany`.
//! - `wanted`: what a Generate call asks for (classic, another shape, or a
//!   variant with random regions or cages), read from its request.
//! - `batch`: `SolveBatch`: a reader, one worker per slot, answers gathered into
//!   messages, every queue between them bounded.

mod batch;
mod call;
mod candidates;
mod compute;
mod explain;
mod generate;
mod limits;
mod logic;
mod outlet;
mod puzzle;
mod rules;
mod shutdown;
mod slots;
mod state;
mod stream;
mod trace;
mod tracker;
mod unary;
mod wanted;

use tonic::{Code, Request, Response, Status};
use tracing::Instrument;

pub use limits::Limits;
pub use shutdown::{Readiness, Shutdown};
pub use state::SudokuSolver;
pub use tracker::Tracker;

use crate::pb;
use call::{CallEnd, CallLog};
use explain::ExplainStream;
use generate::GenerateStream;
use stream::StepStream;

#[tonic::async_trait]
impl pb::sudoku_service_server::SudokuService for SudokuSolver {
    async fn solve(
        &self,
        request: Request<pb::SolveRequest>,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        let log = CallLog::new("Solve", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        // Dropped with this future: a client that leaves is counted as CANCELLED.
        let mut end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        let result = self
            .solve_unary(request, &mut end.log)
            .instrument(span)
            .await;
        end.set(result.as_ref().map_or_else(Status::code, |_| Code::Ok));
        result
    }

    type SolveStepsStream = StepStream;

    async fn solve_steps(
        &self,
        request: Request<pb::SolveStepsRequest>,
    ) -> Result<Response<Self::SolveStepsStream>, Status> {
        let log = CallLog::new("SolveSteps", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        // Until the stream's task takes it over, dropping means the client left.
        let end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        self.open_stream(request, end).instrument(span).await
    }

    type ExplainStream = ExplainStream;

    async fn explain(
        &self,
        request: Request<pb::ExplainRequest>,
    ) -> Result<Response<Self::ExplainStream>, Status> {
        let log = CallLog::new("Explain", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        let end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        self.open_explain(request, end).instrument(span).await
    }

    async fn hint(
        &self,
        request: Request<pb::HintRequest>,
    ) -> Result<Response<pb::HintResponse>, Status> {
        let log = CallLog::new("Hint", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        let mut end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        let result = self.hint_unary(request).instrument(span).await;
        end.set(result.as_ref().map_or_else(Status::code, |_| Code::Ok));
        result
    }

    async fn rate(
        &self,
        request: Request<pb::RateRequest>,
    ) -> Result<Response<pb::RateResponse>, Status> {
        let log = CallLog::new("Rate", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        let mut end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        let result = self.rate_unary(request).instrument(span).await;
        end.set(result.as_ref().map_or_else(Status::code, |_| Code::Ok));
        result
    }

    async fn true_candidates(
        &self,
        request: Request<pb::TrueCandidatesRequest>,
    ) -> Result<Response<pb::TrueCandidatesResponse>, Status> {
        let log = CallLog::new("TrueCandidates", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        let mut end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        let result = self
            .true_candidates_unary(request, &mut end.log)
            .instrument(span)
            .await;
        end.set(result.as_ref().map_or_else(Status::code, |_| Code::Ok));
        result
    }

    async fn generate(
        &self,
        request: Request<pb::GenerateRequest>,
    ) -> Result<Response<pb::GenerateResponse>, Status> {
        let log = CallLog::new("Generate", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        let mut end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        let result = self.generate_unary(request).instrument(span).await;
        end.set(result.as_ref().map_or_else(Status::code, |_| Code::Ok));
        result
    }

    type SolveBatchStream = batch::BatchStream;

    async fn solve_batch(
        &self,
        request: Request<tonic::Streaming<pb::SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStream>, Status> {
        let log = CallLog::new("SolveBatch", request.remote_addr(), request.metadata());
        let end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        Ok(self.open_batch(request, end))
    }

    type GenerateManyStream = GenerateStream;

    async fn generate_many(
        &self,
        request: Request<pb::GenerateManyRequest>,
    ) -> Result<Response<Self::GenerateManyStream>, Status> {
        let log = CallLog::new("GenerateMany", request.remote_addr(), request.metadata());
        let span = log.span.clone();
        let end = CallEnd::new(log, self.tracker.clone(), Code::Cancelled);
        self.open_generate_many(request, end).instrument(span).await
    }
}
