//! `SolveBatch` through a real client on port 0: mixed puzzles answered by id
//! with the answers (and errors) `Solve` gives, a deadline ending the whole batch,
//! a cancel stopping its solving, and flow control: a client that stops reading
//! answers stops the server from solving ahead.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use sudokud::pb::{self, Algorithm, BatchPuzzle, Outcome, SolveBatchRequest};
use tokio_stream::StreamExt;
use tonic::Code;

/// How long any wait in these tests may take before the test gives up.
const HANG_GUARD: Duration = Duration::from_secs(60);

fn puzzle(id: &str, puzzle: &str) -> BatchPuzzle {
    BatchPuzzle {
        id: id.to_owned(),
        puzzle: puzzle.to_owned(),
        ..Default::default()
    }
}

/// Sends `requests` and reads every answer to the end of the call.
async fn run(
    server: &common::server::TestServer,
    requests: Vec<SolveBatchRequest>,
) -> Result<Vec<pb::BatchAnswer>, tonic::Status> {
    let mut client = server.client.clone();
    let mut answers = client
        .solve_batch(tokio_stream::iter(requests))
        .await?
        .into_inner();
    let mut all = Vec::new();
    while let Some(message) = answers.message().await? {
        assert!(!message.is_empty());
        all.extend(message.answers::<pb::BatchAnswer>().unwrap());
    }
    Ok(all)
}

#[tokio::test]
async fn mixed_puzzles_are_each_answered_by_id_as_solve_answers_them() {
    let server = common::server::start().await;
    let easy = common::puzzles("euler96_50.txt");
    let hard = common::puzzles("norvig_top95.txt");
    let solution = {
        let mut client = server.client.clone();
        let answer = client
            .solve(pb::SolveRequest {
                puzzle: easy[0].clone(),
                ..Default::default()
            })
            .await
            .unwrap();
        answer.into_inner().solution
    };
    let two = common::two_solution_puzzles(&solution)[0].clone();
    let unsolvable = common::unsolvable_puzzles()[0].clone();
    let bad = [format!("{}x", &easy[1][..80]), "12".to_owned()];
    let mut first = vec![
        puzzle("ünïcode ✓ id", &easy[2]),
        puzzle("", &hard[0]),
        puzzle("bad-0", &bad[0]),
        puzzle("unsolvable", &unsolvable),
        BatchPuzzle {
            check_unique: true,
            ..puzzle("two", &two)
        },
        BatchPuzzle {
            algorithm: 99,
            ..puzzle("bad-algorithm", &easy[3])
        },
        BatchPuzzle {
            algorithm: Algorithm::Backtracking.into(),
            max_steps: 10,
            ..puzzle("step-limit", &hard[1])
        },
    ];
    for (index, text) in easy.iter().enumerate().skip(4).take(40) {
        first.push(puzzle(&format!("easy-{index}"), text));
    }
    let second = vec![puzzle("bad-1", &bad[1]), puzzle("  spaced id  ", &easy[1])];
    let sent: Vec<BatchPuzzle> = first.iter().chain(&second).cloned().collect();
    let answers = run(
        &server,
        vec![
            SolveBatchRequest::new(&first),
            SolveBatchRequest::default(),
            SolveBatchRequest::new(&second),
        ],
    )
    .await
    .unwrap();

    let mut by_id: HashMap<String, pb::BatchAnswer> = HashMap::new();
    for answer in answers {
        assert!(
            by_id.insert(answer.id.clone(), answer).is_none(),
            "answered twice"
        );
    }
    assert_eq!(by_id.len(), sent.len());
    for asked in &sent {
        let answer = &by_id[&asked.id];
        // Each answer is what Solve gives for the same request, error text included.
        let mut client = server.client.clone();
        let solo = client
            .solve(pb::SolveRequest {
                puzzle: asked.puzzle.clone(),
                algorithm: asked.algorithm,
                check_unique: asked.check_unique,
                max_steps: asked.max_steps,
                rules: None,
            })
            .await;
        match solo {
            Ok(solo) => {
                let solo = solo.into_inner();
                assert_eq!(answer.code, 0, "{answer:?}");
                assert!(answer.error.is_empty());
                assert_eq!(answer.outcome, solo.outcome, "{}", asked.id);
                assert_eq!(answer.solution, solo.solution, "{}", asked.id);
                assert_eq!(answer.solution_count, solo.solution_count);
                assert_eq!(answer.algorithm, solo.algorithm);
                let (stats, solo_stats) = (answer.stats.unwrap(), solo.stats.unwrap());
                assert_eq!(stats.placements, solo_stats.placements);
                assert_eq!(stats.backtracks, solo_stats.backtracks);
            }
            Err(status) => {
                assert_eq!(answer.code, status.code() as u32, "{}", asked.id);
                assert_eq!(answer.error, status.message(), "{}", asked.id);
                assert_eq!(answer.outcome, 0);
                assert!(answer.solution.is_empty());
            }
        }
    }
    assert_eq!(by_id["bad-0"].code, Code::InvalidArgument as u32);
    assert!(by_id["bad-0"].error.contains("81"), "{:?}", by_id["bad-0"]);
    assert_eq!(by_id["bad-algorithm"].code, Code::InvalidArgument as u32);
    assert_eq!(by_id["step-limit"].code, Code::ResourceExhausted as u32);
    assert_eq!(by_id["unsolvable"].outcome, Outcome::Unsolvable as i32);
    assert_eq!(by_id["two"].solution_count, 2);
    assert!(common::is_solution(&hard[0], &by_id[""].solution));
}

/// Puzzles the server has solved to the end (its solve-time histogram's count).
fn solved(server: &common::server::TestServer) -> u64 {
    server
        .metrics
        .render()
        .lines()
        .filter(|line| line.starts_with("sudokud_solve_seconds_count"))
        .filter_map(|line| line.split_whitespace().last()?.parse::<u64>().ok())
        .sum()
}

/// Hard puzzles under plain backtracking, which take seconds each.
fn slow_puzzles(count: usize) -> Vec<BatchPuzzle> {
    let hard = common::puzzles("norvig_top95.txt");
    (0..count)
        .map(|index| BatchPuzzle {
            algorithm: Algorithm::Backtracking.into(),
            ..puzzle(&format!("slow-{index}"), &hard[index % hard.len()])
        })
        .collect()
}

#[tokio::test]
async fn a_deadline_ends_the_whole_batch_with_deadline_exceeded() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    // The client never says it is done: only the deadline can end the call.
    let requests = tokio_stream::iter(vec![SolveBatchRequest::new(&slow_puzzles(16))])
        .chain(tokio_stream::pending());
    let mut request = tonic::Request::new(requests);
    request.set_timeout(Duration::from_millis(300));
    let outcome = tokio::time::timeout(HANG_GUARD, async {
        let mut answers = client.solve_batch(request).await?.into_inner();
        while answers.message().await?.is_some() {}
        Ok::<_, tonic::Status>(())
    })
    .await
    .expect("the deadline did not end the batch");
    let status = outcome.unwrap_err();
    common::assert_deadline(&status);
    // And the searches it started have stopped.
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(HANG_GUARD, live.wait_for(|&live| live == 0))
        .await
        .expect("solves still running after the deadline")
        .unwrap();
}

#[tokio::test]
async fn a_cancelled_batch_stops_its_solving() {
    let server = common::server::start().await;
    let mut client = server.client.clone();
    let (requests, outgoing) = tokio::sync::mpsc::channel(1);
    requests
        .send(SolveBatchRequest::new(&slow_puzzles(64)))
        .await
        .unwrap();
    let outgoing = tokio_stream::wrappers::ReceiverStream::new(outgoing);
    let answers = client.solve_batch(outgoing).await.unwrap().into_inner();
    let mut live = server.tracker.subscribe();
    tokio::time::timeout(HANG_GUARD, live.wait_for(|&live| live > 0))
        .await
        .expect("the batch never began solving")
        .unwrap();
    // Cancelling a bidirectional call: both halves dropped, so the client resets
    // the stream (a tonic client resets it only once its requests end too).
    drop(answers);
    drop(requests);
    tokio::time::timeout(HANG_GUARD, live.wait_for(|&live| live == 0))
        .await
        .expect("solves still running after the client left")
        .unwrap();
    let mut calls = server.metrics.render();
    tokio::time::timeout(HANG_GUARD, async {
        while !calls.contains(r#"sudokud_calls_total{method="SolveBatch""#) {
            tokio::task::yield_now().await;
            calls = server.metrics.render();
        }
    })
    .await
    .expect("the call was never closed");
    assert!(
        calls.contains(r#"sudokud_calls_total{method="SolveBatch",code="Cancelled"} 1"#),
        "{calls}"
    );
    let started = server.tracker.solves_started();
    assert!(
        started < 64,
        "all {started} puzzles were solved: the cancel stopped nothing"
    );
}

/// A client that sends 200,000 puzzles and reads no answer: the server stops
/// solving once its bounded queues are full, and stops reading, so the client
/// cannot even hand over all its requests.
#[tokio::test]
async fn a_client_that_stops_reading_stops_the_solving() {
    let server = common::server::start().await;
    let easy = common::puzzles("euler96_50.txt");
    const MESSAGES: usize = 2_000;
    const PER_MESSAGE: usize = 100;
    let pulled = Arc::new(AtomicUsize::new(0));
    let counted = pulled.clone();
    let requests = tokio_stream::iter(0..MESSAGES).map(move |message| {
        counted.fetch_add(1, Ordering::Relaxed);
        let puzzles: Vec<_> = (0..PER_MESSAGE)
            .map(|index| puzzle(&format!("{message}-{index}"), &easy[index % easy.len()]))
            .collect();
        SolveBatchRequest::new(&puzzles)
    });
    let mut client = server.client.clone();
    let _unread = client.solve_batch(requests).await.unwrap().into_inner();
    // The batch's writer waits for room to send: the client reads nothing.
    let mut waiting = server.tracker.subscribe_waiting();
    tokio::time::timeout(HANG_GUARD, waiting.wait_for(|&waiting| waiting > 0))
        .await
        .expect("the server never waited on the client")
        .unwrap();
    let solved = solved(&server);
    let total = MESSAGES * PER_MESSAGE;
    assert!(solved < (total / 4) as u64, "{solved} of {total} solved");
    assert!(
        pulled.load(Ordering::Relaxed) < MESSAGES,
        "the client sent every request message"
    );
}

/// At shutdown the batch stops reading puzzles, answers the ones it read, and
/// ends `UNAVAILABLE`, so the client knows to send the rest elsewhere.
#[tokio::test]
async fn at_shutdown_a_batch_answers_what_it_read_and_ends_unavailable() {
    let mut server = common::server::start().await;
    let easy = common::puzzles("euler96_50.txt");
    let puzzles: Vec<BatchPuzzle> = (0..5_000)
        .map(|index| puzzle(&format!("p{index}"), &easy[index % easy.len()]))
        .collect();
    // Request messages are held to --max-message-bytes (64 KiB by default).
    let messages: Vec<SolveBatchRequest> =
        puzzles.chunks(500).map(SolveBatchRequest::new).collect();
    let requests = tokio_stream::iter(messages).chain(tokio_stream::pending());
    let mut client = server.client.clone();
    let mut answers = client.solve_batch(requests).await.unwrap().into_inner();
    let mut seen = std::collections::HashSet::new();
    let first = answers.message().await.unwrap().unwrap();
    server.shutdown.take().unwrap().send(()).unwrap();
    let mut all: Vec<pb::BatchAnswer> = first.answers().unwrap();
    let status = tokio::time::timeout(HANG_GUARD, async {
        loop {
            match answers.message().await {
                Ok(Some(message)) => all.extend(message.answers::<pb::BatchAnswer>().unwrap()),
                Ok(None) => panic!("the batch ended OK with puzzles not answered"),
                Err(status) => return status,
            }
        }
    })
    .await
    .expect("the batch did not end at shutdown");
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert!(status.message().contains("another replica"), "{status:?}");
    for answer in &all {
        assert!(
            seen.insert(answer.id.clone()),
            "{} answered twice",
            answer.id
        );
        assert_eq!(answer.code, 0, "{answer:?}");
        let index: usize = answer.id[1..].parse().unwrap();
        assert!(common::is_solution(
            &easy[index % easy.len()],
            &answer.solution
        ));
    }
    assert!(!all.is_empty());
}

/// The generated types' view of `sudoku.v1`, by reflection: an encoder and a
/// decoder nobody here wrote, that know the fields from the proto alone.
fn message_type(name: &str) -> prost_reflect::MessageDescriptor {
    prost_reflect::DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET)
        .unwrap()
        .get_message_by_name(&format!("sudoku.v1.{name}"))
        .unwrap()
}

fn encoded_by_reflection(name: &str, json: serde_json::Value) -> Vec<u8> {
    let message = prost_reflect::DynamicMessage::deserialize(message_type(name), json).unwrap();
    prost::Message::encode_to_vec(&message)
}

#[test]
fn a_request_reads_each_field_where_the_proto_puts_it() {
    let sixteen = pb::Rules {
        box_rows: 4,
        box_cols: 4,
        ..Default::default()
    };
    let encoded = encoded_by_reflection(
        "SolveBatchRequest",
        serde_json::json!({"puzzles": [
            {"id": "a", "puzzle": "1.3", "algorithm": "ALGORITHM_PROPAGATION",
             "checkUnique": true, "maxSteps": "99", "rules": {"boxRows": 4, "boxCols": 4}},
            {"id": "", "puzzle": ""},
            {"id": "ü", "puzzle": "..9", "maxSteps": "18446744073709551615"},
        ]}),
    );
    let read = SolveBatchRequest::read(encoded.clone().into()).unwrap();
    let items: Vec<_> = read.puzzles().collect();
    assert_eq!(items.len(), 3);
    assert_eq!((items[0].id, items[0].puzzle), (&b"a"[..], &b"1.3"[..]));
    assert_eq!(items[0].algorithm, Algorithm::Propagation as i32);
    assert!(items[0].check_unique);
    assert_eq!(items[0].max_steps, 99);
    let rules: pb::Rules = prost::Message::decode(items[0].rules.unwrap()).unwrap();
    assert_eq!(rules, sixteen);
    assert_eq!(
        (items[1].id, items[1].puzzle, items[1].rules),
        (&b""[..], &b""[..], None)
    );
    assert!(!items[1].check_unique);
    assert_eq!(items[2].id, "ü".as_bytes());
    assert_eq!(items[2].max_steps, u64::MAX);
    assert_eq!(read.encoding(), encoded, "written back as read");
}

#[test]
fn a_request_built_from_puzzles_is_what_reflection_encodes_and_splits_in_place() {
    let puzzles: Vec<_> = (0..10)
        .map(|index| pb::BatchPuzzle {
            id: index.to_string(),
            puzzle: format!("{index}..."),
            check_unique: index % 2 == 0,
            ..Default::default()
        })
        .collect();
    let mut request = SolveBatchRequest::new(&puzzles);
    let json: Vec<_> = puzzles
        .iter()
        .map(|puzzle| {
            serde_json::json!({"id": puzzle.id, "puzzle": puzzle.puzzle,
                "checkUnique": puzzle.check_unique})
        })
        .collect();
    let expected = encoded_by_reflection("SolveBatchRequest", serde_json::json!({"puzzles": json}));
    assert_eq!(request.encoding(), expected);
    let tail = request.split_off(4);
    assert_eq!((request.len(), tail.len()), (4, 6));
    let ids: Vec<_> = tail.puzzles().map(|item| item.id.to_vec()).collect();
    assert_eq!(ids[0], b"4");
    assert_eq!([request.encoding(), tail.encoding()].concat(), expected);
}

#[test]
fn unknown_fields_are_skipped_and_a_field_given_twice_counts_as_the_last() {
    use prost::encoding::{WireType, encode_key, encode_varint};
    let mut puzzle = Vec::new();
    prost::encoding::string::encode(2, &"first".to_owned(), &mut puzzle);
    prost::encoding::uint64::encode(99, &7, &mut puzzle);
    prost::encoding::string::encode(2, &"last".to_owned(), &mut puzzle);
    let mut message = Vec::new();
    prost::encoding::fixed32::encode(7, &1, &mut message);
    encode_key(1, WireType::LengthDelimited, &mut message);
    encode_varint(puzzle.len() as u64, &mut message);
    message.extend(&puzzle);
    let read = SolveBatchRequest::read(message.into()).unwrap();
    let items: Vec<_> = read.puzzles().collect();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].puzzle, b"last");
}

#[test]
fn a_malformed_request_or_response_is_an_error_not_a_panic() {
    let request = SolveBatchRequest::new(&[puzzle("1", &"1".repeat(81))]).encoding();
    let mut response = pb::SolveBatchResponse::default();
    response.push(&pb::BatchAnswer {
        id: "1".into(),
        solution: "1".repeat(81),
        ..Default::default()
    });
    let response = response.encoding().to_vec();
    for cut in 1..request.len() {
        assert!(
            SolveBatchRequest::read(request[..cut].to_vec().into()).is_err(),
            "cut at {cut}"
        );
    }
    for cut in 1..response.len() {
        let read = pb::SolveBatchResponse::read(&response[..cut]);
        assert!(read.is_err(), "cut at {cut}");
    }
    // A group, puzzles as a varint, a puzzle's text as a varint, an overlong varint.
    for bad in [
        &[0x0b][..],
        &[0x08, 0x01],
        &[0x0a, 0x02, 0x10, 0x01],
        &[0xff; 11],
    ] {
        assert!(
            SolveBatchRequest::read(bad.to_vec().into()).is_err(),
            "{bad:?}"
        );
    }
    // Answers as a varint, as prost has it for a repeated message field.
    assert!(pb::SolveBatchResponse::read(&[0x08, 0x01]).is_err());
}

proptest::proptest! {
    /// An answer written by hand is byte for byte what prost writes for the
    /// generated `BatchAnswer` of the same fields (zeros, empty strings, large
    /// and negative values, stats present or not).
    #[test]
    fn a_hand_written_answer_is_the_generated_encoding(
        id in "\\PC{0,20}",
        solution in "[0-9.]{0,300}",
        error in "\\PC{0,200}",
        (outcome, algorithm) in (proptest::prelude::any::<i32>(), -1..6i32),
        (solution_count, code) in (0..3u32, proptest::prelude::any::<u32>()),
        stats in proptest::option::of(proptest::prelude::any::<[u64; 4]>()),
    ) {
        use sudokud::codec::{Answer, AnswerStats};
        let stats = stats.map(|[placements, backtracks, guesses, elapsed_micros]| {
            AnswerStats { placements, backtracks, guesses, elapsed_micros }
        });
        let mut ours = pb::SolveBatchResponse::default();
        ours.push_answer(&Answer {
            id: &id, outcome, solution: &solution, solution_count, stats, code,
            error: &error, algorithm,
        });
        let mut theirs = pb::SolveBatchResponse::default();
        theirs.push(&pb::BatchAnswer {
            id: id.clone(), outcome, solution: solution.clone(), solution_count,
            stats: stats.map(|stats| pb::SolveStats {
                placements: stats.placements,
                backtracks: stats.backtracks,
                guesses: stats.guesses,
                elapsed_micros: stats.elapsed_micros,
            }),
            code, error: error.clone(), algorithm,
        });
        proptest::prop_assert_eq!(ours.encoding(), theirs.encoding());
        proptest::prop_assert_eq!(ours.len(), 1);
    }
}

#[test]
fn a_response_is_read_by_reflection_as_its_answers() {
    // Two chunks' answers, the second appended to the first.
    let mut chunks = [("x", 0), ("y", 3)].map(|(id, code)| {
        let mut chunk = pb::SolveBatchResponse::default();
        chunk.push(&pb::BatchAnswer {
            id: id.into(),
            outcome: Outcome::Solved as i32,
            code,
            ..Default::default()
        });
        chunk
    });
    let mut response = std::mem::take(&mut chunks[0]);
    response.append(std::mem::take(&mut chunks[1]));
    assert_eq!(response.len(), 2);
    let decoded = prost_reflect::DynamicMessage::decode(
        message_type("SolveBatchResponse"),
        &*response.encoding(),
    )
    .unwrap();
    let json = serde_json::to_value(&decoded).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"answers": [
            {"id": "x", "outcome": "OUTCOME_SOLVED"},
            {"id": "y", "outcome": "OUTCOME_SOLVED", "code": 3},
        ]})
    );
    let answers: Vec<pb::BatchAnswer> = response.answers().unwrap();
    assert_eq!(answers[1].id, "y");
}

/// A puzzle whose text or id is not UTF-8, or whose rules do not decode, is
/// that puzzle's error: the others of the message are answered.
#[tokio::test]
async fn a_puzzle_that_does_not_decode_is_answered_with_its_error() {
    let server = common::server::start().await;
    let good = common::puzzles("euler96_50.txt")[0].clone();
    let mut message = Vec::new();
    let entries: [&[(u32, &[u8])]; 4] = [
        &[(1, b"text"), (2, b"\xff\xfe")],
        &[(1, b"\xc3"), (2, good.as_bytes())],
        &[(1, b"rules"), (2, good.as_bytes()), (6, b"\x08")],
        &[(1, b"good"), (2, good.as_bytes())],
    ];
    for fields in entries {
        let mut puzzle = Vec::new();
        for &(tag, value) in fields {
            prost::encoding::bytes::encode(tag, &value.to_vec(), &mut puzzle);
        }
        prost::encoding::bytes::encode(1, &puzzle, &mut message);
    }
    let request = SolveBatchRequest::read(message.into()).unwrap();
    let answers = run(&server, vec![request]).await.unwrap();
    let by_id: HashMap<_, _> = answers
        .iter()
        .map(|answer| (answer.id.as_str(), answer))
        .collect();
    assert_eq!(by_id.len(), 4);
    let invalid = Code::InvalidArgument as u32;
    assert_eq!(by_id["text"].code, invalid);
    assert!(
        by_id["text"].error.contains("puzzle"),
        "{}",
        by_id["text"].error
    );
    assert_eq!(by_id["\u{fffd}"].code, invalid);
    assert!(by_id["\u{fffd}"].error.contains("id"));
    assert_eq!(by_id["rules"].code, invalid);
    assert!(by_id["rules"].error.contains("rules"));
    assert_eq!(by_id["good"].code, 0);
    assert!(common::is_solution(&good, &by_id["good"].solution));
}
