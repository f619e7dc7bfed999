//! What follows from a node: board updates until none changed, naked singles for
//! a band at once, column claiming; and the recording of every placement for the
//! recorder (events, or counts when the sink wants none).
//! Knows nothing of the stack of guesses.

use super::choose::holding;
use super::claiming::column_claiming;
use super::state::{Fail, State};
use super::tables::{TABLES, alone_in_threes, band_rule};
use super::{OTHER_BANDS, Run, at, boxes_of, columns_of, spread_columns};
use crate::solver::{Reason, Sink};

impl<S: Sink> Run<'_, '_, '_, S> {
    /// Updates every board that changed until none does, then places naked singles
    /// and runs column claiming, until nothing more follows.
    #[inline(always)]
    pub(super) fn propagate<const V3: bool>(&mut self, state: &mut State) -> Result<(), Fail> {
        loop {
            // The dirty boards in a register: updates return the boards they
            // dirty.
            let mut dirty = state.dirty;
            state.dirty = 0;
            // Column claiming is due again once any board is updated.
            state.stale |= dirty != 0;
            while dirty != 0 {
                // The boards dirty now, in a batch: the next board to update is
                // known without waiting for this update's outcome (which boards
                // it dirties), so the CPU overlaps consecutive updates. Boards
                // dirtied meanwhile wait for the next batch (or, still ahead in
                // this one, are updated once).
                let mut batch = dirty;
                while batch != 0 {
                    let board = batch.trailing_zeros() as usize;
                    batch &= batch - 1;
                    dirty &= !(1 << board);
                    dirty |= self.update::<V3>(state, board)?;
                }
            }
            if self.naked_singles::<V3>(state)? {
                continue;
            }
            if !state.stale {
                return Ok(());
            }
            if !state.claiming_can_act() {
                state.stale = false;
                return Ok(());
            }
            column_claiming(state)?;
            if state.dirty == 0 {
                return Ok(());
            }
        }
    }

    /// The band rule on one board: keeps the digit's triads that fit a
    /// row-to-box matching; the columns the digit keeps in one box only are
    /// cleared from its other bands (pointing); the rows left with one cell are
    /// solved, and cells newly solved (or placed since the last update) are
    /// cleared from the other digits. The boards it changed (other than this one).
    #[inline(always)]
    pub(super) fn update<const V3: bool>(
        &mut self,
        state: &mut State,
        board: usize,
    ) -> Result<u32, Fail> {
        let mut dirty = 0;
        let band = usize::from(board >= 9) + usize::from(board >= 18);
        let first = band * 9;
        let before = state.candidates[board & 31];
        let (kept, lone) = band_rule::<V3>(before);
        let after = before & kept;
        if after == 0 {
            // No triads fit a matching.
            return Err(Fail);
        }
        let locked = TABLES.lone_columns[columns_of(after) as usize];
        // The digit's boards in the two other bands, 18 and 9 boards on (wrapping).
        let wrap = |at: usize| if at >= 27 { at - 27 } else { at } & 31;
        let (one, two) = (wrap(board + 18), wrap(board + 9));
        let (in_one, in_two) = (
            state.candidates[one] & locked,
            state.candidates[two] & locked,
        );
        // Without a branch: whether any column goes is as good as random.
        state.candidates[one] &= !locked;
        state.candidates[two] &= !locked;
        dirty |= u32::from(in_one != 0) << one | u32::from(in_two != 0) << two;
        // The rows of `after` with one cell (`row_singles(after)`), read from the
        // triads instead: beside the band rule's lookup rather than after it, as
        // the next update in the band waits on this one's clear.
        let solved = lone & alone_in_threes(before);
        let new = solved & state.unsolved[band];
        let clear = new | (solved & state.pending[band]);
        if clear != 0 {
            if new != 0 {
                if S::WANTS_EVENTS {
                    self.record_found(state, board - first, band, before, new)?;
                } else {
                    self.record_unreported(new)?;
                }
                state.unsolved[band] &= !new;
            }
            state.pending[band] &= !clear;
            let changed = holding(&state.candidates, first, clear);
            for other in &mut state.candidates[first.min(18)..first.min(18) + 9] {
                *other &= !clear;
            }
            dirty |= (changed << first) & !(1 << board);
        }
        state.candidates[board & 31] = after;
        Ok(dirty)
    }

    /// Records the cells `new` of `band` that an update found for `digit` (its
    /// board was `before`), with their reasons: a hidden single when the digit had
    /// that one open cell left in the row, box or column, else locked candidates
    /// (the band's matching, pointing or column claiming narrowed it down).
    #[cold]
    pub(super) fn record_found(
        &mut self,
        state: &State,
        digit: usize,
        band: usize,
        before: u32,
        new: u32,
    ) -> Result<(), Fail> {
        let open = before & state.unsolved[band];
        let mut rest = new;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let row = 0x1FF << (9 * (bit.trailing_zeros() / 9));
            let column = spread_columns(columns_of(bit));
            let box_cells = spread_columns(boxes_of(columns_of(bit)));
            let column_elsewhere = OTHER_BANDS[band].iter().fold(0, |cells, &other| {
                cells | (state.candidates[at(digit, other)] & state.unsolved[other] & column)
            });
            let hidden = open & row == bit
                || open & box_cells == bit
                || (open & column == bit && column_elsewhere == 0);
            let reason = if hidden {
                Reason::HiddenSingle
            } else {
                Reason::LockedCandidates
            };
            self.record(digit, band, bit, reason)?;
        }
        Ok(())
    }

    /// Solves every unsolved cell with one candidate; fails on a cell with none.
    /// True when it solved any.
    #[inline(always)]
    pub(super) fn naked_singles<const V3: bool>(
        &mut self,
        state: &mut State,
    ) -> Result<bool, Fail> {
        let mut progress = false;
        for band in 0..3 {
            let unsolved = state.unsolved[band];
            if unsolved == 0 {
                self.pairs[band] = 0;
                continue;
            }
            let [one, two, three] = state.counts3::<V3>(band);
            self.pairs[band] = unsolved & two & !three;
            if unsolved & !one != 0 {
                return Err(Fail);
            }
            let mut singles = unsolved & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                // The cell's one digit, without a branch per board.
                let digits = holding(&state.candidates, band * 9, bit);
                if digits == 0 {
                    // A single placed just before took its one digit (a peer).
                    return Err(Fail);
                }
                let digit = digits.trailing_zeros() as usize;
                self.assign(state, digit, band, bit, Reason::NakedSingle)?;
                progress = true;
            }
        }
        Ok(progress)
    }

    /// Places `digit` on `bit` of `band`, recording the step.
    #[inline(always)]
    pub(super) fn assign(
        &mut self,
        state: &mut State,
        digit: usize,
        band: usize,
        bit: u32,
        reason: Reason,
    ) -> Result<(), Fail> {
        if state.candidates[at(digit, band)] & bit == 0 {
            return Err(Fail);
        }
        self.record(digit, band, bit, reason)?;
        // Lazy: the board's update does the rest (see `State`).
        state.candidates[at(digit, band)] &= !TABLES.peers[bit.trailing_zeros() as usize & 31];
        state.dirty |= 1 << at(digit, band);
        state.unsolved[band] &= !bit;
        state.pending[band] |= bit;
        Ok(())
    }

    /// Records the placement of `digit` on `bit` of `band` (the state is the
    /// caller's to update).
    #[inline(always)]
    pub(super) fn record(
        &mut self,
        digit: usize,
        band: usize,
        bit: u32,
        reason: Reason,
    ) -> Result<(), Fail> {
        let cell = band * 27 + bit.trailing_zeros() as usize;
        if let Err(why) = self
            .recorder
            .place(cell, digit as u8 + 1, reason, self.depth)
        {
            self.interrupted = Some(why);
            return Err(Fail);
        }
        if S::WANTS_EVENTS {
            self.trail
                .push((cell as u8, digit as u8 + 1, reason, self.depth));
        }
        Ok(())
    }

    /// Counts the placements on `cells` (none of them a guess) when the sink wants
    /// no events: one step each, in one go.
    #[inline(always)]
    pub(super) fn record_unreported(&mut self, cells: u32) -> Result<(), Fail> {
        let count = u64::from(cells.count_ones());
        self.recorder.placements_unreported(count).map_err(|why| {
            self.interrupted = Some(why);
            Fail
        })
    }
}
