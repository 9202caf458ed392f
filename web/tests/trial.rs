//! Trying another move in the page, and rules files found among the opened files: the page's
//! engine functions, run on the host (the browser test drives the same through the page).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use serde_json::Value;
use shinpan_web::{Judge, Trial, forget_files, give_file, lint};

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn view(trial: &Trial) -> Value {
    serde_json::from_str(&trial.view()).unwrap()
}

/// At the illegal event of a transcript: what was legal instead, the recorded move named
/// but not offered; one taken, one drawn and taken back, then random moves to the end.
#[test]
fn another_move_at_the_violation_plays_on_to_the_end() {
    let bytes = fixture("fixtures/hangover/must-follow.yaml");
    let mut trial = Judge::new().trial("must-follow.yaml", &bytes, 0, 9, 1);
    assert_eq!(trial.error(), "");
    let v = view(&trial);
    assert_eq!((v["events"].as_u64(), v["start"].as_u64()), (Some(9), Some(9)));
    assert_eq!(v["legal"][0]["words"], "ben play R3^");
    assert_eq!((v["recorded"].as_str(), v["recorded_playable"].as_bool()), (Some("ben play B1"), Some(false)));
    assert_ne!(trial.take_recorded(), "");
    assert_eq!(trial.take(0), "");
    assert_eq!(view(&trial)["events"], 10);
    assert_eq!(trial.random(), "");
    assert!(trial.undo());
    assert_eq!(view(&trial)["events"], 10);
    assert_eq!(trial.play_out(), "");
    let end = view(&trial);
    assert_eq!((end["finished"].as_bool(), end["verdict"]["verdict"].as_str()), (Some(true), Some("legal")));
    assert!(!end["verdict"]["winners"].as_array().unwrap().is_empty());
    assert!(trial.page().contains("shinpan replay"));
    // The transcript's own events are never taken back.
    while trial.undo() {}
    assert_eq!(view(&trial)["events"], 9);
}

/// At the first event, a deal: a chance move, marked so, and the deal as recorded.
#[test]
fn the_recorded_chance_move_can_be_taken() {
    let bytes = fixture("fixtures/hangover/must-follow.yaml");
    let mut trial = Judge::new().trial("must-follow.yaml", &bytes, 0, 0, 1);
    let v = view(&trial);
    assert_eq!((v["legal"][0]["chance"].as_bool(), v["recorded_playable"].as_bool()), (Some(true), Some(true)));
    assert_eq!(trial.take_recorded(), "");
    assert_eq!(view(&trial)["events"], 1);
    let broken = Judge::new().trial("x.yaml", b"rules: hangover\nplayers: [a\n", 0, 0, 1);
    assert_ne!(broken.error(), "");
}

/// A rules file that extends another by file and reads a pool: found among the opened
/// files by name; without them, the file to open is named.
#[test]
fn a_rules_file_finds_its_parent_and_pool_among_the_opened_files() {
    let child = "extends \"../elsewhere/clock-tcg.rules\"\ngame small-clock\nparam pool: file = \"small.yaml\"\n";
    let mut judge = Judge::new();
    let alone = judge.use_rules_text("small-clock.rules", child);
    assert!(alone.starts_with("small-clock.rules needs clock-tcg.rules (the rules it extends)"), "{alone}");
    let linted: Value = serde_json::from_str(&lint("small-clock.rules", child)).unwrap();
    assert_eq!(linted["missing"][0], "clock-tcg.rules");
    give_file("clock-tcg.rules", &fixture("specs/clock-tcg.rules"));
    let no_pool = judge.use_rules_text("small-clock.rules", child);
    assert!(no_pool.starts_with("small-clock.rules needs small.yaml (a file it reads cards from)"), "{no_pool}");
    give_file("small.yaml", &fixture("fixtures/clock-tcg/pools/small.yaml"));
    assert_eq!(judge.use_rules_text("small-clock.rules", child), "");
    let looked: Value = serde_json::from_str(&judge.looked()).unwrap();
    assert_eq!(looked["uses"], serde_json::json!(["clock-tcg.rules", "small.yaml"]));
    let game = String::from_utf8(fixture("fixtures/clock-tcg/pool-small.yaml")).unwrap();
    let game = game.replace("pool: pools/small.yaml, ", "");
    assert!(judge.check("g.yaml", game.as_bytes()).contains("\"verdict\":\"legal\""));
    forget_files();
    assert_ne!(judge.use_rules_text("small-clock.rules", child), "");
}
