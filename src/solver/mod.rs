//! The search engines and what they share. Std only: the engine knows nothing of
//! gRPC, tokio or protobuf, and `tests/layout.rs` checks that it imports nothing else.
//!
//! - `events`: what a search reports ([`Event`], [`Step`], [`Reason`]) and the
//!   [`Sink`] it reports into, which may pause or stop it (the design follows
//!   ripgrep's searcher sink; the sink is a generic parameter, so [`NoEvents`]
//!   compiles to nothing);
//! - `control`: a run's bounds ([`Control`]: steps, stop signals, deadline, slice)
//!   and why a search ended early ([`Interrupted`]);
//! - `algorithm`: the searches offered ([`Algorithm`]);
//! - `outcome`: what a search finds and counts ([`Mode`], [`Report`], [`Stats`]);
//! - `search`: the resumable [`Search`] over every algorithm;
//! - `recorder`: counts steps and enforces the bounds for every algorithm alike;
//! - `replay`: the grid a stream of events builds, checking each event (what a
//!   viewer of a search does);
//! - `grid`, `backtracking`, `singles`, `propagation`, `bitboard`: the 9x9 engines;
//! - `sized`: the engines at every size (`Algorithm::Wide` the fast one);
//! - `constrained`: the variants' engine, any houses, peers and rules, driven
//!   by the branching search of `sized`.

mod algorithm;
mod backtracking;
mod bitboard;
mod constrained;
mod control;
mod events;
mod grid;
mod outcome;
mod propagation;
mod recorder;
mod replay;
mod search;
mod singles;
mod sized;

pub use control::{Control, Interrupted};

/// The engine build: the crate's version and a hash of the search's and the
/// board's sources. Two servers with the same name make the same steps for the
/// same puzzle and algorithm; a stream resumes only on its own build.
pub const ENGINE_VERSION: &str =
    concat!(env!("CARGO_PKG_VERSION"), "+", env!("SUDOKUD_ENGINE_BUILD"));
pub use algorithm::Algorithm;
pub use events::{Event, Flow, NoEvents, Reason, Sink, Step};
pub use outcome::{Mode, Report, Stats};
pub use replay::{Replay, ReplayError};
pub use search::{Progress, Search};

use std::sync::Arc;

use crate::board::{Board, Grid, Layout};
use outcome::{Found, Status};
use recorder::Recorder;

/// Searches for the first solution, pushing every step into `sink`.
///
/// Replay invariant: applying the events in order to the givens yields the solution
/// (or, when there is none, the givens again).
pub fn solve<S: Sink>(
    board: &Board,
    algorithm: Algorithm,
    control: &Control<'_>,
    sink: &mut S,
) -> Result<Report, Interrupted> {
    Search::new(board, algorithm, Mode::First).finish(control, sink)
}

/// Counts solutions up to two (2 means "two or more"), keeping the first found.
pub fn count_solutions(
    board: &Board,
    algorithm: Algorithm,
    control: &Control<'_>,
) -> Result<Report, Interrupted> {
    Search::new(board, algorithm, Mode::CountTwo).finish(control, &mut NoEvents)
}

/// Whether a puzzle has one solution, as explaining, rating and hints need
/// (the solution a 9x9 [`Board`], or a [`Grid`] of any shape).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Uniqueness<T = Board> {
    /// No solution.
    None,
    /// Exactly one, and what the search that proved it did.
    One(T, Stats),
    /// Two or more.
    Several,
}

/// [`count_solutions`] with the default engine, as a [`Uniqueness`].
pub fn uniqueness(board: &Board, control: &Control<'_>) -> Result<Uniqueness, Interrupted> {
    let report = count_solutions(board, Algorithm::DEFAULT, control)?;
    Ok(match (report.solution_count, report.solution) {
        (1, Some(solution)) => Uniqueness::One(solution, report.stats),
        (0, _) | (_, None) => Uniqueness::None,
        _ => Uniqueness::Several,
    })
}

/// [`uniqueness`] of a grid of any shape: the default engine for 9x9, the
/// wide engine for the others.
pub fn uniqueness_of(grid: &Grid, control: &Control<'_>) -> Result<Uniqueness<Grid>, Interrupted> {
    if let Some(board) = grid.to_board() {
        return Ok(match uniqueness(&board, control)? {
            Uniqueness::One(solution, stats) => Uniqueness::One(Grid::from_board(&solution), stats),
            Uniqueness::None => Uniqueness::None,
            Uniqueness::Several => Uniqueness::Several,
        });
    }
    let search = Search::sized(grid, Algorithm::Wide, Mode::CountTwo);
    counted(search, control)
}

/// [`uniqueness_of`] of `givens` (cells of `layout`'s shape) under a variant's
/// rules: the constrained engine's count.
pub fn uniqueness_under(
    layout: &Arc<Layout>,
    givens: &[u8],
    control: &Control<'_>,
) -> Result<Uniqueness<Grid>, Interrupted> {
    let search = Search::constrained(Arc::clone(layout), givens, Algorithm::Wide, Mode::CountTwo);
    counted(search, control)
}

/// The count to two of `search` as a [`Uniqueness`]; none without a search
/// (givens that break the rules).
fn counted(search: Option<Search>, control: &Control<'_>) -> Result<Uniqueness<Grid>, Interrupted> {
    let Some(mut search) = search else {
        return Ok(Uniqueness::None);
    };
    let report = search.finish(control, &mut NoEvents)?;
    // A 9x9 variant's solution comes as a board.
    let solution = report
        .grid
        .or_else(|| report.solution.as_ref().map(Grid::from_board));
    Ok(match (report.solution_count, solution) {
        (1, Some(solution)) => Uniqueness::One(solution, report.stats),
        (0, _) | (_, None) => Uniqueness::None,
        _ => Uniqueness::Several,
    })
}
