//! Every `rules` code block in docs/language.md parses: the reference and the hardest part
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! of each game are written in the language as it is, not as it might be.

#[test]
fn every_rules_block_in_the_language_reference_parses() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let blocks: Vec<&str> = doc.split("```rules\n").skip(1).map(|b| b.split("```").next().unwrap()).collect();
    assert!(blocks.len() >= 8, "expected the reference blocks and the four games, found {}", blocks.len());
    for block in blocks {
        if let Err(d) = shinpan::lang::syntax::parse(block) {
            panic!(
                "{}\n{block}",
                shinpan::diag::render_plain(&d.in_source(&shinpan::diag::source("docs/language.md", block)))
            );
        }
    }
}

/// The excerpts of shipped games in the reference are the specs, word for word.
#[test]
fn the_excerpts_are_the_shipped_specs() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    for (game, first_line) in [
        ("hangover", "proc drunk_check(w, total) {"),
        ("torite-4to6", "// T7, T17"),
        ("curtain-call", "// 5.6: the kuroko"),
        ("clock-tcg", "// A spent deck is refreshed"),
        ("bridge", "proc auction_step() {"),
    ] {
        let spec = shinpan::lang::specs::builtin(game).unwrap();
        let start = doc.find(first_line).unwrap_or_else(|| panic!("no excerpt of {game}"));
        let excerpt = &doc[start..start + doc[start..].find("```").unwrap()];
        for part in excerpt.split("\n\n") {
            assert!(spec.contains(part.trim()), "not in specs/{game}.rules:\n{part}");
        }
    }
}

/// The table of built-ins in the reference is the engine's table, row for row: each built-in
/// with its signature (so its arity), what it gives, its fuel and its cap; none missing and
/// none that does not exist.
#[test]
fn the_built_ins_in_the_reference_are_the_engines() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let header = "| call | gives | fuel besides the value it gives | cap |\n|---|---|---|---|\n";
    let start = doc.find(header).expect("no table of built-ins in docs/language.md") + header.len();
    let documented: Vec<&str> = doc[start..].lines().take_while(|l| l.starts_with('|')).collect();
    let table: Vec<String> = shinpan::program::builtins::TABLE
        .iter()
        .map(|e| {
            let cap = e.cap.map(|c| c.words()).unwrap_or_default();
            format!("| `{}` | {} | {} | {cap} |", e.signature(), e.description(), e.cost.words())
        })
        .collect();
    assert_eq!(documented, table, "docs/language.md's built-ins should read:\n{}", table.join("\n"));
}
