//! `shinpan rules [NAME] [--source]`: the built-in games, one game's players, parameters and
//! rule ids, or a rules file itself.

use std::io::IsTerminal;
use std::path::Path;

use shinpan::Rules;

use crate::exit::ExitStatus;
use crate::output::say;

pub fn run(name: Option<&str>, source: bool) -> ExitStatus {
    let Some(name) = name else { return every_builtin() };
    if source {
        return source_of(name);
    }
    match compiled(name) {
        Ok(rules) => match rules.describe() {
            Ok(text) => ExitStatus::written(say(&text)),
            Err(e) => failed(&e),
        },
        Err(status) => status,
    }
}

fn every_builtin() -> ExitStatus {
    let described: Result<Vec<String>, _> =
        shinpan::editor::builtin_games().map(|name| Rules::new(name)?.describe()).collect();
    match described {
        Ok(all) => ExitStatus::written(say(&all.join("\n"))),
        Err(e) => failed(&e),
    }
}

/// The rules file itself, byte for byte, into a pipe or a file (to be saved or read by a
/// program); on a terminal, read by a person, its controls are escaped.
fn source_of(name: &str) -> ExitStatus {
    let text = match shinpan::editor::builtin_rules(name) {
        Some(text) => Ok(text.to_string()),
        None => shinpan::files::read_rules(Path::new(name)),
    };
    match text {
        Ok(text) => {
            let shown = if std::io::stdout().is_terminal() { shinpan::diag::printable(&text) } else { text.into() };
            ExitStatus::written(say(&shown))
        }
        Err(why) => {
            eprintln!("shinpan: `{name}` is no built-in rules name, and the file cannot be read: {why}");
            ExitStatus::Usage
        }
    }
}

/// The rules of a built-in name or a path; else the exit status, the reason printed (bad
/// usage for an unknown name, `Errors` for a rules file with errors).
pub fn compiled(name: &str) -> Result<Rules, ExitStatus> {
    Rules::new(name).map_err(|e| failed(&e))
}

/// Prints why rules could not be used: the usage error, or the rules file's diagnostics.
pub fn failed(e: &shinpan::RulesError) -> ExitStatus {
    if e.code == shinpan::codes::USAGE {
        eprintln!("shinpan: {}", e.message);
        ExitStatus::Usage
    } else {
        eprint!("{e}");
        ExitStatus::Errors
    }
}
