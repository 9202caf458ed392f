//! shinpan: card-game rules as spec files, and a checker of recorded games against them.
//!
//! The pipeline, one folder per stage, each using only the ones above it:
//! 1. `lang`: text to a typed, spanned syntax tree (the pest grammar in `grammar/`), `extends`,
//!    and the built-in rules files;
//! 2. `program`: the compiled form the interpreter runs, its values and built-in functions;
//! 3. `run`: the interpreter: runs the flow, consumes events at each waiting point, lists the
//!    legal actions there, fuel;
//! 4. `resolve`: syntax tree to program: names to indices, static checks and types, errors
//!    pointing into the rules file (constant card attributes are evaluated by `run`);
//! 5. `transcript`: a YAML or JSON transcript read with spans and limits, each event shaped by
//!    its action's type (`decode`), card data files (`pool`);
//! 6. `import`: a game's own record formats (PBN, LIN) read into ordinary transcripts;
//! 7. `report`: a verdict per file (`check`), as JSON Lines and miette diagnostics (`render`),
//!    and the judge's replay page (`page`);
//! 8. `play`: random legal playouts and their statistics;
//! 9. `rules`: the library's front door, `Rules`: compiled once per thread, `Send + Sync`, it
//!    checks transcripts (text, path or parsed JSON) and plays games;
//! 10. `lsp`: the language server for rules files (`shinpan lsp`); only the command line uses it.
//!
//! Beside them: `span` (places in a file), `diag` (diagnostics), `codes` (their stable codes)
//! and `files` (reading files with limits), which every stage uses.
//!
//! The library's API is [`Rules`] and the verdict it gives, [`Report`] (see `src/rules.rs` for
//! an example). The stages are public for the command line, the tests and the fuzz targets,
//! and hidden from this documentation: they change as the engine does.

#![warn(missing_docs)]
#![allow(clippy::result_large_err, reason = "diagnostics are built once, on the error path")]

#[doc(hidden)]
pub mod codes;
#[doc(hidden)]
pub mod diag;
#[doc(hidden)]
pub mod files;
#[doc(hidden)]
pub mod import;
#[doc(hidden)]
pub mod lang;
#[doc(hidden)]
pub mod lsp;
#[doc(hidden)]
pub mod play;
#[doc(hidden)]
pub mod program;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod resolve;
pub mod rules;
#[doc(hidden)]
pub mod run;
#[doc(hidden)]
pub mod span;
#[doc(hidden)]
pub mod transcript;

pub use report::check::{Broken, Noted, Report, Step, Verdict};
#[doc(hidden)]
pub use resolve::{compile, compile_in};
pub use rules::{Rules, RulesError};
pub use transcript::Problem;
pub use transcript::decode::Malformed;
#[doc(hidden)]
pub use transcript::pool::builtin_program;
