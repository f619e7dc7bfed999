//! What the gRPC port answers besides gRPC over HTTP/2: gRPC-Web (HTTP/1.1 and
//! HTTP/2) for the gRPC services, JSON over HTTP for the unary RPCs (`connect`),
//! CORS for pages of other origins, the probes
//! (`probes`), the dashboard's files, and a plain 404 for any other HTTP request (a browser's `/favicon.ico`);
//! an unknown gRPC method stays `UNIMPLEMENTED`. A plain gRPC call skips all of
//! these layers on its way to the services ([`Front`]).
//!
//! Knows HTTP and the gRPC-Web wire format's headers; nothing of the services.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderName, HeaderValue, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tonic::server::NamedService;
use tonic_web::GrpcWebLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// The server's front door, a layer around tonic's routes (the gRPC services'
/// router, an unknown method `UNIMPLEMENTED` as everywhere): a plain gRPC call (its
/// content type `application/grpc` or `application/grpc+...`, no browser
/// `Origin`) to the service `sudoku` names goes straight to it (ours, behind its
/// token and its message limit); any other plain gRPC call (health,
/// reflection) to the routes; every other request (gRPC-Web, Connect's JSON, CORS
/// preflights, the probes, the dashboard) to `app` with its CORS layer. A plain
/// call needs none of `app`'s layers, and our own calls no router: the two
/// routers' path matches, boxed clones of the service and bodies boxed anew cost
/// about a tenth of a unary Solve's server time at 64 callers.
#[derive(Clone)]
pub(super) struct Front<S> {
    sudoku: S,
    app: Router,
}

impl<S> Front<S> {
    pub(super) fn new(sudoku: S, app: Router, cors: CorsLayer) -> Front<S> {
        Front {
            sudoku,
            app: app.layer(cors),
        }
    }
}

impl<S: Clone, R> tower::Layer<R> for Front<S> {
    type Service = Door<S, R>;

    fn layer(&self, routes: R) -> Door<S, R> {
        Door {
            sudoku: self.sudoku.clone(),
            routes,
            app: self.app.clone(),
        }
    }
}

/// [`Front`] around the routes: the three ways in.
#[derive(Clone)]
pub(super) struct Door<S, R> {
    sudoku: S,
    routes: R,
    app: Router,
}

/// True for a call of plain gRPC from a client that is no browser page.
fn plain_grpc<B>(request: &Request<B>) -> bool {
    let headers = request.headers();
    let grpc = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("application/grpc"))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('+') || rest.starts_with(';'));
    grpc && !headers.contains_key(header::ORIGIN)
}

/// True for a path of a method of the service named `service`.
fn of_service(path: &str, service: &str) -> bool {
    path.strip_prefix('/')
        .and_then(|path| path.strip_prefix(service))
        .is_some_and(|rest| rest.starts_with('/'))
}

type GrpcBody = tonic::body::Body;

impl<S, R> tower::Service<Request<GrpcBody>> for Door<S, R>
where
    S: tower::Service<Request<GrpcBody>, Response = Response<GrpcBody>, Error = Infallible>
        + NamedService,
    S::Future: Unpin,
    R: tower::Service<Request<GrpcBody>, Response = Response<GrpcBody>, Error = Infallible>,
    R::Future: Unpin,
{
    type Response = Response<GrpcBody>;
    type Error = Infallible;
    type Future = DoorFuture<S::Future, R::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // The generated service and the routers are always ready; asked anyway.
        ready!(self.sudoku.poll_ready(cx))?;
        ready!(self.routes.poll_ready(cx))?;
        tower::Service::<Request<GrpcBody>>::poll_ready(&mut self.app, cx)
    }

    fn call(&mut self, request: Request<GrpcBody>) -> Self::Future {
        if !plain_grpc(&request) {
            DoorFuture::App(Box::new(self.app.call(request)))
        } else if of_service(request.uri().path(), S::NAME) {
            DoorFuture::Ours(self.sudoku.call(request))
        } else {
            DoorFuture::Routes(Box::new(self.routes.call(request)))
        }
    }
}

/// The response of whichever way a request took. The other ways' futures (a
/// router's, 320 bytes) are boxed, so that our own calls' stays small.
pub(super) enum DoorFuture<S, R> {
    Ours(S),
    Routes(Box<R>),
    App(Box<axum::routing::future::RouteFuture<Infallible>>),
}

impl<S, R> Future for DoorFuture<S, R>
where
    S: Future<Output = Result<Response<GrpcBody>, Infallible>> + Unpin,
    R: Future<Output = Result<Response<GrpcBody>, Infallible>> + Unpin,
{
    type Output = Result<Response<GrpcBody>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            DoorFuture::Ours(future) => Pin::new(future).poll(cx),
            DoorFuture::Routes(future) => Pin::new(&mut **future).poll(cx),
            DoorFuture::App(future) => Pin::new(&mut **future)
                .poll(cx)
                .map_ok(|response| response.map(GrpcBody::new)),
        }
    }
}

/// The whole HTTP surface: `grpc` (the gRPC services' router) behind gRPC-Web
/// translation, the probes, the dashboard when asked for, and the fallback for
/// the rest, all behind the Connect translation (which hands its calls on to
/// the gRPC routes, and every other request on unchanged).
pub(super) fn router(
    grpc: Router,
    connect: Arc<super::connect::Connect>,
    probes: Router,
    dashboard: bool,
) -> Router {
    // gRPC-Web translation wraps the gRPC services only: it turns away any other
    // HTTP/1.1 request, and the probes and the dashboard's files are such requests.
    let mut app = grpc.layer(GrpcWebLayer::new()).merge(probes);
    if dashboard {
        app = app.merge(crate::dashboard::router());
    }
    app.fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            connect,
            super::connect::serve,
        ))
}

/// Any path no route knows: `UNIMPLEMENTED` for a gRPC or gRPC-Web call (in the
/// headers, as a trailers-only response), a plain 404 for everything else.
pub(super) async fn not_found(request: Request<axum::body::Body>) -> Response {
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("application/grpc") {
        let status = tonic::Status::unimplemented(format!(
            "no method {} on this server",
            request.uri().path()
        ));
        let mut response = status.into_http::<axum::body::Body>();
        if let Ok(value) = HeaderValue::from_str(content_type) {
            response.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        return response;
    }
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "not found\n",
    )
        .into_response()
}

/// An origin given to `--cors-allow-origin` that no browser would ever send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadOrigin(pub String);

impl std::fmt::Display for BadOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CORS origin {:?} is not an origin: give `*` or scheme://host[:port], \
             such as https://example.com, with no path",
            self.0
        )
    }
}

impl std::error::Error for BadOrigin {}

/// Checks one origin as a browser sends it in `Origin`: `http(s)://host[:port]`.
fn origin_value(origin: &str) -> Result<HeaderValue, BadOrigin> {
    let bad = || BadOrigin(origin.to_owned());
    let host = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .ok_or_else(bad)?;
    let well_formed = !host.is_empty()
        && host
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b".-:[]".contains(&byte));
    if !well_formed {
        return Err(bad());
    }
    HeaderValue::from_str(origin).map_err(|_| bad())
}

/// CORS for gRPC-Web calls from pages of other origins: the headers grpc-web and
/// Connect clients send, and the trailers-as-headers they must read. Every origin
/// is checked: one a browser could never send is an error, not silently dropped.
pub(super) fn cors(origins: &[String]) -> Result<CorsLayer, BadOrigin> {
    let allow_origin = if origins.iter().any(|origin| origin == "*") {
        AllowOrigin::any()
    } else {
        let values: Result<Vec<HeaderValue>, BadOrigin> =
            origins.iter().map(|origin| origin_value(origin)).collect();
        AllowOrigin::list(values?)
    };
    let names = |list: &[&'static str]| -> Vec<HeaderName> {
        list.iter()
            .map(|name| HeaderName::from_static(name))
            .collect()
    };
    Ok(CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([Method::POST, Method::GET, Method::OPTIONS])
        .allow_headers(names(&[
            "content-type",
            "x-grpc-web",
            "x-user-agent",
            "grpc-timeout",
            "authorization",
            "grpc-accept-encoding",
            "grpc-encoding",
            "connect-protocol-version",
            "connect-timeout-ms",
        ]))
        .expose_headers(names(&[
            "grpc-status",
            "grpc-message",
            "grpc-status-details-bin",
            "grpc-encoding",
        ]))
        .max_age(Duration::from_secs(24 * 3600)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_scheme_and_host_only() {
        for good in [
            "https://example.com",
            "http://localhost:8080",
            "http://[::1]:3000",
        ] {
            assert!(origin_value(good).is_ok(), "{good}");
        }
        for bad in [
            "example.com",
            "https://",
            "https://a.com/",
            "https://a b",
            "ftp://a",
            "",
        ] {
            assert_eq!(origin_value(bad), Err(BadOrigin(bad.to_owned())), "{bad}");
        }
    }

    #[test]
    fn only_a_service_s_own_methods_go_its_way() {
        let name = "sudoku.v1.SudokuService";
        assert!(of_service("/sudoku.v1.SudokuService/Solve", name));
        assert!(of_service("/sudoku.v1.SudokuService/", name));
        for other in [
            "/sudoku.v1.SudokuServiceX/Solve",
            "/sudoku.v1.SudokuService",
            "sudoku.v1.SudokuService/Solve",
            "/grpc.health.v1.Health/Check",
            "/",
        ] {
            assert!(!of_service(other, name), "{other}");
        }
    }

    #[test]
    fn only_plain_grpc_from_no_page_takes_the_short_way() {
        let request = |content_type: &str, origin: bool| {
            let mut builder = Request::builder().header(header::CONTENT_TYPE, content_type);
            if origin {
                builder = builder.header(header::ORIGIN, "https://example.com");
            }
            builder.body(()).unwrap()
        };
        for grpc in [
            "application/grpc",
            "application/grpc+proto",
            "application/grpc;x=1",
        ] {
            assert!(plain_grpc(&request(grpc, false)), "{grpc}");
            assert!(!plain_grpc(&request(grpc, true)), "{grpc} from a page");
        }
        for other in [
            "application/grpc-web",
            "application/grpc-web-text+proto",
            "application/json",
            "application/connect+proto",
            "",
        ] {
            assert!(!plain_grpc(&request(other, false)), "{other}");
        }
    }
}
