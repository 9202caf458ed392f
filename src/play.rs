//! Random legal playouts: the interpreter chooses uniformly among the legal actions, and
//! chance comes from a seeded generator through the rules' `choices`.

use std::rc::Rc;

use serde_json::{Value as Json, json};

use crate::decode;
use crate::diag::Diag;
use crate::interp::{Event, Machine, Outcome, Source};
use crate::program::Program;
use crate::rng::Rng;
use crate::transcript::Yaml;
use crate::value::Value;

const NAMES: &[&str] = &["aki", "ben", "chie", "dai", "emi", "fumi", "gen", "hana"];

pub struct Playout {
    pub players: Rc<[String]>,
    pub events: Vec<Event>,
    pub outcome: Outcome,
    /// The state at the end, one value per `var` of the rules.
    pub state: Vec<Value>,
}

/// Plays one random game with default parameters.
pub fn playout(prog: &Program, players: usize, seed: u64, max_events: usize) -> Result<Playout, Diag> {
    playout_with(prog, players, &[], seed, max_events)
}

/// Plays one random game with these parameters over the defaults (as a transcript's
/// `variant` gives them).
pub fn playout_with(
    prog: &Program,
    players: usize,
    variant: &[(String, Yaml)],
    seed: u64,
    max_events: usize,
) -> Result<Playout, Diag> {
    let game = game_with(prog, players, variant)?;
    let source = Source::Random { rng: Rng::new(seed), limit: max_events, made: vec![] };
    let mut machine = Machine::new(prog, game.players.clone(), game.params, source);
    let outcome = machine.run()?;
    let events = match std::mem::replace(&mut machine.source, Source::Transcript { events: vec![], pos: 0 }) {
        Source::Random { made, .. } => made,
        _ => vec![],
    };
    Ok(Playout { players: game.players, events, outcome, state: machine.globals })
}

/// A playout as a transcript (YAML in JSON flow style, one event a line).
pub fn transcript_text(prog: &Program, p: &Playout) -> String {
    transcript_text_for(&prog.name, &[], prog, p)
}

/// A playout as a transcript that names its rules as `rules` (a built-in name or a path that
/// finds the file again) and records its parameters under `variant`.
pub fn transcript_text_for(rules: &str, variant: &[(String, Yaml)], prog: &Program, p: &Playout) -> String {
    let players: Vec<Json> = p.players.iter().map(|n| json!(n)).collect();
    let mut out = format!("rules: {}\nplayers: {}\n", json!(rules), Json::Array(players));
    if !variant.is_empty() {
        let given: serde_json::Map<String, Json> = variant.iter().map(|(k, v)| (k.clone(), v.to_json())).collect();
        out.push_str(&format!("variant: {}\n", Json::Object(given)));
    }
    out.push_str("events:\n");
    for e in &p.events {
        out.push_str(&format!("  - {}\n", event_json(prog, &p.players, e)));
    }
    out
}

pub fn event_json(prog: &Program, players: &[String], e: &Event) -> Json {
    crate::render::action_json(prog, players, &e.actor, e.action, &e.arg)
}

/// What is legal where event `prefix.len()` would be judged, after running `prefix`;
/// `None` when the prefix does not get there legally or passes an optional point.
pub fn legal_after(
    prog: &Program,
    players: Rc<[String]>,
    params: Vec<Value>,
    prefix: Vec<Event>,
) -> Option<Vec<crate::interp::Candidate>> {
    probe(prog, players, params, prefix, false)
}

/// As `legal_after`, with the moves of the prefix that break a rule that `stands` played as
/// recorded (`check --all`).
pub fn legal_after_standing(
    prog: &Program,
    players: Rc<[String]>,
    params: Vec<Value>,
    prefix: Vec<Event>,
) -> Option<Vec<crate::interp::Candidate>> {
    probe(prog, players, params, prefix, true)
}

fn probe(
    prog: &Program,
    players: Rc<[String]>,
    params: Vec<Value>,
    prefix: Vec<Event>,
    standing: bool,
) -> Option<Vec<crate::interp::Candidate>> {
    let source = Source::Probe { events: prefix, pos: 0, legal: None, passed_optional: false };
    let mut machine = Machine::new(prog, players, params, source);
    if standing {
        machine.let_moves_stand();
    }
    let outcome = machine.run().ok()?;
    match machine.source {
        Source::Probe { legal: Some(legal), passed_optional: false, .. } if outcome.violation.is_none() => Some(legal),
        _ => None,
    }
}

/// Default parameters for a game of these players.
pub fn default_game(prog: &Program, players: usize) -> Result<decode::Game, Diag> {
    game_with(prog, players, &[])
}

/// The players a playout names, and the parameters: `variant` over the defaults.
fn game_with(prog: &Program, players: usize, variant: &[(String, Yaml)]) -> Result<decode::Game, Diag> {
    let names: Vec<Yaml> = match &prog.seats {
        Some(seats) => seats.iter().map(|s| Yaml::Str(s.clone())).collect(),
        None => default_names(players),
    };
    let players = crate::transcript::Located { value: Yaml::Seq(names), line: 0, span: 0..0 };
    let given = Yaml::Map(variant.iter().map(|(k, v)| (Yaml::Str(k.clone()), v.clone())).collect());
    let variant = Some(crate::transcript::Located { value: given, line: 0, span: 0..0 });
    let raw = crate::transcript::RawTranscript {
        players: Some(players),
        variant,
        events: Some(Ok(vec![])),
        ..Default::default()
    };
    decode::decode(prog, &raw)
        .map_err(|e| Diag::new(crate::codes::MALFORMED, e.first().map_or(String::new(), |m| m.message.clone())))
}

/// aki, ben, chie, ...: names for a game that does not fix its players' names.
fn default_names(players: usize) -> Vec<Yaml> {
    NAMES
        .iter()
        .cycle()
        .take(players)
        .enumerate()
        .map(|(i, n)| Yaml::Str(if i < NAMES.len() { n.to_string() } else { format!("{n}{i}") }))
        .collect()
}

/// Checks already decoded events (no YAML), as the property tests do.
pub fn run_events(
    prog: &Program,
    players: Rc<[String]>,
    params: Vec<Value>,
    events: Vec<Event>,
) -> Result<Outcome, Diag> {
    Machine::new(prog, players, params, Source::Transcript { events, pos: 0 }).run()
}

/// Every (actor, action, argument) whose argument shape is finite: the alphabet of single
/// changes the property tests draw from.
pub fn finite_events(prog: &Program, players: Rc<[String]>, params: Vec<Value>) -> Vec<(Value, u16, Value)> {
    let mut actors: Vec<Value> = (0..players.len()).map(|i| Value::Player(i as u8)).collect();
    actors.push(Value::Table);
    let mut machine = Machine::new(prog, players, params, Source::Transcript { events: vec![], pos: 0 });
    let mut out = vec![];
    for action in 0..prog.actions.len() as u16 {
        for arg in machine.arguments_of(action).unwrap_or_default() {
            out.extend(actors.iter().map(|a| (a.clone(), action, arg.clone())));
        }
    }
    out
}
