//! The shape of `src/`: the engine knows no game, and its stages import one another in one
//! direction only (src/README.md gives the order).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The rule ids every game shares (../shared/TRANSCRIPTS.md): the engine may name these.
const SHARED_IDS: [&str; 5] = ["after-game-end", "unexpected-action", "turn-order", "not-held", "bad-deal"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Source files of the engine, with the folder (or top-level module) each belongs to. The
/// command line and the table of contents may use everything.
fn engine_sources() -> Vec<(String, String)> {
    let src = root().join("src");
    let mut paths = vec![];
    files_under(&src, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter(|p| !["main.rs", "lib.rs"].contains(&p.strip_prefix(&src).unwrap().to_str().unwrap()))
        .map(|p| {
            let relative = p.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap().as_os_str().to_str().unwrap();
            let stage = first.trim_end_matches(".rs").to_string();
            (stage, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The code of a file without its comments and its unit tests (a test may use any stage).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// The stages a file's code names through `crate::`, including inside `use crate::{a, b::c}`.
fn stages_used(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        used.insert(head(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            used.insert(head(&item));
        } else {
            used.insert(head(rest));
        }
    }
    used.remove("");
    used
}

fn head(path: &str) -> String {
    path.trim().chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect()
}

/// A cycle in the graph, if there is one, as the stages around it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|start| visit(start, graph, &mut vec![], &mut done))
}

fn stage_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (stage, text) in engine_sources() {
        let used = stages_used(&code_of(&text));
        let entry = graph.entry(stage.clone()).or_default();
        entry.extend(used.into_iter().filter(|u| *u != stage));
    }
    graph
}

#[test]
fn the_stages_import_one_another_in_one_direction() {
    let graph = stage_graph();
    for expected in STAGES.iter().chain(&FRONT_DOOR) {
        assert!(graph.contains_key(*expected), "no module `{expected}` in src/: {graph:?}");
    }
    assert_eq!(find_cycle(&graph), None, "{graph:#?}");
    // The first stage knows nothing of the later ones, and the importers only the transcript.
    assert!(graph["lang"].iter().all(|u| ["codes", "diag", "files", "span"].contains(&u.as_str())), "{graph:?}");
    assert_eq!(graph["import"], BTreeSet::from(["transcript".to_string()]));
    // What an editor needs reads rules files only: it never runs a game.
    let editor_uses: BTreeSet<&str> = graph["editor"].iter().map(String::as_str).collect();
    assert!(
        editor_uses.is_subset(&BTreeSet::from(["lang", "resolve", "program", "codes", "diag", "span"])),
        "{editor_uses:?}"
    );
    // No stage uses the front door: it is built on them.
    for (stage, used) in graph.iter().filter(|(stage, _)| STAGES.contains(&stage.as_str())) {
        assert!(used.iter().all(|u| !FRONT_DOOR.contains(&u.as_str())), "{stage} uses the front door: {used:?}");
    }
}

/// The pipeline's stages: private to the engine (public under the feature `internals`).
const STAGES: [&str; 8] = ["lang", "program", "run", "resolve", "transcript", "import", "report", "play"];
/// The engine's public modules and the modules behind what `lib.rs` exports.
const FRONT_DOOR: [&str; 4] = ["rules", "checking", "editor", "records"];

/// The packages beside the engine, each with its sources: the command line, the language
/// server, the Python package and the page's crate.
fn users_of_the_engine() -> Vec<(PathBuf, String)> {
    let mut paths = vec![];
    for dir in ["crates/cli/src", "crates/lsp/src", "python/src", "web/src"] {
        files_under(&root().join(dir), &mut paths);
    }
    paths.sort();
    let code = paths.into_iter().filter(|p| p.extension().is_some_and(|x| x == "rs"));
    code.map(|p| {
        let text = std::fs::read_to_string(&p).unwrap();
        (p, text)
    })
    .collect()
}

/// The command line, the language server and the Python package use only the engine's
/// public API: they name no stage, and none of them turns on `internals` (so a build of any
/// of them alone, as CI makes, fails to compile if one did).
#[test]
fn the_packages_beside_the_engine_use_only_its_public_api() {
    let users = users_of_the_engine();
    assert!(users.len() >= 15, "only {} sources read", users.len());
    for (path, text) in &users {
        let code = code_of(text);
        for stage in STAGES {
            for written in [format!("shinpan::{stage}::"), format!("shinpan::{{{stage}")] {
                assert!(!code.contains(&written), "{} reaches into `{stage}`", path.display());
            }
        }
    }
    for manifest in ["crates/cli/Cargo.toml", "crates/lsp/Cargo.toml", "python/Cargo.toml", "web/Cargo.toml"] {
        let text = std::fs::read_to_string(root().join(manifest)).unwrap();
        let dependencies = text.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
        assert!(dependencies.contains("shinpan = { path"), "{manifest}");
        assert!(!dependencies.contains("internals"), "{manifest} turns on `internals`");
    }
}

/// The engine depends on none of the packages built on it.
#[test]
fn the_engine_depends_on_no_package_beside_it() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let dependencies = manifest.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    for beside in ["shinpan-cli", "shinpan-lsp", "clap", "lsp-server", "lsp-types", "similar", "mimalloc", "pyo3"] {
        assert!(!dependencies.contains(beside), "the engine depends on {beside}");
    }
    for (stage, text) in engine_sources() {
        assert!(!code_of(&text).contains("shinpan_lsp"), "{stage} uses the language server");
    }
}

/// The test above finds a cycle where there is one.
#[test]
fn a_cycle_is_found() {
    let edges = |pairs: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            graph.entry(a.to_string()).or_default().insert(b.to_string());
        }
        graph
    };
    assert_eq!(find_cycle(&edges(&[("a", "b"), ("b", "c")])), None);
    let cycle = find_cycle(&edges(&[("a", "b"), ("b", "c"), ("c", "b")])).unwrap();
    assert_eq!(cycle, ["b", "c", "b"]);
    let code = "use crate::{lang::ast, diag::{self, Diag}};\nlet x = crate::run::show(p);\n// crate::play\n";
    assert_eq!(stages_used(&code_of(code)), BTreeSet::from(["diag", "lang", "run"].map(String::from)));
}

/// `src/` (and the packages beside it) name no game and no rule of one: every fact about a
/// game lives in its rules file.
/// Only the readers of a game's own record formats (`src/import/`) know one. Documentation
/// (`///`, `//!`) may show a built-in game in use: its examples are for the library's users.
#[test]
fn the_engine_names_no_game() {
    let mut words: BTreeSet<String> = BTreeSet::new();
    for (name, text) in shinpan::lang::specs::BUILTIN {
        words.insert(name.to_string());
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("rule ") else { continue };
            let id: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
            // A one-word id (`score`, `lead`) is an ordinary word; a hyphenated one is the game's.
            if id.contains('-') && !SHARED_IDS.contains(&id.as_str()) {
                words.insert(id);
            }
        }
    }
    assert!(words.contains("must-follow") && words.len() > 10, "{words:?}");
    let src = root().join("src");
    let mut paths = vec![];
    for dir in ["src", "crates/cli/src", "crates/lsp/src", "python/src", "web/src", "web/page"] {
        files_under(&root().join(dir), &mut paths);
    }
    let code = paths.iter().filter(|p| p.extension().is_some_and(|x| x == "rs" || x == "html" || x == "js"));
    let mut read = 0;
    for path in code.filter(|p| !p.starts_with(src.join("import"))) {
        let text = std::fs::read_to_string(path).unwrap();
        read += 1;
        let lines: Vec<&str> =
            text.lines().filter(|l| !l.trim_start().starts_with("///") && !l.trim_start().starts_with("//!")).collect();
        let lower = lines.join("\n").to_lowercase();
        for word in &words {
            assert!(!lower.contains(word.as_str()), "{} names `{word}`", path.display());
        }
    }
    assert!(read > 50, "only {read} source files read");
}
