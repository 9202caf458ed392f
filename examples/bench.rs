//! Measures the three performance targets of docs/performance.md:
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! checking a corpus against parsing it alone (YAML and JSON), random playout speed,
//! and peak memory as the corpus grows (run under `/usr/bin/time -v`).
//!
//! `cargo run --release --example bench -- [games] [players] [rules]`, or
//! `cargo run --release --example bench -- long FILE...` for the per-event cost of each transcript.

use std::path::Path;
use std::time::Instant;

use shinpan::report::check::Checker;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "long") {
        return per_event_cost(&args[2..]);
    }
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let players: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let rules = args.get(3).map_or("hangover", |s| s.as_str());
    let prog = match shinpan::builtin_program(rules) {
        Some(Ok(p)) => p,
        _ => return eprintln!("{rules} is not a built-in game that compiles"),
    };

    // Random playouts: events per second on one core, the best of three runs (as the peer's
    // figure is). Only playing is timed, as the peer's loop only plays and keeps nothing: the
    // same seeds are played again, untimed, for the transcripts the checks below read.
    let (mut secs, mut events) = (f64::MAX, 0usize);
    for _ in 0..3 {
        let start = Instant::now();
        events = 0;
        for seed in 0..games as u64 {
            let Ok(p) = shinpan::play::playout(&prog, players, seed, 100_000) else {
                return eprintln!("playout failed");
            };
            events += p.events.len();
        }
        secs = secs.min(start.elapsed().as_secs_f64());
    }
    let mut corpus = Vec::with_capacity(games);
    for seed in 0..games as u64 {
        let Ok(p) = shinpan::play::playout(&prog, players, seed, 100_000) else { return eprintln!("playout failed") };
        corpus.push(shinpan::play::transcript_text_for(&prog.name, &[], &prog, &p));
    }
    let playout_rate = events as f64 / secs;
    let ms_a_game = secs * 1e3 / games as f64;
    println!(
        "{rules} playouts: {games} games of {players} players, {events} events in {secs:.3} s = {playout_rate:.0} events/s, {ms_a_game:.3} ms a game"
    );
    let mut ratios = Vec::new();

    let json: Vec<String> = corpus.iter().map(|t| to_json(t)).collect();
    // A comment is a layout the line reader leaves to the YAML reader: what a hand-written file costs.
    let full: Vec<String> = corpus.iter().map(|t| format!("# read by the YAML reader\n{t}")).collect();
    for (label, files) in [("yaml", &corpus), ("yaml, full reader", &full), ("json", &json)] {
        let bytes: usize = files.iter().map(String::len).sum();
        let parse = time(|| files.iter().filter(|t| shinpan::transcript::read(t).is_ok()).count());
        // The peer each format is measured against: serde-saphyr for YAML, serde_json for JSON,
        // each parsing the same files into nothing.
        let (peer_name, peer) = if label != "json" {
            (
                "serde-saphyr",
                time(|| files.iter().filter(|t| serde_saphyr::from_str::<serde::de::IgnoredAny>(t).is_ok()).count()),
            )
        } else {
            (
                "serde_json",
                time(|| files.iter().filter(|t| serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok()).count()),
            )
        };
        if label == "json" {
            let tree = time(|| files.iter().filter(|t| serde_json::from_str::<serde_json::Value>(t).is_ok()).count());
            println!("json: serde_json into its own tree (serde_json::Value) {:.3} s", tree.0);
        }
        let mut checker = Checker::new(None);
        let check = time(|| {
            files
                .iter()
                .filter(|t| {
                    checker.check_text("bench", (*t).clone(), Path::new(".")).verdict
                        == shinpan::report::check::Verdict::Legal
                })
                .count()
        });
        println!(
            "{label}: {} files, {:.1} MB: {peer_name} alone {:.3} s, our reader {:.3} s, check {:.3} s; check / {peer_name} {:.2}, check / our reader {:.2}",
            files.len(),
            bytes as f64 / 1e6,
            peer.0,
            parse.0,
            check.0,
            check.0 / peer.0,
            check.0 / parse.0
        );
        assert_eq!(parse.1, files.len());
        assert_eq!(check.1, files.len(), "every playout checks legal");
        ratios.push(check.0 / peer.0);
    }
    // One row of the table in docs/performance.md (scripts/bench.sh gathers them).
    println!(
        "row: | {rules} ({players} players) | {playout_rate:.0} | {ms_a_game:.3} ms | {:.2}x | {:.2}x | {:.0}x |",
        ratios[0], ratios[1], ratios[2]
    );
}

/// `bench long FILE...`: the time to check each transcript, per event, repeated for at least
/// half a second so short games are measured as well as long ones.
fn per_event_cost(paths: &[String]) {
    let mut checker = Checker::new(None);
    for path in paths {
        let text = std::fs::read_to_string(path).unwrap();
        let events = text.lines().filter(|l| l.starts_with("  - ")).count();
        let (mut runs, start) = (0u32, Instant::now());
        while runs == 0 || start.elapsed().as_secs_f64() < 0.5 {
            let report = checker.check_text(path, text.clone(), Path::new("."));
            assert_eq!(report.verdict, shinpan::report::check::Verdict::Legal);
            runs += 1;
        }
        let secs = start.elapsed().as_secs_f64() / f64::from(runs);
        println!(
            "{path}: {events} events, checked in {:.2} ms, {:.0} ns an event",
            secs * 1e3,
            secs * 1e9 / events as f64
        );
    }
}

/// The best of three runs: the machine's other work only ever adds time, so the fastest run
/// is the closest to the cost itself, for both sides of a ratio alike.
fn time<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..3 {
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed().as_secs_f64());
        out = Some(value);
    }
    (best, out.expect("three runs"))
}

/// The same transcript as one JSON document.
fn to_json(yaml: &str) -> String {
    let mut lines = yaml.lines();
    let rules = lines.next().unwrap_or_default().trim_start_matches("rules: ");
    let players = lines.next().unwrap_or_default().trim_start_matches("players: ");
    let events: Vec<&str> = lines.skip(1).map(|l| l.trim_start_matches("  - ")).collect();
    format!("{{\"rules\": {rules}, \"players\": {players}, \"events\": [\n{}\n]}}\n", events.join(",\n"))
}

/// The allocator of the `shinpan` binary, so both sides of each ratio run on it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
