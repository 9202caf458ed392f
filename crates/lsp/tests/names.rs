//! The language server's name lookup on every built-in game, through the crate's own API.
#![allow(clippy::unwrap_used, clippy::panic, reason = "tests fail loudly")]

use shinpan_lsp::document::{Document, Target};

/// Every name that every built-in game uses is found: a declaration of the game (or of the
/// game it extends), a local, a built-in, a rule every game has, or a word of the language.
#[test]
fn every_name_in_the_built_in_games_is_found() {
    let root = std::fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap();
    let mut found = 0;
    for name in shinpan::editor::builtin_games() {
        let text = shinpan::editor::builtin_rules(name).unwrap();
        let uri = format!("file:///nowhere/{name}.rules").parse().unwrap();
        let doc = Document::new(uri, text.to_string(), std::slice::from_ref(&root));
        assert!(doc.diagnostics.is_empty(), "{name}: {:?}", doc.diagnostics);
        let analysis = doc.analysis.as_ref().unwrap();
        for used in &analysis.uses {
            let (span, target) = doc
                .target_at(used.span.start)
                .unwrap_or_else(|| panic!("{name}: `{}` at {:?} is not found", used.name, used.span));
            assert_eq!(&text[span], used.name);
            // Where the name leads must spell it, and a local must be in scope where it is used.
            let at = used.span.clone();
            match target {
                Target::Decl(0, decl) => assert_eq!(&text[decl.span.clone()], used.name, "{name}: {at:?}"),
                Target::Decl(_, decl) => assert_eq!(decl.name, used.name, "{name}: {at:?}"),
                Target::Local(local) => {
                    assert_eq!(&text[local.span.clone()], used.name, "{name}: {at:?}");
                    // A comprehension's body comes before its `for`: in scope, not after the name.
                    assert!(local.scope.contains(&at.start), "{name}: {at:?}");
                }
                Target::Builtin(n, ..) | Target::SharedRule(n, _) | Target::Word(n) => {
                    assert_eq!(n, used.name, "{name}: {at:?}")
                }
            }
            found += 1;
        }
    }
    assert!(found > 3000, "only {found} uses");
}
