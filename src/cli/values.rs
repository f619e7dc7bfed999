//! Values of the command line that are more than clap's plain types: a pace in
//! steps a second, and the algorithm, symmetry and level names, taken from the
//! engine's own names so they are defined once (any case is accepted).

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::board::Shape;
use crate::generate::Symmetry;
use crate::logic::Level;
use crate::solver::Algorithm;

/// A `--pace`: steps a second, from 0 (unpaced) to 1,000 (a step each
/// millisecond, the finest a stream's `step_interval_ms` goes).
pub(super) fn steps_a_second(text: &str) -> Result<f64, String> {
    let pace: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is no number of steps a second"))?;
    if !(0.0..=1000.0).contains(&pace) {
        return Err(format!(
            "{text} steps a second is out of range: 0 (unpaced) to 1000"
        ));
    }
    Ok(pace)
}

/// A `--box`: a box's rows and columns, `ROWSxCOLS` (`2x3` for 6x6, `4x4` for
/// 16x16), in the limits of [`Shape::new`].
pub(super) fn box_shape(text: &str) -> Result<Shape, String> {
    let (rows, cols) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{text:?} is no box: write ROWSxCOLS, as 2x3 or 4x4"))?;
    let number = |part: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| format!("{text:?} is no box: write ROWSxCOLS, as 2x3 or 4x4"))
    };
    Shape::new(number(rows)?, number(cols)?).map_err(|error| error.to_string())
}

/// An algorithm on the command line: `default` or one of the engine's own names
/// ([`Algorithm::name`]), so the names are defined once, in the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct AlgorithmArg(pub(super) Option<Algorithm>);

impl AlgorithmArg {
    /// `default`: what `ALGORITHM_UNSPECIFIED` picks.
    pub(super) const DEFAULT: AlgorithmArg = AlgorithmArg(None);
    const ALL: [AlgorithmArg; 6] = [
        AlgorithmArg(None),
        AlgorithmArg(Some(Algorithm::ALL[0])),
        AlgorithmArg(Some(Algorithm::ALL[1])),
        AlgorithmArg(Some(Algorithm::ALL[2])),
        AlgorithmArg(Some(Algorithm::ALL[3])),
        AlgorithmArg(Some(Algorithm::ALL[4])),
    ];

    /// The engine this names (at 9x9).
    pub(super) fn engine(self) -> Algorithm {
        self.0.unwrap_or(Algorithm::DEFAULT)
    }

    /// The engine this names at `shape`: `default` is the fastest for it.
    pub(super) fn engine_for(self, shape: Shape) -> Algorithm {
        self.0.unwrap_or_else(|| Algorithm::default_for(shape))
    }
}

impl ValueEnum for AlgorithmArg {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self.0 {
            None => PossibleValue::new("default")
                .help("The fastest engine for the size (what ALGORITHM_UNSPECIFIED picks)."),
            Some(algorithm) => PossibleValue::new(algorithm.name()).help(algorithm.summary()),
        })
    }
}

/// A symmetry on the command line, by the generator's own names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SymmetryArg(pub(super) Symmetry);

impl SymmetryArg {
    /// The generator's symmetry.
    pub(super) fn engine(self) -> Symmetry {
        self.0
    }
}

impl ValueEnum for SymmetryArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [SymmetryArg; 5] = [
            SymmetryArg(Symmetry::ALL[0]),
            SymmetryArg(Symmetry::ALL[1]),
            SymmetryArg(Symmetry::ALL[2]),
            SymmetryArg(Symmetry::ALL[3]),
            SymmetryArg(Symmetry::ALL[4]),
        ];
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()))
    }
}

/// A level on the command line, by the rating's own level names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LevelArg(pub(super) Level);

impl ValueEnum for LevelArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [LevelArg; 5] = [
            LevelArg(Level::ALL[0]),
            LevelArg(Level::ALL[1]),
            LevelArg(Level::ALL[2]),
            LevelArg(Level::ALL[3]),
            LevelArg(Level::ALL[4]),
        ];
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let (low, high) = self.0.range();
        Some(PossibleValue::new(self.0.name()).help(format!("ratings {low:.1} to {high:.1}")))
    }
}
