//! A request's `Rules` read: the grid's shape and notation, and the rules of
//! a variant (jigsaw regions, diagonals, cages, ...) checked and made into the
//! layout the constrained engine searches. Each mistake is an
//! `INVALID_ARGUMENT` whose BadRequest detail names its field
//! (`rules.cages[3].cells[1]`).

use std::sync::Arc;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::board::{BOX_SIDES, Layout, Notation, Shape, read_regions};
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
    let shape = shape_of(rules)?;
    let notation = Notation::new(shape, &rules.symbols)
        .map_err(|error| rules_status("rules.symbols", error.to_string()))?;
    let variant = convert::variant_from_pb(rules, shape.size())
        .map_err(|error| rules_status(&error.field, error.description))?;
    variant
        .check(shape)
        .map_err(|error| rules_status(&error.field, error.description))?;
    let layout = (!variant.is_classic()).then(|| Arc::new(Layout::new(shape, variant)));
    Ok(Some(Read { notation, layout }))
}

/// The grid's shape: its boxes, or with both box fields 0 and regions given,
/// the size the regions make.
fn shape_of(rules: &pb::Rules) -> Result<Shape, Status> {
    if rules.box_rows == 0 && rules.box_cols == 0 && !rules.regions.trim().is_empty() {
        let (size, _) = read_regions(&rules.regions, None)
            .map_err(|error| rules_status(&error.field, error.description))?;
        return Shape::for_size(size).ok_or_else(|| {
            rules_status(
                "rules.regions",
                format!(
                    "regions of a {size}x{size} grid: this server plays sizes that are a product \
                     of two box sides of 2 to 8 (4, 6, 8, 9, 10, 12, ...)"
                ),
            )
        });
    }
    Shape::new(rules.box_rows, rules.box_cols).map_err(|error| {
        let field = if rules.box_rows == 0 || !BOX_SIDES.contains(&rules.box_rows) {
            "rules.box_rows"
        } else {
            "rules.box_cols"
        };
        rules_status(field, error.to_string())
    })
}

/// `INVALID_ARGUMENT` for a mistake in the rules at `field`.
pub(super) fn rules_status(field: &str, description: String) -> Status {
    let message = format!("invalid rules: {description} ({field})");
    let details = ErrorDetails::with_bad_request_violation(field, description);
    Status::with_error_details(Code::InvalidArgument, message, details)
}

/// `UNIMPLEMENTED` for a call that does not take variant rules yet.
pub(super) fn variants_unimplemented(what: &str) -> Status {
    Status::unimplemented(format!(
        "{what} takes the classic rules of every size only: rules beyond box_rows, box_cols and \
         symbols (regions, diagonal, cages, ...) are solved by Solve, SolveSteps, SolveBatch and \
         TrueCandidates"
    ))
}
