//! The rules files shipped in `specs/`, compiled into the binary (listed by `build.rs`).

include!(concat!(env!("OUT_DIR"), "/builtin_specs.rs"));

pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}
