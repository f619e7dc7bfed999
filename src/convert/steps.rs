//! Logical steps as the API gives them: candidates, a step with its links, a
//! step the search made.

use crate::board::CellAt;
use crate::logic::{Candidate, Link, LogicStep};
use crate::pb;

/// A candidate (a cell and a digit) of a grid `side` cells wide as the API
/// gives it.
pub fn candidate_to_pb((cell, digit): Candidate, side: usize) -> pb::Candidate {
    pb::Candidate {
        row: (cell / side) as u32,
        col: (cell % side) as u32,
        digit: u32::from(digit),
    }
}

/// The candidates of a grid `side` cells wide as the API gives them.
pub fn candidates_to_pb(list: &[Candidate], side: usize) -> Vec<pb::Candidate> {
    list.iter()
        .map(|&candidate| candidate_to_pb(candidate, side))
        .collect()
}

/// A logical step as the `seq`-th step of an explanation of a grid `side`
/// cells wide.
pub fn logic_step_to_pb(seq: u64, step: &LogicStep, side: usize) -> pb::LogicStep {
    pb::LogicStep {
        technique: step.technique.name().to_owned(),
        placements: candidates_to_pb(&step.placements, side),
        eliminations: candidates_to_pb(&step.eliminations, side),
        pattern: candidates_to_pb(&step.pattern, side),
        rating: step.rating,
        description: step.describe(side),
        seq,
        by_search: false,
        links: step
            .links
            .iter()
            .map(|&link| link_to_pb(link, side))
            .collect(),
    }
}

/// A step the search made on a grid `side` cells wide: it places
/// `placements`, taken from the solution.
pub fn search_step_to_pb(seq: u64, placements: &[Candidate], side: usize) -> pb::LogicStep {
    let names: Vec<String> = placements
        .iter()
        .map(|&(cell, digit)| format!("{}={digit}", CellAt { cell, side }))
        .collect();
    pb::LogicStep {
        technique: "search".to_owned(),
        placements: candidates_to_pb(placements, side),
        description: format!("search: place {}", names.join(" ")),
        seq,
        by_search: true,
        ..pb::LogicStep::default()
    }
}

/// A link of a chain step on a grid `side` cells wide.
pub fn link_to_pb(link: Link, side: usize) -> pb::Link {
    pb::Link {
        start: Some(candidate_to_pb(link.start, side)),
        end: Some(candidate_to_pb(link.end, side)),
        strong: link.strong,
    }
}
