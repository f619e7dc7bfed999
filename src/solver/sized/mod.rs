//! The engines at every size (N x N, 4 <= N <= 64): one working grid of `u64`
//! candidate masks (`work`), the classic row-major searches over it
//! (`rowmajor`: backtracking, and singles first), and the branching search
//! (`branching`: propagation at every node, fewest-candidates guesses), and the
//! Hall-set filter of a house (`hall`). The 9x9
//! engines beside this module stay the classic shape's fast path.

mod branching;
mod hall;
mod rowmajor;
mod work;

pub(super) use branching::Branching;
pub(super) use rowmajor::Classic;
pub(super) use work::Strength;
