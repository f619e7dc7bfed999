//! The docs cannot rot: every relative link and anchor in README.md, docs/,
//! CONTRIBUTING.md and the examples' READMEs leads somewhere, and the README's
//! quick-start calls (grpcurl, curl and Python), read from the README's own
//! text, answer a real server as the README shows (outcome and solution), and
//! every call of docs/api.md's RPC table runs as written.
//!
//! The clients are the ones a newcomer installs: where one is missing, the
//! snippet is skipped with a note, except in CI (`CI=true`), where `.ci/run`
//! installs them and a missing one fails.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The Markdown files whose links are checked.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    for dir in ["docs", "examples/python", "examples/node"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The text of `markdown` outside fenced code blocks and inline code.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Inline code spans hold no links.
        for (index, part) in line.split('`').enumerate() {
            if index % 2 == 0 {
                out.push_str(part);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the links and images in `markdown` (`[text](target)`).
fn link_targets(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut targets = Vec::new();
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.to_owned());
        }
    }
    targets
}

/// The anchors GitHub gives the headings of `markdown`: lower case, spaces as
/// `-`, punctuation other than `-` and `_` dropped, repeats numbered.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !fenced) else {
            continue;
        };
        let title = heading.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut name = slug.clone();
        let mut repeat = 0;
        while seen.contains(&name) {
            repeat += 1;
            name = format!("{slug}-{repeat}");
        }
        seen.insert(name);
    }
    seen
}

/// What is wrong with the relative links of the document at `path`, whose
/// text is `markdown`: each a line naming the link.
fn broken_links(path: &Path, markdown: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for target in link_targets(markdown) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (target.as_str(), None),
        };
        let linked = if file.is_empty() {
            path.to_path_buf()
        } else {
            path.parent().unwrap().join(file)
        };
        if !linked.exists() {
            broken.push(format!("{}: {target}: no such file", path.display()));
            continue;
        }
        if let Some(anchor) = anchor {
            let text = std::fs::read_to_string(&linked).unwrap_or_default();
            if !anchors(&text).contains(anchor) {
                broken.push(format!("{}: {target}: no such heading", path.display()));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for path in documents() {
        let text = std::fs::read_to_string(&path).unwrap();
        checked += link_targets(&text).len();
        broken.extend(broken_links(&path, &text));
    }
    assert!(broken.is_empty(), "{broken:#?}");
    assert!(checked > 10, "only {checked} links found");
}

#[test]
fn the_link_check_sees_a_missing_file_and_a_missing_heading() {
    let dir = std::env::temp_dir().join(format!("sudokud-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let other = dir.join("other.md");
    std::fs::write(&other, "# Other\n\n## The part (`x`)\n").unwrap();
    let page = dir.join("page.md");
    let text = "[ok](other.md#the-part-x) [gone](nowhere.md) [bad](other.md#nope) \
                [web](https://example.com/x) `[code](skipped.md)`\n\n# Here\n[self](#here)\n";
    std::fs::write(&page, text).unwrap();
    let broken = broken_links(&page, text);
    assert_eq!(broken.len(), 2, "{broken:#?}");
    assert!(broken[0].contains("nowhere.md: no such file"));
    assert!(broken[1].contains("other.md#nope: no such heading"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A quick-start snippet of the README: its name, the code, and the answer the
/// README shows under it.
struct Snippet {
    name: String,
    code: String,
    shown: String,
}

/// The README's quick-start snippets: a `<!-- quick-start: NAME -->` line, the
/// fenced block after it (the call), and the next fenced block (its answer).
fn snippets(readme: &str) -> Vec<Snippet> {
    let mut found = Vec::new();
    let mut rest = readme;
    while let Some(at) = rest.find("<!-- quick-start: ") {
        let after = &rest[at + "<!-- quick-start: ".len()..];
        let name = after[..after.find(" -->").unwrap()].to_owned();
        let (code, after) = fenced_block(after);
        let (shown, after) = fenced_block(after);
        found.push(Snippet { name, code, shown });
        rest = after;
    }
    found
}

/// The first fenced block of `text`, and the text after it.
fn fenced_block(text: &str) -> (String, &str) {
    let open = text.find("```").expect("a fenced block");
    let body = &text[open..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let close = body.find("\n```").expect("the block's end");
    (body[..close].to_owned(), &body[close + 4..])
}

/// The outcome and the solution in a snippet's answer: JSON (grpcurl, curl)
/// or the Python client's printed line.
fn outcome_and_solution(answer: &str) -> (String, String) {
    if let Ok(json) = serde_json::from_str::<Value>(answer.trim()) {
        let field = |name: &str| json[name].as_str().unwrap_or_default().to_owned();
        return (field("outcome"), field("solution"));
    }
    let mut words = answer.split_whitespace();
    let outcome = words.next().unwrap_or_default().to_owned();
    (outcome, words.next().unwrap_or_default().to_owned())
}

/// Whether `program` (with `probe`'s arguments) runs here.
fn available(program: &str, probe: &[&str]) -> bool {
    std::process::Command::new(program)
        .args(probe)
        .output()
        .is_ok_and(|output| output.status.success())
}

#[tokio::test]
async fn the_readmes_quick_start_calls_answer_as_the_readme_shows() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let snippets = snippets(&readme);
    let names: Vec<&str> = snippets.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["grpcurl", "curl", "python"]);
    let in_ci = std::env::var("CI").is_ok_and(|value| value == "true");
    let server = common::server::start().await;
    let address = server.address.to_string();
    for snippet in &snippets {
        let code = snippet.code.replace("127.0.0.1:50051", &address);
        let (program, probe) = match snippet.name.as_str() {
            "python" => ("python3", "import grpc, grpc_tools, google.api".to_owned()),
            name => ("bash", format!("type {name}")),
        };
        if !available(program, &["-c", &probe]) {
            assert!(!in_ci, "{}: its client is not installed", snippet.name);
            eprintln!(
                "{}: its client is not installed here: skipped",
                snippet.name
            );
            continue;
        }
        let output = common::process::run_in(program, &["-c", &code], Path::new(ROOT)).await;
        assert!(output.status.success(), "{}: {output:?}", snippet.name);
        let answer = String::from_utf8_lossy(&output.stdout);
        let got = outcome_and_solution(&answer);
        let shown = outcome_and_solution(&snippet.shown);
        assert_eq!(got, shown, "{}: answered {answer}", snippet.name);
        assert_eq!(shown.0, "OUTCOME_SOLVED", "{}", snippet.name);
        assert!(shown.1.len() == 81, "{}: {:?}", snippet.name, shown.1);
    }
}

/// The calls of docs/api.md's RPC table: the fenced block after "## The
/// RPCs", as (its comment, its command) pairs.
fn rpc_table_calls(api: &str) -> Vec<(String, String)> {
    let section = &api[api.find("## The RPCs").expect("the RPC table")..];
    let (block, _) = fenced_block(section);
    let mut calls = Vec::new();
    let mut comment = String::new();
    for line in block.lines() {
        match line.strip_prefix("# ") {
            Some(text) => comment = text.to_owned(),
            None if !line.trim().is_empty() => calls.push((comment.clone(), line.to_owned())),
            None => {}
        }
    }
    calls
}

#[tokio::test]
async fn every_call_of_the_rpc_table_runs_as_written() {
    let api = std::fs::read_to_string(Path::new(ROOT).join("docs/api.md")).unwrap();
    let calls = rpc_table_calls(&api);
    // One call at least for every RPC of the service, and the health check.
    for rpc in [
        "/Solve",
        "SolveSteps",
        "SolveBatch",
        "Explain",
        "Hint",
        "/v1/rate",
        "/v1/generate",
        "GenerateMany",
        "TrueCandidates",
        "Health/Check",
    ] {
        assert!(
            calls.iter().any(|(_, command)| command.contains(rpc)),
            "no call of {rpc}"
        );
    }
    let in_ci = std::env::var("CI").is_ok_and(|value| value == "true");
    if !available("bash", &["-c", "type grpcurl && type curl"]) {
        assert!(!in_ci, "grpcurl or curl is not installed");
        eprintln!("grpcurl or curl is not installed here: the RPC table's calls are skipped");
        return;
    }
    let server = common::server::start().await;
    let address = server.address.to_string();
    for (comment, command) in calls {
        let command = command.replace("127.0.0.1:50051", &address);
        let output = common::process::run_in("bash", &["-c", &command], Path::new(ROOT)).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        // A call whose comment says it ends with an error must end with it.
        if comment.contains("then RESOURCE_EXHAUSTED") {
            assert!(
                stderr.contains("ResourceExhausted"),
                "{comment}: {output:?}"
            );
            continue;
        }
        assert!(output.status.success(), "{comment}: {output:?}");
        let answer = String::from_utf8_lossy(&output.stdout);
        assert!(
            answer.trim_start().starts_with('{') && !answer.contains("\"code\""),
            "{comment}: answered {answer}"
        );
    }
}
