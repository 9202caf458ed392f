//! The caps of the built-in functions, each at its value, and just over it: a rules file
//! that asks for more gets a diagnostic at the call, never a huge allocation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::report::check::{Checker, Verdict};

/// The first player's score when it is `expr` (an int), or the rules' error message.
fn value(expr: &str) -> Result<i64, String> {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("shinpan-builtins-{run}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = format!(
        "game caps\nplayers 2..2\nrule r \"unused\"\nenum Phase {{ early, late }}\nenum Side {{ left, right }}\ncard Tile(n: int) {{\n  \"T1\" (1)\n  \"T2\" (2)\n}}\ncard Coin(n: int) {{\n  \"C1\" (1)\n}}\naction go: int 0..1\nscores zip_map(players, [{expr}, 0])\nwinners []\n\
         flow {{\n  choose {{\n    go(n) by players[0] {{\n    }}\n  }}\n}}\n"
    );
    std::fs::write(dir.join("caps.rules"), rules).unwrap();
    let report =
        Checker::new(None).check_text("caps.yaml", "rules: caps.rules\nplayers: [a, b]\nevents: []\n".into(), &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    if report.verdict == Verdict::Legal {
        let (_, score) = &report.scores.unwrap()[0];
        return Ok(score.as_i64().unwrap());
    }
    Err(report.spec_errors.first().map_or_else(|| format!("{:?}", report.errors), |d| d.message.clone()))
}

#[test]
fn range_holds_up_to_100001_numbers() {
    assert_eq!(value("len(range(0, 100000))"), Ok(100_001));
    let e = value("len(range(0, 100001))").unwrap_err();
    assert!(e.contains("a range of more than 100000 numbers"), "{e}");
}

#[test]
fn repeat_builds_at_most_a_million_items() {
    assert_eq!(value("len(repeat(range(1, 1000), 1000))"), Ok(1_000_000));
    let e = value("len(repeat(range(1, 1000), 1001))").unwrap_err();
    assert!(e.contains("more than 1000000 items"), "{e}");
    // Chunks of any size up to the count's cap split what is there.
    assert_eq!(value("len(chunks(range(1, 1000), 10000))"), Ok(1));
    let e = value("len(chunks(range(1, 10), 10001))").unwrap_err();
    assert!(e.contains("outside 1..10000"), "{e}");
}

#[test]
fn combinations_of_at_most_20_items() {
    assert_eq!(value("len(combinations(range(1, 20), 1))"), Ok(20));
    let e = value("len(combinations(range(1, 21), 1))").unwrap_err();
    assert!(e.contains("`combinations` of 1 from 21 items"), "{e}");
    assert_eq!(value("len(combinations([1, 2], 2))"), Ok(1));
    // More than there are: none (not an error).
    assert_eq!(value("len(combinations([1, 2], 3))"), Ok(0));
    assert_eq!(value("len(combinations([], 1))"), Ok(0));
    assert_eq!(value("len(combinations([], 0))"), Ok(1));
    let e = value("len(combinations([1, 2], -1))").unwrap_err();
    assert!(e.contains("`combinations` of -1 from 2 items"), "{e}");
    let e = value("len(combinations(range(1, 21), 30))").unwrap_err();
    assert!(e.contains("`combinations` of 30 from 21 items"), "{e}");
}

#[test]
fn permutations_of_at_most_8_items() {
    assert_eq!(value("len(permutations(range(1, 8)))"), Ok(40_320));
    let e = value("len(permutations(range(1, 9)))").unwrap_err();
    assert!(e.contains("`permutations` of more than 8 items"), "{e}");
}

#[test]
fn subsets_of_at_most_12_items() {
    assert_eq!(value("len(subsets(range(1, 12)))"), Ok(4096));
    let e = value("len(subsets(range(1, 13)))").unwrap_err();
    assert!(e.contains("`subsets` of more than 12 items"), "{e}");
}

#[test]
fn tally_and_ordered_enums_in_expressions() {
    assert_eq!(value("tally([3, 1, 3, 3], x => x)[3] * 10 + len(tally([3, 1, 3, 3], x => x))"), Ok(32));
    assert_eq!(
        value(
            "if matches(\"AB-12\", \"^[A-Z]+-[0-9]+$\") and not matches(\"ab-12\", \"^[A-Z]+-[0-9]+$\") then 1 else 0"
        ),
        Ok(1)
    );
}

#[test]
fn enum_values_compare_in_declaration_order() {
    let bits = "(if Phase.early < Phase.late then 1 else 0) * 1000 + (if Phase.late < Phase.late then 1 else 0) * 100 \
                + (if Phase.late <= Phase.late then 1 else 0) * 10 + (if Phase.late > Phase.late then 1 else 0)";
    assert_eq!(value(bits), Ok(1010));
    let more = "(if Phase.late > Phase.early then 1 else 0) * 10 + (if Phase.early >= Phase.late then 1 else 0)";
    assert_eq!(value(more), Ok(10));
}

/// Enums of two kinds have no order: where the checker cannot see the kinds (items of a mixed
/// list), comparing them is an error when it runs, never an answer.
#[test]
fn enums_of_different_kinds_do_not_compare() {
    assert_eq!(value("if [Phase.early, Side.left][0] < Phase.late then 1 else 0"), Ok(1));
    let e = value("if [Phase.early, Side.left][1] < Phase.late then 1 else 0").unwrap_err();
    assert!(e.contains("cannot apply this operator"), "{e}");
}

/// `matches` pays fuel for the text and the pattern it reads, added: three hundred matches of
/// a thousand characters against a thousand-character pattern stay well within one event's
/// 2,000,000 steps.
#[test]
fn matches_pays_for_what_it_reads() {
    let text = "a".repeat(1000);
    let expr = format!("len([n for n in range(1, 300) where matches(\"{text}\", \"{text}\")])");
    assert_eq!(value(&expr), Ok(300));
}

/// Values of different kinds are never equal: where the checker cannot see the kinds, asking
/// is an error when it runs (never a silent `false`); null compares with anything.
#[test]
fn equality_of_different_kinds_is_an_error() {
    assert_eq!(value("if [1, \"1\"][0] == [2, \"1\"][0] then 1 else 0"), Ok(0));
    let e = value("if [1, \"1\"][0] == [1, \"1\"][1] then 1 else 0").unwrap_err();
    assert_eq!(e, "cannot compare an int with a str: they are never equal");
    let e = value("if [Phase.early, Side.left][0] != [Phase.early, Side.left][1] then 1 else 0").unwrap_err();
    assert_eq!(e, "cannot compare a Phase with a Side: they are never equal");
    assert_eq!(value("if [1, null][1] == [1, null][0] then 1 else 0"), Ok(0));
    assert_eq!(value("if [players[0], table][0] != [players[0], table][1] then 1 else 0"), Ok(1));
    // Cards compare within their kind; a card of another kind is never equal, and asking is
    // an error in the kinds' own names.
    assert_eq!(value("if [Tile[0], Coin[0]][0] == Tile[1] then 1 else 0"), Ok(0));
    assert_eq!(value("if [Tile[0], Coin[0]][0] == Tile[0] then 1 else 0"), Ok(1));
    let e = value("if [Tile[0], Coin[0]][0] == [Tile[0], Coin[0]][1] then 1 else 0").unwrap_err();
    assert_eq!(e, "cannot compare a Tile with a Coin: they are never equal");
}

/// A value is shown in at most 10,000 characters, then `…`: exactly at the cap nothing is cut.
#[test]
fn shown_values_stop_just_past_ten_thousand_characters() {
    let shown = |first: usize| value(&format!("len(str([\"{}\", \"b\"]))", "a".repeat(first)));
    // `[` and the first item reach 10,000 exactly: the rest is still written.
    assert_eq!(shown(9_999), Ok(10_003));
    // `[`, the first item and `, ` reach 10,000 exactly: the next item is still written.
    assert_eq!(shown(9_997), Ok(10_002));
    // Past the cap the list stops with `…` after the item that passed it.
    assert_eq!(shown(10_000), Ok(10_001 + 1));
}

/// A chain of 100 operators is read; one more is refused (split it with `let`).
#[test]
fn chains_of_one_hundred_operators() {
    let chain = |ops: usize| format!("0{}", " + 1".repeat(ops));
    assert_eq!(value(&chain(100)), Ok(100));
    assert_eq!(value(&chain(30)), Ok(30));
    let e = value(&chain(101)).unwrap_err();
    assert!(e.contains("a chain of more than 100 operators"), "{e}");
}

/// Escapes in strings: `\n`, `\t`, and any other character taken as itself (`\{`, `\"`), in
/// templates and in plain strings (rule texts, card codes) alike.
#[test]
fn string_escapes() {
    assert_eq!(value("len(\"a\\tb\\nc\")"), Ok(5));
    assert_eq!(value("if \"\\n\" == \"n\" or \"\\t\" == \"t\" or \"\\n\" == \"\\t\" then 1 else 0"), Ok(0));
    assert_eq!(value("len(\"\\{x}\")"), Ok(3));
    let rules = "game esc\nplayers 2..2\nrule r \"say \\\"hi\\\"\\tnow\"\naction go: int 0..1\nscores {}\nwinners []\n\
                 flow {\n  choose {\n    go(n) by players[0] {\n    }\n  }\n}\n";
    let program = shinpan::compile("esc.rules", rules).unwrap();
    let text = &program.rules.iter().find(|r| r.id == "r").unwrap().text;
    assert_eq!(text, "say \"hi\"\tnow");
}

/// The first player's score as JSON (or the rules' error message), and the fuel spent.
fn value_and_fuel(expr: &str) -> (Result<String, String>, u64) {
    let dir = std::env::temp_dir().join(format!("shinpan-fold-{}-{}", expr.len(), std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = format!(
        "game folds\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\nscores zip_map(players, [{expr}, 0])\nwinners []\n\
         flow {{\n  choose {{\n    go(n) by players[0] {{\n    }}\n  }}\n}}\n"
    );
    std::fs::write(dir.join("folds.rules"), rules).unwrap();
    let report =
        Checker::new(None).check_text("folds.yaml", "rules: folds.rules\nplayers: [a, b]\nevents: []\n".into(), &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let value = match (&report.verdict, &report.scores) {
        (Verdict::Legal, Some(scores)) => Ok(scores[0].1.to_string()),
        _ => Err(report.spec_errors.first().map_or_else(|| format!("{:?}", report.errors), |d| d.message.clone())),
    };
    (value, report.fuel_spent)
}

/// `len`, `sum`, `max`, `min`, `first` and `last` of a comprehension fold its items as they
/// are made; the same list built first (behind an `if`) must give the same value or error,
/// for the same fuel: ties, a `sum` problem before a later item's error, overflow, and a
/// `max` whose comparisons run out of fuel.
#[test]
fn a_fold_over_a_comprehension_equals_the_fold_of_the_built_list() {
    let folds = [
        "len([n for n in range(1, 40) where n % 3 != 0])",
        "len([n for n in []])",
        "sum([n * 2 for n in range(1, 50) where n % 3 != 0])",
        "sum([n for n in [9223372036854775807, 1]])",
        "sum([if n == 3 then \"x\" else n for n in range(1, 5)])",
        "sum([if n == 2 then \"x\" else 10 / (4 - n) for n in range(1, 5)])",
        "sum([if n == 2 then \"x\" else if n == 3 then true else n for n in range(1, 5)])",
        "max([[n % 4, n] for n in range(1, 30)])",
        "max([[n % 4] for n in range(1, 30)])",
        "min([[n % 5, 0] for n in range(1, 30) where n > 3])",
        "min([n for n in []])",
        "max([range(1, 100000) for n in range(1, 12)])",
        "max([range(1, 100000) for n in range(1, 6)])",
        "first([n for n in range(1, 30) where n > 10])",
        "first([n for n in range(1, 30) where n > 100])",
        "last([[n] for n in range(1, 30) where n < 10])",
        "first([10 / (5 - n) for n in range(1, 6)])",
    ];
    for fused in folds {
        let open = fused.find("([").unwrap() + 1;
        let close = fused.rfind("])").unwrap() + 1;
        let built = format!("{}if true then {} else []{}", &fused[..open], &fused[open..close], &fused[close..]);
        let (a, b) = (value_and_fuel(fused), value_and_fuel(&built));
        assert_eq!(a, b, "{fused} against {built}");
    }
    // The cases mean what they say: a value, each kind of error, and a run out of fuel.
    assert_eq!(value_and_fuel(folds[2]).0, Ok("1734".into()));
    assert_eq!(value_and_fuel(folds[8]).0, Ok("[3]".into()));
    assert!(value_and_fuel(folds[4]).0.unwrap_err().contains("`sum` of a list holding str"));
    assert!(value_and_fuel(folds[5]).0.unwrap_err().contains("division by zero"));
    assert!(value_and_fuel(folds[3]).0.unwrap_err().contains("overflow"));
    assert!(value_and_fuel(folds[11]).0.unwrap_err().contains("steps without waiting"));
    assert!(value_and_fuel(folds[12]).0.is_ok());
    // Of two items `sum` cannot add, the first is the one reported.
    assert!(value_and_fuel(folds[6]).0.unwrap_err().contains("`sum` of a list holding str"));
}

/// Every place an expression can stand, each holding a text with nothing to fill in and an
/// empty list: after compiling, none of them is left unfolded anywhere in the program (read
/// from the program's debug form, which shows every node, so the check does not share the
/// folding's own walk).
#[test]
fn constants_are_folded_in_every_place_an_expression_stands() {
    let rules = r#"game folds
players 2..2
rule r "a rule" stands
action go: int 0..1
action rec: int 0..1
var v = len("v") + len([])
var t = 0
var m = {a: 0}
fn f(x) = len("f") + len([]) + x
scores zip_map(players, [len("s") + len([]) + f(0), 0])
winners [p for p in players where len("w") + len([]) < 0]
due d when len("d") + len([]) < 0 {
  t = len("dp") + len([])
}
always rec(n) by table when len("ag") + len([]) < 0 choices [len("ac") + len([])] {
  require n == len("ar") + len([]) else r "{n} {len([])}"
}
proc helper(x) {
  t = len("ph") + len([]) + x
}
flow {
  let a = len("fl") + len([])
  if len("fi") + len([]) > a {
    t = len("fa") + len([])
  } else {
    t = len("fb") + len([])
  }
  for x in range(0, len("fo") + len([])) {
    t = len("ff") + len([])
  }
  while t < len("fw") + len([]) {
    t += 1
  }
  note "a note {len([])}"
  helper(len("fc") + len([]))
  m["a"] = len("fm") + len([])
  loop {
    choose {
      go(n) by players[len([])] when len("bg") + len([]) >= 0 choices [0, len("bc") + len([]) - 2] {
        require n >= len([]) + len("rq") - 2 else r "{n} {len([])}" costs {
          t = len("rc") + len([])
        }
        t = n + len("be") + len([])
        break
      }
      otherwise when len("ow") + len([]) > 99 {
        t = len("oo") + len([])
      }
    }
  }
}
"#;
    let prog = shinpan::compile("folds.rules", rules).unwrap_or_else(|d| panic!("{}", d[0].message));
    let tree = format!("{:?}", prog.flow)
        + &format!("{:?}{:?}{:?}{:?}", prog.vars, prog.fns, prog.procs, prog.always)
        + &format!("{:?}{:?}{:?}", prog.dues, prog.scores, prog.winners);
    // Each literal's text is in the program, as a constant.
    for text in ["v", "f", "s", "w", "d", "dp", "ag", "ac", "ar", "ph", "fl", "fi", "fa", "fb", "fo", "ff"] {
        assert!(tree.contains(&format!("Const(Str({text:?}))")), "`{text}` is not a constant");
    }
    for text in ["fw", "fc", "fm", "bg", "bc", "rq", "rc", "be", "ow", "oo", "a"] {
        assert!(tree.contains(&format!("Const(Str({text:?}))")), "`{text}` is not a constant");
    }
    assert!(!tree.contains("e: Template("), "a text left to build:\n{tree}");
    assert!(!tree.contains("e: List([])"), "an empty list left to build:\n{tree}");
    assert!(tree.contains("Note([Text(\"a note \"), Expr("), "a note's blank is still filled in");
}

/// A string with nothing to fill in and an empty list are constants in the compiled program
/// (built once, not at every evaluation); a string with a `{}` and a list with items are not,
/// since folding those would change what is built or how deep evaluation nests.
#[test]
fn texts_without_blanks_and_empty_lists_are_folded() {
    use shinpan::program::value::Value;
    use shinpan::program::{E, X};
    let rules = "game folds\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\n\
                 scores zip_map(players, [len(\"abc\") + len([]) + len(\"a{1}\") + len([1]), 0])\nwinners []\n\
                 flow {\n  choose {\n    go(n) by players[0] {\n    }\n  }\n}\n";
    let prog = shinpan::compile("folds.rules", rules).unwrap();
    fn all(x: &X, out: &mut Vec<String>) {
        out.push(match &x.e {
            E::Const(Value::Str(s)) => format!("text {s}"),
            E::Const(Value::List(l)) => format!("constant list of {}", l.len()),
            E::Template(_) => "template".into(),
            E::List(items) => format!("list of {}", items.len()),
            _ => "other".into(),
        });
        x.children().into_iter().for_each(|c| all(c, out));
    }
    let mut found = vec![];
    all(&prog.scores, &mut found);
    for expected in ["text abc", "constant list of 0", "template", "list of 1"] {
        assert!(found.iter().any(|f| f == expected), "{expected} in {found:?}");
    }
    assert_eq!(value_and_fuel("len(\"abc\") + len([]) + len(\"a{1}\") + len([1])").0, Ok("6".into()));
}

#[test]
fn pow_overflows_as_arithmetic_does_and_refuses_a_negative_exponent() {
    assert_eq!(value("pow(2, 10)"), Ok(1024));
    assert_eq!(value("pow(-3, 3)"), Ok(-27));
    assert_eq!(value("pow(7, 0)"), Ok(1));
    assert_eq!(value("pow(0, 0)"), Ok(1));
    assert_eq!(value("pow(2, 62)"), Ok(1 << 62));
    let e = value("pow(2, 63)").unwrap_err();
    assert_eq!(e, "arithmetic overflow or division by zero");
    // Exponents past 2^32: only -1, 0 and 1 have a value, -1's by its parity.
    assert_eq!(value("pow(-1, 10000000000)"), Ok(1));
    assert_eq!(value("pow(-1, 10000000001)"), Ok(-1));
    assert_eq!(value("pow(1, 10000000001)"), Ok(1));
    assert_eq!(value("pow(0, 10000000001)"), Ok(0));
    let e = value("pow(2, 10000000001)").unwrap_err();
    assert_eq!(e, "arithmetic overflow or division by zero");
    let e = value("pow(2, -1)").unwrap_err();
    assert!(e.contains("`pow` with the negative exponent -1"), "{e}");
}
