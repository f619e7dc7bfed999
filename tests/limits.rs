//! Limits, against the real server on `127.0.0.1:0`: the solve-slot cap and its
//! bounded queue, deadlines while queued, the message size cap, and backpressure
//! on a stream whose client reads nothing.

mod common;

use std::time::Duration;

use common::puzzles;
use common::server::{TestServer, start_with};
use sudokud::pb::{self, Algorithm};
use sudokud::service::Limits;
use tonic::{Code, Request};

/// The defeater of plain backtracking: about 69 million placements.
fn long_request() -> pb::SolveRequest {
    pb::SolveRequest {
        puzzle: puzzles("plb_hard20.txt")[0].clone(),
        algorithm: Algorithm::Backtracking.into(),
        ..Default::default()
    }
}

fn one_slot(max_queue: usize) -> Limits {
    Limits {
        max_concurrent_solves: 1,
        max_queue,
        ..Limits::default()
    }
}

/// Starts a long unary solve in the background and waits until it computes.
async fn occupy_the_slot(server: &TestServer) -> tokio::task::JoinHandle<()> {
    let mut client = server.client.clone();
    let call = tokio::spawn(async move {
        let _ = client.solve(long_request()).await;
    });
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(Duration::from_secs(10), live.wait_for(|&n| n == 1))
        .await
        .expect("the first solve never started")
        .unwrap();
    call
}

async fn until_idle(server: &TestServer) {
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(Duration::from_secs(10), live.wait_for(|&n| n == 0))
        .await
        .expect("a solve kept running")
        .unwrap();
}

#[tokio::test]
async fn a_full_queue_turns_calls_away_with_resource_exhausted() {
    let mut server = start_with(one_slot(0)).await;
    let first = occupy_the_slot(&server).await;
    let status = server.client.solve(long_request()).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("busy"), "{}", status.message());
    let steps = pb::SolveStepsRequest {
        puzzle: puzzles("euler96_50.txt")[0].clone(),
        ..Default::default()
    };
    let status = server.client.solve_steps(steps).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    first.abort();
    until_idle(&server).await;
    // The slot is free again.
    let easy = pb::SolveRequest {
        puzzle: puzzles("euler96_50.txt")[0].clone(),
        ..Default::default()
    };
    server.client.solve(easy).await.unwrap();
}

/// Slots rotate every 100 µs or so, so only a deadline shorter than that passes in
/// line: here one that has passed on arrival (1 ms, less the server's slack).
#[tokio::test]
async fn a_call_whose_deadline_passes_in_line_gets_deadline_exceeded() {
    let mut server = start_with(one_slot(4)).await;
    let first = occupy_the_slot(&server).await;
    let mut queued = Request::new(pb::SolveRequest {
        puzzle: puzzles("euler96_50.txt")[0].clone(),
        ..Default::default()
    });
    queued.set_timeout(Duration::from_millis(1));
    let status = server.client.solve(queued).await.unwrap_err();
    common::assert_deadline(&status);
    let metrics = server.metrics.render();
    assert!(
        metrics.contains("sudokud_limit_rejections_total{limit=\"queue_deadline\"} 1"),
        "{metrics}"
    );
    first.abort();
    until_idle(&server).await;
}

/// A long solve shares its slot: a short call behind it is answered.
#[tokio::test]
async fn a_long_solve_hands_its_slot_to_a_call_in_line() {
    let mut server = start_with(one_slot(4)).await;
    let first = occupy_the_slot(&server).await;
    let mut queued = Request::new(pb::SolveRequest {
        puzzle: puzzles("euler96_50.txt")[0].clone(),
        ..Default::default()
    });
    queued.set_timeout(Duration::from_secs(10));
    let reply = server.client.solve(queued).await.unwrap().into_inner();
    assert_eq!(reply.outcome(), pb::Outcome::Solved);
    assert_eq!(server.tracker.live(), 1, "the long solve goes on");
    first.abort();
    until_idle(&server).await;
}

/// A message over `--max-message-bytes` gets `RESOURCE_EXHAUSTED` naming the limit
/// (as grpc-go and grpc-java answer), on unary and streaming calls alike, and the
/// connection goes on serving calls within it.
#[tokio::test]
async fn an_oversized_message_gets_resource_exhausted_with_the_limit() {
    let mut server = start_with(Limits {
        max_message_bytes: 1024,
        ..Limits::default()
    })
    .await;
    let huge = ".".repeat(4096);
    let status = server
        .client
        .solve(pb::SolveRequest {
            puzzle: huge.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(
        status.message().contains("limit of 1024 bytes"),
        "{status:?}"
    );
    let status = server
        .client
        .solve_steps(pb::SolveStepsRequest {
            puzzle: huge,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let fits = server
        .client
        .solve(pb::SolveRequest {
            puzzle: common::puzzles("euler96_50.txt")[0].clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(fits.outcome(), pb::Outcome::Solved);
}

#[tokio::test]
async fn a_stream_nobody_reads_pauses_its_solver() {
    let limits = Limits::default();
    let batch = 16u64;
    let server = start_with(limits.clone()).await;
    let mut client = server.client.clone();
    let request = pb::SolveStepsRequest {
        max_batch: batch as u32,
        ..pb::SolveStepsRequest {
            puzzle: long_request().puzzle,
            algorithm: Algorithm::Backtracking.into(),
            ..Default::default()
        }
    };
    // Open the stream and read nothing from it.
    let _stream = client.solve_steps(request).await.unwrap().into_inner();
    let mut waiting = server.tracker.subscribe_waiting();
    tokio::time::timeout(Duration::from_secs(10), waiting.wait_for(|&n| n == 1))
        .await
        .expect("the solver never waited for its client")
        .unwrap();
    // What was produced fits in the channel plus the HTTP/2 flow-control windows
    // (a step encodes to at least 8 bytes; two 64 KiB windows at most, with room to
    // spare), far below the 69 million steps of the whole search.
    let bound = (limits.stream_buffer as u64 + 2) * batch + 2 * 1024 * 1024 / 8;
    let sent = server.tracker.steps_sent();
    assert!(
        sent > 0 && sent <= bound,
        "{sent} steps sent, bound {bound}"
    );
    assert_eq!(
        server.tracker.live(),
        1,
        "the solver is paused, not finished"
    );
}

#[tokio::test]
async fn the_server_caps_how_long_a_stream_runs() {
    let mut server = start_with(Limits {
        max_stream_duration: Duration::from_millis(200),
        ..Limits::default()
    })
    .await;
    let request = pb::SolveStepsRequest {
        puzzle: long_request().puzzle,
        algorithm: Algorithm::Backtracking.into(),
        ..Default::default()
    };
    let mut stream = server
        .client
        .solve_steps(request)
        .await
        .unwrap()
        .into_inner();
    let status = loop {
        match stream.message().await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended without a status"),
            Err(status) => break status,
        }
    };
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    until_idle(&server).await;
}

#[tokio::test]
async fn paced_streams_are_never_turned_away_by_a_full_queue() {
    // One slot, no queue: yet several dashboards can watch paced solves at once
    // (their steps take the slot in turns, as work already admitted).
    let server = start_with(one_slot(0)).await;
    let mut streams = Vec::new();
    for _ in 0..5 {
        let mut client = server.client.clone();
        let request = pb::SolveStepsRequest {
            puzzle: long_request().puzzle,
            algorithm: Algorithm::Backtracking.into(),
            step_interval_ms: 5,
            ..Default::default()
        };
        let mut stream = client.solve_steps(request).await.unwrap().into_inner();
        for _ in 0..3 {
            stream.message().await.unwrap().expect("a message");
        }
        streams.push(stream);
    }
    assert_eq!(server.tracker.live(), 5);
    drop(streams);
    until_idle(&server).await;
}

#[tokio::test]
async fn the_stream_past_the_cap_is_turned_away_and_the_others_go_on() {
    let server = start_with(Limits {
        max_open_streams: 3,
        ..Limits::default()
    })
    .await;
    let request = pb::SolveStepsRequest {
        puzzle: long_request().puzzle,
        algorithm: Algorithm::Backtracking.into(),
        step_interval_ms: 5,
        ..Default::default()
    };
    let mut streams = Vec::new();
    for _ in 0..3 {
        let mut client = server.client.clone();
        let mut stream = client
            .solve_steps(request.clone())
            .await
            .unwrap()
            .into_inner();
        stream.message().await.unwrap().expect("started");
        streams.push(stream);
    }
    let mut client = server.client.clone();
    let status = client.solve_steps(request.clone()).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(
        status.message().contains("cap of 3") && status.message().contains("--max-open-streams"),
        "{}",
        status.message()
    );
    for stream in &mut streams {
        for _ in 0..3 {
            stream.message().await.unwrap().expect("a step");
        }
    }
    // Closing one makes room for another.
    drop(streams.pop());
    let mut open = server.tracker.subscribe();
    tokio::time::timeout(Duration::from_secs(10), open.wait_for(|&n| n == 2))
        .await
        .expect("the closed stream was not counted out")
        .unwrap();
    let mut stream = client.solve_steps(request).await.unwrap().into_inner();
    stream.message().await.unwrap().expect("started");
}

/// A unary call whose client leaves is closed like any other: counted under
/// `calls{method="Solve",code="Cancelled"}` and in `cancellations` (tonic drops
/// the call's future, and the call's drop guard closes it).
#[tokio::test]
async fn a_unary_call_the_client_leaves_is_counted_as_cancelled() {
    let server = start_with(one_slot(4)).await;
    let call = occupy_the_slot(&server).await;
    call.abort();
    until_idle(&server).await;
    let counted = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let text = server.metrics.render();
            let cancelled = text.lines().any(|line| {
                line.contains("method=\"Solve\"")
                    && line.contains("code=\"Cancelled\"")
                    && line.ends_with(" 1")
            });
            if cancelled
                && text
                    .lines()
                    .any(|line| line.starts_with("sudokud_cancellations_total 1"))
            {
                return text;
            }
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(counted.is_ok(), "{}", server.metrics.render());
}
