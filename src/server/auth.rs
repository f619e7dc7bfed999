//! Bearer-token authentication of `sudoku.v1.SudokuService` calls; health and
//! reflection are not wrapped, so they stay open. Knows the `authorization` header
//! and nothing else of a call.

use std::sync::Arc;

use tonic::service::interceptor::Interceptor;
use tonic::{Request, Status};

/// Checks `authorization: Bearer <token>` when a token is configured.
#[derive(Clone)]
pub(super) struct BearerAuth {
    expected: Option<Arc<str>>,
}

impl BearerAuth {
    pub(super) fn new(token: Option<&str>) -> Self {
        BearerAuth {
            expected: token.map(|token| Arc::from(format!("Bearer {token}"))),
        }
    }
}

impl Interceptor for BearerAuth {
    fn call(&mut self, request: Request<()>) -> Result<Request<()>, Status> {
        let Some(expected) = &self.expected else {
            return Ok(request);
        };
        let given = request
            .metadata()
            .get("authorization")
            .and_then(|value| value.to_str().ok())
            .unwrap_or("");
        if same_bytes(given.as_bytes(), expected.as_bytes()) {
            Ok(request)
        } else {
            Err(Status::unauthenticated(
                "missing or wrong bearer token in the authorization header",
            ))
        }
    }
}

/// Compares without stopping at the first difference, so timing does not tell how
/// much of a guessed token was right.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}
