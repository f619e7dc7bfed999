//! Compiles `proto/sudoku/v1/sudoku.proto` into Rust with tonic-prost-build, using the
//! protoc binary vendored by `protoc-bin-vendored`, so no system protoc is needed.
//! Also writes the file descriptor set that server reflection serves.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto = "proto/sudoku/v1/sudoku.proto";
    println!("cargo:rerun-if-changed={proto}");

    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    let mut config = tonic_prost_build::Config::new();
    config.protoc_executable(protoc_bin_vendored::protoc_bin_path()?);

    tonic_prost_build::configure()
        .file_descriptor_set_path(out_dir.join("sudoku_descriptor.bin"))
        .compile_with_config(config, &[proto], &["proto"])?;
    Ok(())
}
