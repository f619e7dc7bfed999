//! The LZ-string reader against the `lz-str` crate's compressor, and boards
//! written here as f-puzzles writes them read into rules.

use serde_json::json;

use super::fpuzzles::{FpuzzlesError, read_fpuzzles};
use super::lzstring::{LzError, decompress_base64};

/// A small deterministic generator for the test texts.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn texts_compressed_by_the_crate_read_back_whole() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let alphabets: [&[char]; 3] = [
        &['a', 'b'],
        &['{', '}', '"', 'R', 'C', '1', '9', ':', ','],
        &['x', 'é', '€', '字', '😀'],
    ];
    let mut texts = vec![String::new(), "a".to_owned(), "aaaaaaaaaaaaaaaa".to_owned()];
    for round in 0..300 {
        let alphabet = alphabets[round % alphabets.len()];
        let len = (next(&mut state) % 2000) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[(next(&mut state) % alphabet.len() as u64) as usize])
            .collect();
        texts.push(text);
    }
    for text in texts {
        let payload = lz_str::compress_to_base64(text.as_str());
        assert_eq!(decompress_base64(&payload, 1 << 20), Ok(text));
    }
}

#[test]
fn payloads_that_are_no_lz_string_are_refused_and_the_output_is_capped() {
    let payload = lz_str::compress_to_base64("the quick brown fox jumps over the lazy dog");
    assert_eq!(
        decompress_base64(&format!("{}!{}", &payload[..4], &payload[4..]), 1000),
        Err(LzError::NotBase64(4, '!'))
    );
    for cut in 0..payload.trim_end_matches('=').len() - 1 {
        let result = decompress_base64(&payload[..cut], 1000);
        assert!(result.is_err(), "{cut}: {result:?}");
    }
    // A long run compresses to little: the cap stops it, not memory.
    let run = "7".repeat(3_000_000);
    let payload = lz_str::compress_to_base64(run.as_str());
    assert!(payload.len() < 20_000, "{}", payload.len());
    assert_eq!(
        decompress_base64(&payload, 1 << 20),
        Err(LzError::TooLong(1 << 20))
    );
}

/// A 9x9 board as f-puzzles saves it, with `extra` keys.
fn board(givens: &[(usize, u8)], extra: serde_json::Value) -> serde_json::Value {
    let mut grid = vec![vec![json!({"centerPencilMarks": [], "cornerPencilMarks": []}); 9]; 9];
    for &(cell, digit) in givens {
        grid[cell / 9][cell % 9] = json!({"value": digit, "given": true});
    }
    // A value the solver entered, not given: ignored.
    grid[8][8] = json!({"value": 4});
    let mut board = json!({"size": 9, "title": "t", "author": "a", "ruleset": "r", "grid": grid});
    for (key, value) in extra.as_object().unwrap() {
        board[key] = value.clone();
    }
    board
}

fn link(board: &serde_json::Value) -> String {
    let payload = lz_str::compress_to_base64(board.to_string().as_str());
    format!("https://www.f-puzzles.com/?load={payload}&other=1")
}

#[test]
fn a_board_s_constraints_become_the_rules_fields() {
    let extra = json!({
        "diagonal-": true,
        "antiknight": true,
        "nonconsecutive": false,
        "killercage": [{"cells": ["R1C1", "r1c2"], "value": "3", "outlineC": "#000"}],
        "cage": [{"cells": ["R9C1", "R9C2"]}],
        "thermometer": [{"lines": [["R5C5", "R5C6", "R4C7"], ["R2C2", "R3C3"]]}],
        "extraregion": [{"cells": ["R7C7", "R7C8", "R7C9", "R8C7", "R8C8", "R8C9", "R9C7", "R9C8", "R9C9"]}],
        "arrow": [],
        "solution": [],
    });
    let read = read_fpuzzles(&link(&board(&[(0, 1), (10, 9)], extra))).unwrap();
    let rules = &read.rules;
    assert_eq!((rules.box_rows, rules.box_cols), (3, 3));
    assert!(rules.regions.is_empty());
    assert!(!rules.diagonal && rules.anti_knight && !rules.non_consecutive && !rules.anti_king);
    let main: Vec<u32> = (0..9).map(|row| row * 10).collect();
    assert_eq!(rules.extra_regions[0].cells, main);
    assert_eq!(
        rules.extra_regions[1].cells,
        vec![60, 61, 62, 69, 70, 71, 78, 79, 80]
    );
    assert_eq!(
        (rules.cages[0].cells.clone(), rules.cages[0].sum),
        (vec![0, 1], 3)
    );
    assert_eq!(
        (rules.cages[1].cells.clone(), rules.cages[1].sum),
        (vec![72, 73], 0)
    );
    assert_eq!(rules.thermometers[0].cells, vec![40, 41, 33]);
    assert_eq!(rules.thermometers[1].cells, vec![10, 20]);
    let mut puzzle = vec!['.'; 81];
    puzzle[0] = '1';
    puzzle[10] = '9';
    assert_eq!(read.puzzle, puzzle.into_iter().collect::<String>());
}

#[test]
fn regions_other_than_the_boxes_make_a_jigsaw_and_both_diagonals_an_x() {
    let mut board = board(&[], json!({"diagonal+": true, "diagonal-": true}));
    // Swap two cells between the first two boxes: still connected regions.
    for cell in 0..81usize {
        let (row, col) = (cell / 9, cell % 9);
        let mut region = row / 3 * 3 + col / 3;
        if cell == 2 {
            region = 1;
        } else if cell == 3 {
            region = 0;
        }
        board["grid"][row][col]["region"] = json!(region);
    }
    let read = read_fpuzzles(&link(&board)).unwrap();
    assert!(read.rules.diagonal && read.rules.extra_regions.is_empty());
    let labels: Vec<&str> = read.rules.regions.split(',').collect();
    assert_eq!((labels.len(), labels[2], labels[3]), (81, "1", "0"));
}

fn refused_at(link: &str) -> String {
    match read_fpuzzles(link) {
        Err(FpuzzlesError::Invalid(error)) => error.field,
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_constraints_and_bad_boards_are_refused_where_they_are() {
    let arrow = json!({"arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"]]}]});
    assert_eq!(
        refused_at(&link(&board(&[], arrow))),
        "rules.fpuzzles.arrow"
    );
    let cage = json!({"killercage": [{"cells": ["R1C1", "R10C1"], "value": "3"}]});
    assert_eq!(
        refused_at(&link(&board(&[], cage))),
        "rules.fpuzzles.killercage[0].cells[1]"
    );
    let sum = json!({"killercage": [{"cells": ["R1C1"], "value": "x"}]});
    assert_eq!(
        refused_at(&link(&board(&[], sum))),
        "rules.fpuzzles.killercage[0].value"
    );
    let mut short = board(&[], json!({}));
    short["size"] = json!(8);
    assert_eq!(refused_at(&link(&short)), "rules.fpuzzles.grid");
    let mut given = board(&[], json!({}));
    given["grid"][0][0] = json!({"value": 10, "given": true});
    assert_eq!(refused_at(&link(&given)), "rules.fpuzzles.grid[0][0].value");
    assert_eq!(refused_at("not base64 at all!"), "rules.fpuzzles");
    let no_json = lz_str::compress_to_base64("{\"size\": 9,");
    assert_eq!(refused_at(&no_json), "rules.fpuzzles");
    let bomb = lz_str::compress_to_base64("7".repeat(3_000_000).as_str());
    assert!(matches!(
        read_fpuzzles(&bomb),
        Err(FpuzzlesError::TooLarge(_))
    ));
}

#[test]
fn percent_escapes_in_a_pasted_link_are_undone() {
    let board = board(&[(40, 5)], json!({}));
    let payload = lz_str::compress_to_base64(board.to_string().as_str());
    let escaped = payload
        .replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D");
    let read = read_fpuzzles(&format!("https://f-puzzles.com/?load={escaped}")).unwrap();
    assert_eq!(read.puzzle.chars().nth(40), Some('5'));
}
