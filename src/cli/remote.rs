//! `sudokud solve --remote ADDR[,ADDR...]`: the same lines as local `solve`, the
//! solving done by servers over `SolveBatch` (`crate::remote`), printed in input
//! order as they come. A line of 81 characters goes out as it is, a slice of the
//! input (the server checks it, and its error text is local `solve`'s); other
//! lines are parsed here: sent in normal form, or given their error line here.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::mpsc;

use bytes::Bytes;

use super::args::SolveArgs;
use super::lines::Progress;
use super::runtime::{CliResult, Threads, runtime};
use crate::board::{Board, CELLS, puzzle_lines};
use crate::client::Target;
use crate::pb;
use crate::remote::{Answer, Output, Settings};

/// The lines answered here, each with the number of puzzle lines before it:
/// error lines (without the newline), in input order.
type Here = Vec<(usize, String)>;

pub(super) fn run(args: SolveArgs) -> CliResult {
    let text = args.variant.input(args.file.as_deref())?.read_all()?;
    let notation = args.grid.notation()?;
    let (here, puzzles) = plan(text, notation.is_some() || args.variant.has_rules())?;
    let counting = args.count;
    let algorithm = match args.algorithm.0 {
        Some(algorithm) => crate::convert::algorithm_to_pb(algorithm).into(),
        None => 0,
    };
    let settings = Settings {
        algorithm,
        check_unique: counting,
        max_steps: args.max_steps.unwrap_or(0),
        rules: prost::Message::encode_to_vec(&args.wire_rules()?),
    };
    let total = puzzles.len();
    let progress = Progress::new(Some(total));
    let answered = progress.counter();
    if io::stderr().is_terminal() {
        std::thread::spawn(move || {
            progress.draw_until(total);
            progress.end();
        });
    }
    let (in_order, answers) = mpsc::channel();
    let output = Output {
        keep: Box::new(move |answer| answer_line(answer, counting)),
        answered,
        in_order,
    };
    // One thread: the call's tasks and the connections' hand each other messages
    // without waking other threads (a tenth less CPU than one a core, measured).
    let runtime = runtime(Threads::One)?;
    let (closed, output_closed) = tokio::sync::oneshot::channel();
    let (solved, printed) = std::thread::scope(|scope| {
        let printer = scope.spawn(move || {
            let printed = print_in_order(here, &answers);
            if printed.is_err() {
                let _ = closed.send(());
            }
            printed
        });
        let solved = runtime.block_on(async {
            let servers = targets(&args).await?;
            let solving = crate::remote::solve(servers, Arc::new(puzzles), settings, output);
            tokio::select! {
                solved = solving => solved,
                // The output failed (stdout closed, say): the calls are dropped,
                // which stops the servers' solving; the output's error says why.
                Ok(()) = output_closed => Ok(Vec::new()),
            }
        });
        (solved, printer.join())
    });
    for failure in solved? {
        eprintln!("warning: {failure}");
    }
    printed.map_err(|_| "the output thread panicked")??;
    Ok(())
}

/// The texts to send, and the lines answered here: a line of 81 characters
/// goes as a slice of the input, other lines are parsed here (sent in normal
/// form, or answered with their error).
/// With `ruled` (`--box` or `--symbols`) every line goes to the server as it is,
/// which reads it in the rules.
fn plan(text: String, ruled: bool) -> Result<(Here, Vec<Bytes>), std::str::Utf8Error> {
    let input = Bytes::from(text);
    // Valid (it was a String): checked again rather than trusted.
    let text = std::str::from_utf8(&input)?;
    let mut here = Vec::new();
    let mut puzzles = Vec::new();
    for (_, line) in puzzle_lines(text) {
        if ruled || line.len() == CELLS {
            puzzles.push(input.slice_ref(line.as_bytes()));
            continue;
        }
        match Board::parse(line) {
            Ok(board) => puzzles.push(Bytes::from(board.to_line())),
            Err(error) => here.push((puzzles.len() + here.len(), format!("error: {error}"))),
        }
    }
    Ok((here, puzzles))
}

/// Writes a line for every input line as the answers come, in order; stops
/// early if the run ends without them all (its error says why).
fn print_in_order(here: Here, answers: &mpsc::Receiver<Vec<Bytes>>) -> io::Result<()> {
    let mut printer = Printer {
        out: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        written: 0,
        here: here.into_iter().peekable(),
    };
    printer.lines_here()?;
    while let Ok(ready) = answers.recv() {
        for answer in ready {
            printer.line(&answer)?;
            printer.lines_here()?;
        }
    }
    Ok(())
}

/// The output so far, and the lines answered here still to come.
struct Printer<W: Write> {
    out: W,
    written: usize,
    here: std::iter::Peekable<std::vec::IntoIter<(usize, String)>>,
}

impl<W: Write> Printer<W> {
    fn line(&mut self, text: &[u8]) -> io::Result<()> {
        self.written += 1;
        self.out.write_all(text)?;
        self.out.write_all(b"\n")
    }

    /// The lines answered here that come next.
    fn lines_here(&mut self) -> io::Result<()> {
        while let Some((_, text)) = self.here.next_if(|(at, _)| *at == self.written) {
            self.line(text.as_bytes())?;
        }
        Ok(())
    }
}

/// The servers: every address each `--remote` name resolves to, with the TLS
/// material and token of the flags (the name is what the certificate must carry).
async fn targets(
    args: &SolveArgs,
) -> Result<Vec<Target>, Box<dyn std::error::Error + Send + Sync>> {
    let tls = args.tls.client_tls()?;
    let mut servers = Vec::new();
    for entry in &args.remote {
        let (scheme, authority) = crate::client::split_url(entry);
        let Some((host, _)) = authority.rsplit_once(':') else {
            return Err(format!("--remote {entry:?}: expected host:port or a URL").into());
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let mut addresses: Vec<std::net::SocketAddr> = tokio::net::lookup_host(authority)
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
                address: match scheme {
                    Some(scheme) => format!("{scheme}://{address}"),
                    None => address.to_string(),
                },
                tls,
                bearer_token: args.auth_token.clone(),
            });
        }
    }
    Ok(servers)
}

/// The line local `solve` prints for the same puzzle, without its newline.
fn answer_line(answer: Answer, counting: bool) -> Bytes {
    if answer.code != 0 {
        let error = &answer.error;
        let limit = error
            .strip_prefix("step limit reached: the search took ")
            .and_then(|rest| rest.split_whitespace().next());
        return Bytes::from(match (limit, error.strip_prefix("invalid puzzle: ")) {
            (Some(limit), _) => format!("error: step limit of {limit} reached"),
            (None, Some(why)) => format!("error: {why}"),
            (None, None) => format!("error: {error}"),
        });
    }
    if counting {
        match answer.solution_count {
            0 => Bytes::from_static(b"0"),
            1 => Bytes::from_static(b"1"),
            count => Bytes::from(count.to_string()),
        }
    } else if answer.outcome == pb::Outcome::Solved as i32 {
        answer.solution
    } else {
        Bytes::from_static(b"unsolvable")
    }
}
