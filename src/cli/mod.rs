//! The command line: `sudokud serve` (the default) runs the gRPC server, `solve`
//! solves puzzle files locally, `bench` measures the engine, `health`, `load` and
//! `watch` are clients of a running server; `rate`, `explain`, `hint` and
//! `generate` run the logical solver and the generator locally.
//!
//! Flags are parsed in two stages: clap fills the raw structs of `args.rs`, and
//! `config.rs` turns them into the library's rich types (limits, transport,
//! targets, plans), so each subcommand's file only runs its command and prints.
//! `main.rs` only calls [`main`].

use std::process::ExitCode;

use clap::Parser;

mod args;
mod bench;
mod config;
mod health;
mod human;
mod load;
mod remote;
mod serve;
mod solve;
mod watch;

pub use args::Cli;
use args::Command;

/// Parses the command line and runs the chosen command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => serve::run(cli.serve),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Health(args)) => health::run(args),
        Some(Command::Load(args)) => load::run(args),
        Some(Command::Watch(args)) => watch::run(args),
        Some(Command::Rate(args)) => human::rate(args),
        Some(Command::Explain(args)) => human::explain(args),
        Some(Command::Hint(args)) => human::hint(args),
        Some(Command::Generate(args)) => human::generate(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sudokud: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What a command ends with: nothing, or the error `main` prints.
type CliResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// How many threads a command's async runtime has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Threads {
    /// One: a client making one call at a time.
    One,
    /// One per core: the server and the load generator.
    PerCore,
}

/// The one runtime builder of every command.
fn runtime(threads: Threads) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = match threads {
        Threads::One => tokio::runtime::Builder::new_current_thread(),
        Threads::PerCore => tokio::runtime::Builder::new_multi_thread(),
    };
    builder.enable_all().build()
}
