//! The request-size limit, enforced where gRPC says it is: on each message's
//! length prefix. A message over `--max-message-bytes` ends the call with
//! `RESOURCE_EXHAUSTED` naming the limit (as the gRPC status-code spec, grpc-go and
//! grpc-java answer), before its body is read or buffered; tonic's own limit, which
//! answers `OUT_OF_RANGE`, stays behind it for decompressed sizes.
//!
//! Knows the gRPC framing (a flag byte and a four-byte big-endian length before
//! every message) and nothing of the service behind it.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::http::Request;
use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use tonic::Status;
use tonic::body::Body;
use tonic::codegen::Service;
use tonic::server::NamedService;

/// Wraps a gRPC service so that every request body it reads is checked message by
/// message against `max_bytes`.
#[derive(Debug, Clone)]
pub struct MessageLimit<S> {
    inner: S,
    max_bytes: usize,
}

impl<S> MessageLimit<S> {
    /// `inner` behind a limit of `max_bytes` per request message.
    pub fn new(inner: S, max_bytes: usize) -> Self {
        MessageLimit { inner, max_bytes }
    }
}

impl<S: NamedService> NamedService for MessageLimit<S> {
    const NAME: &'static str = S::NAME;
}

impl<S> Service<Request<Body>> for MessageLimit<S>
where
    S: Service<Request<Body>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let (parts, body) = request.into_parts();
        let body = Body::new(LimitedBody {
            inner: body,
            framing: Framing::new(self.max_bytes),
        });
        self.inner.call(Request::from_parts(parts, body))
    }
}

/// Where the reader stands in the stream of length-prefixed messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Framing {
    max_bytes: usize,
    /// The prefix bytes of the next message seen so far.
    prefix: [u8; 5],
    /// How many of them.
    prefix_seen: usize,
    /// Bytes of the current message still to come.
    remaining: u64,
}

impl Framing {
    pub(crate) fn new(max_bytes: usize) -> Framing {
        Framing {
            max_bytes,
            prefix: [0; 5],
            prefix_seen: 0,
            remaining: 0,
        }
    }

    /// Reads the next bytes of the body; the length of the first message over the
    /// limit, when these bytes complete its prefix.
    pub(crate) fn read(&mut self, mut data: &[u8]) -> Result<(), u64> {
        while !data.is_empty() {
            if self.remaining > 0 {
                let skip = data
                    .len()
                    .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
                self.remaining -= skip as u64;
                data = &data[skip..];
                continue;
            }
            let take = data.len().min(5 - self.prefix_seen);
            self.prefix[self.prefix_seen..self.prefix_seen + take].copy_from_slice(&data[..take]);
            self.prefix_seen += take;
            data = &data[take..];
            if self.prefix_seen == 5 {
                self.prefix_seen = 0;
                let [_, a, b, c, d] = self.prefix;
                let length = u64::from(u32::from_be_bytes([a, b, c, d]));
                if length > self.max_bytes as u64 {
                    return Err(length);
                }
                self.remaining = length;
            }
        }
        Ok(())
    }

    fn status(&self, length: u64) -> Status {
        Status::resource_exhausted(format!(
            "request message of {length} bytes is over the server's limit of {} bytes \
             (--max-message-bytes)",
            self.max_bytes
        ))
    }
}

/// A request body that fails with `RESOURCE_EXHAUSTED` at the first message over
/// the limit, instead of passing on the frame that announces it.
struct LimitedBody {
    inner: Body,
    framing: Framing,
}

impl HttpBody for LimitedBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        let this = &mut *self;
        let frame = std::task::ready!(Pin::new(&mut this.inner).poll_frame(cx));
        if let Some(Ok(data)) = frame
            .as_ref()
            .map(|frame| frame.as_ref().map(Frame::data_ref))
            && let Some(data) = data
            && let Err(length) = this.framing.read(data)
        {
            return Poll::Ready(Some(Err(this.framing.status(length))));
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(length: u32) -> Vec<u8> {
        let mut bytes = vec![0];
        bytes.extend_from_slice(&length.to_be_bytes());
        bytes.extend(std::iter::repeat_n(7, length as usize));
        bytes
    }

    /// However the body is cut into frames, the first message over the limit is
    /// found and the ones within it pass.
    #[test]
    fn every_cut_of_the_body_finds_the_first_message_over_the_limit() {
        let body: Vec<u8> = [message(3), message(10), message(0), message(11), message(2)].concat();
        for cut in 1..body.len() {
            let mut framing = Framing::new(10);
            let found = body.chunks(cut).find_map(|chunk| framing.read(chunk).err());
            assert_eq!(found, Some(11), "cut {cut}");
        }
        let mut framing = Framing::new(11);
        assert_eq!(framing.read(&body), Ok(()));
    }
}
