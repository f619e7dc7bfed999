//! The engines at every size (N x N, 4 <= N <= 64): one working grid of `u64`
//! candidate masks (`work`), the classic row-major searches over it
//! (`rowmajor`: backtracking, and singles first), the branching search
//! (`branching`: propagation at every node, fewest-candidates guesses) with the
//! Hall-set filter of a house (`hall`), the search that learns from its dead
//! ends (`learning`), and the wide engine that runs the branching search first
//! and the learning one on the puzzles that resist it (`wide`). The 9x9
//! engines beside this module stay the classic shape's fast path.

mod branching;
mod hall;
mod learning;
mod rowmajor;
mod wide;
mod work;

pub(super) use branching::{Branching, Node};
pub(super) use hall::House;
pub(super) use rowmajor::Classic;
pub(super) use wide::Wide;
pub(super) use work::{Placed, Strength, place_of, tally};
