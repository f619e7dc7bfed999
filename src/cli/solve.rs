//! `sudokud solve` (without `--remote`): one puzzle a line from a file or stdin,
//! answered on every core in input order, one answer a line, with progress on a
//! terminal.

use std::io::Write;
use std::sync::Arc;

use super::args::SolveArgs;
use super::lines::{answer_lines, threads};
use super::runtime::CliResult;
use crate::board::{Board, Form, Layout, Notation, PuzzleError, cell_char};
use crate::solver::{Algorithm, Control, Interrupted, Mode, NoEvents, Search};

pub(super) fn run(args: SolveArgs) -> CliResult {
    let source = args.variant.input(args.file.as_deref())?;
    let (notation, layout) = match args.variant.variant()? {
        Some((notation, layout)) => (Some(notation), layout.map(Arc::new)),
        None => (args.grid.notation()?, None),
    };
    let shape = notation.as_ref().map_or(args.grid.shape(), Notation::shape);
    let algorithm = match &layout {
        Some(_) => args.algorithm.0.unwrap_or(Algorithm::Wide),
        None => args.algorithm.engine_for(shape),
    };
    if layout.is_some() && !matches!(algorithm, Algorithm::Wide | Algorithm::Propagation) {
        return Err(format!(
            "--algorithm {} does not search variants; leave it out or choose wide or propagation",
            algorithm.name()
        )
        .into());
    }
    if !algorithm.supports(shape) {
        return Err(format!(
            "--algorithm {} searches 9x9 grids only; for {shape} leave it out or choose wide",
            algorithm.name()
        )
        .into());
    }
    let job = Job {
        algorithm,
        notation,
        layout,
        mode: args.mode(),
        control: Control {
            max_steps: args.max_steps.unwrap_or(u64::MAX),
            ..Control::UNTIMED
        },
    };
    let threads = threads(args.threads);
    answer_lines(source, threads, |search, text, out| {
        answer_line(&job, search, text, out);
    })?;
    Ok(())
}

/// What every puzzle of a run is solved with.
struct Job {
    algorithm: Algorithm,
    /// The notation of `--box` and `--symbols` (or `--rules`); `None`: 9x9 lines.
    notation: Option<Notation>,
    /// The layout of `--rules` when they add rules to the shape's own.
    layout: Option<Arc<Layout>>,
    mode: Mode,
    control: Control<'static>,
}

/// Appends the output line for one puzzle line: the solution, `unsolvable`, the
/// solution count, or `error: ...`; `search` is the thread's, reused.
fn answer_line(job: &Job, search: &mut Option<Search>, text: &str, out: &mut Vec<u8>) {
    if let (Some(notation), Some(layout)) = (&job.notation, &job.layout) {
        return answer_variant(job, (notation, layout), text, out);
    }
    if let Some(notation) = &job.notation {
        return answer_sized(job, notation, text, out);
    }
    let board = match Board::parse(text) {
        Ok(board) => board,
        Err(error) => {
            let _ = writeln!(out, "error: {error}");
            return;
        }
    };
    let counting = job.mode == Mode::CountTwo;
    let result =
        Search::reuse(search, &board, job.algorithm, job.mode).finish(&job.control, &mut NoEvents);
    // Writing to a Vec cannot fail.
    let _ = match result {
        // One digit (counting stops at two), without the formatting machinery.
        Ok(report) if counting && report.solution_count < 10 => {
            out.extend_from_slice(&[b'0' + report.solution_count as u8, b'\n']);
            Ok(())
        }
        Ok(report) if counting => writeln!(out, "{}", report.solution_count),
        Ok(report) => match report.solution {
            Some(solution) => {
                out.extend(solution.cells().iter().map(|&digit| cell_char(digit) as u8));
                out.push(b'\n');
                Ok(())
            }
            None => writeln!(out, "unsolvable"),
        },
        Err(Interrupted::StepLimit { limit }) => {
            writeln!(out, "error: step limit of {limit} reached")
        }
        Err(other) => writeln!(out, "error: {other:?}"),
    };
}

/// [`answer_line`] for a line in the notation of `--box` and `--symbols`: the
/// answer in the line's own form.
fn answer_sized(job: &Job, notation: &Notation, text: &str, out: &mut Vec<u8>) {
    let (grid, form) = match notation.read(text) {
        Ok(read) => read,
        Err(error) => {
            let _ = writeln!(out, "error: {error}");
            return;
        }
    };
    let Some(mut search) = Search::sized(&grid, job.algorithm, job.mode) else {
        let _ = writeln!(
            out,
            "error: {} does not search {}",
            job.algorithm.name(),
            grid.shape()
        );
        return;
    };
    finish_line(job, &mut search, (notation, form), out);
}

/// [`answer_line`] for a line under the rules of `--rules`.
fn answer_variant(
    job: &Job,
    (notation, layout): (&Notation, &Arc<Layout>),
    text: &str,
    out: &mut Vec<u8>,
) {
    let read =
        notation
            .read_cells(text)
            .and_then(|(cells, form)| match layout.first_clash(&cells) {
                Some((first, second)) => Err(PuzzleError::Clash {
                    first,
                    second,
                    side: layout.size(),
                    digit: cells[first],
                }),
                None => Ok((cells, form)),
            });
    let (cells, form) = match read {
        Ok(read) => read,
        Err(error) => {
            let _ = writeln!(out, "error: {error}");
            return;
        }
    };
    let search = Search::constrained(Arc::clone(layout), &cells, job.algorithm, job.mode);
    match search {
        Some(mut search) => finish_line(job, &mut search, (notation, form), out),
        None => {
            let _ = writeln!(
                out,
                "error: {} does not search variants",
                job.algorithm.name()
            );
        }
    }
}

/// Runs a search of any size to its end and writes its answer line in the
/// puzzle's own form.
fn finish_line(
    job: &Job,
    search: &mut Search,
    (notation, form): (&Notation, Form),
    out: &mut Vec<u8>,
) {
    let _ = match search.finish(&job.control, &mut NoEvents) {
        Ok(report) if job.mode == Mode::CountTwo => writeln!(out, "{}", report.solution_count),
        Ok(report) => match report.cells() {
            Some(cells) => writeln!(out, "{}", notation.write(cells, form)),
            None => writeln!(out, "unsolvable"),
        },
        Err(Interrupted::StepLimit { limit }) => {
            writeln!(out, "error: step limit of {limit} reached")
        }
        Err(other) => writeln!(out, "error: {other:?}"),
    };
}
