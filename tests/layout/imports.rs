//! The crate's import graph, read from its text: nodes are source files; an edge
//! runs from a file to the file that defines a name the first one names by path,
//! in a `use` or inline (`crate::server::run(..)`, `super::call::CallEnd`),
//! followed through re-exports (`pub use` and the private `use`s a child module
//! sees). `mod x;` is no edge. Paths are read from code with comments and
//! string literals removed, test modules left out.

use std::collections::{BTreeMap, BTreeSet};

/// A module path from the crate root (`["service", "call"]`).
type ModulePath = Vec<String>;

/// Every edge of the graph: a file and the files it names.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// What one file declares and imports.
#[derive(Default)]
struct FileFacts {
    /// Its module path (`main.rs` gets none: it is its own crate).
    module: Option<ModulePath>,
    /// Names of the items it defines (types, functions, constants, modules).
    defines: BTreeSet<String>,
    /// Names of the modules written inline in it (`mod pb { .. }`).
    inline_modules: Vec<String>,
    /// Its `use` declarations as (the name they bring in, the path it stands
    /// for, relative as written); a glob brings in `*`.
    imports: Vec<(String, Vec<String>)>,
    /// Paths written in its code outside `use` declarations.
    inline: Vec<Vec<String>>,
}

/// The import graph of `sources` (path from the crate root such as
/// `src/service/call.rs`, and the file's code without comments, strings and
/// test modules).
pub fn graph(sources: &[(String, String)]) -> Graph {
    let facts: Vec<(String, FileFacts)> = sources
        .iter()
        .map(|(name, code)| (name.clone(), read_facts(name, code)))
        .collect();
    let crate_ = Crate::new(&facts);
    let mut graph = Graph::new();
    for (name, file) in &facts {
        let targets = graph.entry(name.clone()).or_default();
        let written = file
            .imports
            .iter()
            .map(|(_, path)| path)
            .chain(file.inline.iter());
        for path in written {
            if let Some(target) = crate_.resolve_written(name, path)
                && target != *name
            {
                targets.insert(target);
            }
        }
    }
    graph
}

/// The cycles of `graph`: each a set of files that reach one another, sorted.
pub fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    let nodes: Vec<&String> = graph.keys().collect();
    let index: BTreeMap<&String, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let reach = |from: usize| -> BTreeSet<usize> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(node) = todo.pop() {
            for next in &graph[nodes[node]] {
                if let Some(&next) = index.get(next)
                    && seen.insert(next)
                {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reaches: Vec<BTreeSet<usize>> = (0..nodes.len()).map(reach).collect();
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for (node, reached) in reaches.iter().enumerate() {
        if !reached.contains(&node) {
            continue;
        }
        let cycle: Vec<String> = reached
            .iter()
            .filter(|other| reaches[**other].contains(&node))
            .map(|other| nodes[*other].clone())
            .collect();
        found.insert(cycle);
    }
    found.into_iter().collect()
}

/// The modules of the crate and what each file holds.
struct Crate<'a> {
    files: BTreeMap<&'a str, &'a FileFacts>,
    modules: BTreeMap<ModulePath, &'a str>,
}

impl<'a> Crate<'a> {
    fn new(facts: &'a [(String, FileFacts)]) -> Self {
        let mut modules = BTreeMap::new();
        for (name, file) in facts {
            if let Some(module) = &file.module {
                modules.insert(module.clone(), name.as_str());
                // Inline modules (`pub mod pb { .. }`) live in their file.
                for inner in &file.inline_modules {
                    let mut path = module.clone();
                    path.push(inner.clone());
                    modules.entry(path).or_insert(name.as_str());
                }
            }
        }
        let files = facts.iter().map(|(n, f)| (n.as_str(), f)).collect();
        Crate { files, modules }
    }

    /// The file a path written in `file` leads to, or `None` when it leaves
    /// the crate (std, another crate, a local name).
    fn resolve_written(&self, file: &str, path: &[String]) -> Option<String> {
        let absolute = self.absolute(file, path, 0)?;
        self.resolve(&absolute, 0)
    }

    /// `path` as written in `file`, made absolute from the crate root.
    fn absolute(&self, file: &str, path: &[String], depth: usize) -> Option<ModulePath> {
        let facts = self.files.get(file)?;
        let (first, rest) = path.split_first()?;
        let mut base: ModulePath = match first.as_str() {
            "crate" => Vec::new(),
            "sudokud" if facts.module.is_none() => Vec::new(),
            "self" => facts.module.clone()?,
            "super" => {
                let mut module = facts.module.clone()?;
                module.pop()?;
                let ups = rest.iter().take_while(|s| *s == "super").count();
                for _ in 0..ups {
                    module.pop()?;
                }
                module.extend(rest[ups..].iter().cloned());
                return Some(module);
            }
            name => {
                let module = facts.module.clone()?;
                let mut child = module.clone();
                child.push(name.to_owned());
                if self.modules.contains_key(&child) {
                    child
                } else if depth < 8 {
                    // A name brought in by one of the file's own `use`s.
                    let (_, stands_for) = facts.imports.iter().find(|(n, _)| n == name)?;
                    let mut base = self.absolute(file, stands_for, depth + 1)?;
                    base.extend(rest.iter().cloned());
                    return Some(base);
                } else {
                    return None;
                }
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file that defines the item at the absolute `path` (the module's own
    /// file for a module), following re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<String> {
        let mut module: ModulePath = Vec::new();
        for (at, segment) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.modules.contains_key(&child) {
                module = child;
                continue;
            }
            let file = *self.modules.get(&module)?;
            let facts = self.files[file];
            if segment == "*" || facts.defines.contains(segment) || depth > 8 {
                return Some(file.to_owned());
            }
            let reexport = facts.imports.iter().find(|(name, _)| name == segment);
            let Some((_, stands_for)) = reexport else {
                return Some(file.to_owned());
            };
            let mut target = self.absolute(file, stands_for, 0)?;
            target.extend(path[at + 1..].iter().cloned());
            return self.resolve(&target, depth + 1);
        }
        self.modules.get(&module).map(|file| (*file).to_owned())
    }
}

/// The module path of a source file; `None` for `src/main.rs`.
fn module_of(name: &str) -> Option<ModulePath> {
    let inside = name.strip_prefix("src/")?.strip_suffix(".rs")?;
    if inside == "main" {
        return None;
    }
    let mut parts: ModulePath = inside.split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    Some(parts)
}

fn read_facts(name: &str, code: &str) -> FileFacts {
    let tokens = tokenize(code);
    let mut facts = FileFacts {
        module: module_of(name),
        ..FileFacts::default()
    };
    let mut at = 0;
    while at < tokens.len() {
        let token = tokens[at].as_str();
        if token == "use" {
            let end = tokens[at..]
                .iter()
                .position(|t| t == ";")
                .map_or(tokens.len(), |i| at + i);
            let mut tree = UseTree {
                tokens: &tokens[at + 1..end],
                at: 0,
            };
            tree.read(&mut Vec::new(), &mut facts.imports);
            at = end + 1;
            continue;
        }
        let defining = [
            "struct", "enum", "fn", "trait", "type", "const", "static", "union", "mod",
        ];
        if defining.contains(&token) || token == "macro_rules" {
            let skip = if token == "macro_rules" { 2 } else { 1 };
            if let Some(item) = tokens.get(at + skip).filter(|t| is_identifier(t)) {
                facts.defines.insert(item.clone());
                if token == "mod" && tokens.get(at + 2).is_some_and(|t| t == "{") {
                    facts.inline_modules.push(item.clone());
                }
            }
        }
        if is_identifier(token) && tokens.get(at + 1).is_some_and(|t| t == "::") {
            let before = at.checked_sub(1).map(|i| tokens[i].as_str());
            if before != Some("::") {
                let path = path_at(&tokens, at);
                at += path.len() * 2 - 1;
                // `pub(in crate::a)` says who may see an item: not an import.
                if before != Some("in") {
                    facts.inline.push(path);
                }
                continue;
            }
        }
        at += 1;
    }
    facts
}

/// The path starting at token `at`: identifiers joined by `::`.
fn path_at(tokens: &[String], mut at: usize) -> Vec<String> {
    let mut path = vec![tokens[at].clone()];
    while tokens.get(at + 1).is_some_and(|t| t == "::")
        && tokens.get(at + 2).is_some_and(|t| is_identifier(t))
    {
        path.push(tokens[at + 2].clone());
        at += 2;
    }
    path
}

/// A `use` tree being read: `a::b::{c, d::e as f, self, *}`.
struct UseTree<'t> {
    tokens: &'t [String],
    at: usize,
}

impl UseTree<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    /// Reads one tree under `prefix`, adding what it brings in to `out`.
    fn read(&mut self, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
        let depth = prefix.len();
        loop {
            match self.peek() {
                Some("::") => self.at += 1,
                Some("{") => {
                    self.at += 1;
                    while !matches!(self.peek(), Some("}") | None) {
                        self.read(prefix, out);
                        if self.peek() == Some(",") {
                            self.at += 1;
                        }
                    }
                    self.at += 1;
                    break;
                }
                Some("*") => {
                    self.at += 1;
                    let mut path = prefix.clone();
                    path.push("*".to_owned());
                    out.push(("*".to_owned(), path));
                    break;
                }
                Some(word) if is_identifier(word) => {
                    let word = word.to_owned();
                    self.at += 1;
                    if self.peek() == Some("::") {
                        prefix.push(word);
                        continue;
                    }
                    let mut path = prefix.clone();
                    let mut name = word.clone();
                    if word == "self" {
                        name = prefix.last().cloned().unwrap_or_default();
                    } else {
                        path.push(word);
                    }
                    if self.peek() == Some("as") {
                        name = self.tokens.get(self.at + 1).cloned().unwrap_or_default();
                        self.at += 2;
                    }
                    out.push((name, path));
                    break;
                }
                _ => break,
            }
        }
        prefix.truncate(depth);
    }
}

fn is_identifier(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers and punctuation (`::` one token; other characters one each).
fn tokenize(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut word = String::from(c);
            while let Some(&next) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                word.push(next);
                chars.next();
            }
            tokens.push(word);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            tokens.push("::".to_owned());
        } else if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    tokens
}
