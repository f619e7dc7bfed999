//! `sudokud rate`, `explain`, `hint` and `generate`: the logical solver and the
//! generator on this machine, one puzzle a line from a file or stdin (or made
//! from a seed), on every core, answers in input order, progress on a terminal.

use std::io::Write;

use std::sync::Arc;

use super::args::{ExplainArgs, GenerateArgs, GridArgs, HintArgs, RateArgs, RulesArgs};
use super::config::rules_json;
use super::input::read_input;
use super::lines::{answer_lines, print_all, solve_all, threads};
use super::runtime::CliResult;
use crate::board::{
    Board, CellAt, Form, Grid, Layout, Notation, Shape, puzzle_lines, read_cells, write_cells,
};
use crate::generate::{Generator, MAX_ATTEMPTS, Unmade, VariantRules, attempts_for};
use crate::logic::{self, Explanation, Next};
use crate::solver::{self, Control, Uniqueness};

pub(super) fn rate(args: RateArgs) -> CliResult {
    let source = args.variant.input(args.file.as_deref())?;
    let (notation, layout) = rules_of(&args.grid, &args.variant)?;
    answer_lines(source, threads(args.threads), |_: &mut (), text, out| {
        let _ = match explained(text, notation.as_ref(), layout.as_ref()) {
            Ok(explained) => {
                let rating = explained.explanation.rating();
                let technique = rating.technique.map_or("beyond the ladder", |t| t.name());
                writeln!(
                    out,
                    "{:.1}/{:.1}/{:.1} {} {technique}",
                    rating.value,
                    rating.pearl,
                    rating.diamond,
                    rating.level().name()
                )
            }
            Err(error) => writeln!(out, "error: {error}"),
        };
    })?;
    Ok(())
}

pub(super) fn explain(args: ExplainArgs) -> CliResult {
    let source = args.variant.input(args.file.as_deref())?;
    let (notation, layout) = rules_of(&args.grid, &args.variant)?;
    let finish = args.finish_by_search;
    answer_lines(source, threads(args.threads), |_: &mut (), text, out| {
        let _ = writeln!(out, "{}", text.trim());
        let explained = match explained(text, notation.as_ref(), layout.as_ref()) {
            Ok(explained) => explained,
            Err(error) => {
                let _ = writeln!(out, "  error: {error}");
                return;
            }
        };
        let (explanation, side) = (&explained.explanation, explained.solution.shape().size());
        for (seq, step) in (1..).zip(&explanation.steps) {
            let _ = writeln!(out, "  {seq}. [{:.1}] {}", step.rating, step.describe(side));
            if !step.links.is_empty() {
                let _ = writeln!(out, "      chain: {}", step.chain_text(side));
            }
        }
        if !explanation.solved() {
            let end = explained.write(&explanation.end);
            let _ = writeln!(out, "  the techniques run out here: {end}");
            if finish {
                let solution = explained.write(explained.solution.cells());
                let _ = writeln!(out, "  search: {solution}");
            }
        }
        let rating = explanation.rating();
        let _ = writeln!(
            out,
            "  rating {:.1} ({})",
            rating.value,
            rating.level().name()
        );
    })?;
    Ok(())
}

pub(super) fn hint(args: HintArgs) -> CliResult {
    let (notation, layout) = rules_of(&args.grid, &args.variant)?;
    let (puzzle, board) = hint_input(args)?;
    let (givens, _) = read_grid(&puzzle, notation.as_ref())?;
    let solution = unique(&givens, layout.as_ref())?;
    let position = match &board {
        None => givens.cells().to_vec(),
        Some(board) => {
            read_cells(notation.as_ref(), board).map_err(|e| format!("invalid board: {e}"))?
        }
    };
    if let Some(changed) = logic::changed_given(givens.cells(), &position) {
        return Err(format!("invalid board: {changed}").into());
    }
    let side = givens.shape().size();
    let name = |cell: usize| CellAt { cell, side };
    let hint = logic::hint(&position, &solution, layout.as_ref(), &|| false);
    if !hint.wrong.is_empty() {
        let wrong: Vec<String> = hint
            .wrong
            .iter()
            .map(|&(cell, digit)| format!("{}={digit}", name(cell)))
            .collect();
        println!("wrong: {}", wrong.join(" "));
    }
    match hint.next {
        None => println!("solved"),
        Some(Next::Logic(step)) => {
            println!("[{:.1}] {}", step.rating, step.describe(side));
            if !step.links.is_empty() {
                println!("chain: {}", step.chain_text(side));
            }
        }
        Some(Next::Search((cell, digit))) => println!("search: place {}={digit}", name(cell)),
    }
    Ok(())
}

/// The puzzle and the position of a `hint`, each given as an argument or as `-`:
/// read from stdin, one line each in that order (blank lines skipped). With
/// `--fpuzzles` the link is the puzzle and the one argument the position.
fn hint_input(args: HintArgs) -> Result<(String, Option<String>), String> {
    let (puzzle, board) = match args.variant.linked_puzzle()? {
        Some(linked) => match (args.puzzle, args.board) {
            (position, None) => (linked, position),
            (_, Some(extra)) => {
                return Err(format!(
                    "--fpuzzles carries the puzzle: one argument (the position) at most, \
                     not also {extra}"
                ));
            }
        },
        None => (args.puzzle.unwrap_or_default(), args.board),
    };
    let from_stdin = puzzle == "-" || board.as_deref() == Some("-");
    let text = if from_stdin {
        read_input(None).map_err(|error| format!("stdin: {error}"))?
    } else {
        String::new()
    };
    let mut lines = puzzle_lines(&text).map(|(_, line)| line.to_owned());
    let mut take = |what: &str| {
        lines
            .next()
            .ok_or_else(|| format!("stdin holds no {what} line"))
    };
    let puzzle = match puzzle.as_str() {
        "-" => take("puzzle")?,
        _ => puzzle,
    };
    let board = match board.as_deref() {
        Some("-") => Some(take("board")?),
        _ => board,
    };
    Ok((puzzle, board))
}

pub(super) fn generate(args: GenerateArgs) -> CliResult {
    if let Some(variant) = args.variant()? {
        return generate_variant(&args, variant);
    }
    if let Some(shape) = args.box_shape.filter(|shape| !shape.is_classic()) {
        return generate_sized(args, shape);
    }
    let range = args.range()?;
    let symmetry = args.symmetry.engine();
    let minimal = !args.not_minimal;
    let rated = args.rated;
    by_seed(&args, |seed, out| {
        let mut generator = Generator::new(seed);
        for _ in 0..MAX_ATTEMPTS {
            if let Ok(Some((generated, rating))) =
                generator.attempt(symmetry, minimal, range, || true)
            {
                let _ = match rated {
                    true => writeln!(
                        out,
                        "{} {:.1} {}",
                        generated.puzzle.to_line(),
                        rating.value,
                        rating.level().name()
                    ),
                    false => writeln!(out, "{}", generated.puzzle.to_line()),
                };
                return;
            }
        }
        let _ = writeln!(
            out,
            "error: no puzzle rated in range after {MAX_ATTEMPTS} attempts (seed {seed})"
        );
    })
}

/// `make` for puzzle i from seed `--seed` + i, `--count` of them, on the
/// worker threads, printed in seed order.
fn by_seed(args: &GenerateArgs, make: impl Fn(u64, &mut Vec<u8>) + Sync) -> CliResult {
    let seeds: Vec<u64> = (0..args.count)
        .map(|index| args.seed.wrapping_add(index))
        .collect();
    print_all(solve_all(
        &seeds,
        threads(args.threads),
        |_: &mut (), &seed, out| make(seed, out),
    ))?;
    Ok(())
}

/// `sudokud generate --box`: unique puzzles of another size, minimal unless
/// asked otherwise, rated on the same ladder (a level or rating bound is
/// tried for `attempts_for` the shape before the seed is given up).
fn generate_sized(args: GenerateArgs, shape: Shape) -> CliResult {
    let range = args.range()?;
    let notation = Notation::new(shape, args.symbols.as_deref().unwrap_or_default())
        .map_err(|error| format!("--symbols: {error}"))?;
    let symmetry = args.symmetry.engine();
    let minimal = !args.not_minimal;
    let cap = attempts_for(shape);
    by_seed(&args, |seed, out| {
        let mut generator = Generator::new(seed);
        for _ in 0..cap {
            let attempt =
                generator.attempt_sized(shape, symmetry, minimal, range, &Control::UNTIMED);
            if let Ok(Some((generated, rating))) = attempt {
                let puzzle = notation.write(generated.puzzle.cells(), Form::Symbols);
                let _ = match (args.rated, rating) {
                    (true, Some(rating)) => writeln!(
                        out,
                        "{puzzle} {:.1} {}",
                        rating.value,
                        rating.level().name()
                    ),
                    _ => writeln!(out, "{puzzle}"),
                };
                return;
            }
        }
        let _ = writeln!(
            out,
            "error: no puzzle of {shape} rated in range after {cap} attempts (seed {seed})"
        );
    })
}

/// `sudokud generate --rules` (or `--random-regions`, `--random-cages`):
/// unique variant puzzles, minimal unless asked otherwise, unrated, one JSON
/// line each with the full rules it was made under.
fn generate_variant(
    args: &GenerateArgs,
    (rules, notation, made_under): (crate::pb::Rules, Notation, VariantRules),
) -> CliResult {
    if args.level.is_some() || args.min_rating.is_some() || args.max_rating.is_some() || args.rated
    {
        return Err(
            "puzzles under variant rules are not rated yet: no --level, --min-rating, \
                    --max-rating or --rated with --rules, --random-regions or --random-cages"
                .into(),
        );
    }
    let (symmetry, minimal) = (args.symmetry.engine(), !args.not_minimal);
    by_seed(args, |seed, out| {
        let made =
            Generator::new(seed).next_variant(&made_under, symmetry, minimal, &Control::UNTIMED);
        let line = match made {
            Ok(made) => {
                let mut rules = rules.clone();
                crate::convert::variant_to_pb(&mut rules, &made.variant);
                rules_json(&rules).map(|rules| {
                    serde_json::json!({
                        "seed": seed,
                        "puzzle": notation.write(made.puzzle.cells(), Form::Symbols),
                        "solution": notation.write(made.solution.cells(), Form::Symbols),
                        "rules": rules,
                    })
                    .to_string()
                })
            }
            Err(Unmade::NoSolution) => Err("the rules admit no solution".to_owned()),
            Err(Unmade::Stopped(why)) => Err(format!("stopped: {why:?}")),
        };
        let _ = match line {
            Ok(line) => writeln!(out, "{line}"),
            Err(why) => writeln!(out, "error: {why} (seed {seed})"),
        };
    })
}

/// A puzzle's logical solve, its solution, and how to write its cells.
struct Explained {
    explanation: Explanation,
    solution: Grid,
    notation: Option<Notation>,
    form: Form,
}

impl Explained {
    /// Cells written as the puzzle line was.
    fn write(&self, cells: &[u8]) -> String {
        write_cells(self.notation.as_ref(), cells, self.form)
    }
}

/// A puzzle line read in `notation` (none: a 9x9 line), and its form.
fn read_grid(text: &str, notation: Option<&Notation>) -> Result<(Grid, Form), String> {
    let read = match notation {
        Some(notation) => notation.read(text),
        None => Board::parse(text).map(|board| (Grid::from_board(&board), Form::Symbols)),
    };
    read.map_err(|e| format!("invalid puzzle: {e}"))
}

/// The notation of the puzzle lines and the variant's layout: those of
/// `--rules` or `--fpuzzles`, or of `--box` and `--symbols` (no layout).
fn rules_of(grid: &GridArgs, variant: &RulesArgs) -> Result<RulesRead, String> {
    Ok(match variant.variant()? {
        Some((notation, layout)) => (Some(notation), layout.map(Arc::new)),
        None => (grid.notation()?, None),
    })
}

/// What [`rules_of`] reads.
type RulesRead = (Option<Notation>, Option<Arc<Layout>>);

/// The logical solve of a puzzle line (under a variant's `layout` when
/// given), and its solution; an error when the line is no puzzle or has no
/// unique solution.
fn explained(
    text: &str,
    notation: Option<&Notation>,
    layout: Option<&Arc<Layout>>,
) -> Result<Explained, String> {
    let (grid, form) = read_grid(text, notation)?;
    let solution = unique(&grid, layout)?;
    Ok(Explained {
        explanation: logic::explain_grid(&grid, layout, || true, &|| false),
        solution,
        notation: notation.cloned(),
        form,
    })
}

/// The unique solution of `grid` (under a variant's `layout` when given), or
/// why there is none.
fn unique(grid: &Grid, layout: Option<&Arc<Layout>>) -> Result<Grid, String> {
    let found = match layout {
        Some(layout) => solver::uniqueness_under(layout, grid.cells(), &Control::UNTIMED),
        None => solver::uniqueness_of(grid, &Control::UNTIMED),
    };
    match found.map_err(|why| format!("{why:?}"))? {
        Uniqueness::One(solution, _) => Ok(solution),
        Uniqueness::None => Err("the puzzle has no solution".to_owned()),
        Uniqueness::Several => Err("the puzzle has more than one solution".to_owned()),
    }
}
