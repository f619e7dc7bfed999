//! Every call gets one tracing span with its method, algorithm, status code, steps
//! and elapsed time, closed by one event. A global JSON subscriber captures them.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use sudokud::pb::{SolveRequest, SolveStepsRequest};

/// Log output collected in memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The closing events of calls, as (message, span fields) pairs.
fn call_events(captured: &Captured) -> Vec<String> {
    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    text.lines()
        .filter(|line| line.contains("\"name\":\"call\""))
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn each_call_is_one_span_closed_by_one_event() {
    let captured = Captured::default();
    let writer = captured.clone();
    tracing_subscriber::fmt()
        .json()
        .with_env_filter("sudokud=debug")
        .with_writer(move || writer.clone())
        .init();
    let server = common::server::start().await;
    let puzzle = common::puzzles("euler96_50.txt")[0].clone();

    let mut client = server.client.clone();
    let solved = client
        .solve(SolveRequest {
            puzzle: puzzle.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    client
        .solve(SolveRequest {
            puzzle: "12".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    let mut stream = client
        .solve_steps(SolveStepsRequest {
            puzzle,
            algorithm: sudokud::pb::Algorithm::Singles.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    while stream.message().await.unwrap().is_some() {}
    // The stream's closing event is written by the solving thread after it sends
    // the last message; wait for the tracker to see the solve end.
    let mut live = server.tracker.subscribe();
    live.wait_for(|&n| n == 0).await.unwrap();

    let events = call_events(&captured);
    assert_eq!(events.len(), 3, "{events:#?}");
    let steps = solved.stats.unwrap().placements + solved.stats.unwrap().backtracks;
    assert!(events[0].contains("\"method\":\"Solve\""), "{}", events[0]);
    assert!(events[0].contains("\"code\":\"Ok\""), "{}", events[0]);
    assert!(
        events[0].contains("\"algorithm\":\"bitboard\""),
        "{}",
        events[0]
    );
    assert!(
        events[0].contains(&format!("\"steps\":{steps}")),
        "{}",
        events[0]
    );
    assert!(events[0].contains("\"elapsed_us\":"), "{}", events[0]);
    assert!(events[0].contains("\"peer\":\"127.0.0.1:"), "{}", events[0]);
    assert!(
        events[1].contains("\"code\":\"InvalidArgument\""),
        "{}",
        events[1]
    );
    assert!(
        events[2].contains("\"method\":\"SolveSteps\""),
        "{}",
        events[2]
    );
    assert!(
        events[2].contains("\"algorithm\":\"singles\""),
        "{}",
        events[2]
    );
    assert!(events[2].contains("\"code\":\"Ok\""), "{}", events[2]);
}
