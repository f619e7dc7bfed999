//! Grid shapes: N x N grids with boxes of `box_rows` x `box_cols` cells (N =
//! box_rows x box_cols, 4 <= N <= 64), and each shape's geometry (rows,
//! columns, boxes, peers) computed once and shared. Knows nothing of text or
//! of searching.

use std::fmt;
use std::sync::OnceLock;

/// Smallest and largest side of a box.
pub const BOX_SIDES: std::ops::RangeInclusive<u32> = 2..=8;

/// Largest N (digits, and cells in a row): digit sets fit one `u64`.
pub const MAX_SIZE: usize = 64;

/// The shape of a grid: its boxes' rows and columns. N = `box_rows` x `box_cols`
/// digits, N rows and N columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// Why two numbers make no shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeError {
    /// One of the two is 0 and the other not.
    OnlyOne {
        /// The rows asked for.
        box_rows: u32,
        /// The columns asked for.
        box_cols: u32,
    },
    /// A side outside 2..=8, or N outside 4..=64.
    OutOfRange {
        /// The rows asked for.
        box_rows: u32,
        /// The columns asked for.
        box_cols: u32,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ShapeError::OnlyOne { box_rows, box_cols } => write!(
                f,
                "box_rows {box_rows} and box_cols {box_cols}: set both (a box of box_rows x \
                 box_cols cells) or neither (9x9 with 3x3 boxes)"
            ),
            ShapeError::OutOfRange { box_rows, box_cols } => write!(
                f,
                "boxes of {box_rows}x{box_cols} cells are out of range: each side is 2 to 8 \
                 and box_rows x box_cols is 4 to 64"
            ),
        }
    }
}

impl std::error::Error for ShapeError {}

impl Shape {
    /// 9x9 with 3x3 boxes.
    pub const CLASSIC: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// The shape of boxes with `box_rows` rows and `box_cols` columns; both 0
    /// means [`Shape::CLASSIC`].
    pub fn new(box_rows: u32, box_cols: u32) -> Result<Shape, ShapeError> {
        match (box_rows, box_cols) {
            (0, 0) => return Ok(Shape::CLASSIC),
            (0, _) | (_, 0) => return Err(ShapeError::OnlyOne { box_rows, box_cols }),
            _ => {}
        }
        let size = box_rows.saturating_mul(box_cols);
        if !BOX_SIDES.contains(&box_rows)
            || !BOX_SIDES.contains(&box_cols)
            || !(4..=MAX_SIZE as u32).contains(&size)
        {
            return Err(ShapeError::OutOfRange { box_rows, box_cols });
        }
        Ok(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The shape of N x N grids whose boxes are as near square as sides of 2
    /// to 8 allow (fewer rows than columns when they differ), for grids whose
    /// regions replace the boxes; `None` when no two sides make N.
    pub fn for_size(size: usize) -> Option<Shape> {
        BOX_SIDES
            .rev()
            .filter(|&rows| rows * rows <= size as u32)
            .find_map(|rows| {
                let cols = (size as u32).checked_div(rows)?;
                (rows * cols == size as u32)
                    .then(|| Shape::new(rows, cols).ok())
                    .flatten()
            })
    }

    /// Rows of a box.
    pub fn box_rows(self) -> usize {
        usize::from(self.box_rows)
    }

    /// Columns of a box.
    pub fn box_cols(self) -> usize {
        usize::from(self.box_cols)
    }

    /// N: digits, and cells in a row, a column and a box.
    pub fn size(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Cells of the grid: N x N.
    pub fn cells(self) -> usize {
        self.size() * self.size()
    }

    /// True for 9x9 with 3x3 boxes.
    pub fn is_classic(self) -> bool {
        self == Shape::CLASSIC
    }

    /// The row of a cell.
    pub fn row_of(self, cell: usize) -> usize {
        cell / self.size()
    }

    /// The column of a cell.
    pub fn col_of(self, cell: usize) -> usize {
        cell % self.size()
    }

    /// The box of a cell (boxes numbered row-major).
    pub fn box_of(self, cell: usize) -> usize {
        let (row, col) = (self.row_of(cell), self.col_of(cell));
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }

    /// True when two different cells share a row, a column or a box.
    pub fn sees(self, a: usize, b: usize) -> bool {
        a != b
            && (self.row_of(a) == self.row_of(b)
                || self.col_of(a) == self.col_of(b)
                || self.box_of(a) == self.box_of(b))
    }

    /// Every digit of the shape as bits: bit `d - 1` for digit `d`.
    pub fn all_digits(self) -> u64 {
        u64::MAX >> (64 - self.size())
    }

    /// The shape's rows, columns, boxes and peers, computed on first use.
    pub fn geometry(self) -> &'static Geometry {
        static GEOMETRIES: [OnlyOnce; 49] = [const { OnceLock::new() }; 49];
        let index = (self.box_rows() - 2) * 7 + (self.box_cols() - 2);
        GEOMETRIES[index].get_or_init(|| Geometry::new(self))
    }
}

type OnlyOnce = OnceLock<Geometry>;

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        write!(f, "{n}x{n} with {}x{} boxes", self.box_rows, self.box_cols)
    }
}

/// A shape's houses and the cells that see each other, as index tables.
#[derive(Debug)]
pub struct Geometry {
    /// The shape these tables are of.
    pub shape: Shape,
    /// The 3N houses, N cells each, flattened: rows 0..N, columns N..2N, boxes
    /// 2N..3N (each house's cells in row-major order).
    pub units: Vec<u16>,
    /// Per cell, its row, column and box house numbers (into `units`).
    pub houses: Vec<[u16; 3]>,
    /// Per cell, its position in each of those houses (0..N).
    pub positions: Vec<[u8; 3]>,
    /// Per cell, its peers (cells sharing a house, itself not included),
    /// flattened with `peer_count` per cell.
    pub peers: Vec<u16>,
    /// Peers of each cell (the same for every cell): 3N - box_rows - box_cols - 1.
    pub peer_count: usize,
}

impl Geometry {
    fn new(shape: Shape) -> Geometry {
        let n = shape.size();
        let mut units = vec![0u16; 3 * n * n];
        let mut filled = vec![0usize; 3 * n];
        let mut positions = vec![[0u8; 3]; n * n];
        let houses: Vec<[u16; 3]> = (0..n * n)
            .map(|cell| {
                let own = [
                    shape.row_of(cell),
                    n + shape.col_of(cell),
                    2 * n + shape.box_of(cell),
                ];
                for (k, house) in own.into_iter().enumerate() {
                    units[house * n + filled[house]] = cell as u16;
                    positions[cell][k] = filled[house] as u8;
                    filled[house] += 1;
                }
                own.map(|house| house as u16)
            })
            .collect();
        let mut peers = Vec::new();
        let mut peer_count = 0;
        let mut seen = vec![false; n * n];
        for (cell, own) in houses.iter().enumerate() {
            let before = peers.len();
            for &house in own {
                for &other in &units[usize::from(house) * n..][..n] {
                    let other_index = usize::from(other);
                    if other_index != cell && !seen[other_index] {
                        seen[other_index] = true;
                        peers.push(other);
                    }
                }
            }
            for &other in &peers[before..] {
                seen[usize::from(other)] = false;
            }
            peer_count = peers.len() - before;
        }
        Geometry {
            shape,
            units,
            houses,
            positions,
            peers,
            peer_count,
        }
    }

    /// The cells of house `house` (0..3N).
    pub fn unit(&self, house: usize) -> &[u16] {
        let n = self.shape.size();
        &self.units[house * n..][..n]
    }

    /// The peers of `cell`.
    pub fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..][..self.peer_count]
    }
}

/// A cell of a grid N cells wide, named the way players write it: `r12c3`.
pub struct CellAt {
    /// The cell, row-major.
    pub cell: usize,
    /// N: cells in a row.
    pub side: usize,
}

impl CellAt {
    /// `cell` of a grid of `shape`.
    pub fn of(cell: usize, shape: Shape) -> CellAt {
        CellAt {
            cell,
            side: shape.size(),
        }
    }
}

impl fmt::Display for CellAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side.max(1);
        write!(f, "r{}c{}", self.cell / side + 1, self.cell % side + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_keep_to_their_limits() {
        assert_eq!(Shape::new(0, 0), Ok(Shape::CLASSIC));
        assert!(matches!(Shape::new(3, 0), Err(ShapeError::OnlyOne { .. })));
        for (rows, cols) in [(1, 9), (9, 1), (2, 1), (9, 9), (8, 9), (u32::MAX, 2)] {
            assert!(
                matches!(Shape::new(rows, cols), Err(ShapeError::OutOfRange { .. })),
                "{rows}x{cols}"
            );
        }
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 5), (8, 8), (2, 8)] {
            let shape = Shape::new(rows, cols).unwrap();
            assert_eq!(shape.size(), (rows * cols) as usize);
        }
    }

    #[test]
    fn every_geometry_has_houses_of_n_distinct_cells_and_symmetric_peers() {
        for rows in BOX_SIDES {
            for cols in BOX_SIDES {
                let Ok(shape) = Shape::new(rows, cols) else {
                    continue;
                };
                let geometry = shape.geometry();
                let n = shape.size();
                assert_eq!(
                    geometry.peer_count,
                    3 * n - shape.box_rows() - shape.box_cols() - 1
                );
                for house in 0..3 * n {
                    let mut cells: Vec<u16> = geometry.unit(house).to_vec();
                    cells.sort_unstable();
                    cells.dedup();
                    assert_eq!(cells.len(), n, "{shape} house {house}");
                }
                let cell = n * n / 2 + 1;
                for &peer in geometry.peers_of(cell) {
                    assert!(
                        geometry
                            .peers_of(usize::from(peer))
                            .contains(&(cell as u16))
                    );
                }
            }
        }
    }

    #[test]
    fn boxes_of_two_by_three_run_across_then_down() {
        let shape = Shape::new(2, 3).unwrap();
        // Row 0: boxes 0 0 0 1 1 1; row 2 starts box 2.
        assert_eq!(shape.box_of(3), 1);
        assert_eq!(shape.box_of(6 + 5), 1);
        assert_eq!(shape.box_of(12), 2);
        assert_eq!(shape.box_of(35), 5);
    }
}
