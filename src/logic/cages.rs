//! The killer staples: cage combinations (the digits a cage's sum leaves its
//! cells, and a digit every filling of a cage uses taken from the cells
//! outside that see all its places), and innies and outies (the 45 rule: a
//! house, or a run of rows or columns, adds up to a known total, so the cells
//! of it that its whole cages leave over, or the cells of cages sticking out of
//! it, add up to a known sum too). Each found on the pencil marks alone.

use std::collections::HashMap;

use super::houses::Killer;
use super::marks::{Marks, bit, digits, members};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::Cell;

/// The most cells an innie or outie group may have to be looked at (their
/// fillings are searched without the help of distinct digits).
const MOST_LEFT_OVER: usize = 5;

/// The most positions a filling search visits before it gives up.
const MOST_NODES: usize = 200_000;

/// Cells that must add up to a total: which candidates some filling uses.
struct Filling {
    /// How many cells.
    cells: usize,
    candidates: Vec<u64>,
    /// The candidates some filling found so far uses, per cell.
    used: Vec<u64>,
    /// Per cell, the positions of the earlier cells it sees (bits).
    seen: Vec<u64>,
    /// Every cell sees every other: digits never repeat, and the digits of
    /// the cells filled so far say how many they are and what is left.
    distinct: bool,
    memo: Memo,
    values: Vec<u8>,
    /// For cells `at..`: the least and the most their candidates add up to.
    least: Vec<u32>,
    most: Vec<u32>,
    nodes: usize,
}

/// What a filling search already knows, by the digits of the cells filled:
/// what [`Filling::fill`] answered there. A table for grids up to 9x9, a
/// map above; nothing for a few cells, which a plain search fills faster.
enum Memo {
    Off,
    Table(Vec<Option<Option<u64>>>),
    Map(HashMap<u64, Option<u64>>),
}

/// The most cells a filling search fills without a memo.
const PLAIN_CELLS: usize = 4;

impl Memo {
    fn new(n: usize, cells: usize, distinct: bool) -> Memo {
        match () {
            _ if !distinct || cells <= PLAIN_CELLS => Memo::Off,
            _ if n <= 9 => Memo::Table(vec![None; 1 << n]),
            _ => Memo::Map(HashMap::new()),
        }
    }

    fn get(&self, taken: u64) -> Option<Option<u64>> {
        match self {
            Memo::Off => None,
            Memo::Table(table) => table[taken as usize],
            Memo::Map(map) => map.get(&taken).copied(),
        }
    }

    fn insert(&mut self, taken: u64, answer: Option<u64>) {
        match self {
            Memo::Off => {}
            Memo::Table(table) => table[taken as usize] = Some(answer),
            Memo::Map(map) => {
                map.insert(taken, answer);
            }
        }
    }
}

/// What the fillings of some cells adding up to a total use.
#[derive(Clone)]
struct Fillings {
    /// Per cell, the candidates some filling uses (none when there is no
    /// filling).
    used: Vec<u64>,
    /// The digits every filling uses.
    always: u64,
}

/// The fillings of `cells` (at most 64, every one empty) adding up to
/// `total`, each cell a digit of its candidates and cells that see each other
/// different; `None` when the search is too long to make.
fn fillings<P: Marks>(pencil: &P, cells: &[Cell], total: u32) -> Option<Fillings> {
    let seen: Vec<u64> = (0..cells.len())
        .map(|i| {
            (0..i)
                .filter(|&j| pencil.sees(cells[i], cells[j]))
                .fold(0, |s, j| s | 1 << j)
        })
        .collect();
    let distinct = (0..cells.len()).all(|i| seen[i].count_ones() as usize == i);
    if !distinct && cells.len() > MOST_LEFT_OVER {
        return None;
    }
    let candidates: Vec<u64> = cells.iter().map(|&c| pencil.candidates(c)).collect();
    // The answer depends on the candidates, which cells see which, and the
    // total only: the trials ask the same again and again.
    let key = (candidates.clone(), seen.clone(), total);
    if let Some(known) = KNOWN.with_borrow(|known| known.get(&key).cloned()) {
        return known;
    }
    let found = search(pencil.size(), candidates, seen, distinct, total);
    KNOWN.with_borrow_mut(|known| {
        if known.len() >= MOST_KNOWN {
            known.clear();
        }
        known.insert(key, found.clone());
    });
    found
}

/// What a filling search is asked: the candidates, which earlier cells each
/// cell sees, and the total.
type Asked = (Vec<u64>, Vec<u64>, u32);

/// The most filling answers a thread keeps (about a few megabytes); then it
/// forgets them all and starts again.
const MOST_KNOWN: usize = 50_000;

thread_local! {
    /// The filling answers this thread found lately.
    static KNOWN: std::cell::RefCell<HashMap<Asked, Option<Fillings>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// [`fillings`] searched: on grids of `n` digits, cells holding `candidates`,
/// each seeing the earlier cells of `seen`.
fn search(
    n: usize,
    candidates: Vec<u64>,
    seen: Vec<u64>,
    distinct: bool,
    total: u32,
) -> Option<Fillings> {
    let cells = candidates.len();
    let (mut least, mut most) = (vec![0; cells + 1], vec![0; cells + 1]);
    for at in (0..cells).rev() {
        let set = candidates[at];
        least[at] = least[at + 1] + set.trailing_zeros() + 1;
        most[at] = most[at + 1] + 64 - set.leading_zeros();
    }
    let mut filling = Filling {
        cells,
        used: vec![0; cells],
        seen,
        distinct,
        memo: Memo::new(n, cells, distinct),
        values: vec![0; cells],
        candidates,
        least,
        most,
        nodes: 0,
    };
    let always = filling.fill(0, 0, total);
    (filling.nodes <= MOST_NODES).then(|| Fillings {
        used: filling.used,
        always: always.unwrap_or(0),
    })
}

impl Filling {
    /// The digits every filling of cells `at..` adding up to `left` uses,
    /// the earlier ones holding `taken` (their digits, as bits) and `values`;
    /// `None` when there is no such filling. Notes every candidate a filling
    /// uses.
    fn fill(&mut self, at: usize, taken: u64, left: u32) -> Option<u64> {
        if at == self.cells {
            return (left == 0).then_some(0);
        }
        self.nodes += 1;
        if self.nodes > MOST_NODES || left < self.least[at] || left > self.most[at] {
            return None;
        }
        if let Some(known) = self.memo.get(taken) {
            return known;
        }
        let blocked = if self.distinct {
            taken
        } else {
            members(self.seen[at]).fold(0, |b, j| b | bit(self.values[j]))
        };
        let mut always: Option<u64> = None;
        for digit in digits(self.candidates[at] & !blocked) {
            if u32::from(digit) > left {
                break;
            }
            self.values[at] = digit;
            if let Some(rest) = self.fill(at + 1, taken | bit(digit), left - u32::from(digit)) {
                self.used[at] |= bit(digit);
                always = Some(always.unwrap_or(u64::MAX) & (rest | bit(digit)));
            }
        }
        self.memo.insert(taken, always);
        always
    }
}

/// The empty ones of `cells` and what their digits must add up to for all
/// of them to make `sum`; `None` when none is empty or the digits placed are
/// over `sum` already.
fn open<P: Marks>(
    pencil: &P,
    cells: impl Iterator<Item = Cell>,
    sum: u32,
) -> Option<(Vec<Cell>, u32)> {
    let (mut empty, mut placed) = (Vec::new(), 0u32);
    for cell in cells {
        match pencil.value(cell) {
            0 => empty.push(cell),
            digit => placed += u32::from(digit),
        }
    }
    let left = sum.checked_sub(placed)?;
    (!empty.is_empty()).then_some((empty, left))
}

/// The candidates of `cells` that no filling uses (`used`, per cell).
fn unused<P: Marks>(pencil: &P, cells: &[Cell], used: &[u64]) -> Vec<Candidate> {
    cells
        .iter()
        .zip(used)
        .flat_map(|(&cell, &used)| digits(pencil.candidates(cell) & !used).map(move |d| (cell, d)))
        .collect()
}

/// The candidates of `cells` listed.
fn listed<P: Marks>(pencil: &P, cells: &[Cell]) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|&cell| digits(pencil.candidates(cell)).map(move |d| (cell, d)))
        .collect()
}

/// The first cage whose sum takes candidates from its cells, or that every
/// filling puts a digit in while cells outside that see all its places
/// still hold it.
pub(super) fn cage_combination<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let technique = Technique::CageCombination;
    for cage in pencil.rules()?.cages.iter().filter(|cage| cage.sum != 0) {
        let cells = cage.cells.iter().map(|&c| c as usize);
        let Some((cells, left)) = open(pencil, cells, cage.sum) else {
            continue;
        };
        let Some(found) = fillings(pencil, &cells, left) else {
            continue;
        };
        let inside = unused(pencil, &cells, &found.used);
        if !inside.is_empty() {
            return Some(LogicStep::eliminating(
                technique,
                listed(pencil, &cells),
                inside,
            ));
        }
        if let Some(step) = required_digit(pencil, &cells, found.always) {
            return Some(step);
        }
    }
    None
}

/// A digit every filling of a cage's empty `cells` uses (one of `always`),
/// taken from the cells outside that see each of its places.
fn required_digit<P: Marks>(pencil: &P, cells: &[Cell], always: u64) -> Option<LogicStep> {
    for digit in digits(always) {
        let places: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| pencil.candidates(c) & bit(digit) != 0)
            .collect();
        let outside: Vec<Candidate> = pencil
            .peers_of(places[0])
            .iter()
            .map(|&peer| usize::from(peer))
            .filter(|&c| pencil.candidates(c) & bit(digit) != 0 && !cells.contains(&c))
            .filter(|&c| places.iter().all(|&p| pencil.sees(c, p)))
            .map(|c| (c, digit))
            .collect();
        if !outside.is_empty() {
            let pattern = places.iter().map(|&c| (c, digit)).collect();
            return Some(LogicStep::eliminating(
                Technique::CageCombination,
                pattern,
                outside,
            ));
        }
    }
    None
}

/// The first innie or outie group that a house's total (or a run of rows' or
/// columns') takes candidates from, or places a digit in when it is one cell.
pub(super) fn innies_outies<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let killer = pencil.killer()?;
    let mut inside = vec![false; pencil.shape().cells()];
    let n = pencil.size() as u32;
    for (houses, region) in &killer.regions {
        for &cell in region {
            inside[cell] = true;
        }
        let total = houses * n * (n + 1) / 2;
        let found = left_over(pencil, killer, region, &inside, total);
        for &cell in region {
            inside[cell] = false;
        }
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The innies of `region` (its cells outside the cages wholly in it) or its
/// outies (the cells outside it of the cages crossing it), when they are few
/// and their known sum takes a candidate or places a digit.
fn left_over<P: Marks>(
    pencil: &P,
    killer: &Killer,
    region: &[Cell],
    inside: &[bool],
    total: u32,
) -> Option<LogicStep> {
    let (cages, cage_of) = (&killer.cages, &killer.cage_of);
    let whole = |index: usize| cages[index].cells.iter().all(|&c| inside[c as usize]);
    let caged = |cell: Cell| cage_of[cell] != usize::MAX;
    let mut crossing: Vec<usize> = region
        .iter()
        .filter(|&&cell| caged(cell) && !whole(cage_of[cell]))
        .map(|&cell| cage_of[cell])
        .collect();
    crossing.sort_unstable();
    crossing.dedup();
    let mut whole_sums = 0;
    let mut counted = vec![false; cages.len()];
    for &cell in region {
        if caged(cell) && whole(cage_of[cell]) && !counted[cage_of[cell]] {
            counted[cage_of[cell]] = true;
            whole_sums += cages[cage_of[cell]].sum;
        }
    }
    let innies: Vec<Cell> = region
        .iter()
        .copied()
        .filter(|&cell| !caged(cell) || !whole(cage_of[cell]))
        .collect();
    let innie_sum = total.checked_sub(whole_sums)?;
    if let Some(step) = summed(pencil, &innies, innie_sum) {
        return Some(step);
    }
    // Outies: every empty cell of the region caged.
    let loose: Vec<Cell> = region.iter().copied().filter(|&c| !caged(c)).collect();
    if loose.iter().any(|&c| pencil.value(c) == 0) || crossing.is_empty() {
        return None;
    }
    let loose_sum: u32 = loose.iter().map(|&c| u32::from(pencil.value(c))).sum();
    let crossing_sums: u32 = crossing.iter().map(|&index| cages[index].sum).sum();
    let in_region = total.checked_sub(whole_sums + loose_sum)?;
    let outies: Vec<Cell> = crossing
        .iter()
        .flat_map(|&index| cages[index].cells.iter().map(|&c| c as usize))
        .filter(|&c| !inside[c])
        .collect();
    summed(pencil, &outies, crossing_sums.checked_sub(in_region)?)
}

/// The innies and outies step a known `sum` over `cells` makes, when their
/// empty ones are from one to [`MOST_LEFT_OVER`]: one cell's digit placed, or
/// the candidates no filling uses taken.
fn summed<P: Marks>(pencil: &P, cells: &[Cell], sum: u32) -> Option<LogicStep> {
    let technique = Technique::InniesOuties;
    let (empty, left) = open(pencil, cells.iter().copied(), sum)?;
    if empty.len() > MOST_LEFT_OVER {
        return None;
    }
    let used = fillings(pencil, &empty, left)?.used;
    if let [cell] = empty[..] {
        let digit = u8::try_from(left).ok()?;
        return (used[0] == bit(digit)).then(|| {
            let mut step = LogicStep::placing(technique, (cell, digit));
            step.pattern = listed(pencil, &empty);
            step
        });
    }
    let eliminations = unused(pencil, &empty, &used);
    (!eliminations.is_empty())
        .then(|| LogicStep::eliminating(technique, listed(pencil, &empty), eliminations))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::board::{Cage, Grid, Layout, Shape, Variant};
    use crate::logic::ladder::apply;
    use crate::logic::wide::WidePencil;

    /// An empty 9x9 under `cages`.
    fn killer(cages: &[(&[u32], u32)]) -> WidePencil {
        let variant = Variant {
            cages: cages
                .iter()
                .map(|&(cells, sum)| Cage {
                    cells: cells.to_vec(),
                    sum,
                })
                .collect(),
            ..Variant::default()
        };
        let layout = Arc::new(Layout::new(Shape::CLASSIC, variant));
        WidePencil::with_rules(
            &Grid::checked(Shape::CLASSIC, vec![0; 81]).unwrap(),
            &layout,
        )
    }

    #[test]
    fn a_cage_keeps_its_sum_s_digits_then_takes_them_from_the_cells_seeing_it() {
        let mut pencil = killer(&[(&[0, 1], 3)]);
        let step = cage_combination(&pencil).unwrap();
        assert_eq!(step.technique, Technique::CageCombination);
        let kept = |cell| {
            step.eliminations
                .iter()
                .filter(move |&&(c, _)| c == cell)
                .count()
        };
        assert_eq!((kept(0), kept(1), step.eliminations.len()), (7, 7, 14));
        apply(&mut pencil, &step);
        assert_eq!(pencil.candidates(0), 0b11);
        // 1 and 2 are both in the cage: row 1 and box 1 lose them.
        let step = cage_combination(&pencil).unwrap();
        assert!(step.eliminations.iter().all(|&(c, d)| d == 1 && c > 1));
        assert!(step.eliminations.contains(&(8, 1)) && step.eliminations.contains(&(20, 1)));
        assert!(!step.eliminations.contains(&(9 * 4, 1)));
    }

    #[test]
    fn the_cell_a_row_s_whole_cages_leave_over_holds_the_rest_of_45() {
        let pencil = killer(&[(&[0, 1, 2], 6), (&[3, 4, 5], 15), (&[6, 7], 15)]);
        let step = innies_outies(&pencil).unwrap();
        assert_eq!(step.placements, [(8, 9)]);
        // Outies: the row's cells all caged, one cage crossing into row 2
        // (its six cells in row 1 too many innies to look at).
        let pencil = killer(&[(&[0, 1, 2, 3, 4, 5, 9], 25), (&[6, 7, 8], 24)]);
        let step = innies_outies(&pencil).unwrap();
        assert_eq!(step.placements, [(9, 4)]);
    }

    #[test]
    fn fillings_use_only_digits_that_add_up() {
        let pencil = killer(&[]);
        let found = fillings(&pencil, &[0, 1, 2], 24).unwrap();
        assert_eq!(found.used, [0b1_1100_0000; 3]);
        assert_eq!(found.always, 0b1_1100_0000);
        // Cells that do not see each other may repeat a digit: 9 + 9.
        let found = fillings(&pencil, &[0, 13], 18).unwrap();
        assert_eq!(found.used, [bit(9), bit(9)]);
        assert!(fillings(&pencil, &[0, 1], 18).unwrap().used == [0, 0]);
    }
}
