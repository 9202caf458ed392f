//! Output proportional to input: a tag a record's games inherit, the values one verdict line
//! writes, and the states a replay writes are each bounded, however the input shares them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;
use common::{Scratch, bin, run};

use std::path::PathBuf;

use proptest::prelude::*;
use serde_json::Value as Json;
use shinpan::program::value::Value;
use shinpan::report::values::{JsonBudget, TEXT_BYTES_PER_VALUE, value_json_within};

/// The values one verdict line writes at most, by default.
const MAX_JSON_VALUES: usize = shinpan::Limits::DEFAULT.verdict_json_values;

/// How many JSON values a value holds, itself included (an object's keys are not counted).
fn nodes(j: &Json) -> usize {
    1 + match j {
        Json::Array(items) => items.iter().map(nodes).sum(),
        Json::Object(m) => m.values().map(nodes).sum(),
        _ => 0,
    }
}

/// How many `"…"` marks a value holds (as a value or as a key).
fn marks(j: &Json) -> usize {
    match j {
        Json::String(s) if s == "…" => 1,
        Json::Array(items) => items.iter().map(marks).sum(),
        Json::Object(m) => m.iter().map(|(k, v)| usize::from(k == "…") + marks(v)).sum(),
        _ => 0,
    }
}

// ---- Class 2: what a record's games inherit is held once and echoed cut ----

/// A PBN game; `tag` is the value of its Event, Board, Room and North tags (`#` inherits).
fn pbn_game(tag: &str) -> String {
    format!(
        "[Event \"{tag}\"]\n[Board \"{tag}\"]\n[Room \"{tag}\"]\n[North \"{tag}\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n\
         [Deal \"N:T7.QT6.AQ985.T87 98.542.KT643.K54 AQ32.AK97.72.Q62 KJ654.J83.J.AJ93\"]\n\
         [Declarer \"S\"]\n[Contract \"3NT\"]\n[Result \"7\"]\n[Auction \"N\"]\nPass Pass 1NT Pass\n3NT Pass Pass Pass\n"
    )
}

/// A PBN file whose first game's tags are `size` bytes, inherited (`#`) by `games - 1` more.
fn inherited_pbn(size: usize, games: usize) -> String {
    let big = "x".repeat(size);
    let mut text = pbn_game(&big);
    for _ in 1..games {
        text.push('\n');
        text.push_str(&pbn_game("#"));
    }
    text
}

/// Each deal's transcript, as checking and `import` write it: what the deals hold beyond the
/// file's own bytes is a constant per deal, never the inherited tag again.
fn transcripts_size(path: &str, text: &str) -> usize {
    let deals = shinpan::import::read_deals(std::path::Path::new(path), text);
    deals
        .iter()
        .map(|d| {
            let t = d.transcript.as_ref().map(shinpan::import::transcript_text).unwrap_or_default();
            t.len() + d.board.as_ref().map_or(0, String::len) + d.room.as_ref().map_or(0, String::len)
        })
        .sum()
}

/// What one deal may add to the output and to memory, whatever the file: its echoed board
/// and room, its transcript with `meta` cut (ten tags of at most `MAX_META_TAG` characters of
/// up to 4 bytes) and its events.
fn per_deal_bound() -> usize {
    2 * 4 * shinpan::import::MAX_ECHOED_TAG + 10 * 4 * shinpan::import::MAX_META_TAG + 8_000
}

#[test]
fn an_inherited_pbn_tag_is_not_copied_into_every_deal() {
    let (size, games) = (256 * 1024, 200);
    let text = inherited_pbn(size, games);
    // Before: 200 copies of four 256 KiB tags (200 MiB); now a constant per deal.
    assert!(transcripts_size("big.pbn", &text) <= games * per_deal_bound());

    let s = Scratch::new("inherited-pbn");
    std::fs::write(s.path("big.pbn"), &text).unwrap();
    let (code, out, err) = run(bin().args(["check", "--format", "json", &s.path("big.pbn")]));
    assert_eq!(code, 0, "{err}");
    let verdicts: Vec<Json> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(verdicts.len(), games);
    for v in &verdicts {
        for key in ["board", "room"] {
            let echoed = v[key].as_str().unwrap();
            assert_eq!(echoed.chars().count(), shinpan::import::MAX_ECHOED_TAG + 1, "{key}");
            assert!(echoed.ends_with('…'), "a cut is marked");
        }
    }
    // Before: every line echoed the whole board and room (over 100 MiB in all).
    assert!(out.len() <= games * 2_000, "{} bytes", out.len());
    let (_, human, _) = run(bin().args(["check", &s.path("big.pbn")]));
    assert!(human.len() <= games * 2_000, "{} bytes", human.len());

    // What `import` writes is bounded the same way.
    let (code, _, err) = run(bin().args(["import", "--out", &s.path("out"), &s.path("big.pbn")]));
    assert_eq!(code, 0, "{err}");
    let written: u64 = std::fs::read_dir(s.path("out")).unwrap().map(|e| e.unwrap().metadata().unwrap().len()).sum();
    assert!(written as usize <= games * per_deal_bound(), "{written} bytes");
}

/// LIN's header values (`pn|`, the players' names) belong to every deal after them.
#[test]
fn a_lin_header_is_not_copied_into_every_deal() {
    let names = vec!["n".repeat(64 * 1024); 4].join(",");
    let md = "md|3S346TJH9QD69TC57K,S7H2347KD37JKC46A,S2KH58TD2458C389J,|sv|o|mb|p|mb|p|mb|p|mb|p|\n";
    let board = "b".repeat(64 * 1024);
    let deals = 200;
    let text = format!("pn|{names}|") + &(0..deals).map(|_| format!("ah|{board}|{md}")).collect::<String>();
    // The board is each deal's own (as long as the file), the names inherited by every deal.
    assert!(transcripts_size("big.lin", &text) <= deals * per_deal_bound());
    let found = shinpan::import::read_deals(std::path::Path::new("big.lin"), &text);
    let echoed = found[1].board.as_deref().unwrap();
    assert_eq!(echoed.chars().count(), shinpan::import::MAX_ECHOED_TAG + 1);
    let meta = &found[1].transcript.as_ref().unwrap()["meta"];
    assert_eq!(meta["names"]["S"].as_str().unwrap().chars().count(), shinpan::import::MAX_META_TAG + 1);
    assert!(meta["names"]["S"].as_str().unwrap().ends_with('…'));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Whatever the size of the inherited tags and the number of games, the deals' transcripts
    /// add at most a constant per deal to the file.
    #[test]
    fn deals_grow_with_the_file_not_with_deals_times_tags(size in 0usize..40_000, games in 1usize..40) {
        let text = inherited_pbn(size, games);
        let total = transcripts_size("p.pbn", &text);
        prop_assert!(total <= games * per_deal_bound(), "{total} bytes for {games} games of a {size}-byte tag");
    }
}

// ---- Class 3: one budget per verdict line ----

/// A rules file whose state, history, scores and each of many legal events share a list of
/// 2^15 parts (small in memory, 65,535 values written out).
const WIDE: &str = "game wide\nplayers 2..2\nrule r \"some items\"\naction go: list list int\nvar big = []\n\
var seen = 0\nhistory big\nview big, seen\nscores zip_map(players, [seen, seen])\nwinners []\nflow {\n  let x = []\n\
  for i in range(1, 16) {\n    x = [x, x]\n  }\n  big = x\n  seen = 1\n  choose {\n\
    go(n) by players[0] choices [[x for j in range(0, i)] for i in range(1, 12)] {\n\
      require len(n) > 0 and len(big) >= 0 else r \"some items\"\n    }\n  }\n  finish\n}\n";

#[test]
fn one_budget_covers_a_whole_verdict_line() {
    let s = Scratch::new("wide");
    std::fs::write(s.path("wide.rules"), WIDE).unwrap();
    std::fs::write(s.path("wide.yaml"), "rules: wide.rules\nplayers: [aki, ben]\nevents:\n  - {by: aki, go: []}\n")
        .unwrap();
    let (code, out, err) = run(bin().args(["check", "--format", "json", &s.path("wide.yaml")]));
    assert_eq!(code, 1, "{err}");
    let line: Json = serde_json::from_str(out.trim()).unwrap();
    let v = &line["violations"][0];
    assert_eq!(v["legal_count"], 12);
    // Each part of the violation gets its share: the legal events are listed, cut.
    assert!(!v["legal"].as_array().unwrap().is_empty());
    assert!(marks(&v["legal"]) > 0 && marks(&v["state"]) > 0 && marks(&v["history"]) > 0);
    // Before: 100,000 values for each score, the state, the history and each legal event
    // (1.5 million values, 4 MiB); now the line writes 100,000 values in all, and says so.
    let written = nodes(&line["scores"]) + nodes(&v["state"]) + nodes(&v["history"]) + nodes(&v["legal"]);
    let slack = 64 + 2 * marks(&line);
    assert!(written <= MAX_JSON_VALUES + slack, "{written} values written");
    assert!(out.len() <= 4 * MAX_JSON_VALUES, "{} bytes", out.len());
    assert_eq!(line["truncated"], true);
    assert!(marks(&line) > 0, "the cut is marked where it is");
    // The scores come first, whole.
    assert_eq!(marks(&line["scores"]), 0);
    // Cut, the line still fits the schema.
    let schema: Json = serde_json::from_str(
        &std::fs::read_to_string(PathBuf::from(common::repo()).join("docs/verdict.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let problems: Vec<String> = validator.iter_errors(&line).map(|e| e.to_string()).collect();
    assert!(problems.is_empty(), "{problems:?}");
}

/// What a value costs against a budget as `JsonBudget` charges it, `"…"` marks free.
fn cost(j: &Json) -> usize {
    let text = |s: &str| s.len() / TEXT_BYTES_PER_VALUE;
    match j {
        Json::String(s) if s == "…" => 0,
        Json::String(s) => 1 + text(s),
        Json::Array(items) => 1 + items.iter().map(cost).sum::<usize>(),
        Json::Object(m) => 1 + m.iter().filter(|(k, _)| *k != "…").map(|(k, v)| text(k) + cost(v)).sum::<usize>(),
        _ => 1,
    }
}

/// A value built from a seed of choices: texts of any length, lists and maps sharing their
/// parts (each part may be used many times over).
/// The largest budget the property below draws.
const MAX_BUDGET: usize = 5_000;

fn shared_value(choices: &[(u8, u16)]) -> Value {
    let mut made: Vec<Value> = vec![Value::Int(0)];
    for &(kind, n) in choices {
        let pick = |k: usize| made[k % made.len()].clone();
        let v = match kind % 5 {
            0 => Value::Int(i64::from(n)),
            1 => Value::str(&"é".repeat(n as usize)),
            2 => Value::list((0..(n % 64) as usize).map(|k| pick(k * 7 + n as usize)).collect()),
            3 => Value::map(
                (0..(n % 16) as usize)
                    .map(|k| (Value::str(&format!("k{k}{}", "y".repeat(n as usize))), pick(k)))
                    .collect(),
            ),
            _ => Value::list(vec![pick(n as usize), pick(n as usize / 2)]),
        };
        made.push(v);
    }
    made.pop().unwrap_or(Value::Null)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Whatever a value shares and however long its texts, what is written within a budget
    /// costs at most the budget (plus one value for each mark and a cut text), one shared
    /// budget covers several values, and a value that fits is written whole.
    #[test]
    fn a_budget_bounds_every_value_written(
        choices in proptest::collection::vec((any::<u8>(), 0u16..2_000), 1..40),
        budget in 0usize..MAX_BUDGET,
    ) {
        let prog = shinpan::builtin_program("hangover").unwrap().unwrap();
        let players = ["aki".to_string(), "ben".to_string(), "chie".to_string()];
        let value = shared_value(&choices);
        let mut shared = JsonBudget::new(budget);
        let first = value_json_within(&prog, &players, &value, &mut shared);
        let second = value_json_within(&prog, &players, &value, &mut shared);
        let spent = cost(&first) + cost(&second);
        prop_assert!(spent <= budget + 2 * (marks(&first) + marks(&second)) + 2, "{spent} > {budget}");
        // The value whole, where it is small enough to write: a value shared at every level
        // can stand for more values than any memory holds.
        let mut roomy = JsonBudget::new(4 * MAX_BUDGET);
        let whole = value_json_within(&prog, &players, &value, &mut roomy);
        if roomy.was_cut() {
            // Larger than any budget drawn: the budget was spent before its end.
            prop_assert!(shared.was_cut());
        } else {
            prop_assert_eq!(shared.was_cut(), first != whole || second != whole);
            if cost(&whole) <= budget {
                prop_assert_eq!(&first, &whole);
            }
        }
        // Bytes follow from values: a value written is at most a number, a mark or a short text.
        prop_assert!(first.to_string().len() <= 40 * (budget + 1) + 64);
    }
}

// ---- Class 4: a replay is bounded as a whole ----

/// A game of 200 events whose state after each holds a list of 2^14 parts.
const GROW: &str = "game grow\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\nvar big = []\nvar turn = 0\n\
view big, turn\nscores zip_map(players, [turn, turn])\nwinners []\nflow {\n  let x = []\n\
  for i in range(1, 15) {\n    x = [x, x]\n  }\n  big = x\n  for k in range(1, 200) {\n    choose {\n\
      go(n) by players[0] {\n        turn = turn + 1\n      }\n    }\n  }\n  finish\n}\n";

#[test]
fn a_replay_is_bounded_as_a_whole() {
    let s = Scratch::new("grow");
    std::fs::write(s.path("grow.rules"), GROW).unwrap();
    let events: String = (0..200).map(|_| "  - {by: aki, go: 1}\n").collect();
    std::fs::write(s.path("grow.yaml"), format!("rules: grow.rules\nplayers: [aki, ben]\nevents:\n{events}")).unwrap();
    let (_, out, err) = run(bin().args(["replay", "--format", "json", &s.path("grow.yaml")]));
    assert!(!err.contains("panicked"), "{err}");
    let steps: Vec<Json> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(steps.len() >= 199, "{}", steps.len());
    let state = |s: &Json| s.get("state_after").or(s.get("state_before")).cloned().unwrap();
    let written: usize = steps.iter().map(|s| nodes(&state(s))).sum();
    let marked: usize = steps.iter().map(|s| marks(&state(s))).sum();
    let limit = shinpan::Limits::DEFAULT.replay_json_values + MAX_JSON_VALUES;
    // Before: 16,383 values in each of 200 states (3.3 million, 10 MiB).
    assert!(written <= limit + 2 * marked + 4 * steps.len(), "{written} values written");
    assert!(out.len() <= 4 * limit, "{} bytes", out.len());
    // Every step shows its turn and the cut, never nothing.
    assert!(steps.iter().all(|s| state(s).get("turn").is_some()), "{}", &out[..500]);
    assert!(steps.iter().any(|s| s["truncated"] == true));
    // The page holds the same steps: bounded the same way.
    let (_, _, err) = run(bin().args(["replay", "--html", &s.path("grow.html"), &s.path("grow.yaml")]));
    assert!(!err.contains("panicked"), "{err}");
    let page = std::fs::metadata(s.path("grow.html")).unwrap().len() as usize;
    assert!(page <= 4 * limit + 100_000, "{page} bytes");
}

// ---- The red-team pass: what the rules write for a person grows with the events, not with
// their square or with the rules' loops ----

/// Every move notes 3,000 lines; every second move breaks a rule that stands and reads a
/// `history` variable that changes at every move.
const NOTING: &str = r#"
game noting
players 2..2
rule small "a move is at most 5" stands
action move: int 0..9
var total = 0
var seen = []
history seen
scores zip_map(players, [total for p in players])
winners []

flow {
  loop {
    choose {
      move(n) by players[0] {
        require n + len(seen) * 0 <= 5 else small "{n} is over 5"
        let i = 0
        while i < 3000 {
          note "note {i} of the move {n}"
          i += 1
        }
        seen = seen + [n]
        total += n
      }
    }
  }
}
"#;

fn noting_game(s: &Scratch, events: usize) -> String {
    std::fs::write(s.path("noting.rules"), NOTING).unwrap();
    let mut text = String::from("rules: noting.rules\nplayers: [aki, ben]\nevents:\n");
    for i in 0..events {
        text.push_str(&format!("  - {{by: aki, move: {}}}\n", if i % 2 == 1 { 9 } else { 1 }));
    }
    let path = s.path("game.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

/// A game keeps at most `Limits::notes` notes, and one more saying the rest were not kept.
#[test]
fn a_game_keeps_a_bounded_number_of_notes() {
    let s = Scratch::new("noting");
    let game = noting_game(&s, 40);
    let (code, out, err) = run(bin().args(["check", "--all", "--format", "json", &game]));
    assert_eq!(code, 1, "{err}");
    let verdict: Json = serde_json::from_str(&out).unwrap();
    let notes = verdict["notes"].as_array().unwrap();
    assert_eq!(notes.len(), shinpan::Limits::DEFAULT.notes + 1);
    assert_eq!(notes[0]["message"], "note 0 of the move 1");
    let last = notes.last().unwrap()["message"].as_str().unwrap();
    assert!(last.contains("further notes were not kept"), "{last}");
    // A game with fewer notes keeps all of them, and no such line.
    let game = noting_game(&s, 0);
    let short = NOTING.replace("i < 3000", "i < 3");
    std::fs::write(s.path("noting.rules"), short).unwrap();
    let (_, out, _) = run(bin().args(["check", "--all", "--format", "json", &game]));
    let verdict: Json = serde_json::from_str(&out).unwrap();
    assert!(verdict.get("notes").is_none(), "no move, no note: {out}");
}

/// Under `check --all` every violation shows how a `history` variable came to be: the start,
/// a line for the changes left out, and the latest ones, each line cut; so the human report
/// grows with the violations, not with violations times events.
#[test]
fn a_violation_shows_a_bounded_history() {
    let s = Scratch::new("history");
    let game = noting_game(&s, 120);
    let short = NOTING.replace("i < 3000", "i < 1");
    std::fs::write(s.path("noting.rules"), short).unwrap();
    let (code, out, err) = run(bin().args(["check", "--all", "--format", "human", &game]));
    assert_eq!(code, 1, "{err}");
    let violations = out.matches("`small` broken").count();
    assert_eq!(violations, 60, "{out}");
    let changes = out.lines().filter(|l| l.contains("after event")).count();
    assert!(changes <= violations * 20, "{changes} lines of changes for {violations} violations");
    assert!(out.contains("changes left out"), "{out}");
    // The last violation still shows the change just before it.
    assert!(out.contains("after event 118"), "{out}");
}

/// A player's name is at most `MAX_PLAYER_NAME` characters: a name is written in every
/// message, state line and legal move that names its player, so a long one would multiply
/// what a small file makes shinpan write (and what a did-you-mean would measure).
#[test]
fn a_player_s_name_is_bounded() {
    use shinpan::transcript::decode::MAX_PLAYER_NAME;
    let s = Scratch::new("long-names");
    let game = |name: &str| {
        let path = s.path(&format!("{}.yaml", name.len()));
        let text = format!("rules: hangover\nplayers: [{name}, ben, chie]\nevents:\n  - {{by: {name}x, play: R5}}\n");
        std::fs::write(&path, text).unwrap();
        path
    };
    let (at, over) = (game(&"a".repeat(MAX_PLAYER_NAME)), game(&"a".repeat(MAX_PLAYER_NAME + 1)));
    let (_, out, _) = run(bin().args(["check", "--format", "json", &at, &over]));
    let verdicts: Vec<Json> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let message = |v: &Json| v["errors"][0]["message"].as_str().unwrap().to_string();
    // At the limit the name is taken (the event's `by` is one letter off: a typo, suggested).
    assert!(message(&verdicts[0]).contains("did you mean"), "{}", message(&verdicts[0]));
    assert!(message(&verdicts[1]).contains("longer than a player's name may be"), "{}", message(&verdicts[1]));
}

/// A did-you-mean looks only at names that can be close: a megabyte of name is not measured
/// against another (which would take the product of their lengths).
#[test]
fn a_suggestion_is_never_sought_for_a_huge_name() {
    let huge = "a".repeat(1 << 20);
    let near = format!("{huge}b");
    assert_eq!(shinpan::diag::did_you_mean(&huge, [near.as_str(), "ab"].into_iter()), None);
    assert_eq!(shinpan::diag::did_you_mean("abx", [near.as_str(), "abc"].into_iter()), Some("abc"));
    // At the limit a typo is still found; past it, none is sought.
    let at = "b".repeat(shinpan::diag::MAX_SUGGESTED);
    let typo = format!("c{}", &at[1..]);
    assert_eq!(shinpan::diag::did_you_mean(&typo, [at.as_str()].into_iter()), Some(at.as_str()));
    let (over, over_typo) = (format!("{at}b"), format!("{typo}b"));
    assert_eq!(shinpan::diag::did_you_mean(&over_typo, [over.as_str()].into_iter()), None);
}
