//! The fuel each game burns, pinned: fuel is the work the per-event limit counts, so a faster
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! evaluator (in-place updates, fused built-ins, values read without copying) must burn
//! exactly as much as the plain one did, or a game near the limit would change its verdict.
//! The snapshot was taken before those changes; a change to it is a change of the language.

use std::fmt::Write as _;
use std::path::Path;

use shinpan::report::check::{Checker, Verdict};

const GAMES: [(&str, usize); 6] = [
    ("hangover", 4),
    ("curtain-call", 2),
    ("torite-4to6", 4),
    ("clock-tcg", 2),
    ("bridge", 4),
    ("bridge-duplicate", 4),
];

/// Every transcript fixture of the games and of `check --all`, checked both ways.
#[test]
fn fixtures_burn_the_fuel_they_always_did() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut table = String::new();
    let mut folders: Vec<&str> = GAMES.iter().map(|(g, _)| *g).collect();
    folders.extend(["all", "variants", "runaway", "demo"]);
    for folder in folders {
        let mut paths: Vec<_> = std::fs::read_dir(root.join("fixtures").join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "json"))
            .collect();
        paths.sort();
        for path in paths {
            for all in [false, true] {
                let mut checker = Checker::new(None);
                checker.all = all;
                let report = checker.check_path(&path);
                let name = path.strip_prefix(root).unwrap().display();
                let mode = if all { " --all" } else { "" };
                writeln!(table, "{name}{mode}: {:?} {}", report.verdict, report.fuel_spent).unwrap();
            }
        }
    }
    let burnt = table.lines().filter(|l| !l.ends_with(" 0")).count();
    assert!(burnt > 100, "most fixtures run the rules:\n{table}");
    insta::assert_snapshot!(table);
}

/// Seeded random games of every built-in game: played, then checked.
#[test]
fn random_games_burn_the_fuel_they_always_did() {
    let mut table = String::new();
    for (game, players) in GAMES {
        let prog = shinpan::builtin_program(game).unwrap().unwrap();
        let mut checker = Checker::new(None);
        for seed in 0..12 {
            let played = shinpan::play::playout(&prog, players, seed, 100_000).unwrap();
            let text = shinpan::play::transcript_text_for(game, &[], &prog, &played);
            let report = checker.check_text(game, text, Path::new("."));
            assert_eq!(report.verdict, Verdict::Legal, "{game} seed {seed}");
            let events = played.events.len();
            writeln!(
                table,
                "{game} seed {seed}: {events} events, play {} check {}",
                played.outcome.fuel_spent, report.fuel_spent
            )
            .unwrap();
        }
    }
    insta::assert_snapshot!(table);
}
