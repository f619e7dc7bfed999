//! `sudokud watch` against a real server, in its non-terminal mode (stdout is a
//! pipe here): one line per step, then the grid, the solution and the statistics.

mod common;

use std::process::{Command, Output};

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
