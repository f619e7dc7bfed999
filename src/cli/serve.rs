//! `sudokud serve`: logs, the runtime, the listeners, and the server until a
//! signal stops it.

use std::io::{self, IsTerminal};

use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use super::args::{LogFormat, ServeArgs};
use super::runtime::{CliResult, Threads, runtime};
use crate::server;
use crate::service::SudokuSolver;

pub(super) fn run(args: ServeArgs) -> CliResult {
    let config = args.config()?;
    // No call or stream holds a thread: the runtime's workers (one per core) and
    // the service's compute pool (one thread per solve slot) are all there is.
    runtime(Threads::PerCore)?.block_on(async move {
        // The span exporter's channel lives on this runtime.
        let exporter = match &args.otlp_endpoint {
            Some(endpoint) => Some(crate::telemetry::Exporter::new(endpoint)?),
            None => None,
        };
        init_logs(args.log_format, exporter.as_ref());
        if let Some(endpoint) = &args.otlp_endpoint {
            tracing::info!(endpoint = %endpoint, "exporting call spans over OTLP/gRPC");
        }
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|error| format!("cannot listen on {}: {error}", args.listen))?;
        let service = SudokuSolver::new(config.limits);
        let metrics = match args.metrics_listen {
            Some(address) => Some(serve_metrics(address, &service).await?),
            None => None,
        };
        server::run(
            listener,
            service,
            config.transport,
            server::shutdown_signal(),
        )
        .await?;
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        if let Some(exporter) = exporter {
            // Waits for the last export: not on a runtime worker.
            tokio::task::spawn_blocking(move || exporter.shutdown()).await?;
        }
        tracing::info!("sudokud stopped");
        Ok(())
    })
}

/// Logs on stderr at `RUST_LOG` (default `info`), as text or JSON; with an
/// exporter, the calls' spans also go to the collector.
fn init_logs(format: LogFormat, exporter: Option<&crate::telemetry::Exporter>) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info".into())
        .add_directive(
            format!("{}=off", crate::telemetry::TARGET)
                .parse()
                .expect("a directive"),
        );
    let logs = tracing_subscriber::fmt::layer()
        .with_writer(io::stderr)
        .with_ansi(io::stderr().is_terminal());
    let logs = match format {
        LogFormat::Text => logs.boxed(),
        LogFormat::Json => logs.json().boxed(),
    };
    let registry = tracing_subscriber::registry().with(logs.with_filter(filter));
    // No empty exporter layer: an absent layer enables every callsite, and the
    // calls' export spans would be made (and thrown away) on every call.
    match exporter {
        Some(exporter) => registry.with(exporter.layer()).init(),
        None => registry.init(),
    }
}

/// Starts the `/metrics` listener on `address`.
async fn serve_metrics(
    address: std::net::SocketAddr,
    service: &SudokuSolver,
) -> Result<tokio::task::JoinHandle<std::io::Result<()>>, Box<dyn std::error::Error + Send + Sync>>
{
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|error| format!("cannot listen on {address}: {error}"))?;
    tracing::info!(address = %listener.local_addr()?, "metrics at /metrics");
    Ok(tokio::spawn(crate::server::serve_metrics(
        listener,
        service.metrics(),
        service.readiness(),
        std::future::pending(),
    )))
}
