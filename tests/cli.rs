//! `sudokud solve` as a user runs it: a file of puzzles in, one answer a line out,
//! in input order, on several worker threads.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn solve(args: &[&str], input: &str) -> Vec<String> {
    let args: Vec<&str> = std::iter::once("solve")
        .chain(args.iter().copied())
        .collect();
    let (code, out, err) = run(env!("CARGO_BIN_EXE_sudokud"), &args, input);
    assert_eq!(code, Some(0), "{err}");
    out.lines().map(str::to_owned).collect()
}

#[test]
fn solve_answers_every_line_in_input_order_on_several_threads() {
    // More puzzles than one worker's chunk and than one block of input (64 KiB
    // with one thread), with odd lines mixed in.
    let mut puzzles = common::puzzles("17_clue.txt");
    puzzles.truncate(2_000);
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

/// Answers flow while the input is still open: a pipeline such as
/// `generate | solve` gets its first answers before the generator ends, and the
/// memory of a run does not grow with its input.
#[test]
fn solve_answers_a_block_of_input_before_the_input_ends() {
    let mut puzzles = common::puzzles("17_clue.txt");
    puzzles.truncate(3_000);
    let input = puzzles.join("\n") + "\n";
    for threads in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudokud"))
            .args(["solve", "--threads", threads])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // The input written from a thread, which keeps stdin open until told.
        let mut stdin = child.stdin.take().unwrap();
        let (close, closing) = std::sync::mpsc::channel::<()>();
        let input = input.clone();
        let writer = std::thread::spawn(move || {
            stdin.write_all(input.as_bytes()).unwrap();
            // Held open until the first answer is read or the wait gave up.
            let _ = closing.recv();
        });
        // The first line, read while stdin stays open (on a thread, so that the
        // wait has a bound).
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let (sent, first) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut line = String::new();
            std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
            let _ = sent.send(line);
            // The rest, drained as it comes.
            let mut rest = String::new();
            std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
            rest
        });
        let line = first.recv_timeout(std::time::Duration::from_secs(60));
        drop(close);
        writer.join().unwrap();
        let rest = reader.join().unwrap();
        let line = line.expect("no answer while the input was open");
        assert!(
            common::is_solution(&puzzles[0], line.trim_end()),
            "threads {threads}: {line}"
        );
        assert!(child.wait().unwrap().success());
        assert_eq!(rest.lines().count(), puzzles.len() - 1, "threads {threads}");
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

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

#[tokio::test]
async fn every_command_reports_a_calls_error_in_one_form() {
    use common::process::{stderr, sudokud};
    let server = common::server::start().await;
    let address = server.address.to_string();
    let health = sudokud(
        &["health", "--addr", &address, "--service", "nope"],
        "",
        &[],
    )
    .await;
    assert!(!health.status.success());
    let watch = sudokud(&["watch", "--addr", &address, "12x"], "", &[]).await;
    assert!(!watch.status.success());
    // The code's name, then the server's message: no debug form of the status.
    for (output, code) in [(&health, "NotFound"), (&watch, "InvalidArgument")] {
        let error = stderr(output);
        assert!(error.starts_with(&format!("sudokud: {code}: ")), "{error}");
        assert!(
            !error.contains("Status {") && !error.contains("metadata"),
            "{error}"
        );
    }
    assert!(stderr(&watch).contains("bad character 'x' at r1c3"));
}

#[tokio::test]
async fn pace_means_steps_a_second_and_is_held_to_its_range_everywhere() {
    use common::process::{stderr, sudokud};
    for command in [&["watch", PUZZLE][..], &["load", "--rpc", "steps"][..]] {
        for pace in ["5000", "-1", "fast"] {
            let flag = format!("--pace={pace}");
            let mut args = command.to_vec();
            args.push(&flag);
            let output = sudokud(&args, "", &[]).await;
            assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
            assert!(stderr(&output).contains("--pace"), "{}", stderr(&output));
        }
    }
    // In range, a watch paces its stream: a step every 1000/500 = 2 ms.
    let server = common::server::start().await;
    let address = server.address.to_string();
    let output = sudokud(
        &[
            "watch",
            "--addr",
            &address,
            "--pace",
            "500",
            "--algorithm",
            "propagation",
            PUZZLE,
        ],
        "",
        &[],
    )
    .await;
    assert!(output.status.success(), "{output:?}");
}

#[tokio::test]
async fn names_are_taken_in_either_case_and_flags_that_do_nothing_are_refused() {
    use common::process::{stderr, stdout, sudokud};
    let lower = sudokud(&["solve", "--algorithm", "backtracking"], PUZZLE, &[]).await;
    let upper = sudokud(&["solve", "--algorithm", "BACKTRACKING"], PUZZLE, &[]).await;
    assert!(upper.status.success(), "{upper:?}");
    assert_eq!(stdout(&upper), stdout(&lower));
    assert!(common::is_solution(PUZZLE, stdout(&upper).trim()));

    // TLS and the token mean nothing to a local solve: said, not ignored.
    for flag in [
        &["--tls-ca", "/nonexistent"][..],
        &["--auth-token", "t"][..],
    ] {
        let mut args = vec!["solve"];
        args.extend_from_slice(flag);
        let output = sudokud(&args, PUZZLE, &[]).await;
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let error = stderr(&output);
        assert!(
            error.contains(flag[0]) && error.contains("--remote"),
            "{error}"
        );
    }
    // The same settings in the environment are for other commands: no refusal.
    let output = sudokud(&["solve"], PUZZLE, &[("SUDOKUD_TLS_CA", "/nonexistent")]).await;
    assert!(output.status.success(), "{output:?}");
}

#[tokio::test]
async fn the_top_level_help_lists_the_commands_and_serve_its_flags() {
    use common::process::{stdout, sudokud};
    let top = stdout(&sudokud(&["--help"], "", &[]).await);
    assert!(top.lines().count() < 40, "{top}");
    for command in ["serve", "solve", "watch", "hint", "generate"] {
        assert!(top.contains(&format!("  {command} ")), "{top}");
    }
    assert!(!top.contains("--max-queue"), "{top}");
    assert!(top.contains("sudokud serve --help"), "{top}");
    let serve = stdout(&sudokud(&["serve", "--help"], "", &[]).await);
    assert!(
        serve.contains("--max-queue") && serve.contains("SUDOKUD_LISTEN"),
        "{serve}"
    );
}

/// Each command's own help opens with the line the top-level list gives it (the
/// commands' arguments are built only when invoked, and an argument group's
/// description must not take the command's place then).
#[tokio::test]
async fn each_command_help_opens_with_its_summary() {
    use common::process::{stdout, sudokud};
    let top = stdout(&sudokud(&["--help"], "", &[]).await);
    let listed: Vec<(String, String)> = top
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| {
            let (name, summary) = line.trim().split_once(' ')?;
            Some((name.to_string(), summary.trim().to_string()))
        })
        .filter(|(name, _)| name != "help")
        .collect();
    assert!(listed.len() >= 10, "{top}");
    for (name, summary) in listed {
        let help = stdout(&sudokud(&[&name, "--help"], "", &[]).await);
        assert_eq!(
            help.lines().next(),
            Some(summary.as_str()),
            "{name}: {help}"
        );
    }
}

#[tokio::test]
async fn hint_reads_the_puzzle_and_the_board_from_stdin() {
    use common::process::{stdout, sudokud};
    let given = sudokud(&["hint", PUZZLE], "", &[]).await;
    let piped = sudokud(&["hint", "-"], &format!("{PUZZLE}\n"), &[]).await;
    assert!(piped.status.success(), "{piped:?}");
    assert_eq!(stdout(&piped), stdout(&given));
    // A board with a wrong digit: 9 at r1c2, where the solution has 1.
    let board = format!("49{}", &PUZZLE[2..]);
    let both = sudokud(&["hint", "-", "-"], &format!("{PUZZLE}\n\n{board}\n"), &[]).await;
    let argued = sudokud(&["hint", PUZZLE, &board], "", &[]).await;
    assert!(both.status.success(), "{both:?}");
    assert_eq!(stdout(&both), stdout(&argued));
    assert!(
        stdout(&both).starts_with("wrong: r1c2=9"),
        "{}",
        stdout(&both)
    );
}

#[tokio::test]
async fn the_cors_setting_has_one_spelling() {
    use common::process::{stderr, sudokud};
    let serve = ["serve", "--listen", "127.0.0.1:0"];
    // The variable is read under the flag's name: a bad origin stops the start.
    let output = sudokud(
        &serve,
        "",
        &[("SUDOKUD_CORS_ALLOW_ORIGIN", "not-an-origin")],
    )
    .await;
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("\"not-an-origin\""),
        "{}",
        stderr(&output)
    );
    // The old plural spelling is refused, naming the new one, not ignored.
    let output = sudokud(&serve, "", &[("SUDOKUD_CORS_ALLOW_ORIGINS", "*")]).await;
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("SUDOKUD_CORS_ALLOW_ORIGIN "),
        "{}",
        stderr(&output)
    );
}

/// `load --streams 0` makes only the probes (beside another client's streams)
/// and says how they went; it opens no stream.
#[tokio::test]
async fn load_with_no_streams_makes_only_its_probes() {
    use common::process::sudokud;
    let server = common::server::start().await;
    let address = server.address.to_string();
    let probes =
        std::env::temp_dir().join(format!("sudokud-load-probes-{}.txt", std::process::id()));
    let puzzles = common::puzzles("euler96_50.txt");
    std::fs::write(&probes, puzzles[..3].join("\n")).unwrap();
    let output = sudokud(
        &[
            "load",
            "--addr",
            &address,
            "--rpc",
            "steps",
            "--streams",
            "0",
            "--duration",
            "1",
            "--probes",
            probes.to_str().unwrap(),
            "--probe-count",
            "3",
        ],
        "",
        &[],
    )
    .await;
    let _ = std::fs::remove_file(&probes);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("streams 0 ") && text.contains("0 going"),
        "{text}"
    );
    assert!(text.contains("probes: 3 OK, 0 failed"), "{text}");
    assert!(text.contains(" 0 messages"), "{text}");
}

/// Runs `binary` with `args`, stdin from `input`; (exit code, stdout, stderr).
fn run(binary: &str, args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Written from a thread while the output is read: `solve` answers as it
    // reads, so a large input written first would fill the output pipe.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    // A command that does not read its input (help, a refused flag) may exit
    // before the input is written: a broken pipe then, and nothing wrong.
    if let Err(error) = writer.join().unwrap() {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        output.status.code(),
        text(output.stdout),
        text(output.stderr),
    )
}

/// `sudokud` runs the local commands itself and hands the rest to `sudokud-server`:
/// what a user sees is the same either way, answers, help and errors alike (the
/// full binary's texts name it as it was started, so `sudokud-server` there).
#[test]
fn the_front_and_the_full_binary_answer_alike() {
    let (front, full) = (
        env!("CARGO_BIN_EXE_sudokud"),
        env!("CARGO_BIN_EXE_sudokud-server"),
    );
    let mut puzzles = common::puzzles("17_clue.txt");
    puzzles.truncate(50);
    puzzles.push("12".to_owned());
    puzzles.push(common::unsolvable_puzzles()[0].clone());
    let input = puzzles.join("\n") + "\n";
    let calls: [&[&str]; 9] = [
        &["solve"],
        &["solve", "--count", "--threads", "2"],
        &["rate"],
        &["solve", "--help"],
        &["serve", "--help"],
        &["--help"],
        &["solve", "--tls-ca", "ca.pem"],
        &["solve", "--no-such-flag"],
        &["no-such-command"],
    ];
    for args in calls {
        let (code, out, err) = run(front, args, &input);
        let (full_code, full_out, full_err) = run(full, args, &input);
        let named = |text: String| text.replace("sudokud-server", "sudokud");
        assert_eq!(code, full_code, "{args:?}: {err}");
        assert_eq!(out, named(full_out), "{args:?}");
        assert_eq!(err, named(full_err), "{args:?}");
    }
}

/// A front without the full binary beside it says which file it could not run,
/// and still runs the local commands.
#[test]
fn a_front_alone_names_the_binary_it_misses() {
    let dir = std::env::temp_dir().join(format!("sudokud-front-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let alone = dir.join("sudokud");
    std::fs::copy(env!("CARGO_BIN_EXE_sudokud"), &alone).unwrap();
    let alone = alone.to_str().unwrap();
    let (code, out, err) = run(alone, &["serve", "--help"], "");
    assert_eq!(code, Some(127), "{out}{err}");
    assert!(err.contains("sudokud-server"), "{err}");
    let puzzle = &common::puzzles("17_clue.txt")[0];
    let (code, out, _) = run(alone, &["solve"], &format!("{puzzle}\n"));
    assert_eq!(code, Some(0));
    assert_eq!(out.trim().len(), 81, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
