//! `sudokud load`: concurrent callers for a while, or many paced streams with
//! probes; prints rates, latencies and the server's usage.

use std::io::{self, Write};
use std::path::Path;

use super::args::{LoadArgs, RpcArg};
use super::config::{read_text, seconds};
use super::runtime::{CliResult, Threads, runtime};
use crate::board::puzzle_lines;

/// Puzzles the load generator sends when given none: three hard classics.
const LOAD_PUZZLES: [&str; 3] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
];

/// The puzzle lines of a file.
fn read_puzzles(path: &Path) -> Result<Vec<String>, String> {
    let text = read_text(path)?;
    Ok(puzzle_lines(&text)
        .map(|(_, line)| line.to_owned())
        .collect())
}

pub(super) fn run(args: LoadArgs) -> CliResult {
    let puzzles: Vec<String> = match &args.puzzles {
        Some(path) => read_puzzles(path)?,
        None => LOAD_PUZZLES.iter().map(|p| p.to_string()).collect(),
    };
    if puzzles.is_empty() {
        return Err("no puzzles to send".into());
    }
    if let Some(streams) = args.streams {
        if args.rpc != RpcArg::Steps {
            return Err("--streams needs --rpc steps".into());
        }
        return load_streams(&args, streams, puzzles);
    }
    let target = args.connect.target(args.auth_token.clone())?;
    let plan = crate::load::Plan {
        rpc: args.rpc.rpc(),
        concurrency: args.concurrency.max(1),
        duration: seconds(args.duration),
        puzzles,
        algorithm: args.algorithm.pb(),
        authorization: target.authorization()?,
    };
    let summary = runtime(Threads::PerCore)?.block_on(async {
        let channel = target.connect(None).await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(crate::load::run(channel, &plan).await)
    })?;
    print_calls(&args, &plan, &summary)?;
    Ok(())
}

/// The report of a run of callers.
fn print_calls(
    args: &LoadArgs,
    plan: &crate::load::Plan,
    summary: &crate::load::Summary,
) -> io::Result<()> {
    let seconds = summary.elapsed.as_secs_f64().max(1e-9);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "rpc {:?}, concurrency {}, {:.1} s: {} calls ({} errors), {:.0} calls/s",
        args.rpc,
        plan.concurrency,
        seconds,
        summary.calls,
        summary.errors,
        summary.calls as f64 / seconds
    )?;
    if plan.rpc == crate::load::Rpc::Steps {
        writeln!(
            out,
            "steps received: {} ({:.0} steps/s)",
            summary.steps,
            summary.steps as f64 / seconds
        )?;
    }
    writeln!(
        out,
        "latency µs: p50 {} p90 {} p99 {} max {}",
        summary.percentile(50.0),
        summary.percentile(90.0),
        summary.percentile(99.0),
        summary.latencies.last().copied().unwrap_or(0)
    )?;
    if !summary.failures.is_empty() {
        let counts: Vec<String> = summary
            .failures
            .iter()
            .map(|(code, count)| format!("{code} {count}"))
            .collect();
        writeln!(out, "failures by status: {}", counts.join(", "))?;
    }
    print_first_error(&mut out, summary.first_error.as_ref())
}

/// `load --rpc steps --streams N`: many streams at once, probes, server usage.
fn load_streams(args: &LoadArgs, streams: usize, puzzles: Vec<String>) -> CliResult {
    let target = args.connect.target(args.auth_token.clone())?;
    let probes = match &args.probes {
        Some(path) => read_puzzles(path)?
            .into_iter()
            .take(args.probe_count)
            .collect(),
        None => Vec::new(),
    };
    let plan = crate::load::streams::StreamPlan {
        streams,
        pace: std::time::Duration::from_millis(u64::from(super::config::interval_ms(args.pace))),
        max_batch: args.max_batch,
        puzzles,
        algorithm: args.algorithm.pb(),
        opening: seconds(args.opening_seconds),
        window: seconds(args.duration),
        probes,
        probe_algorithm: args.probe_algorithm.pb(),
        probe_timeout: seconds(args.probe_timeout),
        authorization: target.authorization()?,
        server_pid: args.server_pid,
    };
    let connections = match streams {
        0 => 0,
        _ => args
            .connections
            .unwrap_or_else(|| streams.div_ceil(1000).max(10))
            .max(1),
    };
    let summary = runtime(Threads::PerCore)?.block_on(async {
        let mut channels = Vec::with_capacity(connections);
        for _ in 0..connections {
            channels.push(target.connect(None).await?);
        }
        let probe = target.connect(None).await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(
            crate::load::streams::run(channels, probe, &plan).await,
        )
    })?;
    print_streams(&plan, connections, &summary)?;
    Ok(())
}

fn print_streams(
    plan: &crate::load::streams::StreamPlan,
    connections: usize,
    summary: &crate::load::streams::StreamSummary,
) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let going = &summary.going_after;
    let at = |rank: f64| {
        going
            .get(((going.len().saturating_sub(1)) as f64 * rank).round() as usize)
            .map_or(0.0, |after| after.as_secs_f64())
    };
    writeln!(
        out,
        "streams {} (a step every {} ms, {connections} connections): {} going, p50 after {:.2} s, the last after {:.2} s; {} failed to open",
        plan.streams,
        plan.pace.as_millis(),
        going.len(),
        at(0.5),
        at(1.0),
        summary.failed
    )?;
    let window = summary.window.as_secs_f64().max(1e-9);
    writeln!(
        out,
        "steady window {window:.1} s: {} messages ({:.0}/s), {} steps ({:.0} steps/s)",
        summary.messages,
        summary.messages as f64 / window,
        summary.steps,
        summary.steps as f64 / window
    )?;
    print_probes(&mut out, &summary.probes)?;
    if let Some(server) = &summary.server {
        let per_message = server.cpu.as_secs_f64() * 1e6 / summary.messages.max(1) as f64;
        writeln!(
            out,
            "server: {:.2} s CPU in the window = {per_message:.1} µs per message; {} threads; RSS {} MB",
            server.cpu.as_secs_f64(),
            server.threads,
            server.rss_kib / 1024
        )?;
    }
    print_first_error(&mut out, summary.first_error.as_ref())
}

/// The probes' outcomes and latencies, when any were made.
fn print_probes(
    out: &mut impl Write,
    probes: &[Result<std::time::Duration, tonic::Code>],
) -> io::Result<()> {
    if probes.is_empty() {
        return Ok(());
    }
    let mut latencies: Vec<f64> = probes
        .iter()
        .filter_map(|probe| probe.as_ref().ok().map(|d| d.as_secs_f64() * 1e3))
        .collect();
    latencies.sort_by(f64::total_cmp);
    let failed: Vec<String> = probes
        .iter()
        .filter_map(|probe| probe.as_ref().err().map(|code| format!("{code:?}")))
        .collect();
    let rank = |p: f64| {
        latencies
            .get(((latencies.len().saturating_sub(1)) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    writeln!(
        out,
        "probes: {} OK, {} failed {:?}; latency ms p50 {:.1} p90 {:.1} max {:.1}",
        latencies.len(),
        failed.len(),
        failed,
        rank(0.5),
        rank(0.9),
        rank(1.0)
    )?;
    Ok(())
}

/// Tells why calls failed, by the first failure seen.
fn print_first_error(out: &mut impl Write, first: Option<&tonic::Status>) -> io::Result<()> {
    match first {
        Some(status) => writeln!(
            out,
            "first error: {:?}: {}",
            status.code(),
            status.message()
        ),
        None => Ok(()),
    }
}
