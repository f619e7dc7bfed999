//! Generation under variant rules through the service and the command line:
//! every kind of rule (given, or regions and cages drawn at random) makes
//! puzzles whose solution keeps the rules and whose givens a counter of the
//! tests' own (`common::variant`, nothing of the engines) finds unique and
//! minimal; the same seed makes the same puzzle; `GenerateMany` gives
//! `Generate`'s puzzles seed by seed; bad requests are refused with their
//! status and field.

mod common;

use common::variant::{count_to_two, digits, obeys};
use sudokud::pb::{self, Rules};
use tonic::Code;

/// A request of each kind the generator takes.
fn kinds() -> Vec<(&'static str, pb::GenerateRequest)> {
    let with = |rules: Rules, regions: bool, cages: bool| pb::GenerateRequest {
        rules: Some(rules),
        random_regions: regions,
        random_cages: cages,
        ..Default::default()
    };
    let plain = Rules::default();
    let six = Rules {
        box_rows: 2,
        box_cols: 3,
        ..Rules::default()
    };
    let thermometer = |cells: Vec<u32>| pb::Thermometer { cells };
    vec![
        (
            "x",
            with(
                Rules {
                    diagonal: true,
                    ..plain.clone()
                },
                false,
                false,
            ),
        ),
        (
            "windoku",
            with(
                Rules {
                    windoku: true,
                    ..plain.clone()
                },
                false,
                false,
            ),
        ),
        (
            "anti-knight",
            with(
                Rules {
                    anti_knight: true,
                    ..plain.clone()
                },
                false,
                false,
            ),
        ),
        (
            "anti-king",
            with(
                Rules {
                    anti_king: true,
                    ..plain.clone()
                },
                false,
                false,
            ),
        ),
        (
            "non-consecutive",
            with(
                Rules {
                    non_consecutive: true,
                    ..plain.clone()
                },
                false,
                false,
            ),
        ),
        (
            "thermo",
            with(
                Rules {
                    thermometers: vec![
                        thermometer(vec![0, 10, 20, 30]),
                        thermometer(vec![80, 79, 78]),
                    ],
                    ..plain.clone()
                },
                false,
                false,
            ),
        ),
        ("jigsaw", with(plain.clone(), true, false)),
        (
            "jigsaw+anti-knight",
            with(
                Rules {
                    anti_knight: true,
                    ..plain.clone()
                },
                true,
                false,
            ),
        ),
        ("killer", with(plain.clone(), false, true)),
        (
            "killer 6x6+x",
            with(
                Rules {
                    diagonal: true,
                    ..six
                },
                false,
                true,
            ),
        ),
    ]
}

/// Checks one generated puzzle: the rules asked for kept, the drawn shapes
/// there, the solution keeping rules and givens, one solution, and no given
/// that could go.
fn check(name: &str, asked: &pb::GenerateRequest, made: &pb::GenerateResponse) {
    let rules = made
        .rules
        .clone()
        .expect("a variant answer carries its rules");
    let asked_rules = asked.rules.clone().unwrap_or_default();
    assert_eq!(rules.diagonal, asked_rules.diagonal, "{name}");
    assert_eq!(rules.anti_knight, asked_rules.anti_knight, "{name}");
    assert_eq!(rules.thermometers, asked_rules.thermometers, "{name}");
    assert_eq!(asked.random_regions, !rules.regions.is_empty(), "{name}");
    assert_eq!(asked.random_cages, !rules.cages.is_empty(), "{name}");
    let (puzzle, solution) = (digits(&made.puzzle), digits(&made.solution));
    assert!(
        obeys(&rules, &puzzle, &solution),
        "{name}: {}",
        made.solution
    );
    if asked.random_cages {
        let mut caged: Vec<u32> = rules.cages.iter().flat_map(|c| c.cells.clone()).collect();
        caged.sort_unstable();
        assert!(
            caged.iter().copied().eq(0..solution.len() as u32),
            "{name}: cages cover the grid"
        );
    }
    assert_eq!(count_to_two(&rules, &puzzle), 1, "{name}: {}", made.puzzle);
    assert_eq!(
        made.clues as usize,
        puzzle.iter().filter(|&&d| d != 0).count()
    );
    assert!(made.minimal, "{name}");
    for cell in (0..puzzle.len()).filter(|&c| puzzle[c] != 0) {
        let mut fewer = puzzle.clone();
        fewer[cell] = 0;
        assert_eq!(
            count_to_two(&rules, &fewer),
            2,
            "{name}: {} without cell {cell}",
            made.puzzle
        );
    }
}

#[tokio::test]
async fn every_kind_makes_unique_minimal_puzzles_that_keep_their_rules() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let mut givens_of_killers = Vec::new();
    for (name, request) in kinds() {
        for seed in [11, 12] {
            let asked = pb::GenerateRequest {
                seed,
                ..request.clone()
            };
            let made = client.generate(asked.clone()).await.unwrap().into_inner();
            check(name, &asked, &made);
            assert_eq!(made.seed, seed);
            let again = client.generate(asked.clone()).await.unwrap().into_inner();
            assert_eq!(again, made, "{name}: seed {seed} made another puzzle");
            if name == "killer" {
                givens_of_killers.push(made.clues);
            }
        }
    }
    assert!(
        givens_of_killers.iter().all(|&clues| clues <= 4),
        "{givens_of_killers:?}"
    );
}

#[tokio::test]
async fn generate_many_gives_generate_s_puzzles_seed_by_seed_with_their_own_regions() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let rules = Some(Rules {
        windoku: true,
        ..Rules::default()
    });
    let request = pb::GenerateManyRequest {
        seed: 40,
        count: 3,
        rules: rules.clone(),
        random_regions: true,
        symmetry: pb::Symmetry::Rotate180.into(),
        ..Default::default()
    };
    let mut stream = client.generate_many(request).await.unwrap().into_inner();
    let mut regions = Vec::new();
    for seed in 40..43 {
        let many = stream.message().await.unwrap().expect("three puzzles");
        let one = client
            .generate(pb::GenerateRequest {
                seed,
                rules: rules.clone(),
                random_regions: true,
                symmetry: pb::Symmetry::Rotate180.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            (many.puzzle, many.rules.clone()),
            (one.puzzle.clone(), one.rules)
        );
        let cells = digits(&one.puzzle);
        assert!(
            (0..81).all(|c| (cells[c] == 0) == (cells[80 - c] == 0)),
            "{}",
            one.puzzle
        );
        regions.push(many.rules.unwrap().regions);
    }
    assert!(stream.message().await.unwrap().is_none());
    regions.dedup();
    assert_eq!(regions.len(), 3, "each puzzle draws its own regions");
}

fn violated_field(status: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    let details = status.get_error_details();
    let violations = details.bad_request().expect("a BadRequest detail");
    violations.field_violations[0].field.clone()
}

#[tokio::test]
async fn a_rating_bound_under_variant_rules_gives_a_puzzle_rated_within_it() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let made = client
        .generate(pb::GenerateRequest {
            random_cages: true,
            max_rating: 2.2,
            seed: 5,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!((1.0..=2.2).contains(&made.rating), "{made:?}");
    assert!(
        !made.level.is_empty() && !made.technique.is_empty(),
        "{made:?}"
    );
    let rated = client
        .rate(pb::RateRequest {
            puzzle: made.puzzle.clone(),
            rules: made.rules.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(rated.rating, made.rating);
    assert_eq!(rated.technique, made.technique);
    // Without a bound, variant puzzles come unrated (rating them may take
    // a second's trials).
    let unrated = client
        .generate(pb::GenerateRequest {
            random_cages: true,
            seed: 5,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(unrated.rating, 0.0);
}

#[tokio::test]
async fn bad_generate_requests_are_refused_with_their_status_and_field() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let cage = |cells: Vec<u32>, sum| pb::Cage { cells, sum };
    let refused = |request: pb::GenerateRequest| {
        let mut client = client.clone();
        async move { client.generate(request).await.unwrap_err() }
    };
    let drawn_twice = refused(pb::GenerateRequest {
        rules: Some(Rules {
            regions: "111222333".repeat(3) + &"444555666".repeat(3) + &"777888999".repeat(3),
            ..Rules::default()
        }),
        random_regions: true,
        ..Default::default()
    })
    .await;
    assert_eq!(drawn_twice.code(), Code::InvalidArgument);
    assert_eq!(violated_field(&drawn_twice), "random_regions");
    let cages_twice = refused(pb::GenerateRequest {
        rules: Some(Rules {
            cages: vec![cage(vec![0, 1], 3)],
            ..Rules::default()
        }),
        random_cages: true,
        ..Default::default()
    })
    .await;
    assert_eq!(violated_field(&cages_twice), "random_cages");
    // Two cages of 3 in the first row of a 4x4 both need its 1 and its 2.
    let impossible = refused(pb::GenerateRequest {
        rules: Some(Rules {
            box_rows: 2,
            box_cols: 2,
            cages: vec![cage(vec![0, 1], 3), cage(vec![2, 3], 3)],
            ..Rules::default()
        }),
        ..Default::default()
    })
    .await;
    assert_eq!(
        impossible.code(),
        Code::FailedPrecondition,
        "{}",
        impossible.message()
    );
    let bad_rule = refused(pb::GenerateRequest {
        rules: Some(Rules {
            cages: vec![cage(vec![0, 81], 3)],
            ..Rules::default()
        }),
        ..Default::default()
    })
    .await;
    assert_eq!(violated_field(&bad_rule), "rules.cages[0].cells[1]");
    let _ = client
        .generate(pb::GenerateRequest::default())
        .await
        .unwrap();
}

#[tokio::test]
async fn the_command_line_writes_variant_puzzles_as_json_lines_with_their_rules() {
    let path = std::env::temp_dir().join(format!("sudokud-generate-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"antiKing": true}"#).unwrap();
    let args = [
        "generate",
        "--rules",
        path.to_str().unwrap(),
        "--random-regions",
        "--count",
        "2",
    ];
    let output = common::process::sudokud(&args, "", &[]).await;
    std::fs::remove_file(&path).unwrap();
    assert!(
        output.status.success(),
        "{}",
        common::process::stderr(&output)
    );
    let lines = common::process::stdout(&output);
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, seed) in lines.iter().zip(1..) {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["seed"], seed);
        let rules = common::variant::rules_from(&value["rules"]);
        assert!(rules.anti_king && rules.regions.len() == 81, "{line}");
        let puzzle = digits(value["puzzle"].as_str().unwrap());
        let solution = digits(value["solution"].as_str().unwrap());
        assert!(obeys(&rules, &puzzle, &solution), "{line}");
        assert_eq!(count_to_two(&rules, &puzzle), 1, "{line}");
    }
    let rated = common::process::sudokud(&["generate", "--random-cages", "--rated"], "", &[]).await;
    assert!(!rated.status.success());
    assert!(common::process::stderr(&rated).contains("not rated yet"));
}
