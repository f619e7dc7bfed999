//! Builds the tonic server around [`SudokuSolver`] — with the gRPC health service and
//! server reflection (v1 and v1alpha) beside it — and runs it on a listener until a
//! shutdown future completes. Tests pass their own listener (port 0) and signal.
//!
//! - `transport`: the listener's settings and the tonic builder they make;
//! - `admission`, `handshake`: which connections get in (cap, handshake timeout);
//! - `auth`: the bearer token; `message_limit`: the request-size limit;
//! - `web`: gRPC-Web, CORS, the dashboard and the 404 for other HTTP requests;
//! - `connect`: JSON over HTTP for the unary RPCs (the Connect protocol's unary form);
//! - `probes`: `GET /readyz` and `/livez`, and the metrics port (`/metrics` beside them);
//! - `shutdown`: signals, readiness and health at shutdown, the drain delay, the grace.
//!
//! Knows nothing of solving: the service does that.

use std::future::Future;

use tokio::net::TcpListener;
use tonic::codec::CompressionEncoding;
use tonic::service::{Routes, RoutesBuilder};
use tonic_health::pb::health_server::{Health, HealthServer};

use crate::pb;
use crate::pb::sudoku_service_server::SudokuServiceServer;
use crate::service::SudokuSolver;

mod admission;
mod auth;
mod connect;
mod error;
mod handshake;
mod message_limit;
mod probes;
mod shutdown;
mod transport;
mod web;

pub use admission::Admission;
pub use error::ServeError;
pub use probes::serve_metrics;
pub use shutdown::shutdown_signal;
pub use transport::{Tls, Transport};
pub use web::BadOrigin;

/// Serves `service` on `listener` until `shutdown` completes. Health reports
/// `SERVING` (overall and for `sudoku.v1.SudokuService`) and `/readyz` 200 from
/// the start, `NOT_SERVING` and 503 as soon as shutdown begins; new calls are
/// still taken for the drain delay, then the listener stops accepting (GOAWAY),
/// calls in flight may finish within the shutdown grace, and the solves still
/// running after it are stopped (their calls end with `UNAVAILABLE`).
pub async fn run(
    listener: TcpListener,
    service: SudokuSolver,
    transport: Transport,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let cors = web::cors(&transport.cors_allowed_origins).map_err(ServeError::Cors)?;
    let builder = transport.builder()?;
    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_serving::<SudokuServiceServer<SudokuSolver>>()
        .await;
    let readiness = service.readiness();
    let shutdown = shutdown::drain(
        shutdown,
        health,
        readiness.clone(),
        service.shutdown(),
        shutdown::Timing {
            drain_delay: service.limits().drain_delay,
            grace: service.limits().shutdown_grace,
        },
    );
    announce(&listener, &transport);
    let incoming = admission::Incoming::new(
        listener,
        transport.admission,
        transport.tls.is_some(),
        service.metrics(),
    );
    let max_body = service.limits().max_message_bytes;
    let metrics = service.metrics();
    let sudoku = sudoku(service, &transport);
    let grpc = grpc_routes(sudoku.clone(), health_service)?;
    let connect = connect::Connect::new(
        &[
            pb::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
        ],
        grpc.clone(),
        max_body,
        metrics,
    )
    .map_err(ServeError::Descriptors)?;
    let app = web::router(
        grpc.clone(),
        connect,
        probes::routes(readiness),
        transport.dashboard,
    );
    builder
        .layer(web::Front::new(sudoku, app, cors))
        .add_routes(Routes::from(grpc.fallback(web::not_found)))
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await
        .map_err(ServeError::Transport)
}

/// Our service behind its token and its message limit.
type Sudoku = message_limit::MessageLimit<auth::BearerAuth<SudokuServiceServer<SudokuSolver>>>;

/// `service` as the server serves it: gzip accepted (and sent when asked for),
/// behind its token and its message limit.
fn sudoku(service: SudokuSolver, transport: &Transport) -> Sudoku {
    let max_bytes = service.limits().max_message_bytes;
    let mut sudoku = SudokuServiceServer::new(service)
        .max_decoding_message_size(max_bytes)
        .accept_compressed(CompressionEncoding::Gzip);
    if transport.compress_responses {
        sudoku = sudoku.send_compressed(CompressionEncoding::Gzip);
    }
    let authorized = auth::BearerAuth::new(sudoku, transport.bearer_token.as_deref());
    message_limit::MessageLimit::new(authorized, max_bytes)
}

/// The gRPC services' router: health, reflection, and ours (`sudoku`).
fn grpc_routes(
    sudoku: Sudoku,
    health: HealthServer<impl Health>,
) -> Result<axum::Router, ServeError> {
    let reflection_v1 = reflection().build_v1().map_err(ServeError::Reflection)?;
    let reflection_v1alpha = reflection()
        .build_v1alpha()
        .map_err(ServeError::Reflection)?;
    let mut routes = RoutesBuilder::default();
    routes
        .add_service(health)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(sudoku);
    Ok(routes.routes().into_axum_router())
}

/// Logs where the server listens and where the dashboard is.
fn announce(listener: &TcpListener, transport: &Transport) {
    let Ok(address) = listener.local_addr() else {
        return;
    };
    tracing::info!(
        %address,
        tls = transport.tls.is_some(),
        mutual_tls = transport.tls.as_ref().is_some_and(|tls| tls.client_ca.is_some()),
        "sudokud serving gRPC"
    );
    if transport.dashboard {
        let scheme = if transport.tls.is_some() {
            "https"
        } else {
            "http"
        };
        tracing::info!("dashboard at {scheme}://{address}/");
    }
}

/// Reflection over our service and the health service (grpcurl, buf curl, Postman
/// and evans need no proto file), and over `google/rpc/error_details.proto`, so
/// that a reflection client decodes an error's `google.rpc.BadRequest` detail.
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
}
