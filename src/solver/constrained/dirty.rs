//! Which houses changed since each round of propagation last looked at them:
//! one set of houses (a [`Houses`]) for each round that looks at changed
//! houses only (a [`Lane`]), marked together when a cell changes, cleared by
//! each round on its own, and kept with every guess. The rounds that look at
//! one digit at a time keep, for each house, the digits whose places in it
//! changed (a [`Moved`]), made again from their lanes when a guess is undone.

/// Houses past this many share their bits (a shared bit only means a house
/// may be looked at more often, or after an undone guess less: propagation
/// stays sound, if weaker).
const BITS: usize = 256;

/// Words of one set.
const WORDS: usize = BITS / 64;

/// The rounds that each keep their own set of changed houses.
#[derive(Clone, Copy)]
pub(super) enum Lane {
    Singles,
    Crossings,
    Pointing,
    Deductions,
    Hall,
}

/// How many lanes there are.
const LANES: usize = 5;

/// A set of houses, by number modulo [`BITS`].
#[derive(Clone, Copy, Default)]
pub(in crate::solver) struct Houses([u64; WORDS]);

impl Houses {
    /// The set of `houses`.
    pub(super) fn of(houses: &[u16]) -> Houses {
        let mut set = Houses::default();
        for &house in houses {
            let bit = usize::from(house) % BITS;
            set.0[bit / 64] |= 1 << (bit % 64);
        }
        set
    }

    /// True when `house` is in the set.
    pub(super) fn has(&self, house: usize) -> bool {
        let bit = house % BITS;
        self.0[bit / 64] >> (bit % 64) & 1 == 1
    }
}

/// The changed houses of every lane.
#[derive(Clone, Copy)]
pub(in crate::solver) struct Dirty([Houses; LANES]);

impl Dirty {
    /// Every house changed, in every lane.
    pub(super) fn all() -> Dirty {
        Dirty([Houses([u64::MAX; WORDS]); LANES])
    }

    /// Marks `houses` as changed in every lane.
    pub(super) fn mark(&mut self, houses: &Houses) {
        for lane in &mut self.0 {
            for (word, &bits) in lane.0.iter_mut().zip(&houses.0) {
                *word |= bits;
            }
        }
    }

    /// True when `house` changed since `lane` last looked at it.
    pub(super) fn has(&self, lane: Lane, house: usize) -> bool {
        self.0[lane as usize].has(house)
    }

    /// Marks `house` as looked at by `lane`.
    pub(super) fn clean(&mut self, lane: Lane, house: usize) {
        let bit = house % BITS;
        self.0[lane as usize].0[bit / 64] &= !(1 << (bit % 64));
    }

    /// The houses changed since `lane` last looked, all marked as looked at.
    pub(super) fn take(&mut self, lane: Lane) -> Houses {
        std::mem::take(&mut self.0[lane as usize])
    }

    /// Marks `houses` as changed again in `lane` (a round that stopped
    /// early gives back what it took).
    pub(super) fn give_back(&mut self, lane: Lane, houses: &Houses) {
        for (word, &bits) in self.0[lane as usize].0.iter_mut().zip(&houses.0) {
            *word |= bits;
        }
    }
}

/// The digits whose places in one house changed since each of the rounds
/// that look at digits (house pointing, the rules' deductions) last looked.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Moved {
    pub(super) pointing: u64,
    pub(super) deductions: u64,
}

impl Moved {
    /// Every digit of `all` moved in the rounds whose lane has `house`
    /// changed in `dirty`, none in the others: a grid given back its
    /// candidates at a guess had the rest looked at already.
    pub(super) fn from_lanes(dirty: &Dirty, house: usize, all: u64) -> Moved {
        let of = |lane| if dirty.has(lane, house) { all } else { 0 };
        Moved {
            pointing: of(Lane::Pointing),
            deductions: of(Lane::Deductions),
        }
    }
}
