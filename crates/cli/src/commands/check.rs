//! `shinpan check`: a verdict per transcript, in the order given, as JSON Lines or for a
//! person; `--stream`: a verdict per line of a stream, each written as soon as it is judged.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use shinpan::{Checking, Parameter, Report};

use crate::args::Format;
use crate::exit::ExitStatus;
use crate::output::color;

/// How every transcript is checked (`--rules`, `--only-builtin-rules`, `--variant`, `--all`).
pub struct Setup {
    pub rules: Option<String>,
    pub builtin_only: bool,
    pub variant: Vec<Parameter>,
    pub all: bool,
}

impl Setup {
    fn checking(&self) -> Checking {
        let checking = match &self.rules {
            Some(rules) => Checking::against(rules),
            None => Checking::new(),
        };
        let checking = checking.only_builtin_rules(self.builtin_only).past_violations(self.all);
        self.variant.iter().fold(checking, |c, p| c.parameter(p))
    }
}

/// Checks every path given (folders walked) on `jobs` threads, writing the verdicts in order.
pub fn paths(format: Option<Format>, setup: &Setup, jobs: Option<usize>, paths: &[PathBuf]) -> ExitStatus {
    let format = format.unwrap_or(if std::io::stdout().is_terminal() { Format::Human } else { Format::Json });
    let inputs = crate::inputs::transcripts(paths, setup.builtin_only);
    let color = color();
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut worst = ExitStatus::Success;
    let mut failed: Option<std::io::Error> = None;
    let render = |reports: &[Report]| rendered(reports, format, color);
    setup.checking().check_in_order(&inputs, jobs, render, |(status, text)| {
        worst = worst.max(status);
        writeln!(out, "{text}").map_err(|e| failed = Some(e)).is_ok()
    });
    if failed.is_none()
        && let Err(e) = out.flush()
    {
        failed = Some(e);
    }
    match failed {
        None => worst,
        Some(e) => {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("shinpan: cannot write the verdicts: {}", shinpan::files::io_words(&e));
            }
            ExitStatus::WriteFailed
        }
    }
}

/// The verdicts of one input (a record file has one a deal), as lines, and their worst status.
fn rendered(reports: &[Report], format: Format, color: bool) -> (ExitStatus, String) {
    let worst = reports.iter().map(|r| ExitStatus::of(r.verdict)).max().unwrap_or(ExitStatus::Success);
    let width = crate::output::width();
    let text: Vec<String> = reports
        .iter()
        .map(|r| match format {
            Format::Json => r.json_line(),
            Format::Human => r.human_at(color, width),
        })
        .collect();
    (worst, text.join("\n"))
}

/// `--stream`: each line of each path (`-`: standard input; a named pipe is read as a
/// stream) is one transcript; each verdict line is written and flushed before the next line
/// is read. One thread: the order is the input's.
pub fn stream(setup: &Setup, paths: &[PathBuf]) -> ExitStatus {
    let checking = setup.checking();
    let mut out = std::io::stdout().lock();
    let mut worst = ExitStatus::Success;
    for path in paths {
        let mut write = |report: Report| {
            worst = worst.max(ExitStatus::of(report.verdict));
            writeln!(out, "{}", report.json_line()).and_then(|()| out.flush())
        };
        let name = path.display().to_string();
        let result = if path == Path::new("-") {
            checking.check_lines(&name, std::io::stdin().lock(), &mut write)
        } else {
            match shinpan::files::open_stream(path) {
                Ok(f) => checking.check_lines(&name, std::io::BufReader::new(f), &mut write),
                Err(why) => write(Report::unread(&name, why)),
            }
        };
        match result {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return ExitStatus::WriteFailed,
            Err(e) => {
                eprintln!("shinpan: {}: {}", path.display(), shinpan::files::io_words(&e));
                return ExitStatus::WriteFailed;
            }
        }
    }
    worst
}
