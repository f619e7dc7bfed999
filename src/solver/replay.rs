//! The grid that a stream of events builds from the givens, checking each event as
//! it comes: a placement lands on an empty cell, a backtrack takes back the digit
//! its cell holds and never a given. The one definition of following a search,
//! used by `sudokud watch` (after `convert` has read the wire's steps) and by the
//! tests of every engine and of the service.
//! Knows nothing of the wire: `convert` turns wire steps into events first.

use std::fmt;

use super::{Event, Step};
use crate::board::{Board, CellAt, Grid};

/// A grid being rebuilt from events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    cells: Vec<u8>,
    givens: Vec<u8>,
    /// N: cells in a row.
    side: usize,
    events: u64,
}

/// An event that does not follow from the grid so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayError {
    /// A step whose cell is not on the board (a `Step` made by hand).
    OffBoard {
        /// The event's 1-based number.
        event: u64,
        /// The step.
        step: Step,
    },
    /// A placement on a cell that already holds a digit.
    PlaceOnFilled {
        /// The event's 1-based number.
        event: u64,
        /// The step.
        step: Step,
        /// The digit the cell holds.
        holding: u8,
        /// N: cells in a row (to name the cell).
        side: usize,
    },
    /// A backtrack of a digit its cell does not hold, or of a given.
    TakesBackOther {
        /// The event's 1-based number.
        event: u64,
        /// The step.
        step: Step,
        /// The digit the cell holds.
        holding: u8,
        /// N: cells in a row (to name the cell).
        side: usize,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ReplayError::OffBoard { event, step } => {
                write!(f, "event {event} is on cell {}, off the board", step.cell)
            }
            ReplayError::PlaceOnFilled {
                event,
                step,
                holding,
                side,
            } => write!(
                f,
                "event {event} places {} on {}, which holds {holding}",
                step.digit,
                CellAt {
                    cell: usize::from(step.cell),
                    side
                }
            ),
            ReplayError::TakesBackOther {
                event,
                step,
                holding,
                side,
            } => write!(
                f,
                "event {event} takes {} back from {}, which holds {holding}{}",
                step.digit,
                CellAt {
                    cell: usize::from(step.cell),
                    side
                },
                if holding == step.digit {
                    " as a given"
                } else {
                    ""
                }
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

impl Replay {
    /// The grid of `board`'s givens, before any event.
    pub fn new(board: &Board) -> Replay {
        Replay::sized(&Grid::from_board(board))
    }

    /// The grid of a puzzle's givens at any size, before any event.
    pub fn sized(grid: &Grid) -> Replay {
        Replay {
            cells: grid.cells().to_vec(),
            givens: grid.cells().to_vec(),
            side: grid.shape().size(),
            events: 0,
        }
    }

    /// Applies the next event; an event that does not fit leaves the grid as it was.
    /// (`convert::step_from_pb` checks steps read from the wire before they get
    /// here.)
    pub fn apply(&mut self, event: Event) -> Result<(), ReplayError> {
        self.events += 1;
        let (Event::Place(step) | Event::Backtrack(step)) = event;
        let cell = usize::from(step.cell);
        let Some(&holding) = self.cells.get(cell) else {
            return Err(ReplayError::OffBoard {
                event: self.events,
                step,
            });
        };
        match event {
            Event::Place(_) if holding != 0 => Err(ReplayError::PlaceOnFilled {
                event: self.events,
                step,
                holding,
                side: self.side,
            }),
            Event::Place(_) => {
                self.cells[cell] = step.digit;
                Ok(())
            }
            Event::Backtrack(_) if holding != step.digit || self.givens[cell] != 0 => {
                Err(ReplayError::TakesBackOther {
                    event: self.events,
                    step,
                    holding,
                    side: self.side,
                })
            }
            Event::Backtrack(_) => {
                self.cells[cell] = 0;
                Ok(())
            }
        }
    }

    /// The grid so far, row-major, `0` for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// True when `cell` holds a given.
    pub fn is_given(&self, cell: usize) -> bool {
        self.givens.get(cell).is_some_and(|&digit| digit != 0)
    }

    /// Events applied so far (those that did not fit included).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The grid so far as a puzzle line: at 9x9 81 characters, `.` for empty;
    /// at other sizes comma-separated numbers, 0 for empty.
    pub fn to_line(&self) -> String {
        match <[u8; 81]>::try_from(self.cells.as_slice()) {
            Ok(cells) => Board::with_cells(cells).to_line(),
            Err(_) => self
                .cells
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Reason;

    #[test]
    fn events_that_do_not_fit_are_refused_and_change_nothing() {
        let board = Board::parse(&format!("5{}", ".".repeat(80))).unwrap();
        let mut replay = Replay::new(&board);
        let step = |cell, digit| Step::at(cell, digit, Reason::Guess, 1);
        assert!(replay.apply(Event::Place(step(81, 1))).is_err());
        assert!(replay.apply(Event::Place(step(0, 1))).is_err());
        assert!(replay.apply(Event::Backtrack(step(0, 5))).is_err());
        assert!(replay.apply(Event::Backtrack(step(1, 3))).is_err());
        assert_eq!(replay.cells(), board.cells());
        assert_eq!(replay.apply(Event::Place(step(1, 3))), Ok(()));
        assert_eq!(replay.apply(Event::Backtrack(step(1, 3))), Ok(()));
        assert_eq!(replay.cells(), board.cells());
        assert_eq!(replay.events(), 6);
    }
}
