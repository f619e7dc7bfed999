//! Helpers shared by the integration tests: the puzzle data sets and an
//! `is_solution` check written independently of the engine.

#![allow(dead_code)]

pub mod http;
pub mod process;
pub mod server;
pub mod variant;

use std::path::PathBuf;

/// The directory of the public benchmark puzzle sets (`../shared/data/puzzles`, or
/// `SUDOKUD_PUZZLES` when set).
pub fn puzzle_dir() -> PathBuf {
    sudokud::bench::puzzle_dir()
}

/// Every puzzle line of a data set file, by the rules of `puzzle_lines` (blank
/// lines and `#` comments skipped), as the server's and the CLI's readers take them.
pub fn puzzles(file: &str) -> Vec<String> {
    let path = puzzle_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read puzzle set {}: {e}", path.display()));
    sudokud::board::puzzle_lines(&text)
        .map(|(_, line)| line.to_owned())
        .collect()
}

/// True when `solution` (81 digits) is a complete valid grid that keeps every given
/// of `puzzle` (81 characters, `.` or `0` for blanks). Independent of the engine.
pub fn is_solution(puzzle: &str, solution: &str) -> bool {
    let given: Vec<char> = puzzle.chars().collect();
    let digits: Vec<u32> = solution.chars().filter_map(|c| c.to_digit(10)).collect();
    if given.len() != 81 || solution.chars().count() != 81 || digits.len() != 81 {
        return false;
    }
    if digits.contains(&0) {
        return false;
    }
    let keeps_givens = given
        .iter()
        .zip(&digits)
        .all(|(&g, &d)| g == '.' || g == '0' || g.to_digit(10) == Some(d));
    let unit_ok = |cells: Vec<usize>| {
        let mut seen: Vec<u32> = cells.iter().map(|&i| digits[i]).collect();
        seen.sort_unstable();
        seen == (1..=9).collect::<Vec<u32>>()
    };
    let rows = (0..9).all(|r| unit_ok((0..9).map(|c| r * 9 + c).collect()));
    let cols = (0..9).all(|c| unit_ok((0..9).map(|r| r * 9 + c).collect()));
    let boxes = (0..9).all(|b| {
        unit_ok(
            (0..9)
                .map(|i| (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3)
                .collect(),
        )
    });
    keeps_givens && rows && cols && boxes
}

/// Puzzles with no solution whose givens do not conflict, built by hand so that
/// every algorithm, even plain backtracking, finds the contradiction quickly.
pub fn unsolvable_puzzles() -> Vec<String> {
    let mut puzzles = Vec::new();
    // r1c9 has no candidate: row 1 holds 1-8, column 9 holds 9.
    let mut cells = vec!['.'; 81];
    for (i, d) in "12345678".chars().enumerate() {
        cells[i] = d;
    }
    cells[4 * 9 + 8] = '9';
    puzzles.push(cells.iter().collect());
    // r1c7 and r1c9 both need 9: columns 7 and 9 already hold 7 and 8.
    let mut cells = vec!['.'; 81];
    for (i, d) in "123456".chars().enumerate() {
        cells[i] = d;
    }
    cells[3 * 9 + 6] = '7';
    cells[4 * 9 + 6] = '8';
    cells[3 * 9 + 7] = '9';
    cells[6 * 9 + 8] = '7';
    cells[7 * 9 + 8] = '8';
    puzzles.push(cells.iter().collect());
    puzzles
}

/// From a solved grid, the puzzles made by blanking a "deadly rectangle": four cells
/// in two rows, two columns and two boxes holding `a b / b a`. Each has exactly two
/// solutions.
pub fn two_solution_puzzles(solution: &str) -> Vec<String> {
    let grid: Vec<char> = solution.chars().collect();
    let mut puzzles = Vec::new();
    for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 * 3 + 3) {
            for c1 in 0..9 {
                for c2 in (c1 / 3 * 3 + 3)..9 {
                    let (a, b) = (grid[r1 * 9 + c1], grid[r1 * 9 + c2]);
                    if grid[r2 * 9 + c1] == b && grid[r2 * 9 + c2] == a {
                        let mut cells = grid.clone();
                        for cell in [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2] {
                            cells[cell] = '.';
                        }
                        puzzles.push(cells.iter().collect());
                    }
                }
            }
        }
    }
    puzzles
}

/// Checks that a unary call ended at its deadline. The server answers
/// `DEADLINE_EXCEEDED` a little before the deadline; a tonic client also enforces
/// the deadline itself and, when its own timer wins the race, reports `CANCELLED`
/// with "Timeout expired" (grpcio and grpc-go report `DEADLINE_EXCEEDED` in both
/// cases). Either is the deadline at work.
pub fn assert_deadline(status: &tonic::Status) {
    let server_said_so = status.code() == tonic::Code::DeadlineExceeded;
    let client_timer =
        status.code() == tonic::Code::Cancelled && status.message().contains("Timeout expired");
    assert!(server_said_so || client_timer, "not a deadline: {status:?}");
}

/// Replays steps onto the puzzle, as a dashboard would, with the library's one
/// definition of following a search: every step read back from the wire and
/// checked against the grid so far.
pub fn replay(puzzle: &str, steps: &[sudokud::pb::Step]) -> String {
    let board = sudokud::board::Board::parse(puzzle).unwrap();
    replay_grid(&sudokud::board::Grid::from_board(&board), steps)
}

/// [`replay`] at any size: the grid the steps build from `givens`, as a line
/// (81 characters at 9x9, comma-separated numbers at other sizes).
pub fn replay_grid(givens: &sudokud::board::Grid, steps: &[sudokud::pb::Step]) -> String {
    let mut replay = sudokud::solver::Replay::sized(givens);
    let side = givens.shape().size();
    for step in steps {
        let event = sudokud::convert::step_from_pb(step, side).unwrap_or_else(|e| panic!("{e}"));
        replay.apply(event).unwrap_or_else(|e| panic!("{e}"));
    }
    replay.to_line()
}
