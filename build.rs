//! Compiles every `specs/*.rules` into the binary: a game is added by adding its file, and
//! the engine's source names no game.

use std::fmt::Write;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=specs");
    let mut names: Vec<String> = std::fs::read_dir("specs")
        .map(|dir| {
            dir.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rules"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out =
        String::from("/// Built-in rules: (name, text), from `specs/`.\npub const BUILTIN: &[(&str, &str)] = &[\n");
    for name in &names {
        println!("cargo:rerun-if-changed=specs/{name}.rules");
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/specs/{name}.rules\"))),"
        );
    }
    out.push_str("];\n");
    out.push_str("/// Data files beside the built-in rules: (file name, text), from `specs/*.yaml`.\n");
    out.push_str("pub const BUILTIN_DATA: &[(&str, &str)] = &[\n");
    for name in data_files() {
        println!("cargo:rerun-if-changed=specs/{name}");
        let _ =
            writeln!(out, "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/specs/{name}\"))),");
    }
    out.push_str("];\n");
    let Some(dir) = std::env::var_os("OUT_DIR") else { return };
    let _ = std::fs::write(Path::new(&dir).join("builtin_specs.rs"), out);
}

fn data_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("specs")
        .map(|dir| {
            dir.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
                .filter_map(|p| p.file_name().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}
