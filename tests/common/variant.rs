//! The variant sets of `benches/variants/data` as the tests read them, a
//! check of a grid against the rules written from their definitions, and a
//! counter of solutions of its own (N <= 9): nothing of the engines.

use std::path::Path;

use sudokud::pb::{self, Rules};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One puzzle of a variant set.
pub struct Item {
    pub puzzle: String,
    /// The set's solution, as digits (N <= 9).
    pub solution: String,
    pub rules: Rules,
    pub json_rules: serde_json::Value,
}

/// The rules of a JSON line, read as the proto3 JSON form of `Rules`.
pub fn rules_from(value: &serde_json::Value) -> Rules {
    let pool = prost_reflect::DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET).unwrap();
    let message = pool.get_message_by_name("sudoku.v1.Rules").unwrap();
    prost_reflect::DynamicMessage::deserialize(message, value)
        .unwrap()
        .transcode_to()
        .unwrap()
}

/// The first `count` puzzles of a set.
pub fn set(name: &str, count: usize) -> Vec<Item> {
    let path = Path::new(ROOT).join(format!("benches/variants/data/{name}.jsonl"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .take(count)
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            Item {
                puzzle: value["puzzle"].as_str().unwrap().to_owned(),
                solution: value["solution"].as_str().unwrap().to_owned(),
                rules: rules_from(&value["rules"]),
                json_rules: value["rules"].clone(),
            }
        })
        .collect()
}

pub fn digits(text: &str) -> Vec<u8> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect()
}

/// True when `cells` (a full grid, N <= 9) keeps `givens` and every rule,
/// checked from the rules' definitions cell pair by cell pair.
pub fn obeys(rules: &Rules, givens: &[u8], cells: &[u8]) -> bool {
    let n = (cells.len() as f64).sqrt() as usize;
    let geometry = Geometry::of(rules, n);
    for a in 0..n * n {
        if givens[a] != 0 && givens[a] != cells[a] || !(1..=n as u8).contains(&cells[a]) {
            return false;
        }
        for b in a + 1..n * n {
            if geometry.grouped(a, b) && cells[a] == cells[b] {
                return false;
            }
            if geometry.touching(a, b) && cells[a].abs_diff(cells[b]) == 1 {
                return false;
            }
        }
    }
    let sums = rules.cages.iter().filter(|cage| cage.sum != 0).all(|cage| {
        cage.cells
            .iter()
            .map(|&c| u32::from(cells[c as usize]))
            .sum::<u32>()
            == cage.sum
    });
    let rising = rules.thermometers.iter().all(|line| {
        line.cells
            .windows(2)
            .all(|pair| cells[pair[0] as usize] < cells[pair[1] as usize])
    });
    sums && rising
}

/// Which cell pairs the rules keep apart, from their definitions.
struct Geometry<'a> {
    rules: &'a Rules,
    n: usize,
    rows: usize,
    cols: usize,
    labels: Vec<char>,
}

impl Geometry<'_> {
    fn of(rules: &Rules, n: usize) -> Geometry<'_> {
        let (rows, cols) = match (rules.box_rows as usize, rules.box_cols as usize) {
            (0, 0) => (3, 3),
            shape => shape,
        };
        let labels = (rules.regions.chars())
            .filter(|c| !c.is_whitespace())
            .collect();
        Geometry {
            rules,
            n,
            rows,
            cols,
            labels,
        }
    }

    /// The region (or box) of a cell.
    fn area(&self, c: usize) -> usize {
        let n = self.n;
        match self.labels.get(c) {
            Some(&label) => label as usize,
            None => (c / n / self.rows) * 100 + (c % n) / self.cols,
        }
    }

    fn diagonal(&self, c: usize) -> bool {
        let n = self.n;
        self.rules.diagonal && (c / n == c % n || c / n + c % n == n - 1)
    }

    fn window(&self, c: usize) -> bool {
        let (r, k) = (c / self.n, c % self.n);
        self.rules.windoku
            && (1..4).contains(&(r % 4))
            && (1..4).contains(&(k % 4))
            && r < 8
            && k < 8
    }

    /// Whether cells `a` and `b` (a < b) must differ.
    fn grouped(&self, a: usize, b: usize) -> bool {
        let (n, rules) = (self.n, self.rules);
        let (dr, dc) = ((a / n).abs_diff(b / n), (a % n).abs_diff(b % n));
        let same_diagonal = self.diagonal(a) && self.diagonal(b) && (dr == dc) && {
            let main = |c: usize| c / n == c % n;
            main(a) == main(b) || (a / n + a % n == n - 1 && b / n + b % n == n - 1)
        };
        let same_window = self.window(a) && self.window(b) && dr < 3 && dc < 3 && {
            (a / n) / 4 == (b / n) / 4 && (a % n) / 4 == (b % n) / 4
        };
        let in_list = |list: &[u32]| list.contains(&(a as u32)) && list.contains(&(b as u32));
        dr == 0
            || dc == 0
            || self.area(a) == self.area(b)
            || same_diagonal
            || same_window
            || rules.extra_regions.iter().any(|r| in_list(&r.cells))
            || rules.cages.iter().any(|cage| in_list(&cage.cells))
            || rules.anti_knight && (dr, dc) == (1, 2)
            || rules.anti_knight && (dr, dc) == (2, 1)
            || rules.anti_king && dr <= 1 && dc <= 1
    }

    /// Whether cells `a` and `b` may not hold consecutive digits.
    fn touching(&self, a: usize, b: usize) -> bool {
        let n = self.n;
        let (dr, dc) = ((a / n).abs_diff(b / n), (a % n).abs_diff(b % n));
        self.rules.non_consecutive && dr + dc == 1
    }
}

/// The solutions of `givens` under `rules` (N <= 9) counted to two by a
/// plain search of this file's own: it branches on the cell with the fewest
/// digits the rules' definitions leave it (peers, neighbours, thermometer
/// order and length, cage sums by the digits still free to make them), or on the places of a digit
/// in a row, column or region when one has fewer; every full grid is checked
/// by [`obeys`]. Shares nothing with the engines or the generator.
pub fn count_to_two(rules: &Rules, givens: &[u8]) -> u32 {
    let n = (givens.len() as f64).sqrt() as usize;
    let geometry = Geometry::of(rules, n);
    let apart: Vec<Vec<usize>> = (0..n * n)
        .map(|a| {
            (0..n * n)
                .filter(|&b| b != a && geometry.grouped(a.min(b), a.max(b)))
                .collect()
        })
        .collect();
    let near: Vec<Vec<usize>> = (0..n * n)
        .map(|a| (0..n * n).filter(|&b| geometry.touching(a, b)).collect())
        .collect();
    let mut houses: Vec<Vec<usize>> = (0..n)
        .flat_map(|i| {
            [
                (0..n).map(|j| i * n + j).collect(),
                (0..n).map(|j| j * n + i).collect(),
            ]
        })
        .collect();
    let mut areas: Vec<usize> = (0..n * n).map(|c| geometry.area(c)).collect();
    areas.sort_unstable();
    areas.dedup();
    houses.extend(
        areas
            .iter()
            .map(|&area| (0..n * n).filter(|&c| geometry.area(c) == area).collect()),
    );
    let counter = Counter {
        rules,
        givens,
        n,
        apart,
        near,
        houses,
        makes: sums_of(n),
        cages_of: (0..n * n)
            .map(|c| {
                (0..rules.cages.len())
                    .filter(|&i| {
                        rules.cages[i].sum != 0 && rules.cages[i].cells.contains(&(c as u32))
                    })
                    .collect()
            })
            .collect(),
    };
    let mut cells = givens.to_vec();
    let mut found = 0;
    counter.search(&mut cells, &mut found);
    found
}

struct Counter<'a> {
    rules: &'a Rules,
    givens: &'a [u8],
    n: usize,
    apart: Vec<Vec<usize>>,
    near: Vec<Vec<usize>>,
    houses: Vec<Vec<usize>>,
    makes: Vec<[u64; 10]>,
    /// The cages with a sum through each cell.
    cages_of: Vec<Vec<usize>>,
}

impl Counter<'_> {
    fn search(&self, cells: &mut [u8], found: &mut u32) {
        if *found >= 2 {
            return;
        }
        let options: Vec<u16> = (0..cells.len())
            .map(|c| match cells[c] {
                0 => self.options(cells, c),
                _ => 0,
            })
            .collect();
        let Some(cell) = (0..cells.len())
            .filter(|&c| cells[c] == 0)
            .min_by_key(|&c| options[c].count_ones())
        else {
            *found += u32::from(obeys(self.rules, self.givens, cells));
            return;
        };
        let mut choices: Vec<(usize, u8)> = (1..=self.n as u8)
            .filter(|&d| options[cell] & bit(d) != 0)
            .map(|d| (cell, d))
            .collect();
        for house in &self.houses {
            let held = house.iter().fold(0, |held, &c| held | bit(cells[c]));
            for digit in (1..=self.n as u8).filter(|&d| held & bit(d) == 0) {
                if choices.len() <= 1 {
                    break;
                }
                let places: Vec<(usize, u8)> = (house.iter())
                    .filter(|&&c| options[c] & bit(digit) != 0)
                    .map(|&c| (c, digit))
                    .collect();
                if places.len() < choices.len() {
                    choices = places;
                }
            }
        }
        for (cell, digit) in choices {
            cells[cell] = digit;
            self.search(cells, found);
            cells[cell] = 0;
        }
    }

    /// The digits `cell` may take with the cells filled so far, as a bit set.
    fn options(&self, cells: &[u8], cell: usize) -> u16 {
        let mut mask = (1u16 << (self.n + 1)) - 2;
        for &b in &self.apart[cell] {
            mask &= !bit(cells[b]);
        }
        for &b in &self.near[cell] {
            if cells[b] != 0 {
                mask &= !(bit(cells[b] - 1) | bit(cells[b] + 1));
            }
        }
        (1..=self.n as u8)
            .filter(|&d| mask & bit(d) != 0)
            .filter(|&d| self.in_order(cells, cell, d) && self.sums_can_hold(cells, cell, d))
            .fold(0, |mask, d| mask | bit(d))
    }

    /// Whether `digit` in `cell` leaves every thermometer through it room to rise.
    fn in_order(&self, cells: &[u8], cell: usize, digit: u8) -> bool {
        self.rules.thermometers.iter().all(|line| {
            let line: Vec<usize> = line.cells.iter().map(|&c| c as usize).collect();
            let Some(at) = line.iter().position(|&c| c == cell) else {
                return true;
            };
            let (at, d, n) = (at as i32, i32::from(digit), self.n as i32);
            d > at
                && d <= n - (line.len() as i32 - 1 - at)
                && line.iter().enumerate().all(|(i, &other)| {
                    let (i, held) = (i as i32, i32::from(cells[other]));
                    held == 0
                        || (i < at && d - held >= at - i)
                        || (i > at && held - d >= i - at)
                        || i == at
                })
        })
    }

    /// Whether `digit` in `cell` leaves every cage through it a sum its empty
    /// cells could still make from the digits the cage does not hold yet.
    fn sums_can_hold(&self, cells: &[u8], cell: usize, digit: u8) -> bool {
        self.cages_of[cell].iter().all(|&cage| {
            let cage = &self.rules.cages[cage];
            let mut held = 0u32;
            let mut free = (1usize << self.n) - 1 - (1 << (digit - 1));
            let mut empty = 0;
            for &c in &cage.cells {
                match cells[c as usize] {
                    0 if c as usize != cell => empty += 1,
                    0 => {}
                    d => {
                        held += u32::from(d);
                        free &= !(1 << (d - 1));
                    }
                }
            }
            let rest = cage.sum.checked_sub(held + u32::from(digit));
            rest.is_some_and(|rest| rest < 64 && self.makes[free][empty] >> rest & 1 == 1)
        })
    }
}

/// The bit of a digit in an options set (none for 0, an empty cell).
fn bit(digit: u8) -> u16 {
    (1u16 << digit) & !1
}

/// For every set of digits (a bit mask) and every count, the sums that many
/// distinct digits of the set can make (bit `s` set when `s` can be made).
fn sums_of(n: usize) -> Vec<[u64; 10]> {
    let mut makes = vec![[0u64; 10]; 1 << n];
    for (set, row) in makes.iter_mut().enumerate() {
        let mut part = set;
        loop {
            let sum: u32 = (0..n)
                .filter(|i| part >> i & 1 == 1)
                .map(|i| i as u32 + 1)
                .sum();
            row[part.count_ones() as usize] |= 1 << sum;
            if part == 0 {
                break;
            }
            part = (part - 1) & set;
        }
    }
    makes
}
