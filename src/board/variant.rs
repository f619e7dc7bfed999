//! The rules of a variant beyond rows, columns and boxes, as the engines read
//! them ([`Variant`]), and their checks: each mistake a [`RuleError`] naming the
//! field it is in (`rules.cages[3].cells[1]`) and what is wrong. Jigsaw regions
//! are read from their text here too. Knows nothing of the wire or of searching:
//! the service fills a `Variant` from its request, and `layout.rs` makes the
//! houses and peers the engines use.

use std::fmt;

use super::{CellAt, Shape};

/// A killer cage: digits never repeat in it, and add up to `sum` unless it is 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Cage {
    /// The cage's cells, row-major indices.
    pub cells: Vec<u32>,
    /// The total of its digits; 0: none given.
    pub sum: u32,
}

/// Every rule a grid may add to rows, columns and boxes. The default is none:
/// the classic rules of the grid's shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Variant {
    /// Jigsaw: each cell's region (0..N), replacing the boxes.
    pub regions: Option<Vec<u8>>,
    /// Both main diagonals hold each digit once.
    pub diagonal: bool,
    /// The four windows of 9x9 windoku hold each digit once.
    pub windoku: bool,
    /// More groups of N cells holding each digit once.
    pub extra_regions: Vec<Vec<u32>>,
    /// Cells a knight's move apart differ.
    pub anti_knight: bool,
    /// Cells a king's move apart differ.
    pub anti_king: bool,
    /// Orthogonal neighbours never differ by one.
    pub non_consecutive: bool,
    /// Killer cages.
    pub cages: Vec<Cage>,
    /// Thermometers, bulb first: digits strictly increase along each.
    pub thermometers: Vec<Vec<u32>>,
}

/// A rule that makes no puzzle: the field it is in and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    /// The request field, e.g. `rules.cages[3].cells[1]`.
    pub field: String,
    /// What is wrong, in a sentence.
    pub description: String,
}

impl RuleError {
    fn new(field: impl Into<String>, description: impl Into<String>) -> RuleError {
        RuleError {
            field: field.into(),
            description: description.into(),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.description)
    }
}

impl std::error::Error for RuleError {}

impl Variant {
    /// True when no rule is added to the shape's classic ones.
    pub fn is_classic(&self) -> bool {
        *self == Variant::default()
    }

    /// Checks every rule against a grid of `shape`.
    pub fn check(&self, shape: Shape) -> Result<(), RuleError> {
        let n = shape.size();
        if self.windoku && !shape.is_classic() {
            return Err(RuleError::new(
                "rules.windoku",
                format!("windoku is played on 9x9 only; this grid is {n}x{n}"),
            ));
        }
        if let Some(regions) = &self.regions {
            check_regions(regions, n)?;
        }
        self.check_amounts(n)?;
        for (index, region) in self.extra_regions.iter().enumerate() {
            let field = format!("rules.extra_regions[{index}]");
            check_cells(&field, region, n)?;
            if region.len() != n {
                return Err(RuleError::new(
                    format!("{field}.cells"),
                    format!(
                        "an extra region holds N = {n} cells; this one has {}",
                        region.len()
                    ),
                ));
            }
        }
        for (index, cage) in self.cages.iter().enumerate() {
            check_cage(index, cage, n)?;
        }
        for (index, thermometer) in self.thermometers.iter().enumerate() {
            check_thermometer(index, thermometer, n)?;
        }
        Ok(())
    }
}

impl Variant {
    /// Bounds on how much a request may ask for, so that no rule set costs
    /// more to set up than its grid: at most 2N extra regions, and cages and
    /// thermometers of at most 2 x N x N cells in all (each cell in two).
    fn check_amounts(&self, n: usize) -> Result<(), RuleError> {
        if self.extra_regions.len() > 2 * n {
            return Err(RuleError::new(
                "rules.extra_regions",
                format!(
                    "{} extra regions: a {n}x{n} grid takes at most {}",
                    self.extra_regions.len(),
                    2 * n
                ),
            ));
        }
        let lists = [
            (
                "rules.cages",
                self.cages
                    .iter()
                    .map(|cage| cage.cells.len())
                    .sum::<usize>(),
            ),
            (
                "rules.thermometers",
                self.thermometers.iter().map(Vec::len).sum(),
            ),
        ];
        for (field, cells) in lists {
            if cells > 2 * n * n {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{cells} cells in all: a {n}x{n} grid takes at most {} (each cell twice)",
                        2 * n * n
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Cells of a group: each on the grid, none twice, at least one.
fn check_cells(field: &str, cells: &[u32], n: usize) -> Result<(), RuleError> {
    if cells.is_empty() {
        return Err(RuleError::new(format!("{field}.cells"), "no cells given"));
    }
    for (index, &cell) in cells.iter().enumerate() {
        let at = format!("{field}.cells[{index}]");
        if cell as usize >= n * n {
            return Err(RuleError::new(
                at,
                format!(
                    "cell {cell} is off the {n}x{n} grid (cells are 0 to {}, row x {n} + column)",
                    n * n - 1
                ),
            ));
        }
        if let Some(first) = cells[..index].iter().position(|&other| other == cell) {
            return Err(RuleError::new(
                at,
                format!(
                    "cell {cell} ({}) is already the group's cell {first}",
                    CellAt {
                        cell: cell as usize,
                        side: n
                    }
                ),
            ));
        }
    }
    Ok(())
}

/// A cage: at most N distinct cells on the grid, and a sum its digits can make.
fn check_cage(index: usize, cage: &Cage, n: usize) -> Result<(), RuleError> {
    let field = format!("rules.cages[{index}]");
    check_cells(&field, &cage.cells, n)?;
    let k = cage.cells.len();
    if k > n {
        return Err(RuleError::new(
            format!("{field}.cells"),
            format!("a cage of {k} cells must repeat a digit: cages hold at most N = {n} cells"),
        ));
    }
    let (low, high) = sum_range(k, n);
    if cage.sum != 0 && !(low..=high).contains(&cage.sum) {
        return Err(RuleError::new(
            format!("{field}.sum"),
            format!(
                "{k} distinct digits of 1 to {n} add up to {low} to {high}, never {}",
                cage.sum
            ),
        ));
    }
    Ok(())
}

/// The smallest and largest sums of `k` distinct digits of 1..=N.
pub fn sum_range(k: usize, n: usize) -> (u32, u32) {
    let (k, n) = (k as u32, n as u32);
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

/// A thermometer: distinct cells on the grid, at most N, each a king's move
/// from the one before.
fn check_thermometer(index: usize, cells: &[u32], n: usize) -> Result<(), RuleError> {
    let field = format!("rules.thermometers[{index}]");
    check_cells(&field, cells, n)?;
    if cells.len() > n {
        return Err(RuleError::new(
            format!("{field}.cells"),
            format!(
                "a thermometer of {} cells cannot rise through only {n} digits",
                cells.len()
            ),
        ));
    }
    for (step, pair) in cells.windows(2).enumerate() {
        let (from, to) = (pair[0] as usize, pair[1] as usize);
        let rows = (from / n).abs_diff(to / n);
        let cols = (from % n).abs_diff(to % n);
        if rows > 1 || cols > 1 {
            return Err(RuleError::new(
                format!("{field}.cells[{}]", step + 1),
                format!(
                    "{} is not a king's move from {}: a thermometer is a path of touching cells",
                    CellAt { cell: to, side: n },
                    CellAt {
                        cell: from,
                        side: n
                    }
                ),
            ));
        }
    }
    Ok(())
}

/// Jigsaw regions: N regions of N orthogonally connected cells each.
fn check_regions(regions: &[u8], n: usize) -> Result<(), RuleError> {
    let mut sizes = vec![0usize; n];
    for &region in regions {
        sizes[usize::from(region)] += 1;
    }
    for (region, &size) in sizes.iter().enumerate() {
        if size != n {
            return Err(RuleError::new(
                "rules.regions",
                format!(
                    "region {} has {size} cells; each of the {n} regions holds N = {n}",
                    region + 1
                ),
            ));
        }
        let first = regions
            .iter()
            .position(|&other| usize::from(other) == region)
            .unwrap_or(0);
        let reached = connected(regions, n, first);
        if reached != n {
            return Err(RuleError::new(
                "rules.regions",
                format!(
                    "region {} is not one piece: {} of its cells are not orthogonally connected \
                     to {}",
                    region + 1,
                    n - reached,
                    CellAt {
                        cell: first,
                        side: n
                    }
                ),
            ));
        }
    }
    Ok(())
}

/// The cells orthogonally next to `cell` on an N x N grid (`size`).
pub fn neighbours(size: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / size, cell % size);
    [
        (row > 0).then(|| cell - size),
        (row + 1 < size).then(|| cell + size),
        (col > 0).then(|| cell - 1),
        (col + 1 < size).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// How many cells of `start`'s region (`regions` labels a cell, N x N) a walk
/// over orthogonal neighbours reaches.
pub fn connected(regions: &[u8], n: usize, start: usize) -> usize {
    let region = regions[start];
    let mut seen = vec![false; n * n];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        for next in neighbours(n, cell) {
            if !seen[next] && regions[next] == region {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    reached
}

/// Reads jigsaw regions: N x N labels, comma-separated numbers when the text
/// holds a comma, else one character a cell (whitespace ignored), N distinct
/// labels numbered in the order they first appear. `size` is N when the grid's
/// shape says it; `None` takes the square root of the label count.
pub fn read_regions(text: &str, size: Option<usize>) -> Result<(usize, Vec<u8>), RuleError> {
    let labels: Vec<&str> = if text.contains(',') {
        text.split(',').map(|label| label.trim()).collect()
    } else {
        text.split_whitespace()
            .flat_map(|word| {
                word.char_indices()
                    .map(move |(at, c)| &word[at..at + c.len_utf8()])
            })
            .collect()
    };
    let count = labels.len();
    let n = match size {
        Some(n) => n,
        None => (4..=super::MAX_SIZE)
            .find(|n| n * n == count)
            .ok_or_else(|| {
                RuleError::new(
                    "rules.regions",
                    format!("{count} labels make no square grid of 4x4 to 64x64"),
                )
            })?,
    };
    if count != n * n {
        return Err(RuleError::new(
            "rules.regions",
            format!(
                "{count} labels for a {n}x{n} grid: give one for each of its {} cells",
                n * n
            ),
        ));
    }
    Ok((n, number_regions(&labels, n)?))
}

/// Each cell's region: its label's place among the distinct labels in the
/// order they first appear; exactly N of them.
fn number_regions(labels: &[&str], n: usize) -> Result<Vec<u8>, RuleError> {
    let mut names: Vec<&str> = Vec::with_capacity(n);
    let mut regions = Vec::with_capacity(labels.len());
    for (cell, &label) in labels.iter().enumerate() {
        let at = CellAt { cell, side: n };
        if label.is_empty() {
            return Err(RuleError::new(
                "rules.regions",
                format!("the label of {at} is empty"),
            ));
        }
        let index = match names.iter().position(|&name| name == label) {
            Some(index) => index,
            None if names.len() < n => {
                names.push(label);
                names.len() - 1
            }
            None => {
                return Err(RuleError::new(
                    "rules.regions",
                    format!(
                        "label {label:?} at {at} makes a region too many: a {n}x{n} grid has {n}"
                    ),
                ));
            }
        };
        regions.push(index as u8);
    }
    if names.len() < n {
        return Err(RuleError::new(
            "rules.regions",
            format!(
                "{} distinct labels: a {n}x{n} grid has {n} regions",
                names.len()
            ),
        ));
    }
    Ok(regions)
}

#[cfg(test)]
mod tests;
