//! `sudokud serve --otlp-endpoint`: a call carrying a W3C `traceparent` is
//! exported over OTLP/gRPC as a server span, a child of the caller's span in the
//! caller's trace, to a collector stood in for by an OTLP receiver in this test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use sudokud::pb::SolveRequest;
use sudokud::pb::sudoku_service_client::SudokuServiceClient;
use tokio::sync::mpsc;

/// How long the test waits for anything before it gives up.
const HANG_GUARD: Duration = Duration::from_secs(60);

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER: &str = "00f067aa0ba902b7";

/// The receiver: every span exported to it, and the service it runs under.
struct Receiver {
    spans: mpsc::UnboundedSender<(Span, String)>,
}

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        for resource in request.into_inner().resource_spans {
            let service = resource
                .resource
                .iter()
                .flat_map(|resource| &resource.attributes)
                .find(|attribute| attribute.key == "service.name")
                .map(|attribute| format!("{:?}", attribute.value))
                .unwrap_or_default();
            for scope in resource.scope_spans {
                for span in scope.spans {
                    let _ = self.spans.send((span, service.clone()));
                }
            }
        }
        Ok(tonic::Response::new(ExportTraceServiceResponse::default()))
    }
}

/// The server process, killed when the test ends, also when it fails.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// `sudokud serve` on a free port, exporting to `collector`; its address and its
/// log lines as they come.
fn spawn_server(collector: &str) -> (Child, String, std::sync::mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokud"))
        .args(["serve", "--listen", "127.0.0.1:0", "--log-format", "json"])
        .args(["--otlp-endpoint", collector])
        .env("RUST_LOG", "sudokud=debug")
        // Export within a tenth of a second rather than the default five.
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let address = loop {
        let line = lines.next().expect("the server exited").unwrap();
        if let Some(rest) = line.split("\"address\":\"").nth(1) {
            break rest.split('"').next().unwrap().to_owned();
        }
    };
    let (sender, log) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            let _ = sender.send(line);
        }
    });
    (child, address, log)
}

/// The next span exported, within the guard.
async fn next_span(spans: &mut mpsc::UnboundedReceiver<(Span, String)>) -> (Span, String) {
    tokio::time::timeout(HANG_GUARD, spans.recv())
        .await
        .expect("no span reached the receiver")
        .expect("the receiver stopped")
}

#[tokio::test]
async fn a_call_with_a_traceparent_is_exported_as_a_child_of_the_callers_span() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let collector = format!("http://{}", listener.local_addr().unwrap());
    let (sender, mut spans) = mpsc::unbounded_channel();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(Receiver { spans: sender }))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let (server, address, log) = spawn_server(&collector);
    let _server = Server(server);
    let mut client = SudokuServiceClient::connect(format!("http://{address}"))
        .await
        .unwrap();
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let mut request = tonic::Request::new(SolveRequest {
        puzzle: puzzle.into(),
        ..Default::default()
    });
    let traceparent = format!("00-{TRACE}-{CALLER}-01");
    request
        .metadata_mut()
        .insert("traceparent", traceparent.parse().unwrap());
    client.solve(request).await.unwrap();

    let (span, service) = next_span(&mut spans).await;
    assert_eq!(hex(&span.trace_id), TRACE);
    assert_eq!(hex(&span.parent_span_id), CALLER);
    assert_eq!(span.span_id.len(), 8);
    assert_ne!(hex(&span.span_id), CALLER);
    assert_eq!(span.name, "sudoku.v1.SudokuService/Solve");
    assert_eq!(span.kind, SpanKind::Server as i32);
    assert!(service.contains("sudokud"), "{service}");
    let attribute = |key: &str| {
        span.attributes
            .iter()
            .find(|attribute| attribute.key == key)
            .map(|attribute| format!("{:?}", attribute.value))
    };
    assert!(attribute("rpc.method").unwrap().contains("Solve"));
    assert!(
        attribute("rpc.grpc.status_code")
            .unwrap()
            .contains("IntValue(0)")
    );

    // The call's log line names the same trace.
    let line = loop {
        let line = log.recv_timeout(HANG_GUARD).expect("no call log line");
        if line.contains("call finished") {
            break line;
        }
    };
    assert!(
        line.contains(&format!("\"trace_id\":\"{TRACE}\"")),
        "{line}"
    );

    // A call without a trace context begins a trace of its own.
    client
        .solve(SolveRequest {
            puzzle: puzzle.into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let (root, _) = next_span(&mut spans).await;
    assert!(root.parent_span_id.is_empty(), "{root:?}");
    assert_eq!(root.trace_id.len(), 16);
    assert_ne!(hex(&root.trace_id), TRACE);
}
