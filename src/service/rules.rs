//! A request's `Rules` read (by `convert`): the grid's shape and notation, and
//! the layout of a variant's rules. Each mistake is an `INVALID_ARGUMENT` whose
//! BadRequest detail names its field (`rules.cages[3].cells[1]`).

use std::sync::Arc;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::board::{Layout, Notation};
use crate::convert;
use crate::pb;

/// What a request's rules say.
pub(super) struct Read {
    /// The grid's shape and symbols.
    pub(super) notation: Notation,
    /// The variant's layout; `None` for the shape's classic rules.
    pub(super) layout: Option<Arc<Layout>>,
}

/// Reads a request's rules; `None` when it has none (or only empty fields:
/// the classic 9x9 text).
pub(super) fn read(rules: Option<&pb::Rules>) -> Result<Option<Read>, Status> {
    let Some(rules) = rules else { return Ok(None) };
    if *rules == pb::Rules::default() {
        return Ok(None);
    }
    let (notation, layout) = convert::rules_from_pb(rules)
        .map_err(|error| rules_status(&error.field, error.description))?;
    Ok(Some(Read {
        notation,
        layout: layout.map(Arc::new),
    }))
}

/// The puzzle and rules of a request whose rules hold an f-puzzles link
/// (its puzzle and every other rules field must be empty); `None` without one.
pub(super) fn imported(
    puzzle: &str,
    rules: Option<&pb::Rules>,
) -> Result<Option<convert::Imported>, Status> {
    match rules {
        Some(rules) if !rules.fpuzzles.is_empty() => import(puzzle, rules).map(Some),
        _ => Ok(None),
    }
}

fn import(puzzle: &str, rules: &pb::Rules) -> Result<convert::Imported, Status> {
    if !puzzle.trim().is_empty() {
        return Err(rules_status(
            "puzzle",
            "the puzzle comes from rules.fpuzzles: leave puzzle empty".to_owned(),
        ));
    }
    let alone = pb::Rules {
        fpuzzles: String::new(),
        ..rules.clone()
    };
    if alone != pb::Rules::default() {
        return Err(rules_status(
            "rules.fpuzzles",
            "the rules come from the f-puzzles link: leave the other rules fields empty".to_owned(),
        ));
    }
    convert::read_fpuzzles(&rules.fpuzzles).map_err(|error| match error {
        convert::FpuzzlesError::Invalid(error) => rules_status(&error.field, error.description),
        convert::FpuzzlesError::TooLarge(message) => Status::resource_exhausted(message),
    })
}

/// `INVALID_ARGUMENT` for a mistake in the rules at `field`.
pub(super) fn rules_status(field: &str, description: String) -> Status {
    let message = format!("invalid rules: {description} ({field})");
    let details = ErrorDetails::with_bad_request_violation(field, description);
    Status::with_error_details(Code::InvalidArgument, message, details)
}
