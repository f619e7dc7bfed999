//! f-puzzles links through the service and the command line: boards written
//! here from the variant sets' lines as f-puzzles saves them (an encoder of
//! this file, compressed by the `lz-str` crate) solve to the same answers as
//! the lines' own rules, through `Solve`, `SolveSteps` and `sudokud solve
//! --fpuzzles`; bad links are refused with the status and field users see.

mod common;

use std::path::Path;

use serde_json::{Value, json};
use sudokud::pb;
use tonic::Code;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

const SETS: [&str; 9] = [
    "killer",
    "killer6",
    "jigsaw",
    "x",
    "windoku",
    "antiknight",
    "thermo",
    "extra",
    "jigsaw+antiknight",
];

/// `R1C1` of a 0-based cell on a grid of side `n`.
fn rc(cell: &Value, n: u64) -> Value {
    let cell = cell.as_u64().unwrap();
    json!(format!("R{}C{}", cell / n + 1, cell % n + 1))
}

/// The f-puzzles board of one line of a variant set (its rules in their
/// proto3 JSON form), as f-puzzles would save it.
fn board_of(line: &Value) -> Value {
    let puzzle: Vec<char> = line["puzzle"].as_str().unwrap().chars().collect();
    let n = (puzzle.len() as f64).sqrt() as u64;
    let rules = &line["rules"];
    let labels: Option<Vec<String>> = rules["regions"].as_str().map(|text| {
        if text.contains(',') {
            text.split(',').map(str::to_owned).collect()
        } else {
            text.chars().map(String::from).collect()
        }
    });
    let mut names: Vec<String> = Vec::new();
    let mut grid = Vec::new();
    for row in 0..n {
        let mut cells = Vec::new();
        for col in 0..n {
            let index = (row * n + col) as usize;
            let mut cell = json!({"cornerPencilMarks": []});
            if let Some(digit) = puzzle[index].to_digit(10).filter(|&digit| digit > 0) {
                cell = json!({"value": digit, "given": true});
            }
            if let Some(labels) = &labels {
                let label = &labels[index];
                if !names.contains(label) {
                    names.push(label.clone());
                }
                cell["region"] = json!(names.iter().position(|name| name == label));
            }
            cells.push(cell);
        }
        grid.push(Value::Array(cells));
    }
    let mut board =
        json!({"size": n, "title": line["name"], "author": "", "grid": grid, "arrow": []});
    let cells = |list: &Value| -> Value {
        Value::Array(
            list.as_array()
                .unwrap()
                .iter()
                .map(|cell| rc(cell, n))
                .collect(),
        )
    };
    if rules["diagonal"] == json!(true) {
        board["diagonal+"] = json!(true);
        board["diagonal-"] = json!(true);
    }
    for (ours, theirs) in [("antiKnight", "antiknight"), ("antiKing", "antiking")] {
        if rules[ours] == json!(true) {
            board[theirs] = json!(true);
        }
    }
    if let Some(cages) = rules["cages"].as_array() {
        let cages = cages.iter().map(|cage| {
            let sum = cage["sum"].as_u64().map(|sum| sum.to_string());
            json!({"cells": cells(&cage["cells"]), "value": sum})
        });
        board["killercage"] = Value::Array(cages.collect());
    }
    if let Some(lines) = rules["thermometers"].as_array() {
        let lines = lines
            .iter()
            .map(|line| json!({"lines": [cells(&line["cells"])]}));
        board["thermometer"] = Value::Array(lines.collect());
    }
    let mut extra: Vec<Value> = rules["extraRegions"]
        .as_array()
        .map(|regions| {
            regions
                .iter()
                .map(|region| cells(&region["cells"]))
                .collect()
        })
        .unwrap_or_default();
    if rules["windoku"] == json!(true) {
        for (top, left) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
            let window = (0..9).map(|at| json!((top + at / 3) * 9 + left + at % 3));
            extra.push(cells(&Value::Array(window.collect())));
        }
    }
    if !extra.is_empty() {
        let regions = extra.into_iter().map(|cells| json!({"cells": cells}));
        board["extraregion"] = Value::Array(regions.collect());
    }
    board
}

fn link(board: &Value) -> String {
    let payload = lz_str::compress_to_base64(board.to_string().as_str());
    format!("https://www.f-puzzles.com/?load={payload}")
}

/// The first `count` lines of a set.
fn lines(name: &str, count: usize) -> Vec<Value> {
    let path = Path::new(ROOT).join(format!("benches/variants/data/{name}.jsonl"));
    let text = std::fs::read_to_string(path).unwrap();
    let lines = text.lines().take(count);
    lines
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The digits of an answer link's board, row-major, as the solution is
/// written (the link read back by the `lz-str` crate).
fn filled_in(link: &str) -> String {
    let payload = link.split_once("load=").expect("an f-puzzles link").1;
    let units = lz_str::decompress_from_base64(payload).expect("LZ-string base64");
    let board: Value = serde_json::from_str(&String::from_utf16(&units).unwrap()).unwrap();
    let rows = board["grid"].as_array().unwrap();
    let cells = rows.iter().flat_map(|row| row.as_array().unwrap().iter());
    cells.map(|cell| cell["value"].to_string()).collect()
}

fn by_link(link: String) -> pb::Rules {
    pb::Rules {
        fpuzzles: link,
        ..pb::Rules::default()
    }
}

#[tokio::test]
async fn links_solve_through_solve_and_solve_steps_as_their_rules_do() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    for name in SETS {
        for line in lines(name, 2) {
            let answer = client
                .solve(pb::SolveRequest {
                    rules: Some(by_link(link(&board_of(&line)))),
                    check_unique: true,
                    ..Default::default()
                })
                .await
                .unwrap()
                .into_inner();
            assert_eq!(answer.solution_count, 1, "{name}");
            assert_eq!(
                answer.solution,
                line["solution"].as_str().unwrap(),
                "{name}"
            );
            assert_eq!(filled_in(&answer.fpuzzles), answer.solution, "{name}");
        }
    }
    // Without a link, no answer link.
    let line = &lines("x", 1)[0];
    let plain = client
        .solve(pb::SolveRequest {
            puzzle: line["puzzle"].as_str().unwrap().to_owned(),
            rules: Some(pb::Rules {
                diagonal: true,
                ..pb::Rules::default()
            }),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(plain.fpuzzles.is_empty() && !plain.solution.is_empty());
    let line = &lines("killer", 1)[0];
    let mut stream = client
        .solve_steps(pb::SolveStepsRequest {
            rules: Some(by_link(link(&board_of(line)))),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut first = None;
    let mut solution = String::new();
    while let Some(message) = stream.message().await.unwrap() {
        match message.event {
            Some(pb::solve_steps_response::Event::Started(started)) => first = Some(started),
            Some(pb::solve_steps_response::Event::Finished(finished)) => {
                solution = finished.solution;
            }
            _ => {}
        }
    }
    let started = first.expect("a started message");
    // The stream shows the rules the link held, for a dashboard to draw.
    let rules = started.rules.expect("the rules read");
    assert!(rules.fpuzzles.is_empty());
    assert_eq!(
        rules.cages.len(),
        line["rules"]["cages"].as_array().unwrap().len()
    );
    assert_eq!(solution, line["solution"].as_str().unwrap());
}

#[tokio::test]
async fn bad_links_are_refused_with_their_status_and_field() {
    use tonic_types::StatusExt;
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let good = link(&board_of(&lines("x", 1)[0]));
    let mut arrow = board_of(&lines("x", 1)[0]);
    arrow["arrow"] = json!([{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"]]}]);
    let with_puzzle = pb::SolveRequest {
        puzzle: ".".repeat(81),
        rules: Some(by_link(good.clone())),
        ..Default::default()
    };
    let with_rules = pb::SolveRequest {
        rules: Some(pb::Rules {
            anti_knight: true,
            ..by_link(good)
        }),
        ..Default::default()
    };
    let with_arrow = pb::SolveRequest {
        rules: Some(by_link(link(&arrow))),
        ..Default::default()
    };
    let garbled = pb::SolveRequest {
        rules: Some(by_link("https://www.f-puzzles.com/?load=%%%".to_owned())),
        ..Default::default()
    };
    let cases = [
        (with_puzzle, "puzzle", "leave puzzle empty"),
        (with_rules, "rules.fpuzzles", "other rules fields"),
        (with_arrow, "rules.fpuzzles.arrow", "\"arrow\""),
        (garbled, "rules.fpuzzles", "base64"),
    ];
    for (request, field, words) in cases {
        let status = client.solve(request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{field}: {status:?}");
        assert!(status.message().contains(words), "{status:?}");
        let details = status.get_error_details();
        let violations = &details
            .bad_request()
            .expect("a BadRequest")
            .field_violations;
        assert_eq!(violations[0].field, field);
    }
    let bomb = lz_str::compress_to_base64("{".repeat(3_000_000).as_str());
    let status = client
        .solve(pb::SolveRequest {
            rules: Some(by_link(bomb)),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    // Generation makes puzzles: it takes no link.
    let status = client
        .generate(pb::GenerateRequest {
            rules: Some(by_link(link(&board_of(&lines("x", 1)[0])))),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
}

#[tokio::test]
async fn solve_fpuzzles_answers_the_link_s_puzzle_here_and_on_a_server() {
    let line = &lines("thermo", 1)[0];
    let link = link(&board_of(line));
    let solution = line["solution"].as_str().unwrap();
    let output = common::process::sudokud(&["solve", "--fpuzzles", &link], "", &[]).await;
    assert_eq!(
        common::process::stdout(&output).trim(),
        solution,
        "{output:?}"
    );
    let counted =
        common::process::sudokud(&["solve", "--count", "--fpuzzles", &link], "", &[]).await;
    assert_eq!(common::process::stdout(&counted).trim(), "1");
    // Rated and explained under the link's rules too.
    let rated = common::process::sudokud(&["rate", "--fpuzzles", &link], "", &[]).await;
    let rating = common::process::stdout(&rated);
    assert!(
        rating.chars().next().is_some_and(|c| c.is_ascii_digit()),
        "{rated:?}"
    );
    let explained = common::process::sudokud(&["explain", "--fpuzzles", &link], "", &[]).await;
    let text = common::process::stdout(&explained);
    assert!(text.contains("thermometer: remove"), "{text}");
    // Hinted under them: the link is the puzzle, the argument the position.
    let hinted = common::process::sudokud(&["hint", "--fpuzzles", &link], "", &[]).await;
    let first = common::process::stdout(&hinted);
    assert!(first.starts_with('['), "{hinted:?}");
    let puzzle = line["puzzle"].as_str().unwrap();
    let empty = puzzle.find(['.', '0']).unwrap();
    let wrong_digit = (solution.as_bytes()[empty] - b'0') % 9 + 1;
    let mut position = puzzle.to_owned();
    position.replace_range(empty..=empty, &wrong_digit.to_string());
    let hint = ["hint", "--fpuzzles", &link, &position];
    let hinted = common::process::sudokud(&hint, "", &[]).await;
    let wrong = format!("wrong: r{}c{}={wrong_digit}", empty / 9 + 1, empty % 9 + 1);
    assert!(
        common::process::stdout(&hinted).starts_with(&wrong),
        "{hinted:?}"
    );
    let both = ["explain", "--fpuzzles", &link, "puzzles.txt"];
    let refused = common::process::sudokud(&both, "", &[]).await;
    assert!(
        common::process::stderr(&refused).contains("--fpuzzles carries the puzzle"),
        "{refused:?}"
    );
    let server = common::server::start().await;
    let address = server.address.to_string();
    let remote = ["solve", "--fpuzzles", &link, "--remote", &address];
    let output = common::process::sudokud(&remote, "", &[]).await;
    assert_eq!(
        common::process::stdout(&output).trim(),
        solution,
        "{output:?}"
    );
    let refused = common::process::sudokud(&["solve", "--fpuzzles", "load=N4Ig"], "", &[]).await;
    assert!(!refused.status.success());
    assert!(
        common::process::stderr(&refused).contains("--fpuzzles"),
        "{refused:?}"
    );
}
