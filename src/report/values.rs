//! Values of a game in transcript words: as JSON for the verdict line and the page, and as
//! short lines of text for a person (a violation's state, how a `history` variable came to be).

use serde_json::{Map, Value as Json, json};

use crate::program::Program;
use crate::program::value::Value;
use crate::run::show;

/// A legal action as a transcript event: `{"by": PLAYER, ACTION: ARG}`.
pub fn candidate_json(prog: &Program, players: &[String], k: &crate::run::Candidate) -> Json {
    action_json(prog, players, &k.actor, k.action, &k.arg)
}

/// An action as a transcript event: `{"by": ACTOR, ACTION: ARG}`.
pub fn action_json(prog: &Program, players: &[String], actor: &Value, action: u16, arg: &Value) -> Json {
    let mut m = Map::new();
    m.insert("by".into(), json!(crate::run::show(prog, players, actor)));
    m.insert(prog.actions[action as usize].name.clone(), value_json(prog, players, arg));
    Json::Object(m)
}

/// A value in transcript words: players by name, cards by code, maps as objects.
pub fn value_json(prog: &Program, players: &[String], v: &Value) -> Json {
    let mut budget = MAX_JSON_VALUES;
    json_within(prog, players, v, &mut budget)
}

/// Most values one score (or state) is written with: past it, the rest is `"…"`, since a
/// list shared a million times inside another is small in memory but not in JSON.
pub const MAX_JSON_VALUES: usize = 100_000;

fn json_within(prog: &Program, players: &[String], v: &Value, budget: &mut usize) -> Json {
    if *budget == 0 {
        return json!("…");
    }
    *budget -= 1;
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::List(items) => {
            let mut out = vec![];
            for (i, item) in items.iter().enumerate() {
                out.push(json_within(prog, players, item, budget));
                if *budget == 0 && i + 1 < items.len() {
                    out.push(json!("…"));
                    break;
                }
            }
            Json::Array(out)
        }
        Value::Map(entries) => {
            let mut out = Map::new();
            for (i, (k, v)) in entries.iter().enumerate() {
                out.insert(show(prog, players, k), json_within(prog, players, v, budget));
                if *budget == 0 && i + 1 < entries.len() {
                    out.insert("…".into(), json!("…"));
                    break;
                }
            }
            Json::Object(out)
        }
        other => json!(show(prog, players, other)),
    }
}

/// A violation's state in transcript words: each variable of the view by name.
pub fn state_json(prog: &Program, players: &[String], state: &[(u16, Value)]) -> Map<String, Json> {
    state.iter().map(|(v, value)| (prog.vars[*v as usize].name.clone(), value_json(prog, players, value))).collect()
}

/// A violation's state for a person: a line per player with that player's variables, then
/// one with the rest; each value cut at `MAX_SHOWN_VALUE` characters.
pub fn state_lines(prog: &Program, players: &[String], state: &[(u16, Value)]) -> Vec<String> {
    let shown = |value: &Value| {
        let text = show(prog, players, value);
        let short: String = text.chars().take(MAX_SHOWN_VALUE).collect();
        if short.len() < text.len() { format!("{short}…") } else { short }
    };
    let (per_player, table): (Vec<_>, Vec<_>) = state.iter().partition(|(v, _)| prog.vars[*v as usize].per_player);
    let mut lines = vec![];
    for (i, player) in players.iter().enumerate() {
        let seat = Value::Player(i as u8);
        let parts: Vec<String> = per_player
            .iter()
            .filter_map(|(v, value)| Some(format!("{} {}", prog.vars[*v as usize].name, shown(value.get(&seat)?))))
            .collect();
        if !parts.is_empty() {
            lines.push(format!("{player}: {}", parts.join(", ")));
        }
    }
    let rest: Vec<String> =
        table.iter().map(|(v, value)| format!("{} {}", prog.vars[*v as usize].name, shown(value))).collect();
    if !rest.is_empty() {
        lines.push(rest.join(", "));
    }
    lines
}

/// Most characters of one value in a state line (the JSON `state` has all of it).
const MAX_SHOWN_VALUE: usize = 120;

/// A `history` variable's values as JSON: each with the event (and its line) after which it was
/// seen; the first, from the start of the game, has none.
pub fn changes_json(
    prog: &Program,
    players: &[String],
    events: &[crate::run::Event],
    changes: &crate::run::Changes,
) -> Vec<Json> {
    changes
        .iter()
        .map(|(event, value)| {
            let mut entry = json!({ "value": value_json(prog, players, value) });
            if let Some(e) = event.and_then(|i| events.get(i)) {
                entry["event"] = json!(e.index);
                entry["line"] = json!(e.line);
            }
            entry
        })
        .collect()
}

/// A `history` variable's values for a person: where it started, then each event that changed
/// it with what changed (for a map, only the entries that did: `ben 3 → 5`).
pub fn change_lines(
    prog: &Program,
    players: &[String],
    events: &[crate::run::Event],
    changes: &crate::run::Changes,
) -> Vec<String> {
    let shown = |v: &Value| show(prog, players, v);
    let mut lines = vec![];
    let mut previous: Option<&Value> = None;
    for (event, value) in changes {
        let when = match event.and_then(|i| events.get(i)) {
            Some(e) => format!("after event {} (line {})", e.index, e.line),
            None => "at the start".to_string(),
        };
        let what = match (previous, value) {
            (Some(Value::Map(old)), Value::Map(new)) => {
                let changed = new.iter().filter_map(|(k, v)| {
                    let before = old.iter().find(|(ok, _)| ok == k).map(|(_, ov)| ov);
                    (before != Some(v))
                        .then(|| format!("{} {} → {}", shown(k), before.map_or("–".into(), shown), shown(v)))
                });
                changed.collect::<Vec<_>>().join(", ")
            }
            (Some(old), new) => format!("{} → {}", shown(old), shown(new)),
            (None, first) => shown(first),
        };
        lines.push(format!("{when}: {what}"));
        previous = Some(value);
    }
    lines
}
