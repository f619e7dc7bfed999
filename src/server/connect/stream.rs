//! The Connect protocol's streaming form (`application/connect+proto` and
//! `application/connect+json`), for the streaming RPCs and for server
//! reflection, which `buf curl` and other Connect clients call this way.
//!
//! Connect's envelopes are gRPC's frames (a flags byte, a 4-byte length, the
//! message), so binary messages pass through unchanged in both directions;
//! JSON messages are converted one envelope at a time. Where gRPC ends a
//! response with trailers, Connect sends one last envelope (flags `0x02`)
//! holding `{"error": ..., "metadata": ...}`: that is made from the trailers,
//! or from the headers of a trailers-only response.

use axum::body::Body;
use axum::http::HeaderMap;
use bytes::{Bytes, BytesMut};
use futures_util::StreamExt as _;
use futures_util::stream;
use http_body_util::BodyExt as _;
use prost_reflect::MessageDescriptor;
use tonic::Code;

use super::wire::{ConnectError, Encoding, Envelopes, envelope};

/// The flags of Connect's last envelope of a response.
const END_STREAM: u8 = 0x02;

/// A request body of JSON envelopes as the binary frames the gRPC service
/// reads. A bad message ends the body with `INVALID_ARGUMENT`, which the call
/// ends with.
pub(super) fn json_requests(body: Body, input: MessageDescriptor, limit: usize) -> Body {
    let state = Some((body.into_data_stream(), Envelopes::default()));
    let frames = stream::unfold(state, move |state| {
        let input = input.clone();
        async move {
            let (mut data, mut envelopes) = state?;
            loop {
                match envelopes.next(limit) {
                    Err(error) => return Some((Err(error.into_status()), None)),
                    Ok(Some((flags, _))) if flags != 0 => {
                        let error = ConnectError::new(
                            Code::Unimplemented,
                            "compressed or flagged request messages are not accepted",
                        );
                        return Some((Err(error.into_status()), None));
                    }
                    Ok(Some((_, message))) => {
                        let converted = Encoding::Json
                            .request_message(&input, message)
                            .and_then(|binary| envelope(0, &binary))
                            .map_err(ConnectError::into_status);
                        let next = converted.is_ok().then_some((data, envelopes));
                        return Some((converted, next));
                    }
                    Ok(None) => {}
                }
                match data.next().await {
                    Some(Ok(chunk)) => envelopes.push(&chunk),
                    Some(Err(error)) => {
                        let status = tonic::Status::cancelled(format!("request body: {error}"));
                        return Some((Err(status), None));
                    }
                    None if envelopes.is_empty() => return None,
                    None => {
                        let status = tonic::Status::invalid_argument(
                            "the request body ends inside a message",
                        );
                        return Some((Err(status), None));
                    }
                }
            }
        }
    });
    Body::from_stream(frames)
}

/// What a response stream's translation has seen so far.
struct Reading {
    body: Body,
    envelopes: Envelopes,
    /// The status of a trailers-only response (in its headers), if it was one.
    early: Option<tonic::Status>,
}

/// The Connect response body for a gRPC response `body`: its messages (as JSON
/// when `encoding` is), then the end-of-stream envelope. `early` is the status
/// a trailers-only response carried in its headers.
pub(super) fn responses(
    body: Body,
    early: Option<tonic::Status>,
    encoding: Encoding,
    output: MessageDescriptor,
) -> Body {
    let state = Some(Reading {
        body,
        envelopes: Envelopes::default(),
        early,
    });
    let chunks = stream::unfold(state, move |state| {
        let output = output.clone();
        async move {
            let mut reading = state?;
            let Some(frame) = reading.body.frame().await else {
                let end = match reading.early.take() {
                    Some(status) => end_stream(&status, &HeaderMap::new()),
                    None => end_stream_error(&ConnectError::new(
                        Code::Unknown,
                        "the call ended with no status",
                    )),
                };
                return Some((Ok::<_, std::convert::Infallible>(end), None));
            };
            let frame = match frame {
                Ok(frame) => frame,
                Err(error) => {
                    let error =
                        ConnectError::new(Code::Internal, format!("the call failed: {error}"));
                    return Some((Ok(end_stream_error(&error)), None));
                }
            };
            let frame = match frame.into_trailers() {
                Ok(trailers) => {
                    let status = tonic::Status::from_header_map(&trailers)
                        .unwrap_or_else(|| tonic::Status::unknown("the call ended with no status"));
                    return Some((Ok(end_stream(&status, &trailers)), None));
                }
                Err(frame) => frame,
            };
            let Ok(data) = frame.into_data() else {
                return Some((Ok(Bytes::new()), Some(reading)));
            };
            if encoding == Encoding::Proto {
                return Some((Ok(data), Some(reading)));
            }
            reading.envelopes.push(&data);
            match json_messages(&mut reading.envelopes, &output) {
                Ok(chunk) => Some((Ok(chunk), Some(reading))),
                Err(error) => Some((Ok(end_stream_error(&error)), None)),
            }
        }
    });
    Body::from_stream(chunks)
}

/// The whole binary messages `envelopes` holds, as JSON envelopes.
fn json_messages(
    envelopes: &mut Envelopes,
    output: &MessageDescriptor,
) -> Result<Bytes, ConnectError> {
    let mut out = BytesMut::new();
    while let Some((_, message)) = envelopes.next(usize::MAX)? {
        let json = Encoding::Json.response_body(output, message)?;
        out.extend_from_slice(&envelope(0, &json)?);
    }
    Ok(out.freeze())
}

/// The end-of-stream envelope for a call that ended with `status`, its
/// `trailers` (gRPC's own aside) as the metadata.
fn end_stream(status: &tonic::Status, trailers: &HeaderMap) -> Bytes {
    let mut end = serde_json::Map::new();
    if status.code() != Code::Ok {
        let error = ConnectError::from_status(status, HeaderMap::new());
        end.insert("error".into(), error.to_json());
    }
    let mut metadata = serde_json::Map::new();
    for name in trailers.keys() {
        if name.as_str().starts_with("grpc-") {
            continue;
        }
        let values = trailers
            .get_all(name)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .map(|value| serde_json::Value::from(value.to_owned()));
        metadata.insert(name.as_str().to_owned(), values.collect());
    }
    if !metadata.is_empty() {
        end.insert("metadata".into(), metadata.into());
    }
    end_envelope(&serde_json::Value::Object(end))
}

/// The end-of-stream envelope for an error of the translation's own.
pub(super) fn end_stream_error(error: &ConnectError) -> Bytes {
    end_envelope(&serde_json::json!({ "error": error.to_json() }))
}

/// `end` in the last envelope. Its size is bounded by the status message and
/// the trailers (the HTTP/2 header-list limit), so its length always fits.
fn end_envelope(end: &serde_json::Value) -> Bytes {
    envelope(END_STREAM, end.to_string().as_bytes()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_envelope_carries_the_error_and_the_trailers() {
        let mut trailers = HeaderMap::new();
        trailers.insert("grpc-status", "5".parse().unwrap());
        trailers.insert("x-cost", "3".parse().unwrap());
        let end = end_stream(&tonic::Status::not_found("no such puzzle"), &trailers);
        assert_eq!(end[0], END_STREAM);
        let json: serde_json::Value = serde_json::from_slice(&end[5..]).unwrap();
        assert_eq!(json["error"]["code"], "not_found");
        assert_eq!(json["error"]["message"], "no such puzzle");
        assert_eq!(json["metadata"]["x-cost"][0], "3");
        assert!(json["metadata"].get("grpc-status").is_none());
        let ok = end_stream(&tonic::Status::ok(""), &HeaderMap::new());
        assert_eq!(&ok[5..], b"{}");
    }
}
