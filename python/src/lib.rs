//! `shinpan._shinpan`: the Rust side of the Python package. It checks and plays with the GIL
//! released and hands back verdicts as JSON lines; `shinpan/__init__.py` turns them into
//! dicts, so a verdict in Python is exactly a line of `shinpan check --format json`.

use std::path::{Path, PathBuf};

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(_shinpan, RulesError, PyException, "Rules that cannot be used as asked; `code` is the stable code.");

/// A `shinpan::RulesError` as a Python exception carrying its stable code.
fn raise(py: Python<'_>, e: &shinpan::RulesError) -> PyErr {
    let err = RulesError::new_err(e.to_string());
    // Setting an attribute on a fresh exception cannot fail but for memory; the message stays.
    let _ = err.value(py).setattr("code", e.code);
    err
}

/// A game's rules, compiled once per thread that uses them.
#[pyclass(frozen, module = "shinpan._shinpan")]
struct Rules {
    rules: shinpan::Rules,
}

#[pymethods]
impl Rules {
    /// `variant` is a list of (name, value as YAML or JSON text) pairs.
    #[new]
    fn new(py: Python<'_>, name_or_path: &str, variant: Vec<(String, String)>) -> PyResult<Self> {
        let made =
            py.detach(|| variant.iter().try_fold(shinpan::Rules::new(name_or_path)?, |r, (k, v)| r.with_variant(k, v)));
        made.map(|rules| Rules { rules }).map_err(|e| raise(py, &e))
    }

    /// Rules given as the text of a rules file, named `label`, found from `base`.
    #[staticmethod]
    fn from_text(
        py: Python<'_>,
        label: &str,
        text: &str,
        base: PathBuf,
        variant: Vec<(String, String)>,
    ) -> PyResult<Self> {
        let made = py.detach(|| {
            let rules = shinpan::Rules::from_text(label, text, &base)?;
            variant.iter().try_fold(rules, |r, (k, v)| r.with_variant(k, v))
        });
        made.map(|rules| Rules { rules }).map_err(|e| raise(py, &e))
    }

    fn game(&self, py: Python<'_>) -> PyResult<String> {
        self.rules.game().map_err(|e| raise(py, &e))
    }

    fn check_text(&self, py: Python<'_>, name: &str, text: &str) -> String {
        py.detach(|| self.rules.check_text(name, text).json_line())
    }

    fn check_path(&self, py: Python<'_>, path: PathBuf) -> String {
        py.detach(|| self.rules.check_path(&path).json_line())
    }

    fn play(&self, py: Python<'_>, players: usize, seed: u64) -> PyResult<String> {
        py.detach(|| self.rules.play(players, seed)).map_err(|e| raise(py, &e))
    }
}

/// Checks `paths` on `jobs` threads with the GIL released: the verdicts as JSON lines, in the
/// order of the paths. Without `rules`, each transcript's own `rules` decides.
#[pyfunction]
#[pyo3(signature = (paths, jobs, rules=None))]
fn check_paths(py: Python<'_>, paths: Vec<PathBuf>, jobs: usize, rules: Option<&Rules>) -> Vec<String> {
    let inputs: Vec<Input> = paths.into_iter().map(Input::Path).collect();
    check_all(py, inputs, jobs, rules)
}

/// Checks transcripts given as (name, text) pairs, as `check_paths` checks files.
#[pyfunction]
#[pyo3(signature = (texts, jobs, rules=None))]
fn check_texts(py: Python<'_>, texts: Vec<(String, String)>, jobs: usize, rules: Option<&Rules>) -> Vec<String> {
    let inputs: Vec<Input> = texts.into_iter().map(|(name, text)| Input::Text(name, text)).collect();
    check_all(py, inputs, jobs, rules)
}

enum Input {
    Path(PathBuf),
    Text(String, String),
}

thread_local! {
    /// The checker of transcripts that name their own rules: one per thread, so that a
    /// worker compiles each game's rules once, however many batches it is given.
    static OWN_RULES: std::cell::RefCell<shinpan::report::check::Checker> =
        std::cell::RefCell::new(shinpan::report::check::Checker::new(None));
}

fn check_all(py: Python<'_>, inputs: Vec<Input>, jobs: usize, rules: Option<&Rules>) -> Vec<String> {
    let rules = rules.map(|r| &r.rules);
    py.detach(|| {
        let jobs = jobs.clamp(1, inputs.len().max(1));
        if jobs == 1 {
            return inputs.iter().map(|input| check_one(rules, input)).collect();
        }
        let mut lines = vec![String::new(); inputs.len()];
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..jobs)
                .map(|job| {
                    let mine: Vec<(usize, &Input)> = inputs.iter().enumerate().skip(job).step_by(jobs).collect();
                    s.spawn(move || mine.into_iter().map(|(i, input)| (i, check_one(rules, input))).collect::<Vec<_>>())
                })
                .collect();
            for worker in workers {
                // A worker that panicked leaves its lines empty; the Python side says so.
                for (i, line) in worker.join().unwrap_or_default() {
                    lines[i] = line;
                }
            }
        });
        lines
    })
}

fn check_one(rules: Option<&shinpan::Rules>, input: &Input) -> String {
    match (rules, input) {
        (Some(r), Input::Path(path)) => r.check_path(path).json_line(),
        (Some(r), Input::Text(name, text)) => r.check_text(name, text).json_line(),
        (None, input) => OWN_RULES.with(|cell| {
            let mut checker = cell.borrow_mut();
            let report = match input {
                Input::Path(path) => checker.check_path(path),
                Input::Text(name, text) => checker.check_text(name, text.clone(), Path::new(".")),
            };
            shinpan::report::render::json_line(&report)
        }),
    }
}

/// The names of the built-in games.
#[pyfunction]
fn builtin_games() -> Vec<&'static str> {
    shinpan::lang::specs::BUILTIN.iter().map(|(name, _)| *name).collect()
}

#[pymodule]
fn _shinpan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rules>()?;
    m.add_function(wrap_pyfunction!(check_paths, m)?)?;
    m.add_function(wrap_pyfunction!(check_texts, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_games, m)?)?;
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    Ok(())
}
