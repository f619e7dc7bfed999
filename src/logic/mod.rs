//! The logical solver: human techniques applied easiest first on a pencil-mark
//! grid, each step naming its technique, its pattern and what it places or
//! eliminates, and a rating on the Sudoku Explainer scale taken from the hardest
//! step needed. Std only. Every step is found by the logic alone: nothing here
//! consults a solution.
//!
//! - `ladder`: the techniques easiest first, a step applied, a whole solve
//!   ([`Explanation`]) of a 9x9 board or a grid of any shape;
//! - `marks`: what every technique reads and changes on a pencil-mark grid of
//!   any size, so each technique is written once;
//! - `pencil`: the 9x9 pencil-mark grid, units and peers; `wide`: the grid of
//!   every other shape and of every variant, its houses and peers from
//!   `houses` (the shape's, or a variant's layout);
//! - `exclusion`: aligned pair exclusion;
//! - `cycles`: SE's first chaining rung, bidirectional cycles and forcing
//!   chains by the links of the grid as it stands;
//! - `net`: the implications those chains follow (static links);
//!   `multiple`: SE's cell and region forcing chains over them;
//! - `trials`: what the contradiction rungs share; `forcing` has the 9x9
//!   trials on bitboards, `wide_trials` those of the other shapes; `chains`
//!   traces the chain behind a contradiction (the step's links);
//!   `agreement`: the 9x9 dynamic cell and region forcing chains, where the
//!   contradictions give nothing;
//! - `step`: techniques with their ratings, and `LogicStep`;
//! - `rating`: a puzzle's rating, the counts per technique, the level names;
//! - `hint`: a player's wrong digits and the next step from their position;
//! - `singles`, `intersections`, `subsets`, `fish`, `links`, `wings`,
//!   `exclusion`, `uniqueness`, `grave`: the techniques, written over houses
//!   so that they hold under a variant's (its peers too: a knight's move
//!   away, a cage mate); the uniqueness ones (unique loops, BUG) only where no
//!   rule but regions is added;
//! - `cages`, `lines`: the variants' own techniques (cage combinations,
//!   innies and outies, thermometers, non-consecutive neighbours), which the
//!   contradiction trials also move by.
//!
//! Not yet on the ladder: dynamic double forcing chains and assumptions of a
//! candidate's absence, and the complexity modifiers of larger wings and
//! fish. The contradictions of
//! `forcing` and the agreements of `agreement` stand in for SE's dynamic
//! chains (same tiers, length-rated); a puzzle they cannot crack rates
//! [`BEYOND_LADDER`].

mod agreement;
mod cages;
mod chains;
mod cycles;
mod exclusion;
mod fish;
mod forcing;
mod grave;
mod hint;
mod houses;
mod intersections;
mod ladder;
mod lines;
mod links;
mod marks;
mod multiple;
mod net;
mod pencil;
mod rating;
mod singles;
mod step;
mod subsets;
mod trials;
mod uniqueness;
mod wide;
mod wide_trials;
mod wings;

pub use hint::{ChangedGiven, Hint, Next, changed_given, hint};
pub use ladder::{Explanation, apply, explain, explain_grid, explain_while, find, next_step};
pub use pencil::{BadPencil, Pencil};
pub use rating::{BEYOND_LADDER, BadRange, Level, Rating, RatingRange, TechniqueCount};
pub use step::{Candidate, Link, LogicStep, Technique};
