//! `shinpan._shinpan.Game`: one game played move by move (`shinpan::Game`), from Python.
//!
//! A `shinpan::Game` holds `Rc`s: it cannot leave the thread that made it, and neither can its
//! clones, which share those `Rc`s. So a game is made on a worker (the one of the Python thread
//! that asked, as every call is) and lives there for good, in that thread's table (`GAMES`);
//! the Python object is a number and a handle to that worker, and each call is a job sent to
//! it, from whichever Python thread calls. Its copies live beside it. One thread per game
//! would cost a thread (and its 64 MiB of address space) per copy, and a search that copies a
//! game thousands of times would start thousands; a shared pool could not move a game between
//! its threads. The handle keeps the worker going after its Python thread ends; dropping the
//! Python object frees the game there. After a fork the game's thread is not in the child:
//! calls there raise `RuntimeError` (`Worker::run`), and dropping the object leaves the
//! parent's queue untouched.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::Value as Json;

use crate::worker::{Worker, on_worker_kept};

thread_local! {
    /// The games that live on this worker thread, by the number of their Python object.
    static GAMES: RefCell<HashMap<u64, shinpan::Game>> = RefCell::new(HashMap::new());
}

/// The number of the next game, unique in the process (the workers share it).
static NEXT_GAME: AtomicU64 = AtomicU64::new(0);

/// A game under way, living on the worker `owner`.
#[pyclass(frozen, module = "shinpan._shinpan")]
pub struct Game {
    number: u64,
    owner: Worker,
}

/// What a call on a game could not do, made on the worker and raised on the caller (a
/// `shinpan::Refused` holds `Rc`s, so only its verdict line crosses).
pub enum Failure {
    /// Rules that cannot be used as asked, or failed while running.
    Rules(shinpan::RulesError),
    /// A verdict that is not legal where one was needed (a transcript to resume, an event
    /// drawn, rules that failed on an event): raised as `RulesError` with the verdict.
    Refused(Refusal),
    /// An event that is not JSON.
    NotJson(String),
    /// The game is not in its worker's table (cannot happen while its Python object lives).
    Gone,
}

/// A refusal's verdict as a JSON line, with the code and the message an exception gives it.
pub struct Refusal {
    code: &'static str,
    message: String,
    verdict: String,
}

impl From<shinpan::Refused> for Refusal {
    fn from(refused: shinpan::Refused) -> Refusal {
        let code = match (refused.spec_errors.first(), refused.violations.is_empty()) {
            (Some(diag), _) => diag.code,
            (None, false) => shinpan::codes::VIOLATION,
            (None, true) => shinpan::codes::MALFORMED,
        };
        Refusal { code, message: refused.to_string(), verdict: refused.json_line() }
    }
}

impl From<shinpan::Refused> for Failure {
    fn from(refused: shinpan::Refused) -> Failure {
        Failure::Refused(Refusal::from(refused))
    }
}

impl From<shinpan::RulesError> for Failure {
    fn from(e: shinpan::RulesError) -> Failure {
        Failure::Rules(e)
    }
}

impl Failure {
    fn raise(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Rules(e) => crate::raise(py, &e),
            Failure::Refused(r) => refusal_error(py, r),
            Failure::NotJson(why) => PyValueError::new_err(format!("an event must be JSON: {why}")),
            Failure::Gone => PyRuntimeError::new_err("the game is no longer on its thread"),
        }
    }
}

/// A `RulesError` carrying a refusal's code, and its verdict as a dict (`verdict`).
fn refusal_error(py: Python<'_>, r: Refusal) -> PyErr {
    let err = crate::RulesError::new_err(r.message);
    let verdict = py.import("json").and_then(|json| json.call_method1("loads", (r.verdict,)));
    // Setting attributes on a fresh exception cannot fail but for memory; the message stays.
    let _ = err.value(py).setattr("code", r.code);
    if let Ok(verdict) = verdict {
        let _ = err.value(py).setattr("verdict", verdict);
    }
    err
}

/// Makes a game on this Python thread's worker with `make`, and keeps it there.
pub fn start(py: Python<'_>, make: impl FnOnce() -> Result<shinpan::Game, Failure> + Send + 'static) -> PyResult<Game> {
    let number = NEXT_GAME.fetch_add(1, Ordering::Relaxed);
    let (made, owner) = on_worker_kept(py, move || make().map(|game| keep(number, game)))?;
    made.map_err(|f| f.raise(py))?;
    Ok(Game { number, owner })
}

/// Puts a game in this worker's table (runs on the worker).
fn keep(number: u64, game: shinpan::Game) {
    GAMES.with_borrow_mut(|games| games.insert(number, game));
}

/// Runs `work` on the game `number` of this worker's table (runs on the worker).
fn with_game<T>(number: u64, work: impl FnOnce(&mut shinpan::Game) -> Result<T, Failure>) -> Result<T, Failure> {
    GAMES.with_borrow_mut(|games| games.get_mut(&number).map_or(Err(Failure::Gone), work))
}

impl Drop for Game {
    /// Frees the game on its worker, without waiting (the GIL is held here).
    fn drop(&mut self) {
        let number = self.number;
        self.owner.post(move || {
            GAMES.with_borrow_mut(|games| games.remove(&number));
        });
    }
}

impl Game {
    /// Runs `work` on this game where it lives, with the GIL released.
    fn on_game<T: Send + 'static>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut shinpan::Game) -> Result<T, Failure> + Send + 'static,
    ) -> PyResult<T> {
        let number = self.number;
        self.owner.run(py, move || with_game(number, work))?.map_err(|f| f.raise(py))
    }
}

/// The methods `shinpan.Game` (`__init__.py`) wraps: JSON goes in and out as text.
#[pymethods]
impl Game {
    /// The legal events where the game waits, as a JSON array.
    fn legal(&self, py: Python<'_>) -> PyResult<String> {
        self.on_game(py, |g| {
            let legal = g.legal()?;
            Ok(Json::Array(legal.iter().map(shinpan::LegalEvent::json).collect()).to_string())
        })
    }

    /// Takes the event (JSON text): `None`, or the verdict line of its refusal. Rules that
    /// failed while running raise `RulesError` (with the verdict): the event is not at fault.
    fn apply(&self, py: Python<'_>, event: String) -> PyResult<Option<String>> {
        self.on_game(py, move |g| {
            let event: Json = serde_json::from_str(&event).map_err(|e| Failure::NotJson(e.to_string()))?;
            match g.apply(&event) {
                Ok(()) => Ok(None),
                Err(refused) if !refused.spec_errors.is_empty() => Err(refused.into()),
                Err(refused) => Ok(Some(refused.json_line())),
            }
        })
    }

    /// Draws and takes the next event: it as JSON, or `None` when none can be drawn.
    fn draw(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.on_game(py, |g| Ok(g.draw()?.map(|event| event.to_string())))
    }

    fn reseed(&self, py: Python<'_>, seed: u64) -> PyResult<()> {
        self.on_game(py, move |g| {
            g.reseed(seed);
            Ok(())
        })
    }

    /// The variables the rules' `view` shows (every variable with `all`), as a JSON map.
    fn state(&self, py: Python<'_>, all: bool) -> PyResult<String> {
        self.on_game(py, move |g| Ok(Json::Object(if all { g.variables() } else { g.state() }).to_string()))
    }

    fn finished(&self, py: Python<'_>) -> PyResult<bool> {
        self.on_game(py, |g| Ok(g.finished()))
    }

    /// `check`'s verdict on the game so far, as its JSON line.
    fn verdict(&self, py: Python<'_>) -> PyResult<String> {
        self.on_game(py, |g| Ok(g.verdict().json_line()))
    }

    fn scores(&self, py: Python<'_>) -> PyResult<String> {
        self.on_game(py, |g| Ok(Json::Object(g.scores()).to_string()))
    }

    fn winners(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.on_game(py, |g| Ok(g.winners()))
    }

    fn event_count(&self, py: Python<'_>) -> PyResult<usize> {
        self.on_game(py, |g| Ok(g.event_count()))
    }

    fn players(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.on_game(py, |g| Ok(g.players()))
    }

    fn undo(&self, py: Python<'_>) -> PyResult<bool> {
        self.on_game(py, |g| Ok(g.undo()?))
    }

    fn transcript(&self, py: Python<'_>) -> PyResult<String> {
        self.on_game(py, |g| Ok(g.transcript()))
    }

    fn set_name(&self, py: Python<'_>, name: String) -> PyResult<()> {
        self.on_game(py, move |g| {
            g.set_name(&name);
            Ok(())
        })
    }

    /// A clone that goes on alone, living beside this game (it shares its `Rc`s).
    fn copy(&self, py: Python<'_>) -> PyResult<Game> {
        let (from, number) = (self.number, NEXT_GAME.fetch_add(1, Ordering::Relaxed));
        let cloned = self.owner.run(py, move || {
            GAMES.with_borrow_mut(|games| {
                let clone = games.get(&from).cloned().ok_or(Failure::Gone)?;
                games.insert(number, clone);
                Ok(())
            })
        });
        cloned?.map_err(|f: Failure| f.raise(py))?;
        Ok(Game { number, owner: self.owner.clone() })
    }
}
