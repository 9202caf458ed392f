//! The `shinpan` command: arguments in, the engine's reports out, an exit status per the
//! contract. Each subcommand is a module of `commands`; what they read is `inputs`.
//!
//! A library with one entry point, [`main_with_args`], so that the binary (`main.rs`) and the
//! Python package's `shinpan` command (`python/`, through its extension module) are the same
//! command line: the same arguments, output and exit codes.

#[macro_use]
mod output;
mod args;
mod commands;
mod exit;
mod inputs;

use std::ffi::OsString;
use std::io::Write;

use clap::Parser;

use crate::args::{Cli, Command, Format};
use crate::commands::{check, explain, fmt, import, lint, play, referee, replay, rules};
use crate::exit::ExitStatus;

/// Runs the command line on `args` (the program's name first, as `std::env::args_os` gives
/// them) and returns its exit code: 0, 1, 2, 64, 70 or 74 (`exit::ExitStatus`). Standard input,
/// output and error are the process's own; output is flushed before this returns. A panic is
/// reported as an internal error (70) on standard error, never unwound into the caller; the
/// caller's panic hook is put back afterwards.
pub fn main_with_args<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| eprintln!("shinpan: internal error (please report it): {info}")));
    // Everything runs on a thread with the stack the engine needs, as its checking threads do.
    let spawned =
        std::thread::Builder::new().name("shinpan".into()).stack_size(shinpan::STACK_BYTES).spawn(move || run(args));
    let status = match spawned.map(|t| t.join()) {
        Ok(Ok(status)) => status,
        _ => ExitStatus::Internal,
    };
    std::panic::set_hook(hook);
    // Text written without a final newline waits in the line buffer of `std::io::stdout`, which
    // only a binary's own exit flushes (not a Python process that loaded this as a library).
    let flushed = std::io::stdout().flush().is_ok();
    status.max(if flushed { ExitStatus::Success } else { ExitStatus::WriteFailed }).code()
}

fn run(args: Vec<OsString>) -> ExitStatus {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            let ok = matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion);
            return if ok { ExitStatus::Success } else { ExitStatus::Usage };
        }
    };
    match cli.command {
        Command::Check { format, rules, jobs, only_builtin_rules, variant, files_from, all, stream, paths } => {
            let setup = check::Setup { rules, builtin_only: only_builtin_rules, variant, all };
            let paths = match inputs::with_listed(paths, files_from.as_deref()) {
                Ok(paths) => paths,
                Err(why) => {
                    eprintln!("shinpan: {why}");
                    return ExitStatus::Usage;
                }
            };
            match (stream, format) {
                (true, Some(Format::Human)) => {
                    eprintln!("shinpan: --stream writes JSON Lines; it cannot be used with --format human");
                    ExitStatus::Usage
                }
                (true, _) => check::stream(&setup, &paths),
                (false, _) => check::paths(format, &setup, jobs, &paths),
            }
        }
        Command::Lint { paths } => lint::run(&paths),
        Command::Fmt { check, paths } => fmt::run(&paths, check),
        Command::Lsp => ExitStatus::of_language_server(shinpan_lsp::run()),
        Command::Rules { name, source } => rules::run(name.as_deref(), source),
        Command::Explain { rule, rules } => explain::run(&rule, rules.as_deref()),
        Command::Replay { path, at, format, rules, all, html } => match html {
            Some(out) => replay::page(&path, &out, rules.as_deref(), all),
            None => replay::run(&path, at, format, rules.as_deref(), all),
        },
        Command::Import { paths, out, overwrite } => import::run(&paths, &out, overwrite),
        Command::Play { rules, players, seed, max_events, variant, games, stats, format } => {
            play::run(&play::Play { rules, players, seed, max_events, variant, games, stats, format })
        }
        Command::Referee { only_builtin_rules, max_games, max_line_bytes, max_events } => {
            referee::run(&referee::Limits { builtin_only: only_builtin_rules, max_games, max_line_bytes, max_events })
        }
    }
}
