//! `sudokud solve --remote ADDR[,ADDR...]`: the same lines as local `solve`, the
//! solving done by servers over `SolveBatch` (`crate::remote`). Puzzles that do
//! not parse get their error line here, as local `solve` writes it, and are not
//! sent.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use super::args::SolveArgs;
use super::solve::{draw_progress, print_all, read_input};
use super::{CliResult, Threads, runtime};
use crate::board::{Board, puzzle_lines};
use crate::client::Target;
use crate::pb::{self, BatchAnswer};
use crate::remote::Settings;

pub(super) fn run(args: SolveArgs) -> CliResult {
    let text = read_input(args.file.as_deref())?;
    let mut lines: Vec<Option<String>> = Vec::new();
    let (mut sent, mut puzzles) = (Vec::new(), Vec::new());
    for (_, line) in puzzle_lines(&text) {
        match Board::parse(line) {
            Ok(board) => {
                sent.push(lines.len());
                puzzles.push(board.to_line());
                lines.push(None);
            }
            Err(error) => lines.push(Some(format!("error: {error}\n"))),
        }
    }
    let counting = args.count;
    let settings = Settings {
        algorithm: crate::convert::algorithm_to_pb(args.algorithm.engine()).into(),
        check_unique: counting,
        max_steps: args.max_steps.unwrap_or(0),
    };
    let answered = Arc::new(AtomicUsize::new(0));
    let total = puzzles.len();
    let show_progress = io::stderr().is_terminal() && total > 256;
    let answered_all = runtime(Threads::PerCore)?.block_on(async {
        let servers = targets(&args).await?;
        let keep: crate::remote::Keep = Arc::new(move |answer| answer_line(answer, counting));
        let tally = (keep, answered.clone());
        let solving = crate::remote::solve(servers, Arc::new(puzzles), settings, tally);
        if show_progress {
            let progress = answered.clone();
            std::thread::spawn(move || draw_progress(&progress, total));
        }
        solving.await
    })?;
    for failure in &answered_all.failures {
        eprintln!("warning: {failure}");
    }
    for (index, line) in sent.into_iter().zip(answered_all.answers) {
        lines[index] = Some(line);
    }
    let text: String = lines.into_iter().flatten().collect();
    print_all(vec![text.into_bytes()])?;
    io::stdout().flush()?;
    Ok(())
}

/// The servers: every address each `--remote` name resolves to, with the TLS
/// material and token of the flags (the name is what the certificate must carry).
async fn targets(
    args: &SolveArgs,
) -> Result<Vec<Target>, Box<dyn std::error::Error + Send + Sync>> {
    let tls = args.tls.client_tls()?;
    let mut servers = Vec::new();
    for entry in &args.remote {
        let Some((host, _)) = entry.rsplit_once(':') else {
            return Err(format!("--remote {entry:?}: expected host:port").into());
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let mut addresses: Vec<std::net::SocketAddr> = tokio::net::lookup_host(entry.as_str())
            .await
            .map_err(|error| format!("--remote {entry:?}: {error}"))?
            .collect();
        addresses.sort_unstable();
        addresses.dedup();
        for address in addresses {
            let mut tls = tls.clone();
            if let Some(tls) = tls.as_mut() {
                tls.domain.get_or_insert_with(|| host.to_owned());
            }
            servers.push(Target {
                address: address.to_string(),
                tls,
                bearer_token: args.auth_token.clone(),
            });
        }
    }
    Ok(servers)
}

/// The line local `solve` prints for the same puzzle.
fn answer_line(answer: BatchAnswer, counting: bool) -> String {
    if answer.code != 0 {
        let limit = answer
            .error
            .strip_prefix("step limit reached: the search took ")
            .and_then(|rest| rest.split_whitespace().next());
        return match limit {
            Some(limit) => format!("error: step limit of {limit} reached\n"),
            None => format!("error: {}\n", answer.error),
        };
    }
    if counting {
        format!("{}\n", answer.solution_count)
    } else if answer.outcome == pb::Outcome::Solved as i32 {
        let mut line = answer.solution;
        line.push('\n');
        line
    } else {
        "unsolvable\n".to_owned()
    }
}
