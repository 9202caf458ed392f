//! shinpan: card-game rules as spec files, and a checker of recorded games against them.
//!
//! The public API, all at this level:
//! - [`Rules`]: a game's rules (a built-in game, a rules file or rules given as text, with
//!   parameters), compiled once per thread; it checks transcripts, explains its rules and
//!   plays random games;
//! - [`Checking`]: many transcripts (paths, texts, the lines of a stream) checked on several
//!   threads and handed back in their order, each against the rules it names or against
//!   given ones; one file's failure costs that file's verdict only;
//! - [`Report`]: the verdict on one transcript (`json_line`, `human`, `replay_steps`, `page`);
//! - [`Game`]: one game played move by move (`Rules::new_game`): what is legal where it
//!   waits, one event at a time refused with `check`'s verdict, draws, clones, undo;
//! - [`Limits`]: what one transcript and one game may cost, settable on `Rules` and `Checking`;
//! - [`editor`]: what the tools of a rules file's author need (lint, format, names);
//! - [`records`]: a game's own record formats (bridge's PBN and LIN) as transcripts;
//! - [`diag`], [`codes`], [`files`], [`span`]: diagnostics and their stable codes, reading
//!   files with limits, places in a file.
//!
//! Inside, one module per stage of the pipeline, each using only the ones above it (private;
//! the feature `internals` makes them public for this crate's tests, benchmarks and fuzz
//! targets, and they change as the engine does):
//! 1. `lang`: text to a typed, spanned syntax tree (the pest grammar in `grammar/`), `extends`,
//!    the canonical layout, and the built-in rules files;
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
//! 9. `rules`, `game`, `checking`, `editor`, `records`: the front door above.
//!
//! The command line (`crates/cli`), the language server (`crates/lsp`) and the Python package
//! (`python/`) are built on the public API alone.

#![warn(missing_docs)]
#![allow(clippy::result_large_err, reason = "diagnostics are built once, on the error path")]

// The stages of the pipeline, each declared once (in `stages.rs`): private, or public (and
// hidden from the documentation) under the feature `internals`, for the tests, benchmarks and
// fuzz targets. One `mod` per stage, not one per feature setting: a tool that follows `mod`
// declarations without reading `cfg` (cargo-mutants) would find every file of a stage twice
// and make each of its mutants twice.
mod stages;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use stages::{import, lang, play, program, report, resolve, run, transcript};
#[cfg(not(feature = "internals"))]
use stages::{import, lang, play, program, report, resolve, run, transcript};

mod checking;
pub mod codes;
pub mod diag;
pub mod editor;
pub mod files;
mod game;
mod limits;
pub mod records;
mod rules;
pub mod span;

pub use checking::{Checking, Input, STACK_BYTES};
pub use game::{Game, LegalEvent, Refused};
pub use limits::Limits;
pub use report::check::{Broken, Noted, Report, Step, Verdict};
pub use report::render::ReplayStep;
pub use rules::{Parameter, Rules, RulesError, Stats};
pub use transcript::Problem;
pub use transcript::decode::Malformed;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub use {resolve::compile, resolve::compile_in, transcript::pool::builtin_program};
