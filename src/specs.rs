//! The rules files shipped in `specs/`, compiled into the binary.

pub const BUILTIN: &[(&str, &str)] = &[
    ("hangover", include_str!("../specs/hangover.rules")),
    ("curtain-call", include_str!("../specs/curtain-call.rules")),
    ("torite-4to6", include_str!("../specs/torite-4to6.rules")),
];

pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}
