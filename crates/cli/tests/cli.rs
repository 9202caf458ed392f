//! The command line: exit codes, output formats, hostile input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]

mod common;

use std::process::Command;

fn shinpan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shinpan")).args(args).current_dir(common::repo()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn exit_codes_follow_the_contract() {
    assert_eq!(shinpan(&["check", "--format", "json", "fixtures/hangover/legal-annotated.yaml"]).0, 0);
    assert_eq!(shinpan(&["check", "--format", "json", "fixtures/hangover/must-follow.yaml"]).0, 1);
    assert_eq!(
        shinpan(&["check", "--format", "json", "fixtures/hangover/must-follow.yaml", "fixtures/malformed/empty.yaml"])
            .0,
        2
    );
    assert_eq!(shinpan(&["check", "--format", "xml", "fixtures/"]).0, 64);
    assert_eq!(shinpan(&["frobnicate"]).0, 64);
    // A path that does not exist gets its own malformed verdict; the others keep theirs.
    let (code, out, _) =
        shinpan(&["check", "--format", "json", "no/such/file.yaml", "fixtures/hangover/legal-annotated.yaml"]);
    assert_eq!(code, 2);
    assert!(out.lines().next().unwrap().contains(r#""verdict":"malformed""#), "{out}");
    assert!(out.lines().nth(1).unwrap().contains(r#""verdict":"legal""#), "{out}");
}

#[test]
fn json_lines_in_path_order() {
    let (code, out, _) = shinpan(&[
        "check",
        "--format",
        "json",
        "fixtures/hangover/must-follow.yaml",
        "fixtures/hangover/legal-annotated.yaml",
    ]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"file":"fixtures/hangover/must-follow.yaml","rules":"hangover","verdict":"illegal","violations":[{"rule":"must-follow","event":9,"line":15,"message":"ben played B1 but holds R3^ of the led suit R","column":5,"code":"shinpan::rule","legal":[{"by":"ben","play":"R3^"}],"legal_count":1,"state":{"hand":{"aki":["R5","B4^"],"ben":["R3^","B1","Y2"],"chie":["R4","G5","B4"]},"columns":{"aki":[["+2/+3"],["-1/-2"],["+1/+2"],["-3/+3"]],"ben":[["-1/+1"],["-4/+4"],["+1/+3"],["-2/+2"]],"chie":[["-1/-2"],["-2/-3"],["+1/+2"],["-1/-3"]]},"active":{"aki":true,"ben":true,"chie":true},"tricks":{"aki":0,"ben":0,"chie":0},"vp":{"aki":0,"ben":0,"chie":0},"trick":[{"player":"aki","card":"R2","counts":true}],"leader":"aki"}}],"finished":false,"scores":{"aki":0,"ben":0,"chie":0},"winners":[],"schema_version":1}"#
    );
    assert_eq!(
        lines[1],
        r#"{"file":"fixtures/hangover/legal-annotated.yaml","rules":"hangover","verdict":"legal","violations":[],"finished":true,"scores":{"aki":7,"ben":3,"chie":0},"winners":["aki"],"schema_version":1}"#
    );
}

#[test]
fn directories_are_searched_and_sorted() {
    let (_, out, _) = shinpan(&["check", "--format", "json", "fixtures/hangover"]);
    let files: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["file"].as_str().unwrap().to_string())
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert_eq!(files.len(), 24);
}

#[test]
fn hostile_input_is_a_clear_error() {
    for f in ["empty", "random-bytes", "unclosed-mapping", "alias-bomb", "deep-nesting", "duplicate-key"] {
        let (code, out, err) = shinpan(&["check", "--format", "json", &format!("fixtures/malformed/{f}.yaml")]);
        assert_eq!(code, 2, "{f}: {err}");
        assert!(out.contains(r#""verdict":"malformed""#), "{f}: {out}");
        assert!(!err.contains("panicked"), "{f}: {err}");
    }
}

#[test]
fn a_rules_file_that_never_waits_is_stopped() {
    let (code, out, err) = shinpan(&["check", "--format", "json", "fixtures/runaway/endless-loop.yaml"]);
    assert_eq!(code, 2);
    assert!(out.contains("without waiting for an event"), "{out}");
    assert!(!err.contains("panicked"));
}

#[test]
fn lint_reports_spec_errors() {
    let (code, out, _) = shinpan(&["lint", "specs/"]);
    assert_eq!(
        (code, out.trim()),
        (
            0,
            "specs/bridge-duplicate.rules: ok\nspecs/bridge.rules: ok\nspecs/clock-tcg.rules: ok\nspecs/curtain-call.rules: ok\nspecs/hangover.rules: ok\nspecs/torite-4to6.rules: ok"
        )
    );
    let (code, out, _) = shinpan(&["lint", "fixtures/spec/unknown-name_1.rules"]);
    assert_eq!(code, 2);
    assert!(out.contains("did you mean `hand`?"), "{out}");
}

/// A warning does not fail `lint`: it is shown, and the file is said to compile with it.
#[test]
fn lint_warns_about_a_flow_that_can_end_without_finish() {
    let (code, out, _) = shinpan(&["lint", "fixtures/spec/no-finish_1.rules", "fixtures/spec/unknown-name_1.rules"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("shinpan::spec::no-finish"), "{out}");
    assert!(out.contains("fixtures/spec/no-finish_1.rules: compiles, with 1 warning\n"), "{out}");
    let (code, out, _) = shinpan(&["lint", "fixtures/spec/no-finish_2.rules"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("this loop ends without `finish`"), "{out}");
}

/// A `fn` or `proc` called with the wrong number of arguments fails `lint`, not a game that
/// reaches the call; and a file's unknown names and type errors come out in one run.
#[test]
fn lint_catches_wrong_argument_counts_and_reports_every_problem_at_once() {
    let (code, out, _) = shinpan(&["lint", "fixtures/spec/arity_2.rules", "fixtures/spec/arity_3.rules"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("`worth` takes 2 arguments, not 3"), "{out}");
    assert!(out.contains("`score` takes 2 arguments, not 1"), "{out}");
    let (code, out, _) = shinpan(&["lint", "fixtures/spec/unknown-name_3.rules"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("an int is never equal to a string"), "{out}");
    assert!(out.contains("unknown procedure `gve`"), "{out}");
    assert_eq!(out.matches("shinpan::spec::").count(), 4, "{out}");
}

/// Issue 14's Hangover variant added its bonus to a score as a list: lint says so, and
/// `play` refuses the rules before a game starts rather than failing in the middle of one.
#[test]
fn lint_catches_a_list_added_to_an_int_in_a_variant() {
    let variant = "fixtures/spec/assign-mismatch_2.rules";
    let (code, out, _) = shinpan(&["lint", variant]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("shinpan::spec::assign-mismatch"), "{out}");
    assert!(out.contains("`+=` cannot add a list to `vp[w]`, which is an int"), "{out}");
    assert!(out.contains("vp[w] += [bonus]"), "{out}");
    let (code, played, err) = shinpan(&["play", "--rules", variant, "--players", "4", "--seed", "7"]);
    assert_eq!((code, played.as_str()), (2, ""), "{err}");
    assert!(err.contains("shinpan::spec::assign-mismatch") && !err.contains("runtime"), "{err}");
}

#[test]
fn play_writes_a_legal_transcript() {
    let (code, out, _) = shinpan(&["play", "--rules", "hangover", "--players", "4", "--seed", "7"]);
    assert_eq!(code, 0);
    let dir = std::env::temp_dir().join(format!("shinpan-play-legal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.yaml");
    std::fs::write(&file, &out).unwrap();
    let (code, json, _) = shinpan(&["check", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{json}");
    assert!(json.contains(r#""finished":true"#));
    // The same seed gives the same game.
    assert_eq!(shinpan(&["play", "--rules", "hangover", "--players", "4", "--seed", "7"]).1, out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rules_lists_parameters() {
    let (code, out, _) = shinpan(&["rules"]);
    assert_eq!(code, 0);
    assert!(out.contains("hangover: 3 to 5 players (specs/hangover.rules)"), "{out}");
    assert!(out.contains("bridge: players N, E, S, W (specs/bridge.rules)"), "{out}");
    // Each parameter as declared (type, range, default), each rule id with its meaning.
    let (code, one, _) = shinpan(&["rules", "hangover"]);
    assert_eq!(code, 0);
    assert!(one.contains("  param hangover_at: int 1.. = 5\n"), "{one}");
    assert!(one.contains("  rule turn-order: the action may be taken now, but not by this actor\n"), "{one}");
    assert!(one.contains("  rule must-follow: an active non-leader follows the led suit if able (5.4)\n"), "{one}");
    // A rules file by path, and a built-in's own text, where its diagnostics point.
    assert!(
        shinpan(&["rules", "fixtures/variants/center-second.rules"])
            .1
            .starts_with("torite-4to6-center-second: 3 to 4 players (fixtures/variants/center-second.rules)\n")
    );
    // A variant's own parameter is read from its own file.
    let dir = std::env::temp_dir().join(format!("shinpan-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let variant = dir.join("house.rules");
    std::fs::write(&variant, "extends hangover\ngame house\n\nparam bonus: int 0..9 = 2\n").unwrap();
    let (_, house, _) = shinpan(&["rules", variant.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(house.contains("  param bonus: int 0..9 = 2\n"), "{house}");
    let (code, text, _) = shinpan(&["rules", "hangover", "--source"]);
    assert_eq!((code, text), (0, std::fs::read_to_string(common::repo().join("specs/hangover.rules")).unwrap()));
    assert_eq!(shinpan(&["rules", "no-such-game"]).0, 64);
    assert_eq!(shinpan(&["rules", "--source"]).0, 64);
}

/// The lines of a built-in spec that contain `needle`, as `specs/NAME.rules:LINE`.
fn lines_with(game: &str, needle: &str) -> Vec<String> {
    let text = std::fs::read_to_string(common::repo().join(format!("specs/{game}.rules"))).unwrap();
    let found = text.lines().enumerate().filter(|(_, l)| l.contains(needle));
    found.map(|(i, _)| format!("specs/{game}.rules:{}", i + 1)).collect()
}

/// An event after the game where the rules still wait after `finish`: the label points at
/// what may happen there, not at the `finish` (which is not where the game stands).
#[test]
fn after_the_end_the_label_is_where_the_rules_wait() {
    let dir = std::env::temp_dir().join(format!("shinpan-after-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let long = std::fs::read_to_string(common::repo().join("fixtures/bench/long.rules")).unwrap();
    let waits = long.replace("  finish\n}", "  finish\n  choose {\n    play(c) by players[0] {}\n  }\n}");
    assert_ne!(waits, long);
    let rules = dir.join("waits.rules");
    std::fs::write(&rules, waits).unwrap();
    let rules = rules.to_str().unwrap();
    let (code, game, _) =
        shinpan(&["play", "--rules", rules, "--players", "2", "--seed", "1", "--variant", "rounds=1"]);
    assert_eq!(code, 0);
    let after = dir.join("after.yaml");
    std::fs::write(&after, format!("{game}  - {{by: table, deal: {{aki: [], ben: []}}}}\n")).unwrap();
    let (code, out, err) = shinpan(&["check", "--format", "human", after.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let human = format!("{out}{err}");
    assert!(human.contains("rule `after-game-end` broken at event 7"), "{human}");
    assert!(human.contains("what may happen here") && !human.contains("the game ended here"), "{human}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A broken check that calls a helper which calls itself: the history of what the check reads
/// is still found (each helper read once), and shown.
#[test]
fn the_history_of_a_check_that_recurses() {
    let dir = std::env::temp_dir().join(format!("shinpan-history-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let long = std::fs::read_to_string(common::repo().join("fixtures/bench/long.rules")).unwrap();
    let recursive = long
        .replace(
            "scores points\n",
            "scores points\nhistory points\n\nfn depth(n) = if n <= 0 then 0 else depth(n - 1)\n",
        )
        .replace("require c in hand[p] else", "require c in hand[p] and depth(points[p]) == 0 else");
    let rules = dir.join("recursive.rules");
    std::fs::write(&rules, recursive).unwrap();
    let (code, game, _) = shinpan(&[
        "play",
        "--rules",
        rules.to_str().unwrap(),
        "--players",
        "2",
        "--seed",
        "1",
        "--variant",
        "rounds=2",
    ]);
    assert_eq!(code, 0);
    // The game up to the second deal, then a card nobody holds.
    let second_deal = game.match_indices("\"deal\"").nth(1).unwrap().0;
    let end = second_deal + game[second_deal..].find('\n').unwrap() + 1;
    let broken = dir.join("broken.yaml");
    std::fs::write(&broken, format!("{}  - {{by: aki, play: S7}}\n", &game[..end])).unwrap();
    let (code, out, err) = shinpan(&["check", "--format", "human", broken.to_str().unwrap()]);
    let human = format!("{out}{err}");
    assert_eq!(code, 1, "{human}");
    assert!(human.contains("rule `not-held` broken at event 8: aki does not hold S7"), "{human}");
    assert!(human.contains("how `points` came to be:"), "{human}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn explain_says_where_a_rule_is_checked() {
    let (code, out, _) = shinpan(&["explain", "must-follow", "--rules", "hangover"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("must-follow (hangover): an active non-leader follows the led suit if able (5.4)\n"),
        "{out}"
    );
    // The section it cites, in the game's rules reference under docs/rules/.
    assert!(out.contains("  cites: 5.4, in docs/rules/hangover.md\n"), "{out}");
    assert!(common::repo().join("docs/rules/hangover.md").exists());
    assert!(out.contains("  stands: "), "{out}");
    let declared = &lines_with("hangover", "rule must-follow ")[0];
    assert!(out.contains(&format!("  declared at {declared}: rule must-follow")), "{out}");
    // The check's `require` is the last one before its `else must-follow` (the formatter broke
    // the long condition over several lines).
    let checks = lines_with("hangover", "else must-follow ");
    assert_eq!(checks.len(), 1);
    let (file, line) = checks[0].rsplit_once(':').unwrap();
    let else_line = line.parse::<usize>().unwrap();
    let text = std::fs::read_to_string(common::repo().join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let require_line = (1..else_line).rev().find(|&n| lines[n - 1].trim_start().starts_with("require ")).unwrap();
    assert!(require_line < else_line - 1, "the condition spans lines");
    assert!(out.contains(&format!("  checked at {file}:{require_line}: require ")), "{out}");
    // The whole statement, every line of it, however many it spans.
    let whole: Vec<&str> = lines[require_line - 1..else_line].iter().map(|l| l.trim()).collect();
    let shown = &out[out.find("  checked at ").unwrap()..];
    let shown: Vec<&str> = shown.lines().take(whole.len()).map(|l| l.trim()).collect();
    assert_eq!(shown[0].split_once(": ").unwrap().1, whole[0], "{out}");
    assert_eq!(shown[1..], whole[1..], "{out}");
    // A check with a cost is shown with its cost, to the brace that closes it.
    let (_, bridge, _) = shinpan(&["explain", "must-follow", "--rules", "bridge"]);
    let text = std::fs::read_to_string(common::repo().join("specs/bridge.rules")).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let costs = lines.iter().position(|l| l.starts_with("else must-follow ") && l.ends_with(" costs {")).unwrap();
    let closed = costs + lines[costs..].iter().position(|l| *l == "}").unwrap();
    let shown: Vec<&str> = bridge.lines().skip_while(|l| !l.contains(" costs {")).map(str::trim).collect();
    assert!(closed > costs + 1, "the cost has a statement");
    assert_eq!(shown, lines[costs..=closed], "{bridge}");
    // Without --rules, every built-in game that has the rule; one that does not stand says so.
    let (_, all, _) = shinpan(&["explain", "must-follow"]);
    for game in ["bridge", "hangover", "torite-4to6"] {
        assert!(all.contains(&format!("must-follow ({game}): ")), "{all}");
    }
    let (_, held, _) = shinpan(&["explain", "not-held", "--rules", "bridge"]);
    assert!(held.contains("  does not stand: "), "{held}");
    // The engine's own ids: when they are checked, and for `after-game-end` where the game ends.
    let (_, after, _) = shinpan(&["explain", "after-game-end", "--rules", "hangover"]);
    let finishes = lines_with("hangover", "    finish");
    let ends: Vec<&str> = after.lines().filter(|l| l.starts_with("  the game ends at ")).collect();
    assert_eq!(ends.len(), finishes.len(), "{after}");
    assert!(ends[0].starts_with(&format!("  the game ends at {}: finish", finishes[0])), "{after}");
    for (id, when) in [
        ("after-game-end", "at every event after the rules have run `finish`"),
        ("turn-order", "at every waiting point: the action is open, but the `by` of its branch does not name"),
        ("unexpected-action", "at every waiting point: no branch open there takes this action"),
    ] {
        let (_, out, _) = shinpan(&["explain", id, "--rules", "hangover"]);
        assert!(out.contains(&format!("  checked by the engine: {when}")), "{out}");
    }
    // The statement of a check is shown whole, not cut with `…`.
    assert!(!out.contains('…'), "{out}");
    // A variant's rules come from the file that declares them.
    let (_, variant, _) = shinpan(&["explain", "center", "--rules", "fixtures/variants/center-second.rules"]);
    assert!(variant.contains("  declared at specs/torite-4to6.rules:"), "{variant}");
    // ... and a rule of the variant's own file, at its line there (not counted from the parent's).
    let dir = std::env::temp_dir().join(format!("shinpan-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let own = dir.join("noted.rules");
    std::fs::write(&own, "extends hangover\ngame hangover-noted\n\nrule noted \"a rule only this variant has\"\n")
        .unwrap();
    let (_, noted, _) = shinpan(&["explain", "noted", "--rules", own.to_str().unwrap()]);
    assert!(noted.contains(&format!("  declared at {}:4: rule noted", own.display())), "{noted}");
    // A game that also ends inside what breaking a standing rule costs: both ends are listed.
    let long = std::fs::read_to_string(common::repo().join("fixtures/bench/long.rules")).unwrap();
    let costly = long
        .replace("plays it\"\n", "plays it\" stands\n")
        .replace("the led suit {led}\"\n", "the led suit {led}\" costs {\n          finish\n        }\n");
    let costs = dir.join("costs.rules");
    std::fs::write(&costs, &costly).unwrap();
    let (_, ends, _) = shinpan(&["explain", "after-game-end", "--rules", costs.to_str().unwrap()]);
    let finish_lines: Vec<usize> =
        costly.lines().enumerate().filter(|(_, l)| l.trim() == "finish").map(|(i, _)| i + 1).collect();
    assert_eq!(finish_lines.len(), 2, "{costly}");
    for line in finish_lines {
        assert!(ends.contains(&format!("  the game ends at {}:{line}: finish\n", costs.display())), "{ends}");
    }
    let wordy = long.replace("does not hold {c}\"", &format!("does not hold {{c}}{}\"", ", really".repeat(10)));
    let wordy_rules = dir.join("wordy.rules");
    std::fs::write(&wordy_rules, &wordy).unwrap();
    let (_, held, _) = shinpan(&["explain", "not-held", "--rules", wordy_rules.to_str().unwrap()]);
    let checked = held.lines().find(|l| l.starts_with("  checked at ")).unwrap();
    let shown = checked.split_once(": ").unwrap().1;
    // A check's statement is shown whole, however long its line.
    assert!(shown.starts_with("require c in hand[p] else not-held ") && shown.ends_with(", really\""), "{held}");
    assert!(!shown.contains('…'), "{held}");
    std::fs::remove_dir_all(&dir).unwrap();
    // An unknown id is bad usage, with a did-you-mean.
    let (code, _, err) = shinpan(&["explain", "must-folow"]);
    assert_eq!(code, 64);
    assert!(err.contains("did you mean `must-follow`?"), "{err}");
}

#[test]
fn replay_shows_the_game_after_each_event() {
    let (code, out, _) = shinpan(&["replay", "fixtures/hangover/must-follow.yaml"]);
    assert_eq!(code, 1, "the verdict's exit code");
    let heads: Vec<&str> = out.lines().filter(|l| l.starts_with("event ")).collect();
    // Events 0 to 8 were played; event 9 breaks must-follow and is shown with the game before it.
    assert_eq!(heads.len(), 10, "{out}");
    // Each event whole in transcript words, as `legal` words what was legal instead.
    assert_eq!(heads[9], "event 9 (line 15): ben play B1");
    assert!(out.contains("  checking stopped here; 12 more events follow\n"), "{out}");
    let last = &out[out.find("event 9 ").unwrap()..];
    assert!(last.contains("  ✗ `must-follow` broken: ben played B1 but holds R3^"), "{last}");
    assert!(last.contains("  the game before it:\n    aki: hand [R5, B4^],"), "{last}");
    // The state after an event is the game as that event left it: aki's R2 leaves the hand for the trick.
    let json_at = |n: &str| -> serde_json::Value {
        let (_, out, _) = shinpan(&["replay", "fixtures/hangover/must-follow.yaml", "--at", n, "--format", "json"]);
        serde_json::from_str(out.trim()).unwrap()
    };
    let (before, after) = (json_at("7"), json_at("8"));
    assert_eq!(after["action"], serde_json::json!({"by": "aki", "play": "R2"}));
    assert!(before["state_after"]["hand"]["aki"].as_array().unwrap().contains(&serde_json::json!("R2")));
    assert!(!after["state_after"]["hand"]["aki"].as_array().unwrap().contains(&serde_json::json!("R2")));
    assert_eq!(after["state_after"]["trick"][0]["card"], "R2");
    let broken = json_at("9");
    assert_eq!(
        (broken["violations"][0]["rule"].as_str(), broken.get("state_before").is_some()),
        (Some("must-follow"), true)
    );
    // The event checking stopped at is written as every other is.
    assert_eq!(broken["action"], serde_json::json!({"by": "ben", "play": "B1"}));
    assert_eq!(shinpan(&["replay", "fixtures/hangover/must-follow.yaml", "--at", "10"]).0, 64);
    // With --all, the moves that stand are played and the replay goes to the end of the game.
    let (_, all, _) = shinpan(&["replay", "--all", "fixtures/all/hangover-records.yaml"]);
    assert_eq!(all.matches("(the move stands)").count(), 3, "{all}");
    let events = std::fs::read_to_string(common::repo().join("fixtures/all/hangover-records.yaml"))
        .unwrap()
        .matches("\n  - ")
        .count();
    assert!(all.contains(&format!("\nevent {} (line ", events - 1)), "{all}");
}

/// `play --games N` writes N games as JSON Lines that `check --stream` judges; `--stats` sums
/// up the same games, and its figures agree with what the checker finds in them.
#[test]
fn many_games_and_their_figures() {
    let args = ["play", "--rules", "hangover", "--players", "3", "--seed", "11", "--games", "6"];
    let (code, games, _) = shinpan(&args);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = games.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 6);
    // No parameter given, none written; one given, written in every game.
    assert!(lines.iter().all(|l| l.get("variant").is_none()), "{games}");
    let (_, varied, _) = shinpan(&[&args[..], &["--variant", "hand_size=5"]].concat());
    assert!(varied.lines().all(|l| l.contains(r#""variant":{"hand_size":5}"#)), "{varied}");
    // And played: every hand dealt holds 5 cards.
    for line in varied.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        let events = game["events"].as_array().unwrap();
        let deal = events.iter().find_map(|e| e["deal"].as_object()).unwrap();
        assert!(deal.values().all(|hand| hand.as_array().unwrap().len() == 5), "{line}");
    }
    // Game k is the game of seed 11 + k.
    let (_, one, _) = shinpan(&["play", "--rules", "hangover", "--players", "3", "--seed", "13"]);
    assert!(one.contains(&format!("  - {}\n", lines[2]["events"][5])), "{one}");
    let (code, out, _) = shinpan_with_input(&["check", "--stream", "-"], &games);
    assert_eq!(code, 0, "{out}");
    let verdicts = verdicts(&out);
    assert!(verdicts.iter().all(|v| v["verdict"] == "legal" && v["finished"] == true), "{out}");
    let (code, stats, _) = shinpan(&[&args[..], &["--stats", "--format", "json"]].concat());
    assert_eq!(code, 0);
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let lengths: Vec<usize> = lines.iter().map(|l| l["events"].as_array().unwrap().len()).collect();
    assert_eq!(stats["games"], 6);
    assert_eq!(stats["events"], lengths.iter().sum::<usize>());
    assert_eq!(stats["length"]["min"], *lengths.iter().min().unwrap());
    assert_eq!(stats["length"]["max"], *lengths.iter().max().unwrap());
    let plays = lines.iter().flat_map(|l| l["events"].as_array().unwrap()).filter(|e| e.get("play").is_some()).count();
    assert_eq!(stats["actions"]["play"], plays);
    for seat in ["aki", "ben", "chie"] {
        let score: f64 = verdicts.iter().map(|v| v["scores"][seat].as_f64().unwrap()).sum::<f64>() / 6.0;
        let wins =
            verdicts.iter().filter(|v| v["winners"].as_array().unwrap().contains(&serde_json::json!(seat))).count();
        assert_eq!(stats["seats"][seat]["mean_score"].as_f64(), Some(score), "{seat}");
        assert_eq!(stats["seats"][seat]["win_rate"].as_f64(), Some(wins as f64 / 6.0), "{seat}");
    }
    let endings: u64 = stats["endings"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(endings, 6);
    assert!(stats["endings"].as_object().unwrap().keys().all(|k| k.starts_with("specs/hangover.rules:")), "{stats}");
    human_stats_agree_with_json(&args);
    // One game in which nobody declares: an action never taken is left out of the table.
    let one_game = ["play", "--rules", "hangover", "--players", "3", "--seed", "1", "--games", "1"];
    let never = human_stats_agree_with_json(&one_game);
    assert!(never.contains(&"declare".to_string()), "{never:?}");
}

/// The human table of `play --stats` says what its JSON says; gives the actions never taken.
fn human_stats_agree_with_json(args: &[&str]) -> Vec<String> {
    let (_, stats, _) = shinpan(&[args, &["--stats", "--format", "json"]].concat());
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let started = std::time::Instant::now();
    let (code, human, _) = shinpan(&[args, &["--stats"]].concat());
    let wall = started.elapsed().as_secs_f64();
    assert_eq!(code, 0);
    let (games, events) = (stats["games"].as_u64().unwrap(), stats["events"].as_u64().unwrap());
    let head = format!("{games} games, {events} events, ");
    assert!(human.starts_with(&head), "{human}");
    // The games took less than the whole process did, so the rate is at least this.
    let rate: f64 = human[head.len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(rate >= (events as f64 / wall).floor(), "{rate} events per second in {wall} s: {human}");
    let length = &stats["length"];
    let mean = events as f64 / games as f64;
    assert!(
        human.contains(&format!("game length: mean {mean:.1}, min {}, max {}\n", length["min"], length["max"])),
        "{human}"
    );
    for (seat, figures) in stats["seats"].as_object().unwrap() {
        let score = figures["mean_score"].as_f64().unwrap();
        let wins = figures["win_rate"].as_f64().unwrap() * 100.0;
        assert!(human.contains(&format!("\n{seat:<12} {score:>10.2} {wins:>8.1}%\n")), "{seat}: {human}");
    }
    let mut never = vec![];
    for (action, n) in stats["actions"].as_object().unwrap() {
        let n = n.as_u64().unwrap();
        let listed = human.contains(&format!("\n  {action:<16} {n:>9}\n"));
        assert_eq!(listed, n > 0, "{action}, taken {n} times: {human}");
        if n == 0 {
            never.push(action.clone());
        }
    }
    never
}

#[test]
fn parallel_checking_keeps_the_order_and_the_verdicts() {
    let one = shinpan(&["check", "--format", "json", "--jobs", "1", "fixtures/"]);
    let many = shinpan(&["check", "--format", "json", "--jobs", "3", "fixtures/"]);
    assert_eq!(one, many);
    assert_eq!(one.0, 2);
}

/// `play` of a game whose cards come from a card file uses the built-in default file.
#[test]
fn play_uses_the_default_card_file() {
    let (code, out, err) = shinpan(&["play", "--rules", "clock-tcg", "--players", "2", "--seed", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"decks\""), "{out}");
    let dir = std::env::temp_dir().join(format!("shinpan-play-cards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.yaml"), &out).unwrap();
    let path = dir.join("game.yaml").display().to_string();
    let (code, verdict, _) = shinpan(&["check", "--format", "json", &path]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0, "{verdict}");
    assert!(verdict.contains("\"finished\":true"), "{verdict}");
}

/// A game that fixes its players' names needs no `--players`, and `play` writes those names;
/// a game that allows several counts asks for one.
#[test]
fn play_of_a_game_with_named_seats() {
    let (code, out, err) = shinpan(&["play", "--rules", "bridge", "--seed", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("players: [\"N\",\"E\",\"S\",\"W\"]"), "{out}");
    let (code, _, err) = shinpan(&["play", "--rules", "bridge", "--players", "3"]);
    assert_eq!((code, err.trim()), (64, "shinpan: `bridge` is for 4 players, not 3"));
    let (code, _, err) = shinpan(&["play", "--rules", "hangover"]);
    assert_eq!((code, err.trim()), (64, "shinpan: `hangover` is for 3 to 5 players: say how many with --players"));
}

/// A judge checks a match file as it comes and reads which board, which trick and which card
/// broke which rule; `import` writes each deal as a transcript that checks the same.
#[test]
fn a_pbn_match_file_is_checked_deal_by_deal() {
    let file = "data/external/ebl-pbn-veugen/etc99pbn/A1A10505.PBN";
    let (code, out, _) = shinpan(&["check", "--format", "human", file]);
    assert_eq!(code, 1);
    assert!(out.contains("N played CK to trick 11 but holds SJ, S8 of the led"), "{out}");
    assert!(out.contains(&format!("{file}#10: board 5, room Closed, illegal")), "{out}");
    assert_eq!(out.matches(": board ").count(), 40, "{out}");
    let dir = std::env::temp_dir().join(format!("shinpan-import-{}", std::process::id()));
    let (code, _, err) = shinpan(&["import", file, "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let deal = dir.join("A1A10505-0010.yaml");
    let (code, json, _) = shinpan(&["check", "--format", "json", deal.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1);
    assert!(json.contains(r#""rule":"must-follow","event":52"#), "{json}");
    let (code, _, err) = shinpan(&["import", "fixtures/records/messy.pbn", "--out", "/dev/null/x"]);
    assert_eq!(code, 74, "{err}");
}

/// Runs shinpan with `input` on standard input.
fn shinpan_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(args)
        .current_dir(common::repo())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A run that stops early (bad usage) may not read its input: the pipe may close first.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn verdicts(out: &str) -> Vec<serde_json::Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn a_transcript_on_standard_input() {
    let text = std::fs::read_to_string(common::repo().join("fixtures/hangover/must-follow.yaml")).unwrap();
    let (code, out, _) = shinpan_with_input(&["check", "--format", "json", "-"], &text);
    assert_eq!(code, 1);
    let v = &verdicts(&out)[0];
    assert_eq!((v["file"].as_str(), v["verdict"].as_str()), (Some("-"), Some("illegal")));
    assert_eq!(v["violations"][0]["line"], 15);
    let (code, out, _) = shinpan_with_input(&["check", "--format", "json", "-"], "rules: [");
    assert_eq!((code, verdicts(&out)[0]["verdict"].as_str()), (2, Some("malformed")));
}

#[test]
fn a_stream_gets_one_verdict_per_line_and_a_bad_line_its_own() {
    let game = |events: &str| format!(r#"{{"rules": "hangover", "players": ["a", "b", "c"], "events": [{events}]}}"#);
    let input = [
        game(""),
        String::new(),
        r#"{"rules": "hangover", "players": [a, b"#.to_string(),
        game(r#"{"by": "a", "play": "R1"}"#),
        "\u{fe}\u{ff}not json at all: [".to_string(),
        game(""),
    ]
    .join("\n");
    let (code, out, err) = shinpan_with_input(&["check", "--stream", "-"], &input);
    assert_eq!(code, 2, "{err}");
    let v = verdicts(&out);
    let seen: Vec<(&str, &str)> =
        v.iter().map(|v| (v["file"].as_str().unwrap(), v["verdict"].as_str().unwrap())).collect();
    // The blank line 2 gets no verdict; every other line gets its own, in order.
    assert_eq!(
        seen,
        [("-#1", "legal"), ("-#3", "malformed"), ("-#4", "illegal"), ("-#5", "malformed"), ("-#6", "legal")]
    );
    assert_eq!(v[1]["errors"][0]["line"], 3);
    assert_eq!(v[2]["violations"][0]["line"], 4);
    // From a file too, its lines named by the file.
    let dir = std::env::temp_dir().join(format!("shinpan-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.jsonl");
    std::fs::write(&path, format!("{}\n{}\n", game(""), game(r#"{"by": "a", "play": "R1"}"#))).unwrap();
    let (code, out, _) = shinpan(&["check", "--stream", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out)[1]["file"].as_str().unwrap(), format!("{}#2", path.display()));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(shinpan(&["check", "--stream", "--format", "human", "-"]).0, 64);
}

/// A long-lived process answers each line before the next one is written.
#[test]
fn a_stream_answers_each_line_as_it_comes() {
    use std::io::{BufRead, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["check", "--stream", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
    for n in 1..=3 {
        writeln!(input, r#"{{"rules": "hangover", "players": ["a", "b", "c"], "events": []}}"#).unwrap();
        input.flush().unwrap();
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["file"].as_str().unwrap(), format!("-#{n}"));
    }
    drop(input);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[test]
fn paths_listed_in_a_file_or_on_standard_input() {
    let list = "fixtures/hangover/legal-annotated.yaml\r\n\nfixtures/hangover/must-follow.yaml\n";
    let (code, out, _) = shinpan_with_input(&["check", "--format", "json", "--files-from", "-"], list);
    assert_eq!(code, 1);
    let files: Vec<String> = verdicts(&out).iter().map(|v| v["file"].as_str().unwrap().to_string()).collect();
    assert_eq!(files, ["fixtures/hangover/legal-annotated.yaml", "fixtures/hangover/must-follow.yaml"]);
    // Standard input is read once.
    let (code, _, err) = shinpan_with_input(&["check", "--files-from", "-", "-"], list);
    assert_eq!(code, 64, "{err}");
    assert_eq!(shinpan(&["check", "--files-from", "no/such/list"]).0, 64);
}

#[test]
fn a_variant_on_the_command_line() {
    // The annotated game deals 3 cards a hand (`variant: {hand_size: 3}`); with 4 its deal is short.
    let (code, out, _) =
        shinpan(&["check", "--format", "json", "--variant", "hand_size=4", "fixtures/hangover/legal-annotated.yaml"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(verdicts(&out)[0]["violations"][0]["rule"], "bad-deal");
    let (code, out, _) =
        shinpan(&["check", "--format", "json", "--variant", "hand_sise=4", "fixtures/hangover/legal-annotated.yaml"]);
    assert_eq!(code, 2);
    let message = verdicts(&out)[0]["errors"][0]["message"].as_str().unwrap().to_string();
    assert!(message.contains("did you mean `hand_size`"), "{message}");
    assert_eq!(shinpan(&["check", "--variant", "hand_size", "fixtures/hangover/legal-annotated.yaml"]).0, 64);
    // An empty `variant:` is no variant: the command line's applies.
    let annotated = std::fs::read_to_string(common::repo().join("fixtures/hangover/legal-annotated.yaml")).unwrap();
    let empty = annotated.replace("variant: {hand_size: 3}", "variant:");
    assert_ne!(empty, annotated);
    let (code, out, _) = shinpan_with_input(&["check", "--format", "json", "--variant", "hand_size=3", "-"], &empty);
    assert_eq!((code, verdicts(&out)[0]["verdict"].as_str()), (0, Some("legal")), "{out}");
    // A `variant:` that is not a mapping stays wrong, whatever the command line adds.
    let scalar = annotated.replace("variant: {hand_size: 3}", "variant: 3");
    let (code, out, _) = shinpan_with_input(&["check", "--format", "json", "--variant", "hand_size=3", "-"], &scalar);
    assert_eq!((code, verdicts(&out)[0]["errors"][0]["kind"].as_str()), (2, Some("bad-variant")), "{out}");
    // `play` records its variant, and the game it writes checks legal under it.
    let (code, game, _) =
        shinpan(&["play", "--rules", "hangover", "--players", "3", "--variant", "hand_size=4", "--seed", "5"]);
    assert_eq!(code, 0);
    assert!(game.contains("variant: {\"hand_size\":4}"), "{game}");
    let (code, out, _) = shinpan_with_input(&["check", "--format", "json", "-"], &game);
    assert_eq!((code, verdicts(&out)[0]["verdict"].as_str()), (0, Some("legal")), "{out}");
    assert_eq!(shinpan(&["play", "--rules", "hangover", "--players", "3", "--variant", "hand_size=99"]).0, 64);
}

#[test]
fn play_with_a_rules_file_writes_a_transcript_that_checks_again() {
    let dir = std::env::temp_dir().join(format!("shinpan-play-file-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::fs::copy(common::repo().join("specs/hangover.rules"), dir.join("house.rules")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["play", "--rules", "house.rules", "--players", "4", "--seed", "3"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let saved = dir.join("elsewhere/game.yaml");
    std::fs::write(&saved, &out.stdout).unwrap();
    let (code, out, _) = shinpan(&["check", "--format", "json", saved.to_str().unwrap()]);
    assert_eq!((code, verdicts(&out)[0]["verdict"].as_str()), (0, Some("legal")), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
    // Too many players for the game is bad usage.
    let (code, _, err) = shinpan(&["play", "--rules", "hangover", "--players", "7"]);
    assert_eq!(code, 64);
    assert!(err.contains("is for 3 to 5 players, not 7"), "{err}");
}

/// On a terminal the human output is coloured, unless `NO_COLOR` is set. `script` (util-linux)
/// gives the run a terminal.
#[test]
fn no_color_is_respected_on_a_terminal() {
    let run = |no_color: Option<&str>| {
        let command = format!("{} check fixtures/hangover/must-follow.yaml", env!("CARGO_BIN_EXE_shinpan"));
        let mut script = Command::new("script");
        script.args(["-qec", &command, "/dev/null"]).current_dir(common::repo()).env_remove("NO_COLOR");
        if let Some(value) = no_color {
            script.env("NO_COLOR", value);
        }
        String::from_utf8_lossy(&script.output().expect("`script` (util-linux) runs").stdout).into_owned()
    };
    let coloured = run(None);
    assert!(coloured.contains("\u{1b}[") && coloured.contains("must-follow"), "{coloured}");
    let plain = run(Some("1"));
    assert!(!plain.contains("\u{1b}[") && plain.contains("must-follow"), "{plain}");
    // An empty NO_COLOR does not count (no-color.org).
    assert!(run(Some("")).contains("\u{1b}["));
}

/// Every option of every command says what it does, and `check --help` gives the exit codes.
#[test]
fn every_option_is_described() {
    for command in ["check", "import", "lint", "rules", "play", "referee"] {
        let (code, help, _) = shinpan(&[command, "--help"]);
        assert_eq!(code, 0);
        for line in help.lines().filter(|l| l.trim_start().starts_with('-') || l.trim_start().starts_with('<')) {
            let words: Vec<&str> = line.trim().splitn(2, "  ").collect();
            assert!(words.len() == 2 && !words[1].trim().is_empty(), "{command}: `{line}` has no description");
        }
    }
    let (_, help, _) = shinpan(&["check", "--help"]);
    assert!(
        help.contains("Exit status of `check`: 0 every transcript legal") && help.contains("64 bad usage"),
        "{help}"
    );
    // `replay` says its own: one transcript, the statuses of its verdict.
    let (_, help, _) = shinpan(&["replay", "--help"]);
    assert!(!help.contains("`check`") && help.contains("Exit status: 0 the transcript legal, 1 illegal"), "{help}");
    let statuses = ["fixtures/hangover/legal-annotated.yaml", "fixtures/hangover/must-follow.yaml"]
        .map(|file| shinpan(&["replay", file]).0);
    assert_eq!(statuses, [0, 1]);
}

/// A game that reaches a waiting point with nothing legal, unfinished: the game so far on
/// standard output, the dead end at its `choose` on standard error, exit 2.
#[test]
fn play_stops_at_a_dead_end_with_exit_2() {
    let path = common::repo().join("fixtures/spec/dead-end_1.rules");
    let (code, out, err) = shinpan(&["play", "--rules", path.to_str().unwrap(), "--seed", "0"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("  - ")).count(), 1, "{out}");
    assert!(err.contains("shinpan::spec::dead-end") && err.contains("the rules wait here"), "{err}");
    // Cut before it by the event cap: no dead end.
    let (code, _, err) = shinpan(&["play", "--rules", path.to_str().unwrap(), "--max-events", "1"]);
    assert_eq!(code, 0, "{err}");
    // Among many games, every game is written, then the first dead end is named with its seed.
    let (code, out, err) = shinpan(&["play", "--rules", path.to_str().unwrap(), "--games", "3", "--seed", "5"]);
    assert_eq!((code, out.lines().count()), (2, 3), "{err}");
    assert!(err.starts_with("shinpan: the game of seed 5 stopped at a dead end"), "{err}");
    assert!(err.contains("shinpan::spec::dead-end"), "{err}");
    let (code, out, err) = shinpan(&["play", "--rules", path.to_str().unwrap(), "--games", "3", "--max-events", "1"]);
    assert_eq!((code, out.lines().count(), err.as_str()), (0, 3, ""));
}
