//! What `lint` finds before a game is run: a helper called with the wrong number of
//! arguments, and every name and type error of a file in one run, without errors that only
//! follow from another.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::diag::Diag;

/// A two-player game with these declarations and this branch body.
fn game(decls: &str, body: &str) -> String {
    format!(
        "game tiny\nplayers 2..2\nrule r \"unused\"\nenum Suit {{ C, D }}\n\
         card Coin(face: int) {{\n  \"H\" (1)\n  \"T\" (0)\n}}\naction flip: Coin\n\
         var vp per player = 0\n{decls}\nscores vp\nwinners []\n\
         flow {{\n  for p in players {{\n    choose {{\n      flip(c) by p {{\n{body}\n      }}\n    }}\n  }}\n}}\n"
    )
}

fn diagnostics(text: &str) -> Vec<Diag> {
    shinpan::compile("t.rules", text).err().unwrap_or_default()
}

/// Each diagnostic's code and the text its first label is on.
fn codes_at(text: &str) -> Vec<(String, String)> {
    diagnostics(text)
        .iter()
        .map(|d| {
            let span = d.span().unwrap();
            (d.code.trim_start_matches("shinpan::spec::").to_string(), text[span].to_string())
        })
        .collect()
}

fn at(code: &str, text: &str) -> (String, String) {
    (code.to_string(), text.to_string())
}

const HELPERS: &str = "fn worth(c, bonus) = c.face + bonus\nproc score(p, n) {\n  vp[p] += n\n}";

#[test]
fn a_fn_called_with_the_wrong_number_of_arguments_is_a_lint_error() {
    let text = game(HELPERS, "require worth(c) > 0 else r \"never\"\nvp[p] += worth(c, 1, 2)");
    assert_eq!(codes_at(&text), [at("arity", "worth(c)"), at("arity", "worth(c, 1, 2)")]);
    let d = &diagnostics(&text)[0];
    assert_eq!(d.message, "`worth` takes 2 arguments, not 1");
    let labels: Vec<(&str, &str)> = d.labels.iter().map(|(s, l)| (&text[s.clone()], l.as_str())).collect();
    assert_eq!(labels, [("worth(c)", "called with 1 argument"), ("worth", "`worth` takes 2 arguments")]);
    assert_eq!(d.help.as_deref(), Some("call it as `worth(c, bonus)`"));
}

#[test]
fn a_proc_called_with_the_wrong_number_of_arguments_is_a_lint_error() {
    let text = game(HELPERS, "score(p)\nscore(p, 1, 2)\nscore(p, worth(c, 1))");
    assert_eq!(codes_at(&text), [at("arity", "score(p)"), at("arity", "score(p, 1, 2)")]);
    assert_eq!(diagnostics(&text)[1].message, "`score` takes 2 arguments, not 3");
    let none = game("fn base() = 1\nproc settle_up() {\n  vp[players[0]] += base()\n}", "settle_up(p)");
    assert_eq!(diagnostics(&none)[0].message, "`settle_up` takes no arguments, not 1");
    let check = game("check worthy(c) {\n  require c.face > 0 else r \"never\"\n}", "worthy(c, 1)");
    assert_eq!(codes_at(&check), [at("arity", "worthy(c, 1)")]);
}

#[test]
fn the_right_number_of_arguments_is_no_error() {
    let text = game(HELPERS, "require worth(c, 1) > 0 else r \"never\"\nscore(p, worth(c, 0))");
    assert!(diagnostics(&text).is_empty(), "{:?}", diagnostics(&text));
}

/// A helper declared in the file a variant extends: the diagnostic stays in the variant's
/// file, and the help line says how the helper is called.
#[test]
fn a_helper_of_the_extended_file_is_named_in_the_help() {
    let text = "extends hangover\nfn first_column(p) = column(p)\n";
    let diags = shinpan::compile_in("variant.rules", text, std::path::Path::new(".")).unwrap_err();
    let d = diags.iter().find(|d| d.code == "shinpan::spec::arity").unwrap();
    assert_eq!(d.source.as_ref().map(|s| s.name()), Some("variant.rules"));
    assert_eq!(d.labels.len(), 1, "{:?}", d.labels);
    assert_eq!(&text[d.labels[0].0.clone()], "column(p)");
    assert_eq!(d.help.as_deref(), Some("call it as `column(p, k)`"));
}

#[test]
fn an_unknown_name_and_a_type_error_are_reported_in_one_run() {
    let text = game("", "require c.face == \"heads\" else r \"never\"\nvp[p] += bonsu");
    assert_eq!(codes_at(&text), [at("type-mismatch", "\"heads\""), at("unknown-name", "bonsu")]);
    // In the order of the file, whichever stage found them.
    let text = game("", "let b = bonsu\nrequire c.face == \"heads\" else r \"never\"");
    assert_eq!(codes_at(&text), [at("unknown-name", "bonsu"), at("type-mismatch", "\"heads\"")]);
}

#[test]
fn an_arity_error_comes_with_the_others() {
    let text = game(HELPERS, "require c.face == \"heads\" else r \"never\"\nscore(p)\nscroe(p, 1)");
    assert_eq!(
        codes_at(&text),
        [at("type-mismatch", "\"heads\""), at("arity", "score(p)"), at("unknown-name", "scroe")]
    );
}

/// Each unknown name is one error: nothing is said about the expression it stands in, nor
/// about what it would have been taken for.
#[test]
fn what_an_unknown_name_touches_says_nothing_more() {
    for body in [
        // Arithmetic, comparison, indexing and fields of an unknown name, function or variant.
        "vp[p] += bonsu + 1",
        "require bonsu == c and bonsu.face > 0 else r \"never\"",
        "require lenn(vp) > c.face else r \"never\"",
        "require Suit.E == c else r \"never\"",
        "let h = hnad[p]\nvp[p] += h",
        // Null would be taken for no value: `v` would be an int here.
        "let v = if c.face > 0 then bonsu else 1\nrequire v == c else r \"never\"",
        // A misspelled procedure is not taken for the first one (whose `n` would be a card).
        "scroe(p, c)",
        // A misspelled variable is not taken for the first local (`p`, a player).
        "scroe += 1",
    ] {
        let codes = codes_at(&game(HELPERS, body));
        assert!(codes.iter().all(|(code, _)| code == "unknown-name"), "{body}: {codes:?}");
        assert!(!codes.is_empty(), "{body}");
    }
}

/// A branch of an unknown action is not taken for the first action's (`flip`, a coin).
#[test]
fn an_unknown_action_s_argument_is_of_unknown_type() {
    let text = game("", "").replace("flip(c) by p {\n", "flp(c) by p {\nvp[p] += c\n");
    assert_eq!(codes_at(&text), [at("unknown-action", "flp")]);
}

/// A name declared twice, or one the language keeps, is reported once: which declaration
/// its uses mean is not known, so they are neither typed nor counted against either.
#[test]
fn the_uses_of_a_refused_declaration_say_nothing_more() {
    let text = game("var players = 1\nfn worth(c) = c.face\nfn worth(c, bonus) = 1", "vp[p] += worth(c, 2)");
    assert_eq!(codes_at(&text), [at("duplicate", "players"), at("duplicate", "worth")]);
    let text = game("var vp = []", "vp[p] += c.face\nvp += [c]");
    assert_eq!(codes_at(&text), [at("duplicate", "vp")]);
}

#[test]
fn a_file_without_a_name_is_still_checked() {
    let text = game("", "require c.face == \"heads\" else r \"never\"").replace("game tiny\n", "");
    let codes: Vec<String> = codes_at(&text).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, ["missing", "type-mismatch"]);
}

/// Card values are worked out when compiling: one that did not resolve is not run, since
/// running it would only fail because of the error already reported.
#[test]
fn a_card_value_that_did_not_resolve_is_not_run() {
    let text = game("fn half(n, m) = n / m", "").replace("\"H\" (1)", "\"H\" (half(4))");
    assert_eq!(codes_at(&text), [at("arity", "half(4)")]);
    let text = game("", "").replace("\"H\" (1)", "\"H\" (bonsu + 1)");
    assert_eq!(codes_at(&text), [at("unknown-name", "bonsu")]);
    let each = "card Drink(suit: Suit, rank: int) {\n  each suit in Suitt, rank in range(1, 3)\n  code suit ++ rank\n}";
    assert_eq!(codes_at(&game(each, "")), [at("unknown-name", "Suitt")]);
    // A binding that names no attribute is still found.
    let each = "card Drink(suit: Suit, rank: int) {\n  each suit in Suitt, rnk in range(1, 3)\n  code suit ++ rnk\n}";
    assert_eq!(codes_at(&game(each, "")), [at("bad-cards", "rank"), at("unknown-name", "Suitt")]);
}

/// A game whose flow (and what follows it: procedures, `due` steps) is given, for the warning
/// about a flow that can end without `finish`.
fn flowing(flow: &str, after: &str) -> String {
    format!(
        "game tiny\nplayers 2..2\nrule r \"unused\"\ncard Coin(face: int) {{\n  \"H\" (1)\n  \"T\" (0)\n}}\n\
         action flip: Coin\nvar flips = 0\nscores {{}}\nwinners []\nflow {{\n{flow}\n}}\n{after}\n"
    )
}

const TURN: &str = "choose {\n  flip(c) by players[0] {\n    flips += 1\n  }\n}";

/// The warnings of a text that compiles: each one's code and the text its labels are on.
fn warnings(text: &str) -> Vec<(String, Vec<String>)> {
    let checked = shinpan::editor::lint("t.rules", text, std::path::Path::new(".")).unwrap();
    let code = |d: &Diag| d.code.trim_start_matches("shinpan::spec::").to_string();
    checked
        .warnings
        .iter()
        .map(|d| (code(d), d.labels.iter().map(|(s, _)| text[s.clone()].trim_end().to_string()).collect()))
        .collect()
}

#[test]
fn a_flow_that_can_run_out_without_finish_is_warned_about() {
    // Nothing finishes.
    let text = flowing(&format!("{TURN}\nflips = 0"), "");
    assert_eq!(warnings(&text), [("no-finish".to_string(), vec!["flips = 0".to_string()])]);
    // Only when a condition holds, and nothing after it finishes.
    let text = flowing(&format!("{TURN}\nif flips > 0 {{\n  finish\n}}"), "");
    let (code, at) = &warnings(&text)[0];
    assert_eq!(code, "no-finish");
    assert!(at[0].starts_with("if flips > 0"), "{at:?}");
    // An `else` that goes on without it.
    let text = flowing(&format!("{TURN}\nif flips > 0 {{\n  finish\n}} else {{\n  flips = 0\n}}"), "");
    assert_eq!(warnings(&text)[0].1[0], "flips = 0");
    // A loop that never finishes, which a `break` ends.
    let text = flowing(&format!("loop {{\n  {TURN}\n  if flips > 2 {{\n    break\n  }}\n}}"), "");
    assert!(warnings(&text)[0].1[0].starts_with("loop {"));
    // A `while` that ends, whose body cannot finish.
    let text = flowing(&format!("while flips < 2 {{\n  {TURN}\n}}"), "");
    assert!(warnings(&text)[0].1[0].starts_with("while flips < 2"));
    // A procedure that finishes only sometimes.
    let text = flowing(&format!("{TURN}\nend()"), "proc end() {\n  if flips > 1 {\n    finish\n  }\n}");
    assert_eq!(warnings(&text)[0].1[0], "end()");
    // An action that goes on without it, where the flow ends at the choice.
    let choice = "choose {\n  flip(c) by players[0] {\n    finish\n  }\n  otherwise {\n    flips = 0\n  }\n}";
    assert!(warnings(&flowing(choice, ""))[0].1[0].starts_with("choose {"));
}

#[test]
fn a_flow_that_always_finishes_is_not_warned_about() {
    let quiet = |flow: &str, after: &str| {
        let text = flowing(flow, after);
        assert_eq!(warnings(&text), [], "{text}");
    };
    quiet(&format!("{TURN}\nfinish"), "");
    quiet(&format!("{TURN}\nfinish now"), "");
    quiet(&format!("{TURN}\nif flips > 0 {{\n  finish\n}} else {{\n  finish now\n}}"), "");
    // A loop that runs until the game is over, finishing inside.
    quiet(&format!("while flips < 2 {{\n  {TURN}\n  if flips == 2 {{\n    finish\n  }}\n}}"), "");
    quiet(&format!("for p in players {{\n  {TURN}\n  end()\n}}"), "proc end() {\n  if flips > 1 {\n    finish\n  }\n}");
    // A loop with no `break` never comes out.
    quiet(&format!("loop {{\n  {TURN}\n}}"), "");
    // Each action taken finishes, or takes the choice again.
    quiet("choose {\n  flip(c) by players[0] {\n    if c.face == 0 {\n      again\n    }\n    finish\n  }\n}", "");
    // A procedure that always finishes, one that calls itself.
    quiet(&format!("{TURN}\nend()"), "proc end() {\n  finish\n}");
    quiet(&format!("{TURN}\nend()"), "proc end() {\n  if flips > 9 {\n    end()\n  } else {\n    finish\n  }\n}");
    // A `due` step that can finish, run while a loop's choice waits.
    let due = "due over when flips > 2 {\n  finish now\n}";
    quiet(&format!("while true {{\n  {TURN}\n}}"), due);
    // A `due` step run by `settle`, and a loop inside the loop that finishes.
    quiet("while flips < 2 {\n  flips += 1\n  settle\n}", due);
    quiet(
        &format!(
            "while flips < 2 {{\n  for p in players {{\n    {TURN}\n    if flips == 2 {{\n      finish\n    }}\n  }}\n}}"
        ),
        "",
    );
    // A record open at every waiting point that can end the game.
    let always = "always flip(c) by players[1] when flips > 2 {\n  finish\n}";
    quiet(&format!("while true {{\n  {TURN}\n}}"), always);
    // A cost of a move let stand that finishes, in a loop.
    let stand = "choose {\n  flip(c) by players[0] {\n    require c.face == 1 else r \"tails\" costs {\n      finish\n    }\n  }\n}";
    let text = flowing(&format!("while flips < 2 {{\n  {stand}\n}}"), "");
    assert_eq!(warnings(&text.replace("rule r \"unused\"", "rule r \"unused\" stands")), []);
}

#[test]
fn a_loop_left_from_inside_a_choice_is_a_way_out() {
    let leave = "choose {\n    flip(c) by players[0] {\n      break\n    }\n  }";
    let text = flowing(&format!("loop {{\n  {leave}\n}}"), "");
    assert!(warnings(&text)[0].1[0].starts_with("loop {"), "{:?}", warnings(&text));
    // Without the `break`, the loop never comes out.
    assert_eq!(warnings(&text.replace("      break\n", "      flips += 1\n")), []);
    // Nor does a `break` of an inner loop take the outer one out.
    let inner = format!("loop {{\n  for p in players {{\n    {TURN}\n    break\n  }}\n}}");
    assert_eq!(warnings(&flowing(&inner, "")), []);
}

#[test]
fn no_built_in_game_is_warned_about() {
    for name in shinpan::editor::builtin_games() {
        let text = shinpan::editor::builtin_rules(name).unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
        let checked = shinpan::editor::lint(&format!("{name}.rules"), text, &dir).unwrap();
        assert!(checked.warnings.is_empty(), "{name}: {:?}", checked.warnings);
    }
}

/// A game that waits once for `move`, whose argument has `shape`, with `checks` in its body.
fn moving(shape: &str, checks: &str) -> String {
    format!(
        "game tiny\nplayers 2..2\nrule r \"unused\"\ncard Coin(face: int) {{\n  \"H\" (1)\n  \"T\" (0)\n}}\n\
         card Big(n: int) {{\n  each n in range(1, 300)\n  code \"B{{n}}\"\n}}\n\
         action move: {shape}\nvar hand = [first(Coin)]\nscores {{}}\nwinners []\n\
         flow {{\n  choose {{\n    move(x) by players[0] {{\n{checks}\n    }}\n  }}\n  finish\n}}\n"
    )
}

/// A record argument whose first check takes a field from a collection is tried as that
/// collection's items with every value of its other fields: neither blindly nor never.
#[test]
fn a_record_whose_field_is_taken_from_a_collection_is_not_warned_about() {
    let blind = |text: &str| {
        let found = warnings(text);
        assert!(found.len() == 1 && found[0].0 == "blind-play" && found[0].1 == ["move"], "{found:?}\n{text}");
    };
    let never = |text: &str| {
        let found = warnings(text);
        assert!(found.len() == 1 && found[0].0 == "dead-end" && found[0].1 == ["move"], "{found:?}\n{text}");
    };
    let held = "      require x.card in hand else r \"not held\"";
    let wide = "{card: Coin, n: int 0..999}";
    // 2,000 records tried one by one, unless the first check names the cards to try.
    blind(&moving(wide, ""));
    assert_eq!(warnings(&moving(wide, held)), []);
    // Not first, or a collection that reads the argument: the whole shape, as before.
    blind(&moving(wide, &format!("      require x.n > 0 else r \"zero\"\n{held}")));
    blind(&moving(wide, "      require x.card in [x.card] else r \"never fails\""));
    // A field with no list of values is given its values by its check...
    assert_eq!(warnings(&moving("{n: int, card: Coin}", "      require x.n in [1, 2] else r \"not listed\"")), []);
    never(&moving("{n: int, card: Coin}", ""));
    // ... but another such field still leaves the record without any.
    never(&moving("{card: Coin, n: int}", held));
    // How many values a record is tried as: an optional field given or left out, up to 4,096.
    let counted = |shape: &str| {
        let text = moving(shape, "");
        let checked = shinpan::editor::lint("t.rules", &text, std::path::Path::new(".")).unwrap();
        checked.warnings.iter().map(|d| d.message.clone()).collect::<Vec<_>>()
    };
    assert_eq!(
        counted("{card: Coin, n?: int 0..999}"),
        ["`play` tries all 2002 values of `move`'s argument here, one by one through the checks"]
    );
    assert_eq!(
        counted("{a: int 0..63, b: int 0..63}"),
        ["`play` tries all 4096 values of `move`'s argument here, one by one through the checks"]
    );
    never(&moving("{a: int 0..63, b: int 0..64}", ""));
    // A card's attribute is no record's field: every card is tried.
    blind(&moving("Big", "      require x.n in [1, 2] else r \"not listed\""));
}

/// `again` takes the choice again: that way through does not go on past it.
#[test]
fn an_action_that_takes_the_choice_again_does_not_go_on() {
    let again = "choose {\n  flip(c) by players[0] {\n    if c.face == 0 {\n      finish\n    } else {\n      again\n    }\n  }\n}";
    assert_eq!(warnings(&flowing(again, "")), []);
    // Going on in its place, the flow can end there.
    let on = again.replace("again", "flips += 1");
    let found = warnings(&flowing(&on, ""));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1[0].starts_with("choose {"), "{found:?}");
}

/// A procedure or a `due` step that never finishes does not end a loop's game.
#[test]
fn a_helper_that_never_finishes_does_not_end_a_loop() {
    let tally = "proc count_up() {\n  flips += 1\n}";
    let text = flowing(&format!("for p in players {{\n  {TURN}\n  count_up()\n}}"), tally);
    let found = warnings(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1[0].starts_with("for p in players"), "{found:?}");
    let due = "due reset when flips > 2 {\n  flips = 0\n}";
    let text = flowing(&format!("while true {{\n  {TURN}\n}}"), due);
    let found = warnings(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1[0].starts_with("while true"), "{found:?}");
}

/// `fixtures/spec/rule-order_1.rules` with its branch's checks replaced by `checks`.
fn laying_away(checks: &str) -> String {
    let text = std::fs::read_to_string("fixtures/spec/rule-order_1.rules").unwrap();
    let start = text.find("        require len(cs)").unwrap();
    let end = text.find("        hand[p] = hand[p] - cs").unwrap();
    format!("{}{checks}{}", &text[..start], &text[end..])
}

const LENGTH: &str = "        require len(cs) == 2 else too-many \"wrong length\"\n";
const HELD: &str = "        require all c in cs: c in hand[p] else not-held \"not held\"\n";

#[test]
fn a_rule_checked_after_one_declared_later_is_warned_about() {
    let later_first = format!("{LENGTH}{HELD}");
    let held = HELD.trim();
    let length = LENGTH.trim();
    assert_eq!(warnings(&laying_away(&later_first)), [("rule-order".into(), vec![held.into(), length.into()])]);
    // In an arm of an `if`, or in a loop, a check is read where it is written.
    let in_if = format!("        if cs != [] {{\n  {LENGTH}        }}\n{HELD}");
    assert_eq!(warnings(&laying_away(&in_if))[0].1, [held, length]);
    // An earlier rule again after a later one; the label on the first check of the later rule.
    assert_eq!(warnings(&laying_away(&format!("{HELD}{LENGTH}{HELD}")))[0].1, [held, length]);
    let again = LENGTH.replace("wrong length", "again");
    assert_eq!(warnings(&laying_away(&format!("{LENGTH}{again}{HELD}")))[0].1, [held, length]);
    // The fixture itself: the check in a loop after the length.
    let fixture = std::fs::read_to_string("fixtures/spec/rule-order_1.rules").unwrap();
    assert_eq!(warnings(&fixture).len(), 1);
}

#[test]
fn rules_checked_in_the_order_declared_are_not_warned_about() {
    // The declared order, each rule checked twice in a row, one rule alone.
    for checks in [format!("{HELD}{LENGTH}"), format!("{HELD}{HELD}{LENGTH}{LENGTH}"), HELD.to_string()] {
        assert_eq!(warnings(&laying_away(&checks)), [], "{checks}");
    }
    // The fixture's checks, with its rules declared in the order it checks them.
    let fixture = std::fs::read_to_string("fixtures/spec/rule-order_1.rules").unwrap();
    let (held, many) = (
        "rule not-held \"a card laid away is not in the player's hand\"\n",
        "rule too-many \"a player lays away exactly two cards\"\n",
    );
    let swapped = fixture.replace(&format!("{held}{many}"), &format!("{many}{held}"));
    assert_ne!(swapped, fixture);
    assert_eq!(warnings(&swapped), []);
}

/// What the static check knows of each built-in game's variables, as a rules file writes a
/// shape (`?` where it knows nothing): what a typed layout of the state has to go on. Each
/// actor named with `as` is a player here, so every per-player variable is keyed by players.
#[test]
fn the_static_types_of_the_built_in_games_variables() {
    let mut out = String::new();
    for (name, _) in shinpan::lang::specs::BUILTIN {
        let program = shinpan::builtin_program(name).unwrap().unwrap();
        out.push_str(&format!("{name}\n"));
        for (var, t) in program.vars.iter().zip(&program.var_types) {
            out.push_str(&format!("  {}: {}\n", var.name, t.written(&program)));
        }
    }
    insta::assert_snapshot!(out);
}

/// A list handed down a chain of `n` helpers, each declared before the one that calls it, to
/// the last, which adds 1 to it.
fn chain_of_helpers(n: usize) -> String {
    let mut decls = format!("fn pass{n}(x) = x + 1\n");
    for i in (1..n).rev() {
        decls.push_str(&format!("fn pass{i}(x) = pass{}(x)\n", i + 1));
    }
    game(&decls, "        vp[p] = len(pass1([c]))")
}

/// The checker follows a list down a chain of 1,000 helpers (a few dozen a round) and reports
/// the last one; down 20,000 it runs out of rounds and says nothing, as with any rules that do
/// not settle, without taking the stack of a test thread (followed all at once, one helper
/// inside another, it would).
#[test]
fn a_long_chain_of_helpers_is_followed_to_its_end() {
    assert_eq!(codes_at(&chain_of_helpers(1_000)), [at("type-mismatch", "1")]);
    assert_eq!(codes_at(&chain_of_helpers(20_000)), []);
}

/// A list plus a value that may be of two kinds may hold anything, so its items are not
/// judged; a list less such a value keeps its items' type (taking away adds none).
#[test]
fn a_list_plus_a_value_of_two_kinds_holds_anything() {
    let calls = "        require f([c])[0] != \"H\" else r \"never\"\n        vp[p] = len(f([c])) + len(f(1))";
    assert_eq!(codes_at(&game("fn f(x) = [first(Coin)] + x", calls)), []);
    assert_eq!(codes_at(&game("fn f(x) = [first(Coin)] - x", calls)), [at("type-mismatch", "\"H\"")]);
}

/// Rules that do not settle are judged knowing nothing of their types, not on what the rounds
/// learned before they ran out. `held` takes a list, and an int at the end of a chain of
/// helpers: once that is followed, `held` is of either kind and `held + 1` is not judged. Down
/// 20,000 helpers the rounds run out with `held` seen as a list only, which would report it.
#[test]
fn rules_that_do_not_settle_are_not_judged_on_half_of_what_they_do() {
    for n in [1_000, 20_000] {
        let mut decls = format!("var held = null\nfn pass{n}(x) = x\n");
        for i in (1..n).rev() {
            decls.push_str(&format!("fn pass{i}(x) = pass{}(x)\n", i + 1));
        }
        let body = "        held = [c]\n        held = pass1(1)\n        vp[p] = held + 1";
        assert_eq!(codes_at(&game(&decls, body)), [], "{n} helpers");
    }
}
