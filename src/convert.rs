//! The one place where engine types and protobuf (`pb`) types meet. Knows nothing of
//! tonic statuses: callers decide what an unknown value means for them.

use crate::board::{col_of, row_of};
use crate::pb;
use crate::solver::{Algorithm, Event, Mode, Reason, Report, Stats, Step};

/// The engine algorithm a request's `algorithm` field asks for; `Err` carries an
/// unknown value back. `ALGORITHM_UNSPECIFIED` means the default engine.
pub fn algorithm_from_pb(value: i32) -> Result<Algorithm, i32> {
    match pb::Algorithm::try_from(value) {
        Ok(pb::Algorithm::Unspecified) => Ok(Algorithm::DEFAULT),
        Ok(pb::Algorithm::Backtracking) => Ok(Algorithm::Backtracking),
        Ok(pb::Algorithm::Singles) => Ok(Algorithm::Singles),
        Ok(pb::Algorithm::Propagation) => Ok(Algorithm::Propagation),
        Ok(pb::Algorithm::Bitboard) => Ok(Algorithm::Bitboard),
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
    }
}

/// A solver event as the `seq`-th step of a stream.
pub fn step_to_pb(seq: u64, event: Event) -> pb::Step {
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
        row: row_of(cell as usize) as u32,
        col: col_of(cell as usize) as u32,
        digit: u32::from(digit),
        reason: reason_to_pb(reason).into(),
        depth,
    }
}

/// The protobuf value of a placement reason.
pub fn reason_to_pb(reason: Reason) -> pb::Reason {
    match reason {
        Reason::Guess => pb::Reason::Guess,
        Reason::NakedSingle => pb::Reason::NakedSingle,
        Reason::HiddenSingle => pb::Reason::HiddenSingle,
        Reason::LockedCandidates => pb::Reason::LockedCandidates,
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

/// The outcome and the solution text (81 digits, or empty) of a finished search.
pub fn outcome_to_pb(report: &Report) -> (pb::Outcome, String) {
    match &report.solution {
        Some(solution) => (pb::Outcome::Solved, solution.to_line()),
        None => (pb::Outcome::Unsolvable, String::new()),
    }
}

/// The unary answer for a finished search.
pub fn solve_response(report: &Report, algorithm: Algorithm, mode: Mode) -> pb::SolveResponse {
    let (outcome, solution) = outcome_to_pb(report);
    pb::SolveResponse {
        outcome: outcome.into(),
        solution,
        stats: Some(stats_to_pb(&report.stats)),
        algorithm: algorithm_to_pb(algorithm).into(),
        solution_count: match mode {
            Mode::CountTwo => report.solution_count,
            Mode::First => 0,
        },
    }
}

/// The last message of a stream that ran to its end.
pub fn finished_message(report: &Report) -> pb::SolveStepsResponse {
    let (outcome, solution) = outcome_to_pb(report);
    pb::SolveStepsResponse {
        event: Some(pb::solve_steps_response::Event::Finished(pb::Finished {
            outcome: outcome.into(),
            solution,
            stats: Some(stats_to_pb(&report.stats)),
        })),
    }
}
