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

    fn game(&self, py: Python<'_>) -> PyResult<String> {
        self.rules.game().map_err(|e| raise(py, &e))
    }

    fn check_text(&self, py: Python<'_>, name: &str, text: &str) -> String {
        py.detach(|| self.rules.check_text(name, text).json().to_string())
    }

    fn check_path(&self, py: Python<'_>, path: PathBuf) -> String {
        py.detach(|| self.rules.check_path(&path).json().to_string())
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
    let rules = rules.map(|r| &r.rules);
    py.detach(|| {
        let jobs = jobs.clamp(1, paths.len().max(1));
        let mut lines = vec![String::new(); paths.len()];
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..jobs)
                .map(|job| {
                    let mine: Vec<(usize, &Path)> =
                        paths.iter().enumerate().skip(job).step_by(jobs).map(|(i, p)| (i, p.as_path())).collect();
                    s.spawn(move || check_some(rules, &mine))
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

fn check_some(rules: Option<&shinpan::Rules>, paths: &[(usize, &Path)]) -> Vec<(usize, String)> {
    let mut checker = shinpan::report::check::Checker::new(None);
    paths
        .iter()
        .map(|&(i, path)| {
            let line = match rules {
                Some(r) => r.check_path(path).json().to_string(),
                None => shinpan::report::render::json_line(&checker.check_path(path)),
            };
            (i, line)
        })
        .collect()
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
    m.add_function(wrap_pyfunction!(builtin_games, m)?)?;
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    Ok(())
}
