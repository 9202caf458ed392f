//! shinpan in the browser (`web/`): the page built by `web/build.sh` (the engine compiled to
//! WebAssembly) opened from disk in Debian's chromium, driven by playwright-core
//! (`tests/browser/check-web.mjs`): a judge's transcript, its verdict and replay, malformed and
//! pasted ones, a record file, another move tried at a point of a replay and played on to the
//! end, a rules file opened with the rules it extends and its card pool (and without them), a
//! rules file edited into an error and out of it, random games,
//! no request leaving the page; then every fixture checked by the page's engine, each verdict
//! byte for byte the command line's; then the load time and the time to check 1,000 Hangover
//! games beside `check --jobs 1`'s. Screenshots and figures go to `target/web-test/`.
//!
//! It needs the WebAssembly target, the `wasm-bindgen` command of Cargo.lock's version, chromium
//! and playwright-core: CI installs them and sets SHINPAN_WEB_TEST=required; elsewhere the test
//! is skipped without them, and says so.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};

fn root() -> &'static Path {
    common::repo()
}

/// What the page's build and test need, or why it cannot run.
fn missing_tools() -> Option<String> {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().ok()?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if !sysroot.join("lib/rustlib/wasm32-unknown-unknown").exists() {
        return Some("the target wasm32-unknown-unknown (rustup target add wasm32-unknown-unknown)".into());
    }
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap();
    let version = lock.split("name = \"wasm-bindgen\"\nversion = \"").nth(1)?.split('"').next()?.to_string();
    let found = [PathBuf::from("wasm-bindgen"), root().join("target/tools/bin/wasm-bindgen")]
        .into_iter()
        .filter_map(|p| Command::new(p).arg("--version").output().ok())
        .any(|o| String::from_utf8_lossy(&o.stdout).trim() == format!("wasm-bindgen {version}"));
    if !found {
        return Some(format!(
            "wasm-bindgen {version} (cargo install wasm-bindgen-cli --version {version} --root target/tools)"
        ));
    }
    let driver = root().join("tests/browser/node_modules/playwright-core");
    if !common::chromium().exists() || !driver.exists() {
        return Some("chromium and playwright-core (apt install chromium; npm ci --prefix tests/browser)".into());
    }
    None
}

fn ready() -> bool {
    let Some(missing) = missing_tools() else { return true };
    assert!(std::env::var("SHINPAN_WEB_TEST").as_deref() != Ok("required"), "the page's test needs {missing}");
    common::say_skipped(&format!("the page's test needs {missing}"));
    false
}

/// The transcripts and record files under `dir`, sorted.
fn inputs_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            inputs_under(&path, out);
        } else if path.extension().is_some_and(|x| ["yaml", "yml", "json", "pbn", "lin"].contains(&x.to_str().unwrap()))
        {
            out.push(path);
        }
    }
}

/// Whether a transcript's verdict depends on another file (a rules file or a card pool it
/// names): a page is given no folder to find it in.
fn names_another_file(path: &Path) -> bool {
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    text.contains(".rules") || text.contains("pool:") || text.contains("\"pool\"")
}

/// Every fixture the page can judge alone, with the command line's verdicts on it.
fn fixtures() -> (Vec<Value>, usize) {
    let mut paths = vec![];
    inputs_under(&root().join("fixtures"), &mut paths);
    inputs_under(&root().join("data/external"), &mut paths);
    paths.sort();
    let mut skipped = 0;
    let mut out = vec![];
    for path in paths {
        if names_another_file(&path) {
            skipped += 1;
            continue;
        }
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let (_, json, _) = common::run(common::bin().args(["check", "--format", "json", &name]));
        out.push(json!({"name": name, "path": path, "expected": json.trim_end_matches('\n')}));
    }
    (out, skipped)
}

/// A rules file that extends another by file and reads its cards from a pool file beside it
/// (the clock TCG on the small pool of its fixtures), with a game of it, in `dir`; and the
/// command line's verdict on the game under those rules, run from `dir`.
fn rules_files(dir: &Path) -> Value {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let child = "// The clock TCG on a small card pool: a variant that extends a rules file by its name.\n\
                 extends \"clock-tcg.rules\"\ngame small-clock\nparam pool: file = \"small.yaml\"\n";
    std::fs::write(dir.join("small-clock.rules"), child).unwrap();
    std::fs::copy(root().join("specs/clock-tcg.rules"), dir.join("clock-tcg.rules")).unwrap();
    std::fs::copy(root().join("fixtures/clock-tcg/pools/small.yaml"), dir.join("small.yaml")).unwrap();
    // A game on the small pool that names no pool itself: legal only with the variant's own.
    let game = std::fs::read_to_string(root().join("fixtures/clock-tcg/pool-small.yaml")).unwrap();
    let game = game.replace("pool: pools/small.yaml, ", "");
    std::fs::write(dir.join("small-clock-game.yaml"), game).unwrap();
    let args = ["check", "--rules", "small-clock.rules", "--format", "json", "small-clock-game.yaml"];
    let (code, expected, _) = common::run(common::bin().args(args).current_dir(dir));
    assert_eq!(code, 0, "{expected}");
    json!({
        "child": dir.join("small-clock.rules"), "child_name": "small-clock.rules",
        "parent": dir.join("clock-tcg.rules"), "parent_name": "clock-tcg.rules",
        "pool": dir.join("small.yaml"), "pool_name": "small.yaml",
        "game": dir.join("small-clock-game.yaml"), "game_name": "small-clock-game.yaml",
        "expected": expected.trim_end(),
    })
}

/// A fixture whose `variant` names a pool file beside it, the pool, and the command line's
/// verdict on it.
fn transcript_pool() -> Value {
    let name = "fixtures/clock-tcg/pool-small.yaml";
    let (_, expected, _) = common::run(common::bin().args(["check", "--format", "json", name]).current_dir(root()));
    json!({"path": root().join(name), "name": name, "pool": root().join("fixtures/clock-tcg/pools/small.yaml"),
           "pool_name": "small.yaml", "expected": expected.trim_end()})
}

/// 1,000 random Hangover games as JSON Lines, and the seconds `check --jobs 1` takes on them
/// as 1,000 files.
fn bench(dir: &Path) -> (PathBuf, f64) {
    let args = ["play", "--rules", "hangover", "--players", "4", "--seed", "1", "--games", "1000"];
    let (code, games, _) = common::run(common::bin().args(args));
    assert_eq!(code, 0);
    let lines = dir.join("hangover-1000.jsonl");
    std::fs::write(&lines, &games).unwrap();
    let folder = dir.join("hangover-1000");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    for (i, game) in games.lines().enumerate() {
        std::fs::write(folder.join(format!("game-{i:04}.json")), game).unwrap();
    }
    let mut best = f64::MAX;
    for _ in 0..3 {
        let began = Instant::now();
        let out = common::bin().args(["check", "--jobs", "1", "--format", "json"]).arg(&folder).output().unwrap();
        best = best.min(began.elapsed().as_secs_f64());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    (lines, best)
}

#[test]
fn the_page_judges_as_the_command_line_does() {
    if !ready() {
        return;
    }
    let build = Command::new("bash").arg(root().join("web/build.sh")).current_dir(root()).output().unwrap();
    assert!(build.status.success(), "web/build.sh failed:\n{}", String::from_utf8_lossy(&build.stderr));
    let out = root().join("target/web-test");
    std::fs::create_dir_all(&out).unwrap();
    let (fixtures, skipped) = fixtures();
    assert!(fixtures.len() > 300, "only {} fixtures", fixtures.len());
    let (bench_lines, native_seconds) = bench(&out);
    let plan = json!({
        "builtin_games": shinpan::editor::builtin_games().count(),
        "illegal": {"path": root().join("fixtures/hangover/must-follow.yaml"), "rule": "must-follow"},
        // At the illegal event (9), what was legal instead (its verdict's `legal`).
        "trial": {"event": 9, "rule": "must-follow", "legal": "ben play R3^"},
        "rules_files": rules_files(&out.join("rules-files")),
        "transcript_pool": transcript_pool(),
        "malformed": root().join("fixtures/malformed/unclosed-mapping.yaml"),
        "record": root().join("fixtures/records/messy.pbn"),
        "edit": {"game": "hangover", "find": "zip_map(players, chunks(", "replace": "zip_map(playerz, chunks(",
                 "code": "shinpan::spec::unknown-name", "unfinish": "  if finished() {\n    finish\n  }\n"},
        "fixtures": fixtures,
        "bench": bench_lines,
    });
    let plan_path = out.join("plan.json");
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    let site = root().join("target/web/site");
    let driver = root().join("tests/browser/check-web.mjs");
    let run = Command::new("node").arg(driver).arg(&site).arg(&plan_path).arg(&out).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "the page's test failed:\n{stderr}{stdout}");
    let mut figures: Value = serde_json::from_str(stdout.trim()).unwrap();
    let page_seconds = figures["bench_ms"].as_f64().unwrap() / 1000.0;
    figures["native_seconds"] = json!((native_seconds * 1000.0).round() / 1000.0);
    figures["ratio"] = json!((page_seconds / native_seconds * 100.0).round() / 100.0);
    figures["fixtures_skipped_naming_another_file"] = json!(skipped);
    std::fs::write(out.join("figures.json"), figures.to_string() + "\n").unwrap();
    eprintln!("the page: {figures}");
    // The bound of issue 35 is 2x; on a shared 2-core machine timings wander, so the test fails
    // only well past it (docs/performance.md has the figures measured alone).
    assert!(page_seconds < native_seconds * 4.0, "checking in the page is too slow: {figures}");
}
