//! Prometheus metrics: what the service counts, and their text form. Knows
//! nothing of solving (the service reports into it) nor of HTTP: the server
//! serves [`Metrics::render`] at `/metrics`.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Metric, Registry};

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

/// Labels of a Connect request refused before it became a call.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RefusalLabels {
    /// The Connect error code, e.g. `invalid_argument`, `unimplemented`.
    pub code: &'static str,
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
    /// Calls ended because their client went away (waiting or solving).
    pub cancellations: Counter,
    /// Calls turned away or ended by a limit.
    pub limit_rejections: Family<LimitLabels, Counter>,
    /// Connections open now.
    pub connections_open: Gauge,
    /// Connections the server closed, by reason.
    pub connections_closed: Family<CloseLabels, Counter>,
    /// Connect requests refused before a call was made (a body that is not the
    /// request message, a content type, method or header not served), by code.
    pub connect_refusals: Family<RefusalLabels, Counter>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// Registers `metric` under `name` and hands it back.
fn register<M: Metric + Clone>(registry: &mut Registry, name: &str, help: &str, metric: M) -> M {
    registry.register(name, help, metric.clone());
    metric
}

/// Registers a new metric of a kind that starts empty.
fn register_new<M: Metric + Clone + Default>(registry: &mut Registry, name: &str, help: &str) -> M {
    register(registry, name, help, M::default())
}

impl Metrics {
    /// Creates the metrics and registers them under the `sudokud_` prefix.
    pub fn new() -> Metrics {
        let mut r = Registry::with_prefix("sudokud");
        let buckets = || Histogram::new(exponential_buckets(1e-6, 4.0, 14));
        Metrics {
            connections_open: register_new(&mut r, "connections_open", "Connections open now"),
            connections_closed: register_new(
                &mut r,
                "connections_closed",
                "Connections the server closed: handshake timeout, cap",
            ),
            calls: register_new(&mut r, "calls", "Calls by method and status code"),
            connect_refusals: register_new(
                &mut r,
                "connect_refusals",
                "Connect requests refused before a call was made, by Connect code",
            ),
            solve_seconds: register(
                &mut r,
                "solve_seconds",
                "Search time of finished solves, by algorithm",
                Family::new_with_constructor(buckets),
            ),
            solves_in_flight: register_new(&mut r, "solves_in_flight", "Solves running now"),
            queue_depth: register_new(&mut r, "queue_depth", "Calls waiting for a solve slot"),
            streams_open: register_new(&mut r, "streams_open", "SolveSteps streams open now"),
            streams_paced_open: register_new(
                &mut r,
                "streams_paced_open",
                "Paced SolveSteps streams open now",
            ),
            compute_slices: register_new(
                &mut r,
                "compute_slices",
                "Slices of search run under a solve slot",
            ),
            slot_wait_seconds: register(
                &mut r,
                "slot_wait_seconds",
                "Time work waited for a solve slot",
                buckets(),
            ),
            steps_sent: register_new(&mut r, "steps_sent", "Steps handed to streams"),
            cancellations: register_new(
                &mut r,
                "cancellations",
                "Calls ended because the client went away, waiting in line or solving",
            ),
            limit_rejections: register_new(
                &mut r,
                "limit_rejections",
                "Calls turned away or ended by a server limit",
            ),
            registry: r,
        }
    }

    /// Counts a finished call.
    pub fn call(&self, method: &'static str, code: tonic::Code) {
        let code = code_name(code);
        self.calls.get_or_create(&CallLabels { method, code }).inc();
    }

    /// Records the search time of a finished solve.
    pub fn solved(&self, algorithm: &'static str, elapsed: Duration) {
        self.solved_all(&[(algorithm, elapsed)]);
    }

    /// Records the search times of finished solves (algorithm, time), looking
    /// an algorithm's histogram up once for a run of its solves.
    pub fn solved_all(&self, solves: &[(&'static str, Duration)]) {
        for run in solves.chunk_by(|one, next| one.0 == next.0) {
            let histogram = self.solve_seconds.get_or_create(&AlgorithmLabels {
                algorithm: run[0].0,
            });
            for (_, elapsed) in run {
                histogram.observe(elapsed.as_secs_f64());
            }
        }
    }

    /// Counts a Connect request refused before it became a call.
    pub fn connect_refused(&self, code: &'static str) {
        self.connect_refusals
            .get_or_create(&RefusalLabels { code })
            .inc();
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
