//! `sudokud load --rpc steps --streams N`: many long-lived streams (dashboards) over
//! several connections, kept open for a steady window, with unary probes of hard
//! puzzles meanwhile and, given the server's pid, its CPU per message, threads and
//! memory read from `/proc`. Bounded in count and time; for servers on this machine.
//! A client only: reads the server's usage from `/proc`, nothing else of it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::Channel;

use crate::client::authorized;
use crate::pb;
use crate::pb::sudoku_service_client::SudokuServiceClient;

/// What to run.
#[derive(Debug, Clone)]
pub struct StreamPlan {
    /// Streams kept open at once (a finished one is opened again).
    pub streams: usize,
    /// `step_interval_ms` of each stream; zero for unpaced.
    pub pace: Duration,
    /// `max_batch` of each stream (0: the server's default).
    pub max_batch: u32,
    /// Puzzles for the streams, round robin (never empty).
    pub puzzles: Vec<String>,
    /// The streams' algorithm (protobuf value).
    pub algorithm: i32,
    /// How long all streams may take to get going before the window starts anyway.
    pub opening: Duration,
    /// The steady window measured once they are going.
    pub window: Duration,
    /// Puzzles of the unary probes made during the window, one after another.
    pub probes: Vec<String>,
    /// The probes' algorithm (protobuf value).
    pub probe_algorithm: i32,
    /// Each probe's deadline.
    pub probe_timeout: Duration,
    /// `authorization` header, when the server wants one.
    pub authorization: Option<MetadataValue<Ascii>>,
    /// The server's process id, to read its CPU time, threads and memory.
    pub server_pid: Option<u32>,
}

/// What a run measured.
#[derive(Debug, Clone, Default)]
pub struct StreamSummary {
    /// When each stream got its first step, from the start, sorted.
    pub going_after: Vec<Duration>,
    /// Streams that could not be opened (or failed before their first step).
    pub failed: u64,
    /// The first failure seen.
    pub first_error: Option<tonic::Status>,
    /// The steady window's length.
    pub window: Duration,
    /// Messages and steps received in the window.
    pub messages: u64,
    /// Steps received in the window.
    pub steps: u64,
    /// Each probe: its latency, or the status it failed with.
    pub probes: Vec<Result<Duration, tonic::Code>>,
    /// The server's usage over the window, when its pid was given.
    pub server: Option<ServerUsage>,
}

/// The server process's usage, read from `/proc`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ServerUsage {
    /// CPU time (user and system) spent in the window.
    pub cpu: Duration,
    /// Threads at the end of the window.
    pub threads: u64,
    /// Resident memory at the end of the window, in KiB.
    pub rss_kib: u64,
}

/// Counters the stream tasks share.
#[derive(Default)]
struct Shared {
    messages: AtomicU64,
    steps: AtomicU64,
    failed: AtomicU64,
    first_error: std::sync::Mutex<Option<tonic::Status>>,
}

/// Runs the plan over `channels` (streams spread evenly) and `probe` (the unary
/// probes' own connection).
pub async fn run(channels: Vec<Channel>, probe: Channel, plan: &StreamPlan) -> StreamSummary {
    let started = Instant::now();
    let shared = Arc::new(Shared::default());
    let (going_sender, mut going) = tokio::sync::mpsc::unbounded_channel();
    let end = Arc::new(tokio::sync::Notify::new());
    let mut tasks = Vec::with_capacity(plan.streams);
    for index in 0..plan.streams {
        let slot = StreamSlot {
            client: SudokuServiceClient::new(channels[index % channels.len()].clone()),
            index,
            going: going_sender.clone(),
            started,
        };
        let (plan, shared, end) = (plan.clone(), shared.clone(), end.clone());
        tasks.push(tokio::spawn(async move {
            tokio::select! {
                () = keep_open(slot, &plan, &shared) => {}
                () = end.notified() => {}
            }
        }));
    }
    drop(going_sender);
    let mut summary = StreamSummary::default();
    let opening_ends = tokio::time::Instant::now() + plan.opening;
    let settled = |going: usize| going + (shared.failed.load(Ordering::Relaxed) as usize);
    while settled(summary.going_after.len()) < plan.streams {
        match tokio::time::timeout_at(opening_ends, going.recv()).await {
            Ok(Some(after)) => summary.going_after.push(after),
            Ok(None) | Err(_) => break,
        }
    }

    measure_window(&mut summary, &shared, probe, plan).await;
    end.notify_waiters();
    for task in tasks {
        task.abort();
    }
    summary.going_after.sort_unstable();
    summary.failed = shared.failed.load(Ordering::Relaxed);
    summary.first_error = shared
        .first_error
        .lock()
        .ok()
        .and_then(|error| error.clone());
    summary
}

/// The steady window once the streams are going: messages and steps received,
/// the probes, and the server's CPU time, threads and memory.
async fn measure_window(
    summary: &mut StreamSummary,
    shared: &Shared,
    probe: Channel,
    plan: &StreamPlan,
) {
    let window_began = Instant::now();
    let cpu_before = plan.server_pid.and_then(cpu_time);
    let (messages, steps) = (
        shared.messages.load(Ordering::Relaxed),
        shared.steps.load(Ordering::Relaxed),
    );
    let window_ends = window_began + plan.window;
    summary.probes = probes(probe, plan, window_ends).await;
    tokio::time::sleep_until(window_ends.into()).await;
    summary.window = window_began.elapsed();
    summary.messages = shared.messages.load(Ordering::Relaxed) - messages;
    summary.steps = shared.steps.load(Ordering::Relaxed) - steps;
    if let (Some(pid), Some(before)) = (plan.server_pid, cpu_before) {
        let (threads, rss_kib) = threads_and_rss(pid).unwrap_or_default();
        summary.server = cpu_time(pid).map(|after| ServerUsage {
            cpu: after.saturating_sub(before),
            threads,
            rss_kib,
        });
    }
}

/// One of the plan's streams: its connection, its number (which puzzle it starts
/// with), where it tells that it got going, and when the run began.
struct StreamSlot {
    client: SudokuServiceClient<Channel>,
    index: usize,
    going: tokio::sync::mpsc::UnboundedSender<Duration>,
    started: Instant,
}

/// One stream slot: opens a stream, reads it to its end, opens the next.
async fn keep_open(slot: StreamSlot, plan: &StreamPlan, shared: &Shared) {
    let StreamSlot {
        mut client,
        index,
        going,
        started,
    } = slot;
    let mut reported = false;
    let mut puzzle = index;
    loop {
        let request = pb::SolveStepsRequest {
            puzzle: plan.puzzles[puzzle % plan.puzzles.len()].clone(),
            algorithm: plan.algorithm,
            max_batch: plan.max_batch,
            step_interval_ms: u32::try_from(plan.pace.as_millis()).unwrap_or(u32::MAX),
            ..Default::default()
        };
        puzzle += 1;
        let stream = client
            .solve_steps(authorized(request, plan.authorization.as_ref()))
            .await;
        let mut stream = match stream {
            Ok(stream) => stream.into_inner(),
            Err(status) => return failed(shared, status, reported),
        };
        loop {
            match stream.message().await {
                Ok(Some(message)) => {
                    shared.messages.fetch_add(1, Ordering::Relaxed);
                    if let Some(pb::solve_steps_response::Event::Steps(batch)) = message.event {
                        shared
                            .steps
                            .fetch_add(batch.steps.len() as u64, Ordering::Relaxed);
                        if !reported {
                            reported = true;
                            let _ = going.send(started.elapsed());
                        }
                    }
                }
                Ok(None) => break,
                Err(status) => return failed(shared, status, reported),
            }
        }
    }
}

fn failed(shared: &Shared, status: tonic::Status, was_going: bool) {
    if !was_going {
        shared.failed.fetch_add(1, Ordering::Relaxed);
    }
    if let Ok(mut first) = shared.first_error.lock() {
        first.get_or_insert(status);
    }
}

/// Unary solves of the probe puzzles, one after another, until each was made once
/// or the window ends.
async fn probes(
    channel: Channel,
    plan: &StreamPlan,
    until: Instant,
) -> Vec<Result<Duration, tonic::Code>> {
    let mut client = SudokuServiceClient::new(channel);
    let mut results = Vec::new();
    for puzzle in &plan.probes {
        if Instant::now() >= until {
            break;
        }
        let request = pb::SolveRequest {
            puzzle: puzzle.clone(),
            algorithm: plan.probe_algorithm,
            ..Default::default()
        };
        let mut request = authorized(request, plan.authorization.as_ref());
        request.set_timeout(plan.probe_timeout);
        let begun = Instant::now();
        results.push(
            client
                .solve(request)
                .await
                .map(|_| begun.elapsed())
                .map_err(|status| status.code()),
        );
    }
    results
}

/// CPU time (user plus system) of process `pid` so far, from `/proc/PID/stat`.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces), from field 3 on.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |field: usize| fields.get(field - 3)?.parse::<u64>().ok();
    let total = ticks(14)? + ticks(15)?;
    // USER_HZ is 100 on every Linux architecture we run on.
    Some(Duration::from_millis(total * 10))
}

/// Threads and resident memory (KiB) of process `pid`, from `/proc/PID/status`.
fn threads_and_rss(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let value = |name: &str| {
        status
            .lines()
            .find(|line| line.starts_with(name))?
            .split_whitespace()
            .nth(1)?
            .parse::<u64>()
            .ok()
    };
    Some((value("Threads:")?, value("VmRSS:")?))
}
