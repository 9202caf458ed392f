//! The referee's requests: one JSON object a line, read into what to do, or the reason it
//! cannot be done (with the request's `id` when one could be read, so the reply carries it).

use serde_json::{Map, Value as Json};

use shinpan::codes;

/// One request: the `id` to echo (null when it has none) and what it asks.
pub struct Request {
    pub id: Json,
    pub op: Op,
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
pub fn read(line: &[u8]) -> Result<Request, (Json, Failure)> {
    let value: Json = serde_json::from_slice(line)
        .map_err(|e| (Json::Null, Failure::bad(format!("the line is not JSON text: {e}"))))?;
    let Json::Object(fields) = value else {
        return Err((Json::Null, Failure::bad("a request is a JSON object: {\"id\": ..., \"op\": ...}")));
    };
    let id = fields.get("id").cloned().unwrap_or(Json::Null);
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
