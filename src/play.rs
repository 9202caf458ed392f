//! Random legal playouts: the interpreter chooses uniformly among the legal actions, and
//! chance comes from a seeded generator through the rules' `choices`.

use std::rc::Rc;

use serde_json::{Value as Json, json};

use crate::diag::Diag;
use crate::limits::Limits;
use crate::program::Program;
use crate::program::value::Value;
use crate::run::rng::Rng;
use crate::run::{Carried, DeadEnd, Event, Machine, Outcome, Source};
use crate::transcript::Yaml;
use crate::transcript::decode;

const NAMES: &[&str] = &["aki", "ben", "chie", "dai", "emi", "fumi", "gen", "hana"];

pub struct Playout {
    pub players: Rc<[String]>,
    pub events: Vec<Event>,
    pub outcome: Outcome,
    /// The state at the end, one value per `var` of the rules.
    pub state: Vec<Value>,
}

/// Plays one random game with default parameters and limits, cut short after `max_events`.
pub fn playout(prog: &Program, players: usize, seed: u64, max_events: usize) -> Result<Playout, Diag> {
    playout_with(prog, players, &[], seed, &Limits { playout_events: max_events, ..Limits::DEFAULT })
}

/// Plays one random game with these parameters over the defaults (as a transcript's
/// `variant` gives them), within `limits` (a game that has not ended after
/// `limits.playout_events` events is cut there: a rules file whose game never ends).
pub fn playout_with(
    prog: &Program,
    players: usize,
    variant: &[(String, Yaml)],
    seed: u64,
    limits: &Limits,
) -> Result<Playout, Diag> {
    playout_carrying(prog, players, variant, seed, limits, &mut None)
}

/// `playout_with`, started with what the last game of `prog` carried (`Machine::carried`), and
/// leaving what this one carries there for the next: for a run of games of the same rules.
pub(crate) fn playout_carrying(
    prog: &Program,
    players: usize,
    variant: &[(String, Yaml)],
    seed: u64,
    limits: &Limits,
    carried: &mut Option<Carried>,
) -> Result<Playout, Diag> {
    let game = game_with(prog, players, variant)?;
    let source = Source::Random { rng: Rng::new(seed), limit: limits.playout_events, made: vec![] };
    let mut machine = Machine::new(prog, game.players.clone(), game.params, source);
    machine.set_limits(limits);
    if let Some(carried) = carried.take() {
        machine.carry_in(carried);
    }
    let outcome = machine.run();
    *carried = Some(machine.carried());
    let outcome = outcome?;
    let events = match std::mem::replace(&mut machine.source, Source::Transcript { events: vec![], pos: 0 }) {
        Source::Random { made, .. } => made,
        _ => vec![],
    };
    Ok(Playout { players: game.players, events, outcome, state: machine.globals })
}

/// A playout as a transcript (YAML in JSON flow style, one event a line) that names its rules
/// as `rules` (a built-in name or a path that finds the file again) and records its parameters
/// under `variant`.
pub fn transcript_text_for(rules: &str, variant: &[(String, Yaml)], prog: &Program, p: &Playout) -> String {
    let mut out = transcript_head(rules, &p.players, variant, !p.events.is_empty());
    for e in &p.events {
        out.push_str("  - ");
        out.push_str(&event_text(prog, &p.players, e));
        out.push('\n');
    }
    out
}

/// The lines of a transcript before its events, in the layout `play` writes: `rules`,
/// `players`, `variant` when there is one, and `events:`, followed by one event a line, or
/// `events: []` when there are none (a bare `events:` would be null in YAML, not a list).
pub(crate) fn transcript_head(rules: &str, players: &[String], variant: &[(String, Yaml)], any_events: bool) -> String {
    let names: Vec<Json> = players.iter().map(|n| json!(n)).collect();
    let mut out = format!("rules: {}\nplayers: {}\n", json!(rules), Json::Array(names));
    if !variant.is_empty() {
        let given: serde_json::Map<String, Json> = variant.iter().map(|(k, v)| (k.clone(), v.to_json())).collect();
        out.push_str(&format!("variant: {}\n", Json::Object(given)));
    }
    out.push_str(if any_events { "events:\n" } else { "events: []\n" });
    out
}

/// A playout as a transcript on one line of JSON (for JSON Lines: `check --stream`).
pub fn transcript_json_for(rules: &str, variant: &[(String, Yaml)], prog: &Program, p: &Playout) -> Json {
    let mut t = envelope_json(rules, variant, p);
    let events: Vec<Json> = p.events.iter().map(|e| event_json(prog, &p.players, e)).collect();
    t.insert("events".into(), Json::Array(events));
    Json::Object(t)
}

/// A playout's `rules`, `players` and `variant` (when it has one), in that order.
fn envelope_json(rules: &str, variant: &[(String, Yaml)], p: &Playout) -> serde_json::Map<String, Json> {
    let mut t = serde_json::Map::new();
    t.insert("rules".into(), json!(rules));
    t.insert("players".into(), json!(p.players.as_ref()));
    if !variant.is_empty() {
        let given: serde_json::Map<String, Json> = variant.iter().map(|(k, v)| (k.clone(), v.to_json())).collect();
        t.insert("variant".into(), Json::Object(given));
    }
    t
}

/// The text of `transcript_json_for(..).to_string()`, each event written straight out
/// (`event_text`).
pub fn transcript_json_line_for(rules: &str, variant: &[(String, Yaml)], prog: &Program, p: &Playout) -> String {
    // The envelope as the tree writes it, less its closing brace, then the events.
    let envelope = Json::Object(envelope_json(rules, variant, p)).to_string();
    let mut out = String::with_capacity(envelope.len() + 48 * p.events.len() + 16);
    out.push_str(envelope.strip_suffix('}').unwrap_or(&envelope));
    out.push_str(",\"events\":[");
    for (i, e) in p.events.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&event_text(prog, &p.players, e));
    }
    out.push_str("]}");
    out
}

/// A random game that stopped before it finished because nothing was legal where the rules
/// waited: a bug of the rules, pointed at that `choose`, or at the end of a flow that ran out
/// without `finish` (where only the `always` records are open).
pub fn dead_end(prog: &Program, p: &Playout) -> Option<Diag> {
    if p.outcome.finished {
        return None;
    }
    let message = format!(
        "the game is stuck after {} event(s): no action is legal here and the game has not finished",
        p.events.len()
    );
    let d = Diag::new(crate::codes::DEAD_END, message);
    let d = match p.outcome.dead_end.clone()? {
        DeadEnd::Choose(at) => d
            .label(if at.is_empty() { at.clone() } else { at.start..(at.start + 6).min(at.end) }, "the rules wait here")
            .help(
                "a bug of the rules: open a branch that can be taken here (its actors, `when` and checks), make the \
                 point optional with `otherwise`, or `finish` the game before it",
            ),
        // The statement's first line: a last `for` or `if` may be long.
        DeadEnd::AfterFlow(at) => d
            .label(
                prog.source.first_line(&at),
                "the flow ends after this, without `finish`: only `always` records are open then",
            )
            .help(
                "a bug of the rules: `finish` the game at the end of its flow, or open an `always` record that can \
                     be taken after it",
            ),
    };
    Some(prog.source.place(d))
}

/// `FILE:LINE: the line` of the `finish` a game ended at.
fn ending_words(prog: &Program, offset: Option<usize>) -> String {
    match offset {
        Some(at) => {
            let (place, line) = (prog.source.location(at), prog.source.line_at(at));
            format!("{}: {}", place.unwrap_or_default(), line.unwrap_or_default())
        }
        None => CAPPED.to_string(),
    }
}

/// The ending of a game cut short by the event cap.
const CAPPED: &str = "not finished (the event cap)";

/// The ending of a game that stopped before the cap without a `finish`: nothing was legal.
const DEAD_END: &str = "not finished: a dead end (no legal action)";

/// What a designer compares between variants, over many random games.
#[derive(Default)]
pub struct Stats {
    /// Games played.
    pub games: usize,
    /// Events over all games.
    pub events: usize,
    /// The fewest events of a game (none before the first).
    pub shortest: Option<usize>,
    /// The most events of a game.
    pub longest: usize,
    /// Per seat, in seating order: its name, the sum of its scores (integer scores only), how
    /// many games it won.
    pub seats: Vec<(String, i64, usize)>,
    /// How often each action was taken, in the order of the rules' actions.
    pub actions: Vec<(String, usize)>,
    /// How often each game ended each way: at which `finish` (`FILE:LINE`), or not finished.
    pub endings: Vec<(String, usize)>,
    /// Where in the rules text each ending is (`None`: not finished) and its index in
    /// `endings`, so a game's ending is found without reading the text again.
    ending_offsets: Vec<(Option<usize>, usize)>,
}

impl Stats {
    /// Adds a game played with at most `cap` events: one that did not finish stopped at the cap,
    /// or, with fewer events, at a dead end (nothing legal and no `finish`).
    pub(crate) fn add_capped(&mut self, prog: &Program, p: &Playout, cap: usize) {
        if p.outcome.ended_at.is_none() && p.events.len() < cap {
            self.add_ending(DEAD_END);
            self.add_game(prog, p);
        } else {
            self.add(prog, p);
        }
    }

    /// Counts one game that ended `words`.
    fn add_ending(&mut self, words: &str) {
        match self.endings.iter_mut().find(|(e, _)| e == words) {
            Some(ending) => ending.1 += 1,
            None => self.endings.push((words.to_string(), 1)),
        }
    }

    pub(crate) fn add(&mut self, prog: &Program, p: &Playout) {
        self.add_game(prog, p);
        self.add_finish(prog, p);
    }

    /// Counts a game's length, actions, scores and wins.
    fn add_game(&mut self, prog: &Program, p: &Playout) {
        if self.seats.is_empty() {
            self.seats = p.players.iter().map(|n| (n.clone(), 0, 0)).collect();
            self.actions = prog.actions.iter().map(|a| (a.name.clone(), 0)).collect();
        }
        let length = p.events.len();
        self.games += 1;
        self.events += length;
        self.shortest = Some(self.shortest.map_or(length, |s| s.min(length)));
        self.longest = self.longest.max(length);
        for e in &p.events {
            if let Some(count) = self.actions.get_mut(e.action as usize) {
                count.1 += 1;
            }
        }
        for (i, seat) in self.seats.iter_mut().enumerate() {
            let me = Value::Player(i as u8);
            if let Some(Value::Int(score)) = p.outcome.scores.get(&me) {
                seat.1 += score;
            }
            if matches!(&p.outcome.winners, Value::List(w) if w.contains(&me)) {
                seat.2 += 1;
            }
        }
    }

    /// Counts the `finish` a game ended at (or the event cap).
    fn add_finish(&mut self, prog: &Program, p: &Playout) {
        let offset = p.outcome.ended_at.as_ref().map(|at| at.start);
        let known = self.ending_offsets.iter().find(|(o, _)| *o == offset).map(|(_, i)| *i);
        let i = known.unwrap_or_else(|| {
            // Two `finish` on one line are one ending.
            let words = ending_words(prog, offset);
            let i = self.endings.iter().position(|(e, _)| *e == words).unwrap_or_else(|| {
                self.endings.push((words, 0));
                self.endings.len() - 1
            });
            self.ending_offsets.push((offset, i));
            i
        });
        if let Some(ending) = self.endings.get_mut(i) {
            ending.1 += 1;
        }
    }

    fn mean(&self, total: f64) -> f64 {
        if self.games == 0 { 0.0 } else { total / self.games as f64 }
    }

    /// The figures as JSON; `seconds` is how long the games took to play.
    pub fn json(&self, seconds: f64) -> Json {
        let seats: serde_json::Map<String, Json> = self
            .seats
            .iter()
            .map(|(name, score, wins)| {
                let (score, wins) = (self.mean(*score as f64), self.mean(*wins as f64));
                (name.clone(), json!({"mean_score": score, "win_rate": wins}))
            })
            .collect();
        let actions: serde_json::Map<String, Json> = self.actions.iter().map(|(a, n)| (a.clone(), json!(n))).collect();
        let endings: serde_json::Map<String, Json> = self.endings.iter().map(|(e, n)| (e.clone(), json!(n))).collect();
        json!({
            "games": self.games,
            "events": self.events,
            "length": {"mean": self.mean(self.events as f64), "min": self.shortest.unwrap_or(0), "max": self.longest},
            "seats": seats,
            "actions": actions,
            "endings": endings,
            "events_per_second": if seconds > 0.0 { (self.events as f64 / seconds).round() } else { 0.0 },
        })
    }

    /// The figures as a table for a person (the rules file's lines where games ended shown
    /// with their controls escaped).
    pub fn human(&self, seconds: f64) -> String {
        crate::diag::printable(&self.table(seconds)).into_owned()
    }

    fn table(&self, seconds: f64) -> String {
        let rate = if seconds > 0.0 { self.events as f64 / seconds } else { 0.0 };
        let mut out = format!("{} games, {} events, {rate:.0} events per second\n", self.games, self.events);
        let mean = self.mean(self.events as f64);
        out.push_str(&format!(
            "game length: mean {mean:.1}, min {}, max {}\n",
            self.shortest.unwrap_or(0),
            self.longest
        ));
        out.push_str(&format!("{:<12} {:>10} {:>9}\n", "seat", "mean score", "win rate"));
        for (name, score, wins) in &self.seats {
            let (score, wins) = (self.mean(*score as f64), self.mean(*wins as f64) * 100.0);
            out.push_str(&format!("{name:<12} {score:>10.2} {wins:>8.1}%\n"));
        }
        out.push_str("actions taken:\n");
        for (action, n) in self.actions.iter().filter(|(_, n)| *n > 0) {
            out.push_str(&format!("  {action:<16} {n:>9}\n"));
        }
        out.push_str("endings:\n");
        for (ending, n) in &self.endings {
            out.push_str(&format!("  {ending:<32} {n:>9}\n"));
        }
        out
    }
}

pub fn event_json(prog: &Program, players: &[String], e: &Event) -> Json {
    let values = Limits::DEFAULT.verdict_json_values;
    crate::report::values::action_json(prog, players, &e.actor, e.action, &e.arg, values)
}

/// The text of `event_json(..).to_string()`, written without the tree.
pub fn event_text(prog: &Program, players: &[String], e: &Event) -> String {
    let values = Limits::DEFAULT.verdict_json_values;
    crate::report::values::action_json_text(prog, players, &e.actor, e.action, &e.arg, values)
}

/// What is legal for event `prefix.len()`, after running `prefix`, as a live game lists it
/// (from a point that may be left without an event, the points after it too); `None` when
/// the prefix does not get there legally.
pub fn legal_after(
    prog: &Program,
    players: Rc<[String]>,
    params: Vec<Value>,
    prefix: Vec<Event>,
) -> Option<Vec<crate::run::Candidate>> {
    probe(prog, players, params, prefix, false)
}

/// As `legal_after`, with the moves of the prefix that break a rule that `stands` played as
/// recorded (`check --all`).
pub fn legal_after_standing(
    prog: &Program,
    players: Rc<[String]>,
    params: Vec<Value>,
    prefix: Vec<Event>,
) -> Option<Vec<crate::run::Candidate>> {
    probe(prog, players, params, prefix, true)
}

fn probe(
    prog: &Program,
    players: Rc<[String]>,
    params: Vec<Value>,
    prefix: Vec<Event>,
    standing: bool,
) -> Option<Vec<crate::run::Candidate>> {
    let source = Source::Probe { events: prefix, pos: 0, legal: None, judged: vec![] };
    let mut machine = Machine::new(prog, players, params, source);
    if standing {
        machine.let_moves_stand();
    }
    machine.run().ok()?;
    // The listing is made only once every event of the prefix is taken, and an event that
    // breaks a rule stops the run (one that stands is not a violation): a listing found
    // means the prefix got there legally.
    match machine.source {
        Source::Probe { legal: Some(legal), .. } => Some(legal),
        _ => None,
    }
}

/// Default parameters for a game of these players.
pub fn default_game(prog: &Program, players: usize) -> Result<decode::Game, Diag> {
    game_with(prog, players, &[])
}

/// The players a playout names, and the parameters: `variant` over the defaults.
pub(crate) fn game_with(prog: &Program, players: usize, variant: &[(String, Yaml)]) -> Result<decode::Game, Diag> {
    let names: Vec<Yaml> = match &prog.seats {
        Some(seats) => seats.iter().map(|s| Yaml::Str(s.clone())).collect(),
        None => default_names(players),
    };
    game_named(prog, names, variant)
}

/// The players of a game by name and its parameters (`variant` over the defaults), checked
/// as a transcript's `players` and `variant` are.
pub(crate) fn game_named(prog: &Program, names: Vec<Yaml>, variant: &[(String, Yaml)]) -> Result<decode::Game, Diag> {
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
pub(crate) fn default_names(players: usize) -> Vec<Yaml> {
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
