use super::*;
use crate::board::Cage;

/// A 4x4 jigsaw with cages, a diagonal and a thermometer.
fn variant() -> Variant {
    Variant {
        regions: Some(vec![0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]),
        diagonal: true,
        cages: vec![
            Cage {
                cells: vec![0, 1],
                sum: 3,
            },
            Cage {
                cells: vec![9, 5, 6],
                sum: 17,
            },
        ],
        thermometers: vec![vec![12, 13, 14]],
        anti_knight: true,
        ..Variant::default()
    }
}

fn glyphs() -> Vec<String> {
    (0..16).map(|cell| (cell % 4 + 1).to_string()).collect()
}

#[test]
fn classic_rules_have_no_picture() {
    let shape = Shape::new(2, 2).unwrap();
    assert!(Picture::of(shape, &Variant::default()).is_none());
}

#[test]
fn borders_part_regions_solid_and_cages_dotted_with_sums_above() {
    let (shape, variant) = (Shape::new(2, 2).unwrap(), variant());
    let picture = Picture::of(shape, &variant).unwrap();
    let text = picture.draw(&glyphs(), None);
    let lines: Vec<Vec<char>> = text.lines().map(|line| line.chars().collect()).collect();
    let regions = variant.regions.clone().unwrap();
    let cage_of = |cell: usize| {
        variant
            .cages
            .iter()
            .position(|c| c.cells.contains(&(cell as u32)))
    };
    for row in 0..4 {
        let line = &lines[2 * row + 1];
        for col in 0..4 {
            let cell = row * 4 + col;
            assert_eq!(line[4 * col + 2].to_string(), (col + 1).to_string());
            if col == 0 {
                assert_eq!(line[0], '│');
                continue;
            }
            let expected = if regions[cell] != regions[cell - 1] {
                '│'
            } else if cage_of(cell) != cage_of(cell - 1) {
                '┊'
            } else {
                ' '
            };
            assert_eq!(line[4 * col], expected, "r{}c{}: {text}", row + 1, col + 1);
        }
        assert_eq!(line[16], '│');
    }
    // The border under r1c3 (region 0 above, region 1 below) is solid; the sums
    // stand above the cages' first cells (r1c1 and r2c2).
    assert_eq!(lines[2][9..12].iter().collect::<String>(), "───", "{text}");
    assert!(
        lines[0].iter().collect::<String>().starts_with("┌3  "),
        "{text}"
    );
    assert_eq!(lines[2][5..7].iter().collect::<String>(), "17", "{text}");
    let legend = lines[9..].iter().flatten().collect::<String>();
    for name in [
        "jigsaw",
        "killer",
        "diagonals",
        "anti-knight",
        "thermometers",
    ] {
        assert!(legend.contains(name), "{legend}");
    }
    assert!(!legend.contains("windows"), "{legend}");
    let legend_lines = (text.lines())
        .filter(|line| !line.starts_with(['│', '┌', '├', '└']))
        .count();
    assert_eq!(text.lines().count(), 2 * 4 + 1 + legend_lines);
    assert!(
        text.lines()
            .all(|line| line.chars().count() <= LEGEND_WIDTH)
    );
    assert!(
        lines[..9].iter().all(|line| line.len() == 4 * 4 + 1),
        "{text}"
    );
}

#[test]
fn colours_shade_diagonals_and_mark_thermometers() {
    let (shape, variant) = (Shape::new(2, 2).unwrap(), variant());
    let picture = Picture::of(shape, &variant).unwrap();
    let mut styles: Vec<Option<&str>> = vec![None; 16];
    styles[5] = Some("34");
    let text = picture.draw(&glyphs(), Some(&styles));
    assert!(text.contains("\x1b[34;100m 2 \x1b[0m"), "{text:?}");
    assert!(
        text.contains("\x1b[100;7m 1 \x1b[0m"),
        "the bulb r4c1, on the diagonal: {text:?}"
    );
    assert!(
        text.contains("\x1b[4m 2 \x1b[0m"),
        "the line r4c2: {text:?}"
    );
    assert!(
        text.contains("\x1b[100m 1 \x1b[0m"),
        "the diagonal r1c1: {text:?}"
    );
    assert_eq!(text.matches("\x1b[0m").count(), 4 + 4 + 3 - 1);
}
