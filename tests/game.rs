//! The live referee (`Game`) judges as `check` does: every fixture stepped event by event
//! gives the verdict, the violation and the scores that checking the whole transcript gives;
//! games drawn move by move are the games `play` plays; a refused event, a clone and an undo
//! leave the game exactly as it was.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};
use shinpan::{Game, Report, Rules, Verdict};

/// Every built-in game, with a player count it is played with.
const GAMES: &[(&str, usize)] = &[
    ("hangover", 4),
    ("hangover", 3),
    ("curtain-call", 2),
    ("torite-4to6", 4),
    ("torite-4to6", 3),
    ("clock-tcg", 2),
    ("bridge", 4),
    ("bridge-duplicate", 4),
];

/// Seeded random games of every built-in game, played move by move: 1,000 of each
/// (`SHINPAN_GAME_SEEDS` sets fewer for a mutation run, or more).
fn seeds() -> u64 {
    std::env::var("SHINPAN_GAME_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(1000)
}

/// A game drawn to its end; each event `draw` gives is the event the transcript writes.
fn drawn_game(rules: &Rules, players: usize, seed: u64) -> Game {
    let mut game = rules.new_game(players, seed).unwrap();
    let mut drawn = vec![];
    while let Some(event) = game.draw().unwrap() {
        drawn.push(format!("  - {event}"));
        assert!(game.event_count() < 20_000, "a built-in game ends");
    }
    let transcript = game.transcript();
    let written: Vec<&str> = transcript.lines().skip_while(|l| *l != "events:").skip(1).collect();
    assert_eq!(written, drawn, "seed {seed}: the events drawn are the events written");
    game
}

/// The fixtures of the checker: each transcript beside an `expected.jsonl`.
fn fixtures() -> Vec<PathBuf> {
    let mut dirs = vec![];
    for entry in std::fs::read_dir("fixtures").unwrap() {
        let dir = entry.unwrap().path();
        if dir.ends_with("examples") {
            dirs.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
        } else {
            dirs.push(dir);
        }
    }
    let mut files = vec![];
    for dir in dirs.iter().filter(|d| d.join("expected.jsonl").exists()) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "yaml" || e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 250, "the fixtures are found ({})", files.len());
    files
}

/// The rules a fixture names: a built-in game, or a rules file beside it.
fn rules_of(path: &Path, transcript: &Json) -> Option<Rules> {
    let name = transcript["rules"].as_str()?;
    let builtin = shinpan::editor::builtin_games().any(|g| g == name);
    let found = if builtin { name.to_string() } else { path.parent()?.join(name).to_string_lossy().into_owned() };
    Rules::new(&found).ok()
}

/// A transcript as JSON (YAML read through the engine's own reader).
fn transcript_json(text: &str) -> Option<Json> {
    let raw = shinpan::transcript::read(text).ok()?;
    let mut t = serde_json::Map::new();
    for (key, value) in [("rules", &raw.rules), ("players", &raw.players), ("variant", &raw.variant)] {
        if let Some(v) = value {
            t.insert(key.into(), v.value.to_json());
        }
    }
    let events: Vec<Json> = raw.events?.ok()?.iter().map(|e| e.value.to_json()).collect();
    t.insert("events".into(), Json::Array(events));
    Some(Json::Object(t))
}

/// What a verdict says that does not depend on where the transcript writes its events.
fn judged(report: &Report) -> Json {
    let mut j = report.json();
    let o = j.as_object_mut().unwrap();
    for key in ["file", "rules"] {
        o.remove(key);
    }
    for v in o.get_mut("violations").and_then(Json::as_array_mut).into_iter().flatten() {
        let v = v.as_object_mut().unwrap();
        v.remove("line");
        v.remove("column");
        if let Some(history) = v.get_mut("history").and_then(Json::as_object_mut) {
            for changes in history.values_mut().filter_map(Json::as_array_mut) {
                for c in changes.iter_mut().filter_map(Json::as_object_mut) {
                    c.remove("line");
                }
            }
        }
    }
    for n in o.get_mut("notes").and_then(Json::as_array_mut).into_iter().flatten() {
        n.as_object_mut().unwrap().remove("line");
    }
    j
}

/// Steps a transcript's events through a game: the verdict of the first refused, or of the
/// game after the last.
fn stepped(rules: &Rules, name: &str, transcript: &Json) -> Result<Report, shinpan::Refused> {
    let mut start = transcript.clone();
    start["events"] = json!([]);
    let mut game = rules.resume_game(name, &start.to_string(), 0)?;
    for event in transcript["events"].as_array().unwrap() {
        game.apply(event)?;
    }
    Ok(game.verdict())
}

#[test]
fn every_fixture_stepped_gets_the_verdict_of_the_whole_transcript() {
    let mut compared = 0;
    for path in fixtures() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue }; // not text: never a game
        let Some(mut transcript) = transcript_json(&text) else { continue };
        let Some(rules) = rules_of(&path, &transcript) else { continue };
        let name = path.to_string_lossy().into_owned();
        // A card file the variant names is found from the transcript's folder: named from
        // here, for the whole transcript and the game alike.
        let whole = if let Some(variant) = transcript["variant"].as_object_mut()
            && let Some(pool) = variant.get_mut("pool")
            && let Some(file) = pool.as_str()
        {
            *pool = json!(path.parent().unwrap().join(file));
            rules.check_value(&name, &transcript)
        } else {
            rules.check_text(&name, &text)
        };
        let step = match stepped(&rules, &name, &transcript) {
            Ok(report) => report,
            Err(refused) => *refused.report,
        };
        if whole.verdict == Verdict::Malformed && whole.spec_errors.is_empty() {
            // Checking reads every event before it judges one; a game judges each as it
            // comes, so an illegal event before the unreadable one is found first.
            let first = |r: &Report| r.json()["errors"][0].clone();
            let (whole_error, step_error) = (first(&whole), first(&step));
            if step.verdict == Verdict::Illegal {
                assert!(step.violations[0].event < whole_error["event"].as_u64().unwrap() as usize, "{name}");
            } else {
                for key in ["message", "kind", "event"] {
                    assert_eq!(step_error[key], whole_error[key], "{name}: {key}");
                }
            }
            compared += 1;
            continue;
        }
        assert_eq!(judged(&step), judged(&whole), "{name}: stepped, then whole");
        // The verdict of a refused event is the verdict on the transcript it writes.
        let again = rules.check_text(&name, &step.text);
        assert_eq!(step.json_line(), again.json_line(), "{name}: the refusal's own transcript");
        compared += 1;
    }
    assert!(compared > 250, "{compared} fixtures compared");
}

#[test]
fn a_game_drawn_move_by_move_is_the_game_play_plays() {
    for &(name, players) in GAMES {
        let rules = Rules::new(name).unwrap();
        for seed in 0..seeds() {
            let game = drawn_game(&rules, players, seed);
            assert_eq!(game.transcript(), rules.play(players, seed).unwrap(), "{name} seed {seed}");
            let verdict = game.verdict();
            let whole = rules.check_text("game", &game.transcript());
            assert_eq!(verdict.json_line(), whole.json_line(), "{name} seed {seed}");
        }
    }
}

/// Every legal event listed is accepted, and each refused event leaves the game as it was.
#[test]
fn what_is_listed_is_accepted_and_a_refusal_changes_nothing() {
    for &(name, players) in GAMES {
        let rules = Rules::new(name).unwrap();
        for seed in 0..seeds().min(5) {
            let mut game = rules.new_game(players, seed).unwrap();
            let mut steps = 0;
            loop {
                let legal = game.legal().unwrap();
                let (transcript, state, listed) = (game.transcript(), game.variables(), legal.clone());
                for l in legal.iter().filter_map(|l| l.event()) {
                    let mut tried = game.clone();
                    tried.apply(&l).unwrap_or_else(|r| panic!("{name} seed {seed}: {l} refused: {}", r.json_line()));
                }
                // An event no one listed: a known action by a player with the argument of
                // another action or player, refused with the game unchanged.
                if let Some(odd) = unlisted(&game, &legal) {
                    let refused = game.apply(&odd);
                    assert!(refused.is_err(), "{name} seed {seed}: {odd} is not listed but was accepted");
                    if let Some(said) = refused.err().and_then(|r| r.violations.first().map(said_legal))
                        && said != ["(cut)"]
                    {
                        assert_eq!(
                            said,
                            words_of(&listed),
                            "{name} seed {seed}: what the refusal of {odd} says was legal"
                        );
                    }
                    assert_eq!(game.transcript(), transcript);
                    assert_eq!(game.variables(), state);
                    assert_eq!(game.legal().unwrap(), listed);
                }
                if game.draw().unwrap().is_none() || steps > 400 {
                    break;
                }
                steps += 1;
            }
        }
    }
}

/// What a violation says was legal, as events, each once in order; `(cut)` when it does not
/// list all of it.
fn said_legal(v: &shinpan::Broken) -> Vec<String> {
    if v.legal_events.len() < v.legal_count {
        return vec!["(cut)".into()];
    }
    let mut said: Vec<String> = v.legal_events.iter().map(Json::to_string).collect();
    said.sort();
    said.dedup();
    said
}

/// Legal events as a violation writes them (a chance move by its kind), each once in order.
fn words_of(legal: &[shinpan::LegalEvent]) -> Vec<String> {
    let written =
        |l: &shinpan::LegalEvent| l.event().unwrap_or_else(|| json!({"by": l.by(), l.action(): null, "chance": true}));
    let mut words: Vec<String> = legal.iter().map(|l| written(l).to_string()).collect();
    words.sort();
    words.dedup();
    words
}

/// After the flow has finished, an event of an action no point offers any more is refused with
/// what a live game lists there: the points that may still be left without an event (the
/// drunk check's snack, here) as well as the records that stay open.
#[test]
fn a_refusal_after_a_point_that_may_be_left_names_what_that_point_offered() {
    let rules = Rules::new("hangover").unwrap();
    let game = (1..200)
        .map(|seed| drawn_game(&rules, 3, seed))
        .find(|g| g.legal().unwrap().iter().any(|l| l.action() == "snack"))
        .expect("a game that ends at a drunk check with a snack to flip");
    let listed = game.legal().unwrap();
    let refused = game.clone().apply(&json!({"by": game.players()[0], "play": "R1"})).unwrap_err();
    let v = &refused.violations[0];
    assert_eq!(v.rule, "after-game-end");
    assert_eq!(said_legal(v), words_of(&listed));
    assert!(v.legal.iter().any(|w| w.contains(" snack ")), "{:?}", v.legal);
    assert_eq!(refused.json_line(), rules.check_text("game", &refused.text).json_line());
}

/// An event the game did not list: the first listed event with its actor changed.
fn unlisted(game: &Game, legal: &[shinpan::LegalEvent]) -> Option<Json> {
    let first = legal.iter().find_map(|l| l.event())?;
    let players = game.players();
    for p in players.iter().chain(["table".to_string()].iter()) {
        let mut odd = first.clone();
        odd["by"] = json!(p);
        if !legal.iter().any(|l| l.event().as_ref() == Some(&odd)) {
            return Some(odd);
        }
    }
    None
}

#[test]
fn a_clone_goes_on_alone_and_undo_gives_back_the_game_before() {
    for &(name, players) in GAMES {
        let rules = Rules::new(name).unwrap();
        let mut game = rules.new_game(players, 3).unwrap();
        for _ in 0..12 {
            game.draw().unwrap();
        }
        let (transcript, state, legal) = (game.transcript(), game.variables(), game.legal().unwrap());
        let mut other = game.clone();
        for _ in 0..10 {
            other.draw().unwrap();
        }
        assert_ne!(other.transcript(), transcript, "{name}: the clone played on");
        assert_ne!(other.legal().unwrap(), legal, "{name}: what is legal moved on with it");
        assert_eq!((game.transcript(), game.variables()), (transcript.clone(), state.clone()), "{name}");
        // Undo after a draw: the same state, the same legal events, and the same next draw.
        let mut undone = game.clone();
        let drawn = undone.draw().unwrap();
        assert!(undone.undo().unwrap());
        assert_eq!(undone.transcript(), transcript, "{name}");
        assert_eq!(undone.variables(), state, "{name}");
        assert_eq!(undone.legal().unwrap(), legal, "{name}");
        assert_eq!(undone.draw().unwrap(), drawn, "{name}: the generator is given back too");
    }
}

#[test]
fn a_fresh_game_has_nothing_to_undo() {
    let mut game = Rules::new("hangover").unwrap().new_game(4, 1).unwrap();
    assert!(!game.undo().unwrap());
    assert_eq!(game.event_count(), 0);
}

#[test]
fn an_event_that_cannot_be_read_is_refused_as_check_refuses_it() {
    let rules = Rules::new("hangover").unwrap();
    let mut game = rules.new_game(4, 1).unwrap();
    game.draw().unwrap();
    for bad in
        [json!({"by": "aki", "play": "ZZ"}), json!({"by": "nobody", "play": "S5"}), json!({"by": "aki"}), json!(7)]
    {
        let refused = game.apply(&bad).unwrap_err();
        assert_eq!(refused.verdict, Verdict::Malformed, "{bad}");
        assert_eq!(refused.json_line(), rules.check_text("game", &refused.text).json_line(), "{bad}");
        assert_eq!(game.event_count(), 1, "{bad}: nothing was taken");
    }
}

#[test]
fn a_game_resumed_from_a_transcript_goes_on_where_it_stopped() {
    let rules = Rules::new("curtain-call").unwrap();
    let whole = drawn_game(&rules, 2, 9);
    let text = whole.transcript();
    let mut lines: Vec<&str> = text.lines().collect();
    let kept = lines.len() - 20;
    lines.truncate(kept);
    let half = lines.join("\n") + "\n";
    let mut resumed = rules.resume_game("half", &half, 0).unwrap();
    assert_eq!(resumed.transcript(), half);
    let rest: Vec<Json> =
        text.lines().skip(kept).map(|l| serde_json::from_str(l.trim_start_matches("  - ")).unwrap()).collect();
    for event in &rest {
        resumed.apply(event).unwrap();
    }
    assert_eq!(resumed.transcript(), text);
    assert_eq!(resumed.scores(), whole.scores());
    assert_eq!(resumed.winners(), whole.winners());
    assert!(resumed.finished());
}

#[test]
fn a_transcript_that_is_not_legal_is_not_resumed() {
    let rules = Rules::new("hangover").unwrap();
    let text = std::fs::read_to_string("fixtures/hangover/must-follow.yaml").unwrap();
    let refused = rules.resume_game("must-follow", &text, 0).err().unwrap();
    assert_eq!(refused.verdict, Verdict::Illegal);
}

/// A transcript resumed after its first N events: the game before event N, whatever follows
/// it (an illegal event, an unreadable one); an illegal event among the first N is refused
/// with the verdict on the transcript cut after it.
#[test]
fn a_transcript_is_resumed_after_its_first_events() {
    let rules = Rules::new("hangover").unwrap();
    let text = std::fs::read_to_string("fixtures/hangover/must-follow.yaml").unwrap();
    let broken = rules.check_text("must-follow", &text).violations[0].clone();
    let game = rules.resume_game_after("must-follow", &text, broken.event, 0).unwrap();
    assert_eq!(game.event_count(), broken.event);
    let instead: Vec<String> = game.legal().unwrap().iter().map(|l| l.words()).collect();
    assert_eq!(instead, broken.legal);
    assert_eq!(rules.check_text("cut", &game.transcript()).verdict, Verdict::Legal);
    let unreadable = text.clone() + "  - {by: nobody, fly: 3}\n";
    assert_eq!(rules.resume_game_after("m", &unreadable, 3, 0).unwrap().event_count(), 3);
    let refused = rules.resume_game_after("must-follow", &text, broken.event + 1, 0).err().unwrap();
    assert_eq!((refused.verdict, refused.violations[0].event), (Verdict::Illegal, broken.event));
    let everything = rules.resume_game_after("m", &text, usize::MAX, 0).err().unwrap();
    assert_eq!(everything.violations[0].rule, "must-follow");
}

#[test]
fn named_players_are_the_game_s_players() {
    let rules = Rules::new("hangover").unwrap();
    let names: Vec<String> = ["north", "east", "south"].iter().map(|s| s.to_string()).collect();
    let mut game = rules.new_game_named(&names, 5).unwrap();
    assert_eq!(game.players(), names);
    let mut legal = game.legal().unwrap();
    while legal.iter().all(|l| l.by() == "table") {
        game.draw().unwrap();
        legal = game.legal().unwrap();
    }
    assert!(legal.iter().any(|l| names.contains(&l.by())), "{legal:?}");
    assert!(legal.iter().all(|l| names.contains(&l.by()) || l.by() == "table"), "{legal:?}");
    assert!(rules.new_game_named(&["solo".to_string()], 5).is_err(), "Hangover is for 3 to 5");
}

#[test]
fn a_chance_move_is_listed_by_its_kind() {
    let game = Rules::new("hangover").unwrap().new_game(4, 1).unwrap();
    let legal = game.legal().unwrap();
    let deals: Vec<_> = legal.iter().filter(|l| l.action() == "deal").collect();
    assert_eq!(deals.len(), 1, "one deal of many: {legal:?}");
    assert!(deals[0].chance() && deals[0].event().is_none());
    assert_eq!(deals[0].words(), "table deal (any the rules allow)");
    assert_eq!(deals[0].json()["event"], Json::Null);
    assert_eq!(format!("{:?}", deals[0]), "LegalEvent(table deal (any the rules allow))");
    assert!(legal.iter().filter(|l| l.action() != "deal").all(|l| !l.chance() && l.event().is_some()), "{legal:?}");
}

/// A tiny generator for the tests' own choices (not the game's).
fn pick(state: &mut u64, n: usize) -> usize {
    *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    ((*state >> 33) as usize) % n
}

/// A program that picks from the list plays a game `check` finds legal, with its scores.
#[test]
fn a_game_played_from_the_legal_list_checks_legal() {
    for &(name, players) in GAMES {
        let rules = Rules::new(name).unwrap();
        for seed in 0..seeds().min(20) {
            let mut game = rules.new_game(players, seed).unwrap();
            let mut choice = seed;
            while !game.finished() && game.event_count() < 5_000 {
                let legal = game.legal().unwrap();
                if legal.is_empty() {
                    break;
                }
                let chosen = &legal[pick(&mut choice, legal.len())];
                game.apply_legal(chosen).unwrap_or_else(|r| panic!("{name}: {} refused: {r}", chosen.words()));
            }
            let whole = rules.check_text("game", &game.transcript());
            assert_eq!(whole.verdict, Verdict::Legal, "{name} seed {seed}: {}", whole.json_line());
            assert_eq!(game.verdict().json_line(), whole.json_line(), "{name} seed {seed}");
        }
    }
}

/// Random games with one event changed (its argument or its actor taken from another event
/// of the same action): stepped, each gets the verdict of the whole transcript.
#[test]
fn a_game_with_one_event_changed_is_judged_stepped_as_whole() {
    for &(name, players) in GAMES {
        let rules = Rules::new(name).unwrap();
        for seed in 0..seeds() {
            let played = drawn_game(&rules, players, seed);
            let mut transcript = transcript_json(&played.transcript()).unwrap();
            let events = transcript["events"].as_array_mut().unwrap();
            let mut choice = seed ^ 0x5eed;
            let at = pick(&mut choice, events.len());
            let other = events[pick(&mut choice, events.len())].clone();
            let changed = &mut events[at];
            if pick(&mut choice, 2) == 0 {
                changed["by"] = other["by"].clone();
            } else if let (Some(a), Some(b)) = (changed.as_object_mut(), other.as_object()) {
                let (key, value) = b.iter().find(|(k, _)| *k != "by").unwrap();
                a.retain(|k, _| k == "by");
                a.insert(key.clone(), value.clone());
            }
            let text = transcript.to_string();
            let whole = rules.check_text("game", &text);
            let step = match stepped(&rules, "game", &transcript) {
                Ok(report) => report,
                Err(refused) => *refused.report,
            };
            if whole.verdict == Verdict::Malformed {
                assert_eq!(step.verdict, Verdict::Malformed, "{name} seed {seed}");
                continue;
            }
            assert_eq!(judged(&step), judged(&whole), "{name} seed {seed}: event {at} changed");
        }
    }
}

#[test]
fn a_player_count_the_rules_do_not_allow_is_an_error() {
    for (name, players) in [("bridge", 3), ("hangover", 2), ("hangover", 6)] {
        let refused = Rules::new(name).unwrap().new_game(players, 0).err().unwrap();
        assert_eq!(refused.code, "shinpan::usage", "{name} {players}");
        assert!(refused.message.contains(&format!("not {players}")), "{}", refused.message);
    }
}

#[test]
fn each_legal_event_is_listed_once() {
    for &(name, players) in GAMES {
        let rules = Rules::new(name).unwrap();
        let mut game = rules.new_game(players, 11).unwrap();
        for _ in 0..60 {
            let legal = game.legal().unwrap();
            let keys: Vec<String> = legal.iter().map(|l| l.json().to_string()).collect();
            let mut distinct = keys.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), keys.len(), "{name}: {keys:?}");
            if game.draw().unwrap().is_none() {
                break;
            }
        }
    }
}

#[test]
fn rules_that_fail_while_running_are_told_from_a_refused_event() {
    let rules = Rules::new("fixtures/spec/fuel_1.rules").unwrap();
    let mut game = rules.new_game(2, 0).unwrap();
    game.set_name("runaway");
    assert_eq!(game.name(), "runaway");
    let failed = game.apply(&json!({"by": "aki", "flip": "H"})).unwrap_err();
    assert!(failed.is_rules_failure(), "{failed}");
    assert_eq!(failed.spec_errors[0].code, "shinpan::spec::fuel");
    assert_eq!(failed.json()["file"], "runaway");
    let refused = game.apply(&json!({"by": "ben", "flip": "H"})).unwrap_err();
    assert!(!refused.is_rules_failure(), "{refused}");
    assert_eq!(refused.violations[0].rule, "turn-order");
    assert_eq!(game.event_count(), 0);
}

/// A game cannot grow past what a transcript may be: the event that would make it longer is
/// refused as `check` refuses that transcript, and the game goes on without it.
#[test]
fn a_game_stops_growing_where_a_transcript_must_stop() {
    let mut limits = shinpan::Limits::default();
    limits.transcript_bytes = 2_000;
    let rules = Rules::new("hangover").unwrap().with_limits(limits);
    let mut game = rules.new_game(4, 2).unwrap();
    let refused = loop {
        match game.draw() {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the game ended within 2,000 bytes"),
            Err(refused) => break refused,
        }
    };
    assert_eq!(refused.verdict, Verdict::Malformed);
    assert_eq!(refused.errors[0].problem, shinpan::Problem::TooLarge, "{refused}");
    let transcript = game.transcript();
    assert!(transcript.len() <= 2_000 && transcript.len() > 1_500, "{}", transcript.len());
    assert_eq!(rules.check_text("game", &transcript).verdict, Verdict::Legal);
    assert!(!game.legal().unwrap().is_empty(), "the game still waits");
}

/// A draw keeps no copy of the game to go back to: when the rules fail while playing what was
/// drawn, the game is played again to where it was, its generator too.
#[test]
fn a_draw_the_rules_fail_on_leaves_the_game_as_it_was() {
    let rules = Rules::new("fixtures/spec/fuel_1.rules").unwrap();
    let mut game = rules.new_game(2, 5).unwrap();
    let (legal, state) = (game.legal().unwrap(), game.variables());
    let failed = game.draw().unwrap_err();
    assert!(failed.is_rules_failure(), "{failed}");
    assert_eq!((game.event_count(), game.variables(), game.legal().unwrap()), (0, state, legal));
    assert!(game.draw().unwrap_err().is_rules_failure(), "the same draw again");
}

/// A game with no events yet writes `events: []` (a bare `events:` is null in YAML, which
/// `check` refuses as malformed): what it writes checks as the game judges itself, and
/// resumes; and so does a playout cut before its first event.
#[test]
fn a_game_without_events_writes_a_transcript_that_checks() {
    for &(name, players) in GAMES {
        let rules = Rules::new(name).unwrap();
        let game = rules.new_game(players, 1).unwrap();
        let transcript = game.transcript();
        assert!(transcript.ends_with("events: []\n"), "{name}: {transcript}");
        let whole = rules.check_text("game", &transcript);
        assert_ne!(whole.json()["verdict"], "malformed", "{name}: {}", whole.json_line());
        assert_eq!(game.verdict().json_line(), whole.json_line(), "{name}");
        let resumed = rules.resume_game("game", &transcript, 1).unwrap();
        assert_eq!(resumed.event_count(), 0, "{name}");

        let played = rules.play_one(players, 1, 0).unwrap();
        assert!(played.ends_with("events: []\n"), "{name}: {played}");
        assert_ne!(rules.check_text("cut", &played).json()["verdict"], "malformed", "{name}");
    }
}

/// What a person reads of a refusal or a rules error (`Display`, which Python's exceptions
/// show too) holds no raw control character from the event or name a client sent; the
/// report's fields keep the text as it was.
#[test]
fn a_refusal_and_a_rules_error_read_by_a_person_escape_what_a_client_wrote() {
    let escape = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}";
    let mut game = Rules::new("hangover").unwrap().new_game(3, 1).unwrap();
    game.draw().unwrap();
    let refused = game.apply(&json!({"by": "aki", "play": escape})).unwrap_err();
    let shown = refused.to_string();
    assert!(!shown.contains(['\u{1b}', '\u{7}', '\u{202e}']), "{shown:?}");
    assert!(shown.contains("\\u{1b}]0;pwned"), "{shown:?}");
    assert!(refused.errors[0].message.contains(escape), "the report keeps the text as it was");
    let error = Rules::new(&format!("hang{escape}over")).err().unwrap();
    assert!(error.message.contains(escape));
    assert!(!error.to_string().contains(['\u{1b}', '\u{7}', '\u{202e}']), "{error}");
    assert!(error.to_string().contains("hang\\u{1b}]0;pwned"), "{error}");
    let named = Rules::new("hangover").unwrap().new_game_named(&[format!("a{escape}"), "b".into(), "c".into()], 1);
    let shown = named.err().unwrap().to_string();
    assert!(!shown.contains(['\u{1b}', '\u{7}', '\u{202e}']), "{shown:?}");
    assert!(shown.contains("\\u{1b}"), "{shown:?}");
}

/// Rules made again from a file edited since (a designer trying a variant in a live session,
/// the referee's `new`, Python's `Rules(...)`) are the file as it is now; rules made before
/// keep what they were made from.
#[test]
fn rules_made_again_after_their_file_was_edited_are_the_file_as_it_is_now() {
    let folder = std::env::temp_dir().join(format!("shinpan-edited-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("coin.rules");
    let text = |players: &str| {
        format!(
            "game coin\nplayers {players}\nrule r \"a toss is 0 or 1\"\naction toss: int 0..1\n\
             scores {{}}\nwinners []\nflow {{\n  choose {{\n    toss(n) by players[0] {{\n    }}\n  }}\n}}\n"
        )
    };
    let name = path.to_str().unwrap();
    std::fs::write(&path, text("2..2")).unwrap();
    let before = Rules::new(name).unwrap();
    assert!(before.new_game(2, 1).is_ok());
    std::fs::write(&path, text("3..3")).unwrap();
    let after = Rules::new(name).unwrap();
    assert!(after.new_game(3, 1).is_ok(), "the edited file is compiled again");
    assert!(after.new_game(2, 1).is_err());
    assert!(before.new_game(2, 1).is_ok(), "rules made before keep what they were made from");
    std::fs::write(&path, "game coin\nplayers 3\nflow {").unwrap();
    assert!(Rules::new(name).is_err(), "an edit that breaks the file is seen too");
    std::fs::write(&path, text("3..3")).unwrap();
    assert!(Rules::new(name).unwrap().new_game(3, 1).is_ok());
    std::fs::remove_dir_all(&folder).unwrap();
}

/// The same when only a file the rules read was edited: the rules they `extends` (and the
/// rules those extend), or a card pool. A file the rules stop reading no longer matters.
#[test]
fn rules_made_again_after_a_file_they_read_was_edited_are_those_files_as_they_are_now() {
    let folder = std::env::temp_dir().join(format!("shinpan-edited-parent-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let coin = |players: &str| {
        format!(
            "game coin\nplayers {players}\nrule r \"a toss is 0 or 1\"\naction toss: int 0..1\n\
             scores {{}}\nwinners []\nflow {{\n  choose {{\n    toss(n) by players[0] {{\n    }}\n  }}\n}}\n"
        )
    };
    std::fs::write(folder.join("base.rules"), coin("2..2")).unwrap();
    std::fs::write(folder.join("child.rules"), "extends base.rules\n").unwrap();
    let child = folder.join("child.rules");
    let name = child.to_str().unwrap();
    let before = Rules::new(name).unwrap();
    assert!(before.new_game(2, 1).is_ok());
    std::fs::write(folder.join("base.rules"), coin("3..3")).unwrap();
    let after = Rules::new(name).unwrap();
    assert!(after.new_game(3, 1).is_ok(), "the edited parent is compiled again");
    assert!(after.new_game(2, 1).is_err());
    assert!(before.new_game(2, 1).is_ok(), "rules made before keep what they were made from");
    let given = Rules::from_text("given.rules", "extends base.rules\n", &folder).unwrap();
    assert!(given.new_game(3, 1).is_ok());
    // A grandparent: the parent now extends another file, which is then edited.
    std::fs::write(folder.join("grand.rules"), coin("4..4")).unwrap();
    std::fs::write(folder.join("base.rules"), "extends grand.rules\n").unwrap();
    assert!(Rules::new(name).unwrap().new_game(4, 1).is_ok(), "the parent's new parent is read");
    std::fs::write(folder.join("grand.rules"), coin("5..5")).unwrap();
    assert!(Rules::new(name).unwrap().new_game(5, 1).is_ok(), "the grandparent's edit is seen");
    assert!(Rules::from_text("given.rules", "extends base.rules\n", &folder).unwrap().new_game(5, 1).is_ok());
    std::fs::write(folder.join("grand.rules"), "game coin\nplayers 3\nflow {").unwrap();
    assert!(Rules::new(name).is_err(), "an edit that breaks the grandparent is seen too");
    // The parent no longer extends the grandparent: editing that file changes nothing.
    std::fs::write(folder.join("base.rules"), coin("2..2")).unwrap();
    let again = Rules::new(name).unwrap();
    assert!(again.new_game(2, 1).is_ok());
    std::fs::remove_file(folder.join("grand.rules")).unwrap();
    assert!(Rules::new(name).unwrap().new_game(2, 1).is_ok(), "a file no longer read is not looked for");
    // A card pool beside the rules: each transcript reads it as it is.
    let pool = "game pick\nplayers 2\nrule r \"a pick\"\nparam pool: file = \"cards.yaml\"\n\
                card Card(v: int) {\n  from pool.cards\n}\naction pick: Card\nscores {}\nwinners []\n\
                flow {\n  choose {\n    pick(c) by players[0] {\n    }\n  }\n}\n";
    std::fs::write(folder.join("pick.rules"), pool).unwrap();
    std::fs::write(folder.join("cards.yaml"), "cards:\n  - {code: A, v: 1}\n").unwrap();
    let picked = "{rules: pick, players: [a, b], events: [{by: a, pick: A}]}";
    let pick = folder.join("pick.rules");
    let rules = Rules::new(pick.to_str().unwrap()).unwrap();
    assert_eq!(rules.check_text("game", picked).verdict, Verdict::Legal);
    std::fs::write(folder.join("cards.yaml"), "cards:\n  - {code: B, v: 1}\n").unwrap();
    assert_eq!(Rules::new(pick.to_str().unwrap()).unwrap().check_text("game", picked).verdict, Verdict::Malformed);
    assert_eq!(rules.check_text("game", picked).verdict, Verdict::Malformed, "the pool is read for each transcript");
    let legal = rules.new_game(2, 1).unwrap().legal().unwrap();
    let events: Vec<Json> = legal.iter().filter_map(|l| l.event()).collect();
    assert_eq!(events, [json!({"by": "aki", "pick": "B"})], "and for each game begun");
    std::fs::remove_dir_all(&folder).unwrap();
}

/// Under `check --all`, where moves stand, a violation at a point that may be left lists that
/// point's events alone: listing the later points would run the game again for each of many
/// violations.
#[test]
fn where_moves_stand_a_violation_lists_the_events_of_its_own_point() {
    let path = std::path::Path::new("fixtures/hangover/not-held.yaml");
    let first = shinpan::report::check::Checker::new(None).check_path(path);
    let mut standing = shinpan::report::check::Checker::new(None);
    standing.all = true;
    let all = standing.check_path(path);
    let snacks = |r: &Report| r.violations[0].legal.iter().filter(|w| w.contains(" snack ")).count();
    assert_eq!((snacks(&first), snacks(&all)), (2, 2));
    assert!(first.violations[0].legal.len() > 2, "{:?}", first.violations[0].legal);
    assert_eq!(all.violations[0].legal.len(), 2, "{:?}", all.violations[0].legal);
}
