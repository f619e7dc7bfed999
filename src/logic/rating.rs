//! Ratings on the Sudoku Explainer scale: the rating of the hardest step a
//! logical solve needs, the technique that set it, how often each technique was
//! used, and the level name Sudoku Explainer's generator gives that range. Knows
//! nothing of how steps are found.

use super::{Explanation, LogicStep, Technique};

/// The least rating of a puzzle the ladder cannot finish (the hardest step
/// taken counts when higher): where Sudoku Explainer's nested forcing chains
/// begin. On 9x9 even the nested levels found nothing; on the other shapes,
/// which have no nested levels yet, the dynamic ones.
pub const BEYOND_LADDER: f64 = 9.5;

/// Difficulty levels by rating, as Sudoku Explainer's generator presets name
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// 1.0 to 1.2: hidden singles in boxes.
    Easy,
    /// 1.3 to 1.6: hidden singles in lines.
    Medium,
    /// 1.7 to 2.5: the direct forms and naked singles.
    Hard,
    /// 2.6 to 6.0: intersections, subsets, fish, wings, uniqueness.
    Fiendish,
    /// Above 6.0: chains and beyond.
    Diabolical,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Fiendish,
        Level::Diabolical,
    ];

    /// The level of a rating.
    pub fn of(rating: f64) -> Level {
        Level::ALL
            .into_iter()
            .find(|level| rating <= level.range().1 + 1e-9)
            .unwrap_or(Level::Diabolical)
    }

    /// The ratings of the level, lowest and highest.
    pub fn range(self) -> (f64, f64) {
        match self {
            Level::Easy => (1.0, 1.2),
            Level::Medium => (1.3, 1.6),
            Level::Hard => (1.7, 2.5),
            Level::Fiendish => (2.6, 6.0),
            Level::Diabolical => (6.1, 20.0),
        }
    }

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Fiendish => "fiendish",
            Level::Diabolical => "diabolical",
        }
    }

    /// The level named `name`, if any.
    pub fn named(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name() == name)
    }
}

/// The ratings a caller wants, lowest and highest, both included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingRange {
    /// The lowest rating wanted.
    pub low: f64,
    /// The highest rating wanted.
    pub high: f64,
}

impl RatingRange {
    /// Every rating.
    pub const ANY: RatingRange = RatingRange {
        low: 0.0,
        high: f64::MAX,
    };

    /// Whether `rating` is in the range (ratings are tenths: a hair of slack).
    pub fn contains(self, rating: f64) -> bool {
        rating >= self.low - 1e-9 && rating <= self.high + 1e-9
    }

    /// The range of a level.
    pub fn of(level: Level) -> RatingRange {
        let (low, high) = level.range();
        RatingRange { low, high }
    }

    /// The ratings from `low` to `high`, or from `low` up when `high` is
    /// `None`: each bound a number from 0 up, the low one not above the high.
    pub fn between(low: f64, high: Option<f64>) -> Result<RatingRange, BadRange> {
        for (is_high, value) in [(false, Some(low)), (true, high)] {
            if let Some(value) = value
                && !(value.is_finite() && value >= 0.0)
            {
                return Err(BadRange::NotARating {
                    high: is_high,
                    value,
                });
            }
        }
        let high = high.unwrap_or(f64::MAX);
        if low > high {
            return Err(BadRange::Reversed);
        }
        Ok(RatingRange { low, high })
    }
}

/// Why two bounds make no [`RatingRange`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BadRange {
    /// A bound (the high one when `high`) that is no number from 0 up.
    NotARating { high: bool, value: f64 },
    /// The low bound is above the high one.
    Reversed,
}

/// How often a solve used a technique, and its hardest step's rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TechniqueCount {
    /// The technique.
    pub technique: Technique,
    /// Its steps in the solve.
    pub count: u32,
    /// The highest rating of those steps.
    pub hardest: f64,
}

/// A puzzle's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// The rating: the hardest step's, or [`BEYOND_LADDER`] (at least) when the
    /// ladder could not finish.
    pub value: f64,
    /// The technique of the hardest step; `None` when the ladder could not
    /// finish or no step was needed.
    pub technique: Option<Technique>,
    /// How many steps of each technique the solve used, in ladder order.
    pub counts: Vec<TechniqueCount>,
    /// False when the ladder ran out of techniques before the puzzle was solved.
    pub solved: bool,
    /// Sudoku Explainer's EP (the pearl): the hardest step up to and including
    /// the first that places a digit; the rating when the ladder ran out first.
    pub pearl: f64,
    /// Sudoku Explainer's ED (the diamond): the first step's rating; the
    /// rating when the ladder found no step.
    pub diamond: f64,
}

impl Rating {
    /// The rating of a logical solve.
    pub fn of(explanation: &Explanation) -> Rating {
        let mut counts: Vec<TechniqueCount> = Vec::new();
        let mut hardest: Option<&LogicStep> = None;
        let (mut pearl, mut diamond) = (None, None);
        for step in &explanation.steps {
            match counts
                .iter_mut()
                .find(|known| known.technique == step.technique)
            {
                Some(known) => {
                    known.count += 1;
                    known.hardest = known.hardest.max(step.rating);
                }
                None => counts.push(TechniqueCount {
                    technique: step.technique,
                    count: 1,
                    hardest: step.rating,
                }),
            }
            if hardest.is_none_or(|hardest| step.rating > hardest.rating) {
                hardest = Some(step);
            }
            // As Sudoku Explainer takes them: the highest rating so far, after
            // the first step and after the first that places a digit.
            let so_far = hardest.map_or(0.0, |step| step.rating);
            diamond = diamond.or(Some(so_far));
            if pearl.is_none() && !step.placements.is_empty() {
                pearl = Some(so_far);
            }
        }
        counts.sort_by_key(|known| known.technique);
        let solved = explanation.solved();
        let value = match (solved, hardest) {
            (true, Some(hardest)) => hardest.rating,
            (true, None) => 0.0,
            (false, hardest) => hardest.map_or(0.0, |step| step.rating).max(BEYOND_LADDER),
        };
        Rating {
            value,
            technique: hardest.filter(|_| solved).map(|step| step.technique),
            counts,
            solved,
            pearl: pearl.unwrap_or(value),
            diamond: diamond.unwrap_or(value),
        }
    }

    /// The level of the rating.
    pub fn level(&self) -> Level {
        Level::of(self.value)
    }
}

impl Explanation {
    /// The rating of the solve.
    pub fn rating(&self) -> Rating {
        Rating::of(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explanation(steps: Vec<LogicStep>, solved: bool) -> Explanation {
        Explanation {
            steps,
            end: vec![u8::from(solved); 81],
        }
    }

    #[test]
    fn the_diamond_is_the_first_step_and_the_pearl_the_hardest_up_to_the_first_placement() {
        let remove = |technique| LogicStep::eliminating(technique, vec![(0, 1)], vec![(1, 1)]);
        let place = |technique| LogicStep::placing(technique, (2, 3));
        let rated = explanation(
            vec![
                remove(Technique::Pointing),
                remove(Technique::XWing),
                remove(Technique::NakedPair),
                place(Technique::HiddenSingleBox),
                remove(Technique::XWing),
                place(Technique::FullHouse),
            ],
            true,
        )
        .rating();
        let (pointing, x_wing) = (Technique::Pointing.rating(), Technique::XWing.rating());
        assert!(pointing < x_wing);
        assert_eq!(
            (rated.value, rated.pearl, rated.diamond),
            (x_wing, x_wing, pointing)
        );
        // A single first: all three from the start.
        let easy = explanation(
            vec![place(Technique::HiddenSingleBox), remove(Technique::XWing)],
            true,
        )
        .rating();
        let single = Technique::HiddenSingleBox.rating();
        assert_eq!(
            (easy.value, easy.pearl, easy.diamond),
            (x_wing, single, single)
        );
    }

    #[test]
    fn past_the_ladder_the_pearl_and_diamond_are_the_rating_until_reached() {
        let stuck = explanation(
            vec![LogicStep::eliminating(
                Technique::XWing,
                vec![(0, 1)],
                vec![(1, 1)],
            )],
            false,
        )
        .rating();
        assert_eq!(stuck.value, BEYOND_LADDER);
        assert_eq!(
            (stuck.pearl, stuck.diamond),
            (BEYOND_LADDER, Technique::XWing.rating())
        );
        let nothing = explanation(Vec::new(), false).rating();
        assert_eq!(
            (nothing.pearl, nothing.diamond),
            (BEYOND_LADDER, BEYOND_LADDER)
        );
    }

    #[test]
    fn a_range_needs_ratings_from_0_up_the_lowest_first() {
        assert_eq!(RatingRange::between(0.0, None), Ok(RatingRange::ANY));
        assert_eq!(
            RatingRange::between(2.0, Some(2.0)),
            Ok(RatingRange {
                low: 2.0,
                high: 2.0
            })
        );
        assert_eq!(
            RatingRange::between(3.0, Some(2.0)),
            Err(BadRange::Reversed)
        );
        assert_eq!(
            RatingRange::between(-1.0, None),
            Err(BadRange::NotARating {
                high: false,
                value: -1.0
            })
        );
        assert!(matches!(
            RatingRange::between(1.0, Some(f64::NAN)),
            Err(BadRange::NotARating { high: true, .. })
        ));
    }

    #[test]
    fn levels_follow_the_generator_presets_ranges() {
        let cases = [
            (1.0, Level::Easy),
            (1.2, Level::Easy),
            (1.5, Level::Medium),
            (1.7, Level::Hard),
            (2.3, Level::Hard),
            (2.6, Level::Fiendish),
            (6.0, Level::Fiendish),
            (6.6, Level::Diabolical),
            (11.4, Level::Diabolical),
        ];
        for (rating, level) in cases {
            assert_eq!(Level::of(rating), level, "{rating}");
        }
        for level in Level::ALL {
            assert_eq!(Level::named(level.name()), Some(level));
            assert_eq!(
                RatingRange::between(level.range().0, Some(level.range().1)),
                Ok(RatingRange::of(level))
            );
        }
    }
}
