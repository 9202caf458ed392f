//! Values in the words of a transcript: player names, card codes, variant names.

use std::borrow::Cow;

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
        Value::List(items) => write_all(out, ('[', ']'), items.iter(), |item, out| write(prog, players, item, out)),
        Value::Map(entries) => write_all(out, ('{', '}'), entries.iter(), |(k, v), out| {
            write(prog, players, k, out);
            out.push_str(": ");
            write(prog, players, v, out);
        }),
        scalar => out.push_str(&shown(prog, players, scalar)),
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
    shown(prog, &[], v).into_owned()
}

/// A value in transcript words, borrowed where it is a name, a code or a text: what `show`
/// writes, without a copy for the scalars that output writes most.
pub fn shown<'a>(prog: &'a Program, players: &'a [String], v: &'a Value) -> Cow<'a, str> {
    match v {
        Value::Null => Cow::Borrowed("null"),
        Value::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Value::Int(i) => Cow::Owned(i.to_string()),
        Value::Str(s) => Cow::Borrowed(s.as_str()),
        Value::Player(p) => match players.get(*p as usize) {
            Some(name) => Cow::Borrowed(name.as_str()),
            None => Cow::Owned(format!("player {p}")),
        },
        Value::Table => Cow::Borrowed("table"),
        Value::Card(c) => Cow::Borrowed(prog.cards.get(*c as usize).map_or("?", |c| c.code.as_str())),
        Value::Enum(e, i) => Cow::Borrowed(
            prog.enums.get(*e as usize).and_then(|e| e.variants.get(*i as usize)).map_or("", String::as_str),
        ),
        Value::List(_) | Value::Map(_) => Cow::Owned(show(prog, players, v)),
    }
}
