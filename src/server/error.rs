//! Why the server could not run ([`ServeError`]).

use super::web::BadOrigin;

/// Why the server could not run.
#[derive(Debug)]
pub enum ServeError {
    /// The reflection service could not read a descriptor set.
    Reflection(tonic_reflection::server::Error),
    /// A `--cors-allow-origin` value is no origin.
    Cors(BadOrigin),
    /// The descriptors the JSON routes are built from do not decode.
    Descriptors(prost_reflect::DescriptorError),
    /// The transport failed.
    Transport(tonic::transport::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Reflection(error) => write!(f, "reflection: {error}"),
            ServeError::Cors(error) => write!(f, "{error}"),
            ServeError::Descriptors(error) => write!(f, "JSON routes: {error}"),
            ServeError::Transport(error) => {
                write!(f, "transport: {}", crate::client::describe(error))
            }
        }
    }
}

impl std::error::Error for ServeError {}
