//! The legal actions at a waiting point, shape by shape, against an enumeration written out
//! by hand: what `shinpan play` draws from, what the help line of a violation lists, and what
//! the property tests change events into. Caps are tested at, just under and just over.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

/// A two-player game that waits once for `act`, whose argument has `shape`, taken by the
/// first player under `head` (actors, guard, choices) with `checks` in its body.
fn game(shape: &str, head: &str, checks: &str) -> String {
    format!(
        "game shapes\nplayers 2..2\nrule r \"the check\"\nenum Suit {{ Red, Blue, Green }}\nenum Way {{ Up, Down }}\n\
         card Coin(face: int) {{\n  \"H\" (1)\n  \"T\" (0)\n}}\naction act: {shape}\nscores {{}}\nwinners []\n\
         flow {{\n  choose {{\n    act(x) {head} {{\n{checks}\n    }}\n  }}\n}}\n"
    )
}

/// The legal actions where the game first waits, as `actor argument` words, in order.
fn legal_words(rules: &str) -> Vec<String> {
    let prog = shinpan::compile("shapes.rules", rules).unwrap_or_else(|d| panic!("{}\n{rules}", d[0].message));
    let game = shinpan::play::default_game(&prog, 2).unwrap();
    let legal = shinpan::play::legal_after(&prog, game.players.clone(), game.params, vec![]).unwrap();
    legal
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                shinpan::run::show(&prog, &game.players, &c.actor),
                shinpan::run::show(&prog, &game.players, &c.arg)
            )
        })
        .collect()
}

fn args_of(shape: &str) -> Vec<String> {
    legal_words(&game(shape, "by players[0]", ""))
        .into_iter()
        .map(|w| w.trim_start_matches("aki ").to_string())
        .collect()
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn every_finite_shape_lists_exactly_its_values() {
    assert_eq!(args_of("int 1..3"), words(&["1", "2", "3"]));
    assert_eq!(args_of("int -2..0"), words(&["-2", "-1", "0"]));
    assert_eq!(args_of("int 3..3"), words(&["3"]));
    assert_eq!(args_of("bool"), words(&["false", "true"]));
    assert_eq!(args_of("Coin"), words(&["H", "T"]));
    assert_eq!(args_of("Suit"), words(&["Red", "Blue", "Green"]));
    assert_eq!(args_of("null"), words(&["null"]));
    assert_eq!(args_of("\"pass\""), words(&["pass"]));
    assert_eq!(args_of("player"), words(&["aki", "ben"]));
    assert_eq!(args_of("Suit | int 1..2"), words(&["Red", "Blue", "Green", "1", "2"]));
    assert_eq!(args_of("bool | null"), words(&["false", "true", "null"]));
}

#[test]
fn a_record_lists_every_combination_with_optional_fields_left_out_or_given() {
    let mut expected = vec![];
    for a in ["false", "true"] {
        expected.push(format!("{{a: {a}}}"));
        for b in ["Red", "Blue", "Green"] {
            expected.push(format!("{{a: {a}, b: {b}}}"));
        }
    }
    assert_eq!(sorted(args_of("{a: bool, b?: Suit}")), sorted(expected));
    assert_eq!(args_of("{c: Coin}"), words(&["{c: H}", "{c: T}"]));
}

#[test]
fn shapes_without_a_finite_domain_list_nothing() {
    for shape in ["int", "int ..3", "str", "list int", "list[2] bool", "map player -> int", "int 1..0"] {
        assert_eq!(args_of(shape), Vec::<String>::new(), "{shape}");
    }
}

#[test]
fn the_domain_cap_holds_at_4096_values_apart() {
    // 4,097 values (4096 apart) are listed; one more and the action lists none.
    assert_eq!(args_of("int 0..4096").len(), 4097);
    assert_eq!(args_of("int 1..4096").len(), 4096);
    assert!(args_of("int 0..4097").is_empty());
    // A record may have 4,096 combinations, not more.
    assert_eq!(args_of("{a: int 0..63, b: int 0..63}").len(), 4096);
    assert_eq!(args_of("{a: int 0..63, b: int 1..63}").len(), 4032);
    assert!(args_of("{a: int 0..63, b: int 0..64}").is_empty());
}

#[test]
fn actors_guards_and_choices_decide_who_may_take_what() {
    assert_eq!(
        legal_words(&game("bool", "by players", "")),
        words(&["aki false", "aki true", "ben false", "ben true"])
    );
    assert_eq!(legal_words(&game("bool", "by players[1]", "")), words(&["ben false", "ben true"]));
    assert_eq!(
        legal_words(&game("bool", "by [players[1], players[0]]", "")),
        words(&["ben false", "ben true", "aki false", "aki true"])
    );
    assert!(legal_words(&game("bool", "by players when false", "")).is_empty());
    assert!(legal_words(&game("bool", "by []", "")).is_empty());
    // `choices` replaces the domain, even of an unbounded shape.
    assert_eq!(legal_words(&game("int", "by players[0] choices [7, 5]", "")), words(&["aki 7", "aki 5"]));
}

#[test]
fn checks_keep_only_what_passes() {
    let odd = game("int 1..5", "by players[0]", "      require x % 2 == 1 else r \"{x} is even\"");
    assert_eq!(legal_words(&odd), words(&["aki 1", "aki 3", "aki 5"]));
    // A check inside an `if` filters too.
    let nested =
        game("int 1..4", "by players[0]", "      if x > 2 {\n        require x == 4 else r \"not 4\"\n      }");
    assert_eq!(legal_words(&nested), words(&["aki 1", "aki 2", "aki 4"]));
    // A check inside a `for` filters too.
    let looped = game(
        "int 1..4",
        "by players[0]",
        "      for y in [2, 3] {\n        require x != y else r \"not {y}\"\n      }",
    );
    assert_eq!(legal_words(&looped), words(&["aki 1", "aki 4"]));
}

#[test]
fn a_first_membership_check_narrows_the_candidates() {
    // An unbounded shape has no domain, but `require x in XS` names the candidates: each once.
    let narrowed = game("int", "by players[0]", "      require x in [3, 1, 3] else r \"not listed\"");
    assert_eq!(legal_words(&narrowed), words(&["aki 3", "aki 1"]));
    // When the collection holds values of another shape, the domain is used and checked.
    let mixed = game("int 1..3", "by players[0]", "      require x in [\"a\", 2] else r \"not listed\"");
    assert_eq!(legal_words(&mixed), words(&["aki 2"]));
    // When the collection depends on the argument itself, it cannot name the candidates.
    let own = game("int 1..3", "by players[0]", "      require x in [x, 9] else r \"never fails\"");
    assert_eq!(legal_words(&own), words(&["aki 1", "aki 2", "aki 3"]));
    // Enum values narrow in the collection's order; values of another enum never fit.
    let ordered = game("Suit", "by players[0]", "      require x in [Suit.Blue, Suit.Red] else r \"not listed\"");
    assert_eq!(legal_words(&ordered), words(&["aki Blue", "aki Red"]));
    let other = game("Suit", "by players[0]", "      require x in [Way.Up] else r \"not listed\"");
    assert!(legal_words(&other).is_empty());
    // A first check about something else than the argument narrows nothing.
    let unrelated = game("int 1..3", "by players[0]", "      require 1 in [1, 2] else r \"never fails\"");
    assert_eq!(legal_words(&unrelated), words(&["aki 1", "aki 2", "aki 3"]));
    // Only the first check narrows: a later membership check filters.
    let later = game(
        "int 1..3",
        "by players[0]",
        "      require x > 1 else r \"small\"\n      require x in [1, 2] else r \"no\"",
    );
    assert_eq!(legal_words(&later), words(&["aki 2"]));
}

#[test]
fn a_list_taken_from_a_collection_lists_its_sub_lists() {
    let from = |shape: &str, checks: &str| legal_words(&game(shape, "by players[0]", checks));
    let taken = "      require all y in x: y in [3, 1, 3, 2] else r \"not listed\"";
    // With a required length: each choice of that many items, in the collection's order, once.
    let pairs = from("list int", &format!("{taken}\n      require len(x) == 2 else r \"two\""));
    assert_eq!(pairs, words(&["aki [3, 1]", "aki [3, 3]", "aki [3, 2]", "aki [1, 3]", "aki [1, 2]"]));
    // The length written the other way round, or given by the shape.
    let flipped = from("list int", &format!("{taken}\n      require 1 == len(x) else r \"one\""));
    assert_eq!(flipped, words(&["aki [3]", "aki [1]", "aki [2]"]));
    assert_eq!(from("list[1] int", taken), flipped);
    // Without one: every sub-list, the empty one first, then by length.
    let any = from("list int", "      require all y in x: y in [5, 6] else r \"not listed\"");
    assert_eq!(any, words(&["aki []", "aki [5]", "aki [6]", "aki [5, 6]"]));
    // A list of distinct items never repeats one.
    let distinct = from("list distinct int", &format!("{taken}\n      require len(x) == 2 else r \"two\""));
    assert_eq!(distinct, words(&["aki [3, 1]", "aki [3, 2]", "aki [1, 3]", "aki [1, 2]"]));
    // The other checks still judge each one.
    let summed = from("list int", &format!("{taken}\n      require sum(x) == 4 else r \"four\""));
    assert_eq!(summed, words(&["aki [3, 1]", "aki [1, 3]"]));
    // A collection that reads the argument, or items of another shape, name no candidates.
    assert!(from("list int", "      require all y in x: y in x else r \"never fails\"").is_empty());
    assert!(from("list int", "      require all y in x: y in [\"a\"] else r \"not listed\"").is_empty());
    // Past 4,096 sub-lists, none are listed (as for any list without `choices`).
    let many = "      require all y in x: y in range(1, 13) else r \"not listed\"";
    assert_eq!(from("list int", many).len(), 0, "2^13 sub-lists");
    let twelve = "      require all y in x: y in range(1, 12) else r \"not listed\"";
    assert_eq!(from("list int", twelve).len(), 4096, "2^12 sub-lists");
    // A length inside an `and`, on either side: the same choices as on its own.
    let joined = from("list int", &format!("{taken}\n      require len(x) == 2 and sum(x) > 0 else r \"two\""));
    assert_eq!(joined, pairs);
    let second = from("list int", &format!("{taken}\n      require sum(x) > 0 and 2 == len(x) else r \"two\""));
    assert_eq!(second, pairs);
    // Which is what lets 2^13 sub-lists be narrowed to the 78 pairs.
    let narrowed = format!("{many}\n      require distinct(x) and len(x) == 2 else r \"two\"");
    assert_eq!(from("list int", &narrowed).len(), 78);
    // An `or` does not bind the length: it can pass at another length.
    assert!(from("list int", &format!("{many}\n      require len(x) == 2 or sum(x) == 0 else r \"two\"")).is_empty());
}

#[test]
fn a_record_whose_field_is_taken_from_a_collection_lists_its_items_with_every_other_field() {
    let from = |shape: &str, checks: &str| legal_words(&game(shape, "by players[0]", checks));
    let taken = "      require x.n in [3, 1, 3] else r \"not listed\"";
    // An unbounded field has no domain, but the check names its values: each item once, in the
    // collection's order, with every value of the other fields, the first field varying slowest
    // (as the shape's own domain combines them).
    let first = from("{n: int, w: Way}", taken);
    assert_eq!(first, words(&["aki {n: 3, w: Up}", "aki {n: 3, w: Down}", "aki {n: 1, w: Up}", "aki {n: 1, w: Down}"]));
    let second = from("{w: Way, n: int}", taken);
    assert_eq!(
        second,
        words(&["aki {w: Up, n: 3}", "aki {w: Up, n: 1}", "aki {w: Down, n: 3}", "aki {w: Down, n: 1}"])
    );
    // An optional field is given or left out, as in the domain; the checked one is always given.
    let optional = from("{n?: int, w?: Way}", taken);
    assert_eq!(
        optional,
        words(&[
            "aki {n: 3}",
            "aki {n: 3, w: Up}",
            "aki {n: 3, w: Down}",
            "aki {n: 1}",
            "aki {n: 1, w: Up}",
            "aki {n: 1, w: Down}"
        ])
    );
    // Checks of other fields right after it name theirs too; the other checks still judge.
    let two = "      require x.n in [2, 1] else r \"not listed\"\n      require x.w in [Way.Down] else r \"not down\"";
    assert_eq!(from("{n: int, w: Way}", two), words(&["aki {n: 2, w: Down}", "aki {n: 1, w: Down}"]));
    let judged = format!("{taken}\n      require x.w == Way.Up or x.n == 1 else r \"down\"");
    assert_eq!(
        from("{n: int, w: Way}", &judged),
        words(&["aki {n: 3, w: Up}", "aki {n: 1, w: Up}", "aki {n: 1, w: Down}"])
    );
    // An item outside the field's bounds is never an argument (a transcript could not hold it).
    let bounded = "      require x.n in [5, 3, 0, 1, 2, 4] else r \"not listed\"";
    assert_eq!(from("{n: int 1..3}", bounded), words(&["aki {n: 3}", "aki {n: 1}", "aki {n: 2}"]));
    // An empty collection names no record, and the next check's collection is not evaluated
    // (as the checks never reach it: here it would fail, past the end of a list).
    let none = "      require x.n in [] else r \"not listed\"\n      require x.w in [[Way.Up] for q in players][2] else r \"never reached\"";
    assert!(from("{n: int, w: Way}", none).is_empty());
}

#[test]
fn a_finite_record_taken_from_a_collection_keeps_what_its_whole_domain_found() {
    let from = |shape: &str, checks: &str| legal_words(&game(shape, "by players[0]", checks));
    // A first check that names nothing has the whole domain tried: the same records pass.
    let blind = |shape: &str, checks: &str| from(shape, &format!("      require true else r \"always\"\n{checks}"));
    for (shape, checks) in [
        ("{c: Coin, s: Suit}", "      require x.c in [c for c in Coin where c.face == 0] else r \"not held\""),
        (
            "{s: Suit, c: Coin, b?: bool}",
            "      require x.c in Coin else r \"not held\"\n      require x.b != true else r \"no\"",
        ),
        (
            "{a: int 1..3, b: int 1..3}",
            "      require x.b in [3, 1] else r \"not listed\"\n      require x.a in [x.b] else r \"not b\"",
        ),
        ("{a: int 1..3, w?: Way}", "      require x.a in [2, 5] else r \"not listed\""),
    ] {
        let narrowed = from(shape, checks);
        assert!(!narrowed.is_empty(), "{shape}");
        assert_eq!(sorted(narrowed), sorted(blind(shape, checks)), "{shape}");
    }
}

#[test]
fn a_field_check_names_no_record_when_it_is_not_first_reads_the_argument_or_reads_no_record() {
    let from = |shape: &str, checks: &str| legal_words(&game(shape, "by players[0]", checks));
    let record = "{n: int, w: Way}";
    // Not the first check: the unbounded field has no domain, so nothing is tried.
    let later = "      require x.w == Way.Up else r \"down\"\n      require x.n in [1] else r \"not listed\"";
    assert!(from(record, later).is_empty());
    // A field of another record than the argument names nothing.
    assert!(from(record, "      require [{n: 1} for q in players][0].n in [1] else r \"never fails\"").is_empty());
    // A collection that reads the argument names nothing.
    assert!(from(record, "      require x.n in [x.n] else r \"never fails\"").is_empty());
    // A field checked twice: the first check names it, the second judges.
    let twice = "      require x.n in [1, 2] else r \"not listed\"\n      require x.n in [2] else r \"not two\"";
    assert_eq!(from(record, twice), words(&["aki {n: 2, w: Up}", "aki {n: 2, w: Down}"]));
    // Items of another shape than the field's: the shape's own domain, through the checks.
    let mixed = "      require x.a in [\"a\", 2] else r \"not listed\"";
    assert_eq!(from("{a: int 1..3, w: Way}", mixed), words(&["aki {a: 2, w: Up}", "aki {a: 2, w: Down}"]));
    assert!(from(record, "      require x.n in [\"a\"] else r \"not listed\"").is_empty());
    // A card's attribute is no record's field: every card is tried.
    assert_eq!(from("Coin", "      require x.face in [0] else r \"heads\""), words(&["aki T"]));
    // Another field with no list of values: no record either.
    assert!(from("{n: int, m: int}", "      require x.n in [1] else r \"not listed\"").is_empty());
}

#[test]
fn records_taken_from_a_collection_are_capped_at_4096() {
    let from = |shape: &str, checks: &str| legal_words(&game(shape, "by players[0]", checks));
    let shape = "{n: int, a: int 0..63, b: int 0..63}";
    assert_eq!(from(shape, "      require x.n in [7] else r \"not listed\"").len(), 4096);
    // Twice as many records: none, as for any shape past the cap.
    assert!(from(shape, "      require x.n in [7, 8] else r \"not listed\"").is_empty());
    // Where the domain itself is under the cap, it is tried instead.
    let small = "{n: int 0..1, a: int 0..63, b: int 0..31}";
    assert_eq!(from(small, "      require x.n in [0, 1, 2] else r \"not listed\"").len(), 4096);
}

/// The demonstration of a record move without `choices` (`fixtures/bench/record-move.rules`,
/// crazy eights whose move names the card and the suit to follow): its random games play
/// records drawn from the hand, skip the check that drew them, and are legal when checked.
#[test]
fn random_games_of_a_record_move_without_choices_are_legal() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = std::fs::read_to_string(root.join("fixtures/bench/record-move.rules")).unwrap();
    let prog = shinpan::compile("record-move.rules", &rules).unwrap();
    for (players, seed) in [(2, 0), (2, 1), (3, 2), (4, 3), (5, 4)] {
        let played = shinpan::play::playout(&prog, players, seed, 100_000).unwrap();
        assert!(played.outcome.finished, "seed {seed}");
        let text = shinpan::play::transcript_text_for("record-move.rules", &[], &prog, &played);
        assert!(text.contains("\"play\":{\"card\":"), "seed {seed}: no record played\n{text}");
        let report = shinpan::report::check::Checker::with_rules_text("record-move.rules", &rules, root)
            .check_text("t.yaml", text, root);
        assert_eq!(report.verdict, shinpan::report::check::Verdict::Legal, "seed {seed}: {:?}", report.violations);
    }
}

/// The help line of a violation at the only waiting point of `game("int 1..N", ...)` where
/// every value but N is legal.
fn help_line(n: usize) -> String {
    let dir = std::env::temp_dir().join(format!("shinpan-legal-{n}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = game(&format!("int 1..{n}"), "by players[0]", &format!("      require x != {n} else r \"not {n}\""));
    std::fs::write(dir.join("g.rules"), rules).unwrap();
    let text = format!("rules: g.rules\nplayers: [aki, ben]\nevents:\n  - {{by: aki, act: {n}}}\n");
    let report = shinpan::report::check::Checker::new(None).check_text("t.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        report.verdict,
        shinpan::report::check::Verdict::Illegal,
        "{}",
        shinpan::report::render::json_line(&report)
    );
    report.violations[0].legal.join(", ")
}

#[test]
fn the_help_line_lists_eight_then_counts_the_rest() {
    assert_eq!(help_line(9), "aki act 1, aki act 2, aki act 3, aki act 4, aki act 5, aki act 6, aki act 7, aki act 8");
    assert_eq!(
        help_line(10),
        "aki act 1, aki act 2, aki act 3, aki act 4, aki act 5, aki act 6, aki act 7, aki act 8, 1 more"
    );
    assert_eq!(help_line(8), "aki act 1, aki act 2, aki act 3, aki act 4, aki act 5, aki act 6, aki act 7");
    assert!(help_line(30).ends_with("aki act 8, 21 more"));
}

/// The alphabet the property tests draw single changes from: every finite action argument,
/// for every seat and the table.
#[test]
fn the_alphabet_of_single_changes_covers_every_finite_argument() {
    let prog = shinpan::compile("shapes.rules", &game("Suit | bool", "by players[0]", "")).unwrap();
    let g = shinpan::play::default_game(&prog, 2).unwrap();
    let alphabet = shinpan::play::finite_events(&prog, g.players.clone(), g.params);
    assert_eq!(alphabet.len(), 5 * 3, "five arguments, for aki, ben and the table");
}

/// A random playout stops as soon as the game is finished: records that stay legal after the
/// end are not played (so the last event is the one that finished the game).
#[test]
fn a_playout_stops_when_the_game_is_finished() {
    for (name, _) in shinpan::lang::specs::BUILTIN {
        let prog = shinpan::builtin_program(name).unwrap().unwrap();
        let players = prog.players.0 as usize;
        for seed in 0..5 {
            let p = shinpan::play::playout(&prog, players, seed, 100_000).unwrap();
            assert!(p.outcome.finished, "{name} {seed}");
            let g = shinpan::play::default_game(&prog, players).unwrap();
            let mut shorter = p.events.clone();
            shorter.pop();
            let before = shinpan::play::run_events(&prog, g.players, g.params, shorter).unwrap();
            assert!(!before.finished, "{name} seed {seed}: the game was finished before the last event");
        }
    }
}

/// Two branches of one action open at once: the first that its actor may take judges the
/// event, so the second lists nothing for that actor (its arguments would be judged, and
/// refused, by the first), and a random game never draws them.
#[test]
fn a_later_branch_of_the_same_action_lists_nothing_for_an_actor_the_first_takes() {
    let rules = "game two\nplayers 2..2\nrule low \"low only\"\nrule high \"high only\"\naction act: int 1..4\n\
        var total = 0\nscores zip_map(players, [total, 0])\nwinners []\n\
        flow {\n  loop {\n    choose {\n      act(n) by players[0] {\n        require n <= 2 else low \"{n} is not low\"\n        total += n\n      }\n\
        act(n) by players {\n        require n >= 3 else high \"{n} is not high\"\n        total += 10 * n\n      }\n    }\n  }\n}\n";
    // aki is judged by the first branch (1 and 2 pass); ben only by the second (3 and 4).
    assert_eq!(legal_words(rules), words(&["aki 1", "aki 2", "ben 3", "ben 4"]));
    let prog = shinpan::compile("two.rules", rules).unwrap();
    let here = std::path::Path::new(".");
    for seed in 0..20 {
        let played = shinpan::play::playout(&prog, 2, seed, 12).unwrap();
        let text = shinpan::play::transcript_text_for("two.rules", &[], &prog, &played);
        let report = shinpan::report::check::Checker::with_rules_text("two.rules", rules, here)
            .check_text("two.yaml", text, here);
        assert_eq!(report.verdict, shinpan::report::check::Verdict::Legal, "seed {seed}: {:?}", report.violations);
        assert_eq!(played.events.len(), 12);
    }
}

/// A branch whose actors are an empty list, or null, is not open: an event of its action is
/// one nobody may take now (`unexpected-action`), where a branch open to others would make it
/// the wrong actor's (`turn-order`).
#[test]
fn a_branch_with_no_actors_is_not_open() {
    let judge = |head: &str| {
        let rules = game("bool", head, "");
        let text = "players: [aki, ben]\nevents:\n  - {by: aki, act: true}\n";
        let report = shinpan::report::check::Checker::with_rules_text("g.rules", &rules, std::path::Path::new("."))
            .check_text("t.yaml", text.into(), std::path::Path::new("."));
        report.violations.first().map(|v| v.rule.clone()).unwrap_or_default()
    };
    assert_eq!(judge("by []"), "unexpected-action");
    assert_eq!(judge("by null"), "unexpected-action");
    assert_eq!(judge("by [q for q in players where q != players[0]]"), "turn-order");
    assert_eq!(judge("by players[0]"), "");
}

/// A chance action (the rules draw its argument at random: a deal) is listed in the verdict's
/// JSON as such, with no sample of it, as the human help line says "any the rules allow".
#[test]
fn a_chance_action_is_marked_in_json_without_a_sample() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in ["curtain-call", "torite-4to6", "hangover"] {
        let report =
            shinpan::report::check::Checker::new(None).check_path(&root.join(format!("fixtures/{game}/bad-deal.yaml")));
        let line: serde_json::Value = serde_json::from_str(&report.json_line()).unwrap();
        let legal = &line["violations"][0]["legal"];
        let chance: Vec<&serde_json::Value> =
            legal.as_array().unwrap().iter().filter(|e| e["chance"] == true).collect();
        assert!(!chance.is_empty(), "{game}: {legal}");
        for e in chance {
            assert_eq!(e["by"], "table", "{game}: {e}");
            let (action, arg) = e.as_object().unwrap().iter().find(|(k, _)| *k != "by" && *k != "chance").unwrap();
            assert!(arg.is_null(), "{game}: a sample of `{action}` is named: {e}");
        }
        let help = shinpan::report::render::diagnostics(&report)[0].help.clone().unwrap();
        assert!(help.contains("(any the rules allow)"), "{game}: {help}");
    }
    // An action with a written argument is listed as before.
    let report =
        shinpan::report::check::Checker::new(None).check_path(&root.join("fixtures/hangover/must-follow.yaml"));
    let line: serde_json::Value = serde_json::from_str(&report.json_line()).unwrap();
    assert_eq!(line["violations"][0]["legal"], serde_json::json!([{"by": "ben", "play": "R3^"}]));
}

/// A quantifier in a branch's checks is remembered from one candidate to the next (a listing
/// or a playout tries them one after another) only while the locals it reads from around it
/// are as they were: here it reads the actor, and the answer remembered for the first player's
/// candidates must not stand for the second's.
#[test]
fn a_quantifier_remembered_between_candidates_follows_the_locals_it_reads() {
    let checks = "      require x == 1 or not exists q in [players[0]]: q == p else r \"{p} may only take 1\"";
    assert_eq!(legal_words(&game("int 1..3", "by players as p", checks)), words(&["aki 1", "ben 1", "ben 2", "ben 3"]));
}

/// A quantifier remembered between candidates follows the variables it reads from one waiting
/// point to the next: at the first, `pool` holds a card over 2 and every number is legal; the
/// first event empties it, and at the second only 1 is. Every seed draws 1 there, and each
/// game drawn is legal when checked.
#[test]
fn a_quantifier_remembered_between_candidates_follows_the_variables_it_reads() {
    let rules = "game pool\nplayers 2..2\nrule r \"the check\"\naction act: int 1..3\nvar pool = [5]\n\
                 scores {}\nwinners []\n\
                 flow {\n  for round in [1, 2] {\n    choose {\n      act(x) by players[0] {\n        \
                 require x == 1 or exists y in pool: y > 2 else r \"{x} with an empty pool\"\n        \
                 pool = []\n      }\n    }\n  }\n}\n";
    let prog = shinpan::compile("pool.rules", rules).unwrap_or_else(|d| panic!("{}", d[0].message));
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let p = shinpan::play::playout(&prog, 2, seed, 100).unwrap();
        let args: Vec<_> = p.events.iter().map(|e| e.arg.clone()).collect();
        assert_eq!(args.len(), 2, "seed {seed}: {args:?}");
        assert_eq!(args[1], shinpan::program::value::Value::Int(1), "seed {seed}: {args:?}");
        firsts.insert(format!("{:?}", args[0]));
        let g = shinpan::play::default_game(&prog, 2).unwrap();
        let judged = shinpan::play::run_events(&prog, g.players, g.params, p.events).unwrap();
        assert!(judged.violation.is_none(), "seed {seed}: {:?}", judged.violation);
    }
    assert_eq!(firsts.len(), 3, "every number is drawn first by some seed: {firsts:?}");
}

/// Each quantifier remembered between candidates has a place of its own, apart from the
/// remembered guards: a guard and two quantifiers that read the same variable, with another
/// answer, each keep theirs. The record `tick` stays open (its guard true) at every point,
/// though the quantifiers tried there answer false; and every game drawn is legal.
#[test]
fn remembered_quantifiers_and_guards_keep_their_answers_apart() {
    let rules = "game apart\nplayers 2..2\nrule r \"the check\"\naction go: int 0..1\naction tick: int 0..1\n\
                 var b = [1, 2]\nvar ticks = 0\nscores {}\nwinners []\n\
                 always tick(t) by table when exists y in b: y > 0 {\n  ticks += 1\n}\n\
                 flow {\n  loop {\n    choose {\n      go(n) by players[0] {\n        \
                 require not exists y in b: y > 5 else r \"over 5\"\n        \
                 require not exists y in b: y > 3 else r \"over 3\"\n      }\n    }\n  }\n}\n";
    let prog = shinpan::compile("apart.rules", rules).unwrap_or_else(|d| panic!("{}", d[0].message));
    assert_eq!(prog.remembered.quantifiers.len(), 2);
    let mut ticks_after_a_go = 0;
    for seed in 0..24 {
        let p = shinpan::play::playout(&prog, 2, seed, 12).unwrap();
        let actions: Vec<_> = p.events.iter().map(|e| prog.actions[e.action as usize].name.clone()).collect();
        assert_eq!(actions.len(), 12, "seed {seed}: {actions:?}");
        let first_go = actions.iter().position(|a| a == "go").unwrap_or(actions.len());
        ticks_after_a_go += actions[first_go..].iter().filter(|a| *a == "tick").count();
        let g = shinpan::play::default_game(&prog, 2).unwrap();
        let judged = shinpan::play::run_events(&prog, g.players, g.params, p.events).unwrap();
        assert!(judged.violation.is_none(), "seed {seed}: {:?}", judged.violation);
    }
    assert!(ticks_after_a_go > 20, "the record stays open after the first go: {ticks_after_a_go}");
}
