//! `shinpan replay`: a transcript event by event with the state after each, for a person, as
//! JSON Lines, or as the judge's page (`--html`).

use std::path::Path;

use shinpan::{Checking, Report, Verdict};

use crate::args::Format;
use crate::exit::ExitStatus;
use crate::output::{color, say, width};

/// Checks one transcript keeping the game after each event.
fn replayed(path: &Path, rules: Option<&str>, all: bool) -> Report {
    rules.map_or_else(Checking::new, Checking::against).past_violations(all).replay(path)
}

pub fn page(path: &Path, out: &Path, rules: Option<&str>, all: bool) -> ExitStatus {
    if same_file(path, out) {
        eprintln!("shinpan: {} is the transcript itself: give the page another name", out.display());
        return ExitStatus::Usage;
    }
    let report = replayed(path, rules, all);
    // A malformed transcript's page shows the events up to the one that could not be read;
    // why it could not is said here too, as `replay` says it.
    if report.verdict == Verdict::Malformed {
        eprint!("{}", report.human_at(color(), width()));
    }
    let Some(page) = report.page() else {
        return ExitStatus::of(report.verdict);
    };
    if let Err(e) = shinpan::files::write_atomically(out, page.as_bytes()) {
        eprintln!("shinpan: cannot write {}: {}", out.display(), shinpan::files::io_words(&e));
        return ExitStatus::WriteFailed;
    }
    ExitStatus::of(report.verdict)
}

/// Whether two paths lead to one file (after links), so that writing one would destroy the
/// other.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

pub fn run(path: &Path, at: Option<usize>, format: Format, rules: Option<&str>, all: bool) -> ExitStatus {
    let report = replayed(path, rules, all);
    if report.verdict == Verdict::Malformed {
        eprint!("{}", report.human_at(color(), width()));
        return ExitStatus::of(report.verdict);
    }
    let mut steps = report.replay_steps();
    if let Some(n) = at {
        let Some(step) = steps.iter().position(|s| s.event == n) else {
            let last = steps.last().map_or(0, |s| s.event);
            eprintln!("shinpan: no event {n} was judged in {}; events 0 to {last} were", path.display());
            return ExitStatus::Usage;
        };
        steps = vec![steps.swap_remove(step)];
    }
    let text: String = match format {
        Format::Human if color() => steps.iter().map(|s| s.human_in_colour(width())).collect(),
        Format::Human => steps.iter().map(|s| s.human_at(width())).collect(),
        Format::Json => steps.iter().map(|s| s.json() + "\n").collect(),
    };
    if !say(&text) {
        return ExitStatus::WriteFailed;
    }
    ExitStatus::of(report.verdict)
}
