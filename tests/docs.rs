//! Every `rules` code block in docs/language.md parses: the reference and the hardest part
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! of each game are written in the language as it is, not as it might be.

#[test]
fn every_rules_block_in_the_language_reference_parses() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let blocks: Vec<&str> = doc.split("```rules\n").skip(1).map(|b| b.split("```").next().unwrap()).collect();
    assert!(blocks.len() >= 8, "expected the reference blocks and the four games, found {}", blocks.len());
    for block in blocks {
        if let Err(d) = shinpan::syntax::parse(block) {
            panic!("{}\n{block}", shinpan::diag::render_plain(&d.in_source(&shinpan::diag::source("docs/language.md", block))));
        }
    }
}

/// The Hangover excerpt in the reference is the shipped spec, word for word.
#[test]
fn the_hangover_excerpt_is_the_shipped_spec() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let spec = shinpan::specs::builtin("hangover").unwrap();
    let start = doc.find("proc drunk_check(w, total) {").unwrap();
    let excerpt = &doc[start..start + doc[start..].find("```").unwrap()];
    for part in excerpt.split("\n\n") {
        assert!(spec.contains(part.trim()), "not in specs/hangover.rules:\n{part}");
    }
}
