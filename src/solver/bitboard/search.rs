//! The search proper: a stack of levels (one per open guess, each a copy of the
//! node's state), visited, descended and backed up without recursion, so a run
//! can pause between any two guesses.
//! Knows nothing of how a node propagates (`propagate.rs`).

use super::choose::choose;
use super::state::Fail;
use super::{Found, Interrupted, Level, Recorder, Sink, Status};
use crate::solver::Reason;

/// Where the search stood before a guess, to take back what followed it.
#[derive(Default, Clone, Copy)]
pub(super) struct Mark {
    pub(super) trail: usize,
    pub(super) live: u64,
}

/// One run of a search: the recorder, the solutions found, and (when the sink wants
/// events) the trail of placements to report as backtracks.
pub(super) struct Run<'r, 's, 'c, S> {
    pub(super) recorder: &'r mut Recorder<'s, 'c, S>,
    pub(super) found: &'r mut Found,
    pub(super) trail: &'r mut Vec<(u8, u8, Reason, u32)>,
    pub(super) depth: u32,
    /// Set when a limit, the stop signal or the sink ended the search.
    pub(super) interrupted: Option<Interrupted>,
    /// The unsolved two-candidate cells per band, as the last naked-singles pass
    /// saw them: at the end of propagation, the guess candidates.
    pub(super) pairs: [u32; 3],
}

/// What visiting a node led to.
pub(super) enum Visit {
    /// It guessed: its level holds the guess.
    Guessed,
    /// It cannot be completed, or it was a solution and more are wanted.
    DeadEnd,
    /// The search has found all it wants.
    Found,
}

/// Defines the search loop `$name` (with the attributes given): visits the node at
/// `depth` (propagates, then guesses), descends into the first untried digit of
/// the newest open guess, and backs up when a node leads nowhere; pauses before a
/// visit when the recorder asks. A macro so that the same body compiles twice, once
/// for any CPU and once with `target_feature` for CPUs that have AVX2, BMI and
/// POPCNT (what the loop inlines, the band rule, elimination and the guess choice,
/// is compiled with the features too).
macro_rules! search_fn {
    ($name:ident, $v3:literal $(, #[$attr:meta])*) => {
        $(#[$attr])*
        pub(super) fn $name(&mut self, levels: &mut Vec<Level>) -> Result<Status, Interrupted> {
            loop {
                match self.visit::<$v3>(levels)? {
                    Visit::Found => return Ok(Status::Done),
                    Visit::Guessed => {}
                    Visit::DeadEnd => {
                        if !self.back_up(levels)? {
                            return Ok(Status::Done);
                        }
                    }
                }
                while self.descend(levels).is_err() {
                    if let Some(why) = self.interrupted {
                        return Err(why);
                    }
                    if !self.back_up(levels)? {
                        return Ok(Status::Done);
                    }
                }
                if self.recorder.pausing() {
                    return Ok(Status::Paused);
                }
            }
        }
    };
}

impl<S: Sink> Run<'_, '_, '_, S> {
    search_fn!(search, false);
    #[cfg(target_arch = "x86_64")]
    search_fn!(search_v3, true, #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]);

    /// Propagates the node at `depth`; records a solution, or chooses the cell to
    /// guess on.
    #[inline(always)]
    pub(super) fn visit<const V3: bool>(
        &mut self,
        levels: &mut [Level],
    ) -> Result<Visit, Interrupted> {
        let level = &mut levels[self.depth as usize];
        let state = &mut level.state;
        if self.propagate::<V3>(state).is_err() {
            return match self.interrupted {
                Some(why) => Err(why),
                None => Ok(Visit::DeadEnd),
            };
        }
        if state.unsolved == [0; 3] {
            return Ok(if self.found.record_with(|| state.solution()) {
                Visit::Found
            } else {
                Visit::DeadEnd
            });
        }
        let (band, bit, untried) = choose(state, self.pairs);
        level.band = band as u8;
        level.bit = bit;
        level.untried = untried;
        level.mark = self.mark();
        Ok(Visit::Guessed)
    }

    /// Places the next untried digit of the guess at `depth` on a copy of its
    /// node, as the node one deeper.
    #[inline(always)]
    pub(super) fn descend(&mut self, levels: &mut Vec<Level>) -> Result<(), Fail> {
        let depth = self.depth as usize;
        if levels.len() == depth + 1 {
            levels.push(Level::EMPTY);
        }
        let [parent, child] = levels
            .get_disjoint_mut([depth, depth + 1])
            .map_err(|_| Fail)?;
        let digit = parent.untried.trailing_zeros() as usize;
        parent.untried &= parent.untried - 1;
        child.state = parent.state;
        self.depth += 1;
        let (band, bit) = (usize::from(parent.band), parent.bit);
        self.assign(&mut child.state, digit, band, bit, Reason::Guess)
    }

    /// Leaves the node at `depth`, which led nowhere: takes back what followed the
    /// guess that made it, and backs up further past guesses with no digit left.
    /// False when the root was left: the search is exhausted (and every placement
    /// has been taken back).
    #[inline(always)]
    pub(super) fn back_up(&mut self, levels: &[Level]) -> Result<bool, Interrupted> {
        loop {
            if self.depth == 0 {
                self.undo_to(Mark::default())?;
                return Ok(false);
            }
            self.depth -= 1;
            let parent = &levels[self.depth as usize];
            self.undo_to(parent.mark)?;
            if parent.untried != 0 {
                return Ok(true);
            }
        }
    }

    #[inline(always)]
    pub(super) fn mark(&self) -> Mark {
        let stats = &self.recorder.stats;
        Mark {
            trail: self.trail.len(),
            live: stats.placements - stats.backtracks,
        }
    }

    /// Takes back every placement made since `mark`, newest first.
    #[inline(always)]
    pub(super) fn undo_to(&mut self, mark: Mark) -> Result<(), Interrupted> {
        if S::WANTS_EVENTS {
            while self.trail.len() > mark.trail {
                let Some((cell, digit, reason, depth)) = self.trail.pop() else {
                    break;
                };
                self.recorder
                    .backtrack(usize::from(cell), digit, reason, depth)?;
            }
            Ok(())
        } else {
            let stats = &self.recorder.stats;
            let live = stats.placements - stats.backtracks;
            self.recorder.backtracks_unreported(live - mark.live)
        }
    }
}
