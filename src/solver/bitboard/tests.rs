//! Unit tests of the bitboard engine's parts and of its two builds.

use super::choose::holding;
use super::claiming::row_singles;
use super::*;
use crate::board::CELLS;
use crate::solver::{Algorithm, Control, Event, Flow, Mode, NoEvents, Search, Stats};
use search::Run;

/// `row_singles` against its definition, row by row, with every value of each
/// row beside a spread of values in the other two (no row empty).
#[test]
fn row_singles_keeps_the_rows_with_one_candidate() {
    let others = [1u32, 2, 3, 0x100, 0x101, 0x180, 0x1FF, 0x0AA, 0x155, 0x010];
    for value in 1..512u32 {
        for &a in &others {
            for &b in &others {
                for rows in [[value, a, b], [a, value, b], [a, b, value]] {
                    let board = rows[0] | rows[1] << 9 | rows[2] << 18;
                    let expected = rows.iter().enumerate().fold(0, |cells, (row, &bits)| {
                        cells
                            | if bits.count_ones() == 1 {
                                bits << (9 * row)
                            } else {
                                0
                            }
                    });
                    assert_eq!(row_singles(board), expected, "{board:#x}");
                }
            }
        }
    }
}

/// The update's solved cells, read from the triads (`TABLES.by_box.lone_triads` and
/// `alone_in_threes` of the board before the band rule), are the rows of the board
/// after it with one candidate (`row_singles`), whenever some triads fit a matching:
/// on every board with at most two candidates per row (all of them) and on random
/// boards of every density.
#[test]
fn solved_cells_come_from_the_triads_as_from_the_rows() {
    let check = |before: u32| {
        let triads = tables::triads_of(before);
        let after = before & tables::TABLES.by_box.kept_cells[triads];
        if after == 0 {
            return false;
        }
        let solved = tables::TABLES.by_box.lone_triads[triads] & tables::alone_in_threes(before);
        assert_eq!(solved, row_singles(after), "{before:#x}");
        true
    };
    // Rows of zero, one or two candidates: 1 + 9 + 36 values each.
    let sparse: Vec<u32> = (0..512u32).filter(|row| row.count_ones() <= 2).collect();
    let mut fitting = 0;
    for &a in &sparse {
        for &b in &sparse {
            for &c in &sparse {
                fitting += usize::from(check(a | b << 9 | c << 18));
            }
        }
    }
    let mut next = random_boards(0x5DEE_CE66_D1CE_4E5B);
    for round in 0..300_000 {
        let board = match round % 3 {
            0 => next() & next() & next(),
            1 => next() & next(),
            _ => next() | next(),
        };
        fitting += usize::from(check(board));
    }
    assert!(fitting > 100_000, "{fitting}");
}

/// The solved state's grid is the same cell by cell and with AVX2 (when this CPU
/// has it): the states of 600 solutions (every cell a given), each read back.
#[test]
fn solution_forms_agree() {
    let mut read = 0;
    for set in [
        "serg_benchmark.txt",
        "17_clue.txt",
        "forum_hardest_1106.txt",
    ] {
        for board in crate::bench::read_set(set).unwrap().iter().take(200) {
            let (Some(cells), _, _) = run_quiet(board, 1, Isa::Portable) else {
                panic!("{board:?}: no solution");
            };
            let state = State::from_givens(&Board::with_cells(cells));
            assert_eq!(state.solution_per_cell(), cells);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: this CPU has AVX2 (checked just above).
                assert_eq!(unsafe { state.solution_avx2() }, cells, "{board:?}");
                read += 1;
            }
        }
    }
    if read == 0 {
        eprintln!("skipped the AVX2 form: this CPU has no AVX2");
    }
}

/// The band rule through the row-major triads (`PEXT`) gives the cells it gives
/// through the box-major ones: on a board of every triad pattern (each of its
/// triads full, or holding one cell at the same place in all) and on random boards.
#[cfg(target_arch = "x86_64")]
#[test]
fn band_rule_by_row_agrees_with_by_box() {
    if !std::arch::is_x86_feature_detected!("bmi2") {
        eprintln!("skipped: this CPU has no BMI2");
        return;
    }
    let check = |board: u32| {
        // SAFETY: this CPU has BMI2 (checked above).
        let by_row = unsafe { tables::triads_by_row(board) };
        let by_box = tables::triads_of(board);
        let row = &tables::TABLES.by_row;
        let boxes = &tables::TABLES.by_box;
        assert_eq!(
            (row.kept_cells[by_row], row.lone_triads[by_row]),
            (boxes.kept_cells[by_box], boxes.lone_triads[by_box]),
            "{board:#x}"
        );
    };
    for pattern in 0..512u16 {
        for fill in [0b111u32, 0b001, 0b010, 0b100] {
            check(tables::cells_of_triads(pattern) & (fill * 0o111_111_111));
        }
    }
    let mut next = random_boards(0x2545_F491_4F6C_DD1D);
    for _ in 0..100_000 {
        check(next() & next());
    }
}

/// The counts of a band's candidates per cell (at least one, two, three) are the
/// same with AVX2 as bit-sliced one board at a time: 20,000 random states of
/// every density, each band.
#[cfg(target_arch = "x86_64")]
#[test]
fn counts_forms_agree() {
    if !std::arch::is_x86_feature_detected!("avx2") {
        eprintln!("skipped: this CPU has no AVX2");
        return;
    }
    let mut next = random_boards(0x9E37_79B9_7F4A_7C15);
    for round in 0..20_000 {
        let mut state = State::EMPTY;
        for board in state.candidates.iter_mut().take(27) {
            *board = match round % 3 {
                0 => next() & next() & next(),
                1 => next() & next(),
                _ => next(),
            };
        }
        for band in 0..3 {
            // SAFETY: this CPU has AVX2 (checked above).
            let avx2 = unsafe { state.counts3_avx2(band) };
            assert_eq!(avx2, state.counts::<3>(band), "{:x?}", state.candidates);
        }
    }
}

/// A xorshift stream of random band masks (27 bits), the same for a seed.
fn random_boards(mut seed: u64) -> impl FnMut() -> u32 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed as u32) & BAND
    }
}

/// `holding` against its definition, board by board.
#[test]
fn holding_marks_the_boards_with_any_of_the_cells() {
    let mut next = random_boards(0x9E37_79B9_7F4A_7C15);
    for round in 0..5_000 {
        // Sparse and dense boards alike.
        let boards: [u32; 9] = std::array::from_fn(|_| {
            let board = next();
            if round % 2 == 0 {
                board & next() & next()
            } else {
                board
            }
        });
        let cells = next() & next() & next();
        let expected = (0..9).fold(0, |held, index| {
            held | u32::from(boards[index] & cells != 0) << index
        });
        let mut candidates = [0u32; 32];
        for first in [0, 9, 18] {
            candidates[first..first + 9].copy_from_slice(&boards);
            assert_eq!(
                holding(&candidates, first, cells),
                expected,
                "{boards:?} {cells:#x}"
            );
        }
    }
}

/// Runs one search to its end with the instruction set given: what it found
/// and its statistics.
fn finish<S: Sink>(board: &Board, wanted: u32, isa: Isa, sink: &mut S) -> (Found, Stats) {
    let control = Control::UNTIMED;
    let mut held = std::collections::VecDeque::new();
    let mut recorder = Recorder::resume(sink, &control, Stats::default(), &mut held);
    let mut found = Found::new(wanted);
    let status = Bitboard::with_isa(board, isa)
        .run(&mut recorder, &mut found)
        .unwrap_or_else(|why| panic!("unlimited search interrupted: {why:?}"));
    assert_eq!(status, Status::Done);
    (found, recorder.stats)
}

/// Runs one search with the instruction set given; the solutions found and
/// every event, in order.
fn run(board: &Board, wanted: u32, isa: Isa) -> (Option<[u8; CELLS]>, u32, Vec<Event>) {
    let mut events = Vec::new();
    let mut sink = |event: Event| {
        events.push(event);
        Flow::Continue
    };
    let (found, _) = finish(board, wanted, isa, &mut sink);
    (found.first, found.count, events)
}

/// The same without events (the unary path's instantiation): solutions and
/// step counts.
fn run_quiet(board: &Board, wanted: u32, isa: Isa) -> (Option<[u8; CELLS]>, u32, [u64; 3]) {
    let (found, stats) = finish(board, wanted, isa, &mut NoEvents);
    let steps = [stats.placements, stats.backtracks, stats.guesses];
    (found.first, found.count, steps)
}

/// The portable build solves every puzzle, with the solutions and counts of
/// an independent engine (propagation).
#[test]
fn the_portable_build_agrees_with_the_propagation_engine() {
    let boards = crate::bench::read_set("magictour_top1465.txt").unwrap();
    for board in boards.iter().take(200) {
        for mode in [Mode::First, Mode::CountTwo] {
            let wanted = if mode == Mode::First { 1 } else { 2 };
            let (first, count, _) = run_quiet(board, wanted, Isa::Portable);
            let other = Search::new(board, Algorithm::Propagation, mode)
                .finish(&Control::UNTIMED, &mut NoEvents)
                .unwrap();
            assert!(first.is_some(), "{board:?}: no solution");
            assert_eq!(first.map(Board::with_cells), other.solution, "{board:?}");
            assert_eq!(count, other.solution_count, "{board:?}");
        }
    }
}

/// The x86-64-v3 build is the same search as the portable one: same
/// solutions, same events in the same order. Only a CPU with v3 can run it:
/// elsewhere the test says it was skipped.
#[test]
fn the_v3_build_searches_as_the_portable_one() {
    #[cfg(target_arch = "x86_64")]
    {
        if Isa::detect() != Isa::V3 {
            eprintln!("skipped: this CPU has no x86-64-v3");
            return;
        }
        let boards = crate::bench::read_set("magictour_top1465.txt").unwrap();
        let mut events = 0;
        for board in boards.iter().take(200) {
            for wanted in [1, 2] {
                let portable = run(board, wanted, Isa::Portable);
                assert_eq!(portable, run(board, wanted, Isa::V3), "{board:?}");
                let quiet = run_quiet(board, wanted, Isa::Portable);
                assert_eq!(quiet, run_quiet(board, wanted, Isa::V3), "{board:?}");
                assert_eq!((quiet.0, quiet.1), (portable.0, portable.1), "{board:?}");
                events += portable.2.len();
            }
        }
        assert!(events > 10_000, "too few events compared: {events}");
    }
}

/// Calls `f` with a run of its own (no events, one solution wanted), to drive
/// single steps of the search by hand.
fn with_run<T>(f: impl FnOnce(&mut Run<'_, '_, '_, NoEvents>) -> T) -> T {
    let (control, mut held, mut sink) = (
        Control::UNTIMED,
        std::collections::VecDeque::new(),
        NoEvents,
    );
    let mut recorder = Recorder::resume(&mut sink, &control, Stats::default(), &mut held);
    let (mut found, mut trail) = (Found::new(1), Vec::new());
    f(&mut Run {
        recorder: &mut recorder,
        found: &mut found,
        trail: &mut trail,
        depth: 0,
        interrupted: None,
        pairs: [0; 3],
    })
}

/// Propagation leaves column claiming out once a band is solved
/// (`State::claiming_can_act`): there it can neither narrow a board nor fail.
/// Checked on every node of the searches of puzzles from three sets (all of
/// each tree): claiming run on such a fixpoint changes nothing.
#[test]
fn claiming_has_nothing_to_do_once_a_band_is_solved() {
    let mut checked = [0usize; 2];
    for set in [
        "serg_benchmark.txt",
        "17_clue.txt",
        "forum_hardest_1106.txt",
    ] {
        let boards = crate::bench::read_set(set).unwrap();
        for board in boards.iter().take(100) {
            with_run(|run| visit_all(run, State::from_givens(board), &mut checked));
        }
    }
    // Nodes of both kinds.
    assert!(checked[0] > 1_000 && checked[1] > 1_000, "{checked:?}");
}

/// Propagates `state` and, for a node where claiming is left out, checks that it
/// has nothing to do; then does the same below each digit of its guess.
fn visit_all(run: &mut Run<'_, '_, '_, NoEvents>, mut state: State, checked: &mut [usize; 2]) {
    state.stale = true;
    if run.propagate::<false>(&mut state).is_err() || state.unsolved == [0; 3] {
        return;
    }
    let can_act = state.claiming_can_act();
    if !can_act {
        let mut claimed = state;
        assert!(claiming::column_claiming(&mut claimed).is_ok());
        assert_eq!(claimed.candidates, state.candidates);
        assert_eq!(claimed.dirty, 0);
    }
    checked[usize::from(can_act)] += 1;
    let (band, bit, untried) = choose::choose(&state, run.pairs);
    for digit in (0..9).filter(|digit| untried >> digit & 1 == 1) {
        let mut child = state;
        if run
            .assign(&mut child, digit, band, bit, Reason::Guess)
            .is_ok()
        {
            visit_all(run, child, checked);
        }
    }
}

/// `settled::unsettled` marks exactly the boards whose update would change
/// the root's state (or fail): every board of the givens' state of puzzles from
/// three sets, each updated on a copy.
#[test]
fn unsettled_marks_the_boards_an_update_would_change() {
    let mut checked = [0usize; 2];
    for set in ["serg_benchmark.txt", "17_clue.txt", "magictour_top1465.txt"] {
        let boards = crate::bench::read_set(set).unwrap();
        for board in boards.iter().take(300) {
            let state = State::from_givens(board);
            let marked = settled::unsettled(&state);
            with_run(|run| {
                for index in 0..27 {
                    let mut after = state;
                    let acts = match run.update::<false>(&mut after, index) {
                        Err(_) => true,
                        Ok(_) => {
                            after.candidates != state.candidates
                                || after.unsolved != state.unsolved
                                || after.pending != state.pending
                        }
                    };
                    assert_eq!(marked >> index & 1 == 1, acts, "{board:?} board {index}");
                    checked[usize::from(acts)] += 1;
                }
            });
        }
    }
    // Both kinds were seen.
    assert!(checked[0] > 1_000 && checked[1] > 1_000, "{checked:?}");
}

/// `unsettled_avx2` agrees with `unsettled` on random states (sparse and dense
/// boards, any cells open or placed), when this CPU has AVX2.
#[test]
fn unsettled_forms_agree() {
    #[cfg(target_arch = "x86_64")]
    {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        let mut next = random_boards(0x2545_F491_4F6C_DD1D);
        let mut marked = 0;
        for round in 0..20_000 {
            let mut state = State::EMPTY;
            for board in &mut state.candidates[..27] {
                *board = match round % 3 {
                    0 => next() & next() & next(),
                    1 => next() & next(),
                    _ => next() | next(),
                };
            }
            state.unsolved = [next(), next(), next()];
            state.pending = [next() & next(), next() & next(), next() & next()];
            let expected = settled::unsettled(&state);
            // SAFETY: this CPU has AVX2 (checked above).
            assert_eq!(
                unsafe { settled::unsettled_avx2(&state) },
                expected,
                "{:?}",
                state.candidates
            );
            marked += expected.count_ones();
        }
        // Both kinds of boards were seen.
        assert!(marked > 1_000 && marked < 20_000 * 27 - 1_000, "{marked}");
    }
}
