//! Criterion benchmark of the engine's hot path: the default engine (and the
//! propagation engine as a baseline measured in the same run) on slices of the
//! public puzzle sets, first solution and counting to two.
//!
//!     cargo bench --bench engine
//!
//! For whole-file throughput tables use `sudokud bench FILE...` instead.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokud::bench::read_set;
use sudokud::board::Board;
use sudokud::solver::{self, Algorithm, Control, NoEvents};

fn puzzle_set(file: &str, take: usize) -> Vec<Board> {
    let mut boards = read_set(file).unwrap_or_else(|e| panic!("{e}"));
    boards.truncate(take);
    boards
}

fn engines(c: &mut Criterion) {
    let sets = [
        ("17_clue", puzzle_set("17_clue.txt", 2000)),
        (
            "forum_hardest_1905_11plus",
            puzzle_set("forum_hardest_1905_11plus.txt", 200),
        ),
    ];
    for (name, boards) in &sets {
        let mut group = c.benchmark_group(*name);
        group.throughput(Throughput::Elements(boards.len() as u64));
        for algorithm in [Algorithm::Bitboard, Algorithm::Propagation] {
            group.bench_function(format!("{}/first", algorithm.name()), |b| {
                b.iter(|| {
                    for board in boards {
                        let report =
                            solver::solve(board, algorithm, &Control::UNLIMITED, &mut NoEvents);
                        std::hint::black_box(report.ok());
                    }
                })
            });
            group.bench_function(format!("{}/count2", algorithm.name()), |b| {
                b.iter(|| {
                    for board in boards {
                        let report = solver::count_solutions(board, algorithm, &Control::UNLIMITED);
                        std::hint::black_box(report.ok());
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = engines
}
criterion_main!(benches);
