//! `GET /readyz` and `/livez` for load balancers and probes that cannot speak
//! gRPC health (HAProxy's and Envoy's HTTP checks, kubelet `httpGet`): on the
//! gRPC port, outside gRPC-Web and auth, over HTTP/1.1 and h2c alike, and on the
//! metrics port. Ready: 200 until shutdown begins, 503 from then on (the drain
//! delay included). Live: 200 while the process answers at all.
//!
//! The metrics port (`--metrics-listen`) is assembled here too: `/metrics` from
//! [`Metrics::render`] beside the probes.
//!
//! Knows HTTP, the service's readiness and the metrics' text; nothing of the calls.

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::metrics::Metrics;
use crate::service::Readiness;

/// The two probe routes, reading `readiness`.
pub fn routes(readiness: Readiness) -> Router {
    let text = |status: StatusCode, body: &'static str| {
        (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            body,
        )
            .into_response()
    };
    Router::new()
        .route(
            "/readyz",
            get(move || {
                let ready = readiness.is_ready();
                async move {
                    if ready {
                        text(StatusCode::OK, "ready\n")
                    } else {
                        text(StatusCode::SERVICE_UNAVAILABLE, "shutting down\n")
                    }
                }
            }),
        )
        .route(
            "/livez",
            get(move || async move { text(StatusCode::OK, "alive\n") }),
        )
}

/// Serves `GET /metrics`, and the probes reading `readiness`, on `listener`
/// until `shutdown` completes.
pub async fn serve_metrics(
    listener: tokio::net::TcpListener,
    metrics: Arc<Metrics>,
    readiness: Readiness,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = routes(readiness).route(
        "/metrics",
        get(move || {
            let metrics = metrics.clone();
            async move {
                (
                    [(
                        header::CONTENT_TYPE,
                        "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    )],
                    metrics.render(),
                )
            }
        }),
    );
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
