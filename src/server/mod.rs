//! Builds the tonic server around [`SudokuSolver`] — with the gRPC health service and
//! server reflection (v1 and v1alpha) beside it — and runs it on a listener until a
//! shutdown future completes. Tests pass their own listener (port 0) and signal.

use std::future::Future;
use std::time::Duration;

use std::sync::Arc;

use axum::http::{HeaderName, HeaderValue, Method};
use tokio::net::TcpListener;
use tonic::codec::CompressionEncoding;
use tonic::service::interceptor::{InterceptedService, Interceptor};
use tonic::service::{Routes, RoutesBuilder};

use tonic::transport::{Certificate, Identity, Server, ServerTlsConfig};
use tonic::{Request, Status};
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tonic_web::GrpcWebLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::pb;
use crate::pb::sudoku_service_server::SudokuServiceServer;
use crate::service::SudokuSolver;

mod admission;
mod handshake;

pub use admission::Admission;

/// The full name of the solving service, as health checks and reflection name it.
pub const SERVICE_NAME: &str = "sudoku.v1.SudokuService";

/// Settings of the listener: HTTP/2, connections, and access.
#[derive(Debug, Clone)]
pub struct Transport {
    /// When set, every call to `sudoku.v1.SudokuService` must carry
    /// `authorization: Bearer <token>`; health and reflection stay open.
    pub bearer_token: Option<String>,
    /// Concurrent streams (calls) one connection may carry.
    pub max_concurrent_streams: u32,
    /// Interval of HTTP/2 pings that detect dead peers; `None` turns them off.
    pub keepalive_interval: Option<Duration>,
    /// How long a keepalive ping may go unanswered before the connection closes.
    pub keepalive_timeout: Duration,
    /// Connections are asked to go away (GOAWAY) after this age, so long-lived
    /// clients reconnect and rebalance across replicas.
    pub max_connection_age: Option<Duration>,
    /// How long calls on an aged connection may go on before it is closed.
    pub max_connection_age_grace: Duration,
    /// Serve TLS instead of plaintext HTTP/2 when set.
    pub tls: Option<Tls>,
    /// Origins whose pages may call the service through gRPC-Web (CORS); `*`
    /// allows any. Empty: same-origin pages only (the built-in dashboard).
    pub cors_allowed_origins: Vec<String>,
    /// Serve the built-in dashboard at `/`.
    pub dashboard: bool,
    /// The connection cap and the handshake timeout.
    pub admission: Admission,
}

/// The server's TLS material, PEM-encoded.
#[derive(Clone)]
pub struct Tls {
    /// The certificate chain the server presents, leaf first.
    pub certificate_chain: Vec<u8>,
    /// The private key of the leaf certificate.
    pub private_key: Vec<u8>,
    /// When set, clients must present a certificate signed by one of these CAs
    /// (mutual TLS); a client without one is refused during the handshake.
    pub client_ca: Option<Vec<u8>>,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("Tls")
            .field("mutual", &self.client_ca.is_some())
            .finish_non_exhaustive()
    }
}

impl Tls {
    fn server_config(&self) -> ServerTlsConfig {
        let config = ServerTlsConfig::new().identity(Identity::from_pem(
            &self.certificate_chain,
            &self.private_key,
        ));
        match &self.client_ca {
            Some(ca) => config.client_ca_root(Certificate::from_pem(ca)),
            None => config,
        }
    }
}

impl Default for Transport {
    fn default() -> Self {
        Transport {
            bearer_token: None,
            max_concurrent_streams: 1024,
            keepalive_interval: Some(Duration::from_secs(60)),
            keepalive_timeout: Duration::from_secs(20),
            max_connection_age: Some(Duration::from_secs(30 * 60)),
            max_connection_age_grace: Duration::from_secs(30),
            tls: None,
            cors_allowed_origins: Vec::new(),
            dashboard: true,
            admission: Admission::default(),
        }
    }
}

/// Why the server could not run.
#[derive(Debug)]
pub enum ServeError {
    /// The reflection service could not read a descriptor set.
    Reflection(tonic_reflection::server::Error),
    /// The transport failed.
    Transport(tonic::transport::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Reflection(error) => write!(f, "reflection: {error}"),
            ServeError::Transport(error) => {
                write!(f, "transport: {}", crate::client::describe(error))
            }
        }
    }
}

impl std::error::Error for ServeError {}

/// Serves `service` on `listener` until `shutdown` completes. Health reports
/// `SERVING` (overall and for `sudoku.v1.SudokuService`) from the start and
/// `NOT_SERVING` as soon as shutdown begins; the listener stops accepting, calls in
/// flight may finish within the service's shutdown grace, and the solves still
/// running after it are stopped (their calls end with `UNAVAILABLE`).
pub async fn run(
    listener: TcpListener,
    service: SudokuSolver,
    transport: Transport,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_serving::<SudokuServiceServer<SudokuSolver>>()
        .await;

    let reflection_v1 = reflection().build_v1().map_err(ServeError::Reflection)?;
    let reflection_v1alpha = reflection()
        .build_v1alpha()
        .map_err(ServeError::Reflection)?;

    let stopper = service.shutdown();
    let grace = service.limits().shutdown_grace;
    let shutdown = async move {
        shutdown.await;
        mark_not_serving(&health).await;
        tracing::info!(
            grace_seconds = grace.as_secs_f64(),
            "draining: no new connections"
        );
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            tracing::info!("shutdown grace over: stopping the solves still running");
            stopper.stop_all();
        });
    };
    let mut builder = Server::builder()
        // HTTP/1.1 for gRPC-Web and the dashboard; gRPC itself stays on HTTP/2.
        .accept_http1(true)
        .max_concurrent_streams(transport.max_concurrent_streams)
        .http2_keepalive_interval(transport.keepalive_interval)
        .http2_keepalive_timeout(Some(transport.keepalive_timeout));
    if let Some(tls) = &transport.tls {
        builder = builder
            .tls_config(tls.server_config())
            .map_err(ServeError::Transport)?;
    }
    if let Some(age) = transport.max_connection_age {
        builder = builder
            .max_connection_age(age)
            .max_connection_age_grace(transport.max_connection_age_grace);
    }
    if let Ok(address) = listener.local_addr() {
        tracing::info!(
            %address,
            tls = transport.tls.is_some(),
            mutual_tls = transport.tls.as_ref().is_some_and(|tls| tls.client_ca.is_some()),
            "sudokud serving gRPC"
        );
        if transport.dashboard {
            let scheme = if transport.tls.is_some() {
                "https"
            } else {
                "http"
            };
            tracing::info!("dashboard at {scheme}://{address}/");
        }
    }
    let incoming = admission::Incoming::new(
        listener,
        transport.admission,
        transport.tls.is_some(),
        service.metrics(),
    );
    let mut routes = RoutesBuilder::default();
    routes
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(InterceptedService::new(
            SudokuServiceServer::new(service.clone())
                .max_decoding_message_size(service.limits().max_message_bytes)
                .accept_compressed(CompressionEncoding::Gzip)
                .send_compressed(CompressionEncoding::Gzip),
            BearerAuth::new(transport.bearer_token.as_deref()),
        ));
    // gRPC-Web translation wraps the gRPC services only: it turns away any other
    // HTTP/1.1 request, and the dashboard's files are such requests.
    let mut app = routes
        .routes()
        .into_axum_router()
        .layer(GrpcWebLayer::new());
    if transport.dashboard {
        app = app.merge(crate::dashboard::router());
    }
    builder
        .layer(cors(&transport.cors_allowed_origins))
        .add_routes(Routes::from(app))
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await
        .map_err(ServeError::Transport)
}

/// CORS for gRPC-Web calls from pages of other origins: the headers grpc-web and
/// Connect clients send, and the trailers-as-headers they must read.
fn cors(origins: &[String]) -> CorsLayer {
    let allow_origin = if origins.iter().any(|origin| origin == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            origins
                .iter()
                .filter_map(|origin| HeaderValue::from_str(origin).ok()),
        )
    };
    let names = |list: &[&'static str]| -> Vec<HeaderName> {
        list.iter()
            .map(|name| HeaderName::from_static(name))
            .collect()
    };
    CorsLayer::new()
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
        ]))
        .expose_headers(names(&[
            "grpc-status",
            "grpc-message",
            "grpc-status-details-bin",
            "grpc-encoding",
        ]))
        .max_age(Duration::from_secs(24 * 3600))
}

/// Reflection over our service and the health service (grpcurl, buf curl, Postman
/// and evans need no proto file).
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
}

/// Checks `authorization: Bearer <token>` when a token is configured.
#[derive(Clone)]
struct BearerAuth {
    expected: Option<Arc<str>>,
}

impl BearerAuth {
    fn new(token: Option<&str>) -> Self {
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

async fn mark_not_serving(health: &HealthReporter) {
    for name in ["", SERVICE_NAME] {
        health
            .set_service_status(name, ServingStatus::NotServing)
            .await;
    }
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut signals) => {
                signals.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT received, shutting down"),
        () = terminate => tracing::info!("SIGTERM received, shutting down"),
    }
}
