//! The JSON verdict line against its published schema (docs/verdict.schema.json): every
//! fixture's verdict validates, and the schema's words are the code's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use shinpan::report::check::Checker;
use shinpan::transcript::Problem;

fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/verdict.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every transcript and record file under `dir`, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json" | "pbn" | "lin")) {
            out.push(path);
        }
    }
    out.sort();
}

#[test]
fn every_fixture_verdict_fits_the_schema() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let mut found = vec![];
    files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"), &mut found);
    assert!(found.len() > 250, "{} fixtures", found.len());
    let mut checker = Checker::new(None);
    let (mut verdicts, mut kinds) = (BTreeSet::new(), BTreeSet::new());
    for path in &found {
        let reports =
            if shinpan::import::is_record(path) { checker.check_record(path) } else { vec![checker.check_path(path)] };
        for report in reports {
            let line: serde_json::Value = serde_json::from_str(&shinpan::report::render::json_line(&report)).unwrap();
            let problems: Vec<String> = validator.iter_errors(&line).map(|e| e.to_string()).collect();
            assert!(problems.is_empty(), "{}: {problems:?}\n{line}", path.display());
            verdicts.insert(line["verdict"].as_str().unwrap().to_string());
            for e in line["errors"].as_array().into_iter().flatten() {
                kinds.insert(e["kind"].as_str().unwrap().to_string());
            }
        }
    }
    assert_eq!(verdicts.len(), 3);
    // Under --all, with `stood` on each violation.
    let mut all = Checker::new(None);
    all.all = true;
    for path in found.iter().filter(|p| p.parent().is_some_and(|d| d.ends_with("all"))) {
        let line: serde_json::Value =
            serde_json::from_str(&shinpan::report::render::json_line(&all.check_path(path))).unwrap();
        assert!(validator.is_valid(&line), "{}: {line}", path.display());
        assert!(line["violations"][0]["stood"].is_boolean(), "{line}");
    }
    // The fixtures reach every kind but shinpan failing inside (tested in tests/library.rs).
    let all: BTreeSet<String> =
        Problem::ALL.iter().filter(|p| **p != Problem::Internal).map(|p| p.word().to_string()).collect();
    assert_eq!(kinds, all);
}

#[test]
fn the_schema_names_every_kind_of_error() {
    let schema = schema();
    let listed: Vec<&str> = schema["$defs"]["error"]["properties"]["kind"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    let words: Vec<&str> = Problem::ALL.iter().map(|p| p.word()).collect();
    assert_eq!(listed, words);
    assert_eq!(schema["properties"]["schema_version"]["const"], shinpan::report::render::SCHEMA_VERSION);
}

/// The schema is not a formality: lines that break the contract fail it.
#[test]
fn the_schema_refuses_broken_lines() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let good = serde_json::json!({"file": "a.yaml", "rules": "hangover", "verdict": "legal", "violations": [],
        "finished": false, "scores": {"aki": 0}, "winners": [], "schema_version": 1});
    assert!(validator.is_valid(&good));
    let mut broken = vec![];
    for (key, value) in [
        ("verdict", serde_json::json!("fine")),
        ("violations", serde_json::json!([{"rule": "x", "event": 0, "line": 1, "message": "m"}])),
        ("errors", serde_json::json!([{"message": "m", "code": "shinpan::transcript::malformed", "kind": "syntax"}])),
        ("schema_version", serde_json::json!(2)),
        ("winners", serde_json::json!("aki")),
    ] {
        let mut line = good.clone();
        line[key] = value;
        broken.push(line);
    }
    let mut no_file = good.clone();
    no_file.as_object_mut().unwrap().remove("file");
    broken.push(no_file);
    for line in broken {
        assert!(!validator.is_valid(&line), "{line}");
    }
}
