//! `PLACE = PLACE + LIST` and `PLACE = PLACE - LIST` are changed where the list is, not
//! copied (`src/run/in_place.rs`). Here each such statement is held to its twin, which reads the
//! same value through another name as long (`hand[q]` for `hand[p]`, a local holding the same
//! list) and so runs the general way, with the same fuel and the same nesting: the same verdict,
//! fuel, notes and errors (each label's line and column) on random events, under random limits on fuel, list size
//! and nesting, so that each charge is the one that runs out, and each limit is met, somewhere.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]

use std::path::Path;

use proptest::prelude::*;
use shinpan::diag::{Diag, line_column};
use shinpan::{Limits, Report, Rules};

/// The game; each `READ(PLACE|TWIN)` is the place a statement reads, written out by `rules`.
const GAME: &str = "game in_place
players 2..2
action take: list int
action add: list int
action push: int 0..12
action pop: int 0..12
action count: int 0..9
action missing: int 0..9
action deep: int 0..5000
action deeper: int 0..5000
action unnest: int 0..3
var hand per player = [1, 2, 3, 2, 1]
var pile = []
var total = 0
var spare = [0]
var named = {a: [1], b: [2]}
var numbered = zip_map([0, 1], [[1], [2]])
param lower: int = 0
param upper: int = 1
var seen = {}
// Nested three deep in each seat's entry: a variable's first value is not held to the limits.
var nested per player = [[[1]], 1, 2]
scores {}
winners []
flow {
  loop {
    choose {
      take(xs) by players[0] {
        let p = players[0]
        let q = p
        let before = hand
        hand[p] = READ(hand[p]|hand[q]) - xs
        note \"{hand[p]} from {before[p]}\"
      }
      add(xs) by players[0] {
        let p = players[0]
        let q = p
        hand[p] = READ(hand[p]|hand[q]) + xs
        // Another key read on the right: never in place.
        let o = players[1]
        hand[o] = hand[p] + []
        named[\"a\"] = named[\"b\"] + []
        numbered[lower] = numbered[upper] + []
        note \"{hand[p]} {hand[o]} {named[\"a\"]} {numbered[lower]}\"
      }
      push(n) by players[0] {
        let x = []
        for k in range(1, n) {
          x = [x]
        }
        let keep = pile
        pile = READ(pile|keep) + [x, n]
        note \"{len(pile)} from {len(keep)}\"
      }
      pop(n) by players[0] {
        let keep = pile
        pile = READ(pile|keep) - [n, [], n]
        note \"{len(pile)}\"
      }
      count(n) by players[0] {
        let ys = pile
        let zs = ys
        ys = READ(ys|zs) + [n]
        // `+=` of a sum that reads the place: never in place (it adds the sum, place and all).
        ys += ys + [n]
        // Another variable or local read on the right: never in place.
        let one = [n]
        ys = one + ys
        spare = pile + [n]
        total = total + n
        note \"{len(ys)} {len(spare)} {total}\"
      }
      missing(n) by players[0] {
        let p = players[0]
        let q = p
        seen[p] = READ(seen[p]|seen[q]) + [n]
      }
      unnest(n) by players[0] {
        let p = players[0]
        let q = p
        nested[p] = READ(nested[p]|nested[q]) - [n]
        note \"{nested[p]}\"
      }
      deep(n) by players[0] {
        sink(n)
      }
      deeper(n) by players[0] {
        if true {
          sink(n)
        }
      }
    }
  }
}

// The statement `n` calls deep, for the nesting limit (each call nests two levels deeper).
proc sink(k) {
  if k > 0 {
    sink(k - 1)
  } else {
    let p = players[0]
    let q = p
    hand[p] = READ(hand[p]|hand[q]) - [1]
  }
}
";

/// The game with each place read as written (changed in place) or through its twin's name
/// (the general way).
fn rules(in_place: bool, limits: Limits) -> Rules {
    let mut text = GAME.to_string();
    while let Some(at) = text.find("READ(") {
        let end = at + text[at..].find(") ").unwrap();
        let (place, twin) = text[at + 5..end].split_once('|').unwrap();
        assert_eq!(place.len(), twin.len(), "{place} and {twin} stand at the same places");
        let read = if in_place { place } else { twin }.to_string();
        text.replace_range(at..=end, &read);
    }
    Rules::from_text("in_place.rules", &text, Path::new(".")).unwrap().with_limits(limits)
}

/// What a check says, with the place of each error's labels (a twin's name is as long as the
/// place it stands for, so the two forms' statements stand at the same places).
fn outcome(report: &Report) -> String {
    let errors: Vec<(&str, Vec<(usize, usize)>)> =
        report.spec_errors.iter().map(|d| (d.message.as_str(), places(d))).collect();
    let notes: Vec<&str> = report.notes.iter().map(|n| n.message.as_str()).collect();
    format!("{} fuel {} notes {notes:?} errors {errors:?}", report.verdict.word(), report.fuel_spent)
}

/// The line and column each of a diagnostic's labels points at.
fn places(d: &Diag) -> Vec<(usize, usize)> {
    let text = d.source.as_ref().map_or("", |s| s.inner().as_str());
    d.labels.iter().map(|(span, _)| line_column(text, span.start)).collect()
}

fn both(events: &[String], limits: Limits) -> (String, String) {
    let transcript = format!("{{rules: in_place.rules, players: [a, b], events: [{}]}}", events.join(", "));
    let check = |in_place| outcome(&rules(in_place, limits).check_text("t", &transcript));
    (check(true), check(false))
}

fn limits(fuel: u64, list_items: usize, value_depth: usize) -> Limits {
    let mut limits = Limits::default();
    limits.fuel_per_event = fuel;
    limits.list_items = list_items;
    limits.value_depth = value_depth;
    limits
}

fn event() -> impl Strategy<Value = String> {
    let items = || proptest::collection::vec(0..4i64, 0..4).prop_map(|xs| format!("{xs:?}"));
    prop_oneof![
        items().prop_map(|xs| format!("{{by: a, take: {xs}}}")),
        items().prop_map(|xs| format!("{{by: a, add: {xs}}}")),
        (0..12u8).prop_map(|n| format!("{{by: a, push: {n}}}")),
        (0..12u8).prop_map(|n| format!("{{by: a, pop: {n}}}")),
        (0..9u8).prop_map(|n| format!("{{by: a, count: {n}}}")),
        (0..9u8).prop_map(|n| format!("{{by: a, missing: {n}}}")),
        (0..3u8).prop_map(|n| format!("{{by: a, unnest: {n}}}")),
    ]
}

/// The two forms agree on fixed games that reach each kind of ending.
#[test]
fn each_form_gives_what_its_twin_gives() {
    let default = Limits::default();
    let cases: [(&[&str], Limits, &str); 9] = [
        (
            &["{by: a, take: [2, 9]}", "{by: a, add: [7]}", "{by: a, push: 3}", "{by: a, pop: 3}"],
            default,
            "[1, 3, 2, 1, 7] [1, 3, 2, 1, 7] [2] [2]",
        ),
        // The pile's 2 items, 1 more, those 3 and 4 more, and 1 before them: 8; the pile and 1: 3.
        (&["{by: a, push: 2}", "{by: a, count: 4}", "{by: a, count: 5}"], default, r#""8 3 4", "8 3 9""#),
        // `x` nests 5 deep, and the pile would nest 7.
        (&["{by: a, push: 5}"], limits(10_000, 100, 6), "more than 6 lists or maps deep"),
        (&["{by: a, add: [1, 2, 3]}"], limits(10_000, 7, 100), "more than 7 items"),
        (&["{by: a, take: [1, 2, 3]}"], limits(12, 100, 100), "fuel"),
        (&["{by: a, missing: 1}"], default, "cannot apply"),
        // A hand one level deep, and no level left below `hand[p]`.
        (&["{by: a, deep: 0}"], limits(10_000, 100, 1), "more than 1 lists or maps deep"),
        // Taking `1` out leaves `[[1]]` inside, three levels where two are left below `nested[p]`.
        (&["{by: a, unnest: 1}"], limits(10_000, 100, 3), "more than 3 lists or maps deep"),
        (&["{by: a, unnest: 0}"], limits(10_000, 100, 4), "legal"),
    ];
    for (events, limits, expected) in cases {
        let events: Vec<String> = events.iter().map(|e| e.to_string()).collect();
        let (in_place, general) = both(&events, limits);
        assert_eq!(in_place, general, "{events:?}");
        assert!(in_place.contains(expected), "{events:?}: {in_place}");
    }
}

/// The statement run deeper and deeper, by both actions (one nests a level deeper than the
/// other), until the nesting limit stops the rules at its read, its operator or the statement:
/// each depth gives the same in both forms.
#[test]
fn at_the_nesting_limit_each_form_gives_what_its_twin_gives() {
    let mut deep = Limits::default();
    deep.call_depth = 10_000;
    let mut stopped = 0;
    for action in ["deep", "deeper"] {
        for n in 990..1000 {
            let (in_place, general) = both(&[format!("{{by: a, {action}: {n}}}")], deep);
            assert_eq!(in_place, general, "{action}: {n}");
            stopped += usize::from(general.contains("more than 2000 deep"));
        }
    }
    assert!((2..18).contains(&stopped), "the limit is met within the depths tried ({stopped} of 20)");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random games under random limits: the two forms agree on everything a check says.
    #[test]
    fn random_games_agree_with_the_general_way(
        events in proptest::collection::vec(event(), 1..12),
        fuel in 1..120u64,
        list_items in 2..14usize,
        value_depth in 1..10usize,
    ) {
        let (in_place, general) = both(&events, limits(fuel, list_items, value_depth));
        prop_assert_eq!(in_place, general);
    }
}
