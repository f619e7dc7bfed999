//! The picture of a variant's rules on the terminal board: region borders
//! drawn solid and cage outlines dotted between the cells, each cage's sum
//! written on the border above its first cell, the cells of diagonals,
//! windows and extra regions shaded, thermometers underlined with their bulbs
//! reversed, and a legend naming the rules (those a picture cannot show, such
//! as anti-knight, by name only).

use crate::board::{Shape, Variant};

/// Characters a cell takes on the picture, its digit centred (room for a
/// cage's sum of up to three digits on the border above it).
const CELL: usize = 3;

/// The legend wraps at this many columns.
const LEGEND_WIDTH: usize = 80;

/// What a cell looks like beside its digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Plain,
    /// On a thermometer.
    Line,
    /// A thermometer's bulb.
    Bulb,
}

/// The rules of a variant grid, laid out for drawing.
#[derive(Debug, Clone)]
pub(super) struct Picture {
    n: usize,
    /// Each cell's region (jigsaw) or box.
    area: Vec<usize>,
    /// Each cell's cage, if it is in one.
    cage: Vec<Option<usize>>,
    /// The sum written above a cell: its cage's, on the cage's first cell.
    sum: Vec<Option<u32>>,
    /// Cells of a diagonal, a window or an extra region.
    shaded: Vec<bool>,
    marks: Vec<Mark>,
    legend: Vec<String>,
}

impl Picture {
    /// The picture of `variant` on `shape`; `None` for classic rules.
    pub(super) fn of(shape: Shape, variant: &Variant) -> Option<Picture> {
        if *variant == Variant::default() {
            return None;
        }
        let (n, cells) = (shape.size(), shape.cells());
        let area = match &variant.regions {
            Some(regions) => regions.iter().map(|&r| usize::from(r)).collect(),
            None => (0..cells).map(|cell| shape.box_of(cell)).collect(),
        };
        let (mut cage, mut sum) = (vec![None; cells], vec![None; cells]);
        for (index, each) in variant.cages.iter().enumerate() {
            each.cells
                .iter()
                .for_each(|&c| cage[c as usize] = Some(index));
            let first = each.cells.iter().min().map(|&c| c as usize);
            if let (Some(first), true) = (first, each.sum != 0) {
                sum[first] = Some(each.sum);
            }
        }
        let mut marks = vec![Mark::Plain; cells];
        for line in &variant.thermometers {
            line.iter().for_each(|&c| marks[c as usize] = Mark::Line);
            if let Some(&bulb) = line.first() {
                marks[bulb as usize] = Mark::Bulb;
            }
        }
        Some(Picture {
            n,
            area,
            cage,
            sum,
            shaded: shaded(shape, variant),
            marks,
            legend: legend(variant),
        })
    }

    /// The picture with `glyphs` (each cell's digit as drawn, `.` when
    /// empty) and, with colours on, `styles` (each cell's ANSI code for its
    /// digit, if any).
    pub(super) fn draw(&self, glyphs: &[String], styles: Option<&[Option<&str>]>) -> String {
        let mut text = String::new();
        for row in 0..=self.n {
            text.push_str(&self.border(row));
            text.push('\n');
            if row == self.n {
                break;
            }
            for col in 0..self.n {
                let cell = row * self.n + col;
                let left = if col == 0 {
                    '│'
                } else {
                    self.between(cell - 1, cell)
                };
                text.push(left);
                let glyph = format!("{:^CELL$}", glyphs[cell]);
                match styles {
                    Some(styles) => text.push_str(&self.styled(cell, &glyph, styles[cell])),
                    None => text.push_str(&glyph),
                }
            }
            text.push_str("│\n");
        }
        for line in &self.legend {
            text.push_str(line);
            text.push('\n');
        }
        text
    }

    /// The separator between two cells side by side (or one above the other).
    fn between(&self, a: usize, b: usize) -> char {
        if self.area[a] != self.area[b] {
            '│'
        } else if self.cage[a] != self.cage[b] {
            '┊'
        } else {
            ' '
        }
    }

    /// The border line above `row` (below the last row for `row` N): solid
    /// where areas part, dotted where cages part, with each cage's sum above
    /// its first cell.
    fn border(&self, row: usize) -> String {
        let n = self.n;
        let edge = |col: usize| -> char {
            if row == 0 || row == n {
                return '─';
            }
            match self.between((row - 1) * n + col, row * n + col) {
                '│' => '─',
                '┊' => '┄',
                _ => ' ',
            }
        };
        let mut line = String::new();
        for col in 0..n {
            line.push(self.corner(row, col, (col > 0).then(|| edge(col - 1)), Some(edge(col))));
            let cell = row * n + col;
            match self.sum.get(cell).copied().flatten().filter(|_| row < n) {
                Some(sum) => line.push_str(&format!("{sum:<CELL$}")),
                None => line.extend(std::iter::repeat_n(edge(col), CELL)),
            }
        }
        line.push(self.corner(row, n, Some(edge(n - 1)), None));
        line
    }

    /// The character where the border above `row` meets the line left of
    /// `col`, from the solid lines that leave it (and dotted when only
    /// dotted ones do); `left` and `right` are the border's edges beside it.
    fn corner(&self, row: usize, col: usize, left: Option<char>, right: Option<char>) -> char {
        let n = self.n;
        let upright = |r: usize| -> bool {
            r < n && (col == 0 || col == n || self.between(r * n + col - 1, r * n + col) == '│')
        };
        let up = row > 0 && upright(row - 1);
        let down = upright(row);
        let (west, east) = (left == Some('─'), right == Some('─'));
        match (up, down, west, east) {
            (false, false, false, false) if left == Some('┄') || right == Some('┄') => '┄',
            (false, false, false, false) => ' ',
            (_, _, false, false) => '│',
            (false, false, _, _) => '─',
            (false, true, false, true) => '┌',
            (false, true, true, false) => '┐',
            (true, false, false, true) => '└',
            (true, false, true, false) => '┘',
            (true, true, false, true) => '├',
            (true, true, true, false) => '┤',
            (false, true, true, true) => '┬',
            (true, false, true, true) => '┴',
            (true, true, true, true) => '┼',
        }
    }

    /// A cell drawn with its digit's colour and its rules' marks.
    fn styled(&self, cell: usize, glyph: &str, digit: Option<&str>) -> String {
        let mut codes: Vec<&str> = digit.into_iter().collect();
        if self.shaded[cell] {
            codes.push("100");
        }
        match self.marks[cell] {
            Mark::Plain => {}
            Mark::Line => codes.push("4"),
            Mark::Bulb => codes.push("7"),
        }
        if codes.is_empty() {
            return glyph.to_owned();
        }
        format!("\x1b[{}m{glyph}\x1b[0m", codes.join(";"))
    }
}

/// The cells of the diagonals, the windows and the extra regions.
fn shaded(shape: Shape, variant: &Variant) -> Vec<bool> {
    let n = shape.size();
    let mut shaded = vec![false; shape.cells()];
    for (cell, shade) in shaded.iter_mut().enumerate() {
        let (row, col) = (cell / n, cell % n);
        let on_diagonal = variant.diagonal && (row == col || row + col == n - 1);
        let window = |k: usize| !k.is_multiple_of(4) && k < 8;
        let in_window = variant.windoku && n == 9 && window(row) && window(col);
        *shade = on_diagonal || in_window;
    }
    for region in &variant.extra_regions {
        region.iter().for_each(|&c| shaded[c as usize] = true);
    }
    shaded
}

/// The rules named, wrapped at [`LEGEND_WIDTH`].
fn legend(variant: &Variant) -> Vec<String> {
    let named = [
        (variant.regions.is_some(), "jigsaw regions (solid)"),
        (
            !variant.cages.is_empty(),
            "killer cages (dotted, sums above)",
        ),
        (variant.diagonal, "diagonals (shaded)"),
        (variant.windoku, "windows (shaded)"),
        (!variant.extra_regions.is_empty(), "extra regions (shaded)"),
        (variant.anti_knight, "anti-knight"),
        (variant.anti_king, "anti-king"),
        (variant.non_consecutive, "non-consecutive"),
        (
            !variant.thermometers.is_empty(),
            "thermometers (underlined, bulb reversed)",
        ),
    ];
    let mut lines = vec![String::from("rules:")];
    let names: Vec<&str> = (named.iter())
        .filter(|(on, _)| *on)
        .map(|&(_, name)| name)
        .collect();
    for (index, name) in names.iter().enumerate() {
        let text = if index + 1 < names.len() {
            format!("{name},")
        } else {
            (*name).to_owned()
        };
        let last = lines.last_mut().expect("one line at least");
        if last.chars().count() + text.len() + 1 > LEGEND_WIDTH {
            lines.push(format!("  {text}"));
        } else {
            last.push(' ');
            last.push_str(&text);
        }
    }
    lines
}

#[cfg(test)]
mod tests;
