//! Engine tests at the library boundary, data-driven over the public puzzle sets:
//! every answer is checked by the independent `is_solution`, every event stream by
//! replaying it.

mod common;

use std::sync::atomic::AtomicBool;

use common::{is_solution, puzzles, two_solution_puzzles, unsolvable_puzzles};
use proptest::prelude::*;
use sudokud::board::{Board, PuzzleError};
use sudokud::solver::{
    self, Algorithm, Control, Event, Flow, Interrupted, NoEvents, Reason, Replay, Report,
};

/// Plain backtracking is skipped on puzzles that need more steps than this.
const BACKTRACKING_BUDGET: u64 = 5_000_000;

/// The library's replay of a search's events (`solver::Replay`, the one
/// definition of following a search), plus what only an engine test checks: no
/// guess at depth 0.
struct Checked {
    replay: Replay,
    violations: Vec<String>,
}

impl Checked {
    fn new(board: &Board) -> Checked {
        Checked {
            replay: Replay::new(board),
            violations: Vec::new(),
        }
    }

    fn apply(&mut self, event: Event) {
        let (Event::Place(step) | Event::Backtrack(step)) = event;
        if let Err(error) = self.replay.apply(event) {
            self.violations.push(error.to_string());
        }
        if step.reason == Reason::Guess && step.depth == 0 {
            let events = self.replay.events();
            self.violations
                .push(format!("event {events}: a guess at depth 0"));
        }
    }
}

/// Solves `puzzle` with `algorithm` while replaying its events; `None` when plain
/// backtracking ran out of its budget.
fn solve_replayed(puzzle: &str, algorithm: Algorithm) -> Option<(Report, Checked)> {
    let board = Board::parse(puzzle).unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    let mut replay = Checked::new(&board);
    let control = Control {
        max_steps: match algorithm {
            Algorithm::Backtracking => BACKTRACKING_BUDGET,
            _ => u64::MAX,
        },
        ..Control::UNLIMITED
    };
    let mut sink = |event| {
        replay.apply(event);
        Flow::Continue
    };
    match solver::solve(&board, algorithm, &control, &mut sink) {
        Ok(report) => Some((report, replay)),
        Err(Interrupted::StepLimit { .. }) if algorithm == Algorithm::Backtracking => None,
        Err(other) => panic!("{puzzle} with {algorithm:?}: interrupted: {other:?}"),
    }
}

/// Solves every puzzle of a set with every algorithm: each solution valid, each event
/// stream replaying to it, statistics matching the events. Returns how many solves
/// plain backtracking skipped.
fn check_set(file: &str) -> usize {
    let mut skipped = 0;
    for puzzle in puzzles(file) {
        for algorithm in Algorithm::ALL {
            let Some((report, replay)) = solve_replayed(&puzzle, algorithm) else {
                skipped += 1;
                continue;
            };
            let context = format!("{file} {puzzle} {algorithm:?}");
            let solution = report
                .solution
                .unwrap_or_else(|| panic!("{context}: unsolved"));
            assert!(is_solution(&puzzle, &solution.to_line()), "{context}");
            assert!(
                replay.violations.is_empty(),
                "{context}: {:?}",
                replay.violations
            );
            assert_eq!(
                replay.replay.to_line(),
                solution.to_line(),
                "{context}: replay"
            );
            let stats = report.stats;
            assert_eq!(
                stats.placements + stats.backtracks,
                replay.replay.events(),
                "{context}"
            );
            assert_eq!(report.solution_count, 1, "{context}");
        }
    }
    skipped
}

#[test]
fn solves_project_euler_96() {
    assert_eq!(check_set("euler96_50.txt"), 0);
}

#[test]
fn solves_norvig_top95() {
    let skipped = check_set("norvig_top95.txt");
    assert!(skipped < 30, "backtracking skipped {skipped} of 95");
}

#[test]
fn solves_plb_hard20() {
    let skipped = check_set("plb_hard20.txt");
    assert!(skipped < 8, "backtracking skipped {skipped} of 20");
}

/// The classic recursive algorithm, written the textbook way, as a reference for
/// the step counts of `Algorithm::Backtracking`: (placements, backtracks).
fn textbook_backtracking(cells: &mut [u8; 81], budget: &mut u64) -> Option<(u64, u64)> {
    fn allowed(cells: &[u8; 81], cell: usize, digit: u8) -> bool {
        let (row, col) = (cell / 9, cell % 9);
        let (top, left) = (row / 3 * 3, col / 3 * 3);
        (0..9).all(|i| {
            cells[row * 9 + i] != digit
                && cells[i * 9 + col] != digit
                && cells[(top + i / 3) * 9 + left + i % 3] != digit
        })
    }
    fn go(cells: &mut [u8; 81], counts: &mut (u64, u64), budget: &mut u64) -> Option<bool> {
        let Some(cell) = cells.iter().position(|&d| d == 0) else {
            return Some(true);
        };
        for digit in 1..=9 {
            if allowed(cells, cell, digit) {
                *budget = budget.checked_sub(1)?;
                cells[cell] = digit;
                counts.0 += 1;
                if go(cells, counts, budget)? {
                    return Some(true);
                }
                cells[cell] = 0;
                counts.1 += 1;
            }
        }
        Some(false)
    }
    let mut counts = (0, 0);
    go(cells, &mut counts, budget)?;
    Some(counts)
}

#[test]
fn backtracking_matches_the_textbook_algorithm_step_for_step() {
    let mut compared = 0;
    for puzzle in puzzles("euler96_50.txt")
        .into_iter()
        .chain(puzzles("norvig_top95.txt"))
    {
        let board = Board::parse(&puzzle).unwrap();
        let mut cells = *board.cells();
        let mut budget = 2_000_000;
        let Some((placements, backtracks)) = textbook_backtracking(&mut cells, &mut budget) else {
            continue;
        };
        let report = solver::solve(
            &board,
            Algorithm::Backtracking,
            &Control::UNLIMITED,
            &mut NoEvents,
        )
        .unwrap();
        assert_eq!(report.stats.placements, placements, "{puzzle}");
        assert_eq!(report.stats.backtracks, backtracks, "{puzzle}");
        assert_eq!(report.stats.guesses, placements, "{puzzle}");
        compared += 1;
    }
    assert!(compared >= 80, "only {compared} puzzles compared");
}

#[test]
fn backtracking_defeater_takes_about_69_million_placements() {
    let puzzle = &puzzles("plb_hard20.txt")[0];
    let board = Board::parse(puzzle).unwrap();
    let report = solver::solve(
        &board,
        Algorithm::Backtracking,
        &Control::UNLIMITED,
        &mut NoEvents,
    )
    .unwrap();
    let solution = report.solution.unwrap().to_line();
    assert!(is_solution(puzzle, &solution));
    let placements = report.stats.placements;
    assert!(
        (68_000_000..71_000_000).contains(&placements),
        "{placements} placements"
    );
    // Every placement but the final cells' is taken back.
    assert_eq!(
        placements - report.stats.backtracks,
        81 - board.filled() as u64
    );
}

#[test]
fn unsolvable_puzzles_are_answered_unsolvable_by_every_algorithm() {
    for puzzle in unsolvable_puzzles() {
        let board = Board::parse(&puzzle).unwrap_or_else(|e| panic!("{puzzle}: {e}"));
        for algorithm in Algorithm::ALL {
            let (report, replay) = solve_replayed(&puzzle, algorithm).unwrap();
            assert_eq!(report.solution, None, "{puzzle} {algorithm:?}");
            assert_eq!(report.solution_count, 0);
            assert!(replay.violations.is_empty(), "{:?}", replay.violations);
            // A failed search takes back everything it placed.
            assert_eq!(
                replay.replay.cells(),
                board.cells(),
                "{puzzle} {algorithm:?}"
            );
            let counted = solver::count_solutions(&board, algorithm, &Control::UNLIMITED).unwrap();
            assert_eq!(counted.solution_count, 0, "{puzzle} {algorithm:?}");
        }
    }
}

/// Checks a count-to-two answer: the count, and the first solution when there is one.
fn check_count(puzzle: &str, algorithm: Algorithm, expected: u32) {
    let board = Board::parse(puzzle).unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    let report = solver::count_solutions(&board, algorithm, &Control::UNLIMITED).unwrap();
    assert_eq!(report.solution_count, expected, "{puzzle} {algorithm:?}");
    let solution = report.solution.map(|s| s.to_line());
    assert!(
        solution.is_some_and(|s| is_solution(puzzle, &s)),
        "{puzzle} {algorithm:?}"
    );
}

#[test]
fn puzzles_with_two_solutions_count_two() {
    let mut checked = 0;
    for puzzle in puzzles("euler96_50.txt") {
        let board = Board::parse(&puzzle).unwrap();
        let report = solver::solve(
            &board,
            Algorithm::Propagation,
            &Control::UNLIMITED,
            &mut NoEvents,
        )
        .unwrap();
        for two in two_solution_puzzles(&report.solution.unwrap().to_line())
            .into_iter()
            .take(3)
        {
            for algorithm in Algorithm::ALL {
                check_count(&two, algorithm, 2);
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} two-solution puzzles built");
}

#[test]
fn the_empty_grid_has_many_solutions() {
    for algorithm in Algorithm::ALL {
        check_count(&".".repeat(81), algorithm, 2);
    }
}

#[test]
fn sixteen_clue_puzzles_are_never_unique() {
    // No 16-clue Sudoku has a unique solution, so dropping one given of a 17-clue
    // puzzle always leaves two or more.
    for puzzle in puzzles("17_clue.txt").into_iter().step_by(997).take(40) {
        let first_given = puzzle.find(|c: char| c != '.').unwrap();
        let mut sixteen = puzzle.clone();
        sixteen.replace_range(first_given..first_given + 1, ".");
        // The classic algorithms need millions of steps on these; propagation does not.
        check_count(&sixteen, Algorithm::Propagation, 2);
        check_count(&puzzle, Algorithm::Propagation, 1);
    }
}

#[test]
fn step_limit_stops_after_exactly_that_many_steps() {
    let puzzle = &puzzles("norvig_top95.txt")[0];
    let board = Board::parse(puzzle).unwrap();
    for algorithm in Algorithm::ALL {
        let mut events = 0u64;
        let mut sink = |_| {
            events += 1;
            Flow::Continue
        };
        let control = Control {
            max_steps: 10,
            ..Control::UNLIMITED
        };
        let result = solver::solve(&board, algorithm, &control, &mut sink);
        assert_eq!(
            result,
            Err(Interrupted::StepLimit { limit: 10 }),
            "{algorithm:?}"
        );
        assert_eq!(events, 10, "{algorithm:?}");
    }
}

#[test]
fn a_sink_can_stop_the_search() {
    let puzzle = &puzzles("plb_hard20.txt")[0];
    let board = Board::parse(puzzle).unwrap();
    for algorithm in Algorithm::ALL {
        let mut events = 0u64;
        let mut sink = |_| {
            events += 1;
            if events == 5 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        };
        let result = solver::solve(&board, algorithm, &Control::UNLIMITED, &mut sink);
        assert_eq!(result, Err(Interrupted::Stopped), "{algorithm:?}");
        assert_eq!(events, 5);
    }
}

#[test]
fn a_set_stop_signal_ends_the_search() {
    let puzzle = &puzzles("plb_hard20.txt")[0];
    let board = Board::parse(puzzle).unwrap();
    let stop = AtomicBool::new(true);
    let control = Control {
        stop: Some(&stop),
        ..Control::UNLIMITED
    };
    let result = solver::solve(&board, Algorithm::Backtracking, &control, &mut NoEvents);
    assert_eq!(result, Err(Interrupted::Stopped));
}

#[test]
fn a_passed_deadline_ends_the_search() {
    let puzzle = &puzzles("plb_hard20.txt")[0];
    let board = Board::parse(puzzle).unwrap();
    let control = Control {
        deadline: Some(std::time::Instant::now()),
        ..Control::UNLIMITED
    };
    let result = solver::solve(&board, Algorithm::Backtracking, &control, &mut NoEvents);
    assert_eq!(result, Err(Interrupted::DeadlinePassed));
}

/// Parses `text` and checks the error, or the normalized line when `expected` is Ok.
fn check_parse(text: &str, expected: Result<&str, PuzzleError>) {
    let parsed = Board::parse(text).map(|board| board.to_line());
    assert_eq!(
        parsed.as_deref().map_err(Clone::clone),
        expected,
        "{text:?}"
    );
}

#[test]
fn parse_accepts_every_blank_marker_and_grid_drawing() {
    let line = puzzles("euler96_50.txt")[0].clone();
    let zeros = line.replace('.', "0");
    let underscores = line.replace('.', "_");
    let mut grid = String::new();
    for (row, chunk) in line.as_bytes().chunks(9).enumerate() {
        if row % 3 == 0 && row > 0 {
            grid.push_str("------+-------+------\n");
        }
        for (col, &c) in chunk.iter().enumerate() {
            if col % 3 == 0 && col > 0 {
                grid.push_str("| ");
            }
            grid.push(char::from(c));
            grid.push(' ');
        }
        grid.push_str("\r\n");
    }
    for text in [&line, &zeros, &underscores, &grid, &format!("  {line}\t\n")] {
        check_parse(text, Ok(&line));
    }
}

#[test]
fn parse_rejects_bad_input_with_its_position() {
    let line = puzzles("euler96_50.txt")[0].clone();
    let mut bad = line.clone();
    bad.replace_range(40..41, "x");
    check_parse(
        &bad,
        Err(PuzzleError::BadCharacter {
            character: 'x',
            cell: 40,
            position: 41,
        }),
    );
    // Located as a cell, as conflicts are (the character's place too).
    let message = Board::parse(&bad).unwrap_err().to_string();
    assert!(
        message.starts_with("bad character 'x' at r5c5 (character 41 of the text)"),
        "{message}"
    );
    // In a pasted grid the cell is not the character's place.
    let grid: String = line
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{} |\n", String::from_utf8_lossy(row)))
        .collect();
    let mut bad_grid = grid.clone().into_bytes();
    bad_grid[4 * 12 + 4] = b'x';
    let message = Board::parse(&String::from_utf8(bad_grid).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("bad character 'x' at r5c5 (character 53"),
        "{message}"
    );
    let message = Board::parse(&format!("{line}x")).unwrap_err().to_string();
    assert!(
        message.starts_with("bad character 'x' after the 81st cell"),
        "{message}"
    );
    check_parse(
        &format!("é{line}"),
        Err(PuzzleError::BadCharacter {
            character: 'é',
            cell: 0,
            position: 1,
        }),
    );
    check_parse(&line[..80], Err(PuzzleError::WrongCellCount { found: 80 }));
    check_parse(
        &format!("{line}."),
        Err(PuzzleError::WrongCellCount { found: 82 }),
    );
    check_parse("", Err(PuzzleError::WrongCellCount { found: 0 }));
    let message = Board::parse(&bad).unwrap_err().to_string();
    assert!(
        message.contains("'x'") && message.contains("41"),
        "{message}"
    );
}

#[test]
fn parse_names_both_cells_of_a_conflict() {
    let mut row = ".".repeat(81);
    row.replace_range(0..1, "7");
    row.replace_range(4..5, "7");
    let error = Board::parse(&row).unwrap_err();
    assert_eq!(error.to_string(), "r1c1 and r1c5 both hold 7");

    let mut column = ".".repeat(81);
    column.replace_range(2..3, "3");
    column.replace_range(74..75, "3");
    assert_eq!(
        Board::parse(&column).unwrap_err().to_string(),
        "r1c3 and r9c3 both hold 3"
    );

    let mut box_ = ".".repeat(81);
    box_.replace_range(30..31, "5");
    box_.replace_range(50..51, "5");
    assert_eq!(
        Board::parse(&box_).unwrap_err(),
        PuzzleError::Conflict {
            first: 30,
            second: 50,
            digit: 5
        }
    );
}

proptest! {
    #[test]
    fn parse_never_panics_on_any_text(text in "\\PC*") {
        let _ = Board::parse(&text);
    }

    /// Puzzle-like text parses exactly as an independent reading of the rules
    /// says: the first character that is no cell and no layout is named with its
    /// position, then the cell count, then clashing givens; otherwise the board
    /// holds the cells in order.
    #[test]
    fn parse_follows_the_puzzle_text_rules(
        text in "([1-9]|[._0]{1,3}|[|+\\- \\n]|x){60,120}"
    ) {
        prop_assert_eq!(Board::parse(&text), expected_parse(&text));
    }

    /// The same on texts of 81 cells (about twelve givens, so about half clash)
    /// with layout between them: the cell-count, clash and board branches.
    #[test]
    fn parse_follows_the_rules_on_81_cells(
        text in "((\\.|\\.|\\.|\\.|0|_|[1-9])[ |\\n]?){81}"
    ) {
        prop_assert_eq!(Board::parse(&text), expected_parse(&text));
    }
}

/// What `Board::parse` must give for `text`, by the rules alone.
fn expected_parse(text: &str) -> Result<Board, PuzzleError> {
    let mut cells = Vec::new();
    for (index, character) in text.chars().enumerate() {
        match character {
            '1'..='9' => cells.push(character as u8 - b'0'),
            '.' | '0' | '_' => cells.push(0),
            '|' | '-' | '+' => {}
            c if c.is_whitespace() => {}
            _ => {
                return Err(PuzzleError::BadCharacter {
                    character,
                    cell: cells.len(),
                    position: index + 1,
                });
            }
        }
    }
    if cells.len() != 81 {
        return Err(PuzzleError::WrongCellCount { found: cells.len() });
    }
    let peers = |a: usize, b: usize| {
        a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3)
    };
    for second in 0..81 {
        for first in 0..second {
            if cells[first] != 0 && cells[first] == cells[second] && peers(first, second) {
                return Err(PuzzleError::Conflict {
                    first,
                    second,
                    digit: cells[first],
                });
            }
        }
    }
    let line: String = cells
        .iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect();
    Ok(Board::parse(&line).expect("a clash-free board of 81 cells parses"))
}

/// Step budget for the classic algorithms in the agreement test; a puzzle over it
/// is compared between the engines that finish.
const CLASSIC_BUDGET: u64 = 200_000;

/// Every algorithm agrees with the propagation engine (the reference: it always
/// finishes, and shares no code with the bitboard default) on the solution count
/// (up to two) and, for unique puzzles, the solution; every benchmark puzzle has
/// a solution, and every first solution passes the independent `is_solution`.
/// The classic engines are compared where they finish within their budget, and
/// must have finished on some puzzles of the set.
fn check_agreement(file: &str, step: usize) {
    let mut compared = [0usize; Algorithm::ALL.len()];
    for puzzle in puzzles(file).into_iter().step_by(step) {
        let board = Board::parse(&puzzle).unwrap();
        let reference =
            solver::count_solutions(&board, Algorithm::Propagation, &Control::UNLIMITED)
                .unwrap_or_else(|e| panic!("{file} {puzzle}: {e:?}"));
        assert!(
            reference.solution_count >= 1,
            "{file} {puzzle}: no solution"
        );
        let solution = reference.solution.map(|s| s.to_line());
        assert!(
            is_solution(&puzzle, solution.as_deref().unwrap()),
            "{file} {puzzle}"
        );
        for (index, algorithm) in Algorithm::ALL.into_iter().enumerate() {
            if algorithm == Algorithm::Propagation {
                continue;
            }
            let control = Control {
                max_steps: match algorithm {
                    Algorithm::Backtracking | Algorithm::Singles => CLASSIC_BUDGET,
                    _ => u64::MAX,
                },
                ..Control::UNLIMITED
            };
            let report = match solver::count_solutions(&board, algorithm, &control) {
                Ok(report) => report,
                Err(Interrupted::StepLimit { .. }) if algorithm != Algorithm::Bitboard => continue,
                Err(other) => panic!("{file} {puzzle} {algorithm:?}: {other:?}"),
            };
            let context = format!("{file} {puzzle} {algorithm:?}");
            assert_eq!(report.solution_count, reference.solution_count, "{context}");
            let other = report.solution.map(|s| s.to_line());
            assert!(is_solution(&puzzle, other.as_deref().unwrap()), "{context}");
            if reference.solution_count == 1 {
                assert_eq!(other, solution, "{context}");
            }
            compared[index] += 1;
        }
    }
    let (bitboard, wide) = (compared[3], compared[4]);
    assert!(
        bitboard > 0 && wide == bitboard,
        "{file}: {compared:?} compared"
    );
    assert!(
        compared[0] + compared[1] > 0,
        "{file}: no classic engine finished"
    );
}

#[test]
fn algorithms_agree_on_17_clue_samples() {
    check_agreement("17_clue.txt", 97);
}

#[test]
fn algorithms_agree_on_magictour_top1465() {
    check_agreement("magictour_top1465.txt", 1);
}

#[test]
fn algorithms_agree_on_forum_hardest_1106() {
    check_agreement("forum_hardest_1106.txt", 1);
}

#[test]
fn algorithms_agree_on_serg_benchmark() {
    check_agreement("serg_benchmark.txt", 1);
}

#[test]
fn the_bitboard_engine_reports_honest_reasons_and_depths() {
    // Replay already checks cells; here every guess opens one more level and every
    // forced placement stays at the level of the guess before it.
    for puzzle in puzzles("norvig_top95.txt") {
        let board = Board::parse(&puzzle).unwrap();
        let mut open = 0u32;
        let mut sink = |event| {
            if let Event::Place(step) = event {
                if step.reason == Reason::Guess {
                    assert!(
                        step.depth >= 1 && step.depth <= open + 1,
                        "{puzzle}: {step:?}"
                    );
                    open = step.depth;
                } else {
                    assert!(step.depth <= open, "{puzzle}: {step:?}");
                }
            } else if let Event::Backtrack(step) = event
                && step.reason == Reason::Guess
            {
                open = step.depth - 1;
            }
            Flow::Continue
        };
        solver::solve(&board, Algorithm::Bitboard, &Control::UNLIMITED, &mut sink).unwrap();
    }
}
