//! `break`, `again` and an optional point's `otherwise when`, each where a verdict or a score
//! depends on it: in `while`, `loop` and `for`, and at the end of a transcript.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::report::check::{Checker, Verdict};

const RULES: &str = r#"
game control
players 2..2
rule r "unused"
action go: int 0..9
var counted = 0
var summed = 0
var presses = 0
var bonus = 0
var log = []
scores zip_map(players, [counted * 100 + summed, presses * 10 + bonus + 1000 * len(log)])
winners []
flow {
  let i = 0
  while true {
    i += 1
    if i == 3 {
      break
    }
  }
  counted = i
  // Appending pays for both lists, not their product (2,250,000 would run out of fuel).
  let big = range(1, 1500)
  big += range(1, 1500)
  for k in [1, 2, 3, 4] {
    if k == 2 {
      break
    }
    summed += 10
  }
  choose {
    go(n) by players[0] {
      presses += 1
      log += [n, n]
      log -= [n]
      if n == 1 {
        for k in [1] {
          again
        }
      }
      if n == 2 {
        while true {
          again
        }
      }
      if n == 3 {
        loop {
          again
        }
      }
    }
  }
  choose {
    go(n) by players[0] { }
    otherwise when presses > 100 {
      bonus = 1
    }
  }
  finish
}
"#;

/// Checks `events` (each `go` argument) against the rules above.
fn check(events: &[u8]) -> (Verdict, bool, String) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("shinpan-control-{run}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("control.rules"), RULES).unwrap();
    let lines: String = events.iter().map(|n| format!("  - {{by: aki, go: {n}}}\n")).collect();
    let text = format!("rules: control.rules\nplayers: [aki, ben]\nevents:\n{lines}");
    let report = Checker::new(None).check_text("control.yaml", text, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let scores = report.scores.iter().flatten().map(|(p, s)| format!("{p} {s}")).collect::<Vec<_>>().join(", ");
    (report.verdict, report.finished, scores)
}

#[test]
fn break_leaves_while_and_for() {
    // `while` stopped at 3; `for` added 10 once before its `break`.
    let (verdict, _, scores) = check(&[0]);
    assert_eq!(verdict, Verdict::Legal);
    assert!(scores.starts_with("aki 310,"), "{scores}");
}

#[test]
fn again_inside_for_while_and_loop_waits_at_the_same_point() {
    // Three presses that go back to the `choose`, then one that moves on.
    let (verdict, finished, scores) = check(&[1, 2, 3, 0]);
    assert_eq!(verdict, Verdict::Legal);
    assert!(!finished);
    assert_eq!(scores, "aki 310, ben 4040");
}

#[test]
fn an_optional_point_is_left_only_while_its_guard_holds() {
    // The transcript ends at the second `choose`, whose `otherwise` is closed (presses <= 100):
    // the game waits there, unfinished, and `otherwise` does not run.
    let (verdict, finished, scores) = check(&[0]);
    assert_eq!((verdict, finished), (Verdict::Legal, false));
    assert_eq!(scores, "aki 310, ben 1010");
    // An event there moves the game to its end.
    let (verdict, finished, scores) = check(&[0, 5]);
    assert_eq!((verdict, finished), (Verdict::Legal, true));
    assert_eq!(scores, "aki 310, ben 1010");
}
