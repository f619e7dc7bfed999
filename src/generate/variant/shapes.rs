//! The random shapes of a variant puzzle: jigsaw regions (the boxes, then
//! cells traded between neighbouring regions while each stays one piece) and
//! killer cages over a solution (connected groups of distinct digits).

use super::Random;
use crate::board::{Cage, Shape};

/// The cells beside `cell` (up, down, left, right) on a grid of side `n`.
fn beside(cell: usize, n: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / n, cell % n);
    [
        (row > 0).then(|| cell - n),
        (row + 1 < n).then(|| cell + n),
        (col > 0).then(|| cell - 1),
        (col + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Random jigsaw regions of `shape`: N regions of N cells, each one piece
/// (orthogonally connected), as labels 0..N a cell. Starting from the boxes,
/// a cell `a` beside another region joins it while a cell `c` of that region
/// beside `a`'s region joins `a`'s, each trade kept when both regions stay
/// one piece; 2N² trades are made (at most fifty tries each). With `keep`, a
/// grid valid in the boxes, only cells of the same digit trade, so it stays
/// valid in the regions drawn.
pub fn random_regions(shape: Shape, keep: Option<&[u8]>, random: &mut Random) -> Vec<u8> {
    let n = shape.size();
    let mut regions: Vec<u8> = (0..n * n).map(|cell| shape.box_of(cell) as u8).collect();
    let mut members: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
    for (cell, &region) in regions.iter().enumerate() {
        members[usize::from(region)].push(cell);
    }
    let wanted = 2 * n * n;
    let mut traded = 0;
    for _ in 0..wanted * 50 {
        if traded == wanted {
            break;
        }
        let a = random.below((n * n) as u64) as usize;
        let near: Vec<usize> = beside(a, n).filter(|&b| regions[b] != regions[a]).collect();
        if near.is_empty() {
            continue;
        }
        let (ra, rb) = (
            regions[a],
            regions[near[random.below(near.len() as u64) as usize]],
        );
        let same = |c: usize| keep.is_none_or(|grid| grid[c] == grid[a]);
        let joins_a = |c: usize| same(c) && beside(c, n).any(|d| d != a && regions[d] == ra);
        let offers: Vec<usize> = members[usize::from(rb)]
            .iter()
            .copied()
            .filter(|&c| joins_a(c))
            .collect();
        if offers.is_empty() {
            continue;
        }
        let c = offers[random.below(offers.len() as u64) as usize];
        trade(&mut regions, &mut members, a, c);
        if one_piece(&regions, &members[usize::from(ra)], n)
            && one_piece(&regions, &members[usize::from(rb)], n)
        {
            traded += 1;
        } else {
            trade(&mut regions, &mut members, a, c);
        }
    }
    regions
}

/// Cells `a` and `c` of two regions each join the other's.
fn trade(regions: &mut [u8], members: &mut [Vec<usize>], a: usize, c: usize) {
    let (ra, rc) = (regions[a], regions[c]);
    regions.swap(a, c);
    for (region, from, to) in [(ra, a, c), (rc, c, a)] {
        let list = &mut members[usize::from(region)];
        if let Some(at) = list.iter().position(|&cell| cell == from) {
            list[at] = to;
        }
    }
}

/// Whether the cells of one region (`cells`, labelled in `regions`) are one
/// orthogonally connected piece.
fn one_piece(regions: &[u8], cells: &[usize], n: usize) -> bool {
    let Some(&start) = cells.first() else {
        return true;
    };
    let region = regions[start];
    let mut reached = vec![start];
    let mut next = 0;
    while next < reached.len() {
        let cell = reached[next];
        next += 1;
        for other in beside(cell, n) {
            if regions[other] == region && !reached.contains(&other) {
                reached.push(other);
            }
        }
    }
    reached.len() == cells.len()
}

/// Random killer cages over the whole grid of `solution`: from each cell not
/// yet caged (in reading order) a cage grows to a random size of two to five
/// cells (at most N) by random cells beside it whose digits it does not hold
/// yet, stopping early when none is left (a cage of one cell is its given);
/// each cage's sum is its digits'.
pub fn random_cages(shape: Shape, solution: &[u8], random: &mut Random) -> Vec<Cage> {
    let n = shape.size();
    let most = n.min(5);
    let mut caged = vec![false; n * n];
    let mut cages = Vec::new();
    for start in 0..n * n {
        if caged[start] {
            continue;
        }
        caged[start] = true;
        let mut cells = vec![start];
        let size = 2 + random.below((most - 1) as u64) as usize;
        while cells.len() < size {
            let holds = |cell: usize| cells.iter().any(|&c| solution[c] == solution[cell]);
            let mut frontier: Vec<usize> = cells
                .iter()
                .flat_map(|&cell| beside(cell, n))
                .filter(|&cell| !caged[cell] && !holds(cell))
                .collect();
            frontier.sort_unstable();
            frontier.dedup();
            if frontier.is_empty() {
                break;
            }
            let next = frontier[random.below(frontier.len() as u64) as usize];
            caged[next] = true;
            cells.push(next);
        }
        cages.push(Cage {
            sum: cells.iter().map(|&cell| u32::from(solution[cell])).sum(),
            cells: cells.into_iter().map(|cell| cell as u32).collect(),
        });
    }
    cages
}
