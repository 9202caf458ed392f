//! Human diagnostics as insta snapshots: every illegal or malformed fixture, and every
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests and benchmarks fail loudly")]
//! invalid rules file under fixtures/spec (named after the code it must give).

use shinpan::diag::render_plain;
use shinpan::report::check::Checker;

/// Paths in reports are made relative so snapshots do not depend on the checkout.
fn relative(text: String) -> String {
    text.replace(concat!(env!("CARGO_MANIFEST_DIR"), "/"), "")
}

/// Under `check --all`: every violation the game went past, then the one it stopped at.
#[test]
fn standing_violations() {
    insta::glob!("../fixtures", "all/*.yaml", |path| {
        let mut checker = Checker::new(None);
        checker.all = true;
        let report = checker.check_path(path);
        let rendered: String = shinpan::report::render::diagnostics(&report).iter().map(render_plain).collect();
        insta::assert_snapshot!(relative(rendered));
    });
}

#[test]
fn transcript_diagnostics() {
    insta::glob!(
        "../fixtures",
        "{bridge,hangover,curtain-call,torite-4to6,clock-tcg,malformed,runaway}/*.yaml",
        |path| {
            let report = Checker::new(None).check_path(path);
            let diags = shinpan::report::render::diagnostics(&report);
            let rendered: String = diags.iter().map(render_plain).collect();
            if report.verdict == shinpan::report::check::Verdict::Legal {
                assert!(diags.is_empty(), "a legal fixture has diagnostics: {rendered}");
                return;
            }
            assert!(!diags.is_empty(), "{} has no diagnostic", path.display());
            insta::assert_snapshot!(relative(rendered));
        }
    );
}

/// The codes `lint` warns with, about rules that compile.
const LINT_WARNINGS: [&str; 3] = ["no-finish", "blind-play", "rule-order"];

#[test]
fn spec_diagnostics() {
    insta::glob!("../fixtures/spec", "*.rules", |path| {
        let code = path.file_stem().and_then(|s| s.to_str()).and_then(|s| s.split('_').next()).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let label = path.file_name().unwrap().to_str().unwrap();
        let rendered = match shinpan::compile(label, &text) {
            Err(diags) => {
                assert!(diags.iter().any(|d| d.code.ends_with(code)), "{label} does not give `{code}`");
                diags.iter().map(render_plain).collect::<String>()
            }
            // A rules file that compiles warns when linted...
            Ok(_) if LINT_WARNINGS.contains(&code) => {
                let warnings = shinpan::editor::lint(label, &text, std::path::Path::new(".")).unwrap().warnings;
                assert!(warnings.iter().any(|d| d.code.ends_with(code)), "{label} does not warn `{code}`");
                warnings.iter().map(render_plain).collect::<String>()
            }
            // A dead end shows in a random game: the first seed's, of the fewest players.
            Ok(program) if code == "dead-end" => {
                let rules = shinpan::Rules::from_text(label, &text, std::path::Path::new(".")).unwrap();
                let (_, stuck) = rules.play_one_or_dead_end(program.players.0 as usize, 0, 1_000).unwrap();
                render_plain(&stuck.unwrap_or_else(|| panic!("{label} plays without a dead end")))
            }
            // ... or fails when run (the runaway loop).
            Ok(program) => {
                let tx = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/runaway/endless-loop.yaml");
                let report = Checker::new(Some(path.display().to_string())).check_path(&tx);
                assert!(
                    report.spec_errors.iter().any(|d| d.code.ends_with(code)),
                    "{label} compiles ({}) and does not give `{code}` when run",
                    program.name
                );
                report.spec_errors.iter().map(render_plain).collect::<String>()
            }
        };
        insta::assert_snapshot!(relative(rendered));
    });
}

/// A diagnostic about a rules file always points into it.
#[test]
fn spec_diagnostics_point_into_the_file() {
    insta::glob!("../fixtures/spec", "*.rules", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let dead_end = path.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.starts_with("dead-end"));
        let diags = match shinpan::compile("x.rules", &text) {
            Err(diags) => diags,
            Ok(_) if LINT_WARNINGS.iter().any(|c| path.file_stem().unwrap().to_str().unwrap().starts_with(c)) => {
                shinpan::editor::lint("x.rules", &text, std::path::Path::new(".")).unwrap().warnings
            }
            Ok(program) if dead_end => {
                let rules = shinpan::Rules::from_text("x.rules", &text, std::path::Path::new(".")).unwrap();
                let (_, stuck) = rules.play_one_or_dead_end(program.players.0 as usize, 0, 1_000).unwrap();
                stuck.into_iter().collect()
            }
            Ok(_) => {
                let tx = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/runaway/endless-loop.yaml");
                Checker::new(Some(path.display().to_string())).check_path(&tx).spec_errors
            }
        };
        assert!(!diags.is_empty());
        for d in diags {
            assert!(d.source.is_some() && !d.labels.is_empty(), "{}: `{}` has no location", path.display(), d.message);
        }
    });
}

/// A syntax error points at one character where the parser stopped.
#[test]
fn a_syntax_error_points_at_one_character() {
    let text = "game tiny\nplayers 2..2\nrule r \"x\"\naction go: int 0..1\nflow { choose { go(n) by } }\n";
    let d = shinpan::lang::syntax::parse(text).unwrap_err();
    let (span, _) = &d.labels[0];
    assert_eq!(span.end, span.start + 1, "{span:?}");
    assert_eq!(&text[span.clone()], "}");
}

/// The state at a violation and after each replayed event, whole and wrapped at a terminal's
/// width between items, never inside one: at 80 and at 200 columns.
#[test]
fn the_state_wraps_at_the_terminal_s_width() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bridge/must-follow.yaml");
    let mut checker = Checker::new(None);
    checker.record_states = true;
    let report = checker.check_path(&path);
    for width in [80, 200] {
        let checked = relative(report.human_at(false, width));
        let replayed: String = report.replay_steps().iter().rev().take(2).rev().map(|s| s.human_at(width)).collect();
        // The lines of the state: advice (`  │   `) and the replay's (`    `).
        let state = checked
            .lines()
            .filter(|l| l.starts_with("  │   "))
            .chain(replayed.lines().filter(|l| l.starts_with("    ")));
        let mut lines = 0;
        for line in state {
            assert!(line.chars().count() <= width, "{width}: {line}");
            lines += 1;
        }
        assert!(lines > 8, "{width}: {checked}{replayed}");
        // A line is broken only after an item's comma: every line a continuation follows ends with one.
        for text in [&checked, &replayed] {
            let lines: Vec<&str> = text.lines().collect();
            for pair in lines.windows(2) {
                // Nothing breaks a line of ours again (miette's own `  │ ` with no indent of ours).
                let again =
                    pair[0].starts_with("  │   ") && pair[1].starts_with("  │ ") && !pair[1].starts_with("  │  ");
                assert!(!again, "{width}: broken again:\n{}\n{}", pair[0], pair[1]);
                let continued = pair[1].starts_with("  │       ") || pair[1].starts_with("        ");
                assert!(
                    !continued || pair[0].ends_with(','),
                    "{width}: broken inside an item:\n{}\n{}",
                    pair[0],
                    pair[1]
                );
            }
        }
        insta::assert_snapshot!(format!("check_at_{width}"), checked);
        insta::assert_snapshot!(format!("replay_at_{width}"), replayed);
    }
}
