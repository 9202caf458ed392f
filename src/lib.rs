//! shinpan: card-game rules as spec files, and a checker of recorded games against them.
//!
//! The pipeline, one module per stage:
//! 1. `syntax`: text to syntax tree (`ast`), through the pest grammar in `grammar/`;
//! 2. `resolve`: names to indices, static checks; gives a `program::Program`;
//! 3. `transcript` and `decode`: a YAML transcript to events shaped by the program;
//! 4. `interp`: runs the program's flow, consuming events, and finds the first violation;
//! 5. `check` and `render`: verdicts, JSON Lines and miette diagnostics;
//! 6. `page`: a replay of a checked transcript as one self-contained HTML page.
//!
//! Beside the pipeline, `import` reads a game's own record formats (PBN, LIN) into ordinary
//! transcripts, which then go through it like any other.

#![allow(clippy::result_large_err, reason = "diagnostics are built once, on the error path")]

pub mod ast;
pub mod builtins;
pub mod check;
pub mod codes;
pub mod decode;
pub mod diag;
pub mod extend;
pub mod import;
pub mod interp;
pub mod page;
pub mod play;
pub mod pool;
pub mod program;
pub mod render;
pub mod resolve;
pub mod rng;
pub mod span;
pub mod specs;
pub mod syntax;
pub mod transcript;
pub mod typecheck;
pub mod value;

use diag::Diag;
use program::Program;

/// Compiles a rules file: parse, then resolve. `label` names the file in diagnostics.
pub fn compile(label: &str, text: &str) -> Result<Program, Vec<Diag>> {
    compile_in(label, text, std::path::Path::new("."))
}

/// A built-in game, compiled, with the cards of its default data files (a card pool): what
/// playouts and the property tests run.
pub fn builtin_program(name: &str) -> Option<Result<Program, Vec<Diag>>> {
    let text = specs::builtin(name)?;
    Some(compile(name, text).and_then(|p| {
        if !pool::has_pools(&p) {
            return Ok(p);
        }
        pool::with_defaults(&p).map_err(|m| vec![Diag::new(codes::MALFORMED, m)])
    }))
}

/// Compiles a rules file whose `extends` paths are relative to `base`.
pub fn compile_in(label: &str, text: &str, base: &std::path::Path) -> Result<Program, Vec<Diag>> {
    let (combined, segments) = extend::assemble(label, text, base, 0).map_err(|d| vec![d])?;
    let map = diag::SourceMap::new(segments);
    let mut spec = syntax::parse(&combined).map_err(|d| vec![map.place(d)])?;
    if spec.extends.is_some() {
        extend::apply_overrides(&mut spec);
    }
    resolve::resolve(&spec, &map)
        .map_err(|ds| ds.into_iter().map(|d| if d.source.is_some() { d } else { map.place(d) }).collect())
}
