//! Rates puzzles with the logical solver (work in progress): one puzzle a line on
//! stdin, one line out: the rating, the hardest technique, and whether the ladder
//! solved it alone (`--steps`: every step first). For comparisons with Sudoku
//! Explainer's `serate`.

use std::io::BufRead;

fn main() {
    let verbose = std::env::args().any(|arg| arg == "--steps");
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Ok(board) = sudokud::board::Board::parse(line.trim()) else {
            println!("error");
            continue;
        };
        let explained = sudokud::logic::explain(&board);
        if verbose {
            for step in &explained.steps {
                println!("  {:.1} {step}", step.technique.rating());
            }
        }
        let hardest = explained
            .steps
            .iter()
            .max_by(|a, b| a.technique.rating().total_cmp(&b.technique.rating()))
            .map_or("-", |step| step.technique.name());
        println!(
            "{:.1} {} {}",
            explained.rating,
            if explained.solved() {
                "solved"
            } else {
                "stuck"
            },
            hardest
        );
    }
}
