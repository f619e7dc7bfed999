//! Engine throughput measurement behind `sudokud bench`: one core, puzzles parsed
//! before the clock starts, first solution and counting to two, in the layout of
//! tdoku's benchmark tables. Std only.
//! Knows nothing of the service or the command line's output.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::board::{Board, puzzle_lines};
use crate::solver::{Algorithm, Control, NoEvents, Report, Search};

/// What one pass over a set measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Measure {
    /// Puzzles solved per second.
    pub puzzles_per_second: f64,
    /// Microseconds per puzzle.
    pub micros_per_puzzle: f64,
    /// Share of puzzles solved without any guess, in percent.
    pub no_guess_percent: f64,
    /// Guesses per puzzle.
    pub guesses_per_puzzle: f64,
}

pub use crate::solver::Mode;

/// Parses puzzle lines, skipping blanks and `#` comments; fails on the first bad one.
pub fn parse_set(text: &str) -> Result<Vec<Board>, String> {
    puzzle_lines(text)
        .map(|(number, line)| Board::parse(line).map_err(|e| format!("line {number}: {e}")))
        .collect()
}

/// The folder of the public benchmark sets: `SUDOKUD_PUZZLES` when set, else
/// `../shared/data/puzzles` beside this crate's sources (where `cargo test` and
/// `cargo bench` find them). The one definition the tests and benchmarks use.
pub fn puzzle_dir() -> PathBuf {
    match std::env::var_os("SUDOKUD_PUZZLES") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/puzzles"),
    }
}

/// The boards of the set `file` in [`puzzle_dir`]; an error names the file and
/// the line.
pub fn read_set(file: &str) -> Result<Vec<Board>, String> {
    read_set_at(&puzzle_dir().join(file))
}

/// The boards of the puzzle file at `path`; an error names the file and the line.
pub fn read_set_at(path: &Path) -> Result<Vec<Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_set(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Solves the whole set repeatedly until at least `min_time` has passed (at least
/// once) and reports the rates.
pub fn measure(boards: &[Board], algorithm: Algorithm, mode: Mode, min_time: Duration) -> Measure {
    let mut solved = 0u64;
    let mut no_guess = 0u64;
    let mut guesses = 0u64;
    let mut search = None;
    let started = Instant::now();
    loop {
        for board in boards {
            let report = run(&mut search, board, algorithm, mode);
            solved += 1;
            guesses += report.stats.guesses;
            no_guess += u64::from(report.stats.guesses == 0);
        }
        if started.elapsed() >= min_time || boards.is_empty() {
            break;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let count = solved.max(1) as f64;
    Measure {
        puzzles_per_second: solved as f64 / seconds,
        micros_per_puzzle: seconds * 1e6 / count,
        no_guess_percent: no_guess as f64 * 100.0 / count,
        guesses_per_puzzle: guesses as f64 / count,
    }
}

fn run(search: &mut Option<Search>, board: &Board, algorithm: Algorithm, mode: Mode) -> Report {
    let result =
        Search::reuse(search, board, algorithm, mode).finish(&Control::UNTIMED, &mut NoEvents);
    // Without limits or a stop signal nothing can interrupt the search.
    result
        .unwrap_or_else(|interrupted| unreachable!("unlimited search interrupted: {interrupted:?}"))
}
