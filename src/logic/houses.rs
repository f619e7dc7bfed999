//! The houses and peers of a pencil-mark grid of any shape other than the 9x9
//! one ([`Houses`]): the rows, columns and boxes of its shape, or those of a
//! variant's [`Layout`] (jigsaw regions, diagonals, windows, extra regions and
//! cages of N cells as houses; cage mates and cells a knight's or king's move
//! away as peers too), with its rules that are no house. Knows nothing of
//! candidates.

use std::sync::Arc;

use crate::board::{Cage, Cell, Geometry, Layout, Shape, Variant};

/// Where a grid's houses and peers come from.
#[derive(Debug, Clone)]
pub(super) enum Houses {
    /// The shape's rows, columns and boxes: rows 0..N, columns N..2N, boxes
    /// 2N..3N.
    Shape(&'static Geometry),
    /// A variant's: rows 0..N and columns N..2N as in the shape, then the
    /// boxes or regions and every other house the layout has.
    Rules(Arc<Ruled>),
}

/// A variant's houses, with each cell's position in each of its houses.
#[derive(Debug)]
pub(super) struct Ruled {
    layout: Arc<Layout>,
    /// For the `k`-th house of `cell`, at `start[cell] + k`: the cell's
    /// position in it.
    positions: Vec<u8>,
    start: Vec<u32>,
    /// Per house: true for a box or jigsaw region.
    areas: Vec<bool>,
    /// Each cell's peers as a bit set, `words` words a cell.
    peer_bits: Vec<u64>,
    words: usize,
    /// What the 45 rule reads, when the cages with sums do not overlap.
    killer: Option<Killer>,
}

/// What the 45 rule reads of a killer: its cages with sums, each cell's
/// cage, and the regions whose totals are known (each house, and each run of
/// up to N/2 rows or columns) with how many houses each is.
#[derive(Debug)]
pub struct Killer {
    pub(super) cages: Vec<Cage>,
    /// Each cell's cage (an index into `cages`), `usize::MAX` for none.
    pub(super) cage_of: Vec<usize>,
    pub(super) regions: Vec<(u32, Vec<Cell>)>,
}

impl Killer {
    /// `None` without cages with sums, or when two of them share a cell.
    fn of(layout: &Layout, areas: &[bool]) -> Option<Killer> {
        let cages: Vec<Cage> = layout
            .variant
            .cages
            .iter()
            .filter(|c| c.sum != 0)
            .cloned()
            .collect();
        let mut cage_of = vec![usize::MAX; layout.cells()];
        for (index, cage) in cages.iter().enumerate() {
            for &cell in &cage.cells {
                if cage_of[cell as usize] != usize::MAX {
                    return None;
                }
                cage_of[cell as usize] = index;
            }
        }
        let n = layout.size();
        let cells = |unit: usize| layout.house(unit).iter().map(|&c| usize::from(c));
        let mut regions: Vec<(u32, Vec<Cell>)> = (0..layout.house_count())
            .filter(|&unit| unit < 2 * n || areas[unit])
            .map(|unit| (1, cells(unit).collect()))
            .collect();
        for lines in [0, n] {
            for length in 2..=n / 2 {
                for first in 0..=n - length {
                    let run = (first..first + length).flat_map(|line| cells(lines + line));
                    regions.push((length as u32, run.collect()));
                }
            }
        }
        (!cages.is_empty()).then_some(Killer {
            cages,
            cage_of,
            regions,
        })
    }
}

impl Houses {
    /// The houses of `layout`'s rules.
    pub(super) fn of(layout: &Arc<Layout>) -> Houses {
        let cells = layout.cells();
        let (mut positions, mut start) = (Vec::new(), Vec::with_capacity(cells + 1));
        for cell in 0..cells {
            start.push(positions.len() as u32);
            for &house in layout.houses_of(cell) {
                let at = layout.house(usize::from(house)).iter();
                positions.push(at.take_while(|&&c| usize::from(c) != cell).count() as u8);
            }
        }
        start.push(positions.len() as u32);
        let area_of = |cell: u16| area(layout.shape, &layout.variant, usize::from(cell));
        let areas: Vec<bool> = (0..layout.house_count())
            .map(|house| {
                let cells = layout.house(house);
                house >= 2 * layout.size() && cells.iter().all(|&c| area_of(c) == area_of(cells[0]))
            })
            .collect();
        let words = cells.div_ceil(64);
        let mut peer_bits = vec![0u64; cells * words];
        for cell in 0..cells {
            for &peer in layout.peers_of(cell) {
                let peer = usize::from(peer);
                peer_bits[cell * words + peer / 64] |= 1 << (peer % 64);
            }
        }
        let killer = Killer::of(layout, &areas);
        Houses::Rules(Arc::new(Ruled {
            layout: Arc::clone(layout),
            positions,
            start,
            areas,
            peer_bits,
            words,
            killer,
        }))
    }

    /// How many houses there are.
    pub(super) fn count(&self) -> usize {
        match self {
            Houses::Shape(geometry) => 3 * geometry.shape.size(),
            Houses::Rules(ruled) => ruled.layout.house_count(),
        }
    }

    /// The cells of house `unit`.
    #[inline]
    pub(super) fn house(&self, unit: usize) -> &[u16] {
        match self {
            Houses::Shape(geometry) => geometry.unit(unit),
            Houses::Rules(ruled) => ruled.layout.house(unit),
        }
    }

    /// The houses of `cell`.
    #[inline]
    pub(super) fn houses_of(&self, cell: Cell) -> &[u16] {
        match self {
            Houses::Shape(geometry) => &geometry.houses[cell],
            Houses::Rules(ruled) => ruled.layout.houses_of(cell),
        }
    }

    /// The position of `cell` in each of its houses, in their order.
    #[inline]
    pub(super) fn positions_of(&self, cell: Cell) -> &[u8] {
        match self {
            Houses::Shape(geometry) => &geometry.positions[cell],
            Houses::Rules(ruled) => {
                &ruled.positions[ruled.start[cell] as usize..ruled.start[cell + 1] as usize]
            }
        }
    }

    /// The cells that may not share `cell`'s digit.
    #[inline]
    pub(super) fn peers_of(&self, cell: Cell) -> &[u16] {
        match self {
            Houses::Shape(geometry) => geometry.peers_of(cell),
            Houses::Rules(ruled) => ruled.layout.peers_of(cell),
        }
    }

    /// True when `a` and `b` are two cells that may not share a digit.
    pub(super) fn sees(&self, a: Cell, b: Cell) -> bool {
        match self {
            Houses::Shape(geometry) => geometry.shape.sees(a, b),
            Houses::Rules(ruled) => ruled.peer_bits[a * ruled.words + b / 64] >> (b % 64) & 1 == 1,
        }
    }

    /// `cell`'s peers as a bit set over the cells (a variant's only).
    pub(super) fn peer_set(&self, cell: Cell) -> Option<&[u64]> {
        match self {
            Houses::Shape(_) => None,
            Houses::Rules(ruled) => Some(&ruled.peer_bits[cell * ruled.words..][..ruled.words]),
        }
    }

    /// True when house `unit` is a box or a jigsaw region.
    pub(super) fn is_area(&self, unit: usize) -> bool {
        match self {
            Houses::Shape(geometry) => unit / geometry.shape.size() == 2,
            Houses::Rules(ruled) => ruled.areas[unit],
        }
    }

    /// The box or region of `cell`.
    pub(super) fn area_of(&self, cell: Cell) -> usize {
        match self {
            Houses::Shape(geometry) => geometry.shape.box_of(cell),
            Houses::Rules(ruled) => area(ruled.layout.shape, &ruled.layout.variant, cell),
        }
    }

    /// What the 45 rule reads, for a killer whose cages do not overlap.
    pub(super) fn killer(&self) -> Option<&Killer> {
        match self {
            Houses::Shape(_) => None,
            Houses::Rules(ruled) => ruled.killer.as_ref(),
        }
    }

    /// The variant's rules, when there are any.
    pub(super) fn rules(&self) -> Option<&Variant> {
        match self {
            Houses::Shape(_) => None,
            Houses::Rules(ruled) => Some(&ruled.layout.variant),
        }
    }
}

/// The box of `cell`, or its region when `variant` gives regions.
fn area(shape: Shape, variant: &Variant, cell: Cell) -> usize {
    match &variant.regions {
        Some(regions) => usize::from(regions[cell]),
        None => shape.box_of(cell),
    }
}
