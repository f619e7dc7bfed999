//! `sudokud solve` as a user runs it: a file of puzzles in, one answer a line out,
//! in input order, on several worker threads.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn solve(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokud"))
        .arg("solve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn solve_answers_every_line_in_input_order_on_several_threads() {
    // More puzzles than one worker's chunk, with odd lines mixed in.
    let mut puzzles = common::puzzles("17_clue.txt");
    puzzles.truncate(700);
    let unsolvable = common::unsolvable_puzzles()[0].clone();
    puzzles.insert(300, "12".to_owned());
    puzzles.insert(500, unsolvable);
    let input = puzzles.join("\n") + "\n";
    for threads in ["1", "2"] {
        let answers = solve(&["--threads", threads], &input);
        assert_eq!(answers.len(), puzzles.len(), "threads {threads}");
        for (index, (puzzle, answer)) in puzzles.iter().zip(&answers).enumerate() {
            match index {
                300 => assert_eq!(answer, "error: puzzle has 2 cells, expected 81"),
                500 => assert_eq!(answer, "unsolvable"),
                _ => assert!(
                    common::is_solution(puzzle, answer),
                    "line {index}: {answer}"
                ),
            }
        }
    }
}

#[test]
fn solve_counts_solutions_up_to_two() {
    let unique = common::puzzles("euler96_50.txt")[0].clone();
    let full = solve(&[], &format!("{unique}\n")).remove(0);
    let ambiguous = common::two_solution_puzzles(&full)[0].clone();
    let input = format!(
        "{unique}\n{ambiguous}\n{}\n",
        common::unsolvable_puzzles()[0]
    );
    assert_eq!(solve(&["--count"], &input), ["1", "2", "0"]);
}
