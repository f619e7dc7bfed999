//! A variant's [`Layout`]: its houses as a list (rows, columns, boxes or
//! jigsaw regions, diagonals, windows, extra regions, cages of N cells), each
//! cell's houses and peers (every cell that may not share its digit: house and
//! cage mates, a knight's or king's move away), the pairs of houses that
//! cross in more than one cell, and the rules that are no house (cage sums,
//! thermometers, neighbours). Made once per puzzle from a checked
//! [`Variant`]; the constrained engine and the clash check read it.

use super::{Shape, Variant};

/// Two houses crossing in more than one cell: a digit whose places in one lie
/// all in the crossing leaves the rest of the other.
#[derive(Debug, Clone)]
pub struct Crossing {
    /// The two houses' numbers, first and second.
    pub houses: [u16; 2],
    /// The cells of both.
    pub common: Vec<u16>,
    /// The cells of the first only.
    pub first: Vec<u16>,
    /// The cells of the second only.
    pub second: Vec<u16>,
}

/// The houses, peers and other rules of one variant grid.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The grid's shape (its N, and its boxes when no regions replace them).
    pub shape: Shape,
    /// The rules it was made from.
    pub variant: Variant,
    /// Houses of N cells, flattened.
    houses: Vec<u16>,
    /// Each cell's houses: `cell_houses[cell_start[c]..cell_start[c + 1]]`.
    cell_houses: Vec<u16>,
    cell_start: Vec<u32>,
    /// Each cell's peers, the same way.
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// Pairs of houses crossing in two cells or more.
    pub crossings: Vec<Crossing>,
    /// Each cell's peers as a bit set (`words` words a cell), when some peers
    /// share no house (knight's and king's moves, cages) and the grid has at
    /// most [`PEER_BITS_CELLS`] cells.
    peer_bits: Vec<u64>,
    words: usize,
}

/// The largest grid whose peers are kept as bit sets too (32x32: 128 KB).
pub const PEER_BITS_CELLS: usize = 1024;

impl Layout {
    /// The layout of `variant` (checked by [`Variant::check`]) on `shape`.
    pub fn new(shape: Shape, variant: Variant) -> Layout {
        let n = shape.size();
        let groups = groups(shape, &variant);
        let mut houses = Vec::new();
        let mut members = vec![Vec::new(); n * n];
        for group in groups.iter().filter(|group| group.len() == n) {
            let house = (houses.len() / n) as u16;
            if (0..house as usize).any(|other| same_cells(&houses[other * n..][..n], group)) {
                continue;
            }
            houses.extend_from_slice(group);
            for &cell in group {
                members[usize::from(cell)].push(house);
            }
        }
        let (cell_houses, cell_start) = flatten(members);
        let (peers, peer_start) = flatten(peer_lists(shape, &variant, &groups));
        let mut layout = Layout {
            shape,
            variant,
            houses,
            cell_houses,
            cell_start,
            peers,
            peer_start,
            crossings: Vec::new(),
            peer_bits: Vec::new(),
            words: 0,
        };
        layout.crossings = layout.find_crossings();
        let v = &layout.variant;
        let loose = v.anti_knight || v.anti_king || v.cages.iter().any(|cage| cage.cells.len() < n);
        if loose && layout.cells() <= PEER_BITS_CELLS {
            layout.words = layout.cells().div_ceil(64);
            layout.peer_bits = vec![0; layout.cells() * layout.words];
            for cell in 0..layout.cells() {
                for &peer in &layout.peers
                    [layout.peer_start[cell] as usize..layout.peer_start[cell + 1] as usize]
                {
                    let peer = usize::from(peer);
                    layout.peer_bits[cell * layout.words + peer / 64] |= 1u64 << (peer % 64);
                }
            }
        }
        layout
    }

    /// N.
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// Cells of the grid.
    pub fn cells(&self) -> usize {
        self.shape.cells()
    }

    /// How many houses there are.
    pub fn house_count(&self) -> usize {
        self.houses.len() / self.size()
    }

    /// The cells of `house`.
    pub fn house(&self, house: usize) -> &[u16] {
        let n = self.size();
        &self.houses[house * n..][..n]
    }

    /// The houses `cell` is in.
    pub fn houses_of(&self, cell: usize) -> &[u16] {
        let range = self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize;
        &self.cell_houses[range]
    }

    /// The cells that may not hold `cell`'s digit.
    pub fn peers_of(&self, cell: usize) -> &[u16] {
        let range = self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize;
        &self.peers[range]
    }

    /// `cell`'s peers as a bit set, when the layout keeps them (some peers
    /// share no house, and the grid is small enough).
    pub fn peer_bits(&self, cell: usize) -> Option<&[u64]> {
        (self.words != 0).then(|| &self.peer_bits[cell * self.words..][..self.words])
    }

    /// The first pair of givens (in row-major order of the second) that are
    /// peers holding the same digit.
    pub fn first_clash(&self, cells: &[u8]) -> Option<(usize, usize)> {
        cells.iter().enumerate().find_map(|(cell, &digit)| {
            if digit == 0 {
                return None;
            }
            let first = self
                .peers_of(cell)
                .iter()
                .map(|&peer| usize::from(peer))
                .filter(|&peer| peer < cell && cells[peer] == digit)
                .min()?;
            Some((first, cell))
        })
    }

    /// Every pair of houses sharing two cells or more.
    fn find_crossings(&self) -> Vec<Crossing> {
        let mut crossings = Vec::new();
        let count = self.house_count();
        let mut inside = vec![false; self.cells()];
        for a in 0..count {
            for &cell in self.house(a) {
                inside[usize::from(cell)] = true;
            }
            for b in a + 1..count {
                let shared = self
                    .house(b)
                    .iter()
                    .filter(|&&cell| inside[usize::from(cell)])
                    .count();
                if shared < 2 || shared == self.size() {
                    continue;
                }
                let (common, second): (Vec<u16>, Vec<u16>) = self
                    .house(b)
                    .iter()
                    .partition(|&&cell| inside[usize::from(cell)]);
                let first = self
                    .house(a)
                    .iter()
                    .copied()
                    .filter(|cell| !common.contains(cell))
                    .collect();
                crossings.push(Crossing {
                    houses: [a as u16, b as u16],
                    common,
                    first,
                    second,
                });
            }
            for &cell in self.house(a) {
                inside[usize::from(cell)] = false;
            }
        }
        crossings
    }
}

/// Two lists of the same cells (in any order).
fn same_cells(a: &[u16], b: &[u16]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Every group of cells whose digits differ: rows, columns, boxes or regions,
/// diagonals, windows, extra regions and cages.
fn groups(shape: Shape, variant: &Variant) -> Vec<Vec<u16>> {
    let n = shape.size();
    let mut groups: Vec<Vec<u16>> = Vec::new();
    let cell = |row: usize, col: usize| (row * n + col) as u16;
    groups.extend((0..n).map(|row| (0..n).map(|col| cell(row, col)).collect()));
    groups.extend((0..n).map(|col| (0..n).map(|row| cell(row, col)).collect()));
    let mut areas = vec![Vec::new(); n];
    for index in 0..n * n {
        let area = match &variant.regions {
            Some(regions) => usize::from(regions[index]),
            None => shape.box_of(index),
        };
        areas[area].push(index as u16);
    }
    groups.extend(areas);
    if variant.diagonal {
        groups.push((0..n).map(|k| cell(k, k)).collect());
        groups.push((0..n).map(|k| cell(k, n - 1 - k)).collect());
    }
    if variant.windoku {
        for (top, left) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
            groups.push((0..9).map(|k| cell(top + k / 3, left + k % 3)).collect());
        }
    }
    let lists = variant
        .extra_regions
        .iter()
        .chain(variant.cages.iter().map(|cage| &cage.cells));
    groups.extend(lists.map(|cells| cells.iter().map(|&cell| cell as u16).collect()));
    groups
}

/// Each cell's peers: its group mates and the cells a knight's or king's move
/// away when those rules hold; each once, in ascending order.
fn peer_lists(shape: Shape, variant: &Variant, groups: &[Vec<u16>]) -> Vec<Vec<u16>> {
    let n = shape.size();
    let mut peers = vec![Vec::new(); n * n];
    for group in groups {
        for &a in group {
            peers[usize::from(a)].extend(group.iter().copied().filter(|&b| b != a));
        }
    }
    let mut moves: Vec<(isize, isize)> = Vec::new();
    if variant.anti_knight {
        moves.extend([
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ]);
    }
    if variant.anti_king {
        moves.extend([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
    }
    for (cell, list) in peers.iter_mut().enumerate() {
        let (row, col) = ((cell / n) as isize, (cell % n) as isize);
        for &(dr, dc) in &moves {
            let (r, c) = (row + dr, col + dc);
            if (0..n as isize).contains(&r) && (0..n as isize).contains(&c) {
                list.push((r as usize * n + c as usize) as u16);
            }
        }
        list.sort_unstable();
        list.dedup();
    }
    peers
}

/// Lists flattened into one vector and the start of each.
fn flatten(lists: Vec<Vec<u16>>) -> (Vec<u16>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut starts = Vec::with_capacity(lists.len() + 1);
    starts.push(0);
    for list in lists {
        flat.extend(list);
        starts.push(flat.len() as u32);
    }
    (flat, starts)
}
