//! gRPC-Web and the dashboard at the protocol level: raw HTTP/1.1 over a TCP socket
//! to the real server, no gRPC library in between.

mod common;

use common::http::{HttpResponse, http};

use prost::Message;
use sudokud::pb::solve_steps_response::Event;
use sudokud::pb::{self, SolveStepsRequest, SolveStepsResponse};
use sudokud::server::Transport;
use sudokud::service::Limits;

/// Splits a gRPC-Web body into its data messages and its trailer block.
fn frames(mut body: &[u8]) -> (Vec<Vec<u8>>, String) {
    let mut messages = Vec::new();
    let mut trailers = String::new();
    while !body.is_empty() {
        let flags = body[0];
        let length = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        let payload = &body[5..5 + length];
        if flags & 0x80 != 0 {
            trailers.push_str(std::str::from_utf8(payload).unwrap());
        } else {
            messages.push(payload.to_vec());
        }
        body = &body[5 + length..];
    }
    (messages, trailers)
}

fn grpc_web_frame(message: &impl Message) -> Vec<u8> {
    let payload = message.encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    frame.extend_from_slice(&payload);
    frame
}

const GRPC_WEB_HEADERS: [(&str, &str); 3] = [
    ("Content-Type", "application/grpc-web+proto"),
    ("X-Grpc-Web", "1"),
    ("X-User-Agent", "sudokud-test"),
];

/// `SolveSteps` as a gRPC-Web client sends it, with `extra` headers.
async fn solve_steps_over_grpc_web(
    address: std::net::SocketAddr,
    request: &SolveStepsRequest,
    extra: &[(&str, &str)],
) -> HttpResponse {
    let mut headers = GRPC_WEB_HEADERS.to_vec();
    headers.extend_from_slice(extra);
    http(
        address,
        "POST",
        "/sudoku.v1.SudokuService/SolveSteps",
        &headers,
        &grpc_web_frame(request),
    )
    .await
}

#[tokio::test]
async fn solve_steps_over_grpc_web_returns_every_step_and_the_trailer_status() {
    let server = common::server::start().await;
    let puzzle = common::puzzles("norvig_top95.txt")[0].clone();
    let request = SolveStepsRequest {
        puzzle: puzzle.clone(),
        algorithm: pb::Algorithm::Propagation.into(),
        max_batch: 7,
        ..Default::default()
    };
    let response = solve_steps_over_grpc_web(server.address, &request, &[]).await;
    assert_eq!(response.status, 200);
    assert_eq!(
        response.header("content-type"),
        Some("application/grpc-web+proto")
    );
    let (messages, trailers) = frames(&response.body);
    assert!(trailers.contains("grpc-status:0"), "{trailers:?}");

    let events: Vec<Event> = messages
        .iter()
        .map(|bytes| {
            SolveStepsResponse::decode(bytes.as_slice())
                .unwrap()
                .event
                .unwrap()
        })
        .collect();
    assert!(matches!(events.first(), Some(Event::Started(_))));
    let Some(Event::Finished(finished)) = events.last() else {
        panic!("the stream did not end with finished: {:?}", events.last());
    };
    let steps: Vec<pb::Step> = events
        .iter()
        .filter_map(|event| match event {
            Event::Steps(batch) => Some(batch.steps.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let stats = finished.stats.unwrap();
    assert_eq!(steps.len() as u64, stats.placements + stats.backtracks);
    assert!(steps.windows(2).all(|pair| pair[1].seq == pair[0].seq + 1));
    assert!(common::is_solution(&puzzle, &finished.solution));
    assert_eq!(common::replay(&puzzle, &steps), finished.solution);
}

#[tokio::test]
async fn a_bad_puzzle_over_grpc_web_gets_its_status_in_the_trailers() {
    let server = common::server::start().await;
    let request = SolveStepsRequest {
        puzzle: "12".into(),
        ..Default::default()
    };
    let response = solve_steps_over_grpc_web(server.address, &request, &[]).await;
    assert_eq!(response.status, 200);
    // A call that fails before any message is "trailers only": the status comes
    // in the headers.
    let (messages, trailers) = frames(&response.body);
    assert!(messages.is_empty());
    let status = response
        .header("grpc-status")
        .map(str::to_owned)
        .or_else(|| {
            trailers
                .lines()
                .find_map(|line| line.strip_prefix("grpc-status:").map(str::to_owned))
        });
    assert_eq!(status.as_deref(), Some("3"), "{:?}", response.headers);
}

#[tokio::test]
async fn cors_preflight_allows_configured_origins_only() {
    let transport = Transport {
        cors_allowed_origins: vec!["http://dashboard.test".to_owned()],
        ..Transport::default()
    };
    let server = common::server::start_with_transport(Limits::default(), transport).await;
    let preflight = |origin: &'static str| async move {
        let headers = [
            ("Origin", origin),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "content-type,x-grpc-web,x-user-agent,grpc-timeout",
            ),
        ];
        http(
            server.address,
            "OPTIONS",
            "/sudoku.v1.SudokuService/SolveSteps",
            &headers,
            b"",
        )
        .await
    };
    let allowed = preflight("http://dashboard.test").await;
    assert!(allowed.status < 300, "{}", allowed.status);
    assert_eq!(
        allowed.header("access-control-allow-origin"),
        Some("http://dashboard.test")
    );
    let headers = allowed
        .header("access-control-allow-headers")
        .unwrap()
        .to_ascii_lowercase();
    for name in ["content-type", "x-grpc-web", "x-user-agent", "grpc-timeout"] {
        assert!(headers.contains(name), "{name} not in {headers}");
    }
    let methods = allowed.header("access-control-allow-methods").unwrap();
    assert!(methods.contains("POST"), "{methods}");

    let other = preflight("http://elsewhere.test").await;
    assert_eq!(other.header("access-control-allow-origin"), None);

    // The actual call exposes the gRPC status headers to the page.
    let request = SolveStepsRequest {
        puzzle: common::puzzles("euler96_50.txt")[0].clone(),
        ..Default::default()
    };
    let call = solve_steps_over_grpc_web(
        server.address,
        &request,
        &[("Origin", "http://dashboard.test")],
    )
    .await;
    assert_eq!(
        call.header("access-control-allow-origin"),
        Some("http://dashboard.test")
    );
    let exposed = call
        .header("access-control-expose-headers")
        .unwrap()
        .to_ascii_lowercase();
    assert!(exposed.contains("grpc-status"), "{exposed}");
    assert!(exposed.contains("grpc-message"), "{exposed}");
}

#[tokio::test]
async fn the_dashboard_is_served_at_the_root() {
    let server = common::server::start().await;
    let page = http(server.address, "GET", "/", &[], b"").await;
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    let html = String::from_utf8(page.body).unwrap();
    assert!(html.contains("app.js"), "{html}");
    let script = http(server.address, "GET", "/app.js", &[], b"").await;
    assert_eq!(script.status, 200);
    assert!(!script.body.is_empty());

    let transport = Transport {
        dashboard: false,
        ..Transport::default()
    };
    let bare = common::server::start_with_transport(Limits::default(), transport).await;
    let page = http(bare.address, "GET", "/", &[], b"").await;
    assert_ne!(page.status, 200);
}

/// A browser asks for `/favicon.ico` on every visit: that and any other path that
/// is not a call get 404, while a gRPC-Web call to an unknown method still gets
/// `UNIMPLEMENTED` in its headers.
#[tokio::test]
async fn paths_that_are_not_calls_get_404_and_unknown_methods_unimplemented() {
    let server = common::server::start().await;
    for path in ["/favicon.ico", "/nope", "/sudoku.v1.SudokuService/"] {
        let response = http(server.address, "GET", path, &[], b"").await;
        assert_eq!(response.status, 404, "{path}");
    }
    let call = http(
        server.address,
        "POST",
        "/sudoku.v1.SudokuService/NoSuchMethod",
        &[
            ("Content-Type", "application/grpc-web+proto"),
            ("X-Grpc-Web", "1"),
        ],
        &grpc_web_frame(&SolveStepsRequest::default()),
    )
    .await;
    assert_eq!(call.status, 200);
    assert_eq!(call.header("grpc-status"), Some("12"), "{:?}", call.headers);
}

/// An origin no browser could send stops the server before it serves, naming it.
#[tokio::test]
async fn a_cors_value_that_is_no_origin_stops_the_start() {
    for bad in [
        "dashboard.test",
        "https://dashboard.test/",
        "http://a\u{1}b",
    ] {
        let transport = Transport {
            cors_allowed_origins: vec!["https://fine.test".to_owned(), bad.to_owned()],
            ..Transport::default()
        };
        let server = common::server::start_with_transport(Limits::default(), transport).await;
        let ended = tokio::time::timeout(std::time::Duration::from_secs(30), server.task)
            .await
            .expect("the server should stop at once")
            .unwrap();
        let error = ended
            .expect_err("a bad origin should be an error")
            .to_string();
        assert!(error.contains(&format!("{bad:?}")), "{error}");
    }
}
