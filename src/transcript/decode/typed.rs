//! The typed reader's events: each read straight into its decoded form against its action's
//! shape, with no tree in between, as `quick` meets it or from its JSON text once the rules are
//! known. A value of a shape it
//! does not read itself (a union, whose alternatives are tried in turn) is read as a tree and
//! decoded as the tree reader decodes it; a scalar is decoded by the one function both readers
//! use (`Decoder::scalar`), and every bound is checked by the same `within`.
//!
//! Anything that does not decode leaves the whole transcript to the tree reader, which says
//! what is wrong: this pass has no messages of its own.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

use super::{Decoder, Envelope, Game, Scalar, is_empty};
use crate::limits::Limits;
use crate::program::Shape;
use crate::program::value::{Text, Value};
use crate::run::Event;
use crate::transcript::json::Node;
use crate::transcript::quick::{EventText, Key, Lines};

/// Most entries of one mapping this pass reads (each key is compared with those before it);
/// a larger one is the tree reader's.
const MAX_ENTRIES: usize = 64;

/// The game, if every event of the transcript decodes; `None` leaves it to the tree reader.
pub fn events(
    prog: &crate::program::Program,
    envelope: Envelope,
    texts: &[EventText],
    nodes: usize,
    limits: &Limits,
) -> Option<Game> {
    let Envelope { players, params, .. } = envelope;
    let decoder = Decoder { prog, players: &players, params: &params };
    let nodes = Cell::new(nodes);
    // An event is an item of the list under a key of the root mapping.
    let node = Node { depth: 2, nodes: &nodes, limits };
    let mut events = Vec::with_capacity(texts.len());
    for (index, e) in texts.iter().enumerate() {
        let mut de = serde_json::Deserializer::from_str(e.text);
        let (actor, action, arg, _) = EventSeed { decoder: &decoder, node }.deserialize(&mut de).ok()?;
        events.push(Event { actor, action, arg, index, line: e.line, span: e.span.clone() });
    }
    Some(Game { players, params, events })
}

/// The items of `events` read in the pass that reads the rest of the transcript, each
/// against its action's shape as it is met; where each stands is found from its first key.
pub(in super::super) struct EventsSeed<'a, 'c> {
    decoder: Decoder<'a>,
    /// The node of the list of events.
    node: Node<'c>,
    text: &'c str,
}

impl<'a, 'c> EventsSeed<'a, 'c> {
    pub(in super::super) fn new(
        prog: &'a crate::program::Program,
        envelope: &'a Envelope,
        node: Node<'c>,
        text: &'c str,
    ) -> Self {
        let decoder = Decoder { prog, players: &envelope.players, params: &envelope.params };
        EventsSeed { decoder, node, text }
    }
}

impl<'de> DeserializeSeed<'de> for EventsSeed<'_, '_> {
    type Value = Vec<Event>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Event>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EventsSeed<'_, '_> {
    type Value = Vec<Event>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of events")
    }

    /// Counted and nested as the list of the events' texts is, then each event as it is.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Event>, A::Error> {
        self.node.count()?;
        let node = self.node.inner::<A::Error>()?;
        let mut lines = Lines::new(self.text);
        let mut events = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some((actor, action, arg, first_key)) =
            seq.next_element_seed(EventSeed { decoder: &self.decoder, node })?
        {
            let at =
                lines.mapping_of_key(first_key).ok_or_else(|| A::Error::custom("an event not found in the text"))?;
            let (line, span) = lines.at(at);
            events.push(Event { actor, action, arg, index: events.len(), line, span });
        }
        Ok(events)
    }
}

/// An event, read against its action's shape.
struct EventSeed<'a, 'c> {
    decoder: &'a Decoder<'a>,
    node: Node<'c>,
}

/// An event: its actor, action and argument, and its first key (a slice of the text read).
type Decoded<'de> = (Value, u16, Value, &'de str);

impl<'de> DeserializeSeed<'de> for EventSeed<'_, '_> {
    type Value = Decoded<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Decoded<'de>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EventSeed<'_, '_> {
    type Value = Decoded<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an event")
    }

    /// `by`, at most one `note`, and exactly one action.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decoded<'de>, A::Error> {
        self.node.count()?;
        let inner = self.node.inner()?;
        let (mut actor, mut note, mut action, mut first_key) = (None, false, None, None);
        while let Some(key) = map.next_key_seed(Key(inner))? {
            first_key.get_or_insert(key);
            match key {
                "by" if actor.is_none() => actor = Some(map.next_value_seed(Actor(self.decoder, inner))?),
                "note" if !note => {
                    note = true;
                    map.next_value_seed(inner)?;
                }
                "by" | "note" => return Err(A::Error::custom("a key given twice")),
                name if action.is_none() => {
                    let index = *self.decoder.prog.action_index.get(name).ok_or_else(|| A::Error::custom(name))?;
                    let shape = &self.decoder.prog.actions[index as usize].shape;
                    let arg = Arg { decoder: self.decoder, node: inner, shape };
                    action = Some((index, map.next_value_seed(arg)?));
                }
                _ => return Err(A::Error::custom("more than one action")),
            }
        }
        match (actor, action, first_key) {
            (Some(actor), Some((index, arg)), Some(first_key)) => Ok((actor, index, arg, first_key)),
            _ => Err(A::Error::custom("no `by` or no action")),
        }
    }
}

/// `by`: a player of the transcript, or `table`.
struct Actor<'a, 'c>(&'a Decoder<'a>, Node<'c>);

impl<'de> DeserializeSeed<'de> for Actor<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Actor<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a player's name")
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Value, E> {
        self.1.count()?;
        match s {
            "table" => Ok(Value::Table),
            name => self.0.player(name).ok_or_else(|| E::custom("not a player")),
        }
    }
}

/// An argument, or a value inside one, read against its shape.
#[derive(Clone, Copy)]
struct Arg<'a, 'c> {
    decoder: &'a Decoder<'a>,
    node: Node<'c>,
    shape: &'a Shape,
}

impl<'a, 'c> Arg<'a, 'c> {
    /// A value inside this one, of its own shape, nested at `node`.
    fn inner(self, shape: &'a Shape, node: Node<'c>) -> Arg<'a, 'c> {
        Arg { shape, node, ..self }
    }
}

impl<'de> DeserializeSeed<'de> for Arg<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        let Arg { decoder, node, shape } = self;
        let value = match shape {
            Shape::List(..) => d.deserialize_seq(self)?,
            Shape::Map(..) | Shape::Record(_) => d.deserialize_map(self)?,
            Shape::NonEmpty(inner) => {
                let value = self.inner(inner, node).deserialize(d)?;
                return if is_empty(&value) { Err(D::Error::custom("empty")) } else { Ok(value) };
            }
            // Each alternative is tried in turn on the value: the tree reader's way.
            Shape::Union(_) => {
                let tree = node.deserialize(d)?;
                return decoder.value(shape, &tree, false).map_err(D::Error::custom);
            }
            _ => d.deserialize_any(self)?,
        };
        decoder.within(shape, &value).map_err(D::Error::custom)?;
        Ok(value)
    }
}

impl Arg<'_, '_> {
    fn scalar<E: serde::de::Error>(&self, s: Scalar<'_>) -> Result<Value, E> {
        self.node.count()?;
        self.decoder.scalar(self.shape, s, false).map_err(E::custom)
    }
}

impl<'de> Visitor<'de> for Arg<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value of the action's shape")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.scalar(Scalar::Null)
    }

    fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Value, E> {
        self.scalar(Scalar::Bool(b))
    }

    fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<Value, E> {
        self.scalar(Scalar::Int(i))
    }

    /// Past `i64` the tree reader reads a float, which no shape takes.
    fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<Value, E> {
        self.scalar(Scalar::Int(i64::try_from(u).map_err(E::custom)?))
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Value, E> {
        self.scalar(Scalar::Str(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.node.count()?;
        let inner = self.node.inner()?;
        let Shape::List(_, item, _) = self.shape else { return Err(A::Error::custom("not a list")) };
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(value) = seq.next_element_seed(self.inner(item, inner))? {
            items.push(value);
        }
        Ok(Value::list(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        self.node.count()?;
        let inner = self.node.inner()?;
        match self.shape {
            Shape::Map(k, v, total) => self.map(map, inner, (k, v, *total)),
            Shape::Record(fields) => self.record(map, inner, fields),
            _ => Err(A::Error::custom("not a mapping")),
        }
    }
}

impl<'a, 'c> Arg<'a, 'c> {
    /// A mapping of keys and values of two shapes; every key of the key shape when `total`.
    fn map<'de, A: MapAccess<'de>>(
        &self,
        mut map: A,
        inner: Node<'c>,
        (k, v, total): (&'a Shape, &'a Shape, bool),
    ) -> Result<Value, A::Error> {
        let decoder = self.decoder;
        let mut out: Vec<(Value, Value)> = vec![];
        while let Some(name) = map.next_key_seed(Key(inner))? {
            let key = decoder.scalar(k, Scalar::Str(name), true).map_err(A::Error::custom)?;
            decoder.within(k, &key).map_err(A::Error::custom)?;
            if out.len() >= MAX_ENTRIES || out.iter().any(|(seen, _)| *seen == key) {
                return Err(A::Error::custom("a key given twice, or too many keys"));
            }
            out.push((key, map.next_value_seed(self.inner(v, inner))?));
        }
        if total {
            let domain = decoder.key_domain(k).map_err(A::Error::custom)?;
            if domain.iter().any(|key| !out.iter().any(|(seen, _)| seen == key)) {
                return Err(A::Error::custom("a key is missing"));
            }
        }
        Ok(Value::map(out))
    }

    /// A record: each key one of its fields, every field that is not optional given; the
    /// entries in the order of the fields, as the tree reader makes them.
    fn record<'de, A: MapAccess<'de>>(
        &self,
        mut map: A,
        inner: Node<'c>,
        fields: &'a [(Text, bool, Shape)],
    ) -> Result<Value, A::Error> {
        let mut given: Vec<Option<Value>> = vec![None; fields.len()];
        while let Some(name) = map.next_key_seed(Key(inner))? {
            let Some(at) = fields.iter().position(|(field, ..)| **field == *name) else {
                return Err(A::Error::custom("not a field"));
            };
            if given[at].is_some() {
                return Err(A::Error::custom("a key given twice"));
            }
            given[at] = Some(map.next_value_seed(self.inner(&fields[at].2, inner))?);
        }
        let mut out = Vec::with_capacity(fields.len());
        for ((name, optional, _), value) in fields.iter().zip(given) {
            match value {
                Some(value) => out.push((Value::Str(name.clone()), value)),
                None if *optional => {}
                None => return Err(A::Error::custom("a field is missing")),
            }
        }
        Ok(Value::map(out))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, reason = "tests fail loudly")]
mod tests {
    use std::path::Path;

    use serde_json::{Value as Json, json};

    use crate::limits::Limits;
    use crate::report::check::Checker;
    use crate::transcript::json::tests::{fixture_texts, parse_yaml};

    /// A checker's view of one text: what the typed reader read (when it took the text) and
    /// what the tree reader read (or that it found the transcript malformed), each in full.
    fn both_readers(checker: &mut Checker, text: &str) -> (Option<String>, Option<String>) {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let shown = |(program, game): (std::rc::Rc<crate::program::Program>, super::Game)| {
            format!("{} {:?} {:?} {:?}", program.name, game.players, game.params, game.events)
        };
        let typed = checker.read_quickly(text, &base).map(shown);
        let tree = checker.read_game("t", &std::rc::Rc::new(text.to_string()), &base).ok().map(shown);
        (typed, tree)
    }

    /// Whether the typed reader, where it takes a text, reads exactly what the tree reader
    /// reads; returns whether it took it.
    fn agree(checker: &mut Checker, text: &str) -> bool {
        match both_readers(checker, text) {
            (Some(typed), Some(tree)) => {
                assert_eq!(typed, tree, "{text}");
                true
            }
            (Some(typed), None) => panic!("the typed reader read a text the tree reader refuses: {typed}\n{text}"),
            (None, _) => false,
        }
    }

    /// One event a line, the way servers and `shinpan play` lay JSON transcripts out.
    fn event_lines(doc: &Json) -> String {
        let Json::Object(m) = doc else { return doc.to_string() };
        let fields: Vec<String> = m
            .iter()
            .map(|(k, v)| match (k.as_str(), v) {
                ("events", Json::Array(items)) => {
                    let lines: Vec<String> = items.iter().map(|e| format!("    {e}")).collect();
                    format!("  \"events\": [\n{}\n  ]", lines.join(",\n"))
                }
                _ => format!("  {}: {v}", json!(k)),
            })
            .collect();
        format!("{{\n{}\n}}\n", fields.join(",\n"))
    }

    /// The same mapping with its keys in the opposite order.
    fn keys_reversed(doc: &Json) -> Json {
        let Json::Object(m) = doc else { return doc.clone() };
        Json::Object(m.iter().rev().map(|(k, v)| (k.clone(), v.clone())).collect())
    }

    /// The same mapping with `variant`, where it has one, as its last key.
    fn variant_last(doc: &Json) -> Json {
        let Json::Object(m) = doc else { return doc.clone() };
        let mut out: serde_json::Map<String, Json> =
            m.iter().filter(|(k, _)| *k != "variant").map(|(k, v)| (k.clone(), v.clone())).collect();
        if let Some(v) = m.get("variant") {
            out.insert("variant".into(), v.clone());
        }
        Json::Object(out)
    }

    /// Every fixture as JSON, in five layouts.
    fn fixtures_as_json() -> Vec<(Json, Vec<String>)> {
        let mut out = vec![];
        for text in fixture_texts() {
            let Ok(doc) = parse_yaml(&text) else { continue };
            let doc = doc.root.to_json();
            let layouts = vec![
                doc.to_string(),
                serde_json::to_string_pretty(&doc).unwrap(),
                event_lines(&doc),
                // The envelope after the events, or `variant` alone after them: the events are
                // kept as texts until the rules are known.
                keys_reversed(&doc).to_string(),
                variant_last(&doc).to_string(),
            ];
            out.push((doc, layouts));
        }
        out
    }

    #[test]
    fn the_typed_reader_reads_what_the_tree_reader_reads() {
        let mut checker = Checker::new(None);
        let (mut took, mut texts) = (0, 0);
        for (_, layouts) in fixtures_as_json() {
            for text in layouts {
                texts += 1;
                took += usize::from(agree(&mut checker, &text));
            }
        }
        // Most fixtures are well formed: the typed reader must read them, not leave them all.
        assert!(took > 600 && took < texts, "{took} of {texts}");
    }

    /// The typed reader places the envelope's values (`rules`, `players`, `variant`) where the
    /// tree reader does: the same line and span, in every layout of every fixture it takes.
    #[test]
    fn the_typed_reader_places_the_envelope_where_the_tree_reader_does() {
        let limits = Limits::default();
        let place = |l: &Option<crate::transcript::Located>| l.as_ref().map(|l| (l.line, l.span.clone()));
        let mut placed = 0;
        for (_, layouts) in fixtures_as_json() {
            for text in layouts {
                let Some(quick) = crate::transcript::quick::read(&text, &limits, &mut |_| None) else { continue };
                let tree = crate::transcript::read_within(&text, &limits).unwrap();
                for (typed, tree) in [
                    (&quick.raw.rules, &tree.rules),
                    (&quick.raw.players, &tree.players),
                    (&quick.raw.variant, &tree.variant),
                ] {
                    assert_eq!(place(typed), place(tree), "{text}");
                    placed += usize::from(typed.as_ref().is_some_and(|l| l.line > 1));
                }
            }
        }
        // Values below the first line, which a count that forgot the lines before them misses.
        assert!(placed > 600, "{placed}");
    }

    /// How the typed reader reads a transcript's events: `Some(true)` in the pass that reads
    /// the rest, `Some(false)` as texts read once the rules are known.
    fn in_one_pass(checker: &mut Checker, text: &str) -> Option<bool> {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let limits = checker.limits;
        let quick = crate::transcript::quick::read(text, &limits, &mut |raw| checker.prepare(raw, &base))?;
        Some(matches!(quick.events, crate::transcript::quick::Events::Read(..)))
    }

    /// Where the rules and the players come before the events, as `shinpan play` writes them,
    /// the events are read in the same pass as the rest; otherwise (the envelope after them,
    /// or `variant` after them, which changes how they read) as texts, once the rules are
    /// known. Either way the typed reader reads what the tree reader reads.
    #[test]
    fn the_events_are_read_in_one_pass_where_the_envelope_comes_first() {
        let players = r#""players": ["a", "b"]"#;
        let events = r#""events": [{"by": "table", "deal": {"a": ["S1", "S2", "S3"], "b": ["H1", "H2", "H3"]}},
            {"by": "a", "play": "S1"}]"#;
        let variant = r#""variant": {"rounds": 9}"#;
        let rules = r#""rules": "long""#;
        let cases = [
            (format!("{{{rules}, {players}, {events}}}"), true),
            (format!("{{{rules}, {players}, {variant}, {events}}}"), true),
            (format!("{{{events}, {rules}, {players}}}"), false),
            (format!("{{{rules}, {events}, {players}}}"), false),
            (format!("{{{rules}, {players}, {events}, {variant}}}"), false),
            (format!("{{{rules}, {players}, {events}, \"extra\": 1}}"), true),
        ];
        let mut checker = Checker::new(Some(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bench/long.rules").into()));
        for (text, one_pass) in cases {
            assert_eq!(in_one_pass(&mut checker, &text), Some(one_pass), "{text}");
            assert!(agree(&mut checker, &text), "{text}");
        }
        // The events' lines and spans are those of their own texts, on their own lines or not.
        let text = format!("{{{rules}, {players},\n{events}}}");
        let (typed, _) = both_readers(&mut checker, &text);
        let (first, second) = (text.find(r#"{"by": "table""#).unwrap(), text.find(r#"{"by": "a""#).unwrap());
        let (first_end, end) = (first + text[first..].find('\n').unwrap(), text.len());
        let typed = typed.unwrap();
        assert!(typed.contains(&format!("line: 2, span: {first}..{first_end}")), "{typed}");
        assert!(typed.contains(&format!("line: 3, span: {second}..{end}")), "{typed}");
    }

    /// Single changes to each event of the fixtures, each one the typed reader either reads
    /// as the tree reader does or leaves to it.
    #[test]
    fn a_changed_event_is_read_alike_or_left_to_the_tree_reader() {
        let changes: [fn(&mut serde_json::Map<String, Json>); 12] = [
            |e| drop(e.remove("by")),
            |e| drop(e.insert("by".into(), json!("nobody"))),
            |e| drop(e.insert("by".into(), json!(7))),
            |e| drop(e.insert("note".into(), json!({"why": [1, "two", null]}))),
            |e| drop(e.insert("also".into(), json!(1))),
            |e| e.values_mut().filter(|v| !v.is_string()).for_each(|v| *v = json!("Z9")),
            |e| e.values_mut().filter(|v| !v.is_string()).for_each(|v| *v = json!(-0.0)),
            |e| e.values_mut().filter(|v| !v.is_string()).for_each(|v| *v = json!(u64::MAX)),
            |e| e.values_mut().filter(|v| !v.is_string()).for_each(|v| *v = json!([[[]]])),
            |e| e.values_mut().filter(|v| !v.is_string()).for_each(|v| *v = json!({"x": 1})),
            |e| _ = e.values_mut().any(change_first_scalar),
            |e| _ = e.values_mut().any(drop_first_entry),
        ];
        let mut checker = Checker::new(None);
        let (mut took, mut texts) = (0, 0);
        for (doc, _) in fixtures_as_json().into_iter().step_by(3) {
            let Some(events) = doc.get("events").and_then(Json::as_array) else { continue };
            for at in (0..events.len()).step_by(7) {
                for change in changes {
                    let mut changed = doc.clone();
                    if let Some(Json::Object(e)) = changed["events"].get_mut(at) {
                        change(e);
                    }
                    texts += 1;
                    took += usize::from(agree(&mut checker, &changed.to_string()));
                }
            }
        }
        assert!(took > 100 && took < texts, "{took} of {texts}");
    }

    /// The first string, integer or boolean inside a value, changed to another of its kind.
    fn change_first_scalar(v: &mut Json) -> bool {
        match v {
            Json::String(s) => *s = format!("{s}x"),
            Json::Number(n) => *v = json!(n.as_i64().unwrap_or(0) + 1000),
            Json::Bool(b) => *b = !*b,
            Json::Array(items) => return items.iter_mut().any(change_first_scalar),
            Json::Object(m) => return m.values_mut().any(change_first_scalar),
            Json::Null => *v = json!(0),
        }
        true
    }

    /// The first entry of the first mapping inside a value, removed.
    fn drop_first_entry(v: &mut Json) -> bool {
        match v {
            Json::Object(m) if !m.is_empty() => {
                let first = m.keys().next().cloned().unwrap();
                m.remove(&first);
                true
            }
            Json::Object(m) => m.values_mut().any(drop_first_entry),
            Json::Array(items) => items.iter_mut().any(drop_first_entry),
            _ => false,
        }
    }

    /// What JSON text says that a value cannot: a key twice, an escaped key, an escaped value.
    #[test]
    fn texts_of_the_same_value_are_read_alike() {
        let mut checker = Checker::new(Some(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bench/long.rules").into()));
        let game = r#"{"rules": "long", "players": ["a", "b"], "events": [EVENT]}"#;
        let events = [
            r#"{"by": "table", "deal": {"a": ["S1", "S2", "S3"], "b": ["H1", "H2", "H3"]}}"#,
            r#"{"by": "table", "deal": {"a": ["S1", "S2", "S3"], "b": ["H1", "H2", "H3"]}, "by": "table"}"#,
            r#"{"by": "table", "deal": {"a": ["S1", "S2", "S3"], "a": ["H1", "H2", "H3"]}}"#,
            r#"{"by": "table", "deal": {"\u0061": ["S1", "S2", "S3"], "b": ["H1", "H2", "H3"]}}"#,
            r#"{"by": "t\u0061ble", "deal": {"a": ["S1", "S2", "S3"], "b": ["H1", "H2", "H3"]}}"#,
            r#"{"by": "table", "note": 1, "note": 2, "deal": {"a": ["S1"]}}"#,
            r#"{"deal": {"a": ["S1", "S2", "S3"], "b": ["H1", "H2", "H3"]}, "by": "table", "note": "last"}"#,
            r#"{"by": "table", "deal": {"a": ["S1", "S2", "S3"]}}"#,
            r#"{"by": "table", "deal": {"a": ["S1", "S2", "S3"], "d": ["H1", "H2", "H3"]}}"#,
            r#"{"by": "b", "play": "S\u0031"}"#,
            r#"{"by": "b", "play": 5}"#,
            r#"{"by": "b", "play": "S1", "deal": {}}"#,
        ];
        let took: Vec<bool> = events.iter().map(|e| agree(&mut checker, &game.replace("EVENT", e))).collect();
        assert_eq!(took, [true, false, false, false, true, false, true, true, false, true, false, false]);
    }

    /// At the limits on values and nesting, and one past them: the typed reader takes a text
    /// only where the tree reader does.
    #[test]
    fn the_typed_reader_keeps_the_tree_readers_limits() {
        let text = fixtures_as_json().into_iter().find_map(|(doc, layouts)| {
            let long = doc["events"].as_array().is_some_and(|e| e.len() > 20);
            long.then(|| layouts[0].clone())
        });
        let text = text.unwrap();
        let read_within = |limits: Limits| {
            let mut checker = Checker::new(None);
            checker.limits = limits;
            both_readers(&mut checker, &text)
        };
        // The fewest values, and the least nesting, the tree reader reads the text within.
        let least = |set: fn(&mut Limits, usize), most: usize| {
            let fits = |n| {
                let mut limits = Limits::DEFAULT;
                set(&mut limits, n);
                read_within(limits).1.is_some()
            };
            let (mut lo, mut hi) = (0, most);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if fits(mid) { hi = mid } else { lo = mid + 1 }
            }
            lo
        };
        let set_values: fn(&mut Limits, usize) = |l, n| l.transcript_values = n;
        let set_depth: fn(&mut Limits, usize) = |l, n| l.transcript_depth = n;
        for (set, most) in [(set_values, 1_000_000), (set_depth, 64)] {
            let n = least(set, most);
            let mut at = Limits::DEFAULT;
            set(&mut at, n);
            let (typed, tree) = read_within(at);
            assert!(typed.is_some() && typed == tree, "at the limit {n}");
            let mut past = Limits::DEFAULT;
            set(&mut past, n - 1);
            assert_eq!(read_within(past), (None, None), "past the limit {n}");
        }
    }
}
