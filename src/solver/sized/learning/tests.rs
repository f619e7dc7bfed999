//! The learning search on its own: solutions, counts, replays, exclusion.

use std::collections::VecDeque;

use super::Learning;
use crate::board::{Grid, Shape};
use crate::solver::{Control, Event, Flow, Found, Recorder, Replay, Stats, Status};

/// Runs the learning search to its end with events replayed; the count,
/// the first solution and the replayed grid.
fn search(grid: &Grid, excluded: Option<Vec<u8>>, wanted: u32) -> (u32, Option<Vec<u8>>, Vec<u8>) {
    let mut learning = Learning::new(grid, excluded);
    let mut found = Found::new(wanted);
    let mut replay = Replay::sized(grid);
    let mut sink = |event: Event| {
        replay.apply(event).expect("the events replay");
        Flow::Continue
    };
    let control = Control {
        slice_steps: 5_000,
        ..Control::UNTIMED
    };
    let mut held = VecDeque::new();
    let mut stats = Stats::default();
    // Paused runs go on where they stopped, as a stream's slices do.
    for _ in 0..100_000 {
        let mut recorder = Recorder::resume(&mut sink, &control, stats, &mut held);
        let status = learning.run(&mut recorder, &mut found).expect("no limit");
        stats = recorder.stats;
        assert!(held.is_empty());
        if status == Status::Done {
            return (
                found.count,
                found.first_sized.clone(),
                replay.cells().to_vec(),
            );
        }
    }
    panic!("the search never ended");
}

/// A full grid of `shape`: the pattern grid with its digits, rows within
/// bands and columns within stacks shuffled by `seed`.
fn full_grid(shape: Shape, seed: u64) -> Vec<u8> {
    let (rows, cols, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    let mut state = seed | 1;
    let mut next = move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    let mut digits: Vec<usize> = (1..=n).collect();
    for i in (1..n).rev() {
        digits.swap(i, next(i + 1));
    }
    let mut row_order: Vec<usize> = (0..n).collect();
    for band in 0..cols {
        for i in (1..rows).rev() {
            row_order.swap(band * rows + i, band * rows + next(i + 1));
        }
    }
    let mut col_order: Vec<usize> = (0..n).collect();
    for stack in 0..rows {
        for i in (1..cols).rev() {
            col_order.swap(stack * cols + i, stack * cols + next(i + 1));
        }
    }
    let pattern = |r: usize, c: usize| (cols * (r % rows) + r / rows + c) % n;
    row_order
        .iter()
        .flat_map(|&r| col_order.iter().map(move |&c| (r, c)))
        .map(|(r, c)| digits[pattern(r, c)] as u8)
        .collect()
}

/// Whether `cells` fills every house of `shape` with 1..=N and keeps `givens`.
fn fills(shape: Shape, givens: &[u8], cells: &[u8]) -> bool {
    let geometry = shape.geometry();
    let n = shape.size();
    let houses_full = geometry.units.chunks(n).all(|house| {
        let mask = house
            .iter()
            .fold(0u64, |m, &c| m | 1u64 << (cells[usize::from(c)] - 1));
        mask == shape.all_digits()
    });
    houses_full && givens.iter().zip(cells).all(|(&g, &c)| g == 0 || g == c)
}

#[test]
fn solves_counts_and_replays_at_several_shapes() {
    for (rows, cols, seed) in [
        (2, 3, 3),
        (3, 2, 5),
        (2, 4, 7),
        (3, 4, 11),
        (4, 4, 13),
        (5, 5, 17),
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        let full = full_grid(shape, seed);
        // Every third cell given: usually several solutions.
        let givens: Vec<u8> = full
            .iter()
            .enumerate()
            .map(|(i, &d)| if i % 3 == 0 { d } else { 0 })
            .collect();
        let grid = Grid::checked(shape, givens.clone()).unwrap();
        let (count, solution, replayed) = search(&grid, None, 1);
        let solution = solution.expect("a solution");
        assert_eq!(count, 1);
        assert!(fills(shape, &givens, &solution), "{shape}");
        assert_eq!(
            replayed, solution,
            "{shape}: the replay ends on the solution"
        );
        // Counting to two, and with the full grid's digits as givens but one
        // house's: the count agrees with a search that excludes the first.
        let (count, first, replayed) = search(&grid, None, 2);
        let (others, _, _) = search(&grid, first.clone(), 2);
        assert_eq!(count.min(2), (1 + others).min(2), "{shape}");
        if count < 2 {
            assert_eq!(replayed, givens, "{shape}: exhausted, back to the givens");
        }
    }
}

#[test]
fn a_unique_grid_counts_one_and_nothing_past_its_solution() {
    // 64x64: every bit of a group's members in use.
    for (rows, cols) in [(4, 4), (8, 8)] {
        let shape = Shape::new(rows, cols).unwrap();
        let full = full_grid(shape, 23);
        // A full grid with one box emptied has one solution.
        let givens: Vec<u8> = full
            .iter()
            .enumerate()
            .map(|(i, &d)| if shape.box_of(i) == 5 { 0 } else { d })
            .collect();
        let grid = Grid::checked(shape, givens.clone()).unwrap();
        let (count, solution, replayed) = search(&grid, None, 2);
        assert_eq!((count, solution.as_deref()), (1, Some(&full[..])));
        assert_eq!(replayed, givens);
        let (count, solution, _) = search(&grid, Some(full.clone()), 2);
        assert_eq!((count, solution), (0, None));
    }
}

#[test]
fn a_grid_without_a_solution_ends_unsolved_at_its_givens() {
    let shape = Shape::new(2, 3).unwrap();
    let n = shape.size();
    let full = full_grid(shape, 29);
    // The first row but its last cell, and that cell's digit lower down its
    // column: no clash among the givens, but no digit for that cell.
    let mut givens = vec![0; n * n];
    givens[..n - 1].copy_from_slice(&full[..n - 1]);
    givens[shape.box_rows() * n + n - 1] = full[n - 1];
    let grid = Grid::checked(shape, givens.clone()).unwrap();
    let (count, solution, replayed) = search(&grid, None, 2);
    assert_eq!((count, solution), (0, None));
    assert_eq!(replayed, givens);
}

#[test]
fn every_learned_clause_follows_by_propagation_from_the_rules_and_those_before_it() {
    // Each clause, set all false on the givens with the facts and the clauses
    // learned before it, must end in a dead end by propagation alone: what
    // first-UIP learning guarantees, and what shortening a clause must keep.
    let shape = Shape::new(5, 5).unwrap();
    let full = full_grid(shape, 31);
    let givens: Vec<u8> = full
        .iter()
        .enumerate()
        .map(|(i, &d)| if i % 5 == 1 { d } else { 0 })
        .collect();
    let grid = Grid::checked(shape, givens).unwrap();
    let mut learning = Learning::new(&grid, None);
    let mut found = Found::new(1);
    let mut sink = |_: Event| Flow::Continue;
    let mut held = VecDeque::new();
    let mut recorder = Recorder::resume(&mut sink, &Control::UNTIMED, Stats::default(), &mut held);
    let status = learning.run(&mut recorder, &mut found).expect("no limit");
    assert_eq!(status, Status::Done);
    let clauses: Vec<Vec<u32>> = learning
        .clauses
        .all()
        .map(|c| learning.clauses.lits(c).to_vec())
        .collect();
    assert!(clauses.len() > 20, "{} clauses", clauses.len());
    let facts: Vec<u32> = learning.trail[..learning.levels.first().copied().unwrap_or(0)]
        .iter()
        .copied()
        .filter(|&lit| learning.why[(lit >> 1) as usize] == super::Why::Learned)
        .collect();
    let mut checker = Learning::new(&grid, None);
    assert!(checker.start(&mut recorder).unwrap().is_none());
    for lit in facts {
        assert!(
            checker
                .assign(&mut recorder, lit, super::Why::Learned)
                .unwrap()
                .is_none()
        );
    }
    assert!(checker.propagate(&mut recorder).unwrap().is_none());
    for lits in clauses {
        checker.levels.push(checker.trail.len());
        let mut dead_end = false;
        for &lit in &lits {
            dead_end |= checker
                .assign(&mut recorder, lit ^ 1, super::Why::Decision)
                .unwrap()
                .is_some();
        }
        dead_end |= checker.propagate(&mut recorder).unwrap().is_some();
        assert!(dead_end, "{lits:?} does not follow");
        checker.jump(&mut recorder, 0).unwrap();
        checker.learnt = lits;
        checker.learn(true);
    }
}

#[test]
fn a_cut_is_where_a_line_crosses_a_box_from_either_side() {
    let shape = Shape::new(3, 4).unwrap();
    let geometry = shape.geometry();
    let tables = super::tables::Tables::of(geometry);
    let n = shape.size();
    let cells = |house: u16, mask: u64| -> Vec<u16> {
        let units = &geometry.units[usize::from(house) * n..][..n];
        (0..n)
            .filter(|&slot| mask >> slot & 1 == 1)
            .map(|slot| units[slot])
            .collect::<std::collections::BTreeSet<u16>>()
            .into_iter()
            .collect()
    };
    // Each row crosses three boxes in four cells, each column four boxes in
    // three; each box crosses its three rows and four columns.
    let sizes: Vec<(u16, u32)> = tables
        .cuts
        .iter()
        .map(|c| (c.house, c.own.count_ones()))
        .collect();
    let of = |house: u16| {
        sizes
            .iter()
            .filter(|&&(h, _)| h == house)
            .map(|&(_, k)| k)
            .collect::<Vec<_>>()
    };
    assert_eq!(of(0), vec![4; 3]);
    assert_eq!(of(n as u16), vec![3; 4]);
    let mut boxed = of(2 * n as u16);
    boxed.sort_unstable();
    assert_eq!(boxed, [3, 3, 3, 3, 4, 4, 4]);
    for cut in &tables.cuts {
        assert_eq!(cells(cut.house, cut.own), cells(cut.other_house, cut.other));
    }
}
