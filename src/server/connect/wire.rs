//! The Connect protocol's unary wire format: message bodies in JSON (the proto3
//! JSON mapping) or binary proto, the gRPC frames they travel in inside the
//! server, and errors as Connect sends them: a JSON body
//! `{"code": "invalid_argument", "message": ..., "details": [...]}` with the HTTP
//! status the Connect specification maps each code to.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use bytes::{BufMut, Bytes, BytesMut};
use prost::Message as _;
use prost_reflect::{DeserializeOptions, DynamicMessage, MessageDescriptor};
use tonic::Code;

/// How a Connect body is encoded, from its `content-type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Encoding {
    /// `application/json`: the proto3 JSON mapping.
    Json,
    /// `application/proto`: the binary protobuf encoding.
    Proto,
}

impl Encoding {
    /// The encoding a unary Connect request's `content-type` names, if any
    /// (parameters such as `charset` aside).
    pub fn of(content_type: &str) -> Option<Encoding> {
        let media = content_type.split(';').next().unwrap_or("").trim();
        if media.eq_ignore_ascii_case("application/json") {
            Some(Encoding::Json)
        } else if media.eq_ignore_ascii_case("application/proto") {
            Some(Encoding::Proto)
        } else {
            None
        }
    }

    /// The encoding a Connect streaming request's `content-type` names, if any.
    pub fn of_stream(content_type: &str) -> Option<Encoding> {
        let media = content_type.split(';').next().unwrap_or("").trim();
        let (prefix, rest) = media.split_at_checked("application/connect+".len())?;
        if !prefix.eq_ignore_ascii_case("application/connect+") {
            return None;
        }
        Encoding::of(&format!("application/{rest}"))
    }

    /// The `content-type` of a streaming response in this encoding.
    pub fn stream_content_type(self) -> HeaderValue {
        HeaderValue::from_static(match self {
            Encoding::Json => "application/connect+json",
            Encoding::Proto => "application/connect+proto",
        })
    }

    /// The `content-type` of a successful response in this encoding.
    pub fn content_type(self) -> HeaderValue {
        HeaderValue::from_static(match self {
            Encoding::Json => "application/json",
            Encoding::Proto => "application/proto",
        })
    }

    /// The request body as the binary message the gRPC service reads: JSON is
    /// parsed against `input`, strictly (an unknown field or enum name is an
    /// error, not silently dropped: a typo must not turn into a default), proto
    /// is checked to decode. An empty body is the empty message in either
    /// encoding.
    pub fn request_message(
        self,
        input: &MessageDescriptor,
        body: Bytes,
    ) -> Result<Bytes, ConnectError> {
        if body.is_empty() {
            return Ok(body);
        }
        match self {
            Encoding::Proto => match DynamicMessage::decode(input.clone(), body.clone()) {
                Ok(_) => Ok(body),
                Err(error) => Err(ConnectError::new(
                    Code::InvalidArgument,
                    format!("the body is not a binary {}: {error}", input.full_name()),
                )),
            },
            Encoding::Json => {
                let options = DeserializeOptions::new();
                let mut json = serde_json::Deserializer::from_slice(&body);
                let message =
                    DynamicMessage::deserialize_with_options(input.clone(), &mut json, &options)
                        .and_then(|message| json.end().map(|()| message))
                        .map_err(|error| {
                            let mut message =
                                format!("the body is not a JSON {}: {error}", input.full_name());
                            for fix in super::enums::unknown_values(input, &body) {
                                message.push_str("; ");
                                message.push_str(&fix);
                            }
                            ConnectError::new(Code::InvalidArgument, message)
                        })?;
                Ok(message.encode_to_vec().into())
            }
        }
    }

    /// The response body for the binary `message` of type `output`.
    pub fn response_body(
        self,
        output: &MessageDescriptor,
        message: Bytes,
    ) -> Result<Bytes, ConnectError> {
        match self {
            Encoding::Proto => Ok(message),
            Encoding::Json => DynamicMessage::decode(output.clone(), message)
                .ok()
                .and_then(|message| serde_json::to_vec(&message).ok())
                .map(Bytes::from)
                .ok_or_else(|| {
                    ConnectError::new(
                        Code::Internal,
                        format!("the response is no {}", output.full_name()),
                    )
                }),
        }
    }
}

/// `message` in an envelope with `flags`: gRPC's frame and Connect's envelope
/// are the same (a flags byte, a 4-byte length, the message).
pub(super) fn envelope(flags: u8, message: &[u8]) -> Result<Bytes, ConnectError> {
    let length = u32::try_from(message.len())
        .map_err(|_| ConnectError::new(Code::ResourceExhausted, "the message is too large"))?;
    let mut framed = BytesMut::with_capacity(5 + message.len());
    framed.put_u8(flags);
    framed.put_u32(length);
    framed.put_slice(message);
    Ok(framed.freeze())
}

/// Envelopes (or gRPC frames) cut from a byte stream as they complete.
#[derive(Default)]
pub(super) struct Envelopes {
    buffer: BytesMut,
}

impl Envelopes {
    /// Takes more of the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
    }

    /// Whether no byte is left over.
    pub fn is_empty(&self) -> bool {
        self.buffer.is_empty()
    }

    /// The next whole envelope, if one has arrived: its flags and message. A
    /// length over `limit` is an error before any of its bytes are kept.
    pub fn next(&mut self, limit: usize) -> Result<Option<(u8, Bytes)>, ConnectError> {
        let Some(head) = self.buffer.get(..5) else {
            return Ok(None);
        };
        let length = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
        if length > limit {
            return Err(ConnectError::new(
                Code::ResourceExhausted,
                format!("a message of {length} bytes is over this server's limit of {limit}"),
            ));
        }
        if self.buffer.len() < 5 + length {
            return Ok(None);
        }
        let mut envelope = self.buffer.split_to(5 + length);
        Ok(Some((envelope[0], envelope.split_off(5).freeze())))
    }
}

/// The message of a unary gRPC response body: one uncompressed frame.
pub(super) fn unframe(body: Bytes) -> Result<Bytes, ConnectError> {
    let mut frames = Envelopes {
        buffer: BytesMut::from(body),
    };
    match frames.next(usize::MAX) {
        Ok(Some((0, message))) if frames.is_empty() => Ok(message),
        _ => Err(ConnectError::new(
            Code::Internal,
            "the response is not one gRPC message",
        )),
    }
}

/// An error as a Connect unary response carries it.
#[derive(Debug)]
pub(super) struct ConnectError {
    code: Code,
    message: String,
    /// Each detail's fully-qualified type name and its encoded message.
    details: Vec<(String, Vec<u8>)>,
    /// An HTTP status other than the code's (415 for an unknown content type).
    http_status: Option<StatusCode>,
    /// Response headers and trailers to send with it (boxed: errors stay small).
    headers: Box<HeaderMap>,
    /// Whether a gRPC call answered with it (rather than the translation
    /// refusing the request before any call).
    from_call: bool,
}

impl ConnectError {
    /// An error with `code` and `message` and no details.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        ConnectError {
            code,
            message: message.into(),
            details: Vec::new(),
            http_status: None,
            headers: Box::default(),
            from_call: false,
        }
    }

    /// The error a gRPC `status` stands for, its details (such as a
    /// `google.rpc.BadRequest`) kept, and the response headers and trailers
    /// that came with it.
    pub fn from_status(status: &tonic::Status, headers: HeaderMap) -> Self {
        let details = tonic_types::pb::Status::decode(status.details())
            .map(|decoded| decoded.details)
            .unwrap_or_default()
            .into_iter()
            .map(|any| {
                let name = any.type_url.rsplit('/').next().unwrap_or("").to_owned();
                (name, any.value)
            })
            .collect();
        ConnectError {
            details,
            headers: Box::new(headers),
            from_call: true,
            ..ConnectError::new(status.code(), status.message())
        }
    }

    /// The same error, sent with HTTP status `status` instead of the code's.
    pub fn with_http_status(mut self, status: StatusCode) -> Self {
        self.http_status = Some(status);
        self
    }

    /// The same error, sent with `name: value` among its headers.
    pub fn with_header(mut self, name: header::HeaderName, value: HeaderValue) -> Self {
        self.headers.insert(name, value);
        self
    }

    /// The error as a gRPC status (its details dropped), for a request body
    /// that the gRPC service should end the call with.
    pub fn into_status(self) -> tonic::Status {
        tonic::Status::new(self.code, self.message)
    }

    /// The Connect error code's name.
    pub fn code_name(&self) -> &'static str {
        code_name(self.code)
    }

    /// What it says.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the translation refused the request, before any call was made
    /// (such refusals are counted and logged here; calls are by the service).
    pub fn is_refusal(&self) -> bool {
        !self.from_call
    }
}

impl ConnectError {
    /// The error as Connect's JSON has it: `code`, and `message` and `details`
    /// when there are any (a detail's `value` is its message in base64).
    pub fn to_json(&self) -> serde_json::Value {
        let mut body = serde_json::Map::new();
        body.insert("code".into(), self.code_name().into());
        if !self.message.is_empty() {
            body.insert("message".into(), self.message.clone().into());
        }
        if !self.details.is_empty() {
            let details = self.details.iter().map(|(name, value)| {
                serde_json::json!({"type": name, "value": STANDARD_NO_PAD.encode(value)})
            });
            body.insert("details".into(), details.collect());
        }
        serde_json::Value::Object(body)
    }
}

impl IntoResponse for ConnectError {
    fn into_response(self) -> Response {
        let status = self.http_status.unwrap_or_else(|| http_status(self.code));
        let mut response = (status, self.to_json().to_string()).into_response();
        let headers = response.headers_mut();
        headers.extend(*self.headers);
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }
}

/// The Connect name of a gRPC code.
fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "ok",
        Code::Cancelled => "canceled",
        Code::Unknown => "unknown",
        Code::InvalidArgument => "invalid_argument",
        Code::DeadlineExceeded => "deadline_exceeded",
        Code::NotFound => "not_found",
        Code::AlreadyExists => "already_exists",
        Code::PermissionDenied => "permission_denied",
        Code::ResourceExhausted => "resource_exhausted",
        Code::FailedPrecondition => "failed_precondition",
        Code::Aborted => "aborted",
        Code::OutOfRange => "out_of_range",
        Code::Unimplemented => "unimplemented",
        Code::Internal => "internal",
        Code::Unavailable => "unavailable",
        Code::DataLoss => "data_loss",
        Code::Unauthenticated => "unauthenticated",
    }
}

/// The HTTP status the Connect specification gives a code.
fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        Code::Cancelled => StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST),
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => {
            StatusCode::BAD_REQUEST
        }
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::Unknown | Code::Internal | Code::DataLoss => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The refusal of a compressed message (`what` names the compression asked
/// for), saying with `Accept-Encoding` what is accepted.
pub(super) fn compressed_refused(what: String) -> ConnectError {
    ConnectError::new(
        Code::Unimplemented,
        format!("{what} is not accepted: send messages uncompressed"),
    )
    .with_header(
        header::ACCEPT_ENCODING,
        HeaderValue::from_static("identity"),
    )
}

/// The refusal of `what` (a body, a message) past this server's `limit` bytes.
pub(super) fn over_limit(what: &str, limit: usize) -> ConnectError {
    ConnectError::new(
        Code::ResourceExhausted,
        format!("{what} is over this server's limit of {limit} bytes (--max-message-bytes)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_name_the_encodings() {
        assert_eq!(Encoding::of("application/json"), Some(Encoding::Json));
        assert_eq!(
            Encoding::of("application/json; charset=utf-8"),
            Some(Encoding::Json)
        );
        assert_eq!(Encoding::of("Application/Proto"), Some(Encoding::Proto));
        for other in [
            "application/grpc",
            "application/connect+json",
            "text/plain",
            "",
        ] {
            assert_eq!(Encoding::of(other), None, "{other}");
        }
    }

    #[test]
    fn frames_round_trip_and_broken_ones_are_refused() {
        let framed = envelope(0, b"abc").unwrap();
        assert_eq!(&framed[..], b"\0\0\0\0\x03abc");
        assert_eq!(&unframe(framed).unwrap()[..], b"abc");
        for broken in [&b"\0\0\0"[..], b"\x01\0\0\0\x01a", b"\0\0\0\0\x02a"] {
            assert!(unframe(Bytes::copy_from_slice(broken)).is_err());
        }
    }

    #[test]
    fn envelopes_are_cut_as_they_complete_and_oversized_ones_refused() {
        let mut envelopes = Envelopes::default();
        let whole = [envelope(0, b"ab").unwrap(), envelope(1, b"c").unwrap()].concat();
        envelopes.push(&whole[..4]);
        assert!(envelopes.next(10).unwrap().is_none());
        envelopes.push(&whole[4..]);
        assert_eq!(
            envelopes.next(10).unwrap(),
            Some((0, Bytes::from_static(b"ab")))
        );
        assert_eq!(
            envelopes.next(10).unwrap(),
            Some((1, Bytes::from_static(b"c")))
        );
        assert!(envelopes.next(10).unwrap().is_none());
        envelopes.push(&envelope(0, b"too long").unwrap());
        assert!(envelopes.next(3).is_err());
    }

    #[test]
    fn codes_map_to_the_specified_http_statuses() {
        assert_eq!(http_status(Code::InvalidArgument), StatusCode::BAD_REQUEST);
        assert_eq!(
            http_status(Code::FailedPrecondition),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(http_status(Code::Unauthenticated), StatusCode::UNAUTHORIZED);
        assert_eq!(
            http_status(Code::ResourceExhausted),
            StatusCode::TOO_MANY_REQUESTS
        );
        assert_eq!(
            http_status(Code::DeadlineExceeded),
            StatusCode::GATEWAY_TIMEOUT
        );
        assert_eq!(http_status(Code::Cancelled).as_u16(), 499);
        assert_eq!(code_name(Code::Cancelled), "canceled");
    }
}
