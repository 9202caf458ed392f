//! Text from a transcript, a record or a rules file cannot act on the judge's terminal or page:
//! on a terminal its controls are shown escaped (`\u{1b}`), in the verdicts, quoted source
//! lines, replays, explanations and messages; in the judge's page its data cannot end or
//! swallow the page's script.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;
use common::Scratch;

use std::path::Path;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use shinpan::diag::printable;

/// What a hostile log writes to a terminal: clear the screen, retitle the window, ring the
/// bell, go back to the start of the line and print a fake verdict, reverse what follows, and
/// a C1 CSI (U+009B) that starts a colour on terminals that take 8-bit controls.
const TERMINAL: &str = "\u{1b}[2J\u{1b}]0;owned\u{7}\rshinpan: legal\u{202e}desrever\u{9b}31m\u{2066}x\u{7f}";

/// What a hostile log writes to a page: an HTML comment opening before a script tag (which
/// makes `</script>` not end the element), the end of the element, and characters JSON keeps
/// raw that HTML or old scripts take as markup or line ends.
const PAGE: &str = "<!--<script></script><script>&amp;\u{2028}\u{2029}";

/// The same for a file's name, which holds no `/`.
const PAGE_NAME: &str = "<!--<script>&amp;\u{2028}";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shinpan"));
    c.current_dir(common::repo());
    c
}

/// Exit code and standard output and error together, as the terminal would show them.
fn run(c: &mut Command) -> (i32, String) {
    let out = c.stdin(Stdio::null()).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!text.contains("panicked") && !text.contains("internal error"), "{text}");
    (out.status.code().unwrap_or(-1), text)
}

/// A YAML double-quoted scalar holding `text` exactly (controls written as escapes, which is
/// how YAML lets a value hold them).
fn yaml_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => out.extend(['\\', c]),
            c if c.is_control() => out.push_str(&format!("\\U{:08x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A rules file whose name, rule text, rule message, note, card code and starting value all
/// carry `hostile` (a rules file's strings may hold any character as it is).
fn rules_text(hostile: &str) -> String {
    format!(
        r#"game hostile
players 2..2
rule boom "the rule's text {hostile}"
enum Kind {{ odd, even }}
card Thing(kind: Kind) {{
  "{hostile}" (Kind.odd)
  "plain" (Kind.even)
}}
action say: str
action play: Thing
var said = "{hostile}"
var played per player = []
view said, played
scores zip_map(players, [len(played[p]) for p in players])
winners []
flow {{
  loop {{
    choose {{
      say(s) by players[0] {{
        said = s
        note "noted {hostile} after {{s}}"
      }}
      play(c) by players[0] {{
        require c.kind == Kind.even else boom "{hostile} broken by {{c}} of {{players[0]}}"
        played[players[0]] += [c]
      }}
    }}
  }}
}}
"#
    )
}

/// A transcript that names `rules` and carries `hostile` in a said value, a card code, an
/// event's `note` and a comment, and breaks the rule at its last event. (A player's name is
/// a word; one that is not makes the transcript malformed, its name quoted in the message.)
fn transcript_text(rules: &str, hostile: &str, comment: &str) -> String {
    transcript_with_players(rules, hostile, comment, "aki", "aki")
}

fn transcript_with_players(rules: &str, hostile: &str, comment: &str, listed: &str, by: &str) -> String {
    let (listed, by, value) = (yaml_quoted(listed), yaml_quoted(by), yaml_quoted(hostile));
    format!(
        "# {comment}\nrules: {}\nplayers: [{listed}, ben]\nevents:\n  - {{by: {by}, say: {value}, note: {value}}}\n  # {comment}\n  - {{by: {by}, play: plain}}\n  - {{by: {by}, play: {value}}}\n",
        yaml_quoted(rules)
    )
}

/// Whether a character may reach a terminal as it is: no control but the line break, no
/// bidirectional control.
fn harmful(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn assert_printable(what: &str, text: &str) {
    let bad: Vec<(usize, char)> = text.char_indices().filter(|(_, c)| harmful(*c)).collect();
    assert!(bad.is_empty(), "{what}: raw controls {bad:?} in:\n{}", text.escape_debug());
}

/// Every command that shows a person text from a transcript or a rules file shows its
/// controls escaped: the verdicts and diagnostics of `check` (with their quoted source lines,
/// the file names in their headers, the state and the notes), `replay`, `explain`, `lint`,
/// `rules`, `fmt --check`'s diff, and the messages on standard error.
#[test]
fn a_terminal_is_shown_no_control_from_a_file() {
    let s = Scratch::new("terminal");
    // The rules file's name and its text, the transcript's name and its text all hostile.
    let rules = s.write(&format!("rules{TERMINAL}.rules"), &rules_text(TERMINAL));
    // A YAML comment may hold only printable characters: written raw, the controls make the
    // transcript malformed (a line the diagnostic quotes).
    let game = s.write(&format!("game{TERMINAL}.yaml"), &transcript_text(&rules, TERMINAL, "a comment"));
    let raw = s.write(&format!("raw{TERMINAL}.yaml"), &transcript_text(&rules, TERMINAL, TERMINAL));
    let broken = s.write("broken.yaml", &format!("players: [a, b]\nevents: [{TERMINAL}\n"));
    // A player's name, and an event's `by`, that are not names: quoted in the messages.
    let hostile_name = format!("aki{TERMINAL}");
    let named = s.write("named.yaml", &transcript_with_players(&rules, TERMINAL, "", &hostile_name, "aki"));
    let by = s.write("by.yaml", &transcript_with_players(&rules, TERMINAL, "", "aki", &hostile_name));
    // A rules file that does not compile, the bad line quoted; one laid out badly (fmt's diff).
    let bad_rules = s.write(&format!("bad{TERMINAL}.rules"), &format!("game bad\nplayers 2\n{TERMINAL} }}\n"));
    let messy =
        s.write(&format!("messy{TERMINAL}.rules"), &rules_text(TERMINAL).replace("players 2..2", "players   2..2"));

    let mut shown = vec![];
    let mut show = |what: &str, args: &[&str]| {
        let (code, text) = run(bin().args(args));
        shown.push((what.to_string(), code, text));
    };
    show("check", &["check", "--format", "human", &game, &raw, &broken, &named, &by]);
    show("check --all", &["check", "--all", "--format", "human", &game]);
    show("check --rules", &["check", "--format", "human", "--rules", &bad_rules, &game]);
    show("replay", &["replay", &game]);
    show("replay --all", &["replay", "--all", &game]);
    show("replay --at", &["replay", "--at", "0", &game]);
    show("replay of a malformed file", &["replay", &raw]);
    show("explain", &["explain", "boom", "--rules", &rules]);
    show("lint", &["lint", &rules, &bad_rules, &s.0.join(format!("none{TERMINAL}.rules")).display().to_string()]);
    show("rules", &["rules", &rules]);
    show("fmt --check", &["fmt", "--check", &messy, &bad_rules]);
    show("replay --at past the end", &["replay", "--at", "99", &game]);
    show("explain an unknown rule", &["explain", "no-such-rule", "--rules", &rules]);
    // Where random games ended: the rules file's line, comment and all.
    let ends = s.write(
        "ends.rules",
        &format!("game ends\nplayers 2..2\nscores zip_map(players, [0 for p in players])\nwinners []\nflow {{\n  finish // {TERMINAL}\n}}\n"),
    );
    show("play --stats", &["play", "--rules", &ends, "--stats", "--games", "2"]);

    for (what, code, text) in &shown {
        assert_printable(what, text);
        // The text is shown, escaped, not dropped.
        assert!(text.contains(r"\u{1b}[2J\u{1b}]0;owned\u{7}\u{d}shinpan: legal\u{202e}"), "{what} ({code}):\n{text}");
    }
    let text = |what: &str| &shown.iter().find(|(w, ..)| w == what).unwrap().2;
    // What each run had to show: the verdict, the broken rule's message, the note, the state.
    assert!(text("check").contains("illegal") && text("check").contains("malformed"), "{}", text("check"));
    assert!(text("check --all").contains(r"note: noted \u{1b}[2J"), "{}", text("check --all"));
    assert!(text("replay").contains(r"broken: \u{1b}[2J"), "{}", text("replay"));
    assert!(text("lint").contains("bad"), "{}", text("lint"));
}

/// A quoted source line keeps its label under the right text once its controls are escaped.
#[test]
fn a_label_points_at_its_text_after_the_escapes_before_it() {
    let source = "first\u{1b}line\nsecond \u{1b}[2J\u{202e} `target` \u{7}\n";
    let start = source.find("`target`").unwrap();
    let d = shinpan::diag::Diag::new("shinpan::test", "message \u{1b}[2J")
        .label(start..start + "`target`".len(), "here \u{7}")
        .in_source(&shinpan::diag::source("name\u{1b}.yaml", source));
    let shown = shinpan::diag::render_plain(&d);
    assert_printable("render_plain", &shown);
    let lines: Vec<&str> = shown.lines().collect();
    let quoted = lines.iter().position(|l| l.contains(r"second \u{1b}[2J\u{202e} `target`")).unwrap();
    let column = lines[quoted][..lines[quoted].find("`target`").unwrap()].chars().count();
    // The underline starts under the backquote and is as long as `target` with its quotes.
    let under: Vec<char> = lines[quoted + 1].chars().collect();
    let first = under.iter().position(|c| matches!(c, '─' | '┬' | '▲')).unwrap();
    let last = under.iter().rposition(|c| matches!(c, '─' | '┬' | '▲')).unwrap();
    assert_eq!((first, last + 1 - first), (column, "`target`".len()), "{shown}");
    assert!(shown.contains(r"name\u{1b}.yaml") && shown.contains(r"here \u{7}"), "{shown}");
}

/// The inverse of `printable`, to show that no two texts are shown alike: a run of
/// backslashes before `u{` is halved, and an odd one's last backslash starts an escape.
fn unescape(shown: &str) -> String {
    let mut out = String::new();
    let mut rest = shown;
    while let Some(c) = rest.chars().next() {
        if c != '\\' {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let run = rest.len() - rest.trim_start_matches('\\').len();
        let after = &rest[run..];
        if !after.starts_with("u{") {
            out.push_str(&rest[..run]);
            rest = after;
            continue;
        }
        out.push_str(&"\\".repeat(run / 2));
        if run.is_multiple_of(2) {
            rest = after;
            continue;
        }
        let close = after.find('}').unwrap();
        out.push(char::from_u32(u32::from_str_radix(&after[2..close], 16).unwrap()).unwrap());
        rest = &after[close + 1..];
    }
    out
}

fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        Just('\\'),
        Just('u'),
        Just('{'),
        Just('}'),
        Just('1'),
        Just('b'),
        Just('\n'),
        Just('\r'),
        Just('\t'),
        (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap()),
        (0x7fu32..0xa0).prop_map(|c| char::from_u32(c).unwrap()),
        prop::sample::select(vec!['\u{61c}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}']),
        any::<char>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Shown text holds no control but a line break (`\n`, `\r\n`) and a tab, no bidi control,
    /// and it can be read back: two texts are never shown alike.
    #[test]
    fn printable_text_holds_no_control_and_can_be_read_back(chars in prop::collection::vec(tricky_char(), 0..40)) {
        let text: String = chars.into_iter().collect();
        let shown = printable(&text);
        for (i, c) in shown.char_indices() {
            let line_end = c == '\r' && shown[i + 1..].starts_with('\n');
            prop_assert!(!harmful(c) || c == '\t' || line_end, "{:?} shown as {:?}", text, shown);
        }
        prop_assert_eq!(unescape(&shown), text.clone());
        // Text with nothing to escape is shown as it is.
        if !text.chars().any(harmful) && !text.contains("\\u{") {
            prop_assert_eq!(shown.as_ref(), text.as_str());
        }
    }
}

// ---------------------------------------------------------------- the judge's page

fn root() -> &'static Path {
    Path::new(common::repo())
}

/// The page of the hostile game, every field a transcript or rules file fills carrying
/// `PAGE` (the file names `PAGE_NAME`), written under target/page/ for the browser.
fn hostile_page(s: &Scratch) -> (String, shinpan::report::check::Report) {
    let rules = s.write(&format!("rules{PAGE_NAME}.rules"), &rules_text(PAGE));
    let game = s.write(&format!("game{PAGE_NAME}.yaml"), &transcript_text(&rules, PAGE, PAGE));
    let mut checker = shinpan::report::check::Checker::new(None);
    checker.record_states = true;
    let report = checker.check_path(Path::new(&game));
    assert_eq!(report.verdict, shinpan::Verdict::Illegal, "{:?}", report.errors);
    (shinpan::report::page::page(&report).unwrap(), report)
}

const DATA_OPEN: &str = r#"<script id="data" type="application/json">"#;

/// The page's data block holds no `<`, `>`, `&`, U+2028 or U+2029 of its own, ends at the
/// first `</script>` after it, and reads back as the data every field was given.
#[test]
fn a_page_s_data_cannot_end_or_swallow_its_script() {
    let s = Scratch::new("page");
    let (page, report) = hostile_page(&s);
    let start = page.find(DATA_OPEN).unwrap() + DATA_OPEN.len();
    let len = page[start..].find("</script>").unwrap();
    let data = &page[start..start + len];
    for raw in ['<', '>', '&', '\u{2028}', '\u{2029}'] {
        assert!(!data.contains(raw), "{raw:?} in the data block");
    }
    // After the data, the page's own script and nothing else: two script elements in all.
    let after = &page[start + len..];
    assert!(after.starts_with("</script>\n<script>\n\"use strict\";"), "{}", &after[..80.min(after.len())]);
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(page.matches("</script>").count(), 2);
    // The data reads back: every field with what the files gave it.
    let data: serde_json::Value = serde_json::from_str(data).unwrap();
    let has = |v: &serde_json::Value, what: &str, want: &str| {
        assert!(v.as_str().is_some_and(|t| t.contains(want)), "{what}: {v}");
    };
    has(&data["file"], "file", PAGE_NAME);
    // The rules' name is the `game` word of the rules file; its file's name is under `where`.
    assert_eq!(data["rules"], "hostile");
    assert_eq!(data["file"], report.file.as_str());
    assert!(data["cards"].as_object().unwrap().contains_key(PAGE), "cards: {}", data["cards"]);
    let steps = data["steps"].as_array().unwrap();
    has(&steps[0]["written"], "an event as written, its note", PAGE);
    has(&steps[0]["state"]["said"], "a value", PAGE);
    let broken = steps.iter().find(|s| !s["violations"].as_array().unwrap().is_empty()).unwrap();
    let v = &broken["violations"][0];
    has(&v["message"], "a rule's message", PAGE);
    has(&v["rule_text"], "a rule's text", PAGE);
    has(&v["rule_line"], "the rules file's line", PAGE);
    has(&v["where"], "the rules file's name", PAGE_NAME);
    has(&broken["written"], "the broken event as written, its card", PAGE);
    has(&broken["state"]["said"], "a value in the state before it", PAGE);
}

/// In a real browser, the hostile page shows its verdict, the title, the violation and the
/// hostile text as text (no element made of it, no script run from it).
#[test]
fn a_hostile_page_shows_its_verdict_in_a_real_browser() {
    let driver = root().join("tests/browser");
    if !common::browser_ready() {
        return;
    }
    let s = Scratch::new("page-browser");
    let (page, _) = hostile_page(&s);
    let dir = root().join("target/page");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hostile.html");
    std::fs::write(&path, &page).unwrap();
    let _ = std::fs::remove_file(dir.join("hostile.png"));
    let out =
        Command::new("node").arg(driver.join("check-hostile.mjs")).arg(&path).env("HOSTILE", PAGE).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("hostile.png").exists(), "no screenshot of the hostile page");
}

/// A line break in a file's name (a walked folder's file may be named anything) cannot print
/// a summary line of its own: each verdict is one line, its name's break escaped.
#[test]
fn a_file_name_cannot_forge_a_verdict_line() {
    let s = Scratch::new("forged-name");
    let legal = std::fs::read_to_string(root().join("fixtures/hangover/legal-annotated.yaml")).unwrap();
    let forged = "a.yaml: legal (finished, scores: aki 99, winners: aki)\nzz.yaml";
    s.write(forged, &legal);
    let (code, out) = run(bin().args(["check", "--format", "human"]).arg(&s.0));
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains("a.yaml: legal (finished, scores: aki 99, winners: aki)\\u{a}zz.yaml: legal"), "{out}");
    assert_eq!(shinpan::diag::printable_line("a\tb\r\nc"), "a\\u{9}b\\u{d}\\u{a}c");
    assert_eq!(shinpan::diag::printable_line("plain.yaml"), "plain.yaml");
}
