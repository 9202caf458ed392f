//! The `shinpan` command: arguments in, the engine's reports out, an exit status per the
//! contract. Each subcommand is a module of `commands`; what they read is `inputs`.

#[macro_use]
mod output;
mod args;
mod commands;
mod exit;
mod inputs;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command, Format};
use crate::commands::{check, explain, fmt, import, lint, play, referee, replay, rules};
use crate::exit::ExitStatus;

/// mimalloc: the interpreter builds and drops many small lists and maps, and mimalloc's
/// per-thread free lists make that about a tenth faster than the system allocator
/// (`scripts/bench.sh`, playouts).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| eprintln!("shinpan: internal error (please report it): {info}")));
    // Everything runs on a thread with the stack the engine needs, as its checking threads do.
    let run = std::thread::Builder::new().name("shinpan".into()).stack_size(shinpan::STACK_BYTES).spawn(run);
    match run.map(|t| t.join()) {
        Ok(Ok(status)) => status.into(),
        _ => ExitStatus::Internal.into(),
    }
}

fn run() -> ExitStatus {
    let cli = match Cli::try_parse() {
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
