//! `sudokud solve --remote`: the same output as local `solve`, line for line (error
//! lines included), with one server, with several, and with one of them killed
//! (SIGKILL) while the run is going.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Output, Stdio};

fn sudokud() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudokud"))
}

/// `sudokud solve` of `file` with `extra` flags.
fn solve(file: &std::path::Path, extra: &[&str]) -> Output {
    let output = sudokud()
        .arg("solve")
        .args(extra)
        .arg(file)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    output
}

/// A puzzle file of some of a data set, with bad lines among them.
fn input(name: &str, set: &str, take: usize) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("sudokud-remote-{}-{name}.txt", std::process::id()));
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "not a puzzle").unwrap();
    for (index, puzzle) in common::puzzles(set).iter().take(take).enumerate() {
        writeln!(file, "{puzzle}").unwrap();
        if index == 7 {
            writeln!(file, "{}", &puzzle[..40]).unwrap();
            writeln!(file, "{}1", &puzzle[..80]).unwrap();
        }
    }
    path
}

#[tokio::test]
async fn remote_output_equals_local_output_with_one_server_and_with_three() {
    let servers = [
        common::server::start().await,
        common::server::start().await,
        common::server::start().await,
    ];
    let path = input("three", "17_clue.txt", 8_000);
    let file = path.clone();
    let (local, one, three, counted, counted_remote) = tokio::task::spawn_blocking({
        let addresses: Vec<String> = servers.iter().map(|s| s.address.to_string()).collect();
        move || {
            // Every address form the other clients take: host:port and URLs.
            let all = format!(
                "http://{},{},http://{}/",
                addresses[0], addresses[1], addresses[2]
            );
            (
                solve(&file, &[]).stdout,
                solve(&file, &["--remote", &addresses[0]]).stdout,
                solve(&file, &["--remote", &all]).stdout,
                solve(&file, &["--count"]).stdout,
                solve(&file, &["--count", "--remote", &all]).stdout,
            )
        }
    })
    .await
    .unwrap();
    let lines = String::from_utf8(local.clone()).unwrap();
    assert_eq!(lines.lines().count(), 8_003);
    assert!(
        lines
            .lines()
            .filter(|line| line.starts_with("error: "))
            .count()
            >= 2
    );
    assert_eq!(one, local);
    assert_eq!(three, local);
    assert_eq!(counted_remote, counted);
    // A server holds at most 4,096 puzzles unanswered: the others took part.
    let working = servers
        .iter()
        .filter(|server| server.tracker.solves_started() > 0)
        .count();
    assert!(working >= 2, "{working} of 3 servers solved anything");
    std::fs::remove_file(path).unwrap();
}

#[tokio::test]
async fn remote_output_equals_local_output_at_other_sizes() {
    let server = common::server::start().await;
    let address = server.address.to_string();
    // 16x16 puzzles in the numbers form, with a line of the wrong length and
    // one with a number past 16 among them.
    let path =
        std::env::temp_dir().join(format!("sudokud-remote-{}-sixteen.txt", std::process::id()));
    let mut file = std::fs::File::create(&path).unwrap();
    for (index, puzzle) in common::puzzles("gecode_janko_16x16.txt")
        .iter()
        .chain(&common::puzzles("lloyd_amos_16x16.txt")[..40])
        .enumerate()
    {
        writeln!(file, "{puzzle}").unwrap();
        if index == 3 {
            writeln!(file, "{}", &puzzle[..puzzle.len() / 2]).unwrap();
            writeln!(file, "17{}", &puzzle[1..]).unwrap();
        }
    }
    drop(file);
    let file = path.clone();
    let (local, remote, counted, counted_remote) = tokio::task::spawn_blocking(move || {
        let sixteen = ["--box", "4x4"];
        let remote = ["--box", "4x4", "--remote", &address];
        (
            solve(&file, &sixteen).stdout,
            solve(&file, &remote).stdout,
            solve(&file, &[&sixteen[..], &["--count"]].concat()).stdout,
            solve(&file, &[&remote[..], &["--count"]].concat()).stdout,
        )
    })
    .await
    .unwrap();
    let lines = String::from_utf8(local.clone()).unwrap();
    let errors = lines
        .lines()
        .filter(|line| line.starts_with("error: "))
        .count();
    assert_eq!(errors, 2, "{lines}");
    assert!(lines.lines().count() > 40, "{lines}");
    assert_eq!(String::from_utf8(remote).unwrap(), lines);
    assert_eq!(counted_remote, counted);
    // The server solved them: the client only read and wrote.
    assert!(server.tracker.solves_started() > 0);
    std::fs::remove_file(path).unwrap();
}

/// `sudokud serve` on a free port, with its metrics on another; the child and
/// both addresses.
fn spawn_server() -> (Child, String, String) {
    spawn_server_at("127.0.0.1:0")
}

/// `sudokud serve` listening on `listen`, its metrics on a free port.
fn spawn_server_at(listen: &str) -> (Child, String, String) {
    let mut child = sudokud()
        .args([
            "serve",
            "--listen",
            listen,
            "--metrics-listen",
            "127.0.0.1:0",
        ])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let (mut grpc, mut metrics) = (None, None);
    while grpc.is_none() || metrics.is_none() {
        let line = lines.next().expect("the server exited").unwrap();
        let address = line
            .split("address=")
            .nth(1)
            .map(|rest| rest.split_whitespace().next().unwrap().to_owned());
        if line.contains("metrics at") {
            metrics = address;
        } else if line.contains("serving gRPC") {
            grpc = address;
        }
    }
    std::thread::spawn(move || for _ in lines {});
    (child, grpc.unwrap(), metrics.unwrap())
}

/// A server process, killed when the test ends, also when it fails.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Puzzles the server at `metrics` has solved so far.
fn solved(metrics: &str) -> u64 {
    let mut stream = std::net::TcpStream::connect(metrics).unwrap();
    write!(stream, "GET /metrics HTTP/1.0\r\n\r\n").unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    text.lines()
        .filter(|line| line.starts_with("sudokud_solve_seconds_count"))
        .filter_map(|line| line.split_whitespace().last()?.parse::<u64>().ok())
        .sum()
}

/// `sudokud solve --remote servers path`, running.
fn spawn_remote(servers: &str, path: &std::path::Path) -> Child {
    sudokud()
        .args(["solve", "--remote", servers])
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Kills `server` without warning once the server at `metrics` has answered
/// some puzzles (each look is a real round trip; bounded).
fn kill_once_at_work(server: &mut Server, metrics: &str) {
    let mut looks = 0;
    while solved(metrics) < 200 {
        looks += 1;
        assert!(looks < 1_000_000, "the server never got to work");
    }
    server.0.kill().unwrap();
    server.0.wait().unwrap();
}

/// The run's output equals local solve's, and its warnings name `server`'s
/// puzzles going back to the queue.
fn assert_complete(remote: Child, local: &[u8], server: &str) {
    let output = remote.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        output.stdout, local,
        "the output differs from local solve's"
    );
    let warnings = String::from_utf8(output.stderr).unwrap();
    assert!(
        warnings.contains(server) && warnings.contains("went back to the queue"),
        "{warnings}"
    );
}

#[test]
fn a_server_killed_mid_run_loses_no_answer_and_repeats_none() {
    let path = input("killed", "forum_hardest_1905_11plus.txt", 6_000);
    let local = solve(&path, &[]).stdout;
    let servers: Vec<(Server, String, String)> = (0..3)
        .map(|_| {
            let (child, grpc, metrics) = spawn_server();
            (Server(child), grpc, metrics)
        })
        .collect();
    let all: Vec<&str> = servers.iter().map(|(_, grpc, _)| grpc.as_str()).collect();
    let remote = spawn_remote(&all.join(","), &path);
    let mut servers = servers.into_iter();
    let (mut victim, grpc, metrics) = servers.next().unwrap();
    kill_once_at_work(&mut victim, &metrics);
    assert_complete(remote, &local, &grpc);
    drop(servers);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_lone_server_restarted_mid_run_is_called_again_and_the_run_completes() {
    let path = input("restarted", "forum_hardest_1905_11plus.txt", 6_000);
    let local = solve(&path, &[]).stdout;
    let (child, grpc, metrics) = spawn_server();
    let mut first = Server(child);
    let remote = spawn_remote(&grpc, &path);
    kill_once_at_work(&mut first, &metrics);
    // The same address again, as a restarted replica would be.
    let (child, _, _) = spawn_server_at(&grpc);
    let _second = Server(child);
    assert_complete(remote, &local, &grpc);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_run_whose_output_closes_stops_and_so_do_the_servers() {
    let (child, grpc, metrics) = spawn_server();
    let _server = Server(child);
    let set = "forum_hardest_1905_11plus.txt";
    let total = common::puzzles(set).len();
    let path = input("closed", set, total);
    let mut remote = spawn_remote(&grpc, &path);
    let mut stdout = BufReader::new(remote.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("error: "), "{first}");
    // The reader goes away, as `| head -1` does.
    drop(stdout);
    let output = remote.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("Broken pipe"), "{stderr}");
    // The calls went with the run: the server stopped far short of the file.
    let done = solved(&metrics);
    assert!(done < total as u64 / 2, "{done} of {total} solved");
    std::fs::remove_file(path).unwrap();
}
