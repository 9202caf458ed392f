//! Every transcript with an `expected.jsonl` beside it gets exactly its expected verdict:
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! the shared examples of every built-in game, and the shipped fixtures.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use shinpan::report::check::Checker;

fn expectations(dir: &Path) -> Vec<(PathBuf, Json)> {
    let text = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let e: Json = serde_json::from_str(l).unwrap();
            (dir.join(e["file"].as_str().unwrap()), e)
        })
        .collect()
}

/// Compares one report with its expectation; returns what differs.
fn differences(path: &Path, expected: &Json) -> Vec<String> {
    let report = Checker::new(None).check_path(path);
    let got: Json = serde_json::from_str(&shinpan::report::render::json_line(&report)).unwrap();
    let mut diffs = vec![];
    let mut same = |what: &str, want: &Json, have: &Json| {
        if want != have {
            diffs.push(format!("{}: {what}: expected {want}, got {have}", path.display()));
        }
    };
    same("verdict", &expected["verdict"], &got["verdict"]);
    match expected["verdict"].as_str() {
        Some("illegal") => {
            let first = &got["violations"][0];
            same("rule", &expected["rule"], &first["rule"]);
            same("event", &expected["event"], &first["event"]);
        }
        Some("legal") => {
            same("finished", &expected["finished"], &got["finished"]);
            same("scores", &expected["scores"], &got["scores"]);
            same("winners", &expected["winners"], &got["winners"]);
        }
        _ => {}
    }
    // Fixtures also pin the scores of illegal transcripts.
    if expected.get("scores").is_some() && expected["verdict"] == "illegal" {
        same("scores", &expected["scores"], &got["scores"]);
    }
    diffs
}

fn check_dir(dir: &Path) {
    let cases = expectations(dir);
    assert!(!cases.is_empty(), "{} lists no transcripts", dir.display());
    // An expectation for a file that is not there would pass as "malformed" by itself.
    for (path, _) in &cases {
        assert!(path.is_file(), "{} is listed in expected.jsonl but does not exist", path.display());
    }
    let diffs: Vec<String> = cases.iter().flat_map(|(p, e)| differences(p, e)).collect();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// The rules documents' examples, copied from `../shared/rules/examples` into
/// `fixtures/examples` so that a clone checks them with nothing beside it.
#[test]
fn shared_examples_of_every_built_in_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/examples");
    let mut checked = 0;
    for (name, _) in shinpan::lang::specs::BUILTIN {
        let dir = root.join(name);
        if dir.join("expected.jsonl").is_file() {
            check_dir(&dir);
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} built-in games have examples in {}", root.display());
}

/// Where `../shared` is present (our machines and CI), the copies in the repository equal it
/// file for file: the examples, and any other data the tests read.
#[test]
fn copies_of_shared_data_equal_the_originals() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = here.join("../shared");
    if !shared.is_dir() {
        // Straight to standard error: the test harness keeps what `eprintln!` writes.
        let _ = writeln!(std::io::stderr(), "../shared is not here (a user's clone): nothing to compare");
        return;
    }
    let pairs = [
        ("rules/examples", "fixtures/examples"),
        ("data/external", "data/external"),
        ("data/bridge-transcripts", "data/bridge-transcripts"),
    ];
    for (theirs, ours) in pairs {
        let (theirs, ours) = (shared.join(theirs), here.join(ours));
        assert_eq!(files_under(&theirs), files_under(&ours), "{} and {} differ", theirs.display(), ours.display());
    }
    // The clock TCG's default card pool, built into the binary from specs/.
    let pool = std::fs::read(shared.join("rules/clock-tcg-pool.yaml")).unwrap();
    assert_eq!(pool, std::fs::read(here.join("specs/clock-tcg-pool.yaml")).unwrap(), "the default card pool differs");
}

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = vec![];
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                out.push((path.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Every fixture directory with an `expected.jsonl`: the games, malformed and hostile input,
/// a runaway rules file, and the variants (a rules file that `extends` torite-4to6 and
/// changes the center, so the same events get different verdicts).
#[test]
fn every_fixture_directory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| d.join("expected.jsonl").is_file())
        .collect();
    dirs.sort();
    let names: Vec<String> = dirs.iter().map(|d| d.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(
        names,
        [
            "bridge",
            "bridge-duplicate",
            "clock-tcg",
            "curtain-call",
            "demo",
            "hangover",
            "malformed",
            "runaway",
            "torite-4to6",
            "variants"
        ]
    );
    for dir in dirs {
        check_dir(&dir);
    }
}

/// The boo penalty is a parameter: the same game scores differently under a variant.
#[test]
fn curtain_call_variant_scores_differently() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/curtain-call");
    let default = Checker::new(None).check_path(&dir.join("set-ending-default.yaml"));
    let variant = Checker::new(None).check_path(&dir.join("set-ending-required-boos-1.yaml"));
    assert!(default.finished && variant.finished);
    assert_ne!(default.scores, variant.scores);
}

/// Every rule id of every built-in game is broken by some fixture and nearly broken by another.
#[test]
fn every_rule_id_is_broken_and_nearly_broken() {
    for (name, text) in shinpan::lang::specs::BUILTIN {
        let program = shinpan::compile(name, text).unwrap();
        // A built-in that extends another and declares no rule of its own (a scoring variant)
        // shares its parent's rule fixtures.
        let parent = text.lines().find_map(|l| l.strip_prefix("extends ")).filter(|_| !text.contains("\nrule "));
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(parent.unwrap_or(name));
        let cases = expectations(&dir);
        for rule in &program.rules {
            let broken = cases.iter().any(|(_, e)| e["rule"] == rule.id.as_str());
            let near = dir.join(format!("{}-near.yaml", rule.id));
            assert!(broken, "{name}: no fixture breaks `{}`", rule.id);
            assert!(near.is_file(), "{name}: no near miss for `{}` ({})", rule.id, near.display());
            let near_expected = cases.iter().find(|(p, _)| *p == near).map(|(_, e)| e["rule"] != rule.id.as_str());
            assert_eq!(near_expected, Some(true), "{name}: the near miss of `{}` must not break it", rule.id);
        }
    }
}
