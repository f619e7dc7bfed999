//! The logical solver: each technique on positions built for it (and not firing
//! where it must not), and soundness on the public sets: every placement and every
//! elimination agrees with the unique solution found by the search engine, an
//! independent checker.

mod common;

use sudokud::board::Board;
use sudokud::logic::{self, Pencil, Technique};
use sudokud::solver::{self, Algorithm, Control};

/// A pencil grid where every cell holds every candidate, then `remove` applied:
/// (cell, digits to take out).
fn grid(remove: &[(usize, &str)]) -> Pencil {
    let mut cells = vec!["123456789".to_owned(); 81];
    for &(cell, digits) in remove {
        cells[cell].retain(|c| !digits.contains(c));
    }
    Pencil::parse(&cells.join(" ")).unwrap()
}

fn cell(row: usize, col: usize) -> usize {
    row * 9 + col
}

#[test]
fn no_technique_fires_on_an_empty_grid() {
    let empty = grid(&[]);
    for technique in Technique::LADDER {
        assert_eq!(logic::find(&empty, technique), None, "{technique:?}");
    }
}

#[test]
fn pointing_clears_the_line_outside_the_box() {
    // Digit 1 in box 1 (top left) only in row 1, columns 1 and 2.
    let removes: Vec<(usize, &str)> = [(0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
        .iter()
        .map(|&(r, c)| (cell(r, c), "1"))
        .collect();
    let step = logic::find(&grid(&removes), Technique::Pointing).unwrap();
    let expected: Vec<(usize, u8)> = (3..9).map(|c| (cell(0, c), 1)).collect();
    assert_eq!(step.eliminations, expected);
    assert_eq!(step.pattern, [(cell(0, 0), 1), (cell(0, 1), 1)]);
    // Nothing claims there: every line still has the digit in two boxes or more.
    assert_eq!(logic::find(&grid(&removes), Technique::Claiming), None);
}

#[test]
fn claiming_clears_the_box_outside_the_line() {
    // Digit 5 in row 1 only in columns 1-3 (box 1).
    let removes: Vec<(usize, &str)> = (3..9).map(|c| (cell(0, c), "5")).collect();
    let pencil = grid(&removes);
    let step = logic::find(&pencil, Technique::Claiming).unwrap();
    let expected: Vec<(usize, u8)> = [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
        .iter()
        .map(|&(r, c)| (cell(r, c), 5))
        .collect();
    assert_eq!(step.eliminations, expected);
    // Boxes 2 and 3 lose 5 in row 1 only: their 5s still span two rows and three
    // columns, so nothing points.
    assert_eq!(logic::find(&pencil, Technique::Pointing), None);
}

#[test]
fn a_naked_pair_clears_its_digits_from_the_rest_of_the_unit() {
    // r9c1 and r9c2 hold only 4 and 7.
    let removes = [(cell(8, 0), "1235689"), (cell(8, 1), "1235689")];
    let step = logic::find(&grid(&removes), Technique::NakedPair).unwrap();
    // The first unit with the pair is row 9: 4 and 7 leave c3..c9.
    let expected: Vec<(usize, u8)> = (2..9)
        .flat_map(|c| [(cell(8, c), 4), (cell(8, c), 7)])
        .collect();
    assert_eq!(step.eliminations, expected);
}

#[test]
fn a_hidden_pair_clears_the_other_digits_of_its_cells() {
    // In row 1, digits 8 and 9 only in columns 1 and 5.
    let removes: Vec<(usize, &str)> = [1, 2, 3, 5, 6, 7, 8]
        .iter()
        .map(|&c| (cell(0, c), "89"))
        .collect();
    let step = logic::find(&grid(&removes), Technique::HiddenPair).unwrap();
    let expected: Vec<(usize, u8)> = [0, 4]
        .iter()
        .flat_map(|&c| (1..=7).map(move |d| (cell(0, c), d)))
        .collect();
    assert_eq!(step.eliminations, expected);
}

#[test]
fn an_x_wing_clears_its_columns_in_the_other_rows() {
    // Digit 3 in rows 2 and 7 only in columns 2 and 8.
    let removes: Vec<(usize, &str)> = [1, 6]
        .iter()
        .flat_map(|&r| [0, 2, 3, 4, 5, 6, 8].map(move |c| (cell(r, c), "3")))
        .collect();
    let step = logic::find(&grid(&removes), Technique::XWing).unwrap();
    let expected: Vec<(usize, u8)> = [0, 2, 3, 4, 5, 7, 8]
        .iter()
        .flat_map(|&r| [(cell(r, 1), 3), (cell(r, 7), 3)])
        .collect();
    let mut got = step.eliminations.clone();
    got.sort_unstable();
    let mut want = expected;
    want.sort_unstable();
    assert_eq!(got, want);
}

/// Explains `take` puzzles of the file, evenly spread over it, and checks each
/// step against the search's solution; returns how many the ladder solved alone.
fn check_soundness(file: &str, take: usize) -> (usize, usize) {
    let mut solved = 0;
    let puzzles = common::puzzles(file);
    let every = (puzzles.len() / take.max(1)).max(1);
    for puzzle in puzzles.iter().step_by(every).take(take) {
        let board = Board::parse(puzzle).unwrap();
        let report =
            solver::count_solutions(&board, Algorithm::Propagation, &Control::UNLIMITED).unwrap();
        assert_eq!(report.solution_count, 1, "{puzzle}");
        let solution = *report.solution.unwrap().cells();
        let mut pencil = Pencil::new(&board);
        while let Some(step) = logic::next_step(&pencil) {
            for &(cell, digit) in &step.placements {
                assert_eq!(solution[cell], digit, "{puzzle}: {step}");
            }
            for &(cell, digit) in &step.eliminations {
                assert_ne!(solution[cell], digit, "{puzzle}: {step}");
            }
            assert!(
                !step.placements.is_empty() || !step.eliminations.is_empty(),
                "{step}"
            );
            logic::apply(&mut pencil, &step);
        }
        let explained = logic::explain(&board);
        assert_eq!(explained.end, pencil);
        if explained.solved() {
            assert_eq!(
                pencil.to_line(),
                solution
                    .iter()
                    .map(|&d| char::from(b'0' + d))
                    .collect::<String>(),
                "{puzzle}"
            );
            solved += 1;
        }
    }
    (solved, take.min(puzzles.len()))
}

#[test]
fn every_step_agrees_with_the_solution() {
    for (file, take) in [
        ("norvig_top95.txt", 95),
        ("magictour_top1465.txt", 1465),
        ("17_clue.txt", 2000),
        ("euler96_50.txt", 50),
    ] {
        let (solved, total) = check_soundness(file, take);
        eprintln!("{file}: {solved} of {total} solved by the ladder alone");
        if file == "euler96_50.txt" {
            assert_eq!(solved, total, "the Project Euler puzzles need no search");
        }
    }
}

#[test]
fn a_full_house_fills_the_last_cell_of_a_unit() {
    let board = Board::parse(&format!("12345678.{}", ".".repeat(72))).unwrap();
    let step = logic::find(&Pencil::new(&board), Technique::FullHouse).unwrap();
    assert_eq!(step.placements, [(8, 9)]);
    // Nothing of the kind on the empty board.
    assert_eq!(logic::find(&grid(&[]), Technique::FullHouse), None);
}

#[test]
fn an_xy_wing_clears_the_cells_seeing_both_pincers() {
    // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r2c2 {2,3}: z = 3.
    let removes = [
        (cell(0, 0), "3456789"),
        (cell(0, 4), "2456789"),
        (cell(1, 1), "1456789"),
    ];
    let step = logic::find(&grid(&removes), Technique::XyWing).unwrap();
    let mut got = step.eliminations;
    got.sort_unstable();
    let want = [cell(0, 1), cell(0, 2), cell(1, 3), cell(1, 4), cell(1, 5)].map(|c| (c, 3));
    assert_eq!(got, want);
    assert_eq!(logic::find(&grid(&removes), Technique::XyzWing), None);
}

#[test]
fn direct_pointing_places_the_single_its_eliminations_leave() {
    // Box 1's 1s only in row 1 (c1, c2); in box 2, 1 only in r1c4 and r2c4: the
    // pointing takes r1c4, leaving r2c4 as box 2's only 1.
    let mut removes: Vec<(usize, &str)> = [(0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
        .iter()
        .map(|&(r, c)| (cell(r, c), "1"))
        .collect();
    removes.extend(
        [(0, 4), (0, 5), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5)]
            .iter()
            .map(|&(r, c)| (cell(r, c), "1")),
    );
    let pencil = grid(&removes);
    let step = logic::find(&pencil, Technique::DirectPointing).unwrap();
    assert_eq!(step.placements, [(cell(1, 3), 1)]);
    assert!(step.eliminations.contains(&(cell(0, 3), 1)));
}

#[test]
fn a_skyscraper_clears_the_cells_seeing_both_ends() {
    // Digit 4: column 2 only in rows 2 and 9, column 4 only in rows 1 and 9.
    let mut removes: Vec<(usize, &str)> = (0..9)
        .filter(|&r| r != 1 && r != 8)
        .map(|r| (cell(r, 1), "4"))
        .collect();
    removes.extend(
        (0..9)
            .filter(|&r| r != 0 && r != 8)
            .map(|r| (cell(r, 3), "4")),
    );
    let pencil = grid(&removes);
    let step = logic::find(&pencil, Technique::Skyscraper).unwrap();
    let mut got = step.eliminations;
    got.sort_unstable();
    assert_eq!(
        got,
        [cell(0, 0), cell(0, 2), cell(1, 4), cell(1, 5)].map(|c| (c, 4))
    );
    assert_eq!(logic::find(&pencil, Technique::XWing), None);
}

#[test]
fn a_two_string_kite_clears_the_cell_seeing_both_ends() {
    // Digit 5: row 1 only in columns 2 and 7, column 1 only in rows 2 and 8; r1c2
    // and r2c1 share box 1, so r1c7 or r8c1 holds 5 and r8c7 loses it.
    let mut removes: Vec<(usize, &str)> = (0..9)
        .filter(|&c| c != 1 && c != 6)
        .map(|c| (cell(0, c), "5"))
        .collect();
    removes.extend(
        (0..9)
            .filter(|&r| r != 1 && r != 7)
            .map(|r| (cell(r, 0), "5")),
    );
    let step = logic::find(&grid(&removes), Technique::TwoStringKite).unwrap();
    assert_eq!(step.eliminations, [(cell(7, 6), 5)]);
}
