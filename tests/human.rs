//! Service tests of the RPCs beyond the search (`Explain`, `Hint`, `Rate`,
//! `Generate`, `GenerateMany`): the real server on `127.0.0.1:0`, a real tonic
//! client; success, bad input, deadlines and cancelled streams. Every step the
//! server explains is checked against the solution found by the search engine.

mod common;

use std::time::Duration;

use common::server::start;
use common::{assert_deadline, puzzles, two_solution_puzzles, unsolvable_puzzles};
use sudokud::board::Board;
use sudokud::generate::{self, Symmetry};
use sudokud::pb::{self, explain_response::Event};
use sudokud::service::Tracker;
use sudokud::solver::{Algorithm, Control, count_solutions};
use tonic::{Code, Request};
use tonic_types::StatusExt;

/// The unique solution of a puzzle, by the search engine's counter.
fn solution_of(puzzle: &str) -> Board {
    let report = count_solutions(
        &Board::parse(puzzle).unwrap(),
        Algorithm::Bitboard,
        &Control::UNTIMED,
    )
    .unwrap();
    assert_eq!(report.solution_count, 1, "{puzzle}");
    report.solution.unwrap()
}

fn agrees(solution: &Board, candidate: &pb::Candidate, placed: bool) -> bool {
    let cell = (candidate.row * 9 + candidate.col) as usize;
    (solution.get(cell) == candidate.digit as u8) == placed
}

/// Waits until no stream is open on the server; fails the test after 10 s.
async fn until_no_stream_is_open(tracker: &Tracker) {
    tokio::time::timeout(Duration::from_secs(10), async {
        let mut live = tracker.subscribe();
        while tracker.streams_open() > 0 {
            let _ = tokio::time::timeout(Duration::from_millis(50), live.changed()).await;
        }
    })
    .await
    .expect("a stream stayed open after its client left");
}

/// The techniques other than the contradictions whose steps carry links.
const LINKED: [&str; 3] = ["skyscraper", "2-string kite", "xy-wing"];

#[tokio::test]
async fn explain_streams_sound_steps_and_finishes_with_the_solution() {
    let mut server = start().await;
    let mut chains = 0;
    for puzzle in puzzles("norvig_top95.txt").iter().take(10) {
        let solution = solution_of(puzzle);
        let request = pb::ExplainRequest {
            puzzle: puzzle.clone(),
            finish_by_search: true,
            max_batch: 7,
            ..Default::default()
        };
        let mut stream = server.client.explain(request).await.unwrap().into_inner();
        let mut events = Vec::new();
        while let Some(message) = stream.message().await.unwrap() {
            events.push(message.event.unwrap());
        }
        let Some(Event::Started(started)) = events.first() else {
            panic!("no started first")
        };
        assert_eq!(&started.puzzle, puzzle);
        let Some(Event::Finished(finished)) = events.last() else {
            panic!("no finished last")
        };
        assert_eq!(finished.solution, solution.to_line());
        let mut seq = 0;
        for event in &events[1..events.len() - 1] {
            let Event::Steps(batch) = event else {
                panic!("a second started or finished")
            };
            assert!(batch.steps.len() <= 7);
            for step in &batch.steps {
                seq += 1;
                assert_eq!(step.seq, seq);
                assert!(
                    step.placements.iter().all(|c| agrees(&solution, c, true)),
                    "{step:?}"
                );
                assert!(
                    step.eliminations
                        .iter()
                        .all(|c| agrees(&solution, c, false)),
                    "{step:?}"
                );
                assert_eq!(step.by_search, step.technique == "search");
                // A chain step's links join up, each between candidates on the
                // grid: a forcing chain's out of the candidate it removes or
                // places, the others' (a cycle's too) one line.
                let chain = step.technique.contains("chain");
                let cycle = step.technique.contains("cycle");
                assert_eq!(
                    !step.links.is_empty(),
                    chain || cycle || LINKED.contains(&step.technique.as_str()),
                    "{step:?}"
                );
                for link in &step.links {
                    for end in [&link.start, &link.end] {
                        let end = end.as_ref().unwrap();
                        assert!(
                            end.row < 9 && end.col < 9 && (1..=9).contains(&end.digit),
                            "{step:?}"
                        );
                    }
                }
                let target = step.eliminations.first().or(step.placements.first());
                if step.technique.ends_with("forcing chains") {
                    // Cell and region forcing chains: branches one after
                    // another, each a line that ends at what they all force.
                    for pair in step.links.windows(2) {
                        let joined = pair[0].end == pair[1].start;
                        assert!(joined || pair[0].end.as_ref() == target, "{step:?}");
                    }
                    assert_eq!(step.links.last().unwrap().end.as_ref(), target, "{step:?}");
                    chains += 1;
                } else if chain {
                    assert_eq!(step.links[0].start.as_ref(), target, "{step:?}");
                    for (i, link) in step.links.iter().enumerate().skip(1) {
                        let reached = link.start == step.links[0].start
                            || step.links[..i].iter().any(|l| l.end == link.start);
                        assert!(reached, "{step:?}");
                    }
                    chains += 1;
                } else {
                    for pair in step.links.windows(2) {
                        assert_eq!(pair[0].end, pair[1].start, "{step:?}");
                        assert_ne!(pair[0].strong, pair[1].strong, "{step:?}");
                    }
                }
            }
        }
        assert!(finished.rating >= 1.0, "{finished:?}");
        assert_eq!(finished.needed_search, finished.technique.is_empty());
    }
    // The first ten of norvig_top95 need forcing chains: their links were checked.
    assert!(chains > 0);
}

#[tokio::test]
async fn explain_sends_the_steps_up_to_its_cap_then_resource_exhausted() {
    let mut server = start().await;
    let puzzle = puzzles("norvig_top95.txt")[0].clone();
    let whole = sudokud::logic::explain(&Board::parse(&puzzle).unwrap());
    assert!(whole.steps.len() > 5);
    for (max_steps, capped) in [(5, true), (whole.steps.len() as u64, false)] {
        let request = pb::ExplainRequest {
            puzzle: puzzle.clone(),
            finish_by_search: true,
            max_batch: 2,
            max_steps,
            ..Default::default()
        };
        let mut stream = server.client.explain(request).await.unwrap().into_inner();
        let mut seqs = Vec::new();
        let end = loop {
            match stream.message().await {
                Ok(Some(message)) => match message.event.unwrap() {
                    Event::Steps(batch) => seqs.extend(batch.steps.iter().map(|step| step.seq)),
                    Event::Finished(finished) => break Ok(finished),
                    Event::Started(_) => {}
                },
                Ok(None) => panic!("the stream ended without finished or a status"),
                Err(status) => break Err(status),
            }
        };
        assert_eq!(seqs, (1..=max_steps).collect::<Vec<_>>());
        match end {
            Err(status) if capped => {
                assert_eq!(status.code(), Code::ResourceExhausted);
                assert!(status.message().contains("5 steps"), "{status:?}");
            }
            Ok(finished) if !capped => assert!(!finished.needed_search),
            end => panic!("cap {max_steps}: {end:?}"),
        }
    }
}

#[tokio::test]
async fn explain_and_rate_refuse_bad_puzzles_and_puzzles_without_one_solution() {
    let mut server = start().await;
    let bad = server
        .client
        .rate(pb::RateRequest {
            puzzle: "12x".into(),
            rules: None,
        })
        .await
        .unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument);
    assert!(bad.get_details_bad_request().is_some(), "{bad:?}");
    let none = &unsolvable_puzzles()[0];
    let status = server
        .client
        .rate(pb::RateRequest {
            puzzle: none.clone(),
            rules: None,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("no solution"), "{status:?}");
    let solution = solution_of(&puzzles("norvig_top95.txt")[0]).to_line();
    let two = &two_solution_puzzles(&solution)[0];
    let request = pb::ExplainRequest {
        puzzle: two.clone(),
        ..Default::default()
    };
    let status = server.client.explain(request).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(
        status.message().contains("more than one solution"),
        "{status:?}"
    );
}

#[tokio::test]
async fn rate_gives_the_hardest_step_its_level_and_the_counts() {
    let mut server = start().await;
    for puzzle in puzzles("norvig_top95.txt").iter().take(20) {
        let request = pb::RateRequest {
            puzzle: puzzle.clone(),
            rules: None,
        };
        let rated = server.client.rate(request).await.unwrap().into_inner();
        let hardest = rated
            .counts
            .iter()
            .map(|count| count.rating)
            .fold(0.0, f64::max);
        if rated.needed_search {
            assert!(rated.rating >= sudokud::logic::BEYOND_LADDER && rated.technique.is_empty());
        } else {
            assert_eq!(rated.rating, hardest, "{rated:?}");
            let set_by = rated
                .counts
                .iter()
                .find(|count| count.technique == rated.technique);
            assert_eq!(set_by.map(|count| count.rating), Some(hardest), "{rated:?}");
        }
        let level = sudokud::logic::Level::of(rated.rating);
        assert_eq!(rated.level, level.name());
        assert!(rated.search.unwrap().placements > 0);
    }
}

#[tokio::test]
async fn hint_lists_exactly_the_wrong_digits_and_a_step_that_agrees_with_the_solution() {
    let mut server = start().await;
    let puzzle = &puzzles("norvig_top95.txt")[3];
    let solution = solution_of(puzzle);
    let mut board: Vec<u8> = puzzle.bytes().collect();
    let empty: Vec<usize> = (0..81).filter(|&cell| board[cell] == b'.').collect();
    // Two right digits and one wrong one.
    board[empty[0]] = b'0' + solution.get(empty[0]);
    board[empty[1]] = b'0' + solution.get(empty[1]);
    let wrong_digit = solution.get(empty[2]) % 9 + 1;
    board[empty[2]] = b'0' + wrong_digit;
    let request = pb::HintRequest {
        puzzle: puzzle.clone(),
        board: String::from_utf8(board).unwrap(),
        rules: None,
    };
    let hint = server.client.hint(request).await.unwrap().into_inner();
    let expected = pb::Candidate {
        row: (empty[2] / 9) as u32,
        col: (empty[2] % 9) as u32,
        digit: u32::from(wrong_digit),
    };
    assert_eq!(hint.wrong, [expected]);
    let step = hint.step.unwrap();
    assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
    assert!(step.placements.iter().all(|c| agrees(&solution, c, true)));
    assert!(
        step.eliminations
            .iter()
            .all(|c| agrees(&solution, c, false))
    );
    // A board that changes a given is refused, naming the cell.
    let mut changed: Vec<u8> = puzzle.bytes().collect();
    let given = (0..81).find(|&cell| changed[cell] != b'.').unwrap();
    changed[given] = if changed[given] == b'1' { b'2' } else { b'1' };
    let request = pb::HintRequest {
        puzzle: puzzle.clone(),
        board: String::from_utf8(changed).unwrap(),
        rules: None,
    };
    let status = server.client.hint(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("the puzzle gives"), "{status:?}");
}

fn generate_request(seed: u64, symmetry: pb::Symmetry, level: &str) -> pb::GenerateRequest {
    pb::GenerateRequest {
        seed,
        symmetry: symmetry.into(),
        level: level.into(),
        ..Default::default()
    }
}

#[tokio::test]
async fn generate_makes_unique_minimal_symmetric_puzzles_in_range_and_repeats_a_seed() {
    let mut server = start().await;
    for (symmetry, engine) in [
        (pb::Symmetry::Unspecified, Symmetry::None),
        (pb::Symmetry::Rotate180, Symmetry::Rotate180),
        (pb::Symmetry::Rotate90, Symmetry::Rotate90),
        (pb::Symmetry::Mirror, Symmetry::Mirror),
        (pb::Symmetry::Diagonal, Symmetry::Diagonal),
    ] {
        let request = generate_request(11, symmetry, "hard");
        let made = server
            .client
            .generate(request.clone())
            .await
            .unwrap()
            .into_inner();
        let puzzle = Board::parse(&made.puzzle).unwrap();
        assert!(generate::is_minimal(&puzzle, engine), "{made:?}");
        assert!(made.minimal, "{made:?}");
        assert!(engine.holds(&puzzle), "{made:?}");
        assert_eq!(solution_of(&made.puzzle).to_line(), made.solution);
        assert!(
            (1.7..=2.5).contains(&made.rating) && made.level == "hard",
            "{made:?}"
        );
        assert_eq!(made.clues as usize, puzzle.filled());
        let again = server.client.generate(request).await.unwrap().into_inner();
        assert_eq!(again, made);
    }
}

#[tokio::test]
async fn generate_refuses_bad_ranges_and_stops_at_the_deadline() {
    let mut server = start().await;
    let bad = [
        generate_request(1, pb::Symmetry::Unspecified, "impossible"),
        pb::GenerateRequest {
            min_rating: 4.0,
            max_rating: 3.0,
            ..Default::default()
        },
        pb::GenerateRequest {
            min_rating: f64::NAN,
            ..Default::default()
        },
        pb::GenerateRequest {
            symmetry: 99,
            ..Default::default()
        },
    ];
    for request in bad {
        let status = server.client.generate(request.clone()).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{request:?}");
        assert!(status.get_details_bad_request().is_some(), "{status:?}");
    }
    // No puzzle rates 11 or more here: the attempts go on until the deadline.
    let mut request = Request::new(pb::GenerateRequest {
        min_rating: 11.0,
        ..Default::default()
    });
    request.set_timeout(Duration::from_millis(300));
    let status = server.client.generate(request).await.unwrap_err();
    assert_deadline(&status);
    until_no_stream_is_open(&server.tracker).await;
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(Duration::from_secs(10), live.wait_for(|&n| n == 0))
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn generate_many_streams_the_puzzles_generate_gives_for_each_seed() {
    let mut server = start().await;
    let request = pb::GenerateManyRequest {
        seed: 40,
        count: 4,
        level: "medium".into(),
        ..Default::default()
    };
    let mut stream = server
        .client
        .generate_many(request)
        .await
        .unwrap()
        .into_inner();
    let mut made = Vec::new();
    while let Some(one) = stream.message().await.unwrap() {
        made.push(one);
    }
    assert_eq!(made.len(), 4);
    for (index, one) in made.iter().enumerate() {
        assert_eq!(one.seed, 40 + index as u64);
        assert_eq!(one.level, "medium");
        let single = server
            .client
            .generate(generate_request(
                one.seed,
                pb::Symmetry::Unspecified,
                "medium",
            ))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(single.puzzle, one.puzzle);
    }
}

#[tokio::test]
async fn a_client_that_drops_an_explain_or_generate_stream_frees_it() {
    let mut server = start().await;
    let puzzle = puzzles("norvig_top95.txt")[0].clone();
    let request = pb::ExplainRequest {
        puzzle,
        step_interval_ms: 1000,
        ..Default::default()
    };
    let mut stream = server.client.explain(request).await.unwrap().into_inner();
    assert!(matches!(
        stream.message().await.unwrap().unwrap().event,
        Some(Event::Started(_))
    ));
    assert_eq!(server.tracker.streams_open(), 1);
    drop(stream);
    until_no_stream_is_open(&server.tracker).await;
    let request = pb::GenerateManyRequest {
        count: 1_000_000,
        ..Default::default()
    };
    let mut stream = server
        .client
        .generate_many(request)
        .await
        .unwrap()
        .into_inner();
    stream.message().await.unwrap().unwrap();
    drop(stream);
    until_no_stream_is_open(&server.tracker).await;
}

#[tokio::test]
async fn a_paced_explain_stream_ends_at_its_deadline() {
    let mut server = start().await;
    let puzzle = puzzles("norvig_top95.txt")[0].clone();
    let mut request = Request::new(pb::ExplainRequest {
        puzzle,
        step_interval_ms: 1000,
        ..Default::default()
    });
    request.set_timeout(Duration::from_millis(500));
    let mut stream = server.client.explain(request).await.unwrap().into_inner();
    let status = loop {
        match stream.message().await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended without its deadline"),
            Err(status) => break status,
        }
    };
    assert_deadline(&status);
    until_no_stream_is_open(&server.tracker).await;
}

/// Rate's ER/EP/ED read off the steps Explain sends: the diamond is the first
/// step's rating, the pearl the hardest up to the first that places a digit,
/// the rating the hardest of all.
#[tokio::test]
async fn rate_gives_the_pearl_and_diamond_of_the_steps_explain_sends() {
    let mut server = start().await;
    let mut pearls_below_ratings = 0;
    for puzzle in puzzles("norvig_top95.txt").iter().take(12) {
        let rated = server
            .client
            .rate(pb::RateRequest {
                puzzle: puzzle.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        let request = pb::ExplainRequest {
            puzzle: puzzle.clone(),
            ..Default::default()
        };
        let mut stream = server.client.explain(request).await.unwrap().into_inner();
        let mut steps = Vec::new();
        while let Some(message) = stream.message().await.unwrap() {
            if let Some(Event::Steps(batch)) = message.event {
                steps.extend(batch.steps);
            }
        }
        if rated.needed_search {
            continue;
        }
        let first_placing = steps.iter().position(|step| !step.placements.is_empty());
        let hardest = |steps: &[pb::LogicStep]| steps.iter().map(|s| s.rating).fold(0.0, f64::max);
        assert_eq!(rated.diamond, steps[0].rating, "{puzzle}");
        assert_eq!(
            rated.pearl,
            hardest(&steps[..=first_placing.unwrap()]),
            "{puzzle}"
        );
        assert_eq!(rated.rating, hardest(&steps), "{puzzle}");
        assert!(rated.diamond <= rated.pearl && rated.pearl <= rated.rating);
        pearls_below_ratings += usize::from(rated.pearl < rated.rating);
    }
    assert!(
        pearls_below_ratings > 0,
        "no puzzle told the pearl from the rating"
    );
}
