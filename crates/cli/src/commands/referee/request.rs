//! The referee's requests: one JSON object a line, read into what to do, or the reason it
//! cannot be done (with the request's `id` when one could be read, so the reply carries it).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value as Json};

use shinpan::codes;

/// One request: the `id` to echo (null when it has none) and what it asks.
pub struct Request {
    pub id: Id,
    pub op: Op,
}

/// A request's `id` as the JSON text it was written in, to be echoed as it is: read as a
/// value, `123456789012345678901234567890` would come back rounded through a float and
/// `1e400` would not be read at all. Whitespace outside strings is left out, so that a reply
/// stays one line for every reader (some split lines at a `\r`).
#[derive(Clone)]
pub struct Id(Option<String>);

impl Id {
    /// The id of a request that has none, or whose line could not be read.
    pub fn null() -> Id {
        Id(None)
    }

    /// The id's JSON text.
    pub fn text(&self) -> &str {
        self.0.as_deref().unwrap_or("null")
    }

    /// The id written in `raw`, unless it nests deeper than the rest of a request may: within
    /// serde_json's limit of 128 levels, the request object being one, a value nests 126.
    fn of<E: de::Error>(raw: &RawValue) -> Result<Id, E> {
        let (text, depth) = compact(raw.get());
        if depth > 126 {
            return Err(E::custom("recursion limit exceeded"));
        }
        Ok(Id(Some(text)))
    }
}

/// JSON text without its whitespace outside strings, and how deep its brackets nest.
fn compact(json: &str) -> (String, usize) {
    let (mut out, mut depth, mut deepest) = (String::with_capacity(json.len()), 0usize, 0);
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            (in_string, escaped) = (escaped || c != '"', !escaped && c == '\\');
        } else if c.is_ascii_whitespace() {
            continue;
        } else {
            in_string = c == '"';
            match c {
                '[' | '{' => depth += 1,
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            deepest = deepest.max(depth);
        }
        out.push(c);
    }
    (out, deepest)
}

/// A request line as read: an object, its `id` kept as text; or any other JSON value.
enum Line {
    Object { id: Id, fields: Map<String, Json> },
    NotAnObject,
}

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Line, D::Error> {
        deserializer.deserialize_any(LineVisitor)
    }
}

/// Reads a line's fields as `serde_json::Value` reads them (the same errors, the same depth
/// limit, a repeated key's last value), but the `id` as its text.
struct LineVisitor;

impl<'de> Visitor<'de> for LineVisitor {
    type Value = Line;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line, A::Error> {
        let (mut id, mut fields) = (Id::null(), Map::new());
        while let Some(key) = map.next_key::<String>()? {
            if key == "id" {
                id = Id::of(&map.next_value::<Box<RawValue>>()?)?;
            } else {
                fields.insert(key, map.next_value()?);
            }
        }
        Ok(Line::Object { id, fields })
    }

    /// Read to its end, as a value would be, so that what follows it is still checked.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Line, A::Error> {
        while seq.next_element::<Json>()?.is_some() {}
        Ok(Line::NotAnObject)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Line, E> {
        Ok(Line::NotAnObject)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Line, E> {
        Ok(Line::NotAnObject)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Line, E> {
        Ok(Line::NotAnObject)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Line, E> {
        Ok(Line::NotAnObject)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Line, E> {
        Ok(Line::NotAnObject)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Line, E> {
        Ok(Line::NotAnObject)
    }
}

/// What a request asks: a new game, or something of an open game.
pub enum Op {
    New(NewGame),
    On { game: String, op: GameOp },
}

/// What a request asks of an open game.
pub enum GameOp {
    Legal,
    Apply(Json),
    Draw,
    /// The rules' `view`, or (`all`) every variable.
    State {
        all: bool,
    },
    Undo,
    Transcript,
    Verdict,
    Close,
}

/// A new game: its rules, and either its players (with a variant) or a transcript to resume.
pub struct NewGame {
    pub rules: String,
    pub seed: u64,
    pub start: Start,
}

/// Where a new game starts.
pub enum Start {
    /// From its first event, among these players, with these parameters (each value as
    /// YAML text: JSON is YAML).
    Fresh { players: Option<Players>, variant: Vec<(String, String)> },
    /// From the last event of a transcript, which says the players and parameters.
    Resumed { transcript: String },
}

/// The players of a new game: how many (named as the rules name them), or their names.
pub enum Players {
    Count(u64),
    Named(Vec<String>),
}

/// Why a request got no answer of its own: a stable code (`shinpan::codes`) and why, in words.
#[derive(Debug)]
pub struct Failure {
    pub code: &'static str,
    pub message: String,
}

impl Failure {
    pub fn new(code: &'static str, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }

    fn bad(message: impl Into<String>) -> Failure {
        Failure::new(codes::REFEREE_BAD_REQUEST, message)
    }
}

/// Reads a request line: the request, or why not with whatever `id` the line has.
pub fn read(line: &[u8]) -> Result<Request, (Id, Failure)> {
    let line: Line = serde_json::from_slice(line)
        .map_err(|e| (Id::null(), Failure::bad(format!("the line is not JSON text: {e}"))))?;
    let Line::Object { id, fields } = line else {
        return Err((Id::null(), Failure::bad("a request is a JSON object: {\"id\": ..., \"op\": ...}")));
    };
    match op(&Fields(&fields)) {
        Ok(op) => Ok(Request { id, op }),
        Err(failure) => Err((id, failure)),
    }
}

/// What a request's fields ask for.
fn op(fields: &Fields) -> Result<Op, Failure> {
    let name = fields.text("op")?;
    if name == "new" {
        return new_game(fields).map(Op::New);
    }
    let op = match name {
        "legal" => GameOp::Legal,
        "apply" => GameOp::Apply(fields.required("event")?.clone()),
        "draw" => GameOp::Draw,
        "state" => GameOp::State { all: fields.flag("all")? },
        "undo" => GameOp::Undo,
        "transcript" => GameOp::Transcript,
        "verdict" => GameOp::Verdict,
        "close" => GameOp::Close,
        other => {
            let known = "new, legal, apply, draw, state, undo, transcript, verdict, close";
            let message = format!("no op is called {}: the ops are {known}", Json::from(other));
            return Err(Failure::new(codes::REFEREE_UNKNOWN_OP, message));
        }
    };
    Ok(Op::On { game: fields.text("game")?.to_string(), op })
}

fn new_game(fields: &Fields) -> Result<NewGame, Failure> {
    let rules = fields.text("rules")?.to_string();
    let seed = match fields.0.get("seed") {
        None => 0,
        Some(seed) => seed.as_u64().ok_or_else(|| Failure::bad("`seed` is a whole number from 0 to 2^64 - 1"))?,
    };
    let start = match fields.0.get("transcript") {
        None => Start::Fresh { players: players(fields)?, variant: variant(fields)? },
        Some(Json::String(transcript)) => {
            // A transcript says its own players and parameters: two sources would disagree.
            if let Some(key) = ["players", "variant"].into_iter().find(|k| fields.0.contains_key(*k)) {
                return Err(Failure::bad(format!("`{key}` comes from the transcript: give one or the other")));
            }
            Start::Resumed { transcript: transcript.clone() }
        }
        Some(_) => return Err(Failure::bad("`transcript` is the text of a transcript (a string)")),
    };
    Ok(NewGame { rules, seed, start })
}

fn players(fields: &Fields) -> Result<Option<Players>, Failure> {
    let wrong = || Failure::bad("`players` is a count of players or a list of their names");
    match fields.0.get("players") {
        None => Ok(None),
        Some(Json::Number(n)) => n.as_u64().map(|n| Some(Players::Count(n))).ok_or_else(wrong),
        Some(Json::Array(names)) => {
            let names: Option<Vec<String>> = names.iter().map(|n| n.as_str().map(str::to_string)).collect();
            names.map(|n| Some(Players::Named(n))).ok_or_else(wrong)
        }
        Some(_) => Err(wrong()),
    }
}

/// The `variant` object as parameters, each value written as JSON (which reads as YAML).
fn variant(fields: &Fields) -> Result<Vec<(String, String)>, Failure> {
    match fields.0.get("variant") {
        None => Ok(vec![]),
        Some(Json::Object(given)) => Ok(given.iter().map(|(k, v)| (k.clone(), v.to_string())).collect()),
        Some(_) => Err(Failure::bad("`variant` is an object of parameters: {\"hand_size\": 9}")),
    }
}

/// A request's fields, read with messages that say which one is wrong.
struct Fields<'a>(&'a Map<String, Json>);

impl Fields<'_> {
    fn required(&self, key: &str) -> Result<&Json, Failure> {
        self.0.get(key).ok_or_else(|| Failure::bad(format!("the request has no `{key}`")))
    }

    fn text(&self, key: &str) -> Result<&str, Failure> {
        self.required(key)?.as_str().ok_or_else(|| Failure::bad(format!("`{key}` is a string")))
    }

    /// A true-or-false field, false when absent.
    fn flag(&self, key: &str) -> Result<bool, Failure> {
        match self.0.get(key) {
            None => Ok(false),
            Some(v) => v.as_bool().ok_or_else(|| Failure::bad(format!("`{key}` is true or false"))),
        }
    }
}
