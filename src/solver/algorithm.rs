//! The searches the engine offers, their names and one-line summaries (the
//! command line and the protobuf mapping read them from here).

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
    /// candidates by bit operations, guesses on two-candidate cells.
    Bitboard,
}

impl Algorithm {
    /// Every algorithm, in the order of their protobuf numbers.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Backtracking,
        Algorithm::Singles,
        Algorithm::Propagation,
        Algorithm::Bitboard,
    ];

    /// The engine used when a caller does not choose one: the fastest we have.
    pub const DEFAULT: Algorithm = Algorithm::Bitboard;

    /// What the algorithm does, in a line (the command line's help shows it).
    pub fn summary(self) -> &'static str {
        match self {
            Algorithm::Backtracking => "Classic row-major backtracking.",
            Algorithm::Singles => "Singles to a fixpoint, then row-major backtracking.",
            Algorithm::Propagation => "Singles at every node, fewest-candidates branching.",
            Algorithm::Bitboard => {
                "Band bitboards with singles and locked candidates (the default engine)."
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
        }
    }
}
