//! Spans for a trace collector: with `--otlp-endpoint`, each call's span (target
//! `sudokud::otel`, a child of the caller's span when the call carried a trace
//! context) is exported over OTLP/gRPC on tonic, the transport the server already
//! has, by OpenTelemetry's batch processor (a bounded queue: when the collector is
//! slow or away, spans are dropped, never calls slowed). Off by default: then the
//! spans are disabled and cost nothing. Knows nothing of the calls themselves.

use opentelemetry::KeyValue;
use opentelemetry::trace::TracerProvider;
use opentelemetry_otlp::WithTonicConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::registry::LookupSpan;

/// The target of the spans that are exported (and never printed in the log).
pub const TARGET: &str = "sudokud::otel";

/// Why the exporter could not be set up.
#[derive(Debug)]
pub struct ExportError(String);

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--otlp-endpoint: {}", self.0)
    }
}

impl std::error::Error for ExportError {}

/// The span exporter; flushes what it holds on [`Exporter::shutdown`].
pub struct Exporter {
    provider: SdkTracerProvider,
}

impl Exporter {
    /// An exporter to the collector at `endpoint` (`http://host:port`, OTLP/gRPC,
    /// usually port 4317). Connects lazily: a collector that is not up yet only
    /// loses spans. Must run inside the Tokio runtime (tonic's channel lives there).
    pub fn new(endpoint: &str) -> Result<Exporter, ExportError> {
        let uri: tonic::codegen::http::Uri = endpoint
            .parse()
            .map_err(|error| ExportError(format!("{endpoint:?} is no URL: {error}")))?;
        match uri.scheme_str() {
            Some("http") if uri.authority().is_some() => {}
            Some("https") => {
                return Err(ExportError(format!(
                    "{endpoint:?}: TLS to the collector is not supported; export to a \
                     collector or agent beside sudokud over http://"
                )));
            }
            _ => {
                return Err(ExportError(format!(
                    "{endpoint:?}: expected http://host:port"
                )));
            }
        }
        let channel = tonic::transport::Channel::builder(uri).connect_lazy();
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_tonic()
            .with_channel(channel)
            .build()
            .map_err(|error| ExportError(error.to_string()))?;
        let resource = Resource::builder()
            .with_service_name("sudokud")
            .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
            .build();
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource)
            .build();
        Ok(Exporter { provider })
    }

    /// The tracing layer that turns the calls' spans (and only those) into
    /// OpenTelemetry spans.
    pub fn layer<S>(&self) -> impl Layer<S> + Send + Sync + 'static
    where
        S: tracing::Subscriber + for<'span> LookupSpan<'span> + Send + Sync,
    {
        tracing_opentelemetry::layer()
            .with_tracer(self.provider.tracer("sudokud"))
            .with_filter(Targets::new().with_target(TARGET, tracing::Level::INFO))
    }

    /// Sends the spans still queued, within the exporter's timeout.
    pub fn shutdown(self) {
        if let Err(error) = self.provider.shutdown() {
            tracing::warn!(%error, "spans not flushed at shutdown");
        }
    }
}
