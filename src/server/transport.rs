//! The listener's settings (HTTP/2, keepalive, connection age, TLS, CORS, the
//! dashboard, admission) and the tonic server builder they make. Knows tonic's
//! transport; nothing of the services it will carry.

use std::time::Duration;

use tonic::transport::server::Server;
use tonic::transport::{Certificate, Identity, ServerTlsConfig};

use super::admission::Admission;
use super::error::ServeError;

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
    /// allows any. Empty: same-origin pages only (the built-in dashboard). Each
    /// must be `*` or `scheme://host[:port]`; another value stops the start.
    pub cors_allowed_origins: Vec<String>,
    /// Serve the built-in dashboard at `/`.
    pub dashboard: bool,
    /// Compress responses with gzip for clients that accept it. Off by default:
    /// the messages are small, and zlib's set-up costs about 100 µs of CPU a
    /// message (measured on GenerateMany: the server's CPU per puzzle doubled).
    /// Compressed requests are accepted either way.
    pub compress_responses: bool,
    /// The connection cap and the handshake timeout.
    pub admission: Admission,
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
            compress_responses: false,
            admission: Admission::default(),
        }
    }
}

impl Transport {
    /// The tonic server these settings describe.
    pub(super) fn builder(&self) -> Result<Server, ServeError> {
        let mut builder = Server::builder()
            // HTTP/1.1 for gRPC-Web and the dashboard; gRPC itself stays on HTTP/2.
            .accept_http1(true)
            .max_concurrent_streams(self.max_concurrent_streams)
            .http2_keepalive_interval(self.keepalive_interval)
            .http2_keepalive_timeout(Some(self.keepalive_timeout));
        if let Some(tls) = &self.tls {
            builder = builder
                .tls_config(tls.server_config())
                .map_err(ServeError::Transport)?;
        }
        if let Some(age) = self.max_connection_age {
            builder = builder
                .max_connection_age(age)
                .max_connection_age_grace(self.max_connection_age_grace);
        }
        Ok(builder)
    }
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
