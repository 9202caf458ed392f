//! The stages of the pipeline (the table of contents in `lib.rs` gives their order), declared
//! here once each and brought to the crate's root there: `pub` in a private module, so they are
//! the crate's own unless the feature `internals` re-exports them for the tests, benchmarks and
//! fuzz targets. The paths are the stages' places under `src/`, as if declared in `lib.rs`.
//! A stage's own path is `crate::stages::NAME` (what `pub(in ...)` names): `crate::NAME` is
//! the import in `lib.rs`.

#![allow(missing_docs, reason = "internal")]
// Without `internals`, what only the tests use is dead code.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports, reason = "what only tests use"))]

#[path = "import/mod.rs"]
pub mod import;
#[path = "lang/mod.rs"]
pub mod lang;
#[path = "play.rs"]
pub mod play;
#[path = "program/mod.rs"]
pub mod program;
#[path = "report/mod.rs"]
pub mod report;
#[path = "resolve/mod.rs"]
pub mod resolve;
#[path = "run/mod.rs"]
pub mod run;
#[path = "transcript/mod.rs"]
pub mod transcript;
