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

/// The events of a transcript without their notes (which are free text).
fn events_without_notes(t: &Json) -> Vec<Json> {
    let mut events = t["events"].as_array().unwrap().clone();
    for e in &mut events {
        e.as_object_mut().unwrap().remove("note");
    }
    events
}

/// Reading a PBN file gives, deal by deal, the events the independent converter wrote.
#[test]
fn pbn_deals_are_the_converted_transcripts() {
    let mut compared = 0;
    for folder in ["pbntools-bbo", "ebl-pbn-veugen"] {
        let rows = manifest(folder);
        let mut by_source: std::collections::BTreeMap<String, Vec<&(PathBuf, Json)>> = Default::default();
        for row in &rows {
            by_source.entry(row.1["source"].as_str().unwrap().to_string()).or_default().push(row);
        }
        for (source, rows) in by_source {
            let path = data().join("external").join(folder).join(&source);
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            let deals = shinpan::import::read_deals(&path, &text);
            assert_eq!(deals.len(), rows.len(), "{source}: deals");
            for (deal, (transcript, row)) in deals.iter().zip(rows) {
                assert_eq!(deal.number, row["game"].as_u64().unwrap() as usize);
                let ours = deal.transcript.as_ref().unwrap_or_else(|e| panic!("{source} #{}: {e}", deal.number));
                let theirs: Json = serde_saphyr::from_str(&std::fs::read_to_string(transcript).unwrap()).unwrap();
                assert_eq!(
                    events_without_notes(ours),
                    events_without_notes(&theirs),
                    "{source} #{} ({})",
                    deal.number,
                    transcript.display()
                );
                assert_eq!(deal.board.as_deref(), row["board"].as_str(), "{source} #{}", deal.number);
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 3068);
}
