//! The fuel each game burns, pinned: fuel is the work the per-event limit counts, so a faster
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! evaluator (in-place updates, fused built-ins, values read without copying) must burn
//! exactly as much as the plain one did, or a game near the limit would change its verdict.
//! The snapshot was taken before those changes; a change to it is a change of the language.

use std::fmt::Write as _;
use std::path::Path;

use shinpan::program::memo::Reads;
use shinpan::report::check::{Checker, Verdict};

const GAMES: [(&str, usize); 6] = [
    ("hangover", 4),
    ("curtain-call", 2),
    ("torite-4to6", 4),
    ("clock-tcg", 2),
    ("bridge", 4),
    ("bridge-duplicate", 4),
];

/// Every transcript fixture of the games and of `check --all`, checked both ways.
#[test]
fn fixtures_burn_the_fuel_they_always_did() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut table = String::new();
    let mut folders: Vec<&str> = GAMES.iter().map(|(g, _)| *g).collect();
    folders.extend(["all", "variants", "runaway", "demo"]);
    for folder in folders {
        let mut paths: Vec<_> = std::fs::read_dir(root.join("fixtures").join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "json"))
            .collect();
        paths.sort();
        for path in paths {
            for all in [false, true] {
                let mut checker = Checker::new(None);
                checker.all = all;
                let report = checker.check_path(&path);
                let name = path.strip_prefix(root).unwrap().display();
                let mode = if all { " --all" } else { "" };
                writeln!(table, "{name}{mode}: {:?} {}", report.verdict, report.fuel_spent).unwrap();
            }
        }
    }
    let burnt = table.lines().filter(|l| !l.ends_with(" 0")).count();
    assert!(burnt > 100, "most fixtures run the rules:\n{table}");
    insta::assert_snapshot!(table);
}

/// Seeded random games of every built-in game: played, then checked. The check's fuel is
/// pinned from before the optimizations; the playout's since a drawn event that passed its
/// branch's checks is no longer judged a second time (how a playout draws is its own work,
/// not the language's, and the games drawn are the same: same events, same check fuel).
#[test]
fn random_games_burn_the_fuel_they_always_did() {
    let mut table = String::new();
    for (game, players) in GAMES {
        let prog = shinpan::builtin_program(game).unwrap().unwrap();
        let mut checker = Checker::new(None);
        for seed in 0..12 {
            let played = shinpan::play::playout(&prog, players, seed, 100_000).unwrap();
            let text = shinpan::play::transcript_text_for(game, &[], &prog, &played);
            let report = checker.check_text(game, text, Path::new("."));
            assert_eq!(report.verdict, Verdict::Legal, "{game} seed {seed}");
            let events = played.events.len();
            let (play, check) = (&played.outcome, &report);
            // The fuel, then how many conditions and helper calls were answered from memory:
            // work saved, pinned so that a change which stops remembering them shows.
            writeln!(
                table,
                "{game} seed {seed}: {events} events, play {} check {}, remembered {} and {}, calls {} and {}",
                play.fuel_spent,
                check.fuel_spent,
                play.conditions_remembered,
                check.remembered().0,
                play.calls_remembered,
                check.remembered().1
            )
            .unwrap();
        }
    }
    insta::assert_snapshot!(table);
}

/// What a condition or helper reads: the names of its variables, sorted, and whether it reads
/// `events_taken` (`None`: it is not remembered).
fn by_name(prog: &shinpan::program::Program, reads: &Option<Reads>) -> Option<(String, bool)> {
    reads.as_ref().map(|r| {
        let mut names: Vec<&str> = r.globals.iter().map(|g| prog.vars[*g as usize].name.as_str()).collect();
        names.sort();
        (names.join(" "), r.events_taken)
    })
}

/// What a `due` condition or `always` guard reads, found once per program so that its value
/// can be remembered while those variables are unchanged: variables read directly and through
/// helpers, `events_taken`, and nothing remembered for a condition that draws at random or
/// reads a name it does not bind.
#[test]
fn the_conditions_remembered_and_what_they_read() {
    let rules = "game memo\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\naction note: int 0..1\naction tick: int 0..1\naction poke: int 0..1\n\
        var a = 0\nvar b = [1, 2]\nvar c = 0\nvar flag = false\n\
        fn helper(x) = [y for y in b where y > x]\n\
        fn down(x) = if x <= 0 then c else down(x - 1)\n\
        scores zip_map(players, [a, 0])\nwinners []\n\
        due step_a when a > 5 and len(helper(1)) > 0 and a < 9 { a = 0 }\n\
        due step_b when exists y in b: y == c { c = 9 }\n\
        due step_c when len(shuffle(b)) > 5 { a = 1 }\n\
        due step_d when len([y for y in b where y > down(2)]) + max_by(b, y => y - a) > 9 { a = 2 }\n\
        due step_e when len([shuffle(b) for y in b]) > 9 { a = 3 }\n\
        due step_f when len([y for y in b where len(shuffle(b)) > 0]) > 9 { a = 4 }\n\
        due step_g when exists y in b: len(shuffle(b)) > y + 9 { a = 5 }\n\
        due step_h when not not flag { a = 6 }\n\
        always note(n) by table when events_taken > 3 and all y in b: y > a { }\n\
        always tick(n) by table when a > 100 { }\n\
        always poke(n) by table when flag { }\n\
        flow {\n  loop {\n    choose {\n      go(n) by players[0] {\n        a += 1\n      }\n    }\n  }\n}\n";
    let prog = shinpan::compile("memo.rules", rules).unwrap();
    let named = |reads: &Option<Reads>| by_name(&prog, reads);
    // Each variable once, through helpers (one calling itself), loops and lambdas; nothing for
    // a condition that draws at random, in a loop's body or its `where` too.
    let dues: Vec<_> = prog.remembered.dues.iter().map(named).collect();
    let expected = [
        Some(("a b".into(), false)),
        Some(("b c".into(), false)),
        None,
        Some(("a b c".into(), false)),
        None,
        None,
        None,
        // A variable read (or its `not`) is read again: remembering it costs more.
        None,
    ];
    assert_eq!(dues, expected);
    let guards: Vec<_> = prog.remembered.guards.iter().map(named).collect();
    assert_eq!(guards, [Some(("a b".into(), true)), Some(("a".into(), false)), None]);

    // A guard that reads a local it does not bind (its record's argument, not yet bound when
    // the guard is asked) is not remembered, and neither is any other guard: they share a frame.
    let shadowed = rules.replace("when events_taken > 3 and", "when n == null and events_taken > 3 and");
    let prog = shinpan::compile("memo.rules", &shadowed).unwrap();
    assert_eq!(prog.remembered.guards, [None, None, None]);
}

/// A remembered condition follows the variables it reads: the due step runs each time `a`
/// reaches 3 again, and the record is open from the fourth event on.
#[test]
fn a_remembered_condition_changes_with_what_it_reads() {
    let rules = "game memo\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\naction mark: int 0..9\n\
        var a = 0\nvar resets = 0\n\
        scores zip_map(players, [resets, a])\nwinners []\n\
        due reset when a >= 3 { a = 0\n resets += 1 }\n\
        always mark(n) by table when events_taken >= 3 { require n == resets else r \"marked {n}, not {resets}\" }\n\
        flow {\n  loop {\n    choose {\n      go(n) by players[0] {\n        a += 1\n      }\n    }\n  }\n}\n";
    let check = |events: &str| {
        let text = format!("players: [a, b]\nevents:\n{events}");
        Checker::with_rules_text("memo.rules", rules, Path::new(".")).check_text("memo.yaml", text, Path::new("."))
    };
    let go = "  - {by: a, go: 0}\n";
    let legal = check(&format!("{go}{go}{go}  - {{by: table, mark: 1}}\n{go}{go}{go}{go}  - {{by: table, mark: 2}}\n"));
    assert_eq!(legal.verdict, Verdict::Legal, "{:?}", legal.violations);
    assert_eq!(legal.scores.unwrap()[0].1, serde_json::json!(2));
    let early = check(&format!("{go}{go}  - {{by: table, mark: 0}}\n"));
    assert_eq!(early.verdict, Verdict::Illegal);
    let stale = check(&format!("{go}{go}{go}  - {{by: table, mark: 1}}\n{go}{go}{go}  - {{by: table, mark: 1}}\n"));
    assert_eq!(stale.verdict, Verdict::Illegal);
    assert!(stale.violations[0].message.contains("marked 1, not 2"), "{:?}", stale.violations);
}

/// A helper's last call is remembered by what it reads, as a condition is: one that reads
/// only parameters and constants is worked out once a game, one that reads a variable again
/// after each change of it, and one that draws at random or reads `events_taken` follows
/// that. A helper with arguments is remembered only when its body loops: comparing the
/// arguments costs what a short body does.
#[test]
fn the_helpers_remembered_and_what_they_read() {
    let rules = "game memo\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\nparam n: int = 3\n\
        var a = 0\nvar b = [1, 2]\n\
        fn constant() = [x * n for x in range(1, 5)]\n\
        fn grown() = len(b) + a\n\
        fn through() = grown() + 1\n\
        fn drawn() = shuffle(b)\n\
        fn counted() = events_taken\n\
        fn with_args(x) = x + a\n\
        fn looping(x) = [y for y in b where y > x + a]\n\
        scores zip_map(players, [a, 0])\nwinners []\nflow {\n  loop {\n    choose {\n      go(k) by players[0] {\n        a += k\n      }\n    }\n  }\n}\n";
    let prog = shinpan::compile("memo.rules", rules).unwrap();
    let named = |reads: &Option<Reads>| by_name(&prog, reads);
    let helpers: Vec<_> = prog.remembered.helpers.iter().map(named).collect();
    let expected = [
        Some(("".into(), false)),
        Some(("a b".into(), false)),
        Some(("a b".into(), false)),
        None,
        Some(("".into(), true)),
        None,
        Some(("a b".into(), false)),
    ];
    assert_eq!(helpers, expected);
}

/// A checker carries to the next game what one game worked out once (the last calls of helpers
/// that read no variable), only while the rules, players and parameters are the same: `pool()`
/// reads a parameter and `seats()` the players, and a game of other parameters or players
/// works them out again (a value carried to it would change its verdict). A game started with
/// them burns the fuel it burns alone, and answers more calls from memory.
#[test]
fn a_game_starts_with_what_the_last_game_of_the_same_players_and_parameters_worked_out() {
    let rules = "game carry\nplayers 2..3\nrule r \"the check\"\nparam n: int = 3\naction go: int\n\
        fn pool() = [k * n for k in range(1, 4)]\n\
        fn seats() = len(players)\n\
        scores {}\nwinners []\n\
        flow {\n  choose {\n    go(v) by players[0] {\n      \
        require v in pool() or v == 100 * seats() else r \"{v} is not in {pool()}\"\n    }\n  }\n}\n";
    let game = |players: &str, n: i64, v: i64| {
        format!("players: [{players}]\nvariant: {{n: {n}}}\nevents:\n  - {{by: a, go: {v}}}\n")
    };
    let fresh = || Checker::with_rules_text("carry.rules", rules, Path::new("."));
    let mut carrying = fresh();
    let mut check = |text: String| carrying.check_text("carry.yaml", text, Path::new("."));
    // Each game after the first is judged after one of other parameters or players, or the same.
    let games = [
        (game("a, b", 1, 2), Verdict::Legal),
        (game("a, b", 2, 3), Verdict::Illegal),
        (game("a, b", 2, 200), Verdict::Legal),
        (game("a, b, c", 2, 200), Verdict::Illegal),
        (game("a, b, c", 2, 300), Verdict::Legal),
        (game("a, b, c", 2, 300), Verdict::Legal),
    ];
    let mut remembered = vec![];
    for (text, verdict) in games {
        let alone = fresh().check_text("carry.yaml", text.clone(), Path::new("."));
        let after = check(text.clone());
        assert_eq!(after.verdict, verdict, "{text}{:?}", after.violations);
        assert_eq!(alone.verdict, verdict, "{text}");
        assert_eq!(after.fuel_spent, alone.fuel_spent, "{text}");
        remembered.push(after.remembered().1 - alone.remembered().1);
    }
    // From memory, beside what the game alone answers so: both helpers for a game after one of
    // the same players and parameters (each worked out there), nothing after any other.
    assert_eq!(remembered, [0, 0, 2, 0, 2, 2]);
}

/// What a game carries is only what holds for every game: a helper that reads a variable is
/// worked out again in the next game, though the variable has been set as many times there.
#[test]
fn a_game_carries_nothing_that_reads_a_variable() {
    let rules = "game carry\nplayers 2..2\nrule r \"the check\"\naction go: int\naction twice: int\nvar used = 0\n\
        fn doubled() = [used * 2 for k in range(1, 1)]\n\
        scores {}\nwinners []\n\
        flow {\n  choose {\n    go(v) by players[0] {\n      used = v\n    }\n  }\n  \
        choose {\n    twice(w) by players[0] {\n      require [w] == doubled() else r \"not {doubled()}\"\n    }\n  }\n}\n";
    let game =
        |v: i64, w: i64| format!("players: [a, b]\nevents:\n  - {{by: a, go: {v}}}\n  - {{by: a, twice: {w}}}\n");
    let mut checker = Checker::with_rules_text("carry.rules", rules, Path::new("."));
    let mut check = |text: String| checker.check_text("carry.yaml", text, Path::new(".")).verdict;
    assert_eq!(check(game(5, 10)), Verdict::Legal);
    assert_eq!(check(game(7, 10)), Verdict::Illegal);
    assert_eq!(check(game(7, 14)), Verdict::Legal);
}

/// What a game carries goes only to a game of the same rules: two rules files alike but for the
/// values of their helper, checked in turn by one checker, each with its own values.
#[test]
fn a_game_carries_nothing_to_a_game_of_other_rules() {
    let dir = std::env::temp_dir().join(format!("shinpan-carry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = |first: i64| {
        format!(
            "game carry\nplayers 2..2\nrule r \"the check\"\naction go: int\nfn pool() = [k + {first} for k in range(0, 3)]\n\
             scores {{}}\nwinners []\nflow {{\n  choose {{\n    go(v) by players[0] {{\n      \
             require v in pool() else r \"{{v}} is not in {{pool()}}\"\n    }}\n  }}\n}}\n"
        )
    };
    std::fs::write(dir.join("low.rules"), rules(1)).unwrap();
    std::fs::write(dir.join("high.rules"), rules(10)).unwrap();
    let game = |file: &str, v: i64| format!("rules: {file}.rules\nplayers: [a, b]\nevents:\n  - {{by: a, go: {v}}}\n");
    let mut checker = Checker::new(None);
    let mut check = |text: String| checker.check_text("carry.yaml", text, &dir).verdict;
    assert_eq!(check(game("low", 2)), Verdict::Legal);
    assert_eq!(check(game("high", 2)), Verdict::Illegal);
    assert_eq!(check(game("high", 11)), Verdict::Legal);
    assert_eq!(check(game("low", 11)), Verdict::Illegal);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run of playouts carries to each game what the last worked out once, and plays the games
/// each seed plays alone, byte for byte: every built-in game, six seeds.
#[test]
fn a_run_of_playouts_plays_the_games_each_seed_plays_alone() {
    for (game, players) in GAMES {
        let rules = shinpan::Rules::new(game).unwrap();
        let prog = shinpan::builtin_program(game).unwrap().unwrap();
        let mut lines = vec![];
        let stuck = rules
            .play_games(players, 3, 6, 100_000, |line| {
                lines.push(line.to_string());
                true
            })
            .unwrap();
        assert!(stuck.is_none(), "{game}");
        let alone: Vec<String> = (3..9)
            .map(|seed| {
                let played = shinpan::play::playout(&prog, players, seed, 100_000).unwrap();
                shinpan::play::transcript_json_line_for(game, &[], &prog, &played)
            })
            .collect();
        assert_eq!(lines, alone, "{game}");
    }
}

/// Which quantifiers are remembered between candidates, and what they read: variables
/// (through helpers too), `events_taken`, and the locals bound around them. Only those of a
/// branch's checks, which are tried candidate after candidate, and of those only the
/// outermost: none inside a comprehension, a lambda or a helper's body, none that draws at
/// random, none that reads the candidate, directly or through a name bound from it (in an `if`
/// too), and none that reads the name of a `for` loop of the checks.
#[test]
fn the_quantifiers_remembered_and_what_they_read() {
    let rules = "game memo\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\naction tick: int 0..1\n\
        var a = 0\nvar b = [1, 2]\nvar c = 0\n\
        fn helper(x) = exists y in b: y > x\n\
        fn more() = c + 1\n\
        scores zip_map(players, [a, 0])\nwinners []\n\
        always tick(t) by table when exists y in b: y > events_taken {\n  \
        require exists y in b: y > events_taken else r \"ticked\"\n}\n\
        flow {\n  loop {\n    for k in [1] {\n      choose {\n        go(n) by players[0] {\n          \
        let m = n + 1\n          let far = k + 1\n          \
        require exists y in b: y > far and y > a + more() else r \"one\"\n          \
        require all y in b: exists z in b: z == y else r \"two\"\n          \
        require exists y in b: y > m else r \"through a name\"\n          \
        require not exists y in b: y == n else r \"the candidate\"\n          \
        require len([y for y in b where exists z in b: z == y]) > 0 else r \"three\"\n          \
        require exists y in shuffle(b): y > 0 else r \"four\"\n          \
        require max_by(b, y => if exists z in b: z > y then 0 else 1) >= 0 else r \"five\"\n          \
        require helper(n) or n >= 0 else r \"six\"\n          \
        if n > 0 {\n            let inner = n + 2\n            require exists y in b: y > inner else r \"in an if\"\n          }\n          \
        for q in b {\n            require exists y in b: y > q else r \"in a loop\"\n          }\n          \
        if k > 0 {\n            require exists y in b: y > far else r \"in an if, reading no candidate\"\n          }\n          \
        a += 1\n          if exists y in b: y > k {\n            c += 1\n          }\n        }\n      }\n    }\n  }\n}\n";
    let prog = shinpan::compile("memo.rules", rules).unwrap_or_else(|d| panic!("{}", d[0].message));
    let found: Vec<_> =
        prog.remembered.quantifiers.iter().map(|q| (by_name(&prog, &Some(q.reads.clone())), q.locals.len())).collect();
    let expected = [
        // The `always` branch's check (not its guard), then the flow's checks, in order.
        (Some(("b".into(), true)), 0),
        (Some(("a b c".into(), false)), 1),
        (Some(("b".into(), false)), 0),
        (Some(("b".into(), false)), 1),
    ];
    assert_eq!(found, expected);
}

/// Each kind of name that changes from one candidate, or one round, to the next keeps the
/// quantifier that reads it from being numbered, alone in its rules (in one file, names of
/// different scopes may share a place, and one would stand for the other).
#[test]
fn a_quantifier_that_reads_a_changing_name_is_not_numbered() {
    let numbered = |checks: &str| {
        let rules = format!(
            "game memo\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\nvar b = [1, 2]\nscores {{}}\nwinners []\n\
             flow {{\n  choose {{\n    go(n) by players[0] {{\n{checks}\n    }}\n  }}\n}}\n"
        );
        let prog = shinpan::compile("memo.rules", &rules).unwrap_or_else(|d| panic!("{}", d[0].message));
        prog.remembered.quantifiers.len()
    };
    assert_eq!(numbered("require exists y in b: y > 0 else r \"reads no name\""), 1);
    assert_eq!(numbered("if n > 0 {\n let inner = n + 2\n require exists y in b: y > inner else r \"x\"\n}"), 0);
    assert_eq!(numbered("for q in b {\n require exists y in b: y > q else r \"x\"\n}"), 0);
    assert_eq!(numbered("for q in b {\n let twice = q * 2\n require exists y in b: y > twice else r \"x\"\n}"), 0);
    assert_eq!(numbered("require len([y for y in b where exists z in b: z == y]) > 0 else r \"x\""), 0);
    assert_eq!(numbered("require max_by(b, y => if exists z in b: z > y then 0 else 1) >= 0 else r \"x\""), 0);
}

/// Checking judges each event once, and asks no quantifier's memory even where one is asked
/// again with nothing changed (three records in a row): the memory is kept for the candidates
/// a playout or a listing tries, where it pays, and checking would only pay for keeping it.
#[test]
fn checking_asks_no_quantifier_of_its_memory() {
    let rules = "game ticks\nplayers 2..2\nrule r \"the check\"\naction go: int 0..1\naction tick: int 0..1\n\
        var b = [1, 2]\nscores {}\nwinners []\n\
        always tick(t) by table {\n  require exists y in b: y > 1 else r \"ticked {t}\"\n}\n\
        flow {\n  choose {\n    go(n) by players[0] {\n      b = []\n    }\n  }\n}\n";
    let prog = shinpan::compile("ticks.rules", rules).unwrap_or_else(|d| panic!("{}", d[0].message));
    assert_eq!(prog.remembered.quantifiers.len(), 1, "the record's check is numbered");
    let text = "players: [a, b]\nevents:\n  - {by: table, tick: 0}\n  - {by: table, tick: 0}\n  - {by: table, tick: 1}\n  - {by: a, go: 0}\n";
    let report = Checker::with_rules_text("ticks.rules", rules, Path::new(".")).check_text(
        "ticks.yaml",
        text.into(),
        Path::new("."),
    );
    assert_eq!(report.verdict, Verdict::Legal, "{:?}", report.violations);
    assert_eq!(report.remembered(), (0, 0));
}

/// A remembered helper gives what evaluating it gives, and burns the same fuel: the record
/// compares `total()` with a value the transcript gives, after each change of what it reads
/// and between changes, and the fuel of the run is that of the same rules with an argument
/// the helper ignores (never remembered).
#[test]
fn a_remembered_helper_follows_what_it_reads_and_burns_the_same_fuel() {
    let rules = "game memo\nplayers 2..2\nrule r \"unused\"\naction go: int 0..3\naction mark: int 0..99\n\
        var a = 0\nvar b = [5]\n\
        fn total() = sum(b) + a * 10\n\
        scores zip_map(players, [a, 0])\nwinners []\n\
        always mark(m) by table { require m == total() else r \"marked {m}, not {total()}\" }\n\
        flow {\n  loop {\n    choose {\n      go(k) by players[0] {\n        a += k\n        b = b + [k]\n      }\n    }\n  }\n}\n";
    let ignored = rules.replace("fn total() =", "fn total_of(unused) =").replace("total()", "total_of(0)");
    let run = |rules: &str, events: &str| {
        let text = format!("players: [a, b]\nevents:\n{events}");
        Checker::with_rules_text("memo.rules", rules, Path::new(".")).check_text("memo.yaml", text, Path::new("."))
    };
    let events = "  - {by: table, mark: 5}\n  - {by: table, mark: 5}\n  - {by: a, go: 2}\n  - {by: table, mark: 27}\n  - {by: table, mark: 27}\n  - {by: a, go: 1}\n  - {by: table, mark: 38}\n";
    let remembered = run(rules, events);
    assert_eq!(remembered.verdict, Verdict::Legal, "{:?}", remembered.violations);
    assert!(remembered.remembered().1 >= 2, "{}", remembered.remembered().1);
    let plain = run(&ignored, events);
    assert_eq!(plain.verdict, Verdict::Legal, "{:?}", plain.violations);
    assert_eq!(plain.remembered().1, 0);
    assert_eq!(remembered.fuel_spent, plain.fuel_spent, "a remembered call burns what evaluating it burns");

    let stale = run(rules, "  - {by: table, mark: 5}\n  - {by: a, go: 2}\n  - {by: table, mark: 5}\n");
    assert_eq!(stale.verdict, Verdict::Illegal);
    assert!(stale.violations[0].message.contains("marked 5, not 27"), "{:?}", stale.violations);

    // With an argument: remembered while the argument is the one of the last call, worked out
    // again for another (the record's two checks ask for 0 and 1 in turn, then 1 twice).
    let with_argument = rules
        .replace("fn total() = sum(b) + a * 10", "fn total(k) = sum([x + k for x in b]) + a * 10")
        .replace("require m == total() else r \"marked {m}, not {total()}\"", "require m == total(0) and m + len(b) == total(1) and m + len(b) == total(1) else r \"marked {m}, not {total(0)}\"");
    assert_ne!(with_argument, rules);
    let argued = run(&with_argument, events);
    assert_eq!(argued.verdict, Verdict::Legal, "{:?}", argued.violations);
    assert!(argued.remembered().1 >= 3, "{}", argued.remembered().1);
    let stale = run(&with_argument, "  - {by: table, mark: 5}\n  - {by: a, go: 2}\n  - {by: table, mark: 5}\n");
    assert!(stale.violations[0].message.contains("marked 5, not 27"), "{:?}", stale.violations);
}
