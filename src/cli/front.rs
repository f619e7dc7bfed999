//! The front of the `sudokud` binary: the commands that run on this machine alone
//! (`solve` without `--remote`, `bench`, `rate`, `explain`, `hint`, `generate`)
//! are parsed and run here, in a binary that links neither the server nor the
//! clients, so it starts like a small program. Anything else (no command, `serve`,
//! the commands that call a server, `--help`, `--version`, any parse error) goes
//! to the full binary beside it (`sudokud-server`, the same argv), which parses
//! it again and does what `sudokud` always did: one parser, one set of texts.
//! Knows nothing of what the commands do.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use super::args::{BenchArgs, ExplainArgs, GenerateArgs, HintArgs, RateArgs, SolveArgs};
use super::{bench, exit_code, human, solve, solve_flag_without_effect};

/// The file name of the full binary, next to the front's own.
pub const FULL_BINARY: &str = "sudokud-server";

/// The local commands, with the full command line's own argument structs.
#[derive(Parser)]
#[command(name = "sudokud")]
struct Local {
    #[command(subcommand)]
    command: LocalCommand,
}

#[derive(Subcommand)]
#[command(defer = true)]
enum LocalCommand {
    Solve(SolveArgs),
    Bench(BenchArgs),
    Rate(RateArgs),
    Explain(ExplainArgs),
    Hint(HintArgs),
    Generate(GenerateArgs),
}

/// Runs a local command here, or hands the command line to the full binary.
pub fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let Ok(matches) = Local::command().try_get_matches_from(&argv) else {
        return hand_over(&argv);
    };
    if solve_flag_without_effect(&matches).is_some() {
        return hand_over(&argv);
    }
    let Ok(local) = Local::from_arg_matches(&matches) else {
        return hand_over(&argv);
    };
    let result = match local.command {
        LocalCommand::Solve(args) if args.remote.is_empty() => solve::run(args),
        LocalCommand::Solve(_) => return hand_over(&argv),
        LocalCommand::Bench(args) => bench::run(args),
        LocalCommand::Rate(args) => human::rate(args),
        LocalCommand::Explain(args) => human::explain(args),
        LocalCommand::Hint(args) => human::hint(args),
        LocalCommand::Generate(args) => human::generate(args),
    };
    exit_code(result)
}

/// Runs the full binary on `args` (its own name first): in this process's place
/// where the platform allows, so its exit status and signals are this process's.
fn hand_over(args: &[OsString]) -> ExitCode {
    let full = match std::env::current_exe() {
        Ok(exe) => exe.with_file_name(FULL_BINARY),
        Err(error) => {
            eprintln!("sudokud: cannot locate {FULL_BINARY}: {error}");
            return ExitCode::from(127);
        }
    };
    let mut command = std::process::Command::new(&full);
    command.args(args.iter().skip(1));
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        if let Some(name) = args.first() {
            command.arg0(name);
        }
        let error = command.exec();
        eprintln!("sudokud: cannot run {}: {error}", full.display());
        ExitCode::from(127)
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(status) => ExitCode::from(status.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(error) => {
            eprintln!("sudokud: cannot run {}: {error}", full.display());
            ExitCode::from(127)
        }
    }
}
