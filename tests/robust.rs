//! Bad input gets a clear error, never a panic: rules files and transcripts cut, spliced and
//! salted at random must compile or fail with diagnostics, and check to some verdict.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::Path;

use proptest::prelude::*;
use shinpan::report::check::Checker;

fn specs() -> Vec<&'static str> {
    shinpan::lang::specs::BUILTIN.iter().map(|(_, t)| *t).collect()
}

/// Replaces a byte range of `text` (on char boundaries) with `insert`.
fn splice(text: &str, at: usize, len: usize, insert: &str) -> String {
    let mut start = at % (text.len() + 1);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + len).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{}{}", &text[..start], insert, &text[end..])
}

const SALT: &[&str] = &[
    "",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "loop { }",
    "while true { x = 1 }",
    "again",
    "break",
    "- {by: table}",
    ": :",
    "&a *a",
    "\u{0}",
    "é",
    "99999999999999999999",
    "-",
    "..",
    "=>",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mangled_rules_files_give_diagnostics(spec in prop::sample::select(specs()), at in any::<usize>(), len in 0usize..40, salt in prop::sample::select(SALT)) {
        let text = splice(spec, at, len, salt);
        match shinpan::compile("mangled.rules", &text) {
            Ok(_) => {}
            Err(diags) => prop_assert!(!diags.is_empty()),
        }
    }

    #[test]
    fn mangled_transcripts_get_a_verdict(file in prop::sample::select(vec![
        "fixtures/hangover/legal-annotated.yaml",
        "fixtures/curtain-call/legal-opening.yaml",
        "fixtures/torite-4to6/legal-annotated.yaml",
    ]), at in any::<usize>(), len in 0usize..40, salt in prop::sample::select(SALT)) {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        let report = Checker::new(None).check_text("mangled.yaml", splice(&text, at, len, salt), Path::new("."));
        let line = shinpan::report::render::json_line(&report);
        prop_assert!(line.contains("\"verdict\":"));
        let _ = shinpan::report::render::diagnostics(&report).iter().map(shinpan::diag::render_plain).count();
    }
}

/// A `let` right after a character of more than one byte (found by the test above in CI): the
/// word before it is read by characters, not cut inside one.
#[test]
fn a_let_after_a_wide_character_is_a_diagnostic() {
    for text in
        ["game t\nplayers 2\nflow {\n  x = é let y = 1 in y\n}\n", "game t\nplayers 2\nflow {\n  let a = [é let\n}\n"]
    {
        let Err(diags) = shinpan::compile("wide.rules", text) else { panic!("compiled: {text}") };
        assert!(!diags.is_empty(), "{text}");
    }
}
