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
use super::{backtracking, bitboard, constrained, propagation, singles, sized};
use crate::board::{Board, Grid, Layout, Shape};
use std::sync::Arc;

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
    shape: Shape,
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
    /// Backtracking or singles at any size.
    Classic(Box<sized::Classic>),
    /// Propagation at any size.
    Branching(Box<sized::Branching>),
    /// The wide engine: propagation with Hall sets, then learning from dead ends.
    Wide(Box<sized::Wide>),
    /// Propagation (with Hall sets for the default engine) over a variant's
    /// houses, peers and rules.
    Constrained(Box<sized::Branching<constrained::Constrained>>),
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
            Algorithm::Wide => Engine::sized(&Grid::from_board(board), algorithm),
        }
    }

    /// The engine of `algorithm` on a grid of any size (the bitboard engine,
    /// which knows 9x9 only, excepted).
    fn sized(grid: &Grid, algorithm: Algorithm) -> Engine {
        match algorithm {
            Algorithm::Backtracking => Engine::Classic(Box::new(sized::Classic::new(grid, false))),
            Algorithm::Singles => Engine::Classic(Box::new(sized::Classic::new(grid, true))),
            Algorithm::Propagation => Engine::Branching(Box::new(sized::Branching::new(
                grid,
                sized::Strength::Singles,
            ))),
            Algorithm::Bitboard | Algorithm::Wide => Engine::Wide(Box::new(sized::Wide::new(grid))),
        }
    }
}

impl Search {
    /// A search of `board`'s solutions with `algorithm`, not yet started.
    pub fn new(board: &Board, algorithm: Algorithm, mode: Mode) -> Search {
        Search::with_engine(Engine::new(board, algorithm), Shape::CLASSIC, mode)
    }

    /// A search of the solutions of a grid of any size with `algorithm`, not yet
    /// started; a 9x9 grid runs on the 9x9 engines. `None` when the algorithm
    /// does not search that shape (see [`Algorithm::supports`]).
    pub fn sized(grid: &Grid, algorithm: Algorithm, mode: Mode) -> Option<Search> {
        if !algorithm.supports(grid.shape()) {
            return None;
        }
        if let Some(board) = grid.to_board() {
            return Some(Search::new(&board, algorithm, mode));
        }
        let engine = Engine::sized(grid, algorithm);
        Some(Search::with_engine(engine, grid.shape(), mode))
    }

    /// A search of the solutions of `givens` (checked against the layout's
    /// peers) under a variant's `layout`, not yet started. `None` when the
    /// algorithm does not search variants: the default engine
    /// ([`Algorithm::Wide`], or `Bitboard` standing for the default) and
    /// `Propagation` (singles and the rules only) do.
    pub fn constrained(
        layout: Arc<Layout>,
        givens: &[u8],
        algorithm: Algorithm,
        mode: Mode,
    ) -> Option<Search> {
        let strength = match algorithm {
            Algorithm::Wide | Algorithm::Bitboard => sized::Strength::Hall,
            Algorithm::Propagation => sized::Strength::Singles,
            Algorithm::Backtracking | Algorithm::Singles => return None,
        };
        let shape = layout.shape;
        let grid = constrained::grid(layout, givens);
        let search = sized::Branching::over(grid, strength).without_restarts();
        let engine = Engine::Constrained(Box::new(search));
        Some(Search::with_engine(engine, shape, mode))
    }

    /// The digits each cell held in the solutions found so far (as bits, a
    /// mask a cell), when the search enumerates ([`Mode::Enumerate`]); empty
    /// before the first.
    pub fn seen(&self) -> Option<&[u64]> {
        self.found.seen.as_deref()
    }

    /// Solutions found so far.
    pub fn found_count(&self) -> u32 {
        self.found.count
    }

    fn with_engine(engine: Engine, shape: Shape, mode: Mode) -> Search {
        Search {
            engine,
            shape,
            found: Found::of(mode),
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
        self.shape = Shape::CLASSIC;
        self.found = Found::of(mode);
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

    /// [`Search::run`] for whoever takes the answer once and runs this search
    /// no further (until it restarts on another puzzle): the answer is moved
    /// out, not kept for a later run. `None`: paused, run again to go on.
    pub fn run_once<S: Sink>(
        &mut self,
        control: &Control<'_>,
        sink: &mut S,
    ) -> Option<Result<Report, Interrupted>> {
        self.advance(control, sink)
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

    /// The first solution found: a board at 9x9 (whichever engine found it), a
    /// grid at other sizes.
    fn solution(&self) -> (Option<Board>, Option<Grid>) {
        let grid = self.found.sized_solution(self.shape);
        match self.found.first {
            Some(cells) => (Some(Board::with_cells(cells)), None),
            None if self.shape.is_classic() => (grid.as_ref().and_then(Grid::to_board), None),
            None => (None, grid),
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
            Engine::Classic(search) => search.run(&mut recorder, &mut self.found),
            Engine::Branching(search) => search.run(&mut recorder, &mut self.found),
            Engine::Wide(search) => search.run(&mut recorder, &mut self.found),
            Engine::Constrained(search) => search.run(&mut recorder, &mut self.found),
        };
        self.stats = recorder.stats;
        if let Some(started) = started {
            self.stats.elapsed += started.elapsed();
        }
        let outcome = match status {
            Ok(Status::Paused) => return None,
            Ok(Status::Done) => {
                let (solution, grid) = self.solution();
                Ok(Report {
                    solution,
                    grid,
                    solution_count: self.found.count,
                    stats: self.stats,
                })
            }
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
