//! Admission of connections, against the real server on `127.0.0.1:0`: a silent
//! connection is closed after the handshake timeout while a real client's idle
//! connection stays; at the connection cap the oldest silent connection makes room
//! for a real caller, and a connection past the cap with none to evict is refused
//! at once. Checked by the server's counters and the sockets, not by timing.

mod common;

use std::time::Duration;

use common::server::{TestServer, start_with_transport};
use sudokud::server::{Admission, Transport};
use sudokud::service::Limits;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

async fn start(max_connections: usize, handshake_timeout: Duration) -> TestServer {
    let transport = Transport {
        admission: Admission {
            max_connections: Some(max_connections),
            handshake_timeout,
        },
        ..Transport::default()
    };
    start_with_transport(Limits::default(), transport).await
}

/// Waits (at most 10 s) until the server closes `socket`.
async fn closed_by_server(socket: &mut TcpStream) {
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_secs(10), socket.read(&mut byte))
        .await
        .expect("the server kept the connection open");
    // End of stream, or a reset: closed either way.
    assert!(matches!(read, Ok(0) | Err(_)), "read {read:?}");
}

fn closed(server: &TestServer, reason: &str) -> u64 {
    let text = server.metrics.render();
    let prefix = format!("sudokud_connections_closed_total{{reason=\"{reason}\"}} ");
    text.lines()
        .find_map(|line| line.strip_prefix(&prefix)?.parse().ok())
        .unwrap_or(0)
}

async fn health(server: &TestServer) -> Result<(), tonic::Status> {
    let channel = Channel::from_shared(format!("http://{}", server.address))
        .unwrap()
        .connect()
        .await
        .map_err(|error| tonic::Status::unavailable(error.to_string()))?;
    let mut client = HealthClient::new(channel);
    let mut request = tonic::Request::new(HealthCheckRequest::default());
    request.set_timeout(Duration::from_secs(5));
    client.check(request).await.map(|_| ())
}

#[tokio::test]
async fn a_silent_connection_is_closed_after_the_handshake_timeout() {
    let server = start(100, Duration::from_millis(300)).await;
    // A real client: connects (preface and SETTINGS at once) and stays idle.
    let channel = Channel::from_shared(format!("http://{}", server.address))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut silent = TcpStream::connect(server.address).await.unwrap();
    closed_by_server(&mut silent).await;
    assert_eq!(closed(&server, "handshake_timeout"), 1);
    // The idle client's connection was past its handshake: still open, and it
    // serves a call now.
    let mut client = HealthClient::new(channel);
    client.check(HealthCheckRequest::default()).await.unwrap();
    assert_eq!(closed(&server, "handshake_timeout"), 1);
}

#[tokio::test]
async fn at_the_cap_the_oldest_silent_connection_makes_room_for_a_caller() {
    let server = start(4, Duration::from_secs(60)).await;
    let mut silent = Vec::new();
    for _ in 0..4 {
        silent.push(TcpStream::connect(server.address).await.unwrap());
    }
    // Every connection is taken, by silent ones: a real caller still gets in.
    health(&server)
        .await
        .expect("a caller at the cap was not answered");
    assert_eq!(closed(&server, "cap"), 1);
    closed_by_server(&mut silent[0]).await;
}

#[tokio::test]
async fn past_the_cap_with_no_silent_connection_a_new_one_is_refused_at_once() {
    let server = start(2, Duration::from_secs(60)).await;
    let mut callers = Vec::new();
    for _ in 0..2 {
        let channel = Channel::from_shared(format!("http://{}", server.address))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut client = HealthClient::new(channel);
        client.check(HealthCheckRequest::default()).await.unwrap();
        callers.push(client);
    }
    let mut refused = TcpStream::connect(server.address).await.unwrap();
    closed_by_server(&mut refused).await;
    // Refused once, not retried in a loop.
    assert_eq!(closed(&server, "cap_refused"), 1);
    // The callers go on.
    for client in &mut callers {
        client.check(HealthCheckRequest::default()).await.unwrap();
    }
}
