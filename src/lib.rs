//! shinpan: card-game rules as spec files, and a checker of recorded games against them.
//!
//! The pipeline, one module per stage:
//! 1. `syntax`: text to syntax tree (`ast`), through the pest grammar in `grammar/`;
//! 2. `resolve`: names to indices, static checks; gives a `program::Program`;
//! 3. `transcript` and `decode`: a YAML transcript to events shaped by the program;
//! 4. `interp`: runs the program's flow, consuming events, and finds the first violation;
//! 5. `check` and `render`: verdicts, JSON Lines and miette diagnostics.

#![allow(clippy::result_large_err, reason = "diagnostics are built once, on the error path")]

pub mod ast;
pub mod builtins;
pub mod check;
pub mod codes;
pub mod decode;
pub mod diag;
pub mod interp;
pub mod play;
pub mod program;
pub mod render;
pub mod resolve;
pub mod rng;
pub mod span;
pub mod specs;
pub mod syntax;
pub mod transcript;
pub mod value;

use diag::Diag;
use program::Program;

/// Compiles a rules file: parse, then resolve. `label` names the file in diagnostics.
pub fn compile(label: &str, text: &str) -> Result<Program, Vec<Diag>> {
    let source = diag::source(label, text);
    let spec = syntax::parse(text).map_err(|d| vec![d.in_source(&source)])?;
    resolve::resolve(&spec, &source).map_err(|ds| ds.into_iter().map(|d| if d.source.is_some() { d } else { d.in_source(&source) }).collect())
}
