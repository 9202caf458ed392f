//! The `shinpan` binary: the command line of `lib.rs` on the process's arguments.

use std::process::ExitCode;

/// mimalloc: the interpreter builds and drops many small lists and maps, and mimalloc's
/// per-thread free lists make that about a tenth faster than the system allocator
/// (`scripts/bench.sh`, playouts).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(shinpan_cli::main_with_args(std::env::args_os()))
}
