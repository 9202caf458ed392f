//! Bridge on real tournament records (`data/`, copied from `../shared/data`): every deal gets
//! the verdict its record implies, as `data/bridge-transcripts/README.md` states it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use shinpan::report::check::{Checker, Report};

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
    serde_json::from_str(&shinpan::report::render::json_line(&checker.check_path(path))).unwrap()
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

/// Every record file of both converted sources with its manifest rows, in the files' order.
fn records_with_rows() -> Vec<(PathBuf, Vec<(PathBuf, Json)>)> {
    let mut out = vec![];
    for folder in ["pbntools-bbo", "ebl-pbn-veugen"] {
        let mut by_source: std::collections::BTreeMap<String, Vec<(PathBuf, Json)>> = Default::default();
        for row in manifest(folder) {
            by_source.entry(row.1["source"].as_str().unwrap().to_string()).or_default().push(row);
        }
        out.extend(
            by_source.into_iter().map(|(source, rows)| (data().join("external").join(folder).join(source), rows)),
        );
    }
    out
}

/// Reading a PBN file gives, deal by deal, the events the independent converter wrote.
#[test]
fn pbn_deals_are_the_converted_transcripts() {
    let mut compared = 0;
    for (path, rows) in records_with_rows() {
        let source = path.display();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let deals = shinpan::import::read_deals(&path, &text);
        assert_eq!(deals.len(), rows.len(), "{source}: deals");
        for (deal, (transcript, row)) in deals.iter().zip(&rows) {
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
    assert_eq!(compared, 3068);
}

/// The events of one action, notes left out.
fn actions(t: &Json, action: &str) -> Vec<Json> {
    events_without_notes(t).into_iter().filter(|e| e.get(action).is_some()).collect()
}

/// Each of the 45 raw BBO LIN files gives the verdict, tricks, calls and cards of the PBN deal
/// it stands for (the converted transcript whose `deal_id` names it).
#[test]
fn lin_deals_match_their_pbn_deals() {
    let converted = data().join("bridge-transcripts/pbntools-bbo");
    let mut by_deal_id = std::collections::HashMap::new();
    for entry in std::fs::read_dir(&converted).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let t: Json = serde_saphyr::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if let Some(id) = t["meta"]["deal_id"].as_str() {
                by_deal_id.insert(id.to_string(), (path, t));
            }
        }
    }
    let raw = data().join("external/pbntools-bbo");
    let mut lin_files: Vec<PathBuf> = std::fs::read_dir(raw.join("SKY_CLUB_2196_Pairs_SKY_CLUB_JACKPOT_2000"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .chain([raw.join("1047742261.lin")])
        .collect();
    lin_files.sort();
    assert_eq!(lin_files.len(), 45);
    let mut checker = Checker::new(None);
    for lin in lin_files {
        let name = lin.file_name().unwrap().to_string_lossy().into_owned();
        let (pbn_path, pbn) = by_deal_id.get(&name).unwrap_or_else(|| panic!("no PBN deal for {name}"));
        let text = std::fs::read_to_string(&lin).unwrap();
        let deals = shinpan::import::read_deals(&lin, &text);
        assert_eq!(deals.len(), 1, "{name}");
        let ours = deals[0].transcript.as_ref().unwrap();
        for action in ["call", "play", "claim", "result"] {
            assert_eq!(actions(ours, action), actions(pbn, action), "{name}: `{action}` events");
        }
        let from_lin = checker.check_record(&lin).remove(0);
        let from_lin: Json = serde_json::from_str(&shinpan::report::render::json_line(&from_lin)).unwrap();
        let from_pbn = report(&mut checker, pbn_path);
        for key in ["verdict", "finished", "scores", "winners"] {
            assert_eq!(from_lin[key], from_pbn[key], "{name}: {key}");
        }
    }
}

/// Checking a PBN file directly gives each deal the verdict of its converted transcript.
#[test]
fn pbn_files_checked_directly_get_the_converted_verdicts() {
    let mut checker = Checker::new(None);
    let mut compared = 0;
    for (path, rows) in records_with_rows() {
        let deals = checker.check_record(&path);
        assert_eq!(deals.len(), rows.len(), "{}: deals", path.display());
        for (deal, (transcript, row)) in deals.iter().zip(&rows) {
            let direct: Json = serde_json::from_str(&shinpan::report::render::json_line(deal)).unwrap();
            let converted = report(&mut checker, transcript);
            assert_eq!(direct["file"], format!("{}#{}", path.display(), row["game"]));
            assert_eq!(direct["board"], row["board"]);
            for key in ["verdict", "violations", "finished", "scores", "winners"] {
                let (a, b) = (&direct[key], &converted[key]);
                let same = if key == "violations" {
                    a[0]["rule"] == b[0]["rule"] && a[0]["event"] == b[0]["event"]
                } else {
                    a == b
                };
                assert!(same, "{} #{}: {key}: {a} against {b}", path.display(), row["game"]);
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 3068);
}

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/records")
}

/// A messy record: a deal that cannot be represented is malformed with its line and reason,
/// and the deals after it are still checked.
#[test]
fn a_deal_that_cannot_be_read_keeps_the_others() {
    let mut checker = Checker::new(None);
    let verdicts: Vec<Json> = checker
        .check_record(&records().join("messy.pbn"))
        .iter()
        .map(|r| serde_json::from_str(&shinpan::report::render::json_line(r)).unwrap())
        .collect();
    let words: Vec<&str> = verdicts.iter().map(|v| v["verdict"].as_str().unwrap()).collect();
    assert_eq!(words, ["legal", "malformed", "malformed", "legal"]);
    let message = |i: usize| verdicts[i]["errors"][0]["message"].as_str().unwrap().to_string();
    assert!(
        message(1).contains("deal 2 (line 39 of")
            && message(1).ends_with("`X` is not a rank (in `XXT7.QT6.AQ985.T87`)"),
        "{}",
        message(1)
    );
    assert!(message(2).ends_with("line 93: `Pas` is not a call"), "{}", message(2));
    assert_eq!((verdicts[3]["board"].as_str(), verdicts[3]["room"].as_str()), (Some("2"), Some("Closed")));
    let lin: Vec<Report> = checker.check_record(&records().join("two-deals.lin"));
    let words: Vec<&str> = lin.iter().map(|r| r.verdict.word()).collect();
    assert_eq!(words, ["legal", "malformed"]);
    assert!(lin[1].errors[0].message.contains("`Z9` is not a card"), "{}", lin[1].errors[0].message);
}

/// Records cut, spliced and salted at random are read to verdicts, never a panic; a file
/// with no deal at all is one malformed verdict.
#[test]
fn damaged_records_never_panic() {
    let sources = [records().join("messy.pbn"), records().join("two-deals.lin")];
    let mut seed = 0x5eed_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    for source in &sources {
        let text = std::fs::read_to_string(source).unwrap();
        for _ in 0..300 {
            let mut damaged: Vec<char> = text.chars().collect();
            for _ in 0..1 + next(8) {
                let at = next(damaged.len());
                match next(3) {
                    0 => damaged.truncate(at),
                    1 => damaged.insert(at, ['|', '"', '[', ']', '{', '-', '^', '\n', 'S', '7'][next(10)]),
                    _ => {
                        let from = next(damaged.len());
                        let piece: Vec<char> = damaged.iter().skip(from).take(40).copied().collect();
                        damaged.splice(at..at, piece);
                    }
                }
            }
            let damaged: String = damaged.into_iter().collect();
            for deal in shinpan::import::read_deals(source, &damaged) {
                if let Ok(t) = &deal.transcript {
                    let _ =
                        Checker::new(None).check_text("damaged", shinpan::import::transcript_text(t), Path::new("."));
                }
            }
        }
    }
    let empty = std::env::temp_dir().join(format!("shinpan-empty-{}.pbn", std::process::id()));
    std::fs::write(&empty, "% nothing here\n").unwrap();
    let reports = Checker::new(None).check_record(&empty);
    std::fs::remove_file(&empty).unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(
        (reports[0].verdict.word(), reports[0].errors[0].message.as_str()),
        ("malformed", "the file holds no deal")
    );
}

/// `bridge-duplicate` scores every legal, finished EBL deal exactly as its `[Score]` tag says.
#[test]
fn duplicate_scores_equal_the_records() {
    let mut checker = Checker::new(Some("bridge-duplicate".into()));
    let (mut scored, mut nonzero) = (0, 0);
    for set in ["etc99pbn", "eyc00pbn"] {
        let dir = data().join("external/ebl-pbn-veugen").join(set);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.retain(|p| p.extension().is_some_and(|e| e == "PBN"));
        files.sort();
        for path in files {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            for deal in shinpan::import::read_deals(&path, &text) {
                let t = deal.transcript.unwrap();
                let Some(score) = t["meta"]["score"].as_str() else { continue };
                let ns: i64 = score.strip_prefix("NS ").unwrap().parse().unwrap();
                let label = format!("{}#{}", path.display(), deal.number);
                let r = checker.check_text(&label, shinpan::import::transcript_text(&t), &dir);
                if r.verdict.word() != "legal" || !r.finished {
                    continue;
                }
                let got: Json = serde_json::from_str(&shinpan::report::render::json_line(&r)).unwrap();
                assert_eq!(
                    got["scores"],
                    serde_json::json!({"N": ns, "E": -ns, "S": ns, "W": -ns}),
                    "{label}: [Score \"{score}\"]"
                );
                scored += 1;
                nonzero += usize::from(ns != 0);
            }
        }
    }
    // All 1,498 legal and finished deals; the 126 passed out score 0.
    assert_eq!((scored, nonzero), (1498, 1498 - 126));
}

/// B22: a `^` declarer (declarer and dummy swapped after a wrong opening lead) is represented
/// by a contract naming the regular declarer, the `^` seat's partner; the recorded opening
/// lead then comes from the wrong defender, which is `turn-order`.
#[test]
fn a_swapped_declarer_is_turn_order_at_the_opening_lead() {
    let messy = std::fs::read_to_string(records().join("messy.pbn")).unwrap();
    let first = &messy[..messy.find("\n*").unwrap() + 2];
    // Without the auction, the contract tag and the declarer stand for it.
    let no_auction = first.replace("[Auction \"N\"]\nPass Pass 1NT Pass\n3NT Pass Pass Pass\n", "");
    let check = |text: &str| {
        let deals = shinpan::import::read_deals(Path::new("swap.pbn"), text);
        let transcript = deals[0].transcript.clone().unwrap();
        let report =
            Checker::new(None).check_text("swap", shinpan::import::transcript_text(&transcript), Path::new("."));
        (transcript, report)
    };
    let (transcript, regular) = check(&no_auction);
    assert_eq!(regular.verdict.word(), "legal", "{:?}", regular.violations);
    assert_eq!(transcript["events"][3]["contract"]["declarer"], "S");
    let (transcript, swapped) = check(&no_auction.replace("[Declarer \"S\"]", "[Declarer \"^N\"]"));
    assert_eq!(transcript["events"][3]["contract"]["declarer"], "S");
    let (transcript, swapped_back) = check(&no_auction.replace("[Declarer \"S\"]", "[Declarer \"^S\"]"));
    assert_eq!(transcript["events"][3]["contract"]["declarer"], "N");
    assert_eq!(swapped.verdict.word(), "legal", "{:?}", swapped.violations);
    let broken = &swapped_back.violations[0];
    assert_eq!((broken.rule.as_str(), broken.event), ("turn-order", 4));
}

/// `check --all` on the 15 marked revokes of the EBL records: the revoke stands (Law 63: an
/// established revoke is not corrected), play goes on to the end of the record, and declarer's
/// tricks are those of the game as played and claimed. Under `bridge-duplicate`, each revoke
/// is settled by Law 64 in a note. (The records' own `[Score]` tags are those of the tricks as
/// played in all 15: their scorers transferred no trick.)
#[test]
fn the_marked_revokes_stand_and_play_goes_on() {
    let mut checker = Checker::new(None);
    checker.all = true;
    let mut duplicate = Checker::new(Some("bridge-duplicate".into()));
    duplicate.all = true;
    let (mut revokes, mut settled) = (0, 0);
    for (path, row) in manifest("ebl-pbn-veugen") {
        let Some(marked) = row["revokes"].as_array().filter(|r| !r.is_empty()) else { continue };
        let got = report(&mut checker, &path);
        let violations = got["violations"].as_array().unwrap();
        let first = &violations[0];
        assert_eq!((first["rule"].as_str(), &first["event"]), (Some("must-follow"), &marked[0]["event"]), "{got}");
        assert_eq!(first["stood"], true, "{got}");
        // Every violation stood: nothing in these deals stops the checking.
        assert!(violations.iter().all(|v| v["stood"] == true), "{got}");
        assert_eq!(violations.len(), marked.len(), "{got}");
        assert_eq!(got["finished"], row["play"]["ends"] == "claim" || row["play"]["ends"] == "complete", "{got}");
        if got["finished"] == true {
            let declarer = row["contract"].as_str().unwrap().rsplit(' ').next().unwrap();
            assert_eq!(got["scores"][declarer], row["declarer_tricks"], "{got}");
            // Under bridge-duplicate, Law 64 settles each revoke at the end of play, and the
            // last note gives the tricks as played.
            let duplicate = report(&mut duplicate, &path);
            let notes: Vec<&str> =
                duplicate["notes"].as_array().unwrap().iter().map(|n| n["message"].as_str().unwrap()).collect();
            assert_eq!(notes.len(), marked.len() + 1, "{duplicate}");
            assert!(notes[..marked.len()].iter().all(|n| n.starts_with("Law 64")), "{notes:?}");
            let as_played = format!("declarer {declarer} took {} tricks as played,", row["declarer_tricks"]);
            assert!(notes[marked.len()].starts_with(&as_played), "{notes:?}");
            settled += 1;
        }
        revokes += 1;
    }
    assert_eq!((revokes, settled), (15, 15));
    // Without --all, each stops at its revoke.
    let (path, _) = manifest("ebl-pbn-veugen")
        .into_iter()
        .find(|(_, row)| row["revokes"].as_array().is_some_and(|r| !r.is_empty()))
        .unwrap();
    let got = report(&mut Checker::new(None), &path);
    assert_eq!(got["violations"].as_array().unwrap().len(), 1);
    assert!(got["violations"][0].get("stood").is_none(), "{got}");
}
