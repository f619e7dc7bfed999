//! A request's `Rules` made into what the engines read: the grid's shape and
//! notation, and a variant's rules (jigsaw regions read from their text,
//! every rule checked) made into its [`Layout`]. Each mistake is a
//! [`RuleError`] naming its field; the service and the command line decide
//! what to make of it.

use crate::board::{BOX_SIDES, Cage, Layout, Notation, RuleError, Shape, Variant, read_regions};
use crate::pb;

/// What a `Rules` message says: the notation of its shape and symbols, and the
/// layout of its variant rules (`None`: the shape's classic rules).
pub fn rules_from_pb(rules: &pb::Rules) -> Result<(Notation, Option<Layout>), RuleError> {
    if !rules.fpuzzles.is_empty() {
        return Err(rule_error(
            "rules.fpuzzles",
            "an f-puzzles link is read where a puzzle is given (Solve, SolveSteps, SolveBatch, \
             TrueCandidates, Explain, Hint, Rate; `sudokud solve --fpuzzles`), not here"
                .to_owned(),
        ));
    }
    let shape = shape_of(rules)?;
    let notation = Notation::new(shape, &rules.symbols)
        .map_err(|error| rule_error("rules.symbols", error.to_string()))?;
    let variant = variant_from_pb(rules, shape.size())?;
    variant.check(shape)?;
    let layout = (!variant.is_classic()).then(|| Layout::new(shape, variant));
    Ok((notation, layout))
}

fn rule_error(field: &str, description: String) -> RuleError {
    RuleError {
        field: field.to_owned(),
        description,
    }
}

/// The grid's shape: its boxes, or with both box fields 0 and regions given,
/// the size the regions make.
fn shape_of(rules: &pb::Rules) -> Result<Shape, RuleError> {
    if rules.box_rows == 0 && rules.box_cols == 0 && !rules.regions.trim().is_empty() {
        let (size, _) = read_regions(&rules.regions, None)?;
        return Shape::for_size(size).ok_or_else(|| {
            rule_error(
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
        rule_error(field, error.to_string())
    })
}

/// The variant rules of `rules` on a grid of N = `size` (regions read from
/// their text); unchecked (see [`Variant::check`]).
pub fn variant_from_pb(rules: &pb::Rules, size: usize) -> Result<Variant, RuleError> {
    let regions = match rules.regions.trim() {
        "" => None,
        text => Some(read_regions(text, Some(size))?.1),
    };
    let cells = |list: &[u32]| list.to_vec();
    Ok(Variant {
        regions,
        diagonal: rules.diagonal,
        windoku: rules.windoku,
        extra_regions: rules
            .extra_regions
            .iter()
            .map(|region| cells(&region.cells))
            .collect(),
        anti_knight: rules.anti_knight,
        anti_king: rules.anti_king,
        non_consecutive: rules.non_consecutive,
        cages: rules
            .cages
            .iter()
            .map(|cage| Cage {
                cells: cells(&cage.cells),
                sum: cage.sum,
            })
            .collect(),
        thermometers: rules
            .thermometers
            .iter()
            .map(|line| cells(&line.cells))
            .collect(),
    })
}
