//! `check --all`: the move stands. Past a broken rule that `stands`, the game goes on as
//! recorded and every violation is reported in order; at one that does not, checking stops.
//! The expectations in fixtures/all/expected-all.jsonl are derived by hand from the rules
//! documents' annotated games (each fixture's header says what was changed).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::Path;

use serde_json::{Value as Json, json};
use shinpan::report::check::Checker;

fn all_checker() -> Checker {
    let mut checker = Checker::new(None);
    checker.all = true;
    checker
}

#[test]
fn every_standing_fixture_gets_its_violations_in_order() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/all");
    let text = std::fs::read_to_string(dir.join("expected-all.jsonl")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let want: Json = serde_json::from_str(line).unwrap();
        let path = dir.join(want["file"].as_str().unwrap());
        let got: Json =
            serde_json::from_str(&shinpan::report::render::json_line(&all_checker().check_path(&path))).unwrap();
        let violations: Vec<Json> =
            got["violations"].as_array().unwrap().iter().map(|v| json!([v["rule"], v["event"], v["stood"]])).collect();
        assert_eq!(Json::Array(violations), want["violations"], "{}", path.display());
        for key in ["verdict", "finished", "scores", "winners"] {
            assert_eq!(got[key], want[key], "{}: {key}", path.display());
        }
        // What the standing violations cost, as the rules noted it (none unless expected).
        let notes: Vec<Json> = got["notes"].as_array().into_iter().flatten().map(|n| n["message"].clone()).collect();
        assert_eq!(Json::Array(notes), want.get("notes").cloned().unwrap_or(json!([])), "{}", path.display());
        // Without --all, the same file stops at its first violation.
        let first: Json =
            serde_json::from_str(&shinpan::report::render::json_line(&Checker::new(None).check_path(&path))).unwrap();
        assert_eq!(first["violations"].as_array().unwrap().len(), 1);
        assert_eq!(first["violations"][0]["rule"], want["violations"][0][0]);
        checked += 1;
    }
    // Every fixture of the folder has its expectation.
    let fixtures = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "yaml"));
    assert_eq!(checked, fixtures.count());
}

/// A rule stands only where its rules file says so: a game whose file marks nothing stops at
/// the first violation under `--all` too.
#[test]
fn only_a_rule_marked_stands_lets_the_move_stand() {
    let dir = std::env::temp_dir().join(format!("shinpan-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let marked = shinpan::lang::specs::builtin("hangover").unwrap();
    let unmarked = marked.replace(" stands\n", "\n");
    assert_ne!(marked, unmarked);
    std::fs::write(dir.join("strict.rules"), &unmarked).unwrap();
    let fixture =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/all/hangover-records.yaml"))
            .unwrap();
    std::fs::write(dir.join("game.yaml"), fixture.replace("rules: hangover", "rules: strict.rules")).unwrap();
    let got: Json =
        serde_json::from_str(&shinpan::report::render::json_line(&all_checker().check_path(&dir.join("game.yaml"))))
            .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let violations = got["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{got}");
    assert_eq!((violations[0]["rule"].as_str(), &violations[0]["stood"]), (Some("trick-winner"), &json!(false)));
}
