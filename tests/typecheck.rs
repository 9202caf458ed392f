//! The static type check follows types through variables, helpers' results (also recursive
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]
//! ones), procedures' parameters and records' fields, and says nothing where a type is not
//! certain. Each case is a small game around one `flow`.

/// A two-player game with these declarations and this flow.
fn game(decls: &str, flow: &str) -> String {
    format!(
        "game tiny\nplayers 2..2\nrule r \"unused\"\nenum Suit {{ C, D }}\n\
         card Coin(face: int) {{\n  \"H\" (1)\n  \"T\" (0)\n}}\naction flip: Coin\n\
         var hand per player = []\nvar vp per player = 0\n{decls}\nscores vp\nwinners []\n\
         flow {{\n  choose {{\n    flip(c) by players[0] {{\n{flow}\n    }}\n  }}\n}}\n"
    )
}

/// The codes and the text under each diagnostic's first label.
fn errors(text: &str) -> Vec<(String, String)> {
    match shinpan::compile("t.rules", text) {
        Ok(_) => vec![],
        Err(diags) => diags
            .iter()
            .map(|d| {
                let span = d.labels.iter().find(|(_, l)| l.starts_with("this is") || l.starts_with("no such"));
                let under = span.map_or(String::new(), |(s, _)| text[s.clone()].to_string());
                (d.code.trim_start_matches("shinpan::spec::").to_string(), under)
            })
            .collect(),
    }
}

fn pair(code: &str, under: &str) -> (String, String) {
    (code.to_string(), under.to_string())
}

#[test]
fn a_recursive_helper_s_result_is_found_at_a_fixed_point() {
    let decls = "fn depth(n) = if n <= 0 then 0 else 1 + depth(n - 1)\n\
                 fn evens(n) = if n <= 0 then [] else odds(n - 1) + [2]\n\
                 fn odds(n) = if n <= 0 then [] else evens(n - 1) + [1]";
    let text = game(decls, "require depth(3) == \"three\" else r \"no\"\nrequire evens(4)[0] == c else r \"no\"");
    assert_eq!(errors(&text), [pair("type-mismatch", "\"three\""), pair("type-mismatch", "c")]);
}

#[test]
fn a_procedure_s_parameters_take_the_types_of_its_arguments() {
    let decls = "proc give(p, card) {\n  hand[p] += card\n}\nproc score(p, n) {\n  vp[p] += n\n}";
    let text = game(decls, "give(players[1], c)\nscore(players[1], [c])");
    assert_eq!(errors(&text), [pair("assign-mismatch", "card"), pair("assign-mismatch", "n")]);
}

#[test]
fn a_record_s_fields_follow_it_through_a_list() {
    let decls = "var trick = []";
    let flow = "trick = trick + [{player: players[0], card: c}]\nlet first_card = trick[0].crad";
    let text = game(decls, flow);
    assert_eq!(errors(&text), [pair("unknown-field", "trick[0].crad")]);
    let d = &shinpan::compile("t.rules", &text).unwrap_err()[0];
    assert_eq!(d.help.as_deref(), Some("did you mean `card`?"));
}

#[test]
fn a_loop_variable_settles_before_it_is_checked() {
    // `taken` is an empty list on the first round and a list of cards after it.
    let flow = "let taken = []\nfor x in Coin {\n  if taken != [] and taken[0] == 1 {\n    vp[players[0]] += 1\n  }\n  taken += [x]\n}";
    assert_eq!(errors(&game("", flow)), [pair("type-mismatch", "1")]);
}

#[test]
fn uncertain_types_say_nothing() {
    let decls = "param mode: \"Pass\" | int = 3\nvar said = null\nvar latest = null";
    let flow =
        "said = mode\nlatest = c.face\nlatest = \"x\"\nif latest == 3 or said == \"Pass\" or said == 3 {\n  finish\n}";
    assert_eq!(errors(&game(decls, flow)), []);
    // A field that only some records have, and a value of a union shape.
    let flow = "let rec = if c.face == 1 then {member: players[0]} else {slot: 1}\n\
                if rec.slot == 1 or rec.member == players[1] {\n  finish\n}";
    assert_eq!(errors(&game("", flow)), []);
}

#[test]
fn a_type_that_grows_without_end_settles_as_unknown() {
    let flow = "let x = []\nloop {\n  x = [x]\n  if len(x) > 3 {\n    break\n  }\n}\nlet y = x[0][0][0][0][0][0][0][0]";
    assert_eq!(errors(&game("", flow)), []);
}

/// A record's field named by a constant key has the field's type, set through a path
/// (`seen.count = ...`) or read by a quoted key (`seen["count"]`); a field that may be null,
/// or a key that is not constant, says nothing.
#[test]
fn a_record_s_field_by_a_constant_key_has_its_type() {
    let decls = "var seen = {coin: null, count: 0}";
    assert_eq!(errors(&game(decls, "seen.count = \"many\"")), [pair("assign-mismatch", "\"many\"")]);
    assert_eq!(errors(&game(decls, "seen.count = 2")), []);
    let require = |key: &str| format!("require seen[{key}] == c else r \"no\"");
    assert_eq!(errors(&game(decls, &require("\"count\""))), [pair("type-mismatch", "c")]);
    assert_eq!(errors(&game(decls, &require("\"coin\""))), []);
    assert_eq!(errors(&game(decls, &require("\"{c.face}\""))), []);
}
