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
async fn watch_takes_an_f_puzzles_link_and_the_server_picks_the_engine() {
    // The X-sudoku link of the API page's call.
    let api = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let start = api.find("https://www.f-puzzles.com/?load=").unwrap();
    let link = api[start..].split('"').next().unwrap().to_owned();
    let server = common::server::start().await;
    let output = watch(vec![
        "--addr".into(),
        server.address.to_string(),
        link.clone(),
    ])
    .await;
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("outcome: solved"), "{text}");
    let solution = text
        .lines()
        .find_map(|line| line.strip_prefix("solution: "))
        .unwrap();
    let local = Command::new(env!("CARGO_BIN_EXE_sudokud"))
        .args(["solve", "--fpuzzles", &link])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&local.stdout).trim(), solution);
}

/// An f-puzzles link of a killer of the variant sets (its givens and cages).
fn killer_link() -> (String, Vec<pb::Cage>) {
    let item = &common::variant::set("killer", 1)[0];
    let name = |cell: u32| format!("R{}C{}", cell / 9 + 1, cell % 9 + 1);
    let digits = common::variant::digits(&item.puzzle);
    let grid: Vec<Vec<serde_json::Value>> = (0..9)
        .map(|row| {
            (0..9)
                .map(|col| match digits[row * 9 + col] {
                    0 => serde_json::json!({}),
                    digit => serde_json::json!({"value": digit, "given": true}),
                })
                .collect()
        })
        .collect();
    let cages: Vec<serde_json::Value> = (item.rules.cages.iter())
        .map(|cage| {
            let cells: Vec<String> = cage.cells.iter().map(|&c| name(c)).collect();
            serde_json::json!({"cells": cells, "value": cage.sum.to_string()})
        })
        .collect();
    let board = serde_json::json!({"size": 9, "grid": grid, "killercage": cages});
    let payload = lz_str::compress_to_base64(board.to_string().as_str());
    let link = format!("https://www.f-puzzles.com/?load={payload}");
    (link, item.rules.cages.clone())
}

#[tokio::test]
async fn watch_draws_a_killer_s_cages_with_their_sums() {
    let (link, cages) = killer_link();
    let server = common::server::start().await;
    let output = watch(vec!["--addr".into(), server.address.to_string(), link]).await;
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<Vec<char>> = (text.lines())
        .skip_while(|line| !line.starts_with("outcome: solved"))
        .skip(1)
        .take(19)
        .map(|line| line.chars().collect())
        .collect();
    assert_eq!(lines.len(), 19, "{text}");
    let solution: Vec<char> = (text.lines())
        .find_map(|line| line.strip_prefix("solution: "))
        .unwrap()
        .chars()
        .collect();
    for (cell, &digit) in solution.iter().enumerate() {
        let (row, col) = (cell / 9, cell % 9);
        assert_eq!(lines[2 * row + 1][4 * col + 2], digit, "{text}");
    }
    for cage in &cages {
        let first = *cage.cells.iter().min().unwrap() as usize;
        let (row, col) = (first / 9, first % 9);
        let above: String = lines[2 * row][4 * col + 1..4 * col + 4].iter().collect();
        assert_eq!(
            above.trim_end(),
            cage.sum.to_string(),
            "r{}c{}: {text}",
            row + 1,
            col + 1
        );
        for pair in cage.cells.windows(2) {
            let (a, b) = (pair[0] as usize, pair[1] as usize);
            if a / 9 == b / 9
                && a.abs_diff(b) == 1
                && a / 27 == b / 27
                && (a % 9) / 3 == (b % 9) / 3
            {
                let between = lines[2 * (a / 9) + 1][4 * a.max(b) % 36];
                assert_eq!(
                    between,
                    ' ',
                    "inside a cage at r{}c{}: {text}",
                    a / 9 + 1,
                    a % 9 + 1
                );
            }
        }
    }
    assert!(text.contains("rules: killer cages"), "{text}");
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

    async fn true_candidates(
        &self,
        _: tonic::Request<pb::TrueCandidatesRequest>,
    ) -> Result<tonic::Response<pb::TrueCandidatesResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }

    async fn generate(
        &self,
        _: tonic::Request<pb::GenerateRequest>,
    ) -> Result<tonic::Response<pb::GenerateResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("not here"))
    }

    type SolveBatchStream = tokio_stream::Empty<Result<pb::SolveBatchResponse, tonic::Status>>;

    async fn solve_batch(
        &self,
        _: tonic::Request<tonic::Streaming<pb::SolveBatchRequest>>,
    ) -> Result<tonic::Response<Self::SolveBatchStream>, tonic::Status> {
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

/// Collects what the watch writes and tells how many lines it holds so far.
struct Lines {
    text: Vec<u8>,
    count: tokio::sync::watch::Sender<usize>,
}

impl std::io::Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.text.extend_from_slice(bytes);
        let lines = bytecount(&self.text);
        self.count.send_replace(lines);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn bytecount(text: &[u8]) -> usize {
    text.iter().filter(|&&byte| byte == b'\n').count()
}

/// The watch's lines but the statistics (their search time differs run to run).
fn without_timing(text: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(text)
        .lines()
        .filter(|line| !line.starts_with("stats: "))
        .map(str::to_owned)
        .collect()
}

async fn watch_in_process(
    address: std::net::SocketAddr,
    request: pb::SolveStepsRequest,
    count: tokio::sync::watch::Sender<usize>,
) -> (Result<pb::Finished, String>, Vec<u8>) {
    let channel = tonic::transport::Channel::from_shared(format!("http://{address}"))
        .unwrap()
        .connect_lazy();
    let mut out = Lines {
        text: Vec::new(),
        count,
    };
    let reconnect = sudokud::watch::Reconnect {
        attempts: 20,
        first_wait: std::time::Duration::from_millis(10),
    };
    let view = sudokud::watch::View::Lines;
    let finished = sudokud::watch::watch(channel, request, None, view, reconnect, &mut out).await;
    (finished.map_err(|error| error.to_string()), out.text)
}

/// A paced stream whose server shuts down mid-search (its stream ends
/// `UNAVAILABLE`) and comes back at the same address: the watch resumes after the
/// last step it showed, and prints exactly what an uninterrupted watch prints.
#[tokio::test]
async fn watch_resumes_a_stream_cut_by_a_restart_where_it_was() {
    let limits = sudokud::service::Limits {
        shutdown_grace: std::time::Duration::ZERO,
        ..Default::default()
    };
    let mut first = common::server::start_with(limits.clone()).await;
    let address = first.address;
    let request = pb::SolveStepsRequest {
        puzzle: common::puzzles("euler96_50.txt")[1].clone(),
        algorithm: pb::Algorithm::Backtracking.into(),
        ..Default::default()
    };
    let (count, _) = tokio::sync::watch::channel(0);
    let (whole, whole_text) = watch_in_process(address, request.clone(), count).await;
    whole.unwrap();
    let whole_lines = without_timing(&whole_text);
    assert!(whole_lines.len() > 200, "{}", whole_lines.len());

    let paced = pb::SolveStepsRequest {
        step_interval_ms: 2,
        ..request
    };
    let (count, mut counted) = tokio::sync::watch::channel(0);
    let watching = tokio::spawn(watch_in_process(address, paced, count));
    let shown = std::time::Duration::from_secs(30);
    tokio::time::timeout(shown, counted.wait_for(|&lines| lines >= 20))
        .await
        .unwrap()
        .unwrap();
    first.shutdown.take().unwrap().send(()).unwrap();
    first.task.await.unwrap().unwrap();

    let listener = tokio::net::TcpListener::bind(address).await.unwrap();
    let second = common::server::start_on(listener, limits, Default::default());
    let (finished, text) = tokio::time::timeout(shown, watching)
        .await
        .unwrap()
        .unwrap();
    finished.unwrap();
    assert_eq!(without_timing(&text), whole_lines);
    // The second server served the rest: the stream was resumed, not replayed
    // whole by the first.
    let metrics = second.metrics.render();
    assert!(
        metrics.contains(r#"sudokud_calls_total{method="SolveSteps",code="Ok"} 1"#),
        "{metrics}"
    );
    assert!(
        first
            .metrics
            .render()
            .contains(r#"method="SolveSteps",code="Unavailable"} 1"#),
        "{}",
        first.metrics.render()
    );
}

#[tokio::test]
async fn watch_takes_a_grid_of_another_size_and_draws_it() {
    let server = common::server::start().await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sized");
    let first = |file: &str| {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        text.lines().next().unwrap().to_owned()
    };
    let (puzzle, solution) = (first("6x6.txt"), first("6x6.solutions.txt"));
    let output = watch(vec![
        "--addr".into(),
        server.address.to_string(),
        "--box".into(),
        "2x3".into(),
        puzzle,
    ])
    .await;
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("outcome: solved"), "{text}");
    // The solution line and the 6x6 grid drawn (six rows, a rule between the
    // bands of two) spell the solution of the set, written in numbers there.
    let digits: String = solution.split(',').map(str::trim).collect();
    let line = text
        .lines()
        .find_map(|line| line.strip_prefix("solution: "))
        .unwrap();
    assert_eq!(line.replace(',', ""), digits, "{text}");
    let drawn: Vec<&str> = text
        .lines()
        .skip_while(|line| !line.starts_with("outcome:"))
        .skip(1)
        .take(8)
        .collect();
    let grid: String = drawn
        .iter()
        .flat_map(|line| line.chars().filter(char::is_ascii_digit))
        .collect();
    assert_eq!(grid, digits, "{text}");
    assert_eq!(drawn.iter().filter(|line| line.starts_with('-')).count(), 2);
}
