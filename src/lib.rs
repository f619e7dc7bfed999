//! sudokud: a Sudoku-solving gRPC service.
//!
//! # Layout
//!
//! - [`board`]: the vocabulary (cells, digits, units) and the parsed [`board::Board`];
//!   parse errors carry their position. Std only.
//! - [`solver`]: the search engines and the event [`solver::Sink`] they push every
//!   placement and backtrack into. Std only: knows nothing of gRPC or tokio.
//! - [`pb`]: the protobuf types and tonic stubs generated from
//!   `proto/sudoku/v1/sudoku.proto`.
//! - [`convert`]: the one place where engine types and `pb` types meet.
//! - [`service`]: the `SudokuService` implementation: limits, cancellation, streaming
//!   with batching and backpressure; the only module that names `tonic::Status`.
//! - [`server`]: builds the tonic server around the service and runs it on a
//!   listener until a shutdown signal.
//! - [`dashboard`]: the built-in dashboard's embedded files, served at `/`.
//! - [`bench`]: engine throughput measurement behind `sudokud bench`. Std only.
//! - [`load`]: the load generator behind `sudokud load`.
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
