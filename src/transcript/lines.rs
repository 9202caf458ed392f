//! Transcripts laid out the way `shinpan play` writes YAML, and game servers often do: each
//! top-level key on a line of its own, its value written as JSON on that line, and a list
//! under a key written one item a line (`  - ITEM`, each item JSON). Each value is a JSON
//! text, and JSON is YAML 1.2, so the tree, and every value's line and offset, are exactly
//! what the YAML reader gives (as for whole JSON files, in `json`). A file laid out any other
//! way (a comment, a blank line, a plain scalar, another indentation, a tab or a carriage
//! return, a key twice, a character YAML does not allow, anything past a limit) goes to the
//! YAML reader, which accepts it or says what is wrong in its own words.

use std::cell::Cell;
use std::collections::HashMap;

use serde::de::DeserializeSeed;

use super::json::{MAX_KEY_BYTES, Node, allowed, item_starts, keys_are_short};
use super::{Doc, Pos, Yaml};
use crate::limits::Limits;

/// What starts a line that holds an item of the list above it.
const ITEM: &str = "  - ";
/// Most top-level keys this reader takes.
const MAX_KEYS: usize = 64;

/// The document, if the text is laid out one JSON value a line within `limits`; `None` sends
/// it to the YAML reader.
pub(super) fn parse(text: &str, limits: &Limits) -> Option<Doc> {
    let nodes = Cell::new(1); // the root mapping
    let mut doc = Doc { root: Yaml::Null, top: vec![], lists: HashMap::new() };
    let mut entries: Vec<(Yaml, Yaml)> = vec![];
    // The list being read under the last key: its items and where each starts.
    let mut list: Option<(Vec<Yaml>, Vec<Pos>)> = None;
    let mut offset = 0;
    for (index, line) in text.split('\n').enumerate() {
        let at = offset;
        offset += line.len() + 1;
        if line.is_empty() && offset > text.len() {
            break; // the end of the last line
        }
        let number = index + 1;
        if let Some(item) = line.strip_prefix(ITEM) {
            let (items, starts) = list.as_mut()?;
            items.push(value(item, Node { depth: 2, nodes: &nodes, limits })?);
            starts.push(Pos { line: number, offset: at + ITEM.len() });
            continue;
        }
        if let Some((items, starts)) = list.take() {
            close_list(&mut doc, &mut entries, items, starts)?;
        }
        let (key, rest) = key_of(line)?;
        // A transcript has a handful of keys: many more are the YAML reader's to weigh (it
        // finds a key given twice without comparing every pair).
        if entries.len() >= MAX_KEYS || entries.iter().any(|(k, _)| matches!(k, Yaml::Str(s) if s == key)) {
            return None;
        }
        count_one(&nodes, limits)?;
        entries.push((Yaml::Str(key.to_string()), Yaml::Null));
        if rest.is_empty() {
            count_one(&nodes, limits)?; // the list
            list = Some((vec![], vec![]));
            continue;
        }
        let start = at + line.len() - rest.len();
        entries.last_mut()?.1 = value(rest, Node { depth: 1, nodes: &nodes, limits })?;
        doc.top.push(Pos { line: number, offset: start });
        if let Some(starts) = item_starts(text, start, number) {
            doc.lists.insert(entries.len() - 1, starts);
        }
    }
    if let Some((items, starts)) = list.take() {
        close_list(&mut doc, &mut entries, items, starts)?;
    }
    // Scanned once the layout fits: a hand-written file is declined at its first line
    // without a pass over the whole text.
    if entries.is_empty() || !text.chars().all(allowed) || !keys_are_short(text) {
        return None;
    }
    doc.root = Yaml::Map(entries);
    Some(doc)
}

/// `KEY: VALUE` or `KEY:` (a list follows): the key, and the value's text (empty for a list).
/// A key is a plain word that the core schema reads as a string.
fn key_of(line: &str) -> Option<(&str, &str)> {
    let (key, rest) = line.split_once(':')?;
    let word =
        key.bytes().enumerate().all(|(i, b)| b.is_ascii_lowercase() || b == b'_' || (i > 0 && b.is_ascii_digit()));
    if key.is_empty() || key.len() >= MAX_KEY_BYTES || !word || matches!(key, "null" | "true" | "false") {
        return None;
    }
    if rest.is_empty() {
        return Some((key, rest));
    }
    let value = rest.strip_prefix(' ')?;
    value.starts_with(|c: char| c != ' ').then_some((key, value))
}

/// A list closes at the next key: it must have items (`KEY:` with none is null in YAML, which
/// is the YAML reader's to say).
fn close_list(doc: &mut Doc, entries: &mut [(Yaml, Yaml)], items: Vec<Yaml>, starts: Vec<Pos>) -> Option<()> {
    let first = *starts.first()?;
    doc.top.push(Pos { line: first.line, offset: first.offset - 2 });
    doc.lists.insert(entries.len() - 1, starts);
    entries.last_mut()?.1 = Yaml::Seq(items);
    Some(())
}

/// One JSON value that fills the rest of its line, read as `node` (at its depth below the root).
fn value(text: &str, node: Node<'_>) -> Option<Yaml> {
    // The value starts right after `: ` or `- ` and ends the line: whitespace around it (a
    // tab, a second space) is YAML's to place, not serde_json's to skip.
    let starts_a_value = text.starts_with(|c: char| matches!(c, '"' | '[' | '{' | '-' | '0'..='9' | 't' | 'f' | 'n'));
    if !starts_a_value || text.ends_with([' ', '\t']) {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let v = node.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(v)
}

/// Counts a value the JSON reader does not see (a key, a list) against the YAML reader's limit.
fn count_one(nodes: &Cell<usize>, limits: &Limits) -> Option<()> {
    nodes.set(nodes.get() + 1);
    (nodes.get() <= limits.transcript_values).then_some(())
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, reason = "tests fail loudly")]
mod tests {
    use super::super::json::tests::{any_json, fixture_texts, left_to_a_refusal, left_to_the_yaml_reader, parse_yaml};
    use super::*;
    use serde_json::Value as Json;

    /// The reader within the default limits.
    fn parse(text: &str) -> Option<Doc> {
        super::parse(text, &Limits::DEFAULT)
    }

    /// The line reader gives exactly the YAML reader's document: values, lines and offsets.
    fn same_as_yaml(text: &str) {
        let fast = parse(text).unwrap_or_else(|| panic!("not read a line at a time: {text}"));
        let slow = parse_yaml(text).unwrap_or_else(|e| panic!("{}: {text}", e.message));
        assert_eq!(fast, slow, "{text}");
    }

    /// A document in the layout `shinpan play` writes: top-level values on their own lines,
    /// lists one item a line.
    fn in_lines(fields: &[(String, Json)]) -> String {
        let mut out = String::new();
        for (key, value) in fields {
            match value {
                Json::Array(items) if !items.is_empty() => {
                    out.push_str(&format!("{key}:\n"));
                    for item in items {
                        out.push_str(&format!("{ITEM}{item}\n"));
                    }
                }
                _ => out.push_str(&format!("{key}: {value}\n")),
            }
        }
        out
    }

    #[test]
    fn every_fixture_in_lines_reads_as_its_yaml() {
        let mut compared = 0;
        for text in fixture_texts() {
            if parse(&text).is_some() {
                same_as_yaml(&text);
            }
            let Ok(doc) = parse_yaml(&text) else { continue };
            let Json::Object(fields) = doc.root.to_json() else { continue };
            let fields: Vec<(String, Json)> = fields.into_iter().collect();
            if fields.is_empty() {
                continue;
            }
            same_as_yaml(&in_lines(&fields));
            compared += 1;
        }
        assert!(compared > 200, "{compared}");
    }

    #[test]
    fn what_play_writes_is_read_a_line_at_a_time() {
        let text = "rules: \"a-game\"\nplayers: [\"aki\",\"ben\",\"chie\"]\nevents:\n  - {\"by\":\"table\",\"start\":\"aki\"}\n  - {\"by\":\"aki\",\"play\":\"X3\"}\n";
        same_as_yaml(text);
        same_as_yaml(text.trim_end());
        // What the fuzz target asks of every text, on one a fast reader takes.
        super::super::fast_readers_agree(text).unwrap();
        super::super::fast_readers_agree("{\"rules\": \"a-game\", \"events\": []}").unwrap();
        same_as_yaml("rules: \"x\"\nevents: []\nvariant: {\"rounds\": 10, \"deep\": [[1], {\"a\": null}]}\n");
        same_as_yaml(
            "a: 1\nb: -2.5e3\nc: true\nd: null\ne: \"\\u00e9\\u3042 \\\"q\\\" a: b # c\"\nf: 9223372036854775808\n",
        );
        same_as_yaml("events:\n  - 1\n  - [2, 3]\n  - \"four\"\n  - {}\nafter: {\"x\": [\"y\"]}\n");
        same_as_yaml("s: \"\\ud83d\\ude00 \u{1F600} \u{e9}\"\n");
        same_as_yaml("won: -555555555555555555555555555555555555555555555555555555\nx: 96666666666666666666\n");
        same_as_yaml("e: 3e88\nd: 184467440737376166167\nevents:\n  - 10e90\n");
        for odd in [
            "x: \"a\u{85}b\u{2028}c\u{2029}d\"\nevents:\n  - \"\u{85}\"\n",
            "x: [1,\t2]\n",
            "x: {\"a\":\t1}\n",
            "x: \"\\t\\/\\b\\f\"\n",
            "events:\n  - [\t]\n",
        ] {
            if parse(odd).is_some() {
                same_as_yaml(odd);
            }
        }
    }

    /// What this reader does not take goes to the YAML reader, which reads it (or refuses it)
    /// in its own words.
    #[test]
    fn the_rest_is_left_to_the_yaml_reader() {
        let declined = [
            "rules: a-game\n",
            "rules: \"a\" # a comment\n",
            "# a comment\nrules: \"a\"\n",
            "rules: \"a\"\n\nevents: []\n",
            "rules: \"a\"\n\n",
            "rules: \"a\"\r\nevents: []\r\n",
            "rules:  \"a\"\n",
            "rules: \"a\" \n",
            "rules: \"a\"\nrules: \"b\"\n",
            "null: 1\n",
            "true: 1\n",
            "Rules: \"a\"\n",
            "1a: 1\n",
            "\"rules\": \"a\"\n",
            "events:\n",
            "events:\n- {}\n",
            "events:\n   - {}\n",
            "events:\n\t- {}\n",
            "  - {}\n",
            "---\nrules: \"a\"\n",
            "rules: \"a\"\n...\n",
            "zero: -0\n",
            "x: {\"a\": 1, \"a\": 2}\n",
            "x: {a: 1}\n",
            "x: [1, 2,]\n",
            "x: \"a\u{7f}b\"\n",
            "x: \"a\u{9c}b\"\n",
            "\u{feff}x: 1\n",
            "x: &a [1]\ny: *a\n",
            "x: !!str 1\n",
            "",
            "\n",
            // Found by the fast_readers fuzz target: a tab or a second space before a value
            // (YAML places the value after it); keys longer than YAML takes are below.
            "won: \t\t {\t\t}\n",
            "r: \t7\n",
            "events:\n  - \t{}\n",
            "t:\n  -  7\n",
        ];
        left_to_the_yaml_reader(parse, &declined);
        left_to_a_refusal(parse, &format!("{}: 1\n", "k".repeat(1100)));
        left_to_a_refusal(parse, &format!("x: {{\"{}\": 1}}\n", "k".repeat(1100)));
        same_as_yaml(&format!("{}: 1\n", "k".repeat(MAX_KEY_BYTES - 1)));
    }

    #[test]
    fn many_keys_are_left_to_the_yaml_reader() {
        let keys = |n: usize| (0..n).map(|i| format!("k{i}: {i}\n")).collect::<String>();
        same_as_yaml(&keys(MAX_KEYS));
        assert!(parse(&keys(MAX_KEYS + 1)).is_none());
        // Declined at the 65th key, before comparing each of 100,000 with all the others.
        let many = keys(100_000);
        assert!(parse(&many).is_none());
        assert!(parse_yaml(&many).is_ok());
    }

    #[test]
    fn limits_are_the_yaml_reader_s() {
        let deep = |n: usize| format!("events:\n{ITEM}{}{}\n", "[".repeat(n), "]".repeat(n));
        let (depth, values) = (Limits::DEFAULT.transcript_depth, Limits::DEFAULT.transcript_values);
        assert!(parse(&deep(depth - 1)).is_none());
        same_as_yaml(&deep(depth - 2));
        // The root, the key and the list count as values too: with them, the limit in all.
        let many = |items: usize| format!("events:\n{}", format!("{ITEM}1\n").repeat(items));
        same_as_yaml(&many(values - 3));
        assert!(parse(&many(values - 2)).is_none());
        assert!(parse_yaml(&many(values - 2)).is_err());
    }

    proptest::proptest! {
        /// Random documents, one value a line, read as the YAML reader reads them.
        #[test]
        fn random_documents_read_as_yaml(
            fields in proptest::collection::btree_map("[a-z_][a-z0-9_]{0,5}", any_json(), 1..5),
            events in proptest::collection::vec(any_json(), 1..6),
        ) {
            let mut fields: Vec<(String, Json)> =
                fields.into_iter().filter(|(k, _)| !matches!(k.as_str(), "null" | "true" | "false" | "events")).collect();
            fields.push(("events".into(), Json::Array(events)));
            same_as_yaml(&in_lines(&fields));
        }
    }
}
