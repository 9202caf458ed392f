//! Places in a document as an editor names them: lines and UTF-16 columns (the protocol's
//! default), and `file:` URIs for paths.

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, Uri};

use shinpan::span::Span;

/// Where each line of a text starts, to turn byte offsets into positions and back.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
        Lines { text, starts }
    }

    /// The position of a byte offset; an offset inside a character counts from its start.
    pub fn position(&self, offset: usize) -> Position {
        let offset = shinpan::diag::floor_char(self.text, offset.min(self.text.len()));
        let line = self.starts.partition_point(|s| *s <= offset).saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column: usize = self.text.get(start..offset).map_or(0, |t| t.chars().map(char::len_utf16).sum());
        Position::new(saturate(line), saturate(column))
    }

    pub fn range(&self, span: &Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a position; a column past the line's end is its end.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else { return self.text.len() };
        let end = self.starts.get(position.line as usize + 1).map_or(self.text.len(), |next| next - 1);
        let line = self.text.get(start..end).unwrap_or("");
        let mut units = 0;
        for (at, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + at;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// The byte offset of a position in `text`, as `Lines::offset` gives it, without listing
/// every line (a change to a large document names one place in it).
pub fn offset_in(text: &str, position: Position) -> usize {
    let start = match (position.line as usize).checked_sub(1) {
        None => 0,
        Some(before) => match text.match_indices('\n').nth(before) {
            Some((at, _)) => at + 1,
            None => return text.len(),
        },
    };
    let rest = text.get(start..).unwrap_or("");
    let end = rest.find('\n').map_or(text.len(), |at| start + at);
    let mut units = 0;
    for (at, c) in text.get(start..end).unwrap_or("").char_indices() {
        if units >= position.character as usize {
            return start + at;
        }
        units += c.len_utf16();
    }
    end
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The path a `file:` URI names, if it names one.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///home/x` has an empty authority; `file://localhost/home/x` names this machine.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = percent_decode(path)?;
    String::from_utf8(bytes).ok().map(PathBuf::from)
}

fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex = [bytes.next()?, bytes.next()?];
            out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
        } else {
            out.push(b);
        }
    }
    Some(out)
}

/// The `file:` URI of an absolute path (a relative one is taken from the current directory).
pub fn uri_of(path: &Path) -> Option<Uri> {
    let absolute = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().ok()?.join(path) };
    let mut uri = String::from("file://");
    for b in absolute.to_str()?.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let text = "a\n😀x = 1\n";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x), Position::new(1, 2));
        assert_eq!(lines.offset(Position::new(1, 2)), x);
        assert_eq!(lines.offset(Position::new(1, 99)), text.len() - 1);
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
        for line in 0..4 {
            for character in 0..9 {
                let at = Position::new(line, character);
                assert_eq!(offset_in(text, at), lines.offset(at), "{at:?}");
            }
        }
    }

    #[test]
    fn paths_round_trip_through_uris() {
        let path = Path::new("/tmp/a b/ü.rules");
        let uri = uri_of(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.rules");
        assert_eq!(path_of(&uri).unwrap(), path);
    }
}
