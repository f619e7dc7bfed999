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

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};

mod args;
mod bench;
mod config;
pub mod front;
mod health;
mod human;
mod input;
mod lines;
mod load;
mod remote;
mod runtime;
mod serve;
mod solve;
mod values;
mod watch;

pub use args::Cli;
use args::Command;

/// Parses the command line and runs the chosen command.
pub fn main() -> ExitCode {
    // The server's flags are taken without a command too (`sudokud --listen ..`
    // serves), but the top-level help lists the commands only: `sudokud serve
    // --help` lists the server's flags.
    let matches = Cli::command()
        .mut_args(|arg| arg.hide(true))
        .after_help(
            "With no command, sudokud serves: `sudokud serve --help` lists the server's flags.",
        )
        .get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    if let Some(flag) = solve_flag_without_effect(&matches) {
        eprintln!(
            "sudokud: {flag} applies to `solve --remote` only: local solving calls no server"
        );
        return ExitCode::from(2);
    }
    let result = match cli.command {
        None => serve::run(cli.serve),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Solve(args)) if !args.remote.is_empty() => remote::run(args),
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
    exit_code(result)
}

/// A command's outcome as the process ends with it: success, or the error in the
/// one form every command prints (both binaries end this way).
fn exit_code(result: runtime::CliResult) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sudokud: {}", error_text(error.as_ref()));
            ExitCode::FAILURE
        }
    }
}

/// A command's error as every command prints it: a call's status as its code
/// and message (`InvalidArgument: invalid puzzle: ..`), anything else as it
/// says itself.
fn error_text(error: &(dyn std::error::Error + 'static)) -> String {
    match error.downcast_ref::<tonic::Status>() {
        Some(status) => format!("{:?}: {}", status.code(), status.message()),
        None => error.to_string(),
    }
}

/// A flag given to `solve` on the command line that only `solve --remote`
/// reads (TLS, the token), when `--remote` is absent. The same settings from
/// the environment are not refused: they may be there for other commands.
fn solve_flag_without_effect(matches: &ArgMatches) -> Option<&'static str> {
    let ("solve", solve) = matches.subcommand()? else {
        return None;
    };
    if solve.contains_id("remote") && solve.value_source("remote") == Some(ValueSource::CommandLine)
    {
        return None;
    }
    let remote_only = [
        ("tls_ca", "--tls-ca"),
        ("tls_domain", "--tls-domain"),
        ("tls_cert", "--tls-cert"),
        ("tls_key", "--tls-key"),
        ("auth_token", "--auth-token"),
    ];
    remote_only
        .into_iter()
        .find(|(id, _)| solve.value_source(id) == Some(ValueSource::CommandLine))
        .map(|(_, flag)| flag)
}
