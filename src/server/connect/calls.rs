//! The gRPC call a Connect request becomes, and the Connect response headers
//! its answer becomes: which request headers go on, `Connect-Timeout-Ms` as
//! `grpc-timeout`, trailers as `trailer-` headers. Knows nothing of bodies.

use axum::body::Body;
use axum::extract::Request;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Version, header};
use tonic::Code;

use super::wire::ConnectError;

/// `Connect-Timeout-Ms` (at most 10 digits) as a `grpc-timeout` value.
pub(super) fn grpc_timeout(headers: &HeaderMap) -> Result<Option<HeaderValue>, ConnectError> {
    let Some(value) = headers.get("connect-timeout-ms") else {
        return Ok(None);
    };
    let millis = value
        .to_str()
        .ok()
        .filter(|text| (1..=10).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|text| text.parse::<u64>().ok())
        .ok_or_else(|| {
            ConnectError::new(
                Code::InvalidArgument,
                format!("connect-timeout-ms {value:?} is not a whole number of milliseconds (1 to 10 digits)"),
            )
        })?;
    // grpc-timeout takes at most 8 digits: whole seconds, rounded up, beyond that.
    let text = if millis <= 99_999_999 {
        format!("{millis}m")
    } else {
        format!("{}S", millis.div_ceil(1000))
    };
    Ok(HeaderValue::from_str(&text).ok())
}

/// Request headers a Connect request does not hand on to its gRPC call: its
/// own protocol's, the body's, and HTTP/1.1's connection headers.
fn handed_on(name: &HeaderName) -> bool {
    let name = name.as_str();
    !(name.starts_with("connect-")
        || name.starts_with("grpc-")
        || name.starts_with("content-")
        || matches!(
            name,
            "accept-encoding"
                | "connection"
                | "keep-alive"
                | "transfer-encoding"
                | "te"
                | "upgrade"
                | "expect"
                | "host"
        ))
}

/// The gRPC call for a Connect request: its `parts` (headers, extensions such
/// as the peer's address) with `path`, `timeout` and the framed `body`.
pub(super) fn grpc_request(
    parts: Parts,
    path: &str,
    timeout: Option<HeaderValue>,
    body: Body,
) -> Result<Request, ConnectError> {
    let mut request = Request::new(body);
    *request.method_mut() = Method::POST;
    *request.version_mut() = Version::HTTP_2;
    *request.uri_mut() = path
        .parse()
        .map_err(|_| ConnectError::new(Code::Internal, format!("bad method path {path}")))?;
    let headers = request.headers_mut();
    for (name, value) in &parts.headers {
        if handed_on(name) {
            headers.append(name.clone(), value.clone());
        }
    }
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/grpc"),
    );
    headers.insert(header::TE, HeaderValue::from_static("trailers"));
    if let Some(timeout) = timeout {
        headers.insert(HeaderName::from_static("grpc-timeout"), timeout);
    }
    *request.extensions_mut() = parts.extensions;
    Ok(request)
}

/// The Connect response's headers: the gRPC response's own, and its trailers
/// as `trailer-` headers; gRPC's protocol headers and the body's dropped.
pub(super) fn response_headers(headers: &HeaderMap, trailers: &HeaderMap) -> HeaderMap {
    let mut out = HeaderMap::new();
    let ours = |name: &HeaderName| {
        let name = name.as_str();
        name.starts_with("grpc-") || name.starts_with("content-") || name == "trailer"
    };
    for (name, value) in headers {
        if !ours(name) {
            out.append(name.clone(), value.clone());
        }
    }
    for (name, value) in trailers {
        if let Ok(prefixed) = HeaderName::try_from(format!("trailer-{name}"))
            && !ours(name)
        {
            out.append(prefixed, value.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| {
                (
                    HeaderName::from_static(name),
                    HeaderValue::from_static(value),
                )
            })
            .collect()
    }

    #[test]
    fn connect_timeouts_become_grpc_timeouts() {
        let timeout = |value| grpc_timeout(&headers(&[("connect-timeout-ms", value)]));
        assert_eq!(timeout("250").unwrap().unwrap(), "250m");
        assert_eq!(timeout("9999999999").unwrap().unwrap(), "10000000S");
        assert!(grpc_timeout(&HeaderMap::new()).unwrap().is_none());
        for bad in ["", "-1", "1.5", "12345678901", "soon"] {
            assert!(timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_the_callers_own_headers_are_handed_on() {
        for kept in ["authorization", "traceparent", "x-request-id", "user-agent"] {
            assert!(handed_on(&HeaderName::from_static(kept)), "{kept}");
        }
        for dropped in [
            "content-type",
            "connect-timeout-ms",
            "grpc-timeout",
            "te",
            "host",
        ] {
            assert!(!handed_on(&HeaderName::from_static(dropped)), "{dropped}");
        }
    }

    #[test]
    fn trailers_become_prefixed_headers() {
        let out = response_headers(
            &headers(&[("content-type", "application/grpc"), ("x-served-by", "a")]),
            &headers(&[("grpc-status", "0"), ("x-cost", "3")]),
        );
        assert_eq!(out.get("x-served-by").unwrap(), "a");
        assert_eq!(out.get("trailer-x-cost").unwrap(), "3");
        assert!(out.get("content-type").is_none() && out.get("trailer-grpc-status").is_none());
    }
}
