//! The command line: `sudokud serve` (the default) runs the gRPC server,
//! `sudokud solve` solves puzzles locally, one a line. Flags are parsed by clap into
//! raw arguments here, then turned into engine and service types.

use std::io::{self, BufRead, BufWriter, IsTerminal, Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{Args, Parser, Subcommand, ValueEnum};
use tracing_subscriber::EnvFilter;

use crate::bench;
use crate::board::{Board, cell_char, puzzle_lines};
use crate::client::{ClientTls, Target};
use crate::server::{self, Tls, Transport};
use crate::service::{Limits, SudokuSolver};
use crate::solver::{Algorithm, Control, Interrupted, Mode, NoEvents, Search};

/// A Sudoku-solving gRPC service.
#[derive(Debug, Parser)]
#[command(name = "sudokud", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the gRPC server (the default when no subcommand is given).
    Serve(ServeArgs),
    /// Solve puzzles locally: one puzzle a line from FILE or stdin, one answer a line.
    Solve(SolveArgs),
    /// Measure engine throughput on puzzle files, one core, first solution and
    /// counting to two.
    Bench(BenchArgs),
    /// Ask a running server's health service; exits 0 only when it reports SERVING
    /// (usable as an exec probe).
    Health(HealthArgs),
    /// Load a running server: N concurrent callers for S seconds; prints calls/s
    /// (steps/s for streams) and latency percentiles.
    Load(LoadArgs),
    /// Watch a solve live: the board and counters redrawn in the terminal, or one
    /// line per step when stdout is not a terminal; then the final grid and stats.
    Watch(WatchArgs),
}

#[derive(Debug, Args)]
struct WatchArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Bearer token for servers that require one.
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN", hide_env_values = true)]
    auth_token: Option<String>,
    /// The search to watch.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Default)]
    algorithm: AlgorithmArg,
    /// Steps per second, at most 1,000 (0: as fast as the server goes).
    #[arg(long, default_value_t = 0.0)]
    pace: f64,
    /// Stop after this many steps (0: the server's cap).
    #[arg(long, default_value_t = 0)]
    max_steps: u64,
    /// The puzzle (81 cells, `.` or `0` for empty), or `-` to read a line from stdin.
    puzzle: String,
}

#[derive(Debug, Args)]
struct LoadArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Bearer token for servers that require one.
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN", hide_env_values = true)]
    auth_token: Option<String>,
    /// The call to make.
    #[arg(long, value_enum, default_value_t = RpcArg::Solve)]
    rpc: RpcArg,
    /// Callers running at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seconds to run.
    #[arg(long, default_value_t = 5.0)]
    duration: f64,
    /// Puzzles to send, one a line (default: a few built-in ones).
    #[arg(long)]
    puzzles: Option<PathBuf>,
    /// The algorithm to ask for.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Default)]
    algorithm: AlgorithmArg,
    /// With `--rpc steps`: keep this many streams open at once (dashboards) and
    /// measure a steady window of `--duration` seconds once they are going.
    #[arg(long)]
    streams: Option<usize>,
    /// The streams' `step_interval_ms` (0: unpaced).
    #[arg(long, default_value_t = 0)]
    pace: u32,
    /// The streams' `max_batch` (0: the server's default; paced streams get 1).
    #[arg(long, default_value_t = 0)]
    max_batch: u32,
    /// Connections the streams are spread over (default: at least 10, at most
    /// 1,000 streams each).
    #[arg(long)]
    connections: Option<usize>,
    /// Seconds all streams may take to get going before the window starts anyway.
    #[arg(long, default_value_t = 60.0)]
    opening_seconds: f64,
    /// Puzzles for unary probes made one after another during the window (their
    /// latencies are reported).
    #[arg(long)]
    probes: Option<PathBuf>,
    /// How many probes to make.
    #[arg(long, default_value_t = 20)]
    probe_count: usize,
    /// The probes' algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Propagation)]
    probe_algorithm: AlgorithmArg,
    /// Each probe's deadline, in seconds.
    #[arg(long, default_value_t = 5.0)]
    probe_timeout: f64,
    /// The server's process id (on this machine): report its CPU time per message,
    /// threads and resident memory.
    #[arg(long)]
    server_pid: Option<u32>,
}

/// Calls the load generator can make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RpcArg {
    /// Unary Solve.
    Solve,
    /// SolveSteps, read to the end.
    Steps,
    /// The health Check (the framework's ceiling).
    Health,
}

#[derive(Debug, Args)]
struct HealthArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// The service to ask about; empty for the server as a whole.
    #[arg(long, default_value = "")]
    service: String,
    /// Seconds to wait for an answer.
    #[arg(long, default_value_t = 5.0)]
    timeout: f64,
}

/// How a command-line client reaches the server.
#[derive(Debug, Args)]
struct ConnectArgs {
    /// The server: host:port, or an http:// or https:// URL.
    #[arg(long, env = "SUDOKUD_ADDR", default_value = "127.0.0.1:50051")]
    addr: String,
    /// CA certificate (PEM) to verify the server with; turns TLS on.
    #[arg(long, env = "SUDOKUD_TLS_CA")]
    tls_ca: Option<PathBuf>,
    /// The name the server's certificate must carry (default: the host in --addr).
    #[arg(long, requires = "tls_ca")]
    tls_domain: Option<String>,
    /// Client certificate (PEM) for servers that require mutual TLS.
    #[arg(long, requires_all = ["tls_ca", "tls_key"])]
    tls_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM).
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
}

impl ConnectArgs {
    fn target(
        &self,
        bearer_token: Option<String>,
    ) -> Result<Target, Box<dyn std::error::Error + Send + Sync>> {
        let tls = match &self.tls_ca {
            None => None,
            Some(ca) => Some(ClientTls {
                ca: read_file(ca)?,
                domain: self.tls_domain.clone(),
                identity: match (&self.tls_cert, &self.tls_key) {
                    (Some(cert), Some(key)) => Some((read_file(cert)?, read_file(key)?)),
                    _ => None,
                },
            }),
        };
        Ok(Target {
            address: self.addr.clone(),
            tls,
            bearer_token,
        })
    }
}

/// A file's bytes, or an error that names the file.
fn read_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// Puzzle files, one puzzle a line.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The engine to measure.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Default)]
    algorithm: AlgorithmArg,
    /// Repeat each set until at least this many seconds have passed.
    #[arg(long, default_value_t = 1.0)]
    min_seconds: f64,
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "SUDOKUD_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Server-wide cap on steps per call; a request's max_steps can only lower it.
    #[arg(long, env = "SUDOKUD_MAX_STEPS", default_value_t = 1_000_000_000)]
    max_steps: u64,
    /// Steps per stream message when a request leaves max_batch at 0.
    #[arg(long, env = "SUDOKUD_DEFAULT_BATCH", default_value_t = 256)]
    default_batch: u32,
    /// Solves computing at once (default: the number of cores).
    #[arg(long, env = "SUDOKUD_MAX_CONCURRENT_SOLVES")]
    max_concurrent_solves: Option<usize>,
    /// Calls that may wait for a solve slot; more get RESOURCE_EXHAUSTED at once.
    #[arg(long, env = "SUDOKUD_MAX_QUEUE", default_value_t = 64)]
    max_queue: usize,
    /// SolveSteps streams open at once; the next one gets RESOURCE_EXHAUSTED.
    #[arg(long, env = "SUDOKUD_MAX_OPEN_STREAMS", default_value_t = 100_000)]
    max_open_streams: usize,
    /// Connections open at once (default: nine tenths of the descriptor limit); at
    /// the cap the oldest one still in its handshake is closed to make room.
    #[arg(long, env = "SUDOKUD_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// Seconds a new connection has to complete its handshake (the HTTP/2 preface
    /// and SETTINGS, or an HTTP/1.1 request head; with TLS, the TLS handshake too).
    #[arg(long, env = "SUDOKUD_HANDSHAKE_TIMEOUT_SECONDS", default_value_t = 5.0)]
    handshake_timeout_seconds: f64,
    /// Largest request message accepted, in bytes.
    #[arg(long, env = "SUDOKUD_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    max_message_bytes: usize,
    /// Seconds that calls in flight may go on after SIGTERM/SIGINT before the
    /// solves still running are stopped with UNAVAILABLE.
    #[arg(long, env = "SUDOKUD_SHUTDOWN_GRACE", default_value_t = 10.0)]
    shutdown_grace: f64,
    /// Longest a SolveSteps stream may run, in seconds (its solve then ends with
    /// DEADLINE_EXCEEDED); the client's own deadline may be shorter.
    #[arg(long, env = "SUDOKUD_MAX_STREAM_SECONDS", default_value_t = 3600.0)]
    max_stream_seconds: f64,
    /// Concurrent calls one HTTP/2 connection may carry.
    #[arg(long, env = "SUDOKUD_MAX_CONCURRENT_STREAMS", default_value_t = 1024)]
    max_concurrent_streams: u32,
    /// Seconds between HTTP/2 keepalive pings (0 turns them off).
    #[arg(long, env = "SUDOKUD_KEEPALIVE_SECONDS", default_value_t = 60.0)]
    keepalive_seconds: f64,
    /// Seconds a keepalive ping may go unanswered before the connection closes.
    #[arg(
        long,
        env = "SUDOKUD_KEEPALIVE_TIMEOUT_SECONDS",
        default_value_t = 20.0
    )]
    keepalive_timeout_seconds: f64,
    /// Seconds after which a connection is asked to go away, so clients rebalance
    /// (0 turns it off).
    #[arg(
        long,
        env = "SUDOKUD_MAX_CONNECTION_AGE_SECONDS",
        default_value_t = 1800.0
    )]
    max_connection_age_seconds: f64,
    /// Seconds that calls on an aged connection may go on before it closes.
    #[arg(
        long,
        env = "SUDOKUD_MAX_CONNECTION_AGE_GRACE_SECONDS",
        default_value_t = 30.0
    )]
    max_connection_age_grace_seconds: f64,
    /// File holding a bearer token that every SudokuService call must present
    /// (`authorization: Bearer <token>`); health and reflection stay open.
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN_FILE", conflicts_with = "auth_token")]
    auth_token_file: Option<PathBuf>,
    /// The bearer token itself (prefer the file or the environment variable over
    /// the command line, which other users of the machine can see).
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN", hide_env_values = true)]
    auth_token: Option<String>,
    /// Certificate chain (PEM, leaf first) to serve TLS with; needs --tls-key.
    #[arg(long, env = "SUDOKUD_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// Private key (PEM) of the TLS certificate.
    #[arg(long, env = "SUDOKUD_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// CA certificate(s) (PEM) that client certificates must be signed by: turns on
    /// mutual TLS, refusing clients without a valid certificate. Needs --tls-cert.
    #[arg(long, env = "SUDOKUD_TLS_CLIENT_CA", requires = "tls_cert")]
    tls_client_ca: Option<PathBuf>,
    /// Origins whose pages may call the service with gRPC-Web (CORS), comma
    /// separated, or `*` for any; same-origin pages (the dashboard) need none.
    #[arg(
        long = "cors-allow-origin",
        env = "SUDOKUD_CORS_ALLOW_ORIGINS",
        value_delimiter = ','
    )]
    cors_allow_origins: Vec<String>,
    /// Do not serve the built-in dashboard at `/`.
    #[arg(long, env = "SUDOKUD_NO_DASHBOARD")]
    no_dashboard: bool,
    /// Serve Prometheus metrics at http://ADDRESS/metrics (off when absent).
    #[arg(long, env = "SUDOKUD_METRICS_LISTEN")]
    metrics_listen: Option<SocketAddr>,
    /// Log format on stderr.
    #[arg(long, env = "SUDOKUD_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

/// How `serve` writes its logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line.
    Json,
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// File with one puzzle a line; stdin when absent or `-`.
    file: Option<PathBuf>,
    /// The search to run.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Default)]
    algorithm: AlgorithmArg,
    /// Print the number of solutions (0, 1, or 2 meaning "two or more") instead of
    /// the solution.
    #[arg(long)]
    count: bool,
    /// Give up on a puzzle after this many steps (prints an error line for it).
    #[arg(long)]
    max_steps: Option<u64>,
    /// Worker threads (default: every core). Output stays in input order.
    #[arg(long)]
    threads: Option<usize>,
}

/// Algorithm names on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// The fastest engine (what ALGORITHM_UNSPECIFIED picks).
    Default,
    /// Classic row-major backtracking.
    Backtracking,
    /// Singles to a fixpoint, then row-major backtracking.
    Singles,
    /// Singles at every node, fewest-candidates branching.
    Propagation,
    /// Band bitboards with singles and locked candidates (the default engine).
    Bitboard,
}

impl AlgorithmArg {
    fn engine(self) -> Algorithm {
        match self {
            AlgorithmArg::Default => Algorithm::DEFAULT,
            AlgorithmArg::Backtracking => Algorithm::Backtracking,
            AlgorithmArg::Singles => Algorithm::Singles,
            AlgorithmArg::Propagation => Algorithm::Propagation,
            AlgorithmArg::Bitboard => Algorithm::Bitboard,
        }
    }
}

/// Parses the command line and runs the chosen command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => serve(cli.serve),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Solve(args)) => solve(args),
        Some(Command::Bench(args)) => bench(args),
        Some(Command::Health(args)) => health(args),
        Some(Command::Load(args)) => load(args),
        Some(Command::Watch(args)) => watch(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sudokud: {error}");
            ExitCode::FAILURE
        }
    }
}

type CliResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// A duration from a flag in seconds; negative values count as zero.
fn seconds(value: f64) -> std::time::Duration {
    std::time::Duration::try_from_secs_f64(value.max(0.0)).unwrap_or(std::time::Duration::MAX)
}

fn serve(args: ServeArgs) -> CliResult {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .with_ansi(io::stderr().is_terminal());
    match args.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    let defaults = Limits::default();
    let limits = Limits {
        max_steps: args.max_steps,
        default_batch: args.default_batch,
        max_concurrent_solves: args
            .max_concurrent_solves
            .unwrap_or(defaults.max_concurrent_solves),
        max_queue: args.max_queue,
        max_open_streams: args.max_open_streams,
        max_message_bytes: args.max_message_bytes,
        shutdown_grace: seconds(args.shutdown_grace),
        max_stream_duration: seconds(args.max_stream_seconds),
        ..defaults
    };
    let positive = |value: f64| (value > 0.0).then(|| seconds(value));
    let bearer_token = match (&args.auth_token_file, args.auth_token) {
        (Some(path), _) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .trim()
                .to_owned(),
        ),
        (None, token) => token,
    };
    if bearer_token.as_deref() == Some("") {
        return Err("the bearer token is empty".into());
    }
    let transport = Transport {
        bearer_token,
        max_concurrent_streams: args.max_concurrent_streams,
        keepalive_interval: positive(args.keepalive_seconds),
        keepalive_timeout: seconds(args.keepalive_timeout_seconds),
        max_connection_age: positive(args.max_connection_age_seconds),
        max_connection_age_grace: seconds(args.max_connection_age_grace_seconds),
        tls: match (&args.tls_cert, &args.tls_key) {
            (Some(cert), Some(key)) => Some(Tls {
                certificate_chain: read_file(cert)?,
                private_key: read_file(key)?,
                client_ca: args.tls_client_ca.as_deref().map(read_file).transpose()?,
            }),
            _ => None,
        },
        cors_allowed_origins: args.cors_allow_origins,
        dashboard: !args.no_dashboard,
        admission: crate::server::Admission {
            max_connections: args.max_connections,
            handshake_timeout: seconds(args.handshake_timeout_seconds),
        },
    };
    // No call or stream holds a thread: the runtime's workers (one per core) and
    // the service's compute pool (one thread per solve slot) are all there is.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|error| format!("cannot listen on {}: {error}", args.listen))?;
        let service = SudokuSolver::new(limits);
        let metrics = match args.metrics_listen {
            Some(address) => {
                let listener = tokio::net::TcpListener::bind(address)
                    .await
                    .map_err(|error| format!("cannot listen on {address}: {error}"))?;
                tracing::info!(address = %listener.local_addr()?, "metrics at /metrics");
                let metrics = service.metrics();
                Some(tokio::spawn(crate::metrics::serve(
                    listener,
                    metrics,
                    std::future::pending(),
                )))
            }
            None => None,
        };
        server::run(listener, service, transport, server::shutdown_signal()).await?;
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        tracing::info!("sudokud stopped");
        Ok(())
    })
}

fn solve(args: SolveArgs) -> CliResult {
    let mut input: Box<dyn BufRead> = match &args.file {
        Some(path) if path.as_os_str() != "-" => Box::new(io::BufReader::new(
            std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        _ => Box::new(io::stdin().lock()),
    };
    let mut text = String::new();
    input.read_to_string(&mut text)?;
    let puzzles: Vec<&str> = puzzle_lines(&text).map(|(_, line)| line).collect();
    let algorithm = args.algorithm.engine();
    let control = Control {
        max_steps: args.max_steps.unwrap_or(u64::MAX),
        ..Control::UNTIMED
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let answers = solve_all(&puzzles, threads, |search, text, out| {
        answer_line(search, text, algorithm, &control, args.count, out);
    });
    let mut out = io::stdout().lock();
    for chunk in answers {
        out.write_all(&chunk)?;
    }
    out.flush()?;
    Ok(())
}

/// Puzzles handed to a worker at a time.
const CHUNK: usize = 256;

/// Answers every puzzle on `threads` threads, in input order, drawing progress on
/// stderr when it is a terminal. `answer` appends one line per puzzle to a buffer,
/// with a state of its thread's to reuse (`T::default()` at first); the result is
/// the buffers in input order.
fn solve_all<T, F>(puzzles: &[&str], threads: usize, answer: F) -> Vec<Vec<u8>>
where
    T: Default,
    F: Fn(&mut T, &str, &mut Vec<u8>) + Sync,
{
    let chunks: Vec<&[&str]> = puzzles.chunks(CHUNK).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Vec<Mutex<Vec<u8>>> = chunks.iter().map(|_| Mutex::default()).collect();
    let show_progress = io::stderr().is_terminal() && puzzles.len() > CHUNK;
    if threads <= 1 && !show_progress {
        // One worker and nothing to draw: no thread to start.
        let mut out = Vec::with_capacity(puzzles.len() * 82);
        let mut state = T::default();
        for text in puzzles {
            answer(&mut state, text, &mut out);
        }
        return vec![out];
    }
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, chunks.len().max(1)) {
            scope.spawn(|| {
                let mut state = T::default();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(chunk) = chunks.get(index) else {
                        break;
                    };
                    let mut answers = Vec::with_capacity(chunk.len() * 82);
                    for text in *chunk {
                        answer(&mut state, text, &mut answers);
                    }
                    if let Ok(mut slot) = results[index].lock() {
                        *slot = answers;
                    }
                    done.fetch_add(chunk.len(), Ordering::Relaxed);
                }
            });
        }
        if show_progress {
            draw_progress(&done, puzzles.len());
        }
    });
    results
        .into_iter()
        .map(|slot| slot.into_inner().unwrap_or_default())
        .collect()
}

/// Redraws `done / total` on stderr until every puzzle is answered.
fn draw_progress(done: &AtomicUsize, total: usize) {
    let started = std::time::Instant::now();
    loop {
        let finished = done.load(Ordering::Relaxed);
        let rate = finished as f64 / started.elapsed().as_secs_f64().max(1e-9);
        eprint!(
            "\r{finished}/{total} puzzles ({:.0}%), {rate:.0}/s   ",
            finished as f64 * 100.0 / total as f64
        );
        if finished >= total {
            eprintln!();
            return;
        }
        std::thread::park_timeout(std::time::Duration::from_millis(100));
    }
}

/// Appends the output line for one puzzle line: the solution, `unsolvable`, the
/// solution count, or `error: ...`.
fn answer_line(
    search: &mut Option<Search>,
    text: &str,
    algorithm: Algorithm,
    control: &Control<'_>,
    count: bool,
    out: &mut Vec<u8>,
) {
    let board = match Board::parse(text) {
        Ok(board) => board,
        Err(error) => {
            let _ = writeln!(out, "error: {error}");
            return;
        }
    };
    let mode = if count { Mode::CountTwo } else { Mode::First };
    let result = Search::reuse(search, &board, algorithm, mode).finish(control, &mut NoEvents);
    // Writing to a Vec cannot fail.
    let _ = match result {
        // One digit (counting stops at two), without the formatting machinery.
        Ok(report) if count && report.solution_count < 10 => {
            out.extend_from_slice(&[b'0' + report.solution_count as u8, b'\n']);
            Ok(())
        }
        Ok(report) if count => writeln!(out, "{}", report.solution_count),
        Ok(report) => match report.solution {
            Some(solution) => {
                out.extend(solution.cells().iter().map(|&digit| cell_char(digit) as u8));
                out.push(b'\n');
                Ok(())
            }
            None => writeln!(out, "unsolvable"),
        },
        Err(Interrupted::StepLimit { limit }) => {
            writeln!(out, "error: step limit of {limit} reached")
        }
        Err(other) => writeln!(out, "error: {other:?}"),
    };
}

fn bench(args: BenchArgs) -> CliResult {
    let algorithm = args.algorithm.engine();
    let min_time = std::time::Duration::from_secs_f64(args.min_seconds.max(0.0));
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{:<32} {:>8} {:<6} {:>12} {:>10} {:>10} {:>10}",
        "file", "puzzles", "mode", "puzzles/s", "µs/puzzle", "no guess", "guesses"
    )?;
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let boards = bench::parse_set(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_name()
            .unwrap_or(path.as_os_str())
            .to_string_lossy();
        for (mode, label) in [(Mode::First, "first"), (Mode::CountTwo, "count2")] {
            let m = bench::measure(&boards, algorithm, mode, min_time);
            writeln!(
                out,
                "{name:<32} {:>8} {label:<6} {:>12.0} {:>10.2} {:>9.1}% {:>10.2}",
                boards.len(),
                m.puzzles_per_second,
                m.micros_per_puzzle,
                m.no_guess_percent,
                m.guesses_per_puzzle
            )?;
        }
    }
    writeln!(out, "algorithm: {}, one thread", algorithm.name())?;
    Ok(())
}

fn health(args: HealthArgs) -> CliResult {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

    let target = args.connect.target(None)?;
    let timeout = seconds(args.timeout);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let status = runtime.block_on(async {
        let channel = target.connect(Some(timeout)).await?;
        let request = HealthCheckRequest {
            service: args.service.clone(),
        };
        let response = HealthClient::new(channel).check(request).await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(response.into_inner().status())
    })?;
    let name = if args.service.is_empty() {
        "server"
    } else {
        args.service.as_str()
    };
    println!("{name}: {}", status.as_str_name());
    if status == ServingStatus::Serving {
        Ok(())
    } else {
        Err(format!("{name} is not serving").into())
    }
}

/// Puzzles the load generator sends when given none: three hard classics.
const LOAD_PUZZLES: [&str; 3] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
];

/// The puzzle lines of a file.
fn read_puzzles(path: &Path) -> Result<Vec<String>, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("{}: {e}", path.display()))
        .map(|text| {
            puzzle_lines(&text)
                .map(|(_, line)| line.to_owned())
                .collect()
        })
}

fn load(args: LoadArgs) -> CliResult {
    let puzzles: Vec<String> = match &args.puzzles {
        Some(path) => read_puzzles(path)?,
        None => LOAD_PUZZLES.iter().map(|p| p.to_string()).collect(),
    };
    if puzzles.is_empty() {
        return Err("no puzzles to send".into());
    }
    if let Some(streams) = args.streams {
        if args.rpc != RpcArg::Steps {
            return Err("--streams needs --rpc steps".into());
        }
        return load_streams(&args, streams, puzzles);
    }
    let target = args.connect.target(args.auth_token.clone())?;
    let plan = crate::load::Plan {
        rpc: match args.rpc {
            RpcArg::Solve => crate::load::Rpc::Solve,
            RpcArg::Steps => crate::load::Rpc::Steps,
            RpcArg::Health => crate::load::Rpc::Health,
        },
        concurrency: args.concurrency.max(1),
        duration: seconds(args.duration),
        puzzles,
        algorithm: crate::convert::algorithm_to_pb(args.algorithm.engine()).into(),
        authorization: target.authorization()?,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let summary = runtime.block_on(async {
        let channel = target.connect(None).await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(crate::load::run(channel, &plan).await)
    })?;
    let seconds = summary.elapsed.as_secs_f64().max(1e-9);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "rpc {:?}, concurrency {}, {:.1} s: {} calls ({} errors), {:.0} calls/s",
        args.rpc,
        plan.concurrency,
        seconds,
        summary.calls,
        summary.errors,
        summary.calls as f64 / seconds
    )?;
    if plan.rpc == crate::load::Rpc::Steps {
        writeln!(
            out,
            "steps received: {} ({:.0} steps/s)",
            summary.steps,
            summary.steps as f64 / seconds
        )?;
    }
    writeln!(
        out,
        "latency µs: p50 {} p90 {} p99 {} max {}",
        summary.percentile(50.0),
        summary.percentile(90.0),
        summary.percentile(99.0),
        summary.latencies.last().copied().unwrap_or(0)
    )?;
    print_first_error(&mut out, summary.first_error.as_ref())?;
    Ok(())
}

/// `load --rpc steps --streams N`: many streams at once, probes, server usage.
fn load_streams(args: &LoadArgs, streams: usize, puzzles: Vec<String>) -> CliResult {
    let target = args.connect.target(args.auth_token.clone())?;
    let probes = match &args.probes {
        Some(path) => read_puzzles(path)?
            .into_iter()
            .take(args.probe_count)
            .collect(),
        None => Vec::new(),
    };
    let plan = crate::load::streams::StreamPlan {
        streams: streams.max(1),
        pace: std::time::Duration::from_millis(u64::from(args.pace)),
        max_batch: args.max_batch,
        puzzles,
        algorithm: crate::convert::algorithm_to_pb(args.algorithm.engine()).into(),
        opening: seconds(args.opening_seconds),
        window: seconds(args.duration),
        probes,
        probe_algorithm: crate::convert::algorithm_to_pb(args.probe_algorithm.engine()).into(),
        probe_timeout: seconds(args.probe_timeout),
        authorization: target.authorization()?,
        server_pid: args.server_pid,
    };
    let connections = args
        .connections
        .unwrap_or_else(|| streams.div_ceil(1000).max(10))
        .max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let summary = runtime.block_on(async {
        let mut channels = Vec::with_capacity(connections);
        for _ in 0..connections {
            channels.push(target.connect(None).await?);
        }
        let probe = target.connect(None).await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(
            crate::load::streams::run(channels, probe, &plan).await,
        )
    })?;
    print_streams(&plan, connections, &summary)?;
    Ok(())
}

fn print_streams(
    plan: &crate::load::streams::StreamPlan,
    connections: usize,
    summary: &crate::load::streams::StreamSummary,
) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let going = &summary.going_after;
    let at = |rank: f64| {
        going
            .get(((going.len().saturating_sub(1)) as f64 * rank).round() as usize)
            .map_or(0.0, |after| after.as_secs_f64())
    };
    writeln!(
        out,
        "streams {} (pace {} ms, {connections} connections): {} going, p50 after {:.2} s, the last after {:.2} s; {} failed to open",
        plan.streams,
        plan.pace.as_millis(),
        going.len(),
        at(0.5),
        at(1.0),
        summary.failed
    )?;
    let window = summary.window.as_secs_f64().max(1e-9);
    writeln!(
        out,
        "steady window {window:.1} s: {} messages ({:.0}/s), {} steps ({:.0} steps/s)",
        summary.messages,
        summary.messages as f64 / window,
        summary.steps,
        summary.steps as f64 / window
    )?;
    if !summary.probes.is_empty() {
        let mut latencies: Vec<f64> = summary
            .probes
            .iter()
            .filter_map(|probe| probe.as_ref().ok().map(|d| d.as_secs_f64() * 1e3))
            .collect();
        latencies.sort_by(f64::total_cmp);
        let failed: Vec<String> = summary
            .probes
            .iter()
            .filter_map(|probe| probe.as_ref().err().map(|code| format!("{code:?}")))
            .collect();
        let rank = |p: f64| {
            latencies
                .get(((latencies.len().saturating_sub(1)) as f64 * p).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        writeln!(
            out,
            "probes: {} OK, {} failed {:?}; latency ms p50 {:.1} p90 {:.1} max {:.1}",
            latencies.len(),
            failed.len(),
            failed,
            rank(0.5),
            rank(0.9),
            rank(1.0)
        )?;
    }
    if let Some(server) = &summary.server {
        let per_message = server.cpu.as_secs_f64() * 1e6 / summary.messages.max(1) as f64;
        writeln!(
            out,
            "server: {:.2} s CPU in the window = {per_message:.1} µs per message; {} threads; RSS {} MB",
            server.cpu.as_secs_f64(),
            server.threads,
            server.rss_kib / 1024
        )?;
    }
    print_first_error(&mut out, summary.first_error.as_ref())
}

/// Tells why calls failed, by the first failure seen.
fn print_first_error(out: &mut impl Write, first: Option<&tonic::Status>) -> io::Result<()> {
    match first {
        Some(status) => writeln!(
            out,
            "first error: {:?}: {}",
            status.code(),
            status.message()
        ),
        None => Ok(()),
    }
}

fn watch(args: WatchArgs) -> CliResult {
    let puzzle = if args.puzzle == "-" {
        let mut line = String::new();
        io::stdin().read_line(&mut line)?;
        line.trim().to_owned()
    } else {
        args.puzzle.clone()
    };
    let interval_ms = if args.pace > 0.0 {
        (1000.0 / args.pace).round().clamp(1.0, f64::from(u32::MAX)) as u32
    } else {
        0
    };
    let request = crate::pb::SolveStepsRequest {
        puzzle,
        algorithm: crate::convert::algorithm_to_pb(args.algorithm.engine()).into(),
        max_steps: args.max_steps,
        max_batch: 0,
        step_interval_ms: interval_ms,
    };
    let target = args.connect.target(args.auth_token.clone())?;
    let view = if io::stdout().is_terminal() {
        crate::watch::View::Terminal
    } else {
        crate::watch::View::Lines
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let channel = target.connect(None).await?;
        let mut out = BufWriter::new(io::stdout().lock());
        crate::watch::watch(channel, request, target.authorization()?, view, &mut out)
            .await
            .map_err(|error| match error.downcast::<tonic::Status>() {
                Ok(status) => format!("{:?}: {}", status.code(), status.message()).into(),
                Err(other) => other,
            })
    })?;
    Ok(())
}
