//! The logical solver: each technique on positions built for it (and not firing
//! where it must not), and soundness on the public sets: every placement and every
//! elimination agrees with the unique solution found by the search engine, an
//! independent checker.

mod common;

use std::collections::BTreeSet;
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

/// Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r2c2 {2,3}: an XY-Wing on 3.
fn xy_wing_grid() -> Pencil {
    grid(&[
        (cell(0, 0), "3456789"),
        (cell(0, 4), "2456789"),
        (cell(1, 1), "1456789"),
    ])
}

/// Digit 4: column 2 only in rows 2 and 9, column 4 only in rows 1 and 9.
fn skyscraper_grid() -> Pencil {
    let mut removes: Vec<(usize, &str)> = (0..9)
        .filter(|&r| r != 1 && r != 8)
        .map(|r| (cell(r, 1), "4"))
        .collect();
    removes.extend(
        (0..9)
            .filter(|&r| r != 0 && r != 8)
            .map(|r| (cell(r, 3), "4")),
    );
    grid(&removes)
}

/// Digit 5: row 1 only in columns 2 and 7, column 1 only in rows 2 and 8; r1c2
/// and r2c1 share box 1.
fn kite_grid() -> Pencil {
    let mut removes: Vec<(usize, &str)> = (0..9)
        .filter(|&c| c != 1 && c != 6)
        .map(|c| (cell(0, c), "5"))
        .collect();
    removes.extend(
        (0..9)
            .filter(|&r| r != 1 && r != 7)
            .map(|r| (cell(r, 0), "5")),
    );
    grid(&removes)
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
fn check_soundness(file: &str, take: usize, used: &mut BTreeSet<&'static str>) -> (usize, usize) {
    let mut solved = 0;
    let puzzles = common::puzzles(file);
    let every = (puzzles.len() / take.max(1)).max(1);
    for puzzle in puzzles.iter().step_by(every).take(take) {
        let board = Board::parse(puzzle).unwrap();
        let report =
            solver::count_solutions(&board, Algorithm::Propagation, &Control::UNLIMITED).unwrap();
        assert_eq!(report.solution_count, 1, "{puzzle}");
        let solution = *report.solution.unwrap().cells();
        // The explanation's steps, replayed and each checked against the solution.
        let explained = logic::explain(&board);
        let mut pencil = Pencil::new(&board);
        for step in &explained.steps {
            used.insert(step.technique.name());
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
            logic::apply(&mut pencil, step);
        }
        let values: Vec<u8> = (0..81).map(|cell| pencil.value(cell)).collect();
        assert_eq!(explained.end, values);
        assert!(logic::next_step(&pencil).is_none() || explained.solved());
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
    let mut used = BTreeSet::new();
    for (file, take) in [
        ("norvig_top95.txt", 95),
        ("magictour_top1465.txt", 1465),
        ("17_clue.txt", 2000),
        ("euler96_50.txt", 50),
    ] {
        let (solved, total) = check_soundness(file, take, &mut used);
        eprintln!("{file}: {solved} of {total} solved by the ladder alone");
        if file == "euler96_50.txt" {
            assert_eq!(solved, total, "the Project Euler puzzles need no search");
        }
    }
    // The uniqueness and exclusion rungs are reached, and hold, on these sets
    // (all but BUG type 3, which none of them needs).
    let rungs = Technique::LADDER.into_iter().filter(|technique| {
        let name = technique.name();
        (name.starts_with("unique") || name.starts_with("bug") || name.starts_with("aligned"))
            && *technique != Technique::BugType3
    });
    let rungs: Vec<Technique> = rungs.collect();
    assert_eq!(rungs.len(), 13, "{rungs:?}");
    for technique in rungs {
        assert!(used.contains(technique.name()), "{technique:?} never used");
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
    let step = logic::find(&xy_wing_grid(), Technique::XyWing).unwrap();
    let mut got = step.eliminations;
    got.sort_unstable();
    let want = [cell(0, 1), cell(0, 2), cell(1, 3), cell(1, 4), cell(1, 5)].map(|c| (c, 3));
    assert_eq!(got, want);
    assert_eq!(logic::find(&xy_wing_grid(), Technique::XyzWing), None);
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
    let pencil = skyscraper_grid();
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
    let step = logic::find(&kite_grid(), Technique::TwoStringKite).unwrap();
    assert_eq!(step.eliminations, [(cell(7, 6), 5)]);
}

/// A position met while explaining `puzzle` (a pencil-mark grid), and the
/// puzzle's solution, to check a step found there against.
fn position(puzzle: &str, marks: &str) -> (Pencil, [u8; 81]) {
    let board = Board::parse(puzzle).unwrap();
    let report = solver::count_solutions(&board, Algorithm::Bitboard, &Control::UNLIMITED).unwrap();
    assert_eq!(report.solution_count, 1);
    (
        Pencil::parse(marks).unwrap(),
        *report.solution.unwrap().cells(),
    )
}

const UR_PUZZLE: &str =
    "..9.8..5..21...8...5..471......5...8...41.......9....24....3.27.9.....35..7......";
const UR_MARKS: &str = "7 4 9 36 8 1 2 5 36 36 2 1 36 9 5 8 7 4 8 5 36 2 4 7 1 69 369 9 16 246 7 5 26 3 14 8 25 378 238 4 1 28 57 69 69 15 1678 468 9 3 68 57 14 2 4 18 5 18 6 3 9 2 7 12 9 28 18 7 4 6 3 5 36 36 7 5 2 9 4 8 1";

#[test]
fn a_unique_rectangle_clears_its_pair_from_the_fourth_corner() {
    // r3c8, r5c8 and r5c9 hold {6,9}, r3c9 {3,6,9}: rows 3 and 5, columns 8
    // and 9, boxes 3 and 6. r3c9 loses 6 and 9.
    let (pencil, solution) = position(UR_PUZZLE, UR_MARKS);
    let step = logic::find(&pencil, Technique::UniqueRectangle).unwrap();
    assert_eq!(step.eliminations, [(cell(2, 8), 6), (cell(2, 8), 9)]);
    for &(cell, digit) in &step.eliminations {
        assert_ne!(solution[cell], digit);
    }
    // The pattern: the pair's digits in the four corners.
    let corners: std::collections::BTreeSet<usize> =
        step.pattern.iter().map(|&(cell, _)| cell).collect();
    assert_eq!(corners.len(), 4);
    let expected = [cell(2, 7), cell(2, 8), cell(4, 7), cell(4, 8)];
    assert_eq!(corners.into_iter().collect::<Vec<_>>(), expected);
}

#[test]
fn a_rectangle_over_four_boxes_or_with_two_extra_corners_is_no_unique_rectangle() {
    // {1,2} in r1c1, r1c5, r4c1 and {1,2,5} in r4c5: four boxes.
    let four_boxes = [
        (cell(0, 0), "3456789"),
        (cell(0, 4), "3456789"),
        (cell(3, 0), "3456789"),
        (cell(3, 4), "346789"),
    ];
    assert_eq!(
        logic::find(&grid(&four_boxes), Technique::UniqueRectangle),
        None
    );
    // Two boxes, but two corners hold more than the pair.
    let two_extra = [
        (cell(0, 0), "3456789"),
        (cell(0, 1), "3456789"),
        (cell(3, 0), "346789"),
        (cell(3, 1), "346789"),
    ];
    assert_eq!(
        logic::find(&grid(&two_extra), Technique::UniqueRectangle),
        None
    );
    // The same rectangle with one extra corner is one.
    let one_extra = [
        (cell(0, 0), "3456789"),
        (cell(0, 1), "3456789"),
        (cell(3, 0), "3456789"),
        (cell(3, 1), "346789"),
    ];
    let step = logic::find(&grid(&one_extra), Technique::UniqueRectangle).unwrap();
    assert_eq!(step.eliminations, [(cell(3, 1), 1), (cell(3, 1), 2)]);
}

#[test]
fn a_direct_hidden_pair_places_a_single_of_its_own_house_only() {
    // 1 and 2 only in r1c1 and r1c2: a hidden pair of row 1, which clears
    // 3-9 from both. 3 then has one place left in column 1 (r2c1), but that
    // is another house: no direct hidden pair, as Sudoku Explainer has it.
    let mut removals: Vec<(usize, &str)> = (2..9).map(|col| (cell(0, col), "12")).collect();
    removals.extend((2..9).map(|row| (cell(row, 0), "3")));
    assert!(logic::find(&grid(&removals), Technique::HiddenPair).is_some());
    assert_eq!(
        logic::find(&grid(&removals), Technique::DirectHiddenPair),
        None
    );
    // With 9 left in row 1 only at r1c1 to r1c3, the pair's own row gets a
    // single: r1c3 is 9.
    for entry in &mut removals[1..7] {
        entry.1 = "129";
    }
    let step = logic::find(&grid(&removals), Technique::DirectHiddenPair).unwrap();
    assert_eq!(step.placements, [(cell(0, 2), 9)]);
}

#[test]
fn a_unique_rectangle_of_type_two_clears_its_extra_digit_from_the_cells_seeing_both() {
    // {1,2} in r1c1 and r1c2, {1,2,3} in r4c1 and r4c2: one of the two
    // holds 3, so the rest of row 4 and of box 4 lose it.
    let pencil = grid(&[
        (cell(0, 0), "3456789"),
        (cell(0, 1), "3456789"),
        (cell(3, 0), "456789"),
        (cell(3, 1), "456789"),
    ]);
    let step = logic::find(&pencil, Technique::UniqueRectangleType2).unwrap();
    assert_eq!(step.rating, 4.5);
    let mut expected: Vec<(usize, u8)> = (2..9).map(|col| (cell(3, col), 3)).collect();
    expected.extend(
        [4, 5]
            .iter()
            .flat_map(|&row| (0..3).map(move |col| (cell(row, col), 3))),
    );
    let mut removed = step.eliminations.clone();
    removed.sort_unstable();
    expected.sort_unstable();
    assert_eq!(removed, expected);
}

#[test]
fn a_unique_rectangle_of_type_four_keeps_the_locked_digit_in_its_extra_corners() {
    // {1,2} in r1c1 and r1c2, {1,2,3} in r4c1 and {1,2,4} in r4c2, and 1 in
    // row 4 nowhere else: one of the two holds 1, so neither holds 2.
    let mut removals = vec![
        (cell(0, 0), "3456789"),
        (cell(0, 1), "3456789"),
        (cell(3, 0), "456789"),
        (cell(3, 1), "356789"),
    ];
    removals.extend((2..9).map(|col| (cell(3, col), "1")));
    let step = logic::find(&grid(&removals), Technique::UniqueRectangleType4).unwrap();
    let mut removed = step.eliminations.clone();
    removed.sort_unstable();
    assert_eq!(removed, [(cell(3, 0), 2), (cell(3, 1), 2)]);
    // Without the lock it is no type 4.
    removals.pop();
    assert_eq!(
        logic::find(&grid(&removals), Technique::UniqueRectangleType4),
        None
    );
}

const BUG_PUZZLE: &str =
    "........63...5.8........2.....72..69.7..9.1.2..3.......174.5........8....6...93.7";
const BUG_MARKS: &str = "17 25 19 3 8 27 4 59 6 3 24 46 9 5 26 8 7 1 67 58 89 1 4 67 2 59 3 18 48 148 7 2 3 5 6 9 56 7 56 8 9 4 1 3 2 2 9 3 5 6 1 7 8 4 9 1 7 4 3 5 6 2 8 4 3 2 6 7 8 9 1 5 58 6 58 2 1 9 3 4 7";

#[test]
fn bug_plus_one_places_the_digit_with_three_places() {
    let (pencil, solution) = position(BUG_PUZZLE, BUG_MARKS);
    let step = logic::find(&pencil, Technique::BugPlusOne).unwrap();
    // r4c3 holds {1,4,8}; 8 has three places in its row, column and box.
    assert_eq!(step.placements, [(cell(3, 2), 8)]);
    assert_eq!(solution[cell(3, 2)], 8);
    // With a second cell of three candidates it is no BUG+1: r1c1 {1,7} gets 9.
    let marks = BUG_MARKS.replacen("17", "179", 1);
    let two_extra = Pencil::parse(&marks).unwrap();
    assert_eq!(logic::find(&two_extra, Technique::BugPlusOne), None);
}

#[test]
fn forcing_chains_remove_a_candidate_whose_assumption_breaks_the_grid() {
    let cases = [
        (
            Technique::NishioForcingChain,
            "......4..2.........7....1636.9.5.....18.29....2..6..8.....935.19......4......1..2",
            "1 89 6 578 3 578 4 2 5789 2 3489 34 45678 1 45678 789 59 5789 458 7 45 9 48 2 1 6 3 6 34 9 3478 5 478 2 1 47 3457 1 8 347 2 9 367 35 4567 3457 2 3457 1 6 47 379 8 4579 48 468 2 468 9 3 5 7 1 9 3568 1 2 7 568 368 4 68 3478 34568 347 4568 48 1 3689 39 2",
            (cell(3, 1), 3),
        ),
        (
            Technique::DynamicForcingChain,
            "69.....1.........6.2....37.2...65......8...4.8....32.7.41..9......1...6...3..8..4",
            "6 9 578 3 24578 247 458 1 258 14 3 578 24579 1245789 1247 4589 2589 6 14 2 58 459 14589 6 3 7 589 2 17 4 79 6 5 89 389 1389 3 157 9 8 127 127 6 4 15 8 15 6 49 149 3 2 59 7 57 4 1 6 2357 9 578 2358 2358 579 8 2 1 3457 47 579 6 359 579 6 3 257 257 8 1 259 4",
            (cell(4, 1), 5),
        ),
        (
            Technique::DynamicForcingChainPlus,
            "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
            "7 126 8 459 4569 4569 3 1456 125 49 36 3469 2 3456 1 4679 4578 578 5 1236 123469 78 346 78 2469 146 129 189 4 1579 3579 59 3579 178 2 6 3 1267 1269 479 8 24679 147 1457 157 268 578 2567 1 2456 2467 478 9 3 128 9 1357 6 125 2358 127 1378 4 12468 12368 12346 3489 7 23489 5 1368 1289 12468 3578 1234567 34589 1249 234589 12679 13678 12789",
            (cell(2, 2), 3),
        ),
    ];
    for (technique, puzzle, marks, removed) in cases {
        let (pencil, solution) = position(puzzle, marks);
        let step = logic::find(&pencil, technique).unwrap();
        assert_eq!(step.eliminations, [removed], "{technique:?}");
        assert_ne!(solution[removed.0], removed.1, "{technique:?}");
        assert!(step.rating >= technique.rating(), "{technique:?}");
        // Nothing breaks on a grid where every digit may go anywhere.
        assert_eq!(logic::find(&grid(&[]), technique), None, "{technique:?}");
    }
}

/// The rows, columns and boxes of a 9x9 grid, as cell lists.
fn houses() -> Vec<Vec<usize>> {
    let mut houses = Vec::new();
    for i in 0..9 {
        houses.push((0..9).map(|c| cell(i, c)).collect());
        houses.push((0..9).map(|r| cell(r, i)).collect());
        houses.push(
            (0..9)
                .map(|k| cell(i / 3 * 3 + k / 3, i % 3 * 3 + k % 3))
                .collect(),
        );
    }
    houses
}

fn see(a: usize, b: usize) -> bool {
    a != b && houses().iter().any(|h| h.contains(&a) && h.contains(&b))
}

/// Checks that `links` form one chain (each link starts where the last ended),
/// weak and strong in turn from `first_strong`, each between candidates that can
/// be linked so: a weak link joins two digits of a cell or one digit in cells
/// that see each other; a strong one the same, and when `on` is given, the
/// candidates are the only two of their cell or of a house there.
fn check_chain(links: &[logic::Link], first_strong: bool, on: Option<&Pencil>, what: &str) {
    assert!(!links.is_empty(), "{what}: no links");
    for (i, link) in links.iter().enumerate() {
        assert_eq!(
            link.strong,
            (i % 2 == 0) == first_strong,
            "{what}: link {i} {link:?}"
        );
        if let Some(next) = links.get(i + 1) {
            assert_eq!(
                link.end,
                next.start,
                "{what}: links {i} and {} do not join",
                i + 1
            );
        }
        let ((a, x), (b, y)) = (link.start, link.end);
        let joined = (a == b && x != y) || (x == y && see(a, b));
        assert!(
            joined,
            "{what}: link {i} {link:?} joins unrelated candidates"
        );
        if let (true, Some(pencil)) = (link.strong, on) {
            let only_two = if a == b {
                pencil.candidates(a).count_ones() == 2
            } else {
                houses().iter().any(|h| {
                    h.contains(&a)
                        && h.contains(&b)
                        && h.iter()
                            .filter(|&&c| pencil.candidates(c) & (1 << (x - 1)) != 0)
                            .count()
                            == 2
                })
            };
            assert!(only_two, "{what}: link {i} {link:?} is not strong");
        }
    }
}

/// Checks the links of a contradiction: branches from the `assumption`, each
/// link starting at the assumption or where an earlier link ended, weak from a
/// candidate made true (the assumption, the end of a strong link) and strong from
/// one made false (the end of a weak link), every branch ending at a removal.
/// A group (pointing or claiming in a dynamic chain) shows as its members:
/// strong links into each from the removal that locked it, weak links from
/// each to what it removes.
fn check_net(links: &[logic::Link], assumption: (usize, u8), what: &str) {
    assert!(!links.is_empty(), "{what}: no links");
    assert_eq!(
        links[0].start, assumption,
        "{what}: the first link leaves the assumption"
    );
    let mut on = vec![assumption];
    let mut off = Vec::new();
    for (i, link) in links.iter().enumerate() {
        let ((a, x), (b, y)) = (link.start, link.end);
        assert!(
            (a == b && x != y) || (x == y && see(a, b)),
            "{what}: link {i} {link:?}"
        );
        if link.strong {
            assert!(
                off.contains(&link.start),
                "{what}: strong link {i} from nowhere"
            );
            on.push(link.end);
        } else {
            assert!(
                on.contains(&link.start),
                "{what}: weak link {i} from a candidate not made true"
            );
            off.push(link.end);
        }
    }
    // Every candidate made true leads on: the branches end at removals.
    let ends: Vec<_> = links.iter().filter(|l| l.strong).map(|l| l.end).collect();
    for end in ends {
        assert!(
            links.iter().any(|l| l.start == end),
            "{what}: a branch ends at {end:?}, made true"
        );
    }
}

#[test]
fn forcing_chains_show_the_chain_from_the_assumption_to_the_contradiction() {
    let cases = [
        (
            Technique::NishioForcingChain,
            "......4..2.........7....1636.9.5.....18.29....2..6..8.....935.19......4......1..2",
            "1 89 6 578 3 578 4 2 5789 2 3489 34 45678 1 45678 789 59 5789 458 7 45 9 48 2 1 6 3 6 34 9 3478 5 478 2 1 47 3457 1 8 347 2 9 367 35 4567 3457 2 3457 1 6 47 379 8 4579 48 468 2 468 9 3 5 7 1 9 3568 1 2 7 568 368 4 68 3478 34568 347 4568 48 1 3689 39 2",
        ),
        (
            Technique::DynamicForcingChain,
            "69.....1.........6.2....37.2...65......8...4.8....32.7.41..9......1...6...3..8..4",
            "6 9 578 3 24578 247 458 1 258 14 3 578 24579 1245789 1247 4589 2589 6 14 2 58 459 14589 6 3 7 589 2 17 4 79 6 5 89 389 1389 3 157 9 8 127 127 6 4 15 8 15 6 49 149 3 2 59 7 57 4 1 6 2357 9 578 2358 2358 579 8 2 1 3457 47 579 6 359 579 6 3 257 257 8 1 259 4",
        ),
        (
            Technique::DynamicForcingChainPlus,
            "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
            "7 126 8 459 4569 4569 3 1456 125 49 36 3469 2 3456 1 4679 4578 578 5 1236 123469 78 346 78 2469 146 129 189 4 1579 3579 59 3579 178 2 6 3 1267 1269 479 8 24679 147 1457 157 268 578 2567 1 2456 2467 478 9 3 128 9 1357 6 125 2358 127 1378 4 12468 12368 12346 3489 7 23489 5 1368 1289 12468 3578 1234567 34589 1249 234589 12679 13678 12789",
        ),
    ];
    for (technique, puzzle, marks) in cases {
        let (pencil, _) = position(puzzle, marks);
        let step = logic::find(&pencil, technique).unwrap();
        let what = format!("{technique:?}");
        check_net(&step.links, step.eliminations[0], &what);
        // Every candidate of the chain is one of the position's.
        for link in &step.links {
            for (c, d) in [link.start, link.end] {
                assert_ne!(
                    pencil.candidates(c) & (1 << (d - 1)),
                    0,
                    "{what}: r{}c{}={d}",
                    c / 9 + 1,
                    c % 9 + 1
                );
            }
        }
    }
}

#[test]
fn wings_and_linked_pairs_show_their_chains() {
    let pencil = xy_wing_grid();
    let step = logic::find(&pencil, Technique::XyWing).unwrap();
    check_chain(&step.links, true, Some(&pencil), "xy-wing");
    // From one pincer's 3 to the other's, through the pivot.
    assert_eq!(step.links.len(), 5);
    let ends = [step.links[0].start, step.links[4].end];
    assert!(
        ends.iter().all(|&(c, d)| d == 3 && c != cell(0, 0)),
        "{ends:?}"
    );

    let pencil = skyscraper_grid();
    let step = logic::find(&pencil, Technique::Skyscraper).unwrap();
    check_chain(&step.links, true, Some(&pencil), "skyscraper");
    assert_eq!(step.links.len(), 3);

    let pencil = kite_grid();
    let step = logic::find(&pencil, Technique::TwoStringKite).unwrap();
    check_chain(&step.links, true, Some(&pencil), "2-string kite");
    // Each end sees the cell that loses the digit.
    let target = step.eliminations[0].0;
    assert!(see(step.links[0].start.0, target) && see(step.links[2].end.0, target));
}

#[test]
fn a_chain_reads_as_text_branch_by_branch() {
    use sudokud::logic::{Link, LogicStep};
    let mut step = LogicStep::eliminating(Technique::ForcingChain, vec![(0, 5)], vec![(0, 5)]);
    assert_eq!(step.chain_text(9), "");
    let link = |start, end, strong| Link { start, end, strong };
    step.links = vec![
        link((0, 5), (1, 5), false),
        link((1, 5), (1, 7), true),
        link((1, 7), (10, 7), false),
        link((0, 5), (0, 2), false),
    ];
    assert_eq!(
        step.chain_text(9),
        "r1c1=5 - r1c2=5 = r1c2=7 - r2c2=7; r1c1=5 - r1c1=2"
    );
}

/// Checks a cycle or static forcing chain against the grid it was found on:
/// one chain of links, weak first from a candidate assumed true (strong first
/// from one assumed false), every strong link strong on that grid; a forcing
/// chain ends at the opposite of its start, which it removes or places; a
/// cycle comes back to its start and removes candidates outside its cells.
fn check_static_chain(step: &logic::LogicStep, pencil: &Pencil) {
    let what = step.to_string();
    let links = &step.links;
    let start = links[0].start;
    assert_eq!(
        links.last().unwrap().end,
        start,
        "{what}: does not come back"
    );
    let cycle = matches!(
        step.technique,
        Technique::BidirectionalXCycle
            | Technique::BidirectionalYCycle
            | Technique::BidirectionalCycle
    );
    let placed = !step.placements.is_empty();
    check_chain(links, placed, Some(pencil), &what);
    if cycle {
        let cells: Vec<usize> = links.iter().map(|l| l.start.0).collect();
        assert!(
            step.eliminations.iter().all(|(c, _)| !cells.contains(c)),
            "{what}"
        );
        assert!(
            links.last().unwrap().strong && links.len().is_multiple_of(2),
            "{what}"
        );
    } else if placed {
        assert_eq!(step.placements, [start], "{what}");
    } else {
        assert_eq!(step.eliminations, [start], "{what}");
    }
    let one_digit = links.iter().all(|l| l.start.1 == start.1);
    let bivalue = links.iter().all(|l| !l.strong || l.start.0 == l.end.0);
    match step.technique {
        Technique::BidirectionalXCycle | Technique::ForcingXChain => assert!(one_digit, "{what}"),
        Technique::BidirectionalYCycle => assert!(bivalue, "{what}"),
        _ => {}
    }
}

/// Checks a cell or region forcing chain against the grid it was found on:
/// branches one after another, each a chain from a start taken as true to the
/// target, strong links strong on that grid; the starts are every digit of a
/// cell, or every place of a digit in a house.
fn check_multiple_chain(step: &logic::LogicStep, pencil: &Pencil) {
    let what = step.to_string();
    let target = *step
        .eliminations
        .first()
        .or(step.placements.first())
        .unwrap();
    let mut branches: Vec<&[logic::Link]> = Vec::new();
    let mut from = 0;
    for (i, link) in step.links.iter().enumerate() {
        if link.end == target && step.links.get(i + 1).is_none_or(|l| l.start != target) {
            branches.push(&step.links[from..=i]);
            from = i + 1;
        }
    }
    assert_eq!(
        from,
        step.links.len(),
        "{what}: a branch does not reach the target"
    );
    let starts: Vec<(usize, u8)> = branches.iter().map(|b| b[0].start).collect();
    for branch in &branches {
        check_chain(branch, false, Some(pencil), &what);
    }
    let digits =
        |cell: usize| (1..=9u8).filter(move |d| pencil.candidates(cell) & (1 << (d - 1)) != 0);
    if step.technique == Technique::CellForcingChain {
        let cell = starts[0].0;
        let all: Vec<(usize, u8)> = digits(cell).map(|d| (cell, d)).collect();
        assert_eq!(starts, all, "{what}");
    } else {
        let digit = starts[0].1;
        let places = |h: &Vec<usize>| -> Vec<(usize, u8)> {
            h.iter()
                .filter(|&&c| pencil.candidates(c) & (1 << (digit - 1)) != 0)
                .map(|&c| (c, digit))
                .collect()
        };
        assert!(houses().iter().any(|h| places(h) == starts), "{what}");
    }
}

#[test]
fn cycles_and_static_forcing_chains_follow_the_links_of_their_grid() {
    let kinds = [
        Technique::BidirectionalXCycle,
        Technique::BidirectionalYCycle,
        Technique::ForcingXChain,
        Technique::BidirectionalCycle,
        Technique::ForcingChain,
        Technique::CellForcingChain,
        Technique::RegionForcingChain,
    ];
    let mut met = [0usize; 7];
    let puzzles = common::puzzles("magictour_top1465.txt");
    for puzzle in puzzles.iter().step_by(5).take(300) {
        let board = Board::parse(puzzle).unwrap();
        let mut pencil = Pencil::new(&board);
        for step in &logic::explain(&board).steps {
            match kinds.iter().position(|&t| t == step.technique) {
                Some(kind @ 0..=4) => {
                    met[kind] += 1;
                    check_static_chain(step, &pencil);
                }
                Some(kind) => {
                    met[kind] += 1;
                    check_multiple_chain(step, &pencil);
                }
                None => {}
            }
            logic::apply(&mut pencil, step);
        }
    }
    eprintln!("cycles and static chains met: {met:?}");
    for kind in [0, 2, 4, 5, 6] {
        assert!(met[kind] > 0, "no {:?} met", kinds[kind]);
    }
}

#[test]
fn aligned_pair_exclusion_rests_on_bivalue_cells_seeing_both_cells() {
    let mut met = 0;
    let lines = common::puzzles("se_rated_hardest.txt");
    for line in lines.iter().take(40) {
        let puzzle = line.rsplit('|').next().unwrap();
        let board = Board::parse(puzzle).unwrap();
        let report =
            solver::count_solutions(&board, Algorithm::Propagation, &Control::UNLIMITED).unwrap();
        let solution = *report.solution.unwrap().cells();
        let mut pencil = Pencil::new(&board);
        for step in &logic::explain(&board).steps {
            if step.technique == Technique::AlignedPairExclusion {
                met += 1;
                let mut cells: Vec<usize> = step.pattern.iter().map(|c| c.0).collect();
                cells.dedup();
                let (bases, excluders) = cells.split_at(2);
                assert!(excluders.len() >= 2, "{step}");
                for &cell in excluders {
                    assert_eq!(pencil.candidates(cell).count_ones(), 2, "{step}");
                    assert!(bases.iter().all(|&b| see(b, cell)), "{step}");
                }
                for &(cell, digit) in &step.eliminations {
                    assert!(bases.contains(&cell), "{step}");
                    assert_ne!(solution[cell], digit, "{puzzle}: {step}");
                }
            }
            logic::apply(&mut pencil, step);
        }
    }
    assert!(met > 0, "no aligned pair exclusion met");
}

#[test]
fn the_nested_levels_finish_puzzles_sudoku_explainer_rates_eleven_and_a_half() {
    // The first of the hardest list that SE rates 11.5 or more: beyond the
    // first nested level, each step checked against the solution.
    let lines = common::puzzles("se_rated_hardest.txt");
    let line = lines
        .iter()
        .find(|line| {
            let rating = line.split('/').next().unwrap();
            rating.parse::<f64>().unwrap() >= 11.5
        })
        .unwrap();
    let puzzle = line.rsplit('|').next().unwrap();
    let board = Board::parse(puzzle).unwrap();
    let report =
        solver::count_solutions(&board, Algorithm::Propagation, &Control::UNLIMITED).unwrap();
    let solution = *report.solution.unwrap().cells();
    let explained = logic::explain(&board);
    assert!(explained.solved(), "{puzzle}: the ladder did not finish");
    let mut deepest = Technique::FullHouse;
    for step in &explained.steps {
        for &(cell, digit) in &step.placements {
            assert_eq!(solution[cell], digit, "{puzzle}: {step}");
        }
        for &(cell, digit) in &step.eliminations {
            assert_ne!(solution[cell], digit, "{puzzle}: {step}");
        }
        deepest = deepest.max(step.technique);
    }
    assert!(
        deepest >= Technique::NestedMultipleForcingChain,
        "{puzzle}: {deepest:?}"
    );
}

#[test]
fn dynamic_cell_and_region_forcing_chains_start_a_branch_at_every_member() {
    // Puzzles SE rates 9.0 to 9.5: where no contradiction is found, every
    // digit of a cell (or place of a digit in a house) is tried, and what all
    // the trials make is taken; each branch of singles starts at its member.
    let lines = common::puzzles("se_rated_hardest.txt");
    let dynamic = [
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
    ];
    let mut met = 0;
    for line in lines.iter().filter(|line| {
        let rating: f64 = line.split('/').next().unwrap().parse().unwrap();
        (9.0..=9.5).contains(&rating)
    }) {
        let puzzle = line.rsplit('|').next().unwrap();
        let board = Board::parse(puzzle).unwrap();
        let report =
            solver::count_solutions(&board, Algorithm::Propagation, &Control::UNLIMITED).unwrap();
        let solution = *report.solution.unwrap().cells();
        for step in &logic::explain(&board).steps {
            if !dynamic.contains(&step.technique) || step.pattern.len() < 2 {
                continue;
            }
            met += 1;
            assert_eq!(step.placements.len() + step.eliminations.len(), 1, "{step}");
            for &(cell, digit) in &step.placements {
                assert_eq!(solution[cell], digit, "{puzzle}: {step}");
            }
            for &(cell, digit) in &step.eliminations {
                assert_ne!(solution[cell], digit, "{puzzle}: {step}");
            }
            if step.technique != Technique::DynamicForcingChain {
                continue; // a trial that moved by a group or a nested chain starts its chain there
            }
            let starts: Vec<_> = step.links.iter().map(|link| link.start).collect();
            for member in &step.pattern {
                assert!(
                    starts.contains(member),
                    "{puzzle}: {step}: no branch from {member:?}"
                );
            }
        }
    }
    assert!(met > 0, "no dynamic cell or region forcing chain met");
}
