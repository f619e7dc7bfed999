//! `SolveSteps` resumed after a seq: the same search made again, only the later
//! steps sent and numbered on; `started` names the engine build, and a resume
//! from another build is refused. The real server on port 0, a real client.

mod common;

use common::puzzles;
use common::server::start;
use sudokud::pb::{self, Algorithm, solve_steps_response::Event};
use tonic::Code;

/// Everything a stream sent: `started`, the steps, then `finished` or the status.
async fn read(
    client: &mut pb::sudoku_service_client::SudokuServiceClient<tonic::transport::Channel>,
    request: pb::SolveStepsRequest,
) -> Result<(pb::Started, Vec<pb::Step>, pb::Finished), tonic::Status> {
    let mut stream = client.solve_steps(request).await?.into_inner();
    let (mut started, mut steps) = (None, Vec::new());
    while let Some(message) = stream.message().await? {
        match message.event.unwrap() {
            Event::Started(first) => started = Some(first),
            Event::Steps(batch) => steps.extend(batch.steps),
            Event::Finished(finished) => return Ok((started.unwrap(), steps, finished)),
        }
    }
    panic!("the stream ended without finished or a status")
}

/// `finished` without the time the search took.
fn without_time(mut finished: pb::Finished) -> pb::Finished {
    if let Some(stats) = finished.stats.as_mut() {
        stats.elapsed_micros = 0;
    }
    finished
}

fn request(puzzle: &str, after: u64, version: &str) -> pb::SolveStepsRequest {
    with_algorithm(puzzle, Algorithm::Backtracking, after, version)
}

fn with_algorithm(
    puzzle: &str,
    algorithm: Algorithm,
    after: u64,
    version: &str,
) -> pb::SolveStepsRequest {
    pb::SolveStepsRequest {
        puzzle: puzzle.to_owned(),
        algorithm: algorithm.into(),
        max_batch: 7,
        resume_after_seq: after,
        resume_engine_version: version.to_owned(),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_resumed_stream_sends_exactly_the_steps_after_the_seq() {
    let mut server = start().await;
    let puzzle = puzzles("euler96_50.txt")[1].clone();
    for algorithm in [
        Algorithm::Backtracking,
        Algorithm::Singles,
        Algorithm::Propagation,
        Algorithm::Bitboard,
    ] {
        let first = with_algorithm(&puzzle, algorithm, 0, "");
        let (started, whole, finished) = read(&mut server.client, first).await.unwrap();
        assert!(!started.engine_version.is_empty());
        assert!(whole.len() > 20, "{algorithm:?}: {} steps", whole.len());
        let last = whole.len() as u64;
        assert_eq!(whole.last().unwrap().seq, last);
        for after in [1, last / 3, last / 2, last - 1, last] {
            let resumed = with_algorithm(&puzzle, algorithm, after, &started.engine_version);
            let (again, steps, end) = read(&mut server.client, resumed).await.unwrap();
            assert_eq!(again.engine_version, started.engine_version);
            assert_eq!(again.algorithm, started.algorithm);
            assert_eq!(
                steps,
                whole[after as usize..].to_vec(),
                "{algorithm:?} after {after}"
            );
            assert_eq!(
                without_time(end),
                without_time(finished.clone()),
                "{algorithm:?} after {after}"
            );
        }
    }
    let (started, whole, _) = read(&mut server.client, request(&puzzle, 0, ""))
        .await
        .unwrap();
    let last = whole.len() as u64;
    let past = read(
        &mut server.client,
        request(&puzzle, last + 1, &started.engine_version),
    )
    .await;
    let status = past.unwrap_err();
    assert_eq!(status.code(), Code::OutOfRange);
    assert!(
        status.message().contains(&format!("({last})")),
        "{status:?}"
    );
}

#[tokio::test]
async fn a_resume_from_another_engine_build_is_refused() {
    let mut server = start().await;
    let puzzle = puzzles("euler96_50.txt")[1].clone();
    for version in ["", "0.0.0+0000000000000000"] {
        let status = read(&mut server.client, request(&puzzle, 5, version))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::FailedPrecondition, "{version:?}");
        assert!(
            status.message().contains("start the stream over"),
            "{status:?}"
        );
    }
}
