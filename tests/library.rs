//! The library's front door, `shinpan::Rules`: one value shared by threads, each checking with
//! rules it compiled once, and the same verdicts as the command line's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use shinpan::{Rules, Verdict};

fn fixtures(game: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(game);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    paths
}

fn shared<T: Send + Sync + Clone>(_: &T) {}

/// Four threads share one `Rules` and give, file by file, the verdict one thread gives.
#[test]
fn threads_share_one_rules_and_agree_with_one_thread() {
    let rules = Rules::new("hangover").unwrap();
    shared(&rules);
    let paths = fixtures("hangover");
    assert!(paths.len() > 20);
    let alone: Vec<serde_json::Value> = paths.iter().map(|p| rules.check_path(p).json()).collect();
    let verdicts: Vec<&str> = alone.iter().map(|j| j["verdict"].as_str().unwrap()).collect();
    assert!(verdicts.contains(&"legal") && verdicts.contains(&"illegal"), "{verdicts:?}");
    let together: Vec<serde_json::Value> = std::thread::scope(|s| {
        let workers: Vec<_> = paths
            .chunks(paths.len().div_ceil(4))
            .map(|chunk| {
                let rules = &rules;
                s.spawn(move || chunk.iter().map(|p| rules.check_path(p).json()).collect::<Vec<_>>())
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    assert_eq!(together, alone);
}

/// The library's verdict is the command line's JSON line, for every kind of verdict.
#[test]
fn the_json_is_the_contracts() {
    for path in fixtures("hangover").iter().chain(&fixtures("malformed")) {
        let rules = Rules::new("hangover").unwrap();
        let mut checker = shinpan::report::check::Checker::new(Some("hangover".into()));
        let expected: serde_json::Value =
            serde_json::from_str(&shinpan::report::render::json_line(&checker.check_path(path))).unwrap();
        assert_eq!(rules.check_path(path).json(), expected, "{}", path.display());
    }
}

/// Text, a path and parsed JSON are the same transcript; a transcript that is not one is a
/// malformed verdict, never an error of use.
#[test]
fn text_path_and_value_agree() {
    let rules = Rules::new("hangover").unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hangover/must-follow.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let value = shinpan::transcript::parse_value(&text).unwrap().to_json();
    let (a, b, c) = (rules.check_text("t", &text), rules.check_path(&path), rules.check_value("t", &value));
    assert_eq!((a.verdict, b.verdict, c.verdict), (Verdict::Illegal, Verdict::Illegal, Verdict::Illegal));
    let event = |r: &shinpan::Report| (r.violations[0].rule.clone(), r.violations[0].event);
    assert_eq!(event(&a), event(&b));
    assert_eq!(event(&a), event(&c));
    assert_eq!(rules.check_text("t", "events: [").verdict, Verdict::Malformed);
}

/// Parameters are checked when given; rules that cannot be used are errors with a code.
#[test]
fn errors_of_use() {
    let nine = Rules::new("hangover").unwrap().with_variant("hand_size", "9").unwrap();
    let played = nine.play(3, 1).unwrap();
    assert!(played.contains("variant: {\"hand_size\":9}"), "{played}");
    assert_eq!(nine.check_text("played", &played).verdict, Verdict::Legal);
    // The last value given for a name counts.
    let again = nine.with_variant("hand_size", "7").unwrap().play(3, 1).unwrap();
    assert!(again.contains("variant: {\"hand_size\":7}"), "{again}");
    let out_of_range = Rules::new("hangover").unwrap().with_variant("hand_size", "99").unwrap_err();
    assert_eq!(out_of_range.code, shinpan::codes::USAGE);
    let bad_yaml = Rules::new("hangover").unwrap().with_variant("hand_size", "[").unwrap_err();
    assert!(bad_yaml.message.starts_with("the value of `hand_size`"), "{bad_yaml}");
    let broken = Rules::new("fixtures/spec/unknown-name_1.rules");
    let broken = broken.unwrap_err();
    assert_eq!(broken.code, shinpan::codes::UNKNOWN_NAME);
    assert!(broken.to_string().contains("unknown-name_1.rules"), "{broken}");
    assert_eq!(Rules::new("no-such.rules").unwrap_err().code, shinpan::codes::USAGE);
    assert_eq!(Rules::new("bridge").unwrap().play(3, 1).unwrap_err().code, shinpan::codes::USAGE);
    assert_eq!(Rules::new("bridge").unwrap().game().unwrap(), "bridge");
}

/// Rules given as text judge as the same rules named: a designer's variant need not be a file.
#[test]
fn rules_given_as_text_judge_as_named_ones() {
    let text = shinpan::lang::specs::builtin("hangover").unwrap();
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inline = Rules::from_text("my-hangover.rules", text, base).unwrap();
    let named = Rules::new("hangover").unwrap();
    let judged = |r: &shinpan::Report| {
        let j = r.json();
        (
            j["verdict"].clone(),
            j["violations"].as_array().map(|v| v.iter().map(|x| x["rule"].clone()).collect::<Vec<_>>()),
            j["scores"].clone(),
        )
    };
    for path in fixtures("hangover") {
        assert_eq!(judged(&inline.check_path(&path)), judged(&named.check_path(&path)), "{}", path.display());
    }
    // A changed text is other rules, even under the same label.
    let renamed = text.replace("must-follow", "follow-suit");
    let other = Rules::from_text("my-hangover.rules", &renamed, base).unwrap();
    let revoke = base.join("fixtures/hangover/must-follow.yaml");
    assert_eq!(other.check_path(&revoke).violations[0].rule, "follow-suit");
    assert_eq!(inline.check_path(&revoke).violations[0].rule, "must-follow");
    let played = inline.with_variant("hand_size", "4").unwrap().play(3, 9).unwrap();
    assert!(played.starts_with("rules: \"my-hangover.rules\""), "{played}");
    let broken = Rules::from_text("broken.rules", "game g\nplayers 2\nflow {", base).unwrap_err();
    assert_eq!(broken.code, shinpan::codes::SYNTAX);
    assert!(broken.to_string().contains("broken.rules"), "{broken}");
}

/// One checker judges a corpus and works each set of defaults out once: every transcript
/// still gets the defaults of its own players (how many, and their names) and its own
/// variant, whatever the transcripts before it gave.
#[test]
fn each_transcript_gets_the_defaults_of_its_own_players_and_variant() {
    let rules = r#"
game defaults-demo
players 2..3
rule banner "the banner is the default's"
rule stake "the stake is the parameter's"
param stake: int 0.. = by players { 2: 10, 3: 20 }
param banner: str = "{players[0]} deals {stake}"
action say: str
action bet: int
scores zip_map(players, [stake for p in players])
winners []
flow {
  choose { say(x) by table { require x == banner else banner "the banner is {banner}" } }
  choose { bet(x) by table { require x == stake else stake "the stake is {stake}" } }
}
"#;
    let mut checker = shinpan::report::check::Checker::with_rules_text("demo.rules", rules, Path::new("."));
    let cases = [
        ("[aki, ben]", "", "aki deals 10", 10),
        ("[aki, ben]", "variant: {stake: 5}\n", "aki deals 5", 5),
        ("[aki, ben]", "", "aki deals 10", 10),
        ("[aki, ben, cho]", "", "aki deals 20", 20),
        ("[cho, dai]", "", "cho deals 10", 10),
        ("[aki, ben]", "variant: {banner: hello}\n", "hello", 10),
        ("[aki, ben]", "variant: null\n", "aki deals 10", 10),
    ];
    for (i, (players, variant, banner, stake)) in cases.into_iter().enumerate() {
        let text = format!(
            "players: {players}\n{variant}events:\n  - {{by: table, say: \"{banner}\"}}\n  - {{by: table, bet: {stake}}}\n"
        );
        let report = checker.check_text(&format!("case-{i}.yaml"), text, Path::new("."));
        assert_eq!(report.verdict, Verdict::Legal, "case {i}: {}", report.json());
        // And the same transcript with the other defaults breaks the rule that reads them.
        let other = if stake == 10 { 20 } else { 10 };
        let text = format!(
            "players: {players}\n{variant}events:\n  - {{by: table, say: \"{banner}\"}}\n  - {{by: table, bet: {other}}}\n"
        );
        let report = checker.check_text(&format!("case-{i}-broken.yaml"), text, Path::new("."));
        assert_eq!(report.violations.first().map(|v| v.rule.as_str()), Some("stake"), "case {i}");
    }
}

/// `Checking` hands each input's verdicts back in the order of the inputs, however many
/// threads check them; a record file gives one a deal; an input that cannot be read gets its
/// own verdict in its place.
#[test]
fn checking_in_order_on_any_number_of_threads() {
    use shinpan::{Checking, Input, Problem};
    let mut inputs: Vec<Input> = fixtures("hangover").into_iter().map(Input::Path).collect();
    inputs.insert(3, Input::Path("fixtures/records/messy.pbn".into()));
    inputs.insert(5, Input::Unreadable { name: "gone".into(), problem: Problem::Unreadable, why: "no".into() });
    inputs.push(Input::text("text", "{rules: hangover, players: [a, b, c], events: []}"));
    let names = |reports: &[shinpan::Report]| reports.iter().map(|r| r.file.clone()).collect::<Vec<_>>();
    let mut seen = vec![];
    for jobs in [1, 2, 7] {
        let mut got = vec![];
        assert!(Checking::new().check_in_order(&inputs, jobs, names, |n| {
            got.push(n);
            true
        }));
        seen.push(got);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
    let one: Vec<usize> = seen[0].iter().map(Vec::len).collect();
    assert!(one[3] > 1, "a record file gives a verdict a deal: {:?}", seen[0][3]);
    assert_eq!(seen[0][3][0], "fixtures/records/messy.pbn#1");
    assert_eq!(seen[0][5], ["gone"]);
    assert_eq!(seen[0].last().unwrap(), &["text"]);
    assert!(one.iter().enumerate().all(|(i, n)| i == 3 || *n == 1), "{one:?}");
}

/// When the receiver of verdicts stops (its output is gone), the run stops and says so.
#[test]
fn checking_stops_when_the_verdicts_cannot_be_taken() {
    use shinpan::{Checking, Input};
    let inputs: Vec<Input> = fixtures("hangover").into_iter().map(Input::Path).collect();
    for jobs in [1, 3] {
        let mut taken = 0;
        let all = Checking::new().check_in_order(
            &inputs,
            jobs,
            |_| (),
            |()| {
                taken += 1;
                taken < 2
            },
        );
        assert!(!all);
        assert_eq!(taken, 2, "{jobs} jobs");
    }
}

/// A panic while checking or rendering one input becomes that input's malformed verdict; the
/// inputs after it keep theirs, in order, on one thread or several.
#[test]
fn a_panic_becomes_the_verdict_of_its_input() {
    use shinpan::{Checking, Input, Report};
    let inputs =
        [Input::text("first", "{rules: hangover, players: [a, b, c], events: []}"), Input::text("second", "{}")];
    let render = |reports: &[Report]| {
        if reports.iter().any(|r| r.verdict == Verdict::Legal) {
            panic!("boom");
        }
        reports.iter().map(Report::json_line).collect::<String>()
    };
    for jobs in [1, 2] {
        let mut lines = vec![];
        assert!(Checking::new().check_in_order(&inputs, jobs, render, |line| {
            lines.push(line);
            true
        }));
        assert_eq!(lines.len(), 2);
        assert!(lines[0].contains("internal error") && lines[0].contains("boom"), "{}", lines[0]);
        assert!(lines[0].contains(r#""kind":"internal""#), "{}", lines[0]);
        assert!(lines[1].contains(r#""file":"second""#) && lines[1].contains("malformed"), "{}", lines[1]);
    }
}

/// The lines of a stream are named and numbered by the stream, blank lines skipped, as
/// `check --stream` gives them; given rules and each transcript's own agree.
#[test]
fn the_lines_of_a_stream_keep_their_numbers() {
    use shinpan::Checking;
    let rules = Rules::new("hangover").unwrap();
    let mut played = vec![];
    rules
        .play_games(3, 11, 1, 1000, |line| {
            played.push(line.to_string());
            true
        })
        .unwrap();
    // The game with one event left out, the first such that breaks a rule.
    let game: serde_json::Value = serde_json::from_str(&played[0]).unwrap();
    let broken = (1..game["events"].as_array().unwrap().len()).map(|i| {
        let mut broken = game.clone();
        broken["events"].as_array_mut().unwrap().remove(i);
        broken.to_string()
    });
    let line = broken.into_iter().find(|l| rules.check_text("game", l).verdict == Verdict::Illegal).unwrap();
    let stream = format!("{line}\n \t\n\u{a0}\n\r\n{line}\r\n");
    for checking in [Checking::new(), Checking::with_rules(&rules)] {
        let mut got = vec![];
        checking
            .check_lines("archive", stream.as_bytes(), |r| {
                got.push((r.file.clone(), r.verdict, r.violations.iter().map(|v| v.line).collect::<Vec<_>>()));
                Ok(())
            })
            .unwrap();
        let names: Vec<&str> = got.iter().map(|(n, ..)| n.as_str()).collect();
        assert_eq!(names, ["archive#1", "archive#3", "archive#5"], "only spaces and tabs are blank");
        assert_eq!((got[0].1, got[1].1), (Verdict::Illegal, Verdict::Malformed));
        assert_eq!(got[0].2, [1]);
        assert_eq!(got[2].2, [5], "the violation's line is the stream's");
    }
}

/// One job checks on the caller's thread (keeping what it compiled for the next call); more
/// than one check on threads of their own, never the caller's.
#[test]
fn one_job_checks_here_and_more_check_on_threads_of_their_own() {
    use shinpan::{Checking, Input};
    let inputs: Vec<Input> = fixtures("hangover").into_iter().take(6).map(Input::Path).collect();
    let here = std::thread::current().id();
    for (jobs, on_this_thread) in [(1, true), (2, false), (3, false)] {
        let mut threads = vec![];
        Checking::new().check_in_order(
            &inputs,
            jobs,
            |_| std::thread::current().id(),
            |id| {
                threads.push(id);
                true
            },
        );
        assert_eq!(threads.len(), inputs.len());
        assert!(threads.iter().all(|id| (*id == here) == on_this_thread), "{jobs} jobs: {threads:?}");
    }
}
