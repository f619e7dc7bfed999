//! Prometheus metrics: what the service counts, and the small HTTP listener that
//! serves them at `/metrics` (off unless `--metrics-listen` is given). Knows nothing
//! of solving; the service reports into it.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// Labels of a finished call.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CallLabels {
    /// `Solve` or `SolveSteps`.
    pub method: &'static str,
    /// The gRPC status code name, e.g. `Ok`, `InvalidArgument`.
    pub code: &'static str,
}

/// Labels naming an algorithm.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct AlgorithmLabels {
    /// The engine's short name.
    pub algorithm: &'static str,
}

/// Labels naming a limit that turned a call away or ended it.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct LimitLabels {
    /// `queue_full`, `queue_deadline`, `max_steps`, `max_open_streams`.
    pub limit: &'static str,
}

/// Labels naming why the server closed a connection.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CloseLabels {
    /// `handshake_timeout`, `cap` (closed to admit another), `cap_refused` (a new
    /// one refused at the cap).
    pub reason: &'static str,
}

/// Every metric the service keeps. Cheap to update from any thread.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// Calls by method and status code.
    pub calls: Family<CallLabels, Counter>,
    /// Solve latency (search time) by algorithm, in seconds.
    pub solve_seconds: Family<AlgorithmLabels, Histogram>,
    /// Solves computing or streaming now.
    pub solves_in_flight: Gauge,
    /// Calls waiting for a solve slot.
    pub queue_depth: Gauge,
    /// `SolveSteps` streams open now, paced or not.
    pub streams_open: Gauge,
    /// The paced ones among them (`step_interval_ms` > 0).
    pub streams_paced_open: Gauge,
    /// Slices of search run (each under a solve slot, about 100 µs at most).
    pub compute_slices: Counter,
    /// How long work waited for a solve slot, in seconds.
    pub slot_wait_seconds: Histogram,
    /// Steps handed to streams.
    pub steps_sent: Counter,
    /// Solves stopped because their client went away.
    pub cancellations: Counter,
    /// Calls turned away or ended by a limit.
    pub limit_rejections: Family<LimitLabels, Counter>,
    /// Connections open now.
    pub connections_open: Gauge,
    /// Connections the server closed, by reason.
    pub connections_closed: Family<CloseLabels, Counter>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Creates the metrics and registers them under the `sudokud_` prefix.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("sudokud");
        let calls = Family::<CallLabels, Counter>::default();
        let solve_seconds = Family::<AlgorithmLabels, Histogram>::new_with_constructor(|| {
            Histogram::new(exponential_buckets(1e-6, 4.0, 14))
        });
        let solves_in_flight = Gauge::default();
        let queue_depth = Gauge::default();
        let streams_open = Gauge::default();
        let streams_paced_open = Gauge::default();
        let compute_slices = Counter::default();
        let slot_wait_seconds = Histogram::new(exponential_buckets(1e-6, 4.0, 14));
        let steps_sent = Counter::default();
        let cancellations = Counter::default();
        let limit_rejections = Family::<LimitLabels, Counter>::default();
        let connections_open = Gauge::default();
        let connections_closed = Family::<CloseLabels, Counter>::default();
        registry.register(
            "connections_open",
            "Connections open now",
            connections_open.clone(),
        );
        registry.register(
            "connections_closed",
            "Connections the server closed: handshake timeout, cap",
            connections_closed.clone(),
        );
        registry.register("calls", "Calls by method and status code", calls.clone());
        registry.register(
            "solve_seconds",
            "Search time of finished solves, by algorithm",
            solve_seconds.clone(),
        );
        registry.register(
            "solves_in_flight",
            "Solves running now",
            solves_in_flight.clone(),
        );
        registry.register(
            "queue_depth",
            "Calls waiting for a solve slot",
            queue_depth.clone(),
        );
        registry.register(
            "streams_open",
            "SolveSteps streams open now",
            streams_open.clone(),
        );
        registry.register(
            "streams_paced_open",
            "Paced SolveSteps streams open now",
            streams_paced_open.clone(),
        );
        registry.register(
            "compute_slices",
            "Slices of search run under a solve slot",
            compute_slices.clone(),
        );
        registry.register(
            "slot_wait_seconds",
            "Time work waited for a solve slot",
            slot_wait_seconds.clone(),
        );
        registry.register("steps_sent", "Steps handed to streams", steps_sent.clone());
        registry.register(
            "cancellations",
            "Solves stopped because the client went away",
            cancellations.clone(),
        );
        registry.register(
            "limit_rejections",
            "Calls turned away or ended by a server limit",
            limit_rejections.clone(),
        );
        Metrics {
            registry,
            calls,
            solve_seconds,
            solves_in_flight,
            queue_depth,
            streams_open,
            streams_paced_open,
            compute_slices,
            slot_wait_seconds,
            steps_sent,
            cancellations,
            limit_rejections,
            connections_open,
            connections_closed,
        }
    }

    /// Counts a finished call.
    pub fn call(&self, method: &'static str, code: tonic::Code) {
        let code = code_name(code);
        self.calls.get_or_create(&CallLabels { method, code }).inc();
    }

    /// Records the search time of a finished solve.
    pub fn solved(&self, algorithm: &'static str, elapsed: Duration) {
        self.solve_seconds
            .get_or_create(&AlgorithmLabels { algorithm })
            .observe(elapsed.as_secs_f64());
    }

    /// Counts a call a limit turned away or ended.
    pub fn rejected(&self, limit: &'static str) {
        self.limit_rejections
            .get_or_create(&LimitLabels { limit })
            .inc();
    }

    /// Counts a connection the server closed.
    pub fn connection_closed(&self, reason: &'static str) {
        self.connections_closed
            .get_or_create(&CloseLabels { reason })
            .inc();
    }

    /// The metrics in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// The name of a status code as a label value, without allocating per call.
fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code;
    match code {
        Code::Ok => "Ok",
        Code::Cancelled => "Cancelled",
        Code::Unknown => "Unknown",
        Code::InvalidArgument => "InvalidArgument",
        Code::DeadlineExceeded => "DeadlineExceeded",
        Code::NotFound => "NotFound",
        Code::AlreadyExists => "AlreadyExists",
        Code::PermissionDenied => "PermissionDenied",
        Code::ResourceExhausted => "ResourceExhausted",
        Code::FailedPrecondition => "FailedPrecondition",
        Code::Aborted => "Aborted",
        Code::OutOfRange => "OutOfRange",
        Code::Unimplemented => "Unimplemented",
        Code::Internal => "Internal",
        Code::Unavailable => "Unavailable",
        Code::DataLoss => "DataLoss",
        Code::Unauthenticated => "Unauthenticated",
    }
}

/// Serves `GET /metrics` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    metrics: Arc<Metrics>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::routing::get;
    let app = axum::Router::new().route(
        "/metrics",
        get(move || {
            let metrics = metrics.clone();
            async move {
                (
                    [(
                        axum::http::header::CONTENT_TYPE,
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
