//! The threads that do the package's work. Every call that compiles, checks or plays runs on a
//! worker thread with the command line's stack, never on the caller's, whose stack Python may
//! have made small; the GIL is released while it waits.
//!
//! Each Python thread has its own worker (`on_worker`), which keeps what it compiled warm. A
//! `Game` lives on the worker that made it and keeps a handle to it (`Worker`), so its calls
//! go there from any Python thread (`Worker::run`).

use std::cell::RefCell;
use std::sync::mpsc;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Stack of every thread that compiles, checks or plays: the engine's (`shinpan::STACK_BYTES`),
/// far more than a Python thread may have (`threading.stack_size(256 * 1024)`): so no work is
/// done on the caller's thread.
const STACK: usize = shinpan::STACK_BYTES;

type Job = Box<dyn FnOnce() + Send>;

/// One end of a worker's queue: the thread that does a Python thread's work, with `STACK` of
/// stack. The thread ends when every handle to it is gone: its Python thread's (dropped when
/// that thread ends) and those of the games that live on it.
pub struct Worker {
    /// `None` only while the handle is dropped.
    jobs: Option<mpsc::Sender<Job>>,
    /// The process that started it: a child made by `fork` has the queue but not the thread.
    process: u32,
}

impl Clone for Worker {
    fn clone(&self) -> Worker {
        Worker { jobs: self.jobs.clone(), process: self.process }
    }
}

impl Drop for Worker {
    /// A queue left by a fork is never touched (its thread and its locks are in the parent):
    /// it is forgotten, not dropped.
    fn drop(&mut self) {
        if !self.in_this_process() {
            std::mem::forget(self.jobs.take());
        }
    }
}

impl Worker {
    /// A new worker thread and its queue.
    fn start() -> std::io::Result<Worker> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let run = move || queue.into_iter().for_each(|job| job());
        std::thread::Builder::new().name("shinpan".into()).stack_size(STACK).spawn(run)?;
        Ok(Worker { jobs: Some(jobs), process: std::process::id() })
    }

    pub fn in_this_process(&self) -> bool {
        self.process == std::process::id()
    }

    /// Queues `job`; hands it back if the thread has stopped.
    fn send(&self, job: Job) -> Result<(), Job> {
        match &self.jobs {
            Some(jobs) => jobs.send(job).map_err(|mpsc::SendError(job)| job),
            None => Err(job),
        }
    }

    /// Queues `work` without waiting for it (what a dropped game leaves to do).
    pub fn post(&self, work: impl FnOnce() + Send + 'static) {
        if self.in_this_process() {
            // A stopped thread has nothing left to clean up.
            let _ = self.send(Box::new(work));
        }
    }

    /// Runs `work` on this worker with the GIL released, and waits for it. A worker of the
    /// process a fork copied this one from cannot: its thread is not here.
    pub fn run<T: Send + 'static>(&self, py: Python<'_>, work: impl FnOnce() -> T + Send + 'static) -> PyResult<T> {
        if !self.in_this_process() {
            let why = "a shinpan game stays in the process that made it (a fork does not copy its thread): \
                       take its transcript() before the fork and resume_game it after";
            return Err(PyRuntimeError::new_err(why));
        }
        let stopped = || std::io::Error::other("the worker stopped");
        wait(py, work, |job| self.send(job).map_err(|_| stopped())).map(|(value, ())| value)
    }
}

thread_local! {
    /// This Python thread's worker, once it has one.
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread's worker with the GIL released, and waits for it. A panic in
/// `work` goes on here (PyO3 makes it a `PanicException`); a worker that cannot be started is
/// a `RuntimeError`. Never on this thread: its stack may be too small for the engine.
pub fn on_worker<T: Send + 'static>(py: Python<'_>, work: impl FnOnce() -> T + Send + 'static) -> PyResult<T> {
    on_worker_kept(py, work).map(|(value, _)| value)
}

/// As `on_worker`, with a handle to the worker that ran `work`: a game made there stays there.
pub fn on_worker_kept<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<(T, Worker)> {
    wait(py, work, submit)
}

/// Hands `work` to a worker with `send`, with the GIL released, and waits for its result.
fn wait<T: Send + 'static, W: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
    send: impl FnOnce(Job) -> std::io::Result<W> + Send,
) -> PyResult<(T, W)> {
    let (give, take) = mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        let _ = give.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
    });
    let outcome = py.detach(move || {
        let sent = send(job)?;
        let done = take.recv().map_err(|_| std::io::Error::other("the worker stopped"))?;
        Ok::<_, std::io::Error>((done, sent))
    });
    match outcome {
        Ok((Ok(value), sent)) => Ok((value, sent)),
        Ok((Err(panic), _)) => std::panic::resume_unwind(panic),
        Err(e) => Err(PyRuntimeError::new_err(format!("shinpan could not run the work on a thread of its own: {e}"))),
    }
}

/// Hands `job` to this thread's worker, starting one on first use (or after a fork, or if it
/// stopped): the worker it went to.
fn submit(job: Job) -> std::io::Result<Worker> {
    WORKER.with(|cell| {
        let mut worker = cell.borrow_mut();
        let job = match worker.as_ref().filter(|w| w.in_this_process()) {
            Some(w) => match w.send(job) {
                Ok(()) => return Ok(w.clone()),
                Err(job) => job,
            },
            None => job,
        };
        let fresh = Worker::start()?;
        fresh.send(job).map_err(|_| std::io::Error::other("the worker stopped"))?;
        *worker = Some(fresh.clone());
        Ok(fresh)
    })
}
