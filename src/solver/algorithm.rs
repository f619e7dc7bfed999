//! The searches the engine offers, their names and one-line summaries (the
//! command line and the protobuf mapping read them from here).

use crate::board::Shape;

/// The searches the engine offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Classic row-major backtracking: first empty cell, digits 1..9 in order.
    Backtracking,
    /// Naked and hidden singles to a fixpoint, then row-major backtracking.
    Singles,
    /// Bitmask candidates, singles at every node, fewest-candidates branching.
    Propagation,
    /// The fast default: per-digit bitboards in bands, singles and locked
    /// candidates by bit operations, guesses on two-candidate cells. 9x9 only.
    Bitboard,
    /// The fast engine at every size: candidate masks in machine words, naked
    /// and hidden singles and box-line reductions at every node,
    /// fewest-candidates branching (the default at sizes other than 9x9).
    Wide,
}

impl Algorithm {
    /// Every algorithm, in the order of their protobuf numbers.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Backtracking,
        Algorithm::Singles,
        Algorithm::Propagation,
        Algorithm::Bitboard,
        Algorithm::Wide,
    ];

    /// The engine used when a caller does not choose one at 9x9: the fastest we have.
    pub const DEFAULT: Algorithm = Algorithm::Bitboard;

    /// The engine used when a caller does not choose one at `shape`.
    pub fn default_for(shape: Shape) -> Algorithm {
        if shape.is_classic() {
            Algorithm::DEFAULT
        } else {
            Algorithm::Wide
        }
    }

    /// True when the algorithm searches grids of `shape` (the bitboard engine
    /// knows 9x9 only).
    pub fn supports(self, shape: Shape) -> bool {
        self != Algorithm::Bitboard || shape.is_classic()
    }

    /// What the algorithm does, in a line (the command line's help shows it).
    pub fn summary(self) -> &'static str {
        match self {
            Algorithm::Backtracking => "Classic row-major backtracking.",
            Algorithm::Singles => "Singles to a fixpoint, then row-major backtracking.",
            Algorithm::Propagation => "Singles at every node, fewest-candidates branching.",
            Algorithm::Bitboard => {
                "Band bitboards with singles and locked candidates (the default at 9x9; 9x9 only)."
            }
            Algorithm::Wide => {
                "Candidate masks, singles, box-line reductions and Hall sets; clause learning past a few hundred dead ends (the default at other sizes)."
            }
        }
    }

    /// The short lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Backtracking => "backtracking",
            Algorithm::Singles => "singles",
            Algorithm::Propagation => "propagation",
            Algorithm::Bitboard => "bitboard",
            Algorithm::Wide => "wide",
        }
    }
}
