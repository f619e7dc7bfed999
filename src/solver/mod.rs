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
    /// Take this event, then pause: [`Search::run`] returns [`Progress::Paused`]
    /// and the next run goes on with the event after it.
    Pause,
    /// Stop the search now.
    Stop,
}

/// Receives every event of a search, in order, and may pause or stop it.
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

/// The bounds of one run of a search: a step budget, stop signals, a deadline, and
/// where this run pauses (a slice).
#[derive(Debug, Clone, Copy)]
pub struct Control<'a> {
    /// The most steps (placements plus backtracks) the whole search may take.
    pub max_steps: u64,
    /// Set from outside (the caller went away) to stop the search within
    /// milliseconds.
    pub stop: Option<&'a AtomicBool>,
    /// A second stop signal, shared by many searches (the caller's own shutdown).
    pub shutdown: Option<&'a AtomicBool>,
    /// The search stops when this instant passes.
    pub deadline: Option<Instant>,
    /// Whether to time the search into [`Stats::elapsed`] (two clock reads a run,
    /// a few percent of an easy puzzle: batch runs that time themselves turn it
    /// off, and `elapsed` stays zero).
    pub timed: bool,
    /// This run pauses once it has taken about this many steps (at the engine's
    /// next pause point: a step of the classic algorithms, a guess of the bitboard
    /// engine); `u64::MAX` runs to the end.
    pub slice_steps: u64,
    /// This run pauses at its next pause point after this instant (looked at with
    /// the deadline, every [`POLL_EVERY`] steps).
    pub slice_until: Option<Instant>,
}

impl Control<'_> {
    /// No step limit, no stop signal, no deadline, no slice.
    pub const UNLIMITED: Control<'static> = Control {
        max_steps: u64::MAX,
        stop: None,
        shutdown: None,
        deadline: None,
        timed: true,
        slice_steps: u64::MAX,
        slice_until: None,
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
    /// Time spent searching (the runs of a paused search added up).
    pub elapsed: Duration,
}

/// The answer of a finished search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The first solution found, if any.
    pub solution: Option<Board>,
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
}

impl Mode {
    fn wanted(self) -> u32 {
        match self {
            Mode::First => 1,
            Mode::CountTwo => 2,
        }
    }
}

/// Where a run of a [`Search`] left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// The sink asked to pause, or the run's slice ran out: run again to go on.
    Paused,
    /// The search is over: its answer, or why it ended without one.
    Done(Result<Report, Interrupted>),
}

/// One search that can pause after any step and resume later, on any thread: its
/// whole state is in this value (no recursion, no thread held across a pause).
/// Paused or not, it takes the same steps, sends the same events and gives the same
/// answer and statistics. [`solve`] and [`count_solutions`] run one to the end.
///
/// Every run of one search must pass the same kind of sink (one that wants events,
/// or [`NoEvents`]): the engines keep their trail of placements only for the former.
#[derive(Clone)]
pub struct Search {
    engine: Engine,
    found: Found,
    /// What the search did so far (held events included).
    stats: Stats,
    /// Events the engine made after the sink asked to pause, delivered first by the
    /// next run: at most one engine move's worth (a propagation round and the undo
    /// before it), so the engine never runs far ahead of its sink.
    held: std::collections::VecDeque<Event>,
    /// Set once the engine has finished; delivered after the held events.
    outcome: Option<Result<Report, Interrupted>>,
}

/// The state of each algorithm's search.
#[derive(Clone)]
enum Engine {
    Backtracking(Box<backtracking::Backtracking>),
    Singles(Box<singles::Singles>),
    Propagation(Box<propagation::Propagation>),
    Bitboard(bitboard::Bitboard),
}

/// What an engine's run ended with (interruptions go through `Err`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Paused at a pause point: run again to go on.
    Paused,
    /// The search is over (found all it wants, or exhausted).
    Done,
}

impl Engine {
    fn new(board: &Board, algorithm: Algorithm) -> Engine {
        match algorithm {
            Algorithm::Backtracking => {
                Engine::Backtracking(Box::new(backtracking::Backtracking::new(board)))
            }
            Algorithm::Singles => Engine::Singles(Box::new(singles::Singles::new(board))),
            Algorithm::Propagation => {
                Engine::Propagation(Box::new(propagation::Propagation::new(board)))
            }
            Algorithm::Bitboard => Engine::Bitboard(bitboard::Bitboard::new(board)),
        }
    }
}

impl Search {
    /// A search of `board`'s solutions with `algorithm`, not yet started.
    pub fn new(board: &Board, algorithm: Algorithm, mode: Mode) -> Search {
        Search {
            engine: Engine::new(board, algorithm),
            found: Found::new(mode.wanted()),
            stats: Stats::default(),
            held: std::collections::VecDeque::new(),
            outcome: None,
        }
    }

    /// Makes this search a new one, as [`Search::new`] would, keeping the memory it
    /// has: a batch of puzzles reuses one search per thread.
    pub fn restart(&mut self, board: &Board, algorithm: Algorithm, mode: Mode) {
        match (&mut self.engine, algorithm) {
            (Engine::Bitboard(engine), Algorithm::Bitboard) => engine.restart(board),
            (engine, _) => *engine = Engine::new(board, algorithm),
        }
        self.found = Found::new(mode.wanted());
        self.stats = Stats::default();
        self.held.clear();
        self.outcome = None;
    }

    /// The search in `slot`, restarted on `board` (made there on first use): one
    /// search per thread serves a whole batch.
    pub fn reuse<'s>(
        slot: &'s mut Option<Search>,
        board: &Board,
        algorithm: Algorithm,
        mode: Mode,
    ) -> &'s mut Search {
        match slot {
            Some(search) => {
                search.restart(board, algorithm, mode);
                search
            }
            None => slot.insert(Search::new(board, algorithm, mode)),
        }
    }

    /// Steps taken so far (placements plus backtracks, held events included).
    pub fn steps(&self) -> u64 {
        self.stats.placements + self.stats.backtracks
    }

    /// Runs the search within `control` until the sink asks to pause, the slice
    /// runs out, or it is over. Once over, every further run gives the same answer.
    pub fn run<S: Sink>(&mut self, control: &Control<'_>, sink: &mut S) -> Progress {
        match self.advance(control, sink) {
            Some(outcome) => {
                self.outcome = Some(outcome.clone());
                Progress::Done(outcome)
            }
            None => Progress::Paused,
        }
    }

    /// Runs the search to its end, going on through every pause the sink asks for.
    pub fn finish<S: Sink>(
        &mut self,
        control: &Control<'_>,
        sink: &mut S,
    ) -> Result<Report, Interrupted> {
        loop {
            if let Some(outcome) = self.advance(control, sink) {
                return outcome;
            }
        }
    }

    /// [`Search::run`], with the answer moved out (`None`: paused); stores it only
    /// when held events must go first.
    fn advance<S: Sink>(
        &mut self,
        control: &Control<'_>,
        sink: &mut S,
    ) -> Option<Result<Report, Interrupted>> {
        while let Some(event) = self.held.pop_front() {
            match sink.event(event) {
                Flow::Continue => {}
                Flow::Pause if self.held.is_empty() && self.outcome.is_some() => break,
                Flow::Pause => return None,
                Flow::Stop => {
                    self.held.clear();
                    self.outcome = Some(Err(Interrupted::Stopped));
                }
            }
        }
        if let Some(outcome) = &self.outcome {
            return Some(outcome.clone());
        }
        let started = control.timed.then(Instant::now);
        let mut recorder = Recorder::resume(sink, control, self.stats, &mut self.held);
        let status = match &mut self.engine {
            Engine::Backtracking(search) => search.run(&mut recorder, &mut self.found),
            Engine::Singles(search) => search.run(&mut recorder, &mut self.found),
            Engine::Propagation(search) => search.run(&mut recorder, &mut self.found),
            Engine::Bitboard(search) => search.run(&mut recorder, &mut self.found),
        };
        self.stats = recorder.stats;
        if let Some(started) = started {
            self.stats.elapsed += started.elapsed();
        }
        let outcome = match status {
            Ok(Status::Paused) => return None,
            Ok(Status::Done) => Ok(Report {
                solution: self.found.first.map(Board::with_cells),
                solution_count: self.found.count,
                stats: self.stats,
            }),
            Err(why) => Err(why),
        };
        if self.held.is_empty() {
            Some(outcome)
        } else {
            self.outcome = Some(outcome);
            None
        }
    }
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

/// Solutions found so far by a search that wants `wanted` of them.
#[derive(Clone)]
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

/// Counts steps, enforces the control's bounds and forwards events to the sink, or
/// holds them back once the sink asked to pause. Every algorithm reports through
/// it, so limits behave the same everywhere.
struct Recorder<'r, 'c, S> {
    sink: &'r mut S,
    control: &'r Control<'c>,
    stats: Stats,
    /// Steps left before the next look at the limit, the stop signal and the clock;
    /// the step that brings it to zero triggers the look. One decrement a step.
    until_check: u64,
    /// The step count at which this run's slice ends.
    slice_end: u64,
    /// Set when the run should pause at the engine's next pause point.
    pausing: bool,
    /// Set when the sink asked to pause: later events go to `held`.
    holding: bool,
    held: &'r mut std::collections::VecDeque<Event>,
}

/// Steps between two looks at the stop signal and the clock.
const POLL_EVERY: u64 = 1024;

impl<'r, 'c, S: Sink> Recorder<'r, 'c, S> {
    fn resume(
        sink: &'r mut S,
        control: &'r Control<'c>,
        stats: Stats,
        held: &'r mut std::collections::VecDeque<Event>,
    ) -> Self {
        let taken = stats.placements + stats.backtracks;
        let mut recorder = Recorder {
            sink,
            control,
            stats,
            until_check: 0,
            slice_end: taken.saturating_add(control.slice_steps),
            pausing: control.slice_steps == 0,
            holding: false,
            held,
        };
        recorder.until_check = recorder.next_look(taken);
        recorder
    }

    /// Steps after `taken` until the next look is due: at most [`POLL_EVERY`], and
    /// no further than the step past the limit or the end of the slice.
    fn next_look(&self, taken: u64) -> u64 {
        let left = self.control.max_steps.saturating_sub(taken);
        let mut until = POLL_EVERY.min(left.saturating_add(1));
        if !self.pausing && self.slice_end > taken {
            until = until.min(self.slice_end - taken);
        }
        until.max(1)
    }

    /// True when the run should pause at this pause point.
    #[inline(always)]
    fn pausing(&self) -> bool {
        self.pausing
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

    /// Looks at the stop signals, the clock and the slice after `taken` steps, and
    /// sets when to look next.
    #[cold]
    #[inline(never)]
    fn check(&mut self, taken: u64) -> Result<(), Interrupted> {
        for stop in [self.control.stop, self.control.shutdown]
            .into_iter()
            .flatten()
        {
            if stop.load(Ordering::Relaxed) {
                return Err(Interrupted::Stopped);
            }
        }
        let clock = (self.control.deadline.is_some() || self.control.slice_until.is_some())
            .then(Instant::now);
        if let (Some(deadline), Some(now)) = (self.control.deadline, clock)
            && now >= deadline
        {
            return Err(Interrupted::DeadlinePassed);
        }
        let slice_over = taken >= self.slice_end
            || matches!((self.control.slice_until, clock), (Some(until), Some(now)) if now >= until);
        if slice_over {
            self.pausing = true;
        }
        self.until_check = self.next_look(taken);
        Ok(())
    }

    #[inline(always)]
    fn emit(&mut self, event: Event) -> Result<(), Interrupted> {
        if self.holding {
            self.held.push_back(event);
            return Ok(());
        }
        match self.sink.event(event) {
            Flow::Continue => Ok(()),
            Flow::Pause => {
                self.holding = true;
                self.pausing = true;
                Ok(())
            }
            Flow::Stop => Err(Interrupted::Stopped),
        }
    }
}
