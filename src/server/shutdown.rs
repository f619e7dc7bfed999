//! How the server stops: the signals that start it, health turning `NOT_SERVING`
//! at once, and the grace after which the solves still running are stopped.
//! Knows nothing of what runs: it stops the service through its `Shutdown` signal.

use std::future::Future;

use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use super::SERVICE_NAME;
use crate::service::Shutdown;

/// Waits for `signal`, then reports not serving and starts the grace timer that
/// stops the solves still running with `stopper`; completes when the listener
/// should stop accepting.
pub(super) async fn drain(
    signal: impl Future<Output = ()>,
    health: HealthReporter,
    stopper: Shutdown,
    grace: std::time::Duration,
) {
    signal.await;
    for name in ["", SERVICE_NAME] {
        health
            .set_service_status(name, ServingStatus::NotServing)
            .await;
    }
    tracing::info!(
        grace_seconds = grace.as_secs_f64(),
        "draining: no new connections"
    );
    tokio::spawn(async move {
        tokio::time::sleep(grace).await;
        tracing::info!("shutdown grace over: stopping the solves still running");
        stopper.stop_all();
    });
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
