//! The written invariants of the layout, checked where a check is cheap: no source
//! file over 500 lines and no function over 60 (test modules aside); the engine
//! (`board`, `solver`, `logic`, `generate`, `bench`) imports std only (and `memchr` in
//! `board/parse.rs`), `convert` names no tonic type; `lib.rs` names every module
//! and the code map (`docs/architecture.md`) every source file; no import cycle
//! between source files and no layer naming a higher one (`layout/imports.rs`
//! reads the import graph).

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every `.rs` file under `src/`, as (path from the crate root, text).
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&Path::new(ROOT).join("src"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path
                .strip_prefix(ROOT)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, text)
        })
        .collect()
}

/// The lines of a file before its `#[cfg(test)]` module; none for a file of
/// tests.
fn non_test_lines(name: &str, text: &str) -> Vec<String> {
    if name.ends_with("/tests.rs") {
        return Vec::new();
    }
    text.lines()
        .take_while(|line| line.trim() != "#[cfg(test)]")
        .map(str::to_owned)
        .collect()
}

/// A line without its comment and with string and character literals emptied,
/// so only code braces are left to count.
fn code_of(line: &str) -> String {
    let mut code = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                code.push_str("\"\"");
            }
            '\'' => {
                // A character literal ('{', '\n') or a lifetime ('a).
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.nth(2);
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            _ => code.push(c),
        }
    }
    code
}

/// Each function of `lines` as (its first line number, its name, its length).
fn functions(lines: &[String]) -> Vec<(usize, String, usize)> {
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let code = code_of(line);
        let Some(at) = code.find("fn ") else {
            continue;
        };
        let before = code[..at].trim();
        let is_definition = before.split_whitespace().all(|word| {
            [
                "pub",
                "pub(crate)",
                "pub(super)",
                "const",
                "async",
                "unsafe",
            ]
            .contains(&word)
        });
        if !is_definition {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        let mut depth = 0i32;
        let mut opened = false;
        for (offset, line) in lines[start..].iter().enumerate() {
            let code = code_of(line);
            if !opened && depth == 0 && code.trim_end().ends_with(';') && !code.contains('{') {
                break;
            }
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth == 0 {
                found.push((start + 1, name.clone(), offset + 1));
                break;
            }
        }
    }
    found
}

#[test]
fn no_source_file_is_over_500_lines() {
    let long: Vec<String> = sources()
        .iter()
        .filter(|(_, text)| text.lines().count() > 500)
        .map(|(name, text)| format!("{name}: {} lines", text.lines().count()))
        .collect();
    assert!(long.is_empty(), "{long:#?}");
}

#[test]
fn no_function_is_over_60_lines() {
    let mut long = Vec::new();
    let mut counted = 0;
    for (name, text) in sources() {
        for (line, function, length) in functions(&non_test_lines(&name, &text)) {
            counted += 1;
            if length > 60 {
                long.push(format!("{name}:{line} {function}: {length} lines"));
            }
        }
    }
    assert!(long.is_empty(), "{long:#?}");
    // The parser found the functions (a broken one would find none).
    assert!(counted > 300, "only {counted} functions found");
}

#[test]
fn the_counter_measures_functions() {
    let text = "fn a() {\n    let s = \"{\";\n    let c = '{';\n}\nfn b<'a>(x: &'a str) -> &'a str { x }\n";
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert_eq!(
        functions(&lines),
        [(1, "a".to_owned(), 4), (5, "b".to_owned(), 1)]
    );
}

/// The crates and modules a file of the engine may name.
fn engine_may_use(file: &str, root: &str) -> bool {
    matches!(
        root,
        "std"
            | "core"
            | "super"
            | "self"
            | "crate::board"
            | "crate::solver"
            | "crate::logic"
            | "crate::generate"
            | "crate::bench"
    ) || (root == "memchr" && file == "src/board/parse.rs")
}

#[test]
fn the_engine_imports_std_only() {
    let mut foreign = Vec::new();
    for (name, text) in sources() {
        let engine = name.starts_with("src/board/")
            || name.starts_with("src/solver/")
            || name.starts_with("src/logic/")
            || name.starts_with("src/generate/")
            || name == "src/bench.rs";
        if !engine {
            continue;
        }
        for (number, line) in non_test_lines(&name, &text).iter().enumerate() {
            let code = code_of(line);
            if code.trim_start().starts_with("#[") {
                continue;
            }
            // Every path in the line: `use` roots and paths written out in code
            // (turbofish `::<` is no path).
            for (at, _) in code.match_indices("::") {
                if code[at + 2..].starts_with('<') {
                    continue;
                }
                let start = code[..at]
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .map_or(0, |i| i + 1);
                let path = &code[start..];
                let root = if let Some(rest) = path.strip_prefix("crate::") {
                    let module: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    format!("crate::{module}")
                } else {
                    code[start..at].split("::").next().unwrap_or("").to_owned()
                };
                let known_local =
                    root.chars().next().is_some_and(char::is_uppercase) || root.is_empty();
                if !known_local && !engine_may_use(&name, &root) && !is_local_module(&root) {
                    foreign.push(format!("{name}:{}: {root} in {}", number + 1, line.trim()));
                }
            }
        }
    }
    assert!(foreign.is_empty(), "{foreign:#?}");
}

/// Names of the engine's own modules (the file and folder names under its
/// folders), which its files name by path, and of std's primitive types and
/// modules named without `std::`.
fn is_local_module(root: &str) -> bool {
    let engine = ["src/board/", "src/solver/", "src/logic/", "src/generate/"];
    let own = sources().iter().any(|(name, _)| {
        engine.iter().any(|folder| name.starts_with(folder))
            && name
                .trim_end_matches(".rs")
                .split('/')
                .skip(1)
                .any(|part| part == root)
    });
    own || [
        "arch", "x86_64", "mem", "array", "iter", "fmt", "u8", "u16", "u32", "u64", "u128",
        "usize", "i64", "f64",
    ]
    .contains(&root)
}

#[test]
fn convert_names_no_tonic_type() {
    for file in ["src/convert/mod.rs", "src/convert/rules.rs"] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
        let code: String = text.lines().map(code_of).collect::<Vec<_>>().join("\n");
        assert!(!code.contains("tonic"), "{file} names tonic");
    }
}

#[test]
fn lib_rs_names_every_module_and_the_code_map_every_file() {
    let lib = std::fs::read_to_string(Path::new(ROOT).join("src/lib.rs")).unwrap();
    for line in lib.lines() {
        if let Some(module) = line
            .strip_prefix("pub mod ")
            .and_then(|m| m.strip_suffix(';'))
        {
            assert!(
                lib.contains(&format!("[`{module}`]"))
                    || lib.contains(&format!("[`{module}`](mod@")),
                "lib.rs's layout does not name {module}"
            );
        }
    }
    let map = std::fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).unwrap();
    let missing: Vec<String> = sources()
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| !map.contains(&format!("`{name}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "the code map in docs/architecture.md misses {missing:#?}"
    );
}

#[path = "layout/imports.rs"]
mod imports;

/// The crate's sources as the import graph reads them: code only, comments,
/// strings and test modules left out.
fn code_sources() -> Vec<(String, String)> {
    sources()
        .into_iter()
        .map(|(name, text)| {
            let code: Vec<String> = non_test_lines(&name, &text)
                .iter()
                .map(|line| code_of(line))
                .collect();
            (name, code.join("\n"))
        })
        .collect()
}

#[test]
fn no_module_imports_itself_through_others() {
    let graph = imports::graph(&code_sources());
    let cycles = imports::cycles(&graph);
    let shown: Vec<String> = cycles
        .iter()
        .map(|cycle| {
            let edges: Vec<String> = cycle
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|to| cycle.contains(to))
                        .map(move |to| format!("{from} -> {to}"))
                })
                .collect();
            edges.join("\n  ")
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "import cycles:\n  {}",
        shown.join("\n\n  ")
    );
    // The reader found the crate's edges (a broken one would find none).
    let edges: usize = graph.values().map(|targets| targets.len()).sum();
    assert!(edges > 150, "only {edges} import edges found");
}

/// A file list for the graph's own tests: (path, code).
fn fake_crate(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(name, code)| ((*name).to_owned(), (*code).to_owned()))
        .collect()
}

#[test]
fn the_cycle_check_sees_a_two_file_cycle() {
    let cyclic = fake_crate(&[
        ("src/lib.rs", "pub mod a;\npub mod b;"),
        ("src/a.rs", "use crate::b::B;\npub struct A;"),
        ("src/b.rs", "pub struct B;\nfn f() { crate::a::A; }"),
    ]);
    assert_eq!(
        imports::cycles(&imports::graph(&cyclic)),
        [vec!["src/a.rs".to_owned(), "src/b.rs".to_owned()]]
    );
    let acyclic = fake_crate(&[
        ("src/lib.rs", "pub mod a;\npub mod b;"),
        ("src/a.rs", "use crate::b::B;\npub struct A;"),
        ("src/b.rs", "pub struct B;"),
    ]);
    assert!(imports::cycles(&imports::graph(&acyclic)).is_empty());
    // A visibility path names who may see an item, not what the file uses.
    let visible = fake_crate(&[
        (
            "src/lib.rs",
            "pub mod a;
pub mod b;",
        ),
        (
            "src/a.rs",
            "use crate::b::B;
pub struct A;",
        ),
        ("src/b.rs", "pub(in crate::a) struct B;"),
    ]);
    assert!(imports::cycles(&imports::graph(&visible)).is_empty());
}

#[test]
fn an_edge_leads_to_the_defining_file_through_re_exports() {
    let files = fake_crate(&[
        (
            "src/lib.rs",
            "pub mod service;\npub mod metrics;\npub mod pb { }",
        ),
        (
            "src/service/mod.rs",
            "mod shutdown;\nmod call;\npub use shutdown::{Readiness, Shutdown as Stop};\nuse crate::metrics::Metrics;",
        ),
        (
            "src/service/shutdown.rs",
            "pub struct Readiness;\npub struct Shutdown;",
        ),
        (
            "src/service/call.rs",
            "use super::{Metrics, Stop};\nfn f() { let _ = crate::pb::X; std::mem::drop(1); }",
        ),
        (
            "src/metrics.rs",
            "pub struct Metrics;\nfn f(_: crate::service::Readiness) {}",
        ),
        ("src/main.rs", "fn main() { sudokud::service::Stop; }"),
    ]);
    let graph = imports::graph(&files);
    let edges = |from: &str| -> Vec<&str> { graph[from].iter().map(String::as_str).collect() };
    assert_eq!(edges("src/metrics.rs"), ["src/service/shutdown.rs"]);
    assert_eq!(
        edges("src/service/call.rs"),
        ["src/lib.rs", "src/metrics.rs", "src/service/shutdown.rs"]
    );
    assert_eq!(
        edges("src/service/mod.rs"),
        ["src/metrics.rs", "src/service/shutdown.rs"]
    );
    assert_eq!(edges("src/main.rs"), ["src/service/shutdown.rs"]);
}

/// Each top-level module's layer, lowest first: a file may name files of its
/// own layer or a lower one, never a higher one.
const LAYERS: &[&[&str]] = &[
    &["board"],
    &["solver"],
    &["logic"],
    &["generate", "bench"],
    &["codec"],
    &["lib"],
    &["convert", "metrics", "telemetry", "dashboard", "client"],
    &["service"],
    &["server"],
    &["remote", "load", "watch"],
    &["cli"],
    &["main", "bin"],
];

/// The layer of a source file (`src/service/call.rs`: the layer of `service`).
fn layer_of(file: &str) -> usize {
    let top = file
        .strip_prefix("src/")
        .and_then(|rest| rest.split(['/', '.']).next())
        .unwrap_or_default();
    LAYERS
        .iter()
        .position(|layer| layer.contains(&top))
        .unwrap_or_else(|| panic!("{file} is in no layer: add its module to LAYERS"))
}

#[test]
fn no_layer_names_a_higher_one() {
    let graph = imports::graph(&code_sources());
    let mut upward = Vec::new();
    for (from, targets) in &graph {
        for to in targets {
            if layer_of(to) > layer_of(from) {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(upward.is_empty(), "arrows running up: {upward:#?}");
}
