//! The `shinpan` command: arguments in, reports out, exit code per the contract.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use shinpan::report::check::{Checker, Report, Verdict};
use shinpan::transcript::{Problem, Yaml};
use shinpan::{diag, report::render};

/// Every message on standard error is shown with controls escaped (`diag::printable`): the
/// names of files and the text read from them reach it. (Diagnostics are escaped where they
/// are rendered, and printed with `eprint!`, their colours intact.)
macro_rules! eprintln {
    ($($arg:tt)*) => {
        std::eprintln!("{}", shinpan::diag::printable(&format!($($arg)*)))
    };
}

/// mimalloc: the interpreter builds and drops many small lists and maps, and mimalloc's
/// per-thread free lists make that about a tenth faster than the system allocator
/// (`scripts/bench.sh`, playouts).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The exit statuses, as `--help` lists them.
const EXIT_CODES: &str = "Exit status of `check`: 0 every transcript legal, 1 some illegal and none malformed, \
                          2 some malformed (or a rules file with errors), 64 bad usage, 74 the output could not be written.";

#[derive(Parser)]
#[command(
    name = "shinpan",
    version,
    about = "Checks recorded card games against rules written as spec files",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check transcripts (files, or directories searched for *.yaml, *.yml, *.json), and the
    /// deals of record files (*.pbn, *.lin), each deal a transcript `PATH#N`
    #[command(after_help = EXIT_CODES)]
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
        /// Let transcripts name only built-in rules, never a rules file (for servers that
        /// check uploaded games)
        #[arg(long)]
        only_builtin_rules: bool,
        /// A parameter over every transcript's `variant`, the value read as YAML
        /// (`--variant hand_size=9`); repeat for more
        #[arg(long, value_name = "KEY=VALUE", value_parser = parse_variant)]
        variant: Vec<(String, Yaml)>,
        /// Also check the paths listed in FILE, one per line (`-`: standard input)
        #[arg(long, value_name = "FILE")]
        files_from: Option<PathBuf>,
        /// Go on past every broken rule that lets the move stand (`stands` in the rules), and
        /// report every violation in order; stop at one that does not
        #[arg(long)]
        all: bool,
        /// Read JSON Lines: each line of each path (`-`: standard input) is one transcript, and
        /// its verdict line is written as soon as it is judged
        #[arg(long)]
        stream: bool,
        /// Transcript files, or directories searched for them; `-` reads one transcript from
        /// standard input
        #[arg(required_unless_present = "files_from")]
        paths: Vec<PathBuf>,
    },
    /// Write each deal of record files (*.pbn, *.lin) as a transcript `OUT/<file>-<NNNN>.yaml`
    Import {
        /// Record files
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The directory the transcripts are written to (made if missing)
        #[arg(long)]
        out: PathBuf,
        /// Replace the files of an earlier import of the same records in OUT (without it, an
        /// import that would replace a file is refused before anything is written)
        #[arg(long)]
        overwrite: bool,
    },
    /// Check rules files and print their diagnostics
    Lint {
        /// Rules files, or directories searched for *.rules
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Lay rules files out in the one canonical way (indentation, spacing, line breaks),
    /// rewriting them in place; comments stay where they are
    Fmt {
        /// Rewrite nothing: print a diff for each file that would change, and exit 1 if one would
        #[arg(long)]
        check: bool,
        /// Rules files, or directories searched for *.rules
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Start the language server for rules files on standard input and output (for an
    /// editor: diagnostics as you type, hover, go to definition, completion, outline)
    Lsp,
    /// List the built-in rules with their players, parameters (type, range, default) and rule
    /// ids; or one game's, or its rules file (`--source`)
    Rules {
        /// A built-in rules name or a .rules path (default: every built-in game)
        name: Option<String>,
        /// Print the rules file itself (a built-in's text, to read where a diagnostic points)
        #[arg(long, requires = "name")]
        source: bool,
    },
    /// What a rule id means: its text, the rulebook section it cites, whether a move breaking
    /// it stands, and where the rules file checks it
    Explain {
        /// The rule id, as a verdict names it (`not-held`)
        rule: String,
        /// A built-in rules name or a .rules path (default: every built-in game with the rule)
        #[arg(long)]
        rules: Option<String>,
    },
    /// Replay a transcript: each event as written with the state of the game after it (the
    /// rules' `view`), the violation marked
    #[command(after_help = EXIT_CODES)]
    Replay {
        /// A transcript file
        path: PathBuf,
        /// Only event N (from 0) and the state after it (before it, for the broken event)
        #[arg(long, value_name = "N")]
        at: Option<usize>,
        /// Output format: human, or json (one line per event)
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Rules to use instead of the transcript's `rules` (a built-in name or a .rules path)
        #[arg(long)]
        rules: Option<String>,
        /// Go on past the moves that stand, as `check --all` does
        #[arg(long)]
        all: bool,
        /// Write the replay as one self-contained page (no network, no other file) to OUT
        #[arg(long, value_name = "OUT")]
        html: Option<PathBuf>,
    },
    /// Write a random legal transcript
    Play {
        /// A built-in rules name or a .rules path
        #[arg(long)]
        rules: String,
        /// How many players (within the game's range; needed only where the game allows more
        /// than one count)
        #[arg(long)]
        players: Option<usize>,
        /// Seed of the random choices: the same seed gives the same game
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Stop after this many events
        #[arg(long, default_value_t = shinpan::play::MAX_PLAYOUT_EVENTS)]
        max_events: usize,
        /// A parameter of the game, the value read as YAML (`--variant hand_size=9`); repeat
        /// for more. The transcript records it under `variant`.
        #[arg(long, value_name = "KEY=VALUE", value_parser = parse_variant)]
        variant: Vec<(String, Yaml)>,
        /// Play N games, seeds S to S+N-1, written as JSON Lines (one transcript a line, for
        /// `shinpan check --stream -`)
        #[arg(long, value_name = "N")]
        games: Option<usize>,
        /// Instead of the games, print what a designer compares between variants: length,
        /// each seat's mean score and win rate, actions taken, endings, events per second
        #[arg(long)]
        stats: bool,
        /// Format of --stats: human, or json
        #[arg(long, value_enum, default_value = "human", requires = "stats")]
        format: Format,
    },
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Format {
    Human,
    Json,
}

const USAGE: u8 = 64;
/// The output could not be written (a full disk, a closed pipe): sysexits' EX_IOERR.
const WRITE_FAILED: u8 = 74;
/// Stack of every thread that compiles or runs rules. The engine's limits (nesting of
/// expressions, of values and of calls) keep its deepest recursion well within this.
const STACK: usize = 64 * 1024 * 1024;
/// Most checking threads, whatever `--jobs` asks.
const MAX_JOBS: usize = 256;

/// Writes to standard output and flushes it; whether it was written. A closed pipe (`| head`)
/// or a full disk is a `false`, never a panic: the command then exits `WRITE_FAILED`.
fn say(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_ok()
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| eprintln!("shinpan: internal error (please report it): {info}")));
    // Everything runs on a thread with a known stack, the same as the checking workers'.
    let run = std::thread::Builder::new().name("shinpan".into()).stack_size(STACK).spawn(run);
    match run.map(|t| t.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => ExitCode::from(70),
    }
}

fn run() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            let ok = matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion);
            return if ok { 0 } else { USAGE };
        }
    };
    match cli.command {
        Command::Check { format, rules, jobs, only_builtin_rules, variant, files_from, all, stream, paths } => {
            let setup = Setup { rules, builtin_only: only_builtin_rules, variant, all };
            let paths = match with_listed(paths, files_from.as_deref()) {
                Ok(paths) => paths,
                Err(why) => {
                    eprintln!("shinpan: {why}");
                    return USAGE;
                }
            };
            if stream {
                if format == Some(Format::Human) {
                    eprintln!("shinpan: --stream writes JSON Lines; it cannot be used with --format human");
                    return USAGE;
                }
                return check_stream(&setup, &paths);
            }
            check(format, setup, jobs, &paths)
        }
        Command::Lint { paths } => lint(&paths),
        Command::Fmt { check, paths } => fmt(&paths, check),
        Command::Lsp => shinpan::lsp::run(),
        Command::Rules { name, source } => rules_command(name.as_deref(), source),
        Command::Explain { rule, rules } => explain_command(&rule, rules.as_deref()),
        Command::Replay { path, at, format, rules, all, html } => match html {
            Some(out) => replay_page(&path, &out, rules, all),
            None => replay(&path, at, format, rules, all),
        },
        Command::Import { paths, out, overwrite } => import(&paths, &out, overwrite),
        Command::Play { rules, players, seed, max_events, variant, games, stats, format } => {
            let many = Many { games, stats, format };
            play(&rules, players, seed, max_events, &variant, many)
        }
    }
}

/// How every worker's checker is set up.
#[derive(Clone)]
struct Setup {
    rules: Option<String>,
    builtin_only: bool,
    variant: Vec<(String, Yaml)>,
    all: bool,
}

impl Setup {
    fn checker(&self) -> Checker {
        let mut checker = Checker::new(self.rules.clone());
        checker.builtin_only = self.builtin_only;
        checker.variant = self.variant.clone();
        checker.all = self.all;
        checker
    }
}

/// `KEY=VALUE`, the value read as YAML (so `9` is a number and `[1, 2]` a list).
fn parse_variant(text: &str) -> Result<(String, Yaml), String> {
    let Some((key, value)) = text.split_once('=') else {
        return Err(format!("`{text}` is not KEY=VALUE"));
    };
    let value = shinpan::transcript::parse_value(value).map_err(|e| format!("the value of `{key}`: {}", e.message))?;
    Ok((key.trim().to_string(), value))
}

/// Whether to colour: on a terminal, unless `NO_COLOR` is set (no-color.org).
fn color() -> bool {
    color_on(std::io::stdout().is_terminal())
}

/// Colour for a stream that is a terminal, unless `NO_COLOR` is set.
fn color_on(terminal: bool) -> bool {
    terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The paths given, then those listed in `list` (one per line; `-` is standard input).
/// Standard input can be read once: as the list or as a transcript, not both.
fn with_listed(mut paths: Vec<PathBuf>, list: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let Some(list) = list else { return Ok(paths) };
    let text = if list == Path::new("-") {
        if paths.iter().any(|p| p == Path::new("-")) {
            return Err("standard input is read once: as the list of paths or as a transcript, not both".into());
        }
        let bytes = shinpan::files::read_bounded(std::io::stdin().lock(), shinpan::files::MAX_LIST_BYTES)
            .map_err(|e| format!("cannot read the list of paths from standard input: {}", e.message()))?;
        String::from_utf8(bytes).map_err(|_| "the list of paths on standard input is not UTF-8 text".to_string())?
    } else {
        shinpan::files::read_text(list, shinpan::files::MAX_LIST_BYTES).map_err(|e| {
            let hint =
                if list.exists() && !list.is_file() { " (give `--files-from -` to read it from a pipe)" } else { "" };
            format!("cannot read the list of paths {}: {}{hint}", list.display(), e.message())
        })?
    };
    paths.extend(text.lines().map(|l| l.trim_end_matches('\r')).filter(|l| !l.is_empty()).map(PathBuf::from));
    Ok(paths)
}

fn check(format: Option<Format>, setup: Setup, jobs: Option<usize>, paths: &[PathBuf]) -> u8 {
    let format = format.unwrap_or(if std::io::stdout().is_terminal() { Format::Human } else { Format::Json });
    let inputs = transcript_inputs(paths, setup.builtin_only);
    let color = color();
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let jobs = jobs.clamp(1, inputs.len().clamp(1, MAX_JOBS));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut worst = 0u8;
    let mut failed: Option<std::io::Error> = None;
    let emit = |(code, text): (u8, String)| {
        worst = worst.max(code);
        match writeln!(out, "{text}") {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    };
    in_order(&inputs, jobs, &setup, |report| render_one(report, format, color), emit);
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
            WRITE_FAILED
        }
    }
}

/// A path to check, or why it cannot be read (it still gets a verdict, in its place), or a
/// transcript already read (from standard input, or one line of a stream).
enum Input {
    File(PathBuf),
    Unreadable(PathBuf, Problem, String),
    Text { name: PathBuf, text: String, line: usize },
}

impl Input {
    fn path(&self) -> &Path {
        match self {
            Input::File(p) | Input::Unreadable(p, ..) | Input::Text { name: p, .. } => p,
        }
    }
}

/// Checks one input; a panic inside shinpan becomes this input's malformed verdict, so the
/// other files of the run keep theirs.
fn judge(
    checker: &mut Checker,
    setup: &Setup,
    input: &Input,
    render: &dyn Fn(&Report) -> (u8, String),
) -> (u8, String) {
    let file = input.path().display().to_string();
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let reports = match input {
            Input::File(path) if shinpan::import::is_record(path) => checker.check_record(path),
            Input::File(path) => vec![checker.check_path(path)],
            Input::Unreadable(_, problem, why) => vec![Report::unreadable(&file, *problem, why.clone())],
            // Relative rules paths are taken from the working directory.
            Input::Text { text, line, .. } => {
                vec![checker.check_text(&file, text.clone(), Path::new("")).on_stream_line(*line)]
            }
        };
        // A record file holds many deals: one verdict each, in the file's order.
        let rendered: Vec<(u8, String)> = reports.iter().map(render).collect();
        let worst = rendered.iter().map(|(code, _)| *code).max().unwrap_or(0);
        (worst, rendered.into_iter().map(|(_, text)| text).collect::<Vec<_>>().join("\n"))
    }));
    attempt.unwrap_or_else(|payload| {
        *checker = setup.checker();
        let what = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("unknown");
        let message =
            format!("shinpan failed inside while checking this file (an internal error, please report it): {what}");
        render(&Report::unreadable(&file, Problem::Internal, message))
    })
}

/// Checks inputs on `jobs` threads, each with its own compiled rules, and hands the results
/// to `emit` in the order of `inputs`. Only results that finished early wait in memory. When
/// `emit` fails (the output is gone), the run stops.
fn in_order(
    inputs: &[Input],
    jobs: usize,
    setup: &Setup,
    render: impl Fn(&Report) -> (u8, String) + Sync,
    mut emit: impl FnMut((u8, String)) -> bool,
) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::sync_channel::<(usize, (u8, String))>(jobs * 4);
    std::thread::scope(|scope| {
        let mut started = 0;
        for _ in 0..jobs {
            let send = send.clone();
            let (next, render) = (&next, &render);
            let worker = move || {
                let mut checker = setup.checker();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(input) = inputs.get(i) else { break };
                    if send.send((i, judge(&mut checker, setup, input, render))).is_err() {
                        break;
                    }
                }
            };
            match std::thread::Builder::new().stack_size(STACK).spawn_scoped(scope, worker) {
                Ok(_) => started += 1,
                Err(e) => eprintln!("shinpan: cannot start a worker thread: {e}"),
            }
        }
        drop(send);
        if started == 0 {
            // No thread could be had: check here, one file after another.
            let mut checker = setup.checker();
            for input in inputs {
                if !emit(judge(&mut checker, setup, input, &render)) {
                    return;
                }
            }
            return;
        }
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 0;
        for (i, result) in receive {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&due) {
                if !emit(result) {
                    // Workers stop at their next send.
                    next.store(inputs.len(), std::sync::atomic::Ordering::Relaxed);
                    return;
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

/// Every path given, in order; directories expanded recursively (each once, however many
/// links lead to it) and sorted by path. A path that cannot be read keeps its place, with
/// the reason, so that it gets a verdict rather than ending the run.
fn transcript_inputs(paths: &[PathBuf], confine: bool) -> Vec<Input> {
    let is_transcript = |f: &Path| {
        matches!(f.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json")) || shinpan::import::is_record(f)
    };
    let mut walk = Walk { keep: &is_transcript, seen: std::collections::HashSet::new(), confine };
    let mut inputs = vec![];
    for p in paths {
        if p == Path::new("-") {
            inputs.push(stdin_transcript());
            continue;
        }
        match std::fs::metadata(p) {
            Ok(meta) if meta.is_dir() => {
                let mut found = vec![];
                walk.folder(p, &mut found);
                found.sort_by(|a, b| a.path().cmp(b.path()));
                inputs.extend(found);
            }
            Ok(_) => inputs.push(Input::File(p.clone())),
            Err(e) => inputs.push(Input::Unreadable(p.clone(), Problem::Unreadable, shinpan::files::io_words(&e))),
        }
    }
    inputs
}

/// The transcript on standard input, read whole (up to the size a transcript file may have).
fn stdin_transcript() -> Input {
    let name = PathBuf::from("-");
    let bytes = match shinpan::files::read_bounded(std::io::stdin().lock(), shinpan::report::check::MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(shinpan::files::Unread::TooLarge(why)) => {
            return Input::Unreadable(name, Problem::TooLarge, format!("standard input: {why}"));
        }
        Err(shinpan::files::Unread::Unreadable(why)) => {
            return Input::Unreadable(name, Problem::Unreadable, format!("cannot read standard input: {why}"));
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Input::Text { name, text, line: 1 },
        Err(_) => Input::Unreadable(name, Problem::Unreadable, "standard input is not UTF-8 text".into()),
    }
}

/// `--stream`: each line of each path is one transcript (JSON, or YAML on one line); each
/// verdict line is written and flushed before the next line is read, so a long-lived process
/// can serve a pipe. Blank lines (nothing but spaces and tabs) are skipped; every other line
/// gets a verdict, and one that cannot be read gets its own malformed verdict and the next line
/// is still judged. One thread: the order is the input's.
fn check_stream(setup: &Setup, paths: &[PathBuf]) -> u8 {
    let mut checker = setup.checker();
    let mut out = std::io::stdout().lock();
    let mut worst = 0;
    let render = |r: &Report| render_one(r, Format::Json, false);
    for path in paths {
        let reader: Box<dyn std::io::BufRead> = if path == Path::new("-") {
            Box::new(std::io::stdin().lock())
        } else {
            match shinpan::files::open_stream(path) {
                Ok(f) => Box::new(std::io::BufReader::new(f)),
                Err(why) => {
                    let (code, text) = render(&Report::unread(&path.display().to_string(), why));
                    worst = worst.max(code);
                    if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
                        return WRITE_FAILED;
                    }
                    continue;
                }
            }
        };
        match stream_lines(reader, path, &mut checker, setup, &render, &mut out) {
            Ok(code) => worst = worst.max(code),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return WRITE_FAILED,
            Err(e) => {
                eprintln!("shinpan: {}: {}", path.display(), shinpan::files::io_words(&e));
                return WRITE_FAILED;
            }
        }
    }
    worst
}

/// Judges every line of one stream; an error is the output's (or the input's) failing.
fn stream_lines(
    mut reader: Box<dyn std::io::BufRead>,
    path: &Path,
    checker: &mut Checker,
    setup: &Setup,
    render: &dyn Fn(&Report) -> (u8, String),
    out: &mut impl Write,
) -> std::io::Result<u8> {
    let limit = usize::try_from(shinpan::report::check::MAX_FILE_BYTES).unwrap_or(usize::MAX);
    let mut worst = 0;
    let mut buf = vec![];
    let mut number = 0;
    while let Some(too_long) = read_line_bounded(&mut reader, &mut buf, limit)? {
        number += 1;
        let name = PathBuf::from(format!("{}#{number}", path.display()));
        let input = match std::str::from_utf8(&buf) {
            _ if too_long => {
                Input::Unreadable(name, Problem::TooLarge, format!("line {number} is longer than {limit} bytes"))
            }
            Ok(text) if is_blank(text) => continue,
            Ok(text) => Input::Text { name, text: text.to_string(), line: number },
            Err(_) => Input::Unreadable(name, Problem::Unreadable, format!("line {number} is not UTF-8 text")),
        };
        let (code, text) = judge(checker, setup, &input, render);
        worst = worst.max(code);
        writeln!(out, "{text}")?;
        out.flush()?;
    }
    Ok(worst)
}

/// A blank line of a stream: nothing but spaces and tabs. Other white space (a no-break
/// space, a form feed, U+2028) is not blank: such a line is judged, and is malformed.
fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ' || b == b'\t')
}

/// Reads one line, without its end, into `buf`, keeping at most `max` bytes of it (the rest
/// is skipped, so a huge line costs no memory). `None` at the end of the input; else whether
/// the line was longer than `max`.
fn read_line_bounded(r: &mut dyn std::io::BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<Option<bool>> {
    buf.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then(|| within(buf, max, too_long)));
        }
        any = true;
        let end = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..end.unwrap_or(chunk.len())];
        // One byte more than the cap is kept: the `\r` of a `\r\n` is not the line's.
        let room = (max + 1).saturating_sub(buf.len());
        too_long |= part.len() > room;
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = end.map_or(chunk.len(), |e| e + 1);
        r.consume(used);
        if end.is_some() {
            if !too_long && buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Some(within(buf, max, too_long)));
        }
    }
}

/// Cuts a line read to `max` bytes; whether it was longer.
fn within(buf: &mut Vec<u8>, max: usize, too_long: bool) -> bool {
    let longer = too_long || buf.len() > max;
    buf.truncate(max);
    longer
}

/// How a directory is walked: which files are kept, which directories were seen (by their
/// real path), and, when links may not lead out of the folder given, that folder's real path.
struct Walk<'a> {
    keep: &'a dyn Fn(&Path) -> bool,
    seen: std::collections::HashSet<PathBuf>,
    confine: bool,
}

impl Walk<'_> {
    /// The files under `dir` that `keep` accepts, each directory walked once however many links
    /// lead to it; one that cannot be read is reported in its place.
    fn folder(&mut self, dir: &Path, out: &mut Vec<Input>) {
        // A folder that cannot be resolved is reported by `under`, which reads nothing of it.
        let root = if self.confine { std::fs::canonicalize(dir).ok() } else { None };
        self.under(dir, root.as_deref(), out);
    }

    fn under(&mut self, dir: &Path, root: Option<&Path>, out: &mut Vec<Input>) {
        let Ok(real) = std::fs::canonicalize(dir) else {
            out.push(Input::Unreadable(dir.to_path_buf(), Problem::Unreadable, "cannot resolve the directory".into()));
            return;
        };
        if !self.seen.insert(real) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                let why = format!("cannot read the directory: {}", shinpan::files::io_words(&e));
                out.push(Input::Unreadable(dir.to_path_buf(), Problem::Unreadable, why));
                return;
            }
        };
        for entry in entries {
            match entry {
                Ok(entry) => self.entry(entry.path(), root, out),
                Err(e) => {
                    let why = format!("cannot read the directory: {}", shinpan::files::io_words(&e));
                    out.push(Input::Unreadable(dir.to_path_buf(), Problem::Unreadable, why));
                }
            }
        }
    }

    fn entry(&mut self, path: PathBuf, root: Option<&Path>, out: &mut Vec<Input>) {
        let meta = std::fs::metadata(&path);
        let wanted = meta.as_ref().map_or_else(|_| (self.keep)(&path), |m| m.is_dir() || (self.keep)(&path));
        if !wanted {
            return;
        }
        if let Some(root) = root
            && leads_out_of(&path, root)
        {
            let why = "it is a link that leads out of the folder given, which --only-builtin-rules does not follow";
            out.push(Input::Unreadable(path, Problem::Unreadable, why.into()));
            return;
        }
        match meta {
            Ok(meta) if meta.is_dir() => self.under(&path, root, out),
            Ok(_) => out.push(Input::File(path)),
            Err(e) => out.push(Input::Unreadable(path, Problem::Unreadable, shinpan::files::io_words(&e))),
        }
    }
}

/// Whether `path`, once its links are followed, is somewhere outside `root` (a real path).
/// A dangling link leads nowhere: reading it fails on its own.
fn leads_out_of(path: &Path, root: &Path) -> bool {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    is_link && std::fs::canonicalize(path).is_ok_and(|real| !real.starts_with(root))
}

/// The rules files given, and those in the directories given (*.rules), sorted.
fn rules_inputs(paths: &[PathBuf]) -> Vec<Input> {
    let is_rules = |f: &Path| f.extension().is_some_and(|e| e == "rules");
    let mut walk = Walk { keep: &is_rules, seen: std::collections::HashSet::new(), confine: false };
    let mut inputs = vec![];
    for p in paths {
        if p.is_dir() {
            walk.folder(p, &mut inputs);
        } else {
            inputs.push(Input::File(p.clone()));
        }
    }
    inputs.sort_by(|a, b| a.path().cmp(b.path()));
    inputs
}

fn read_rules_input(input: &Input) -> Result<String, String> {
    match input {
        Input::File(path) => shinpan::files::read_rules(path),
        Input::Unreadable(_, _, why) => Err(why.clone()),
        Input::Text { text, .. } => Ok(text.clone()),
    }
}

fn lint(paths: &[PathBuf]) -> u8 {
    let mut worst = 0;
    for input in &rules_inputs(paths) {
        let f = input.path();
        let text = match read_rules_input(input) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("shinpan: cannot read {}: {e}", f.display());
                worst = 2;
                continue;
            }
        };
        let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
        let label = f.display().to_string();
        let compiled = std::panic::catch_unwind(|| shinpan::compile_in(&label, &text, &dir).map(|_| ()));
        let said = match compiled {
            Ok(Ok(())) => say(&diag::printable(&format!("{label}: ok\n"))),
            Ok(Err(diags)) => {
                worst = 2;
                say(&diags.iter().map(|d| diag::render_fancy(d, color())).collect::<String>())
            }
            Err(_) => {
                worst = 2;
                true
            }
        };
        if !said {
            return WRITE_FAILED;
        }
    }
    worst
}

/// Formats each rules file in place, or (`--check`) prints the diff formatting would make:
/// exit 1 when a file would change, 2 when one cannot be read, parsed or written; the other
/// files are still handled.
fn fmt(paths: &[PathBuf], check: bool) -> u8 {
    let mut worst = 0;
    for input in &rules_inputs(paths) {
        let path = input.path();
        let label = path.display().to_string();
        let text = match read_rules_input(input) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("shinpan: cannot read {label}: {e}");
                worst = 2;
                continue;
            }
        };
        let formatted = match shinpan::lang::fmt::format_source(&text) {
            Ok(formatted) => formatted,
            Err(diags) => {
                let source = diag::source(&label, &text);
                for d in diags {
                    eprint!("{}", diag::render_fancy(&d.in_source(&source), color_on(std::io::stderr().is_terminal())));
                }
                worst = 2;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        if check {
            let diff = similar::TextDiff::from_lines(&text, &formatted);
            if !say(&diag::printable(&diff.unified_diff().header(&label, &label).to_string())) {
                return WRITE_FAILED;
            }
            worst = worst.max(1);
        } else if let Err(e) = shinpan::files::write_atomically(path, formatted.as_bytes()) {
            eprintln!("shinpan: cannot write {label}: {}", shinpan::files::io_words(&e));
            worst = 2;
        }
    }
    worst
}

/// Writes every deal that can be a transcript; a deal that cannot, or a file that cannot be
/// read, is reported in its place (exit 2) and the rest are still written; a write that fails
/// (a full disk) ends the import (exit 74). Nothing is
/// overwritten unless `overwrite` says so: two inputs that would write the same names, or
/// names already in `out`, are refused before anything is written.
fn import(paths: &[PathBuf], out: &Path, overwrite: bool) -> u8 {
    if let Err(why) = import_names_are_free(paths, out, overwrite) {
        eprintln!("shinpan: {why}");
        return USAGE;
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("shinpan: cannot make {}: {}", out.display(), shinpan::files::io_words(&e));
        return WRITE_FAILED;
    }
    let mut worst = 0;
    for path in paths {
        let text = match shinpan::files::read_lossy(path, shinpan::report::check::MAX_FILE_BYTES) {
            Ok(text) => text,
            Err(why) => {
                eprintln!("shinpan: {}: {}", path.display(), why.message());
                worst = 2;
                continue;
            }
        };
        for deal in shinpan::import::read_deals(path, &text) {
            let target = out.join(import_name(path, deal.number));
            let Ok(t) = &deal.transcript else {
                if let Err(why) = &deal.transcript {
                    eprintln!(
                        "shinpan: {}#{}: line {}: cannot be represented: {why}",
                        path.display(),
                        deal.number,
                        deal.line
                    );
                }
                worst = 2;
                continue;
            };
            // A write that fails (a full disk) fails the rest too: stop, as `check` does when
            // its output is lost, rather than report every deal after it as if it were bad.
            if let Err(why) = write_new(&target, shinpan::import::transcript_text(t).as_bytes(), overwrite) {
                eprintln!("shinpan: {}#{}: {why}", path.display(), deal.number);
                return WRITE_FAILED;
            }
        }
    }
    worst
}

/// The file a deal of a record is imported as: `<stem>-<NNNN>.yaml`.
fn import_name(record: &Path, deal: usize) -> String {
    format!("{}-{deal:04}.yaml", import_stem(record))
}

fn import_stem(record: &Path) -> String {
    record.file_stem().map_or("deal".into(), |s| s.to_string_lossy().into_owned())
}

/// Refuses an import that would write one name twice (two inputs of the same stem, such as
/// `a/match.pbn b/match.lin`) or, without `overwrite`, replace a file an earlier import wrote.
fn import_names_are_free(paths: &[PathBuf], out: &Path, overwrite: bool) -> Result<(), String> {
    let mut stems: std::collections::HashMap<String, &Path> = std::collections::HashMap::new();
    for path in paths {
        if let Some(first) = stems.insert(import_stem(path), path) {
            return Err(format!(
                "{} and {} would both be written as {}: import them into different folders",
                first.display(),
                path.display(),
                out.join(import_name(path, 1).replace("0001", "NNNN")).display()
            ));
        }
    }
    if overwrite {
        return Ok(());
    }
    let Ok(entries) = std::fs::read_dir(out) else { return Ok(()) };
    for name in entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()) {
        if stems.keys().any(|stem| is_import_of(&name, stem)) {
            return Err(format!(
                "{} is there already (from an earlier import?): give --overwrite to replace the files \
                 this import writes, or choose another --out",
                out.join(&name).display()
            ));
        }
    }
    Ok(())
}

/// Whether `name` is one that importing a record of stem `stem` writes (`<stem>-<digits>.yaml`).
fn is_import_of(name: &str, stem: &str) -> bool {
    let digits = name.strip_prefix(stem).and_then(|r| r.strip_prefix('-')).and_then(|r| r.strip_suffix(".yaml"));
    digits.is_some_and(|d| d.len() >= 4 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Writes a new file, never replacing one (`create_new`) unless `overwrite` says so, and then
/// whole or not at all.
fn write_new(target: &Path, bytes: &[u8], overwrite: bool) -> Result<(), String> {
    let words = |e: std::io::Error| format!("cannot write {}: {}", target.display(), shinpan::files::io_words(&e));
    if overwrite {
        // A link planted in OUT is replaced, not followed.
        return shinpan::files::replace_atomically(target, bytes).map_err(words);
    }
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(target).map_err(words)?;
    file.write_all(bytes).and_then(|()| file.sync_all()).map_err(|e| {
        // The file is this import's own: never leave part of a transcript behind.
        let _ = std::fs::remove_file(target);
        words(e)
    })
}

/// `shinpan rules [NAME] [--source]`.
fn rules_command(name: Option<&str>, source: bool) -> u8 {
    let Some(name) = name else {
        let all: Vec<String> = shinpan::lang::specs::BUILTIN.iter().map(|(n, _)| describe_rules(n)).collect();
        return if say(&all.join("\n")) { 0 } else { WRITE_FAILED };
    };
    if source {
        let text = match shinpan::lang::specs::builtin(name) {
            Some(text) => Ok(text.to_string()),
            None => shinpan::files::read_rules(Path::new(name)),
        };
        return match text {
            Ok(text) => {
                // The file itself, byte for byte, into a pipe or a file (to be saved or read by
                // a program); on a terminal, read by a person, its controls are escaped.
                let shown = if std::io::stdout().is_terminal() { diag::printable(&text) } else { text.into() };
                if say(&shown) { 0 } else { WRITE_FAILED }
            }
            Err(why) => {
                eprintln!("shinpan: `{name}` is no built-in rules name, and the file cannot be read: {why}");
                USAGE
            }
        };
    }
    match compiled(&mut Checker::new(None), name) {
        Ok(_) if say(&describe_rules(name)) => 0,
        Ok(_) => WRITE_FAILED,
        Err(code) => code,
    }
}

/// Checks one transcript keeping the game after each event.
fn replayed(path: &Path, rules: Option<String>, all: bool) -> Report {
    let mut checker = Checker::new(rules);
    checker.all = all;
    checker.record_states = true;
    checker.check_path(path)
}

fn replay_page(path: &Path, out: &Path, rules: Option<String>, all: bool) -> u8 {
    if same_file(path, out) {
        eprintln!("shinpan: {} is the transcript itself: give the page another name", out.display());
        return USAGE;
    }
    let report = replayed(path, rules, all);
    let Some(page) = shinpan::report::page::page(&report) else {
        eprint!("{}", human(&report, color()));
        return exit_code(&report);
    };
    if let Err(e) = shinpan::files::write_atomically(out, page.as_bytes()) {
        eprintln!("shinpan: cannot write {}: {}", out.display(), shinpan::files::io_words(&e));
        return WRITE_FAILED;
    }
    exit_code(&report)
}

/// Whether two paths lead to one file (after links), so that writing one would destroy the
/// other.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn replay(path: &Path, at: Option<usize>, format: Format, rules: Option<String>, all: bool) -> u8 {
    let report = replayed(path, rules, all);
    if report.verdict == Verdict::Malformed {
        eprint!("{}", human(&report, color()));
        return exit_code(&report);
    }
    let mut steps = render::replay(&report);
    if let Some(n) = at {
        let Some(step) = steps.iter().position(|s| s.event == n) else {
            let last = steps.last().map_or(0, |s| s.event);
            eprintln!("shinpan: no event {n} was judged in {}; events 0 to {last} were", path.display());
            return USAGE;
        };
        steps = vec![steps.swap_remove(step)];
    }
    let text: String = match format {
        Format::Human => steps.iter().map(render::ReplayStep::human).collect(),
        Format::Json => steps.iter().map(|s| s.json() + "\n").collect(),
    };
    if !say(&text) {
        return WRITE_FAILED;
    }
    exit_code(&report)
}

/// The compiled rules of a built-in name or a path; else the exit code, the reason printed
/// (bad usage for an unknown name, 2 for a rules file with errors).
fn compiled(checker: &mut Checker, name: &str) -> Result<std::rc::Rc<shinpan::program::Program>, u8> {
    match checker.program(name, Path::new(".")) {
        Ok(p) => Ok(p),
        Err(shinpan::report::check::Lookup::Unknown(m)) => {
            eprintln!("shinpan: {m}");
            Err(USAGE)
        }
        Err(shinpan::report::check::Lookup::Broken(diags)) => {
            diags.iter().for_each(|d| eprint!("{}", diag::render_plain(d)));
            Err(2)
        }
    }
}

fn explain_command(rule: &str, rules: Option<&str>) -> u8 {
    let names: Vec<&str> = match rules {
        Some(name) => vec![name],
        None => shinpan::lang::specs::BUILTIN.iter().map(|(n, _)| *n).collect(),
    };
    let mut checker = Checker::new(None);
    let (mut found, mut known) = (vec![], std::collections::BTreeSet::new());
    for name in names {
        let program = match compiled(&mut checker, name) {
            Ok(p) => p,
            Err(code) => return code,
        };
        known.extend(program.rules.iter().map(|r| r.id.clone()));
        found.extend(render::explain(&program, rule));
    }
    if found.is_empty() {
        let known: Vec<String> = known.into_iter().collect();
        let hint = shinpan::diag::did_you_mean(rule, known.iter().map(String::as_str))
            .map_or(String::new(), |m| format!("; did you mean `{m}`?"));
        eprintln!("shinpan: no rule `{rule}` in {}{hint}", rules.unwrap_or("the built-in games"));
        return USAGE;
    }
    if say(&found.join("\n")) { 0 } else { WRITE_FAILED }
}

/// Most characters of a parameter's line in `shinpan rules`.
const MAX_DESCRIBED_LINE: usize = 100;

/// A game's players, parameters as declared (type, range, default) and rule ids in check
/// order, with the file each comes from; controls from the rules file shown escaped.
fn describe_rules(name: &str) -> String {
    diag::printable(&described(name)).into_owned()
}

fn described(name: &str) -> String {
    let program = match Checker::new(None).program(name, Path::new(".")) {
        Ok(p) => p,
        Err(_) => return format!("{name} (has errors; run `shinpan lint`)\n"),
    };
    let (lo, hi) = program.players;
    let players = match &program.seats {
        Some(seats) => format!("players {}", seats.join(", ")),
        None if lo == hi => format!("{lo} players"),
        None => format!("{lo} to {hi} players"),
    };
    let mut out = format!("{name}: {players} ({})\n", program.source.name());
    for p in &program.params {
        // Cut: several declarations may share one long line, which would be printed for each.
        let line = program.source.line_at(p.span.start).unwrap_or_else(|| p.name.clone());
        out.push_str(&format!("  {}\n", shinpan::report::values::cut_to(line, MAX_DESCRIBED_LINE)));
    }
    for r in &program.rules {
        let shared = shinpan::resolve::SHARED_RULES.iter().find(|(id, _)| *id == r.id).map(|(_, text)| *text);
        out.push_str(&format!("  rule {}: {}\n", r.id, shared.unwrap_or(&r.text)));
    }
    out
}

/// `play --games N [--stats]`: many games in one run, or their figures.
struct Many {
    games: Option<usize>,
    stats: bool,
    format: Format,
}

fn play(
    rules: &str,
    players: Option<usize>,
    seed: u64,
    max_events: usize,
    variant: &[(String, Yaml)],
    many: Many,
) -> u8 {
    let mut checker = Checker::new(None);
    let program = match compiled(&mut checker, rules) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let (lo, hi) = program.players;
    let players = match players {
        Some(n) if (lo as usize..=hi as usize).contains(&n) => n,
        None if lo == hi => lo as usize,
        Some(n) => {
            eprintln!("shinpan: `{}` is for {}, not {n}", program.name, program.player_count_words());
            return USAGE;
        }
        None => {
            eprintln!(
                "shinpan: `{}` is for {}: say how many with --players",
                program.name,
                program.player_count_words()
            );
            return USAGE;
        }
    };
    // A rules file is named by its absolute path, so the transcript checks again wherever it
    // is saved; a built-in by its name.
    let written = match shinpan::lang::specs::builtin(rules) {
        Some(_) => rules.to_string(),
        None => std::path::absolute(rules).map_or_else(|_| rules.to_string(), |p| p.display().to_string()),
    };
    if many.games.is_some() || many.stats {
        let games = many.games.unwrap_or(1);
        return play_many(&program, &written, players, variant, (seed, games, max_events), &many);
    }
    match shinpan::play::playout_with(&program, players, variant, seed, max_events) {
        Ok(p) if say(&shinpan::play::transcript_text_for(&written, variant, &program, &p)) => 0,
        Ok(_) => WRITE_FAILED,
        Err(d) => playout_failed(&d),
    }
}

/// Why a playout could not be played, and the exit code: the players and parameters are the
/// command line's, so a bad one is bad usage; a rules file that fails while playing is 2.
fn playout_failed(d: &diag::Diag) -> u8 {
    if d.code == shinpan::codes::MALFORMED {
        eprintln!("shinpan: {}", d.message);
        USAGE
    } else {
        eprint!("{}", diag::render_plain(d));
        2
    }
}

/// Plays `games` games from seed `seed`: each written as a JSON line as soon as it is played,
/// or, with `--stats`, only their figures at the end.
fn play_many(
    program: &shinpan::program::Program,
    written: &str,
    players: usize,
    variant: &[(String, Yaml)],
    (seed, games, max_events): (u64, usize, usize),
    many: &Many,
) -> u8 {
    let started = std::time::Instant::now();
    let mut stats = shinpan::play::Stats::default();
    let mut out = std::io::stdout().lock();
    for k in 0..games as u64 {
        let p = match shinpan::play::playout_with(program, players, variant, seed.wrapping_add(k), max_events) {
            Ok(p) => p,
            Err(d) => return playout_failed(&d),
        };
        if many.stats {
            stats.add(program, &p);
        } else if writeln!(out, "{}", shinpan::play::transcript_json_for(written, variant, program, &p)).is_err() {
            return WRITE_FAILED;
        }
    }
    if many.stats {
        let seconds = started.elapsed().as_secs_f64();
        let text = match many.format {
            Format::Human => stats.human(seconds),
            Format::Json => stats.json(seconds).to_string() + "\n",
        };
        if out.write_all(text.as_bytes()).is_err() {
            return WRITE_FAILED;
        }
    }
    if out.flush().is_err() { WRITE_FAILED } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream's lines are read whole up to the cap, and past it only counted as too long:
    /// the next line is read as usual. Line ends may be `\n` or `\r\n`.
    #[test]
    fn a_stream_line_is_read_within_its_cap() {
        let text = "short\r\nexactly10!!\r\n0123456789abc\nexactly10!!\n0123456789ab\r\nlast";
        // A tiny buffer, so that lines arrive in pieces as from a pipe.
        let mut reader = std::io::BufReader::with_capacity(4, text.as_bytes());
        let mut buf = vec![];
        let mut lines = vec![];
        while let Some(too_long) = read_line_bounded(&mut reader, &mut buf, 11).unwrap_or(None) {
            lines.push((String::from_utf8_lossy(&buf).into_owned(), too_long));
        }
        let want = [
            ("short", false),
            ("exactly10!!", false),
            ("0123456789a", true),
            ("exactly10!!", false),
            ("0123456789a", true),
            ("last", false),
        ];
        assert_eq!(lines, want.map(|(l, t)| (l.to_string(), t)));
    }

    /// A panic while checking one file becomes that file's malformed verdict.
    #[test]
    #[allow(clippy::panic, reason = "the panic is what is tested")]
    fn a_panic_becomes_the_verdict_of_its_file() {
        let setup = Setup { rules: None, builtin_only: false, variant: vec![], all: false };
        let mut checker = setup.checker();
        // The first legal game of the demo (a legal verdict is what the render below panics on).
        let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo");
        let listed = std::fs::read_to_string(demo.join("expected.jsonl")).unwrap_or_default();
        let legal = listed.lines().find(|l| l.contains(r#""verdict": "legal""#)).unwrap_or_default();
        let name = legal.split(r#""file": ""#).nth(1).and_then(|rest| rest.split('"').next()).unwrap_or_default();
        let path = demo.join(name);
        let render = |r: &Report| {
            if r.verdict == Verdict::Legal {
                panic!("boom");
            }
            (exit_code(r), render::json_line(r))
        };
        let (code, line) = judge(&mut checker, &setup, &Input::File(path), &render);
        assert_eq!(code, 2);
        assert!(line.contains("internal error") && line.contains("boom"), "{line}");
        assert!(line.contains(r#""kind":"internal""#), "{line}");
    }
}
