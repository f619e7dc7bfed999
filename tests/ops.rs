//! Operational surface: the gRPC health service (and the `sudokud health` probe
//! command) and server reflection, against the real server on `127.0.0.1:0`.

mod common;

use std::process::Command;

use common::server::start;
use prost::Message;
use tokio_stream::StreamExt;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
use tonic_reflection::pb::v1::{ServerReflectionRequest, ServerReflectionResponse};

fn check_request(service: &str) -> HealthCheckRequest {
    HealthCheckRequest {
        service: service.to_owned(),
    }
}

#[tokio::test]
async fn health_is_serving_after_start_and_not_serving_once_shutdown_begins() {
    let mut server = start().await;
    let mut health = HealthClient::new(server.channel.clone());
    for service in ["", "sudoku.v1.SudokuService"] {
        let status = health
            .check(check_request(service))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(status.status(), ServingStatus::Serving, "{service:?}");
    }
    let mut watch = health
        .watch(check_request("sudoku.v1.SudokuService"))
        .await
        .unwrap()
        .into_inner();
    let first = watch.next().await.unwrap().unwrap();
    assert_eq!(first.status(), ServingStatus::Serving);

    server.shutdown.take().unwrap().send(()).unwrap();
    let next = watch.next().await.unwrap().unwrap();
    assert_eq!(next.status(), ServingStatus::NotServing);
    drop(watch);
    server.task.await.unwrap().unwrap();
}

#[tokio::test]
async fn the_health_command_exits_zero_only_when_serving() {
    let server = start().await;
    let address = server.address.to_string();
    let probe = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sudokud"))
            .arg("health")
            .args(args)
            .output()
            .unwrap()
    };
    let serving = tokio::task::spawn_blocking({
        let address = address.clone();
        move || probe(&["--addr", &address])
    })
    .await
    .unwrap();
    assert!(serving.status.success(), "{serving:?}");
    assert!(String::from_utf8_lossy(&serving.stdout).contains("SERVING"));

    let unknown = tokio::task::spawn_blocking({
        let address = address.clone();
        move || probe(&["--addr", &address, "--service", "no.such.Service"])
    })
    .await
    .unwrap();
    assert!(!unknown.status.success(), "{unknown:?}");

    // Nothing listens on a port we just closed.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_address = closed.local_addr().unwrap().to_string();
    drop(closed);
    let down =
        tokio::task::spawn_blocking(move || probe(&["--addr", &closed_address, "--timeout", "2"]))
            .await
            .unwrap();
    assert!(!down.status.success(), "{down:?}");
}

async fn reflect(server: &common::server::TestServer, request: MessageRequest) -> MessageResponse {
    let mut client = ServerReflectionClient::new(server.channel.clone());
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(request),
    };
    let mut responses = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let response: ServerReflectionResponse = responses.next().await.unwrap().unwrap();
    response.message_response.unwrap()
}

#[tokio::test]
async fn reflection_lists_and_describes_the_service() {
    let server = start().await;
    let MessageResponse::ListServicesResponse(list) =
        reflect(&server, MessageRequest::ListServices(String::new())).await
    else {
        panic!("not a service list");
    };
    let names: Vec<&str> = list.service.iter().map(|s| s.name.as_str()).collect();
    for expected in [
        "sudoku.v1.SudokuService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
    ] {
        assert!(names.contains(&expected), "{names:?} lacks {expected}");
    }

    let MessageResponse::FileDescriptorResponse(files) = reflect(
        &server,
        MessageRequest::FileContainingSymbol("sudoku.v1.SudokuService".to_owned()),
    )
    .await
    else {
        panic!("not a file descriptor");
    };
    let file = files
        .file_descriptor_proto
        .iter()
        .map(|bytes| prost_types::FileDescriptorProto::decode(bytes.as_slice()).unwrap())
        .find(|file| file.package() == "sudoku.v1")
        .expect("the sudoku.v1 file");
    let service = &file.service[0];
    assert_eq!(service.name(), "SudokuService");
    let methods: Vec<&str> = service.method.iter().map(|m| m.name()).collect();
    assert_eq!(
        methods,
        [
            "Solve",
            "SolveSteps",
            "Explain",
            "Hint",
            "Rate",
            "Generate",
            "GenerateMany",
            "SolveBatch",
            "TrueCandidates"
        ]
    );
}

#[tokio::test]
async fn reflection_describes_the_error_details_a_status_carries() {
    // A reflection client (grpcurl) decodes an error's BadRequest detail only
    // when the server can describe google.rpc.BadRequest.
    let server = start().await;
    let MessageResponse::FileDescriptorResponse(files) = reflect(
        &server,
        MessageRequest::FileContainingSymbol("google.rpc.BadRequest".to_owned()),
    )
    .await
    else {
        panic!("google.rpc.BadRequest is not described");
    };
    let described: Vec<(String, String)> = files
        .file_descriptor_proto
        .iter()
        .map(|bytes| prost_types::FileDescriptorProto::decode(bytes.as_slice()).unwrap())
        .flat_map(|file| {
            let package = file.package().to_owned();
            file.message_type
                .iter()
                .map(move |message| (package.clone(), message.name().to_owned()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        described.contains(&("google.rpc".to_owned(), "BadRequest".to_owned())),
        "{described:?}"
    );
}

#[tokio::test]
async fn the_load_generator_reports_what_it_did() {
    let server = start().await;
    for rpc in [
        sudokud::load::Rpc::Health,
        sudokud::load::Rpc::Solve,
        sudokud::load::Rpc::Steps,
    ] {
        let plan = sudokud::load::Plan {
            rpc,
            concurrency: 4,
            duration: std::time::Duration::from_millis(200),
            puzzles: common::puzzles("euler96_50.txt"),
            algorithm: 0,
            authorization: None,
        };
        let summary = sudokud::load::run(server.channel.clone(), &plan).await;
        assert!(summary.calls > 0, "{rpc:?}: {summary:?}");
        assert_eq!(summary.errors, 0, "{rpc:?}");
        assert_eq!(summary.latencies.len() as u64, summary.calls);
        assert!(summary.percentile(50.0) <= summary.percentile(99.0));
        if rpc == sudokud::load::Rpc::Steps {
            assert!(summary.steps >= summary.calls, "{summary:?}");
        }
    }
}

#[tokio::test]
async fn a_balancing_client_spreads_calls_over_two_servers() {
    // tonic balances over a list of endpoints (power of two choices); both replicas
    // must get calls, as they would behind round_robin in other gRPC clients.
    let first = start().await;
    let second = start().await;
    let endpoints = [first.address, second.address].map(|address| {
        tonic::transport::Endpoint::from_shared(format!("http://{address}")).unwrap()
    });
    let channel = tonic::transport::Channel::balance_list(endpoints.into_iter());
    let mut client = sudokud::pb::sudoku_service_client::SudokuServiceClient::new(channel);
    let puzzle = common::puzzles("euler96_50.txt")[0].clone();
    // Calls until both replicas got one: with a random choice each call, a
    // balancer that uses both gets there within a few calls every run; the bound
    // only stops a balancer that never does.
    let mut calls = 0u64;
    let split = loop {
        let request = sudokud::pb::SolveRequest {
            puzzle: puzzle.clone(),
            ..Default::default()
        };
        client.solve(request).await.unwrap();
        calls += 1;
        let split = (
            first.tracker.solves_started(),
            second.tracker.solves_started(),
        );
        if (split.0 > 0 && split.1 > 0) || calls == 10_000 {
            break split;
        }
    };
    assert_eq!(split.0 + split.1, calls, "every call reached one replica");
    assert!(
        split.0 > 0 && split.1 > 0,
        "{calls} calls all went one way: {split:?}"
    );
}

#[tokio::test]
async fn a_bearer_token_guards_the_sudoku_service_but_not_health() {
    let transport = sudokud::server::Transport {
        bearer_token: Some("s3cret".to_owned()),
        ..Default::default()
    };
    let server =
        common::server::start_with_transport(sudokud::service::Limits::default(), transport).await;
    let puzzle = common::puzzles("euler96_50.txt")[0].clone();
    let call = |token: Option<&str>| {
        let mut client = server.client.clone();
        let mut request = tonic::Request::new(sudokud::pb::SolveRequest {
            puzzle: puzzle.clone(),
            ..Default::default()
        });
        if let Some(token) = token {
            request
                .metadata_mut()
                .insert("authorization", token.parse().unwrap());
        }
        async move { client.solve(request).await }
    };
    for token in [
        None,
        Some("Bearer wrong"),
        Some("s3cret"),
        Some("Bearer s3cret "),
    ] {
        let status = call(token).await.unwrap_err();
        assert_eq!(status.code(), tonic::Code::Unauthenticated, "{token:?}");
    }
    call(Some("Bearer s3cret")).await.unwrap();

    // The load generator sends the token it is given.
    for (token, code) in [
        ("s3cret", None),
        ("wrong", Some(tonic::Code::Unauthenticated)),
    ] {
        let plan = sudokud::load::Plan {
            rpc: sudokud::load::Rpc::Solve,
            concurrency: 1,
            duration: std::time::Duration::from_millis(50),
            puzzles: vec![puzzle.clone()],
            algorithm: 0,
            authorization: Some(format!("Bearer {token}").parse().unwrap()),
        };
        // However short the run, each caller makes at least one call.
        let summary = sudokud::load::run(server.channel.clone(), &plan).await;
        assert!(summary.calls + summary.errors >= 1, "{summary:?}");
        assert_eq!(summary.first_error.map(|status| status.code()), code);
    }

    let mut health = HealthClient::new(server.channel.clone());
    let status = health.check(check_request("")).await.unwrap().into_inner();
    assert_eq!(status.status(), ServingStatus::Serving);
}

#[tokio::test]
async fn gzip_is_accepted_and_offered_when_asked_for() {
    use tonic::codec::CompressionEncoding::Gzip;
    let puzzle = common::puzzles("euler96_50.txt")[0].clone();
    for compress_responses in [false, true] {
        let transport = sudokud::server::Transport {
            compress_responses,
            ..Default::default()
        };
        let server = common::server::start_with_transport(Default::default(), transport).await;
        let mut client = server
            .client
            .clone()
            .send_compressed(Gzip)
            .accept_compressed(Gzip);
        let response = client
            .solve(sudokud::pb::SolveRequest {
                puzzle: puzzle.clone(),
                ..Default::default()
            })
            .await
            .unwrap();
        let encoding = response
            .metadata()
            .get("grpc-encoding")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        // A compressed request is read either way; the answer is compressed
        // only when the server is told to.
        let expected = compress_responses.then(|| "gzip".to_owned());
        assert_eq!(encoding, expected);
        assert!(common::is_solution(
            &puzzle,
            &response.into_inner().solution
        ));
    }
}

/// `GET path` over plain HTTP/1.1 on this machine; the whole response as text.
async fn http_get(address: std::net::SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    socket.read_to_string(&mut response).await.unwrap();
    response
}

#[tokio::test]
async fn metrics_count_calls_steps_and_rejections() {
    let mut server = start().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics_address = listener.local_addr().unwrap();
    // The service the test server runs shares its metrics with this handle.
    let metrics = server.metrics.clone();
    tokio::spawn(sudokud::server::serve_metrics(
        listener,
        metrics,
        sudokud::service::Readiness::default(),
        std::future::pending(),
    ));

    let puzzle = common::puzzles("euler96_50.txt")[0].clone();
    let solve = sudokud::pb::SolveRequest {
        puzzle: puzzle.clone(),
        ..Default::default()
    };
    server.client.solve(solve).await.unwrap();
    let bad = sudokud::pb::SolveRequest {
        puzzle: "x".to_owned(),
        ..Default::default()
    };
    server.client.solve(bad).await.unwrap_err();
    let limited = sudokud::pb::SolveStepsRequest {
        puzzle,
        max_steps: 10,
        max_batch: 4,
        ..Default::default()
    };
    let mut stream = server
        .client
        .solve_steps(limited)
        .await
        .unwrap()
        .into_inner();
    while stream
        .message()
        .await
        .is_ok_and(|message| message.is_some())
    {}
    // The solver thread records the stream's end just before it counts itself out.
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        live.wait_for(|&n| n == 0),
    )
    .await
    .unwrap()
    .unwrap();

    let text = http_get(metrics_address, "/metrics").await;
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    for line in [
        r#"sudokud_calls_total{method="Solve",code="Ok"} 1"#,
        r#"sudokud_calls_total{method="Solve",code="InvalidArgument"} 1"#,
        r#"sudokud_calls_total{method="SolveSteps",code="ResourceExhausted"} 1"#,
        r#"sudokud_limit_rejections_total{limit="max_steps"} 1"#,
        "sudokud_steps_sent_total 10",
        "sudokud_solves_in_flight 0",
        "sudokud_streams_open 0",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(text.contains("sudokud_solve_seconds_bucket"), "{text}");
}
