//! The random shapes of a variant puzzle: jigsaw regions (the boxes, then
//! cells traded between neighbouring regions while each stays one piece) and
//! killer cages over a solution (connected groups of distinct digits).

use super::Random;
use crate::board::{Cage, Shape, connected, neighbours};

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
        let near: Vec<usize> = neighbours(n, a)
            .filter(|&b| regions[b] != regions[a])
            .collect();
        if near.is_empty() {
            continue;
        }
        let (ra, rb) = (
            regions[a],
            regions[near[random.below(near.len() as u64) as usize]],
        );
        let same = |c: usize| keep.is_none_or(|grid| grid[c] == grid[a]);
        let joins_a = |c: usize| same(c) && neighbours(n, c).any(|d| d != a && regions[d] == ra);
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
        let one_piece = |region: u8| {
            let cells = &members[usize::from(region)];
            connected(&regions, n, cells[0]) == cells.len()
        };
        if one_piece(ra) && one_piece(rb) {
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

/// Random killer cages over the whole grid of `solution`: from each cell not
/// yet caged (in reading order) a cage grows to a random size of two to four
/// cells (at most N) by random cells beside it whose digits it does not hold
/// yet, stopping early when none is left; a cell left alone then joins a
/// random cage beside it that lacks its digit (where one has room), so a cage
/// of one cell, a given in all but name, stays rare. Each cage's sum is its
/// digits'.
pub fn random_cages(shape: Shape, solution: &[u8], random: &mut Random) -> Vec<Cage> {
    let n = shape.size();
    let mut caged = vec![false; n * n];
    let cages = grow_cages(0..n * n, &mut caged, n, solution, random);
    summed(cages, n, solution, random)
}

/// `cages` (over the whole grid of `solution`) with the cage of `cell` and a
/// random cage beside it drawn again as [`random_cages`] draws them, over the
/// cells of the two; the same cages when no other cage is beside `cell`.
pub fn recage_around(
    cages: &[Cage],
    cell: usize,
    shape: Shape,
    solution: &[u8],
    random: &mut Random,
) -> Vec<Cage> {
    let n = shape.size();
    let mut lists: Vec<Vec<usize>> = (cages.iter())
        .map(|cage| cage.cells.iter().map(|&c| c as usize).collect())
        .collect();
    let owner = owners(&lists, n);
    let mut others: Vec<usize> = (neighbours(n, cell).map(|other| owner[other]))
        .filter(|&other| other != owner[cell])
        .collect();
    others.sort_unstable();
    others.dedup();
    if others.is_empty() {
        return cages.to_vec();
    }
    let other = others[random.below(others.len() as u64) as usize];
    let mut pool: Vec<usize> = [owner[cell], other]
        .iter()
        .flat_map(|&index| std::mem::take(&mut lists[index]))
        .collect();
    pool.sort_unstable();
    let mut caged = vec![true; n * n];
    pool.iter().for_each(|&c| caged[c] = false);
    let drawn = grow_cages(pool, &mut caged, n, solution, random);
    lists.extend(drawn);
    summed(lists, n, solution, random)
}

/// Cages grown from each cell of `starts` not yet `caged`, over cells not yet
/// caged (see [`random_cages`]).
fn grow_cages(
    starts: impl IntoIterator<Item = usize>,
    caged: &mut [bool],
    n: usize,
    solution: &[u8],
    random: &mut Random,
) -> Vec<Vec<usize>> {
    let most = n.min(4);
    let mut cages = Vec::new();
    for start in starts {
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
                .flat_map(|&cell| neighbours(n, cell))
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
        cages.push(cells);
    }
    cages
}

/// The cages of cell lists: lone cells joined to a cage beside them, empty
/// lists dropped, each cage's sum its digits'.
fn summed(mut cages: Vec<Vec<usize>>, n: usize, solution: &[u8], random: &mut Random) -> Vec<Cage> {
    join_lone_cells(&mut cages, n, solution, random);
    (cages.into_iter())
        .filter(|cells| !cells.is_empty())
        .map(|cells| Cage {
            sum: cells.iter().map(|&cell| u32::from(solution[cell])).sum(),
            cells: cells.into_iter().map(|cell| cell as u32).collect(),
        })
        .collect()
}

/// The index of each cell's list.
fn owners(cages: &[Vec<usize>], n: usize) -> Vec<usize> {
    let mut owner = vec![0; n * n];
    for (index, cells) in cages.iter().enumerate() {
        for &cell in cells {
            owner[cell] = index;
        }
    }
    owner
}

/// Each cage of one cell moved into a random cage beside it of fewer than N
/// cells without its digit, when there is one (its own list left empty).
fn join_lone_cells(cages: &mut [Vec<usize>], n: usize, solution: &[u8], random: &mut Random) {
    let mut owner = owners(cages, n);
    for lone in 0..cages.len() {
        let [cell] = cages[lone][..] else {
            continue;
        };
        let mut hosts: Vec<usize> = neighbours(n, cell)
            .map(|other| owner[other])
            .filter(|&host| host != lone && cages[host].len() < n)
            .filter(|&host| cages[host].iter().all(|&c| solution[c] != solution[cell]))
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        if hosts.is_empty() {
            continue;
        }
        let host = hosts[random.below(hosts.len() as u64) as usize];
        cages[host].push(cell);
        cages[lone].clear();
        owner[cell] = host;
    }
}
