//! Explain, Hint and Rate under variant rules, through the service: every
//! step of every variant set's first puzzles checked against the set's
//! solution (no placement of a wrong digit, no elimination of a right one),
//! the variants' own techniques seen where their rules are (cage combinations
//! and innies and outies in killers, thermometers, non-consecutive
//! neighbours), the uniqueness techniques never used where rules other than
//! regions make them unsound, and hints and ratings of variant puzzles.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use sudokud::pb::{self, sudoku_service_client::SudokuServiceClient};
use tokio_stream::StreamExt;
use tonic::transport::Channel;

use common::variant::{Item, digits, set};

const SETS: [&str; 13] = [
    "killer",
    "killer6",
    "killer+x",
    "jigsaw",
    "jigsaw+antiknight",
    "x",
    "windoku",
    "extra",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "thermo",
    "thermo+nonconsecutive",
];

/// What one Explain of a set puzzle showed: the techniques of its steps,
/// and whether the techniques solved it.
struct Shown {
    techniques: BTreeSet<String>,
    solved: bool,
}

/// The (cell, digit) of a step's candidate on a grid `side` wide.
fn at(candidate: &pb::Candidate, side: usize) -> (usize, u8) {
    (
        candidate.row as usize * side + candidate.col as usize,
        candidate.digit as u8,
    )
}

/// Explains `item` (finishing by search) and checks every step against its
/// solution, and the grid the steps fill against it.
async fn explain_checked(
    client: &mut SudokuServiceClient<Channel>,
    name: &str,
    item: &Item,
) -> Shown {
    let solution = digits(&item.solution);
    let side = solution.len().isqrt();
    let mut stream = client
        .explain(pb::ExplainRequest {
            puzzle: item.puzzle.clone(),
            rules: Some(item.rules.clone()),
            finish_by_search: true,
            ..Default::default()
        })
        .await
        .unwrap_or_else(|status| panic!("{name}: {status:?}"))
        .into_inner();
    let mut cells = digits(&item.puzzle);
    let (mut techniques, mut finished) = (BTreeSet::new(), None);
    while let Some(message) = stream.next().await {
        match message.unwrap().event.unwrap() {
            pb::explain_response::Event::Started(started) => {
                let rules = started.rules.unwrap();
                assert_eq!(rules.cages, item.rules.cages, "{name}");
                assert_eq!(rules.regions, item.rules.regions, "{name}");
            }
            pb::explain_response::Event::Steps(batch) => {
                for step in batch.steps {
                    for candidate in &step.placements {
                        let (cell, digit) = at(candidate, side);
                        assert_eq!(solution[cell], digit, "{name}: {}", step.description);
                        cells[cell] = digit;
                    }
                    for candidate in &step.eliminations {
                        let (cell, digit) = at(candidate, side);
                        assert_ne!(solution[cell], digit, "{name}: {}", step.description);
                    }
                    if !step.by_search {
                        assert!(
                            !step.placements.is_empty() || !step.eliminations.is_empty(),
                            "{name}: {} changes nothing",
                            step.description
                        );
                        techniques.insert(step.technique);
                    }
                }
            }
            pb::explain_response::Event::Finished(done) => finished = Some(done),
        }
    }
    let finished = finished.unwrap_or_else(|| panic!("{name}: no finished message"));
    assert_eq!(digits(&finished.solution), solution, "{name}");
    assert_eq!(cells, solution, "{name}: the steps fill the grid");
    assert!(finished.rating >= 1.0, "{name}: {finished:?}");
    Shown {
        techniques,
        solved: !finished.needed_search,
    }
}

#[tokio::test]
async fn explain_steps_under_every_variant_agree_with_the_solution() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let mut seen: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut solved = 0;
    for name in SETS {
        for item in set(name, 3) {
            let shown = explain_checked(&mut client, name, &item).await;
            solved += usize::from(shown.solved);
            seen.entry(name).or_default().extend(shown.techniques);
        }
    }
    let used = |name: &str, technique: &str| seen[name].contains(technique);
    for killer in ["killer", "killer6", "killer+x"] {
        assert!(
            used(killer, "cage combination"),
            "{killer}: {:?}",
            seen[killer]
        );
    }
    assert!(used("killer", "innies and outies"), "{:?}", seen["killer"]);
    assert!(used("thermo", "thermometer"), "{:?}", seen["thermo"]);
    assert!(
        used("nonconsecutive", "non-consecutive"),
        "{:?}",
        seen["nonconsecutive"]
    );
    for (name, techniques) in &seen {
        if !name.starts_with("jigsaw") || name.contains('+') {
            // No uniqueness technique where other rules than houses hold.
            let unsound = techniques
                .iter()
                .find(|technique| technique.starts_with("unique") || technique.starts_with("bug"));
            assert_eq!(unsound, None, "{name}: {techniques:?}");
        }
    }
    assert!(solved >= 20, "only {solved} of 39 solved by the techniques");
}

#[tokio::test]
async fn rate_and_hint_take_variant_rules() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let item = set("killer", 1).remove(0);
    let rules = Some(item.rules.clone());
    let rated = client
        .rate(pb::RateRequest {
            puzzle: item.puzzle.clone(),
            rules: rules.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(rated.rating >= 2.1, "{rated:?}");
    assert!(!rated.needed_search, "{rated:?}");
    assert!(
        rated
            .counts
            .iter()
            .any(|count| count.technique == "cage combination")
    );

    // A position with one wrong digit: the hint names it, then steps on
    // from the position without it.
    let solution = digits(&item.solution);
    let mut position = digits(&item.puzzle);
    let empty = position.iter().position(|&d| d == 0).unwrap();
    position[empty] = solution[empty] % 9 + 1;
    let text: String = position.iter().map(|&d| char::from(b'0' + d)).collect();
    let hint = client
        .hint(pb::HintRequest {
            puzzle: item.puzzle.clone(),
            board: text.replace('0', "."),
            rules: rules.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(hint.wrong.len(), 1, "{hint:?}");
    assert_eq!(at(&hint.wrong[0], 9), (empty, position[empty]));
    let step = hint.step.unwrap();
    assert!(!step.by_search, "{step:?}");
    for candidate in &step.placements {
        let (cell, digit) = at(candidate, 9);
        assert_eq!(solution[cell], digit, "{step:?}");
    }
    for candidate in &step.eliminations {
        let (cell, digit) = at(candidate, 9);
        assert_ne!(solution[cell], digit, "{step:?}");
    }

    // Without its cages the killer has many solutions: refused as before.
    let status = client
        .rate(pb::RateRequest {
            puzzle: item.puzzle,
            rules: Some(pb::Rules {
                cages: Vec::new(),
                diagonal: true,
                ..item.rules
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::FailedPrecondition, "{status:?}");
}

#[tokio::test]
async fn the_command_line_rates_and_explains_under_a_rules_file() {
    use common::process::{stdout, sudokud};
    let item = set("thermo", 1).remove(0);
    let path = std::env::temp_dir().join(format!("sudokud-rate-rules-{}.json", std::process::id()));
    std::fs::write(&path, item.json_rules.to_string()).unwrap();
    let rules = path.to_str().unwrap();
    let rated = sudokud(
        &["rate", "--rules", rules],
        &format!("{}\n", item.puzzle),
        &[],
    )
    .await;
    assert!(rated.status.success(), "{rated:?}");
    let line = stdout(&rated);
    let rating: f64 = line.split('/').next().unwrap().parse().unwrap();
    assert!(rating >= 1.0, "{line}");
    let explained = sudokud(&["explain", "--rules", rules], &item.puzzle, &[]).await;
    let text = stdout(&explained);
    assert!(text.contains("thermometer: remove"), "{text}");
    assert!(text.contains(&format!("rating {rating:.1}")), "{text}");
    // Without its thermometers the puzzle has more than one solution.
    let classic = sudokud(&["rate"], &item.puzzle, &[]).await;
    assert!(stdout(&classic).starts_with("error: "), "{classic:?}");
    std::fs::remove_file(&path).unwrap();
}

#[tokio::test]
async fn every_jigsaw_of_the_set_is_explained_soundly() {
    // A unique rectangle counts only when its two sides lie in two regions:
    // in a jigsaw, one side in one region does not put the other side in one.
    let server = common::server::start().await;
    let mut client = server.client.clone();
    for item in set("jigsaw", 50) {
        explain_checked(&mut client, "jigsaw", &item).await;
    }
}
