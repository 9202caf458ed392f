//! `shinpan play`: a random legal transcript, many as JSON Lines, or their figures.

use std::io::Write;

use shinpan::{Parameter, Rules, RulesError};

use crate::args::Format;
use crate::commands::rules::compiled;
use crate::exit::ExitStatus;
use crate::output::say;

/// What to play: one game, `--games N` of them, or their `--stats`.
pub struct Play {
    pub rules: String,
    pub players: Option<usize>,
    pub seed: u64,
    pub max_events: usize,
    pub variant: Vec<Parameter>,
    pub games: Option<usize>,
    pub stats: bool,
    pub format: Format,
}

pub fn run(play: &Play) -> ExitStatus {
    let rules = match compiled(&play.rules) {
        Ok(rules) => rules,
        Err(status) => return status,
    };
    let players = match players(&rules, play.players) {
        Ok(n) => n,
        Err(status) => return status,
    };
    let rules = match play.variant.iter().try_fold(rules, |r, p| r.with_parameter(p)) {
        Ok(rules) => rules,
        Err(e) => return playout_failed(&e),
    };
    let played = if play.stats {
        stats(&rules, players, play)
    } else if let Some(games) = play.games {
        many(&rules, players, play, games)
    } else {
        rules.play_one_or_dead_end(players, play.seed, play.max_events).map(|(text, stuck)| match stuck {
            // The game so far, then why it stopped: a bug of the rules.
            Some(d) => {
                let written = say(&text);
                eprint!("{}", shinpan::diag::render_plain(&d));
                if written { ExitStatus::Errors } else { ExitStatus::written(false) }
            }
            None => ExitStatus::written(say(&text)),
        })
    };
    played.unwrap_or_else(|e| playout_failed(&e))
}

/// The number of players: the one asked for, within the game's range, or the game's only one.
fn players(rules: &Rules, asked: Option<usize>) -> Result<usize, ExitStatus> {
    let ((lo, hi), words, game) = match (rules.player_counts(), rules.player_count_words(), rules.game()) {
        (Ok(counts), Ok(words), Ok(game)) => (counts, words, game),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return Err(playout_failed(&e)),
    };
    match asked {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        None if lo == hi => Ok(lo),
        Some(n) => {
            eprintln!("shinpan: `{game}` is for {words}, not {n}");
            Err(ExitStatus::Usage)
        }
        None => {
            eprintln!("shinpan: `{game}` is for {words}: say how many with --players");
            Err(ExitStatus::Usage)
        }
    }
}

/// `--games N`: each game written as a JSON line as soon as it is played; the first that
/// stopped at a dead end is reported after them all (exit 2).
fn many(rules: &Rules, players: usize, play: &Play, games: usize) -> Result<ExitStatus, RulesError> {
    let mut out = std::io::stdout().lock();
    let mut written = true;
    let stuck = rules.play_games(players, play.seed, games, play.max_events, |line| {
        written = writeln!(out, "{line}").is_ok();
        written
    })?;
    let written = written && out.flush().is_ok();
    let Some((seed, d)) = stuck else { return Ok(ExitStatus::written(written)) };
    eprintln!("shinpan: the game of seed {seed} stopped at a dead end (the first that did):");
    eprint!("{}", shinpan::diag::render_plain(&d));
    Ok(if written { ExitStatus::Errors } else { ExitStatus::written(false) })
}

/// `--stats`: only the figures of the games, at the end.
fn stats(rules: &Rules, players: usize, play: &Play) -> Result<ExitStatus, RulesError> {
    let started = std::time::Instant::now();
    let stats = rules.play_stats(players, play.seed, play.games.unwrap_or(1), play.max_events)?;
    let seconds = started.elapsed().as_secs_f64();
    let text = match play.format {
        Format::Human => stats.human(seconds),
        Format::Json => stats.json(seconds).to_string() + "\n",
    };
    Ok(ExitStatus::written(say(&text)))
}

/// Why a game could not be played: the players and parameters are the command line's, so a
/// bad one is bad usage; a rules file that fails while playing is `Errors`.
fn playout_failed(e: &RulesError) -> ExitStatus {
    if e.code == shinpan::codes::MALFORMED || e.code == shinpan::codes::USAGE {
        eprintln!("shinpan: {}", e.message);
        ExitStatus::Usage
    } else {
        e.diagnostics.iter().for_each(|d| eprint!("{}", shinpan::diag::render_plain(d)));
        ExitStatus::Errors
    }
}
