//! Reading a transcript's arguments against their declared shapes: what is accepted, and
//! the message for what is not (the shape the writer evidently meant).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::report::check::{Checker, Report, Verdict};

/// A game that waits once for `act` with an argument of `shape`, then finishes.
fn check(shape: &str, players: &str, arg: &str) -> Report {
    let rules = format!(
        "game shapes\nplayers 2..2\nrule r \"unused\"\naction act: {shape}\nvar got = null\n\
         scores zip_map(players, [0, 0])\nwinners []\nflow {{\n  choose {{\n    act(x) by table {{\n      got = x\n    }}\n  }}\n  finish\n}}\n"
    );
    let dir = std::env::temp_dir().join(format!("shinpan-shapes-{}-{}", std::process::id(), rand_suffix()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("shapes.rules"), rules).unwrap();
    let text = format!("rules: shapes.rules\nplayers: {players}\nevents:\n  - {{by: table, act: {arg}}}\n");
    let report = Checker::new(None).check_text("shapes.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    report
}

fn rand_suffix() -> usize {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

fn message(r: &Report) -> String {
    assert_eq!(r.verdict, Verdict::Malformed, "{:?}", r.violations);
    r.errors[0].message.clone()
}

#[test]
fn a_string_shape_takes_a_string_only() {
    assert_eq!(check("str", "[aki, ben]", "hello").verdict, Verdict::Legal);
    assert!(message(&check("str", "[aki, ben]", "3")).contains("expected a string, found `3`"));
}

#[test]
fn a_union_reports_the_alternative_of_the_same_form() {
    assert_eq!(check("int | {a: int}", "[aki, ben]", "{a: 2}").verdict, Verdict::Legal);
    // The writer gave a mapping: the record's complaint, not the int's.
    let m = message(&check("int | {a: int}", "[aki, ben]", "{a: x}"));
    assert!(m.contains("`a`: expected an integer, found `x`"), "{m}");
}

#[test]
fn a_total_map_over_a_small_int_range_needs_every_key() {
    assert_eq!(
        check("total map int 1..3 -> bool", "[aki, ben]", "{1: true, 2: false, 3: true}").verdict,
        Verdict::Legal
    );
    let m = message(&check("total map int 1..3 -> bool", "[aki, ben]", "{1: true, 3: true}"));
    assert!(m.contains("the key 2 is missing"), "{m}");
    let m = message(&check("total map int 1.. -> bool", "[aki, ben]", "{1: true}"));
    assert!(m.contains("a total map needs keys from a finite range"), "{m}");
}

#[test]
fn a_record_needs_its_required_keys() {
    assert_eq!(check("{a: int, b?: int}", "[aki, ben]", "{a: 1}").verdict, Verdict::Legal);
    let m = message(&check("{a: int, b?: int}", "[aki, ben]", "{b: 1}"));
    assert!(m.contains("missing key `a`"), "{m}");
}

#[test]
fn player_names_are_words() {
    assert_eq!(check("int", "[aki, ben-2]", "1").verdict, Verdict::Legal);
    for bad in ["[aki, \"b n\"]", "[aki, \"\"]", "[aki, \"ben!\"]"] {
        let r = check("int", bad, "1");
        assert_eq!(r.verdict, Verdict::Malformed, "{bad}");
    }
}

/// A transcript with many unreadable events reports the first 20 of them.
#[test]
fn at_most_twenty_reading_errors_are_reported() {
    let dir = std::env::temp_dir().join(format!("shinpan-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let events: String = (0..30).map(|i| format!("  - {{by: a, nothing: {i}}}\n")).collect();
    let text = format!("rules: hangover\nplayers: [a, b, c]\nevents:\n{events}");
    let report = Checker::new(None).check_text("many.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(report.verdict, Verdict::Malformed);
    assert_eq!(report.errors.len(), 20);
    assert_eq!(report.errors[19].event, Some(19));
}

#[test]
fn a_nonempty_list_needs_an_item() {
    assert_eq!(check("nonempty list int", "[aki, ben]", "[1]").verdict, Verdict::Legal);
    let m = message(&check("nonempty list int", "[aki, ben]", "[]"));
    assert!(m.contains("expected a non-empty list, found an empty one"), "{m}");
}
