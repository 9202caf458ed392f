//! A game's own record formats, read into ordinary transcripts: bridge's PBN (1.0-2.1) and
//! BBO's LIN, deal by deal (`shinpan import`; `Checking` checks them directly). The readers
//! know the formats, not the game's rules: a transcript they write is judged like any other.
//!
//! ```
//! let text = std::fs::read_to_string("fixtures/records/messy.pbn").unwrap_or_default();
//! for deal in shinpan::records::read_deals(std::path::Path::new("messy.pbn"), &text) {
//!     if let Ok(transcript) = &deal.transcript {
//!         assert!(transcript.starts_with("rules: "), "{transcript}");
//!     }
//! }
//! ```

use std::path::Path;

/// One deal of a record file: its number (from 1), the line where it starts, its board and
/// room as the record names them (cut at 200 characters), and the deal as a transcript's text
/// (YAML, one event a line) or why it cannot be one.
pub type Deal = crate::import::Deal<String>;

/// Whether a path is a record file these readers know, by its extension (`.pbn`, `.lin`, in
/// any case).
pub fn is_record(path: &Path) -> bool {
    crate::import::is_record(path)
}

/// The deals of a record file's text; `path` says which format by its extension.
pub fn read_deals(path: &Path, text: &str) -> Vec<Deal> {
    crate::import::read_deals(path, text).into_iter().map(|d| d.map(|t| crate::import::transcript_text(&t))).collect()
}
