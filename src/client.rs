//! How the command-line clients (`health`, `load`, `watch`) reach a server: the
//! address, TLS (a CA to trust, the name to verify, a client certificate for mutual
//! TLS) and an optional bearer token. Knows nothing of any one command or call.

use std::time::Duration;

use tonic::Request;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

/// Where a client connects and how it proves who it is.
#[derive(Debug, Clone, Default)]
pub struct Target {
    /// `host:port`, or a full `http://` / `https://` URL.
    pub address: String,
    /// TLS settings; plaintext HTTP/2 when `None` (unless the address says `https`).
    pub tls: Option<ClientTls>,
    /// Sent as `authorization: Bearer <token>` on SudokuService calls.
    pub bearer_token: Option<String>,
}

/// The client's TLS material, PEM-encoded.
#[derive(Clone, Default)]
pub struct ClientTls {
    /// CA certificates to verify the server with.
    pub ca: Vec<u8>,
    /// The name the server's certificate must carry (default: the host of the URL).
    pub domain: Option<String>,
    /// Certificate chain and key the client presents (mutual TLS).
    pub identity: Option<(Vec<u8>, Vec<u8>)>,
}

impl std::fmt::Debug for ClientTls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientTls")
            .field("domain", &self.domain)
            .field("mutual", &self.identity.is_some())
            .finish_non_exhaustive()
    }
}

/// Why a client could not reach the server.
pub type ConnectError = Box<dyn std::error::Error + Send + Sync>;

impl Target {
    /// The URL to dial: `host:port` becomes `http://host:port`, or `https://` with TLS.
    pub fn url(&self) -> String {
        if self.address.contains("://") {
            self.address.clone()
        } else if self.tls.is_some() {
            format!("https://{}", self.address)
        } else {
            format!("http://{}", self.address)
        }
    }

    /// The endpoint with TLS applied and `timeout` (when given) on connecting and
    /// on every call.
    pub fn endpoint(&self, timeout: Option<Duration>) -> Result<Endpoint, ConnectError> {
        let mut endpoint = Endpoint::from_shared(self.url())?;
        if let Some(timeout) = timeout {
            endpoint = endpoint.connect_timeout(timeout).timeout(timeout);
        }
        if let Some(tls) = &self.tls {
            let mut config = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&tls.ca));
            if let Some(domain) = &tls.domain {
                config = config.domain_name(domain.clone());
            }
            if let Some((certificate, key)) = &tls.identity {
                config = config.identity(Identity::from_pem(certificate, key));
            }
            endpoint = endpoint.tls_config(config)?;
        }
        Ok(endpoint)
    }

    /// Connects (dials and completes the HTTP/2 handshake).
    pub async fn connect(&self, timeout: Option<Duration>) -> Result<Channel, ConnectError> {
        let url = self.url();
        self.endpoint(timeout)?
            .connect()
            .await
            .map_err(|error| format!("cannot connect to {url}: {}", describe(&error)).into())
    }

    /// The `authorization` header value, when a token is set.
    pub fn authorization(&self) -> Result<Option<MetadataValue<Ascii>>, ConnectError> {
        match &self.bearer_token {
            None => Ok(None),
            Some(token) => {
                Ok(Some(format!("Bearer {token}").parse().map_err(
                    |_| "the bearer token holds characters a header cannot carry",
                )?))
            }
        }
    }
}

/// An address as the clients take it (`host:port`, `http://host:port` or
/// `https://host:port`, a trailing `/` allowed): its scheme, if any, and its
/// `host:port`.
pub fn split_url(address: &str) -> (Option<&str>, &str) {
    let (scheme, rest) = match address.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, address),
    };
    (scheme, rest.trim_end_matches('/'))
}

/// `message` as a request carrying `authorization` (the bearer token header), when
/// there is one.
pub fn authorized<T>(message: T, authorization: Option<&MetadataValue<Ascii>>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(value) = authorization {
        request
            .metadata_mut()
            .insert("authorization", value.clone());
    }
    request
}

/// An error with its chain of causes, which is where transport errors keep the
/// useful part ("connection refused", "invalid peer certificate").
pub fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
