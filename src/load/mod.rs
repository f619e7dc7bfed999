//! `sudokud load`: a small load generator for a running server. Runs N concurrent
//! callers on one HTTP/2 connection for a fixed time and reports requests (or
//! steps) per second and latency percentiles. Bounded in count and time, and meant
//! for servers on this machine. A client only: knows nothing of the server's insides.

use std::time::{Duration, Instant};

use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

use crate::client::authorized;
use crate::pb;
use crate::pb::sudoku_service_client::SudokuServiceClient;

pub mod streams;

/// Which call the load generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rpc {
    /// Unary `Solve`.
    Solve,
    /// `SolveSteps`, read to the end.
    Steps,
    /// `grpc.health.v1.Health/Check`: the framework's own ceiling.
    Health,
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The call to make.
    pub rpc: Rpc,
    /// Callers running at once.
    pub concurrency: usize,
    /// How long to run.
    pub duration: Duration,
    /// Puzzles to send, round robin (never empty).
    pub puzzles: Vec<String>,
    /// The algorithm to ask for (protobuf value).
    pub algorithm: i32,
    /// `authorization` header for SudokuService calls, when the server wants one.
    pub authorization: Option<MetadataValue<Ascii>>,
}

/// What a run measured.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Calls that succeeded.
    pub calls: u64,
    /// Calls that failed.
    pub errors: u64,
    /// Steps received (for `Rpc::Steps`).
    pub steps: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// Latencies of successful calls, sorted, in microseconds.
    pub latencies: Vec<u64>,
    /// The first failure seen, to tell the user why calls fail.
    pub first_error: Option<tonic::Status>,
    /// Failed calls by their status code's name (`Unavailable`, ...).
    pub failures: std::collections::BTreeMap<String, u64>,
}

impl Summary {
    /// The latency at percentile `p` (0..=100), in microseconds.
    pub fn percentile(&self, p: f64) -> u64 {
        if self.latencies.is_empty() {
            return 0;
        }
        let rank = ((p / 100.0) * (self.latencies.len() - 1) as f64).round() as usize;
        self.latencies[rank.min(self.latencies.len() - 1)]
    }
}

/// Runs the plan against the server behind `channel`.
pub async fn run(channel: Channel, plan: &Plan) -> Summary {
    let started = Instant::now();
    let until = started + plan.duration;
    let mut tasks = Vec::with_capacity(plan.concurrency);
    for worker in 0..plan.concurrency.max(1) {
        let channel = channel.clone();
        let plan = plan.clone();
        tasks.push(tokio::spawn(async move {
            caller(channel, &plan, worker, until).await
        }));
    }
    let mut summary = Summary::default();
    for task in tasks {
        if let Ok(part) = task.await {
            summary.calls += part.calls;
            summary.errors += part.errors;
            summary.steps += part.steps;
            summary.latencies.extend(part.latencies);
            summary.first_error = summary.first_error.or(part.first_error);
            for (code, count) in part.failures {
                *summary.failures.entry(code).or_default() += count;
            }
        }
    }
    summary.elapsed = started.elapsed();
    summary.latencies.sort_unstable();
    summary
}

/// One caller: calls back to back until `until`, and at least once (a run always
/// measures something, however short or slow to connect).
async fn caller(channel: Channel, plan: &Plan, worker: usize, until: Instant) -> Summary {
    let mut sudoku = SudokuServiceClient::new(channel.clone());
    let mut health = HealthClient::new(channel);
    let mut part = Summary::default();
    let mut index = worker;
    loop {
        let puzzle = plan.puzzles[index % plan.puzzles.len()].clone();
        index += 1;
        let begun = Instant::now();
        let outcome = match plan.rpc {
            Rpc::Health => health.check(HealthCheckRequest::default()).await.map(|_| 0),
            Rpc::Solve => {
                let request = pb::SolveRequest {
                    puzzle,
                    algorithm: plan.algorithm,
                    ..Default::default()
                };
                sudoku
                    .solve(authorized(request, plan.authorization.as_ref()))
                    .await
                    .map(|_| 0)
            }
            Rpc::Steps => {
                let request = pb::SolveStepsRequest {
                    puzzle,
                    algorithm: plan.algorithm,
                    ..Default::default()
                };
                read_stream(
                    &mut sudoku,
                    authorized(request, plan.authorization.as_ref()),
                )
                .await
            }
        };
        match outcome {
            Ok(steps) => {
                part.calls += 1;
                part.steps += steps;
                part.latencies
                    .push(u64::try_from(begun.elapsed().as_micros()).unwrap_or(u64::MAX));
            }
            Err(status) => {
                part.errors += 1;
                *part
                    .failures
                    .entry(format!("{:?}", status.code()))
                    .or_default() += 1;
                part.first_error.get_or_insert(status);
            }
        }
        if Instant::now() >= until {
            return part;
        }
    }
}

async fn read_stream(
    client: &mut SudokuServiceClient<Channel>,
    request: tonic::Request<pb::SolveStepsRequest>,
) -> Result<u64, tonic::Status> {
    let mut stream = client.solve_steps(request).await?.into_inner();
    let mut steps = 0u64;
    while let Some(message) = stream.message().await? {
        if let Some(pb::solve_steps_response::Event::Steps(batch)) = message.event {
            steps += batch.steps.len() as u64;
        }
    }
    Ok(steps)
}
