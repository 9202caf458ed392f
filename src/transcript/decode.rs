//! A read transcript to a game: players, parameters and events, each argument checked
//! against its action's shape. Anything that does not fit makes the transcript malformed.

pub mod typed;

use std::rc::Rc;

use crate::program::value::{Text, Value};
use crate::program::{ParamDefault, Program, Shape, X};
use crate::run::{Event, eval_with_params};
use crate::span::Span;
use crate::transcript::{Located, Problem, RawEvent, RawTranscript, Yaml};

/// Why a transcript cannot be read as a game.
#[derive(Debug, Clone)]
pub struct Malformed {
    /// What kind of problem it is (the JSON `kind`).
    pub problem: Problem,
    /// What is wrong, in words for the person holding the file.
    pub message: String,
    /// The 1-based line it is on, when it has one.
    pub line: Option<usize>,
    /// The 0-based index of the event it is in, when it is in one.
    pub event: Option<usize>,
    /// Where it is in the transcript (bytes).
    pub span: Option<Span>,
}

impl Malformed {
    /// A reason with no place in the transcript.
    pub fn new(problem: Problem, message: impl Into<String>) -> Self {
        Malformed { problem, message: message.into(), line: None, event: None, span: None }
    }

    /// An error about a value of the transcript's envelope (`players`, `variant`), at its line.
    pub fn at(problem: Problem, message: impl Into<String>, place: Option<&Located>) -> Self {
        let mut m = Malformed::new(problem, message);
        if let Some(p) = place.filter(|p| p.line > 0) {
            m.line = Some(p.line);
            m.span = Some(p.span.clone());
        }
        m
    }
}

pub struct Game {
    pub players: Rc<[String]>,
    pub params: Vec<Value>,
    pub events: Vec<Event>,
}

/// At most this many reading errors are reported for one transcript.
const MAX_ERRORS: usize = 20;

/// The players and parameters of a transcript, before its events.
#[derive(Clone)]
pub struct Envelope {
    pub players: Rc<[String]>,
    pub params: Vec<Value>,
    /// Which parameters the transcript's `variant` gives (the others are defaults).
    pub given: Vec<bool>,
}

pub fn decode(prog: &Program, raw: &RawTranscript) -> Result<Game, Vec<Malformed>> {
    events(prog, raw, envelope(prog, raw)?)
}

pub fn envelope(prog: &Program, raw: &RawTranscript) -> Result<Envelope, Vec<Malformed>> {
    let players = players(prog, raw.players.as_ref())
        .map_err(|m| vec![Malformed::at(Problem::BadPlayers, m, raw.players.as_ref())])?;
    let (params, given) = params(prog, &players, raw.variant.as_ref())
        .map_err(|m| vec![Malformed::at(Problem::BadVariant, m, raw.variant.as_ref())])?;
    Ok(Envelope { players, params, given })
}

/// The events, read against the program's actions (whose cards may come from a pool that
/// the envelope's parameters chose).
pub fn events(prog: &Program, raw: &RawTranscript, envelope: Envelope) -> Result<Game, Vec<Malformed>> {
    let Envelope { players, params, .. } = envelope;
    let raw_events = match &raw.events {
        None => return Err(vec![Malformed::new(Problem::NotATranscript, "the transcript has no `events`")]),
        Some(Err((kind, at))) => {
            let message = format!("`events` must be a list, not {kind}");
            return Err(vec![Malformed::at(Problem::NotATranscript, message, Some(at))]);
        }
        Some(Ok(list)) => list,
    };
    let decoder = Decoder { prog, players: &players, params: &params };
    let mut events = Vec::with_capacity(raw_events.len());
    let mut errors = vec![];
    for (index, e) in raw_events.iter().enumerate() {
        match decoder.event(index, e) {
            Ok(ev) => events.push(ev),
            Err((problem, message)) if errors.len() < MAX_ERRORS => errors.push(Malformed {
                problem,
                message,
                line: Some(e.line),
                event: Some(index),
                span: Some(e.span.clone()),
            }),
            Err(_) => {}
        }
    }
    if errors.is_empty() { Ok(Game { players, params, events }) } else { Err(errors) }
}

/// One event of a game played move by move, read as a transcript's event `index` is.
pub fn one_event(
    prog: &Program,
    players: &Rc<[String]>,
    params: &[Value],
    index: usize,
    raw: &crate::transcript::RawEvent,
) -> Result<Event, Malformed> {
    let decoder = Decoder { prog, players, params };
    decoder.event(index, raw).map_err(|(problem, message)| Malformed {
        problem,
        message,
        line: Some(raw.line),
        event: Some(index),
        span: Some(raw.span.clone()),
    })
}

fn players(prog: &Program, y: Option<&Located>) -> Result<Rc<[String]>, String> {
    let Some(Yaml::Seq(items)) = y.map(|l| &l.value) else {
        return Err("`players` must be a list of names".into());
    };
    if let Some(seats) = &prog.seats {
        return exact_players(prog, seats, items);
    }
    let (lo, hi) = prog.players;
    if !(lo as usize..=hi as usize).contains(&items.len()) {
        return Err(format!("`{}` is for {}, not {}", prog.name, prog.player_count_words(), items.len()));
    }
    let mut names: Vec<String> = Vec::with_capacity(items.len());
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    for item in items {
        let Yaml::Str(name) = item else {
            return Err(format!("a player name must be a string, not {}", item.kind()));
        };
        if !valid_name(name) || name == "table" {
            return Err(format!("`{}` is not a valid player name", crate::transcript::cut(name)));
        }
        if name.len() > MAX_PLAYER_NAME {
            return Err(format!(
                "`{}` is longer than a player's name may be ({MAX_PLAYER_NAME} characters)",
                crate::transcript::cut(name)
            ));
        }
        if !seen.insert(name.as_str()) {
            return Err(format!("player `{name}` is listed twice"));
        }
        names.push(name.clone());
    }
    Ok(names.into())
}

/// A game whose players are its own seats: the transcript lists exactly those names.
fn exact_players(prog: &Program, seats: &[String], items: &[Yaml]) -> Result<Rc<[String]>, String> {
    let same = items.len() == seats.len() && items.iter().zip(seats).all(|(y, s)| matches!(y, Yaml::Str(n) if n == s));
    if same {
        return Ok(seats.iter().cloned().collect());
    }
    Err(format!("`{}` is played by exactly [{}], in that order", prog.name, seats.join(", ")))
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Longest player name. A name is shown in every message, state line and legal move that
/// names its player, so a long one would multiply what a small file makes shinpan write.
pub const MAX_PLAYER_NAME: usize = 64;

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Each parameter: the transcript's override or the default, then all checked against
/// their shapes with every effective value known.
type Params = (Vec<Value>, Vec<bool>);

fn params(prog: &Program, players: &Rc<[String]>, variant: Option<&Located>) -> Result<Params, String> {
    let overrides: &[(Yaml, Yaml)] = match variant.map(|l| &l.value) {
        None | Some(Yaml::Null) => &[],
        Some(Yaml::Map(m)) => m,
        Some(other) => return Err(format!("`variant` must be a mapping, not {}", other.kind())),
    };
    for (k, _) in overrides {
        let known = matches!(k, Yaml::Str(s) if prog.params.iter().any(|p| &p.name == s));
        if !known {
            let names: Vec<&str> = prog.params.iter().map(|p| p.name.as_str()).collect();
            return Err(format!("`variant` names an unknown parameter {}{}", yaml_words(k), did_you_mean(k, &names)));
        }
    }
    let mut values: Vec<Value> = vec![];
    let mut given_ones = vec![];
    for p in &prog.params {
        let given = overrides.iter().find(|(k, _)| matches!(k, Yaml::Str(s) if *s == p.name)).map(|(_, v)| v);
        given_ones.push(given.is_some());
        let value = match given {
            Some(y) => Decoder { prog, players, params: &values }
                .value(&p.shape, y, false)
                .map_err(|m| format!("variant `{}`: {m}", p.name))?,
            None => default(prog, players, &values, &p.default).map_err(|m| m.message)?,
        };
        values.push(value);
    }
    let decoder = Decoder { prog, players, params: &values };
    for (p, v) in prog.params.iter().zip(&values) {
        decoder.within(&p.shape, v).map_err(|m| format!("variant `{}`: {m}", p.name))?;
    }
    Ok((values, given_ones))
}

/// ` (did you mean `x`?)` when a name is close to one of `known` (the rules files' matcher).
fn did_you_mean(y: &Yaml, known: &[&str]) -> String {
    let Yaml::Str(s) = y else { return String::new() };
    crate::diag::did_you_mean(s, known.iter().copied()).map_or(String::new(), |k| format!(" (did you mean `{k}`?)"))
}

fn default(prog: &Program, players: &Rc<[String]>, so_far: &[Value], d: &ParamDefault) -> Result<Value, Malformed> {
    let x = match d {
        ParamDefault::Expr(x) => x,
        ParamDefault::ByPlayers(entries) => match entries.iter().find(|(n, _)| *n as usize == players.len()) {
            Some((_, x)) => x,
            None => {
                return Err(Malformed::new(Problem::BadVariant, format!("no default for {} players", players.len())));
            }
        },
    };
    eval_with_params(prog, players.clone(), so_far, x).map_err(|d| {
        Malformed::new(Problem::RulesFailed, format!("the rules could not compute a default: {}", d.message))
    })
}

/// Decodes one value of a data file (a card's attribute) against its shape.
pub fn data_value(
    prog: &Program,
    players: &Rc<[String]>,
    params: &[Value],
    shape: &Shape,
    y: &Yaml,
) -> Result<Value, String> {
    Decoder { prog, players, params }.value(shape, y, false)
}

struct Decoder<'a> {
    prog: &'a Program,
    players: &'a Rc<[String]>,
    params: &'a [Value],
}

impl Decoder<'_> {
    fn event(&self, index: usize, e: &RawEvent) -> Result<Event, (Problem, String)> {
        let bad = |m: String| (Problem::BadEvent, m);
        let Yaml::Map(entries) = &e.value else {
            return Err(bad(format!("an event must be a mapping, not {}", e.value.kind())));
        };
        let by = e.value.get("by").ok_or_else(|| bad("the event has no `by`".into()))?;
        let actor = match by {
            Yaml::Str(s) if s == "table" => Value::Table,
            Yaml::Str(s) => self.player(s).ok_or_else(|| {
                let names: Vec<&str> = self.players.iter().map(String::as_str).collect();
                let message = format!(
                    "`by: {}` is neither a player nor `table`{}",
                    crate::transcript::cut(s),
                    did_you_mean(by, &names)
                );
                (Problem::UnknownPlayer, message)
            })?,
            other => return Err(bad(format!("`by` must be a name, not {}", other.kind()))),
        };
        let actions: Vec<&(Yaml, Yaml)> =
            entries.iter().filter(|(k, _)| !matches!(k, Yaml::Str(s) if s == "by" || s == "note")).collect();
        let [(key, arg)] = actions.as_slice() else {
            let count = actions.len();
            return Err(bad(format!(
                "an event needs exactly one action besides `by` and `note`, this one has {count}"
            )));
        };
        let Yaml::Str(name) = key else {
            return Err(bad(format!("an action name must be a string, not {}", key.kind())));
        };
        let action = *self.prog.action_index.get(name).ok_or_else(|| {
            let known: Vec<&str> = self.prog.actions.iter().map(|a| a.name.as_str()).collect();
            let message =
                format!("unknown action {} for `{}`{}", yaml_words(key), self.prog.name, did_you_mean(key, &known));
            (Problem::UnknownAction, message)
        })?;
        let shape = &self.prog.actions[action as usize].shape;
        let arg = self.value(shape, arg, false).map_err(|m| (Problem::BadArgument, format!("`{name}`: {m}")))?;
        Ok(Event { actor, action, arg, index, line: e.line, span: e.span.clone() })
    }

    fn player(&self, name: &str) -> Option<Value> {
        self.players.iter().position(|p| p == name).map(|i| Value::Player(i as u8))
    }

    /// Decodes a YAML value of the given shape. Map keys (`key`) may be integers written as strings.
    fn value(&self, shape: &Shape, y: &Yaml, key: bool) -> Result<Value, String> {
        let found = || format!("expected {}, found {}", self.describe(shape), yaml_words(y));
        let v = match (shape, y) {
            (Shape::List(_, item, _), Yaml::Seq(items)) => {
                Value::list(items.iter().map(|i| self.value(item, i, false)).collect::<Result<_, _>>()?)
            }
            (Shape::Map(k, v, total), Yaml::Map(entries)) => self.map(k, v, *total, entries)?,
            (Shape::Record(fields), Yaml::Map(entries)) => self.record(fields, entries)?,
            (Shape::Union(alts), _) => return self.union(alts, y, key),
            (Shape::NonEmpty(inner), _) => {
                let v = self.value(inner, y, key)?;
                return if is_empty(&v) {
                    Err(format!("expected {}, found an empty one", self.describe(shape)))
                } else {
                    Ok(v)
                };
            }
            _ => self.scalar(shape, Scalar::of(y).ok_or_else(found)?, key)?,
        };
        self.within(shape, &v)?;
        Ok(v)
    }

    /// Decodes a scalar of the given shape (before the bounds `within` puts on it): the one
    /// place both readers, the tree's and the typed one, turn a scalar into a value.
    fn scalar(&self, shape: &Shape, s: Scalar<'_>, key: bool) -> Result<Value, String> {
        let found = || format!("expected {}, found {}", self.describe(shape), s.words());
        Ok(match (shape, s) {
            (Shape::Int(..), Scalar::Int(i)) => Value::Int(i),
            (Shape::Int(..), Scalar::Str(s)) if key => Value::Int(s.parse().map_err(|_| found())?),
            (Shape::Bool, Scalar::Bool(b)) => Value::Bool(b),
            (Shape::Str, Scalar::Str(s)) => Value::str(s),
            // A transcript may name only YAML data files, never any file the checker can read.
            (Shape::File, Scalar::Str(s)) if s.ends_with(".yaml") || s.ends_with(".yml") => Value::str(s),
            (Shape::Null, Scalar::Null) => Value::Null,
            (Shape::Literal(l), Scalar::Str(s)) if **l == *s => Value::Str(l.clone()),
            (Shape::Player, Scalar::Str(s)) => {
                self.player(s).ok_or_else(|| format!("unknown player `{}`", crate::transcript::cut(s)))?
            }
            (Shape::Card(k), Scalar::Str(s)) => {
                self.prog.kinds[*k as usize].by_code.get(s).map(|c| Value::Card(*c)).ok_or_else(found)?
            }
            (Shape::Enum(e), Scalar::Str(s)) => {
                let variants = &self.prog.enums[*e as usize].variants;
                variants.iter().position(|v| v == s).map(|i| Value::Enum(*e, i as u16)).ok_or_else(found)?
            }
            _ => return Err(found()),
        })
    }

    /// The first alternative the value fits. Otherwise the error names what was meant: the one
    /// alternative of the value's form (a string, a list, ...) with its own reason, or every
    /// alternative of that form (or of any form), so that none is left out of the message.
    fn union(&self, alts: &[Shape], y: &Yaml, key: bool) -> Result<Value, String> {
        let mut meant: Vec<(&Shape, String)> = vec![];
        for a in alts {
            match self.value(a, y, key) {
                Ok(v) => return Ok(v),
                Err(e) if same_form(a, y) => meant.push((a, e)),
                Err(_) => {}
            }
        }
        if meant.len() == 1 {
            return Err(meant.remove(0).1);
        }
        let listed: Vec<String> = if meant.is_empty() {
            alts.iter().map(|a| self.describe(a)).collect()
        } else {
            meant.iter().map(|(a, _)| self.describe(a)).collect()
        };
        Err(format!("expected {}, found {}", or_list(&listed), yaml_words(y)))
    }

    fn map(&self, k: &Shape, v: &Shape, total: bool, entries: &[(Yaml, Yaml)]) -> Result<Value, String> {
        let mut out: Vec<(Value, Value)> = vec![];
        let mut seen = std::collections::HashSet::with_capacity(entries.len());
        for (ky, vy) in entries {
            let key = self.value(k, ky, true)?;
            if !seen.insert(key.clone()) {
                return Err(format!("the key {} is given twice", yaml_words(ky)));
            }
            out.push((key, self.value(v, vy, false)?));
        }
        if total && let Some(missing) = self.key_domain(k)?.into_iter().find(|key| !seen.contains(key)) {
            return Err(format!("the key {} is missing", crate::run::show(self.prog, self.players, &missing)));
        }
        Ok(Value::map(out))
    }

    /// Every key a total map must have.
    fn key_domain(&self, k: &Shape) -> Result<Vec<Value>, String> {
        Ok(match k {
            Shape::Player => (0..self.players.len()).map(|i| Value::Player(i as u8)).collect(),
            Shape::Enum(e) => {
                (0..self.prog.enums[*e as usize].variants.len()).map(|v| Value::Enum(*e, v as u16)).collect()
            }
            Shape::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Shape::Int(lo, hi) => match (self.bound(lo.as_ref())?, self.bound(hi.as_ref())?) {
                (Some(lo), Some(hi)) if hi - lo < 10_000 => (lo..=hi).map(Value::Int).collect(),
                _ => return Err("a total map needs keys from a finite range".into()),
            },
            _ => return Err("a total map needs keys of a finite shape".into()),
        })
    }

    fn record(&self, fields: &[(Text, bool, Shape)], entries: &[(Yaml, Yaml)]) -> Result<Value, String> {
        for (k, _) in entries {
            let known = matches!(k, Yaml::Str(s) if fields.iter().any(|(f, ..)| **f == **s));
            if !known {
                return Err(format!("unexpected key {}", yaml_words(k)));
            }
        }
        let mut out = vec![];
        for (name, optional, shape) in fields {
            match entries.iter().find(|(k, _)| matches!(k, Yaml::Str(s) if **s == **name)) {
                Some((_, vy)) => out.push((
                    Value::Str(name.clone()),
                    self.value(shape, vy, false).map_err(|m| format!("`{name}`: {m}"))?,
                )),
                None if *optional => {}
                None => return Err(format!("missing key `{name}`")),
            }
        }
        Ok(Value::map(out))
    }

    /// Checks the bounds a shape puts on an already decoded value.
    fn within(&self, shape: &Shape, v: &Value) -> Result<(), String> {
        match (shape, v) {
            (Shape::Int(lo, hi), Value::Int(i)) => {
                let lo = self.bound(lo.as_ref())?;
                let hi = self.bound(hi.as_ref())?;
                match (lo, hi) {
                    (Some(lo), Some(hi)) if *i < lo || *i > hi => return Err(format!("{i} is outside {lo}..{hi}")),
                    (Some(lo), None) if *i < lo => return Err(format!("{i} is less than {lo}")),
                    (None, Some(hi)) if *i > hi => return Err(format!("{i} is more than {hi}")),
                    _ => {}
                }
            }
            (Shape::List(len, item, distinct), Value::List(items)) => {
                if let Some(want) = self.bound(len.as_ref())?
                    && items.len() as i64 != want
                {
                    return Err(format!("expected a list of {want}, found {}", items.len()));
                }
                let mut seen = std::collections::HashSet::new();
                if *distinct && let Some(twice) = items.iter().find(|v| !seen.insert(*v)) {
                    return Err(format!("{} is listed twice", crate::run::show(self.prog, self.players, twice)));
                }
                items.iter().try_for_each(|i| self.within(item, i))?;
            }
            _ => {}
        }
        Ok(())
    }

    fn bound(&self, x: Option<&X>) -> Result<Option<i64>, String> {
        let Some(x) = x else { return Ok(None) };
        match eval_with_params(self.prog, self.players.clone(), self.params, x) {
            Ok(Value::Int(i)) => Ok(Some(i)),
            Ok(other) => Err(format!("the rules give a bound that is {}", other.type_name())),
            Err(d) => Err(d.message),
        }
    }

    fn describe(&self, shape: &Shape) -> String {
        match shape {
            Shape::Int(..) => "an integer".into(),
            Shape::Bool => "a boolean".into(),
            Shape::Str => "a string".into(),
            Shape::File => "the path of a `.yaml` file".into(),
            Shape::Null => "null".into(),
            Shape::Literal(l) => format!("`{l}`"),
            Shape::Player => "a player name".into(),
            Shape::Card(k) => match &self.prog.kinds[*k as usize] {
                kind if kind.plain => format!("a code of `{}`", kind.name),
                kind => format!("a card code of `{}`", kind.name),
            },
            Shape::Enum(e) => format!("one of {}", self.prog.enums[*e as usize].variants.join(" ")),
            Shape::List(..) => "a list".into(),
            Shape::Map(..) => "a mapping".into(),
            Shape::Record(fields) => format!(
                "a mapping with {}",
                fields.iter().map(|(f, ..)| format!("`{f}`")).collect::<Vec<_>>().join(", ")
            ),
            Shape::NonEmpty(inner) => format!("a non-empty {}", self.describe(inner).trim_start_matches("a ")),
            Shape::Union(alts) => alts.iter().map(|a| self.describe(a)).collect::<Vec<_>>().join(" or "),
        }
    }
}

/// Whether a shape and a YAML value have the same outer form.
fn same_form(shape: &Shape, y: &Yaml) -> bool {
    if let Shape::NonEmpty(inner) = shape {
        return same_form(inner, y);
    }
    matches!(
        (shape, y),
        (Shape::List(..), Yaml::Seq(_))
            | (Shape::Map(..) | Shape::Record(_), Yaml::Map(_))
            | (
                Shape::Card(_) | Shape::Enum(_) | Shape::Player | Shape::Str | Shape::File | Shape::Literal(_),
                Yaml::Str(_)
            )
            | (Shape::Int(..), Yaml::Int(_))
    )
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::List(items) => items.is_empty(),
        Value::Map(entries) => entries.is_empty(),
        _ => false,
    }
}

/// A scalar as read: from the tree, or straight from a JSON text by the typed reader.
#[derive(Clone, Copy)]
enum Scalar<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Str(&'a str),
}

impl<'a> Scalar<'a> {
    /// The tree's scalar; `None` for a list, a mapping or a number that is not an integer.
    fn of(y: &'a Yaml) -> Option<Scalar<'a>> {
        match y {
            Yaml::Null => Some(Scalar::Null),
            Yaml::Bool(b) => Some(Scalar::Bool(*b)),
            Yaml::Int(i) => Some(Scalar::Int(*i)),
            Yaml::Str(s) => Some(Scalar::Str(s)),
            Yaml::Float(_) | Yaml::Seq(_) | Yaml::Map(_) => None,
        }
    }

    /// The scalar in a message, as `yaml_words` writes its tree value.
    fn words(self) -> String {
        match self {
            Scalar::Str(s) => format!("`{}`", crate::transcript::cut(s)),
            Scalar::Int(i) => format!("`{i}`"),
            Scalar::Bool(b) => format!("`{b}`"),
            Scalar::Null => "null".into(),
        }
    }
}

fn yaml_words(y: &Yaml) -> String {
    Scalar::of(y).map_or_else(|| y.kind().to_string(), Scalar::words)
}
