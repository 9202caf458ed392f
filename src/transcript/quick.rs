//! The typed reader's pass over a JSON transcript: the envelope (`rules`, `players`,
//! `variant`) read into values as the tree reader reads it, and the events read straight into
//! their decoded form against their actions' shapes (`decode::typed`). Where the rules and the
//! players come before the events, as `shinpan play` and most servers write them, the events
//! are read in the same pass, each placed by its first key; otherwise each is kept as its own
//! JSON text with where it stands, and read once the rules are known. No tree of the events is
//! built and no set of keys is hashed.
//!
//! It takes only what the tree reader takes as it is: anything else (not JSON, a key twice,
//! past a limit, an escaped key, an event that does not decode) is left to the tree reader,
//! which reads it or says what is wrong in its own words. The diagnostics are therefore the
//! tree reader's alone, and the two readers agree on every event they both read
//! (`tests::the_typed_reader_reads_what_the_tree_reader_reads`).

use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::decode::{Envelope, Game};
use super::json::{Node, takes};
use super::{LineEnds, Located, RawTranscript, line_span};
use crate::limits::Limits;
use crate::program::Program;
use crate::span::Span;

/// A JSON transcript read as far as it can be without its rules, or, where its rules could be
/// found before its events, read whole.
pub struct Quick<'t> {
    /// The envelope; its `events` are absent (they are `events` below).
    pub raw: RawTranscript,
    pub events: Events<'t>,
    /// Values counted so far against `Limits::transcript_values`, as the tree reader counts.
    pub nodes: usize,
}

/// The events of a transcript read by the typed reader.
pub enum Events<'t> {
    /// Each event's text, in order, to be read once the rules are known
    /// (`decode::typed::events`): the rules were not found before the events.
    Texts(Vec<EventText<'t>>),
    /// Every event read into its decoded form as it was met, in one pass: the keys before
    /// `events` (`rules`, `players`, `variant`, as `shinpan play` and most servers write
    /// them) gave the rules and the game.
    Read(Rc<Program>, Game),
}

/// Finds the rules and the game's envelope from the keys read so far, as `check` would from
/// the whole envelope; `None` where it cannot (yet).
pub type Prepare<'a> = dyn FnMut(&RawTranscript) -> Option<(Rc<Program>, Envelope)> + 'a;

/// One event as its JSON text, with where it stands in the file.
pub struct EventText<'t> {
    pub text: &'t str,
    pub line: usize,
    pub span: Span,
}

/// Most top-level keys the typed reader takes (each is compared with those before it).
const MAX_KEYS: usize = 64;

/// The keys of the envelope: one met after the events were read against the rules would
/// have changed how they read.
const ENVELOPE: [&str; 3] = ["rules", "players", "variant"];

/// The transcript, if it is a JSON object the tree reader would take as it is; `None` leaves
/// it to the tree reader.
pub fn read<'t>(text: &'t str, limits: &Limits, prepare: &mut Prepare<'_>) -> Option<Quick<'t>> {
    if !takes(text) {
        return None;
    }
    let late = Cell::new(false);
    match read_with(text, limits, Some(prepare), &late) {
        // A key of the envelope after the events (`variant` written last) would have changed
        // how they read: read again, keeping the events as texts.
        None if late.get() => read_with(text, limits, None, &late),
        read => read,
    }
}

/// `read`, with the events read against the rules where `prepare` finds them before them.
fn read_with<'t>(
    text: &'t str,
    limits: &Limits,
    prepare: Option<&mut Prepare<'_>>,
    late: &Cell<bool>,
) -> Option<Quick<'t>> {
    let nodes = Cell::new(0);
    let mut de = serde_json::Deserializer::from_str(text);
    let root = Root { node: Node { depth: 0, nodes: &nodes, limits }, text, prepare, late };
    let (raw, events) = root.deserialize(&mut de).ok()?;
    de.end().ok()?;
    let events = match events? {
        Listed::Read(program, game) => Events::Read(program, game),
        Listed::Texts(items) => Events::Texts(event_texts(text, &items)),
    };
    Some(Quick { raw, events, nodes: nodes.get() })
}

/// Each event's text with its line and the span to the end of that line.
fn event_texts<'t>(text: &'t str, items: &[&'t RawValue]) -> Vec<EventText<'t>> {
    let mut lines = Lines::new(text);
    items
        .iter()
        .map(|event| {
            let (line, span) = lines.at(offset(text, event.get()));
            EventText { text: event.get(), line, span }
        })
        .collect()
}

/// Where a slice of `text` starts in it.
fn offset(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

/// The lines of values met in order: each one's line, counted from the last one's, and the
/// span from it to the end of its line.
pub(super) struct Lines<'t> {
    text: &'t str,
    ends: LineEnds<'t>,
    line: usize,
    counted: usize,
}

impl<'t> Lines<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        Lines { text, ends: LineEnds::new(text), line: 1, counted: 0 }
    }

    /// The line of a value starting at `at` (no earlier than the last one), and its span.
    pub(super) fn at(&mut self, at: usize) -> (usize, Span) {
        self.line += super::line_feeds(&self.text.as_bytes()[self.counted..at]);
        self.counted = at;
        (self.line, self.ends.span_from(at))
    }

    /// Where the mapping whose first key is `key` (a slice of the text) starts: its `{`, the
    /// first byte the value's own text (`RawValue`) would start at.
    pub(super) fn mapping_of_key(&self, key: &str) -> Option<usize> {
        let quote = offset(self.text, key).checked_sub(1)?;
        let before = self.text.as_bytes()[..quote].iter().rposition(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
        (self.text.as_bytes()[before] == b'{').then_some(before)
    }
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    1 + super::line_feeds(&text.as_bytes()[..offset])
}

/// The items of `events`: as their texts, or read against the rules found before them.
enum Listed<'de> {
    Texts(Vec<&'de RawValue>),
    Read(Rc<Program>, Game),
}

/// The root mapping, counted and nested as the tree reader counts it.
struct Root<'c, 't, 'r, 'p> {
    node: Node<'c>,
    text: &'t str,
    prepare: Option<&'r mut Prepare<'p>>,
    /// Set when a key of the envelope comes after the events were read against the rules.
    late: &'r Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for Root<'_, '_, '_, '_> {
    type Value = (RawTranscript, Option<Listed<'de>>);

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Root<'_, '_, '_, '_> {
    type Value = (RawTranscript, Option<Listed<'de>>);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self::Value, A::Error> {
        self.node.count()?;
        let inner = self.node.inner()?;
        let mut raw = RawTranscript::default();
        let mut events = None;
        let mut keys: Vec<&str> = vec![];
        while let Some(key) = map.next_key_seed(Key(inner))? {
            if keys.contains(&key) || keys.len() >= MAX_KEYS {
                return Err(A::Error::custom("a key given twice, or too many keys"));
            }
            keys.push(key);
            if key == "events" {
                events = Some(self.events(&raw, &mut map, inner)?);
                continue;
            }
            if matches!(events, Some(Listed::Read(..))) && ENVELOPE.contains(&key) {
                self.late.set(true);
                return Err(A::Error::custom("the envelope goes on after the events were read"));
            }
            // Every value is read within the limits, those the game does not use too.
            let value: &RawValue = map.next_value()?;
            let node = Node { depth: 1, nodes: inner.nodes, limits: inner.limits };
            let read =
                node.deserialize(&mut serde_json::Deserializer::from_str(value.get())).map_err(A::Error::custom)?;
            let at = offset(self.text, value.get());
            let located = Located { value: read, line: line_of(self.text, at), span: line_span(self.text, at) };
            match key {
                "rules" => raw.rules = Some(located),
                "players" => raw.players = Some(located),
                "variant" => raw.variant = Some(located),
                _ => {}
            }
        }
        Ok((raw, events))
    }
}

impl<'c> Root<'c, '_, '_, '_> {
    /// The items of `events`: read against the rules where the keys before them give the
    /// rules and the game, else kept as their texts.
    fn events<'de, A: MapAccess<'de>>(
        &mut self,
        raw: &RawTranscript,
        map: &mut A,
        inner: Node<'c>,
    ) -> Result<Listed<'de>, A::Error> {
        match self.prepare.as_mut().and_then(|prepare| prepare(raw)) {
            Some((program, envelope)) => {
                let seed = super::decode::typed::EventsSeed::new(&program, &envelope, inner, self.text);
                let events = map.next_value_seed(seed)?;
                let Envelope { players, params, .. } = envelope;
                Ok(Listed::Read(program, Game { players, params, events }))
            }
            None => Ok(Listed::Texts(map.next_value_seed(Items(inner))?)),
        }
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
