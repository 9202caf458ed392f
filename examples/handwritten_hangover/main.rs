//! A Hangover referee and random playout loop written by hand, the yardstick shinpan is
//! measured against (docs/performance.md, "Against a hand-written referee"; scripts/bench.sh).
//!
//! ```sh
//! cargo build --release --example handwritten_hangover
//! H=target/release/examples/handwritten_hangover
//! $H check games.jsonl                # one verdict a line, as `shinpan check --stream` gives them
//! $H play 20000 4 1                   # 20,000 random 4-player games from seed 1: games and events
//! $H play 100 4 1 --write             # the same games as JSON Lines, for `shinpan check --stream -`
//! ```
//!
//! `check` exits as `shinpan check` does: 0 when every transcript is legal, 1 when one is
//! illegal and none malformed, 2 when one is malformed, 64 on bad usage.

mod referee;

use std::io::{Read, Write};
use std::process::ExitCode;

/// The allocator of the command line, so that both sides of the comparison allocate alike.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str =
    "usage: handwritten_hangover check PATH|-\n       handwritten_hangover play GAMES [PLAYERS] [SEED] [--write]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("check") if args.len() == 2 => check(&args[1]),
        Some("play") if (2..=5).contains(&args.len()) => play(&args[1..]),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(64)
        }
    }
}

/// Checks every line of a JSON Lines file (`-`: standard input), one verdict a line.
fn check(path: &str) -> Result<u8, String> {
    let mut text = String::new();
    let read = match path {
        "-" => std::io::stdin().read_to_string(&mut text).map(|_| ()),
        _ => std::fs::read_to_string(path).map(|t| text = t),
    };
    read.map_err(|e| format!("{path}: {e}"))?;
    let mut out = String::with_capacity(text.len() / 16);
    let (mut illegal, mut malformed) = (false, false);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match referee::check_line(line) {
            Some((game, outcome)) => {
                illegal |= outcome.broken.is_some();
                referee::verdict_line(&game.names, Some(&outcome), &mut out);
            }
            None => {
                malformed = true;
                referee::verdict_line(&[], None, &mut out);
            }
        }
    }
    std::io::stdout().lock().write_all(out.as_bytes()).map_err(|e| e.to_string())?;
    Ok(if malformed { 2 } else { u8::from(illegal) })
}

/// Plays random games from one seed: counts them and their events, or writes them.
fn play(args: &[String]) -> Result<u8, String> {
    let write = args.last().is_some_and(|a| a == "--write");
    let numbers: Vec<u64> = args
        .iter()
        .filter(|a| *a != "--write")
        .map(|a| a.parse().map_err(|_| format!("{a} is not a number\n{USAGE}")))
        .collect::<Result<_, _>>()?;
    let Some(&games) = numbers.first() else { return Err(USAGE.to_string()) };
    let players = numbers.get(1).copied().unwrap_or(4) as usize;
    let seed = numbers.get(2).copied().unwrap_or(1);
    let params = referee::Params::new(players, None, None, None, None)
        .ok_or_else(|| format!("Hangover is for 3 to 5 players, not {players}"))?;
    let names = referee::seat_names(players);
    let mut rng = referee::Rng::new(seed);
    let (mut events, mut out) = (0usize, std::io::BufWriter::new(std::io::stdout().lock()));
    let mut played = Vec::new();
    for _ in 0..games {
        let outcome = match write {
            true => {
                played.clear();
                let outcome = referee::playout(params, &mut rng, |e| played.push(e.clone()));
                writeln!(out, "{}", referee::transcript_line(&names, &played)).map_err(|e| e.to_string())?;
                outcome
            }
            false => referee::playout(params, &mut rng, |_| events += 1),
        };
        if let Err((rule, event)) = outcome {
            return Err(format!("a random game broke {}: {event:?}", rule.id()));
        }
    }
    if !write {
        writeln!(out, "{games} games of {players} players, {events} events").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(0)
}
