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
    // (The guard writes the log line before it releases the live count.)
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(
        std::time::Duration::from_secs(30),
        live.wait_for(|&n| n == 0),
    )
    .await
    .expect("the stream's solve never ended")
    .unwrap();

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

/// At the default info level there is no span: a call that ends well logs nothing,
/// and one that ended with a server-side error logs one event carrying the call's
/// fields itself.
#[tokio::test]
async fn at_info_level_only_calls_that_end_early_log_and_carry_their_fields() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_env_filter("sudokud=info")
        .with_writer(move || writer.clone())
        .finish();
    // This test's runtime runs on this thread only, the server's tasks included.
    let _default = tracing::subscriber::set_default(subscriber);
    let server = common::server::start_with(sudokud::service::Limits {
        max_steps: 10,
        ..Default::default()
    })
    .await;
    let mut client = server.client.clone();
    let easy = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    client
        .solve(SolveRequest {
            puzzle: common::puzzles("plb_hard20.txt")[0].clone(),
            algorithm: sudokud::pb::Algorithm::Backtracking.into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    client
        .solve(SolveRequest {
            puzzle: easy[..40].into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("call ended early"))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    let line = lines[0];
    for field in [
        "\"method\":\"Solve\"",
        "\"code\":\"ResourceExhausted\"",
        "\"algorithm\":\"backtracking\"",
        "\"steps\":10",
        "\"peer\":\"127.0.0.1:",
        "\"elapsed_us\":",
    ] {
        assert!(line.contains(field), "{field} missing: {line}");
    }
    assert!(!line.contains("\"span\""), "no span at info level: {line}");
}

/// A call carrying a W3C `traceparent` or a B3 header logs the caller's trace id;
/// a malformed header is ignored: the call is answered, its line has no trace id.
#[tokio::test]
async fn a_calls_trace_id_is_in_its_log_and_a_malformed_header_is_ignored() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_env_filter("sudokud=debug")
        .with_writer(move || writer.clone())
        .finish();
    // This test's runtime runs on this thread only, the server's tasks included.
    let _default = tracing::subscriber::set_default(subscriber);
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let w3c = "4bf92f3577b34da6a3ce929d0e0e4736";
    let b3 = "80f198ee56343ba864fe8b2a57d3eff7";
    for (header, value) in [
        ("traceparent", format!("00-{w3c}-00f067aa0ba902b7-01")),
        ("b3", format!("{b3}-e457b5a2e4d86bd1-1")),
        ("traceparent", "00-not-a-trace-01".to_owned()),
    ] {
        let mut request = tonic::Request::new(SolveRequest {
            puzzle: common::puzzles("euler96_50.txt")[0].clone(),
            ..Default::default()
        });
        request
            .metadata_mut()
            .insert(header, value.parse().unwrap());
        client.solve(request).await.unwrap();
    }
    let events = call_events(&captured);
    assert_eq!(events.len(), 3, "{events:#?}");
    assert!(
        events[0].contains(&format!("\"trace_id\":\"{w3c}\"")),
        "{}",
        events[0]
    );
    assert!(
        events[1].contains(&format!("\"trace_id\":\"{b3}\"")),
        "{}",
        events[1]
    );
    assert!(!events[2].contains("trace_id"), "{}", events[2]);
}
