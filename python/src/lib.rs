//! `shinpan._shinpan`: the Rust side of the Python package. It checks and plays with the GIL
//! released and hands back verdicts as JSON lines; `shinpan/__init__.py` turns them into
//! dicts, so a verdict in Python is exactly a line of `shinpan check --format json`.
//!
//! Every call that compiles, checks or plays runs on a worker thread with the command line's
//! stack (`on_worker`), never on the caller's, whose stack Python may have made small.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::{Arc, mpsc};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError};
use pyo3::prelude::*;

create_exception!(_shinpan, RulesError, PyException, "Rules that cannot be used as asked; `code` is the stable code.");

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

/// Stack of every thread that compiles, checks or plays: the engine's (`shinpan::STACK_BYTES`),
/// far more than a Python thread may have (`threading.stack_size(256 * 1024)`): so no work is
/// done on the caller's thread.
const STACK: usize = shinpan::STACK_BYTES;

type Job = Box<dyn FnOnce() + Send>;

/// The thread that does a Python thread's work, with `STACK` of stack; it ends when the Python
/// thread does (its end of the queue is dropped). One per Python thread keeps what each
/// worker has compiled (the rules, the checkers) as warm as it was on the caller's thread.
struct Worker {
    jobs: mpsc::Sender<Job>,
    /// The process that started it: a child made by `fork` has the queue but not the thread.
    process: u32,
}

thread_local! {
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread's worker with the GIL released, and waits for it. A panic in
/// `work` goes on here (PyO3 makes it a `PanicException`); a worker that cannot be started is
/// a `RuntimeError`. Never on this thread: its stack may be too small for the engine.
fn on_worker<T: Send + 'static>(py: Python<'_>, work: impl FnOnce() -> T + Send + 'static) -> PyResult<T> {
    let (give, take) = mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        let _ = give.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
    });
    let outcome = py.detach(move || {
        submit(job)?;
        take.recv().map_err(|_| std::io::Error::other("the worker stopped"))
    });
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => Err(PyRuntimeError::new_err(format!("shinpan could not start a thread to work on: {e}"))),
    }
}

/// Hands `job` to this thread's worker, starting one on first use (or after a fork).
fn submit(job: Job) -> std::io::Result<()> {
    WORKER.with(|cell| {
        let mut worker = cell.borrow_mut();
        let here = std::process::id();
        let job = match worker.as_ref().filter(|w| w.process == here) {
            Some(w) => match w.jobs.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        // A queue left by a fork is not touched (its thread is in the parent): forgotten.
        if let Some(old) = worker.take() {
            std::mem::forget(old);
        }
        let (jobs, queue) = mpsc::channel::<Job>();
        let run = move || queue.into_iter().for_each(|job| job());
        std::thread::Builder::new().name("shinpan".into()).stack_size(STACK).spawn(run)?;
        jobs.send(job).map_err(|_| std::io::Error::other("the worker stopped"))?;
        *worker = Some(Worker { jobs, process: here });
        Ok(())
    })
}

/// The names of the built-in games.
#[pyfunction]
fn builtin_games() -> Vec<&'static str> {
    shinpan::editor::builtin_games().collect()
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
