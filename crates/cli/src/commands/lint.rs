//! `shinpan lint`: each rules file's diagnostics, or `ok`.

use std::path::{Path, PathBuf};

use crate::exit::ExitStatus;
use crate::inputs::{path_of, rules_files, rules_text};
use crate::output::{color, say};

pub fn run(paths: &[PathBuf]) -> ExitStatus {
    let mut worst = ExitStatus::Success;
    for input in &rules_files(paths) {
        let f = path_of(input);
        let text = match rules_text(input) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("shinpan: cannot read {}: {e}", f.display());
                worst = ExitStatus::Errors;
                continue;
            }
        };
        let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
        let label = f.display().to_string();
        let linted = std::panic::catch_unwind(|| shinpan::editor::lint(&label, &text, &dir).map(|c| c.warnings));
        let said = match linted {
            Ok(Ok(warnings)) => say(&warned(&label, &warnings)),
            Ok(Err(diags)) => {
                worst = ExitStatus::Errors;
                say(&diags.iter().map(|d| shinpan::diag::render_fancy(d, color())).collect::<String>())
            }
            Err(_) => {
                worst = ExitStatus::Errors;
                true
            }
        };
        if !said {
            return ExitStatus::WriteFailed;
        }
    }
    worst
}

/// The warnings of a file that compiles, then `ok` (warnings do not fail `lint`).
fn warned(label: &str, warnings: &[shinpan::diag::Diag]) -> String {
    let mut out: String = warnings.iter().map(|d| shinpan::diag::render_fancy(d, color())).collect();
    let ok = match warnings.len() {
        0 => format!("{label}: ok\n"),
        1 => format!("{label}: compiles, with 1 warning\n"),
        n => format!("{label}: compiles, with {n} warnings\n"),
    };
    out.push_str(&shinpan::diag::printable(&ok));
    out
}
