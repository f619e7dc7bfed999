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
}

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
        Tables {
            groups,
            slots,
            members,
        }
    }
}
