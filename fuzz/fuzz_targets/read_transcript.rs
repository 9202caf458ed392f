//! Reading any text as a transcript must return Ok or Err, never panic, hang or exhaust memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = shinpan::transcript::read(text);
    }
});
