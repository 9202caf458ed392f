//! `shinpan referee`: a live referee over a pipe. Requests arrive as JSON Lines on standard
//! input; each gets one reply line on standard output, flushed before the next line is read.
//! One process serves many games, each a `shinpan::Game` kept by id, on this one thread (a
//! game stays on the thread that made it). The protocol is docs/referee.md.

mod games;
mod request;

use std::panic::AssertUnwindSafe;

use serde_json::{Map, Value as Json, json};
use shinpan::codes;

use crate::exit::ExitStatus;
use crate::output::say;
use games::{Answer, Games, NotDone};
use request::{Failure, Id, Op, Request};

/// What a client can make the process hold.
#[derive(Clone, Copy)]
pub struct Limits {
    /// `--only-builtin-rules`: no rules file is read.
    pub builtin_only: bool,
    /// Games open at once.
    pub max_games: usize,
    /// Longest request line, in bytes.
    pub max_line_bytes: u64,
    /// Events one game takes.
    pub max_events: usize,
}

/// Serves requests until standard input ends (exit 0), or until a reply cannot be written
/// (exit 74) or standard input cannot be read (exit 2).
pub fn run(limits: &Limits) -> ExitStatus {
    let max_line = usize::try_from(limits.max_line_bytes).unwrap_or(usize::MAX);
    let mut games = Games::new(*limits);
    let mut input = std::io::stdin().lock();
    let mut line = vec![];
    loop {
        let too_long = match shinpan::files::read_line_within(&mut input, &mut line, max_line) {
            Ok(Some(too_long)) => too_long,
            Ok(None) => return ExitStatus::Success,
            Err(e) => {
                eprintln!("shinpan: cannot read the requests: {}", shinpan::files::io_words(&e));
                return ExitStatus::Errors;
            }
        };
        // A blank line (spaces and tabs, as `check --stream` reads one) is no request: no reply.
        if !too_long && line.iter().all(|b| matches!(b, b' ' | b'\t')) {
            continue;
        }
        let (id, reply) = if too_long { (Id::null(), too_long_reply(max_line)) } else { respond(&mut games, &line) };
        if !say(&(reply_line(&id, reply) + "\n")) {
            return ExitStatus::WriteFailed;
        }
    }
}

/// A reply as one line of JSON: `{"id": ...}` with the request's id as it was written, then
/// the reply's own fields.
fn reply_line(id: &Id, reply: Map<String, Json>) -> String {
    let fields = Json::Object(reply).to_string();
    match fields.strip_prefix('{').filter(|rest| *rest != "}") {
        Some(rest) => format!("{{\"id\":{},{rest}", id.text()),
        None => format!("{{\"id\":{}}}", id.text()),
    }
}

/// The reply to a line longer than the cap: its id is unknown, as the line was not kept.
fn too_long_reply(max_line: usize) -> Map<String, Json> {
    let message = format!("the request line is longer than {max_line} bytes (--max-line-bytes): it was skipped unread");
    failed(&Failure::new(codes::REFEREE_LIMIT, message))
}

/// The reply to one request line, with the id to echo.
fn respond(games: &mut Games, line: &[u8]) -> (Id, Map<String, Json>) {
    match request::read(line) {
        Ok(request) => {
            let id = request.id.clone();
            (id, reply(answered(games, request)))
        }
        Err((id, failure)) => (id, failed(&failure)),
    }
}

/// A request's answer. Should shinpan fail inside, the reply says so and the process goes on
/// serving the other games; the game it was playing is closed, as it may be half changed.
fn answered(games: &mut Games, request: Request) -> Answer {
    let game = match &request.op {
        Op::On { game, .. } => Some(game.clone()),
        Op::New(_) => None,
    };
    let answer = std::panic::catch_unwind(AssertUnwindSafe(|| match request.op {
        Op::New(new) => games.open(new),
        Op::On { game, op } => games.on(&game, op),
    }));
    answer.unwrap_or_else(|_| {
        let mut message = "shinpan failed inside while answering (an internal error, please report it)".to_string();
        if let Some(game) = game {
            games.drop_game(&game);
            message.push_str(&format!("; game {} is closed", Json::from(game)));
        }
        Err(NotDone::Failed(Failure::new(codes::REFEREE_INTERNAL, message)))
    })
}

/// The fields after the `id`: `"ok": true, ...the answer`, or `"ok": false, "refused" | "error"`.
fn reply(answer: Answer) -> Map<String, Json> {
    match answer {
        Ok(fields) => {
            let mut reply = Map::from_iter([("ok".to_string(), json!(true))]);
            reply.extend(fields);
            reply
        }
        Err(NotDone::Refused(report)) => not_ok("refused", report.json()),
        Err(NotDone::Failed(failure)) => failed(&failure),
    }
}

fn failed(failure: &Failure) -> Map<String, Json> {
    not_ok("error", json!({"code": failure.code, "message": failure.message}))
}

/// `"ok": false`, and why under `key`.
fn not_ok(key: &str, why: Json) -> Map<String, Json> {
    Map::from_iter([("ok".to_string(), json!(false)), (key.to_string(), why)])
}
