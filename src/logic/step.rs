//! What a logical step is: the technique (with its rating on the Sudoku Explainer
//! scale), the candidates that form its pattern, and what it places or
//! eliminates. Knows nothing of how steps are found.

use crate::board::{Cell, CellAt};

/// The techniques of the ladder, easiest first, with Sudoku Explainer's
/// ratings. The variants' own techniques (thermometer, non-consecutive, cage
/// combination, innies and outies) have none there: they are rated here
/// among the simple ones, where the community places them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a row, column or box.
    FullHouse,
    /// The last place of a digit in a box.
    HiddenSingleBox,
    /// The last place of a digit in a row or column (or a variant's other
    /// houses: diagonals, windows, extra regions, cages of N cells).
    HiddenSingleLine,
    /// Variants: digits rise along a thermometer, so each cell holds more
    /// than the least its bulb side can and less than the most its tip side can.
    Thermometer,
    /// Variants: orthogonal neighbours differ by more than one, so a cell
    /// whose every candidate is within one of a digit takes it from them.
    NonConsecutive,
    /// Pointing whose eliminations leave a hidden single, placed at once.
    DirectPointing,
    /// Claiming whose eliminations leave a hidden single, placed at once.
    DirectClaiming,
    /// A hidden pair whose eliminations leave a hidden single, placed at once.
    DirectHiddenPair,
    /// Killer: the digits a cage's sum leaves its cells, or a digit every
    /// filling of a cage uses, taken from the cells that see all its places.
    CageCombination,
    /// Killer: innies and outies of a house or a run of rows or columns (the
    /// 45 rule): the cells its whole cages leave over, or those of cages
    /// sticking out of it, add up to a known sum.
    InniesOuties,
    /// The last candidate of a cell.
    NakedSingle,
    /// A hidden triple whose eliminations leave a hidden single, placed at once.
    DirectHiddenTriple,
    /// A box's candidates for a digit all in one row or column: the rest of that
    /// line loses the digit.
    Pointing,
    /// A row's or column's candidates for a digit all in one box: the rest of that
    /// box loses the digit.
    Claiming,
    /// Two cells of a unit holding the same two candidates.
    NakedPair,
    /// A digit in two rows (columns) confined to the same two columns (rows).
    XWing,
    /// Two digits of a unit confined to the same two cells.
    HiddenPair,
    /// Three cells of a unit holding three candidates between them.
    NakedTriple,
    /// X-Wing over three lines.
    Swordfish,
    /// Three digits of a unit confined to the same three cells.
    HiddenTriple,
    /// Two strong links in parallel lines joined across them.
    Skyscraper,
    /// A strong link in a row and one in a column, joined in a box.
    TwoStringKite,
    /// A two-candidate pivot and two pincers that force a digit out of the
    /// cells seeing both pincers.
    XyWing,
    /// An XY-Wing whose pivot also holds the forced digit.
    XyzWing,
    /// Four cells of a unit holding four candidates between them.
    NakedQuad,
    /// X-Wing over four lines.
    Jellyfish,
    /// Four digits of a unit confined to the same four cells.
    HiddenQuad,
    /// A rectangle of {a, b} cells but one, which loses a and b (type 1).
    UniqueRectangle,
    /// A rectangle whose cells with more hold one same digit besides: the
    /// cells seeing them all lose it.
    UniqueRectangleType2,
    /// A rectangle whose two cells with more make a naked or hidden set in a
    /// house they share.
    UniqueRectangleType3,
    /// A rectangle whose two cells with more hold one of a and b between
    /// them only, in a house they share: neither holds the other.
    UniqueRectangleType4,
    /// A loop of six cells or more, each house it enters entered twice, of
    /// {a, b} cells but one, which loses a and b.
    UniqueLoop,
    /// A unique loop's type 2 (see the rectangle's).
    UniqueLoopType2,
    /// A unique loop's type 3.
    UniqueLoopType3,
    /// A unique loop's type 4.
    UniqueLoopType4,
    /// Every cell bivalue and every digit twice in each house but one cell's
    /// digits: that cell holds one of them (BUG type 1).
    BugPlusOne,
    /// A BUG whose cells breaking it share their one BUG value: the cells
    /// seeing them all lose it.
    BugType2,
    /// A BUG whose values make a naked set with other cells of a house.
    BugType3,
    /// Two BUG cells in one house sharing one other digit: each loses its
    /// last digit.
    BugType4,
    /// Two cells whose pairs of digits the bivalue cells seeing both (or
    /// their seeing each other) exclude.
    AlignedPairExclusion,
    /// Three cells whose choices of digits the cells of two or three digits
    /// seeing all three (or their seeing each other) exclude.
    AlignedTripletExclusion,
    /// A loop of one digit's links that holds both ways round.
    BidirectionalXCycle,
    /// A loop of bivalue cells that holds both ways round.
    BidirectionalYCycle,
    /// A candidate whose assumption forces its opposite by one digit's links
    /// as the grid stands.
    ForcingXChain,
    /// A loop of links of both kinds that holds both ways round.
    BidirectionalCycle,
    /// A candidate whose assumption forces its opposite by links of both
    /// kinds as the grid stands.
    ForcingChain,
    /// A candidate whose assumption, by its digit's singles as they arise,
    /// breaks a unit.
    NishioForcingChain,
    /// What every digit of a cell implies alike, by the links as the grid
    /// stands.
    CellForcingChain,
    /// What every place of a digit in a house implies alike, by the links as
    /// the grid stands.
    RegionForcingChain,
    /// A candidate whose assumption, by singles as they arise, breaks the grid.
    DynamicForcingChain,
    /// A candidate whose assumption, by singles and locked candidates as they
    /// arise, breaks the grid.
    DynamicForcingChainPlus,
    /// A candidate whose assumption, by singles, locked candidates and the
    /// static chains of the grid as it changes, breaks the grid.
    NestedForcingChain,
    /// A candidate whose assumption, by all a nested forcing chain's trial
    /// uses and the static cell and region forcing chains of the grid as it
    /// changes, breaks the grid.
    NestedMultipleForcingChain,
    /// A candidate whose assumption, by all the above and the dynamic forcing
    /// chains of the grid as it changes, breaks the grid.
    NestedDynamicForcingChain,
}

impl Technique {
    /// Every technique of the ladder, in the order the solver tries them.
    pub const LADDER: [Technique; 52] = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::Thermometer,
        Technique::NonConsecutive,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::CageCombination,
        Technique::InniesOuties,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::UniqueRectangleType2,
        Technique::UniqueRectangleType3,
        Technique::UniqueRectangleType4,
        Technique::UniqueLoop,
        Technique::UniqueLoopType2,
        Technique::UniqueLoopType3,
        Technique::UniqueLoopType4,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::BugPlusOne,
        Technique::BugType2,
        Technique::BugType4,
        Technique::BugType3,
        Technique::AlignedPairExclusion,
        Technique::AlignedTripletExclusion,
        Technique::BidirectionalXCycle,
        Technique::BidirectionalYCycle,
        Technique::ForcingXChain,
        Technique::BidirectionalCycle,
        Technique::ForcingChain,
        Technique::NishioForcingChain,
        Technique::CellForcingChain,
        Technique::RegionForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::NestedMultipleForcingChain,
        Technique::NestedDynamicForcingChain,
    ];

    /// The rating of a step of this technique on the Sudoku Explainer scale.
    pub fn rating(self) -> f64 {
        match self {
            Technique::FullHouse => 1.0,
            Technique::HiddenSingleBox => 1.2,
            Technique::HiddenSingleLine => 1.5,
            Technique::Thermometer => 1.6,
            Technique::NonConsecutive => 1.6,
            Technique::DirectPointing => 1.7,
            Technique::DirectClaiming => 1.9,
            Technique::DirectHiddenPair => 2.0,
            Technique::CageCombination => 2.1,
            Technique::InniesOuties => 2.2,
            Technique::NakedSingle => 2.3,
            Technique::DirectHiddenTriple => 2.5,
            Technique::Pointing => 2.6,
            Technique::Claiming => 2.8,
            Technique::NakedPair => 3.0,
            Technique::XWing => 3.2,
            Technique::HiddenPair => 3.4,
            Technique::NakedTriple => 3.6,
            Technique::Swordfish => 3.8,
            Technique::HiddenTriple => 4.0,
            Technique::Skyscraper => 4.0,
            Technique::TwoStringKite => 4.1,
            Technique::XyWing => 4.2,
            Technique::XyzWing => 4.4,
            Technique::NakedQuad => 5.0,
            Technique::Jellyfish => 5.2,
            Technique::HiddenQuad => 5.4,
            Technique::UniqueRectangle
            | Technique::UniqueRectangleType2
            | Technique::UniqueRectangleType3
            | Technique::UniqueRectangleType4 => 4.5,
            Technique::UniqueLoop
            | Technique::UniqueLoopType2
            | Technique::UniqueLoopType3
            | Technique::UniqueLoopType4 => 4.6,
            Technique::BugPlusOne => 5.6,
            Technique::BugType2 | Technique::BugType4 => 5.7,
            Technique::BugType3 => 5.8,
            Technique::AlignedPairExclusion => 6.2,
            Technique::AlignedTripletExclusion => 7.5,
            Technique::BidirectionalXCycle => 6.5,
            Technique::BidirectionalYCycle => 6.5,
            Technique::ForcingXChain => 6.6,
            Technique::BidirectionalCycle => 7.0,
            Technique::ForcingChain => 7.0,
            Technique::NishioForcingChain => 7.5,
            Technique::CellForcingChain => 8.0,
            Technique::RegionForcingChain => 8.0,
            Technique::DynamicForcingChain => 8.5,
            Technique::DynamicForcingChainPlus => 9.0,
            Technique::NestedForcingChain => 9.5,
            Technique::NestedMultipleForcingChain => 10.0,
            Technique::NestedDynamicForcingChain => 10.5,
        }
    }

    /// The technique's name as the API and the command line give it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::HiddenSingleBox => "hidden single (box)",
            Technique::HiddenSingleLine => "hidden single (row or column)",
            Technique::Thermometer => "thermometer",
            Technique::NonConsecutive => "non-consecutive",
            Technique::DirectPointing => "direct pointing",
            Technique::DirectClaiming => "direct claiming",
            Technique::DirectHiddenPair => "direct hidden pair",
            Technique::CageCombination => "cage combination",
            Technique::InniesOuties => "innies and outies",
            Technique::NakedSingle => "naked single",
            Technique::DirectHiddenTriple => "direct hidden triple",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "2-string kite",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::UniqueRectangle => "unique rectangle",
            Technique::UniqueRectangleType2 => "unique rectangle type 2",
            Technique::UniqueRectangleType3 => "unique rectangle type 3",
            Technique::UniqueRectangleType4 => "unique rectangle type 4",
            Technique::UniqueLoop => "unique loop",
            Technique::UniqueLoopType2 => "unique loop type 2",
            Technique::UniqueLoopType3 => "unique loop type 3",
            Technique::UniqueLoopType4 => "unique loop type 4",
            Technique::BugPlusOne => "bug+1",
            Technique::BugType2 => "bug type 2",
            Technique::BugType3 => "bug type 3",
            Technique::BugType4 => "bug type 4",
            Technique::AlignedPairExclusion => "aligned pair exclusion",
            Technique::AlignedTripletExclusion => "aligned triplet exclusion",
            Technique::BidirectionalXCycle => "bidirectional x-cycle",
            Technique::BidirectionalYCycle => "bidirectional y-cycle",
            Technique::ForcingXChain => "forcing x-chain",
            Technique::BidirectionalCycle => "bidirectional cycle",
            Technique::ForcingChain => "forcing chain",
            Technique::NishioForcingChain => "nishio forcing chain",
            Technique::CellForcingChain => "cell forcing chains",
            Technique::RegionForcingChain => "region forcing chains",
            Technique::DynamicForcingChain => "dynamic forcing chain",
            Technique::DynamicForcingChainPlus => "dynamic forcing chain (+)",
            Technique::NestedForcingChain => "nested forcing chain",
            Technique::NestedMultipleForcingChain => "nested multiple forcing chain",
            Technique::NestedDynamicForcingChain => "nested dynamic forcing chain",
        }
    }
}

/// A candidate: a digit in a cell.
pub type Candidate = (Cell, u8);

/// One step of a logical solve.
#[derive(Debug, Clone, PartialEq)]
pub struct LogicStep {
    /// The technique that found it.
    pub technique: Technique,
    /// Its rating: the technique's, plus a complexity modifier for the
    /// techniques that have one (the length of a chain).
    pub rating: f64,
    /// The candidates that form the pattern.
    pub pattern: Vec<Candidate>,
    /// The digits it places.
    pub placements: Vec<Candidate>,
    /// The candidates it removes.
    pub eliminations: Vec<Candidate>,
    /// The links of a chain step, in the chain's order; empty for other steps.
    pub links: Vec<Link>,
}

/// One link of a chain. Strong: `start` false makes `end` true (the only two
/// places of a digit in a house, or the only two digits of a cell, where the
/// chain stands); weak: `start` true makes `end` false (they see each other, or
/// share a cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub start: Candidate,
    pub end: Candidate,
    pub strong: bool,
}

impl LogicStep {
    /// A step that only eliminates.
    pub fn eliminating(
        technique: Technique,
        pattern: Vec<Candidate>,
        eliminations: Vec<Candidate>,
    ) -> LogicStep {
        LogicStep {
            technique,
            rating: technique.rating(),
            pattern,
            placements: Vec::new(),
            eliminations,
            links: Vec::new(),
        }
    }

    /// A step that places one digit, the pattern it rests on.
    pub fn placing(technique: Technique, candidate: Candidate) -> LogicStep {
        LogicStep {
            technique,
            rating: technique.rating(),
            pattern: vec![candidate],
            placements: vec![candidate],
            eliminations: Vec::new(),
            links: Vec::new(),
        }
    }
}

impl LogicStep {
    /// The step as a player reads it, its cells named on a grid `side` cells
    /// wide: `naked pair: remove r1c3=4 r1c7=4`.
    pub fn describe(&self, side: usize) -> String {
        let list = |candidates: &[Candidate]| {
            candidates
                .iter()
                .map(|&(cell, digit)| format!("{}={digit}", CellAt { cell, side }))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut text = self.technique.name().to_owned();
        if !self.placements.is_empty() {
            text += &format!(": place {}", list(&self.placements));
        }
        if !self.eliminations.is_empty() {
            text += &format!(": remove {}", list(&self.eliminations));
        }
        text
    }
}

impl LogicStep {
    /// The step's links as text, one branch after another (`; ` between them),
    /// ` - ` for a weak link and ` = ` for a strong one:
    /// `r5c2=5 - r6c2=5 = r6c2=1 - r6c5=1`; empty for a step without links.
    pub fn chain_text(&self, side: usize) -> String {
        let name = |(cell, digit): Candidate| format!("{}={digit}", CellAt { cell, side });
        let mut text = String::new();
        let mut at: Option<Candidate> = None;
        for link in &self.links {
            if at != Some(link.start) {
                if at.is_some() {
                    text += "; ";
                }
                text += &name(link.start);
            }
            text += if link.strong { " = " } else { " - " };
            text += &name(link.end);
            at = Some(link.end);
        }
        text
    }
}

impl std::fmt::Display for LogicStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(9))
    }
}
