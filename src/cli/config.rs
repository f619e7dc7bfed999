//! The second stage of the command line: raw flags (`args.rs`) turned into the
//! library's types, every check made here so the commands get values they can use.
//! Knows nothing of running a command.

use std::path::Path;
use std::time::Duration;

use super::args::{
    AlgorithmArg, ConnectArgs, GenerateArgs, GridArgs, RpcArg, RulesArgs, ServeArgs, SolveArgs,
    TlsArgs,
};
use crate::client::{ClientTls, Target};
use crate::generate::VariantRules;
use crate::logic::{BadRange, RatingRange};
use crate::server::{Admission, Tls, Transport};
use crate::service::Limits;
use crate::solver::Mode;

/// A duration from a flag in seconds; negative values count as zero.
pub(super) fn seconds(value: f64) -> Duration {
    Duration::try_from_secs_f64(value.max(0.0)).unwrap_or(Duration::MAX)
}

/// A stream's `step_interval_ms` for a `--pace` in steps a second (0: unpaced).
pub(super) fn interval_ms(steps_a_second: f64) -> u32 {
    if steps_a_second > 0.0 {
        (1000.0 / steps_a_second)
            .round()
            .clamp(1.0, f64::from(u32::MAX)) as u32
    } else {
        0
    }
}

/// A file's bytes, or an error that names the file.
pub(super) fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))
}

/// A file's text, or an error that names the file.
pub(super) fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))
}

impl TlsArgs {
    /// The client's TLS material from its flags: none without a CA.
    pub(super) fn client_tls(&self) -> Result<Option<ClientTls>, String> {
        let Some(ca) = &self.tls_ca else {
            return Ok(None);
        };
        Ok(Some(ClientTls {
            ca: read_file(ca)?,
            domain: self.tls_domain.clone(),
            identity: match (&self.tls_cert, &self.tls_key) {
                (Some(cert), Some(key)) => Some((read_file(cert)?, read_file(key)?)),
                _ => None,
            },
        }))
    }
}

impl ConnectArgs {
    /// The server to call, with the TLS material read and the token to send.
    pub(super) fn target(
        &self,
        bearer_token: Option<String>,
    ) -> Result<Target, Box<dyn std::error::Error + Send + Sync>> {
        let tls = self.tls.client_tls()?;
        Ok(Target {
            address: self.addr.clone(),
            tls,
            bearer_token,
        })
    }
}

impl GridArgs {
    /// The grid's shape: `--box`, or 9x9.
    pub(super) fn shape(&self) -> crate::board::Shape {
        self.box_shape.unwrap_or(crate::board::Shape::CLASSIC)
    }

    /// The notation of `--box` and `--symbols`; `None` without either (9x9
    /// lines as always).
    pub(super) fn notation(&self) -> Result<Option<crate::board::Notation>, String> {
        if self.box_shape.is_none() && self.symbols.is_none() {
            return Ok(None);
        }
        let symbols = self.symbols.as_deref().unwrap_or_default();
        crate::board::Notation::new(self.shape(), symbols)
            .map(Some)
            .map_err(|error| format!("--symbols: {error}"))
    }

    /// The rules of `--box` and `--symbols` as the API writes them (default:
    /// none).
    pub(super) fn rules(&self) -> crate::pb::Rules {
        let shape = self.shape();
        match (self.box_shape, &self.symbols) {
            (None, None) => crate::pb::Rules::default(),
            (_, symbols) => crate::pb::Rules {
                box_rows: shape.box_rows() as u32,
                box_cols: shape.box_cols() as u32,
                symbols: symbols.clone().unwrap_or_default(),
                ..crate::pb::Rules::default()
            },
        }
    }
}

impl SolveArgs {
    /// The rules every puzzle is sent with: the `--rules` file, or those of
    /// `--box` and `--symbols`.
    pub(super) fn wire_rules(&self) -> Result<crate::pb::Rules, String> {
        Ok(self
            .variant
            .given_rules()?
            .unwrap_or_else(|| self.grid.rules()))
    }

    /// First solution, or counting to two with `--count`.
    pub(super) fn mode(&self) -> Mode {
        if self.count {
            Mode::CountTwo
        } else {
            Mode::First
        }
    }
}

impl RpcArg {
    /// The load generator's call.
    pub(super) fn rpc(self) -> crate::load::Rpc {
        match self {
            RpcArg::Solve => crate::load::Rpc::Solve,
            RpcArg::Steps => crate::load::Rpc::Steps,
            RpcArg::Health => crate::load::Rpc::Health,
        }
    }
}

impl AlgorithmArg {
    /// The algorithm as a request's `algorithm` field.
    pub(super) fn pb(self) -> i32 {
        crate::convert::algorithm_to_pb(self.engine()).into()
    }
}

/// What `serve` runs with.
pub(super) struct ServeConfig {
    pub(super) limits: Limits,
    pub(super) transport: Transport,
}

impl ServeArgs {
    /// The service's limits and the listener's settings these flags describe.
    pub(super) fn config(&self) -> Result<ServeConfig, Box<dyn std::error::Error + Send + Sync>> {
        // The variable's old spelling, refused rather than silently ignored.
        if std::env::var_os("SUDOKUD_CORS_ALLOW_ORIGINS").is_some() {
            return Err(
                "SUDOKUD_CORS_ALLOW_ORIGINS is spelt SUDOKUD_CORS_ALLOW_ORIGIN now, \
                        as the flag is --cors-allow-origin: rename the variable"
                    .into(),
            );
        }
        Ok(ServeConfig {
            limits: self.limits(),
            transport: self.transport()?,
        })
    }

    fn limits(&self) -> Limits {
        let defaults = Limits::default();
        Limits {
            max_steps: self.max_steps,
            default_batch: self.default_batch,
            max_concurrent_solves: self
                .max_concurrent_solves
                .unwrap_or(defaults.max_concurrent_solves),
            max_queue: self.max_queue,
            max_open_streams: self.max_open_streams,
            max_message_bytes: self.max_message_bytes,
            drain_delay: seconds(self.drain_delay),
            shutdown_grace: seconds(self.shutdown_grace),
            max_stream_duration: seconds(self.max_stream_seconds),
            ..defaults
        }
    }

    fn bearer_token(&self) -> Result<Option<String>, String> {
        let token = match (&self.auth_token_file, &self.auth_token) {
            (Some(path), _) => Some(read_text(path)?.trim().to_owned()),
            (None, token) => token.clone(),
        };
        if token.as_deref() == Some("") {
            return Err("the bearer token is empty".into());
        }
        Ok(token)
    }

    fn transport(&self) -> Result<Transport, Box<dyn std::error::Error + Send + Sync>> {
        let positive = |value: f64| (value > 0.0).then(|| seconds(value));
        Ok(Transport {
            bearer_token: self.bearer_token()?,
            max_concurrent_streams: self.max_concurrent_streams,
            keepalive_interval: positive(self.keepalive_seconds),
            keepalive_timeout: seconds(self.keepalive_timeout_seconds),
            max_connection_age: positive(self.max_connection_age_seconds),
            max_connection_age_grace: seconds(self.max_connection_age_grace_seconds),
            tls: match (&self.tls_cert, &self.tls_key) {
                (Some(cert), Some(key)) => Some(Tls {
                    certificate_chain: read_file(cert)?,
                    private_key: read_file(key)?,
                    client_ca: self.tls_client_ca.as_deref().map(read_file).transpose()?,
                }),
                _ => None,
            },
            cors_allowed_origins: self.cors_allow_origins.clone(),
            dashboard: !self.no_dashboard,
            compress_responses: self.compress_responses,
            admission: Admission {
                max_connections: self.max_connections,
                handshake_timeout: seconds(self.handshake_timeout_seconds),
            },
        })
    }
}

impl GenerateArgs {
    /// The ratings wanted: the level's range, or the bounds given (each open
    /// when absent); an error for a bound that is no rating.
    pub(super) fn range(&self) -> Result<RatingRange, String> {
        if let Some(level) = self.level {
            return Ok(RatingRange::of(level.0));
        }
        let low = self.min_rating.unwrap_or(0.0);
        RatingRange::between(low, self.max_rating).map_err(|bad| match bad {
            BadRange::NotARating { high, value } => {
                let bound = if high { "max" } else { "min" };
                format!("--{bound}-rating {value}: a rating is a number from 0 up")
            }
            BadRange::Reversed => format!(
                "--min-rating {low} is above --max-rating {}",
                self.max_rating.unwrap_or_default()
            ),
        })
    }
}

impl GenerateArgs {
    /// The rules of `--rules` (absent: 9x9) and what variant puzzles are made
    /// under; `None` for classic puzzles (no --rules, no random shapes).
    pub(super) fn variant(
        &self,
    ) -> Result<Option<(crate::pb::Rules, crate::board::Notation, VariantRules)>, String> {
        if self.rules.is_none() && !self.random_regions && !self.random_cages {
            return Ok(None);
        }
        let rules = self.rules.as_deref().map(read_rules).transpose()?;
        let rules = rules.unwrap_or_default();
        let (notation, made_under) = crate::convert::variant_rules_from_pb(
            Some(&rules),
            self.random_regions,
            self.random_cages,
        )
        .map_err(|error| format!("--rules: {error}"))?;
        Ok(Some((rules, notation, made_under)))
    }
}

/// The proto3 JSON form of a `sudoku.v1.Rules` message (as `--rules` reads it).
pub(super) fn rules_json(rules: &crate::pb::Rules) -> Result<serde_json::Value, String> {
    let pool = prost_reflect::DescriptorPool::decode(crate::pb::FILE_DESCRIPTOR_SET)
        .map_err(|error| error.to_string())?;
    let message = pool
        .get_message_by_name("sudoku.v1.Rules")
        .ok_or("the API has no sudoku.v1.Rules")?;
    let mut dynamic = prost_reflect::DynamicMessage::new(message);
    dynamic
        .transcode_from(rules)
        .map_err(|error| error.to_string())?;
    serde_json::to_value(&dynamic).map_err(|error| error.to_string())
}

impl RulesArgs {
    /// The rules of `--rules` or `--fpuzzles`; `None` without either.
    fn given_rules(&self) -> Result<Option<crate::pb::Rules>, String> {
        if let Some(imported) = self.imported()? {
            return Ok(Some(imported.rules.clone()));
        }
        self.rules.as_deref().map(read_rules).transpose()
    }

    /// The puzzle and rules of `--fpuzzles` (the link read the first time
    /// it is asked for); `None` without the flag.
    fn imported(&self) -> Result<Option<&crate::convert::Imported>, String> {
        let read = self.read_link.get_or_init(|| {
            let Some(link) = &self.fpuzzles else {
                return Ok(None);
            };
            crate::convert::read_fpuzzles(link)
                .map(Some)
                .map_err(|error| format!("--fpuzzles: {error}"))
        });
        read.as_ref().map(Option::as_ref).map_err(Clone::clone)
    }

    /// The puzzle lines: the `--fpuzzles` link's puzzle, or `file`'s (stdin's).
    pub(super) fn input(&self, file: Option<&Path>) -> Result<super::input::Source, String> {
        match (self.imported()?, file) {
            (Some(_), Some(file)) => Err(format!(
                "--fpuzzles carries the puzzle: no puzzle file ({}) with it",
                file.display()
            )),
            (Some(imported), None) => Ok(super::input::Source::Text(imported.puzzle.clone())),
            (None, file) => super::input::Source::open(file).map_err(|error| error.to_string()),
        }
    }

    /// The puzzle of the `--fpuzzles` link; `None` without the flag.
    pub(super) fn linked_puzzle(&self) -> Result<Option<String>, String> {
        Ok(self.imported()?.map(|imported| imported.puzzle.clone()))
    }

    /// True when the rules come from `--rules` or `--fpuzzles`.
    pub(super) fn has_rules(&self) -> bool {
        self.rules.is_some() || self.fpuzzles.is_some()
    }

    /// What `--rules` or `--fpuzzles` says: the notation and the variant's
    /// layout (none for classic rules); `None` without either.
    pub(super) fn variant(
        &self,
    ) -> Result<Option<(crate::board::Notation, Option<crate::board::Layout>)>, String> {
        let Some(rules) = self.given_rules()? else {
            return Ok(None);
        };
        let flag = match &self.rules {
            Some(path) => format!("--rules {}", path.display()),
            None => "--fpuzzles".to_owned(),
        };
        crate::convert::rules_from_pb(&rules)
            .map(Some)
            .map_err(|error| format!("{flag}: {error}"))
    }
}

/// A `sudoku.v1.Rules` message from its proto3 JSON form in a file.
fn read_rules(path: &Path) -> Result<crate::pb::Rules, String> {
    let failed = |why: String| format!("--rules {}: {why}", path.display());
    let text = std::fs::read_to_string(path).map_err(|error| failed(error.to_string()))?;
    let pool = prost_reflect::DescriptorPool::decode(crate::pb::FILE_DESCRIPTOR_SET)
        .map_err(|error| failed(error.to_string()))?;
    let message = pool
        .get_message_by_name("sudoku.v1.Rules")
        .ok_or_else(|| failed("the server's API has no sudoku.v1.Rules".into()))?;
    let mut json = serde_json::Deserializer::from_str(&text);
    let rules = prost_reflect::DynamicMessage::deserialize(message, &mut json)
        .and_then(|rules| json.end().map(|()| rules))
        .map_err(|error| failed(format!("not the JSON form of sudoku.v1.Rules: {error}")))?;
    rules
        .transcode_to::<crate::pb::Rules>()
        .map_err(|error| failed(error.to_string()))
}
