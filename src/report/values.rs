//! Values of a game in transcript words: as JSON for the verdict line and the page, and as
//! short lines of text for a person (a violation's state, how a `history` variable came to be).

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value as Json, json};

use crate::program::Program;
use crate::program::value::Value;
use crate::run::{show, shown};

/// A legal action as a transcript event: `{"by": PLAYER, ACTION: ARG}`, written within
/// `budget`. A chance action (one the rules draw at random, such as a deal) names no sample:
/// `{"by": "table", "deal": null, "chance": true}`, any the rules allow.
pub fn candidate_json(prog: &Program, players: &[String], k: &crate::run::Candidate, budget: &mut JsonBudget) -> Json {
    if k.sampled {
        let mut event = action_within(prog, players, &k.actor, k.action, &Value::Null, budget);
        event["chance"] = json!(true);
        return event;
    }
    action_within(prog, players, &k.actor, k.action, &k.arg, budget)
}

/// An action as a transcript event: `{"by": ACTOR, ACTION: ARG}`, its argument with a budget
/// of `values` of its own (an event of a transcript, or of a game played, is as large as what
/// was read or made).
pub fn action_json(prog: &Program, players: &[String], actor: &Value, action: u16, arg: &Value, values: usize) -> Json {
    action_within(prog, players, actor, action, arg, &mut JsonBudget::new(values))
}

fn action_within(
    prog: &Program,
    players: &[String],
    actor: &Value,
    action: u16,
    arg: &Value,
    budget: &mut JsonBudget,
) -> Json {
    let mut m = Map::new();
    let by = budget.text(show(prog, players, actor));
    m.insert("by".into(), json!(by));
    m.insert(prog.actions[action as usize].name.clone(), json_within(prog, players, arg, budget));
    Json::Object(m)
}

/// The text of `action_json(..).to_string()`, written straight out: `play` writes an event for
/// every move of every game, and building each as a JSON tree first cost about 30% of playing
/// the game. Where the plain writing could differ from the tree's (something left out
/// for want of budget, keys that read alike, which the tree would merge), the tree is written.
pub fn action_json_text(
    prog: &Program,
    players: &[String],
    actor: &Value,
    action: u16,
    arg: &Value,
    values: usize,
) -> String {
    plain_action_text(prog, players, actor, action, arg, values)
        .unwrap_or_else(|| action_json(prog, players, actor, action, arg, values).to_string())
}

/// `action_json_text` where it is written straight out; `None` where the tree is written.
pub fn plain_action_text(
    prog: &Program,
    players: &[String],
    actor: &Value,
    action: u16,
    arg: &Value,
    values: usize,
) -> Option<String> {
    let name = &prog.actions[action as usize].name;
    if name == "by" {
        return None;
    }
    let mut out = Vec::with_capacity(64);
    PlainWriter { prog, players, budget: JsonBudget::new(values), out: &mut out }.action(actor, name, arg)?;
    String::from_utf8(out).ok()
}

/// Writes values as `json_within` builds them, as text; `None` where the tree would not be
/// written plainly (see `action_json_text`).
struct PlainWriter<'a> {
    prog: &'a Program,
    players: &'a [String],
    budget: JsonBudget,
    out: &'a mut Vec<u8>,
}

impl PlainWriter<'_> {
    fn action(&mut self, actor: &Value, name: &str, arg: &Value) -> Option<()> {
        self.out.extend_from_slice(b"{\"by\":");
        let by = shown(self.prog, self.players, actor);
        self.text(&by)?;
        self.out.push(b',');
        self.json(name);
        self.out.push(b':');
        self.value(arg)?;
        self.out.push(b'}');
        Some(())
    }

    fn value(&mut self, v: &Value) -> Option<()> {
        if !self.budget.one() {
            return None;
        }
        match v {
            Value::Null => self.out.extend_from_slice(b"null"),
            Value::Bool(b) => self.out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Value::Int(i) => self.json(i),
            Value::List(items) => {
                self.out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    self.comma(i);
                    self.value(item)?;
                }
                self.out.push(b']');
            }
            Value::Map(entries) => self.map(entries)?,
            other => {
                let text = shown(self.prog, self.players, other);
                self.text(&text)?;
            }
        }
        Some(())
    }

    fn map(&mut self, entries: &[(Value, Value)]) -> Option<()> {
        // The keys written so far, as read: the tree keeps one entry for keys that read alike.
        let mut keys: HashSet<Cow<str>, foldhash::fast::RandomState> =
            HashSet::with_capacity_and_hasher(entries.len(), Default::default());
        self.out.push(b'{');
        for (i, (k, v)) in entries.iter().enumerate() {
            self.comma(i);
            let key = shown(self.prog, self.players, k);
            self.text(&key)?;
            if !keys.insert(key) {
                return None;
            }
            self.out.push(b':');
            self.value(v)?;
        }
        self.out.push(b'}');
        Some(())
    }

    /// The comma before item `i`. (Where the tree cuts the items short, nothing is left for
    /// the item itself, which `value` finds.)
    fn comma(&mut self, i: usize) {
        if i > 0 {
            self.out.push(b',');
        }
    }

    /// A text charged as `JsonBudget::text` charges it; `None` where it would be cut.
    fn text(&mut self, s: &str) -> Option<()> {
        let cost = s.len() / TEXT_BYTES_PER_VALUE;
        if cost > self.budget.left {
            return None;
        }
        self.budget.left -= cost;
        self.json(s);
        Some(())
    }

    /// A string or number as serde_json writes it in a tree.
    fn json(&mut self, v: &(impl serde::Serialize + ?Sized)) {
        // Writing to memory cannot fail.
        let _ = serde_json::to_writer(&mut *self.out, v);
    }
}

/// An event whole in transcript words, as a judge reads it: the actor, the action and its
/// argument (`aki present {actor: QC, kuroko: QC}`), however many lines the transcript wrote it
/// over; the same words `legal` uses for what was legal instead.
pub fn event_words(prog: &Program, players: &[String], actor: &Value, action: u16, arg: &Value) -> String {
    let who = show(prog, players, actor);
    let name = prog.actions.get(action as usize).map_or("?", |a| a.name.as_str());
    match arg {
        Value::Null => format!("{who} {name}"),
        arg => format!("{who} {name} {}", show(prog, players, arg)),
    }
}

/// A value in transcript words: players by name, cards by code, maps as objects; at most the
/// default `Limits::verdict_json_values` values of it are written.
pub fn value_json(prog: &Program, players: &[String], v: &Value) -> Json {
    json_within(prog, players, v, &mut JsonBudget::new(crate::limits::Limits::DEFAULT.verdict_json_values))
}

/// A value in transcript words, written within `budget` (shared with whatever else the same
/// output writes).
pub fn value_json_within(prog: &Program, players: &[String], v: &Value, budget: &mut JsonBudget) -> Json {
    json_within(prog, players, v, budget)
}

/// Bytes of text that count as one value against a `JsonBudget` (the measure `Value::weight`
/// uses too): a text shared a thousand times is charged for its length each time it is
/// written, so a budget of values bounds the bytes written as well.
pub const TEXT_BYTES_PER_VALUE: usize = 16;

/// What one output may still write, in values: each value written costs one, a text (a
/// string, a name, a map's key) one more for each `TEXT_BYTES_PER_VALUE` bytes. Every value is
/// charged each time it is written, however often it is shared in memory: a list shared a
/// million times inside another is small in memory but not in JSON, and a thousand legal
/// events may each hold the whole state, so a budget per value would let one verdict line grow
/// to gigabytes. One verdict line has one budget (`Limits::verdict_json_values`) for its
/// scores and each violation's state, history and legal events; past it the rest is `"…"` and
/// the line says `"truncated": true`.
#[derive(Debug, Clone)]
pub struct JsonBudget {
    left: usize,
    cut: bool,
}

impl JsonBudget {
    /// A budget of `values` values.
    pub fn new(values: usize) -> JsonBudget {
        JsonBudget { left: values, cut: false }
    }

    /// The values still to be written.
    pub fn left(&self) -> usize {
        self.left
    }

    /// Whether something was left out for want of budget (a `…` was written in its place).
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// Takes `n` values of what is left for another output (a replay step's share); what that
    /// output leaves unspent comes back with `give_back`.
    pub fn split_off(&mut self, n: usize) -> JsonBudget {
        let n = n.min(self.left);
        self.left -= n;
        JsonBudget { left: n, cut: false }
    }

    /// Returns what a budget taken with `split_off` did not spend, and whether it was cut.
    pub fn give_back(&mut self, part: JsonBudget) {
        self.left += part.left;
        self.cut |= part.cut;
    }

    /// Charges one value; false (and marks the cut) when nothing is left.
    fn one(&mut self) -> bool {
        if self.left == 0 {
            self.cut = true;
            return false;
        }
        self.left -= 1;
        true
    }

    /// Runs `write` with an even share of what is left, as one of `parts` parts still to be
    /// written (the last of them gets all of it); what `write` leaves unspent comes back, to go
    /// on to the parts after it. One huge part then cannot crowd out the small ones after it.
    pub fn share<T>(&mut self, parts: usize, write: impl FnOnce(&mut JsonBudget) -> T) -> T {
        let mut part = self.split_off(self.left / parts.max(1));
        let out = write(&mut part);
        self.give_back(part);
        out
    }

    /// Marks that something was left out.
    pub fn mark_cut(&mut self) {
        self.cut = true;
    }

    /// Charges a text by its length (its one value already paid): one that does not fit is
    /// cut to what is left, with `…`, and the budget is spent.
    fn text(&mut self, s: String) -> String {
        let cost = s.len() / TEXT_BYTES_PER_VALUE;
        if cost <= self.left {
            self.left -= cost;
            return s;
        }
        let room = self.left * TEXT_BYTES_PER_VALUE;
        self.left = 0;
        self.cut = true;
        let end = (0..=room.min(s.len())).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0);
        format!("{}…", &s[..end])
    }
}

fn json_within(prog: &Program, players: &[String], v: &Value, budget: &mut JsonBudget) -> Json {
    if !budget.one() {
        return json!("…");
    }
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::List(items) => {
            let mut out = vec![];
            for (i, item) in items.iter().enumerate() {
                if budget.left == 0 && i > 0 {
                    budget.cut = true;
                    out.push(json!("…"));
                    break;
                }
                out.push(json_within(prog, players, item, budget));
            }
            Json::Array(out)
        }
        Value::Map(entries) => {
            let mut out = Map::new();
            for (i, (k, v)) in entries.iter().enumerate() {
                if budget.left == 0 && i > 0 {
                    budget.cut = true;
                    out.insert("…".into(), json!("…"));
                    break;
                }
                let key = budget.text(show(prog, players, k));
                out.insert(key, json_within(prog, players, v, budget));
            }
            Json::Object(out)
        }
        other => json!(budget.text(show(prog, players, other))),
    }
}

/// A violation's state in transcript words: each variable of the view by name, written
/// within `budget`. Each variable in turn gets an even share of what is left (what it leaves
/// goes on to the next), so one huge variable cannot crowd out the small ones after it.
pub fn state_json(
    prog: &Program,
    players: &[String],
    state: &[(u16, Value)],
    budget: &mut JsonBudget,
) -> Map<String, Json> {
    let mut out = Map::new();
    for (n, (v, value)) in state.iter().enumerate() {
        let json = budget.share(state.len() - n, |share| json_within(prog, players, value, share));
        out.insert(prog.vars[*v as usize].name.clone(), json);
    }
    out
}

/// A violation's state for a person: a line per player with that player's variables, then
/// one with the rest; each value whole (up to `run::show`'s bound on one value). A line is
/// wrapped for a terminal with `wrap_between_items`.
pub fn state_lines(prog: &Program, players: &[String], state: &[(u16, Value)]) -> Vec<String> {
    let shown = |value: &Value| show(prog, players, value);
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

/// The width of text a person's output wraps at when the terminal's is not known.
pub const DEFAULT_WIDTH: usize = 100;

/// Narrowest and widest width text is wrapped at, whatever a terminal says.
pub const WIDTHS: std::ops::RangeInclusive<usize> = 40..=1_000;

/// A line of values (`hand [4D, 8H], boos 3`) broken into lines of at most `width` columns
/// between items, never inside one: only after a `, ` that separates two items, the outermost
/// first (two variables, then the items of a list or map, then the fields of an item too wide
/// for a line of its own). The first line starts with `first`, the others with `next`; an item
/// wider than the line even so has a line of its own.
pub fn wrap_between_items(line: &str, width: usize, first: &str, next: &str) -> Vec<String> {
    let room = width.saturating_sub(next.chars().count());
    let mut pieces = vec![];
    split_items(line, 0, room, &mut pieces);
    let columns = |s: &str| s.chars().count();
    let mut out = vec![];
    let mut current = first.to_string();
    for (i, piece) in pieces.iter().enumerate() {
        if i == 0 {
            current.push_str(piece);
        } else if columns(&current) + 2 + columns(piece) < width {
            // `, ` and the item, with room for the comma that may follow it.
            current.push_str(", ");
            current.push_str(piece);
        } else {
            current.push(',');
            out.push(std::mem::replace(&mut current, format!("{next}{piece}")));
        }
    }
    out.push(current);
    out
}

/// `text` cut at each `, ` at bracket depth `depth`; a piece wider than `room` is cut again
/// one level deeper (when it has anything to cut there).
fn split_items<'t>(text: &'t str, depth: usize, room: usize, out: &mut Vec<&'t str>) {
    let (mut level, mut start) = (0usize, 0);
    let mut pieces = vec![];
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'[' | b'{' | b'(' => level += 1,
            b']' | b'}' | b')' => level = level.saturating_sub(1),
            b',' if level == depth && bytes.get(i + 1) == Some(&b' ') => {
                pieces.push(&text[start..i]);
                start = i + 2;
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    let deeper = |p: &str| p.bytes().any(|b| matches!(b, b'[' | b'{' | b'('));
    for piece in pieces {
        if piece.chars().count() > room && deeper(piece) && depth < MAX_WRAP_DEPTH {
            split_items(piece, depth + 1, room, out);
        } else {
            out.push(piece);
        }
    }
}

/// How deep inside brackets a line of values is broken, at most.
const MAX_WRAP_DEPTH: usize = 16;

/// A `history` variable's values as JSON: each with the event (and its line) after which it was
/// seen; the first, from the start of the game, has none. Written within `budget`: past it, a
/// last entry `{"value": "…"}` stands for the rest.
pub fn changes_json(
    prog: &Program,
    players: &[String],
    events: &[crate::run::Event],
    changes: &crate::run::Changes,
    budget: &mut JsonBudget,
) -> Vec<Json> {
    let mut out = vec![];
    for (event, value) in changes {
        if budget.left == 0 {
            budget.cut = true;
            out.push(json!({ "value": "…" }));
            break;
        }
        let mut entry = json!({ "value": json_within(prog, players, value, budget) });
        if let Some(e) = event.and_then(|i| events.get(i)) {
            entry["event"] = json!(e.index);
            entry["line"] = json!(e.line);
        }
        out.push(entry);
    }
    out
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
        lines.push(cut_to(format!("{when}: {what}"), MAX_CHANGE_LINE));
        previous = Some(value);
    }
    keep_ends(lines, MAX_CHANGE_LINES)
}

/// Most characters of one line of a `history` variable's changes (a map's line names every
/// entry that changed).
const MAX_CHANGE_LINE: usize = 2_000;

/// Most lines shown of one `history` variable's changes: the first (where it started), a line
/// saying how many were left out, and the latest. Under `check --all` every violation shows
/// the changes up to it, so without a cap the lines would grow with the square of the events.
const MAX_CHANGE_LINES: usize = 20;

/// The first line and the last `max - 2`, with a line for those left out between, when there
/// are more than `max`.
fn keep_ends(mut lines: Vec<String>, max: usize) -> Vec<String> {
    if lines.len() <= max {
        return lines;
    }
    let latest = lines.split_off(lines.len() - (max - 2));
    let left_out = lines.len() - 1;
    lines.truncate(1);
    lines.push(format!("… {left_out} changes left out"));
    lines.extend(latest);
    lines
}

/// `text` cut to `max` characters, with `…` when it was longer.
pub fn cut_to(text: String, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}
