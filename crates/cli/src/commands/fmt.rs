//! `shinpan fmt`: each rules file in its canonical layout, in place; `--check` prints the
//! diff instead.

use std::path::PathBuf;

use shinpan::diag;

use crate::exit::ExitStatus;
use crate::inputs::{path_of, rules_files, rules_text};
use crate::output::{color_on_stderr, say};

/// Formats each rules file in place, or (`check`) prints the diff formatting would make:
/// `Findings` when a file would change, `Errors` when one cannot be read, parsed or written;
/// the other files are still handled.
pub fn run(paths: &[PathBuf], check: bool) -> ExitStatus {
    let mut worst = ExitStatus::Success;
    for input in &rules_files(paths) {
        let path = path_of(input);
        let label = path.display().to_string();
        let text = match rules_text(input) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("shinpan: cannot read {label}: {e}");
                worst = ExitStatus::Errors;
                continue;
            }
        };
        let formatted = match shinpan::editor::format(&text) {
            Ok(formatted) => formatted,
            Err(diags) => {
                let source = diag::source(&label, &text);
                for d in diags {
                    eprint!("{}", diag::render_fancy(&d.in_source(&source), color_on_stderr()));
                }
                worst = ExitStatus::Errors;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        if check {
            let diff = similar::TextDiff::from_lines(&text, &formatted);
            if !say(&diag::printable(&diff.unified_diff().header(&label, &label).to_string())) {
                return ExitStatus::WriteFailed;
            }
            worst = worst.max(ExitStatus::Findings);
        } else if let Err(e) = shinpan::files::write_atomically(&path, formatted.as_bytes()) {
            eprintln!("shinpan: cannot write {label}: {}", shinpan::files::io_words(&e));
            worst = ExitStatus::Errors;
        }
    }
    worst
}
