//! Every size from 4x4 to 64x64: the engines (every algorithm solves, counts to
//! two and replays its events to the answer, checked against the rules by a
//! checker of this file), the public 16x16 and 25x25 sets, and the service
//! (Solve, SolveSteps, SolveBatch with rules, both text forms, and the errors
//! of bad rules and bad text) through a real client on port 0, and `sudokud
//! generate --box`.

mod common;

use sudokud::board::{Grid, Notation, Shape};
use sudokud::pb::{self, Outcome, Rules};
use sudokud::solver::{Algorithm, Control, Event, Flow, Mode, Replay, Search};
use tokio_stream::StreamExt;
use tonic::Code;

/// Shapes of every kind: square and oblong boxes, both ways round.
const SHAPES: [(u32, u32); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 4),
    (4, 3),
    (4, 4),
];

/// The engines that search every size.
const SIZED: [Algorithm; 4] = [
    Algorithm::Backtracking,
    Algorithm::Singles,
    Algorithm::Propagation,
    Algorithm::Wide,
];

/// A small deterministic generator (xorshift), so the puzzles are the same
/// on every run without a table of them.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A full grid of `shape`, from the pattern that staggers rows by box, with
/// its digits, rows within bands and columns within stacks shuffled.
fn full_grid(shape: Shape, random: &mut Random) -> Vec<u8> {
    let (n, rows, cols) = (shape.size(), shape.box_rows(), shape.box_cols());
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        digits.swap(i, random.below(i + 1));
    }
    let shuffled = |random: &mut Random, group: usize| {
        let mut order: Vec<usize> = (0..n).collect();
        for band in order.chunks_mut(group) {
            for i in (1..band.len()).rev() {
                band.swap(i, random.below(i + 1));
            }
        }
        order
    };
    let row_order = shuffled(random, rows);
    let col_order = shuffled(random, cols);
    let mut cells = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let (row, col) = (row_order[r], col_order[c]);
            let value = (cols * (row % rows) + row / rows + col) % n;
            cells[r * n + c] = digits[value];
        }
    }
    cells
}

/// True when `cells` fills the grid by the rules and keeps every given.
fn obeys_rules(shape: Shape, givens: &[u8], cells: &[u8]) -> bool {
    let n = shape.size();
    if cells.len() != n * n || givens.iter().zip(cells).any(|(&g, &c)| g != 0 && g != c) {
        return false;
    }
    let full = (1u128 << n) - 1;
    let mut houses = vec![0u128; 3 * n];
    for (cell, &digit) in cells.iter().enumerate() {
        if digit == 0 || usize::from(digit) > n {
            return false;
        }
        let (row, col) = (cell / n, cell % n);
        let boxed = (row / shape.box_rows()) * (n / shape.box_cols()) + col / shape.box_cols();
        for house in [row, n + col, 2 * n + boxed] {
            houses[house] |= 1u128 << (digit - 1);
        }
    }
    houses.iter().all(|&house| house == full)
}

/// Searches `grid` with events, replaying each; the report and the replayed grid.
fn solve_replayed(grid: &Grid, algorithm: Algorithm) -> (Option<Vec<u8>>, Vec<u8>) {
    let mut search = Search::sized(grid, algorithm, Mode::First).expect("a sized engine");
    let mut replay = Replay::sized(grid);
    let mut sink = |event: Event| {
        replay.apply(event).unwrap();
        Flow::Continue
    };
    let report = search.finish(&Control::UNTIMED, &mut sink).unwrap();
    (report.cells().map(<[u8]>::to_vec), replay.cells().to_vec())
}

fn count(grid: &Grid, algorithm: Algorithm) -> u32 {
    let mut search = Search::sized(grid, algorithm, Mode::CountTwo).unwrap();
    search
        .finish(&Control::UNTIMED, &mut sudokud::solver::NoEvents)
        .unwrap()
        .solution_count
}

#[test]
fn every_engine_solves_counts_and_replays_at_every_small_shape() {
    let mut random = Random(0x5eed_1234_abcd_0001);
    for (rows, cols) in SHAPES {
        let shape = Shape::new(rows, cols).unwrap();
        let n = shape.size();
        for round in 0..6 {
            let full = full_grid(shape, &mut random);
            assert!(obeys_rules(shape, &full, &full), "{shape}: the pattern");
            // Fewer givens each round: from 60% down to about 25%.
            let keep = 60 - round * 7;
            let givens: Vec<u8> = full
                .iter()
                .map(|&digit| if random.below(100) < keep { digit } else { 0 })
                .collect();
            let grid = Grid::checked(shape, givens.clone()).unwrap();
            let mut counts = Vec::new();
            for algorithm in SIZED {
                // Backtracking and singles on the sparse 12x12 and 16x16 grids
                // would take long: they are the classic algorithms, step for
                // step, without a choice of cell.
                let plain = matches!(algorithm, Algorithm::Backtracking | Algorithm::Singles);
                if plain && n >= 12 && keep < 50 {
                    continue;
                }
                let (solution, replayed) = solve_replayed(&grid, algorithm);
                let solution = solution.expect("a grid cut from a full one has a solution");
                assert!(
                    obeys_rules(shape, &givens, &solution),
                    "{shape} {algorithm:?}"
                );
                assert_eq!(replayed, solution, "{shape} {algorithm:?}: replay");
                counts.push(count(&grid, algorithm));
            }
            assert!(
                counts.windows(2).all(|pair| pair[0] == pair[1]),
                "{shape}: {counts:?}"
            );
        }
    }
}

#[test]
fn a_grid_without_a_solution_is_unsolvable_and_replays_to_the_givens() {
    // 6x6: r1c1 can hold nothing (its row holds 1-3, its column 4-6).
    let shape = Shape::new(2, 3).unwrap();
    let mut givens = vec![0u8; 36];
    givens[1..4].copy_from_slice(&[1, 2, 3]);
    givens[12] = 4;
    givens[18] = 5;
    givens[30] = 6;
    let grid = Grid::checked(shape, givens.clone()).unwrap();
    for algorithm in SIZED {
        let (solution, replayed) = solve_replayed(&grid, algorithm);
        assert_eq!(solution, None, "{algorithm:?}");
        assert_eq!(replayed, givens, "{algorithm:?}");
        assert_eq!(count(&grid, algorithm), 0);
    }
}

#[test]
fn the_bitboard_engine_refuses_other_shapes_and_nine_by_nine_grids_use_the_classic_engines() {
    let six = Grid::checked(Shape::new(2, 3).unwrap(), vec![0; 36]).unwrap();
    assert!(Search::sized(&six, Algorithm::Bitboard, Mode::First).is_none());
    let nine = Grid::checked(Shape::CLASSIC, vec![0; 81]).unwrap();
    let mut search = Search::sized(&nine, Algorithm::Bitboard, Mode::First).unwrap();
    let report = search
        .finish(&Control::UNTIMED, &mut sudokud::solver::NoEvents)
        .unwrap();
    assert!(report.solution.is_some() && report.grid.is_none());
}

/// The first puzzles of a public set of comma-separated numbers, read in `shape`.
fn public_set(file: &str, shape: Shape, take: usize) -> Vec<Grid> {
    let notation = Notation::new(shape, "").unwrap();
    common::puzzles(file)
        .iter()
        .take(take)
        .map(|line| notation.read(line).unwrap().0)
        .collect()
}

#[test]
fn public_sixteen_and_twenty_five_sets_solve_uniquely_with_the_wide_engine() {
    let sixteen = Shape::new(4, 4).unwrap();
    let twenty_five = Shape::new(5, 5).unwrap();
    let sets = [
        ("gecode_janko_16x16.txt", sixteen, 12),
        ("lloyd_amos_16x16.txt", sixteen, 12),
        ("lloyd_amos_25x25.txt", twenty_five, 6),
    ];
    for (file, shape, take) in sets {
        for grid in public_set(file, shape, take) {
            let (solution, replayed) = solve_replayed(&grid, Algorithm::Wide);
            let solution = solution.unwrap_or_else(|| panic!("{file}: unsolved"));
            assert!(obeys_rules(shape, grid.cells(), &solution), "{file}");
            assert_eq!(replayed, solution);
            assert_eq!(count(&grid, Algorithm::Wide), 1, "{file}: all unique");
        }
    }
}

/// The project's own sets (examples/sized/): puzzles made and checked unique
/// by OR-Tools CP-SAT (`benches/cpsat.py make` and `check`), each line's
/// solution in the file beside it.
#[test]
fn own_small_sets_solve_to_their_independently_checked_solutions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sized");
    let sets = [
        ("6x6", (2, 3)),
        ("6x6-3x2", (3, 2)),
        ("8x8", (2, 4)),
        ("12x12", (3, 4)),
        ("16x16", (4, 4)),
    ];
    for (name, (rows, cols)) in sets {
        let shape = Shape::new(rows, cols).unwrap();
        let notation = Notation::new(shape, "").unwrap();
        let read = |file: String| std::fs::read_to_string(dir.join(file)).unwrap();
        let (puzzles, solutions) = (
            read(format!("{name}.txt")),
            read(format!("{name}.solutions.txt")),
        );
        assert!(puzzles.lines().count() >= 10, "{name}");
        assert_eq!(puzzles.lines().count(), solutions.lines().count(), "{name}");
        for (puzzle, expected) in puzzles.lines().zip(solutions.lines()) {
            let (grid, _) = notation.read(puzzle).unwrap();
            let (expected, _) = notation.read(expected).unwrap();
            for algorithm in [Algorithm::Wide, Algorithm::Propagation] {
                let (solution, replayed) = solve_replayed(&grid, algorithm);
                assert_eq!(
                    solution.as_deref(),
                    Some(expected.cells()),
                    "{name}: {puzzle}"
                );
                assert_eq!(replayed, expected.cells(), "{name}: {puzzle}");
                assert_eq!(count(&grid, algorithm), 1, "{name}: {puzzle}");
            }
        }
    }
}

/// A minimal 25x25 of Frisch's: far past what propagation and a few hundred
/// guesses settle, so the wide engine hands it to its learning search. The
/// events still replay to the answer, and counting proves it unique.
#[test]
fn a_hard_twenty_five_is_solved_and_counted_after_the_hand_over() {
    let shape = Shape::new(5, 5).unwrap();
    let grid = public_set("gecode_frisch_25x25.txt", shape, 3).remove(2);
    let (solution, replayed) = solve_replayed(&grid, Algorithm::Wide);
    let solution = solution.expect("solved");
    assert!(obeys_rules(shape, grid.cells(), &solution));
    assert_eq!(replayed, solution);
    let mut search = Search::sized(&grid, Algorithm::Wide, Mode::CountTwo).unwrap();
    let report = search
        .finish(&Control::UNTIMED, &mut sudokud::solver::NoEvents)
        .unwrap();
    assert_eq!(report.solution_count, 1);
    assert_eq!(report.cells(), Some(&solution[..]));
    // More guesses than the first search is allowed dead ends: the second ran.
    assert!(report.stats.guesses > 200, "{:?}", report.stats);
}

#[test]
fn an_empty_sixty_four_grid_fills_by_the_rules() {
    let shape = Shape::new(8, 8).unwrap();
    let grid = Grid::checked(shape, vec![0; 64 * 64]).unwrap();
    let (solution, replayed) = solve_replayed(&grid, Algorithm::Wide);
    let solution = solution.unwrap();
    assert!(obeys_rules(shape, grid.cells(), &solution));
    assert_eq!(replayed, solution);
}

// --- the service -----------------------------------------------------------

fn rules(box_rows: u32, box_cols: u32, symbols: &str) -> Option<Rules> {
    Some(Rules {
        box_rows,
        box_cols,
        symbols: symbols.to_owned(),
        ..Rules::default()
    })
}

/// A 6x6 puzzle cut from a full grid, in the symbols form.
fn six_by_six() -> (String, Vec<u8>) {
    let shape = Shape::new(2, 3).unwrap();
    let full = full_grid(shape, &mut Random(99));
    let mut random = Random(7);
    let givens: Vec<u8> = full
        .iter()
        .map(|&digit| if random.below(100) < 45 { digit } else { 0 })
        .collect();
    let text = Notation::new(shape, "")
        .unwrap()
        .write(&givens, sudokud::board::Form::Symbols);
    (text, givens)
}

#[tokio::test]
async fn solve_answers_in_the_form_of_the_request_at_any_size() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let (text, givens) = six_by_six();
    let shape = Shape::new(2, 3).unwrap();
    let answer = client
        .solve(pb::SolveRequest {
            puzzle: text.clone(),
            check_unique: true,
            rules: rules(2, 3, ""),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.outcome(), Outcome::Solved);
    assert_eq!(answer.algorithm(), pb::Algorithm::Wide);
    assert!(answer.solution_count >= 1);
    let notation = Notation::new(shape, "").unwrap();
    let (solved, _) = notation.read_cells(&answer.solution).unwrap();
    assert!(obeys_rules(shape, &givens, &solved));
    assert_eq!(answer.solution.len(), 36);

    // The numbers form in, the numbers form out.
    let numbers: Vec<String> = givens.iter().map(u8::to_string).collect();
    let answer = client
        .solve(pb::SolveRequest {
            puzzle: numbers.join(", "),
            algorithm: pb::Algorithm::Backtracking.into(),
            rules: rules(2, 3, ""),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let solved: Vec<u8> = answer
        .solution
        .split(',')
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(obeys_rules(shape, &givens, &solved), "{}", answer.solution);

    // Symbols of the caller's: 16x16 with 0-F.
    let sixteen = Shape::new(4, 4).unwrap();
    let full = full_grid(sixteen, &mut Random(3));
    let givens: Vec<u8> = full
        .iter()
        .enumerate()
        .map(|(i, &d)| if i % 3 == 0 { 0 } else { d })
        .collect();
    let hex = Notation::new(sixteen, "0123456789abcdef").unwrap();
    let answer = client
        .solve(pb::SolveRequest {
            puzzle: hex.write(&givens, sudokud::board::Form::Symbols),
            rules: rules(4, 4, "0123456789abcdef"),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(
        answer
            .solution
            .chars()
            .all(|c| "0123456789abcdef".contains(c)),
        "{}",
        answer.solution
    );
    let (solved, _) = hex.read_cells(&answer.solution).unwrap();
    assert!(obeys_rules(sixteen, &givens, &solved));
}

#[tokio::test]
async fn solve_steps_at_sixteen_replays_to_its_answer_and_names_the_rules() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let shape = Shape::new(4, 4).unwrap();
    let line = &common::puzzles("gecode_janko_16x16.txt")[0];
    let mut stream = client
        .solve_steps(pb::SolveStepsRequest {
            puzzle: line.clone(),
            rules: rules(4, 4, ""),
            max_batch: 64,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let (mut started, mut steps, mut finished) = (None, Vec::new(), None);
    while let Some(message) = stream.message().await.unwrap() {
        match message.event.unwrap() {
            pb::solve_steps_response::Event::Started(s) => started = Some(s),
            pb::solve_steps_response::Event::Steps(batch) => steps.extend(batch.steps),
            pb::solve_steps_response::Event::Finished(f) => finished = Some(f),
        }
    }
    let started = started.unwrap();
    let filled = started.rules.unwrap();
    assert_eq!((filled.box_rows, filled.box_cols), (4, 4));
    assert_eq!(filled.symbols, "123456789ABCDEFG");
    assert_eq!(started.puzzle, *line, "the numbers form, as sent");
    let givens = Notation::new(shape, "").unwrap().read(line).unwrap().0;
    assert!(
        steps
            .iter()
            .all(|step| step.row < 16 && step.col < 16 && (1..=16).contains(&step.digit))
    );
    let finished = finished.unwrap();
    assert_eq!(common::replay_grid(&givens, &steps), finished.solution);
}

#[tokio::test]
async fn solve_batch_takes_rules_puzzle_by_puzzle() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let (six, givens) = six_by_six();
    let nine = common::puzzles("euler96_50.txt")[0].clone();
    let request = pb::SolveBatchRequest::new(&[
        pb::BatchPuzzle {
            id: "six".into(),
            puzzle: six,
            rules: rules(2, 3, ""),
            ..Default::default()
        },
        pb::BatchPuzzle {
            id: "nine".into(),
            puzzle: nine.clone(),
            ..Default::default()
        },
        pb::BatchPuzzle {
            id: "bad".into(),
            puzzle: "1".into(),
            rules: rules(2, 3, ""),
            ..Default::default()
        },
    ]);
    let mut answers = client
        .solve_batch(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let mut all = Vec::new();
    while let Some(message) = answers.message().await.unwrap() {
        all.extend(message.answers::<pb::BatchAnswer>().unwrap());
    }
    let by_id = |id: &str| all.iter().find(|answer| answer.id == id).unwrap().clone();
    let six = by_id("six");
    let (solved, _) = Notation::new(Shape::new(2, 3).unwrap(), "")
        .unwrap()
        .read_cells(&six.solution)
        .unwrap();
    assert!(obeys_rules(Shape::new(2, 3).unwrap(), &givens, &solved));
    assert!(common::is_solution(&nine, &by_id("nine").solution));
    let bad = by_id("bad");
    assert_eq!(bad.code, Code::InvalidArgument as u32);
    assert!(bad.error.contains("expected 36 for 6x6"), "{}", bad.error);
}

#[tokio::test]
async fn bad_rules_and_text_say_what_and_where() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let ask = |puzzle: &str, rules: Option<Rules>, algorithm: pb::Algorithm| {
        let request = pb::SolveRequest {
            puzzle: puzzle.to_owned(),
            algorithm: algorithm.into(),
            rules,
            ..Default::default()
        };
        let mut client = client.clone();
        async move { client.solve(request).await.unwrap_err() }
    };
    let any = pb::Algorithm::Unspecified;
    let cases = [
        (ask("1", rules(3, 0, ""), any).await, "set both"),
        (ask("1", rules(1, 9, ""), any).await, "each side is 2 to 8"),
        (ask("1", rules(9, 9, ""), any).await, "4 to 64"),
        (ask("1", rules(2, 2, "123"), any).await, "expected 4"),
        (ask("1", rules(2, 2, "12.4"), any).await, "may not hold '.'"),
        (ask("1", rules(2, 2, "ab1A"), any).await, "twice"),
        (
            ask(&".".repeat(35), rules(2, 3, ""), any).await,
            "35 cells, expected 36 for 6x6",
        ),
        (
            ask(&format!("{}7", ".".repeat(6)), rules(2, 3, ""), any).await,
            "'7' at r2c1",
        ),
        (ask("1,2,7", rules(2, 3, ""), any).await, "number 7 at r1c3"),
        (
            ask(
                &format!("1{}1{}", ".".repeat(7), ".".repeat(27)),
                rules(2, 3, ""),
                any,
            )
            .await,
            "r1c1 and r2c3 both hold 1",
        ),
        (
            ask(&".".repeat(36), rules(2, 3, ""), pb::Algorithm::Bitboard).await,
            "9x9 grids only",
        ),
    ];
    for (status, wanted) in cases {
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert!(
            status.message().contains(wanted),
            "{wanted:?} not in {:?}",
            status.message()
        );
    }
    let rate = client
        .rate(pb::RateRequest {
            puzzle: ".".repeat(36),
            rules: rules(2, 3, ""),
        })
        .await
        .unwrap_err();
    assert_eq!(rate.code(), Code::FailedPrecondition, "{rate:?}");
    assert!(
        rate.message().contains("more than one solution"),
        "{rate:?}"
    );
}

#[tokio::test]
async fn an_empty_sixty_four_grid_is_answered_or_cut_by_the_step_cap() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let answer = client
        .solve(pb::SolveRequest {
            puzzle: vec!["0"; 4096].join(","),
            rules: rules(8, 8, ""),
            check_unique: true,
            max_steps: 100_000,
            ..Default::default()
        })
        .await;
    match answer {
        Ok(answer) => assert_eq!(answer.into_inner().solution_count, 2),
        Err(status) => assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}"),
    }
}

#[tokio::test]
async fn generate_box_makes_unique_symmetric_puzzles_from_a_seed_at_a_level() {
    use common::process::{stderr, stdout, sudokud};
    let args = [
        "generate",
        "--box",
        "2x3",
        "--count",
        "4",
        "--seed",
        "9",
        "--symmetry",
        "rotate180",
    ];
    let made = sudokud(&args, "", &[]).await;
    assert!(made.status.success(), "{made:?}");
    let lines: Vec<String> = stdout(&made).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    let shape = Shape::new(2, 3).unwrap();
    let notation = Notation::new(shape, "").unwrap();
    for line in &lines {
        let (grid, _) = notation.read(line).expect("a 6x6 puzzle in symbols");
        assert!(
            sudokud::generate::Symmetry::Rotate180.holds_in(grid.cells(), 6),
            "{line}"
        );
        assert_eq!(count(&grid, Algorithm::Propagation), 1, "{line}");
    }
    // The same seeds on one thread give the same puzzles; puzzle i comes from
    // seed + i, and other seeds give others.
    let again = sudokud(&[&args[..], &["--threads", "1"]].concat(), "", &[]).await;
    assert_eq!(stdout(&again), stdout(&made));
    let second = [
        "generate",
        "--box",
        "2x3",
        "--seed",
        "10",
        "--symmetry",
        "rotate180",
    ];
    let second = sudokud(&second, "", &[]).await;
    assert_eq!(stdout(&second).trim(), lines[1]);
    assert_ne!(lines[0], lines[1]);
    // Rated on the ladder: a level gives puzzles its explanation rates in
    // the level's range.
    let level = ["generate", "--box", "3x2", "--level", "fiendish", "--rated"];
    let level = sudokud(
        &[&level[..], &["--count", "2", "--seed", "4"]].concat(),
        "",
        &[],
    )
    .await;
    assert!(level.status.success(), "{}", stderr(&level));
    let notation = Notation::new(Shape::new(3, 2).unwrap(), "").unwrap();
    for line in stdout(&level).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (grid, _) = notation.read(fields[0]).unwrap();
        let rating = sudokud::logic::explain_grid(&grid, None, || true, &|| false).rating();
        assert_eq!(fields[1], format!("{:.1}", rating.value), "{line}");
        assert_eq!(fields[2], "fiendish", "{line}");
        assert!((2.6..=6.0).contains(&rating.value), "{line}");
    }
}

#[tokio::test]
async fn generate_and_generate_many_make_puzzles_of_the_rules_shape() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let request = pb::GenerateRequest {
        seed: 21,
        symmetry: pb::Symmetry::Rotate180.into(),
        rules: rules(3, 4, ""),
        ..Default::default()
    };
    let made = client.generate(request.clone()).await.unwrap().into_inner();
    let shape = Shape::new(3, 4).unwrap();
    let notation = Notation::new(shape, "").unwrap();
    let (puzzle, _) = notation.read_cells(&made.puzzle).unwrap();
    let (solution, _) = notation.read_cells(&made.solution).unwrap();
    assert!(obeys_rules(shape, &puzzle, &solution), "{made:?}");
    assert!(made.minimal);
    assert_eq!(
        made.clues as usize,
        puzzle.iter().filter(|&&d| d != 0).count()
    );
    assert!(sudokud::generate::Symmetry::Rotate180.holds_in(&puzzle, 12));
    let grid = Grid::checked(shape, puzzle).unwrap();
    assert_eq!(count(&grid, Algorithm::Propagation), 1);
    // Puzzle i of GenerateMany is Generate's for seed + i, in the same symbols.
    let many: Vec<pb::GenerateManyResponse> = client
        .generate_many(pb::GenerateManyRequest {
            seed: 20,
            count: 2,
            symmetry: pb::Symmetry::Rotate180.into(),
            rules: rules(3, 4, "0123456789AB"),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(many.len(), 2);
    assert_eq!(many[1].seed, 21);
    let custom = Notation::new(shape, "0123456789AB").unwrap();
    assert_eq!(custom.read_cells(&many[1].puzzle).unwrap().0, grid.cells());
    // Rated on the ladder: a level's puzzle rates in its range, as Rate says.
    let hard = client
        .generate(pb::GenerateRequest {
            level: "hard".into(),
            ..request.clone()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(hard.level, "hard");
    let rated = client
        .rate(pb::RateRequest {
            puzzle: hard.puzzle.clone(),
            rules: rules(3, 4, ""),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((rated.rating, rated.level), (hard.rating, hard.level));
    // A bound no puzzle meets (every puzzle takes a step of 1.0 or more) is
    // refused after a bounded effort, naming the shape.
    let status = client
        .generate(pb::GenerateRequest {
            max_rating: 0.5,
            rules: rules(2, 2, ""),
            ..request
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("4x4"), "{}", status.message());
}

#[tokio::test]
async fn a_large_generate_answers_a_unique_puzzle_within_its_deadline() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let mut request = tonic::Request::new(pb::GenerateRequest {
        seed: 1,
        rules: rules(5, 5, ""),
        ..Default::default()
    });
    request.set_timeout(std::time::Duration::from_secs(3));
    // Answered, not cut: the server keeps back part of the time left.
    let made = client.generate(request).await.unwrap().into_inner();
    let shape = Shape::new(5, 5).unwrap();
    let (puzzle, _) = Notation::new(shape, "")
        .unwrap()
        .read_cells(&made.puzzle)
        .unwrap();
    let grid = Grid::checked(shape, puzzle).unwrap();
    assert_eq!(count(&grid, Algorithm::Wide), 1);
    if made.minimal {
        assert!(sudokud::generate::is_minimal_grid(
            &grid,
            sudokud::generate::Symmetry::None
        ));
    }
}
