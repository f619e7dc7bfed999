//! The variants through the service and the command line: every set of
//! `benches/variants/data` through `Solve` (answers checked against the rules
//! by a checker of this file and counted to one), `SolveSteps` (replayed,
//! `REASON_CONSTRAINT`, resumed), `SolveBatch` and the JSON route;
//! `TrueCandidates` against an enumeration of this file; bad rules refused
//! naming their field; a classic algorithm refusing them; and `sudokud solve
//! --rules`. (Explain, Hint and Rate under variants: `explain_variants.rs`.)

mod common;

use prost::Message;
use sudokud::pb::{self, Rules};
use tonic::Code;

use common::variant::{digits, obeys, set};

const SETS: [&str; 13] = [
    "killer",
    "killer6",
    "jigsaw",
    "x",
    "windoku",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "thermo",
    "extra",
    "killer+x",
    "jigsaw+antiknight",
    "thermo+nonconsecutive",
];

#[tokio::test]
async fn every_variant_set_solves_through_solve_with_one_solution() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    for name in SETS {
        for item in set(name, 3) {
            let answer = client
                .solve(pb::SolveRequest {
                    puzzle: item.puzzle.clone(),
                    rules: Some(item.rules.clone()),
                    check_unique: true,
                    ..Default::default()
                })
                .await
                .unwrap()
                .into_inner();
            assert_eq!(answer.outcome(), pb::Outcome::Solved, "{name}");
            assert_eq!(answer.solution_count, 1, "{name}: {}", item.puzzle);
            let (givens, solved) = (digits(&item.puzzle), digits(&answer.solution));
            assert!(
                obeys(&item.rules, &givens, &solved),
                "{name}: {}",
                answer.solution
            );
        }
    }
}

/// Every message of a `SolveSteps` call: its steps and its finish.
async fn steps_of(
    client: &mut pb::sudoku_service_client::SudokuServiceClient<tonic::transport::Channel>,
    request: pb::SolveStepsRequest,
) -> (pb::Started, Vec<pb::Step>, pb::Finished) {
    let mut stream = client.solve_steps(request).await.unwrap().into_inner();
    let (mut started, mut steps, mut finished) = (None, Vec::new(), None);
    while let Some(message) = stream.message().await.unwrap() {
        match message.event.unwrap() {
            pb::solve_steps_response::Event::Started(s) => started = Some(s),
            pb::solve_steps_response::Event::Steps(batch) => steps.extend(batch.steps),
            pb::solve_steps_response::Event::Finished(f) => finished = Some(f),
        }
    }
    (started.unwrap(), steps, finished.unwrap())
}

#[tokio::test]
async fn solve_steps_of_a_killer_replay_carry_constraint_reasons_and_resume() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let item = set("killer", 1).remove(0);
    let request = pb::SolveStepsRequest {
        puzzle: item.puzzle.clone(),
        rules: Some(item.rules.clone()),
        max_batch: 16,
        ..Default::default()
    };
    let (started, steps, finished) = steps_of(&mut client, request.clone()).await;
    let echoed = started.rules.unwrap();
    assert_eq!(echoed.cages, item.rules.cages, "the rules come back");
    assert_eq!((echoed.box_rows, echoed.box_cols), (3, 3));
    let board = sudokud::board::Board::parse(&item.puzzle).unwrap();
    let givens = sudokud::board::Grid::from_board(&board);
    assert_eq!(common::replay_grid(&givens, &steps), finished.solution);
    assert!(steps.iter().any(|s| s.reason() == pb::Reason::Constraint));
    // Resumed halfway: the same steps from there on.
    let half = steps.len() as u64 / 2;
    let resumed = pb::SolveStepsRequest {
        resume_after_seq: half,
        resume_engine_version: started.engine_version.clone(),
        ..request
    };
    let (_, rest, again) = steps_of(&mut client, resumed).await;
    assert_eq!(rest.as_slice(), &steps[half as usize..]);
    assert_eq!(again.solution, finished.solution);
}

#[tokio::test]
async fn solve_batch_and_the_json_route_take_variant_rules() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let items = [set("jigsaw", 1).remove(0), set("killer6", 1).remove(0)];
    let puzzles = items
        .iter()
        .enumerate()
        .map(|(index, item)| pb::BatchPuzzle {
            id: index.to_string(),
            puzzle: item.puzzle.clone(),
            rules: Some(item.rules.clone()),
            ..Default::default()
        })
        .collect::<Vec<_>>();
    let request = pb::SolveBatchRequest::new(&puzzles);
    let mut answers = client
        .solve_batch(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let mut all = Vec::new();
    while let Some(message) = answers.message().await.unwrap() {
        all.extend(message.answers::<pb::BatchAnswer>().unwrap());
    }
    assert_eq!(all.len(), 2);
    for answer in all {
        let item = &items[answer.id.parse::<usize>().unwrap()];
        let (givens, solved) = (digits(&item.puzzle), digits(&answer.solution));
        assert!(obeys(&item.rules, &givens, &solved), "{}", answer.solution);
    }
    let item = set("thermo+nonconsecutive", 1).remove(0);
    let body = serde_json::json!({"puzzle": item.puzzle, "rules": item.json_rules});
    let headers = [("content-type", "application/json")];
    let reply = common::http::http(
        server.address,
        "POST",
        "/v1/solve",
        &headers,
        body.to_string().as_bytes(),
    )
    .await;
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let answer: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
    let solved = digits(answer["solution"].as_str().unwrap());
    assert!(obeys(&item.rules, &digits(&item.puzzle), &solved));
}

/// Every grid of a 4x4 that keeps `givens` under `rules`, by brute force over
/// all 4^16 fillings cut at the first broken pair.
fn all_solutions(rules: &Rules, givens: &[u8]) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let mut cells = givens.to_vec();
    fill(rules, givens, &mut cells, 0, &mut found);
    found
}

fn fill(rules: &Rules, givens: &[u8], cells: &mut Vec<u8>, at: usize, found: &mut Vec<Vec<u8>>) {
    if at == cells.len() {
        if obeys(rules, givens, cells) {
            found.push(cells.clone());
        }
        return;
    }
    let options: Vec<u8> = if givens[at] != 0 {
        vec![givens[at]]
    } else {
        (1..=4).collect()
    };
    for digit in options {
        cells[at] = digit;
        // Rows and columns only here; `obeys` checks the rest at the end.
        let clash = (0..at).any(|b| (b / 4 == at / 4 || b % 4 == at % 4) && cells[b] == digit);
        if !clash {
            fill(rules, givens, cells, at + 1, found);
        }
    }
    cells[at] = givens[at];
}

#[tokio::test]
async fn true_candidates_match_an_enumeration_and_stop_at_the_cap() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let rules = Rules {
        box_rows: 2,
        box_cols: 2,
        diagonal: true,
        cages: vec![pb::Cage {
            cells: vec![0, 1],
            sum: 5,
        }],
        ..Rules::default()
    };
    let givens = digits("....0.....0.....");
    for (puzzle, rules) in [
        (givens.clone(), rules.clone()),
        (
            givens,
            Rules {
                cages: vec![],
                ..rules
            },
        ),
    ] {
        let text: String = puzzle
            .iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect();
        let expected = all_solutions(&rules, &puzzle);
        assert!(expected.len() > 1);
        let answer = client
            .true_candidates(pb::TrueCandidatesRequest {
                puzzle: text.clone(),
                rules: Some(rules.clone()),
                max_solutions: 0,
            })
            .await
            .unwrap()
            .into_inner();
        let mut union = vec![0u64; 16];
        for solution in &expected {
            for (mask, &digit) in union.iter_mut().zip(solution) {
                *mask |= 1 << (digit - 1);
            }
        }
        assert_eq!(answer.candidates, union);
        assert_eq!(answer.solution_count as usize, expected.len());
        assert!(answer.complete);
        let capped = client
            .true_candidates(pb::TrueCandidatesRequest {
                puzzle: text,
                rules: Some(rules),
                max_solutions: 1,
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!((capped.solution_count, capped.complete), (1, false));
        assert!(
            capped
                .candidates
                .iter()
                .zip(&union)
                .all(|(&some, &all)| some & !all == 0)
        );
    }
}

/// The field a refused call's BadRequest names.
fn violated_field(status: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    let details = status.get_error_details();
    let bad = details.bad_request().expect("a BadRequest detail");
    bad.field_violations[0].field.clone()
}

#[tokio::test]
async fn bad_rules_are_refused_naming_their_field() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let cage = |cells: Vec<u32>, sum| pb::Cage { cells, sum };
    let line = |cells: Vec<u32>| pb::Thermometer { cells };
    let snake = "111222333111222333111222333444555666444555666444555666777888999777888999777888999";
    let cases = [
        (
            Rules {
                cages: vec![cage(vec![0, 1], 3), cage(vec![5, 5], 0)],
                ..Rules::default()
            },
            "rules.cages[1].cells[1]",
        ),
        (
            Rules {
                cages: vec![cage(vec![0, 81], 0)],
                ..Rules::default()
            },
            "rules.cages[0].cells[1]",
        ),
        (
            Rules {
                cages: vec![cage(vec![0, 1], 18)],
                ..Rules::default()
            },
            "rules.cages[0].sum",
        ),
        (
            Rules {
                thermometers: vec![line(vec![0, 2])],
                ..Rules::default()
            },
            "rules.thermometers[0].cells[1]",
        ),
        (
            Rules {
                thermometers: vec![line((0..10).map(|k| k * 9 % 81 + k / 9).collect())],
                ..Rules::default()
            },
            "rules.thermometers[0].cells",
        ),
        (
            Rules {
                regions: snake[..80].to_owned(),
                box_rows: 3,
                box_cols: 3,
                ..Rules::default()
            },
            "rules.regions",
        ),
        (
            Rules {
                regions: snake.replacen('1', "2", 1),
                ..Rules::default()
            },
            "rules.regions",
        ),
        (
            Rules {
                regions: format!("9{}1", &snake[1..80]),
                ..Rules::default()
            },
            "rules.regions",
        ),
        (
            Rules {
                extra_regions: vec![pb::Region {
                    cells: vec![0, 1, 2],
                }],
                ..Rules::default()
            },
            "rules.extra_regions[0].cells",
        ),
        (
            Rules {
                windoku: true,
                box_rows: 2,
                box_cols: 3,
                ..Rules::default()
            },
            "rules.windoku",
        ),
    ];
    let row = |r: u32| pb::Region {
        cells: (0..9).map(|c| r % 9 * 9 + c).collect(),
    };
    let many = Rules {
        extra_regions: (0..19).map(row).collect(),
        ..Rules::default()
    };
    let cases = cases.into_iter().chain([(many, "rules.extra_regions")]);
    for (rules, field) in cases {
        let puzzle = if rules.box_rows == 2 {
            ".".repeat(36)
        } else {
            ".".repeat(81)
        };
        let status = client
            .solve(pb::SolveRequest {
                puzzle,
                rules: Some(rules.clone()),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{rules:?}");
        assert_eq!(violated_field(&status), field, "{}", status.message());
    }
    // Givens a knight's move apart with the same digit.
    let mut cells = vec![b'.'; 81];
    (cells[0], cells[11]) = (b'5', b'5');
    let status = client
        .solve(pb::SolveRequest {
            puzzle: String::from_utf8(cells).unwrap(),
            rules: Some(Rules {
                anti_knight: true,
                ..Rules::default()
            }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(violated_field(&status), "puzzle");
    assert!(
        status.message().contains("r1c1 and r2c3 both hold 5"),
        "{}",
        status.message()
    );
}

#[tokio::test]
async fn a_classic_algorithm_refuses_variant_rules() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let item = set("killer", 1).remove(0);
    let status = client
        .solve(pb::SolveRequest {
            puzzle: item.puzzle,
            rules: Some(item.rules),
            algorithm: pb::Algorithm::Backtracking.into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(violated_field(&status), "algorithm");
}

#[tokio::test]
async fn solve_rules_reads_the_json_form_and_answers_each_line() {
    let item = set("killer+x", 1).remove(0);
    let path = std::env::temp_dir().join(format!("sudokud-variants-{}.json", std::process::id()));
    std::fs::write(&path, item.json_rules.to_string()).unwrap();
    let file = path.to_str().unwrap();
    let output = common::process::sudokud(
        &["solve", "--rules", file],
        &format!("{}\n", item.puzzle),
        &[],
    )
    .await;
    let answer = common::process::stdout(&output);
    assert!(
        obeys(&item.rules, &digits(&item.puzzle), &digits(answer.trim())),
        "{answer}"
    );
    let counted = common::process::sudokud(
        &["solve", "--count", "--rules", file],
        &format!("{}\n", item.puzzle),
        &[],
    )
    .await;
    assert_eq!(common::process::stdout(&counted).trim(), "1");
    std::fs::write(&path, r#"{"cages": [{"cells": [0, 0]}]}"#).unwrap();
    let refused = common::process::sudokud(&["solve", "--rules", file], ".\n", &[]).await;
    assert!(!refused.status.success());
    assert!(common::process::stderr(&refused).contains("rules.cages[0].cells[1]"));
    // On a server over SolveBatch: the same answer.
    let server = common::server::start().await;
    let address = server.address.to_string();
    std::fs::write(&path, item.json_rules.to_string()).unwrap();
    let remote = common::process::sudokud(
        &["solve", "--remote", &address, "--rules", file],
        &format!("{}\n", item.puzzle),
        &[],
    )
    .await;
    assert_eq!(common::process::stdout(&remote), answer);
    let _ = std::fs::remove_file(&path);
    // The message form is what the rules file holds.
    assert!(!item.rules.encode_to_vec().is_empty());
}
