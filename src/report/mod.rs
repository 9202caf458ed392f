//! Checking files and saying what was found: the verdict of each transcript (`check`), in the
//! contract's JSON Lines and as miette diagnostics (`render`, with `values` in transcript words),
//! and the judge's replay page (`page`).

pub mod check;
pub mod page;
pub mod render;
pub mod values;
