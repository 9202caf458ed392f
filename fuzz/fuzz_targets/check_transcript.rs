//! Checking any transcript against a built-in game, and rendering the report, must never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // First byte: which built-in rules (in `BUILTIN` order); the rest: the transcript.
    let Some((&pick, rest)) = data.split_first() else { return };
    let builtins = shinpan::lang::specs::BUILTIN;
    let (name, _) = builtins[pick as usize % builtins.len()];
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let mut checker = shinpan::report::check::Checker::new(Some(name.to_string()));
    let report = checker.check_text("fuzz.yaml", text.to_string(), std::path::Path::new("/nonexistent"));
    let _ = shinpan::report::render::json_line(&report);
    for d in shinpan::report::render::diagnostics(&report) {
        let _ = shinpan::diag::render_plain(&d);
    }
});
