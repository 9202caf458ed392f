//! Expressions of the rules language: `let ... in`, `pow`, `combinations` past the list's
//! length, a card named by its code, `players N`, and the values docs/language.md promises
//! (each test's score depends on the construct doing what the page says).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::report::check::{Checker, Report, Verdict};

/// A two-player game whose first player's score is `score` (an int expression), with these
/// declarations.
fn game(decls: &str, score: &str) -> String {
    format!(
        "game tiny\nplayers 2..2\nrule r \"the coin is heads\"\nenum Suit {{ C, D }}\n\
         card Coin(face: int, suit: Suit) {{\n  \"H\" (1, Suit.C)\n  \"T\" (0, Suit.D)\n}}\naction flip: Coin\n\
         {decls}\nscores zip_map(players, [{score}, 0])\nwinners []\n\
         flow {{\n  choose {{\n    flip(c) by players[0] {{\n      require c.face == 1 else r \"tails\"\n    }}\n  }}\n}}\n"
    )
}

/// Checks these events (YAML list items) against a rules file written to a fresh directory.
fn check(rules: &str, events: &str) -> Report {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("shinpan-expressions-{run}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.rules"), rules).unwrap();
    let text = format!("rules: t.rules\nplayers: [aki, ben]\nevents:\n{events}");
    let report = Checker::new(None).check_text("t.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    report
}

/// The first player's score under these declarations, or the verdict's error.
fn score(decls: &str, score: &str) -> Result<i64, String> {
    let report = check(&game(decls, score), "  - {by: aki, flip: H}\n");
    if report.verdict == Verdict::Legal {
        let (_, score) = &report.scores.unwrap()[0];
        return Ok(score.as_i64().unwrap());
    }
    Err(report.spec_errors.first().map_or_else(|| format!("{:?}", report.errors), |d| d.message.clone()))
}

/// The codes of a rules file's diagnostics.
fn codes(text: &str) -> Vec<String> {
    match shinpan::compile("t.rules", text) {
        Ok(_) => vec![],
        Err(diags) => diags.iter().map(|d| d.code.trim_start_matches("shinpan::spec::").to_string()).collect(),
    }
}

#[test]
fn let_names_a_value_inside_an_expression() {
    assert_eq!(score("", "let x = 3 in x * x + 1"), Ok(10));
    // Chained, each name seeing the ones before.
    assert_eq!(score("", "let a = 2 in let b = a * 10 in a + b"), Ok(22));
    // In a helper's body, shadowing its parameter, and recursing.
    let decls = "fn f(n) = let n = n + 1 in n * 2\nfn fact(n) = let m = n - 1 in if n <= 1 then 1 else n * fact(m)";
    assert_eq!(score(decls, "f(4) + fact(5)"), Ok(10 + 120));
    // The body reaches as far as it can; a membership test as the value is bracketed.
    assert_eq!(score("", "let ok = (2 in [1, 2]) in if ok then 7 else 8"), Ok(7));
    assert_eq!(score("", "let xs = [1, 2, 3] in len([x for x in xs where x in xs])"), Ok(3));
    // Inside a comprehension, a name per item.
    assert_eq!(score("", "sum([let y = x * x in y for x in [1, 2, 3]])"), Ok(14));
    // The value is computed once, before the body, in the scope outside the `let`.
    assert_eq!(score("var v = 5", "let v = v + 1 in v"), Ok(6));
    assert_eq!(score("var v = 5", "(let v = 1 in v) + v"), Ok(6));
}

#[test]
fn a_let_name_is_typed_and_scoped() {
    // The name has its value's type.
    let text = game("", "let x = \"a\" in x + 1");
    assert_eq!(codes(&text), ["type-mismatch"]);
    // Not seen past its body.
    let text = game("", "(let x = 1 in x) + x");
    assert_eq!(codes(&text), ["unknown-name"]);
    // Nor inside its own value.
    let text = game("", "let x = x + 1 in x");
    assert_eq!(codes(&text), ["unknown-name"]);
    // A statement `let` still reads `in` as membership.
    let text = game("fn f() = 1", "0").replace("require c.face", "let held = c in [c]\n      require c.face");
    assert_eq!(codes(&text), Vec::<String>::new());
}

#[test]
fn lets_nested_too_deep_are_refused_before_parsing() {
    // Each `let` nests its body, and a `let` as another's value nests too.
    for deep in ["let a = 1 in ".repeat(100_000) + "a", "let a = ".repeat(100_000) + "1" + &" in a".repeat(100_000)] {
        assert_eq!(codes(&game("", &deep)), ["too-deep"]);
    }
    let fine = "let a = 0 in ".to_string() + &"let a = a + 1 in ".repeat(55) + "a";
    assert_eq!(score("", &fine), Ok(55));
    // A statement's `let` does not count: eighty of them are no nesting.
    let flat = "fn f() = 1".to_string();
    let text = game(&flat, "0").replace("require c.face", &("let z = 1\n      ".repeat(80) + "require c.face"));
    assert_eq!(codes(&text), Vec::<String>::new());
}

#[test]
fn a_card_is_named_by_its_code() {
    assert_eq!(score("", "if Coin(\"H\") == first(Coin) then Coin(\"T\").face + 5 else 0"), Ok(5));
    assert_eq!(score("", "len([c for c in Coin where c != Coin(\"T\")])"), Ok(1));
    // A code the kind does not have, or not one code in quotes.
    assert_eq!(codes(&game("", "len([Coin(\"X\")])")), ["unknown-name"]);
    assert_eq!(codes(&game("", "len([Coin(\"{1}\")])")), ["type-mismatch"]);
    assert_eq!(codes(&game("", "len([Coin(\"H\", \"T\")])")), ["type-mismatch"]);
    // It is a card of its kind: comparing it with a string is a type error.
    assert_eq!(codes(&game("", "if Coin(\"H\") == \"H\" then 1 else 0")), ["type-mismatch"]);
}

#[test]
fn players_n_is_exactly_n_and_extends_takes_a_bare_path() {
    let text = game("", "len(players)").replace("players 2..2", "players 2");
    let program = shinpan::compile("t.rules", &text).unwrap();
    assert_eq!(program.players, (2, 2));
    assert_eq!(codes(&game("", "0").replace("players 2..2", "players 0")), ["limit"]);
    // `extends` with a path and no quotes reads the file beside it.
    let dir = std::env::temp_dir().join(format!("shinpan-extends-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("base")).unwrap();
    std::fs::write(dir.join("base/parent.rules"), game("", "7")).unwrap();
    for line in ["extends base/parent.rules", "extends \"base/parent.rules\""] {
        let child = format!("{line}\ngame child\n");
        let rules = shinpan::Rules::from_text("child.rules", &child, &dir).unwrap();
        assert_eq!(rules.game().unwrap(), "child", "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
