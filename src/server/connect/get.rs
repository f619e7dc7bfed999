//! Connect's GET form of a unary call, served for the methods the proto declares
//! without side effects (`idempotency_level = NO_SIDE_EFFECTS`): the request
//! message travels in the query (`?encoding=json&message=<percent-encoded>`, or
//! `&base64=1` with base64url), so that browsers, proxies and CDNs can cache
//! the answer. Reads the query only; the call is then made as a POST's is.

use base64::Engine as _;
use base64::alphabet::URL_SAFE;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use bytes::Bytes;
use percent_encoding::percent_decode;
use tonic::Code;

use super::wire::{ConnectError, Encoding, compressed_refused, over_limit};

/// The request message a GET's query carries, and its encoding; refused when
/// the query lacks one, names what this server does not speak, or carries a
/// message of more than `limit` bytes.
pub(super) fn message(query: &str, limit: usize) -> Result<(Encoding, Bytes), ConnectError> {
    let fields = Fields::parse(query);
    if let Some(version) = fields
        .connect
        .as_deref()
        .filter(|version| *version != b"v1")
    {
        return Err(invalid(format!(
            "connect={:?} is not served: this server speaks v1",
            String::from_utf8_lossy(version)
        )));
    }
    if let Some(compression) = fields
        .compression
        .as_deref()
        .filter(|name| *name != b"identity")
    {
        return Err(compressed_refused(format!(
            "compression={:?}",
            String::from_utf8_lossy(compression)
        )));
    }
    let encoding = fields.encoding()?;
    let message = fields.message()?;
    if message.len() > limit {
        return Err(over_limit("the message", limit));
    }
    Ok((encoding, Bytes::from(message)))
}

/// The query fields a Connect GET uses, percent-decoded.
#[derive(Default)]
struct Fields {
    message: Option<Vec<u8>>,
    encoding: Option<Vec<u8>>,
    base64: Option<Vec<u8>>,
    compression: Option<Vec<u8>>,
    connect: Option<Vec<u8>>,
}

impl Fields {
    fn parse(query: &str) -> Fields {
        let mut fields = Fields::default();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let slot = match name {
                "message" => &mut fields.message,
                "encoding" => &mut fields.encoding,
                "base64" => &mut fields.base64,
                "compression" => &mut fields.compression,
                "connect" => &mut fields.connect,
                // Others (a cache buster, say) are the caller's own.
                _ => continue,
            };
            *slot = Some(form_decoded(value));
        }
        fields
    }

    fn encoding(&self) -> Result<Encoding, ConnectError> {
        match self.encoding.as_deref() {
            Some(b"json") => Ok(Encoding::Json),
            Some(b"proto") => Ok(Encoding::Proto),
            Some(other) => Err(ConnectError::new(
                Code::Unimplemented,
                format!(
                    "encoding={:?} is not served: use json or proto",
                    String::from_utf8_lossy(other)
                ),
            )
            .with_http_status(axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE)),
            None => Err(invalid(
                "the query names no encoding (encoding=json or proto)",
            )),
        }
    }

    /// The message's bytes, base64url-decoded when `base64=1` says so.
    fn message(self) -> Result<Vec<u8>, ConnectError> {
        let Some(message) = self.message else {
            return Err(invalid("the query carries no message (message=...)"));
        };
        match self.base64.as_deref() {
            None | Some(b"0") => Ok(message),
            Some(b"1") => BASE64URL.decode(&message).map_err(|error| {
                invalid(format!("the message is not base64url (base64=1): {error}"))
            }),
            Some(other) => Err(invalid(format!(
                "base64={:?}: expected 1 or 0",
                String::from_utf8_lossy(other)
            ))),
        }
    }
}

/// base64url, with or without its padding (Connect clients leave it off).
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A query value as a form encodes it: `+` for a space, `%XX` for a byte.
fn form_decoded(value: &str) -> Vec<u8> {
    let spaced = value.replace('+', " ");
    percent_decode(spaced.as_bytes()).collect()
}

fn invalid(message: impl Into<String>) -> ConnectError {
    ConnectError::new(Code::InvalidArgument, message.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_base64_messages_are_read_from_the_query() {
        let query = "connect=v1&encoding=json&message=%7B%22a%22%3A+1%7D&x=7";
        let (encoding, read) = message(query, 100).unwrap();
        assert_eq!((encoding, &read[..]), (Encoding::Json, &b"{\"a\": 1}"[..]));
        for padded in ["CAE", "CAE%3D"] {
            let query = format!("encoding=proto&base64=1&message={padded}");
            let (encoding, read) = message(&query, 100).unwrap();
            assert_eq!((encoding, &read[..]), (Encoding::Proto, &[8u8, 1][..]));
        }
    }

    #[test]
    fn queries_without_what_a_call_needs_are_refused() {
        for (query, code) in [
            ("message=e30", "invalid_argument"),
            ("encoding=json", "invalid_argument"),
            ("encoding=xml&message=x", "unimplemented"),
            ("encoding=json&message=e30&connect=v2", "invalid_argument"),
            (
                "encoding=json&message=e30&compression=gzip",
                "unimplemented",
            ),
            ("encoding=proto&base64=1&message=%21%21", "invalid_argument"),
            ("encoding=json&message=0123456789", "resource_exhausted"),
        ] {
            let error = message(query, 8).err().unwrap_or_else(|| panic!("{query}"));
            assert_eq!(error.code_name(), code, "{query}");
        }
    }
}
