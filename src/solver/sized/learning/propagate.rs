//! Drawing the consequences of a value: the exactly-one groups of the rules,
//! natively, with where their houses cross, and the learned clauses on two
//! watched literals.

use super::Learning;
use super::clauses::{Conflict, Lit, Watch, Why, positive, var};
use super::tables::NO_CUT;
use crate::solver::{Interrupted, Recorder, Sink};

impl Learning {
    /// Makes `lit` true for `why`; a conflict when it is false already, or
    /// when it would place a digit in a filled cell.
    #[inline]
    pub(super) fn assign<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        lit: Lit,
        why: Why,
    ) -> Result<Option<Conflict>, Interrupted> {
        let v = var(lit);
        match self.lit_value(lit) {
            1 => return Ok(None),
            -1 => {
                return Ok(Some(match why {
                    Why::Group(g) => Conflict::Group(g),
                    Why::Pair(other) => Conflict::Pair(v as u32, other),
                    Why::Clause(c) => Conflict::Clause(c),
                    Why::Cut(code) => Conflict::Cut(v as u32, code),
                    // Only at level 0, where any conflict ends the search.
                    Why::Given | Why::Decision | Why::Learned => Conflict::Pair(v as u32, v as u32),
                }));
            }
            _ => {}
        }
        let cell = self.cell_of(v);
        let is_true = lit & 1 == 0;
        if is_true && self.cells[cell] != 0 {
            // Another digit of the cell is true but not yet propagated: the
            // variable is false by it, and the clause that wanted it true
            // has every literal false.
            let holding = cell * self.n + usize::from(self.cells[cell]) - 1;
            self.value[v] = -1;
            self.level[v] = self.depth();
            self.why[v] = Why::Pair(holding as u32);
            self.trail.push(lit ^ 1);
            return Ok(Some(match why {
                Why::Group(g) => Conflict::Group(g),
                Why::Clause(c) => Conflict::Clause(c),
                _ => Conflict::Pair(v as u32, holding as u32),
            }));
        }
        self.value[v] = if is_true { 1 } else { -1 };
        self.level[v] = self.depth();
        self.why[v] = why;
        self.trail.push(lit);
        if is_true {
            let digit = (v - cell * self.n) as u8 + 1;
            self.cells[cell] = digit;
            if why != Why::Given {
                recorder.place(cell, digit, self.reason_of(v), self.depth())?;
            }
        }
        Ok(None)
    }

    /// Draws the consequences of the trail; the conflict if one is reached.
    pub(super) fn propagate<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
    ) -> Result<Option<Conflict>, Interrupted> {
        while self.head < self.trail.len() {
            let lit = self.trail[self.head];
            self.head += 1;
            let v = var(lit);
            let groups = self.groups_of(v);
            let slots = self.tables.slots[v];
            if lit & 1 == 0 {
                for (g, slot) in groups.into_iter().zip(slots) {
                    // The members not false yet, but this one.
                    let mut rest = self.open[g] & !(1 << slot);
                    while rest != 0 {
                        let other = self.member(g, rest.trailing_zeros() as usize);
                        rest &= rest - 1;
                        if self.value[other] >= 0
                            && let Some(conflict) =
                                self.assign(recorder, positive(other) | 1, Why::Pair(v as u32))?
                        {
                            return Ok(Some(conflict));
                        }
                    }
                }
            } else {
                // All four groups first, so undoing this entry restores them all.
                for (g, slot) in groups.into_iter().zip(slots) {
                    self.open[g] &= !(1 << slot);
                }
                for g in groups {
                    let open = self.open[g];
                    if open.count_ones() > 1 {
                        continue;
                    }
                    // One left at most: it must be true (it may be false
                    // already but not yet counted).
                    let last = self.member(g, open.trailing_zeros() as usize % self.n);
                    if open == 0 || self.value[last] < 0 {
                        return Ok(Some(Conflict::Group(g as u32)));
                    }
                    if self.value[last] == 0
                        && let Some(conflict) =
                            self.assign(recorder, positive(last), Why::Group(g as u32))?
                    {
                        return Ok(Some(conflict));
                    }
                }
                for g in &groups[1..] {
                    if let Some(conflict) = self.cut(recorder, *g)? {
                        return Ok(Some(conflict));
                    }
                }
            }
            if let Some(conflict) = self.propagate_clauses(recorder, lit ^ 1)? {
                return Ok(Some(conflict));
            }
        }
        Ok(None)
    }

    /// When group `g`'s places not false all lie where its house crosses
    /// another, its digit is nowhere else in that other house.
    fn cut<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        g: usize,
    ) -> Result<Option<Conflict>, Interrupted> {
        let open = self.open[g];
        if open.count_ones() < 2 {
            return Ok(None);
        }
        let (house, digit) = (
            (g - self.cells.len()) / self.n,
            (g - self.cells.len()) % self.n,
        );
        let tables = self.tables;
        for k in tables.slot_cuts[house * self.n + open.trailing_zeros() as usize] {
            if k == NO_CUT {
                break;
            }
            let cut = tables.cuts[usize::from(k)];
            if open & !cut.own != 0 {
                continue;
            }
            let other = self.cells.len() + usize::from(cut.other_house) * self.n + digit;
            let mut rest = self.open[other] & !cut.other;
            let why = Why::Cut(u32::from(k) << 6 | digit as u32);
            while rest != 0 {
                let v = self.member(other, rest.trailing_zeros() as usize);
                rest &= rest - 1;
                if self.value[v] >= 0
                    && let Some(conflict) = self.assign(recorder, positive(v) | 1, why)?
                {
                    return Ok(Some(conflict));
                }
            }
        }
        Ok(None)
    }

    /// Visits the learned clauses watching `false_lit`, which just turned false.
    pub(super) fn propagate_clauses<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        false_lit: Lit,
    ) -> Result<Option<Conflict>, Interrupted> {
        if self.watches[false_lit as usize].is_empty() {
            return Ok(None);
        }
        let mut watching = std::mem::take(&mut self.watches[false_lit as usize]);
        let mut kept = 0;
        let mut result = None;
        let mut index = 0;
        while index < watching.len() {
            let watch = watching[index];
            index += 1;
            if self.lit_value(watch.blocker) == 1 {
                watching[kept] = watch;
                kept += 1;
                continue;
            }
            let c = watch.clause;
            match self.visit(c, false_lit) {
                Visit::Gone | Visit::Moved => continue,
                Visit::Satisfied(first) => {
                    watching[kept] = Watch {
                        clause: c,
                        blocker: first,
                    };
                    kept += 1;
                    continue;
                }
                Visit::Falsified => {
                    watching[kept] = watch;
                    kept += 1;
                    result = Some(Conflict::Clause(c));
                    break;
                }
                Visit::Unit(first) => {
                    watching[kept] = watch;
                    kept += 1;
                    if let Some(conflict) = self.assign(recorder, first, Why::Clause(c))? {
                        result = Some(conflict);
                        break;
                    }
                }
            }
        }
        // The watches not visited stay.
        while index < watching.len() {
            watching[kept] = watching[index];
            kept += 1;
            index += 1;
        }
        watching.truncate(kept);
        let appended = std::mem::replace(&mut self.watches[false_lit as usize], watching);
        self.watches[false_lit as usize].extend(appended);
        Ok(result)
    }

    /// Looks at learned clause `c`, whose watched `false_lit` just turned
    /// false: satisfied, watching another literal now, or forcing (or
    /// contradicting) its first.
    fn visit(&mut self, c: u32, false_lit: Lit) -> Visit {
        let value = |lit: Lit, values: &[i8]| {
            let v = values[var(lit)];
            if lit & 1 == 0 { v } else { -v }
        };
        if self.clauses.is_gone(c) {
            return Visit::Gone;
        }
        let values = &self.value;
        let lits = self.clauses.lits_mut(c);
        if lits[0] == false_lit {
            lits.swap(0, 1);
        }
        let first = lits[0];
        let first_value = value(first, values);
        if first_value == 1 {
            return Visit::Satisfied(first);
        }
        // A new literal to watch: one not false.
        if let Some(k) = (2..lits.len()).find(|&k| value(lits[k], values) != -1) {
            lits.swap(1, k);
            let new = lits[1];
            self.watches[new as usize].push(Watch {
                clause: c,
                blocker: first,
            });
            return Visit::Moved;
        }
        if first_value == -1 {
            Visit::Falsified
        } else {
            Visit::Unit(first)
        }
    }
}

/// What a learned clause is when one of its watched literals turns false.
enum Visit {
    /// Forgotten: its watch goes.
    Gone,
    /// Its other watched literal is true.
    Satisfied(Lit),
    /// It watches another literal now.
    Moved,
    /// Every literal false.
    Falsified,
    /// Every literal false but the first, which it forces.
    Unit(Lit),
}
