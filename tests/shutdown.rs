//! Graceful shutdown of the real binary: SIGTERM flips health to NOT_SERVING,
//! streams still running go on through the grace and end with UNAVAILABLE once it
//! is over (the server logs it), and the process then exits 0. Every wait is for
//! an event, with a generous bound only against a hang.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::puzzles;
use sudokud::pb::sudoku_service_client::SudokuServiceClient;
use sudokud::pb::{self, Algorithm};
use tokio_stream::StreamExt;
use tonic::Code;
use tonic::transport::Channel;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

const GRACE: Duration = Duration::from_secs(1);

/// How long any one event may take before the test gives up on it.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Starts `sudokud serve` on a free loopback port; returns the child, the address
/// it logged, and its later log lines as they come.
fn spawn_server() -> (Child, String, mpsc::Receiver<String>) {
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
    let (sender, log) = mpsc::channel();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            let _ = sender.send(line);
        }
    });
    (child, address, log)
}

/// Waits for a log line containing `text`.
fn wait_for_line(log: &mpsc::Receiver<String>, text: &str) {
    loop {
        match log.recv_timeout(HANG_GUARD) {
            Ok(line) if line.contains(text) => return,
            Ok(_) => {}
            Err(error) => panic!("no log line with {text:?}: {error}"),
        }
    }
}

#[tokio::test]
async fn sigterm_drains_streams_then_exits_zero() {
    let (mut child, address, log) = spawn_server();
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

    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());

    assert_eq!(
        watch.next().await.unwrap().unwrap().status(),
        ServingStatus::NotServing
    );
    // Calls in flight go on through the grace: each stream still gets steps
    // after health said NOT_SERVING, then ends with UNAVAILABLE.
    for mut stream in streams {
        let mut after_signal = 0u64;
        let status = loop {
            match tokio::time::timeout(HANG_GUARD, stream.next()).await {
                Ok(Some(Ok(_))) => after_signal += 1,
                Ok(Some(Err(status))) => break status,
                Ok(None) => panic!("the stream ended without a status"),
                Err(_) => panic!("the stream neither sent nor ended"),
            }
        };
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
        assert!(after_signal > 0, "the stream got nothing during the grace");
    }
    // The streams ended because the grace was over, not before.
    wait_for_line(&log, "shutdown grace over");
    drop(watch);

    let exit = tokio::task::spawn_blocking(move || child.wait());
    let status = tokio::time::timeout(HANG_GUARD, exit)
        .await
        .expect("the server did not exit after its grace")
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status:?}");
}
