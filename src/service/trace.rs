//! The trace context a call arrives with: W3C `traceparent` (with `tracestate`),
//! or B3 as Istio, Envoy and Zipkin set it (the single `b3` header or the
//! `x-b3-*` headers), in that order. The call's span becomes a child of the
//! caller's; its trace id goes into the call's log. A header that does not parse
//! is ignored: tracing never fails a call. Knows nothing of exporting spans (the
//! tracing layer that `--otlp-endpoint` installs does that).

use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tonic::metadata::MetadataMap;

/// The caller's span, read from the call's headers; `None` when the call carries
/// no trace context that parses.
pub(super) fn caller(metadata: &MetadataMap) -> Option<SpanContext> {
    w3c(metadata)
        .or_else(|| header(metadata, "b3").and_then(b3_single))
        .or_else(|| b3_multi(metadata))
}

/// The id as trace ids are written: 32 lowercase hex digits.
pub(super) fn hex(trace_id: TraceId) -> String {
    format!("{trace_id:032x}")
}

fn header<'a>(metadata: &'a MetadataMap, name: &str) -> Option<&'a str> {
    metadata.get(name)?.to_str().ok()
}

/// The headers as the W3C propagator reads them.
struct Headers<'a>(&'a MetadataMap);

impl Extractor for Headers<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        header(self.0, key)
    }

    fn keys(&self) -> Vec<&str> {
        self.0
            .keys()
            .filter_map(|key| match key {
                tonic::metadata::KeyRef::Ascii(key) => Some(key.as_str()),
                tonic::metadata::KeyRef::Binary(_) => None,
            })
            .collect()
    }
}

fn w3c(metadata: &MetadataMap) -> Option<SpanContext> {
    metadata.get("traceparent")?;
    let context = TraceContextPropagator::new().extract(&Headers(metadata));
    let span = context.span().span_context().clone();
    span.is_valid().then_some(span)
}

/// `{trace id}-{span id}[-{sampled}[-{parent span id}]]`; a header with the
/// sampling decision alone (`0`, `1`, `d`) names no caller's span.
fn b3_single(value: &str) -> Option<SpanContext> {
    let mut parts = value.trim().split('-');
    let trace = trace_id(parts.next()?)?;
    let span = span_id(parts.next()?)?;
    let sampled = match parts.next() {
        None | Some("1" | "d") => true,
        Some("0") => false,
        Some(_) => return None,
    };
    if let Some(parent) = parts.next() {
        span_id(parent)?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(remote(trace, span, sampled))
}

/// `x-b3-traceid`, `x-b3-spanid`, and `x-b3-sampled` or `x-b3-flags` (debug).
fn b3_multi(metadata: &MetadataMap) -> Option<SpanContext> {
    let trace = trace_id(header(metadata, "x-b3-traceid")?)?;
    let span = span_id(header(metadata, "x-b3-spanid")?)?;
    let debug = header(metadata, "x-b3-flags") == Some("1");
    let sampled = match header(metadata, "x-b3-sampled") {
        None | Some("1" | "true") => true,
        Some("0" | "false") => debug,
        Some(_) => return None,
    };
    Some(remote(trace, span, sampled))
}

fn remote(trace_id: TraceId, span_id: SpanId, sampled: bool) -> SpanContext {
    let flags = if sampled {
        TraceFlags::SAMPLED
    } else {
        TraceFlags::NOT_SAMPLED
    };
    SpanContext::new(trace_id, span_id, flags, true, TraceState::default())
}

fn is_hex(text: &str) -> bool {
    text.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// A B3 trace id: 32 hex digits, or 16 (the high half zero); never all zeros.
fn trace_id(text: &str) -> Option<TraceId> {
    if !matches!(text.len(), 16 | 32) || !is_hex(text) {
        return None;
    }
    let id = TraceId::from_hex(text).ok()?;
    (id != TraceId::INVALID).then_some(id)
}

/// A B3 span id: 16 hex digits, never all zeros.
fn span_id(text: &str) -> Option<SpanId> {
    if text.len() != 16 || !is_hex(text) {
        return None;
    }
    let id = SpanId::from_hex(text).ok()?;
    (id != SpanId::INVALID).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
    const SPAN: &str = "00f067aa0ba902b7";

    fn headers(pairs: &[(&'static str, &str)]) -> MetadataMap {
        let mut metadata = MetadataMap::new();
        for (name, value) in pairs {
            metadata.insert(*name, value.parse().unwrap());
        }
        metadata
    }

    fn ids(metadata: &MetadataMap) -> Option<(String, String, bool)> {
        caller(metadata).map(|span| {
            (
                hex(span.trace_id()),
                format!("{:016x}", span.span_id()),
                span.is_sampled(),
            )
        })
    }

    #[test]
    fn w3c_traceparent_names_the_callers_span_and_keeps_its_state() {
        let metadata = headers(&[
            ("traceparent", &format!("00-{TRACE}-{SPAN}-01")),
            ("tracestate", "congo=t61rcWkgMzE"),
        ]);
        assert_eq!(ids(&metadata), Some((TRACE.into(), SPAN.into(), true)));
        let span = caller(&metadata).unwrap();
        assert_eq!(span.trace_state().get("congo"), Some("t61rcWkgMzE"));
        let unsampled = headers(&[("traceparent", &format!("00-{TRACE}-{SPAN}-00"))]);
        assert_eq!(ids(&unsampled), Some((TRACE.into(), SPAN.into(), false)));
    }

    #[test]
    fn b3_single_and_multi_headers_name_the_callers_span() {
        let single = headers(&[("b3", &format!("{TRACE}-{SPAN}-1-{SPAN}"))]);
        assert_eq!(ids(&single), Some((TRACE.into(), SPAN.into(), true)));
        let short = headers(&[("b3", &format!("{}-{SPAN}-0", &TRACE[16..]))]);
        let padded = format!("{}{}", "0".repeat(16), &TRACE[16..]);
        assert_eq!(ids(&short), Some((padded, SPAN.into(), false)));
        let multi = headers(&[
            ("x-b3-traceid", TRACE),
            ("x-b3-spanid", SPAN),
            ("x-b3-sampled", "0"),
            ("x-b3-flags", "1"),
        ]);
        assert_eq!(ids(&multi), Some((TRACE.into(), SPAN.into(), true)));
    }

    #[test]
    fn w3c_comes_before_b3() {
        let other = "0af7651916cd43dd8448eb211c80319c";
        let metadata = headers(&[
            ("traceparent", &format!("00-{TRACE}-{SPAN}-01")),
            ("b3", &format!("{other}-{SPAN}")),
        ]);
        assert_eq!(ids(&metadata).unwrap().0, TRACE);
    }

    #[test]
    fn malformed_headers_are_ignored() {
        let zeros = "0".repeat(32);
        for pairs in [
            vec![("traceparent", "00-nonsense".to_owned())],
            vec![("traceparent", format!("00-{zeros}-{SPAN}-01"))],
            vec![("traceparent", format!("ff-{TRACE}-{SPAN}-01"))],
            vec![("traceparent", format!("00-{TRACE}-{}-01", "0".repeat(16)))],
            vec![("b3", "1".to_owned())],
            vec![("b3", format!("{TRACE}-{SPAN}-x"))],
            vec![("b3", format!("+{}-{SPAN}", &TRACE[1..]))],
            vec![("b3", format!("{TRACE}-{SPAN}-1-{SPAN}-extra"))],
            vec![("x-b3-traceid", TRACE.to_owned())],
            vec![
                ("x-b3-traceid", format!("{TRACE}00")),
                ("x-b3-spanid", SPAN.to_owned()),
            ],
        ] {
            let pairs: Vec<(&'static str, &str)> = pairs
                .iter()
                .map(|(name, value)| (*name, value.as_str()))
                .collect();
            assert_eq!(ids(&headers(&pairs)), None, "{pairs:?}");
        }
        // A malformed traceparent does not hide a good B3 header.
        let metadata = headers(&[("traceparent", "junk"), ("b3", &format!("{TRACE}-{SPAN}"))]);
        assert_eq!(ids(&metadata).unwrap().0, TRACE);
    }
}
