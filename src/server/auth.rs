//! Bearer-token authentication of `sudoku.v1.SudokuService` calls; health and
//! reflection are not wrapped, so they stay open. Knows the `authorization` header
//! and nothing else of a call.
//!
//! A tower layer of its own rather than a tonic interceptor: an interceptor takes
//! every call apart into a `tonic::Request` and puts it back together, also when
//! no token is configured; this one reads one header, or nothing.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::http::{Request, Response, header};
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
    S::Future: Unpin,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = Checked<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if self.admits(&request) {
            Checked::Admitted(self.inner.call(request))
        } else {
            let status = Status::unauthenticated(
                "missing or wrong bearer token in the authorization header",
            );
            Checked::Refused(Some(status.into_http()))
        }
    }
}

/// A call let through to the service, or its refusal.
pub(super) enum Checked<F> {
    Admitted(F),
    /// Taken when polled.
    Refused(Option<Response<Body>>),
}

impl<F, E> Future for Checked<F>
where
    F: Future<Output = Result<Response<Body>, E>> + Unpin,
{
    type Output = Result<Response<Body>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Checked::Admitted(future) => Pin::new(future).poll(cx),
            Checked::Refused(response) => Poll::Ready(Ok(response
                .take()
                .unwrap_or_else(|| Status::internal("a refused call polled twice").into_http()))),
        }
    }
}

/// Compares without stopping at the first difference, so timing does not tell how
/// much of a guessed token was right.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}
