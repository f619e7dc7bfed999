use super::*;
use crate::board::{Cage, Shape, Variant};

fn rules(shape: Shape, variant: Variant) -> VariantRules {
    VariantRules {
        shape,
        variant,
        random_regions: false,
        random_cages: false,
    }
}

fn made(rules: &VariantRules, seed: u64, symmetry: Symmetry) -> GeneratedVariant {
    generate(
        &mut Random::new(seed),
        rules,
        symmetry,
        true,
        &Control::UNTIMED,
    )
    .unwrap()
}

/// Whether `cells` is one orthogonally connected piece of a grid of side `n`.
fn connected(cells: &[usize], n: usize) -> bool {
    let mut reached = vec![cells[0]];
    let mut next = 0;
    while next < reached.len() {
        let (row, col) = (reached[next] / n, reached[next] % n);
        next += 1;
        for &other in cells {
            let near = (other / n).abs_diff(row) + (other % n).abs_diff(col) == 1;
            if near && !reached.contains(&other) {
                reached.push(other);
            }
        }
    }
    reached.len() == cells.len()
}

#[test]
fn random_regions_are_n_connected_pieces_of_n_cells_and_not_the_boxes() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)] {
        let shape = Shape::new(rows, cols).unwrap();
        let n = shape.size();
        for seed in 1..6 {
            let regions = random_regions(shape, None, &mut Random::new(seed));
            for region in 0..n as u8 {
                let cells: Vec<usize> = (0..n * n).filter(|&c| regions[c] == region).collect();
                assert_eq!(cells.len(), n, "{shape} seed {seed} region {region}");
                assert!(connected(&cells, n), "{shape} seed {seed} region {region}");
            }
            let boxes = (0..n * n).filter(|&c| usize::from(regions[c]) == shape.box_of(c));
            assert!(
                boxes.count() < n * n,
                "{shape} seed {seed}: still the boxes"
            );
            let variant = Variant {
                regions: Some(regions),
                ..Variant::default()
            };
            assert_eq!(variant.check(shape), Ok(()));
        }
    }
}

#[test]
fn random_regions_around_a_grid_keep_it_valid_and_still_trade() {
    let shape = Shape::CLASSIC;
    let rules = rules(shape, Variant::default());
    for seed in 1..10 {
        let mut random = Random::new(seed);
        let (_, grid) = solved_rules(&mut random, &rules, &Control::UNTIMED).unwrap();
        let regions = random_regions(shape, Some(&grid), &mut random);
        let moved = (0..81).filter(|&c| usize::from(regions[c]) != shape.box_of(c));
        assert!(moved.count() >= 4, "seed {seed}: few cells traded");
        for region in 0..9 {
            let mut digits: Vec<u8> = (0..81)
                .filter(|&c| regions[c] == region)
                .map(|c| grid[c])
                .collect();
            digits.sort_unstable();
            assert_eq!(digits, (1..=9).collect::<Vec<u8>>(), "seed {seed}");
        }
    }
}

#[test]
fn random_cages_cover_the_grid_once_with_distinct_digits_and_their_sums() {
    let shape = Shape::CLASSIC;
    let rules = rules(shape, Variant::default());
    let mut redrawn = 0;
    for seed in 1..20 {
        let mut random = Random::new(seed);
        let (_, solution) = solved_rules(&mut random, &rules, &Control::UNTIMED).unwrap();
        let cages = random_cages(shape, &solution, &mut random);
        cages_checked(&cages, &solution, seed);
        let around = random.below(81) as usize;
        let again = recage_around(&cages, around, shape, &solution, &mut random);
        cages_checked(&again, &solution, seed);
        redrawn += usize::from(again != cages);
        let kept = cages.iter().filter(|cage| again.contains(cage)).count();
        assert!(
            kept + 4 >= cages.len(),
            "seed {seed}: only the cages around the cell change"
        );
    }
    assert!(redrawn >= 10, "{redrawn} of 19 redrawn");
}

/// Asserts that `cages` cover the grid once, each a connected group of
/// distinct digits of `solution` with their sum, and that no cage of one
/// cell has a cage beside it that could have taken it.
fn cages_checked(cages: &[Cage], solution: &[u8], seed: u64) {
    let mut seen = [0u8; 81];
    for Cage { cells, sum } in cages {
        let cells: Vec<usize> = cells.iter().map(|&c| c as usize).collect();
        let mut digits: Vec<u8> = cells.iter().map(|&c| solution[c]).collect();
        assert_eq!(*sum, digits.iter().map(|&d| u32::from(d)).sum::<u32>());
        digits.sort_unstable();
        digits.dedup();
        assert_eq!(
            digits.len(),
            cells.len(),
            "seed {seed}: a digit twice in a cage"
        );
        assert!((1..=9).contains(&cells.len()), "seed {seed}");
        assert!(connected(&cells, 9), "seed {seed}: {cells:?}");
        cells.iter().for_each(|&c| seen[c] += 1);
    }
    assert!(seen.iter().all(|&times| times == 1), "seed {seed}");
    for lone in cages.iter().filter(|cage| cage.cells.len() == 1) {
        let cell = lone.cells[0] as usize;
        let could_host = |cage: &Cage| {
            cage.cells.len() < 9
                && (cage.cells.iter()).all(|&c| solution[c as usize] != solution[cell])
                && (cage.cells.iter())
                    .any(|&c| crate::board::neighbours(9, c as usize).any(|b| b == cell))
        };
        let (row, col) = (cell / 9 + 1, cell % 9 + 1);
        assert!(
            !cages.iter().any(could_host),
            "seed {seed}: r{row}c{col} alone"
        );
    }
    assert_eq!(rules_checked(Shape::CLASSIC, cages.to_vec()), Ok(()));
}

fn rules_checked(shape: Shape, cages: Vec<Cage>) -> Result<(), crate::board::RuleError> {
    Variant {
        cages,
        ..Variant::default()
    }
    .check(shape)
}

/// Every kind of rule the generator takes, as asked of it.
fn kinds() -> Vec<(&'static str, VariantRules)> {
    let classic = Shape::CLASSIC;
    let with = |f: fn(&mut VariantRules)| {
        let mut made = rules(classic, Variant::default());
        f(&mut made);
        made
    };
    vec![
        ("x", with(|r| r.variant.diagonal = true)),
        ("windoku", with(|r| r.variant.windoku = true)),
        ("anti-knight", with(|r| r.variant.anti_knight = true)),
        ("anti-king", with(|r| r.variant.anti_king = true)),
        (
            "non-consecutive",
            with(|r| r.variant.non_consecutive = true),
        ),
        ("jigsaw", with(|r| r.random_regions = true)),
        (
            "jigsaw + anti-knight",
            with(|r| {
                r.random_regions = true;
                r.variant.anti_knight = true;
            }),
        ),
        (
            "jigsaw + windoku",
            with(|r| {
                r.random_regions = true;
                r.variant.windoku = true;
            }),
        ),
        ("killer", with(|r| r.random_cages = true)),
        (
            "thermo",
            with(|r| r.variant.thermometers = vec![vec![0, 1, 2, 3], vec![80, 70, 60]]),
        ),
        (
            "killer 6x6 + x",
            VariantRules {
                random_cages: true,
                ..rules(
                    Shape::new(2, 3).unwrap(),
                    Variant {
                        diagonal: true,
                        ..Variant::default()
                    },
                )
            },
        ),
    ]
}

#[test]
fn every_kind_makes_a_minimal_puzzle_of_its_solution_and_the_same_seed_makes_it_again() {
    for (name, rules) in kinds() {
        let one = made(&rules, 7, Symmetry::None);
        let layout = Arc::new(Layout::new(rules.shape, one.variant.clone()));
        let (puzzle, solution) = (one.puzzle.cells(), one.solution.cells());
        let agree = (0..puzzle.len()).all(|c| puzzle[c] == 0 || puzzle[c] == solution[c]);
        assert!(agree, "{name}: a given not the solution's");
        assert_eq!(count(&layout, puzzle, &Control::UNTIMED), Some(1), "{name}");
        assert!(one.minimal, "{name}");
        assert!(
            is_minimal_variant(&layout, puzzle, Symmetry::None),
            "{name}"
        );
        assert_eq!(one.variant.check(rules.shape), Ok(()), "{name}");
        assert_eq!(
            first_solution(&layout, solution, &Control::UNTIMED),
            Ok(Some(solution.to_vec())),
            "{name}: the solution breaks the rules"
        );
        assert_eq!(made(&rules, 7, Symmetry::None), one, "{name}");
        assert_ne!(
            made(&rules, 8, Symmetry::None).solution,
            one.solution,
            "{name}"
        );
    }
}

#[test]
fn symmetric_puzzles_keep_their_symmetry_and_random_shapes_are_drawn_per_puzzle() {
    let mut rules = rules(Shape::CLASSIC, Variant::default());
    rules.variant.diagonal = true;
    let one = made(&rules, 3, Symmetry::Rotate180);
    assert!(Symmetry::Rotate180.holds_in(one.puzzle.cells(), 9));
    rules.random_regions = true;
    let (a, b) = (
        made(&rules, 3, Symmetry::None),
        made(&rules, 4, Symmetry::None),
    );
    assert_ne!(a.variant.regions, b.variant.regions);
    assert!(a.variant.diagonal && a.variant.regions.is_some());
}

#[test]
fn rules_with_no_solution_are_told_and_a_stopped_control_stops() {
    // Two cages of 3 in one row both need its 1 and its 2.
    let mut rules = rules(Shape::new(2, 2).unwrap(), Variant::default());
    let cage = |cells: Vec<u32>| Cage { cells, sum: 3 };
    rules.variant.cages = vec![cage(vec![0, 1]), cage(vec![2, 3])];
    assert_eq!(rules.variant.check(rules.shape), Ok(()));
    assert_eq!(
        generate(
            &mut Random::new(1),
            &rules,
            Symmetry::None,
            true,
            &Control::UNTIMED
        ),
        Err(Unmade::NoSolution)
    );
    let stop = std::sync::atomic::AtomicBool::new(true);
    let control = Control {
        stop: Some(&stop),
        ..Control::UNTIMED
    };
    rules.variant.cages.clear();
    assert_eq!(
        generate(&mut Random::new(1), &rules, Symmetry::None, true, &control),
        Err(Unmade::Stopped(Interrupted::Stopped))
    );
}
