//! The open games, by id, and what each request does to them: the referee's answers as the
//! fields of a reply, a refusal with `check`'s verdict, or a failure with a stable code.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value as Json, json};
use shinpan::diag::Diag;
use shinpan::{Game, Refused, Report, Rules, RulesError, codes};

use super::Limits;
use super::request::{Failure, GameOp, NewGame, Players, Start};

/// Why a request was not done: an event (or a transcript to resume) that `check` would not
/// pass, with its verdict; or a request that could not be done at all.
pub enum NotDone {
    Refused(Box<Report>),
    Failed(Failure),
}

impl From<Failure> for NotDone {
    fn from(failure: Failure) -> NotDone {
        NotDone::Failed(failure)
    }
}

impl From<Refused> for NotDone {
    fn from(refused: Refused) -> NotDone {
        NotDone::Refused(refused.report)
    }
}

impl From<RulesError> for NotDone {
    /// A rules file that does not compile is named with the place of its first error, which
    /// the person holding the file needs to fix it.
    fn from(e: RulesError) -> NotDone {
        let message = match e.diagnostics.first().and_then(Diag::location) {
            Some(place) => format!("{place}: {}", e.message),
            None => e.message,
        };
        NotDone::Failed(Failure::new(e.code, message))
    }
}

/// What the verdict on a transcript refused by `new` calls it: no game was opened, so it has
/// no game id (and must not name one that a later game gets).
const REFUSED_TRANSCRIPT: &str = "transcript";

/// The fields of a reply after `"id"` and `"ok": true`.
pub type Answer = Result<Map<String, Json>, NotDone>;

/// The games open, and how many were ever opened (so that no id is given twice).
pub struct Games {
    open: HashMap<String, Game>,
    opened: u64,
    limits: Limits,
}

impl Games {
    pub fn new(limits: Limits) -> Games {
        Games { open: HashMap::new(), opened: 0, limits }
    }

    /// Opens a game: its id, its players and what is legal where it waits.
    pub fn open(&mut self, new: NewGame) -> Answer {
        if self.open.len() >= self.limits.max_games {
            let message = format!("{} games are open, the most the referee holds: close one first", self.open.len());
            return Err(Failure::new(codes::REFEREE_LIMIT, message).into());
        }
        let rules = self.rules(&new.rules)?;
        let mut game = match new.start {
            Start::Fresh { players, variant } => fresh(rules, players, &variant, new.seed)?,
            Start::Resumed { transcript } => self.resumed(&rules, &new.rules, &transcript, new.seed)?,
        };
        // The id is taken only now that the game exists: a refused `new` takes none.
        let id = format!("g{}", self.opened + 1);
        game.set_name(&id);
        let mut answer = fields([("game", json!(id)), ("players", json!(game.players()))]);
        answer.extend(position(&game)?);
        self.opened += 1;
        self.open.insert(id, game);
        Ok(answer)
    }

    /// Does `op` to the open game `id`.
    pub fn on(&mut self, id: &str, op: GameOp) -> Answer {
        let max_events = self.limits.max_events;
        let game = self.open.get_mut(id).ok_or_else(|| unknown_game(id))?;
        match op {
            GameOp::Legal => position(game),
            GameOp::Apply(event) => {
                within_events(game, max_events)?;
                game.apply(&event)?;
                Ok(progress(game))
            }
            GameOp::Draw => {
                within_events(game, max_events)?;
                let event = game.draw()?;
                Ok(with(progress(game), "event", json!(event)))
            }
            GameOp::State { all } => Ok(fields([("state", Json::Object(state(game, all)))])),
            GameOp::Undo => {
                let undone = game.undo()?;
                Ok(with(progress(game), "undone", json!(undone)))
            }
            GameOp::Transcript => Ok(fields([("transcript", json!(game.transcript()))])),
            GameOp::Verdict => Ok(fields([("verdict", game.verdict().json())])),
            GameOp::Close => {
                self.open.remove(id);
                Ok(Map::new())
            }
        }
    }

    /// Closes a game whose state can no longer be trusted (shinpan failed inside on it).
    pub fn drop_game(&mut self, id: &str) {
        self.open.remove(id);
    }

    /// The rules a request names, within `--only-builtin-rules`. `Rules` compiles each once
    /// per thread, so asking again costs a lookup.
    fn rules(&self, name: &str) -> Result<Rules, NotDone> {
        if !shinpan::editor::builtin_games().any(|g| g == name) {
            if self.limits.builtin_only {
                let message = format!(
                    "{} is no built-in rules name, and this referee (--only-builtin-rules) reads no rules file",
                    Json::from(name)
                );
                return Err(Failure::new(codes::USAGE, message).into());
            }
            rules_file(name)?;
        }
        Ok(Rules::new(name)?)
    }

    /// The game a transcript has reached, within `--max-events`; the verdict on it, which
    /// names the rules the request named, when it is not a legal game.
    fn resumed(&self, rules: &Rules, named: &str, transcript: &str, seed: u64) -> Result<Game, NotDone> {
        let game = rules.resume_game(REFUSED_TRANSCRIPT, transcript, seed).map_err(|mut refused| {
            // A transcript that could not be read has not said its rules: they are the request's.
            refused.report.rules.get_or_insert_with(|| named.to_string());
            NotDone::from(refused)
        })?;
        let (taken, most) = (game.event_count(), self.limits.max_events);
        if taken > most {
            let message =
                format!("the transcript has {taken} events, more than the {most} the referee lets one game take");
            return Err(Failure::new(codes::REFEREE_LIMIT, message).into());
        }
        Ok(game)
    }
}

/// Checks, without reading it, that a name that is not a built-in one is a rules file: a
/// path ending in `.rules` (relative to the working directory) that leads to such a file. Any
/// other file would be read as rules, and its lines quoted in the error.
fn rules_file(name: &str) -> Result<(), Failure> {
    if !name.ends_with(".rules") {
        return Err(Failure::new(codes::USAGE, not_rules_words(name)));
    }
    shinpan::files::real_file_with_extension(Path::new(name), &["rules"])
        .map(|_| ())
        .map_err(|why| Failure::new(codes::USAGE, format!("cannot read rules file `{}`: {why}", cut(name))))
}

/// Why `name` names no rules: a mistyped built-in name (with the closest one), or a path
/// that is not a `.rules` file.
fn not_rules_words(name: &str) -> String {
    if name.contains(['/', '.']) {
        return format!("`{}` is not a rules file: its name must end in `.rules`", cut(name));
    }
    let built_in: Vec<&str> = shinpan::editor::builtin_games().collect();
    let hint = shinpan::diag::did_you_mean(name, built_in.iter().copied())
        .map_or(String::new(), |k| format!(" (did you mean `{k}`?)"));
    format!(
        "unknown rules `{}`{hint}; built in: {}; a rules file is named by its path, ending in `.rules`",
        cut(name),
        built_in.join(", ")
    )
}

/// A name from a request as a message quotes it: its first 200 characters (a request line
/// may be megabytes long).
fn cut(name: &str) -> String {
    match name.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &name[..at]),
        None => name.to_string(),
    }
}

/// A game from its first event: the rules with the variant's parameters, among the players.
fn fresh(rules: Rules, players: Option<Players>, variant: &[(String, String)], seed: u64) -> Result<Game, NotDone> {
    let rules = variant.iter().try_fold(rules, |r, (key, value)| r.with_variant(key, value))?;
    match players {
        Some(Players::Named(names)) => Ok(rules.new_game_named(&names, seed)?),
        count => Ok(rules.new_game(player_count(&rules, count)?, seed)?),
    }
}

/// How many players: the count asked for, within the game's range, or the game's only count.
/// Checked before the game is made, which names each player: a count in the billions would
/// be billions of names.
fn player_count(rules: &Rules, asked: Option<Players>) -> Result<usize, NotDone> {
    let (lo, hi) = rules.player_counts()?;
    let (words, game) = (rules.player_count_words()?, rules.game()?);
    match asked {
        Some(Players::Count(n)) if (lo as u64..=hi as u64).contains(&n) => Ok(n as usize),
        None if lo == hi => Ok(lo),
        Some(Players::Count(n)) => Err(Failure::new(codes::USAGE, format!("`{game}` is for {words}, not {n}")).into()),
        _ => Err(Failure::new(codes::USAGE, format!("`{game}` is for {words}: say how many in `players`")).into()),
    }
}

/// Where a game waits: what is legal there, whether it is finished, how many events it took.
fn position(game: &Game) -> Answer {
    let legal: Vec<Json> = game.legal()?.iter().map(shinpan::LegalEvent::json).collect();
    Ok(with(progress(game), "legal", Json::Array(legal)))
}

/// How far a game has gone: how many events it took, and whether it is finished.
fn progress(game: &Game) -> Map<String, Json> {
    fields([("events", json!(game.event_count())), ("finished", json!(game.finished()))])
}

fn state(game: &Game, all: bool) -> Map<String, Json> {
    if all { game.variables() } else { game.state() }
}

/// Refuses an event past `--max-events`, before the game takes it.
fn within_events(game: &Game, max_events: usize) -> Result<(), Failure> {
    if game.event_count() < max_events {
        return Ok(());
    }
    let message = format!("the game has taken {} events, the most the referee lets one game take", game.event_count());
    Err(Failure::new(codes::REFEREE_LIMIT, message))
}

fn unknown_game(id: &str) -> NotDone {
    Failure::new(codes::REFEREE_UNKNOWN_GAME, format!("no game {} is open", Json::from(id))).into()
}

fn fields<const N: usize>(pairs: [(&str, Json); N]) -> Map<String, Json> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn with(mut answer: Map<String, Json>, key: &str, value: Json) -> Map<String, Json> {
    answer.insert(key.to_string(), value);
    answer
}
