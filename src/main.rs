//! The `sudokud` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    sudokud::cli::main()
}
