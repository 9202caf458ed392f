//! Syntax errors in the author's words: what was expected, where it was missing (after the
//! word a line ends in, when the next line cannot go on from it), and the fix of a common
//! mistake.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

const HEAD: &str = "game tiny\nplayers 2..2\nrule r \"x\"\naction go: int 0..1\nvar n = 0\nscores {}\nwinners []\n";

/// A rules file with one more declaration `decl` (line 8).
fn declaring(decl: &str) -> String {
    format!("{HEAD}{decl}\nflow {{\n  finish\n}}\n")
}

/// A rules file whose flow is `body` (from line 9, indented by two).
fn flowing(body: &str) -> String {
    format!("{HEAD}flow {{\n  {body}\n}}\n")
}

const STATEMENT: &str = "a statement (`let`, `require`, `if`, `for`, `choose`, an assignment, a call, ...)";
const DECLARATION: &str =
    "a declaration (`game`, `players`, `rule`, `card`, `action`, `var`, `fn`, `proc`, `flow`, ...)";

/// A syntax error as the author reads it: the message (after `syntax error: `), the line and
/// column the label starts at, the text it marks, the label, and the help.
#[derive(Debug, PartialEq)]
struct Seen {
    message: String,
    at: (usize, usize),
    marked: String,
    label: String,
    help: Option<String>,
}

fn seen(text: &str) -> Seen {
    let d = shinpan::lang::syntax::parse(text).err().unwrap_or_else(|| panic!("parses:\n{text}"));
    assert_eq!(d.code, shinpan::codes::SYNTAX);
    assert_eq!(d.labels.len(), 1, "{d:?}");
    let (span, label) = d.labels[0].clone();
    let line = text[..span.start].matches('\n').count() + 1;
    let column = span.start - text[..span.start].rfind('\n').map_or(0, |i| i + 1) + 1;
    Seen {
        message: d.message.strip_prefix("syntax error: ").unwrap_or_else(|| panic!("{}", d.message)).to_string(),
        at: (line, column),
        marked: text[span].to_string(),
        label,
        help: d.help,
    }
}

fn expect(message: &str, at: (usize, usize), marked: &str, label: &str, help: Option<&str>) -> Seen {
    Seen { message: message.into(), at, marked: marked.into(), label: label.into(), help: help.map(Into::into) }
}

/// What was expected, named as the author writes it.
#[test]
fn what_was_expected_is_named_in_the_author_s_words() {
    let here = |message: &str, at, marked: &str| expect(message, at, marked, "here", None);
    assert_eq!(seen(&declaring("var = 3")), here("expected a name", (8, 5), "="));
    assert_eq!(seen(&declaring("action pick int")), here("expected `:`", (8, 13), "i"));
    assert_eq!(seen(&declaring("rule \"x\"")), here("expected a rule id", (8, 6), "\""));
    assert_eq!(seen(&declaring("action pick: 3")), here("expected a type", (8, 14), "3"));
    assert_eq!(seen(&declaring("var m = )")), here("expected a value", (8, 9), ")"));
    let extends = "`extends NAME`, `extends path.rules`, or a path with blanks in quotes: `extends \"my rules.rules\"`";
    assert_eq!(
        seen("extends = x\n"),
        expect("expected a rules name or path or a string in quotes", (1, 9), "=", "here", Some(extends))
    );
    // A variant that changes a parameter must declare it again whole, its type included.
    let param = "a parameter is `param NAME: TYPE = DEFAULT`: `param hand_size: int 1..12 = 11`, or a default by player count: `= by players { 3: 5, 4: 6 }`";
    assert_eq!(seen("extends x\nparam hand_size = 10\n"), expect("expected `:`", (2, 17), "=", "here", Some(param)));
    // The default forgotten: `=` is not a word the parser names, so the help says it.
    assert_eq!(
        seen(&declaring("param n: int 0..1")),
        expect("expected `[`, `.` or an operator", (8, 17), "1", "expected after this", Some(param))
    );
    let players = "`players 4`, `players 3..5`, or the seats' names: `players N, E, S, W`";
    assert_eq!(
        seen("game tiny\nplayers = 3\n"),
        expect("expected a number or a name", (2, 9), "=", "here", Some(players))
    );
    // A string is not a word that goes on: the error is where the next word is.
    assert_eq!(seen(&declaring("rule q")), here("expected a string in quotes", (9, 1), "f"));
    // Statements, summed up; the names a statement may start with go with them.
    assert_eq!(seen(&flowing("2")), here(&format!("expected {STATEMENT} or `}}`"), (9, 3), "2"));
    assert_eq!(seen(&flowing("n = 1\n  2")), here(&format!("expected {STATEMENT}, `}}` or an operator"), (10, 3), "2"));
    assert_eq!(
        seen(&declaring("fn f(x) = x => 1")),
        here(&format!("expected {DECLARATION}, the end of the file or an operator"), (8, 13), "=")
    );
    assert_eq!(seen(&flowing("choose {\n    3\n  }")), here("expected `}`, a name or `otherwise`", (10, 5), "3"));
    // A name not followed by its argument: the branch it would start is named, where it starts.
    assert_eq!(
        seen(&flowing("choose {\n    go 3\n  }")),
        here("expected `}`, a branch (`ACTION(arg) by ACTORS { ... }`) or `otherwise`", (10, 5), "g")
    );
    assert_eq!(seen(&flowing("if n > 0 finish")), here("expected `{` or an operator", (9, 12), "f"));
    assert_eq!(seen(&flowing("if n > 0 {\n    finish\n  } else 3")), here("expected `{` or `if`", (11, 10), "3"));
}

/// A word or sign the line ends in that needs more: the error is right after it, not at the
/// next line's first word, and a comment after it does not count.
#[test]
fn what_a_line_ends_without_is_missing_after_its_last_word() {
    let after = |message: &str, at, marked: &str| expect(message, at, marked, "expected after this", None);
    assert_eq!(seen(&flowing("require n > 0 else")), after("expected a rule id", (9, 20), "e"));
    assert_eq!(seen(&flowing("n = n +")), after("expected a value", (9, 9), "+"));
    assert_eq!(seen(&flowing("n = n / 2 +")), after("expected a value", (9, 13), "+"));
    // A comment after the word, or on a line of its own.
    assert_eq!(seen(&flowing("n = n + // more")), after("expected a value", (9, 9), "+"));
    assert_eq!(seen(&flowing("n = n +\n  // more")), after("expected a value", (9, 9), "+"));
    assert_eq!(
        seen(&flowing("require n > 0 else r \"x\"\n  n = n + // more")),
        after("expected a value", (10, 9), "+")
    );
    // `//` in a string is no comment, nor is it after an escaped quote.
    assert_eq!(seen(&flowing("n = \"a//b\" +")), after("expected a value", (9, 14), "+"));
    assert_eq!(seen(&flowing("n = \"a\\\" // b\" +")), after("expected a value", (9, 18), "+"));
    // A string's hole is an expression: a quote in it opens a string of its own, and the
    // string goes on after the hole.
    assert_eq!(seen(&flowing("n = \"{\"\\\"\"}\" + // c")), after("expected a value", (9, 16), "+"));
    assert_eq!(seen(&flowing("n = \"{\"//\"}//\" +")), after("expected a value", (9, 18), "+"));
}

/// The common mistakes, each with its fix.
#[test]
fn a_common_mistake_comes_with_its_fix() {
    let require = Some("a check is `require CONDITION else RULE-ID \"message\"`");
    assert_eq!(
        seen(&flowing("require n < 1 == 2 else r \"x\"")),
        expect("expected an operator or `else`", (9, 17), "=", "here", require)
    );
    assert_eq!(
        seen(&flowing("require !(n == 1) else r \"x\"")),
        expect("the rules language writes `not`, not `!`", (9, 11), "!", "here", Some("write `not`"))
    );
    assert_eq!(
        seen(&declaring("fn f(x) = if x > 0 1 else 2")),
        expect(
            "expected an operator or `then`",
            (8, 20),
            "1",
            "here",
            Some("an `if` inside an expression is `if CONDITION then A else B`, both arms given")
        )
    );
    // `in` expected, with no `let` on the line: no word about `let`.
    assert_eq!(seen(&flowing("for p players {\n    finish\n  }")).help, None);
    // A `let` on the line, finished with its `in`, and something else missing: no word about `let`.
    assert_eq!(
        seen(&flowing("n = let y = 3 in y +")),
        expect("expected a value", (9, 22), "+", "expected after this", None)
    );
}

/// A bracket or string left open at the end of the file is named where it opens.
#[test]
fn what_is_never_closed_is_shown_where_it_opens() {
    let cases = [
        ("fn f(x) = (x + 1\n", "a `(` is never closed", (8, 11), "(", "add `)` where it ends"),
        ("fn f(x) = [x, 1\n", "a `[` is never closed", (8, 11), "[", "add `]` where it ends"),
        // A `/` that divides starts no comment; a bracket in a comment does not count.
        ("fn f(x) = x / (2\n", "a `(` is never closed", (8, 15), "(", "add `)` where it ends"),
        ("flow {\n  finish\n// (note\n", "a `{` is never closed", (8, 6), "{", "add `}` where it ends"),
        // An escaped quote does not close the string.
        (
            "flow {\n  require n > 0 else r \"a \\\" b\n",
            "a string is never closed",
            (9, 24),
            "\"",
            "end the string with `\"`",
        ),
    ];
    for (tail, message, at, marked, help) in cases {
        let label = if marked == "\"" { "a string's `\"` is never closed" } else { "this bracket is never closed" };
        assert_eq!(seen(&format!("{HEAD}{tail}")), expect(message, at, marked, label, Some(help)), "{tail}");
    }
}
