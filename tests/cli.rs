//! The command line: exit codes, output formats, hostile input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]

use std::process::Command;

fn shinpan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn exit_codes_follow_the_contract() {
    assert_eq!(shinpan(&["check", "--format", "json", "fixtures/hangover/legal-annotated.yaml"]).0, 0);
    assert_eq!(shinpan(&["check", "--format", "json", "fixtures/hangover/must-follow.yaml"]).0, 1);
    assert_eq!(
        shinpan(&["check", "--format", "json", "fixtures/hangover/must-follow.yaml", "fixtures/malformed/empty.yaml"])
            .0,
        2
    );
    assert_eq!(shinpan(&["check", "--format", "xml", "fixtures/"]).0, 64);
    assert_eq!(shinpan(&["frobnicate"]).0, 64);
    // A path that does not exist gets its own malformed verdict; the others keep theirs.
    let (code, out, _) =
        shinpan(&["check", "--format", "json", "no/such/file.yaml", "fixtures/hangover/legal-annotated.yaml"]);
    assert_eq!(code, 2);
    assert!(out.lines().next().unwrap().contains(r#""verdict":"malformed""#), "{out}");
    assert!(out.lines().nth(1).unwrap().contains(r#""verdict":"legal""#), "{out}");
}

#[test]
fn json_lines_in_path_order() {
    let (code, out, _) = shinpan(&[
        "check",
        "--format",
        "json",
        "fixtures/hangover/must-follow.yaml",
        "fixtures/hangover/legal-annotated.yaml",
    ]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"file":"fixtures/hangover/must-follow.yaml","rules":"hangover","verdict":"illegal","violations":[{"rule":"must-follow","event":9,"line":15,"message":"ben played B1 but holds R3^ of the led suit R"}],"finished":false,"scores":{"aki":0,"ben":0,"chie":0},"winners":[]}"#
    );
    assert_eq!(
        lines[1],
        r#"{"file":"fixtures/hangover/legal-annotated.yaml","rules":"hangover","verdict":"legal","violations":[],"finished":true,"scores":{"aki":7,"ben":3,"chie":0},"winners":["aki"]}"#
    );
}

#[test]
fn directories_are_searched_and_sorted() {
    let (_, out, _) = shinpan(&["check", "--format", "json", "fixtures/hangover"]);
    let files: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["file"].as_str().unwrap().to_string())
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert_eq!(files.len(), 24);
}

#[test]
fn hostile_input_is_a_clear_error() {
    for f in ["empty", "random-bytes", "unclosed-mapping", "alias-bomb", "deep-nesting", "duplicate-key"] {
        let (code, out, err) = shinpan(&["check", "--format", "json", &format!("fixtures/malformed/{f}.yaml")]);
        assert_eq!(code, 2, "{f}: {err}");
        assert!(out.contains(r#""verdict":"malformed""#), "{f}: {out}");
        assert!(!err.contains("panicked"), "{f}: {err}");
    }
}

#[test]
fn a_rules_file_that_never_waits_is_stopped() {
    let (code, out, err) = shinpan(&["check", "--format", "json", "fixtures/runaway/endless-loop.yaml"]);
    assert_eq!(code, 2);
    assert!(out.contains("without waiting for an event"), "{out}");
    assert!(!err.contains("panicked"));
}

#[test]
fn lint_reports_spec_errors() {
    let (code, out, _) = shinpan(&["lint", "specs/"]);
    assert_eq!(
        (code, out.trim()),
        (
            0,
            "specs/bridge-duplicate.rules: ok\nspecs/bridge.rules: ok\nspecs/clock-tcg.rules: ok\nspecs/curtain-call.rules: ok\nspecs/hangover.rules: ok\nspecs/torite-4to6.rules: ok"
        )
    );
    let (code, out, _) = shinpan(&["lint", "fixtures/spec/unknown-name_1.rules"]);
    assert_eq!(code, 2);
    assert!(out.contains("did you mean `hand`?"), "{out}");
}

#[test]
fn play_writes_a_legal_transcript() {
    let (code, out, _) = shinpan(&["play", "--rules", "hangover", "--players", "4", "--seed", "7"]);
    assert_eq!(code, 0);
    let dir = std::env::temp_dir().join(format!("shinpan-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.yaml");
    std::fs::write(&file, &out).unwrap();
    let (code, json, _) = shinpan(&["check", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{json}");
    assert!(json.contains(r#""finished":true"#));
    // The same seed gives the same game.
    assert_eq!(shinpan(&["play", "--rules", "hangover", "--players", "4", "--seed", "7"]).1, out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rules_lists_parameters() {
    let (code, out, _) = shinpan(&["rules"]);
    assert_eq!(code, 0);
    assert!(out.contains("hangover (3..5 players)") && out.contains("hangover_at"), "{out}");
}

#[test]
fn parallel_checking_keeps_the_order_and_the_verdicts() {
    let one = shinpan(&["check", "--format", "json", "--jobs", "1", "fixtures/"]);
    let many = shinpan(&["check", "--format", "json", "--jobs", "3", "fixtures/"]);
    assert_eq!(one, many);
    assert_eq!(one.0, 2);
}

/// `play` of a game whose cards come from a card file uses the built-in default file.
#[test]
fn play_uses_the_default_card_file() {
    let (code, out, err) = shinpan(&["play", "--rules", "clock-tcg", "--players", "2", "--seed", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"decks\""), "{out}");
    let dir = std::env::temp_dir().join(format!("shinpan-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.yaml"), &out).unwrap();
    let path = dir.join("game.yaml").display().to_string();
    let (code, verdict, _) = shinpan(&["check", "--format", "json", &path]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0, "{verdict}");
    assert!(verdict.contains("\"finished\":true"), "{verdict}");
}

/// A game that fixes its players' names needs no `--players`, and `play` writes those names;
/// a game that allows several counts asks for one.
#[test]
fn play_of_a_game_with_named_seats() {
    let (code, out, err) = shinpan(&["play", "--rules", "bridge", "--seed", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("players: [\"N\",\"E\",\"S\",\"W\"]"), "{out}");
    let (code, _, err) = shinpan(&["play", "--rules", "bridge", "--players", "3"]);
    assert_eq!((code, err.trim()), (64, "shinpan: `bridge` is for 4 to 4 players, not 3"));
    let (code, _, err) = shinpan(&["play", "--rules", "hangover"]);
    assert_eq!((code, err.trim()), (64, "shinpan: `hangover` is for 3 to 5 players: say how many with --players"));
}

/// A judge checks a match file as it comes and reads which board, which trick and which card
/// broke which rule; `import` writes each deal as a transcript that checks the same.
#[test]
fn a_pbn_match_file_is_checked_deal_by_deal() {
    let file = "data/external/ebl-pbn-veugen/etc99pbn/A1A10505.PBN";
    let (code, out, _) = shinpan(&["check", "--format", "human", file]);
    assert_eq!(code, 1);
    assert!(out.contains("N played CK to trick 11 but holds SJ, S8 of the led"), "{out}");
    assert!(out.contains(&format!("{file}#10: board 5, room Closed, illegal")), "{out}");
    assert_eq!(out.matches(": board ").count(), 40, "{out}");
    let dir = std::env::temp_dir().join(format!("shinpan-import-{}", std::process::id()));
    let (code, _, err) = shinpan(&["import", file, "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let deal = dir.join("A1A10505-0010.yaml");
    let (code, json, _) = shinpan(&["check", "--format", "json", deal.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1);
    assert!(json.contains(r#""rule":"must-follow","event":52"#), "{json}");
    let (code, _, err) = shinpan(&["import", "fixtures/records/messy.pbn", "--out", "/dev/null/x"]);
    assert_eq!(code, 74, "{err}");
}
