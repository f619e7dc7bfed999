//! A request's `Rules` made into what the engines read: the grid's shape and
//! notation, and a variant's rules (jigsaw regions read from their text,
//! every rule checked) made into its [`Layout`]. Each mistake is a
//! [`RuleError`] naming its field; the service and the command line decide
//! what to make of it.

use crate::board::{BOX_SIDES, Cage, Layout, Notation, RuleError, Shape, Variant, read_regions};
use crate::generate::VariantRules;
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

/// What a generate request's `rules` (absent: 9x9) and its `random_regions`
/// and `random_cages` ask a variant puzzle to be made under, with the
/// notation it is written in; the random shapes are not drawn together with
/// given ones (the mistake names `random_regions` or `random_cages`).
pub fn variant_rules_from_pb(
    rules: Option<&pb::Rules>,
    random_regions: bool,
    random_cages: bool,
) -> Result<(Notation, VariantRules), RuleError> {
    let (notation, layout) = rules_from_pb(rules.unwrap_or(&pb::Rules::default()))?;
    let variant = layout.map_or_else(Variant::default, |layout| layout.variant);
    if random_regions && variant.regions.is_some() {
        let why = "random_regions draws the regions: leave rules.regions empty";
        return Err(rule_error("random_regions", why.to_owned()));
    }
    if random_cages && !variant.cages.is_empty() {
        let why = "random_cages draws the cages: leave rules.cages empty";
        return Err(rule_error("random_cages", why.to_owned()));
    }
    let shape = notation.shape();
    Ok((
        notation,
        VariantRules {
            shape,
            variant,
            random_regions,
            random_cages,
        },
    ))
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

/// `rules` given every variant rule of `variant` (the inverse of
/// [`variant_from_pb`]; the shape and symbols are left as they are): regions
/// as one digit a cell up to 9x9 and as numbers past it, each labelled from 1.
pub fn variant_to_pb(rules: &mut pb::Rules, variant: &Variant) {
    rules.regions = variant
        .regions
        .as_ref()
        .map_or_else(String::new, |regions| {
            let labels = regions.iter().map(|&region| u32::from(region) + 1);
            if regions.len() <= 81 {
                labels
                    .filter_map(|label| char::from_digit(label, 10))
                    .collect()
            } else {
                let labels: Vec<String> = labels.map(|label| label.to_string()).collect();
                labels.join(",")
            }
        });
    rules.diagonal = variant.diagonal;
    rules.windoku = variant.windoku;
    rules.anti_knight = variant.anti_knight;
    rules.anti_king = variant.anti_king;
    rules.non_consecutive = variant.non_consecutive;
    let cells = |cells: &[u32]| cells.to_vec();
    rules.extra_regions = (variant.extra_regions.iter())
        .map(|region| pb::Region {
            cells: cells(region),
        })
        .collect();
    rules.cages = (variant.cages.iter())
        .map(|cage| pb::Cage {
            cells: cells(&cage.cells),
            sum: cage.sum,
        })
        .collect();
    rules.thermometers = (variant.thermometers.iter())
        .map(|line| pb::Thermometer { cells: cells(line) })
        .collect();
}
