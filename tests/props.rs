//! Property tests: random legal playouts check legal; changing one event to something
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! that is not legal at that point is caught exactly at that event.

use std::rc::Rc;

use proptest::prelude::*;
use shinpan::play::{default_game, finite_events, legal_after, legal_after_standing, playout, run_events};
use shinpan::program::Program;
use shinpan::program::value::Value;
use shinpan::run::Event;
use shinpan::run::{Machine, Outcome, Source};

fn program(name: &str) -> Program {
    shinpan::builtin_program(name).unwrap().unwrap()
}

/// The built-in games with their player counts.
fn games() -> Vec<(&'static str, usize)> {
    let mut out = vec![];
    for (name, _) in shinpan::lang::specs::BUILTIN {
        let prog = program(name);
        out.extend((prog.players.0..=prog.players.1).map(|n| (*name, n as usize)));
    }
    out
}

/// A bridge game played at random, except that `breaks` times a seat that could follow suit
/// discards another suit instead (chosen by `picks`); gives the events and where the breaks are.
fn bridge_with_revokes(
    prog: &Program,
    mut picks: impl Iterator<Item = usize>,
    breaks: usize,
) -> (Vec<Event>, Vec<usize>) {
    let game = default_game(prog, 4).unwrap();
    let players = game.players.clone();
    let (mut events, mut revokes) = (vec![], vec![]);
    while let Some(legal) = legal_after_standing(prog, players.clone(), game.params.clone(), events.clone()) {
        let Some(first) = legal.first() else { break };
        let index = events.len();
        let discard = (revokes.len() < breaks && picks.next().unwrap().is_multiple_of(4))
            .then(|| discards(prog, &players, &game.params, &events, &legal))
            .flatten()
            .filter(|held| !held.is_empty());
        let event = match discard {
            Some(held) => {
                revokes.push(index);
                Event {
                    actor: first.actor.clone(),
                    action: first.action,
                    arg: held[picks.next().unwrap() % held.len()].clone(),
                    index,
                    line: 0,
                    span: 0..0,
                }
            }
            None => {
                let k = &legal[picks.next().unwrap() % legal.len()];
                Event { actor: k.actor.clone(), action: k.action, arg: k.arg.clone(), index, line: 0, span: 0..0 }
            }
        };
        events.push(event);
    }
    (events, revokes)
}

/// The cards the seat to play holds outside the led suit while it holds the led suit (by the
/// cards' codes, whose first letter is the suit), or none when no card is led yet.
fn discards(
    prog: &Program,
    players: &Rc<[String]>,
    params: &[Value],
    events: &[Event],
    legal: &[shinpan::run::Candidate],
) -> Option<Vec<Value>> {
    let play = prog.actions.iter().position(|a| a.name == "play")? as u16;
    if legal.iter().any(|k| k.action != play) {
        return None;
    }
    let mut machine =
        Machine::new(prog, players.clone(), params.to_vec(), Source::Transcript { events: events.to_vec(), pos: 0 });
    machine.let_moves_stand();
    machine.run().unwrap();
    let var = |name: &str| machine.globals[prog.vars.iter().position(|v| v.name == name).unwrap()].clone();
    let suit = |card: &Value| shinpan::run::show(prog, players, card).chars().next();
    let Value::List(trick) = var("trick") else { return None };
    let led = suit(trick.first()?.get(&Value::str("card"))?);
    let Value::List(held) = var("hand").get(&legal[0].actor)?.clone() else { return None };
    let follows = held.iter().any(|c| suit(c) == led);
    Some(held.iter().filter(|c| follows && suit(c) != led).cloned().collect())
}

fn run_standing(prog: &Program, players: Rc<[String]>, params: Vec<Value>, events: Vec<Event>) -> Outcome {
    let mut machine = Machine::new(prog, players, params, Source::Transcript { events, pos: 0 });
    machine.let_moves_stand();
    machine.run().unwrap()
}

/// A value that is no list or map: seats (one past the players), cards (one past the table),
/// texts that read as other values do, or are long, or need escaping.
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..3).prop_map(Value::Int),
        (0u8..4).prop_map(Value::Player),
        Just(Value::Table),
        (0u32..3).prop_map(Value::Card),
        Just(Value::Card(u32::MAX)),
        (0u16..5).prop_map(|v| Value::Enum(0, v)),
        prop::sample::select(vec![
            "1",
            "aki",
            "…",
            "by",
            "a\"b\\\n",
            "R3",
            "table",
            "x".repeat(70).leak(),
            "y".repeat(300).leak()
        ])
        .prop_map(Value::str),
    ]
}

/// Lists and maps of those, nested, up to 20 items or entries each.
fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 40, 20, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..20).prop_map(Value::list),
            prop::collection::vec((scalar(), inner), 0..20).prop_map(Value::map),
        ]
    })
}

/// Long texts spend the budget as the tree spends it: the third is cut where the tree cuts it.
#[test]
fn long_texts_spend_the_budget_as_the_tree_does() {
    let prog = program("hangover");
    let players: Vec<String> = ["aki", "ben"].map(String::from).to_vec();
    let arg = Value::list(vec![Value::str(&"y".repeat(300)); 3]);
    for values in 0..60 {
        let tree = shinpan::report::values::action_json(&prog, &players, &Value::Table, 0, &arg, values).to_string();
        let text = shinpan::report::values::action_json_text(&prog, &players, &Value::Table, 0, &arg, values);
        assert_eq!(text, tree, "within {values} values");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Bridge under `check --all`: a random game with up to three revokes put in reports
    /// exactly those, in order, each standing, and goes on to the end.
    #[test]
    fn inserted_revokes_are_reported_in_order(picks in prop::collection::vec(any::<usize>(), 400), breaks in 1usize..=3) {
        let prog = program("bridge");
        let (events, revokes) = bridge_with_revokes(&prog, picks.into_iter().cycle(), breaks);
        let game = default_game(&prog, 4).unwrap();
        let outcome = run_standing(&prog, game.players.clone(), game.params.clone(), events.clone());
        let reported: Vec<(usize, &str)> = outcome.stood.iter().map(|v| (v.event, prog.rules[v.rule as usize].id.as_str())).collect();
        let inserted: Vec<(usize, &str)> = revokes.iter().map(|&i| (i, "must-follow")).collect();
        prop_assert_eq!(reported, inserted);
        prop_assert!(outcome.violation.is_none());
        prop_assert!(outcome.finished);
        // Without --all, the first revoke stops the checking.
        let first = run_events(&prog, game.players, game.params, events).unwrap();
        prop_assert_eq!(first.violation.map(|v| v.event), revokes.first().copied());
    }

    #[test]
    fn random_playouts_check_legal(seed in any::<u64>(), (name, players) in prop::sample::select(games())) {
        let prog = program(name);
        let p = playout(&prog, players, seed, 10_000).unwrap();
        prop_assert!(p.outcome.finished, "a playout with no cap ends the game");
        let game = default_game(&prog, players).unwrap();
        let outcome = run_events(&prog, p.players.clone(), game.params, p.events.clone()).unwrap();
        prop_assert!(outcome.violation.is_none(), "violation: {:?}", outcome.violation);
        prop_assert!(outcome.finished);
        prop_assert_eq!(&outcome.scores, &p.outcome.scores);
        // The game written straight out is the text of its JSON tree.
        let variant = [("limit".to_string(), shinpan::transcript::Yaml::Int(seed as i64 % 9))];
        for variant in [&[][..], &variant[..]] {
            let tree = shinpan::play::transcript_json_for(name, variant, &prog, &p).to_string();
            prop_assert_eq!(shinpan::play::transcript_json_line_for(name, variant, &prog, &p), tree);
        }
        let values = shinpan::Limits::DEFAULT.verdict_json_values;
        for e in &p.events {
            // Nothing of a played game is cut or merged: every event is written straight out.
            let plain = shinpan::report::values::plain_action_text(&prog, &p.players, &e.actor, e.action, &e.arg, values);
            prop_assert_eq!(plain, Some(shinpan::play::event_json(&prog, &p.players, e).to_string()));
        }
    }

    /// Any value, within any budget, is written straight out as its JSON tree writes it:
    /// with what the tree leaves out for want of budget, and with keys that read alike merged.
    #[test]
    fn an_event_written_straight_out_is_its_tree(actor in scalar(), arg in value(), action in any::<prop::sample::Index>(), values in 0usize..40) {
        let mut prog = program("hangover");
        let players: Vec<String> = ["aki", "ben", "\u{1b}[31mchie"].map(String::from).to_vec();
        let action = action.index(prog.actions.len()) as u16;
        for renamed in [false, true] {
            // A program made by hand may name an action `by`, which the language does not.
            if renamed {
                prog.actions[action as usize].name = "by".into();
            }
            let tree = shinpan::report::values::action_json(&prog, &players, &actor, action, &arg, values).to_string();
            prop_assert_eq!(shinpan::report::values::action_json_text(&prog, &players, &actor, action, &arg, values), tree);
        }
    }

    #[test]
    fn one_illegal_event_is_caught_there(seed in any::<u64>(), (name, players) in prop::sample::select(games()), at in any::<prop::sample::Index>(), pick in any::<prop::sample::Index>()) {
        let prog = program(name);
        let p = playout(&prog, players, seed, 10_000).unwrap();
        let i = at.index(p.events.len());
        let game = default_game(&prog, players).unwrap();
        let prefix: Vec<Event> = p.events[..i].to_vec();
        // What is legal there, past a point that may be left without an event (the snack
        // moment) too: an event none of them offers is caught wherever it is judged.
        let Some(legal) = legal_after(&prog, p.players.clone(), game.params.clone(), prefix) else { return Ok(()) };
        let illegal: Vec<(Value, u16, Value)> = finite_events(&prog, p.players.clone(), game.params.clone()).into_iter()
            .filter(|(actor, action, arg)| !legal.iter().any(|k| k.actor == *actor && k.action == *action && k.arg == *arg))
            .collect();
        prop_assume!(!illegal.is_empty());
        let (actor, action, arg) = illegal[pick.index(illegal.len())].clone();
        let mut events = p.events.clone();
        events[i] = Event { actor, action, arg, index: i, line: 0, span: 0..0 };
        let outcome = run_events(&prog, p.players.clone(), game.params, events).unwrap();
        let v = outcome.violation.expect("the changed event is caught");
        prop_assert_eq!(v.event, i);
    }

    /// Curtain Call: after any random game, each of the 53 cards lies in exactly one place.
    #[test]
    fn curtain_call_conserves_the_cards(seed in any::<u64>()) {
        let prog = program("curtain-call");
        let p = playout(&prog, 2, seed, 10_000).unwrap();
        let var = |name: &str| p.state[prog.vars.iter().position(|v| v.name == name).unwrap()].clone();
        let mut cards: Vec<Value> = vec![];
        for zone in ["hand", "kami", "shimo"] {
            let Value::Map(per_player) = var(zone) else { panic!("{zone}") };
            for (_, held) in per_player.iter() {
                let Value::List(held) = held else { panic!() };
                cards.extend(held.iter().cloned());
            }
        }
        let Value::List(stage) = var("stage") else { panic!() };
        cards.extend(stage.iter().filter(|c| **c != Value::Null).cloned());
        let Value::List(set) = var("set_slots") else { panic!() };
        cards.extend(set.iter().filter_map(|e| e.get(&Value::str("card")).cloned()));
        cards.sort();
        let all: Vec<Value> = prog.kinds[0].cards.clone().map(Value::Card).collect();
        prop_assert_eq!(cards, all);
    }

    /// Hangover's `play`: a card already played is held by nobody.
    #[test]
    fn a_card_not_held_is_caught(seed in any::<u64>(), players in 3usize..=5, at in any::<prop::sample::Index>()) {
        let prog = program("hangover");
        let p = playout(&prog, players, seed, 10_000).unwrap();
        let plays: Vec<usize> = p.events.iter().enumerate().filter(|(_, e)| prog.actions[e.action as usize].name == "play").map(|(i, _)| i).collect();
        let i = plays[at.index(plays.len())];
        // A card played earlier is in nobody's hand any more.
        let Some(&earlier) = plays.iter().find(|&&j| j < i) else { return Ok(()) };
        let mut events = p.events.clone();
        events[i].arg = p.events[earlier].arg.clone();
        let game = default_game(&prog, players).unwrap();
        let outcome = run_events(&prog, Rc::clone(&p.players), game.params, events).unwrap();
        let v = outcome.violation.expect("caught");
        prop_assert_eq!(v.event, i);
        prop_assert_eq!(prog.rules[v.rule as usize].id.as_str(), "not-held");
    }
}
