//! The resumable search: one value holding an algorithm's whole state, run in
//! slices under a [`Control`] until it is over; what it found and what it did.
//! Knows nothing of threads or time beyond what `Control` says: whoever runs a search
//! decides where.

use std::collections::VecDeque;
use std::time::Instant;

use super::algorithm::Algorithm;
use super::outcome::{Found, Mode, Report, Stats, Status};
use super::recorder::Recorder;
use super::{Control, Event, Flow, Interrupted, Sink};
use super::{backtracking, bitboard, propagation, singles};
use crate::board::Board;

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
/// answer and statistics. [`solve`](super::solve) and [`count_solutions`](super::count_solutions) run one to the end.
///
/// Every run of one search must pass the same kind of sink (one that wants events,
/// or [`NoEvents`](super::NoEvents)): the engines keep their trail of placements only for the former.
#[derive(Clone)]
pub struct Search {
    engine: Engine,
    found: Found,
    /// What the search did so far (held events included).
    stats: Stats,
    /// Events the engine made after the sink asked to pause, delivered first by the
    /// next run: at most one engine move's worth (a propagation round and the undo
    /// before it), so the engine never runs far ahead of its sink.
    held: VecDeque<Event>,
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
            held: VecDeque::new(),
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
