//! sudokud: a Sudoku-solving gRPC service.
//!
//! # Layout
//!
//! From the domain outwards, lowest layer first; each module's own doc says what
//! it owns and what it deliberately does not know.
//!
//! - [`board`]: the vocabulary (cells, digits, units) and the parsed, checked
//!   [`board::Board`]; parse errors carry their position.
//! - [`solver`]: the search engines, each a resumable [`solver::Search`] that pauses
//!   after any step and resumes on any thread; the event [`solver::Sink`] they push
//!   every placement and backtrack into; the [`solver::Replay`] that follows them.
//! - [`logic`]: the logical solver: human techniques easiest first on a
//!   pencil-mark grid, each step naming its pattern, and ratings on the Sudoku
//!   Explainer scale.
//! - [`generate`]: puzzle generation: random solutions, clues removed by
//!   symmetric groups while the solution stays unique, seeded.
//! - [`bench`](mod@bench): engine throughput behind `sudokud bench`, and the puzzle folder the
//!   tests and benchmarks share.
//! - [`codec`]: the stubs' protobuf codec (prost's, with small first buffers), and
//!   `SolveBatch`'s messages kept as their encodings.
//! - [`pb`]: the protobuf types and tonic stubs generated from
//!   `proto/sudoku/v1/sudoku.proto`.
//! - [`convert`]: the one place where engine values become `pb` values and back.
//! - [`metrics`]: Prometheus metrics and their text form (the server serves `/metrics`).
//! - [`telemetry`]: the calls' spans exported over OTLP/gRPC (`--otlp-endpoint`).
//! - [`dashboard`]: the built-in dashboard's embedded files, served at `/`.
//! - [`client`]: how the command-line clients reach a server (address, TLS, token).
//! - [`service`]: the `SudokuService` implementation: searches in slices under fair
//!   solve slots (a compute pool for long ones), streams as tasks with demand-driven
//!   batches and pacing, limits, deadlines, cancellation, and the guard that closes
//!   every call.
//! - [`server`]: the tonic server around the service: admission of connections,
//!   transport settings, auth, the message-size limit, gRPC-Web and CORS, the
//!   dashboard and the 404 for other HTTP requests, shutdown.
//! - [`remote`]: puzzles solved on one or more servers over `SolveBatch`, behind
//!   `sudokud solve --remote`.
//! - [`load`]: the load generator behind `sudokud load` (callers, or many paced
//!   streams with probes).
//! - [`watch`]: the terminal view behind `sudokud watch`.
//! - [`cli`]: the command line (`serve`, `solve`, `bench`, `health`, `load`,
//!   `watch`); the two binaries only call it: `bin/sudokud-server.rs` the whole of
//!   it, `main.rs` (`sudokud`) its front, which runs the local commands in a small
//!   binary that starts fast and hands everything else to `sudokud-server`.
//!
//! # Invariants
//!
//! - `board`, `solver`, `logic`, `generate` and `bench` import std only (`board/parse.rs` adds
//!   `memchr`); `convert` names no tonic type. `tests/layout.rs` checks both.
//! - The modules above are listed from the lowest layer up, and the layers point
//!   one way: no import cycle between source files, and no file names a module
//!   of a higher layer (`metrics` knows no HTTP route, `service` nothing of
//!   `server`). `tests/layout.rs` checks it on the import graph.
//! - Statuses are made in `service` (a call's answer) and `server` (what the
//!   transport turns away before the service sees a call); clients only read them.
//! - No call or stream holds a thread; every slice of search runs under a slot.
//! - Every call is closed (counted, logged) by one drop guard, on every path.

pub mod bench;
pub mod board;
pub mod cli;
pub mod client;
pub mod codec;
pub mod convert;
pub mod dashboard;
pub mod generate;
pub mod load;
pub mod logic;
pub mod metrics;
pub mod remote;
pub mod server;
pub mod service;
pub mod solver;
pub mod telemetry;
pub mod watch;

/// Protobuf messages and tonic stubs of `sudoku.v1`.
pub mod pb {
    #![allow(missing_docs)]
    tonic::include_proto!("sudoku.v1");

    pub use crate::codec::{SolveBatchRequest, SolveBatchResponse};

    /// The encoded file descriptor set of `sudoku.v1`, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("sudoku_descriptor");
}
