//! The logical solver at every size: on the own sets of `examples/sized/`
//! (solutions made and checked by OR-Tools CP-SAT, outside this code), every
//! step of every explanation agrees with the solution, the solve ends where
//! its steps lead, techniques beyond singles fire at 6x6, 12x12 and 16x16, and
//! a hint from a player's position names a sound next step; then `Explain`,
//! `Hint` and `Rate` with rules through a real client on port 0, and the
//! `rate`, `explain` and `hint` commands with `--box`.

mod common;

use std::collections::BTreeSet;

use sudokud::board::{Form, Grid, Notation, Shape};
use sudokud::logic::{self, Next, Technique};
use sudokud::pb::{self, Rules};
use tokio_stream::StreamExt;
use tonic::Code;

/// The own set `name` of `shape`: each puzzle with its solution.
fn own_set(name: &str, shape: Shape) -> Vec<(Grid, Grid)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sized");
    let notation = Notation::new(shape, "").unwrap();
    let read = |file: String| std::fs::read_to_string(dir.join(file)).unwrap();
    let (puzzles, solutions) = (
        read(format!("{name}.txt")),
        read(format!("{name}.solutions.txt")),
    );
    puzzles
        .lines()
        .zip(solutions.lines())
        .map(|(puzzle, solution)| {
            (
                notation.read(puzzle).unwrap().0,
                notation.read(solution).unwrap().0,
            )
        })
        .collect()
}

/// The techniques the explanations of a set used, every step checked
/// against the solution on the way.
fn sound_techniques(name: &str, shape: Shape) -> BTreeSet<Technique> {
    let mut used = BTreeSet::new();
    for (puzzle, solution) in own_set(name, shape) {
        let explanation = logic::explain_grid(&puzzle, None, || true, &|| false);
        let mut cells = puzzle.cells().to_vec();
        for step in &explanation.steps {
            let text = step.describe(shape.size());
            assert!(
                !step.placements.is_empty() || !step.eliminations.is_empty(),
                "{name}: {text}"
            );
            for &(cell, digit) in &step.placements {
                assert_eq!(solution.get(cell), digit, "{name}: {text}");
                cells[cell] = digit;
            }
            for &(cell, digit) in &step.eliminations {
                assert_ne!(solution.get(cell), digit, "{name}: {text}");
            }
            used.insert(step.technique);
        }
        // The solve ends on the digits its steps placed.
        assert_eq!(explanation.end, cells, "{name}");
        for (cell, &value) in cells.iter().enumerate() {
            assert!(value == 0 || value == solution.get(cell), "{name}");
        }
    }
    used
}

const SINGLES: [Technique; 4] = [
    Technique::FullHouse,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::NakedSingle,
];

#[test]
fn explanations_at_every_size_are_sound_and_reach_past_singles() {
    let sets = [
        ("6x6", (2, 3), true),
        ("6x6-3x2", (3, 2), false),
        ("8x8", (2, 4), false),
        ("12x12", (3, 4), true),
        ("16x16", (4, 4), true),
    ];
    for (name, (rows, cols), beyond) in sets {
        let used = sound_techniques(name, Shape::new(rows, cols).unwrap());
        let past_singles: Vec<_> = used.iter().filter(|t| !SINGLES.contains(t)).collect();
        assert!(
            !beyond || !past_singles.is_empty(),
            "{name}: only singles fired: {used:?}"
        );
    }
}

#[test]
fn a_hint_at_sixteen_marks_wrong_digits_and_gives_a_sound_step() {
    let shape = Shape::new(4, 4).unwrap();
    let (puzzle, solution) = own_set("16x16", shape).remove(0);
    let mut position = puzzle.cells().to_vec();
    let empty: Vec<usize> = (0..shape.cells()).filter(|&c| position[c] == 0).collect();
    // One right digit and one wrong one.
    position[empty[0]] = solution.get(empty[0]);
    let wrong_cell = empty[1];
    position[wrong_cell] = solution.get(wrong_cell) % 16 + 1;
    let hint = logic::hint(&position, &solution, None, &|| false);
    assert_eq!(hint.wrong, [(wrong_cell, position[wrong_cell])]);
    match hint.next {
        Some(Next::Logic(step)) => {
            for &(cell, digit) in &step.placements {
                assert_eq!(solution.get(cell), digit);
            }
            for &(cell, digit) in &step.eliminations {
                assert_ne!(solution.get(cell), digit);
            }
        }
        other => panic!("expected a logical step, got {other:?}"),
    }
    assert_eq!(
        logic::hint(solution.cells(), &solution, None, &|| false).next,
        None
    );
}

fn rules(box_rows: u32, box_cols: u32, symbols: &str) -> Option<Rules> {
    Some(Rules {
        box_rows,
        box_cols,
        symbols: symbols.into(),
        ..Rules::default()
    })
}

/// The cell a wire candidate names on a grid `side` cells wide, and its digit.
fn cell_of(candidate: &pb::Candidate, side: usize) -> (usize, u8) {
    assert!((candidate.row as usize) < side && (candidate.col as usize) < side);
    (
        candidate.row as usize * side + candidate.col as usize,
        candidate.digit as u8,
    )
}

#[tokio::test]
async fn explain_streams_sound_steps_at_sixteen_in_the_request_notation() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let shape = Shape::new(4, 4).unwrap();
    let hex = Notation::new(shape, "0123456789abcdef").unwrap();
    let (puzzle, solution) = own_set("16x16", shape).remove(1);
    let text = hex.write(puzzle.cells(), Form::Symbols);
    let mut stream = client
        .explain(pb::ExplainRequest {
            puzzle: text.clone(),
            rules: rules(4, 4, "0123456789abcdef"),
            finish_by_search: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut cells = puzzle.cells().to_vec();
    let (mut started, mut finished, mut techniques) = (None, None, BTreeSet::new());
    while let Some(message) = stream.next().await {
        match message.unwrap().event.unwrap() {
            pb::explain_response::Event::Started(s) => started = Some(s),
            pb::explain_response::Event::Steps(batch) => {
                for step in batch.steps {
                    for candidate in &step.placements {
                        let (cell, digit) = cell_of(candidate, 16);
                        assert_eq!(solution.get(cell), digit, "{}", step.description);
                        cells[cell] = digit;
                    }
                    for candidate in &step.eliminations {
                        let (cell, digit) = cell_of(candidate, 16);
                        assert_ne!(solution.get(cell), digit, "{}", step.description);
                    }
                    assert!(step.description.starts_with(&step.technique));
                    techniques.insert(step.technique);
                }
            }
            pb::explain_response::Event::Finished(f) => finished = Some(f),
        }
    }
    let started = started.unwrap();
    assert_eq!(started.puzzle, text);
    assert_eq!(started.rules, rules(4, 4, "0123456789abcdef"));
    let finished = finished.unwrap();
    assert_eq!(
        hex.read_cells(&finished.solution).unwrap().0,
        solution.cells()
    );
    assert_eq!(cells, solution.cells(), "the steps fill the grid");
    assert!(finished.rating > 1.0, "{finished:?}");
    assert!(
        techniques
            .iter()
            .any(|t| !t.contains("single") && t != "full house"),
        "{techniques:?}"
    );
}

#[tokio::test]
async fn rate_and_hint_answer_at_six_and_twelve_and_refuse_what_is_not_one_puzzle() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    for (name, (rows, cols)) in [("6x6", (2, 3)), ("12x12", (3, 4))] {
        let shape = Shape::new(rows, cols).unwrap();
        let notation = Notation::new(shape, "").unwrap();
        let (puzzle, solution) = own_set(name, shape).remove(2);
        let text = notation.write(puzzle.cells(), Form::Numbers);
        let rate = client
            .rate(pb::RateRequest {
                puzzle: text.clone(),
                rules: rules(rows, cols, ""),
            })
            .await
            .unwrap()
            .into_inner();
        let local = logic::explain_grid(&puzzle, None, || true, &|| false).rating();
        assert_eq!(rate.rating, local.value, "{name}");
        assert_eq!(rate.level, local.level().name(), "{name}");
        assert_eq!(rate.needed_search, !local.solved, "{name}");
        let hint = client
            .hint(pb::HintRequest {
                puzzle: text.clone(),
                rules: rules(rows, cols, ""),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        let step = hint.step.unwrap();
        let side = shape.size();
        for candidate in &step.placements {
            let (cell, digit) = cell_of(candidate, side);
            assert_eq!(solution.get(cell), digit, "{name}: {}", step.description);
        }
        // A board in the numbers form with a wrong digit is marked wrong.
        let mut board = puzzle.cells().to_vec();
        let empty = (0..board.len()).find(|&c| board[c] == 0).unwrap();
        board[empty] = solution.get(empty) % side as u8 + 1;
        let hint = client
            .hint(pb::HintRequest {
                puzzle: text.clone(),
                board: notation.write(&board, Form::Numbers),
                rules: rules(rows, cols, ""),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(hint.wrong.len(), 1, "{name}");
        assert_eq!(cell_of(&hint.wrong[0], side), (empty, board[empty]));
        // A board that changes a given is refused, naming the cell.
        let given = (0..board.len()).find(|&c| puzzle.get(c) != 0).unwrap();
        board[given] = 0;
        let status = client
            .hint(pb::HintRequest {
                puzzle: text.clone(),
                board: notation.write(&board, Form::Numbers),
                rules: rules(rows, cols, ""),
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        let cell = format!("r{}c{}", given / side + 1, given % side + 1);
        assert!(status.message().contains(&cell), "{status:?}");
    }
    // No solution, and two: FAILED_PRECONDITION, as at 9x9.
    let shape = Shape::new(2, 2).unwrap();
    let notation = Notation::new(shape, "").unwrap();
    // Row 1 is 1 2 . . and needs 3 and 4; r2c3 and r3c4 hold 3, so neither
    // of its empty cells can: no clash, and no solution.
    let mut clash_free_dead_end = vec![0u8; 16];
    clash_free_dead_end[..2].copy_from_slice(&[1, 2]);
    clash_free_dead_end[4 + 2] = 3;
    clash_free_dead_end[8 + 3] = 3;
    for (cells, wanted) in [
        (clash_free_dead_end, "no solution"),
        (vec![0u8; 16], "more than one solution"),
    ] {
        let status = client
            .explain(pb::ExplainRequest {
                puzzle: notation.write(&cells, Form::Symbols),
                rules: rules(2, 2, ""),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
        assert!(status.message().contains(wanted), "{status:?}");
    }
}

#[tokio::test]
async fn rate_explain_and_hint_commands_take_box_and_symbols() {
    use common::process::{stderr, stdout, sudokud};
    let shape = Shape::new(3, 4).unwrap();
    let hex = Notation::new(shape, "0123456789AB").unwrap();
    let set: Vec<(Grid, Grid)> = own_set("12x12", shape).into_iter().take(3).collect();
    let lines: Vec<String> = set
        .iter()
        .map(|(puzzle, _)| hex.write(puzzle.cells(), Form::Symbols))
        .collect();
    let input = lines.join("\n");
    let box_args = ["--box", "3x4", "--symbols", "0123456789AB"];
    let rated = sudokud(&[&["rate"][..], &box_args].concat(), &input, &[]).await;
    assert!(rated.status.success(), "{}", stderr(&rated));
    let out = stdout(&rated);
    assert_eq!(out.lines().count(), 3, "{out}");
    for ((puzzle, _), line) in set.iter().zip(out.lines()) {
        let rating = logic::explain_grid(puzzle, None, || true, &|| false).rating();
        let expected = format!(
            "{:.1}/{:.1}/{:.1} {}",
            rating.value,
            rating.pearl,
            rating.diamond,
            rating.level().name()
        );
        assert!(line.starts_with(&expected), "{line}");
    }
    let explained = sudokud(&[&["explain"][..], &box_args].concat(), &lines[0], &[]).await;
    assert!(explained.status.success(), "{}", stderr(&explained));
    let out = stdout(&explained);
    assert!(out.contains("r12c") || out.contains("c12="), "{out}");
    assert!(out.contains("  rating "), "{out}");
    let (puzzle, solution) = &set[0];
    let hint = sudokud(&[&["hint", &lines[0]][..], &box_args].concat(), "", &[]).await;
    assert!(hint.status.success(), "{}", stderr(&hint));
    let out = stdout(&hint);
    // The step places or removes candidates that agree with the solution.
    let step = logic::hint(puzzle.cells(), solution, None, &|| false)
        .next
        .unwrap();
    let Next::Logic(step) = step else {
        panic!("expected a logical step")
    };
    assert_eq!(
        out.trim(),
        format!("[{:.1}] {}", step.rating, step.describe(12))
    );
}
