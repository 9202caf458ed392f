//! The live referee's costs, for docs/performance.md ("A game move by move"):
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "benchmarks fail loudly")]
//! 1. random Hangover games played through `Game` (listing the legal events and applying one
//!    at each point; and by `draw`), against `play`'s own playouts of the same number of games
//!    (as `shinpan play --games N` plays them, each written as a JSON line; and bare);
//! 2. the cost of one `apply` in one game 10, 100, 1,000 and 10,000 rounds long
//!    (`fixtures/bench/long.rules`), which must not grow with the game;
//! 3. a `clone` of a Hangover game in mid-play against applying one event to it.
//!
//! `cargo run --release --example bench_game -- [games]` (default 1000). Each figure is the
//! best of three runs, on one core.

use std::time::Instant;

use serde_json::Value as Json;
use shinpan::{Game, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Rules::new("hangover").unwrap();
    // `listed|drawn|play|written N`: one way of playing N games alone, for callgrind.
    if let Some(way) = args.get(1).filter(|a| a.parse::<u64>().is_err()) {
        let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100);
        return println!("{games} games, {} events", one_way(&rules, way, games));
    }
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    random_games(&rules, games);
    apply_in_long_games();
    clone_against_apply(&rules);
}

/// The best of three runs of `f`, in seconds, and what the last run gave.
fn best_of_three<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..3 {
        let start = Instant::now();
        last = Some(f());
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best, last.unwrap())
}

fn random_games(rules: &Rules, games: u64) {
    println!("== 1. {games} random Hangover games (4 players)");
    let (play_written, _) = best_of_three(|| {
        rules.play_games(4, 0, games as usize, 100_000, |line| !std::hint::black_box(line).is_empty()).unwrap()
    });
    let prog = shinpan::builtin_program("hangover").unwrap().unwrap();
    let (play_bare, events) = best_of_three(|| {
        (0..games).map(|seed| shinpan::play::playout(&prog, 4, seed, 100_000).unwrap().events.len()).sum::<usize>()
    });
    let (listed, listed_events) = best_of_three(|| (0..games).map(|seed| listed_game(rules, seed)).sum::<usize>());
    let (drawn, drawn_events) = best_of_three(|| (0..games).map(|seed| drawn_game(rules, seed)).sum::<usize>());
    assert_eq!(drawn_events, events, "a game drawn move by move is the game play plays");
    let row = |what: &str, secs: f64, n: usize| {
        let per_game = secs * 1e3 / games as f64;
        println!(
            "{what:<58} {secs:>7.3} s  {per_game:>6.3} ms a game  {:>9.0} events/s  {:>5.2}x play --games",
            n as f64 / secs,
            secs / play_written
        );
    };
    row("play --games (each game written as a JSON line)", play_written, events);
    row("playouts alone (nothing written)", play_bare, events);
    row("Game: legal() then apply_legal() of one, at each point", listed, listed_events);
    row("Game: draw() at each point", drawn, drawn_events);
    println!("row: game-listed {:.2}x, game-drawn {:.2}x", listed / play_written, drawn / play_written);
}

/// The events of `games` games played one way: from the legal list, by draws, as bare
/// playouts, or as `play --games` plays and writes them.
fn one_way(rules: &Rules, way: &str, games: u64) -> usize {
    match way {
        "listed" => (0..games).map(|seed| listed_game(rules, seed)).sum(),
        "drawn" => (0..games).map(|seed| drawn_game(rules, seed)).sum(),
        "play" => {
            let prog = shinpan::builtin_program("hangover").unwrap().unwrap();
            (0..games).map(|seed| shinpan::play::playout(&prog, 4, seed, 100_000).unwrap().events.len()).sum()
        }
        "written" => {
            let mut bytes = 0;
            rules
                .play_games(4, 0, games as usize, 100_000, |line| {
                    bytes += line.len();
                    true
                })
                .unwrap();
            bytes
        }
        other => panic!("unknown way {other}: listed, drawn, play or written"),
    }
}

/// One game drawn move by move to its end.
fn drawn_game(rules: &Rules, seed: u64) -> usize {
    let mut game = rules.new_game(4, seed).unwrap();
    while game.draw().unwrap().is_some() {}
    game.event_count()
}

/// One game played by picking uniformly from `legal()` (chance moves drawn), to its end.
fn listed_game(rules: &Rules, seed: u64) -> usize {
    let mut game = rules.new_game(4, seed).unwrap();
    let mut state = seed.wrapping_add(1);
    while !game.finished() {
        let legal = game.legal().unwrap();
        if legal.is_empty() {
            break;
        }
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let chosen = &legal[((state >> 33) as usize) % legal.len()];
        game.apply_legal(chosen).unwrap();
    }
    game.event_count()
}

/// The events of a game of `fixtures/bench/long.rules` `rounds` rounds long.
fn long_game(rounds: usize) -> (Rules, Vec<Json>) {
    let rules = Rules::new("fixtures/bench/long.rules").unwrap().with_variant("rounds", &rounds.to_string()).unwrap();
    let mut game = rules.new_game(2, 1).unwrap();
    let mut events = vec![];
    while let Some(e) = game.draw().unwrap() {
        events.push(e);
    }
    (rules, events)
}

fn apply_in_long_games() {
    println!("== 2. one apply in one game of fixtures/bench/long.rules, 2 players");
    for rounds in [10, 100, 1_000, 10_000] {
        let (rules, events) = long_game(rounds);
        let (secs, _) = best_of_three(|| {
            let mut game = rules.new_game(2, 1).unwrap();
            for e in &events {
                game.apply(e).unwrap();
            }
            game
        });
        let ns = secs * 1e9 / events.len() as f64;
        // Without a game that waits, the next step is judged by replaying the game so far:
        // what checking the transcript of it costs.
        let mut whole = rules.new_game(2, 1).unwrap();
        for e in &events {
            whole.apply(e).unwrap();
        }
        let transcript = whole.transcript();
        let (replay, _) = best_of_three(|| rules.check_text("long", &transcript));
        println!(
            "{rounds:>6} rounds: {:>7} events, {ns:>6.0} ns an apply; replaying the game so far: {:>9.3} ms",
            events.len(),
            replay * 1e3
        );
    }
}

fn clone_against_apply(rules: &Rules) {
    println!("== 3. a clone of a Hangover game in mid-play against one apply");
    let mut game = rules.new_game(4, 7).unwrap();
    for _ in 0..30 {
        game.draw().unwrap();
    }
    let next = game.clone().draw().unwrap().unwrap();
    const N: usize = 20_000;
    let (clone, _) = best_of_three(|| {
        for _ in 0..N {
            std::hint::black_box(game.clone());
        }
    });
    let (clone_apply, _) = best_of_three(|| {
        for _ in 0..N {
            let mut g: Game = game.clone();
            g.apply(&next).unwrap();
            std::hint::black_box(g);
        }
    });
    let (clone_ns, apply_ns) = (clone * 1e9 / N as f64, (clone_apply - clone) * 1e9 / N as f64);
    println!("a clone: {clone_ns:.0} ns; one apply (a clone and an apply, less the clone): {apply_ns:.0} ns");
    println!("row: clone {clone_ns:.0} ns, apply {apply_ns:.0} ns");
}

/// The command line's allocator, so that `play --games` is measured as it runs there.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
