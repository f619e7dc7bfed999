use super::*;

#[test]
fn the_drawn_size_is_that_of_the_board_drawn() {
    for (rows, cols) in [(3, 3), (2, 3), (3, 2), (4, 4), (5, 5), (6, 6), (8, 8)] {
        let shape = Shape::new(rows, cols).unwrap();
        let (puzzle, rules) = if shape.is_classic() {
            (".".repeat(81), None)
        } else {
            let notation = Notation::new(shape, "").unwrap();
            let rules = pb::Rules {
                box_rows: rows,
                box_cols: cols,
                symbols: String::new(),
                ..pb::Rules::default()
            };
            let empty = vec![0; shape.cells()];
            (notation.write(&empty, Form::Symbols), Some(rules))
        };
        let shown = Shown::new(&puzzle, rules.as_ref()).unwrap();
        let grid = shown.grid(false);
        let widest = grid.lines().map(|line| line.chars().count()).max();
        let (columns, lines) = drawn_size(shape);
        assert_eq!(widest, Some(columns), "{shape}");
        assert_eq!(grid.lines().count() + 3, lines, "{shape}");
    }
    assert!(fits(Shape::CLASSIC, false, 80, 24));
    assert!(fits(Shape::CLASSIC, true, 80, 24));
    assert!(!fits(Shape::new(4, 4).unwrap(), true, 80, 24));
    assert!(!fits(Shape::new(8, 8).unwrap(), false, 80, 24));
    assert!(!fits(Shape::new(5, 5).unwrap(), false, 80, 24));
    assert!(fits(Shape::new(5, 5).unwrap(), false, 80, 40));
}
