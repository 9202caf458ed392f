//! The clock TCG's random playouts reach every part of the game: level-ups, refreshes,
//! cancelled damage and encores, over a few hundred seeds (and every game ends).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::program::value::Value;

#[test]
fn playouts_reach_level_up_refresh_cancel_and_encore() {
    let prog = shinpan::builtin_program("clock-tcg").unwrap().unwrap();
    let action = |name: &str| prog.actions.iter().position(|a| a.name == name).unwrap() as u16;
    let (levelup, refresh, encore, damage) = (action("levelup"), action("refresh"), action("encore"), action("damage"));
    let cancelled = Value::str("cancelled");
    let mut counts = [0usize; 5];
    for seed in 0..200 {
        let p = shinpan::play::playout(&prog, 2, seed, 100_000).unwrap();
        assert!(p.outcome.violation.is_none(), "seed {seed}: a random playout broke a rule");
        counts[4] += usize::from(p.outcome.finished);
        for e in &p.events {
            match e.action {
                a if a == levelup => counts[0] += 1,
                a if a == refresh => counts[1] += 1,
                a if a == encore => counts[3] += 1,
                a if a == damage && e.arg.get(&cancelled) == Some(&Value::Bool(true)) => counts[2] += 1,
                _ => {}
            }
        }
    }
    eprintln!(
        "200 playouts: {} level-ups, {} refreshes, {} cancel records, {} encores, {} finished",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
    for (what, n) in ["level-up", "refresh", "cancel", "encore"].iter().zip(counts) {
        assert!(n >= 10, "only {n} of {what} in 200 playouts");
    }
    assert_eq!(counts[4], 200, "every playout ends with a winner");
}
