//! Writing to the terminal: standard output flushed as it goes, standard error escaped,
//! colour where a person reads it.

use std::io::{IsTerminal, Write};

/// Every message on standard error is shown with controls escaped (`diag::printable`): the
/// names of files and the text read from them reach it. (Diagnostics are escaped where they
/// are rendered, and printed with `eprint!`, their colours intact.)
macro_rules! eprintln {
    ($($arg:tt)*) => {
        std::eprintln!("{}", shinpan::diag::printable(&format!($($arg)*)))
    };
}

/// Writes to standard output and flushes it; whether it was written. A closed pipe (`| head`)
/// or a full disk is a `false`, never a panic: the command then exits `WriteFailed`.
pub fn say(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_ok()
}

/// Whether to colour standard output: on a terminal, unless `NO_COLOR` is set.
pub fn color() -> bool {
    color_on(std::io::stdout().is_terminal())
}

/// Whether to colour standard error.
pub fn color_on_stderr() -> bool {
    color_on(std::io::stderr().is_terminal())
}

/// Colour for a stream that is a terminal, unless `NO_COLOR` is set (no-color.org).
fn color_on(terminal: bool) -> bool {
    terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The width a person's output is wrapped at: `COLUMNS` when it is set to a number, else the
/// width of the terminal standard output is, else 100 columns (a file, a pipe).
pub fn width() -> usize {
    let columns = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok()).filter(|c| *c > 0);
    let terminal = || terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| usize::from(w.0));
    columns.or_else(terminal).filter(|w| *w > 0).unwrap_or(100)
}
