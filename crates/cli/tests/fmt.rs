//! `shinpan fmt`: on every rules text the project holds (the built-in specs, the `rules`
//! blocks of docs/language.md, the parseable fixtures), formatting is idempotent, keeps the
//! program (the same syntax tree, spans aside) and keeps every comment in order; a messy
//! file formats to a known layout; the command line rewrites, checks and reports.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use shinpan::lang::fmt::{WIDTH, format_source, without_spans};
use shinpan::lang::syntax::parse;

fn root() -> PathBuf {
    PathBuf::from(common::repo())
}

/// Every rules text to format, with a name for messages.
fn corpus() -> Vec<(String, String)> {
    let mut texts = vec![];
    for dir in ["specs", "fixtures/spec", "fixtures/variants"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let name = path.to_string_lossy().into_owned();
            if name.ends_with(".rules") || name.ends_with(".rules.ok") {
                texts.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let doc = std::fs::read_to_string(root().join("docs/language.md")).unwrap();
    for (i, block) in doc.split("```rules\n").skip(1).enumerate() {
        texts.push((format!("docs/language.md block {i}"), block.split("```").next().unwrap().to_string()));
    }
    texts
}

/// The texts that parse, each with its formatted text. A text that does not parse must fail
/// to format with its syntax diagnostic, and no other.
fn formatted_corpus() -> &'static [(String, String, String)] {
    static CORPUS: std::sync::OnceLock<Vec<(String, String, String)>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(format_corpus)
}

fn format_corpus() -> Vec<(String, String, String)> {
    let mut out = vec![];
    for (name, text) in corpus() {
        match (parse(&text), format_source(&text)) {
            (Ok(_), Ok(formatted)) => out.push((name, text, formatted)),
            (Err(d), Err(ds)) => assert_eq!(ds[0].code, d.code, "{name}"),
            (Ok(_), Err(ds)) => panic!("{name} parses but does not format: {}", ds[0].message),
            (Err(_), Ok(_)) => panic!("{name} does not parse but formats"),
        }
    }
    assert!(out.len() > 60, "only {} texts to format", out.len());
    out
}

/// The comments of a rules text, in order: `//` to the end of the line, outside strings.
fn comments(text: &str) -> Vec<String> {
    let mut found = vec![];
    let mut in_string = false;
    let mut chars = text.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        match ch {
            '\\' if in_string => {
                chars.next();
            }
            '"' => in_string = !in_string,
            '/' if !in_string && text[at..].starts_with("//") => {
                let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
                found.push(text[at..end].trim_end().to_string());
                while chars.next_if(|(i, _)| *i < end).is_some() {}
            }
            _ => {}
        }
    }
    found
}

#[test]
fn formatting_twice_gives_the_same_text() {
    for (name, _, formatted) in formatted_corpus() {
        let again = format_source(formatted).unwrap();
        assert_eq!(&again, formatted, "{name} changes when formatted again");
    }
}

#[test]
fn the_formatted_program_is_the_same_program() {
    // The comparison forgets where things were written, and nothing else: not a range
    // written in a string, not a number.
    assert_eq!(
        without_spans(r#"Require { span: 3..15, text: "cards 1..9 \"2..8\"", n: 10 }"#),
        r#"Require { span: _, text: "cards 1..9 \"2..8\"", n: 10 }"#
    );
    assert_ne!(without_spans(r#"Text("cards 1..9")"#), without_spans(r#"Text("cards 2..8")"#));
    for (name, text, formatted) in formatted_corpus() {
        let before = without_spans(&format!("{:?}", parse(text).unwrap()));
        let after = without_spans(&format!("{:?}", parse(formatted).unwrap()));
        assert_eq!(before, after, "{name} means something else once formatted");
    }
}

#[test]
fn every_comment_stays_in_order() {
    for (name, text, formatted) in formatted_corpus() {
        assert_eq!(comments(text), comments(formatted), "{name}");
    }
}

#[test]
fn lines_fit_the_width_unless_one_token_is_longer() {
    for (name, _, formatted) in formatted_corpus() {
        for line in formatted.lines() {
            // A long string or comment cannot be broken; anything else can.
            let breakable = !line.contains('"') && !line.contains("//");
            assert!(!breakable || line.chars().count() <= WIDTH, "{name}: {line}");
            assert_eq!(line, line.trim_end(), "{name}: a blank at the end of `{line}`");
        }
        assert!(!formatted.contains("\n\n\n"), "{name}: two blank lines in a row");
    }
}

#[test]
fn spans_are_what_the_comparison_leaves_out() {
    let a = without_spans(&format!("{:?}", parse("game g\nvar x = 1").unwrap()));
    let b = without_spans(&format!("{:?}", parse("game   g\n\n\nvar x   =   1").unwrap()));
    let c = without_spans(&format!("{:?}", parse("game g\nvar x = 2").unwrap()));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Every construct written carelessly: blanks, indentation, line breaks, trailing commas,
/// comments at the end of lines and on lines of their own, long lines.
const MESSY: &str = r#"// A messy rules file.
game   messy
players 2..4
rule  too-big   "a number is too big"   stands
rule other "another rule, with a long text that nobody would break because strings stay whole"


param n:int 1..=by players{2:3,3:4,4:5}
param top: int 0..  =  10
enum Color{Red,Green,  Blue,}
card Chip(color:Color,value:int 1..9){
each color in Color,value in range(1,9)
code color++value // the code
  "X" ( Color.Red , 1 )
}
action take:{card:Chip,  note?:str}|null
var total per player=0
var seen=[ ]
var empty = { // nothing yet
}
fn big(x)=x>n*2 or x>top and not(x<0)
fn pick(a,b) = if a>b then a else if a==b then 0 else b
fn long_one(xs) = [x.value * 2 + n for x in xs where x.value > top and x.value < 100 and x.color != Color.Blue]
view total,seen
flow{
  // the only phase
  loop{
    choose{
      take(t) by players when total[players[0]] < 100 and len(seen) < 1000 choices [{card: c} for c in Chip] {
require t == null or t.card.value<=n else too-big "{t.card} is more than {n}"
        if t!=null{ total[players[0]]+=t.card.value
        seen=seen+[t.card]}else{ break }
      }
      take(t) by table { // a comment, and nothing else
      }
      otherwise{
        // nothing to do
      }
    }
    if total[players[0]] > 10 { finish now }   // done
  }
}
"#;

#[test]
fn a_messy_file_gets_the_canonical_layout() {
    let formatted = format_source(MESSY).unwrap();
    insta::assert_snapshot!(formatted);
    assert_eq!(format_source(&formatted).unwrap(), formatted);
}

#[test]
fn a_file_that_does_not_parse_gives_its_syntax_error() {
    let diags = format_source("game g\nvar x = (1 +\n").unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, "shinpan::spec::syntax");
}

#[test]
fn an_empty_file_and_a_file_of_comments_stay() {
    assert_eq!(format_source("").unwrap(), "");
    assert_eq!(format_source("\n\n").unwrap(), "");
    assert_eq!(
        format_source("  // only a comment  \n\n\n// and another\n").unwrap(),
        "// only a comment\n\n// and another\n"
    );
}

// ---------------------------------------------------------------- the command line

fn shinpan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shinpan")).args(args).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shinpan-fmt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn check_on_a_formatted_file_says_nothing_and_exits_0() {
    let dir = scratch("clean");
    let file = dir.join("clean.rules");
    std::fs::write(&file, format_source(MESSY).unwrap()).unwrap();
    let (clean_code, clean_out, clean_err) = shinpan(&["fmt", "--check", path(&file)]);
    assert_eq!((clean_code, clean_out.as_str(), clean_err.as_str()), (0, "", ""));
    // The shipped specs are formatted.
    let (code, out, err) = shinpan(&["fmt", "--check", path(&root().join("specs"))]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn check_on_an_unformatted_file_prints_a_diff_and_exits_1() {
    let dir = scratch("check");
    let file = dir.join("messy.rules");
    std::fs::write(&file, MESSY).unwrap();
    let (code, out, err) = shinpan(&["fmt", "--check", path(&dir)]);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with(&format!("--- {}\n+++ {}\n@@ ", path(&file), path(&file))), "{out}");
    assert!(out.contains("\n-game   messy\n+game messy\n"), "{out}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), MESSY, "--check rewrote the file");
}

#[test]
fn fmt_rewrites_in_place_and_a_broken_file_does_not_stop_the_others() {
    let dir = scratch("rewrite");
    let messy = dir.join("a-messy.rules");
    let broken = dir.join("b-broken.rules");
    let other = dir.join("c-other.rules");
    std::fs::write(&messy, MESSY).unwrap();
    std::fs::write(&broken, "game g\nvar x = [1,\n").unwrap();
    std::fs::write(&other, "game   other\n").unwrap();
    let (code, out, err) = shinpan(&["fmt", path(&dir)]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(err.contains("shinpan::spec::syntax") && err.contains("b-broken.rules"), "{err}");
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), format_source(MESSY).unwrap());
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "game other\n");
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "game g\nvar x = [1,\n");
    let (code, out, _) = shinpan(&["fmt", "--check", path(&messy), path(&other)]);
    assert_eq!((code, out.as_str()), (0, ""));
}
