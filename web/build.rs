//! The engine's stack: on the WebAssembly target a program has one stack, set when it is
//! linked (1 MiB by default). The engine's limits are sized for `shinpan::STACK_BYTES`, the
//! stack of every thread of the command line, so the module is linked with that stack.

/// shinpan::STACK_BYTES (a test of the crate holds them equal).
const STACK_BYTES: usize = 64 * 1024 * 1024;

fn main() {
    println!("cargo:rustc-env=SHINPAN_WEB_STACK={STACK_BYTES}");
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.starts_with("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size={STACK_BYTES}");
    }
}
