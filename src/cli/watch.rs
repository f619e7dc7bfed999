//! `sudokud watch`: one `SolveSteps` stream shown live in the terminal (or one
//! line a step through a pipe), then the final grid and statistics.

use std::io::{self, BufWriter, IsTerminal};

use super::args::WatchArgs;
use super::config::interval_ms;
use super::runtime::{CliResult, Threads, runtime};

pub(super) fn run(args: WatchArgs) -> CliResult {
    let puzzle = if args.puzzle == "-" {
        let mut line = String::new();
        io::stdin().read_line(&mut line)?;
        line.trim().to_owned()
    } else {
        args.puzzle.clone()
    };
    let interval_ms = interval_ms(args.pace);
    let request = crate::pb::SolveStepsRequest {
        puzzle,
        algorithm: args.algorithm.pb(),
        max_steps: args.max_steps,
        max_batch: 0,
        step_interval_ms: interval_ms,
        ..Default::default()
    };
    let target = args.connect.target(args.auth_token.clone())?;
    let view = if io::stdout().is_terminal() {
        crate::watch::View::Terminal
    } else {
        crate::watch::View::Lines
    };
    runtime(Threads::One)?.block_on(async {
        let channel = target.connect(None).await?;
        let mut out = BufWriter::new(io::stdout().lock());
        let reconnect = crate::watch::Reconnect {
            attempts: args.reconnects,
            ..Default::default()
        };
        crate::watch::watch(
            channel,
            request,
            target.authorization()?,
            view,
            reconnect,
            &mut out,
        )
        .await
    })?;
    Ok(())
}
