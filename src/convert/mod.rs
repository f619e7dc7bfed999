//! The one place where engine types and protobuf (`pb`) types meet. Knows nothing of
//! tonic statuses: callers decide what an unknown value means for them.

use crate::board::{Form, Grid, Notation};
use crate::generate::{Generated, GeneratedGrid, GeneratedVariant, Symmetry};
use crate::logic::Rating;
use crate::pb;
use crate::solver::{Algorithm, Event, Mode, Reason, Report, Stats, Step};

mod fpuzzles;
#[cfg(test)]
mod fpuzzles_tests;
mod lzstring;
mod rules;
mod steps;

pub use fpuzzles::{FpuzzlesError, Imported, MAX_BOARD_UNITS, answer_link, is_link, read_fpuzzles};
pub use lzstring::{LzError, decompress_base64};
pub use rules::{rules_from_pb, variant_from_pb, variant_rules_from_pb, variant_to_pb};
pub use steps::{candidate_to_pb, candidates_to_pb, logic_step_to_pb, search_step_to_pb};

/// The engine algorithm a request's `algorithm` field asks for; `Err` carries an
/// unknown value back. `ALGORITHM_UNSPECIFIED` means the default engine.
pub fn algorithm_from_pb(value: i32) -> Result<Algorithm, i32> {
    match pb::Algorithm::try_from(value) {
        Ok(pb::Algorithm::Unspecified) => Ok(Algorithm::DEFAULT),
        Ok(pb::Algorithm::Backtracking) => Ok(Algorithm::Backtracking),
        Ok(pb::Algorithm::Singles) => Ok(Algorithm::Singles),
        Ok(pb::Algorithm::Propagation) => Ok(Algorithm::Propagation),
        Ok(pb::Algorithm::Bitboard) => Ok(Algorithm::Bitboard),
        Ok(pb::Algorithm::Wide) => Ok(Algorithm::Wide),
        Err(_) => Err(value),
    }
}

/// The protobuf value of an engine algorithm.
pub fn algorithm_to_pb(algorithm: Algorithm) -> pb::Algorithm {
    match algorithm {
        Algorithm::Backtracking => pb::Algorithm::Backtracking,
        Algorithm::Singles => pb::Algorithm::Singles,
        Algorithm::Propagation => pb::Algorithm::Propagation,
        Algorithm::Bitboard => pb::Algorithm::Bitboard,
        Algorithm::Wide => pb::Algorithm::Wide,
    }
}

/// A solver event as the `seq`-th step of a stream on a grid `side` cells wide.
pub fn step_to_pb(seq: u64, event: Event, side: usize) -> pb::Step {
    let (kind, step) = match event {
        Event::Place(step) => (pb::StepKind::Place, step),
        Event::Backtrack(step) => (pb::StepKind::Backtrack, step),
    };
    let Step {
        cell,
        digit,
        reason,
        depth,
    } = step;
    pb::Step {
        seq,
        kind: kind.into(),
        row: (usize::from(cell) / side) as u32,
        col: (usize::from(cell) % side) as u32,
        digit: u32::from(digit),
        reason: reason_to_pb(reason).into(),
        depth,
    }
}

/// Why a step read from the wire is no step of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadStep {
    /// The step's `seq`.
    pub seq: u64,
    /// What is wrong with it.
    pub problem: String,
}

impl std::fmt::Display for BadStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}: {}", self.seq, self.problem)
    }
}

impl std::error::Error for BadStep {}

/// The solver event a wire step of a grid `side` cells wide describes, every
/// field checked before use (the cell's row and column first, so no index is
/// computed from bad data).
pub fn step_from_pb(step: &pb::Step, side: usize) -> Result<Event, BadStep> {
    let bad = |problem: String| BadStep {
        seq: step.seq,
        problem,
    };
    let side32 = side as u32;
    if step.row >= side32 || step.col >= side32 {
        return Err(bad(format!(
            "row {} column {} is off the board (0..{side} each)",
            step.row, step.col
        )));
    }
    let digit = u8::try_from(step.digit)
        .ok()
        .filter(|&digit| (1..=side).contains(&usize::from(digit)))
        .ok_or_else(|| bad(format!("digit {} is not 1-{side}", step.digit)))?;
    let reason = reason_from_pb(step.reason)
        .ok_or_else(|| bad(format!("unknown reason {}", step.reason)))?;
    let step_of = Step::at(
        (step.row * side32 + step.col) as usize,
        digit,
        reason,
        step.depth,
    );
    match pb::StepKind::try_from(step.kind) {
        Ok(pb::StepKind::Place) => Ok(Event::Place(step_of)),
        Ok(pb::StepKind::Backtrack) => Ok(Event::Backtrack(step_of)),
        _ => Err(bad(format!("unknown kind {}", step.kind))),
    }
}

/// The engine reason of a protobuf value; `None` for unknown or unspecified.
pub fn reason_from_pb(value: i32) -> Option<Reason> {
    match pb::Reason::try_from(value).ok()? {
        pb::Reason::Guess => Some(Reason::Guess),
        pb::Reason::NakedSingle => Some(Reason::NakedSingle),
        pb::Reason::HiddenSingle => Some(Reason::HiddenSingle),
        pb::Reason::LockedCandidates => Some(Reason::LockedCandidates),
        pb::Reason::Constraint => Some(Reason::Constraint),
        pb::Reason::Unspecified => None,
    }
}

/// The protobuf value of a placement reason.
pub fn reason_to_pb(reason: Reason) -> pb::Reason {
    match reason {
        Reason::Guess => pb::Reason::Guess,
        Reason::NakedSingle => pb::Reason::NakedSingle,
        Reason::HiddenSingle => pb::Reason::HiddenSingle,
        Reason::LockedCandidates => pb::Reason::LockedCandidates,
        Reason::Constraint => pb::Reason::Constraint,
    }
}

/// Search statistics as sent on the wire.
pub fn stats_to_pb(stats: &Stats) -> pb::SolveStats {
    pb::SolveStats {
        placements: stats.placements,
        backtracks: stats.backtracks,
        guesses: stats.guesses,
        elapsed_micros: u64::try_from(stats.elapsed.as_micros()).unwrap_or(u64::MAX),
    }
}

/// A search's statistics, as [`stats_to_pb`] made them, as a batch answer's
/// `stats`.
pub fn answer_stats(stats: pb::SolveStats) -> crate::codec::AnswerStats {
    let pb::SolveStats {
        placements,
        backtracks,
        guesses,
        elapsed_micros,
    } = stats;
    crate::codec::AnswerStats {
        placements,
        backtracks,
        guesses,
        elapsed_micros,
    }
}

/// The outcome of a finished search.
pub fn outcome_to_pb(report: &Report) -> pb::Outcome {
    match report.cells() {
        Some(_) => pb::Outcome::Solved,
        None => pb::Outcome::Unsolvable,
    }
}

/// The unary answer for a finished search, with its solution written as the
/// request wrote its puzzle (empty when none).
pub fn solve_response(
    report: &Report,
    algorithm: Algorithm,
    mode: Mode,
    solution: String,
) -> pb::SolveResponse {
    let outcome = outcome_to_pb(report);
    pb::SolveResponse {
        outcome: outcome.into(),
        solution,
        stats: Some(stats_to_pb(&report.stats)),
        algorithm: algorithm_to_pb(algorithm).into(),
        solution_count: match mode {
            Mode::CountTwo | Mode::Enumerate(_) => report.solution_count,
            Mode::First => 0,
        },
        fpuzzles: String::new(),
    }
}

/// The first message of a stream: the puzzle as the server read it (written as
/// the request wrote it), the algorithm that searches it, and the request's
/// rules filled in (`None` for a request without rules).
pub fn started_message(
    puzzle: String,
    algorithm: Algorithm,
    rules: Option<pb::Rules>,
) -> pb::SolveStepsResponse {
    pb::SolveStepsResponse {
        event: Some(pb::solve_steps_response::Event::Started(pb::Started {
            puzzle,
            algorithm: algorithm_to_pb(algorithm).into(),
            engine_version: crate::solver::ENGINE_VERSION.to_owned(),
            rules,
        })),
    }
}

/// A stream message carrying a batch of steps (made by [`step_to_pb`]).
pub fn steps_message(steps: Vec<pb::Step>) -> pb::SolveStepsResponse {
    pb::SolveStepsResponse {
        event: Some(pb::solve_steps_response::Event::Steps(pb::StepBatch {
            steps,
        })),
    }
}

/// The last message of a stream that ran to its end, with its solution
/// written as the request wrote its puzzle.
pub fn finished_message(report: &Report, solution: String) -> pb::SolveStepsResponse {
    let outcome = outcome_to_pb(report);
    pb::SolveStepsResponse {
        event: Some(pb::solve_steps_response::Event::Finished(pb::Finished {
            outcome: outcome.into(),
            solution,
            stats: Some(stats_to_pb(&report.stats)),
        })),
    }
}

/// The symmetry a request's `symmetry` field asks for; `Err` carries an unknown
/// value back. `SYMMETRY_UNSPECIFIED` means none.
pub fn symmetry_from_pb(value: i32) -> Result<Symmetry, i32> {
    match pb::Symmetry::try_from(value) {
        Ok(pb::Symmetry::Unspecified) => Ok(Symmetry::None),
        Ok(pb::Symmetry::Rotate180) => Ok(Symmetry::Rotate180),
        Ok(pb::Symmetry::Rotate90) => Ok(Symmetry::Rotate90),
        Ok(pb::Symmetry::Mirror) => Ok(Symmetry::Mirror),
        Ok(pb::Symmetry::Diagonal) => Ok(Symmetry::Diagonal),
        Err(_) => Err(value),
    }
}

/// The protobuf value of a symmetry.
pub fn symmetry_to_pb(symmetry: Symmetry) -> pb::Symmetry {
    match symmetry {
        Symmetry::None => pb::Symmetry::Unspecified,
        Symmetry::Rotate180 => pb::Symmetry::Rotate180,
        Symmetry::Rotate90 => pb::Symmetry::Rotate90,
        Symmetry::Mirror => pb::Symmetry::Mirror,
        Symmetry::Diagonal => pb::Symmetry::Diagonal,
    }
}

/// The answer to `Rate`: the rating, and the effort of the search that checked
/// the solution is unique.
pub fn rate_response(rating: &Rating, search: &Stats) -> pb::RateResponse {
    pb::RateResponse {
        rating: rating.value,
        technique: rating
            .technique
            .map_or_else(String::new, |technique| technique.name().to_owned()),
        level: rating.level().name().to_owned(),
        counts: rating
            .counts
            .iter()
            .map(|known| pb::TechniqueCount {
                technique: known.technique.name().to_owned(),
                rating: known.hardest,
                count: known.count,
            })
            .collect(),
        needed_search: !rating.solved,
        search: Some(stats_to_pb(search)),
        pearl: rating.pearl,
        diamond: rating.diamond,
    }
}

/// The last message of an explanation.
pub fn explain_finished(solution: String, end: String, rating: &Rating) -> pb::ExplainResponse {
    let finished = pb::ExplainFinished {
        solution,
        rating: rating.value,
        needed_search: !rating.solved,
        end,
        technique: rating
            .technique
            .map_or_else(String::new, |technique| technique.name().to_owned()),
        level: rating.level().name().to_owned(),
    };
    pb::ExplainResponse {
        event: Some(pb::explain_response::Event::Finished(finished)),
    }
}

/// A generated puzzle, rated, as the answer to `Generate`.
pub fn generate_response(
    generated: &Generated,
    rating: &Rating,
    seed: u64,
    minimal: bool,
) -> pb::GenerateResponse {
    pb::GenerateResponse {
        puzzle: generated.puzzle.to_line(),
        solution: generated.solution.to_line(),
        rating: rating.value,
        level: rating.level().name().to_owned(),
        technique: rating
            .technique
            .map_or_else(String::new, |technique| technique.name().to_owned()),
        seed,
        clues: generated.puzzle.filled() as u32,
        minimal,
        rules: None,
    }
}

/// A generated puzzle of another size as the API gives it: written in
/// `notation` (symbols, or numbers past 35x35), with its rating when it was
/// rated.
pub fn generated_grid_response(
    notation: &Notation,
    generated: &GeneratedGrid,
    rating: Option<&Rating>,
    seed: u64,
) -> pb::GenerateResponse {
    rated(
        pb::GenerateResponse {
            minimal: generated.minimal,
            ..written_grid(notation, &generated.puzzle, &generated.solution, seed)
        },
        rating,
    )
}

/// `response` with `rating`'s value, level and technique, when it is rated.
fn rated(response: pb::GenerateResponse, rating: Option<&Rating>) -> pb::GenerateResponse {
    pb::GenerateResponse {
        rating: rating.map_or(0.0, |rating| rating.value),
        level: rating.map_or_else(String::new, |rating| rating.level().name().to_owned()),
        technique: rating
            .and_then(|rating| rating.technique)
            .map_or_else(String::new, |technique| technique.name().to_owned()),
        ..response
    }
}

/// A generated puzzle of any size and its solution written in `notation`,
/// with its seed and clue count; not minimal, unrated and without rules
/// until the caller says otherwise.
fn written_grid(
    notation: &Notation,
    puzzle: &Grid,
    solution: &Grid,
    seed: u64,
) -> pb::GenerateResponse {
    pb::GenerateResponse {
        puzzle: notation.write(puzzle.cells(), Form::Symbols),
        solution: notation.write(solution.cells(), Form::Symbols),
        seed,
        clues: puzzle.filled() as u32,
        ..pb::GenerateResponse::default()
    }
}

/// A generated variant puzzle as the API gives it: written in `notation`,
/// unrated, with `rules` (the request's) made its full rules (the regions and
/// cages drawn for it).
pub fn generated_variant_response(
    notation: &Notation,
    generated: &GeneratedVariant,
    mut rules: pb::Rules,
    rating: Option<&Rating>,
    seed: u64,
) -> pb::GenerateResponse {
    rules::variant_to_pb(&mut rules, &generated.variant);
    rated(
        pb::GenerateResponse {
            minimal: generated.minimal,
            rules: Some(rules),
            ..written_grid(notation, &generated.puzzle, &generated.solution, seed)
        },
        rating,
    )
}

/// What one puzzle of a `GenerateMany` request asks for, as a `Generate`
/// request (the seed is the first puzzle's).
pub fn generate_request_of(many: &pb::GenerateManyRequest) -> pb::GenerateRequest {
    pb::GenerateRequest {
        seed: many.seed,
        min_rating: many.min_rating,
        max_rating: many.max_rating,
        symmetry: many.symmetry,
        level: many.level.clone(),
        not_minimal: many.not_minimal,
        rules: many.rules.clone(),
        random_regions: many.random_regions,
        random_cages: many.random_cages,
    }
}

/// A `Generate` answer as one message of a `GenerateMany` stream.
pub fn generate_many_response(one: pb::GenerateResponse) -> pb::GenerateManyResponse {
    pb::GenerateManyResponse {
        puzzle: one.puzzle,
        solution: one.solution,
        rating: one.rating,
        level: one.level,
        technique: one.technique,
        seed: one.seed,
        clues: one.clues,
        minimal: one.minimal,
        rules: one.rules,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every engine step survives the trip to the wire and back; steps off the
    /// board (rows and columns far past 9 included) or with bad fields are refused.
    #[test]
    fn steps_read_back_as_written_and_bad_ones_are_refused() {
        for cell in 0..81 {
            for reason in [Reason::Guess, Reason::NakedSingle, Reason::HiddenSingle] {
                let step = Step::at(cell, 1 + (cell % 9) as u8, reason, 3);
                for event in [Event::Place(step), Event::Backtrack(step)] {
                    assert_eq!(step_from_pb(&step_to_pb(7, event, 9), 9), Ok(event));
                }
            }
        }
        let good = step_to_pb(1, Event::Place(Step::at(0, 5, Reason::Guess, 1)), 9);
        let bad = [
            pb::Step { row: 9, ..good },
            pb::Step {
                col: u32::MAX,
                ..good
            },
            pb::Step {
                row: u32::MAX / 9 + 1,
                ..good
            },
            pb::Step { digit: 0, ..good },
            pb::Step { digit: 10, ..good },
            pb::Step { kind: 0, ..good },
            pb::Step { reason: 99, ..good },
        ];
        for step in bad {
            assert!(step_from_pb(&step, 9).is_err(), "{step:?}");
        }
    }
}
