//! What a `Generate` or `GenerateMany` request asks for, checked: the seed,
//! the symmetry, the rating range (ratings or a level), and the grid: 9x9,
//! another size, or variant rules with their random regions and cages.

use std::sync::Arc;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use super::rules;
use crate::board::{Notation, Shape};
use crate::convert;
use crate::generate::{Symmetry, VariantRules};
use crate::logic::{BadRange, Level, RatingRange};
use crate::pb;

/// What a generate request asks for.
#[derive(Debug, Clone)]
pub(super) struct Wanted {
    pub(super) seed: u64,
    pub(super) symmetry: Symmetry,
    pub(super) minimal: bool,
    pub(super) range: RatingRange,
    pub(super) grid: GridWanted,
    /// The request's rules, given back with what was drawn (`None`: a plain 9x9
    /// request, answered as before rules existed).
    pub(super) rules: Option<pb::Rules>,
}

/// The grid a request's puzzles are on.
#[derive(Debug, Clone)]
pub(super) enum GridWanted {
    /// 9x9, classic rules.
    Classic,
    /// Another size, classic rules.
    Sized(Notation),
    /// Variant rules at any size, written in the notation.
    Variant(Notation, Arc<VariantRules>),
}

impl Wanted {
    /// The grid's shape.
    pub(super) fn shape(&self) -> Shape {
        match &self.grid {
            GridWanted::Classic => Shape::CLASSIC,
            GridWanted::Sized(notation) | GridWanted::Variant(notation, _) => notation.shape(),
        }
    }
}

/// The request's fields checked: a symmetry the API has, ratings that are
/// numbers from 0 up with the lowest not above the highest, a level the
/// server knows (and not together with ratings), rules read as every call
/// reads them. Seed 0 draws one.
pub(super) fn wanted(request: &pb::GenerateRequest) -> Result<Wanted, Status> {
    let grid = grid_of(request)?;
    let symmetry = convert::symmetry_from_pb(request.symmetry)
        .map_err(|unknown| bad("symmetry", format!("unknown symmetry {unknown}")))?;
    let range = range_of(request)?;
    let seed = if request.seed == 0 {
        random_seed()
    } else {
        request.seed
    };
    Ok(Wanted {
        seed,
        symmetry,
        minimal: !request.not_minimal,
        range,
        grid,
        rules: request.rules.clone(),
    })
}

/// The grid of a request: its rules read as every call reads them; variant
/// rules, or regions or cages to draw, make a variant grid.
fn grid_of(request: &pb::GenerateRequest) -> Result<GridWanted, Status> {
    let drawn = request.random_regions || request.random_cages;
    if !drawn {
        let read = rules::read(request.rules.as_ref())?;
        match read {
            None => return Ok(GridWanted::Classic),
            Some(read) if read.layout.is_none() => {
                return Ok(match read.notation.shape().is_classic() {
                    true => GridWanted::Classic,
                    false => GridWanted::Sized(read.notation),
                });
            }
            Some(_) => {}
        }
    }
    let (rules, regions, cages) = (
        request.rules.as_ref(),
        request.random_regions,
        request.random_cages,
    );
    let (notation, variant) = convert::variant_rules_from_pb(rules, regions, cages)
        .map_err(|error| rules::rules_status(&error.field, error.description))?;
    Ok(GridWanted::Variant(notation, Arc::new(variant)))
}

/// The rating range of a request: its level's, or its ratings'.
fn range_of(request: &pb::GenerateRequest) -> Result<RatingRange, Status> {
    let (min_rating, max_rating, level) = (request.min_rating, request.max_rating, &request.level);
    if level.is_empty() {
        let high = (max_rating != 0.0).then_some(max_rating);
        return RatingRange::between(min_rating, high).map_err(|why| match why {
            BadRange::NotARating { high, value } => {
                let field = if high { "max_rating" } else { "min_rating" };
                bad(
                    field,
                    format!("{field} must be a number from 0 up, not {value}"),
                )
            }
            BadRange::Reversed => bad(
                "min_rating",
                format!("min_rating {min_rating} is above max_rating {max_rating}"),
            ),
        });
    }
    let level = Level::named(level).ok_or_else(|| {
        let names: Vec<&str> = Level::ALL.iter().map(|level| level.name()).collect();
        bad(
            "level",
            format!("unknown level {level:?}: one of {}", names.join(", ")),
        )
    })?;
    if min_rating != 0.0 || max_rating != 0.0 {
        return Err(bad("level", "give a level or ratings, not both".to_owned()));
    }
    Ok(RatingRange::of(level))
}

/// `INVALID_ARGUMENT` with a violation on `field`.
fn bad(field: &str, description: String) -> Status {
    let details = ErrorDetails::with_bad_request_violation(field, description.clone());
    Status::with_error_details(Code::InvalidArgument, description, details)
}

/// A seed nobody asked for: std's per-process random hash keys, mixed with the time.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos()),
    );
    hasher.finish().max(1)
}
