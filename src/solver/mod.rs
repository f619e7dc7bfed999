//! The search engines and what they share: the event sink, limits, statistics and
//! the report of a search.
//!
//! The solver pushes every placement and backtrack into a [`Sink`], which may stop
//! it (the design follows ripgrep's searcher sink). The sink is a generic parameter,
//! so the unary path's [`NoEvents`] compiles to nothing. The engine imports std only:
//! it knows nothing of gRPC, tokio or protobuf.

mod backtracking;
mod bitboard;
mod grid;
mod propagation;
mod singles;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Board, Cell};

/// The searches the engine offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Classic row-major backtracking: first empty cell, digits 1..9 in order.
    Backtracking,
    /// Naked and hidden singles to a fixpoint, then row-major backtracking.
    Singles,
    /// Bitmask candidates, singles at every node, fewest-candidates branching.
    Propagation,
    /// The fast default: per-digit bitboards in bands, singles and locked
    /// candidates by bit operations, guesses on two-candidate cells.
    Bitboard,
}

impl Algorithm {
    /// Every algorithm, in the order of their protobuf numbers.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Backtracking,
        Algorithm::Singles,
        Algorithm::Propagation,
        Algorithm::Bitboard,
    ];

    /// The engine used when a caller does not choose one: the fastest we have.
    pub const DEFAULT: Algorithm = Algorithm::Bitboard;

    /// The short lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Backtracking => "backtracking",
            Algorithm::Singles => "singles",
            Algorithm::Propagation => "propagation",
            Algorithm::Bitboard => "bitboard",
        }
    }
}

/// Why a digit was placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A trial among several candidates.
    Guess,
    /// The cell had one candidate left.
    NakedSingle,
    /// The digit had one place left in a row, column or box.
    HiddenSingle,
    /// The digit had one place left in a row only once locked candidates (a digit
    /// confined to one row within a box, or to one box within a row) were removed.
    LockedCandidates,
}

/// One step of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `digit` was written into the empty `cell`.
    Place(Step),
    /// `digit` was taken back out of `cell`; reason and depth repeat the placement's.
    Backtrack(Step),
}

/// What a step touched and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The cell, 0..81 row-major.
    pub cell: u8,
    /// The digit, 1..=9.
    pub digit: u8,
    /// Why the digit was placed.
    pub reason: Reason,
    /// Guesses open after a placement (a guess counts itself); for a backtrack, the
    /// depth of the placement it undoes.
    pub depth: u32,
}

/// A sink's answer to an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep searching.
    Continue,
    /// Stop the search now.
    Stop,
}

/// Receives every event of a search, in order, and may stop it.
pub trait Sink {
    /// False for a sink that ignores every event: engines then skip the bookkeeping
    /// that only events need (the trail of placements to report on backtrack).
    const WANTS_EVENTS: bool = true;

    /// Called once per placement or backtrack.
    fn event(&mut self, event: Event) -> Flow;
}

/// The sink of the unary path: ignores every event, so the event code compiles away.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoEvents;

impl Sink for NoEvents {
    const WANTS_EVENTS: bool = false;

    #[inline(always)]
    fn event(&mut self, _event: Event) -> Flow {
        Flow::Continue
    }
}

impl<F: FnMut(Event) -> Flow> Sink for F {
    #[inline]
    fn event(&mut self, event: Event) -> Flow {
        self(event)
    }
}

/// The bounds of one search: a step budget, a stop signal and a deadline.
#[derive(Debug, Clone, Copy)]
pub struct Control<'a> {
    /// The most steps (placements plus backtracks) the search may take.
    pub max_steps: u64,
    /// Set from outside (the client went away) to stop the search within
    /// milliseconds.
    pub stop: Option<&'a AtomicBool>,
    /// A second stop signal, shared by many searches (the server's shutdown).
    pub shutdown: Option<&'a AtomicBool>,
    /// The search stops when this instant passes.
    pub deadline: Option<Instant>,
    /// Whether to time the search into [`Stats::elapsed`] (two clock reads a
    /// search, a few percent of an easy puzzle: batch runs that time themselves
    /// turn it off, and `elapsed` stays zero).
    pub timed: bool,
}

impl Control<'_> {
    /// No step limit, no stop signal, no deadline.
    pub const UNLIMITED: Control<'static> = Control {
        max_steps: u64::MAX,
        stop: None,
        shutdown: None,
        deadline: None,
        timed: true,
    };

    /// [`Control::UNLIMITED`] without timing.
    pub const UNTIMED: Control<'static> = Control {
        timed: false,
        ..Control::UNLIMITED
    };
}

/// Why a search ended before it had an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupted {
    /// The step budget ran out.
    StepLimit {
        /// The budget that was reached.
        limit: u64,
    },
    /// The stop signal was set or the sink answered [`Flow::Stop`].
    Stopped,
    /// The deadline passed.
    DeadlinePassed,
}

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Digits placed (givens not included).
    pub placements: u64,
    /// Placements taken back.
    pub backtracks: u64,
    /// Placements that were guesses.
    pub guesses: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// The answer of a finished search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The first solution found, if any.
    pub solution: Option<Board>,
    /// Solutions found: at most 1 for [`solve`], at most 2 for [`count_solutions`].
    pub solution_count: u32,
    /// What the search did.
    pub stats: Stats,
}

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
    run(board, algorithm, control, sink, 1)
}

/// Counts solutions up to two (2 means "two or more"), keeping the first found.
pub fn count_solutions(
    board: &Board,
    algorithm: Algorithm,
    control: &Control<'_>,
) -> Result<Report, Interrupted> {
    run(board, algorithm, control, &mut NoEvents, 2)
}

fn run<S: Sink>(
    board: &Board,
    algorithm: Algorithm,
    control: &Control<'_>,
    sink: &mut S,
    wanted: u32,
) -> Result<Report, Interrupted> {
    let started = control.timed.then(Instant::now);
    let mut recorder = Recorder::new(sink, control);
    let found = match algorithm {
        Algorithm::Backtracking => backtracking::search(board, &mut recorder, wanted),
        Algorithm::Singles => singles::search(board, &mut recorder, wanted),
        Algorithm::Propagation => propagation::search(board, &mut recorder, wanted),
        Algorithm::Bitboard => bitboard::search(board, &mut recorder, wanted),
    }?;
    let mut stats = recorder.stats;
    stats.elapsed = started.map_or(Duration::ZERO, |started| started.elapsed());
    Ok(Report {
        solution: found.first.map(Board::with_cells),
        solution_count: found.count,
        stats,
    })
}

/// Solutions found so far by a search that wants `wanted` of them.
struct Found {
    first: Option<[u8; 81]>,
    count: u32,
    wanted: u32,
}

impl Found {
    fn new(wanted: u32) -> Found {
        Found {
            first: None,
            count: 0,
            wanted,
        }
    }

    /// Records a complete grid; true when the search has found all it wants.
    fn record(&mut self, cells: &[u8; 81]) -> bool {
        self.record_with(|| *cells)
    }

    /// Records a complete grid that `cells` spells out, asked for only when it is
    /// the first (later ones are only counted); true when the search has found all
    /// it wants.
    #[inline(always)]
    fn record_with(&mut self, cells: impl FnOnce() -> [u8; 81]) -> bool {
        if self.first.is_none() {
            self.first = Some(cells());
        }
        self.count += 1;
        self.count >= self.wanted
    }
}

/// Counts steps, enforces the control's bounds and forwards events to the sink.
/// Every algorithm reports through it, so limits behave the same everywhere.
struct Recorder<'s, 'c, S> {
    sink: &'s mut S,
    control: &'s Control<'c>,
    stats: Stats,
    /// Steps left before the next look at the limit, the stop signal and the clock;
    /// the step that brings it to zero triggers the look. One decrement a step.
    until_check: u64,
}

/// Steps between two looks at the stop signal and the clock.
const POLL_EVERY: u64 = 1024;

impl<'s, 'c, S: Sink> Recorder<'s, 'c, S> {
    fn new(sink: &'s mut S, control: &'s Control<'c>) -> Self {
        Recorder {
            sink,
            control,
            stats: Stats::default(),
            until_check: POLL_EVERY.min(control.max_steps.saturating_add(1)),
        }
    }

    #[inline(always)]
    fn place(
        &mut self,
        cell: Cell,
        digit: u8,
        reason: Reason,
        depth: u32,
    ) -> Result<(), Interrupted> {
        self.count_step()?;
        self.stats.placements += 1;
        if reason == Reason::Guess {
            self.stats.guesses += 1;
        }
        self.emit(Event::Place(Step {
            cell: cell as u8,
            digit,
            reason,
            depth,
        }))
    }

    #[inline(always)]
    fn backtrack(
        &mut self,
        cell: Cell,
        digit: u8,
        reason: Reason,
        depth: u32,
    ) -> Result<(), Interrupted> {
        self.count_step()?;
        self.stats.backtracks += 1;
        self.emit(Event::Backtrack(Step {
            cell: cell as u8,
            digit,
            reason,
            depth,
        }))
    }

    /// Counts `count` backtracks that are not reported one by one (the sink wants
    /// no events), with the same step limit as if they were.
    #[inline(always)]
    fn backtracks_unreported(&mut self, count: u64) -> Result<(), Interrupted> {
        self.count_steps(count)?;
        self.stats.backtracks += count;
        Ok(())
    }

    /// Counts `count` placements other than guesses that are not reported one by
    /// one (the sink wants no events), with the same step limit as if they were.
    #[inline(always)]
    fn placements_unreported(&mut self, count: u64) -> Result<(), Interrupted> {
        self.count_steps(count)?;
        self.stats.placements += count;
        Ok(())
    }

    /// Counts `count` steps at once: fails when they pass the step limit, and looks
    /// at the stop signal and the clock when a look is due.
    #[inline(always)]
    fn count_steps(&mut self, count: u64) -> Result<(), Interrupted> {
        if count < self.until_check {
            self.until_check -= count;
            return Ok(());
        }
        let taken = self.steps() + count;
        if taken > self.control.max_steps {
            return Err(self.step_limit());
        }
        self.check(taken)
    }

    /// Steps taken so far.
    fn steps(&self) -> u64 {
        self.stats.placements + self.stats.backtracks
    }

    #[inline(always)]
    fn count_step(&mut self) -> Result<(), Interrupted> {
        self.until_check -= 1;
        if self.until_check == 0 {
            let taken = self.steps() + 1;
            if taken > self.control.max_steps {
                return Err(self.step_limit());
            }
            return self.check(taken);
        }
        Ok(())
    }

    #[cold]
    fn step_limit(&self) -> Interrupted {
        Interrupted::StepLimit {
            limit: self.control.max_steps,
        }
    }

    /// Looks at the stop signal and the clock after `taken` steps, and sets when to
    /// look next.
    #[cold]
    #[inline(never)]
    fn check(&mut self, taken: u64) -> Result<(), Interrupted> {
        let left = self.control.max_steps.saturating_sub(taken);
        self.until_check = POLL_EVERY.min(left.saturating_add(1));
        for stop in [self.control.stop, self.control.shutdown]
            .into_iter()
            .flatten()
        {
            if stop.load(Ordering::Relaxed) {
                return Err(Interrupted::Stopped);
            }
        }
        if let Some(deadline) = self.control.deadline
            && Instant::now() >= deadline
        {
            return Err(Interrupted::DeadlinePassed);
        }
        Ok(())
    }

    #[inline(always)]
    fn emit(&mut self, event: Event) -> Result<(), Interrupted> {
        match self.sink.event(event) {
            Flow::Continue => Ok(()),
            Flow::Stop => Err(Interrupted::Stopped),
        }
    }
}
