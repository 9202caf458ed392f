//! Bridge on real tournament records (`data/`, copied from `../shared/data`): every deal gets
//! the verdict its record implies, as `data/bridge-transcripts/README.md` states it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use shinpan::check::Checker;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// The manifest rows of one converted source, each with its transcript's path.
fn manifest(folder: &str) -> Vec<(PathBuf, Json)> {
    let dir = data().join("bridge-transcripts").join(folder);
    let text = std::fs::read_to_string(dir.join("pbn-manifest.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .map(|row| (dir.join(row["transcript"].as_str().unwrap()), row))
        .collect()
}

/// A report as the JSON output gives it.
fn report(checker: &mut Checker, path: &Path) -> Json {
    serde_json::from_str(&shinpan::render::json_line(&checker.check_path(path))).unwrap()
}

/// What the manifest row says the verdict must be; the differences, if any.
fn against_record(row: &Json, got: &Json) -> Option<String> {
    let marked = row["marked"].as_array().unwrap();
    let first = &got["violations"][0];
    if let Some(mark) = marked.first() {
        let same = got["verdict"] == "illegal" && first["rule"] == mark["rule"] && first["event"] == mark["event"];
        return (!same).then(|| format!("marked {mark}, got {got}"));
    }
    if got["verdict"] != "legal" {
        return Some(format!("nothing is marked, got {got}"));
    }
    let contract = row["contract"].as_str().unwrap_or("");
    let ends = row["play"]["ends"].as_str().unwrap_or("");
    let finished = ends == "complete" || ends == "claim" || contract == "Pass";
    if got["finished"] != finished {
        return Some(format!("the play ends `{ends}` (contract {contract}), got {got}"));
    }
    let declarer = contract.rsplit(' ').next().unwrap_or("");
    if finished && contract != "Pass" && got["scores"][declarer] != row["declarer_tricks"] {
        return Some(format!("declarer made {} tricks, got {got}", row["declarer_tricks"]));
    }
    None
}

/// Counts of (legal and finished, legal and unfinished, illegal) over a source.
fn check_source(folder: &str) -> (usize, usize, usize) {
    let mut checker = Checker::new(None);
    let (mut finished, mut unfinished, mut illegal) = (0, 0, 0);
    let mut problems = vec![];
    for (path, row) in manifest(folder) {
        let got = report(&mut checker, &path);
        match (got["verdict"].as_str(), got["finished"].as_bool()) {
            (Some("legal"), Some(true)) => finished += 1,
            (Some("legal"), _) => unfinished += 1,
            _ => illegal += 1,
        }
        if let Some(problem) = against_record(&row, &got) {
            problems.push(format!("{}: {problem}", path.display()));
        }
    }
    assert!(problems.is_empty(), "{} deals differ from their records:\n{}", problems.len(), problems.join("\n"));
    (finished, unfinished, illegal)
}

/// BBO club play: 846 complete 13-trick deals among them, no irregularity.
#[test]
fn bbo_records_get_the_verdicts_they_imply() {
    assert_eq!(check_source("pbntools-bbo"), (1449, 19, 0));
}

/// European championship vugraph: 15 marked revokes (`must-follow` at the marked card), 4
/// declarer swaps (`turn-order` at the opening lead), one contract tag against its auction.
#[test]
fn ebl_records_get_the_verdicts_they_imply() {
    assert_eq!(check_source("ebl-pbn-veugen"), (1498, 82, 20));
}
