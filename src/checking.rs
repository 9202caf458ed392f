//! Checking many transcripts: paths, texts and the lines of a stream, on several threads, each
//! verdict handed back in the order of the inputs. The command line's `check`, the Python
//! package and the cluster example all check through here, so a verdict does not depend on
//! which of them asked for it.
//!
//! ```
//! use shinpan::{Checking, Input};
//! let inputs = [Input::Path("fixtures/demo".into()), Input::text("game", "{rules: hangover}")];
//! let mut verdicts = vec![];
//! // Each transcript names its own rules; two threads; each input's reports as JSON lines.
//! Checking::new().check_in_order(&inputs, 2, |reports| reports.len(), |n| {
//!     verdicts.push(n);
//!     true
//! });
//! assert_eq!(verdicts, [1, 1], "a folder is not a transcript; the text has no players");
//! ```

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::limits::Limits;
use crate::report::check::{Checker, Report, with_checker};
use crate::rules::{Parameter, Rules, limits_key};
use crate::transcript::{Problem, Yaml};

/// The stack of every thread that checks, compiles or plays: the engine's limits keep its
/// deepest recursion (about 1 MiB) far below it. Run the engine on a thread of this stack
/// (the command line and the Python package do), never on one whose stack is unknown.
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Most threads `check_in_order` starts, whatever it is asked for.
pub const MAX_JOBS: usize = 256;

/// One thing to check: a transcript or record file, a transcript already read, or a name that
/// could not be read (it gets its verdict in its place, so a run does not end at it).
#[derive(Clone, Debug)]
pub enum Input {
    /// A transcript file (YAML, JSON) or a record file (`.pbn`, `.lin`: one verdict a deal).
    Path(PathBuf),
    /// A transcript's text, named `name` in its verdict; `line` is the line of a stream it
    /// was read from (1 for a whole text), so the verdict's lines are the stream's. A rules
    /// file it names is found from the working directory.
    Text {
        /// What the verdict calls it (`ARCHIVE#LINE` for a stream's line).
        name: String,
        /// The transcript.
        text: String,
        /// Its first line in the stream it came from.
        line: usize,
    },
    /// What could not be read, and why: a malformed verdict with `problem` as its kind.
    Unreadable {
        /// What the verdict calls it.
        name: String,
        /// The kind of the malformed verdict (`unreadable`, `too-large`, ...).
        problem: Problem,
        /// Why, for a person.
        why: String,
    },
}

impl Input {
    /// A whole transcript given as text.
    pub fn text(name: &str, text: &str) -> Input {
        Input::Text { name: name.to_string(), text: text.to_string(), line: 1 }
    }

    /// What the input's verdict calls it.
    pub fn name(&self) -> String {
        match self {
            Input::Path(path) => path.display().to_string(),
            Input::Text { name, .. } | Input::Unreadable { name, .. } => name.clone(),
        }
    }
}

/// What transcripts are checked against.
#[derive(Clone, Debug)]
enum Against {
    /// The rules each transcript names, or these (a built-in name or a path) for every one.
    Named(Option<String>),
    /// Rules already made.
    Given(Rules),
}

/// How transcripts are checked: against which rules, with which parameters, how far. Cheap to
/// clone and `Send + Sync`: every thread that checks keeps its own compiled rules.
#[derive(Clone, Debug)]
pub struct Checking {
    against: Against,
    builtin_only: bool,
    variant: Vec<(String, Yaml)>,
    all: bool,
    states: bool,
    limits: Limits,
}

impl Default for Checking {
    fn default() -> Self {
        Checking::new()
    }
}

impl Checking {
    /// Each transcript against the rules it names (a built-in game, or a rules file relative
    /// to the transcript).
    pub fn new() -> Checking {
        let limits = Limits::DEFAULT;
        Checking {
            against: Against::Named(None),
            builtin_only: false,
            variant: vec![],
            all: false,
            states: false,
            limits,
        }
    }

    /// Every transcript against these rules: a built-in name or a rules file's path (relative
    /// to the working directory). Rules that cannot be found or do not compile make every
    /// verdict malformed, with the reason.
    pub fn against(name_or_path: &str) -> Checking {
        Checking { against: Against::Named(Some(name_or_path.to_string())), ..Checking::new() }
    }

    /// Every transcript against rules already made (and their parameters and limits).
    pub fn with_rules(rules: &Rules) -> Checking {
        Checking { against: Against::Given(rules.clone()), limits: rules.limits(), ..Checking::new() }
    }

    /// Checks within these limits (`Limits::default()` unless set; with `with_rules`, the
    /// rules' own until set here): reading, running and writing each verdict, and the longest
    /// line `check_lines` takes.
    pub fn limits(mut self, limits: Limits) -> Checking {
        self.limits = limits;
        self
    }

    /// Transcripts may name only built-in rules, never a file (for a server that checks what
    /// players upload).
    pub fn only_builtin_rules(mut self, only: bool) -> Checking {
        self.builtin_only = only;
        self
    }

    /// A parameter over the default and over every transcript's own `variant`.
    pub fn parameter(mut self, parameter: &Parameter) -> Checking {
        self.variant.retain(|(k, _)| k != parameter.key());
        self.variant.push(parameter.pair());
        self
    }

    /// Goes on past every broken rule that `stands`, reporting each (`check --all`).
    pub fn past_violations(mut self, all: bool) -> Checking {
        self.all = all;
        self
    }

    /// What this thread's checker for this setup is kept under.
    fn key(&self) -> String {
        let rules = match &self.against {
            Against::Named(name) => format!("named\u{0}{}", name.as_deref().unwrap_or("")),
            Against::Given(rules) => format!("given\u{0}{}", rules.key()),
        };
        let given: Vec<String> = self.variant.iter().map(|(k, v)| format!("\u{0}{k}={}", v.to_json())).collect();
        let limits = limits_key(&self.limits);
        format!("{rules}{}\u{0}{}{}{}{limits}", given.concat(), self.builtin_only, self.all, self.states)
    }

    fn checker(&self) -> Checker {
        let mut checker = match &self.against {
            Against::Named(name) => Checker::new(name.clone()),
            Against::Given(rules) => rules.checker(),
        };
        checker.builtin_only = self.builtin_only;
        checker.variant.retain(|(k, _)| !self.variant.iter().any(|(given, _)| given == k));
        checker.variant.extend(self.variant.iter().cloned());
        checker.all = self.all;
        checker.record_states = self.states;
        checker.limits = self.limits;
        checker
    }

    /// Checks one input on this thread: one verdict, or one a deal for a record file. A
    /// failure inside shinpan (a panic) becomes this input's malformed verdict.
    pub fn check(&self, input: &Input) -> Vec<Report> {
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_checker(&self.key(), || self.checker(), |checker| judge(checker, input))
        }));
        attempt.unwrap_or_else(|panic| vec![internal_error(&input.name(), &*panic)])
    }

    /// Checks one transcript file keeping the state after each event (`Report::replay_steps`,
    /// `Report::page`).
    pub fn replay(&self, path: &Path) -> Report {
        let recording = Checking { states: true, ..self.clone() };
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_checker(&recording.key(), || recording.checker(), |checker| checker.check_path(path))
        }));
        attempt.unwrap_or_else(|panic| internal_error(&path.display().to_string(), &*panic))
    }

    /// Checks a record file's text (`.pbn`, `.lin`, as `name`'s extension says), one verdict a
    /// deal named `NAME#N`, as a record file at the path `name` is checked (where no file can be
    /// read: in a browser).
    pub fn check_record_text(&self, name: &str, text: &str) -> Vec<Report> {
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_checker(&self.key(), || self.checker(), |checker| checker.check_record_text(Path::new(name), text))
        }));
        attempt.unwrap_or_else(|panic| vec![internal_error(name, &*panic)])
    }

    /// `replay` of a transcript given as text (named `name`; a rules file it names is found
    /// from the working directory).
    pub fn replay_text(&self, name: &str, text: &str) -> Report {
        let recording = Checking { states: true, ..self.clone() };
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_checker(
                &recording.key(),
                || recording.checker(),
                |checker| checker.check_text(name, text.to_string(), Path::new("")),
            )
        }));
        attempt.unwrap_or_else(|panic| internal_error(name, &*panic))
    }

    /// Checks `inputs` on up to `jobs` threads (each with its own compiled rules) and hands
    /// each input's reports, made into a `T` by `render` on the thread that checked them, to
    /// `each` in the order of `inputs`. Only results that finished early wait in memory. When
    /// `each` says `false` (its output is gone), the run stops; the result says whether every
    /// input was handed over. One thread checks on this thread, keeping its compiled rules.
    pub fn check_in_order<T: Send>(
        &self,
        inputs: &[Input],
        jobs: usize,
        render: impl Fn(&[Report]) -> T + Sync,
        mut each: impl FnMut(T) -> bool,
    ) -> bool {
        let jobs = jobs.clamp(1, inputs.len().clamp(1, MAX_JOBS));
        let judged = |input: &Input| self.rendered(input, &render);
        if jobs == 1 {
            return inputs.iter().all(|input| each(judged(input)));
        }
        let next = AtomicUsize::new(0);
        let (send, receive) = std::sync::mpsc::sync_channel::<(usize, T)>(jobs * 4);
        std::thread::scope(|scope| {
            let mut started = 0;
            for _ in 0..jobs {
                let (send, next, judged) = (send.clone(), &next, &judged);
                let worker = move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(input) = inputs.get(i) else { break };
                        if send.send((i, judged(input))).is_err() {
                            break;
                        }
                    }
                };
                if std::thread::Builder::new().stack_size(STACK_BYTES).spawn_scoped(scope, worker).is_ok() {
                    started += 1;
                }
            }
            drop(send);
            if started == 0 {
                // No thread could be had: check here, one input after another.
                return inputs.iter().all(|input| each(judged(input)));
            }
            let mut waiting = BTreeMap::new();
            let mut due = 0;
            for (i, result) in receive {
                waiting.insert(i, result);
                while let Some(result) = waiting.remove(&due) {
                    if !each(result) {
                        // Workers stop at their next input.
                        next.store(inputs.len(), Ordering::Relaxed);
                        return false;
                    }
                    due += 1;
                }
            }
            due == inputs.len()
        })
    }

    /// Checks one input and renders its reports; a panic in either becomes the input's
    /// malformed verdict, rendered.
    fn rendered<T>(&self, input: &Input, render: &(impl Fn(&[Report]) -> T + Sync)) -> T {
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| render(&self.check(input))));
        attempt.unwrap_or_else(|panic| render(&[internal_error(&input.name(), &*panic)]))
    }

    /// `check --stream`: each line of `reader` is one transcript (JSON, or YAML on one line),
    /// named `NAME#LINE`; each verdict is handed to `each` before the next line is read, so a
    /// long-lived process can serve a pipe. Blank lines (nothing but spaces and tabs) are
    /// skipped; a line that cannot be read (not UTF-8, longer than a transcript file may be)
    /// gets its own malformed verdict and the next line is still judged. An error is the
    /// input's, or one `each` gives (its output is gone).
    pub fn check_lines(
        &self,
        name: &str,
        mut reader: impl BufRead,
        mut each: impl FnMut(Report) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let limit = usize::try_from(self.limits.transcript_bytes).unwrap_or(usize::MAX);
        let mut buf = vec![];
        let mut number = 0;
        while let Some(too_long) = crate::files::read_line_within(&mut reader, &mut buf, limit)? {
            number += 1;
            let name = format!("{name}#{number}");
            let input = match std::str::from_utf8(&buf) {
                _ if too_long => {
                    let why = format!("line {number} is longer than {limit} bytes");
                    Input::Unreadable { name, problem: Problem::TooLarge, why }
                }
                Ok(text) if is_blank(text) => continue,
                Ok(text) => Input::Text { name, text: text.to_string(), line: number },
                Err(_) => {
                    let why = format!("line {number} is not UTF-8 text");
                    Input::Unreadable { name, problem: Problem::Unreadable, why }
                }
            };
            for report in self.check(&input) {
                each(report)?;
            }
        }
        Ok(())
    }
}

/// Checks one input with a checker of this thread.
fn judge(checker: &mut Checker, input: &Input) -> Vec<Report> {
    match input {
        Input::Path(path) if crate::import::is_record(path) => checker.check_record(path),
        Input::Path(path) => vec![checker.check_path(path)],
        Input::Unreadable { name, problem, why } => vec![Report::unreadable(name, *problem, why.clone())],
        // Relative rules paths are taken from the working directory.
        Input::Text { name, text, line } => {
            vec![checker.check_text(name, text.clone(), Path::new("")).on_stream_line(*line)]
        }
    }
}

/// The malformed verdict of an input whose checking failed inside shinpan.
fn internal_error(name: &str, panic: &(dyn std::any::Any + Send)) -> Report {
    let what = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("unknown");
    let message =
        format!("shinpan failed inside while checking this file (an internal error, please report it): {what}");
    Report::unreadable(name, Problem::Internal, message)
}

/// A blank line of a stream: nothing but spaces and tabs. Other white space (a no-break
/// space, a form feed, U+2028) is not blank: such a line is judged, and is malformed.
fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ' || b == b'\t')
}
