//! How the server stops: the signals that start it, readiness and health lost at
//! once, the drain delay while new calls are still taken, and the grace after
//! which the solves still running are stopped.
//! Knows nothing of what runs: it stops the service through its `Shutdown` signal.

use std::future::Future;
use std::time::Duration;

use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use crate::pb::sudoku_service_server::SERVICE_NAME;
use crate::service::{Readiness, Shutdown};

/// How long each phase of a shutdown lasts.
pub(super) struct Timing {
    /// Not ready, still taking new calls.
    pub(super) drain_delay: Duration,
    /// No new connections; calls in flight may finish.
    pub(super) grace: Duration,
}

/// Waits for `signal`, then reports not ready and not serving, goes on taking
/// calls for the drain delay, and starts the grace timer that stops the solves
/// still running with `stopper`; completes when the listener should stop
/// accepting.
pub(super) async fn drain(
    signal: impl Future<Output = ()>,
    health: HealthReporter,
    readiness: Readiness,
    stopper: Shutdown,
    timing: Timing,
) {
    signal.await;
    readiness.lose();
    for name in ["", SERVICE_NAME] {
        health
            .set_service_status(name, ServingStatus::NotServing)
            .await;
    }
    let Timing { drain_delay, grace } = timing;
    if !drain_delay.is_zero() {
        tracing::info!(
            drain_delay_seconds = drain_delay.as_secs_f64(),
            "not ready: still taking calls for the drain delay"
        );
        tokio::time::sleep(drain_delay).await;
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
