//! `shinpan::Limits`: its defaults are the figures the manual states (docs/untrusted-input.md), and each limit set lower
//! through `Rules` or `Checking` takes effect where it is enforced (reading, running, writing).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use shinpan::{Checking, Input, Limits, Problem, Report, Rules, Verdict};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
}

/// Hangover's rules within `limits`.
fn hangover(limits: Limits) -> Rules {
    Rules::new("hangover").unwrap().with_limits(limits)
}

/// The value column of the row of the table of limits in docs/untrusted-input.md that starts with `name`.
fn table_row(page: &str, name: &str) -> String {
    let row = page.lines().find(|l| l.starts_with(&format!("| {name}"))).unwrap_or_else(|| panic!("no row {name}"));
    row.split('|').nth(2).unwrap().trim().to_string()
}

/// A figure as that table writes it: `64 MiB`, `2,000,000`, `500,000 in all`.
fn figure(text: &str) -> u64 {
    let number: String = text.chars().take_while(|c| c.is_ascii_digit() || *c == ',').filter(|c| *c != ',').collect();
    let n: u64 = number.parse().unwrap_or_else(|_| panic!("no number in {text:?}"));
    if text.contains("MiB") { n * 1024 * 1024 } else { n }
}

/// Each default is the figure the table of limits in docs/untrusted-input.md states for it.
#[test]
fn the_defaults_are_the_figures_the_manual_states() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/untrusted-input.md")).unwrap();
    let d = Limits::default();
    assert_eq!(d, Limits::DEFAULT);
    let rows: [(&str, u64); 13] = [
        ("transcript file, and a record file", d.transcript_bytes),
        ("nesting of lists and mappings in a transcript", d.transcript_depth as u64),
        ("values in a transcript", d.transcript_values as u64),
        ("aliases in a transcript", d.transcript_aliases as u64),
        ("steps between two events", d.fuel_per_event),
        ("helper calls inside each other", u64::from(d.call_depth)),
        ("items of one list or characters of one text", d.list_items as u64),
        ("nesting of lists and maps in a value the rules keep", d.value_depth as u64),
        ("legal actions a violation lists as events", d.legal_events as u64),
        ("notes one game keeps", d.notes as u64),
        ("values written in one verdict line", d.verdict_json_values as u64),
        ("values written of the states of one replay", d.replay_json_values as u64),
        ("events of one random game", d.playout_events as u64),
    ];
    for (name, value) in rows {
        assert_eq!(figure(&table_row(&page, name)), value, "{name}");
    }
}

/// A transcript file larger than the limit set is malformed (too large), through `Rules` and
/// through `Checking`, and so is a stream line longer than it.
#[test]
fn a_smaller_file_limit_makes_a_transcript_too_large() {
    let path = fixture("hangover/must-follow.yaml");
    let size = std::fs::metadata(&path).unwrap().len();
    let at = |bytes: u64| hangover(limits(|l| l.transcript_bytes = bytes)).check_path(&path);
    assert_eq!(at(size).verdict, Verdict::Illegal);
    let over = at(size - 1);
    assert_eq!((over.verdict, over.errors[0].problem), (Verdict::Malformed, Problem::TooLarge));
    let small = limits(|l| l.transcript_bytes = 20);
    let reports = Checking::against("hangover").limits(small).check(&Input::Path(path.clone()));
    assert_eq!(reports[0].errors[0].problem, Problem::TooLarge);
    // A stream's line of 17 bytes is read; one of 38 is not.
    let mut lines = vec![];
    let stream = "{rules: hangover}\n{rules: hangover, players: [a, b, c]}\n";
    Checking::new()
        .limits(small)
        .check_lines("s", stream.as_bytes(), |r| {
            lines.push(r);
            Ok(())
        })
        .unwrap();
    let too_large: Vec<bool> = lines.iter().map(|r| r.errors[0].problem == Problem::TooLarge).collect();
    assert_eq!(too_large, [false, true]);
}

/// `Limits` is `#[non_exhaustive]`: outside the crate a value is changed field by field.
fn limits(change: impl FnOnce(&mut Limits)) -> Limits {
    let mut limits = Limits::default();
    change(&mut limits);
    limits
}

/// Lower reading limits: nesting, values and aliases, for the YAML and the JSON reader alike,
/// each a transcript too large (`too-large`), whichever reader or parser finds it.
#[test]
fn lower_reading_limits_refuse_what_the_defaults_take() {
    let deep = "{rules: hangover, players: [a, b, c], meta: [[[1]]], events: []}";
    let many = "{\"rules\": \"hangover\", \"players\": [\"a\", \"b\", \"c\"], \"events\": []}";
    let aliased = "rules: hangover\nplayers: [a, b, c]\nmeta: [&x 1, *x]\nevents: []\n";
    let deep_json = "{\"rules\": \"hangover\", \"players\": [\"a\", \"b\", \"c\"], \"meta\": [[[1]]], \"events\": []}";
    let deep_block = "rules: hangover\nplayers: [a, b, c]\nmeta:\n  -\n    -\n      - 1\nevents: []\n";
    for (text, limits, message) in [
        (deep, limits(|l| l.transcript_depth = 2), "nest more than 2 deep"),
        (deep_json, limits(|l| l.transcript_depth = 2), "nest more than 2 deep"),
        (deep_block, limits(|l| l.transcript_depth = 2), "nest more than 2 deep"),
        (many, limits(|l| l.transcript_values = 6), "more than 6 values"),
        (aliased, limits(|l| l.transcript_aliases = 0), "more than 0 aliases"),
    ] {
        assert_eq!(Rules::new("hangover").unwrap().check_text("t", text).verdict, Verdict::Legal, "{text}");
        let lowered = hangover(limits).check_text("t", text);
        assert_eq!(lowered.verdict, Verdict::Malformed, "{text}");
        assert!(lowered.errors[0].message.contains(message), "{text}: {}", lowered.errors[0].message);
        // Past a limit is a transcript too large, not one written wrong.
        assert_eq!(lowered.errors[0].problem, Problem::TooLarge, "{text}");
    }
}

/// With little fuel, the rules stop with the fuel diagnostic, which names the limit set.
#[test]
fn a_smaller_fuel_limit_stops_the_game_with_the_fuel_diagnostic() {
    let path = fixture("hangover/must-follow.yaml");
    let report = hangover(limits(|l| l.fuel_per_event = 10)).check_path(&path);
    assert_eq!((report.verdict, report.errors[0].problem), (Verdict::Malformed, Problem::RulesFailed));
    assert_eq!(report.spec_errors[0].code, shinpan::codes::FUEL);
    assert!(report.spec_errors[0].message.contains("ran 10 steps"), "{}", report.spec_errors[0].message);
    // The same rules with the defaults, on the same thread, judge the game as before: the
    // two do not share a checker.
    let default = Rules::new("hangover").unwrap().check_path(&path);
    assert_eq!(default.verdict, Verdict::Illegal);
    assert!(default.fuel_spent > 10);
}

/// A smaller budget of values cuts the verdict line and says so; fewer legal events are kept.
#[test]
fn smaller_output_limits_cut_the_verdict() {
    let path = fixture("hangover/must-follow.yaml");
    let whole = Rules::new("hangover").unwrap().check_path(&path);
    assert!(!whole.truncated);
    let cut = hangover(limits(|l| l.verdict_json_values = 5)).check_path(&path);
    assert!(cut.truncated);
    assert_eq!(cut.json()["truncated"], true);
    assert_eq!(cut.verdict, whole.verdict);
    // A violation where many actions were legal.
    let path = fixture("hangover/arrange.yaml");
    let legal = |r: &Report| (r.violations[0].legal_events.len(), r.violations[0].legal_count);
    let (kept, count) = legal(&Rules::new("hangover").unwrap().check_path(&path));
    assert!(kept > 1 && kept == count, "{kept} of {count}");
    let one = hangover(limits(|l| l.legal_events = 1)).check_path(&path);
    assert_eq!(legal(&one), (1, count));
}

/// A replay's budget set through `Checking` cuts its steps.
#[test]
fn a_smaller_replay_budget_cuts_the_steps() {
    let path = fixture("hangover/must-follow.yaml");
    let whole = Checking::against("hangover").replay(&path);
    assert!(!whole.steps.is_empty() && whole.steps.iter().all(|s| !s.cut));
    let cut = Checking::against("hangover").limits(limits(|l| l.replay_json_values = 10)).replay(&path);
    assert_eq!(cut.steps.len(), whole.steps.len());
    assert!(cut.steps.iter().any(|s| s.cut));
}

/// A game whose actions make the rules call, grow, nest and note as deep as the event says.
const GROWING: &str = "game growing
players 2..2
action call: int 0..1000
action grow: int 0..30
action nest: int 0..200
action say: int 0..100
var kept = 0
fn down(k) = if k <= 0 then 0 else down(k - 1) + 1
scores {}
winners []
flow {
  loop {
    choose {
      call(n) by players[0] {
        kept = down(n)
      }
      grow(n) by players[0] {
        let xs = [1]
        for k in range(1, n) {
          xs += xs
        }
        kept = len(xs)
      }
      nest(n) by players[0] {
        let x = []
        for k in range(1, n) {
          x = [x]
        }
        kept = len(x)
      }
      say(n) by players[0] {
        for k in range(1, n) {
          note \"note {k}\"
        }
      }
    }
  }
}
";

/// The verdict on one event of the growing game within `limits`.
fn grown(limits: Limits, event: &str) -> Report {
    let rules = Rules::from_text("growing.rules", GROWING, Path::new(".")).unwrap().with_limits(limits);
    rules.check_text("t", &format!("{{rules: growing.rules, players: [a, b], events: [{{by: a, {event}}}]}}"))
}

/// The message of the rules' diagnostic, or the verdict when there is none.
fn failure(report: &Report) -> String {
    report.spec_errors.first().map_or_else(|| report.verdict.word().to_string(), |d| d.message.clone())
}

/// Call depth, list items and value depth set lower stop the rules where the defaults do not.
#[test]
fn lower_limits_of_the_rules_work_stop_them() {
    for (event, lowered, message) in [
        ("call: 150", limits(|l| l.call_depth = 100), "more than 100 deep"),
        ("grow: 12", limits(|l| l.list_items = 100), "more than 100 items"),
        ("nest: 30", limits(|l| l.value_depth = 10), "more than 10 lists or maps deep"),
    ] {
        assert_eq!(failure(&grown(Limits::default(), event)), "legal", "{event}");
        let stopped = failure(&grown(lowered, event));
        assert!(stopped.contains(message), "{event}: {stopped}");
    }
}

/// Fewer notes are kept, and one more says so with the limit set.
#[test]
fn fewer_notes_are_kept() {
    let all = grown(Limits::default(), "say: 20");
    assert_eq!(all.notes.len(), 20, "{}", failure(&all));
    let few = grown(limits(|l| l.notes = 3), "say: 20");
    let messages: Vec<&str> = few.notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(messages.len(), 4);
    assert!(messages[3].contains("a game keeps at most 3"), "{messages:?}");
}

/// A random game stops after the events the limits allow.
#[test]
fn a_random_game_is_cut_at_the_playout_limit() {
    let played = hangover(limits(|l| l.playout_events = 3)).play(3, 7).unwrap();
    let events = played.lines().filter(|l| l.starts_with("  - ")).count();
    assert_eq!(events, 3, "{played}");
    assert!(Rules::new("hangover").unwrap().play(3, 7).unwrap().lines().filter(|l| l.starts_with("  - ")).count() > 3);
}

/// `Checking::with_rules` checks within the rules' limits, and `limits` sets others over them.
#[test]
fn checking_takes_the_rules_limits_unless_told_otherwise() {
    let path = fixture("hangover/must-follow.yaml");
    let starved = hangover(limits(|l| l.fuel_per_event = 10));
    assert_eq!(starved.limits().fuel_per_event, 10);
    let kind = |c: Checking| c.check(&Input::Path(path.clone()))[0].verdict;
    assert_eq!(kind(Checking::with_rules(&starved)), Verdict::Malformed);
    assert_eq!(kind(Checking::with_rules(&starved).limits(Limits::default())), Verdict::Illegal);
    assert_eq!(kind(Checking::against("hangover")), Verdict::Illegal);
}
