//! `play --stats` says truthfully how each game ended: at the `finish` it ran first, at the
//! event cap, or at a dead end (nothing legal, no `finish`) by that name.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::Path;

/// A game of one `go`, then a `choose` whose only branch is never open (a dead end) or, with
/// `finish_first`, a `finish` before it.
fn game(finish_first: bool) -> String {
    let first = if finish_first { "  if n == 1 {\n    finish\n  }\n" } else { "" };
    format!(
        "game dead\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\nvar n = 0\nscores {{}}\nwinners []\n\
         always go(x) by players[1] when n >= 1 {{\n  finish now\n}}\n\
         flow {{\n  choose {{\n    go(x) by players[0] {{\n      n += 1\n    }}\n  }}\n{first}  \
         choose {{\n    go(x) by players[0] when n > 5 {{ }}\n  }}\n  finish\n}}\n"
    )
}

fn endings(text: &str, max_events: usize) -> Vec<(String, usize)> {
    let rules = shinpan::Rules::from_text("dead.rules", text, Path::new(".")).unwrap();
    rules.play_stats(2, 0, 20, max_events).unwrap().endings
}

#[test]
fn a_dead_end_is_named_and_the_cap_only_when_reached() {
    // Without the `always`, nothing is legal after the first event: a dead end, not the cap.
    let dead = game(false).replace("always go(x) by players[1] when n >= 1 {\n  finish now\n}\n", "");
    assert_eq!(endings(&dead, 1_000), [("not finished: a dead end (no legal action)".to_string(), 20)]);
    // Cut at one event, the same games stop at the cap.
    assert_eq!(endings(&dead, 1), [("not finished (the event cap)".to_string(), 20)]);
}

#[test]
fn a_game_is_credited_to_the_finish_it_ran_first() {
    // The flow finishes at line 12; the `always` record after it runs a `finish now` of its
    // own, which does not move where the game ended.
    let text = game(true);
    let finish_line = text.lines().position(|l| l.trim() == "finish").unwrap() + 1;
    let found = endings(&text, 1_000);
    assert!(!found.is_empty());
    for (ending, _) in &found {
        assert!(
            ending.starts_with(&format!("dead.rules:{finish_line}: finish"))
                || ending.starts_with("not finished (the event cap)"),
            "{found:?}"
        );
    }
    assert!(found.iter().any(|(e, _)| e.starts_with(&format!("dead.rules:{finish_line}: finish"))), "{found:?}");
}

/// `play` of one game says where a dead end is: the `choose` that waits for nothing, as a
/// diagnostic of the rules; a game that finishes, or stops at the cap, has none.
#[test]
fn a_dead_end_is_reported_at_its_choose() {
    let dead = game(false).replace("always go(x) by players[1] when n >= 1 {\n  finish now\n}\n", "");
    let rules = shinpan::Rules::from_text("dead.rules", &dead, Path::new(".")).unwrap();
    let (transcript, stuck) = rules.play_one_or_dead_end(2, 0, 1_000).unwrap();
    assert_eq!(transcript.lines().filter(|l| l.starts_with("  - ")).count(), 1, "{transcript}");
    let d = stuck.expect("a dead end");
    assert_eq!(d.code, shinpan::codes::DEAD_END);
    let (span, label) = &d.labels[0];
    assert_eq!(&dead[span.clone()], "choose");
    assert_eq!(label, "the rules wait here");
    // The second `choose`, not the first.
    assert!(span.start > dead.find("choose").unwrap(), "{span:?}");
    // Cut at the cap first: no dead end.
    assert!(rules.play_one_or_dead_end(2, 0, 1).unwrap().1.is_none());
    // A game that finishes before it: none either.
    let rules = shinpan::Rules::from_text("dead.rules", &game(true), Path::new(".")).unwrap();
    assert!(rules.play_one_or_dead_end(2, 0, 1_000).unwrap().1.is_none());
}

/// A flow that runs out without `finish`, after a `due` step, where no `always` record can be
/// taken: the dead end is at the flow's last statement (its first line), not at the top of the
/// file.
#[test]
fn a_dead_end_after_the_flow_is_reported_at_its_last_statement() {
    let text = "game dead\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\nvar n = 0\nscores {}\nwinners []\n\
                due bump when n == 1 {\n  n = 2\n}\n\
                flow {\n  choose {\n    go(x) by players[0] {\n      n += 1\n    }\n  }\n  if n > 0 {\n    n += 1\n  }\n}\n";
    let rules = shinpan::Rules::from_text("dead.rules", text, Path::new(".")).unwrap();
    let d = rules.play_one_or_dead_end(2, 0, 1_000).unwrap().1.expect("a dead end");
    assert_eq!(d.code, shinpan::codes::DEAD_END);
    let (span, label) = &d.labels[0];
    assert_eq!(&text[span.clone()], "if n > 0 {");
    assert!(label.starts_with("the flow ends after this"), "{label}");
    assert!(d.help.as_deref().unwrap_or_default().contains("`finish` the game at the end of its flow"), "{d:?}");
}

/// What `lint` can say before any game (its warnings): a branch `play` never takes (a list
/// argument without `choices`), and one it tries blindly over many values.
#[test]
fn branches_play_cannot_or_blindly_takes_are_found_statically() {
    let text = "game blind\nplayers 2..2\nrule r \"unused\"\naction deal: list int\naction pick: int 0..999\n\
                action take: int 0..9\naction give: list int\nvar n = 0\nscores {}\nwinners []\n\
                flow {\n  choose {\n    deal(d) by table {\n      n = 1\n    }\n  }\n  choose {\n    pick(x) by players[0] {\n    }\n  }\n\
                \x20 choose {\n    take(x) by players[0] {\n    }\n    give(g) by players[0] choices [[1]] {\n    }\n  }\n  finish\n}\n";
    let advice = lint_warnings("blind.rules", text);
    let found: Vec<(&str, &str)> =
        advice.iter().map(|d| (&text[d.labels[0].0.clone()], d.labels[0].1.as_str())).collect();
    assert_eq!(found, [("deal", "no candidates"), ("pick", "enumerated blindly")]);
    assert!(advice.iter().all(|d| d.level == shinpan::diag::Level::Warning));
    assert_eq!(
        advice.iter().map(|d| d.code).collect::<Vec<_>>(),
        [shinpan::codes::DEAD_END, shinpan::codes::BLIND_PLAY]
    );
    assert!(advice[1].message.contains("all 1000 values"), "{}", advice[1].message);
    // The built-in games say where their arguments come from wherever `play` could not guess.
    for game in ["hangover", "bridge"] {
        let never: Vec<String> = lint_warnings(game, shinpan::lang::specs::builtin(game).unwrap())
            .into_iter()
            .filter(|d| d.message.contains("never"))
            .map(|d| d.message)
            .collect();
        assert_eq!(never, Vec::<String>::new(), "{game}");
    }
}

/// `lint`'s warnings about play: each branch `play` never takes or tries blindly.
fn lint_warnings(label: &str, text: &str) -> Vec<shinpan::diag::Diag> {
    let checked = shinpan::editor::lint(label, text, std::path::Path::new(".")).unwrap();
    checked.warnings.into_iter().filter(|d| d.code != shinpan::codes::NO_FINISH).collect()
}

/// The warnings about play of one branch whose argument has `shape`: `never` for a branch
/// `play` never takes, the number of values for one it tries blindly over more than 256.
fn play_advice(shape: &str) -> Vec<String> {
    let text = format!(
        "game shapes\nplayers 2..2\nrule r \"unused\"\nparam pool: file = \"pool.yaml\"\n\
         card Coin(face: int) {{\n  \"H\" (1)\n  \"T\" (0)\n}}\ncard Drawn(face: int) {{\n  from pool.cards\n}}\n\
         enum Side {{ left, right }}\naction a: {shape}\nscores {{}}\nwinners []\n\
         flow {{\n  choose {{\n    a(x) by players[0] {{\n    }}\n  }}\n  finish\n}}\n"
    );
    lint_warnings("shapes.rules", &text)
        .into_iter()
        .map(|d| {
            assert_eq!(&text[d.labels[0].0.clone()], "a", "{}", d.message);
            if d.code == shinpan::codes::DEAD_END {
                assert!(d.message.starts_with("`play` never takes `a` here"), "{}", d.message);
                "never".to_string()
            } else {
                assert_eq!(d.code, shinpan::codes::BLIND_PLAY);
                let n = d.message.strip_prefix("`play` tries all ").and_then(|m| m.split(' ').next());
                format!("{} values", n.unwrap_or_else(|| panic!("{}", d.message)))
            }
        })
        .collect()
}

/// How many values `play` tries of each shape, as its legal actions list them: few enough
/// are tried in silence, more than 256 are worth a `choices`, and more than it lists at all
/// (4097 numbers, 4096 records) are never tried.
#[test]
fn the_values_play_would_try_are_counted_by_shape() {
    let none: [String; 0] = [];
    // Few values, or as many as the players or a card file say: nothing to say.
    for shape in
        ["bool", "null", "\"pass\"", "player", "Coin", "Drawn", "Side", "int 0..255", "{ side: Side, n?: int 0..9 }"]
    {
        assert_eq!(play_advice(shape), none, "{shape}");
    }
    // Numbers: 257 is too many to try blindly; past 4097 `play` lists none.
    assert_eq!(play_advice("int 0..256"), ["257 values"]);
    assert_eq!(play_advice("int 0..4096"), ["4097 values"]);
    assert_eq!(play_advice("int 0..4097"), ["never"]);
    assert_eq!(play_advice("list int"), ["never"]);
    // A record: the product of its fields' values, an optional field's one more (absent);
    // past 4096 records, or with a field without a list of values, none.
    assert_eq!(play_advice("{ c: Coin, side: Side, n: int 0..99 }"), ["400 values"]);
    assert_eq!(play_advice("{ n: int 0..15, m?: int 0..16 }"), ["288 values"]);
    assert_eq!(play_advice("{ n: int 0..63, m: int 0..63 }"), ["4096 values"]);
    assert_eq!(play_advice("{ n: int 0..63, m: int 0..64 }"), ["never"]);
    assert_eq!(play_advice("{ n: int 0..3, m: list int }"), ["never"]);
    assert_eq!(play_advice("{ p: player, n: int 0..999 }"), none);
    // A union: the sum of its alternatives' values, those without a list adding none.
    assert_eq!(play_advice("int 0..199 | int 0..99 | bool"), ["302 values"]);
    assert_eq!(play_advice("int 0..299 | list int"), ["300 values"]);
    assert_eq!(play_advice("list int | map int -> int"), ["never"]);
    assert_eq!(play_advice("Drawn | int 0..299"), none);
}
