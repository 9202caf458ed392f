//! The hand-written Hangover referee (examples/handwritten_hangover, the yardstick of
//! docs/performance.md) against the engine running `specs/hangover.rules`: the same verdict,
//! first rule and event, `finished`, scores and winners on random legal games, on single
//! mutations of them, on the Hangover fixtures and on the referee's own random games. The spec
//! is the contract: a disagreement is the hand-written referee's fault, so the benchmark never
//! measures a referee that does less than the engine.
//!
//! `SHINPAN_HANDWRITTEN_GAMES=2000 cargo test --release --test handwritten` runs a bigger
//! corpus (the default is 300 legal games and two mutations of each).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

#[path = "../examples/handwritten_hangover/referee.rs"]
#[allow(dead_code, reason = "the example's command line uses the rest")]
mod referee;

use std::collections::BTreeMap;
use std::path::Path;

use referee::Rng;
use serde_json::{Value, json};
use shinpan::Rules;
use shinpan::report::check::Checker;

/// What a referee says about one transcript.
#[derive(Debug, PartialEq)]
struct Said {
    verdict: &'static str,
    /// The first violation's rule id and event number.
    broken: Option<(String, usize)>,
    finished: bool,
    scores: Vec<(String, i64)>,
    winners: Vec<String>,
}

/// The engine as `shinpan check` runs it: against the rules each transcript names.
fn engine_says(checker: &mut Checker, text: &str) -> Said {
    let report = checker.check_text("corpus", text.to_string(), Path::new("."));
    let scores = report.scores.unwrap_or_default();
    Said {
        verdict: report.verdict.word(),
        broken: report.violations.first().map(|v| (v.rule.clone(), v.event)),
        finished: report.finished,
        scores: scores.into_iter().map(|(name, vp)| (name, vp.as_i64().unwrap())).collect(),
        winners: report.winners,
    }
}

fn referee_says(line: &str) -> Said {
    let Some((game, outcome)) = referee::check_line(line) else {
        return Said { verdict: "malformed", broken: None, finished: false, scores: vec![], winners: vec![] };
    };
    let name = |seat: usize| game.names[seat].clone();
    Said {
        verdict: if outcome.broken.is_some() { "illegal" } else { "legal" },
        broken: outcome.broken.map(|(rule, event)| (rule.id().to_string(), event)),
        finished: outcome.finished,
        scores: outcome.scores.iter().enumerate().map(|(seat, &vp)| (name(seat), vp)).collect(),
        winners: outcome.winners.iter().map(|&seat| name(seat)).collect(),
    }
}

/// Checks every transcript with both referees; gives what they said, and the disagreements.
#[derive(Default)]
struct Tally {
    checked: usize,
    /// How often each verdict or rule id came out.
    outcomes: BTreeMap<String, usize>,
    disagreements: Vec<String>,
}

impl Tally {
    fn compare(&mut self, checker: &mut Checker, engine_text: &str, referee_line: &str) {
        let (engine, hand) = (engine_says(checker, engine_text), referee_says(referee_line));
        self.checked += 1;
        let outcome = engine.broken.as_ref().map_or(engine.verdict.to_string(), |(rule, _)| rule.clone());
        *self.outcomes.entry(outcome).or_default() += 1;
        if engine != hand && self.disagreements.len() < 5 {
            self.disagreements.push(format!("{referee_line}\nengine: {engine:?}\n  hand: {hand:?}"));
        }
    }

    fn assert_agreed(&self, what: &str) {
        assert!(self.disagreements.is_empty(), "{what}: the referees disagree:\n{}", self.disagreements.join("\n\n"));
    }
}

fn corpus_size() -> usize {
    std::env::var("SHINPAN_HANDWRITTEN_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(300)
}

/// Random legal games from the engine: a quarter of them with each of 3, 4 and 5 players, the
/// last quarter 4-player games with parameters that reach more of the rules (Hangover!s, a
/// table with nobody active left, drunk checks at the limit, short games).
fn legal_corpus(games: usize) -> Vec<String> {
    let quarter = games / 4;
    let mut lines = Vec::with_capacity(games);
    let mut play = |rules: &Rules, players: usize, seed: u64, count: usize| {
        rules
            .play_games(players, seed, count, 100_000, |line| {
                lines.push(line.to_string());
                true
            })
            .unwrap();
    };
    let hangover = Rules::new("hangover").unwrap();
    for players in 3..=5 {
        play(&hangover, players, 1000 * players as u64, quarter);
    }
    let variants = [("hangover_at", "2"), ("limit", "6"), ("hand_size", "4"), ("hangover_at", "1")];
    for (i, (key, value)) in variants.iter().enumerate() {
        let count = (games - 3 * quarter) / variants.len() + usize::from(i < (games - 3 * quarter) % variants.len());
        play(&Rules::new("hangover").unwrap().with_variant(key, value).unwrap(), 4, 7 + i as u64, count);
    }
    lines
}

const SUITS: [char; 4] = ['R', 'B', 'Y', 'G'];
const SNACK_CODES: [&str; 10] =
    ["+1/+2", "-1/-2", "+2/+3", "-2/-3", "+1/+3", "-1/-3", "-1/+1", "-2/+2", "-3/+3", "-4/+4"];
const ACTIONS: [&str; 9] = ["deal", "snacks", "arrange", "start", "declare", "play", "snack", "won", "score"];

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// Any readable drink card code, of the deck in use or not.
fn any_card(rng: &mut Rng) -> Value {
    let tri = if rng.below(2) == 1 { "^" } else { "" };
    json!(format!("{}{}{tri}", pick(rng, &SUITS), 1 + rng.below(7)))
}

fn any_snack(rng: &mut Rng) -> Value {
    json!(pick(rng, &SNACK_CODES))
}

/// A use of a snack that adds one of its printed values.
fn snack_use(rng: &mut Rng) -> Value {
    let code = *pick(rng, &SNACK_CODES);
    let (lo, hi) = referee::Snack::parse(code).unwrap().values();
    json!([{"card": code, "add": if rng.below(2) == 0 { lo } else { hi }}])
}

/// The one action of an event: its name and argument.
fn action_of(event: &Value) -> (String, Value) {
    let map = event.as_object().unwrap();
    map.iter().find(|(k, _)| *k != "by" && *k != "note").map(|(k, v)| (k.clone(), v.clone())).unwrap()
}

/// A well-formed argument for `action` in this game; the deal and the snack deal are the
/// game's own (so that a repeated one is judged for where it stands, not for its cards).
fn argument_for(action: &str, game: &Value, players: &[Value], rng: &mut Rng) -> Value {
    let own = |name: &str| game["events"].as_array().unwrap().iter().find_map(|e| e.get(name).cloned());
    match action {
        "deal" | "snacks" => own(action).unwrap(),
        "arrange" => json!((0..4).map(|_| any_snack(rng)).collect::<Vec<_>>()),
        "start" | "won" => pick(rng, players).clone(),
        "declare" => json!("nondrinker"),
        "play" => any_card(rng),
        "snack" => snack_use(rng),
        _ => json!({pick(rng, players).as_str().unwrap(): rng.below(13)}),
    }
}

/// The argument changed a little, its shape kept: one card or value replaced or dropped.
fn changed_argument(action: &str, arg: &Value, by: &Value, game: &Value, rng: &mut Rng) -> Value {
    let mut arg = arg.clone();
    let players = game["players"].as_array().unwrap().clone();
    match action {
        "deal" | "snacks" => {
            let player = pick(rng, &players).as_str().unwrap().to_string();
            let list = arg[&player].as_array_mut().unwrap();
            let at = rng.below(list.len());
            match rng.below(3) {
                0 => drop(list.remove(at)),
                _ if action == "deal" => list[at] = any_card(rng),
                _ => list[at] = any_snack(rng),
            }
        }
        "arrange" => {
            let list = arg.as_array_mut().unwrap();
            match rng.below(3) {
                0 => drop(list.remove(rng.below(list.len()))),
                1 => list.swap(0, 1 + rng.below(3)),
                _ => list[rng.below(4)] = any_snack(rng),
            }
        }
        "play" if rng.below(2) == 0 => {
            // A card dealt to this player: often already played, sometimes still held.
            let events = game["events"].as_array().unwrap();
            let dealt = events.iter().find_map(|e| e.get("deal")).and_then(|d| d.get(by.as_str().unwrap_or("")));
            arg = match dealt.and_then(Value::as_array) {
                Some(cards) => pick(rng, cards).clone(),
                None => any_card(rng),
            };
        }
        "play" => arg = any_card(rng),
        "snack" => match rng.below(4) {
            0 => arg = json!([]),
            1 => arg[0]["add"] = json!(rng.below(11) as i64 - 5),
            2 => arg[0]["card"] = any_snack(rng),
            _ => arg.as_array_mut().unwrap().push(snack_use(rng)[0].clone()),
        },
        "score" => {
            let player = pick(rng, &players).as_str().unwrap().to_string();
            let vp = arg.get(&player).and_then(Value::as_i64).unwrap_or(0);
            let delta = 1 + rng.below(3) as i64;
            arg[&player] = json!(if rng.below(2) == 0 { vp + delta } else { vp - delta });
        }
        _ => arg = pick(rng, &players).clone(),
    }
    arg
}

/// One mutation of a legal game: one event's actor, argument or action changed, or one event
/// dropped, repeated or swapped with the next. One time in six the target is a setup event,
/// one time in six one of the last six (the end of the game), so that each is changed often
/// enough.
fn mutate(original: &Value, rng: &mut Rng) -> Value {
    let mut game = original.clone();
    let players = game["players"].as_array().unwrap().clone();
    let events_len = game["events"].as_array().unwrap().len();
    let at = match rng.below(6) {
        0 => rng.below(events_len.min(12)),
        1 => events_len - 1 - rng.below(events_len.min(6)),
        _ => rng.below(events_len),
    };
    let event = game["events"][at].clone();
    let (action, arg) = action_of(&event);
    let by = event["by"].clone();
    let events = game["events"].as_array_mut().unwrap();
    match rng.below(6) {
        0 | 1 if action != "declare" => {
            let arg = changed_argument(&action, &arg, &by, original, rng);
            events[at] = json!({"by": by, action: arg});
        }
        0..=2 => {
            let mut actors = players.clone();
            actors.push(json!("table"));
            actors.retain(|a| *a != by);
            events[at]["by"] = pick(rng, &actors).clone();
        }
        3 => {
            let others: Vec<&str> = ACTIONS.iter().copied().filter(|a| *a != action).collect();
            let new_action = *pick(rng, &others);
            let arg = argument_for(new_action, original, &players, rng);
            events[at] = json!({"by": by, new_action: arg});
        }
        4 => drop(events.remove(at)),
        _ if at + 1 < events.len() && rng.below(2) == 0 => events.swap(at, at + 1),
        _ => events.insert(at, event),
    }
    game
}

#[test]
fn random_games_and_their_mutations_get_the_engines_verdicts() {
    let mut checker = Checker::new(None);
    let legal = legal_corpus(corpus_size());
    let mut tally = Tally::default();
    for line in &legal {
        tally.compare(&mut checker, line, line);
    }
    tally.assert_agreed("legal games");
    assert_eq!(tally.outcomes.get("legal"), Some(&legal.len()), "{:?}", tally.outcomes);

    let mut rng = Rng::new(32);
    let mut mutated = Tally::default();
    for line in &legal {
        let game: Value = serde_json::from_str(line).unwrap();
        for _ in 0..2 {
            let changed = mutate(&game, &mut rng).to_string();
            mutated.compare(&mut checker, &changed, &changed);
        }
    }
    mutated.assert_agreed("mutated games");
    eprintln!("{} legal games, {} mutated games: {:?}", tally.checked, mutated.checked, mutated.outcomes);
    // The mutations reach every rule of the game, so that every rule is compared.
    let ids = ["after-game-end", "unexpected-action", "turn-order", "not-held", "bad-deal"];
    let ids = ids.iter().chain(&["arrange", "must-follow", "snack", "trick-winner", "score"]);
    for id in ids {
        assert!(mutated.outcomes.get(*id).is_some_and(|&n| n > 0), "no mutation broke {id}: {:?}", mutated.outcomes);
    }
    let illegal: usize = mutated.outcomes.iter().filter(|(k, _)| *k != "legal").map(|(_, n)| n).sum();
    assert!(illegal * 2 > mutated.checked, "most mutations break a rule: {:?}", mutated.outcomes);
}

/// The hand-made fixtures (every rule broken and nearly broken, the parameters) and the shared
/// examples, read from YAML into the JSON line the hand-written referee reads.
#[test]
fn the_fixtures_get_the_engines_verdicts() {
    let mut checker = Checker::new(None);
    let mut tally = Tally::default();
    for dir in ["fixtures/hangover", "fixtures/examples/hangover"] {
        let mut paths: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            // A fixture whose YAML does not even parse is malformed to both.
            let line = serde_saphyr::from_str::<Value>(&text).map_or_else(|_| "{".to_string(), |v| v.to_string());
            tally.compare(&mut checker, &text, &line);
        }
    }
    tally.assert_agreed("fixtures");
    assert!(tally.checked >= 30, "only {} fixtures", tally.checked);
    assert!(tally.outcomes.get("malformed").is_some_and(|&n| n >= 2), "{:?}", tally.outcomes);
}

/// The referee's own random games are legal to the engine, with the same results: its
/// playout loop plays Hangover, not something cheaper.
#[test]
fn the_handwritten_playouts_are_legal_games() {
    let mut checker = Checker::new(None);
    let mut tally = Tally::default();
    let mut rng = Rng::new(7);
    let (mut events, mut games) = (0, 0);
    for players in 3..=5 {
        let params = referee::Params::new(players, None, None, None, None).unwrap();
        let names = referee::seat_names(players);
        for _ in 0..corpus_size() / 3 {
            let mut played = vec![];
            referee::playout(params, &mut rng, |e| played.push(e.clone())).unwrap();
            let line = referee::transcript_line(&names, &played);
            tally.compare(&mut checker, &line, &line);
            events += played.len();
            games += 1;
        }
    }
    tally.assert_agreed("hand-written playouts");
    assert_eq!(tally.outcomes.get("legal"), Some(&games), "{:?}", tally.outcomes);
    // Whole games: 3 to 5 players, 11 tricks unless everybody is out first.
    assert!(events > games * 40, "{events} events in {games} games");
}

/// Transcripts that do not read as Hangover games (5.1), each one edit of a legal game, and a
/// few edits that still read: both referees read them alike.
#[test]
fn unreadable_transcripts_are_malformed_to_both() {
    let mut line = String::new();
    Rules::new("hangover")
        .unwrap()
        .play_games(4, 3, 1, 100_000, |l| {
            line = l.to_string();
            false
        })
        .unwrap();
    let game: Value = serde_json::from_str(&line).unwrap();
    let first_play = game["events"].as_array().unwrap().iter().position(|e| e.get("play").is_some()).unwrap();
    let arrange = game["events"].as_array().unwrap().iter().position(|e| e.get("arrange").is_some()).unwrap();
    type Edit = fn(&mut Value, usize, usize);
    let unreadable: [(&str, Edit); 17] = [
        ("a card code past rank 7", |g, play, _| g["events"][play]["play"] = json!("R8")),
        ("a card code in lower case", |g, play, _| g["events"][play]["play"] = json!("r1")),
        ("two actions", |g, play, _| g["events"][play]["won"] = json!("aki")),
        ("an unknown actor", |g, play, _| g["events"][play]["by"] = json!("zed")),
        ("no actor", |g, play, _| drop(g["events"][play].as_object_mut().unwrap().remove("by"))),
        ("an unknown action", |g, play, _| g["events"][play] = json!({"by": "table", "shuffle": []})),
        ("an event that is not a mapping", |g, play, _| g["events"][play] = json!(5)),
        ("a snack code not as printed", |g, _, arrange| g["events"][arrange]["arrange"][0] = json!("+2/+1")),
        ("a score of an unknown player", |g, play, _| g["events"][play] = json!({"by": "table", "score": {"zed": 0}})),
        ("a snack use with a third key", |g, play, _| {
            g["events"][play] = json!({"by": "aki", "snack": [{"card": "+1/+2", "add": 1, "and": 2}]})
        }),
        ("an add that is a string", |g, play, _| {
            g["events"][play] = json!({"by": "aki", "snack": [{"card": "+1/+2", "add": "1"}]})
        }),
        ("a declaration of something else", |g, play, _| {
            g["events"][play] = json!({"by": "aki", "declare": "drinker"})
        }),
        ("a boolean parameter", |g, _, _| g["variant"] = json!({"limit": true})),
        ("a hand size past the deck in use", |g, _, _| g["variant"] = json!({"max_rank": 3})),
        ("an unknown parameter", |g, _, _| g["variant"] = json!({"bogus": 1})),
        ("a player named table", |g, _, _| g["players"][1] = json!("table")),
        ("two players", |g, _, _| g["players"] = json!(["aki", "ben"])),
    ];
    let readable: [(&str, Edit); 3] = [
        ("a note", |g, play, _| g["events"][play]["note"] = json!("a note")),
        ("a null variant", |g, _, _| g["variant"] = Value::Null),
        ("an empty variant", |g, _, _| g["variant"] = json!({})),
    ];
    let mut checker = Checker::new(None);
    for (expected, edits) in [("malformed", &unreadable[..]), ("readable", &readable[..])] {
        for (what, edit) in edits {
            let mut changed = game.clone();
            edit(&mut changed, first_play, arrange);
            let line = changed.to_string();
            let mut tally = Tally::default();
            tally.compare(&mut checker, &line, &line);
            tally.assert_agreed(what);
            let malformed = tally.outcomes.contains_key("malformed");
            assert_eq!(malformed, expected == "malformed", "{what}: {:?}", tally.outcomes);
        }
    }
}
