//! Makes the variant puzzle sets of `benches/variants/`: one JSON line a
//! puzzle (`{"name", "puzzle", "rules", "solution"}`, `rules` in the proto3
//! JSON form of `sudoku.v1.Rules`). A random solution under the set's
//! structural rules (the constrained engine filling a grid from a few random
//! digits), rules read off it (cage sums, thermometers along rising paths),
//! then givens taken away in random order while the engine still counts one
//! solution. `benches/variants.sh` has OR-Tools CP-SAT confirm each one's
//! solution and uniqueness independently.
//!
//! `cargo run --release --example make_variants -- SET COUNT SEED > FILE`
//!
//! `... -- time FILE` times the engine on a set instead (one thread, the
//! search only, best of five): a JSON line a puzzle with the microseconds to
//! the first solution and to a count to two, checked against the file's
//! solution. `... -- rate FILE` explains each puzzle under its rules (one
//! thread, once): the microseconds, the rating and whether the techniques
//! solved it.

use std::fmt::Write;
use std::sync::Arc;

use sudokud::board::{Cage, Layout, Shape, Variant};
use sudokud::solver::{Algorithm, Control, Mode, NoEvents, Search};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The structural rules of a set, before any rule read off a solution.
fn structure(set: &str, rng: &mut Rng) -> (Shape, Variant) {
    let mut variant = Variant::default();
    let mut shape = Shape::CLASSIC;
    for part in set.split('+') {
        match part {
            "killer" | "thermo" | "classic" => {}
            "killer6" => shape = Shape::new(2, 3).unwrap(),
            "x" => variant.diagonal = true,
            "windoku" => variant.windoku = true,
            "antiknight" => variant.anti_knight = true,
            "antiking" => variant.anti_king = true,
            "nonconsecutive" => variant.non_consecutive = true,
            "jigsaw" => variant.regions = Some(regions(shape, rng)),
            "extra" => {
                // The anti-diagonal alone, as an extra region.
                let n = shape.size() as u32;
                variant
                    .extra_regions
                    .push((0..n).map(|k| k * n + n - 1 - k).collect());
            }
            other => panic!("unknown set part {other}"),
        }
    }
    (shape, variant)
}

/// Random jigsaw regions: border cells traded between neighbouring regions,
/// each trade kept when every region stays one piece of N cells.
fn regions(shape: Shape, rng: &mut Rng) -> Vec<u8> {
    let n = shape.size();
    let mut regions: Vec<u8> = (0..n * n).map(|cell| shape.box_of(cell) as u8).collect();
    let mut traded = 0;
    while traded < 60 {
        let a = rng.below(n * n);
        let b = rng.below(n * n);
        let near = |x: usize, y: usize| (x / n).abs_diff(y / n) + (x % n).abs_diff(y % n) == 1;
        let (ra, rb) = (regions[a], regions[b]);
        // a joins b's region and b joins a's, when each touches its new region.
        let touches = |cell: usize, region: u8, regions: &[u8]| {
            (0..n * n).any(|other| other != cell && regions[other] == region && near(cell, other))
        };
        if ra == rb || !touches(a, rb, &regions) || !touches(b, ra, &regions) {
            continue;
        }
        regions.swap(a, b);
        let check = Variant {
            regions: Some(regions.clone()),
            ..Variant::default()
        };
        if check.check(shape).is_ok() {
            traded += 1;
        } else {
            regions.swap(a, b);
        }
    }
    regions
}

/// Solutions counted (as `mode` counts) and the first, if any; `None` when
/// the search takes more than a million steps.
fn solve(
    shape: Shape,
    variant: &Variant,
    givens: &[u8],
    mode: Mode,
) -> Option<(u32, Option<Vec<u8>>)> {
    let layout = Arc::new(Layout::new(shape, variant.clone()));
    if layout.first_clash(givens).is_some() {
        return Some((0, None));
    }
    let mut search = Search::constrained(layout, givens, Algorithm::Wide, mode).unwrap();
    let control = Control {
        max_steps: 1_000_000,
        ..Control::UNTIMED
    };
    let report = search.finish(&control, &mut NoEvents).ok()?;
    Some((report.solution_count, report.cells().map(<[u8]>::to_vec)))
}

/// A random full grid under the structural rules, from a few random digits;
/// `None` when a few tries find none (the rules may allow none).
fn random_solution(shape: Shape, variant: &Variant, rng: &mut Rng) -> Option<Vec<u8>> {
    let n = shape.size();
    for _ in 0..8 {
        let mut givens = vec![0u8; n * n];
        for _ in 0..n / 2 {
            givens[rng.below(n * n)] = rng.below(n) as u8 + 1;
        }
        if let Some((_, Some(solution))) = solve(shape, variant, &givens, Mode::First) {
            return Some(solution);
        }
    }
    None
}

/// Whole-grid killer cages: random connected groups of 1 to 5 cells.
fn cages(shape: Shape, solution: &[u8], rng: &mut Rng) -> Vec<Cage> {
    let n = shape.size();
    let mut caged = vec![false; n * n];
    let mut cages = Vec::new();
    for start in 0..n * n {
        if caged[start] {
            continue;
        }
        caged[start] = true;
        let mut cells = vec![start];
        let size = 2 + rng.below(4);
        for _ in 0..size * 8 {
            if cells.len() == size {
                break;
            }
            let from = cells[rng.below(cells.len())];
            let next = [
                from + 1,
                from + n,
                from.wrapping_sub(1),
                from.wrapping_sub(n),
            ][rng.below(4)];
            let beside = next < n * n && (next / n == from / n || next % n == from % n);
            if beside && !caged[next] && !cells.iter().any(|&c| solution[c] == solution[next]) {
                caged[next] = true;
                cells.push(next);
            }
        }
        cages.push(Cage {
            sum: cells.iter().map(|&c| u32::from(solution[c])).sum(),
            cells: cells.into_iter().map(|c| c as u32).collect(),
        });
    }
    cages
}

/// Thermometers along rising king's-move paths of the solution.
fn thermometers(shape: Shape, solution: &[u8], rng: &mut Rng) -> Vec<Vec<u32>> {
    let n = shape.size() as isize;
    let mut lines = Vec::new();
    while lines.len() < 6 {
        let mut line = vec![rng.below(solution.len())];
        for _ in 0..20 {
            let last = *line.last().unwrap();
            let (r, c) = (
                last as isize / n + rng.below(3) as isize - 1,
                last as isize % n + rng.below(3) as isize - 1,
            );
            let next = (r * n + c) as usize;
            if (0..n).contains(&r) && (0..n).contains(&c) && solution[next] > solution[last] {
                line.push(next);
            }
        }
        if line.len() >= 3 {
            lines.push(line.into_iter().map(|c| c as u32).collect());
        }
    }
    lines
}

/// Givens taken away in random order while the solution stays unique.
fn minimize(shape: Shape, variant: &Variant, solution: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut givens = solution.to_vec();
    let mut order: Vec<usize> = (0..givens.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for cell in order {
        let kept = givens[cell];
        givens[cell] = 0;
        if solve(shape, variant, &givens, Mode::CountTwo).map(|(count, _)| count) != Some(1) {
            givens[cell] = kept;
        }
    }
    givens
}

fn json_list(cells: &[u32]) -> String {
    let items: Vec<String> = cells.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(","))
}

/// The proto3 JSON form of the rules.
fn rules_json(shape: Shape, variant: &Variant) -> String {
    let mut out = String::from("{");
    if !shape.is_classic() {
        let _ = write!(
            out,
            "\"boxRows\":{},\"boxCols\":{},",
            shape.box_rows(),
            shape.box_cols()
        );
    }
    if let Some(regions) = &variant.regions {
        let labels: String = regions.iter().map(|&r| char::from(b'1' + r)).collect();
        let _ = write!(out, "\"regions\":\"{labels}\",");
    }
    for (flag, name) in [
        (variant.diagonal, "diagonal"),
        (variant.windoku, "windoku"),
        (variant.anti_knight, "antiKnight"),
        (variant.anti_king, "antiKing"),
        (variant.non_consecutive, "nonConsecutive"),
    ] {
        if flag {
            let _ = write!(out, "\"{name}\":true,");
        }
    }
    let lists = |items: Vec<String>| format!("[{}]", items.join(","));
    if !variant.extra_regions.is_empty() {
        let items = variant
            .extra_regions
            .iter()
            .map(|r| format!("{{\"cells\":{}}}", json_list(r)));
        let _ = write!(out, "\"extraRegions\":{},", lists(items.collect()));
    }
    if !variant.cages.is_empty() {
        let items = variant
            .cages
            .iter()
            .map(|c| format!("{{\"cells\":{},\"sum\":{}}}", json_list(&c.cells), c.sum));
        let _ = write!(out, "\"cages\":{},", lists(items.collect()));
    }
    if !variant.thermometers.is_empty() {
        let items = variant
            .thermometers
            .iter()
            .map(|t| format!("{{\"cells\":{}}}", json_list(t)));
        let _ = write!(out, "\"thermometers\":{},", lists(items.collect()));
    }
    if out.ends_with(',') {
        out.pop();
    }
    out.push('}');
    out
}

fn line(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}

/// A JSON line's rules, read as the command line reads `--rules`.
fn read_rules(value: &serde_json::Value) -> Layout {
    let pool = prost_reflect::DescriptorPool::decode(sudokud::pb::FILE_DESCRIPTOR_SET).unwrap();
    let message = pool.get_message_by_name("sudoku.v1.Rules").unwrap();
    let rules = prost_reflect::DynamicMessage::deserialize(message, value).unwrap();
    let rules: sudokud::pb::Rules = rules.transcode_to().unwrap();
    let (_, layout) = sudokud::convert::rules_from_pb(&rules).unwrap();
    layout.unwrap_or_else(|| Layout::new(Shape::CLASSIC, Variant::default()))
}

/// Best of five runs of a search, in microseconds, and its report.
fn best_of_five(layout: &Arc<Layout>, givens: &[u8], mode: Mode) -> (f64, sudokud::solver::Report) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..5 {
        let started = std::time::Instant::now();
        let mut search =
            Search::constrained(Arc::clone(layout), givens, Algorithm::Wide, mode).unwrap();
        let report = search.finish(&Control::UNTIMED, &mut NoEvents).unwrap();
        best = best.min(started.elapsed().as_secs_f64() * 1e6);
        last = Some(report);
    }
    (best, last.unwrap())
}

fn time(file: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let layout = Arc::new(read_rules(&value["rules"]));
        let digits = |text: &str| -> Vec<u8> {
            text.chars()
                .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
                .collect()
        };
        let givens = digits(value["puzzle"].as_str().unwrap());
        let solution = digits(value["solution"].as_str().unwrap());
        let (first_us, first) = best_of_five(&layout, &givens, Mode::First);
        let (count_us, counted) = best_of_five(&layout, &givens, Mode::CountTwo);
        let right = first.cells() == Some(solution.as_slice());
        println!(
            "{{\"name\":{},\"first_us\":{first_us:.1},\"count_us\":{count_us:.1},\"right\":{right},\"count\":{},\"guesses\":{}}}",
            value["name"], counted.solution_count, counted.stats.guesses
        );
    }
}

/// Explains every puzzle of a set in-process (one thread, once): a JSON line
/// a puzzle with the microseconds, the rating, its technique and whether the
/// techniques solved it, every placement checked against the file's solution.
fn rate(file: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let layout = Arc::new(read_rules(&value["rules"]));
        let puzzle = value["puzzle"].as_str().unwrap();
        let cells: Vec<u8> = puzzle
            .chars()
            .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
            .collect();
        assert_eq!(layout.first_clash(&cells), None, "{line}");
        let grid = sudokud::board::Grid::with_cells(layout.shape, cells);
        let started = std::time::Instant::now();
        let explanation = sudokud::logic::explain_grid(&grid, Some(&layout), || true, &|| false);
        let micros = started.elapsed().as_secs_f64() * 1e6;
        let solution = value["solution"].as_str().unwrap().as_bytes();
        for (cell, &digit) in explanation.end.iter().enumerate() {
            assert!(digit == 0 || solution[cell] - b'0' == digit, "{line}");
        }
        let rating = explanation.rating();
        println!(
            "{}",
            serde_json::json!({
                "name": value["name"], "us": micros, "rating": rating.value,
                "technique": rating.technique.map(|t| t.name()), "solved": explanation.solved(),
            })
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args[0].as_str() {
        "time" => return time(&args[1]),
        "rate" => return rate(&args[1]),
        _ => {}
    }
    let (set, count, seed) = (
        &args[0],
        args[1].parse::<usize>().unwrap(),
        args[2].parse::<u64>().unwrap(),
    );
    for index in 0..count {
        let mut rng = Rng((seed + index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let (shape, mut variant, solution) = loop {
            let (shape, variant) = structure(set, &mut rng);
            if let Some(solution) = random_solution(shape, &variant, &mut rng) {
                break (shape, variant, solution);
            }
        };
        if set.contains("killer") {
            variant.cages = cages(shape, &solution, &mut rng);
        }
        if set.contains("thermo") {
            variant.thermometers = thermometers(shape, &solution, &mut rng);
        }
        let givens = minimize(shape, &variant, &solution, &mut rng);
        println!(
            "{{\"name\":\"{set}-{}\",\"puzzle\":\"{}\",\"rules\":{},\"solution\":\"{}\"}}",
            seed + index as u64,
            line(&givens),
            rules_json(shape, &variant),
            line(&solution)
        );
    }
}
