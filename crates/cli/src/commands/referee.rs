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
use request::{Failure, Op, Request};

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
        let reply = if too_long { too_long_reply(max_line) } else { respond(&mut games, &line) };
        if !say(&(reply.to_string() + "\n")) {
            return ExitStatus::WriteFailed;
        }
    }
}

/// The reply to a line longer than the cap: its id is unknown, as the line was not kept.
fn too_long_reply(max_line: usize) -> Json {
    let message = format!("the request line is longer than {max_line} bytes (--max-line-bytes): it was skipped unread");
    failed(Json::Null, &Failure::new(codes::REFEREE_LIMIT, message))
}

/// The reply to one request line.
fn respond(games: &mut Games, line: &[u8]) -> Json {
    match request::read(line) {
        Ok(request) => {
            let id = request.id.clone();
            reply(id, answered(games, request))
        }
        Err((id, failure)) => failed(id, &failure),
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

/// `{"id", "ok": true, ...the answer}`, or `{"id", "ok": false, "refused" | "error"}`.
fn reply(id: Json, answer: Answer) -> Json {
    match answer {
        Ok(fields) => {
            let mut reply = Map::from_iter([("id".to_string(), id), ("ok".to_string(), json!(true))]);
            reply.extend(fields);
            Json::Object(reply)
        }
        Err(NotDone::Refused(report)) => json!({"id": id, "ok": false, "refused": report.json()}),
        Err(NotDone::Failed(failure)) => failed(id, &failure),
    }
}

fn failed(id: Json, failure: &Failure) -> Json {
    json!({"id": id, "ok": false, "error": {"code": failure.code, "message": failure.message}})
}
