//! Thousands of paced streams at once against the real server on `127.0.0.1:0`:
//! every one gets going, the process's thread count does not grow with them, no
//! more slices compute at once than there are slots, and a unary solve past the
//! inline budget still completes while they are open. A test binary of its own, so
//! that `/proc/self/status` counts this test's threads only.

mod common;

use std::time::Duration;

use common::puzzles;
use common::server::start_with;
use sudokud::pb::sudoku_service_client::SudokuServiceClient;
use sudokud::pb::{self, Algorithm, Outcome};
use sudokud::service::Limits;
use tonic::transport::Channel;

const STREAMS: usize = 2_000;
/// Streams per connection (the server allows 1,024).
const PER_CONNECTION: usize = 500;
const SLOTS: usize = 2;

/// The threads of this process (Linux), or `None` elsewhere.
fn threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("Threads:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_paced_streams_hold_no_thread_each() {
    let server = start_with(Limits {
        max_concurrent_solves: SLOTS,
        ..Limits::default()
    })
    .await;
    let mut channels = Vec::new();
    for _ in 0..STREAMS.div_ceil(PER_CONNECTION) {
        let channel = Channel::from_shared(format!("http://{}", server.address))
            .unwrap()
            .connect()
            .await
            .expect("cannot connect");
        channels.push(channel);
    }
    // Everything this process needs is running: the test's runtime, the server's
    // compute pool, the connections.
    let before = threads();

    let request = pb::SolveStepsRequest {
        puzzle: puzzles("plb_hard20.txt")[0].clone(),
        algorithm: Algorithm::Backtracking.into(),
        step_interval_ms: 200,
        ..Default::default()
    };
    let mut opening = Vec::new();
    for index in 0..STREAMS {
        let mut client = SudokuServiceClient::new(channels[index / PER_CONNECTION].clone());
        let request = request.clone();
        opening.push(tokio::spawn(async move {
            let mut stream = client.solve_steps(request).await?.into_inner();
            // `started`, then the first step.
            for _ in 0..2 {
                stream
                    .message()
                    .await?
                    .ok_or_else(|| tonic::Status::internal("the stream ended early"))?;
            }
            Ok::<_, tonic::Status>(stream)
        }));
    }
    let mut streams = Vec::new();
    for opened in opening {
        let stream = tokio::time::timeout(Duration::from_secs(60), opened)
            .await
            .expect("a stream did not get going within 60 s")
            .unwrap()
            .expect("a stream failed");
        streams.push(stream);
    }
    assert_eq!(server.tracker.streams_open(), STREAMS);

    // A unary solve past the inline budget (2,048 steps) while they pace.
    let mut client = server.client.clone();
    let mut solve = tonic::Request::new(pb::SolveRequest {
        puzzle: puzzles("norvig_top95.txt")[0].clone(),
        algorithm: Algorithm::Singles.into(),
        ..Default::default()
    });
    solve.set_timeout(Duration::from_secs(30));
    let reply = client
        .solve(solve)
        .await
        .expect("the solve failed")
        .into_inner();
    assert_eq!(reply.outcome(), Outcome::Solved);
    let stats = reply.stats.unwrap();
    assert!(
        stats.placements + stats.backtracks > 2048,
        "the solve fit in the inline budget: {stats:?}"
    );

    // Every stream is still stepping.
    for stream in &mut streams {
        let message = tokio::time::timeout(Duration::from_secs(30), stream.message())
            .await
            .expect("a stream stalled")
            .unwrap();
        assert!(message.is_some(), "a stream ended");
    }
    if let (Some(before), Some(after)) = (before, threads()) {
        assert!(
            after <= before + 2,
            "{STREAMS} streams took threads: {before} before, {after} with them"
        );
    }
    assert!(
        server.tracker.peak_computing() <= SLOTS,
        "{} slices computed at once with {SLOTS} slots",
        server.tracker.peak_computing()
    );
    drop(streams);
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(Duration::from_secs(30), live.wait_for(|&n| n == 0))
        .await
        .expect("streams kept running after their clients left")
        .unwrap();
}
