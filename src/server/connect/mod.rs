//! JSON over HTTP for the unary RPCs: the Connect protocol's unary form
//! (`POST /sudoku.v1.SudokuService/Solve` with `content-type: application/json`
//! or `application/proto`) and each method's `google.api.http` POST alias
//! (`POST /v1/solve`), on the gRPC port, for `curl`, `buf curl --protocol
//! connect` and Connect clients in any language.
//!
//! A Connect request is translated into a gRPC call on the same router (a
//! framed binary message, `Connect-Timeout-Ms` as `grpc-timeout`, the caller's
//! other headers kept), so auth, the message limit, the call's log line,
//! metrics and trace context apply as to any gRPC call; the gRPC response is
//! translated back (`trailer-` headers, errors as Connect JSON). Nothing here
//! knows an RPC by name: the procedures come from the descriptor sets.
//!
//! Methods the proto declares without side effects (Solve, Rate, Hint) also
//! answer Connect's GET form at their gRPC path (`get`), the message in the
//! query, so that an answer can be cached.
//!
//! The Connect streaming form (`application/connect+proto` or `+json`) is
//! translated the same way, message by message, for the streaming RPCs and
//! server reflection (which `buf curl` calls that way).
//!
//! - `procedures`: which paths are answered, and their message types;
//! - `calls`: the gRPC call's headers and deadline, and the response's headers;
//! - `enums`: what an unknown enum name in a JSON body should have been;
//! - `get`: the GET form's query;
//! - `stream`: the streaming form's envelopes and its end-of-stream message;
//! - `wire`: bodies, frames and Connect errors.

mod calls;
mod enums;
mod get;
mod procedures;
mod stream;
mod wire;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use tonic::Code;
use tower::ServiceExt as _;

use crate::metrics::Metrics;
use calls::{grpc_request, grpc_timeout, response_headers};
use procedures::{Procedure, Procedures};
use wire::{ConnectError, Encoding, compressed_refused, over_limit};

/// The translation: the procedures it answers, and the gRPC routes its calls
/// go to (the gRPC services' own router: an alias's path has no route there).
#[derive(Debug)]
pub(super) struct Connect {
    procedures: Procedures,
    grpc: Router,
    /// The largest request body read (the server's `--max-message-bytes`).
    max_body: usize,
    /// Where refusals are counted.
    metrics: Arc<Metrics>,
}

impl Connect {
    /// Serves every method of the services in `descriptor_sets`, calling them
    /// on `grpc`.
    pub fn new(
        descriptor_sets: &[&[u8]],
        grpc: Router,
        max_body: usize,
        metrics: Arc<Metrics>,
    ) -> Result<Arc<Self>, prost_reflect::DescriptorError> {
        Ok(Arc::new(Connect {
            procedures: Procedures::new(descriptor_sets)?,
            grpc,
            max_body,
            metrics,
        }))
    }

    /// Counts and logs `error` if it refused the request at `path` before any
    /// call was made (a call's own errors are the service's to count), and
    /// hands it on.
    fn noted(&self, path: &str, error: ConnectError) -> ConnectError {
        if error.is_refusal() {
            let code = error.code_name();
            self.metrics.connect_refused(code);
            tracing::info!(path, code, "connect request refused: {}", error.message());
        }
        error
    }

    /// What to do with `request`; `None` when it is not a Connect request (on
    /// to gRPC, gRPC-Web, the probes or the dashboard).
    fn route(&self, request: &Request) -> Option<Route> {
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("");
        let path = request.uri().path();
        if content_type.starts_with("application/grpc") {
            return None;
        }
        let Some(procedure) = self.procedures.get(path) else {
            return self.unknown(request, content_type);
        };
        // GET at the method's own path (an alias is declared as a POST).
        let get = procedure.unary && procedure.cacheable && path == procedure.grpc_path;
        if get && request.method() == Method::GET {
            return Some(Route::Get(procedure.clone()));
        }
        if request.method() != Method::POST {
            return Some(Route::Refuse(method_not_allowed(
                path,
                request.method(),
                get,
            )));
        }
        if let Some(encoding) = Encoding::of_stream(content_type) {
            return Some(Route::Stream(Target {
                procedure: procedure.clone(),
                encoding,
            }));
        }
        let Some(encoding) = Encoding::of(content_type) else {
            return Some(Route::Refuse(unsupported_media_type(content_type, path)));
        };
        if !procedure.unary {
            return Some(Route::Refuse(ConnectError::new(
                Code::Unimplemented,
                format!(
                    "{} streams: call it with content-type application/connect+json \
                     or +proto (Connect's streaming form), gRPC or gRPC-Web",
                    procedure.grpc_path
                ),
            )));
        }
        Some(Route::Unary(Target {
            procedure: procedure.clone(),
            encoding,
        }))
    }

    /// A request at a path no procedure has: refused as Connect's
    /// `unimplemented` (404) when it is a Connect call (a POST in a Connect
    /// content type), naming the path and the procedure it may have meant;
    /// anything else goes on (gRPC-Web, the probes, the dashboard, the 404).
    fn unknown(&self, request: &Request, content_type: &str) -> Option<Route> {
        let connect = Encoding::of(content_type)
            .or_else(|| Encoding::of_stream(content_type))
            .is_some();
        if !connect || request.method() != Method::POST {
            return None;
        }
        let path = request.uri().path();
        let mut message = format!("no procedure at {path}");
        if let Some(meant) = self.procedures.like(path) {
            message.push_str(&format!(": did you mean {meant}?"));
        }
        message.push_str(" (paths are /package.Service/Method, case-sensitive; list them with grpcurl or buf curl --list-methods)");
        let error =
            ConnectError::new(Code::Unimplemented, message).with_http_status(StatusCode::NOT_FOUND);
        Some(Route::Refuse(error))
    }

    /// One unary Connect call, made as a gRPC call on the gRPC routes.
    async fn unary(&self, to: &Target, request: Request) -> Result<Response, ConnectError> {
        let (parts, body) = request.into_parts();
        check_headers(&parts.headers, header::CONTENT_ENCODING)?;
        let body = read_body(body, self.max_body).await?;
        self.answer(&to.procedure, to.encoding, parts, body).await
    }

    /// One unary call in Connect's GET form: the message from the query.
    async fn get(&self, procedure: &Procedure, request: Request) -> Result<Response, ConnectError> {
        let (parts, _) = request.into_parts();
        check_headers(&parts.headers, header::CONTENT_ENCODING)?;
        let query = parts.uri.query().unwrap_or("");
        let (encoding, body) = get::message(query, self.max_body)?;
        self.answer(procedure, encoding, parts, body).await
    }

    /// A unary call's answer to the request message `body`, made as a gRPC
    /// call on the gRPC routes.
    async fn answer(
        &self,
        procedure: &Procedure,
        encoding: Encoding,
        parts: Parts,
        body: Bytes,
    ) -> Result<Response, ConnectError> {
        let message = encoding.request_message(&procedure.input, body)?;
        let body = Body::from(wire::envelope(0, &message)?);
        let (parts, body) = self.call(parts, procedure, body).await?;
        let collected = body.collect().await.map_err(|error| {
            ConnectError::new(Code::Internal, format!("the call failed: {error}"))
        })?;
        let trailers = collected.trailers().cloned().unwrap_or_default();
        let headers = response_headers(&parts.headers, &trailers);
        let status = tonic::Status::from_header_map(&trailers)
            .or_else(|| tonic::Status::from_header_map(&parts.headers))
            .ok_or_else(|| {
                ConnectError::new(
                    Code::Unknown,
                    format!(
                        "the call ended with HTTP {} and no gRPC status",
                        parts.status
                    ),
                )
            })?;
        if status.code() != Code::Ok {
            return Err(ConnectError::from_status(&status, headers));
        }
        let message = wire::unframe(collected.to_bytes())?;
        let body = encoding.response_body(&procedure.output, message)?;
        let mut response = (StatusCode::OK, body).into_response();
        response.headers_mut().extend(headers);
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, encoding.content_type());
        Ok(response)
    }

    /// One call in Connect's streaming form, made as a gRPC call on the gRPC
    /// routes with its messages streamed through as they come, both ways.
    async fn streaming(&self, to: &Target, request: Request) -> Result<Response, ConnectError> {
        let Target {
            procedure,
            encoding,
        } = to;
        let encoding = *encoding;
        let (parts, body) = request.into_parts();
        check_headers(
            &parts.headers,
            HeaderName::from_static("connect-content-encoding"),
        )?;
        let body = match encoding {
            Encoding::Proto => body,
            Encoding::Json => stream::json_requests(body, procedure.input.clone(), self.max_body),
        };
        let (parts, body) = self.call(parts, procedure, body).await?;
        let early = tonic::Status::from_header_map(&parts.headers);
        let body = stream::responses(body, early, encoding, procedure.output.clone());
        let mut response = Response::new(body);
        *response.headers_mut() = response_headers(&parts.headers, &HeaderMap::new());
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, encoding.stream_content_type());
        Ok(response)
    }

    /// The gRPC call for a Connect request's `parts` (its deadline from
    /// `Connect-Timeout-Ms`) and the framed `body`, made on the gRPC routes;
    /// the response's head and body.
    async fn call(
        &self,
        parts: Parts,
        procedure: &Procedure,
        body: Body,
    ) -> Result<(axum::http::response::Parts, Body), ConnectError> {
        let timeout = grpc_timeout(&parts.headers)?;
        let call = grpc_request(parts, &procedure.grpc_path, timeout, body)?;
        let Ok(response) = self.grpc.clone().oneshot(call).await;
        Ok(response.into_parts())
    }
}

/// What the translation does with a Connect request.
enum Route {
    /// A Connect request this server cannot take, and why.
    Refuse(ConnectError),
    /// A unary Connect call.
    Unary(Target),
    /// A unary call in Connect's GET form.
    Get(Arc<Procedure>),
    /// A call in Connect's streaming form.
    Stream(Target),
}

/// The procedure a Connect call goes to, and the encoding of its messages.
struct Target {
    procedure: Arc<Procedure>,
    encoding: Encoding,
}

/// The middleware: Connect requests are answered here, the rest pass on.
pub(super) async fn serve(
    State(connect): State<Arc<Connect>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(route) = connect.route(&request) else {
        return next.run(request).await;
    };
    // Kept for a refusal's log line (the request goes on into the call).
    let path = request.uri().path().to_owned();
    let noted = |error| connect.noted(&path, error);
    let answered = match route {
        Route::Refuse(error) => Err(error),
        Route::Unary(to) => connect.unary(&to, request).await,
        Route::Get(procedure) => connect.get(&procedure, request).await,
        Route::Stream(to) => {
            // A streaming call's error is its end-of-stream message.
            return match connect.streaming(&to, request).await {
                Ok(response) => response,
                Err(error) => {
                    let body = Body::from(stream::end_stream_error(&noted(error)));
                    let mut response = Response::new(body);
                    response
                        .headers_mut()
                        .insert(header::CONTENT_TYPE, to.encoding.stream_content_type());
                    response
                }
            };
        }
    };
    answered.unwrap_or_else(|error| noted(error).into_response())
}

/// The refusal of a body in `content_type` at `path`, saying what is served.
fn unsupported_media_type(content_type: &str, path: &str) -> ConnectError {
    ConnectError::new(
        Code::Unimplemented,
        format!(
            "content-type {content_type:?} is not served at {path}: send \
             application/json or application/proto (or gRPC, gRPC-Web, or \
             Connect's application/connect+proto or +json)"
        ),
    )
    .with_http_status(StatusCode::UNSUPPORTED_MEDIA_TYPE)
    .with_header(
        HeaderName::from_static("accept-post"),
        HeaderValue::from_static("application/json, application/proto"),
    )
}

/// The refusal of `method` at `path`, which takes POST (and GET when `get`).
fn method_not_allowed(path: &str, method: &Method, get: bool) -> ConnectError {
    let allowed = if get { "GET, POST" } else { "POST" };
    ConnectError::new(
        Code::Unimplemented,
        format!("{path} takes {allowed}, not {method}"),
    )
    .with_http_status(StatusCode::METHOD_NOT_ALLOWED)
    .with_header(header::ALLOW, HeaderValue::from_static(allowed))
}

/// Refuses a protocol version other than 1 (the header itself is optional:
/// plain `curl` does not send it) and compressed messages, which `compression`
/// names (`content-encoding` for the unary form, `connect-content-encoding`
/// for the streaming form).
fn check_headers(headers: &HeaderMap, compression: HeaderName) -> Result<(), ConnectError> {
    if let Some(version) = headers.get("connect-protocol-version")
        && version != "1"
    {
        return Err(ConnectError::new(
            Code::InvalidArgument,
            format!("connect-protocol-version {version:?} is not served: this server speaks 1"),
        ));
    }
    if let Some(encoding) = headers.get(&compression)
        && encoding != "identity"
    {
        return Err(compressed_refused(format!("{compression} {encoding:?}")));
    }
    Ok(())
}

/// The request body, refused past `limit` bytes.
async fn read_body(body: Body, limit: usize) -> Result<Bytes, ConnectError> {
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(error) if error.is::<LengthLimitError>() => Err(over_limit("the request body", limit)),
        Err(error) => Err(ConnectError::new(
            Code::InvalidArgument,
            format!("the request body could not be read: {error}"),
        )),
    }
}
