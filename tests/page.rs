//! The judge's page (`shinpan replay --html`): one self-contained file per transcript, checked
//! in a real browser (Debian's chromium, driven by playwright-core from tests/browser/) for
//! every built-in game: it opens at the violation, shows the rule, the rules file's line, the
//! legal alternatives, a row per player and the cards as chips, and steps with the arrow keys
//! and the slider. Screenshots go to target/page/.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

#[path = "../crates/cli/tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::Command;

use shinpan::report::check::Checker;

/// A transcript of each built-in game, checked under `--all` (moves that stand, then the one
/// checking stopped at and the events after it; bridge-duplicate's with Law 64's notes, finished
/// with winners), with chips to draw.
const PAGES: [(&str, &str); 6] = [
    ("hangover", "fixtures/all/hangover-stops.yaml"),
    ("bridge", "fixtures/all/bridge-stops.yaml"),
    ("bridge-duplicate", "fixtures/all/bridge-law64.yaml"),
    ("torite-4to6", "fixtures/all/torite-4to6-stops.yaml"),
    ("curtain-call", "fixtures/all/curtain-call-stops.yaml"),
    ("clock-tcg", "fixtures/all/clock-tcg-stops.yaml"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn replayed(path: &Path) -> shinpan::Report {
    let mut checker = Checker::new(None);
    checker.record_states = true;
    checker.all = true;
    checker.check_path(path)
}

/// Each game's page, with what the browser must find on it (`check-pages.mjs` says what).
fn pages() -> Vec<(&'static str, String, serde_json::Value)> {
    PAGES.iter().map(|(game, fixture)| (*game, root().join(fixture))).map(|(game, path)| page_of(game, &path)).collect()
}

/// The page of a transcript and what it must show: each step's heading (the event whole, in
/// transcript words, never its first line as written), the first violation, the result.
fn page_of(game: &'static str, path: &Path) -> (&'static str, String, serde_json::Value) {
    let report = replayed(path);
    let page = shinpan::report::page::page(&report).unwrap();
    let headings: Vec<serde_json::Value> = report
        .replay_steps()
        .iter()
        .map(|s| {
            let when = if s.before { "before" } else { "after" };
            let heading = format!("event {} (line {}): {} — the game {when} it", s.event, s.line, s.words);
            serde_json::json!({"event": s.event, "words": s.words, "heading": heading})
        })
        .collect();
    let first = report.violations.first();
    let stopped = report.violations.last().filter(|v| v.stood != Some(true)).map(|v| {
        let follow = report.replay_steps().last().and_then(|s| s.follow).unwrap();
        serde_json::json!({"event": v.event, "follow": follow})
    });
    let scores: serde_json::Map<String, serde_json::Value> = report.scores.iter().flatten().cloned().collect();
    let unreadable = report
        .errors
        .iter()
        .find(|e| e.event.is_some())
        .map(|e| serde_json::json!({"event": e.event, "message": e.message}));
    let want = serde_json::json!({
        "verdict": report.verdict.word(),
        "event": first.map(|v| v.event),
        "rule": first.map(|v| v.rule.clone()),
        "section": first.and_then(|v| v.rule_text.rsplit_once('(')).map(|(_, s)| format!("see section {}", s.trim_end_matches(')'))),
        "players": report.players.len(),
        "headings": headings,
        "result": {
            "finished": report.finished,
            "scores": scores,
            "winners": report.winners,
            "notes": report.notes.iter().map(|n| n.message.clone()).collect::<Vec<_>>(),
            "stopped": stopped,
        },
        "unreadable": unreadable,
    });
    (game, page, want)
}

/// A game of Curtain Call with a one-character typo in a card of event 40 (`7H` written `7X`):
/// malformed, yet its page shows the 40 events before it.
fn typo_page() -> (&'static str, String, serde_json::Value) {
    let text = std::fs::read_to_string(root().join("fixtures/demo/curtain-call-1000-0004.yaml")).unwrap();
    let dir = root().join("target/page");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("typo.yaml");
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines.iter().enumerate().filter(|(_, l)| l.starts_with("- ") || l.starts_with("  - ")).nth(40).unwrap().0;
    let mut lines = lines;
    let typo = lines[at..].iter().position(|l| l.contains("7H")).unwrap() + at;
    lines[typo] = lines[typo].replacen("7H", "7X", 1);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    page_of("malformed", &path)
}

/// Writes each game's page and what it must show under target/page/, for the browser.
fn write_pages() -> Vec<String> {
    let dir = root().join("target/page");
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = vec![];
    for (game, page, want) in pages().into_iter().chain([typo_page()]) {
        let path = dir.join(format!("{game}.html"));
        std::fs::write(&path, &page).unwrap();
        std::fs::write(dir.join(format!("{game}.json")), want.to_string()).unwrap();
        out.push(path.display().to_string());
    }
    out
}

#[test]
fn a_page_needs_nothing_but_itself() {
    for (path, page, ..) in pages() {
        // No address to fetch, no file beside it: styles and script are inline.
        for outside in ["http://", "https://", "src=", "href=", "@import", "url("] {
            assert!(!page.contains(outside), "{path} refers to `{outside}`");
        }
        // The data cannot end its script element early, whatever a transcript holds.
        let data = &page[page.find("type=\"application/json\">").unwrap()..];
        let data = &data[..data.find("</script>").unwrap()];
        assert!(!data[1..].contains("</"), "{path}");
    }
}

#[test]
fn every_game_s_page_works_in_a_real_browser() {
    let driver = root().join("tests/browser");
    if !common::browser_ready() {
        return;
    }
    let pages = write_pages();
    let out = Command::new("node").arg(driver.join("check-pages.mjs")).args(&pages).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    for game in PAGES.iter().map(|(game, _)| *game).chain(["malformed"]) {
        for width in ["", "-360", "-800", "-1280"] {
            assert!(root().join(format!("target/page/{game}{width}.png")).exists(), "no screenshot of {game}{width}");
        }
    }
}

/// A replay has one step per event judged, in order, each with the game as it stood when the
/// next event was awaited: several waiting points before one event (a record that may come,
/// then the next play) keep only the last state, not a step for each.
#[test]
fn a_replay_has_one_step_per_event() {
    let mut checked = 0;
    for game in ["hangover", "torite-4to6", "curtain-call", "clock-tcg", "bridge", "all"] {
        for entry in std::fs::read_dir(root().join("fixtures").join(game)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|x| x != "yaml") {
                continue;
            }
            let mut checker = Checker::new(None);
            checker.record_states = true;
            checker.all = game == "all";
            let report = checker.check_path(&path);
            let events: Vec<usize> = report.steps.iter().map(|s| s.event).collect();
            let expected: Vec<usize> = (0..events.len()).collect();
            assert_eq!(events, expected, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked}");
}

/// The data a page carries, as the page's script reads it.
fn page_data(page: &str) -> serde_json::Value {
    let open = r#"<script id="data" type="application/json">"#;
    let start = page.find(open).unwrap() + open.len();
    let len = page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..start + len].replace("<\\/", "</")).unwrap()
}

#[test]
fn chips_are_grouped_by_suit_or_colour_and_calls_are_not_chips() {
    let data: Vec<(&str, serde_json::Value)> =
        pages().into_iter().map(|(game, page, _)| (game, page_data(&page))).collect();
    let cards = |game: &str| data.iter().find(|(g, _)| *g == game).unwrap().1["cards"].as_object().unwrap().clone();
    // Bridge: a card's group is its suit; the calls (`codes Bid`) are not cards at all.
    let bridge = cards("bridge");
    assert_eq!(bridge.len(), 52, "{bridge:?}");
    assert_eq!(bridge["SA"], "S");
    assert_eq!(bridge["H2"], "H");
    assert!(!bridge.contains_key("1N") && !bridge.contains_key("7S"), "{bridge:?}");
    // Curtain Call: `suit` is the second attribute, after `number`; it still names the group.
    let curtain = cards("curtain-call");
    assert!(
        curtain.values().all(|g| g.as_str().is_some_and(|g| !g.is_empty() && g.parse::<i64>().is_err())),
        "{curtain:?}"
    );
    // Toriteban: the `color` attribute; Hangover: drinks by suit, snacks (no enum) in no group.
    assert!(cards("torite-4to6").values().all(|g| g.as_str().is_some_and(|g| !g.is_empty())));
    let hangover = cards("hangover");
    assert_eq!(hangover["R1"], "R");
    assert_eq!(hangover["+1/+2"], "");
}

#[test]
fn each_step_carries_its_event_and_the_violation() {
    for (game, page, want) in pages() {
        let data = page_data(&page);
        let steps = data["steps"].as_array().unwrap();
        // One step per event up to the violation, each with its line and state; the broken
        // event's step names the rule, where it is checked and what was legal.
        let broken = steps.iter().find(|s| s["violations"].as_array().is_some_and(|v| !v.is_empty())).unwrap();
        assert_eq!(broken["event"], want["event"], "{game}");
        assert_eq!(broken["violations"][0]["rule"], want["rule"], "{game}");
        assert!(broken["violations"][0]["where"].as_str().unwrap().contains(".rules:"), "{game}");
        assert!(!broken["violations"][0]["legal"].as_array().unwrap().is_empty(), "{game}");
        for step in steps {
            assert!(step["line"].as_u64().is_some_and(|l| l > 0), "{game}: {step}");
            assert!(step["written"].as_str().is_some_and(|w| !w.is_empty()), "{game}: {step}");
            assert!(step["state"].is_object() || step["state"].is_array(), "{game}: {step}");
        }
    }
}

/// Every step's words are the whole event: its actor, its action and (when it has one) its
/// argument, in transcript words, whatever lines the transcript wrote it over: an event written
/// over two lines (`- by: aki` then `present: {...}`) is not shown as its first line.
#[test]
fn every_event_is_shown_whole_in_transcript_words() {
    let report = replayed(&root().join("fixtures/demo/curtain-call-1000-0004.yaml"));
    let steps = report.replay_steps();
    let at60 = steps.iter().find(|s| s.event == 60).unwrap();
    assert_eq!(at60.words, "aki present {actor: QC, kuroko: QC}");
    assert!(at60.human().starts_with("event 60 (line 88): aki present {actor: QC, kuroko: QC}\n"), "{}", at60.human());
    let mut multi_line = 0;
    for (game, fixture) in PAGES.into_iter().chain([("curtain-call", "fixtures/demo/curtain-call-1000-0004.yaml")]) {
        let report = replayed(&root().join(fixture));
        for s in report.replay_steps() {
            let action = s.action.and_then(|a| a.as_object());
            if let Some(action) = action {
                let by = action["by"].as_str().unwrap();
                let name = action.keys().find(|k| *k != "by").unwrap();
                assert!(s.words.starts_with(&format!("{by} {name}")), "{game}: {} for {action:?}", s.words);
            }
            let first_line = s.written.trim().lines().next().unwrap_or_default();
            multi_line +=
                usize::from(action.is_some_and(|a| a.keys().any(|k| k != "by" && !first_line.contains(k.as_str()))));
            assert!(!s.words.contains('\n'), "{game}: {}", s.words);
        }
    }
    // Events whose first line as written has no action (`- by: aki`): each shown whole all the same.
    assert!(multi_line > 10, "{multi_line} events written over several lines");
}

/// The page carries the result `check --all` prints: finished, scores, winners, the rules'
/// notes, and where checking stopped with how many events follow.
#[test]
fn the_page_carries_the_result() {
    for (game, page, want) in pages() {
        let data = page_data(&page);
        let result = &data["result"];
        assert_eq!(result["finished"], want["result"]["finished"], "{game}");
        assert_eq!(result["scores"], want["result"]["scores"], "{game}");
        assert_eq!(result["winners"], want["result"]["winners"], "{game}");
        let notes: Vec<&serde_json::Value> =
            result["notes"].as_array().unwrap().iter().map(|n| &n["message"]).collect();
        let wanted: Vec<&serde_json::Value> = want["result"]["notes"].as_array().unwrap().iter().collect();
        assert_eq!(notes, wanted, "{game}");
        assert_eq!(result["stopped"]["event"], want["result"]["stopped"]["event"], "{game}");
    }
    let law64 = pages().into_iter().find(|(g, ..)| *g == "bridge-duplicate").unwrap().2;
    assert!(law64["result"]["notes"][0].as_str().unwrap().starts_with("Law 64A1"), "{law64}");
    let hangover = pages().into_iter().find(|(g, ..)| *g == "hangover").unwrap().2;
    assert_eq!(hangover["result"]["stopped"], serde_json::json!({"event": 15, "follow": 6}));
}

/// A malformed transcript gets a page: the events before the one that could not be read, each
/// with its state, and that one marked with why.
#[test]
fn a_malformed_transcript_gets_a_page() {
    let (_, page, want) = typo_page();
    assert_eq!(want["verdict"], "malformed");
    let data = page_data(&page);
    assert_eq!(data["verdict"], "malformed");
    let event = want["unreadable"]["event"].as_u64().unwrap();
    assert!(event >= 40, "{want}");
    assert_eq!(data["steps"].as_array().unwrap().len() as u64, event, "{want}");
    let error = &data["errors"][0];
    assert_eq!(error["event"], event);
    assert!(error["message"].as_str().unwrap().contains("7X"), "{error}");
    assert!(error["written"].as_str().unwrap().contains("7X"), "{error}");
    // A transcript that cannot be read at all gets a page of its reason alone.
    let report = replayed(&root().join("fixtures/malformed/unclosed-mapping.yaml"));
    let data = page_data(&shinpan::report::page::page(&report).unwrap());
    assert_eq!(data["steps"].as_array().unwrap().len(), 0);
    assert!(!data["errors"][0]["message"].as_str().unwrap().is_empty());
}
