//! Readers of a game's own record formats, each deal of a record becoming an ordinary
//! transcript. These are the one place outside `specs/` that knows a game: the formats are
//! that game's (PBN and LIN are bridge's), and what they produce is checked like any other
//! transcript, against the rules file.

mod bridge;
pub mod lin;
pub mod pbn;

use serde_json::Value as Json;

/// Most characters of a record's board or room a deal keeps (`Deal::board`, `Deal::room`),
/// which every verdict and summary line of the deal echoes: past it the rest is `…`. A tag
/// inherited with `#` (PBN) may be a megabyte, and copied into each of a thousand deals it
/// would make output and memory grow with deals times tag, not with the file.
pub const MAX_ECHOED_TAG: usize = 200;

/// Most characters of a record's tag or value a deal's transcript keeps in its `meta` (event,
/// site, date, board, room, score, players' names): past it the rest is `…`, for the same
/// reason. Nothing in `meta` is checked; what is (the deal, the calls, the cards) is parsed
/// into events whose size does not depend on the tag's.
pub const MAX_META_TAG: usize = 1_000;

/// `text` cut at `chars` characters, `…` marking a cut.
pub fn capped(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// One deal of a record file, as a transcript (JSON here; text where the library hands it
/// out) or as the reason it cannot be one.
#[derive(Debug)]
pub struct Deal<T = Json> {
    /// The deal's position in its file, counting from 1.
    pub number: usize,
    /// The line of the file where the deal starts.
    pub line: usize,
    /// The deal's board, as the record names it (at most `MAX_ECHOED_TAG` characters).
    pub board: Option<String>,
    /// The room of a team match (at most `MAX_ECHOED_TAG` characters).
    pub room: Option<String>,
    /// The deal as a transcript, or why it cannot be one.
    pub transcript: Result<T, String>,
}

impl<T> Deal<T> {
    /// The same deal with its transcript made into another form.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Deal<U> {
        Deal {
            number: self.number,
            line: self.line,
            board: self.board,
            room: self.room,
            transcript: self.transcript.map(f),
        }
    }
}

/// Whether a path is a record file these readers know, by its extension.
pub fn is_record(path: &std::path::Path) -> bool {
    record_kind(path).is_some()
}

/// The deals of a record file, by its extension (`.pbn`, `.lin`, in any case).
pub fn read_deals(path: &std::path::Path, text: &str) -> Vec<Deal> {
    match record_kind(path) {
        Some(Kind::Lin) => lin::deals(text),
        _ => pbn::deals(text),
    }
}

enum Kind {
    Pbn,
    Lin,
}

fn record_kind(path: &std::path::Path) -> Option<Kind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "pbn" => Some(Kind::Pbn),
        "lin" => Some(Kind::Lin),
        _ => None,
    }
}

/// A transcript as text, one event per line (so a diagnostic can point at the event).
pub fn transcript_text(t: &Json) -> String {
    let mut out = String::new();
    for key in ["rules", "players", "meta"] {
        if let Some(v) = t.get(key) {
            out.push_str(&format!("{key}: {v}\n"));
        }
    }
    out.push_str("events:\n");
    for e in t["events"].as_array().into_iter().flatten() {
        out.push_str(&format!("  - {e}\n"));
    }
    out
}
