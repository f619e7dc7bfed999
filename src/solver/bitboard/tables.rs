//! The lookup tables of the band rule (triads, matchings, peers, columns),
//! computed at compile time, and the table index of a board's triads.
//! Knows nothing of the search: pure functions of a band.

use super::spread_columns;

/// The 9 triads of a band's board as a table index: bit `box * 3 + row` is set when
/// any of the three cells that row shares with that box is a candidate. Bit
/// arithmetic only, no lookup: the board's latency chain is the band rule's cost.
#[inline(always)]
pub(super) fn triads_of(board: u32) -> usize {
    // Bit `row * 9 + box * 3` of `any`: the triad holds a candidate.
    let any = (board | board >> 1 | board >> 2) & 0x124_9249;
    ((any & 0x49) | (any >> 8 & 0x92) | (any >> 16 & 0x124)) as usize
}

/// The same 9 triads laid out row-major (bit `row * 3 + box`), with one `PEXT`
/// (BMI2) instead of `triads_of`'s shifts: the bits `row * 9 + box * 3` of `any`
/// are in that order already.
///
/// # Safety
/// The CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) unsafe fn triads_by_row(board: u32) -> usize {
    // SAFETY: the caller's (the CPU has BMI2).
    let triads =
        unsafe { std::arch::x86_64::_pext_u32(board | board >> 1 | board >> 2, 0o111_111_111) };
    triads as usize & 511
}

/// The band rule on a board, from its triads: the cells of the triads that fit a
/// row-to-box matching, and those of the kept triads that are their row's only
/// one (`BandRule`). With `V3`, the triads are read with `triads_by_row`.
///
/// `V3` is true only in code compiled for x86-64-v3 (`search_v3`, entered when the
/// CPU has its features: `Isa::V3`).
#[inline(always)]
pub(super) fn band_rule<const V3: bool>(board: u32) -> (u32, u32) {
    #[cfg(target_arch = "x86_64")]
    if V3 {
        // SAFETY: with `V3` the CPU has BMI2 (above).
        let triads = unsafe { triads_by_row(board) };
        return (
            TABLES.by_row.kept_cells[triads],
            TABLES.by_row.lone_triads[triads],
        );
    }
    let triads = triads_of(board);
    (
        TABLES.by_box.kept_cells[triads],
        TABLES.by_box.lone_triads[triads],
    )
}

/// The bits of `bits` with no other bit set in their group of three (bits `3k` to
/// `3k + 2`, nine groups). On a band's board: the cells alone in their triad (the
/// three cells a row shares with a box), by bit arithmetic on the board alone,
/// beside the table lookups rather than after them. The tables use it on groups of
/// triads (a row's three) and of columns (a stack's three).
#[inline(always)]
pub(super) const fn alone_in_threes(bits: u32) -> u32 {
    /// Bit 0, 1 and 2 of every group.
    const FIRST: u32 = 0o111_111_111;
    const SECOND: u32 = FIRST << 1;
    const THIRD: u32 = FIRST << 2;
    let others = (bits >> 1 & (FIRST | SECOND))
        | (bits << 1 & (SECOND | THIRD))
        | (bits >> 2 & FIRST)
        | (bits << 2 & THIRD);
    bits & !others
}

/// The band rule's tables for one layout of the triad bits (the index).
pub(super) struct BandRule {
    /// 9 triad bits -> the cells of the triads that fit some row-to-box matching
    /// (the matching and its cells in one lookup).
    pub(super) kept_cells: [u32; 512],
    /// The same index -> the cells of the kept triads that are their row's only
    /// kept triad (a cell alone in such a triad is its row's one candidate).
    pub(super) lone_triads: [u32; 512],
}

/// Lookup tables, computed at compile time.
pub(super) struct Tables {
    /// The band rule indexed as `triads_of` lays the triads out (box-major).
    pub(super) by_box: BandRule,
    /// The band rule indexed row-major (`triads_by_row`).
    pub(super) by_row: BandRule,
    /// For each cell of a band: its peers in the band (row, box, column), itself not
    /// included.
    pub(super) peers: [u32; 32],
    /// For each cell of a band: the three cells of its column in a band, in both
    /// halves of the word (two bands' cells side by side, see `busiest_cell`).
    pub(super) column_twice: [u64; 32],
    /// 9 column bits -> the cells of a band in the columns that are alone in
    /// their box (three columns).
    pub(super) lone_columns: [u32; 512],
}

pub(super) static TABLES: Tables = tables();

pub(super) const fn tables() -> Tables {
    let mut tables = Tables {
        by_box: BandRule {
            kept_cells: [0; 512],
            lone_triads: [0; 512],
        },
        by_row: BandRule {
            kept_cells: [0; 512],
            lone_triads: [0; 512],
        },
        peers: [0; 32],
        column_twice: [0; 32],
        lone_columns: [0; 512],
    };
    let mut value = 0;
    while value < 512 {
        let [kept, lone] = band_rule_cells(value as u16);
        tables.by_row.kept_cells[value] = kept;
        tables.by_row.lone_triads[value] = lone;
        let [kept, lone] = band_rule_cells(transpose(value as u16));
        tables.by_box.kept_cells[value] = kept;
        tables.by_box.lone_triads[value] = lone;
        // Column bits: a stack's three are a group.
        tables.lone_columns[value] = spread_columns(alone_in_threes(value as u32));
        value += 1;
    }
    let mut index = 0;
    while index < 27 {
        let (row, column) = (index / 9, index % 9);
        let column_cells = spread_columns(1 << column);
        tables.column_twice[index] = column_cells as u64 * (1 | 1 << 32);
        let box_cells = (7 << ((column / 3) * 3)) * ((1 << 18) | (1 << 9) | 1);
        let peers = (0x1FF << (9 * row)) | box_cells | column_cells;
        tables.peers[index] = peers & !(1 << index);
        index += 1;
    }
    tables
}

/// One entry of the band rule's tables, for the triads given row-major (`row * 3 +
/// box`): the cells of the triads that fit a matching, and those of the kept triads
/// alone in their row (a row's three triads are a group).
const fn band_rule_cells(triads: u16) -> [u32; 2] {
    let kept = matching(triads);
    [
        cells_of_triads(kept),
        cells_of_triads(alone_in_threes(kept as u32) as u16),
    ]
}

/// Triad bits from box-major (`box * 3 + row`) to row-major (`row * 3 + box`).
pub(super) const fn transpose(triads: u16) -> u16 {
    let mut rows = 0;
    let mut bit = 0;
    while bit < 9 {
        if triads & (1 << bit) != 0 {
            rows |= 1 << ((bit % 3) * 3 + bit / 3);
        }
        bit += 1;
    }
    rows
}

/// The 27 cells of a band covered by the triads given (bit `row * 3 + box`).
pub(super) const fn cells_of_triads(triads: u16) -> u32 {
    let mut cells = 0u32;
    let mut triad = 0;
    while triad < 9 {
        if triads & (1 << triad) != 0 {
            cells |= 7 << ((triad / 3) * 9 + (triad % 3) * 3);
        }
        triad += 1;
    }
    cells
}

/// The union of the row-to-box matchings (permutations of 3) whose three triads are
/// all in `triads`.
pub(super) const fn matching(triads: u16) -> u16 {
    const PERMUTATIONS: [[u16; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut kept = 0;
    let mut p = 0;
    while p < 6 {
        let perm = PERMUTATIONS[p];
        let bits = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
        if triads & bits == bits {
            kept |= bits;
        }
        p += 1;
    }
    kept
}
