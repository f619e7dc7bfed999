//! What a search finds and counts: its [`Mode`] (first solution or count to
//! two), the solutions [`Found`] so far, its [`Stats`] and final [`Report`], and
//! the [`Status`] an engine's run ends with. Shared by every engine and the
//! resumable search over them; knows none of them.

use std::time::Duration;

use crate::board::{Board, Grid, Shape};

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Digits placed (givens not included).
    pub placements: u64,
    /// Placements taken back.
    pub backtracks: u64,
    /// Placements that were guesses.
    pub guesses: u64,
    /// Time spent searching (the runs of a paused search added up).
    pub elapsed: Duration,
}

impl Report {
    /// The cells of the solution found, at any size.
    pub fn cells(&self) -> Option<&[u8]> {
        match (&self.solution, &self.grid) {
            (Some(board), _) => Some(board.cells()),
            (None, Some(grid)) => Some(grid.cells()),
            (None, None) => None,
        }
    }
}

/// The answer of a finished search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The first solution found, if any, of a 9x9 search.
    pub solution: Option<Board>,
    /// The first solution found, if any, of a search at any other size (and of
    /// `Algorithm::Wide` at 9x9).
    pub grid: Option<Grid>,
    /// Solutions found: at most 1 for [`Mode::First`], at most 2 for
    /// [`Mode::CountTwo`].
    pub solution_count: u32,
    /// What the search did.
    pub stats: Stats,
}

/// Whether a search stops at the first solution or counts to two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Stop at the first solution.
    First,
    /// Count solutions up to two (2 means "two or more"), keeping the first found.
    CountTwo,
    /// Enumerate solutions up to the cap (and one past it, to tell whether
    /// there are more), keeping in each cell every digit one of them put
    /// there: true candidates. The constrained engine's searches only.
    Enumerate(u32),
}

impl Mode {
    /// [`Mode::CountTwo`] when `count_to_two` (a request's `check_unique`, the
    /// command line's `--count`), else [`Mode::First`].
    pub fn counting(count_to_two: bool) -> Mode {
        if count_to_two {
            Mode::CountTwo
        } else {
            Mode::First
        }
    }

    pub(super) fn wanted(self) -> u32 {
        match self {
            Mode::First => 1,
            Mode::CountTwo => 2,
            Mode::Enumerate(cap) => cap.saturating_add(1),
        }
    }
}

/// What an engine's run ended with (interruptions go through `Err`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    /// Paused at a pause point: run again to go on.
    Paused,
    /// The search is over (found all it wants, or exhausted).
    Done,
}

/// Solutions found so far by a search that wants `wanted` of them.
#[derive(Clone)]
pub(super) struct Found {
    pub(super) first: Option<[u8; 81]>,
    /// The first solution of an any-size engine.
    pub(super) first_sized: Option<Vec<u8>>,
    pub(super) count: u32,
    pub(super) wanted: u32,
    /// Per cell, the digits the solutions so far put there (as bits), when
    /// enumerating.
    pub(super) seen: Option<Vec<u64>>,
}

impl Found {
    pub(super) fn new(wanted: u32) -> Found {
        Found {
            first: None,
            first_sized: None,
            count: 0,
            wanted,
            seen: None,
        }
    }

    /// What a search in `mode` keeps.
    pub(super) fn of(mode: Mode) -> Found {
        Found {
            seen: matches!(mode, Mode::Enumerate(_)).then(Vec::new),
            ..Found::new(mode.wanted())
        }
    }

    /// Records a complete grid; true when the search has found all it wants.
    pub(super) fn record(&mut self, cells: &[u8; 81]) -> bool {
        self.record_with(|| *cells)
    }

    /// Records a complete grid of any size; true when the search has found all
    /// it wants.
    pub(super) fn record_sized(&mut self, cells: &[u8]) -> bool {
        if self.first.is_none() && self.first_sized.is_none() {
            self.first_sized = Some(cells.to_vec());
        }
        if let Some(seen) = &mut self.seen {
            seen.resize(cells.len(), 0);
            for (mask, &digit) in seen.iter_mut().zip(cells) {
                *mask |= 1u64 << (digit - 1);
            }
        }
        self.count += 1;
        self.count >= self.wanted
    }

    /// The first solution as a grid of `shape`, when an any-size engine found it.
    pub(super) fn sized_solution(&self, shape: Shape) -> Option<Grid> {
        let cells = self.first_sized.clone()?;
        Some(Grid::with_cells(shape, cells))
    }

    /// Records a complete grid that `cells` spells out, asked for only when it is
    /// the first (later ones are only counted); true when the search has found all
    /// it wants.
    #[inline(always)]
    pub(super) fn record_with(&mut self, cells: impl FnOnce() -> [u8; 81]) -> bool {
        if self.first.is_none() {
            self.first = Some(cells());
        }
        self.count += 1;
        self.count >= self.wanted
    }
}
