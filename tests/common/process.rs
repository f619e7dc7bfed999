//! Commands run as a user runs them (the `sudokud` binary, or a client such as
//! grpcurl), with their stdin given and their wait bounded: a command still
//! running after the bound is killed and the test fails saying so.

use std::process::{Output, Stdio};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// How long any one command may take.
const BOUND: Duration = Duration::from_secs(120);

/// `program args` in the folder `dir`, with nothing on its stdin; its output.
pub async fn run_in(program: &str, args: &[&str], dir: &std::path::Path) -> Output {
    let mut command = Command::new(program);
    command.current_dir(dir);
    bounded(command, program, args, "", &[]).await
}

/// `program args`, with `stdin` written to it and `env` set; its output.
pub async fn run(program: &str, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    bounded(Command::new(program), program, args, stdin, env).await
}

/// `command` run with `args`, `stdin` and `env`, killed past the bound.
async fn bounded(
    mut command: Command,
    program: &str,
    args: &[&str],
    stdin: &str,
    env: &[(&str, &str)],
) -> Output {
    let mut child = command
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {program}: {error}"));
    // Written while the output is read: a program that answers as it reads
    // would otherwise fill its output pipe and wait for us as we wait for it.
    // (A program that exits without reading all of it is no failure here.)
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_owned();
    tokio::spawn(async move {
        let _ = input.write_all(stdin.as_bytes()).await;
    });
    tokio::time::timeout(BOUND, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("{program} {args:?} still running after {BOUND:?}"))
        .unwrap()
}

/// `sudokud args` (the binary under test).
pub async fn sudokud(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    run(env!("CARGO_BIN_EXE_sudokud"), args, stdin, env).await
}

/// A command's stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A command's stdout as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}
