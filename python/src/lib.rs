//! `shinpan._shinpan`: the Rust side of the Python package. It checks and plays with the GIL
//! released and hands back verdicts as JSON lines; `shinpan/__init__.py` turns them into
//! dicts, so a verdict in Python is exactly a line of `shinpan check --format json`.
//!
//! Every call that compiles, checks or plays runs on a worker thread with the command line's
//! stack (`worker.rs`), never on the caller's, whose stack Python may have made small. A game
//! played move by move (`game.rs`) lives on the worker that made it.

mod game;
mod worker;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

use crate::worker::on_worker;

create_exception!(
    _shinpan,
    RulesError,
    PyException,
    "Rules that cannot be used as asked; `code` is the stable code, `verdict` the verdict it came of, if any."
);

/// A `shinpan::RulesError` as a Python exception carrying its stable code.
fn raise(py: Python<'_>, e: &shinpan::RulesError) -> PyErr {
    let err = RulesError::new_err(e.to_string());
    // Setting an attribute on a fresh exception cannot fail but for memory; the message stays.
    let _ = err.value(py).setattr("code", e.code);
    err
}

/// A game's rules, compiled once per worker thread that uses them.
#[pyclass(frozen, module = "shinpan._shinpan")]
struct Rules {
    rules: Arc<shinpan::Rules>,
}

#[pymethods]
impl Rules {
    /// `variant` is a list of (name, value as YAML or JSON text) pairs.
    #[new]
    fn new(py: Python<'_>, name_or_path: String, variant: Vec<(String, String)>) -> PyResult<Self> {
        let made = on_worker(py, move || {
            variant.iter().try_fold(shinpan::Rules::new(&name_or_path)?, |r, (k, v)| r.with_variant(k, v))
        })?;
        made.map(|rules| Rules { rules: Arc::new(rules) }).map_err(|e| raise(py, &e))
    }

    /// Rules given as the text of a rules file, named `label`, found from `base`.
    #[staticmethod]
    fn from_text(
        py: Python<'_>,
        label: String,
        text: String,
        base: PathBuf,
        variant: Vec<(String, String)>,
    ) -> PyResult<Self> {
        let made = on_worker(py, move || {
            let rules = shinpan::Rules::from_text(&label, &text, &base)?;
            variant.iter().try_fold(rules, |r, (k, v)| r.with_variant(k, v))
        })?;
        made.map(|rules| Rules { rules: Arc::new(rules) }).map_err(|e| raise(py, &e))
    }

    fn game(&self, py: Python<'_>) -> PyResult<String> {
        let rules = Arc::clone(&self.rules);
        on_worker(py, move || rules.game())?.map_err(|e| raise(py, &e))
    }

    fn check_text(&self, py: Python<'_>, name: String, text: String) -> PyResult<String> {
        let rules = Arc::clone(&self.rules);
        on_worker(py, move || rules.check_text(&name, &text).json_line())
    }

    fn check_path(&self, py: Python<'_>, path: PathBuf) -> PyResult<String> {
        let rules = Arc::clone(&self.rules);
        on_worker(py, move || rules.check_path(&path).json_line())
    }

    fn play(&self, py: Python<'_>, players: usize, seed: u64) -> PyResult<String> {
        let rules = Arc::clone(&self.rules);
        on_worker(py, move || rules.play(players, seed))?.map_err(|e| raise(py, &e))
    }

    /// A new game among `players` players, named as `play` names them.
    fn new_game(&self, py: Python<'_>, players: usize, seed: u64) -> PyResult<game::Game> {
        let rules = Arc::clone(&self.rules);
        game::start(py, move || {
            player_count_fits(&rules, players)?;
            Ok(rules.new_game(players, seed)?)
        })
    }

    /// A new game among players with these names, in seating order.
    fn new_game_named(&self, py: Python<'_>, names: Vec<String>, seed: u64) -> PyResult<game::Game> {
        let rules = Arc::clone(&self.rules);
        game::start(py, move || Ok(rules.new_game_named(&names, seed)?))
    }

    /// The game a legal transcript has reached; `RulesError` with the verdict for another.
    fn resume_game(&self, py: Python<'_>, name: String, transcript: String, seed: u64) -> PyResult<game::Game> {
        let rules = Arc::clone(&self.rules);
        game::start(py, move || Ok(rules.resume_game(&name, &transcript, seed)?))
    }
}

/// Refuses a player count the rules do not allow, as `play` does. `Rules::new_game` seats the
/// rules' own players (`players N, E, S, W`) whatever the count says, so without this a wrong
/// count would give a game of another size rather than an error.
fn player_count_fits(rules: &shinpan::Rules, players: usize) -> Result<(), shinpan::RulesError> {
    let (fewest, most) = rules.player_counts()?;
    if (fewest..=most).contains(&players) {
        return Ok(());
    }
    let message = format!("`{}` is for {}, not {players}", rules.game()?, rules.player_count_words()?);
    Err(shinpan::RulesError { code: shinpan::codes::USAGE, message, diagnostics: vec![] })
}

/// Checks `paths` on `jobs` threads with the GIL released: the verdicts as JSON lines, in the
/// order of the paths (a record file gives one a deal, joined by newlines). Without `rules`,
/// each transcript's own `rules` decides.
#[pyfunction]
#[pyo3(signature = (paths, jobs, rules=None))]
fn check_paths(py: Python<'_>, paths: Vec<PathBuf>, jobs: usize, rules: Option<&Rules>) -> PyResult<Vec<String>> {
    let inputs: Vec<shinpan::Input> = paths.into_iter().map(shinpan::Input::Path).collect();
    let checking = checking(rules);
    on_worker(py, move || check_all(&checking, &inputs, jobs))
}

/// Checks transcripts given as (name, text, line) triples, as `check_paths` checks files;
/// `line` is the line of a stream the text was read from (1 for a whole text), so the
/// verdict's lines are the stream's, as `shinpan check --stream` gives them.
#[pyfunction]
#[pyo3(signature = (texts, jobs, rules=None))]
fn check_texts(
    py: Python<'_>,
    texts: Vec<(String, String, usize)>,
    jobs: usize,
    rules: Option<&Rules>,
) -> PyResult<Vec<String>> {
    let inputs: Vec<shinpan::Input> =
        texts.into_iter().map(|(name, text, line)| shinpan::Input::Text { name, text, line }).collect();
    let checking = checking(rules);
    on_worker(py, move || check_all(&checking, &inputs, jobs))
}

/// Against the given rules, or each transcript's own.
fn checking(rules: Option<&Rules>) -> shinpan::Checking {
    rules.map_or_else(shinpan::Checking::new, |r| shinpan::Checking::with_rules(&r.rules))
}

/// Runs on a worker (`on_worker`): the engine's ordered checking, each input's verdicts as
/// JSON lines. One failing input costs its own verdict only (the engine's promise).
fn check_all(checking: &shinpan::Checking, inputs: &[shinpan::Input], jobs: usize) -> Vec<String> {
    let mut lines = Vec::with_capacity(inputs.len());
    let render =
        |reports: &[shinpan::Report]| reports.iter().map(shinpan::Report::json_line).collect::<Vec<_>>().join("\n");
    checking.check_in_order(inputs, jobs, render, |line| {
        lines.push(line);
        true
    });
    lines
}

/// The command line on `args` (the program's name first): `shinpan check ...` as the Rust
/// binary runs it, on the process's standard input, output and error, with the GIL released;
/// its exit code. `shinpan/__main__.py` runs it on `sys.argv`.
#[pyfunction]
fn main(py: Python<'_>, args: Vec<OsString>) -> u8 {
    py.detach(move || shinpan_cli::main_with_args(args))
}

/// The names of the built-in games.
#[pyfunction]
fn builtin_games() -> Vec<&'static str> {
    shinpan::editor::builtin_games().collect()
}

#[pymodule]
fn _shinpan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rules>()?;
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(check_paths, m)?)?;
    m.add_function(wrap_pyfunction!(check_texts, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_games, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    let error = m.py().get_type::<RulesError>();
    // Set on the errors that come of a verdict (a transcript that cannot be resumed).
    error.setattr("verdict", m.py().None())?;
    m.add("RulesError", error)?;
    Ok(())
}
