//! One module per subcommand; each takes its arguments and returns its exit status.

pub mod check;
pub mod explain;
pub mod fmt;
pub mod import;
pub mod lint;
pub mod play;
pub mod referee;
pub mod replay;
pub mod rules;
