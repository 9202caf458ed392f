//! What the tools of a rules file's author need without running a game: its diagnostics
//! (`lint`), its canonical layout (`format`), the names it declares and uses (`analyse`), and
//! the language's built-in functions, shared rule ids and built-in games. The command line's
//! `lint` and `fmt` and the language server are built on this module alone.

mod analysis;
mod blind;
mod finishing;
mod order;

use std::path::Path;

use crate::diag::Diag;

pub use analysis::{Analysis, Decl, DeclKind, Found, Item, ItemKind, Local, Occurrence, Use, analyse};

/// What a rules file that compiles offers an editor: each card's code with its kind's name.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// (code, kind) of every card the rules declare, in their order.
    pub cards: Vec<(String, String)>,
    /// What is likely wrong though the rules compile: a flow that can end without `finish`, a
    /// branch `play` never takes or tries blindly over many values.
    pub warnings: Vec<Diag>,
}

/// Compiles a rules text as `shinpan lint` does: its errors, or what it declares with its
/// warnings.
/// `label` names the file in diagnostics; `dir` is where its `extends` and data files are
/// found from.
///
/// ```
/// let text = "game g\nplayers 2..2\nflow {\n  finish\n}\n";
/// assert!(shinpan::editor::lint("g.rules", text, std::path::Path::new(".")).is_err(), "no scores or winners");
/// ```
pub fn lint(label: &str, text: &str, dir: &Path) -> Result<Checked, Vec<Diag>> {
    let program = crate::resolve::compile_in(label, text, dir)?;
    let kind_of = |kind: u16| program.kinds.get(usize::from(kind)).map_or("", |k| k.name.as_str()).to_string();
    let cards = program.cards.iter().map(|c| (c.code.to_string(), kind_of(c.kind))).collect();
    let mut warnings: Vec<Diag> = finishing::flow_can_end_unfinished(&program).into_iter().collect();
    warnings.extend(blind::advice(&program));
    warnings.extend(order::out_of_order(&program));
    Ok(Checked { cards, warnings })
}

/// The canonical layout of a rules text (`shinpan fmt`), comments kept; the syntax errors of
/// a text that does not parse (without a source: the caller names the file).
pub fn format(text: &str) -> Result<String, Vec<Diag>> {
    crate::lang::fmt::format_source(text)
}

/// The language's built-in functions: (name, signature, one line of description).
pub fn builtin_functions() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    crate::program::builtins::names()
        .filter_map(|name| crate::program::builtins::describe(name).map(|(sig, text)| (name, sig, text)))
}

/// One built-in function: (name, signature, description).
pub fn builtin_function(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    builtin_functions().find(|(n, ..)| *n == name)
}

/// The rule ids every game shares, with what each means.
pub fn shared_rules() -> &'static [(&'static str, &'static str)] {
    &crate::resolve::SHARED_RULES
}

/// The text of a built-in game's rules file, by its name (`hangover`).
pub fn builtin_rules(name: &str) -> Option<&'static str> {
    crate::lang::specs::builtin(name)
}

/// The names of the built-in games, in the order of their files in `specs/`.
pub fn builtin_games() -> impl Iterator<Item = &'static str> {
    crate::lang::specs::BUILTIN.iter().map(|(name, _)| *name)
}
