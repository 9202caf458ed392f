//! Highlighting: the TextMate grammar `editors/vscode/syntaxes/shinpan.tmLanguage.json`,
//! checked with the tokenizer VS Code itself uses (vscode-textmate and vscode-oniguruma, from
//! tests/highlight/) on every built-in rules file, every `rules` block of docs/language.md and
//! a hand-written sample: every character gets a scope, and keywords, strings, comments,
//! numbers, rule ids and names get theirs (tests/highlight/test.js). Without node, the
//! grammar's words and the extension folder are still checked here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json(path: &str) -> Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const GRAMMAR: &str = "editors/vscode/syntaxes/shinpan.tmLanguage.json";

#[test]
fn every_rules_file_is_highlighted_with_the_grammar() {
    let driver = root().join("tests/highlight");
    let ready =
        driver.join("node_modules/vscode-textmate").exists() && driver.join("node_modules/vscode-oniguruma").exists();
    if !ready {
        // CI installs them (.ci/run) and sets SHINPAN_HIGHLIGHT_TEST=required.
        assert!(
            std::env::var("SHINPAN_HIGHLIGHT_TEST").as_deref() != Ok("required"),
            "the highlighting test needs node and `npm ci --prefix tests/highlight`"
        );
        // Straight to standard error, which the test harness does not keep (as it keeps
        // `eprintln!`): a person running `cargo test` sees that this test did not run.
        let _ = writeln!(std::io::stderr().lock(), "skipped: no vscode-textmate (npm ci --prefix tests/highlight)");
        return;
    }
    let builtins: Vec<&str> = shinpan::editor::builtin_functions().map(|(name, ..)| name).collect();
    let out =
        Command::new("node").arg(driver.join("test.js")).env("SHINPAN_BUILTINS", builtins.join(",")).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

/// The sample the highlighting test reads is a rules file as the language has it.
#[test]
fn the_highlighting_sample_parses() {
    let sample = read("tests/highlight/sample.rules");
    if let Err(d) = shinpan::lang::syntax::parse(&sample) {
        panic!(
            "{}",
            shinpan::diag::render_plain(&d.in_source(&shinpan::diag::source("tests/highlight/sample.rules", &sample)))
        );
    }
}

/// Every keyword token of grammar/spec.pest (`k_NAME = @{ "word" ... }`) and every built-in
/// function is a word of the highlighting grammar, so a word added to the language without
/// a scope fails here even where node is missing.
#[test]
fn the_grammar_knows_every_keyword_and_built_in() {
    let grammar = read(GRAMMAR);
    let words: Vec<String> = read("grammar/spec.pest")
        .lines()
        .filter(|l| l.starts_with("k_"))
        .filter_map(|l| l.split('"').nth(1).map(String::from))
        .collect();
    assert!(words.len() > 40, "read {} keywords from grammar/spec.pest", words.len());
    let builtins: Vec<String> = shinpan::program::builtins::names().map(String::from).collect();
    let missing: Vec<&String> = words.iter().chain(&builtins).filter(|w| !names_word(&grammar, w)).collect();
    assert!(missing.is_empty(), "{GRAMMAR} has no pattern for {missing:?}");
}

/// Whether a word stands in the grammar's text as a word of a regular expression (between
/// characters that are not part of a name).
fn names_word(grammar: &str, word: &str) -> bool {
    grammar.match_indices(word).any(|(at, _)| {
        let before = grammar[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_');
        let after = grammar[at + word.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '_');
        before && after
    })
}

/// The VS Code extension folder: the language, its file extension, the grammar it bundles,
/// the comment and bracket settings, the server's program setting and the client library.
#[test]
fn the_vs_code_extension_bundles_the_grammar_and_the_server() {
    let manifest = json("editors/vscode/package.json");
    let contributes = &manifest["contributes"];
    let language = &contributes["languages"][0];
    assert_eq!(language["id"], "shinpan");
    assert_eq!(language["extensions"][0], ".rules");
    let grammar = &contributes["grammars"][0];
    assert_eq!(grammar["language"], "shinpan");
    assert_eq!(grammar["scopeName"], "source.shinpan");
    let grammar_path: PathBuf = root().join("editors/vscode").join(grammar["path"].as_str().unwrap());
    assert_eq!(grammar_path, root().join("editors/vscode/./syntaxes/shinpan.tmLanguage.json"));
    assert_eq!(json(GRAMMAR)["scopeName"], "source.shinpan");

    let config_path = language["configuration"].as_str().unwrap().trim_start_matches("./");
    let config = json(&format!("editors/vscode/{config_path}"));
    assert_eq!(config["comments"]["lineComment"], "//");
    for pair in ["{}", "[]", "()"] {
        let (open, close) = pair.split_at(1);
        assert!(config["brackets"].as_array().unwrap().iter().any(|b| b[0] == open && b[1] == close), "bracket {pair}");
        assert!(
            config["autoClosingPairs"].as_array().unwrap().iter().any(|b| b["open"] == open),
            "auto-closing {pair}"
        );
    }

    assert_eq!(contributes["configuration"]["properties"]["shinpan.path"]["default"], "shinpan");
    assert!(manifest["dependencies"]["vscode-languageclient"].is_string());
    assert_eq!(manifest["main"], "./extension.js");
    let extension = read("editors/vscode/extension.js");
    assert!(extension.contains("args: ['lsp']") && extension.contains("getConfiguration('shinpan').get('path')"));
    assert!(json("editors/vscode/package-lock.json")["packages"]["node_modules/vscode-languageclient"].is_object());
}
