//! The command line's arguments (clap): every subcommand and option, with the help text
//! `shinpan --help` shows.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use shinpan::Parameter;

/// The exit statuses, as `--help` lists them.
const EXIT_CODES: &str = "Exit status of `check`: 0 every transcript legal, 1 some illegal and none malformed, \
                          2 some malformed (or a rules file with errors), 64 bad usage, 74 the output could not be written.";

/// The exit statuses of `replay`, which judges one transcript as `check` does.
const REPLAY_EXIT_CODES: &str = "Exit status: 0 the transcript legal, 1 illegal, 2 malformed (or a rules file with \
                                 errors), 64 bad usage (an event past the last), 74 the output could not be written.";

#[derive(Parser)]
#[command(
    name = "shinpan",
    version,
    about = "Checks recorded card games against rules written as spec files",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
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
        #[arg(long, value_name = "KEY=VALUE", value_parser = Parameter::parse)]
        variant: Vec<Parameter>,
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
    #[command(after_help = REPLAY_EXIT_CODES)]
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
        #[arg(long, default_value_t = shinpan::Limits::DEFAULT.playout_events)]
        max_events: usize,
        /// A parameter of the game, the value read as YAML (`--variant hand_size=9`); repeat
        /// for more. The transcript records it under `variant`.
        #[arg(long, value_name = "KEY=VALUE", value_parser = Parameter::parse)]
        variant: Vec<Parameter>,
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
    /// Referee live games for a game server: requests as JSON Lines on standard input, one
    /// reply line each on standard output (docs/referee.md)
    Referee {
        /// Let requests name only built-in rules, never a rules file (for a server whose
        /// clients are not trusted with the file system)
        #[arg(long)]
        only_builtin_rules: bool,
        /// Most games open at once (at least 1); a `new` past it is refused until one is closed
        #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = at_least_one::<usize>)]
        max_games: usize,
        /// Longest request line, in bytes (at least 1); a longer one is refused without being
        /// held in memory
        #[arg(
            long,
            value_name = "BYTES",
            default_value_t = shinpan::Limits::DEFAULT.transcript_bytes,
            value_parser = at_least_one::<u64>
        )]
        max_line_bytes: u64,
        /// Most events one game takes (at least 1); an `apply`, a `draw` or a `new` from a
        /// longer transcript past it is refused
        #[arg(
            long,
            value_name = "N",
            default_value_t = shinpan::Limits::DEFAULT.playout_events,
            value_parser = at_least_one::<usize>
        )]
        max_events: usize,
    },
}

/// A count of at least one: a referee limit of 0 would refuse every request it exists to serve.
fn at_least_one<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr<Err = std::num::ParseIntError> + PartialEq + From<u8>,
{
    let n: T = text.parse().map_err(|e| format!("{e}: give a whole number, at least 1"))?;
    if n == T::from(0) {
        return Err("a limit of 0 would refuse every request: give at least 1".into());
    }
    Ok(n)
}

/// How a command writes its results.
#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum Format {
    Human,
    Json,
}
