//! The engine's public API beyond checking one transcript: what the command line, the
//! language server and the Python package are built on, tested through that API alone (no
//! stage is named here), so that each promise holds for every user of the library.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::Path;

use shinpan::{Checking, Input, Parameter, Problem, Rules, Verdict};

const MUST_FOLLOW: &str = "fixtures/hangover/must-follow.yaml";

#[test]
fn rules_describe_themselves() {
    let rules = Rules::new("hangover").unwrap();
    assert_eq!(rules.name(), "hangover");
    assert_eq!(rules.game().unwrap(), "hangover");
    assert_eq!(rules.player_counts().unwrap(), (3, 5));
    assert_eq!(rules.player_count_words().unwrap(), "3 to 5 players");
    let described = rules.describe().unwrap();
    assert!(described.starts_with("hangover: 3 to 5 players ("), "{described}");
    assert!(described.contains("\n  param hand_size"), "{described}");
    assert!(described.contains("\n  rule must-follow: "), "{described}");
    let ids = rules.rule_ids().unwrap();
    assert!(ids.iter().any(|id| id == "must-follow") && ids.iter().any(|id| id == "not-held"), "{ids:?}");
    // A rules file is described under its game's name, with the file as it was given; `play`
    // names its real path.
    let variant = Rules::new("fixtures/variants/center-second.rules").unwrap();
    let described = variant.describe().unwrap();
    assert!(
        described.starts_with("torite-4to6-center-second: 3 to 4 players (fixtures/variants/center-second.rules)\n"),
        "{described}"
    );
    assert!(Path::new(variant.name()).is_absolute(), "{}", variant.name());
    let bridge = Rules::new("bridge").unwrap();
    assert!(bridge.describe().unwrap().starts_with("bridge: players N, E, S, W ("));
    assert_eq!(bridge.player_counts().unwrap(), (4, 4));
    assert_eq!(bridge.player_count_words().unwrap(), "4 players");
}

#[test]
fn a_rule_is_explained_where_the_rules_have_it() {
    let rules = Rules::new("hangover").unwrap();
    let text = rules.explain("must-follow").unwrap().unwrap();
    assert!(text.starts_with("must-follow (hangover): "), "{text}");
    assert!(text.contains("specs/hangover.rules:"), "{text}");
    assert_eq!(rules.explain("no-such-rule").unwrap(), None);
    // A check that has a cost is shown with it, to its closing brace and no further.
    let bridge = Rules::new("bridge").unwrap().explain("must-follow").unwrap().unwrap();
    let cost = &bridge[bridge.find(" costs {\n").unwrap()..];
    assert!(cost.contains("revokes = revokes\n") && cost.trim_end().ends_with("\n      }"), "{bridge}");
    assert!(!cost.contains("hand[p] = hand[p] - [c]"), "{bridge}");
}

/// A brace in a comment after a cost's last statement does not end it; the next one does.
#[test]
fn a_cost_ends_at_its_own_brace() {
    let text = std::fs::read_to_string("specs/bridge.rules").unwrap();
    let last = "trick: tricks_played + 1, before: side_tricks[side(p)]}]\n";
    assert!(text.contains(last));
    let commented = text.replacen(last, &format!("{last}          // a {{ note }} about it\n"), 1);
    let rules = Rules::from_text("commented.rules", &commented, Path::new("specs")).unwrap();
    let shown = rules.explain("must-follow").unwrap().unwrap();
    assert!(shown.trim_end().ends_with("// a { note } about it\n      }"), "{shown}");
}

/// The event checking stopped at is written in a replay as every event before it is.
#[test]
fn a_replay_gives_every_event_its_action() {
    let rules = Rules::new("hangover").unwrap();
    let report = rules.check_path(Path::new(MUST_FOLLOW));
    let steps = report.replay_steps();
    let last = steps.last().unwrap();
    assert!(last.before && !last.violations.is_empty());
    assert_eq!(last.action, Some(&serde_json::json!({"by": "ben", "play": "B1"})));
    assert!(steps.iter().all(|s| s.action.is_some()));
}

#[test]
fn games_are_played_one_many_or_counted() {
    let rules = Rules::new("hangover").unwrap();
    let one = rules.play_one(4, 5, 100_000).unwrap();
    assert_eq!(one, rules.play(4, 5).unwrap(), "the same seed, the same game");
    assert_eq!(rules.check_text("one", &one).verdict, Verdict::Legal);
    let cut = rules.play_one(4, 5, 3).unwrap();
    assert!(cut.len() < one.len() && one.starts_with(cut.trim_end()), "cut short after 3 events:\n{cut}");
    let mut lines = vec![];
    rules
        .play_games(4, 5, 3, 100_000, |line| {
            lines.push(line.to_string());
            true
        })
        .unwrap();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| !l.contains('\n') && rules.check_text("l", l).verdict == Verdict::Legal));
    let mut taken = 0;
    rules
        .play_games(4, 5, 3, 100_000, |_| {
            taken += 1;
            false
        })
        .unwrap();
    assert_eq!(taken, 1, "stops when told");
    let stats = rules.play_stats(4, 5, 3, 100_000).unwrap();
    assert_eq!(stats.games, 3);
    assert_eq!(stats.events, lines.iter().map(|l| l.matches("\"by\"").count()).sum::<usize>());
    assert!(stats.human(1.0).starts_with("3 games, "), "{}", stats.human(1.0));
    assert_eq!(stats.json(1.0)["games"], 3);
    let e = rules.play_games(9, 5, 1, 10, |_| true).unwrap_err();
    assert_eq!(e.code, shinpan::codes::USAGE);
    assert_eq!(e.message, "`hangover` is for 3 to 5 players, not 9");
    assert!(rules.play_stats(2, 5, 1, 10).is_err());
}

#[test]
fn parameters_are_read_as_yaml() {
    let p = Parameter::parse(" hand_size =3").unwrap();
    assert_eq!(p.key(), "hand_size");
    assert_eq!(Parameter::parse("hand_size").unwrap_err(), "`hand_size` is not KEY=VALUE");
    assert!(Parameter::parse("k=[1,").unwrap_err().starts_with("the value of `k`: "));
    let rules = Rules::new("hangover").unwrap().with_parameter(&p).unwrap();
    assert_eq!(rules.check_path(Path::new(MUST_FOLLOW)).verdict, Verdict::Illegal);
    let e = Rules::new("hangover").unwrap().with_parameter(&Parameter::parse("hand_sise=3").unwrap()).unwrap_err();
    assert!(e.message.contains("did you mean `hand_size`?"), "{e}");
}

#[test]
fn checking_against_named_rules() {
    let game = Input::Path(MUST_FOLLOW.into());
    let verdict = |c: &Checking| c.check(&game).pop().unwrap();
    assert_eq!(verdict(&Checking::new()).verdict, Verdict::Illegal);
    assert_eq!(verdict(&Checking::against("hangover")).verdict, Verdict::Illegal);
    let unknown = verdict(&Checking::against("hangovr"));
    assert_eq!(unknown.verdict, Verdict::Malformed);
    assert!(unknown.json_line().contains("unknown-rules"), "{}", unknown.json_line());
    // A parameter over the transcript's own: hand_size 5 deals another game.
    let other = verdict(&Checking::new().parameter(&Parameter::parse("hand_size=5").unwrap()));
    assert_ne!(other.json_line(), verdict(&Checking::new()).json_line());
    // Replacing a parameter keeps the last value only.
    let twice = Checking::new()
        .parameter(&Parameter::parse("hand_size=5").unwrap())
        .parameter(&Parameter::parse("hand_size=3").unwrap());
    assert_eq!(verdict(&twice).json_line(), verdict(&Checking::new()).json_line());
    let given = Checking::with_rules(&Rules::new("hangover").unwrap().with_variant("hand_size", "3").unwrap());
    assert_eq!(verdict(&given).json_line(), verdict(&Checking::new()).json_line());
}

#[test]
fn only_built_in_rules_refuses_a_rules_file_a_transcript_names() {
    let text = "{rules: ../specs/hangover.rules, players: [a, b, c], events: []}";
    let input = Input::text("upload", text);
    let open = Checking::new().check(&input).pop().unwrap();
    let closed = Checking::new().only_builtin_rules(true).check(&input).pop().unwrap();
    assert_ne!(open.json_line(), closed.json_line());
    assert_eq!(closed.verdict, Verdict::Malformed);
}

#[test]
fn past_violations_goes_on_where_the_move_stands() {
    let game = Input::Path("fixtures/all/hangover-records.yaml".into());
    let first = Checking::new().check(&game).pop().unwrap();
    let all = Checking::new().past_violations(true).check(&game).pop().unwrap();
    assert_eq!(first.violations.len(), 1);
    assert_eq!(first.violations[0].stood, None);
    assert!(all.violations.len() >= first.violations.len());
    assert_eq!(all.violations[0].stood, Some(true), "{}", all.json_line());
}

#[test]
fn a_replay_keeps_the_game_after_each_event() {
    let report = Checking::new().replay(Path::new(MUST_FOLLOW));
    assert_eq!(report.verdict, Verdict::Illegal);
    let steps = report.replay_steps();
    assert!(steps.len() > 3);
    assert_eq!(steps.iter().map(|s| s.event).collect::<Vec<_>>(), (0..steps.len()).collect::<Vec<_>>());
    assert!(steps.last().unwrap().violations.iter().any(|v| v.rule == "must-follow"));
    assert!(steps[0].human().starts_with("event 0 (line "), "{}", steps[0].human());
    assert!(steps[0].json().starts_with('{'));
    let page = report.page().unwrap();
    assert!(page.to_lowercase().starts_with("<!doctype html>") && page.contains("must-follow"));
    // A plain check keeps no state after the events: only the broken event, with the state
    // before it.
    let plain = Checking::new().check(&Input::Path(MUST_FOLLOW.into())).pop().unwrap();
    assert_eq!(plain.replay_steps().len(), 1);
    assert!(plain.replay_steps()[0].before);
    let malformed = Checking::new().replay(Path::new("no/such/file.yaml"));
    assert_eq!(malformed.verdict, Verdict::Malformed);
}

#[test]
fn a_report_for_a_person() {
    let report = Checking::new().check(&Input::Path(MUST_FOLLOW.into())).pop().unwrap();
    let plain = report.human(false);
    assert!(plain.contains("must-follow") && !plain.contains('\u{1b}'), "{plain}");
    assert!(plain.trim_end().lines().last().unwrap().contains("illegal"), "{plain}");
    assert!(report.human(true).contains('\u{1b}'), "colour when asked");
}

#[test]
fn an_input_is_named_as_given() {
    assert_eq!(Input::Path("a/b.yaml".into()).name(), "a/b.yaml");
    assert_eq!(Input::text("t", "x").name(), "t");
    let gone = Input::Unreadable { name: "g".into(), problem: Problem::TooLarge, why: "big".into() };
    assert_eq!(gone.name(), "g");
    let report = Checking::new().check(&gone).pop().unwrap();
    assert_eq!(report.verdict, Verdict::Malformed);
    assert!(report.json_line().contains(r#""kind":"too-large""#), "{}", report.json_line());
}

#[test]
fn records_are_read_deal_by_deal() {
    assert!(shinpan::records::is_record(Path::new("x.PBN")) && shinpan::records::is_record(Path::new("x.lin")));
    assert!(!shinpan::records::is_record(Path::new("x.yaml")));
    let text = std::fs::read_to_string("fixtures/records/two-deals.lin").unwrap();
    let deals = shinpan::records::read_deals(Path::new("two-deals.lin"), &text);
    assert_eq!(deals.iter().map(|d| d.number).collect::<Vec<_>>(), [1, 2]);
    assert!(deals.iter().any(|d| d.transcript.is_ok()));
    for transcript in deals.iter().filter_map(|d| d.transcript.as_ref().ok()) {
        assert!(transcript.starts_with("rules: \"bridge\""), "{transcript}");
        let checked = Checking::new().check(&Input::text("deal", transcript)).pop().unwrap();
        assert_ne!(checked.verdict, Verdict::Malformed, "{}", checked.json_line());
    }
    let messy = std::fs::read_to_string("fixtures/records/messy.pbn").unwrap();
    let deals = shinpan::records::read_deals(Path::new("messy.pbn"), &messy);
    assert!(deals.iter().any(|d| d.transcript.is_err()), "a deal that cannot be represented says why");
    assert!(deals.iter().any(|d| d.board.is_some()));
}

#[test]
fn an_editor_lints_formats_and_names() {
    use shinpan::editor;
    let here = Path::new(".");
    let good = editor::builtin_rules("hangover").unwrap();
    let checked = editor::lint("hangover.rules", good, here).unwrap();
    assert!(checked.cards.iter().any(|(code, kind)| !code.is_empty() && !kind.is_empty()), "{:?}", checked.cards);
    let broken = editor::lint("b.rules", "game g\nplayers 2..2\nvar x = y\n", here).unwrap_err();
    assert!(broken.iter().any(|d| d.code == shinpan::codes::UNKNOWN_NAME), "{broken:?}");
    assert_eq!(editor::format("game   g\n").unwrap(), "game g\n");
    assert!(editor::format("game g\nflow {").is_err());
    let names: Vec<&str> = editor::builtin_games().collect();
    assert!(names.contains(&"hangover") && names.contains(&"bridge"), "{names:?}");
    assert_eq!(editor::builtin_rules("no-such-game"), None);
    let (name, signature, text) = editor::builtin_function("len").unwrap();
    assert_eq!((name, signature.starts_with("len("), text.is_empty()), ("len", true, false));
    assert_eq!(editor::builtin_function("no_such_function"), None);
    assert!(editor::builtin_functions().count() > 20);
    assert!(editor::shared_rules().iter().any(|(id, _)| *id == "turn-order"));
    let analysis = editor::analyse("game g\nplayers 2..2\nvar x = 1\n").unwrap();
    assert!(analysis.decls.iter().any(|d| d.name == "x" && d.kind == editor::DeclKind::Var));
    assert!(analysis.items.iter().any(|i| i.kind == editor::ItemKind::Var && i.name == "x"));
    assert!(analysis.items.iter().any(|i| i.kind == editor::ItemKind::Game));
    assert!(analysis.items.iter().any(|i| i.kind == editor::ItemKind::Players));
}

/// Rules that recurse to the call cap through deeply nested expressions stop at the cap with a
/// diagnostic on the threads `check_in_order` starts, as on this one.
#[test]
fn deep_recursion_on_checking_threads_stops_at_the_call_cap() {
    let game = "{rules: fixtures/spec/limit_4.rules, players: [a, b], events: [{by: a, flip: H}]}";
    let inputs = vec![Input::text("deep", game); 4];
    let mut verdicts = vec![];
    Checking::new().check_in_order(
        &inputs,
        2,
        |r| r[0].json_line(),
        |line| {
            verdicts.push(line);
            true
        },
    );
    assert_eq!(verdicts.len(), 4);
    for line in &verdicts {
        assert!(line.contains(r#""verdict":"malformed""#) && line.contains("rules-failed"), "{line}");
    }
}

/// Rules given to `Checking` are the ones every transcript is judged by, whatever it names.
#[test]
fn checking_with_given_rules_ignores_the_rules_a_transcript_names() {
    let record = Input::Path("fixtures/variants/second-piece-original.yaml".into());
    let own = Checking::new().check(&record).pop().unwrap();
    let variant = Rules::new("fixtures/variants/center-second.rules").unwrap();
    let given = Checking::with_rules(&variant).check(&record).pop().unwrap();
    assert_eq!((own.verdict, given.verdict), (Verdict::Illegal, Verdict::Legal));
}

/// `Checking`'s parameters go over those of the rules it is given, one by one: a parameter of
/// the rules that `Checking` does not set stays.
#[test]
fn checking_parameters_go_over_the_given_rules_parameters() {
    let rules = Rules::new("hangover").unwrap();
    let mut played = vec![];
    rules
        .play_games(4, 3, 1, 100_000, |line| {
            played.push(line.to_string());
            true
        })
        .unwrap();
    let game = Input::text("game", &played[0]);
    let verdict = |c: Checking| c.check(&game).pop().unwrap().json_line();
    let hangover_at = Parameter::parse("hangover_at=1").unwrap();
    let limit = Parameter::parse("limit=40").unwrap();
    let both = verdict(Checking::new().parameter(&hangover_at).parameter(&limit));
    let only_limit = verdict(Checking::new().parameter(&limit));
    assert_ne!(both, only_limit, "the game must tell the parameters apart");
    let given = rules.clone().with_parameter(&hangover_at).unwrap();
    assert_eq!(verdict(Checking::with_rules(&given).parameter(&limit)), both);
    // Set by both, `Checking`'s wins.
    let overridden = rules.with_parameter(&Parameter::parse("hangover_at=9").unwrap()).unwrap();
    assert_eq!(verdict(Checking::with_rules(&overridden).parameter(&hangover_at).parameter(&limit)), both);
}
