//! Transcripts are YAML 1.2: every plain scalar resolves as the core schema says, for keys
//! and values, in block and flow mappings and lists. Quoted scalars are always strings.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use shinpan::transcript::{Yaml, parse_value};

fn s(text: &str) -> Yaml {
    Yaml::Str(text.into())
}

/// The tricky plain scalars and what the core schema makes of them.
fn table() -> Vec<(&'static str, Yaml)> {
    vec![
        ("y", s("y")),
        ("Y", s("Y")),
        ("n", s("n")),
        ("N", s("N")),
        ("yes", s("yes")),
        ("no", s("no")),
        ("on", s("on")),
        ("off", s("off")),
        ("E", s("E")),
        ("W", s("W")),
        ("~", Yaml::Null),
        ("null", Yaml::Null),
        ("Null", Yaml::Null),
        ("NULL", Yaml::Null),
        ("nULL", s("nULL")),
        ("true", Yaml::Bool(true)),
        ("True", Yaml::Bool(true)),
        ("TRUE", Yaml::Bool(true)),
        ("tRUE", s("tRUE")),
        ("false", Yaml::Bool(false)),
        ("FALSE", Yaml::Bool(false)),
        ("0777", Yaml::Int(777)),
        ("0o17", Yaml::Int(15)),
        ("0o8", s("0o8")),
        ("0x1F", Yaml::Int(31)),
        ("0x", s("0x")),
        ("0b101", s("0b101")),
        ("1_000", s("1_000")),
        ("+1", Yaml::Int(1)),
        ("-0", Yaml::Int(0)),
        ("-17", Yaml::Int(-17)),
        ("9223372036854775807", Yaml::Int(i64::MAX)),
        ("-9223372036854775808", Yaml::Int(i64::MIN)),
        (".5", Yaml::Float(0.5)),
        ("1.", Yaml::Float(1.0)),
        ("1e3", Yaml::Float(1000.0)),
        ("-1.5e-3", Yaml::Float(-0.0015)),
        ("1e", s("1e")),
        (".", s(".")),
        ("1.x", s("1.x")),
        ("x.5", s("x.5")),
        ("1.5.5", s("1.5.5")),
        ("1_0.5", s("1_0.5")),
        ("inf.5", s("inf.5")),
        ("+-1.5", s("+-1.5")),
        ("nan", s("nan")),
        ("infinity", s("infinity")),
        // Words Rust's float parse would take after a sign: strings in YAML 1.2.
        ("+inf", s("+inf")),
        ("-infinity", s("-infinity")),
        ("+nan", s("+nan")),
        ("+.inf", Yaml::Float(f64::INFINITY)),
        ("-.Inf", Yaml::Float(f64::NEG_INFINITY)),
        ("12:30", s("12:30")),
        ("2001-12-14", s("2001-12-14")),
        ("B1", s("B1")),
        ("R3^", s("R3^")),
        ("10", Yaml::Int(10)),
    ]
}

/// Reads `template` with `X` replaced by the scalar, and digs the scalar out with `pick`.
fn each_place(scalar: &str) -> Vec<(String, Yaml)> {
    let docs = [
        format!("k: {scalar}\n"),
        format!("{scalar}: v\n"),
        format!("- {scalar}\n"),
        format!("[{scalar}]\n"),
        format!("{{k: {scalar}}}\n"),
        format!("{{{scalar}: v}}\n"),
        format!("outer:\n  - [a, {scalar}]\n"),
    ];
    docs.into_iter()
        .map(|doc| {
            let y = parse_value(&doc).unwrap_or_else(|e| panic!("{doc:?}: {}", e.message));
            let got = match &y {
                Yaml::Map(m) if m[0].0 == s("k") => m[0].1.clone(),
                Yaml::Map(m) if m[0].0 == s("outer") => match &m[0].1 {
                    Yaml::Seq(items) => match &items[0] {
                        Yaml::Seq(pair) => pair[1].clone(),
                        other => other.clone(),
                    },
                    other => other.clone(),
                },
                Yaml::Map(m) => m[0].0.clone(),
                Yaml::Seq(items) => items[0].clone(),
                other => other.clone(),
            };
            (doc, got)
        })
        .collect()
}

#[test]
fn plain_scalars_resolve_by_the_core_schema_everywhere() {
    let mut wrong = vec![];
    for (scalar, want) in table() {
        for (doc, got) in each_place(scalar) {
            if got != want {
                wrong.push(format!("{doc:?}: expected {want:?}, got {got:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn nan_is_a_float() {
    for text in [".nan", ".NaN", ".NAN"] {
        let Yaml::Seq(items) = parse_value(&format!("[{text}]")).unwrap() else { panic!() };
        assert!(matches!(items[0], Yaml::Float(f) if f.is_nan()), "{text}");
    }
}

#[test]
fn quoted_scalars_are_strings() {
    for text in ["'y'", "\"N\"", "'0777'", "\"true\"", "'~'", "\"12\"", "!!str 12", "! 12"] {
        let Yaml::Seq(items) = parse_value(&format!("[{text}]")).unwrap() else { panic!() };
        assert!(matches!(&items[0], Yaml::Str(_)), "{text}: {:?}", items[0]);
    }
}

#[test]
fn tags_force_a_type_or_are_refused() {
    assert_eq!(parse_value("!!int \"12\"").unwrap(), Yaml::Int(12));
    assert_eq!(parse_value("!!float 1").unwrap(), Yaml::Float(1.0));
    assert_eq!(parse_value("!!bool True").unwrap(), Yaml::Bool(true));
    assert!(parse_value("!!int yes").unwrap_err().message.contains("does not fit its tag"));
    assert!(parse_value("!custom 1").unwrap_err().message.contains("unsupported tag `!custom`"));
}

#[test]
fn a_bridge_table_and_single_letter_keys_are_read_as_written() {
    let text = "rules: hangover\nplayers: [N, E, S, W]\nvariant: {subcolors: {Y: [a], N: [b]}}\nevents: []\n";
    let raw = shinpan::transcript::read(text).unwrap();
    let players = raw.players.unwrap();
    assert_eq!(players.value, Yaml::Seq(vec![s("N"), s("E"), s("S"), s("W")]));
    assert_eq!(players.line, 2);
    let variant = raw.variant.unwrap().value;
    assert_eq!(variant.get("subcolors").unwrap().get("Y"), Some(&Yaml::Seq(vec![s("a")])));
    assert_eq!(variant.get("subcolors").unwrap().get("N"), Some(&Yaml::Seq(vec![s("b")])));
}

#[test]
fn reading_errors_speak_to_the_person_holding_the_file() {
    let cases = [
        ("k: 1\nk: 2\n", "the key `k` is given twice", Some(2)),
        ("a: 1\n---\nb: 2\n", "more than one YAML document", Some(2)),
        ("rules: [unclosed\n", "invalid YAML", None),
        ("x: *nowhere\n", "unknown anchor", Some(1)),
    ];
    for (text, words, line) in cases {
        let e = shinpan::transcript::read(text).unwrap_err();
        assert!(e.message.contains(words), "{text:?}: {}", e.message);
        for internal in ["DuplicateKeyPolicy", "from_str_multiple", "budget", "Options"] {
            assert!(!e.message.contains(internal), "{text:?}: {}", e.message);
        }
        if let Some(line) = line {
            assert_eq!(e.line, Some(line), "{text:?}");
        }
    }
}

#[test]
fn a_key_given_twice_is_found_in_a_large_mapping() {
    let keys: Vec<String> = (0..100).map(|i| format!("k{i}: {i}")).collect();
    assert!(parse_value(&format!("{{{}}}", keys.join(", "))).is_ok());
    let mut twice = keys.clone();
    twice.push("k37: 0".into());
    let e = parse_value(&format!("{{{}}}", twice.join(", "))).unwrap_err().message;
    assert!(e.contains("the key `k37` is given twice"), "{e}");
}

#[test]
fn a_huge_number_is_not_echoed_in_full() {
    let digits = "9".repeat(5000);
    let text = format!("rules: hangover\nplayers: [a, b, c]\nevents:\n  - {{by: a, {digits}: 1}}\n");
    let report = shinpan::report::check::Checker::new(None).check_text("big.yaml", text, std::path::Path::new("."));
    let line = shinpan::report::render::json_line(&report);
    assert!(line.contains("\"malformed\""), "{line}");
    assert!(line.len() < 1000, "{line}");
}

#[test]
fn limits_on_size_and_nesting_are_errors() {
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let e = parse_value(&deep).unwrap_err().message;
    assert!(e.contains("nest"), "{e}");
    let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
    assert!(parse_value(bomb).unwrap_err().message.contains("values"));
    // Values are counted exactly, an alias as often as the values it stands for: a list of
    // 1,000 values aliased 1,998 times, and filler, make 2,000,000 values, then one more.
    let list = format!("[{}]", vec!["x"; 999].join(", "));
    assert!(parse_value(&aliased(&list, 1998, 996)).is_ok());
    let e = parse_value(&aliased(&list, 1998, 997)).unwrap_err().message;
    assert!(e.contains("more than 2000000 values"), "{e}");
    // An aliased mapping counts itself, its keys and its values: {x: [999 values], y: 1} is
    // 1 + (1 + 1000) + (1 + 1) = 1004 values a use; 1990 uses and filler make 2,000,000.
    let map = format!("{{x: {list}, y: 1}}");
    assert!(parse_value(&aliased(&map, 1990, 1032)).is_ok());
    let e = parse_value(&aliased(&map, 1990, 1033)).unwrap_err().message;
    assert!(e.contains("more than 2000000 values"), "{e}");
    // Aliases are counted one by one: the limit itself is fine, one more is not.
    let aliases = |n: usize| format!("a: &a 1\nb: [{}]\n", vec!["*a"; n].join(", "));
    assert!(parse_value(&aliases(shinpan::Limits::DEFAULT.transcript_aliases)).is_ok());
    let e = parse_value(&aliases(shinpan::Limits::DEFAULT.transcript_aliases + 1)).unwrap_err().message;
    assert!(e.contains("more than 10000 aliases"), "{e}");
}

/// A document that anchors `value` as `a`, then lists `uses` aliases of it and `filler` scalars.
fn aliased(value: &str, uses: usize, filler: usize) -> String {
    let uses = vec!["*a"; uses].join(", ");
    let filler = vec!["y"; filler].join(", ");
    format!("a: &a {value}\nb: [{uses}, {filler}]\n")
}

/// A transcript written as JSON has the YAML reader's limit on values: well under it, JSON is
/// read; past it, the transcript is refused in the same words, whichever reader reads it.
#[test]
fn json_transcripts_have_the_same_limit_on_values() {
    let with_zeros = |n: usize| {
        format!(
            "{{\"rules\": \"hangover\", \"players\": [\"a\", \"b\", \"c\"], \"events\": [], \"x\": [{}]}}",
            vec!["0"; n].join(",")
        )
    };
    assert!(shinpan::transcript::read(&with_zeros(1_999_000)).is_ok());
    let limit = shinpan::Limits::DEFAULT.transcript_values;
    let Err(e) = shinpan::transcript::read(&with_zeros(limit + 1)) else { panic!("read past the limit") };
    assert!(e.message.contains("more than 2000000 values"), "{}", e.message);
}
