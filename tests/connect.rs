//! JSON over HTTP: the Connect protocol's unary form and the `google.api.http`
//! aliases, spoken over raw HTTP/1.1 to the real server (as `curl` would):
//! answers equal to the gRPC call's, binary proto bodies, the Connect error
//! shape and HTTP statuses (bad JSON, a bad puzzle with its `BadRequest`
//! detail, a deadline, auth, limits), and what is refused.

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use common::http::{HttpResponse, http};
use common::server::{start, start_with_transport};
use prost::Message;
use serde_json::Value;
use sudokud::pb;
use sudokud::service::Limits;

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// `POST path` with a JSON body and any extra headers.
async fn post_json(
    address: std::net::SocketAddr,
    path: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (HttpResponse, Value) {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    let response = http(address, "POST", path, &all, body.as_bytes()).await;
    let json = serde_json::from_slice(&response.body).unwrap_or_else(|error| {
        panic!(
            "{path}: not JSON ({error}): {}",
            String::from_utf8_lossy(&response.body)
        )
    });
    (response, json)
}

/// `text` percent-encoded as a form sends it (a space as `+`), for a query.
fn form_encoded(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b' ' => "+".to_owned(),
            b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' => char::from(byte).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn json_solves_equal_the_grpc_answer_at_the_method_path_and_its_alias() {
    let server = start().await;
    let grpc = server
        .client
        .clone()
        .solve(pb::SolveRequest {
            puzzle: PUZZLE.to_owned(),
            check_unique: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let body = format!(r#"{{"puzzle": "{PUZZLE}", "checkUnique": true}}"#);
    for path in ["/sudoku.v1.SudokuService/Solve", "/v1/solve"] {
        let (response, json) = post_json(server.address, path, &body, &[]).await;
        assert_eq!(response.status, 200, "{path}: {json}");
        assert_eq!(response.header("content-type"), Some("application/json"));
        assert_eq!(json["outcome"], "OUTCOME_SOLVED", "{path}");
        assert_eq!(json["solution"], grpc.solution.as_str(), "{path}");
        assert_eq!(json["solutionCount"], 1, "{path}");
        assert_eq!(json["algorithm"], "ALGORITHM_BITBOARD", "{path}");
    }
    // The proto field name is accepted as well as the JSON name.
    let body = format!(
        r#"{{"puzzle": "{PUZZLE}", "check_unique": true, "algorithm": "ALGORITHM_SINGLES"}}"#
    );
    let (_, json) = post_json(server.address, "/v1/solve", &body, &[]).await;
    assert_eq!(json["solutionCount"], 1);
    assert_eq!(json["algorithm"], "ALGORITHM_SINGLES");
    // Every unary RPC is served, the health check's too.
    let (response, json) = post_json(
        server.address,
        "/v1/rate",
        &format!(r#"{{"puzzle": "{PUZZLE}"}}"#),
        &[],
    )
    .await;
    assert_eq!(response.status, 200);
    assert!(json["rating"].as_f64().unwrap() > 1.0, "{json}");
    let (_, json) = post_json(server.address, "/grpc.health.v1.Health/Check", "{}", &[]).await;
    assert_eq!(json["status"], "SERVING");
}

#[tokio::test]
async fn binary_proto_bodies_round_trip() {
    let server = start().await;
    let request = pb::SolveRequest {
        puzzle: PUZZLE.to_owned(),
        ..Default::default()
    };
    let response = http(
        server.address,
        "POST",
        "/sudoku.v1.SudokuService/Solve",
        &[
            ("Content-Type", "application/proto"),
            ("Connect-Protocol-Version", "1"),
        ],
        &request.encode_to_vec(),
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/proto"));
    let answer = pb::SolveResponse::decode(&response.body[..]).unwrap();
    assert_eq!(answer.outcome(), pb::Outcome::Solved);
    assert!(common::is_solution(PUZZLE, &answer.solution));
    // A body that is no SolveRequest is the caller's error.
    let broken = http(
        server.address,
        "POST",
        "/sudoku.v1.SudokuService/Solve",
        &[("Content-Type", "application/proto")],
        b"\x0a\x05ab",
    )
    .await;
    assert_eq!(broken.status, 400);
    let json: Value = serde_json::from_slice(&broken.body).unwrap();
    assert_eq!(json["code"], "invalid_argument");
}

#[tokio::test]
async fn methods_without_side_effects_answer_connects_get_form() {
    let server = start().await;
    let address = server.address;
    let path = "/sudoku.v1.SudokuService/Solve";
    let get = |target: String| async move { http(address, "GET", &target, &[], b"").await };
    let (posted, expected) =
        post_json(address, path, &format!(r#"{{"puzzle": "{PUZZLE}"}}"#), &[]).await;
    assert_eq!(posted.status, 200);
    // The JSON message percent-encoded, as a form would send it.
    let json = form_encoded(&format!(r#"{{"puzzle": "{PUZZLE}"}}"#));
    let got = get(format!("{path}?connect=v1&encoding=json&message={json}")).await;
    assert_eq!(
        (got.status, got.header("content-type")),
        (200, Some("application/json"))
    );
    let answer: Value = serde_json::from_slice(&got.body).unwrap();
    assert_eq!(answer["solution"], expected["solution"]);

    // Binary proto in base64url, without padding.
    let request = pb::RateRequest {
        puzzle: PUZZLE.to_owned(),
        ..Default::default()
    };
    let message = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(request.encode_to_vec());
    let rate = "/sudoku.v1.SudokuService/Rate";
    let got = get(format!("{rate}?encoding=proto&base64=1&message={message}")).await;
    assert_eq!(
        (got.status, got.header("content-type")),
        (200, Some("application/proto"))
    );
    let rated = pb::RateResponse::decode(&got.body[..]).unwrap();
    assert!(rated.rating > 0.0, "{rated:?}");

    // What GET cannot do is refused with a reason.
    let bare = get(format!("{path}?encoding=json")).await;
    let error: Value = serde_json::from_slice(&bare.body).unwrap();
    assert_eq!(
        (bare.status, error["code"].as_str()),
        (400, Some("invalid_argument"))
    );
    assert!(
        error["message"].as_str().unwrap().contains("message"),
        "{error}"
    );
    let bad_puzzle = get(format!(
        "{path}?encoding=json&message=%7B%22puzzle%22%3A%221%22%7D"
    ))
    .await;
    assert_eq!(bad_puzzle.status, 400);
    let compressed = get(format!(
        "{path}?encoding=json&message=%7B%7D&compression=gzip"
    ))
    .await;
    assert_eq!(
        (compressed.status, compressed.header("accept-encoding")),
        (501, Some("identity"))
    );
    // Generate's answer is random when it has no seed: not for caching.
    let generate = "/sudoku.v1.SudokuService/Generate?encoding=json&message=%7B%7D";
    let refused = get(generate.to_owned()).await;
    assert_eq!(
        (refused.status, refused.header("allow")),
        (405, Some("POST"))
    );
    let put = http(address, "PUT", path, &[], b"").await;
    assert_eq!((put.status, put.header("allow")), (405, Some("GET, POST")));
}

#[tokio::test]
async fn bad_json_and_bad_puzzles_get_connect_errors_with_their_http_status() {
    let server = start().await;
    let (response, json) = post_json(server.address, "/v1/solve", r#"{"puzzle": "#, &[]).await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (400, Some("invalid_argument"))
    );
    let message = json["message"].as_str().unwrap();
    assert!(
        message.contains("sudoku.v1.SolveRequest") && message.contains("column 11"),
        "{message}"
    );
    // A misspelt field or enum name is an error, not a silent default.
    for typo in [r#"{"puzle": "1"}"#, r#"{"algorithm": "ALGORITHM_FASTEST"}"#] {
        let (response, json) = post_json(server.address, "/v1/solve", typo, &[]).await;
        assert_eq!(response.status, 400, "{typo}: {json}");
        assert_eq!(json["code"], "invalid_argument", "{typo}");
    }

    let bad = format!(r#"{{"puzzle": "{}x"}}"#, &PUZZLE[..40]);
    let (response, json) = post_json(server.address, "/v1/solve", &bad, &[]).await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (400, Some("invalid_argument"))
    );
    let grpc = server
        .client
        .clone()
        .solve(pb::SolveRequest {
            puzzle: format!("{}x", &PUZZLE[..40]),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(json["message"], grpc.message());
    let detail = &json["details"][0];
    assert_eq!(detail["type"], "google.rpc.BadRequest");
    let value = STANDARD_NO_PAD
        .decode(detail["value"].as_str().unwrap())
        .unwrap();
    let bad_request = tonic_types::pb::BadRequest::decode(&value[..]).unwrap();
    assert_eq!(bad_request.field_violations[0].field, "puzzle");
    assert!(
        bad_request.field_violations[0]
            .description
            .contains("at r5c5 ")
    );

    let unsolvable = format!(r#"{{"puzzle": "{}"}}"#, common::unsolvable_puzzles()[0]);
    let (response, json) = post_json(server.address, "/v1/solve", &unsolvable, &[]).await;
    assert_eq!(response.status, 200);
    assert_eq!(json["outcome"], "OUTCOME_UNSOLVABLE");

    // The three bodies that were no SolveRequest were refused before any call
    // and counted as such; the bad puzzle was a call, counted with the calls.
    let metrics = server.metrics.render();
    assert!(
        metrics.contains("sudokud_connect_refusals_total{code=\"invalid_argument\"} 3"),
        "{metrics}"
    );
    assert!(
        metrics.contains("sudokud_calls_total{method=\"Solve\",code=\"InvalidArgument\"} 2"),
        "{metrics}"
    );
}

#[tokio::test]
async fn connect_timeout_ms_is_the_calls_deadline() {
    let server = start().await;
    let hard = &common::puzzles("forum_hardest_1905_11plus.txt")[0];
    let body = format!(r#"{{"puzzle": "{hard}", "algorithm": "ALGORITHM_BACKTRACKING"}}"#);
    let (response, json) = post_json(
        server.address,
        "/v1/solve",
        &body,
        &[("Connect-Timeout-Ms", "1")],
    )
    .await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (504, Some("deadline_exceeded")),
        "{json}"
    );
    let (response, json) = post_json(
        server.address,
        "/v1/solve",
        &body,
        &[("Connect-Timeout-Ms", "soon")],
    )
    .await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (400, Some("invalid_argument")),
        "{json}"
    );
}

#[tokio::test]
async fn the_token_is_required_when_the_server_has_one() {
    let transport = sudokud::server::Transport {
        bearer_token: Some("s3cret".to_owned()),
        ..Default::default()
    };
    let server = start_with_transport(Limits::default(), transport).await;
    let body = format!(r#"{{"puzzle": "{PUZZLE}"}}"#);
    let (response, json) = post_json(server.address, "/v1/solve", &body, &[]).await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (401, Some("unauthenticated")),
        "{json}"
    );
    let (response, _) = post_json(
        server.address,
        "/v1/solve",
        &body,
        &[("Authorization", "Bearer wrong")],
    )
    .await;
    assert_eq!(response.status, 401);
    let (response, json) = post_json(
        server.address,
        "/v1/solve",
        &body,
        &[("Authorization", "Bearer s3cret")],
    )
    .await;
    assert_eq!(response.status, 200, "{json}");
    assert_eq!(json["outcome"], "OUTCOME_SOLVED");
}

#[tokio::test]
async fn what_the_json_route_cannot_take_is_refused_with_a_reason() {
    let limits = Limits {
        max_message_bytes: 1024,
        ..Limits::default()
    };
    let server = start_with_transport(limits, Default::default()).await;
    let address = server.address;
    let body = format!(r#"{{"puzzle": "{PUZZLE}"}}"#);
    let (response, json) =
        post_json(address, "/sudoku.v1.SudokuService/SolveSteps", &body, &[]).await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (501, Some("unimplemented"))
    );
    assert!(json["message"].as_str().unwrap().contains("streams"));

    let form = http(
        address,
        "POST",
        "/v1/solve",
        &[("Content-Type", "text/plain")],
        body.as_bytes(),
    )
    .await;
    assert_eq!(form.status, 415);
    assert!(
        form.header("accept-post")
            .unwrap()
            .contains("application/json")
    );

    let get = http(address, "GET", "/v1/solve", &[], b"").await;
    assert_eq!((get.status, get.header("allow")), (405, Some("POST")));

    let huge = format!(r#"{{"puzzle": "{}"}}"#, ".".repeat(2000));
    let (response, json) = post_json(address, "/v1/solve", &huge, &[]).await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (429, Some("resource_exhausted")),
        "{json}"
    );
    // It names the limit and the flag that sets it, as the gRPC answer does.
    let message = json["message"].as_str().unwrap();
    assert!(
        message.contains("1024 bytes") && message.contains("--max-message-bytes"),
        "{message}"
    );

    let (response, json) = post_json(
        address,
        "/v1/solve",
        &body,
        &[("Connect-Protocol-Version", "2")],
    )
    .await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (400, Some("invalid_argument"))
    );

    let (response, _) = post_json(address, "/v1/solve", &body, &[("Content-Encoding", "br")]).await;
    assert_eq!(
        (response.status, response.header("accept-encoding")),
        (501, Some("identity"))
    );

    // Other paths keep answering as before.
    let missing = http(
        address,
        "POST",
        "/v1/nothing",
        &[("Content-Type", "application/json")],
        b"{}",
    )
    .await;
    assert_eq!(missing.status, 404);
}

/// `messages` as Connect envelopes (flags 0).
fn envelopes(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for message in messages {
        out.push(0);
        out.extend_from_slice(&(message.len() as u32).to_be_bytes());
        out.extend_from_slice(message);
    }
    out
}

/// A Connect streaming response body: its messages, and the end-of-stream
/// JSON (which must come last, once).
fn read_envelopes(mut body: &[u8]) -> (Vec<Vec<u8>>, Value) {
    let mut messages = Vec::new();
    while !body.is_empty() {
        let flags = body[0];
        let length = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        let payload = &body[5..5 + length];
        body = &body[5 + length..];
        if flags == 0x02 {
            assert!(body.is_empty(), "data after the end-of-stream message");
            return (messages, serde_json::from_slice(payload).unwrap());
        }
        assert_eq!(flags, 0);
        messages.push(payload.to_vec());
    }
    panic!("no end-of-stream message");
}

#[tokio::test]
async fn connects_streaming_form_streams_the_steps_in_json_and_ends_with_the_status() {
    let server = start().await;
    let request = format!(r#"{{"puzzle": "{PUZZLE}", "maxBatch": 16}}"#);
    let response = http(
        server.address,
        "POST",
        "/sudoku.v1.SudokuService/SolveSteps",
        &[("Content-Type", "application/connect+json")],
        &envelopes(&[request.into_bytes()]),
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(
        response.header("content-type"),
        Some("application/connect+json")
    );
    let (messages, end) = read_envelopes(&response.body);
    assert_eq!(end, serde_json::json!({}));
    let messages: Vec<Value> = messages
        .iter()
        .map(|m| serde_json::from_slice(m).unwrap())
        .collect();
    assert!(messages[0].get("started").is_some());
    let seqs: Vec<u64> = messages
        .iter()
        .filter_map(|m| m.get("steps"))
        .flat_map(|steps| steps["steps"].as_array().unwrap().clone())
        .map(|step| step["seq"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
    let finished = &messages.last().unwrap()["finished"];
    assert_eq!(finished["outcome"], "OUTCOME_SOLVED");

    // An error ends the stream in its last message, not in the HTTP status.
    let bad = http(
        server.address,
        "POST",
        "/sudoku.v1.SudokuService/SolveSteps",
        &[("Content-Type", "application/connect+json")],
        &envelopes(&[br#"{"puzzle": "1x"}"#.to_vec()]),
    )
    .await;
    assert_eq!(bad.status, 200);
    let (messages, end) = read_envelopes(&bad.body);
    assert!(messages.is_empty());
    assert_eq!(end["error"]["code"], "invalid_argument");
    assert_eq!(end["error"]["details"][0]["type"], "google.rpc.BadRequest");
}

#[tokio::test]
async fn a_solve_batch_in_connects_streaming_form_answers_every_puzzle() {
    let server = start().await;
    let puzzles = common::puzzles("norvig_top95.txt");
    let requests: Vec<Vec<u8>> = puzzles
        .chunks(40)
        .enumerate()
        .map(|(chunk, puzzles)| {
            let puzzles: Vec<_> = puzzles
                .iter()
                .enumerate()
                .map(|(i, puzzle)| pb::BatchPuzzle {
                    id: (chunk * 40 + i).to_string(),
                    puzzle: puzzle.clone(),
                    ..Default::default()
                })
                .collect();
            pb::SolveBatchRequest::new(&puzzles).encoding()
        })
        .collect();
    let response = http(
        server.address,
        "POST",
        "/sudoku.v1.SudokuService/SolveBatch",
        &[("Content-Type", "application/connect+proto")],
        &envelopes(&requests),
    )
    .await;
    assert_eq!(response.status, 200);
    let (messages, end) = read_envelopes(&response.body);
    assert_eq!(end, serde_json::json!({}));
    let mut answered = vec![false; puzzles.len()];
    for message in messages {
        let read = pb::SolveBatchResponse::read(&message).unwrap();
        for answer in read.answers::<pb::BatchAnswer>().unwrap() {
            let index: usize = answer.id.parse().unwrap();
            assert!(!answered[index], "{index} answered twice");
            answered[index] = true;
            assert!(common::is_solution(&puzzles[index], &answer.solution));
        }
    }
    assert!(answered.iter().all(|&a| a));
}

#[tokio::test]
async fn mistyped_paths_missing_puzzles_and_enum_names_are_answered_with_what_is_wrong() {
    let server = start().await;
    let body = format!(r#"{{"puzzle": "{PUZZLE}"}}"#);
    let paths = [
        (
            "/sudoku.v1.SudokuService/solve",
            Some("/sudoku.v1.SudokuService/Solve"),
        ),
        (
            "/sudoku.v1.Sudoku/Rate",
            Some("/sudoku.v1.SudokuService/Rate"),
        ),
        ("/Nope", None),
        ("/v1/nope", None),
    ];
    for (path, meant) in paths {
        let (response, json) = post_json(server.address, path, &body, &[]).await;
        assert_eq!(
            (response.status, json["code"].as_str()),
            (404, Some("unimplemented")),
            "{path}: {json}"
        );
        let message = json["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("no procedure at {path}")),
            "{message}"
        );
        match meant {
            Some(meant) => assert!(
                message.contains(&format!("did you mean {meant}?")),
                "{message}"
            ),
            None => assert!(!message.contains("did you mean"), "{message}"),
        }
    }
    // Each was refused before a call, and counted (and logged) as such.
    let metrics = server.metrics.render();
    assert!(
        metrics.contains("sudokud_connect_refusals_total{code=\"unimplemented\"} 4"),
        "{metrics}"
    );
    // A plain GET of an unknown path stays the plain 404 (a browser's favicon).
    let favicon = http(server.address, "GET", "/favicon.ico", &[], b"").await;
    assert_eq!(favicon.status, 404);

    // No puzzle at all: say the field is missing, not that it holds 0 cells.
    for empty in ["", "{}", r#"{"puzzle": ""}"#] {
        let (response, json) = post_json(server.address, "/v1/solve", empty, &[]).await;
        assert_eq!(response.status, 400, "{empty:?}: {json}");
        let message = json["message"].as_str().unwrap();
        assert!(message.contains("puzzle field is missing"), "{message}");
        assert!(!message.contains("0 cells"), "{message}");
    }

    // An enum's short name is refused (the JSON mapping wants the full one),
    // and the answer lists the names it takes.
    let short = format!(r#"{{"puzzle": "{PUZZLE}", "algorithm": "BACKTRACKING"}}"#);
    let (response, json) = post_json(server.address, "/v1/solve", &short, &[]).await;
    assert_eq!(response.status, 400, "{json}");
    let message = json["message"].as_str().unwrap();
    assert!(
        message.contains("algorithm takes ALGORITHM_UNSPECIFIED, ALGORITHM_BACKTRACKING")
            && message.contains(r#"not "BACKTRACKING""#),
        "{message}"
    );
    let full = format!(r#"{{"puzzle": "{PUZZLE}", "algorithm": "ALGORITHM_BACKTRACKING"}}"#);
    let (response, json) = post_json(server.address, "/v1/solve", &full, &[]).await;
    assert_eq!(response.status, 200, "{json}");
}

/// Whether `answer` (comma-separated numbers) keeps the givens of `puzzle`
/// (the same form, 0 empty) and holds 1..=n once in every row, column and
/// box of `box_rows` x `box_cols`.
fn fills_by_the_rules(puzzle: &str, answer: &str, box_rows: usize, box_cols: usize) -> bool {
    let n = box_rows * box_cols;
    let read = |text: &str| -> Vec<usize> { text.split(',').map(|t| t.parse().unwrap()).collect() };
    let (givens, cells) = (read(puzzle), read(answer));
    if cells.len() != n * n || givens.iter().zip(&cells).any(|(&g, &c)| g != 0 && g != c) {
        return false;
    }
    let house_of = |cell: usize| {
        let (row, col) = (cell / n, cell % n);
        [
            row,
            n + col,
            2 * n + (row / box_rows) * box_rows + col / box_cols,
        ]
    };
    let mut seen = vec![0u64; 3 * n];
    for (cell, &digit) in cells.iter().enumerate() {
        if !(1..=n).contains(&digit) {
            return false;
        }
        for house in house_of(cell) {
            seen[house] |= 1 << (digit - 1);
        }
    }
    seen.iter().all(|&mask| mask == (1u64 << n) - 1)
}

#[tokio::test]
async fn json_takes_rules_in_post_and_get_and_names_bad_shapes() {
    let server = start().await;
    let address = server.address;
    // A public 16x16 puzzle in the numbers form, counted to two over POST.
    let puzzle = common::puzzles("gecode_janko_16x16.txt")[0].clone();
    let body = format!(
        r#"{{"puzzle": "{puzzle}", "checkUnique": true, "rules": {{"boxRows": 4, "boxCols": 4}}}}"#
    );
    let (response, json) = post_json(address, "/v1/solve", &body, &[]).await;
    assert_eq!(response.status, 200, "{json}");
    assert_eq!(json["outcome"], "OUTCOME_SOLVED", "{json}");
    assert_eq!(json["solutionCount"], 1, "{json}");
    assert_eq!(json["algorithm"], "ALGORITHM_WIDE", "{json}");
    let solution = json["solution"].as_str().unwrap();
    assert!(fills_by_the_rules(&puzzle, solution, 4, 4), "{solution}");

    // A 6x6 (2x3 boxes) in the symbols form over GET, answered in that form.
    let six = "1.....\n..4...\n...2..\n.5....\n....6.\n.....3";
    let message =
        serde_json::json!({"puzzle": six, "rules": {"box_rows": 2, "box_cols": 3}}).to_string();
    let encoded = form_encoded(&message);
    let got = http(
        address,
        "GET",
        &format!("/sudoku.v1.SudokuService/Solve?encoding=json&message={encoded}"),
        &[],
        b"",
    )
    .await;
    assert_eq!(got.status, 200, "{}", String::from_utf8_lossy(&got.body));
    let answer: Value = serde_json::from_slice(&got.body).unwrap();
    let symbols = answer["solution"].as_str().unwrap();
    assert_eq!(symbols.len(), 36, "{answer}");
    let as_numbers = |text: &str| -> String {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_digit(10).unwrap_or(0).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    assert!(
        fills_by_the_rules(&as_numbers(six), &as_numbers(symbols), 2, 3),
        "{symbols}"
    );

    // A shape outside the limits is a 400 that names them.
    let body = format!(r#"{{"puzzle": "{puzzle}", "rules": {{"boxRows": 1, "boxCols": 16}}}}"#);
    let (response, json) = post_json(address, "/v1/solve", &body, &[]).await;
    assert_eq!(
        (response.status, json["code"].as_str()),
        (400, Some("invalid_argument")),
        "{json}"
    );
    let message = json["message"].as_str().unwrap();
    assert!(
        message.contains("2 to 8") && message.contains("4 to 64"),
        "{message}"
    );
}
