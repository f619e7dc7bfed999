//! How busy this core's neighbour is: `benches/peer.sh` reads this gauge before
//! and after each line of its table, so that a run of the ten lines says whether it
//! ran on a quiet core.
//!
//! A virtual CPU may share its physical core with another tenant's hyperthread.
//! When that one runs, code that issues many instructions a cycle loses much of
//! its speed, and code bound by one chain of dependent instructions loses little.
//! The gauge times the same number of rounds of each, written in assembly so that
//! the compiler cannot reshape them: eight independent additions a round (wide)
//! and one multiplication waiting on the last (narrow). It prints the median
//! ratio of the two times over a few samples (15, or the count given). On the AMD
//! EPYC (Zen 4) machine of docs/performance.md it reads 0.75-0.8 while the
//! neighbour is idle and 1.2-1.35 while it runs (the wide loop's 13 ms become
//! 20-24 ms; the narrow one stays at about 17 ms). `GAUGE_DEBUG=1` prints each
//! sample's two times on stderr.
//!
//!   cargo run --release --example contention [SAMPLES]

use std::time::Instant;

/// Rounds of each loop per sample (13-24 ms each on that machine).
const ROUNDS: u64 = 20_000_000;

fn main() {
    if !cfg!(target_arch = "x86_64") {
        println!("n/a");
        return;
    }
    let samples: usize = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(15)
        .max(1);
    let mut ratios: Vec<f64> = (0..samples).map(|_| sample()).collect();
    ratios.sort_by(f64::total_cmp);
    println!("{:.2}", ratios[ratios.len() / 2]);
}

/// The wide loop's time over the narrow loop's, once.
fn sample() -> f64 {
    let start = Instant::now();
    wide();
    let middle = Instant::now();
    narrow();
    let end = Instant::now();
    if std::env::var_os("GAUGE_DEBUG").is_some() {
        eprintln!("{:?} {:?}", middle - start, end - middle);
    }
    (middle - start).as_secs_f64() / (end - middle).as_secs_f64()
}

/// Eight independent additions a round: as many instructions a cycle as the
/// core's integer units take.
fn wide() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the loop reads and writes only the nine registers it is given (its
    // counter and eight scratch values) and the flags; it touches no memory.
    unsafe {
        std::arch::asm!(
            "2:",
            "add {a}, 1", "add {b}, 1", "add {c}, 1", "add {d}, 1",
            "add {e}, 1", "add {f}, 1", "add {g}, 1", "add {h}, 1",
            "dec {n}",
            "jnz 2b",
            n = inout(reg) ROUNDS => _,
            a = inout(reg) 0u64 => _, b = inout(reg) 0u64 => _,
            c = inout(reg) 0u64 => _, d = inout(reg) 0u64 => _,
            e = inout(reg) 0u64 => _, f = inout(reg) 0u64 => _,
            g = inout(reg) 0u64 => _, h = inout(reg) 0u64 => _,
            options(nomem, nostack),
        );
    }
}

/// One chain of multiplications, each waiting on the last: one instruction every
/// few cycles, whatever the neighbour does.
fn narrow() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as for `wide`: two registers and the flags, no memory.
    unsafe {
        std::arch::asm!(
            "2:",
            "imul {x}, {x}, 3",
            "dec {n}",
            "jnz 2b",
            n = inout(reg) ROUNDS => _,
            x = inout(reg) 1u64 => _,
            options(nomem, nostack),
        );
    }
}
