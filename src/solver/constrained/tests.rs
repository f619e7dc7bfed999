//! The constrained engine against an enumeration written here from the rules'
//! definitions: at 4x4 every Latin square filtered by the rules (so counts and
//! true candidates are exact), at 6x6 a plain backtracking counter; random
//! rule sets of every kind and their combinations; events replayed.

use std::sync::Arc;

use crate::board::{Cage, Layout, Shape, Variant};
use crate::solver::{Algorithm, Control, Event, Flow, Mode, Progress, Replay, Search};

/// xorshift, seeded.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Every group whose digits must differ, from the rules' definitions.
fn groups(shape: Shape, variant: &Variant) -> Vec<Vec<usize>> {
    let n = shape.size();
    let mut groups = Vec::new();
    for k in 0..n {
        groups.push((0..n).map(|c| k * n + c).collect());
        groups.push((0..n).map(|r| r * n + k).collect());
    }
    for area in 0..n {
        groups.push(
            (0..n * n)
                .filter(|&cell| match &variant.regions {
                    Some(regions) => usize::from(regions[cell]) == area,
                    None => shape.box_of(cell) == area,
                })
                .collect(),
        );
    }
    if variant.diagonal {
        groups.push((0..n).map(|k| k * n + k).collect());
        groups.push((0..n).map(|k| k * n + n - 1 - k).collect());
    }
    for list in variant
        .extra_regions
        .iter()
        .chain(variant.cages.iter().map(|cage| &cage.cells))
    {
        groups.push(list.iter().map(|&cell| cell as usize).collect());
    }
    groups
}

/// True when the filled cells break no rule (a full grid: when it obeys all).
fn consistent(shape: Shape, variant: &Variant, cells: &[u8]) -> bool {
    let n = shape.size() as isize;
    for group in groups(shape, variant) {
        let digits: Vec<u8> = group
            .iter()
            .map(|&c| cells[c])
            .filter(|&d| d != 0)
            .collect();
        if (1..digits.len()).any(|i| digits[..i].contains(&digits[i])) {
            return false;
        }
    }
    for a in 0..cells.len() {
        for b in 0..cells.len() {
            let (ra, ca, rb, cb) = (
                a as isize / n,
                a as isize % n,
                b as isize / n,
                b as isize % n,
            );
            let (dr, dc) = ((ra - rb).abs(), (ca - cb).abs());
            if cells[a] == 0 || cells[b] == 0 || a == b {
                continue;
            }
            let knight = (dr, dc) == (1, 2) || (dr, dc) == (2, 1);
            let king = dr <= 1 && dc <= 1;
            if (variant.anti_knight && knight || variant.anti_king && king) && cells[a] == cells[b]
            {
                return false;
            }
            if variant.non_consecutive && dr + dc == 1 && cells[a].abs_diff(cells[b]) == 1 {
                return false;
            }
        }
    }
    for cage in variant.cages.iter().filter(|cage| cage.sum != 0) {
        let digits: Vec<u32> = cage
            .cells
            .iter()
            .map(|&c| u32::from(cells[c as usize]))
            .collect();
        let total: u32 = digits.iter().sum();
        let full = digits.iter().all(|&d| d != 0);
        if (full && total != cage.sum) || total > cage.sum {
            return false;
        }
    }
    for line in &variant.thermometers {
        let filled: Vec<(usize, u8)> = line
            .iter()
            .enumerate()
            .map(|(i, &c)| (i, cells[c as usize]))
            .filter(|&(_, d)| d != 0)
            .collect();
        if filled
            .windows(2)
            .any(|w| usize::from(w[1].1) < usize::from(w[0].1) + (w[1].0 - w[0].0))
        {
            return false;
        }
    }
    true
}

/// Every solution of `givens` under the rules, by backtracking cell by cell.
fn solutions(shape: Shape, variant: &Variant, givens: &[u8]) -> Vec<Vec<u8>> {
    let n = shape.size() as u8;
    let mut found = Vec::new();
    let mut cells = givens.to_vec();
    let empties: Vec<usize> = (0..cells.len()).filter(|&c| givens[c] == 0).collect();
    if !consistent(shape, variant, &cells) {
        return found;
    }
    let mut at = 0usize;
    loop {
        if at == empties.len() {
            found.push(cells.clone());
            if at == 0 {
                return found;
            }
            at -= 1;
        }
        let cell = empties[at];
        let mut next = cells[cell] + 1;
        cells[cell] = 0;
        while next <= n {
            cells[cell] = next;
            if consistent(shape, variant, &cells) {
                break;
            }
            cells[cell] = 0;
            next += 1;
        }
        if cells[cell] != 0 {
            at += 1;
        } else if at == 0 {
            return found;
        } else {
            at -= 1;
        }
    }
}

/// A random Latin-square-free full grid of the shape obeying its boxes or
/// regions: the first solution of a random-order search.
fn random_fill(shape: Shape, variant: &Variant, rng: &mut Rng) -> Option<Vec<u8>> {
    let plain = Variant {
        regions: variant.regions.clone(),
        ..Variant::default()
    };
    let mut givens = vec![0u8; shape.cells()];
    // A few random digits first, then the first completion.
    for _ in 0..shape.size() {
        let cell = rng.below(givens.len());
        givens[cell] = rng.below(shape.size()) as u8 + 1;
        if !consistent(shape, &plain, &givens) {
            givens[cell] = 0;
        }
    }
    let layout = Arc::new(Layout::new(shape, plain));
    let mut search = Search::constrained(layout, &givens, Algorithm::Wide, Mode::First)?;
    let report = search
        .finish(&Control::UNTIMED, &mut crate::solver::NoEvents)
        .ok()?;
    report.cells().map(<[u8]>::to_vec)
}

/// Random jigsaw regions: the boxes with border cells swapped between
/// neighbouring regions while every region stays one piece.
fn random_regions(shape: Shape, rng: &mut Rng) -> Vec<u8> {
    let n = shape.size();
    let mut regions: Vec<u8> = (0..n * n).map(|cell| shape.box_of(cell) as u8).collect();
    for _ in 0..40 {
        let a = rng.below(n * n);
        let b = if rng.chance(50) && a % n + 1 < n {
            a + 1
        } else {
            (a + n) % (n * n)
        };
        if regions[a] == regions[b] {
            continue;
        }
        // Swap a with a cell of b's region next to a's region, keeping sizes.
        let before = regions.clone();
        regions.swap(a, b);
        let candidate = Variant {
            regions: Some(regions.clone()),
            ..Variant::default()
        };
        if candidate.check(shape).is_err() {
            regions = before;
        }
    }
    regions
}

/// Random rules of every kind, the sums and thermometers read off `solution`
/// (so that most sets keep a solution), and givens taken from it.
fn random_puzzle(shape: Shape, rng: &mut Rng, givens: usize) -> Option<(Variant, Vec<u8>)> {
    let n = shape.size();
    let mut variant = Variant::default();
    if rng.chance(40) {
        variant.regions = Some(random_regions(shape, rng));
    }
    let solution = random_fill(shape, &variant, rng)?;
    variant.diagonal = rng.chance(25);
    variant.anti_king = rng.chance(20);
    variant.anti_knight = rng.chance(20);
    variant.non_consecutive = rng.chance(20);
    let mut caged = vec![false; n * n];
    for _ in 0..rng.below(4) {
        let mut cells = vec![rng.below(n * n)];
        if caged[cells[0] as usize] {
            continue;
        }
        caged[cells[0]] = true;
        for _ in 0..rng.below(3) {
            let from = cells[rng.below(cells.len())];
            let next = [
                from + 1,
                from + n,
                from.wrapping_sub(1),
                from.wrapping_sub(n),
            ][rng.below(4)];
            if next < n * n && !caged[next] && (next / n == from / n || next % n == from % n) {
                caged[next] = true;
                cells.push(next);
            }
        }
        let sum = cells.iter().map(|&c| u32::from(solution[c])).sum();
        variant.cages.push(Cage {
            cells: cells.iter().map(|&c| c as u32).collect(),
            sum: if rng.chance(80) { sum } else { 0 },
        });
    }
    for _ in 0..rng.below(3) {
        let mut line = vec![rng.below(n * n)];
        for _ in 0..1 + rng.below(3) {
            let last = *line.last()?;
            let (row, col) = ((last / n) as isize, (last % n) as isize);
            let (dr, dc) = (rng.below(3) as isize - 1, rng.below(3) as isize - 1);
            let (r, c) = (row + dr, col + dc);
            let next = (r * n as isize + c) as usize;
            if (0..n as isize).contains(&r)
                && (0..n as isize).contains(&c)
                && !line.contains(&next)
                && solution[next] > solution[last]
            {
                line.push(next);
            }
        }
        variant
            .thermometers
            .push(line.iter().map(|&c| c as u32).collect());
    }
    if rng.chance(25) {
        let region = (1..=n as u8)
            .map(|digit| {
                let places: Vec<usize> = (0..n * n).filter(|&c| solution[c] == digit).collect();
                places[rng.below(places.len())] as u32
            })
            .collect();
        variant.extra_regions.push(region);
    }
    variant.check(shape).ok()?;
    let mut cells = vec![0u8; n * n];
    for _ in 0..givens {
        let cell = rng.below(n * n);
        cells[cell] = solution[cell];
    }
    Some((variant, cells))
}

/// The engine's enumeration: solutions counted (up to `cap`) and each cell's
/// digits in them.
fn enumerate(shape: Shape, variant: &Variant, givens: &[u8], cap: u32) -> (u32, Vec<u64>) {
    let layout = Arc::new(Layout::new(shape, variant.clone()));
    let mut search =
        Search::constrained(layout, givens, Algorithm::Wide, Mode::Enumerate(cap)).unwrap();
    let report = search
        .finish(&Control::UNTIMED, &mut crate::solver::NoEvents)
        .unwrap();
    let seen = search.seen().map(<[u64]>::to_vec).unwrap_or_default();
    (report.solution_count, seen)
}

/// Checks the engine against the backtracking enumeration on `count` random
/// puzzles of `shape`.
fn check_against_enumeration(shape: Shape, seeds: std::ops::Range<u64>, givens: usize) {
    let mut checked = 0;
    for seed in seeds {
        let mut rng = Rng(seed * 0x9E37_79B9 + 1);
        let Some((variant, cells)) = random_puzzle(shape, &mut rng, givens) else {
            continue;
        };
        let expected = solutions(shape, &variant, &cells);
        let layout = Layout::new(shape, variant.clone());
        if layout.first_clash(&cells).is_some() {
            assert!(expected.is_empty(), "seed {seed}: clashing givens solved");
            continue;
        }
        let (count, seen) = enumerate(shape, &variant, &cells, 100_000);
        assert_eq!(
            count as usize,
            expected.len(),
            "seed {seed}: {variant:?} {cells:?}"
        );
        let mut union = vec![0u64; shape.cells()];
        for solution in &expected {
            for (mask, &digit) in union.iter_mut().zip(solution) {
                *mask |= 1 << (digit - 1);
            }
        }
        if !expected.is_empty() {
            assert_eq!(seen, union, "seed {seed}: true candidates of {variant:?}");
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} puzzles made");
}

#[test]
fn four_by_four_counts_and_true_candidates_match_an_enumeration() {
    check_against_enumeration(Shape::new(2, 2).unwrap(), 1..400, 3);
}

#[test]
fn six_by_six_counts_and_true_candidates_match_an_enumeration() {
    check_against_enumeration(Shape::new(2, 3).unwrap(), 1..80, 18);
}

#[test]
fn paused_searches_replay_to_a_solution_that_obeys_the_rules() {
    let shape = Shape::CLASSIC;
    let mut solved = 0;
    for seed in 1..30 {
        let mut rng = Rng(seed * 7919 + 3);
        let Some((variant, cells)) = random_puzzle(shape, &mut rng, 20) else {
            continue;
        };
        let layout = Arc::new(Layout::new(shape, variant.clone()));
        if layout.first_clash(&cells).is_some() {
            continue;
        }
        let mut search = Search::constrained(layout, &cells, Algorithm::Wide, Mode::First).unwrap();
        let grid = crate::board::Grid::with_cells(shape, cells.clone());
        let mut replay = Replay::sized(&grid);
        let mut sink = |event: Event| {
            replay.apply(event).expect("events replay");
            Flow::Continue
        };
        let control = Control {
            slice_steps: 7,
            ..Control::UNTIMED
        };
        let report = loop {
            if let Progress::Done(outcome) = search.run(&control, &mut sink) {
                break outcome.unwrap();
            }
        };
        match report.cells() {
            Some(solution) => {
                assert_eq!(replay.cells(), solution, "seed {seed}");
                assert!(
                    consistent(shape, &variant, solution),
                    "seed {seed}: {variant:?}"
                );
                assert!((0..81).all(|c| cells[c] == 0 || cells[c] == solution[c]));
                solved += 1;
            }
            None => assert_eq!(replay.cells(), cells.as_slice(), "seed {seed}"),
        }
    }
    assert!(solved >= 5, "only {solved} solved");
}
