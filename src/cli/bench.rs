//! `sudokud bench`: engine throughput on puzzle files, one core, first solution
//! and counting to two, in the layout of tdoku's tables.

use std::io::{self, Write};

use super::args::BenchArgs;
use super::config::seconds;
use super::runtime::CliResult;
use crate::solver::Mode;

pub(super) fn run(args: BenchArgs) -> CliResult {
    let algorithm = args.algorithm.engine();
    let min_time = seconds(args.min_seconds);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{:<32} {:>8} {:<6} {:>12} {:>10} {:>10} {:>10}",
        "file", "puzzles", "mode", "puzzles/s", "µs/puzzle", "no guess", "guesses"
    )?;
    for path in &args.files {
        let boards = crate::bench::read_set_at(path)?;
        let name = path
            .file_name()
            .unwrap_or(path.as_os_str())
            .to_string_lossy();
        for (mode, label) in [(Mode::First, "first"), (Mode::CountTwo, "count2")] {
            let m = crate::bench::measure(&boards, algorithm, mode, min_time);
            writeln!(
                out,
                "{name:<32} {:>8} {label:<6} {:>12.0} {:>10.2} {:>9.1}% {:>10.2}",
                boards.len(),
                m.puzzles_per_second,
                m.micros_per_puzzle,
                m.no_guess_percent,
                m.guesses_per_puzzle
            )?;
        }
    }
    writeln!(out, "algorithm: {}, one thread", algorithm.name())?;
    Ok(())
}
