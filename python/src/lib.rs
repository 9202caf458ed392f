//! `shinpan._shinpan`: the Rust side of the Python package. It checks and plays with the GIL
//! released and hands back verdicts as JSON lines; `shinpan/__init__.py` turns them into
//! dicts, so a verdict in Python is exactly a line of `shinpan check --format json`.
//!
//! Every call that compiles, checks or plays runs on a worker thread with the command line's
//! stack (`on_worker`), never on the caller's, whose stack Python may have made small.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
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
/// order of the paths. Without `rules`, each transcript's own `rules` decides.
#[pyfunction]
#[pyo3(signature = (paths, jobs, rules=None))]
fn check_paths(py: Python<'_>, paths: Vec<PathBuf>, jobs: usize, rules: Option<&Rules>) -> PyResult<Vec<String>> {
    let inputs: Vec<Input> = paths.into_iter().map(Input::Path).collect();
    let rules = rules.map(|r| Arc::clone(&r.rules));
    on_worker(py, move || check_all(&inputs, jobs, rules.as_deref()))
}

/// Checks transcripts given as (name, text) pairs, as `check_paths` checks files.
#[pyfunction]
#[pyo3(signature = (texts, jobs, rules=None))]
fn check_texts(
    py: Python<'_>,
    texts: Vec<(String, String)>,
    jobs: usize,
    rules: Option<&Rules>,
) -> PyResult<Vec<String>> {
    let inputs: Vec<Input> = texts.into_iter().map(|(name, text)| Input::Text(name, text)).collect();
    let rules = rules.map(|r| Arc::clone(&r.rules));
    on_worker(py, move || check_all(&inputs, jobs, rules.as_deref()))
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

/// Runs on a worker (`on_worker`); more than one job checks on that many threads of the same
/// stack, each taking every `jobs`-th input.
fn check_all(inputs: &[Input], jobs: usize, rules: Option<&shinpan::Rules>) -> Vec<String> {
    let jobs = jobs.clamp(1, inputs.len().max(1));
    let share = |job: usize| -> Vec<(usize, String)> {
        inputs.iter().enumerate().skip(job).step_by(jobs).map(|(i, input)| (i, check_one(rules, input))).collect()
    };
    if jobs == 1 {
        return share(0).into_iter().map(|(_, line)| line).collect();
    }
    let mut lines = vec![String::new(); inputs.len()];
    let mut done = vec![];
    std::thread::scope(|s| {
        let mut workers = vec![];
        for job in 0..jobs {
            match std::thread::Builder::new().stack_size(STACK).spawn_scoped(s, move || share(job)) {
                Ok(worker) => workers.push(worker),
                // No thread to be had: this thread, whose stack is the same, checks that share.
                Err(_) => done.push(share(job)),
            }
        }
        // A worker that panicked leaves its lines empty; the Python side says so.
        done.extend(workers.into_iter().map(|worker| worker.join().unwrap_or_default()));
    });
    for (i, line) in done.into_iter().flatten() {
        if let Some(slot) = lines.get_mut(i) {
            *slot = line;
        }
    }
    lines
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

/// Stack of every thread that compiles, checks or plays: the command line's (`STACK` in
/// src/main.rs). The engine's limits keep its deepest recursion (about 1 MiB) far below it,
/// but not below what a Python thread may have (`threading.stack_size(256 * 1024)`): so no
/// work is done on the caller's thread.
const STACK: usize = 64 * 1024 * 1024;

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
