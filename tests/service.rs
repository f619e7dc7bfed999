//! Service tests: the real server on `127.0.0.1:0`, called through a real tonic
//! client, asserting status codes, messages and stream shape.

mod common;

use std::time::Duration;

use common::server::{start, start_with};
use common::{is_solution, puzzles, replay, two_solution_puzzles, unsolvable_puzzles};
use sudokud::pb::solve_steps_response::Event;
use sudokud::pb::{self, Algorithm, Outcome};
use sudokud::service::{Limits, Tracker};
use tonic::{Code, Request, Status, Streaming};
use tonic_types::StatusExt;

/// Waits until no solve runs on the server; fails the test after 10 s.
async fn until_no_solve_runs(tracker: &Tracker) {
    let mut live = tracker.subscribe();
    tokio::time::timeout(Duration::from_secs(10), live.wait_for(|&n| n == 0))
        .await
        .expect("a solver kept running after its call ended")
        .unwrap();
}

/// Waits until at least one solve runs on the server.
async fn until_a_solve_runs(tracker: &Tracker) {
    let mut live = tracker.subscribe();
    tokio::time::timeout(Duration::from_secs(10), live.wait_for(|&n| n > 0))
        .await
        .expect("no solve started")
        .unwrap();
}

fn solve_request(puzzle: &str, algorithm: Algorithm) -> pb::SolveRequest {
    pb::SolveRequest {
        puzzle: puzzle.to_owned(),
        algorithm: algorithm.into(),
        ..Default::default()
    }
}

fn steps_request(puzzle: &str, algorithm: Algorithm) -> pb::SolveStepsRequest {
    pb::SolveStepsRequest {
        puzzle: puzzle.to_owned(),
        algorithm: algorithm.into(),
        ..Default::default()
    }
}

/// The defeater of plain backtracking: about 69 million placements.
fn long_puzzle() -> String {
    puzzles("plb_hard20.txt")[0].clone()
}

#[tokio::test]
async fn solve_answers_with_a_valid_solution_for_every_algorithm() {
    let mut server = start().await;
    let puzzle = puzzles("norvig_top95.txt")[1].clone();
    for (asked, used) in [
        (Algorithm::Unspecified, Algorithm::Bitboard),
        (Algorithm::Bitboard, Algorithm::Bitboard),
        (Algorithm::Backtracking, Algorithm::Backtracking),
        (Algorithm::Singles, Algorithm::Singles),
        (Algorithm::Propagation, Algorithm::Propagation),
    ] {
        let response = server
            .client
            .solve(solve_request(&puzzle, asked))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(response.outcome(), Outcome::Solved);
        assert!(is_solution(&puzzle, &response.solution), "{asked:?}");
        assert_eq!(response.algorithm(), used);
        assert_eq!(response.solution_count, 0, "not asked to count");
        let stats = response.stats.unwrap();
        assert!(stats.placements >= 81 - 17, "{stats:?}");
    }
}

#[tokio::test]
async fn solve_reports_the_same_steps_whether_it_ran_inline_or_on_the_pool() {
    // Short searches run on the runtime's thread, longer ones start over on the
    // blocking pool: either way the statistics are those of one search.
    let mut server = start().await;
    for puzzle in puzzles("norvig_top95.txt").iter().take(4) {
        for algorithm in [Algorithm::Backtracking, Algorithm::Bitboard] {
            let engine = match algorithm {
                Algorithm::Backtracking => sudokud::solver::Algorithm::Backtracking,
                _ => sudokud::solver::Algorithm::Bitboard,
            };
            let board = sudokud::board::Board::parse(puzzle).unwrap();
            let control = sudokud::solver::Control::UNLIMITED;
            let expected =
                sudokud::solver::solve(&board, engine, &control, &mut sudokud::solver::NoEvents)
                    .unwrap();
            let response = server
                .client
                .solve(solve_request(puzzle, algorithm))
                .await
                .unwrap()
                .into_inner();
            let stats = response.stats.unwrap();
            assert_eq!(
                (stats.placements, stats.backtracks, stats.guesses),
                (
                    expected.stats.placements,
                    expected.stats.backtracks,
                    expected.stats.guesses
                ),
                "{algorithm:?} {puzzle}"
            );
        }
    }
}

#[tokio::test]
async fn solve_counts_solutions_when_asked() {
    let mut server = start().await;
    let unique = puzzles("euler96_50.txt")[0].clone();
    let solution = server
        .client
        .solve(solve_request(&unique, Algorithm::Unspecified))
        .await
        .unwrap()
        .into_inner()
        .solution;
    let two = two_solution_puzzles(&solution).remove(0);
    let unsolvable = unsolvable_puzzles().remove(1);
    for (puzzle, expected) in [(&unique, 1), (&two, 2), (&unsolvable, 0)] {
        let mut request = solve_request(puzzle, Algorithm::Singles);
        request.check_unique = true;
        let response = server.client.solve(request).await.unwrap().into_inner();
        assert_eq!(response.solution_count, expected, "{puzzle}");
        if expected > 0 {
            assert!(is_solution(puzzle, &response.solution));
        }
    }
}

#[tokio::test]
async fn solve_answers_unsolvable_as_an_outcome_not_an_error() {
    let mut server = start().await;
    for puzzle in unsolvable_puzzles() {
        let response = server
            .client
            .solve(solve_request(&puzzle, Algorithm::Unspecified))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(response.outcome(), Outcome::Unsolvable);
        assert_eq!(response.solution, "");
    }
}

/// Checks a status: its code, a part of its message, and (for puzzle errors) the
/// `google.rpc.BadRequest` field violation.
fn check_status(status: &Status, code: Code, message_part: &str, field: Option<&str>) {
    assert_eq!(status.code(), code, "{status:?}");
    assert!(
        status.message().contains(message_part),
        "{:?} lacks {message_part:?}",
        status.message()
    );
    if let Some(field) = field {
        let bad_request = status
            .get_details_bad_request()
            .expect("a google.rpc.BadRequest detail");
        assert_eq!(bad_request.field_violations[0].field, field);
        assert!(!bad_request.field_violations[0].description.is_empty());
    }
}

#[tokio::test]
async fn invalid_requests_get_invalid_argument_saying_what_and_where() {
    let mut server = start().await;
    let line = puzzles("euler96_50.txt")[0].clone();
    let mut bad_character = line.clone();
    bad_character.replace_range(9..10, "x");
    let mut conflict = ".".repeat(81);
    conflict.replace_range(0..1, "7");
    conflict.replace_range(4..5, "7");
    let cases = [
        (bad_character, "'x' at r2c1 (character 10 of the text)"),
        (String::new(), "the puzzle field is missing or empty"),
        (line[..70].to_owned(), "70 cells, expected 81"),
        (format!("{line}1"), "82 cells, expected 81"),
        (conflict, "r1c1 and r1c5 both hold 7"),
    ];
    for (puzzle, message) in cases {
        let status = server
            .client
            .solve(solve_request(&puzzle, Algorithm::Unspecified))
            .await
            .unwrap_err();
        check_status(&status, Code::InvalidArgument, message, Some("puzzle"));
        let status = server
            .client
            .solve_steps(steps_request(&puzzle, Algorithm::Unspecified))
            .await
            .unwrap_err();
        check_status(&status, Code::InvalidArgument, message, Some("puzzle"));
    }
    let mut unknown = solve_request(&line, Algorithm::Unspecified);
    unknown.algorithm = 99;
    let status = server.client.solve(unknown).await.unwrap_err();
    check_status(
        &status,
        Code::InvalidArgument,
        "unknown algorithm 99",
        Some("algorithm"),
    );
}

/// Everything one stream delivered: the started message, the step batches, and how
/// it ended.
struct Received {
    started: pb::Started,
    batches: Vec<Vec<pb::Step>>,
    end: Result<pb::Finished, Status>,
}

async fn receive_all(mut stream: Streaming<pb::SolveStepsResponse>) -> Received {
    let first = stream.message().await.unwrap().expect("a first message");
    let Some(Event::Started(started)) = first.event else {
        panic!("first message is not started: {first:?}");
    };
    let mut batches = Vec::new();
    loop {
        match stream.message().await {
            Ok(Some(pb::SolveStepsResponse {
                event: Some(Event::Steps(batch)),
            })) => batches.push(batch.steps),
            Ok(Some(pb::SolveStepsResponse {
                event: Some(Event::Finished(finished)),
            })) => {
                assert!(
                    stream.message().await.unwrap().is_none(),
                    "finished is last"
                );
                return Received {
                    started,
                    batches,
                    end: Ok(finished),
                };
            }
            Ok(other) => panic!("unexpected message {other:?}"),
            Err(status) => {
                return Received {
                    started,
                    batches,
                    end: Err(status),
                };
            }
        }
    }
}

#[tokio::test]
async fn solve_steps_streams_started_batches_and_finished_in_order() {
    let mut server = start().await;
    // Top95 #19 takes the classic algorithms through guesses and backtracks in fewer
    // than 30,000 steps; the first of the forum's hardest does that for the fast
    // engines.
    let classic = &puzzles("norvig_top95.txt")[18];
    let fast = &puzzles("forum_hardest_1106.txt")[0];
    for (puzzle, algorithm) in [
        (fast, Algorithm::Unspecified),
        (fast, Algorithm::Bitboard),
        (fast, Algorithm::Propagation),
        (classic, Algorithm::Singles),
        (classic, Algorithm::Backtracking),
    ] {
        let mut request = steps_request(puzzle, algorithm);
        request.max_batch = 7;
        let stream = server
            .client
            .solve_steps(request)
            .await
            .unwrap()
            .into_inner();
        let received = receive_all(stream).await;
        assert_eq!(&received.started.puzzle, puzzle);
        assert_ne!(received.started.algorithm(), Algorithm::Unspecified);
        let finished = received.end.unwrap();
        assert_eq!(finished.outcome(), Outcome::Solved);

        let (last, full) = received.batches.split_last().unwrap();
        assert!(full.iter().all(|batch| batch.len() == 7), "{algorithm:?}");
        assert!((1..=7).contains(&last.len()));
        let steps: Vec<pb::Step> = received.batches.concat();
        for (index, step) in steps.iter().enumerate() {
            assert_eq!(step.seq, index as u64 + 1);
            assert!(step.row < 9 && step.col < 9 && (1..=9).contains(&step.digit));
        }
        let stats = finished.stats.unwrap();
        assert_eq!(stats.placements + stats.backtracks, steps.len() as u64);
        assert!(
            stats.backtracks > 0 && stats.guesses > 0,
            "{algorithm:?} {stats:?}"
        );
        assert_eq!(replay(puzzle, &steps), finished.solution, "{algorithm:?}");
        assert!(is_solution(puzzle, &finished.solution));
    }
}

#[tokio::test]
async fn solve_steps_normalizes_the_puzzle_it_starts_with() {
    let mut server = start().await;
    let puzzle = puzzles("euler96_50.txt")[3].clone();
    let grid: String = puzzle
        .replace('.', "0")
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect();
    let stream = server
        .client
        .solve_steps(steps_request(&grid, Algorithm::Propagation))
        .await
        .unwrap()
        .into_inner();
    let received = receive_all(stream).await;
    assert_eq!(received.started.puzzle, puzzle);
    let finished = received.end.unwrap();
    assert_eq!(
        replay(&puzzle, &received.batches.concat()),
        finished.solution
    );
}

#[tokio::test]
async fn a_client_that_drops_its_stream_stops_the_solver() {
    let mut server = start().await;
    let stream = server
        .client
        .solve_steps(steps_request(&long_puzzle(), Algorithm::Backtracking))
        .await
        .unwrap();
    let mut stream = stream.into_inner();
    for _ in 0..3 {
        stream.message().await.unwrap().unwrap();
    }
    assert_eq!(server.tracker.live(), 1);
    drop(stream);
    until_no_solve_runs(&server.tracker).await;
}

#[tokio::test]
async fn a_client_that_abandons_a_unary_call_stops_the_solver() {
    let server = start().await;
    let mut client = server.client.clone();
    let call = tokio::spawn(async move {
        client
            .solve(solve_request(&long_puzzle(), Algorithm::Backtracking))
            .await
    });
    until_a_solve_runs(&server.tracker).await;
    call.abort();
    until_no_solve_runs(&server.tracker).await;
}

#[tokio::test]
async fn a_deadline_ends_a_long_solve_with_deadline_exceeded() {
    let mut server = start().await;
    let mut request = Request::new(solve_request(&long_puzzle(), Algorithm::Backtracking));
    request.set_timeout(Duration::from_millis(200));
    let status = server.client.solve(request).await.unwrap_err();
    common::assert_deadline(&status);
    until_no_solve_runs(&server.tracker).await;

    let mut request = Request::new(steps_request(&long_puzzle(), Algorithm::Backtracking));
    request.set_timeout(Duration::from_millis(200));
    let stream = server
        .client
        .solve_steps(request)
        .await
        .unwrap()
        .into_inner();
    let received = receive_all(stream).await;
    let status = received.end.unwrap_err();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(!received.batches.is_empty());
    until_no_solve_runs(&server.tracker).await;
}

#[tokio::test]
async fn max_steps_ends_in_resource_exhausted_after_the_steps_so_far() {
    let mut server = start().await;
    let mut request = solve_request(&long_puzzle(), Algorithm::Backtracking);
    request.max_steps = 1000;
    let status = server.client.solve(request).await.unwrap_err();
    check_status(&status, Code::ResourceExhausted, "1000 steps", None);

    let mut request = steps_request(&long_puzzle(), Algorithm::Backtracking);
    request.max_steps = 1000;
    request.max_batch = 64;
    let stream = server
        .client
        .solve_steps(request)
        .await
        .unwrap()
        .into_inner();
    let received = receive_all(stream).await;
    check_status(
        &received.end.unwrap_err(),
        Code::ResourceExhausted,
        "1000",
        None,
    );
    let steps = received.batches.concat();
    assert_eq!(steps.len(), 1000);
    assert_eq!(steps.last().unwrap().seq, 1000);
}

#[tokio::test]
async fn the_server_step_cap_bounds_every_request() {
    let mut server = start_with(Limits {
        max_steps: 500,
        ..Limits::default()
    })
    .await;
    for asked in [0, 10_000] {
        let mut request = solve_request(&long_puzzle(), Algorithm::Backtracking);
        request.max_steps = asked;
        let status = server.client.solve(request).await.unwrap_err();
        check_status(&status, Code::ResourceExhausted, "500 steps", None);
    }
    // A request may still ask for less than the cap.
    let mut request = solve_request(&long_puzzle(), Algorithm::Backtracking);
    request.max_steps = 20;
    let status = server.client.solve(request).await.unwrap_err();
    check_status(&status, Code::ResourceExhausted, "20 steps", None);
}
