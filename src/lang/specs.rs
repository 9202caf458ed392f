//! The rules files shipped in `specs/`, compiled into the binary (listed by `build.rs`).

include!(concat!(env!("OUT_DIR"), "/builtin_specs.rs"));

/// A data file shipped beside the built-in rules (`specs/*.yaml`, a card pool), by file name.
pub fn builtin_data(name: &str) -> Option<&'static str> {
    BUILTIN_DATA.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}
