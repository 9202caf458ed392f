//! The `shinpan` command: arguments in, reports out, exit code per the contract.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use shinpan::check::{Checker, Report, Verdict};
use shinpan::{diag, render};

#[derive(Parser)]
#[command(name = "shinpan", version, about = "Checks recorded card games against rules written as spec files")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check transcripts (files, or directories searched for *.yaml, *.yml, *.json)
    Check {
        /// Output format; human on a terminal, json otherwise
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Rules to use instead of each transcript's `rules` (a built-in name or a .rules path)
        #[arg(long)]
        rules: Option<String>,
        /// Transcripts checked at once (default: one per core)
        #[arg(long)]
        jobs: Option<usize>,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Check rules files and print their diagnostics
    Lint {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// List the built-in rules with their parameters
    Rules,
    /// Write a random legal transcript
    Play {
        #[arg(long)]
        rules: String,
        #[arg(long)]
        players: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Stop after this many events
        #[arg(long, default_value_t = 100_000)]
        max_events: usize,
    },
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Format {
    Human,
    Json,
}

const USAGE: u8 = 64;

/// Writes to standard output; a closed pipe (`| head`) ends the output quietly, not in a panic.
fn say(text: &str) -> bool {
    std::io::stdout().lock().write_all(text.as_bytes()).is_ok()
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            let ok = matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion);
            return ExitCode::from(if ok { 0 } else { USAGE });
        }
    };
    ExitCode::from(match cli.command {
        Command::Check { format, rules, jobs, paths } => check(format, rules, jobs, &paths),
        Command::Lint { paths } => lint(&paths),
        Command::Rules => list_rules(),
        Command::Play { rules, players, seed, max_events } => play(&rules, players, seed, max_events),
    })
}

fn check(format: Option<Format>, rules: Option<String>, jobs: Option<usize>, paths: &[PathBuf]) -> u8 {
    let format = format.unwrap_or(if std::io::stdout().is_terminal() { Format::Human } else { Format::Json });
    let files = match transcript_files(paths) {
        Ok(f) => f,
        Err(message) => {
            eprintln!("shinpan: {message}");
            return USAGE;
        }
    };
    let color = std::io::stdout().is_terminal();
    let jobs = jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, files.len().max(1));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut worst = 0u8;
    let write = |(code, text): (u8, String), worst: &mut u8| {
        *worst = (*worst).max(code);
        writeln!(out, "{text}").is_ok()
    };
    in_order(
        &files,
        jobs,
        &rules,
        |checker, file| render_one(&checker.check_path(file), format, color),
        write,
        &mut worst,
    );
    worst
}

/// Checks files on `jobs` threads, each with its own compiled rules, and hands the results
/// to `emit` in the order of `files`. Only results that finished early wait in memory.
fn in_order(
    files: &[PathBuf],
    jobs: usize,
    rules: &Option<String>,
    work: impl Fn(&mut Checker, &Path) -> (u8, String) + Sync,
    mut emit: impl FnMut((u8, String), &mut u8) -> bool,
    worst: &mut u8,
) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::sync_channel::<(usize, (u8, String))>(jobs * 4);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let send = send.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                let mut checker = Checker::new(rules.clone());
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(file) = files.get(i) else { break };
                    if send.send((i, work(&mut checker, file))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 0;
        for (i, result) in receive {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&due) {
                if !emit(result, worst) {
                    *worst = 2;
                }
                due += 1;
            }
        }
    });
}

fn render_one(report: &Report, format: Format, color: bool) -> (u8, String) {
    let text = match format {
        Format::Json => render::json_line(report),
        Format::Human => human(report, color),
    };
    (exit_code(report), text)
}

fn exit_code(r: &Report) -> u8 {
    match r.verdict {
        Verdict::Legal => 0,
        Verdict::Illegal => 1,
        Verdict::Malformed => 2,
    }
}

fn human(r: &Report, color: bool) -> String {
    let mut text: String = render::diagnostics(r).iter().map(|d| diag::render_fancy(d, color)).collect();
    text.push_str(&render::summary(r));
    text
}

/// Files in the order given, directories expanded recursively and sorted by path.
fn transcript_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = vec![];
    for p in paths {
        if p.is_dir() {
            let mut found = vec![];
            walk(p, &mut found, &|f| matches!(f.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json")));
            found.sort();
            files.extend(found);
        } else if p.exists() {
            files.push(p.clone());
        } else {
            return Err(format!("no such file or directory: {}", p.display()));
        }
    }
    Ok(files)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, keep: &dyn Fn(&Path) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out, keep);
        } else if keep(&path) {
            out.push(path);
        }
    }
}

fn lint(paths: &[PathBuf]) -> u8 {
    let mut files = vec![];
    for p in paths {
        if p.is_dir() {
            walk(p, &mut files, &|f| f.extension().is_some_and(|e| e == "rules"));
        } else {
            files.push(p.clone());
        }
    }
    files.sort();
    let mut worst = 0;
    for f in files {
        let text = match shinpan::check::read_rules(&f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("shinpan: cannot read {}: {e}", f.display());
                worst = 2;
                continue;
            }
        };
        let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
        match shinpan::compile_in(&f.display().to_string(), &text, &dir) {
            Ok(_) => {
                say(&format!("{}: ok\n", f.display()));
            }
            Err(diags) => {
                worst = 2;
                for d in diags {
                    say(&diag::render_fancy(&d, std::io::stdout().is_terminal()));
                }
            }
        }
    }
    worst
}

fn list_rules() -> u8 {
    for (name, text) in shinpan::specs::BUILTIN {
        match shinpan::compile(name, text) {
            Ok(p) => {
                let params: String = p.params.iter().map(|param| format!("  {}\n", param.name)).collect();
                say(&format!("{name} ({}..{} players)\n{params}", p.players.0, p.players.1));
            }
            Err(_) => {
                say(&format!("{name} (has errors; run `shinpan lint`)\n"));
            }
        }
    }
    0
}

fn play(rules: &str, players: usize, seed: u64, max_events: usize) -> u8 {
    let mut checker = Checker::new(None);
    let program = match checker.program(rules, Path::new(".")) {
        Ok(p) => p,
        Err(shinpan::check::Lookup::Unknown(m)) => {
            eprintln!("shinpan: {m}");
            return USAGE;
        }
        Err(shinpan::check::Lookup::Broken(diags)) => {
            diags.iter().for_each(|d| eprint!("{}", diag::render_plain(d)));
            return 2;
        }
    };
    match shinpan::play::playout(&program, players, seed, max_events) {
        Ok(p) => {
            say(&shinpan::play::transcript_text(&program, &p));
            0
        }
        Err(d) => {
            eprint!("{}", diag::render_plain(&d));
            2
        }
    }
}
