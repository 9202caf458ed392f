//! Reading a transcript file: YAML 1.2 (JSON is YAML too) into a generic tree, with the
//! location of every event and of `rules`, `players` and `variant`. Game-specific reading
//! (shapes) is in `decode`.
//!
//! The tree is built from the events of granit-parser (the parser under serde-saphyr) rather
//! than through serde, because serde's typeless inference is not the YAML 1.2 core schema
//! (it reads `0777` as a float and `0b101` as an integer) and hides whether a scalar was
//! quoted. Here every plain scalar is resolved exactly as the core schema says, and every
//! limit and message is our own.

pub mod decode;
mod json;
mod lines;
pub mod pool;
pub(crate) mod quick;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use granit_parser::{Event, Parser, ScalarStyle, Tag};

use crate::limits::Limits;
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

impl Yaml {
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(m) => m.iter().find(|(k, _)| matches!(k, Yaml::Str(s) if s == key)).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value as JSON (a key that is not a string written as its JSON text).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as Json;
        match self {
            Yaml::Null => Json::Null,
            Yaml::Bool(b) => Json::from(*b),
            Yaml::Int(i) => Json::from(*i),
            Yaml::Float(f) => Json::from(*f),
            Yaml::Str(s) => Json::from(s.as_str()),
            Yaml::Seq(items) => Json::Array(items.iter().map(Yaml::to_json).collect()),
            Yaml::Map(entries) => Json::Object(
                entries
                    .iter()
                    .map(|(k, v)| (if let Yaml::Str(s) = k { s.clone() } else { k.to_json().to_string() }, v.to_json()))
                    .collect(),
            ),
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

/// A value of the envelope with where it stands in the file.
#[derive(Debug, Clone)]
pub struct Located {
    pub value: Yaml,
    pub line: usize,
    pub span: Span,
}

/// One event as read, with where it stands in the file.
#[derive(Debug, Clone)]
pub struct RawEvent {
    pub value: Yaml,
    pub line: usize,
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct RawTranscript {
    pub rules: Option<Located>,
    pub players: Option<Located>,
    pub variant: Option<Located>,
    /// `None` when the key is absent; `Err` (what it is instead, and where) when it is not a list.
    pub events: Option<Result<Vec<RawEvent>, (&'static str, Located)>>,
}

impl RawTranscript {
    /// The envelope alone: `rules`, `players` and `variant`, without the events.
    pub fn envelope(&self) -> RawTranscript {
        let (rules, players, variant) = (self.rules.clone(), self.players.clone(), self.variant.clone());
        RawTranscript { rules, players, variant, events: None }
    }
}

/// A reading error with its location.
#[derive(Debug, Clone)]
pub struct ReadError {
    pub message: String,
    pub line: Option<usize>,
    pub span: Option<Span>,
    pub problem: Problem,
}

/// What makes a transcript malformed, in a word a program can test (the JSON `kind` of an
/// error). The words are part of the output's contract: new ones may come, none changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// The file or stream could not be read (missing, not a regular file, not UTF-8).
    Unreadable,
    /// Past a size limit: the file, a stream line, nesting, values or aliases.
    TooLarge,
    /// Not YAML (or JSON) at all, or YAML this reader refuses (a key twice, a tag).
    Syntax,
    /// YAML, but not a transcript: not a mapping, or `rules` or `events` missing or mistyped.
    NotATranscript,
    /// `rules` names no built-in rules and no rules file.
    UnknownRules,
    /// The rules file has errors.
    BadRules,
    /// `players` does not fit the game.
    BadPlayers,
    /// A parameter under `variant` (or `--variant`) is unknown or out of its range.
    BadVariant,
    /// A card file the parameters name cannot be read or breaks its rules.
    BadCardFile,
    /// An event is not a mapping with `by` and exactly one action.
    BadEvent,
    /// `by` names no player of the transcript.
    UnknownPlayer,
    /// The action is not one of the game's.
    UnknownAction,
    /// The action's argument does not fit its shape (an unknown card code, a wrong type).
    BadArgument,
    /// The rules failed while checking (a run-time error in the rules file).
    RulesFailed,
    /// shinpan itself failed (please report it).
    Internal,
}

impl Problem {
    /// The kind as the JSON output writes it (`unreadable`, `too-large`, ...).
    pub fn word(self) -> &'static str {
        match self {
            Problem::Unreadable => "unreadable",
            Problem::TooLarge => "too-large",
            Problem::Syntax => "syntax",
            Problem::NotATranscript => "not-a-transcript",
            Problem::UnknownRules => "unknown-rules",
            Problem::BadRules => "bad-rules",
            Problem::BadPlayers => "bad-players",
            Problem::BadVariant => "bad-variant",
            Problem::BadCardFile => "bad-card-file",
            Problem::BadEvent => "bad-event",
            Problem::UnknownPlayer => "unknown-player",
            Problem::UnknownAction => "unknown-action",
            Problem::BadArgument => "bad-argument",
            Problem::RulesFailed => "rules-failed",
            Problem::Internal => "internal",
        }
    }

    /// Every word, for the documentation and the schema.
    pub const ALL: [Problem; 15] = [
        Problem::Unreadable,
        Problem::TooLarge,
        Problem::Syntax,
        Problem::NotATranscript,
        Problem::UnknownRules,
        Problem::BadRules,
        Problem::BadPlayers,
        Problem::BadVariant,
        Problem::BadCardFile,
        Problem::BadEvent,
        Problem::UnknownPlayer,
        Problem::UnknownAction,
        Problem::BadArgument,
        Problem::RulesFailed,
        Problem::Internal,
    ];
}

/// Longest piece of the file a message quotes.
const MAX_QUOTED: usize = 40;

/// Reads a transcript within the default limits (`read_within`).
pub fn read(text: &str) -> Result<RawTranscript, ReadError> {
    read_within(text, &Limits::DEFAULT)
}

/// Reads a transcript: one YAML document whose top level is a mapping, nested, valued and
/// aliased within `limits` (real transcripts use four levels). Keys other than `rules`,
/// `players`, `variant` and `events` are kept out of the way (`meta`, notes).
pub fn read_within(text: &str, limits: &Limits) -> Result<RawTranscript, ReadError> {
    let doc = parse(text, limits)?;
    let Yaml::Map(entries) = doc.root else {
        let what = doc.root.kind();
        let message = format!("a transcript is a mapping, not {what}");
        return Err(ReadError { message, line: None, span: None, problem: Problem::NotATranscript });
    };
    let mut out = RawTranscript::default();
    for (index, (key, value)) in entries.into_iter().enumerate() {
        let Yaml::Str(key) = key else { continue };
        let at = doc.top.get(index).copied().unwrap_or_default();
        let located = Located { value, line: at.line, span: line_span(text, at.offset) };
        match key.as_str() {
            "rules" => out.rules = Some(located),
            "players" => out.players = Some(located),
            "variant" => out.variant = Some(located),
            "events" => out.events = Some(events(text, located, doc.lists.get(&index))),
            _ => {}
        }
    }
    Ok(out)
}

/// Reads any one YAML document as a value (the core schema's resolution, as in transcripts),
/// within the default limits.
pub fn parse_value(text: &str) -> Result<Yaml, ReadError> {
    parse(text, &Limits::DEFAULT).map(|doc| doc.root)
}

/// Reads a YAML data file whose top level is a mapping, and returns the items of the list
/// under `key`, each with its line (a card pool's rows).
pub fn read_list(text: &str, key: &str) -> Result<Vec<RawEvent>, ReadError> {
    let doc = parse(text, &Limits::DEFAULT)?;
    let Yaml::Map(entries) = doc.root else {
        let what = doc.root.kind();
        let message = format!("the file is a mapping, not {what}");
        return Err(ReadError { message, line: None, span: None, problem: Problem::NotATranscript });
    };
    let Some(index) = entries.iter().position(|(k, _)| matches!(k, Yaml::Str(s) if s == key)) else {
        let message = format!("the file has no `{key}`");
        return Err(ReadError { message, line: None, span: None, problem: Problem::NotATranscript });
    };
    let Some((_, value)) = entries.into_iter().nth(index) else { return Ok(vec![]) };
    let at = doc.top.get(index).copied().unwrap_or_default();
    let located = Located { value, line: at.line, span: line_span(text, at.offset) };
    events(text, located, doc.lists.get(&index)).map_err(|(kind, at)| ReadError {
        message: format!("`{key}` must be a list, not {kind}"),
        line: Some(at.line),
        span: Some(at.span),
        problem: Problem::NotATranscript,
    })
}

fn events(text: &str, list: Located, positions: Option<&Vec<Pos>>) -> Result<Vec<RawEvent>, (&'static str, Located)> {
    let Yaml::Seq(items) = list.value else { return Err((list.value.kind(), list)) };
    let at = |i: usize| positions.and_then(|p| p.get(i)).copied().unwrap_or_default();
    let mut line_ends = LineEnds::new(text);
    Ok(items
        .into_iter()
        .enumerate()
        .map(|(i, value)| RawEvent { value, line: at(i).line, span: line_ends.span_from(at(i).offset) })
        .collect())
}

/// How many line feeds the bytes hold. Counted in blocks of 255 bytes into a byte each, which
/// the compiler checks 16 bytes at a time: counted one by one, the lines of every event read
/// cost a game of JSON Lines about 1% of its checking.
pub(super) fn line_feeds(bytes: &[u8]) -> usize {
    bytes.chunks(255).map(|block| usize::from(block.iter().fold(0u8, |n, b| n + u8::from(*b == b'\n')))).sum()
}

/// From `start` to the end of its line: what a diagnostic underlines for a value.
fn line_span(text: &str, start: usize) -> Span {
    LineEnds::new(text).span_from(start)
}

/// Finds where lines end for starts that mostly come in order, remembering the last line
/// found: the events of a one-line transcript (a JSON Lines stream) share one line, which is
/// then searched once instead of once per event.
struct LineEnds<'t> {
    text: &'t str,
    /// The last line found, from its first byte searched to its end.
    last: Option<Span>,
}

impl<'t> LineEnds<'t> {
    fn new(text: &'t str) -> Self {
        LineEnds { text, last: None }
    }

    /// From `start` to the end of its line.
    fn span_from(&mut self, start: usize) -> Span {
        let start = start.min(self.text.len());
        let end = match &self.last {
            Some(line) if line.start <= start && start <= line.end => line.end,
            _ => self.text.get(start..).unwrap_or_default().find('\n').map_or(self.text.len(), |n| start + n),
        };
        self.last = Some(start..end);
        start..end
    }
}

/// Where a value starts: its line (1-based) and byte offset.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Pos {
    line: usize,
    offset: usize,
}

/// A parsed document: the root, where each top-level value starts, and where each item of a
/// top-level list starts (by the index of its entry in the root mapping).
#[derive(Debug, PartialEq)]
struct Doc {
    root: Yaml,
    top: Vec<Pos>,
    lists: HashMap<usize, Vec<Pos>>,
}

/// A list or mapping being built.
struct Frame {
    items: Vec<Yaml>,
    is_map: bool,
    anchor: usize,
    /// Keys seen, once a mapping is large enough for a linear search to cost too much.
    keys: Option<HashSet<String>>,
    /// Where each child starts (kept for the top two levels only).
    positions: Vec<Pos>,
}

struct Builder<'t> {
    text: &'t str,
    limits: &'t Limits,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Yaml, usize)>,
    nodes: usize,
    aliases: usize,
    root: Option<Yaml>,
    top: Vec<Pos>,
    lists: HashMap<usize, Vec<Pos>>,
}

/// A JSON object goes to serde_json, anything else (or what that reader leaves) to YAML; each
/// reader within the same limits.
fn parse(text: &str, limits: &Limits) -> Result<Doc, ReadError> {
    match json::parse(text, limits).or_else(|| lines::parse(text, limits)) {
        Some(doc) => Ok(doc),
        None => parse_yaml(text, limits),
    }
}

/// Whether each fast reader (a whole JSON file, one JSON value a line) that takes this text
/// reads exactly what the YAML reader reads; text that no fast reader takes agrees at once.
/// For the differential fuzz target (`fuzz/fuzz_targets/fast_readers.rs`).
#[doc(hidden)]
pub fn fast_readers_agree(text: &str) -> Result<(), String> {
    let limits = &Limits::DEFAULT;
    for (name, fast) in [("json", json::parse(text, limits)), ("lines", lines::parse(text, limits))] {
        if let Some(fast) = fast {
            agree(name, &fast, parse_yaml(text, limits))?;
        }
    }
    Ok(())
}

/// Whether the YAML reader read what a fast reader read.
fn agree(name: &str, fast: &Doc, full: Result<Doc, ReadError>) -> Result<(), String> {
    match full {
        Ok(full) if full == *fast => Ok(()),
        Ok(full) => Err(format!("the {name} reader read {fast:?}, the YAML reader {full:?}")),
        Err(e) => Err(format!("the {name} reader read {fast:?}, the YAML reader refused: {}", e.message)),
    }
}

fn parse_yaml(text: &str, limits: &Limits) -> Result<Doc, ReadError> {
    let options = granit_parser::options! {
        flow_nesting_limit: limits.transcript_depth.saturating_add(1),
        block_nesting_limit: limits.transcript_depth.saturating_add(1),
    };
    let mut b = Builder {
        text,
        limits,
        stack: vec![],
        anchors: Default::default(),
        nodes: 0,
        aliases: 0,
        root: None,
        top: vec![],
        lists: HashMap::new(),
    };
    for next in Parser::new_from_str_with_options(text, options) {
        let (event, span) = next.map_err(|e| scan_error(&e, text, limits))?;
        let at = Pos { line: span.start.line(), offset: span.start.byte_offset().unwrap_or(0) };
        b.event(event, at)?;
    }
    let root = b.root.take().ok_or_else(|| ReadError::at("the file is empty", None, text))?;
    Ok(Doc { root, top: b.top, lists: b.lists })
}

impl Builder<'_> {
    fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), ReadError> {
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                let node = scalar(&value, style, tag.as_deref()).map_err(|m| self.error(m, at))?;
                self.count(1, at)?;
                self.note_start(at);
                self.attach(node, anchor, at)
            }
            Event::SequenceStart(_, anchor, tag) => self.open(false, anchor, tag.as_deref(), at),
            Event::MappingStart(_, anchor, tag) => self.open(true, anchor, tag.as_deref(), at),
            Event::SequenceEnd | Event::MappingEnd => self.close(at),
            Event::Alias(id) => self.alias(id, at),
            Event::DocumentStart(..) if self.root.is_some() => Err(self.error(MORE_THAN_ONE, at)),
            _ => Ok(()),
        }
    }

    fn open(&mut self, is_map: bool, anchor: usize, tag: Option<&Tag>, at: Pos) -> Result<(), ReadError> {
        // `!!seq` and `!!map` are the only tags a collection may carry.
        if let Some(t) = tag
            && !matches!(t.core_suffix(), Some("seq" | "map"))
        {
            return Err(self.error(format!("unsupported tag `{}`", tag_words(t)), at));
        }
        if self.stack.len() >= self.limits.transcript_depth {
            return Err(self.error(too_deep(self.limits), at).too_large());
        }
        self.count(1, at)?;
        self.note_start(at);
        self.stack.push(Frame { items: vec![], is_map, anchor, keys: None, positions: vec![] });
        Ok(())
    }

    /// Notes where a value starts when it is a value of the root mapping or an item of a list
    /// inside it (an event): the places diagnostics point at.
    fn note_start(&mut self, at: Pos) {
        if !(1..=2).contains(&self.stack.len()) {
            return;
        }
        if let Some(parent) = self.stack.last_mut()
            && (!parent.is_map || parent.items.len() % 2 == 1)
        {
            parent.positions.push(at);
        }
    }

    fn close(&mut self, at: Pos) -> Result<(), ReadError> {
        let Some(Frame { items, is_map, anchor, positions, .. }) = self.stack.pop() else {
            return Err(self.error("unbalanced YAML", at));
        };
        let node = if is_map {
            let mut entries = Vec::with_capacity(items.len() / 2);
            let mut it = items.into_iter();
            while let (Some(k), Some(v)) = (it.next(), it.next()) {
                entries.push((k, v));
            }
            Yaml::Map(entries)
        } else {
            Yaml::Seq(items)
        };
        match self.stack.as_slice() {
            [] => self.top = positions,
            [root] => {
                let entry = root.items.len() / 2;
                self.lists.insert(entry, positions);
            }
            _ => {}
        }
        self.attach(node, anchor, at)
    }

    fn alias(&mut self, id: usize, at: Pos) -> Result<(), ReadError> {
        self.aliases += 1;
        if self.aliases > self.limits.transcript_aliases {
            return Err(self.error(format!("more than {} aliases", self.limits.transcript_aliases), at).too_large());
        }
        let Some((node, size)) = self.anchors.get(&id).cloned() else {
            return Err(self.error("an alias names no anchor", at));
        };
        self.count(size, at)?;
        self.note_start(at);
        self.attach(node, 0, at)
    }

    /// Adds a finished value to the collection being built (or makes it the root).
    fn attach(&mut self, node: Yaml, anchor: usize, at: Pos) -> Result<(), ReadError> {
        if anchor != 0 {
            let size = node_count(&node);
            self.anchors.insert(anchor, (node.clone(), size));
        }
        let Some(parent) = self.stack.last_mut() else {
            if self.root.is_some() {
                return Err(self.error(MORE_THAN_ONE, at));
            }
            self.root = Some(node);
            return Ok(());
        };
        let is_key = parent.is_map && parent.items.len() % 2 == 0;
        if is_key && let Some(dup) = duplicate(parent, &node) {
            return Err(self.error(format!("the key {dup} is given twice"), at));
        }
        parent.items.push(node);
        Ok(())
    }

    fn count(&mut self, n: usize, at: Pos) -> Result<(), ReadError> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > self.limits.transcript_values {
            let most = self.limits.transcript_values;
            let message = format!("more than {most} values (aliases count each time they are used)");
            return Err(self.error(message, at).too_large());
        }
        Ok(())
    }

    fn error(&self, message: impl Into<String>, at: Pos) -> ReadError {
        ReadError::at(message, Some(at.line), self.text)
    }
}

const MORE_THAN_ONE: &str = "the file holds more than one YAML document; a transcript is one";

impl ReadError {
    fn at(message: impl Into<String>, line: Option<usize>, text: &str) -> ReadError {
        let line = line.filter(|l| *l > 0);
        let span = line.map(|l| line_span(text, line_start(text, l)));
        ReadError { message: message.into(), line, span, problem: Problem::Syntax }
    }

    fn too_large(self) -> ReadError {
        ReadError { problem: Problem::TooLarge, ..self }
    }
}

/// Whether `key` repeats a key of the mapping being built; its words if so.
fn duplicate(map: &mut Frame, key: &Yaml) -> Option<String> {
    const LINEAR: usize = 32;
    if map.keys.is_none() && map.items.len() < 2 * LINEAR {
        return map.items.iter().step_by(2).any(|k| k == key).then(|| quoted(key));
    }
    let items = &map.items;
    let seen = map.keys.get_or_insert_with(|| items.iter().step_by(2).map(key_text).collect());
    (!seen.insert(key_text(key))).then(|| quoted(key))
}

fn key_text(key: &Yaml) -> String {
    format!("{key:?}")
}

/// A key or value in a message, cut short when long.
fn quoted(y: &Yaml) -> String {
    match y {
        Yaml::Str(s) => format!("`{}`", cut(s)),
        Yaml::Int(i) => format!("`{i}`"),
        Yaml::Bool(b) => format!("`{b}`"),
        Yaml::Null => "`null`".into(),
        other => other.kind().to_string(),
    }
}

/// Text cut to `MAX_QUOTED` characters, so that a message never echoes a huge token.
pub fn cut(s: &str) -> Cow<'_, str> {
    cut_to(s, MAX_QUOTED)
}

fn cut_to(s: &str, chars: usize) -> Cow<'_, str> {
    match s.char_indices().nth(chars) {
        Some((at, _)) => Cow::Owned(format!("{}…", &s[..at])),
        None => Cow::Borrowed(s),
    }
}

fn node_count(y: &Yaml) -> usize {
    match y {
        Yaml::Seq(items) => 1 + items.iter().map(node_count).sum::<usize>(),
        Yaml::Map(entries) => 1 + entries.iter().map(|(k, v)| node_count(k) + node_count(v)).sum::<usize>(),
        _ => 1,
    }
}

fn tag_words(t: &Tag) -> String {
    let text = format!("{}{}", t.original_handle(), t.suffix());
    cut(&text).into_owned()
}

/// A scalar as the YAML 1.2 core schema reads it: a plain scalar is resolved (null, bool,
/// int, float, else string); a quoted or block one is a string; a tag forces its type.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Yaml, String> {
    let Some(tag) = tag else {
        return Ok(if style == ScalarStyle::Plain { resolve_plain(text) } else { Yaml::Str(text.to_string()) });
    };
    let forced = match tag.core_suffix() {
        Some("str") => return Ok(Yaml::Str(text.to_string())),
        Some("null") => matches!(resolve_plain(text), Yaml::Null).then_some(Yaml::Null),
        Some("bool") => Some(resolve_plain(text)).filter(|y| matches!(y, Yaml::Bool(_))),
        Some("int") => Some(resolve_plain(text)).filter(|y| matches!(y, Yaml::Int(_))),
        Some("float") => match resolve_plain(text) {
            Yaml::Int(i) => Some(Yaml::Float(i as f64)),
            f @ Yaml::Float(_) => Some(f),
            _ => None,
        },
        // The non-specific tag `!` makes any scalar a string.
        _ if tag_words(tag) == "!" => return Ok(Yaml::Str(text.to_string())),
        _ => return Err(format!("unsupported tag `{}`", tag_words(tag))),
    };
    forced.ok_or_else(|| format!("`{}` does not fit its tag `{}`", cut(text), tag_words(tag)))
}

/// The core schema's resolution of a plain scalar (YAML 1.2.2, 10.3.2).
pub fn resolve_plain(s: &str) -> Yaml {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Yaml::Null,
        "true" | "True" | "TRUE" => return Yaml::Bool(true),
        "false" | "False" | "FALSE" => return Yaml::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Yaml::Float(f64::NAN),
        _ => {}
    }
    if let Some(i) = core_int(s) {
        return i;
    }
    if let Some(f) = core_float(s) {
        return Yaml::Float(f);
    }
    Yaml::Str(s.to_string())
}

/// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`. An integer too large for 64 bits is kept as
/// a number (a float), so that it is never silently a string.
fn core_int(s: &str) -> Option<Yaml> {
    let radix = |digits: &str, radix: u32| {
        let ok = !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix));
        ok.then(|| i64::from_str_radix(digits, radix).map_or(Yaml::Float(f64::INFINITY), Yaml::Int))
    };
    if let Some(octal) = s.strip_prefix("0o") {
        return radix(octal, 8);
    }
    if let Some(hex) = s.strip_prefix("0x") {
        return radix(hex, 16);
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.parse::<i64>().map_or_else(|_| Yaml::Float(s.parse().unwrap_or(f64::INFINITY)), Yaml::Int))
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` and `[-+]?\.(inf|Inf|INF)`.
fn core_float(s: &str) -> Option<f64> {
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(if s.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY });
    }
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (unsigned, None),
    };
    // With a point (`1.5`, `1.`, `.5`), Rust's parse below refuses a whole or a fraction that
    // is not digits, and a point alone; without one, it would take words (`inf`, `nan`).
    let mantissa_ok = mantissa.contains('.') || (!mantissa.is_empty() && digits(mantissa));
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if !(mantissa_ok && exponent_ok) {
        return None;
    }
    s.parse::<f64>().ok()
}

fn line_start(text: &str, line: usize) -> usize {
    text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum()
}

/// What a transcript nested past `limits` is told.
fn too_deep(limits: &Limits) -> String {
    format!("lists and mappings nest more than {} deep", limits.transcript_depth)
}

/// The parser's own words for a syntax error, without its offsets (the line is kept). Its
/// nesting limit is the transcript's: a text nested past it is too large, as when the
/// reader's own count finds it (a flow `[[[...]]]` or JSON meets the parser's first).
fn scan_error(e: &granit_parser::ScanError, text: &str, limits: &Limits) -> ReadError {
    let what = e.info();
    let line = Some(e.marker().line());
    if what.contains("recursion limit") {
        return ReadError::at(too_deep(limits), line, text).too_large();
    }
    let what = if what.is_empty() { "the file is not valid YAML".to_string() } else { format!("invalid YAML: {what}") };
    ReadError::at(cut_to(&what, 200), line, text)
}

#[cfg(test)]
#[allow(clippy::panic, reason = "tests fail loudly")]
mod tests {
    use super::*;

    /// Line feeds counted a block at a time are those counted one by one: none, a few, a block
    /// of nothing but line feeds (255 fit the byte a block is counted in), and lengths either
    /// side of a block's.
    #[test]
    fn line_feeds_are_counted_as_one_by_one() {
        let mixed: Vec<u8> = (0..2000).map(|i| if i % 7 == 0 || i % 11 == 0 { b'\n' } else { b'x' }).collect();
        let all = [b'\n'; 1000];
        for text in [&mixed[..], &all[..]] {
            for len in [0, 1, 7, 254, 255, 256, 510, 511, 1000, text.len()] {
                let part = &text[..len.min(text.len())];
                assert_eq!(line_feeds(part), part.iter().filter(|b| **b == b'\n').count(), "{len} bytes");
            }
        }
    }

    /// The remembered line gives the same spans as searching afresh for every start, for
    /// starts in order on one line, on several lines, and out of order.
    #[test]
    fn line_ends_remembered_equal_line_ends_searched() {
        let searched = |text: &str, start: usize| {
            let start = start.min(text.len());
            start..text[start..].find('\n').map_or(text.len(), |n| start + n)
        };
        for text in ["{\"events\": [1, 2, 3]}", "a\nbb\n\nccc\n", "\n\nx", "one line, no end", ""] {
            let starts: Vec<usize> =
                (0..=text.len() + 1).chain((0..=text.len()).rev()).chain([0, 3, 1, 9, 2]).collect();
            let mut ends = LineEnds::new(text);
            for start in starts {
                assert_eq!(ends.span_from(start), searched(text, start), "{text:?} from {start}");
            }
        }
    }

    /// The fuzz target's comparison: a fast reader's document agrees with the YAML reader's
    /// only when they are equal, values, lines and offsets alike.
    #[test]
    fn a_fast_reader_agrees_only_with_the_same_document() {
        let text = "rules: \"a-game\"\nevents:\n  - {\"by\": \"table\"}\n";
        let read = || parse_yaml(text, &Limits::DEFAULT).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(agree("lines", &read(), Ok(read())), Ok(()));
        let mut moved = read();
        moved.top[0].offset += 1;
        assert!(agree("lines", &moved, Ok(read())).is_err_and(|why| why.contains("the YAML reader Doc")));
        let refused = parse_yaml("a: [", &Limits::DEFAULT).map(|_| read());
        assert!(agree("json", &read(), refused).is_err_and(|why| why.contains("refused")));
        assert_eq!(fast_readers_agree(text), Ok(()));
    }
}
