//! The engine's resumability at the library boundary: a search paused after any
//! step (by its sink, or by a slice of steps) and resumed, even on another thread,
//! sends the same events and gives the same answer and statistics as one run to the
//! end, for every algorithm, in both modes.

mod common;

use std::sync::OnceLock;

use common::{is_solution, puzzles, unsolvable_puzzles};
use proptest::prelude::*;
use sudokud::board::Board;
use sudokud::solver::{
    Algorithm, Control, Event, Flow, Interrupted, Mode, NoEvents, Progress, Report, Search,
};

/// A search's events and how it ended.
type Outcome = (Vec<Event>, Result<Report, Interrupted>);

/// Puzzles of every kind: unique (easy and hard), several solutions, none.
fn pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut pool = Vec::new();
        pool.extend(puzzles("norvig_top95.txt").into_iter().take(12));
        pool.extend(puzzles("serg_benchmark.txt").into_iter().take(8));
        pool.extend(puzzles("plb_hard20.txt").into_iter().take(3));
        pool.extend(unsolvable_puzzles());
        pool
    })
}

/// Step cap that keeps plain backtracking short; the other algorithms finish well
/// within it on the pool (and reaching it is compared like any other outcome).
const MAX_STEPS: u64 = 60_000;

fn control() -> Control<'static> {
    Control {
        max_steps: MAX_STEPS,
        ..Control::UNTIMED
    }
}

/// One run to the end, never paused.
fn uninterrupted(board: &Board, algorithm: Algorithm, mode: Mode) -> Outcome {
    let mut events = Vec::new();
    let mut sink = |event| {
        events.push(event);
        Flow::Continue
    };
    let mut search = Search::new(board, algorithm, mode);
    let outcome = match search.run(&control(), &mut sink) {
        Progress::Done(outcome) => outcome,
        Progress::Paused => panic!("a search that was never asked to pause paused"),
    };
    (events, outcome)
}

/// Pauses after every `every`-th event and resumes, moving the search to another
/// thread every third pause; also returns how many pauses there were.
fn paused_every(board: &Board, algorithm: Algorithm, mode: Mode, every: usize) -> (Outcome, usize) {
    let mut events = Vec::new();
    let mut search = Search::new(board, algorithm, mode);
    let mut pauses = 0;
    loop {
        let mut sink = |event| {
            events.push(event);
            if events.len() % every == 0 {
                Flow::Pause
            } else {
                Flow::Continue
            }
        };
        let progress = if pauses % 3 == 2 {
            std::thread::scope(|scope| {
                scope
                    .spawn(|| search.run(&control(), &mut sink))
                    .join()
                    .expect("the run on another thread panicked")
            })
        } else {
            search.run(&control(), &mut sink)
        };
        match progress {
            Progress::Done(outcome) => return ((events, outcome), pauses),
            Progress::Paused => pauses += 1,
        }
    }
}

/// Without events, paused by slices of `slice` steps: the answer and statistics.
fn sliced(
    board: &Board,
    algorithm: Algorithm,
    mode: Mode,
    slice: u64,
) -> (Result<Report, Interrupted>, usize) {
    let control = Control {
        slice_steps: slice,
        ..control()
    };
    let mut search = Search::new(board, algorithm, mode);
    let mut pauses = 0;
    loop {
        match search.run(&control, &mut NoEvents) {
            Progress::Done(outcome) => return (outcome, pauses),
            Progress::Paused => pauses += 1,
        }
    }
}

fn mode_of(count: bool) -> Mode {
    if count { Mode::CountTwo } else { Mode::First }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn pausing_after_every_kth_event_changes_nothing(
        index in 0..pool().len(),
        algorithm in prop::sample::select(Algorithm::ALL.to_vec()),
        count in any::<bool>(),
        every in 1usize..40,
    ) {
        let puzzle = &pool()[index];
        let board = Board::parse(puzzle).unwrap();
        let mode = mode_of(count);
        let whole = uninterrupted(&board, algorithm, mode);
        let (resumed, pauses) = paused_every(&board, algorithm, mode, every);
        // One pause per `every` events; a pause asked for at the last event may
        // come back as the end instead (when the engine already knows it is over).
        let events = whole.0.len();
        let asked = events / every;
        prop_assert!(
            (events.saturating_sub(1) / every..=asked).contains(&pauses),
            "{} pauses, {} asked for", pauses, asked
        );
        prop_assert_eq!(&resumed.1, &whole.1, "{} {:?} {:?}", puzzle, algorithm, mode);
        prop_assert!(resumed.0 == whole.0, "{} {:?} {:?}: events differ", puzzle, algorithm, mode);
        if let Ok(report) = &whole.1
            && let Some(solution) = &report.solution
        {
            prop_assert!(is_solution(puzzle, &solution.to_line()));
        }
    }

    #[test]
    fn slices_of_steps_change_nothing(
        index in 0..pool().len(),
        algorithm in prop::sample::select(Algorithm::ALL.to_vec()),
        count in any::<bool>(),
        slice in 1u64..3000,
    ) {
        let board = Board::parse(&pool()[index]).unwrap();
        let mode = mode_of(count);
        let (whole, _) = sliced(&board, algorithm, mode, u64::MAX);
        let (resumed, pauses) = sliced(&board, algorithm, mode, slice);
        prop_assert_eq!(&resumed, &whole, "{:?} {:?} slice {}", algorithm, mode, slice);
        let steps = match &whole {
            Ok(report) => report.stats.placements + report.stats.backtracks,
            Err(_) => MAX_STEPS,
        };
        // A slice ends at the engine's next pause point after its steps (a guess for
        // the bitboard and wide engines, which place many cells per node).
        let per_node = matches!(algorithm, Algorithm::Bitboard | Algorithm::Wide);
        if !per_node && steps > slice {
            prop_assert!(pauses >= 1, "{:?}: {} steps, slice {}, no pause", algorithm, steps, slice);
        }
    }
}

/// The events of a paused search that reached the step cap still come first, and
/// the cap is reported after them, as without pauses.
#[test]
fn a_step_limit_reached_while_paused_is_reported_after_the_held_events() {
    let board = Board::parse(&puzzles("plb_hard20.txt")[0]).unwrap();
    for algorithm in Algorithm::ALL {
        let whole = uninterrupted(&board, algorithm, Mode::First);
        let (resumed, _) = paused_every(&board, algorithm, Mode::First, 7);
        assert_eq!(resumed, whole, "{algorithm:?}");
    }
}

/// A sink that stops the search while it is paused with held events stops it there.
#[test]
fn a_sink_can_stop_a_resumed_search() {
    let board = Board::parse(&puzzles("norvig_top95.txt")[0]).unwrap();
    for algorithm in Algorithm::ALL {
        let mut search = Search::new(&board, algorithm, Mode::First);
        let mut seen = 0;
        let mut pause_first = |_| {
            seen += 1;
            Flow::Pause
        };
        assert_eq!(search.run(&control(), &mut pause_first), Progress::Paused);
        let mut stop = |_| Flow::Stop;
        assert_eq!(
            search.run(&control(), &mut stop),
            Progress::Done(Err(Interrupted::Stopped)),
            "{algorithm:?}"
        );
        assert_eq!(seen, 1);
    }
}
