//! `/readyz` and `/livez`: on the gRPC port over HTTP/1.1, HTTP/1.0 without a
//! Host header and h2c, outside auth, and on the metrics port; readiness lost the
//! moment shutdown begins while new calls are still served through the drain
//! delay, and the server stopping once the delay is over; with no delay, GOAWAY at
//! once: the connection takes no new stream while the one in flight completes.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::server::{TestServer, start_with_transport};
use sudokud::pb;
use sudokud::pb::sudoku_service_client::SudokuServiceClient;
use sudokud::service::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::transport::Channel;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

/// The status code and body of a raw HTTP/1.x request `head` (ending in a blank line).
async fn http1(address: SocketAddr, head: &str) -> (u16, String) {
    let mut socket = tokio::net::TcpStream::connect(address).await.unwrap();
    socket.write_all(head.as_bytes()).await.unwrap();
    let mut response = String::new();
    socket.read_to_string(&mut response).await.unwrap();
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    (status, body.to_owned())
}

/// `GET path` over HTTP/1.1.
async fn get(address: SocketAddr, path: &str) -> (u16, String) {
    let head = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    http1(address, &head).await
}

/// `GET path` over HTTP/2 with prior knowledge (h2c), as HAProxy's checks send it.
async fn h2c_get(address: SocketAddr, path: &str) -> (u16, String) {
    let tcp = tokio::net::TcpStream::connect(address).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut client = client.ready().await.unwrap();
    let request = http::Request::get(format!("http://{address}{path}"))
        .body(())
        .unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let response = response.await.unwrap();
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let mut bytes = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.unwrap();
        let _ = body.flow_control().release_capacity(chunk.len());
        bytes.extend_from_slice(&chunk);
    }
    (status, String::from_utf8(bytes).unwrap())
}

/// A metrics listener sharing the server's metrics and readiness.
async fn metrics_port(server: &TestServer) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(sudokud::server::serve_metrics(
        listener,
        server.metrics.clone(),
        server.readiness.clone(),
        std::future::pending(),
    ));
    address
}

/// A server with a bearer token and `drain_delay`.
async fn guarded(drain_delay: Duration) -> TestServer {
    let transport = sudokud::server::Transport {
        bearer_token: Some("s3cret".to_owned()),
        ..Default::default()
    };
    let limits = Limits {
        drain_delay,
        ..Limits::default()
    };
    start_with_transport(limits, transport).await
}

#[tokio::test]
async fn probes_answer_over_http1_and_h2c_outside_auth_and_on_the_metrics_port() {
    let server = guarded(Duration::ZERO).await;
    let metrics = metrics_port(&server).await;
    for address in [server.address, metrics] {
        assert_eq!(get(address, "/readyz").await, (200, "ready\n".to_owned()));
        assert_eq!(get(address, "/livez").await, (200, "alive\n".to_owned()));
        let bare = http1(address, "GET /readyz HTTP/1.0\r\n\r\n").await;
        assert_eq!(bare, (200, "ready\n".to_owned()));
    }
    assert_eq!(
        h2c_get(server.address, "/readyz").await,
        (200, "ready\n".to_owned())
    );
    assert_eq!(
        h2c_get(server.address, "/livez").await,
        (200, "alive\n".to_owned())
    );
    // The token still guards the service itself.
    let solve = pb::SolveRequest {
        puzzle: common::puzzles("euler96_50.txt")[0].clone(),
        ..Default::default()
    };
    let status = server.client.clone().solve(solve).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::Unauthenticated);
}

/// A client on a connection of its own, with the token.
async fn fresh_client(address: SocketAddr) -> SudokuServiceClient<Channel> {
    let channel = Channel::from_shared(format!("http://{address}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    SudokuServiceClient::new(channel)
}

#[tokio::test]
async fn shutdown_turns_readyz_503_at_once_and_new_calls_are_served_through_the_drain_delay() {
    let mut server = guarded(Duration::from_secs(600)).await;
    let metrics = metrics_port(&server).await;
    assert_eq!(get(server.address, "/readyz").await.0, 200);
    server.shutdown.take().unwrap().send(()).unwrap();
    // Readiness flips in the server's task: wait for it, within a bound.
    tokio::time::timeout(Duration::from_secs(10), async {
        while server.readiness.is_ready() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("readiness not lost within 10 s of the shutdown signal");
    for address in [server.address, metrics] {
        assert_eq!(
            get(address, "/readyz").await,
            (503, "shutting down\n".to_owned())
        );
        assert_eq!(get(address, "/livez").await.0, 200);
    }
    assert_eq!(h2c_get(server.address, "/readyz").await.0, 503);
    let mut health = HealthClient::new(server.channel.clone());
    let status = health
        .check(HealthCheckRequest {
            service: "sudoku.v1.SudokuService".to_owned(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(status.status(), ServingStatus::NotServing);
    // A new connection and a new call, during the drain delay.
    let mut client = fresh_client(server.address).await;
    let puzzle = common::puzzles("euler96_50.txt")[0].clone();
    let mut request = tonic::Request::new(pb::SolveRequest {
        puzzle,
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert("authorization", "Bearer s3cret".parse().unwrap());
    let solved = client.solve(request).await.unwrap().into_inner();
    assert_eq!(solved.solution.len(), 81);
}

#[tokio::test]
async fn the_server_stops_once_the_drain_delay_is_over() {
    let mut server = guarded(Duration::from_millis(200)).await;
    server.shutdown.take().unwrap().send(()).unwrap();
    let stopped = tokio::time::timeout(Duration::from_secs(30), &mut server.task).await;
    stopped
        .expect("the server still runs 30 s after a 0.2 s drain delay")
        .unwrap()
        .unwrap();
    assert!(!server.readiness.is_ready());
}

/// One gRPC message in its length-prefixed frame.
fn grpc_frame(message: &impl prost::Message) -> bytes::Bytes {
    let body = message.encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&(body.len() as u32).to_be_bytes());
    frame.extend_from_slice(&body);
    frame.into()
}

/// Opens a gRPC call on a raw HTTP/2 connection: `Err` when the connection
/// takes no new stream (it got GOAWAY) or the server refused this one.
async fn open_call(
    client: &h2::client::SendRequest<bytes::Bytes>,
    method: &str,
    message: &impl prost::Message,
) -> Result<h2::RecvStream, h2::Error> {
    let mut client = client.clone().ready().await?;
    let request = http::Request::post(format!("http://sudokud/sudoku.v1.SudokuService/{method}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
    let (response, mut body) = client.send_request(request, false)?;
    body.send_data(grpc_frame(message), true)?;
    let response = response.await?;
    assert_eq!(response.status(), 200);
    Ok(response.into_body())
}

/// Reads a call's body to its end: its messages' bytes and its `grpc-status`.
async fn read_call(mut body: h2::RecvStream) -> (Vec<u8>, Option<String>) {
    let mut bytes = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.unwrap();
        let _ = body.flow_control().release_capacity(chunk.len());
        bytes.extend_from_slice(&chunk);
    }
    let trailers = body.trailers().await.unwrap().unwrap_or_default();
    let status = trailers
        .get("grpc-status")
        .map(|value| value.to_str().unwrap().to_owned());
    (bytes, status)
}

/// The messages of a gRPC body.
fn messages<M: prost::Message + Default>(mut bytes: &[u8]) -> Vec<M> {
    let mut out = Vec::new();
    while bytes.len() >= 5 {
        let length = u32::from_be_bytes(bytes[1..5].try_into().unwrap()) as usize;
        out.push(M::decode(&bytes[5..5 + length]).unwrap());
        bytes = &bytes[5 + length..];
    }
    assert!(bytes.is_empty(), "a partial message at the end");
    out
}

/// With no drain delay, shutdown sends GOAWAY at once: the connection takes no new
/// stream, and the stream in flight on it still runs to its end, status OK.
#[tokio::test]
async fn with_no_drain_delay_goaway_refuses_new_streams_and_the_call_in_flight_completes() {
    let mut server = common::server::start().await;
    let tcp = tokio::net::TcpStream::connect(server.address)
        .await
        .unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let paced = pb::SolveStepsRequest {
        puzzle: common::puzzles("euler96_50.txt")[1].clone(),
        algorithm: pb::Algorithm::Backtracking.into(),
        step_interval_ms: 2,
        max_batch: 1,
        ..Default::default()
    };
    let mut in_flight = open_call(&client, "SolveSteps", &paced).await.unwrap();
    // The stream has begun: its first message arrived.
    let first = in_flight.data().await.unwrap().unwrap();
    let _ = in_flight.flow_control().release_capacity(first.len());
    server.shutdown.take().unwrap().send(()).unwrap();

    let solve = pb::SolveRequest {
        puzzle: common::puzzles("euler96_50.txt")[0].clone(),
        ..Default::default()
    };
    // Calls opened before the GOAWAY arrives are answered; once it has, the
    // connection opens none. Each try is a whole round trip: no timing involved.
    let mut refused = None;
    for _ in 0..10_000 {
        match open_call(&client, "Solve", &solve).await {
            Ok(body) => assert_eq!(read_call(body).await.1.as_deref(), Some("0")),
            Err(error) => {
                refused = Some(error);
                break;
            }
        }
    }
    let refused = refused.expect("the connection still took new streams");
    assert!(
        refused.is_go_away() || refused.reason() == Some(h2::Reason::REFUSED_STREAM),
        "{refused:?}"
    );

    let (rest, status) = read_call(in_flight).await;
    assert_eq!(status.as_deref(), Some("0"));
    let mut bytes = first.to_vec();
    bytes.extend_from_slice(&rest);
    let messages: Vec<pb::SolveStepsResponse> = messages(&bytes);
    let steps: usize = messages
        .iter()
        .map(|message| match &message.event {
            Some(pb::solve_steps_response::Event::Steps(batch)) => batch.steps.len(),
            _ => 0,
        })
        .sum();
    let Some(pb::solve_steps_response::Event::Finished(finished)) = &messages.last().unwrap().event
    else {
        panic!("the stream did not end with finished");
    };
    let stats = finished.stats.unwrap();
    assert_eq!(steps as u64, stats.placements + stats.backtracks);
    tokio::time::timeout(Duration::from_secs(30), server.task)
        .await
        .expect("the server did not stop once its last stream ended")
        .unwrap()
        .unwrap();
}
