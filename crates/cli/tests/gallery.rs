//! The gallery of classic games (`examples/games/<game>/`): each game's rules file lints clean
//! and is in `shinpan fmt`'s layout, its transcripts get the verdicts its `expected.jsonl` says, and seeded random games at every
//! player count it allows end at a `finish`, never in a dead end. Then the games OpenSpiel also
//! implements agree with it (`scripts/gallery_openspiel.py`): its random games judged legal here
//! with the same returns, `shinpan play` games accepted there with the same returns, and single
//! illegal moves caught at their event. That needs `pyspiel` in the virtual environment
//! `target/py` (CI installs it and sets SHINPAN_OPENSPIEL_TEST=required); elsewhere the
//! comparison is skipped with a message, so `cargo test` needs nothing but cargo.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

/// Random games played per game and player count here (the READMEs give 1,000-game figures).
const GAMES: usize = 100;
/// Games per check and game in the comparison with OpenSpiel.
const OPENSPIEL_GAMES: usize = 100;

fn gallery() -> Vec<PathBuf> {
    let root = common::repo().join("examples/games");
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs
}

fn rules_of(dir: &Path) -> PathBuf {
    dir.join(format!("{}.rules", dir.file_name().unwrap().to_string_lossy()))
}

/// The player counts a rules file allows, from its `players LO..HI` (or `players N`) line.
fn player_counts(rules: &Path) -> std::ops::RangeInclusive<usize> {
    let text = std::fs::read_to_string(rules).unwrap();
    let line = text.lines().find_map(|l| l.strip_prefix("players ")).expect("a `players` line");
    let (lo, hi) = line.trim().split_once("..").unwrap_or((line.trim(), line.trim()));
    lo.trim().parse().unwrap()..=hi.trim().parse().unwrap()
}

#[test]
fn every_gallery_game_lints_checks_its_transcripts_and_plays_to_the_end() {
    let dirs = gallery();
    assert!(dirs.len() >= 3, "the gallery has {} games", dirs.len());
    for dir in &dirs {
        let rules = rules_of(dir);
        assert!(dir.join("README.md").is_file(), "{} has no README.md", dir.display());

        let (code, out, err) = common::run(common::bin().arg("lint").arg(&rules));
        assert_eq!(code, 0, "lint {}:\n{out}{err}", rules.display());
        let (code, out, err) = common::run(common::bin().args(["fmt", "--check"]).arg(&rules));
        assert_eq!(code, 0, "{} is not in `shinpan fmt`'s layout:\n{out}{err}", rules.display());

        let expected = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap();
        let mut listed = vec![];
        for line in expected.lines().filter(|l| !l.trim().is_empty()) {
            let want: Json = serde_json::from_str(line).unwrap();
            let file = dir.join(want["file"].as_str().unwrap());
            listed.push(file.clone());
            let (_, out, err) = common::run(common::bin().args(["check", "--format", "json"]).arg(&file));
            let got: Json =
                serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{}: {e}\n{out}{err}", file.display()));
            let mut keys = vec!["verdict", "finished", "scores", "winners"];
            if want["verdict"] == "illegal" {
                keys.extend(["rule", "event"]);
            }
            for key in keys {
                let have = match key {
                    "rule" | "event" => &got["violations"][0][key],
                    _ => &got[key],
                };
                assert_eq!(&want[key], have, "{}: {key}", file.display());
            }
        }
        // Every transcript in the folder is listed, so none goes unchecked.
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "yaml") {
                assert!(listed.contains(&path), "{} is not in expected.jsonl", path.display());
            }
        }
        assert!(
            expected.contains("\"legal\"") && expected.contains("\"illegal\""),
            "{}: legal and illegal",
            dir.display()
        );

        for players in player_counts(&rules) {
            let games = GAMES.to_string();
            let (code, out, err) = common::run(
                common::bin()
                    .args(["play", "--players", &players.to_string(), "--seed", "1", "--games", &games])
                    .args(["--stats", "--format", "json", "--rules"])
                    .arg(&rules),
            );
            assert_eq!(code, 0, "play {} ({players} players):\n{err}", rules.display());
            let stats: Json = serde_json::from_str(out.trim()).unwrap();
            let endings = stats["endings"].as_object().unwrap();
            let finished: u64 = endings
                .iter()
                .filter(|(k, _)| k.ends_with(": finish") || k.ends_with(": finish now"))
                .map(|(_, v)| v.as_u64().unwrap())
                .sum();
            assert_eq!(finished, GAMES as u64, "{} ({players} players): endings {endings:?}", rules.display());
        }
    }
}

/// The Python of `target/py` when it can import `pyspiel`.
fn openspiel_python() -> Option<PathBuf> {
    let python = common::repo().join("target/py/bin/python");
    let ok = python.exists()
        && std::process::Command::new(&python)
            .args(["-c", "import pyspiel"])
            .output()
            .is_ok_and(|o| o.status.success());
    ok.then_some(python)
}

#[test]
fn the_gallery_agrees_with_openspiel() {
    let Some(python) = openspiel_python() else {
        assert!(
            std::env::var("SHINPAN_OPENSPIEL_TEST").as_deref() != Ok("required"),
            "the OpenSpiel comparison needs pyspiel in target/py: target/py/bin/pip install --no-deps open_spiel"
        );
        common::say_skipped(
            "no pyspiel in target/py (python3 -m venv target/py && target/py/bin/pip install --no-deps open_spiel)",
        );
        return;
    };
    let (code, out, err) = common::run(
        std::process::Command::new(python)
            .arg(common::repo().join("scripts/gallery_openspiel.py"))
            .args(["--shinpan", common::exe(), "--games", &OPENSPIEL_GAMES.to_string(), "--seed", "1"])
            .current_dir(common::repo()),
    );
    eprintln!("{out}");
    assert_eq!(code, 0, "the gallery disagrees with OpenSpiel:\n{out}{err}");
    // Every game and check reported all its cases agreeing.
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(": (")).collect();
    assert!(lines.len() >= 9, "too few checks ran:\n{out}");
    // The games checked include cribbage, gin rummy and dou dizhu, each with its own adapter.
    for game in ["cribbage", "gin-rummy", "dou-dizhu"] {
        let ran = lines.iter().filter(|l| l.starts_with(&format!("{game}: ("))).count();
        assert_eq!(ran, 3, "{game}: the three checks did not all run:\n{out}");
    }
}

/// Big Two has no OpenSpiel counterpart: its own referee (`examples/games/big-two/referee.py`,
/// written from the README alone, standard library only) replays `shinpan play` games with their
/// scores, and judges games with one event changed as `shinpan check` must.
#[test]
fn big_two_agrees_with_its_own_referee() {
    let python = if std::process::Command::new("python3").arg("--version").output().is_ok() {
        "python3"
    } else {
        common::say_skipped("no python3");
        return;
    };
    let scratch = common::Scratch::new("gallery-big-two");
    let games = scratch.0.join("games.jsonl");
    let rules = common::repo().join("examples/games/big-two/big-two.rules");
    let (code, out, err) = common::run(
        common::bin()
            .args(["play", "--players", "4", "--seed", "1", "--games", &GAMES.to_string(), "--rules"])
            .arg(&rules),
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(&games, &out).unwrap();
    let referee = common::repo().join("examples/games/big-two/referee.py");
    for args in [vec![], vec!["--mutate".to_string(), common::exe().to_string()]] {
        let out = std::process::Command::new(python)
            .arg(&referee)
            .args(&args)
            .stdin(std::fs::File::open(&games).unwrap())
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "referee.py {args:?}:\n{text}");
        if args.is_empty() {
            // The referee's scores, one line a game, equal those shinpan's verdicts give.
            let (_, verdicts, _) = common::run(common::bin().args(["check", "--stream"]).arg(&games));
            let theirs: Vec<Json> =
                String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            let ours: Vec<Json> = verdicts.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            assert_eq!(theirs.len(), GAMES);
            for (i, (t, o)) in theirs.iter().zip(&ours).enumerate() {
                assert_eq!(o["verdict"], "legal", "game {i}");
                assert_eq!(&o["scores"], t, "game {i}");
            }
        } else {
            assert!(text.contains(": 0 disagreements"), "{text}");
        }
    }
}
