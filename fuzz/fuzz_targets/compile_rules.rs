//! Compiling any text as a rules file, and rendering its diagnostics, must never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        // `extends` may name a file: relative to the working directory, which the fuzzer does not control.
        if let Err(diags) = shinpan::compile("fuzz.rules", text) {
            for d in &diags {
                let _ = shinpan::diag::render_plain(d);
            }
        }
    }
});
