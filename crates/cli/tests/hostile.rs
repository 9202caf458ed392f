//! Files that are not what they seem, and runs that must not lose a verdict: every path gets
//! a verdict in its place, nothing blocks, loops, or ends the run early.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;
use common::{Scratch, bin, run};

use std::path::Path;
use std::process::{Command, Stdio};

const LEGAL: &str = "fixtures/hangover/legal-annotated.yaml";

fn check_json(paths: &[&str]) -> (i32, Vec<serde_json::Value>) {
    let (code, out, err) = run(bin().args(["check", "--format", "json"]).args(paths));
    assert!(!err.contains("panicked"), "{err}");
    (code, out.lines().map(|l| serde_json::from_str(l).unwrap()).collect())
}

fn mkfifo(path: &str) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

fn legal_copy(to: &str) {
    std::fs::copy(Path::new(common::repo()).join(LEGAL), to).unwrap();
}

#[test]
fn a_named_pipe_is_never_opened() {
    let s = Scratch::new("fifo");
    mkfifo(&s.path("game.yaml"));
    mkfifo(&s.path("pipe.rules"));
    std::fs::write(s.path("names-pipe.yaml"), "rules: pipe.rules\nplayers: [a, b, c]\nevents: []\n").unwrap();
    let (code, verdicts) = check_json(&[&s.path("game.yaml"), &s.path("names-pipe.yaml"), LEGAL]);
    assert_eq!(code, 2);
    assert!(verdicts[0]["errors"][0]["message"].as_str().unwrap().contains("named pipe"), "{verdicts:?}");
    assert!(verdicts[1]["errors"][0]["message"].as_str().unwrap().contains("named pipe"), "{verdicts:?}");
    assert_eq!(verdicts[2]["verdict"], "legal");
    // As `--rules` too.
    let (code, out, _) = run(bin().args(["check", "--format", "json", "--rules", &s.path("pipe.rules"), LEGAL]));
    assert_eq!(code, 2);
    assert!(out.contains("named pipe"), "{out}");
}

#[test]
fn a_device_is_not_read_until_memory_runs_out() {
    let (code, verdicts) = check_json(&["/dev/zero", LEGAL]);
    assert_eq!(code, 2);
    assert!(verdicts[0]["errors"][0]["message"].as_str().unwrap().contains("not a regular file"));
    assert_eq!(verdicts[1]["verdict"], "legal");
}

#[test]
fn links_to_a_directory_are_walked_once() {
    let s = Scratch::new("links");
    legal_copy(&s.path("a.yaml"));
    std::os::unix::fs::symlink(".", s.path("x")).unwrap();
    std::os::unix::fs::symlink(".", s.path("y")).unwrap();
    let (code, verdicts) = check_json(&[&s.0.display().to_string()]);
    assert_eq!((code, verdicts.len()), (0, 1), "{verdicts:?}");
}

#[test]
fn a_link_loop_gets_its_own_verdict() {
    let s = Scratch::new("loop");
    std::os::unix::fs::symlink("loop.yaml", s.path("loop.yaml")).unwrap();
    legal_copy(&s.path("z.yaml"));
    let (code, verdicts) = check_json(&[&s.path("loop.yaml"), LEGAL]);
    assert_eq!(code, 2);
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0]["verdict"], "malformed");
    assert_eq!(verdicts[1]["verdict"], "legal");
    // Inside a directory, the loop is reported in its place and the other file is judged.
    let (code, verdicts) = check_json(&[&s.0.display().to_string()]);
    assert_eq!(code, 2);
    assert_eq!(verdicts.iter().map(|v| v["verdict"].as_str().unwrap()).collect::<Vec<_>>(), ["malformed", "legal"]);
}

#[test]
fn an_unreadable_directory_is_reported() {
    let s = Scratch::new("unreadable");
    let dir = s.path("locked");
    std::fs::create_dir(&dir).unwrap();
    legal_copy(&s.path("locked/a.yaml"));
    legal_copy(&s.path("open.yaml"));
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o000)).unwrap();
    let root = s.0.display().to_string();
    // Root reads every directory, so as root the run is made as `nobody`.
    let as_root = std::fs::read_dir(&dir).is_ok();
    let (code, out, err) = if as_root {
        std::fs::set_permissions(&s.0, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(s.path("open.yaml"), std::fs::Permissions::from_mode(0o644)).unwrap();
        // A copy of the binary in the scratch directory, which `nobody` can reach wherever the
        // checkout is.
        let copy = s.path("shinpan");
        std::fs::copy(env!("CARGO_BIN_EXE_shinpan"), &copy).unwrap();
        let mut c = Command::new("setpriv");
        c.current_dir(&s.0).args(["--reuid=65534", "--regid=65534", "--clear-groups", &copy]);
        run(c.args(["check", "--format", "json", &root]))
    } else {
        run(bin().args(["check", "--format", "json", &root]))
    };
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("cannot read the directory"), "{out}");
    assert!(out.contains(r#""verdict":"legal""#), "{out}");
}

#[test]
fn a_failed_write_is_not_a_success() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let status = bin().args(["check", "--format", "json", LEGAL]).stdout(Stdio::from(full)).status().unwrap();
    assert_eq!(status.code(), Some(74));
}

#[test]
fn impossible_player_counts_are_bad_usage() {
    for n in ["99999999999", "7", "0"] {
        let (code, _, err) = run(bin().args(["play", "--rules", "hangover", "--players", n]));
        assert_eq!(code, 64, "{n}: {err}");
        assert!(err.contains("is for 3 to 5 players"), "{n}: {err}");
    }
}

#[test]
fn a_diagnostic_far_to_the_right_is_shown() {
    let s = Scratch::new("wide");
    let meta = "x".repeat(70_000);
    let text = format!(
        r#"{{"meta": "{meta}", "rules": "hangover", "players": ["aki", "ben", "chie"], "events": [{{"by": "aki", "play": "B1"}}]}}"#
    );
    std::fs::write(s.path("wide.json"), text).unwrap();
    let (code, out, err) = run(bin().args(["check", "--format", "human", &s.path("wide.json"), LEGAL]));
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("event 0 breaks `unexpected-action`"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() < 400), "a line was not cut");
    assert!(out.contains("legal (finished"), "{out}");
    // Multi-byte text around the cut: the window starts and ends on whole characters.
    for pad in ["", "x", "xx"] {
        let meta = format!("{pad}{}", "審".repeat(30_000));
        let text = format!(
            r#"{{"meta": "{meta}", "rules": "hangover", "players": ["aki", "ben", "chie"], "events": [{{"by": "aki", "play": "B1"}}]}}"#
        );
        std::fs::write(s.path("wide.json"), text).unwrap();
        let (code, out, err) = run(bin().args(["check", "--format", "human", &s.path("wide.json")]));
        assert_eq!(code, 1, "{err}");
        assert!(out.contains("event 0 breaks `unexpected-action`") && out.contains("…審"), "{out}");
    }
}

#[test]
fn a_transcript_cannot_make_shinpan_read_any_file() {
    let s = Scratch::new("untrusted");
    std::fs::write(s.path("passwd.yaml"), "rules: /etc/passwd\nplayers: [a, b, c]\nevents: []\n").unwrap();
    std::fs::write(s.path("own.rules"), "extends hangover\ngame own\n").unwrap();
    std::fs::write(s.path("own.yaml"), "rules: own.rules\nplayers: [a, b, c]\nevents: []\n").unwrap();
    std::fs::write(s.path("sneaky.rules"), "extends \"/etc/passwd\"\ngame sneaky\n").unwrap();
    std::fs::write(s.path("sneaky.yaml"), "rules: sneaky.rules\nplayers: [a, b, c]\nevents: []\n").unwrap();
    let (code, out, _) =
        run(bin().args(["check", "--format", "human", &s.path("passwd.yaml"), &s.path("sneaky.yaml")]));
    assert_eq!(code, 2);
    assert!(out.contains("is not a rules file"), "{out}");
    assert!(!out.contains("root:"), "{out}");
    // A server lets transcripts name only built-in rules.
    let (_, verdicts) = check_json(&[&s.path("own.yaml")]);
    assert_eq!(verdicts[0]["verdict"], "legal", "{verdicts:?}");
    let (code, out, _) = run(bin().args(["check", "--format", "json", "--only-builtin-rules", &s.path("own.yaml")]));
    assert_eq!(code, 2);
    assert!(out.contains("only built-in rules may be named here"), "{out}");
    // Nor a data file: a card pool must be a `.yaml` file, and a server allows none.
    std::fs::write(
        s.path("pool.yaml"),
        "rules: clock-tcg\nplayers: [a, b]\nvariant: {pool: /etc/passwd}\nevents: []\n",
    )
    .unwrap();
    let (code, out, _) = run(bin().args(["check", "--format", "human", &s.path("pool.yaml")]));
    assert_eq!(code, 2);
    assert!(out.contains("the path of a `.yaml` file"), "{out}");
    let pool = format!("{}/fixtures/clock-tcg/pools/small.yaml", common::repo().display());
    let text = format!("rules: clock-tcg\nplayers: [a, b]\nvariant: {{pool: {pool}, deck_size: 20}}\nevents: []\n");
    std::fs::write(s.path("pool.yaml"), text).unwrap();
    let (_, verdicts) = check_json(&[&s.path("pool.yaml")]);
    assert_eq!(verdicts[0]["verdict"], "legal", "{verdicts:?}");
    let (code, out, _) = run(bin().args(["check", "--format", "json", "--only-builtin-rules", &s.path("pool.yaml")]));
    assert_eq!(code, 2);
    assert!(out.contains("only the built-in card files may be used here"), "{out}");
    // Other parameters stay open to transcripts there.
    std::fs::write(s.path("variant.yaml"), "rules: clock-tcg\nplayers: [a, b]\nvariant: {deck_size: 20}\nevents: []\n")
        .unwrap();
    let (code, out, _) =
        run(bin().args(["check", "--format", "json", "--only-builtin-rules", &s.path("variant.yaml")]));
    assert_eq!(code, 0, "{out}");
}

#[test]
fn rules_files_that_look_hostile_but_are_valid_compile() {
    let dir = Path::new(common::repo()).join("fixtures/spec");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".rules.ok") {
            let text = std::fs::read_to_string(&path).unwrap();
            let compiled = shinpan::compile("ok.rules", &text);
            assert!(compiled.is_ok(), "{}: {:?}", path.display(), compiled.err().map(|d| d[0].message.clone()));
            checked += 1;
        }
    }
    assert!(checked >= 2);
}

/// A score too large to write (a list shared a million times is small in memory) is cut at
/// `MAX_JSON_VALUES` values, and says so with `…`.
#[test]
fn a_value_too_large_to_write_is_cut_and_marked() {
    use shinpan::program::value::Value;
    use shinpan::report::values::value_json;
    const MAX_JSON_VALUES: usize = shinpan::Limits::DEFAULT.verdict_json_values;
    let prog = shinpan::builtin_program("hangover").unwrap().unwrap();
    let players = ["aki".to_string(), "ben".to_string(), "chie".to_string()];
    let ints = |n: i64| Value::list((0..n).map(Value::Int).collect());
    // One value for the list itself, then its items until the budget is spent.
    let cut = value_json(&prog, &players, &ints(MAX_JSON_VALUES as i64 + 10));
    let items = cut.as_array().unwrap();
    assert_eq!(items.len(), MAX_JSON_VALUES);
    assert_eq!(items.last().unwrap(), "…");
    assert_eq!(items[MAX_JSON_VALUES - 2], (MAX_JSON_VALUES - 2) as i64);
    // Exactly what fits is written whole.
    let whole = value_json(&prog, &players, &ints(MAX_JSON_VALUES as i64 - 1));
    assert_eq!(whole.as_array().unwrap().len(), MAX_JSON_VALUES - 1);
    assert!(!whole.to_string().contains('…'));
    let map = Value::map((0..MAX_JSON_VALUES as i64).map(|i| (Value::Int(i), Value::Int(i))).collect());
    let cut = value_json(&prog, &players, &map);
    assert_eq!(cut.as_object().unwrap().get("…").unwrap(), "…");
    let fits = Value::map((0..MAX_JSON_VALUES as i64 - 1).map(|i| (Value::Int(i), Value::Int(i))).collect());
    let whole = value_json(&prog, &players, &fits);
    assert_eq!(whole.as_object().unwrap().len(), MAX_JSON_VALUES - 1);
    assert!(!whole.to_string().contains('…'));
}

/// The size limit of a file is exact: a file of the limit is read, one byte more is refused
/// (by its metadata, and again while reading).
#[test]
fn a_file_of_exactly_the_limit_is_read() {
    let s = Scratch::new("limit");
    std::fs::write(s.path("ten.yaml"), "0123456789").unwrap();
    assert_eq!(shinpan::files::read_data(std::path::Path::new(&s.path("ten.yaml")), 10).unwrap(), "0123456789");
    let refused = shinpan::files::read_data(std::path::Path::new(&s.path("ten.yaml")), 9).unwrap_err();
    assert!(refused.contains("larger than"), "{refused}");
    // A file whose metadata says nothing of its size (procfs gives 0) is measured while read:
    // past the limit it is refused, never cut short at it.
    #[cfg(target_os = "linux")]
    {
        let status = std::path::Path::new("/proc/self/status");
        let refused = shinpan::files::read_data(status, 16).unwrap_err();
        assert!(refused.contains("larger than"), "{refused}");
    }
}

/// A record file's size limit is exact too. The files are sparse: their size costs no disk.
#[test]
fn a_record_file_of_the_limit_is_read_and_one_byte_more_is_not() {
    let s = Scratch::new("record-limit");
    let sized = |name: &str, len: u64| {
        let path = s.path(name);
        std::fs::File::create(&path).unwrap().set_len(len).unwrap();
        path
    };
    let (over, exact) = (
        sized("over.pbn", shinpan::Limits::DEFAULT.transcript_bytes + 1),
        sized("exact.pbn", shinpan::Limits::DEFAULT.transcript_bytes),
    );
    let (_, verdicts) = check_json(&[&over, &exact]);
    let kinds: Vec<&str> = verdicts.iter().map(|v| v["errors"][0]["kind"].as_str().unwrap()).collect();
    // The one at the limit is read: its 64 MiB of zero bytes hold no deal.
    assert_eq!(kinds, ["too-large", "not-a-transcript"], "{verdicts:?}");
}

/// A list that holds itself twice, sixty times over, has 2^60 paths but only sixty parts:
/// its depth is measured part by part, so it is kept at once (it is 60 deep, under the limit).
#[test]
fn a_value_sharing_its_parts_is_measured_part_by_part() {
    let s = Scratch::new("shared");
    let rules = "game shared\nplayers 2..2\nrule r \"unused\"\naction go: int 0..1\nvar kept = 0\n\
                 scores zip_map(players, [kept, kept])\nwinners []\nflow {\n  let x = []\n  for i in range(1, 60) {\n    x = [x, x]\n  }\n\
                 kept = 60\n  choose {\n    go(n) by players[0] {\n    }\n  }\n  finish\n}\n";
    std::fs::write(s.path("shared.rules"), rules).unwrap();
    std::fs::write(s.path("shared.yaml"), "rules: shared.rules\nplayers: [aki, ben]\nevents:\n  - {by: aki, go: 1}\n")
        .unwrap();
    let (_, verdicts) = check_json(&[&s.path("shared.yaml")]);
    assert_eq!(verdicts[0]["verdict"], "legal", "{verdicts:?}");
    assert_eq!(verdicts[0]["scores"]["aki"], 60, "{verdicts:?}");
}
