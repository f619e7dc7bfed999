//! Graceful shutdown of the real binary: SIGTERM flips health to NOT_SERVING,
//! streams still running end with UNAVAILABLE once the grace has passed, and the
//! process exits 0 soon after.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::puzzles;
use sudokud::pb::sudoku_service_client::SudokuServiceClient;
use sudokud::pb::{self, Algorithm};
use tokio_stream::StreamExt;
use tonic::Code;
use tonic::transport::Channel;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

const GRACE: Duration = Duration::from_secs(1);

/// Starts `sudokud serve` on a free loopback port; returns the child and the address
/// it logged.
fn spawn_server() -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokud"))
        .args(["serve", "--listen", "127.0.0.1:0", "--shutdown-grace"])
        .arg(GRACE.as_secs_f64().to_string())
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("the server exited before it listened")
            .unwrap();
        if let Some(rest) = line.split("address=").nth(1) {
            break rest.split_whitespace().next().unwrap().to_owned();
        }
    };
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, address)
}

#[tokio::test]
async fn sigterm_drains_streams_then_exits_zero() {
    let (mut child, address) = spawn_server();
    let channel = Channel::from_shared(format!("http://{address}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = HealthClient::new(channel.clone());
    let mut watch = health
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        watch.next().await.unwrap().unwrap().status(),
        ServingStatus::Serving
    );

    // Two paced streams that would run for hours.
    let mut client = SudokuServiceClient::new(channel);
    let mut streams = Vec::new();
    for _ in 0..2 {
        let request = pb::SolveStepsRequest {
            puzzle: puzzles("plb_hard20.txt")[0].clone(),
            algorithm: Algorithm::Backtracking.into(),
            step_interval_ms: 20,
            ..Default::default()
        };
        let mut stream = client.solve_steps(request).await.unwrap().into_inner();
        stream.next().await.unwrap().unwrap();
        streams.push(stream);
    }

    let signalled = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());

    assert_eq!(
        watch.next().await.unwrap().unwrap().status(),
        ServingStatus::NotServing
    );
    for mut stream in streams {
        let status = loop {
            match stream.next().await {
                Some(Ok(_)) => continue,
                Some(Err(status)) => break status,
                None => panic!("the stream ended without a status"),
            }
        };
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
        assert!(signalled.elapsed() >= GRACE, "ended before the grace");
    }
    drop(watch);

    let limit = GRACE + Duration::from_secs(2);
    let exit = tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return Some(status);
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                return None;
            }
            std::thread::park_timeout(Duration::from_millis(20));
        }
    })
    .await
    .unwrap();
    let status = exit.expect("the server did not exit within grace + 2 s");
    assert!(status.success(), "{status:?}");
}
