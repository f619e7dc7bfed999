//! Builds the tonic server around [`SudokuSolver`] — with the gRPC health service and
//! server reflection (v1 and v1alpha) beside it — and runs it on a listener until a
//! shutdown future completes. Tests pass their own listener (port 0) and signal.

use std::future::Future;

use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::transport::Server;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use crate::pb;
use crate::pb::sudoku_service_server::SudokuServiceServer;
use crate::service::SudokuSolver;

/// The full name of the solving service, as health checks and reflection name it.
pub const SERVICE_NAME: &str = "sudoku.v1.SudokuService";

/// Why the server could not run.
#[derive(Debug)]
pub enum ServeError {
    /// The reflection service could not read a descriptor set.
    Reflection(tonic_reflection::server::Error),
    /// The transport failed.
    Transport(tonic::transport::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Reflection(error) => write!(f, "reflection: {error}"),
            ServeError::Transport(error) => write!(f, "transport: {error}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// Serves `service` on `listener` until `shutdown` completes. Health reports
/// `SERVING` (overall and for `sudoku.v1.SudokuService`) from the start and
/// `NOT_SERVING` as soon as shutdown begins; the listener stops accepting, calls in
/// flight may finish within the service's shutdown grace, and the solves still
/// running after it are stopped (their calls end with `UNAVAILABLE`).
pub async fn run(
    listener: TcpListener,
    service: SudokuSolver,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_serving::<SudokuServiceServer<SudokuSolver>>()
        .await;

    let reflection_v1 = reflection().build_v1().map_err(ServeError::Reflection)?;
    let reflection_v1alpha = reflection()
        .build_v1alpha()
        .map_err(ServeError::Reflection)?;

    let stopper = service.shutdown();
    let grace = service.limits().shutdown_grace;
    let shutdown = async move {
        shutdown.await;
        mark_not_serving(&health).await;
        tracing::info!(
            grace_seconds = grace.as_secs_f64(),
            "draining: no new connections"
        );
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            tracing::info!("shutdown grace over: stopping the solves still running");
            stopper.stop_all();
        });
    };
    Server::builder()
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(
            SudokuServiceServer::new(service.clone())
                .max_decoding_message_size(service.limits().max_message_bytes),
        )
        .serve_with_incoming_shutdown(TcpListenerStream::new(listener), shutdown)
        .await
        .map_err(ServeError::Transport)
}

/// Reflection over our service and the health service (grpcurl, buf curl, Postman
/// and evans need no proto file).
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
}

async fn mark_not_serving(health: &HealthReporter) {
    for name in ["", SERVICE_NAME] {
        health
            .set_service_status(name, ServingStatus::NotServing)
            .await;
    }
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut signals) => {
                signals.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT received, shutting down"),
        () = terminate => tracing::info!("SIGTERM received, shutting down"),
    }
}
