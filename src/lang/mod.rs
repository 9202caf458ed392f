//! The rules language as text: the grammar and its typed, spanned syntax tree (`syntax`,
//! `ast`), `extends` (a rules file on top of another), the formatter (`fmt`), and the built-in games' files (`specs`).

pub mod ast;
pub mod extend;
pub mod fmt;
pub mod specs;
pub mod syntax;
