//! Which paths the Connect translation answers: every method of the services in
//! the descriptor sets, by its gRPC path (`/sudoku.v1.SudokuService/Solve`), and
//! every `google.api.http` POST binding with `body: "*"` (`/v1/solve`) as an alias
//! of its method. Built once at start-up from the same descriptors reflection
//! serves, so a unary RPC added to the proto is reachable with no code here.

use std::collections::HashMap;
use std::sync::Arc;

use prost_reflect::{DescriptorPool, MessageDescriptor, MethodDescriptor, Value};

/// One RPC as the translation needs it.
#[derive(Debug)]
pub(super) struct Procedure {
    /// The gRPC path the translated call goes to.
    pub grpc_path: String,
    /// The request message type, for JSON bodies.
    pub input: MessageDescriptor,
    /// The response message type, for JSON bodies.
    pub output: MessageDescriptor,
    /// Whether the RPC takes and gives one message (the only kind served here).
    pub unary: bool,
    /// Whether the proto declares it without side effects
    /// (`idempotency_level = NO_SIDE_EFFECTS`): it is also served to GET.
    pub cacheable: bool,
}

/// The paths the translation answers.
#[derive(Debug, Default)]
pub(super) struct Procedures {
    by_path: HashMap<String, Arc<Procedure>>,
}

impl Procedures {
    /// The procedures of every service in `descriptor_sets` (encoded
    /// `FileDescriptorSet`s); a set that does not decode is an error.
    pub fn new(descriptor_sets: &[&[u8]]) -> Result<Self, prost_reflect::DescriptorError> {
        let mut pool = DescriptorPool::new();
        for set in descriptor_sets {
            pool.decode_file_descriptor_set(*set)?;
        }
        let mut by_path = HashMap::new();
        for service in pool.services() {
            for method in service.methods() {
                let procedure = Arc::new(Procedure {
                    grpc_path: format!("/{}/{}", service.full_name(), method.name()),
                    input: method.input(),
                    output: method.output(),
                    unary: !method.is_client_streaming() && !method.is_server_streaming(),
                    cacheable: no_side_effects(&method),
                });
                for alias in http_posts(&pool, &method) {
                    by_path.insert(alias, procedure.clone());
                }
                by_path.insert(procedure.grpc_path.clone(), procedure);
            }
        }
        Ok(Procedures { by_path })
    }

    /// The procedure at `path`, by its gRPC path or an HTTP alias.
    pub fn get(&self, path: &str) -> Option<&Arc<Procedure>> {
        self.by_path.get(path)
    }

    /// The path a caller may have meant by `path`: one that differs only in
    /// case, or the method of that name on the one service that has it.
    pub fn like(&self, path: &str) -> Option<&str> {
        let same_but_case = self
            .by_path
            .keys()
            .find(|known| known.eq_ignore_ascii_case(path));
        let method = path.rsplit('/').next().unwrap_or("");
        // Each procedure once, by its gRPC path (its aliases are also keys).
        let mut by_method = self.by_path.iter().filter(|(key, procedure)| {
            let name = procedure.grpc_path.rsplit('/').next().unwrap_or("");
            **key == procedure.grpc_path && !method.is_empty() && name.eq_ignore_ascii_case(method)
        });
        let only = match (by_method.next(), by_method.next()) {
            (Some((_, one)), None) => Some(one.grpc_path.as_str()),
            _ => None,
        };
        same_but_case.map(String::as_str).or(only)
    }
}

/// Whether `method` is declared `idempotency_level = NO_SIDE_EFFECTS`.
fn no_side_effects(method: &MethodDescriptor) -> bool {
    let level = method.method_descriptor_proto().options.as_ref();
    level.and_then(|options| options.idempotency_level) == Some(NO_SIDE_EFFECTS)
}

/// `MethodOptions.IdempotencyLevel.NO_SIDE_EFFECTS` in descriptor.proto.
const NO_SIDE_EFFECTS: i32 = 1;

/// The `post` paths of `method`'s `google.api.http` bindings (the rule and its
/// additional bindings) whose body is the whole request and whose path has no
/// variables: the bindings this server can answer as they are declared.
fn http_posts(pool: &DescriptorPool, method: &MethodDescriptor) -> Vec<String> {
    let Some(http) = pool.get_extension_by_name("google.api.http") else {
        return Vec::new();
    };
    let options = method.options();
    if !options.has_extension(&http) {
        return Vec::new();
    }
    let mut rules = vec![options.get_extension(&http).into_owned()];
    let mut posts = Vec::new();
    while let Some(Value::Message(rule)) = rules.pop() {
        let text = |name: &str| {
            rule.get_field_by_name(name)
                .and_then(|value| value.as_str().map(str::to_owned))
                .unwrap_or_default()
        };
        let post = text("post");
        if post.starts_with('/') && !post.contains('{') && text("body") == "*" {
            posts.push(post);
        }
        if let Some(Value::List(more)) = rule.get_field_by_name("additional_bindings").as_deref() {
            rules.extend(more.iter().cloned());
        }
    }
    posts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_by_its_path_and_the_declared_aliases() {
        let procedures = Procedures::new(&[crate::pb::FILE_DESCRIPTOR_SET]).unwrap();
        let solve = procedures.get("/sudoku.v1.SudokuService/Solve").unwrap();
        assert!(solve.unary && solve.cacheable);
        assert_eq!(solve.input.full_name(), "sudoku.v1.SolveRequest");
        assert_eq!(solve.output.full_name(), "sudoku.v1.SolveResponse");
        let alias = procedures.get("/v1/solve").unwrap();
        assert_eq!(alias.grpc_path, "/sudoku.v1.SudokuService/Solve");
        for (alias, method) in [
            ("/v1/rate", "Rate"),
            ("/v1/hint", "Hint"),
            ("/v1/generate", "Generate"),
        ] {
            let procedure = procedures.get(alias).unwrap();
            assert_eq!(
                procedure.grpc_path,
                format!("/sudoku.v1.SudokuService/{method}")
            );
        }
        let steps = procedures
            .get("/sudoku.v1.SudokuService/SolveSteps")
            .unwrap();
        assert!(!steps.unary);
        let generate = procedures.get("/v1/generate").unwrap();
        assert!(!generate.cacheable);
        assert!(procedures.get("/v1/solve_steps").is_none());
    }
}
