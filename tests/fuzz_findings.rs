//! Every input the fuzzers (`fuzz/`) ever found to crash or hang shinpan, replayed: each must
//! now end in a result or diagnostics that render, like any other input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::Path;

/// The `live_game` target's steps, run here as the fuzzer runs them.
#[path = "../fuzz/live_game_steps.rs"]
mod live_game_steps;

/// Replays one finding the way its fuzz target ran it (the target is the file name's prefix).
fn replay(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let data = std::fs::read(path).unwrap();
    if name.starts_with("read_transcript") {
        if let Ok(text) = std::str::from_utf8(&data) {
            let _ = shinpan::transcript::read(text);
        }
    } else if name.starts_with("fast_readers") {
        if let Ok(text) = std::str::from_utf8(&data) {
            shinpan::transcript::fast_readers_agree(text).unwrap_or_else(|why| panic!("{name}: {why}"));
        }
    } else if name.starts_with("compile_rules") {
        if let Ok(text) = std::str::from_utf8(&data)
            && let Err(diags) = shinpan::compile("fuzz.rules", text)
        {
            assert!(!diags.is_empty(), "{name}");
            diags.iter().for_each(|d| drop(shinpan::diag::render_plain(d)));
        }
    } else if name.starts_with("check_transcript") {
        let Some((&pick, rest)) = data.split_first() else { return };
        let (rules, _) = shinpan::lang::specs::BUILTIN[pick as usize % shinpan::lang::specs::BUILTIN.len()];
        let Ok(text) = std::str::from_utf8(rest) else { return };
        let mut checker = shinpan::report::check::Checker::new(Some(rules.to_string()));
        let report = checker.check_text("fuzz.yaml", text.to_string(), Path::new("/nonexistent"));
        assert!(shinpan::report::render::json_line(&report).contains("\"verdict\""), "{name}");
        shinpan::report::render::diagnostics(&report).iter().for_each(|d| drop(shinpan::diag::render_plain(d)));
    } else if name.starts_with("live_game") {
        live_game_steps::run(&data);
    } else {
        panic!("{name}: a finding's name starts with its fuzz target");
    }
}

#[test]
fn every_fuzz_finding_now_ends_in_a_result() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/findings");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    assert!(!paths.is_empty(), "no findings in {}", dir.display());
    // The same stack as the command line's threads.
    let worker =
        std::thread::Builder::new().stack_size(64 * 1024 * 1024).spawn(move || paths.iter().for_each(|p| replay(p)));
    worker.unwrap().join().unwrap();
}

/// The `live_game` target's steps on scripts made here, so that what the target holds (a
/// refused event changes nothing and gets `check`'s verdict, whole; `undo` gives back the game
/// before; a game's verdict is `check`'s of its transcript) is held in every test run, not
/// only when the fuzzer runs: every kind of step on every built-in game, among them events
/// that are out of turn, name no action, or are not JSON at all.
#[test]
fn the_live_game_steps_hold_on_scripted_games() {
    let steps = [
        "legal",
        "take 3",
        "give 5",
        "draw",
        "draw 9",
        "undo",
        "clone",
        "reseed 9",
        "verdict",
        "look",
        "resume",
        r#"named ["x", "y", "z", "w"]"#,
        r#"{"by": "ben", "play": "R1"}"#,
        r#"{"by": "aki", "pass": null}"#,
        r#"{"by": "nobody"}"#,
        "7",
        "not json",
    ];
    let worker = std::thread::Builder::new().stack_size(64 * 1024 * 1024).spawn(move || {
        for pick in 0..=u8::MAX {
            // A fixed sequence of steps for each first byte (a linear congruential generator).
            let mut state = u64::from(pick).wrapping_mul(2_654_435_761).wrapping_add(1);
            let mut data = vec![pick];
            for _ in 0..30 {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                data.extend_from_slice(steps[(state >> 33) as usize % steps.len()].as_bytes());
                data.push(b'\n');
            }
            live_game_steps::run(&data);
        }
    });
    worker.unwrap().join().unwrap();
}
