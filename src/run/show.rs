//! Values in the words of a transcript: player names, card codes, variant names.

use crate::program::Program;
use crate::program::value::Value;

/// Longest text a value is shown as: a list shared a million times inside another is
/// tiny in memory but endless in words, so showing stops here with `…`.
pub const MAX_SHOWN: usize = 10_000;

pub fn show(prog: &Program, players: &[String], v: &Value) -> String {
    let mut out = String::new();
    write(prog, players, v, &mut out);
    out
}

/// Appends `v` to `out`, stopping once `out` is longer than `MAX_SHOWN`.
fn write(prog: &Program, players: &[String], v: &Value, out: &mut String) {
    if out.len() > MAX_SHOWN {
        return;
    }
    match v {
        Value::Player(p) => match players.get(*p as usize) {
            Some(name) => out.push_str(name),
            None => out.push_str(&format!("player {p}")),
        },
        Value::List(items) => write_all(out, ('[', ']'), items.iter(), |item, out| write(prog, players, item, out)),
        Value::Map(entries) => write_all(out, ('{', '}'), entries.iter(), |(k, v), out| {
            write(prog, players, k, out);
            out.push_str(": ");
            write(prog, players, v, out);
        }),
        other => out.push_str(&show_plain(prog, other)),
    }
}

/// Writes items between brackets, separated by commas, stopping with `…` past `MAX_SHOWN`.
fn write_all<T>(
    out: &mut String,
    brackets: (char, char),
    items: impl Iterator<Item = T>,
    each: impl Fn(T, &mut String),
) {
    out.push(brackets.0);
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        each(item, out);
        if out.len() > MAX_SHOWN {
            out.push('…');
            return;
        }
    }
    out.push(brackets.1);
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
