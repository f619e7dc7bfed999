//! Bearer-token authentication of `sudoku.v1.SudokuService` calls; health and
//! reflection are not wrapped, so they stay open. Knows the `authorization` header
//! and nothing else of a call.
//!
//! A tower layer of its own rather than a tonic interceptor: an interceptor takes
//! every call apart into a `tonic::Request` and puts it back together, also when
//! no token is configured; this one reads one header, or nothing.

use std::future::{Ready, ready};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::http::{Request, Response, header};
use futures_util::future::Either;
use tonic::Status;
use tonic::body::Body;
use tonic::codegen::Service;
use tonic::server::NamedService;

/// `inner` behind `authorization: Bearer <token>` when a token is configured.
#[derive(Clone)]
pub(super) struct BearerAuth<S> {
    inner: S,
    expected: Option<Arc<str>>,
}

impl<S> BearerAuth<S> {
    pub(super) fn new(inner: S, token: Option<&str>) -> Self {
        BearerAuth {
            inner,
            expected: token.map(|token| Arc::from(format!("Bearer {token}"))),
        }
    }

    /// True when no token is configured or `request` carries it.
    fn admits<B>(&self, request: &Request<B>) -> bool {
        let Some(expected) = &self.expected else {
            return true;
        };
        let given = request
            .headers()
            .get(header::AUTHORIZATION)
            .map_or(&b""[..], |value| value.as_bytes());
        same_bytes(given, expected.as_bytes())
    }
}

impl<S: NamedService> NamedService for BearerAuth<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B> Service<Request<B>> for BearerAuth<S>
where
    S: Service<Request<B>, Response = Response<Body>>,
{
    type Response = Response<Body>;
    type Error = S::Error;
    /// The service's answer, or the refusal, ready at once.
    type Future = Either<S::Future, Ready<Result<Response<Body>, S::Error>>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if self.admits(&request) {
            Either::Left(self.inner.call(request))
        } else {
            let status = Status::unauthenticated(
                "missing or wrong bearer token in the authorization header",
            );
            Either::Right(ready(Ok(status.into_http())))
        }
    }
}

/// Compares without stopping at the first difference, so timing does not tell how
/// much of a guessed token was right.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}
