//! sudokud: a Sudoku-solving gRPC service.
//!
//! # Layout
//!
//! - [`board`]: the vocabulary (cells, digits, units) and the parsed [`board::Board`];
//!   parse errors carry their position. Std and `memchr` (line splitting).
//! - [`solver`]: the search engines, each a resumable [`solver::Search`] that pauses
//!   after any step and resumes on any thread, and the event [`solver::Sink`] they
//!   push every placement and backtrack into. Std only: knows nothing of gRPC or tokio.
//! - [`pb`]: the protobuf types and tonic stubs generated from
//!   `proto/sudoku/v1/sudoku.proto`.
//! - [`convert`]: the one place where engine types and `pb` types meet.
//! - [`service`]: the `SudokuService` implementation: searches in slices under fair
//!   solve slots (a compute pool for long ones), streams as tasks with demand-driven
//!   batches and pacing, limits, deadlines and cancellation; the only module that
//!   answers calls with a `tonic::Status`.
//! - [`server`]: builds the tonic server around the service, admits connections
//!   (handshake timeout, connection cap, accept back-off) and runs it on a listener
//!   until a shutdown signal.
//! - [`dashboard`]: the built-in dashboard's embedded files, served at `/`.
//! - [`bench`]: engine throughput measurement behind `sudokud bench`. Std only.
//! - [`load`]: the load generator behind `sudokud load` (callers, or many paced
//!   streams with probes).
//! - [`metrics`]: Prometheus metrics and their `/metrics` listener.
//! - [`client`]: how the command-line clients reach a server (address, TLS, token).
//! - [`watch`]: the terminal view behind `sudokud watch`.
//! - [`cli`]: the command line (`serve`, `solve`, `bench`, `health`, `load`, `watch`);
//!   `main.rs` only calls it.

pub mod bench;
pub mod board;
pub mod cli;
pub mod client;
pub mod convert;
pub mod dashboard;
pub mod load;
pub mod metrics;
pub mod server;
pub mod service;
pub mod solver;
pub mod watch;

/// Protobuf messages and tonic stubs of `sudoku.v1`.
pub mod pb {
    #![allow(missing_docs)]
    tonic::include_proto!("sudoku.v1");

    /// The encoded file descriptor set of `sudoku.v1`, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("sudoku_descriptor");
}
