//! A shape's variables and groups as index tables, one set a shape.

use std::sync::OnceLock;

use crate::board::Geometry;

/// A shape's variables and groups as index tables, made once a shape.
pub(super) struct Tables {
    /// Per variable, its four groups.
    pub(super) groups: Vec<[u32; 4]>,
    /// Per variable, its place among each of its groups' members.
    pub(super) slots: Vec<[u8; 4]>,
    /// Per group, its N variables.
    pub(super) members: Vec<u32>,
    /// Where a row or column crosses a box.
    pub(super) cuts: Vec<Cut>,
    /// Per house and place in it: the cuts through that place ([`NO_CUT`]
    /// none), so a house's last places of a digit find theirs at once.
    pub(super) slot_cuts: Vec<[u16; 2]>,
}

/// Where two houses share two cells or more (a row or column and a box),
/// from one of them: its places there, and the other's.
#[derive(Clone, Copy)]
pub(super) struct Cut {
    pub(super) house: u16,
    pub(super) own: u64,
    pub(super) other_house: u16,
    pub(super) other: u64,
}

/// No cut in that entry of [`Tables::slot_cuts`].
pub(super) const NO_CUT: u16 = u16::MAX;

impl Tables {
    pub(super) fn of(geometry: &'static Geometry) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 49] = [const { OnceLock::new() }; 49];
        let shape = geometry.shape;
        let index = (shape.box_rows() - 2) * 7 + (shape.box_cols() - 2);
        TABLES[index].get_or_init(|| Tables::new(geometry))
    }

    fn new(geometry: &Geometry) -> Tables {
        let n = geometry.shape.size();
        let cells = n * n;
        let house = |h: u16, digit: usize| (cells + usize::from(h) * n + digit) as u32;
        let groups: Vec<[u32; 4]> = (0..cells * n)
            .map(|v| {
                let (cell, digit) = (v / n, v % n);
                let [row, col, boxed] = geometry.houses[cell];
                [
                    cell as u32,
                    house(row, digit),
                    house(col, digit),
                    house(boxed, digit),
                ]
            })
            .collect();
        let mut members = Vec::with_capacity(4 * cells * n);
        members.extend((0..cells * n).map(|v| v as u32));
        for house in 0..3 * n {
            for digit in 0..n {
                members.extend(
                    (0..n).map(|i| (usize::from(geometry.units[house * n + i]) * n + digit) as u32),
                );
            }
        }
        let mut slots = vec![[0u8; 4]; cells * n];
        for (g, group) in members.chunks(n).enumerate() {
            for (slot, &v) in group.iter().enumerate() {
                let v = v as usize;
                let which = groups[v]
                    .iter()
                    .position(|&own| own as usize == g)
                    .expect("a variable is in the groups that list it");
                slots[v][which] = slot as u8;
            }
        }
        let (cuts, slot_cuts) = Self::cuts(geometry);
        Tables {
            groups,
            slots,
            members,
            cuts,
            slot_cuts,
        }
    }

    /// Every house's cuts with the houses it shares two cells or more with.
    fn cuts(geometry: &Geometry) -> (Vec<Cut>, Vec<[u16; 2]>) {
        let n = geometry.shape.size();
        let mut cuts: Vec<Cut> = Vec::new();
        let mut slot_cuts = vec![[NO_CUT; 2]; 3 * n * n];
        for house in 0..3 * n as u16 {
            for cut in Self::house_cuts(geometry, house) {
                for slot in (0..n).filter(|&slot| cut.own >> slot & 1 == 1) {
                    let entry = &mut slot_cuts[usize::from(house) * n + slot];
                    let free = entry.iter().position(|&e| e == NO_CUT);
                    entry[free.expect("a place is in two cuts at most")] = cuts.len() as u16;
                }
                cuts.push(cut);
            }
        }
        (cuts, slot_cuts)
    }

    /// `house`'s cuts (a row and a column share one cell: no cut).
    fn house_cuts(geometry: &Geometry, house: u16) -> Vec<Cut> {
        let n = geometry.shape.size();
        let units = |house: u16| &geometry.units[usize::from(house) * n..][..n];
        let mut cuts: Vec<Cut> = Vec::new();
        for (slot, &cell) in units(house).iter().enumerate() {
            for other_house in geometry.houses[usize::from(cell)] {
                if other_house == house {
                    continue;
                }
                let at = units(other_house).iter().position(|&c| c == cell);
                let other = 1u64 << at.expect("a cell is in its houses");
                match cuts.iter_mut().find(|c| c.other_house == other_house) {
                    Some(cut) => {
                        cut.own |= 1 << slot;
                        cut.other |= other;
                    }
                    None => cuts.push(Cut {
                        house,
                        own: 1 << slot,
                        other_house,
                        other,
                    }),
                }
            }
        }
        cuts.retain(|cut| cut.own.count_ones() >= 2);
        cuts
    }
}
