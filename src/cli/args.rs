//! The command line as clap parses it: raw flags, one struct a subcommand, no
//! conversion (that is `config.rs`).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::values::steps_a_second;
pub(super) use super::values::{AlgorithmArg, LevelArg, SymmetryArg};
use crate::generate::Symmetry;
use crate::solver::Algorithm;

/// A Sudoku-solving gRPC service.
#[derive(Debug, Parser)]
#[command(name = "sudokud", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Option<Command>,
    #[command(flatten)]
    pub(super) serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub(super) enum Command {
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
    /// Rate puzzles on the Sudoku Explainer scale: one puzzle a line from FILE or
    /// stdin, one line out: ER/EP/ED (the rating, the pearl, the diamond), the
    /// level, the hardest technique.
    Rate(RateArgs),
    /// Explain puzzles step by step with human techniques, easiest first.
    Explain(ExplainArgs),
    /// The next step for a position, and the player's digits that are wrong.
    Hint(HintArgs),
    /// Generate unique puzzles, minimal within their symmetry, one a line.
    Generate(GenerateArgs),
}

#[derive(Debug, Args)]
pub(super) struct RateArgs {
    /// File with one puzzle a line; stdin when absent or `-`.
    pub(super) file: Option<PathBuf>,
    #[command(flatten)]
    pub(super) grid: GridArgs,
    #[command(flatten)]
    pub(super) variant: RulesArgs,
    /// Worker threads (default: every core). Output stays in input order.
    #[arg(long)]
    pub(super) threads: Option<usize>,
}

#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    /// File with one puzzle a line; stdin when absent or `-`.
    pub(super) file: Option<PathBuf>,
    #[command(flatten)]
    pub(super) grid: GridArgs,
    #[command(flatten)]
    pub(super) variant: RulesArgs,
    /// When the techniques run out, give the rest of the solution by search.
    #[arg(long)]
    pub(super) finish_by_search: bool,
    /// Worker threads (default: every core). Output stays in input order.
    #[arg(long)]
    pub(super) threads: Option<usize>,
}

#[derive(Debug, Args)]
pub(super) struct HintArgs {
    /// The puzzle's givens (81 cells, `.` or `0` for empty; other sizes as
    /// --box or --rules read them), or `-` to read it from stdin (the first
    /// line). With --fpuzzles the link is the puzzle and this argument, if
    /// any, is the position.
    #[arg(required_unless_present = "fpuzzles")]
    pub(super) puzzle: Option<String>,
    /// The position now: the givens plus the player's digits (default: the
    /// givens), or `-` to read it from stdin (the line after the puzzle's, when
    /// that is read from stdin too).
    pub(super) board: Option<String>,
    #[command(flatten)]
    pub(super) grid: GridArgs,
    #[command(flatten)]
    pub(super) variant: RulesArgs,
}

#[derive(Debug, Args)]
pub(super) struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    pub(super) count: u64,
    /// The seed: puzzle i is made from seed + i, so a run is reproducible.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// A level (its rating range) instead of --min-rating/--max-rating.
    #[arg(long, value_enum, ignore_case = true, conflicts_with_all = ["min_rating", "max_rating"])]
    pub(super) level: Option<LevelArg>,
    /// The lowest rating wanted.
    #[arg(long)]
    pub(super) min_rating: Option<f64>,
    /// The highest rating wanted.
    #[arg(long)]
    pub(super) max_rating: Option<f64>,
    /// The symmetry of the givens.
    #[arg(long, value_enum, ignore_case = true, default_value_t = SymmetryArg(Symmetry::None))]
    pub(super) symmetry: SymmetryArg,
    /// Stop taking clues away at a random point: unique, not minimal.
    #[arg(long)]
    pub(super) not_minimal: bool,
    /// Print the rating and level after each puzzle.
    #[arg(long)]
    pub(super) rated: bool,
    /// Worker threads (default: every core). Output stays in seed order.
    #[arg(long)]
    pub(super) threads: Option<usize>,
    /// Grids of another size: a box's rows and columns, ROWSxCOLS (2x3 for 6x6,
    /// 4x4 for 16x16, up to 8x8). Puzzles come as symbols up to 35x35 and as
    /// numbers (0 empty) above, rated on the same ladder as 9x9.
    #[arg(long = "box", value_name = "ROWSxCOLS", value_parser = super::values::box_shape)]
    pub(super) box_shape: Option<crate::board::Shape>,
    /// The symbols the puzzles are written in, one for each digit in order
    /// (with --box; default: 123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ cut to the size).
    #[arg(long, requires = "box_shape")]
    pub(super) symbols: Option<String>,
    /// Variant rules every puzzle keeps, a JSON file in the proto3 JSON form of
    /// `sudoku.v1.Rules` (as `solve --rules`: `{"diagonal": true}`); instead of
    /// --box and --symbols. Variant puzzles come as one JSON line each:
    /// `{"seed", "puzzle", "solution", "rules"}`, unrated.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["box_shape", "symbols"])]
    pub(super) rules: Option<PathBuf>,
    /// Draw random jigsaw regions for each puzzle (a variant puzzle).
    #[arg(long)]
    pub(super) random_regions: bool,
    /// Draw random killer cages with their sums for each puzzle (a variant
    /// puzzle; its givens are then taken away down to minimal, often none).
    #[arg(long)]
    pub(super) random_cages: bool,
}

#[derive(Debug, Args)]
pub(super) struct WatchArgs {
    #[command(flatten)]
    pub(super) connect: ConnectArgs,
    /// Bearer token for servers that require one.
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN", hide_env_values = true)]
    pub(super) auth_token: Option<String>,
    /// The search to watch.
    #[arg(long, value_enum, ignore_case = true, default_value_t = AlgorithmArg::DEFAULT)]
    pub(super) algorithm: AlgorithmArg,
    /// Steps a second, 0 to 1,000 (0: as fast as the server goes).
    #[arg(long, default_value_t = 0.0, value_parser = steps_a_second)]
    pub(super) pace: f64,
    /// Stop after this many steps (0: the server's cap).
    #[arg(long, default_value_t = 0)]
    pub(super) max_steps: u64,
    /// Tries in a row to resume a stream cut with UNAVAILABLE (a server shutting
    /// down, a lost connection) after its last step shown (0: never).
    #[arg(long, default_value_t = 8)]
    pub(super) reconnects: u32,
    #[command(flatten)]
    pub(super) grid: GridArgs,
    /// The puzzle (81 cells, `.` or `0` for empty; other sizes as --box reads
    /// them), an f-puzzles or SudokuPad link (its puzzle and rules), or `-` to
    /// read a line from stdin.
    pub(super) puzzle: String,
}

#[derive(Debug, Args)]
pub(super) struct LoadArgs {
    #[command(flatten)]
    pub(super) connect: ConnectArgs,
    /// Bearer token for servers that require one.
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN", hide_env_values = true)]
    pub(super) auth_token: Option<String>,
    /// The call to make.
    #[arg(long, value_enum, ignore_case = true, default_value_t = RpcArg::Solve)]
    pub(super) rpc: RpcArg,
    /// Callers running at once.
    #[arg(long, default_value_t = 1)]
    pub(super) concurrency: usize,
    /// Seconds to run.
    #[arg(long, default_value_t = 5.0)]
    pub(super) duration: f64,
    /// Puzzles to send, one a line (default: a few built-in ones).
    #[arg(long)]
    pub(super) puzzles: Option<PathBuf>,
    /// The algorithm to ask for.
    #[arg(long, value_enum, ignore_case = true, default_value_t = AlgorithmArg::DEFAULT)]
    pub(super) algorithm: AlgorithmArg,
    /// With `--rpc steps`: keep this many streams open at once (dashboards) and
    /// measure a steady window of `--duration` seconds once they are going (0:
    /// none, only the probes and the server's usage, beside another client's
    /// streams).
    #[arg(long)]
    pub(super) streams: Option<usize>,
    /// Each stream's steps a second, 0 to 1,000 (0: unpaced), as in `watch`.
    #[arg(long, default_value_t = 0.0, value_parser = steps_a_second)]
    pub(super) pace: f64,
    /// The streams' `max_batch` (0: the server's default; paced streams get 1).
    #[arg(long, default_value_t = 0)]
    pub(super) max_batch: u32,
    /// Connections the streams are spread over (default: at least 10, at most
    /// 1,000 streams each).
    #[arg(long)]
    pub(super) connections: Option<usize>,
    /// Seconds all streams may take to get going before the window starts anyway.
    #[arg(long, default_value_t = 60.0)]
    pub(super) opening_seconds: f64,
    /// Puzzles for unary probes made one after another during the window (their
    /// latencies are reported).
    #[arg(long)]
    pub(super) probes: Option<PathBuf>,
    /// How many probes to make.
    #[arg(long, default_value_t = 20)]
    pub(super) probe_count: usize,
    /// The probes' algorithm.
    #[arg(long, value_enum, ignore_case = true, default_value_t = AlgorithmArg(Some(Algorithm::Propagation)))]
    pub(super) probe_algorithm: AlgorithmArg,
    /// Each probe's deadline, in seconds.
    #[arg(long, default_value_t = 5.0)]
    pub(super) probe_timeout: f64,
    /// The server's process id (on this machine): report its CPU time per message,
    /// threads and resident memory.
    #[arg(long)]
    pub(super) server_pid: Option<u32>,
}

/// Calls the load generator can make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum RpcArg {
    /// Unary Solve.
    Solve,
    /// SolveSteps, read to the end.
    Steps,
    /// The health Check (the framework's ceiling).
    Health,
}

#[derive(Debug, Args)]
pub(super) struct HealthArgs {
    #[command(flatten)]
    pub(super) connect: ConnectArgs,
    /// The service to ask about; empty for the server as a whole.
    #[arg(long, default_value = "")]
    pub(super) service: String,
    /// Seconds to wait for an answer.
    #[arg(long, default_value_t = 5.0)]
    pub(super) timeout: f64,
}

// How a command-line client reaches the server.
#[derive(Debug, Args)]
pub(super) struct ConnectArgs {
    /// The server: host:port, or an http:// or https:// URL.
    #[arg(long, env = "SUDOKUD_ADDR", default_value = "127.0.0.1:50051")]
    pub(super) addr: String,
    #[command(flatten)]
    pub(super) tls: TlsArgs,
}

// How a client verifies its servers and proves who it is.
#[derive(Debug, Args)]
pub(super) struct TlsArgs {
    /// CA certificate (PEM) to verify the server with; turns TLS on.
    #[arg(long, env = "SUDOKUD_TLS_CA")]
    pub(super) tls_ca: Option<PathBuf>,
    /// The name the server's certificate must carry (default: the host named).
    #[arg(long, requires = "tls_ca")]
    pub(super) tls_domain: Option<String>,
    /// Client certificate (PEM) for servers that require mutual TLS.
    #[arg(long, requires_all = ["tls_ca", "tls_key"])]
    pub(super) tls_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM).
    #[arg(long, requires = "tls_cert")]
    pub(super) tls_key: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(super) struct BenchArgs {
    /// Puzzle files, one puzzle a line.
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
    /// The engine to measure.
    #[arg(long, value_enum, ignore_case = true, default_value_t = AlgorithmArg::DEFAULT)]
    pub(super) algorithm: AlgorithmArg,
    /// Repeat each set until at least this many seconds have passed.
    #[arg(long, default_value_t = 1.0)]
    pub(super) min_seconds: f64,
}

#[derive(Debug, Args)]
pub(super) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "SUDOKUD_LISTEN", default_value = "127.0.0.1:50051")]
    pub(super) listen: SocketAddr,
    /// Server-wide cap on steps per call; a request's max_steps can only lower it.
    #[arg(long, env = "SUDOKUD_MAX_STEPS", default_value_t = 1_000_000_000)]
    pub(super) max_steps: u64,
    /// Steps per stream message when a request leaves max_batch at 0.
    #[arg(long, env = "SUDOKUD_DEFAULT_BATCH", default_value_t = 256)]
    pub(super) default_batch: u32,
    /// Solves computing at once (default: the number of cores).
    #[arg(long, env = "SUDOKUD_MAX_CONCURRENT_SOLVES")]
    pub(super) max_concurrent_solves: Option<usize>,
    /// Calls that may wait for a solve slot; more get RESOURCE_EXHAUSTED at once.
    #[arg(long, env = "SUDOKUD_MAX_QUEUE", default_value_t = 64)]
    pub(super) max_queue: usize,
    /// SolveSteps streams open at once; the next one gets RESOURCE_EXHAUSTED.
    #[arg(long, env = "SUDOKUD_MAX_OPEN_STREAMS", default_value_t = 100_000)]
    pub(super) max_open_streams: usize,
    /// Connections open at once (default: nine tenths of the descriptor limit); at
    /// the cap the oldest one still in its handshake is closed to make room.
    #[arg(long, env = "SUDOKUD_MAX_CONNECTIONS")]
    pub(super) max_connections: Option<usize>,
    /// Seconds a new connection has to complete its handshake (the HTTP/2 preface
    /// and SETTINGS, or an HTTP/1.1 request head; with TLS, the TLS handshake too).
    #[arg(long, env = "SUDOKUD_HANDSHAKE_TIMEOUT_SECONDS", default_value_t = 5.0)]
    pub(super) handshake_timeout_seconds: f64,
    /// Largest request message accepted, in bytes.
    #[arg(long, env = "SUDOKUD_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    pub(super) max_message_bytes: usize,
    /// Seconds after SIGTERM/SIGINT during which the server reports not ready
    /// (/readyz 503, gRPC health NOT_SERVING) but still takes new calls, so load
    /// balancers move away before it stops accepting; in place of a preStop sleep.
    #[arg(long, env = "SUDOKUD_DRAIN_DELAY", default_value_t = 0.0)]
    pub(super) drain_delay: f64,
    /// Seconds that calls in flight may go on after the drain delay before the
    /// solves still running are stopped with UNAVAILABLE.
    #[arg(long, env = "SUDOKUD_SHUTDOWN_GRACE", default_value_t = 10.0)]
    pub(super) shutdown_grace: f64,
    /// Longest a SolveSteps stream may run, in seconds (its solve then ends with
    /// DEADLINE_EXCEEDED); the client's own deadline may be shorter.
    #[arg(long, env = "SUDOKUD_MAX_STREAM_SECONDS", default_value_t = 3600.0)]
    pub(super) max_stream_seconds: f64,
    /// Concurrent calls one HTTP/2 connection may carry.
    #[arg(long, env = "SUDOKUD_MAX_CONCURRENT_STREAMS", default_value_t = 1024)]
    pub(super) max_concurrent_streams: u32,
    /// Seconds between HTTP/2 keepalive pings (0 turns them off).
    #[arg(long, env = "SUDOKUD_KEEPALIVE_SECONDS", default_value_t = 60.0)]
    pub(super) keepalive_seconds: f64,
    /// Seconds a keepalive ping may go unanswered before the connection closes.
    #[arg(
        long,
        env = "SUDOKUD_KEEPALIVE_TIMEOUT_SECONDS",
        default_value_t = 20.0
    )]
    pub(super) keepalive_timeout_seconds: f64,
    /// Seconds after which a connection is asked to go away, so clients rebalance
    /// (0 turns it off).
    #[arg(
        long,
        env = "SUDOKUD_MAX_CONNECTION_AGE_SECONDS",
        default_value_t = 1800.0
    )]
    pub(super) max_connection_age_seconds: f64,
    /// Seconds that calls on an aged connection may go on before it closes.
    #[arg(
        long,
        env = "SUDOKUD_MAX_CONNECTION_AGE_GRACE_SECONDS",
        default_value_t = 30.0
    )]
    pub(super) max_connection_age_grace_seconds: f64,
    /// File holding a bearer token that every SudokuService call must present
    /// (`authorization: Bearer <token>`); health and reflection stay open.
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN_FILE", conflicts_with = "auth_token")]
    pub(super) auth_token_file: Option<PathBuf>,
    /// The bearer token itself (prefer the file or the environment variable over
    /// the command line, which other users of the machine can see).
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN", hide_env_values = true)]
    pub(super) auth_token: Option<String>,
    /// Certificate chain (PEM, leaf first) to serve TLS with; needs --tls-key.
    #[arg(long, env = "SUDOKUD_TLS_CERT", requires = "tls_key")]
    pub(super) tls_cert: Option<PathBuf>,
    /// Private key (PEM) of the TLS certificate.
    #[arg(long, env = "SUDOKUD_TLS_KEY", requires = "tls_cert")]
    pub(super) tls_key: Option<PathBuf>,
    /// CA certificate(s) (PEM) that client certificates must be signed by: turns on
    /// mutual TLS, refusing clients without a valid certificate. Needs --tls-cert.
    #[arg(long, env = "SUDOKUD_TLS_CLIENT_CA", requires = "tls_cert")]
    pub(super) tls_client_ca: Option<PathBuf>,
    /// Origins whose pages may call the service with gRPC-Web (CORS), comma
    /// separated, or `*` for any; same-origin pages (the dashboard) need none.
    #[arg(
        long = "cors-allow-origin",
        env = "SUDOKUD_CORS_ALLOW_ORIGIN",
        value_delimiter = ','
    )]
    pub(super) cors_allow_origins: Vec<String>,
    /// Do not serve the built-in dashboard at `/`.
    #[arg(long, env = "SUDOKUD_NO_DASHBOARD")]
    pub(super) no_dashboard: bool,
    /// Compress responses with gzip for clients that accept it (compressed
    /// requests are always accepted). Off: the messages are small and zlib costs
    /// about 100 µs of CPU each.
    #[arg(long, env = "SUDOKUD_COMPRESS_RESPONSES")]
    pub(super) compress_responses: bool,
    /// Serve Prometheus metrics at http://ADDRESS/metrics (off when absent).
    #[arg(long, env = "SUDOKUD_METRICS_LISTEN")]
    pub(super) metrics_listen: Option<SocketAddr>,
    /// Log format on stderr.
    #[arg(long, env = "SUDOKUD_LOG_FORMAT", value_enum, ignore_case = true, default_value_t = LogFormat::Text)]
    pub(super) log_format: LogFormat,
    /// Export each call's span to the OpenTelemetry collector at this URL over
    /// OTLP/gRPC (`http://host:4317`); off when absent.
    #[arg(long, env = "SUDOKUD_OTLP_ENDPOINT")]
    pub(super) otlp_endpoint: Option<String>,
}

/// How `serve` writes its logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line.
    Json,
}

// The variant rules of a command's puzzle lines (`solve`, `rate`, `explain`).
#[derive(Debug, Args)]
pub(super) struct RulesArgs {
    /// The rules of every puzzle, a JSON file in the proto3 JSON form of
    /// `sudoku.v1.Rules` (the grid's boxes or regions, its symbols and the
    /// variant's rules: `{"diagonal": true, "cages": [{"cells": [0, 1], "sum":
    /// 3}]}`); instead of --box and --symbols.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["box_shape", "symbols"])]
    pub(super) rules: Option<PathBuf>,
    /// The puzzle of an f-puzzles (or SudokuPad) link, or its `load=`
    /// payload: its givens and rules (killer cages, regions, diagonals,
    /// thermometers, ...), instead of puzzle lines and --rules.
    #[arg(long, value_name = "LINK", conflicts_with_all = ["box_shape", "symbols", "rules"])]
    pub(super) fpuzzles: Option<String>,
    /// The `--fpuzzles` link as read, once (the puzzle lines and the rules
    /// both come from it).
    #[arg(skip)]
    pub(super) read_link: std::sync::OnceLock<Result<Option<crate::convert::Imported>, String>>,
}

// The grid of a command's puzzle lines: 9x9 unless `--box` says otherwise.
#[derive(Debug, Args)]
pub(super) struct GridArgs {
    /// Grids of another size: a box's rows and columns, ROWSxCOLS (2x2 for 4x4,
    /// 2x3 for 6x6, 3x4 for 12x12, 4x4 for 16x16, 5x5 for 25x25; up to 8x8).
    /// Lines are symbols (1-9 then A-Z, '.' empty) or numbers separated by commas
    /// or spaces (0 empty); answers come in the form of their line.
    #[arg(long = "box", value_name = "ROWSxCOLS", value_parser = super::values::box_shape)]
    pub(super) box_shape: Option<crate::board::Shape>,
    /// The symbols of the symbols form, one for each digit in order (default:
    /// 123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ cut to the size).
    #[arg(long)]
    pub(super) symbols: Option<String>,
}

#[derive(Debug, Args)]
pub(super) struct SolveArgs {
    /// File with one puzzle a line; stdin when absent or `-`.
    pub(super) file: Option<PathBuf>,
    /// The search to run.
    #[arg(long, value_enum, ignore_case = true, default_value_t = AlgorithmArg::DEFAULT)]
    pub(super) algorithm: AlgorithmArg,
    /// Print the number of solutions (0, 1, or 2 meaning "two or more") instead of
    /// the solution.
    #[arg(long)]
    pub(super) count: bool,
    #[command(flatten)]
    pub(super) grid: GridArgs,
    #[command(flatten)]
    pub(super) variant: RulesArgs,
    /// Give up on a puzzle after this many steps (prints an error line for it).
    #[arg(long)]
    pub(super) max_steps: Option<u64>,
    /// Worker threads (default: every core). Output stays in input order.
    #[arg(long, conflicts_with = "remote")]
    pub(super) threads: Option<usize>,
    /// Solve on these servers instead (`host:port`, comma separated; a name that
    /// resolves to several addresses uses each), over SolveBatch: the same output.
    #[arg(long, value_delimiter = ',')]
    pub(super) remote: Vec<String>,
    /// TLS to the servers (with --remote only, as the token).
    #[command(flatten)]
    pub(super) tls: TlsArgs,
    /// Bearer token for servers that require one.
    #[arg(long, env = "SUDOKUD_AUTH_TOKEN", hide_env_values = true)]
    pub(super) auth_token: Option<String>,
}
