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

/// One illegal transcript of each built-in game, with chips to draw.
const PAGES: [(&str, &str); 5] = [
    ("hangover", "fixtures/hangover/must-follow.yaml"),
    ("bridge", "fixtures/bridge/must-follow.yaml"),
    ("torite-4to6", "fixtures/torite-4to6/must-follow.yaml"),
    ("curtain-call", "fixtures/curtain-call/not-held.yaml"),
    ("clock-tcg", "fixtures/clock-tcg/color.yaml"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Each game's page, with what the browser must find on it: the broken event, its rule and
/// how many players the table has.
fn pages() -> Vec<(&'static str, String, usize, String, usize)> {
    PAGES
        .iter()
        .map(|(game, fixture)| {
            let mut checker = Checker::new(None);
            checker.record_states = true;
            let report = checker.check_path(&root().join(fixture));
            let v = report.violations.first().unwrap_or_else(|| panic!("{fixture} is illegal"));
            let page = shinpan::report::page::page(&report).unwrap();
            (*game, page, v.event, v.rule.clone(), report.players.len())
        })
        .collect()
}

/// Writes each game's page under target/page/; gives `PAGE:EVENT:RULE:PLAYERS` for the browser.
fn write_pages() -> Vec<String> {
    let dir = root().join("target/page");
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = vec![];
    for (game, page, event, rule, players) in pages() {
        let path = dir.join(format!("{game}.html"));
        std::fs::write(&path, &page).unwrap();
        out.push(format!("{}:{event}:{rule}:{players}", path.display()));
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
    for (game, _) in PAGES {
        assert!(root().join(format!("target/page/{game}.png")).exists(), "no screenshot of {game}");
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
        pages().into_iter().map(|(game, page, ..)| (game, page_data(&page))).collect();
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
    for (game, page, event, rule, _) in pages() {
        let data = page_data(&page);
        let steps = data["steps"].as_array().unwrap();
        // One step per event up to the violation, each with its line and state; the broken
        // event's step names the rule, where it is checked and what was legal.
        let broken = steps.iter().find(|s| s["violations"].as_array().is_some_and(|v| !v.is_empty())).unwrap();
        assert_eq!(broken["event"], event, "{game}");
        assert_eq!(broken["violations"][0]["rule"], rule.as_str(), "{game}");
        assert!(broken["violations"][0]["where"].as_str().unwrap().contains(".rules:"), "{game}");
        assert!(!broken["violations"][0]["legal"].as_array().unwrap().is_empty(), "{game}");
        for step in steps {
            assert!(step["line"].as_u64().is_some_and(|l| l > 0), "{game}: {step}");
            assert!(step["written"].as_str().is_some_and(|w| !w.is_empty()), "{game}: {step}");
            assert!(step["state"].is_object() || step["state"].is_array(), "{game}: {step}");
        }
    }
}
