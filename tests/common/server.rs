//! A real server on a loopback port, started in-process for one test.

use sudokud::pb::sudoku_service_client::SudokuServiceClient;
use sudokud::service::{Limits, SudokuSolver, Tracker};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// A server running on a loopback port for the length of one test.
pub struct TestServer {
    pub address: std::net::SocketAddr,
    pub channel: Channel,
    pub client: SudokuServiceClient<Channel>,
    pub tracker: Tracker,
    pub metrics: std::sync::Arc<sudokud::metrics::Metrics>,
    pub readiness: sudokud::service::Readiness,
    pub shutdown: Option<oneshot::Sender<()>>,
    pub task: JoinHandle<Result<(), sudokud::server::ServeError>>,
}

pub async fn start() -> TestServer {
    start_with(Limits::default()).await
}

pub async fn start_with(limits: Limits) -> TestServer {
    start_with_transport(limits, sudokud::server::Transport::default()).await
}

pub async fn start_with_transport(
    limits: Limits,
    transport: sudokud::server::Transport,
) -> TestServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    start_on(listener, limits, transport)
}

/// A server on a listener of the test's own (to serve again at an address).
pub fn start_on(
    listener: TcpListener,
    limits: Limits,
    transport: sudokud::server::Transport,
) -> TestServer {
    let address = listener.local_addr().unwrap();
    let service = SudokuSolver::new(limits);
    let tracker = service.tracker();
    let metrics = service.metrics();
    let readiness = service.readiness();
    let (shutdown, signal) = oneshot::channel::<()>();
    let task = tokio::spawn(sudokud::server::run(listener, service, transport, async {
        let _ = signal.await;
    }));
    // Lazy, so a TLS server (which this plaintext channel cannot talk to) starts
    // as well; tests of TLS servers dial their own channels.
    let channel = Channel::from_shared(format!("http://{address}"))
        .unwrap()
        .connect_lazy();
    TestServer {
        address,
        channel: channel.clone(),
        client: SudokuServiceClient::new(channel),
        tracker,
        metrics,
        readiness,
        shutdown: Some(shutdown),
        task,
    }
}
