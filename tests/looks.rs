//! `look`: a rules file says how its cards are drawn (a colour per group, a symbol), and the
//! judge's page and the terminal use it. What is accepted, what is refused and why, and an
//! extension's own looks over its parent's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

/// A two-player game with a suit and these `look` lines.
fn game(looks: &str) -> String {
    format!(
        "game tiny\nplayers 2..2\nrule r \"unused\"\nenum Suit {{ C, D }}\n{looks}\n\
         card Coin(suit: Suit) {{\n  each suit in Suit\n  code suit ++ \"1\"\n}}\naction flip: Coin\n\
         scores {{}}\nwinners []\nflow {{\n  choose {{\n    flip(c) by players[0] {{ }}\n  }}\n}}\n"
    )
}

/// The messages of compiling `text`, with the text under each first label.
fn refused(text: &str) -> Vec<(String, String, String)> {
    match shinpan::compile("t.rules", text) {
        Ok(_) => vec![],
        Err(diags) => diags
            .iter()
            .map(|d| {
                let under = d.labels.first().map_or(String::new(), |(s, _)| text[s.clone()].to_string());
                (d.code.to_string(), d.message.clone(), under)
            })
            .collect(),
    }
}

#[test]
fn a_look_gives_a_group_a_colour_and_a_symbol() {
    let program = shinpan::compile("t.rules", &game("look C black \"♣\"\nlook D red")).unwrap();
    let looks: Vec<(&str, &str, Option<&str>)> =
        program.looks.iter().map(|l| (l.group.as_str(), l.colour.as_str(), l.symbol.as_deref())).collect();
    assert_eq!(looks, [("C", "black", Some("♣")), ("D", "red", None)]);
    // No look, no looks: the page then spreads hues over the groups as before.
    assert!(shinpan::compile("t.rules", &game("")).unwrap().looks.is_empty());
}

#[test]
fn a_look_names_a_member_a_colour_and_a_short_plain_symbol() {
    let unknown_member = refused(&game("look E red"));
    assert_eq!(unknown_member.len(), 1, "{unknown_member:?}");
    assert_eq!(unknown_member[0].0, "shinpan::spec::unknown-name");
    assert_eq!(unknown_member[0].1, "unknown enum member `E`");
    assert_eq!(unknown_member[0].2, "E");
    let unknown_colour = refused(&game("look C rde"));
    assert_eq!(unknown_colour[0].1, "unknown colour `rde`", "{unknown_colour:?}");
    assert_eq!(unknown_colour[0].2, "rde");
    let d = shinpan::compile("t.rules", &game("look C gren")).unwrap_err();
    assert_eq!(d[0].help.as_deref(), Some("did you mean `green`?"));
    // A symbol of at most 4 characters (at the limit and one past it), without controls.
    assert!(refused(&game("look C red \"♣♣♣♣\"")).is_empty());
    let long = refused(&game("look C red \"♣♣♣♣♣\""));
    assert_eq!(long[0].0, "shinpan::spec::limit", "{long:?}");
    assert_eq!(long[0].2, "\"♣♣♣♣♣\"");
    assert_eq!(refused(&game("look C red \"\u{7}\""))[0].0, "shinpan::spec::limit");
    let interpolated = refused(&game("look C red \"{1}\""));
    assert_eq!(interpolated[0].1, "a look's symbol is plain text, without `{...}`", "{interpolated:?}");
    // `look` stays a name elsewhere: a variable may be called so.
    let named = game("").replace("scores {}", "var look = 1\nscores {}");
    assert!(refused(&named).is_empty(), "{:?}", refused(&named));
}

#[test]
fn the_built_in_games_say_how_their_cards_look() {
    let looks = |name: &str| shinpan::builtin_program(name).unwrap().unwrap().looks.clone();
    let bridge = looks("bridge");
    let hearts = bridge.iter().find(|l| l.group == "H").unwrap();
    assert_eq!((hearts.colour.as_str(), hearts.symbol.as_deref()), ("red", Some("♥")));
    let spades = bridge.iter().find(|l| l.group == "S").unwrap();
    assert_eq!((spades.colour.as_str(), spades.symbol.as_deref()), ("black", Some("♠")));
    // An extension keeps its parent's looks.
    assert_eq!(looks("bridge-duplicate"), bridge);
    for game in ["hangover", "torite-4to6", "curtain-call", "clock-tcg"] {
        assert!(looks(game).len() >= 4, "{game}");
    }
}

/// On a terminal the replay draws each card of a group with a look in its colour, its words
/// unchanged; without colour the text is as before.
#[test]
fn the_terminal_draws_cards_in_their_colour() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checker = shinpan::report::check::Checker::new(None);
    checker.record_states = true;
    let report = checker.check_path(&root.join("fixtures/bridge/must-follow.yaml"));
    let steps = report.replay_steps();
    let last = steps.last().unwrap();
    let plain = last.human_at(100);
    let coloured = last.human_in_colour(100);
    assert!(!plain.contains('\u{1b}'));
    assert!(coloured.contains("\u{1b}[31mHK\u{1b}[0m"), "{coloured}");
    assert!(coloured.contains("\u{1b}[39mSQ\u{1b}[0m"), "{coloured}");
    let stripped = coloured.replace("\u{1b}[31m", "").replace("\u{1b}[39m", "").replace("\u{1b}[0m", "");
    assert_eq!(stripped, plain);
}
