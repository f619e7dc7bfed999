//! What every call shares: its deadline (`grpc-timeout`), the checks of its
//! request fields, the mapping of engine outcomes to gRPC statuses, its log
//! (`CallLog`) and the drop guard that closes it (`CallEnd`). Knows nothing of
//! slots or streams.

use std::time::{Duration, Instant};

use tonic::metadata::MetadataMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use opentelemetry::Context;
use opentelemetry::trace::TraceContextExt;
use tracing_opentelemetry::OpenTelemetrySpanExt;

use super::Shutdown;
use super::trace;
use super::tracker::Tracker;
use crate::board::{Board, PuzzleError};
use crate::convert;
use crate::pb;
use crate::solver::{self, Algorithm, Interrupted};

/// The log of one call. With `sudokud` at debug level, a span (`call{method peer
/// trace_id algorithm steps guesses code elapsed_us}`) filled in as the call goes on and
/// closed by one event: `call finished`, or `call ended early`. At the default info
/// level there is no span, so a call that ends well costs no logging work; a call
/// that ended with a server-side error (deadline, limits, shutdown) still gets its
/// `call ended early` event, carrying the same fields itself.
pub(super) struct CallLog {
    pub(super) span: tracing::Span,
    /// The span `--otlp-endpoint` exports (target `sudokud::otel`): a child of
    /// the caller's span when the call names one; disabled without the exporter.
    export: tracing::Span,
    /// The trace the call belongs to, as the caller named it (or as the exported
    /// span began it).
    trace_id: Option<String>,
    method: &'static str,
    peer: Option<std::net::SocketAddr>,
    algorithm: Option<&'static str>,
    steps: Option<u64>,
    guesses: Option<u64>,
    begun: Instant,
}

impl CallLog {
    pub(super) fn new(
        method: &'static str,
        peer: Option<std::net::SocketAddr>,
        metadata: &MetadataMap,
    ) -> Self {
        let caller = trace::caller(metadata);
        let export = tracing::info_span!(
            target: "sudokud::otel",
            "rpc",
            otel.name = format!("{}/{method}", pb::sudoku_service_server::SERVICE_NAME),
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            rpc.system = "grpc",
            rpc.service = pb::sudoku_service_server::SERVICE_NAME,
            rpc.method = method,
            rpc.grpc.status_code = tracing::field::Empty,
            client.address = peer.map(|peer| tracing::field::display(peer.ip())),
        );
        let mut trace_id = caller.as_ref().map(|caller| trace::hex(caller.trace_id()));
        if !export.is_disabled() {
            if let Some(caller) = caller {
                // Fails only for a span already started, which this one is not.
                let _ = export.set_parent(Context::new().with_remote_span_context(caller));
            }
            let context = export.context();
            let exported = context.span().span_context().clone();
            if exported.is_valid() {
                trace_id = Some(trace::hex(exported.trace_id()));
            }
        }
        let span = tracing::debug_span!(
            "call",
            method,
            peer = peer.map(tracing::field::display),
            trace_id = trace_id.as_deref(),
            algorithm = tracing::field::Empty,
            code = tracing::field::Empty,
            steps = tracing::field::Empty,
            guesses = tracing::field::Empty,
            elapsed_us = tracing::field::Empty,
        );
        CallLog {
            span,
            export,
            trace_id,
            method,
            peer,
            algorithm: None,
            steps: None,
            guesses: None,
            begun: Instant::now(),
        }
    }

    pub(super) fn algorithm(&mut self, algorithm: Algorithm) {
        self.algorithm = Some(algorithm.name());
        self.span.record("algorithm", algorithm.name());
    }

    pub(super) fn stats(&mut self, stats: &solver::Stats) {
        let steps = stats.placements + stats.backtracks;
        (self.steps, self.guesses) = (Some(steps), Some(stats.guesses));
        self.span
            .record("steps", steps)
            .record("guesses", stats.guesses);
    }

    /// Records the steps of a search that ended without an answer.
    pub(super) fn steps(&mut self, steps: u64) {
        self.steps = Some(steps);
    }

    /// Records how the call ended; `steps_sent` (streams) stands in for the step
    /// count when the search did not finish.
    pub(super) fn end(&self, code: Code, steps_sent: Option<u64>) {
        if !self.export.is_disabled() {
            self.export.record("rpc.grpc.status_code", code as i64);
            // The server-side errors, as OpenTelemetry's RPC conventions count them.
            if matches!(
                code,
                Code::Unknown
                    | Code::DeadlineExceeded
                    | Code::Unimplemented
                    | Code::Internal
                    | Code::Unavailable
                    | Code::DataLoss
            ) {
                self.export.record("otel.status_code", "error");
            }
        }
        // The client's own doing (or no trouble at all): not worth an operator's
        // attention by default.
        let quiet = matches!(code, Code::Ok | Code::InvalidArgument | Code::Cancelled);
        if self.span.is_disabled() && quiet {
            return;
        }
        let elapsed = u64::try_from(self.begun.elapsed().as_micros()).unwrap_or(u64::MAX);
        let steps = match (code, steps_sent) {
            (Code::Ok, _) | (_, None) => self.steps,
            (_, sent) => sent,
        };
        if self.span.is_disabled() {
            tracing::info!(
                method = self.method,
                peer = self.peer.map(tracing::field::display),
                trace_id = self.trace_id.as_deref(),
                algorithm = self.algorithm,
                code = ?code,
                steps,
                guesses = self.guesses,
                elapsed_us = elapsed,
                "call ended early"
            );
            return;
        }
        self.span
            .record("code", tracing::field::debug(code))
            .record("elapsed_us", elapsed);
        if let Some(steps) = steps {
            self.span.record("steps", steps);
        }
        let _in_span = self.span.enter();
        match code {
            Code::Ok => tracing::debug!("call finished"),
            _ if quiet => tracing::debug!("call ended early"),
            _ => tracing::info!("call ended early"),
        }
    }
}

/// Closes one call when it drops, however the call ended: counts it in the
/// metrics by method and code (a cancellation also in `cancellations`) and writes
/// its log line. A call whose end was never set ends with `unfinished`: a unary
/// call whose future tonic dropped (the client left) as `CANCELLED`, a stream's
/// task that panicked as `INTERNAL`. The one place where a call is closed.
pub(super) struct CallEnd {
    /// The call's log, filled in as it goes.
    pub(super) log: CallLog,
    tracker: Tracker,
    code: Option<Code>,
    unfinished: Code,
    steps_sent: Option<u64>,
}

impl CallEnd {
    pub(super) fn new(log: CallLog, tracker: Tracker, unfinished: Code) -> Self {
        CallEnd {
            log,
            tracker,
            code: None,
            unfinished,
            steps_sent: None,
        }
    }

    /// How the call ended.
    pub(super) fn set(&mut self, code: Code) {
        self.code = Some(code);
    }

    /// What the call ends with if it never says: from now on, `code`.
    pub(super) fn unfinished(&mut self, code: Code) {
        self.unfinished = code;
    }

    /// Steps a stream sent, which stand in for the step count when its search did
    /// not finish.
    pub(super) fn sent(&mut self, steps: u64) {
        self.steps_sent = Some(steps);
    }
}

impl Drop for CallEnd {
    fn drop(&mut self) {
        let code = self.code.unwrap_or(self.unfinished);
        let metrics = &self.tracker.metrics;
        metrics.call(self.log.method, code);
        if code == Code::Cancelled {
            metrics.cancellations.inc();
        }
        self.log.end(code, self.steps_sent);
    }
}

/// Parses the `puzzle` field, or explains what is wrong with it.
pub(super) fn parse_puzzle(text: &str) -> Result<Board, Status> {
    if text.trim().is_empty() {
        return Err(missing_puzzle());
    }
    Board::parse(text).map_err(|error| puzzle_status(&error))
}

/// The answer to a request without a puzzle (an empty JSON body or `{}` too).
fn missing_puzzle() -> Status {
    let description = "the puzzle field is missing or empty: send 81 cells row by row, \
                       1-9 for a given, '.' or '0' for an empty cell";
    let details = ErrorDetails::with_bad_request_violation("puzzle", description);
    Status::with_error_details(Code::InvalidArgument, description, details)
}

pub(super) fn puzzle_status(error: &PuzzleError) -> Status {
    let message = format!("invalid puzzle: {error}");
    let details = ErrorDetails::with_bad_request_violation("puzzle", error.to_string());
    Status::with_error_details(Code::InvalidArgument, message, details)
}

/// Parses the `algorithm` field, or names the unknown value.
pub(super) fn parse_algorithm(value: i32) -> Result<Algorithm, Status> {
    convert::algorithm_from_pb(value).map_err(|unknown| {
        let description = format!("unknown algorithm {unknown}");
        let details = ErrorDetails::with_bad_request_violation("algorithm", description.clone());
        Status::with_error_details(Code::InvalidArgument, description, details)
    })
}

/// The status of a search that ended without an answer.
pub(super) fn interrupted_status(interrupted: Interrupted, shutdown: &Shutdown) -> Status {
    match interrupted {
        Interrupted::Stopped if shutdown.is_set() => unavailable(),
        Interrupted::StepLimit { limit } => Status::resource_exhausted(format!(
            "step limit reached: the search took {limit} steps without finishing"
        )),
        Interrupted::DeadlinePassed => {
            Status::deadline_exceeded("deadline exceeded before the search finished")
        }
        Interrupted::Stopped => Status::cancelled("the solve was cancelled"),
    }
}

/// The status of a call cut by the end of the shutdown grace.
pub(super) fn unavailable() -> Status {
    Status::unavailable("the server is shutting down; retry on another replica")
}

/// The status of a search that panicked (a bug, caught so the server goes on).
pub(super) fn solver_failed() -> Status {
    Status::internal("the solver failed")
}

/// Slack taken off the client's deadline so our `DEADLINE_EXCEEDED` answer goes out
/// before tonic's own timeout (which answers `CANCELLED`) fires at the same instant.
const DEADLINE_SLACK: Duration = Duration::from_millis(2);

/// The instant the client's `grpc-timeout` header gives up at, if it sent one.
pub(super) fn deadline_of(metadata: &MetadataMap) -> Option<Instant> {
    let timeout = parse_grpc_timeout(metadata.get("grpc-timeout")?.to_str().ok()?)?;
    Some(Instant::now() + timeout.saturating_sub(DEADLINE_SLACK))
}

/// Parses a `grpc-timeout` value: at most 8 digits and a unit (`H M S m u n`).
fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    if value.len() < 2 || value.len() > 9 {
        return None;
    }
    let (digits, unit) = value.split_at(value.len() - 1);
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount.checked_mul(3600)?),
        "M" => Duration::from_secs(amount.checked_mul(60)?),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeout_values() {
        let check = |text: &str, expected: Option<Duration>| {
            assert_eq!(parse_grpc_timeout(text), expected, "{text}");
        };
        check("1H", Some(Duration::from_secs(3600)));
        check("2M", Some(Duration::from_secs(120)));
        check("3S", Some(Duration::from_secs(3)));
        check("250m", Some(Duration::from_millis(250)));
        check("99999999u", Some(Duration::from_micros(99_999_999)));
        check("7n", Some(Duration::from_nanos(7)));
        check("100", None);
        check("m", None);
        check("123456789S", None);
        check("-1S", None);
    }
}
