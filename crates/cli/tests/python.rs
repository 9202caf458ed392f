//! The Python package (`python/`): its wheel built by maturin, installed in the virtual
//! environment `target/py`, and its pytest suite run against the installed wheel; then the
//! same wheel installed alone in a fresh virtual environment (`target/py-fresh`, made here by
//! `python3 -m venv`), whose `shinpan` command and `python -m shinpan` must be this build's
//! binary: the same output, error and exit code. CI makes the environment (.ci/run, with Dask
//! for the cluster example) and sets SHINPAN_PYTHON_TEST=required; elsewhere the test is
//! skipped when the environment is missing, so `cargo test` needs nothing but cargo.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(common::repo())
}

fn venv_tool(name: &str) -> PathBuf {
    root().join("target/py/bin").join(name)
}

fn run(program: &Path, args: &[&str]) {
    let out = Command::new(program).args(args).current_dir(root()).output().unwrap();
    assert!(
        out.status.success(),
        "{} {}\n{}{}",
        program.display(),
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_python_package_passes_its_tests() {
    let ready = ["maturin", "pytest", "pip"].iter().all(|t| venv_tool(t).exists());
    if !ready {
        assert!(
            std::env::var("SHINPAN_PYTHON_TEST").as_deref() != Ok("required"),
            "the Python test needs target/py: python3 -m venv target/py && target/py/bin/pip install maturin pytest"
        );
        common::say_skipped("no target/py (python3 -m venv target/py && target/py/bin/pip install maturin pytest)");
        return;
    }
    let wheels = root().join("target/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    let out = wheels.display().to_string();
    run(&venv_tool("maturin"), &["build", "--release", "--locked", "-m", "python/Cargo.toml", "-o", &out]);
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin wrote no wheel");
    run(&venv_tool("pip"), &["install", "--quiet", "--force-reinstall", wheel.to_str().unwrap()]);
    // The cluster test compares the cluster's verdicts with this build's command line.
    let out = Command::new(venv_tool("pytest"))
        .args(["-q", "-p", "no:cacheprovider", "python/tests"])
        .env("SHINPAN_BIN", env!("CARGO_BIN_EXE_shinpan"))
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    the_wheel_alone_is_the_command_line(&wheel);
}

/// The three ways to run `shinpan`: this build's binary, the command a fresh virtual
/// environment gets from the wheel, and `python -m shinpan` there.
fn the_three(fresh: &Path) -> [(String, Command); 3] {
    let mut module = Command::new(fresh.join("bin/python"));
    module.args(["-m", "shinpan"]);
    [
        ("the binary".into(), Command::new(env!("CARGO_BIN_EXE_shinpan"))),
        ("the wheel's `shinpan`".into(), Command::new(fresh.join("bin/shinpan"))),
        ("`python -m shinpan`".into(), module),
    ]
}

/// Exit code, standard output and error of each of the three on `args`, with `input` on
/// standard input; asserts that they are the same, and gives them.
fn same_from_all(fresh: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let mut seen: Vec<(String, (i32, String, String))> = vec![];
    for (who, mut command) in the_three(fresh) {
        let mut child = command
            .args(args)
            .current_dir(root())
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        seen.push((who, (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))));
    }
    for (who, got) in &seen[1..] {
        assert_eq!(got, &seen[0].1, "shinpan {}: {who} differs from {}", args.join(" "), seen[0].0);
    }
    seen.swap_remove(0).1
}

/// The wheel installed alone (no maturin, no pytest beside it) in a fresh virtual environment
/// puts the binary's command line on the PATH: the README's demo, every subcommand's help,
/// `check --stream` from standard input, the exit codes, a closed pipe and Ctrl-C.
fn the_wheel_alone_is_the_command_line(wheel: &Path) {
    let fresh = root().join("target/py-fresh");
    let _ = std::fs::remove_dir_all(&fresh);
    run(Path::new("python3"), &["-m", "venv", fresh.to_str().unwrap()]);
    let pip = fresh.join("bin/pip");
    run(&pip, &["install", "--quiet", "--disable-pip-version-check", "--no-index", wheel.to_str().unwrap()]);
    // The README's demo: three legal, three illegal, exit 1.
    let (code, out, _) = same_from_all(&fresh, &["check", "fixtures/demo/"], "");
    assert_eq!((code, out.lines().count()), (1, 6), "{out}");
    let (code, out, _) =
        same_from_all(&fresh, &["check", "--format", "human", "fixtures/hangover/must-follow.yaml"], "");
    assert!(code == 1 && out.contains("must-follow"), "{out}");
    // A stream on standard input: a legal game, a line that is not JSON, an illegal game.
    let game = |events: &str| format!(r#"{{"rules": "hangover", "players": ["a", "b", "c"], "events": [{events}]}}"#);
    let stream = [game(""), "not json: [".into(), game(r#"{"by": "a", "play": "R1"}"#)].join("\n");
    let (code, out, _) = same_from_all(&fresh, &["check", "--stream", "-"], &stream);
    assert_eq!((code, out.lines().count()), (2, 3), "{out}");
    // Every subcommand (its help, and the commands that need no file), usage errors, the version.
    let (code, help, _) = same_from_all(&fresh, &["--help"], "");
    assert_eq!(code, 0);
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .map_while(|l| l.strip_prefix("  ").and_then(|l| l.split_whitespace().next()))
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10 && commands.contains(&"referee"), "{help}");
    for command in commands {
        assert_eq!(same_from_all(&fresh, &[command, "--help"], "").0, 0, "{command}");
    }
    assert_eq!(same_from_all(&fresh, &["--version"], "").0, 0);
    assert_eq!(same_from_all(&fresh, &["check", "--no-such-option"], "").0, 64);
    assert_eq!(same_from_all(&fresh, &["check", "fixtures/malformed/"], "").0, 2);
    assert_eq!(same_from_all(&fresh, &["rules"], "").0, 0);
    assert_eq!(same_from_all(&fresh, &["lint", "specs/hangover.rules"], "").0, 0);
    assert_eq!(same_from_all(&fresh, &["explain", "must-follow", "--rules", "hangover"], "").0, 0);
    assert_eq!(same_from_all(&fresh, &["replay", "fixtures/hangover/must-follow.yaml"], "").0, 1);
    assert_eq!(same_from_all(&fresh, &["play", "--rules", "hangover", "--players", "3", "--seed", "4"], "").0, 0);
    let request = r#"{"id": 1, "op": "new", "rules": "hangover", "players": 3}"#;
    assert_eq!(same_from_all(&fresh, &["referee"], request).0, 0);
    for (who, command) in the_three(&fresh) {
        a_closed_pipe_exits_74(&who, command);
    }
    for (who, command) in the_three(&fresh) {
        ctrl_c_ends_it(&who, command);
    }
}

/// Output to a pipe closed by its reader (`| head`) ends the command with 74 and nothing on
/// standard error but shinpan's own words (no Python traceback).
fn a_closed_pipe_exits_74(who: &str, mut command: Command) {
    let args = ["play", "--rules", "hangover", "--players", "3", "--games", "100000"];
    let mut child =
        command.args(args).current_dir(root()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    reader.read_line(&mut first).unwrap();
    drop(reader);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(74), "{who}: {err}");
    assert!(!err.contains("Traceback") && !err.contains("Exception"), "{who}: {err}");
}

/// Ctrl-C (SIGINT) ends a command that waits on its input at once, by the signal, as it ends
/// the binary: no Python `KeyboardInterrupt` after the Rust call returns.
fn ctrl_c_ends_it(who: &str, mut command: Command) {
    let mut child = command
        .args(["check", "--stream", "-"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once a line is answered the command is running (Python has handed over to Rust).
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"{\"rules\": \"hangover\", \"players\": [\"a\", \"b\", \"c\"], \"events\": []}\n").unwrap();
    stdin.flush().unwrap();
    let mut verdict = String::new();
    BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut verdict).unwrap();
    assert!(verdict.contains(r#""verdict":"legal""#), "{who}: {verdict}");
    run(Path::new("kill"), &["-INT", &child.id().to_string()]);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(2), "{who}: {:?} {}", out.status, String::from_utf8_lossy(&out.stderr));
    drop(stdin);
}
