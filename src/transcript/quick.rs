//! The typed reader's first pass over a JSON transcript: the envelope (`rules`, `players`,
//! `variant`) read into values as the tree reader reads it, and each event kept as its own
//! JSON text with where it stands, to be read straight into its decoded form against its
//! action's shape once the rules are known (`decode::typed`). No tree of the events is built
//! and no set of keys is hashed.
//!
//! It takes only what the tree reader takes as it is: anything else (not JSON, a key twice,
//! past a limit, an escaped key, an event that does not decode) is left to the tree reader,
//! which reads it or says what is wrong in its own words. The diagnostics are therefore the
//! tree reader's alone, and the two readers agree on every event they both read
//! (`tests::the_typed_reader_reads_what_the_tree_reader_reads`).

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::json::{Node, takes};
use super::{LineEnds, Located, RawTranscript, line_span};
use crate::limits::Limits;
use crate::span::Span;

/// A JSON transcript read as far as it can be without its rules.
pub struct Quick<'t> {
    /// The envelope; its `events` are an empty list (they are `events` below).
    pub raw: RawTranscript,
    /// Each event's text, in order.
    pub events: Vec<EventText<'t>>,
    /// Values counted so far against `Limits::transcript_values`, as the tree reader counts.
    pub nodes: usize,
}

/// One event as its JSON text, with where it stands in the file.
pub struct EventText<'t> {
    pub text: &'t str,
    pub line: usize,
    pub span: Span,
}

/// Most top-level keys the typed reader takes (each is compared with those before it).
const MAX_KEYS: usize = 64;

/// The transcript, if it is a JSON object the tree reader would take as it is; `None` leaves
/// it to the tree reader.
pub fn read<'t>(text: &'t str, limits: &Limits) -> Option<Quick<'t>> {
    if !takes(text) {
        return None;
    }
    let nodes = Cell::new(0);
    let mut de = serde_json::Deserializer::from_str(text);
    let (entries, events) = Root(Node { depth: 0, nodes: &nodes, limits }).deserialize(&mut de).ok()?;
    de.end().ok()?;
    let offset = |raw: &str| raw.as_ptr() as usize - text.as_ptr() as usize;
    let mut raw = RawTranscript { events: Some(Ok(vec![])), ..RawTranscript::default() };
    for (key, value) in entries {
        // Every value is read within the limits, those the game does not use too.
        let node = Node { depth: 1, nodes: &nodes, limits };
        let read = node.deserialize(&mut serde_json::Deserializer::from_str(value.get())).ok()?;
        let at = offset(value.get());
        let located = Located { value: read, line: line_of(text, at), span: line_span(text, at) };
        match key {
            "rules" => raw.rules = Some(located),
            "players" => raw.players = Some(located),
            "variant" => raw.variant = Some(located),
            _ => {}
        }
    }
    let mut line_ends = LineEnds::new(text);
    let (mut line, mut counted) = (1, 0);
    let events = events?
        .into_iter()
        .map(|event| {
            let at = offset(event.get());
            line += text.as_bytes()[counted..at].iter().filter(|b| **b == b'\n').count();
            counted = at;
            EventText { text: event.get(), line, span: line_ends.span_from(at) }
        })
        .collect();
    Some(Quick { raw, events, nodes: nodes.get() })
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset].iter().filter(|b| **b == b'\n').count()
}

/// Top-level values other than `events` as their texts, by key; the items of `events`.
type Top<'de> = (Vec<(&'de str, &'de RawValue)>, Option<Vec<&'de RawValue>>);

/// The root mapping, counted and nested as the tree reader counts it.
struct Root<'c>(Node<'c>);

impl<'de> DeserializeSeed<'de> for Root<'_> {
    type Value = Top<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top<'de>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Root<'_> {
    type Value = Top<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
        self.0.count()?;
        let inner = self.0.inner()?;
        let (mut entries, mut events) = (vec![], None);
        let mut keys: Vec<&str> = vec![];
        while let Some(key) = map.next_key_seed(Key(inner))? {
            if keys.contains(&key) || keys.len() >= MAX_KEYS {
                return Err(A::Error::custom("a key given twice, or too many keys"));
            }
            keys.push(key);
            if key == "events" {
                events = Some(map.next_value_seed(Items(inner))?);
            } else {
                entries.push((key, map.next_value()?));
            }
        }
        Ok((entries, events))
    }
}

/// A key, counted as the tree reader counts it; an escaped key is left to the tree reader.
#[derive(Clone, Copy)]
pub(super) struct Key<'c>(pub(super) Node<'c>);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = &'de str;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'de str, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = &'de str;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key without escapes")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> Result<&'de str, E> {
        self.0.count()?;
        Ok(s)
    }
}

/// The items of `events` as their texts; the list counted and nested as the tree reader does.
struct Items<'c>(Node<'c>);

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = Vec<&'de RawValue>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of events")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        self.0.count()?;
        self.0.inner::<A::Error>()?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(items)
    }
}
