//! Builds a transcript by steering a game through its legal actions with a preference
//! list, for fixtures random playouts rarely reach (a Curtain Call that ends because the
//! set ran out). Each step lists the legal actions after the events so far and takes the
//! first preferred one, else a seeded random one.
//!
//! `cargo run --release --example steer -- RULES PLAYERS SEED "pref1,pref2,..."`
//! A preference is an action name (`boo`), optionally with `!` and a text the action's
//! description must not contain (`open!JK` is not applied here; see `avoid`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a tool for making fixtures")]

use shinpan::interp::Event;
use shinpan::play::{default_game, event_json, legal_after};

/// An ending whose scores change when the first parameter is 1 (the boo penalty applied).
fn wanted_ending(prog: &shinpan::program::Program, game: &shinpan::decode::Game, events: &[Event], scores: &shinpan::value::Value) -> bool {
    let mut params = game.params.clone();
    params[0] = shinpan::value::Value::Int(1);
    let other = shinpan::play::run_events(prog, game.players.clone(), params, events.to_vec()).unwrap();
    other.scores != *scores
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = &args[1];
    let players: usize = args[2].parse().unwrap();
    let mut seed: u64 = args[3].parse().unwrap();
    let prefs: Vec<&str> = args.get(4).map(|s| s.split(',').collect()).unwrap_or_default();
    let avoid: Vec<&str> = args.get(5).map(|s| s.split(',').collect()).unwrap_or_default();
    let prog = shinpan::compile(rules, shinpan::specs::builtin(rules).unwrap()).unwrap();
    let game = default_game(&prog, players).unwrap();
    let mut events: Vec<Event> = vec![];
    let mut rng = shinpan::rng::Rng::new(seed);
    for _ in 0..2000 {
        let Some(legal) = legal_after(&prog, game.players.clone(), game.params.clone(), events.clone()) else { break };
        if legal.is_empty() {
            break;
        }
        let describe = |k: &shinpan::interp::Candidate| format!("{} {}", prog.actions[k.action as usize].name, shinpan::interp::show(&prog, &game.players, &k.arg));
        let allowed: Vec<_> = legal.iter().filter(|k| !avoid.iter().any(|a| describe(k).contains(a))).cloned().collect();
        let pool = if allowed.is_empty() { legal.clone() } else { allowed };
        let preferred = prefs.iter().find_map(|p| {
            let matches: Vec<_> = pool.iter().filter(|k| prog.actions[k.action as usize].name == *p).cloned().collect();
            (!matches.is_empty()).then_some(matches)
        });
        let mut choices = preferred.unwrap_or(pool.clone());
        rng.shuffle(&mut choices);
        choices.extend(pool);
        seed = seed.wrapping_add(1);
        // Take the first choice that does not end the game, unless it ends it the wanted way.
        let mut done = false;
        let mut taken = false;
        for k in choices {
            let mut next = events.clone();
            next.push(Event { actor: k.actor, action: k.action, arg: k.arg, index: events.len(), line: 0, span: 0..0 });
            let outcome = shinpan::play::run_events(&prog, game.players.clone(), game.params.clone(), next.clone()).unwrap();
            if outcome.finished && !wanted_ending(&prog, &game, &next, &outcome.scores) {
                continue;
            }
            events = next;
            done = outcome.finished;
            taken = true;
            break;
        }
        if done || !taken {
            break;
        }
    }
    println!("rules: {}\nplayers: {}\nevents:", rules, serde_json::json!(game.players.to_vec()));
    for e in &events {
        println!("  - {}", event_json(&prog, &game.players, e));
    }
}
