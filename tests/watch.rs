//! `sudokud watch` against a real server, in its non-terminal mode (stdout is a
//! pipe here): one line per step, then the grid, the solution and the statistics.

mod common;

use std::process::{Command, Output};

use sudokud::pb::{self, SolveStepsResponse as Message, solve_steps_response::Event};

async fn watch(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_sudokud"))
            .arg("watch")
            .args(args)
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

/// The number after `name ` in the stats line.
fn stat(stats: &str, name: &str) -> u64 {
    let mut words = stats.split_whitespace();
    words.find(|word| *word == name).unwrap();
    words.next().unwrap().parse().unwrap()
}

#[tokio::test]
async fn watch_prints_every_step_then_the_solution_and_statistics() {
    let server = common::server::start().await;
    let puzzle = common::puzzles("norvig_top95.txt")[2].clone();
    let output = watch(vec![
        "--addr".into(),
        server.address.to_string(),
        "--algorithm".into(),
        "propagation".into(),
        puzzle.clone(),
    ])
    .await;
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    let steps: Vec<&str> = lines
        .iter()
        .copied()
        .take_while(|line| !line.starts_with("outcome:"))
        .collect();
    for (index, line) in steps.iter().enumerate() {
        let mut words = line.split_whitespace();
        assert_eq!(
            words.next(),
            Some((index + 1).to_string().as_str()),
            "{line}"
        );
        assert!(
            matches!(words.next(), Some("place" | "backtrack")),
            "{line}"
        );
    }
    // A backtrack repeats the reason of the placement it undoes: count placements.
    let guesses = steps
        .iter()
        .filter(|line| line.contains(" place ") && line.contains(" guess "))
        .count() as u64;

    assert!(text.contains("outcome: solved"), "{text}");
    assert!(!text.contains("warning"), "{text}");
    let solution = lines
        .iter()
        .find_map(|line| line.strip_prefix("solution: "))
        .unwrap();
    assert!(common::is_solution(&puzzle, solution), "{solution}");
    let stats = lines
        .iter()
        .find_map(|line| line.strip_prefix("stats: "))
        .unwrap();
    assert_eq!(
        steps.len() as u64,
        stat(stats, "placements") + stat(stats, "backtracks")
    );
    assert_eq!(guesses, stat(stats, "guesses"));
    // The grid printed is the replay of the steps: its digits spell the solution.
    let grid: String = lines
        .iter()
        .skip(steps.len() + 1)
        .take(11)
        .flat_map(|line| line.chars().filter(char::is_ascii_digit))
        .collect();
    assert_eq!(grid, solution);
}

#[tokio::test]
async fn watch_reports_the_servers_error_and_fails() {
    let server = common::server::start().await;
    let output = watch(vec![
        "--addr".into(),
        server.address.to_string(),
        "55".into(),
    ])
    .await;
    assert!(!output.status.success());
    let error = String::from_utf8(output.stderr).unwrap();
    assert!(error.contains("InvalidArgument"), "{error}");
    assert!(error.contains("expected 81"), "{error}");
}

/// A server that starts a stream on a puzzle and then sends one step of its own
/// making: what a broken or hostile server could send.
struct OneStepServer {
    step: pb::Step,
}

#[tonic::async_trait]
impl pb::sudoku_service_server::SudokuService for OneStepServer {
    async fn solve(
        &self,
        _: tonic::Request<pb::SolveRequest>,
    ) -> Result<tonic::Response<pb::SolveResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }

    type SolveStepsStream = tokio_stream::Iter<std::vec::IntoIter<Result<Message, tonic::Status>>>;

    async fn solve_steps(
        &self,
        request: tonic::Request<pb::SolveStepsRequest>,
    ) -> Result<tonic::Response<Self::SolveStepsStream>, tonic::Status> {
        let started = pb::Started {
            puzzle: request.into_inner().puzzle,
            ..Default::default()
        };
        let messages = vec![
            Ok(Message {
                event: Some(Event::Started(started)),
            }),
            Ok(Message {
                event: Some(Event::Steps(pb::StepBatch {
                    steps: vec![self.step],
                })),
            }),
        ];
        Ok(tonic::Response::new(tokio_stream::iter(messages)))
    }

    // The calls beyond the search are not this fake's business.
    type ExplainStream = tokio_stream::Empty<Result<pb::ExplainResponse, tonic::Status>>;

    async fn explain(
        &self,
        _: tonic::Request<pb::ExplainRequest>,
    ) -> Result<tonic::Response<Self::ExplainStream>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }

    async fn hint(
        &self,
        _: tonic::Request<pb::HintRequest>,
    ) -> Result<tonic::Response<pb::HintResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }

    async fn rate(
        &self,
        _: tonic::Request<pb::RateRequest>,
    ) -> Result<tonic::Response<pb::RateResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }

    async fn generate(
        &self,
        _: tonic::Request<pb::GenerateRequest>,
    ) -> Result<tonic::Response<pb::GenerateResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }

    type GenerateManyStream = tokio_stream::Empty<Result<pb::GenerateManyResponse, tonic::Status>>;

    async fn generate_many(
        &self,
        _: tonic::Request<pb::GenerateManyRequest>,
    ) -> Result<tonic::Response<Self::GenerateManyStream>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }
}

/// Steps off the board (a row whose cell index would overflow included), with a
/// bad digit, or that do not fit the grid end the watch with an error naming the
/// step: never a panic, never a wrong board.
#[tokio::test]
async fn watch_refuses_steps_that_are_no_steps_of_a_search() {
    let puzzle = common::puzzles("euler96_50.txt")[0].clone();
    let given = puzzle
        .find(|c: char| c.is_ascii_digit() && c != '0')
        .unwrap() as u32;
    let place = |row: u32, col: u32, digit: u32| pb::Step {
        seq: 1,
        kind: pb::StepKind::Place.into(),
        row,
        col,
        digit,
        reason: pb::Reason::Guess.into(),
        depth: 1,
    };
    let cases = [
        (place(u32::MAX / 9 + 1, 0, 1), "off the board"),
        (place(0, 9, 1), "off the board"),
        (place(0, 0, 10), "not 1-9"),
        (place(given / 9, given % 9, 1), "does not fit"),
    ];
    for (step, expected) in cases {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(
            tonic::transport::Server::builder()
                .add_service(pb::sudoku_service_server::SudokuServiceServer::new(
                    OneStepServer { step },
                ))
                .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
        );
        let output = watch(vec!["--addr".into(), address.to_string(), puzzle.clone()]).await;
        server.abort();
        let error = String::from_utf8(output.stderr).unwrap();
        assert!(!output.status.success(), "{step:?}: {error}");
        assert!(error.contains(expected), "{step:?}: {error}");
        assert!(!error.contains("panicked"), "{step:?}: {error}");
    }
}
