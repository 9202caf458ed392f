//! The rules language as text: the grammar and its typed, spanned syntax tree (`syntax`,
//! `ast`), `extends` (a rules file on top of another), and the built-in games' files (`specs`).

pub mod ast;
pub mod extend;
pub mod specs;
pub mod syntax;
