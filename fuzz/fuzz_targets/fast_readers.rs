//! The fast readers (a whole JSON file, one JSON value a line) must read any text they take
//! exactly as the YAML reader does: the same values, lines and offsets, and nothing the YAML
//! reader refuses.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Err(why) = shinpan::transcript::fast_readers_agree(text)
    {
        panic!("{why}\n{text:?}");
    }
});
