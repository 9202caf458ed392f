//! Reading a transcript file: YAML 1.2 (or JSON) into a generic tree, every event with
//! its location. Game-specific reading (shapes) is in `decode`.

use serde::Deserialize;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::span::Span;

/// A YAML value, before any game gives it meaning.
#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Yaml>),
    Map(Vec<(Yaml, Yaml)>),
}

impl<'de> Deserialize<'de> for Yaml {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(YamlVisitor)
    }
}

struct YamlVisitor;

impl<'de> Visitor<'de> for YamlVisitor {
    type Value = Yaml;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_none<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Yaml, D::Error> {
        Yaml::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Yaml, E> {
        Ok(Yaml::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Yaml, E> {
        Ok(Yaml::Int(i))
    }
    fn visit_u64<E: serde::de::Error>(self, i: u64) -> Result<Yaml, E> {
        i64::try_from(i).map(Yaml::Int).map_err(|_| E::custom("integer too large"))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Yaml, E> {
        Ok(Yaml::Float(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<Yaml, E> {
        Ok(Yaml::Str(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Yaml, E> {
        Ok(Yaml::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Yaml, A::Error> {
        let mut items = vec![];
        while let Some(x) = a.next_element()? {
            items.push(x);
        }
        Ok(Yaml::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Yaml, A::Error> {
        let mut entries = vec![];
        while let Some(e) = a.next_entry()? {
            entries.push(e);
        }
        Ok(Yaml::Map(entries))
    }
}

impl Yaml {
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(m) => m.iter().find(|(k, _)| matches!(k, Yaml::Str(s) if s == key)).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What kind of YAML value this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Yaml::Null => "null",
            Yaml::Bool(_) => "a boolean",
            Yaml::Int(_) => "an integer",
            Yaml::Float(_) => "a number",
            Yaml::Str(_) => "a string",
            Yaml::Seq(_) => "a list",
            Yaml::Map(_) => "a mapping",
        }
    }
}

/// The envelope of a transcript; every other top-level key is ignored.
#[derive(Deserialize)]
struct Envelope {
    rules: Option<Yaml>,
    players: Option<Yaml>,
    variant: Option<Yaml>,
    events: Option<Vec<Spanned<Yaml>>>,
}

/// One event as read, with where it stands in the file.
#[derive(Debug, Clone)]
pub struct RawEvent {
    pub value: Yaml,
    pub line: usize,
    pub span: Span,
}

#[derive(Debug)]
pub struct RawTranscript {
    pub rules: Option<Yaml>,
    pub players: Option<Yaml>,
    pub variant: Option<Yaml>,
    /// `None` when the key is absent; `Err(kind)` when it is not a list.
    pub events: Option<Result<Vec<RawEvent>, &'static str>>,
}

/// A reading error with its location.
#[derive(Debug, Clone)]
pub struct ReadError {
    pub message: String,
    pub line: Option<usize>,
    pub span: Option<Span>,
}

/// Limits on a transcript: ample for any real game, fatal to hostile input.
fn options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = 64;
    budget.max_nodes = 2_000_000;
    budget.max_aliases = 10_000;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::Error;
    options.with_snippet = false;
    options
}

pub fn read(text: &str) -> Result<RawTranscript, ReadError> {
    if text.trim().is_empty() {
        return Err(ReadError { message: "the file is empty".into(), line: None, span: None });
    }
    let envelope: Envelope = serde_saphyr::from_str_with_options(text, options()).map_err(|e| read_error(&e, text))?;
    let events = envelope.events.map(|items| Ok(items.into_iter().map(|e| raw_event(e, text)).collect()));
    Ok(RawTranscript { rules: envelope.rules, players: envelope.players, variant: envelope.variant, events })
}

fn raw_event(e: Spanned<Yaml>, text: &str) -> RawEvent {
    let line = e.referenced.line() as usize;
    let start =
        e.referenced.span().byte_offset().map_or_else(|| line_start(text, line), |o| o as usize).min(text.len());
    let end = text.get(start..).and_then(|rest| rest.find('\n')).map_or(text.len(), |n| start + n);
    RawEvent { value: e.value, line, span: start..end }
}

fn line_start(text: &str, line: usize) -> usize {
    text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum()
}

fn read_error(e: &serde_saphyr::Error, text: &str) -> ReadError {
    let loc = e.location();
    let line = loc.map(|l| l.line() as usize).filter(|l| *l > 0);
    let message = e.without_snippet().to_string();
    let message = message.lines().next().unwrap_or("unreadable YAML").trim_start_matches("error: ").to_string();
    let span = line.map(|l| {
        let start = line_start(text, l);
        start..start + text.get(start..).and_then(|r| r.find('\n')).unwrap_or(0)
    });
    ReadError { message, line, span }
}
