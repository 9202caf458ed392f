//! LIN (Bridge Base Online) records: `key|value|` pairs, each `md|` a new deal; rules/bridge.md
//! section 12.

use super::Deal;

pub fn deals(_text: &str) -> Vec<Deal> {
    vec![]
}
