//! The `sudokud` binary: the local commands run here, everything else in the full
//! binary beside it (`sudokud-server`); see the library's `cli::front`.

fn main() -> std::process::ExitCode {
    sudokud::cli::front::main()
}
