//! Values in the words of a transcript: player names, card codes, variant names.

use crate::program::Program;
use crate::value::Value;

pub fn show(prog: &Program, players: &[String], v: &Value) -> String {
    match v {
        Value::Player(p) => players.get(*p as usize).cloned().unwrap_or_else(|| format!("player {p}")),
        Value::List(items) => {
            format!("[{}]", items.iter().map(|i| show(prog, players, i)).collect::<Vec<_>>().join(", "))
        }
        Value::Map(entries) => {
            let parts: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}: {}", show(prog, players, k), show(prog, players, v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => show_plain(prog, other),
    }
}

/// Shows a value that holds no player.
pub fn show_plain(prog: &Program, v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Str(s) => s.to_string(),
        Value::Player(p) => format!("player {p}"),
        Value::Table => "table".into(),
        Value::Card(c) => prog.cards.get(*c as usize).map_or("?".into(), |c| c.code.to_string()),
        Value::Enum(e, i) => {
            prog.enums.get(*e as usize).and_then(|e| e.variants.get(*i as usize)).cloned().unwrap_or_default()
        }
        Value::List(_) | Value::Map(_) => show(prog, &[], v),
    }
}
