//! Transcripts written as JSON, read with serde_json: game servers write JSON, and a JSON
//! parser is several times faster than a YAML one. JSON is YAML 1.2, so the tree, and every
//! value's line and span, are exactly what the YAML reader gives for the same text. Anything
//! this reader does not take as it is (not JSON, a key twice, past a limit) goes to the YAML
//! reader, which accepts it or says what is wrong in its own words.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

use super::{Doc, Pos, Yaml};
use crate::limits::Limits;

/// The document, if the text is a JSON object this reader takes within `limits`; `None` sends
/// it to the YAML reader.
pub(super) fn parse(text: &str, limits: &Limits) -> Option<Doc> {
    if !takes(text) {
        return None;
    }
    let nodes = Cell::new(0);
    let mut de = serde_json::Deserializer::from_str(text);
    let root = Node { depth: 0, nodes: &nodes, limits }.deserialize(&mut de).ok()?;
    de.end().ok()?;
    let (top, lists) = positions(text)?;
    Some(Doc { root, top, lists })
}

/// Whether the text looks like a JSON object this reader takes: what it leaves to the YAML
/// reader before parsing (the typed reader, `quick`, leaves the same).
pub(super) fn takes(text: &str) -> bool {
    // A byte-order mark, rare in JSON, is the YAML reader's to skip.
    if !text.trim_start_matches([' ', '\t', '\r', '\n']).starts_with('{') {
        return false;
    }
    // A character YAML does not allow (DEL, a C1 control) is the YAML reader's to refuse; a
    // carriage return is a line break to YAML on its own too, but only with a line feed here.
    // Most transcripts are printable ASCII: that is a test of each byte, in blocks the compiler
    // can check side by side, without decoding characters.
    let printable_ascii =
        text.as_bytes().chunks(64).all(|block| block.iter().fold(true, |ok, b| ok & ascii_allowed(*b)));
    let lone_return = || text.match_indices('\r').any(|(i, _)| text.as_bytes().get(i + 1) != Some(&b'\n'));
    (printable_ascii || (!lone_return() && text.chars().all(|c| c == '\r' || allowed(c)))) && keys_are_short(text)
}

/// `allowed` for a byte of ASCII text: a printable character, a line feed or a tab.
#[inline]
fn ascii_allowed(b: u8) -> bool {
    matches!(b, b'\n' | b'\t' | b' '..=b'~')
}

/// The characters a fast reader takes: YAML's printable ones, with a line feed and a tab, and
/// no carriage return or byte-order mark (those are the YAML reader's to place).
pub(super) fn allowed(c: char) -> bool {
    matches!(c, '\n' | '\t' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}')
        || c >= '\u{10000}'
}

/// Longest key YAML takes in a flow mapping, counted from its opening quote to the `:`: the
/// YAML reader refuses an implicit key of more than 1,024 characters, and bytes are at least
/// as many as characters, so a key this short in bytes is within it.
pub(super) const MAX_KEY_BYTES: usize = 1000;

/// Whether every key of the JSON text (a string followed by `:`) is within `MAX_KEY_BYTES`.
pub(super) fn keys_are_short(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = bytes.get(i..).and_then(|rest| rest.iter().position(|b| *b == b'"')) {
        let start = i + at;
        let Some(end) = skip_string(bytes, start) else { return true }; // not JSON: refused anyway
        let colon = skip_space(bytes, end);
        if bytes.get(colon) == Some(&b':') && colon - start >= MAX_KEY_BYTES {
            return false;
        }
        i = end;
    }
    true
}

/// Builds a value, counting values and nesting against the YAML reader's limits.
#[derive(Clone, Copy)]
pub(super) struct Node<'c> {
    /// How far below the root mapping the value stands.
    pub(super) depth: usize,
    pub(super) nodes: &'c Cell<usize>,
    pub(super) limits: &'c Limits,
}

impl<'c> Node<'c> {
    pub(super) fn count<E: serde::de::Error>(&self) -> Result<(), E> {
        self.nodes.set(self.nodes.get() + 1);
        if self.nodes.get() > self.limits.transcript_values { Err(E::custom("too many values")) } else { Ok(()) }
    }

    pub(super) fn inner<E: serde::de::Error>(&self) -> Result<Node<'c>, E> {
        if self.depth >= self.limits.transcript_depth {
            return Err(E::custom("nested too deep"));
        }
        Ok(Node { depth: self.depth + 1, nodes: self.nodes, limits: self.limits })
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Yaml;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Yaml, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Yaml;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Yaml, E> {
        self.count()?;
        Ok(Yaml::Null)
    }

    fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Yaml, E> {
        self.count()?;
        Ok(Yaml::Bool(b))
    }

    fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<Yaml, E> {
        self.count()?;
        Ok(Yaml::Int(i))
    }

    /// Past `i64`, the YAML reader's core schema makes a float of it too.
    fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<Yaml, E> {
        self.count()?;
        Ok(i64::try_from(u).map_or(Yaml::Float(u as f64), Yaml::Int))
    }

    /// serde_json reads `-0` as a float where the core schema reads the integer 0, and the two
    /// cannot be told apart here: a negative zero is left to the YAML reader.
    fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<Yaml, E> {
        self.count()?;
        if f == 0.0 && f.is_sign_negative() {
            return Err(E::custom("a negative zero"));
        }
        Ok(Yaml::Float(f))
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Yaml, E> {
        self.count()?;
        Ok(Yaml::Str(s.to_string()))
    }

    fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Yaml, E> {
        self.count()?;
        Ok(Yaml::Str(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Yaml, A::Error> {
        self.count()?;
        let inner = self.inner()?;
        let mut items = vec![];
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Yaml::Seq(items))
    }

    /// A key given twice is for the YAML reader to refuse, with its message.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Yaml, A::Error> {
        self.count()?;
        let inner = self.inner()?;
        let mut entries: Vec<(Yaml, Yaml)> = vec![];
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key_seed(inner)? {
            let Yaml::Str(name) = &key else { return Err(A::Error::custom("a key that is not a string")) };
            if !seen.insert(name.clone()) {
                return Err(A::Error::custom("a key given twice"));
            }
            let value = map.next_value_seed(inner)?;
            entries.push((key, value));
        }
        Ok(Yaml::Map(entries))
    }
}

/// For each top-level entry that is a list or mapping, where each of its items starts.
type Lists = HashMap<usize, Vec<Pos>>;

/// Where each top-level value starts, and each item of a top-level list, as the YAML reader
/// records them. The text is known to be valid JSON here, so a plain scan finds them.
fn positions(text: &str) -> Option<(Vec<Pos>, Lists)> {
    let bytes = text.as_bytes();
    let mut lines = Lines { bytes, at: 0, line: 1 };
    let mut top = vec![];
    let mut lists = HashMap::new();
    let mut i = skip_space(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_space(bytes, i + 1);
    while bytes.get(i).is_some_and(|b| *b != b'}') {
        i = skip_space(bytes, skip_string(bytes, i)?);
        i = skip_space(bytes, i + 1); // the `:`
        top.push(lines.pos(i));
        match items(bytes, i, &mut lines)? {
            Some((starts, end)) => {
                lists.insert(top.len() - 1, starts);
                i = end + 1;
            }
            None => i = skip_value(bytes, i)?,
        }
        i = skip_space(bytes, i);
        if bytes.get(i) == Some(&b',') {
            i = skip_space(bytes, i + 1);
        }
    }
    Some((top, lists))
}

/// Where each item of the list, or each value of the mapping, that starts at `i` starts, and
/// where it closes; `Some(None)` when no list or mapping starts there.
#[allow(clippy::type_complexity, reason = "a private step of the scan")]
fn items(bytes: &[u8], i: usize, lines: &mut Lines) -> Option<Option<(Vec<Pos>, usize)>> {
    let Some(&open @ (b'[' | b'{')) = bytes.get(i) else { return Some(None) };
    let close = if open == b'[' { b']' } else { b'}' };
    let mut starts = vec![];
    let mut j = skip_space(bytes, i + 1);
    while bytes.get(j).is_some_and(|b| *b != close) {
        if open == b'{' {
            j = skip_space(bytes, skip_string(bytes, j)?);
            j = skip_space(bytes, j + 1); // the `:`
        }
        starts.push(lines.pos(j));
        j = skip_space(bytes, skip_value(bytes, j)?);
        if bytes.get(j) == Some(&b',') {
            j = skip_space(bytes, j + 1);
        }
    }
    Some(Some((starts, j)))
}

/// Where each item starts of the list or mapping that starts at `start`, on line `line`
/// (`None` when no list or mapping starts there). The value is known to be valid JSON.
pub(super) fn item_starts(text: &str, start: usize, line: usize) -> Option<Vec<Pos>> {
    let mut lines = Lines { bytes: text.as_bytes(), at: start, line };
    items(text.as_bytes(), start, &mut lines).flatten().map(|(starts, _)| starts)
}

/// Line numbers of increasing offsets, counted once through the text.
struct Lines<'t> {
    bytes: &'t [u8],
    at: usize,
    line: usize,
}

impl Lines<'_> {
    fn pos(&mut self, offset: usize) -> Pos {
        let upto = offset.min(self.bytes.len());
        self.line += super::line_feeds(&self.bytes[self.at.min(upto)..upto]);
        self.at = self.at.max(upto);
        Pos { line: self.line, offset }
    }
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (just past its closing quote).
fn skip_string(bytes: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// The end of the value starting at `i`. Nesting is within the limits, as the parse
/// before it checked, so a counter of open brackets is all it takes.
fn skip_value(bytes: &[u8], mut i: usize) -> Option<usize> {
    let mut open = 0usize;
    loop {
        match bytes.get(i)? {
            b'"' => i = skip_string(bytes, i)?,
            b'{' | b'[' => {
                open += 1;
                i += 1;
            }
            b'}' | b']' if open == 0 => return Some(i),
            b'}' | b']' => {
                open -= 1;
                i += 1;
            }
            // A scalar ends at the `,` or the space after it (its callers skip the space).
            b',' | b' ' | b'\t' | b'\n' | b'\r' if open == 0 => return Some(i),
            _ => i += 1,
        }
        if open == 0 && matches!(bytes.get(i - 1), Some(b'}' | b']' | b'"')) {
            return Some(i);
        }
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, reason = "tests fail loudly")]
pub(super) mod tests {
    use super::*;
    use serde_json::{Value as Json, json};

    /// The reader within the default limits.
    pub(in crate::stages::transcript) fn parse(text: &str) -> Option<Doc> {
        super::parse(text, &Limits::DEFAULT)
    }

    /// The YAML reader within the default limits.
    pub(in crate::stages::transcript) fn parse_yaml(text: &str) -> Result<Doc, super::super::ReadError> {
        super::super::parse_yaml(text, &Limits::DEFAULT)
    }

    /// The JSON reader gives exactly the YAML reader's document: values, lines and offsets.
    fn same_as_yaml(text: &str) {
        let fast = parse(text).unwrap_or_else(|| panic!("not read as JSON: {text}"));
        let slow = parse_yaml(text).unwrap_or_else(|e| panic!("{}: {text}", e.message));
        assert_eq!(fast, slow, "{text}");
    }

    /// One event a line, the way servers and `shinpan play` lay transcripts out.
    fn event_lines(v: &Json) -> String {
        let Json::Object(m) = v else { return v.to_string() };
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

    /// Texts a fast reader leaves to the YAML reader, which reads each as it reads it alone.
    pub(in crate::stages::transcript) fn left_to_the_yaml_reader(fast: fn(&str) -> Option<Doc>, texts: &[&str]) {
        for text in texts {
            assert!(fast(text).is_none(), "{text:?}");
            super::super::fast_readers_agree(text).unwrap();
        }
    }

    /// A text a fast reader leaves to the YAML reader, which refuses it.
    pub(in crate::stages::transcript) fn left_to_a_refusal(fast: fn(&str) -> Option<Doc>, text: &str) {
        assert!(fast(text).is_none(), "{text:?}");
        assert!(parse_yaml(text).is_err(), "the YAML reader took {text:?}");
    }

    /// The text of every YAML file under `fixtures/`.
    pub(in crate::stages::transcript) fn fixture_texts() -> Vec<String> {
        let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
        let mut texts = vec![];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml")
                    && let Ok(text) = std::fs::read_to_string(&path)
                {
                    texts.push(text);
                }
            }
        }
        texts
    }

    #[test]
    fn every_fixture_as_json_reads_as_its_yaml() {
        let mut compared = 0;
        for text in fixture_texts() {
            let Ok(doc) = parse_yaml(&text) else { continue };
            let Yaml::Map(_) = doc.root else { continue };
            let value = doc.root.to_json();
            for layout in [value.to_string(), serde_json::to_string_pretty(&value).unwrap(), event_lines(&value)] {
                same_as_yaml(&layout);
            }
            compared += 1;
        }
        assert!(compared > 200, "{compared}");
    }

    #[test]
    fn scalars_read_as_the_core_schema_reads_them() {
        same_as_yaml(
            r#"{"a": [0, -1, 1.5, -2e3, 1E2, 9223372036854775807, 9223372036854775808, 18446744073709551616]}"#,
        );
        // Numbers past `u64` are floats, rounded to the nearest as the YAML reader rounds them.
        same_as_yaml(
            r#"{"a": [96666666666666666666, -555555555555555555555555555555555555555555555555555555, 0.1e-400]}"#,
        );
        same_as_yaml(r#"{"": 10e90, "b": 3e88}"#);
        same_as_yaml(r#"{"m": {"x": 1, "y": [2, {"z": 3}]}, "e": [], "o": {}}"#);
        same_as_yaml(
            r#"{"s": ["", "\"", "\\", "\/", "\u00e9\u3042", "a,b]}{[", "tab\there", "nul\u0000"], "t": true, "n": null}"#,
        );
        same_as_yaml("{\"deep\": [[[{\"x\": [{}]}]], []], \"e\": {}}");
        same_as_yaml("  \r\n{ \"spaced\" :\r\n [ 1 ,\r\n 2 ] , \"x\" : \"y\" }\r\n");
    }

    /// What this reader does not take goes to the YAML reader: YAML flow, a key twice, nesting
    /// and sizes past the limits, trailing text, a top level that is not a mapping.
    #[test]
    fn the_rest_is_left_to_the_yaml_reader() {
        let declined = [
            "{rules: a-game}",
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": 1} {"b": 2}"#,
            r#"{"a": 1,}"#,
            "[1, 2]",
            r#"{"zero": -0}"#,
            "\u{feff}{\"bom\": 1}",
            "rules: a-game",
            "",
            // Found by the fast_readers fuzz target: YAML refuses DEL, and a key of more than
            // 1,024 characters; a carriage return alone is a line break to it.
            "{\"a\u{7f}b\": 1}",
            "{\"\u{8f}\": \"\u{fffe}\"}",
            "{\"a\":\r1}",
            "{\"a\": 1,\r\"b\": 2}",
        ];
        left_to_the_yaml_reader(parse, &declined);
        left_to_a_refusal(parse, &format!("{{\"{}\": 1}}", "k".repeat(1100)));
        let long_value = format!("{{\"k\": \"{}\"}}", "v".repeat(5 * MAX_KEY_BYTES));
        same_as_yaml(&long_value);
        same_as_yaml(&format!("{{\"{}\": 1}}", "k".repeat(MAX_KEY_BYTES - 4)));
        let depth = Limits::DEFAULT.transcript_depth;
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(depth), "]".repeat(depth));
        assert!(parse(&deep).is_none());
        let shallow = format!("{{\"a\": {}{}}}", "[".repeat(depth - 1), "]".repeat(depth - 1));
        same_as_yaml(&shallow);
    }

    /// Any JSON value, its texts full of what YAML gives a meaning outside quotes.
    pub(in crate::stages::transcript) fn any_json() -> impl proptest::strategy::Strategy<Value = Json> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::from),
            any::<i64>().prop_map(Json::from),
            (-1e6f64..1e6).prop_filter("not -0", |f| *f != 0.0).prop_map(Json::from),
            "[a-z\\\\\"{}\\[\\],:#&*!|>'%@` \u{e9}\u{3042}\t\n-]{0,8}".prop_map(Json::from),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Json::Array),
                proptest::collection::btree_map("[a-z]{1,3}", inner, 0..6)
                    .prop_map(|m| Json::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// Random JSON documents, compact, pretty and one item a line, read as the YAML reader reads them.
        #[test]
        fn random_documents_read_as_yaml(
            fields in proptest::collection::btree_map("[a-z]{1,6}", any_json(), 1..5),
            events in proptest::collection::vec(any_json(), 0..6),
        ) {
            let mut doc: serde_json::Map<String, Json> = fields.into_iter().collect();
            doc.insert("events".into(), Json::Array(events));
            let doc = Json::Object(doc);
            for layout in [doc.to_string(), serde_json::to_string_pretty(&doc).unwrap(), event_lines(&doc)] {
                same_as_yaml(&layout);
            }
        }
    }
}
