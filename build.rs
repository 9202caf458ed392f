//! Compiles every `specs/*.rules` into the binary, with the data files beside them
//! (`specs/*.yaml`, card pools): a game is added by adding its files, and the engine's source
//! names no game.

use std::fmt::Write;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=specs");
    let mut out = String::from("/// Built-in rules: (name, text), from `specs/`.\n");
    table(&mut out, "BUILTIN", "rules", |file| file.trim_end_matches(".rules"));
    out.push_str("/// Data files beside the built-in rules: (file name, text), from `specs/*.yaml`.\n");
    table(&mut out, "BUILTIN_DATA", "yaml", |file| file);
    let Some(dir) = std::env::var_os("OUT_DIR") else { return };
    let _ = std::fs::write(Path::new(&dir).join("builtin_specs.rs"), out);
}

/// `pub const NAME: &[(&str, &str)]` of (key, text) for every `specs/*.EXT`, sorted.
fn table(out: &mut String, name: &str, ext: &str, key: fn(&str) -> &str) {
    let _ = writeln!(out, "pub const {name}: &[(&str, &str)] = &[");
    for file in files("specs", ext) {
        println!("cargo:rerun-if-changed=specs/{file}");
        let _ = writeln!(
            out,
            "    ({:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/specs/{file}\"))),",
            key(&file)
        );
    }
    out.push_str("];\n");
}

fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .filter_map(|p| p.file_name().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}
