//! Constructs of the rules language that the seed games grew: `due` steps and `settle`,
//! `finish now`, ordered enums, `tally`, and `nonempty` shapes. Each test's verdict or score
//! depends on the construct doing exactly what docs/language.md says.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::report::check::{Checker, Report, Verdict};

/// Players draw from one shared pile; an empty pile must be refilled by the table before
/// anything else happens, even between the two draws of one `draw`. A player whose drawn
/// cards reach 10 wins at once, in the middle of the draw.
const RULES: &str = r#"
game language-demo
players 2..2
rule bad-deal "a refill is three cards"
rule phase "phases only move forward"
rule drawn "a record says what each player drew"
rule thrice "no card value is drawn three times by one player"
enum Phase { early, middle, late }
action draw: null
action refill: list int 0..9
action advance: Phase
action drawn: nonempty map player -> int 0..
var pile = [1, 2, 3]
var drawn per player = []
var phase = Phase.early
var refills = 0
var after_finish = 0
scores zip_map(players, [sum(drawn[p]) * 100 + refills * 10 + after_finish for p in players])
winners [p for p in players where sum(drawn[p]) >= 10]

due refill_pile when pile == [] {
  choose {
    refill(r) by table {
      require len(r) == 3 else bad-deal "a refill is three cards, not {len(r)}"
      pile = r
    }
  }
  refills += 1
}

always drawn(m) by table {
  for p, n in m {
    require n == len(drawn[p]) else drawn "{p} drew {len(drawn[p])} cards, not {n}"
  }
}

proc take(p) {
  settle
  drawn[p] += [pile[0]]
  pile = pile[1..]
  if sum(drawn[p]) >= 10 {
    finish now
  }
}

proc draw_two(p) {
  take(p)
  take(p)
  after_finish += 1
}

flow {
  loop {
    for p in players {
      choose {
        draw(x) by p {
          require max(values(tally(drawn[p], c => c)) + [0]) < 3 else thrice "{p} drew a card three times"
          draw_two(p)
        }
        advance(ph) by p {
          require ph > phase and phase < Phase.late else phase "{phase} is not before {ph}"
          phase = max([phase, ph])
          again
        }
      }
    }
  }
}
"#;

fn check(events: &str) -> Report {
    check_rules(RULES, events)
}

/// Checks the events (YAML list items) against a rules file written to a fresh directory.
fn check_rules(rules: &str, events: &str) -> Report {
    check_with(Checker::new(None), rules, events)
}

fn check_rules_all(rules: &str, events: &str) -> Report {
    let mut checker = Checker::new(None);
    checker.all = true;
    check_with(checker, rules, events)
}

fn check_with(mut checker: Checker, rules: &str, events: &str) -> Report {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("shinpan-language-{run}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("demo.rules"), rules).unwrap();
    let text = format!("rules: demo.rules\nplayers: [aki, ben]\nevents:\n{events}");
    let report = checker.check_text("demo.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    report
}

fn scores(report: &Report) -> String {
    report.scores.iter().flatten().map(|(p, s)| format!("{p} {s}")).collect::<Vec<_>>().join(", ")
}

fn first_violation(report: &Report) -> (String, usize) {
    let v = report.violations.first().expect("a violation");
    (v.rule.clone(), v.event)
}

#[test]
fn a_due_step_comes_between_two_draws_of_one_action() {
    // aki draws 1 and 2; ben draws 3, then the pile is empty: the refill is due before
    // ben's second card, inside ben's `draw`.
    let report = check(
        "  - {by: aki, draw: null}\n  - {by: ben, draw: null}\n  - {by: table, refill: [4, 5, 6]}\n  - {by: aki, draw: null}\n",
    );
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.violations);
    // aki 1+2+5+6, ben 3+4; one refill; two draws counted (aki's last ended the game).
    assert_eq!(scores(&report), "aki 1412, ben 712");
}

#[test]
fn nothing_else_is_open_while_a_step_is_due() {
    let report = check("  - {by: aki, draw: null}\n  - {by: ben, draw: null}\n  - {by: aki, draw: null}\n");
    assert_eq!(report.verdict, Verdict::Illegal);
    assert_eq!(first_violation(&report), ("unexpected-action".into(), 2));
    // A due step checks its own rules.
    let report = check("  - {by: aki, draw: null}\n  - {by: ben, draw: null}\n  - {by: table, refill: [4]}\n");
    assert_eq!(first_violation(&report), ("bad-deal".into(), 2));
}

#[test]
fn a_due_step_runs_before_the_flow_waits() {
    // aki's second draw empties the pile at its very end; the refill is due before the flow
    // waits for ben, although no draw is under way.
    let events = "  - {by: aki, draw: null}\n  - {by: ben, draw: null}\n  - {by: table, refill: [0, 0, 0]}\n  - {by: aki, draw: null}\n";
    let report = check(&format!("{events}  - {{by: table, refill: [9, 9, 9]}}\n  - {{by: ben, draw: null}}\n"));
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.violations);
    // ben's 9 takes him to 12: the game ends before his second card.
    assert_eq!(scores(&report), "aki 323, ben 1223");
    let report = check(&format!("{events}  - {{by: ben, draw: null}}\n"));
    assert_eq!(first_violation(&report), ("unexpected-action".into(), 4));
}

#[test]
fn finish_now_stops_the_game_inside_a_nested_call() {
    // ben reaches 10 with the first card of his second draw: the second card is not drawn,
    // `after_finish` is not counted for that draw, and a later event is after the game end.
    let events = "  - {by: aki, draw: null}\n  - {by: ben, draw: null}\n  - {by: table, refill: [0, 0, 0]}\n  - {by: aki, draw: null}\n  - {by: table, refill: [7, 1, 1]}\n  - {by: ben, draw: null}\n";
    let report = check(events);
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.violations);
    assert!(report.finished);
    assert_eq!(report.winners, vec!["ben".to_string()]);
    // aki 1+2+0+0; ben 3+0 then 7: 10, stopped before his second card (3 draws counted).
    assert_eq!(scores(&report), "aki 323, ben 1023");
    let report = check(&format!("{events}  - {{by: aki, draw: null}}\n"));
    assert_eq!(first_violation(&report), ("after-game-end".into(), 6));
}

#[test]
fn enums_compare_by_their_declared_order() {
    let report = check("  - {by: aki, advance: middle}\n  - {by: aki, advance: late}\n  - {by: aki, draw: null}\n");
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.violations);
    let report = check("  - {by: aki, advance: late}\n  - {by: aki, advance: middle}\n");
    assert_eq!(first_violation(&report), ("phase".into(), 1));
    let report = check("  - {by: aki, advance: middle}\n  - {by: aki, advance: middle}\n");
    assert_eq!(first_violation(&report), ("phase".into(), 1));
}

#[test]
fn tally_counts_each_key() {
    // aki may draw while holding two 0s (and so reach three); ben, holding three, may not.
    let events = "  - {by: aki, draw: null}\n  - {by: ben, draw: null}\n  - {by: table, refill: [0, 0, 0]}\n  - {by: aki, draw: null}\n  - {by: table, refill: [0, 0, 0]}\n  - {by: ben, draw: null}\n  - {by: aki, draw: null}\n  - {by: table, refill: [5, 5, 5]}\n";
    let report = check(events);
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.violations);
    let report = check(&format!("{events}  - {{by: ben, draw: null}}\n"));
    assert_eq!(first_violation(&report), ("thrice".into(), 8));
}

#[test]
fn a_nonempty_map_may_not_be_empty() {
    let report = check(
        "  - {by: aki, draw: null}\n  - {by: table, drawn: {aki: 2}}\n  - {by: table, drawn: {aki: 2, ben: 0}}\n",
    );
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.violations);
    let report = check("  - {by: aki, draw: null}\n  - {by: table, drawn: {}}\n");
    assert_eq!(report.verdict, Verdict::Malformed);
    let message = &report.errors[0].message;
    assert!(message.contains("non-empty mapping"), "{message}");
    let report = check("  - {by: aki, draw: null}\n  - {by: table, drawn: {aki: 1}}\n");
    assert_eq!(first_violation(&report), ("drawn".into(), 1));
}

/// A rules file with this `players` line (and, if given, this action shape).
fn compiles(players: &str, action: &str) -> Result<(), String> {
    let text = format!(
        "game counts\n{players}\naction go: {action}\nscores {{}}\nwinners []\nflow {{\n  choose {{\n    go(n) by players[0] {{\n    }}\n  }}\n}}\n"
    );
    shinpan::compile("counts.rules", &text).map(|_| ()).map_err(|d| d[0].message.clone())
}

/// Player counts from 1 to 255, the lower bound at most the upper; named players likewise.
/// Players a playout names: the first eight by name, then numbered, all different.
#[test]
fn many_players_get_different_names() {
    let rules = "game crowd\nplayers 9..9\nrule r \"unused\"\naction go: null\nscores {}\nwinners []\nflow {\n}\n";
    let program = shinpan::compile("crowd.rules", rules).unwrap();
    let game = shinpan::play::default_game(&program, 9).unwrap();
    assert_eq!(game.players.as_ref(), ["aki", "ben", "chie", "dai", "emi", "fumi", "gen", "hana", "aki8"]);
}

#[test]
fn player_counts_at_their_limits() {
    for ok in ["players 1..1", "players 2..2", "players 1..255", "players N, E, S, W", "players solo"] {
        assert_eq!(compiles(ok, "int 0..1"), Ok(()), "{ok}");
    }
    for (bad, why) in [
        ("players 0..2", "a game is for 1 to 255 players, not 0 to 2"),
        ("players 3..2", "a game is for 1 to 255 players, not 3 to 2"),
        ("players 1..256", "a game is for 1 to 255 players, not 1 to 256"),
        ("players N, E, N", "the player `N` is named twice"),
    ] {
        assert_eq!(compiles(bad, "int 0..1"), Err(why.to_string()), "{bad}");
    }
    let many: Vec<String> = (0..256).map(|i| format!("p{i}")).collect();
    let e = compiles(&format!("players {}", many.join(", ")), "int 0..1").unwrap_err();
    assert_eq!(e, "a game is for 1 to 255 players, not 256");
    assert_eq!(compiles(&format!("players {}", many[..255].join(", ")), "int 0..1"), Ok(()));
}

/// A shape in brackets groups a union inside a list or a map.
#[test]
fn shapes_group_in_brackets() {
    assert_eq!(compiles("players 2..2", "list (int 0..3 | null)"), Ok(()));
    assert_eq!(compiles("players 2..2", "map player -> (bool | str)"), Ok(()));
}

/// Two branches share a check through a `check` helper.
const HELPERS: &str = r#"
game helpers
players 2..2
rule in-range "a number is 1 to 3"
rule odd "a play is odd"
action play: int 0..9
action pass: int 0..9
var total = 0
scores zip_map(players, [total, 0])
winners []

check small(n) {
  let low = 1
  require n >= low and n <= 3 else in-range "{n} is not 1 to 3"
}

flow {
  loop {
    choose {
      play(n) by players[0] {
        small(n)
        require n % 2 == 1 else odd "{n} is even"
        total += n
      }
      pass(n) by players[1] {
        small(n)
        total -= n
      }
    }
  }
}
"#;

#[test]
fn a_check_helper_checks_for_every_branch_that_calls_it() {
    let legal = check_rules(HELPERS, "  - {by: aki, play: 3}\n  - {by: ben, pass: 2}\n");
    assert_eq!((legal.verdict, scores(&legal)), (Verdict::Legal, "aki 1, ben 0".to_string()));
    let broken = check_rules(HELPERS, "  - {by: aki, play: 3}\n  - {by: ben, pass: 4}\n");
    assert_eq!(first_violation(&broken), ("in-range".to_string(), 1));
    assert_eq!(broken.violations[0].message, "4 is not 1 to 3");
    // The rule's line is the helper's `require`.
    let at = broken.violations[0].spec_span.clone();
    assert!(HELPERS[..at.start].ends_with("  let low = 1\n  "), "{at:?}");
    // The helper's check comes before the branch's own, and the legal actions obey both.
    let even = check_rules(HELPERS, "  - {by: aki, play: 2}\n");
    assert_eq!(first_violation(&even), ("odd".to_string(), 0));
    let big = check_rules(HELPERS, "  - {by: aki, play: 4}\n");
    assert_eq!(first_violation(&big), ("in-range".to_string(), 0));
    let legal_here = &big.violations[0].legal;
    assert!(
        legal_here.iter().any(|l| l == "aki play 1") && legal_here.iter().any(|l| l == "aki play 3"),
        "{legal_here:?}"
    );
    assert!(!legal_here.iter().any(|l| l == "aki play 2" || l == "aki play 5"), "{legal_here:?}");
}

#[test]
fn a_check_helper_only_checks_and_only_among_checks() {
    let lint = |rules: &str| shinpan::compile("helpers.rules", rules).map(|_| ()).map_err(|d| d[0].message.clone());
    assert_eq!(lint(HELPERS), Ok(()));
    let changes = HELPERS.replace("  let low = 1\n", "  total += 1\n  let low = 1\n");
    assert_eq!(
        lint(&changes),
        Err("`small` is a `check` helper: it may only check (`let`, `require`, `if` and `for` around them)".into())
    );
    let late = HELPERS.replace("        small(n)\n        total -= n", "        total -= n\n        small(n)");
    assert_eq!(lint(&late), Err("a check comes after the branch has changed the state".into()));
    let in_flow = HELPERS.replace("flow {\n  loop {", "flow {\n  small(1)\n  loop {");
    assert_eq!(
        lint(&in_flow),
        Err("`small` is a `check` helper: it belongs among the checks at the start of a branch".into())
    );
}

/// `continue` skips the rest of a round; a record's field is a place to assign to.
#[test]
fn continue_and_assignment_to_a_field() {
    let rules = r#"
game loops
players 2..2
action go: int 0..9
var r = {sum: 0, skipped: 0}
scores zip_map(players, [r.sum, r.skipped])
winners []
flow {
  choose {
    go(n) by players[0] {
      for k in range(1, n) {
        if k % 2 == 0 {
          r.skipped += 1
          continue
        }
        r.sum += k
      }
    }
  }
}
"#;
    let report = check_rules(rules, "  - {by: aki, go: 5}\n");
    assert_eq!((report.verdict, scores(&report)), (Verdict::Legal, "aki 9, ben 2".to_string()));
}

/// A kept value nests at most 100 lists or maps deep, also when it is too big to measure by
/// the plain walk (a wide list beside a deep chain of maps).
#[test]
fn a_wide_value_is_measured_to_its_deepest_map() {
    let rules = |wraps: usize| {
        format!(
            "game deep\nplayers 2..2\naction go: int 0..1\nvar deep = {{}}\nvar kept = 0\nscores zip_map(players, [kept, 0])\nwinners []\n\
             flow {{\n  choose {{\n    go(n) by players[0] {{\n      for k in range(1, {wraps}) {{\n        deep = {{d: deep}}\n      }}\n\
             \x20     let both = [range(1, 5000), deep]\n      kept = len(both)\n    }}\n  }}\n}}\n"
        )
    };
    let fits = check_rules(&rules(98), "  - {by: aki, go: 1}\n");
    assert_eq!((fits.verdict, scores(&fits)), (Verdict::Legal, "aki 2, ben 0".to_string()));
    let deep = check_rules(&rules(99), "  - {by: aki, go: 1}\n");
    let message = deep.spec_errors.first().map(|d| d.message.clone()).unwrap_or_default();
    assert!(message.contains("100"), "{message} / {:?}", deep.verdict);
}

/// `max`, `min`, `distinct`, `sort` and `index_of` pay fuel for every item they read: three
/// hundred maxima of ten thousand items are more than one event's 2,000,000 steps, and a
/// hundred and fifty are not.
#[test]
fn reading_every_item_pays_for_each() {
    let rules = |rounds: usize| {
        format!(
            "game fuel\nplayers 2..2\naction go: int 0..1\nvar wide = range(1, 10000)\nvar kept = 0\nscores zip_map(players, [kept, 0])\nwinners []\n\
             flow {{\n  choose {{\n    go(n) by players[0] {{\n      for k in range(1, {rounds}) {{\n        kept = max(wide)\n      }}\n    }}\n  }}\n}}\n"
        )
    };
    let within = check_rules(&rules(150), "  - {by: aki, go: 1}\n");
    assert_eq!((within.verdict, scores(&within)), (Verdict::Legal, "aki 10000, ben 0".to_string()));
    let past = check_rules(&rules(300), "  - {by: aki, go: 1}\n");
    let code = past.spec_errors.first().map(|d| d.code).unwrap_or_default();
    assert_eq!(code, "shinpan::spec::fuel", "{:?}", past.verdict);
}

/// Window records: after each move the table may tell it once, and (after an even move) give a
/// bonus once; a pass closes both. `peek` is an ordinary record, open all the time. `open` is
/// also a variable here: the word is not reserved.
const WINDOWS: &str = r#"
game windows
players 2..2
rule told "a told move is the move just made"
action move: int 3..4
action pass: null
action tell: int 0..9
action bonus: null
action peek: null
var moved = 0
var tells = 0
var bonuses = 0
var open = 0
scores zip_map(players, [tells * 100 + bonuses * 10 + open, 0])
winners []

window tell(n) by table choices [moved] {
  require n == moved else told "the move was {moved}, not {n}"
  tells += 1
}

window bonus(x) by table when moved % 2 == 0 {
  bonuses += 1
}

always peek(x) by table {
}

flow {
  loop {
    choose {
      move(n) by players[0] {
        moved = n
        open tell
        open bonus
      }
      pass(x) by players[1] {
        open += 1
      }
    }
  }
}
"#;

#[test]
fn a_window_is_open_once_until_the_next_event_of_the_flow() {
    let run = |events: &[&str]| {
        let text: String = events.iter().map(|e| format!("  - {e}\n")).collect();
        check_rules(WINDOWS, &text)
    };
    let (move4, tell4, bonus, pass, peek) = (
        "{by: aki, move: 4}",
        "{by: table, tell: 4}",
        "{by: table, bonus: null}",
        "{by: ben, pass: null}",
        "{by: table, peek: null}",
    );
    // Each window once, in either order, with an ordinary record between.
    let legal = run(&[move4, tell4, peek, bonus, pass]);
    assert_eq!(
        (legal.verdict, scores(&legal)),
        (Verdict::Legal, "aki 111, ben 0".to_string()),
        "{:?}",
        legal.violations
    );
    let legal = run(&[move4, bonus, tell4, move4, tell4]);
    assert_eq!(
        (legal.verdict, scores(&legal)),
        (Verdict::Legal, "aki 210, ben 0".to_string()),
        "{:?}",
        legal.violations
    );
    // Not before its `open`, not twice, not after the next event of the flow.
    assert_eq!(first_violation(&run(&[tell4])), ("unexpected-action".into(), 0));
    assert_eq!(first_violation(&run(&[move4, tell4, tell4])), ("unexpected-action".into(), 2));
    assert_eq!(first_violation(&run(&[move4, pass, tell4])), ("unexpected-action".into(), 2));
    assert_eq!(first_violation(&run(&[move4, pass, bonus])), ("unexpected-action".into(), 2));
    // A window's own checks and guard still hold while it is open.
    assert_eq!(first_violation(&run(&[move4, "{by: table, tell: 3}"])), ("told".into(), 1));
    assert_eq!(first_violation(&run(&["{by: aki, move: 3}", bonus])), ("unexpected-action".into(), 1));
    // The legal actions list an open window, and only while it is open.
    let after_move = run(&[move4, "{by: aki, tell: 4}"]);
    let legal_here = &after_move.violations[0].legal;
    assert!(legal_here.iter().any(|l| l == "table tell 4"), "{legal_here:?}");
    let after_tell = run(&[move4, tell4, "{by: aki, tell: 4}"]);
    let legal_here = &after_tell.violations[0].legal;
    assert!(!legal_here.iter().any(|l| l.contains("tell")), "{legal_here:?}");
}

#[test]
fn only_an_action_with_a_window_can_be_opened() {
    let lint = |rules: &str| shinpan::compile("windows.rules", rules).map(|_| ()).map_err(|d| d[0].message.clone());
    assert_eq!(lint(WINDOWS), Ok(()));
    let always = WINDOWS.replace("window tell(n)", "always tell(n)");
    assert_eq!(lint(&always), Err("`tell` has no `window` record to open".into()));
    let unknown = WINDOWS.replace("open tell", "open tells");
    assert_eq!(lint(&unknown), Err("unknown action `tells`".into()));
}

/// Codes: a set of coded values with attributes that are not cards.
const CODES: &str = r#"
game codes
players 2..2
rule rising "a bid is higher than the last"
rule kinds "a code is a code and a card a card"
enum Suit { C, D }
codes Bid(level: int 1..2, suit: Suit) {
  each level in range(1, 2), suit in Suit
  code level ++ suit
}
card Chip(value: int) {
  "c1" (1)
}
action bid: Bid | "Pass"
action chip: Chip
var height = 0
scores zip_map(players, [height, 0])
winners []

flow {
  loop {
    choose {
      bid(b) by players[0] {
        require kind_of(b) == "str" or kind_of(b) == "code" else kinds "{b} is a {kind_of(b)}"
        if kind_of(b) == "code" {
          require b.level * 2 + index_of(Suit, b.suit) > height else rising "{b} is not higher"
        }
        height = if kind_of(b) == "code" then b.level * 2 + index_of(Suit, b.suit) else height
      }
      chip(c) by players[0] {
        require kind_of(c) == "card" else kinds "{c} is a {kind_of(c)}"
      }
    }
  }
}
"#;

#[test]
fn codes_are_read_and_told_apart_from_cards() {
    let report = check_rules(
        CODES,
        "  - {by: aki, bid: 1D}\n  - {by: aki, bid: Pass}\n  - {by: aki, chip: c1}\n  - {by: aki, bid: 2C}\n",
    );
    assert_eq!(
        (report.verdict, scores(&report)),
        (Verdict::Legal, "aki 4, ben 0".to_string()),
        "{:?}",
        report.violations
    );
    let low = check_rules(CODES, "  - {by: aki, bid: 1D}\n  - {by: aki, bid: 1C}\n");
    assert_eq!(first_violation(&low), ("rising".into(), 1));
    let unknown = check_rules(CODES, "  - {by: aki, bid: 3C}\n");
    assert_eq!(unknown.verdict, Verdict::Malformed);
    assert!(
        unknown.errors[0].message.contains("expected a code of `Bid` or `Pass`, found `3C`"),
        "{}",
        unknown.errors[0].message
    );
    let lint = |rules: &str| shinpan::compile("codes.rules", rules).map(|_| ()).map_err(|d| d[0].message.clone());
    let twice = CODES.replace("  code level ++ suit\n}", "  code level ++ suit\n  \"1C\" (1, Suit.C)\n}");
    assert_eq!(lint(&twice), Err("code `1C` is given twice in `Bid`".into()));
    let no_attribute = CODES.replace("b.level * 2 + index_of(Suit, b.suit) > height", "b.rank > height");
    // A bid's type is known only when the game runs (the argument may be `Pass`).
    let ran = check_rules(&no_attribute, "  - {by: aki, bid: 1D}\n");
    assert_eq!(ran.spec_errors[0].message, "codes of `Bid` have no attribute `rank`");
}

/// What a standing violation costs: a fine, taken from a name the checks computed, and a note.
const COSTS: &str = r#"
game costs
players 2..2
rule low "a move is at most 5" stands
rule even "a move is even"
action move: int 0..9
var total = 0
var fines per player = 0
var note = 0
var costs = 0
scores zip_map(players, [total * 100 + fines[p] + note + costs for p in players])
winners []

flow {
  loop {
    choose {
      move(n) by players[0] {
        let over = n - 5
        require n <= 5 else low "{n} is over 5" costs {
          fines[players[0]] += over
          note "a fine of {over} for {n}, after {total}"
        }
        require n % 2 == 0 else even "{n} is odd"
        total += n
      }
    }
  }
}
"#;

#[test]
fn a_cost_is_paid_once_for_each_move_that_stands() {
    let events = "  - {by: aki, move: 4}\n  - {by: aki, move: 8}\n  - {by: aki, move: 6}\n  - {by: aki, move: 2}\n";
    let all = check_rules_all(COSTS, events);
    let stood: Vec<(&str, usize, Option<bool>)> =
        all.violations.iter().map(|v| (v.rule.as_str(), v.event, v.stood)).collect();
    assert_eq!(stood, [("low", 1, Some(true)), ("low", 2, Some(true))]);
    // Fines of 3 and 1, each once (the checks run again after the legal actions are listed),
    // with the names of the checks, before the move's own effects.
    assert_eq!(scores(&all), "aki 2004, ben 2000");
    let notes: Vec<(&str, Option<(usize, usize)>)> = all.notes.iter().map(|n| (n.message.as_str(), n.event)).collect();
    assert_eq!(notes, [("a fine of 3 for 8, after 4", Some((1, 5))), ("a fine of 1 for 6, after 12", Some((2, 6)))]);
    // Listing what was legal runs the checks, never the cost.
    assert_eq!(all.violations[0].legal, ["aki move 0", "aki move 2", "aki move 4"]);
    // Without --all, checking stops at the first violation and nothing is paid.
    let first = check_rules(COSTS, events);
    assert_eq!((first.violations.len(), scores(&first), first.notes.len()), (1, "aki 400, ben 400".into(), 0));
    // A rule that does not stand stops the checking at its event: the standing rule the event
    // broke first is reported too, and not paid for, since the move is not played.
    let odd = check_rules_all(COSTS, "  - {by: aki, move: 2}\n  - {by: aki, move: 7}\n  - {by: aki, move: 2}\n");
    let stood: Vec<(&str, Option<bool>)> = odd.violations.iter().map(|v| (v.rule.as_str(), v.stood)).collect();
    assert_eq!(
        (stood, scores(&odd), odd.notes.len()),
        (vec![("low", Some(false)), ("even", Some(false))], "aki 200, ben 200".into(), 0)
    );
    let help = shinpan::report::render::diagnostics(&odd)[0].help.clone().unwrap();
    assert!(help.ends_with("the same event breaks a rule that does not stand, so checking stops here"), "{help}");
}

#[test]
fn only_a_rule_that_stands_has_a_cost() {
    let lint = |rules: &str| shinpan::compile("costs.rules", rules).map(|_| ()).map_err(|d| d[0].message.clone());
    assert_eq!(lint(COSTS), Ok(()));
    let strict = COSTS.replace("at most 5\" stands", "at most 5\"");
    assert_eq!(lint(&strict), Err("rule `low` stops the checking, so it has no cost".into()));
    // A cost changes the state; it cannot wait for an event or check.
    let waits = COSTS.replace("note \"a fine", "choose { }\n note \"a fine");
    assert_eq!(lint(&waits), Err("`choose` cannot stand inside a record or a check".into()));
    let checks = COSTS.replace("note \"a fine", "require n > 0 else even \"\"\n note \"a fine");
    assert_eq!(lint(&checks), Err("`require` belongs among the checks at the start of a branch".into()));
}

/// The state a judge sees at a violation: every variable without a `view`, else the view's,
/// in its order, a line per player for the per-player ones.
#[test]
fn a_view_chooses_the_state_shown_at_a_violation() {
    let events = "  - {by: aki, move: 4}\n  - {by: aki, move: 3}\n";
    let all = check_rules(COSTS, events);
    let names: Vec<&str> = all.violations[0].state.keys().map(String::as_str).collect();
    assert_eq!(names, ["total", "fines", "note", "costs"]);
    assert_eq!(all.violations[0].state["total"], 4);
    let viewed = check_rules(&COSTS.replace("winners []", "winners []\nview fines, total"), events);
    let v = &viewed.violations[0];
    assert_eq!(v.state.keys().map(String::as_str).collect::<Vec<_>>(), ["fines", "total"]);
    assert_eq!(v.state["fines"], serde_json::json!({"aki": 0, "ben": 0}));
    assert_eq!(v.state_lines, ["aki: fines 0", "ben: fines 0", "total 4"]);
    let lint = |rules: &str| shinpan::compile("view.rules", rules).map(|_| ()).map_err(|d| d[0].message.clone());
    assert_eq!(lint(&COSTS.replace("winners []", "winners []\nview fine")), Err("unknown variable `fine`".into()));
    assert_eq!(
        lint(&COSTS.replace("winners []", "winners []\nview low")),
        Err("unknown variable `low`".into()),
        "a rule id is not a variable"
    );
    assert_eq!(
        lint(&COSTS.replace("winners []", "winners []\nfn twice(x) = x * 2\nview twice")),
        Err("`twice` is not a variable; a view is of the state".into())
    );
    assert_eq!(
        lint(&COSTS.replace("winners []", "winners []\nview total, total")),
        Err("`total` is in the view twice".into())
    );
}

/// `history`: a violation whose check reads a history variable lists how it came to be.
#[test]
fn a_history_shows_how_a_value_was_reached() {
    let rules = COSTS
        .replace("winners []", "winners []\nhistory total, fines")
        .replace("else even \"{n} is odd\"", "else even \"{n} is odd, after {total}\"");
    let report = check_rules(&rules, "  - {by: aki, move: 4}\n  - {by: aki, move: 2}\n  - {by: aki, move: 3}\n");
    let v = &report.violations[0];
    assert_eq!((v.rule.as_str(), v.event), ("even", 2));
    // Only what the broken check reads: `total`, not `fines`.
    let names: Vec<&str> = v.history.iter().map(|(n, ..)| n.as_str()).collect();
    assert_eq!(names, ["total"]);
    assert_eq!(v.history[0].2, ["at the start: 0", "after event 0 (line 4): 0 → 4", "after event 1 (line 5): 4 → 6"]);
    assert_eq!(
        serde_json::Value::Array(v.history[0].1.clone()),
        serde_json::json!([{"value": 0}, {"value": 4, "event": 0, "line": 4}, {"value": 6, "event": 1, "line": 5}])
    );
    // A check that reads none of them has no history.
    let low = check_rules(&rules, "  - {by: aki, move: 8}\n");
    assert!(low.violations[0].history.is_empty());
}
