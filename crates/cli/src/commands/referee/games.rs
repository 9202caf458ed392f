//! The open games, by id, and what each request does to them: the referee's answers as the
//! fields of a reply, a refusal with `check`'s verdict, or a failure with a stable code.

use std::collections::HashMap;

use serde_json::{Map, Value as Json, json};
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
    fn from(e: RulesError) -> NotDone {
        NotDone::Failed(Failure::new(e.code, e.message))
    }
}

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
        let id = format!("g{}", self.opened + 1);
        let rules = self.rules(&new.rules)?;
        let game = match new.start {
            Start::Fresh { players, variant } => fresh(rules, players, &variant, new.seed, &id)?,
            Start::Resumed { transcript } => rules.resume_game(&id, &transcript, new.seed)?,
        };
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
        if self.limits.builtin_only && !shinpan::editor::builtin_games().any(|g| g == name) {
            let message = format!(
                "{} is no built-in rules name, and this referee (--only-builtin-rules) reads no rules file",
                Json::from(name)
            );
            return Err(Failure::new(codes::USAGE, message).into());
        }
        Ok(Rules::new(name)?)
    }
}

/// A game from its first event: the rules with the variant's parameters, among the players.
fn fresh(
    rules: Rules,
    players: Option<Players>,
    variant: &[(String, String)],
    seed: u64,
    id: &str,
) -> Result<Game, NotDone> {
    let rules = variant.iter().try_fold(rules, |r, (key, value)| r.with_variant(key, value))?;
    let mut game = match players {
        Some(Players::Named(names)) => rules.new_game_named(&names, seed)?,
        count => rules.new_game(player_count(&rules, count)?, seed)?,
    };
    game.set_name(id);
    Ok(game)
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
