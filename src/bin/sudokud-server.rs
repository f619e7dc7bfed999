//! The full `sudokud`: the server, the clients and every command. The `sudokud`
//! binary runs the local commands itself and hands everything else to this one
//! (`cli::front`); everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    sudokud::cli::main()
}
