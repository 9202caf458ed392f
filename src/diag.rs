//! Diagnostics: one report type with a stable code, labels into one source, help, and
//! related reports (a second file, such as the rules file beside a transcript).

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity, SourceCode};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::span::Span;

/// A named source shared by every report about it.
pub type Source = NamedSource<Arc<String>>;

/// Where each part of a rules text came from: a file that `extends` another is compiled as
/// the parent's text followed by its own, and diagnostics go back to the right file.
#[derive(Debug, Clone)]
pub struct SourceMap {
    segments: Vec<(usize, Source)>,
}

impl SourceMap {
    /// A map of one source from offset 0.
    pub fn single(source: Source) -> Self {
        SourceMap { segments: vec![(0, source)] }
    }

    /// A map of sources, each from its starting offset (a rules file and its parents).
    pub fn new(segments: Vec<(usize, Source)>) -> Self {
        SourceMap { segments }
    }

    /// The file that holds `offset`: its index, where it starts in the rules text, and it.
    fn segment(&self, offset: usize) -> Option<(usize, usize, &Source)> {
        let i = self.segments.iter().rposition(|(s, _)| *s <= offset)?;
        self.segments.get(i).map(|(start, source)| (i, *start, source))
    }

    /// The line number (from 0) of `offset` in its file, and that file.
    fn line_in_file(&self, offset: usize) -> Option<(usize, &Source)> {
        let (_, start, source) = self.segment(offset)?;
        let text = source.inner();
        Some((text.get(..offset - start).unwrap_or(text).matches('\n').count(), source))
    }

    /// Attaches the file a diagnostic's first label points into, its spans made local to it.
    pub fn place(&self, mut d: Diag) -> Diag {
        let at = d.span().map_or(0, |s| s.start);
        let Some((start, source)) = self.segments.iter().rev().find(|(s, _)| *s <= at).or(self.segments.first()) else {
            return d;
        };
        for (span, _) in &mut d.labels {
            *span = span.start.saturating_sub(*start)..span.end.saturating_sub(*start);
        }
        d.source = Some(source.clone());
        d
    }

    /// The line of the rules text that holds `offset`, trimmed (a declaration, for listing).
    pub fn line_at(&self, offset: usize) -> Option<String> {
        let (line, source) = self.line_in_file(offset)?;
        source.inner().lines().nth(line).map(|l| l.trim().to_string())
    }

    /// The whole lines of the rules text a statement spans (which lie in one file), their
    /// common indentation taken off: a `require` written over several lines, whole.
    pub fn statement(&self, span: &Span) -> Option<String> {
        let (first, source) = self.line_in_file(span.start)?;
        let (last, _) = self.line_in_file(span.end.saturating_sub(1).max(span.start))?;
        let lines: Vec<&str> = source.inner().lines().skip(first).take(last.saturating_sub(first) + 1).collect();
        let indent =
            lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
        let dedented: Vec<&str> = lines.iter().map(|l| l.get(indent..).unwrap_or(l.trim_start()).trim_end()).collect();
        Some(dedented.join("\n"))
    }

    /// Just past the first `}` at or after `offset` in its file, outside `//` comments: the
    /// end of a block whose last statement ends at `offset`.
    pub fn closing_brace_after(&self, offset: usize) -> Option<usize> {
        let (_, start, source) = self.segment(offset)?;
        let rest = source.inner().get(offset - start..)?;
        let mut at = 0;
        for line in rest.split_inclusive('\n') {
            let code = line.find("//").map_or(line, |comment| &line[..comment]);
            if let Some(brace) = code.find('}') {
                return Some(offset + at + brace + 1);
            }
            at += line.len();
        }
        None
    }

    /// The first line of a span (its trailing blanks left out): where a label on a statement
    /// that may run over many lines goes.
    pub fn first_line(&self, span: &Span) -> Span {
        let line = self.text(span).and_then(|t| t.lines().next()).map_or(0, |l| l.trim_end().len());
        span.start..span.start + line
    }

    /// The rules text under a span (which lies in one file).
    pub fn text(&self, span: &Span) -> Option<&str> {
        let (_, start, source) = self.segment(span.start)?;
        source.inner().get(span.start - start..span.end.checked_sub(start)?)
    }

    /// Whether two offsets into the rules text lie in the same file (a diagnostic's labels
    /// must: an extension and its parent are two).
    pub fn same_file(&self, a: usize, b: usize) -> bool {
        let file = |at: usize| self.segment(at).map(|(i, ..)| i);
        file(a) == file(b)
    }

    /// `FILE:LINE` of an offset into the rules text, the file being the one it came from.
    pub fn location(&self, offset: usize) -> Option<String> {
        let (line, source) = self.line_in_file(offset)?;
        Some(format!("{}:{}", source.name(), line + 1))
    }

    /// The name of the file the rules were written in (the last one, for an extension).
    pub fn name(&self) -> String {
        self.segments.last().map_or(String::new(), |(_, s)| s.name().to_string())
    }
}

/// A named text that diagnostics quote.
pub fn source(name: &str, text: &str) -> Source {
    NamedSource::new(name, Arc::new(text.to_string()))
}

#[derive(Debug, Clone)]
/// A diagnostic: a stable code, a message, labelled places in a source, a help line, related diagnostics (the rule's line beside an event). Rendered by `render_plain` and `render_fancy`.
pub struct Diag {
    /// The stable code (`codes`).
    pub code: &'static str,
    /// What is wrong, in one line.
    pub message: String,
    /// The text the labels point into.
    pub source: Option<Source>,
    /// Places in `source`, each with what is wrong there.
    pub labels: Vec<(Span, String)>,
    /// How to fix it, or what was legal instead.
    pub help: Option<String>,
    /// Diagnostics shown with it (the rule's line, the state of the game).
    pub related: Vec<Diag>,
    /// How serious it is: an error, a warning about rules that compile, or advice beside another.
    pub level: Level,
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// The rules or the game are wrong.
    #[default]
    Error,
    /// The rules compile, but likely not as their author meant (`shinpan lint` warns).
    Warning,
    /// Shown beside another diagnostic (the rule's line, the state of the game).
    Advice,
}

impl Diag {
    /// `FILE:LINE:COLUMN` where the diagnostic points (its first label, in the file it points
    /// into), for a one-line message; `None` before it has a place.
    pub fn location(&self) -> Option<String> {
        let (source, span) = (self.source.as_ref()?, self.span()?);
        let (line, column) = line_column(source.inner(), span.start);
        Some(format!("{}:{line}:{column}", source.name()))
    }

    /// A diagnostic with no place yet.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Diag {
            code,
            message: message.into(),
            source: None,
            labels: vec![],
            help: None,
            related: vec![],
            level: Level::Error,
        }
    }

    /// Adds a labelled place.
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push((span, text.into()));
        self
    }

    /// Sets the help line.
    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }

    /// Adds a help line to a diagnostic already recorded.
    pub fn set_help(&mut self, text: impl Into<String>) {
        self.help = Some(text.into());
    }

    /// Points the labels into `source`.
    pub fn in_source(mut self, source: &Source) -> Self {
        self.source = Some(source.clone());
        self
    }

    /// Adds a diagnostic shown with this one.
    pub fn with_related(mut self, other: Diag) -> Self {
        self.related.push(other);
        self
    }

    /// The first labelled span, if any.
    pub fn span(&self) -> Option<Span> {
        self.labels.first().map(|(s, _)| s.clone())
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diag {}

impl Diagnostic for Diag {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<Severity> {
        Some(match self.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Advice => Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.source.as_ref()?;
        let labels = self
            .labels
            .iter()
            .map(|(span, text)| LabeledSpan::new(Some(text.clone()), span.start, span.end.saturating_sub(span.start)));
        Some(Box::new(labels))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|d| d as &dyn Diagnostic)))
    }
}

/// Renders reports without colour at a fixed width: the form used by snapshots.
pub fn render_plain(diag: &Diag) -> String {
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor()).with_width(100);
    let mut out = String::new();
    let diag = &displayable(diag);
    if handler.render_report(&mut out, diag).is_err() {
        out = diag.message.clone();
    }
    out
}

/// Renders reports for a terminal.
pub fn render_fancy(diag: &Diag, color: bool) -> String {
    render_fancy_at(diag, color, 100)
}

/// Renders reports for a terminal `width` columns wide.
pub fn render_fancy_at(diag: &Diag, color: bool, width: usize) -> String {
    let theme = if color { miette::GraphicalTheme::unicode() } else { miette::GraphicalTheme::unicode_nocolor() };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    let diag = &displayable(diag);
    if handler.render_report(&mut out, diag).is_err() {
        out = diag.message.clone();
    }
    out
}

/// Source lines longer than this are shown cut around what they point at: a reader cannot
/// use a line of thousands of characters, and miette cannot show a column past 65,535.
pub const MAX_SHOWN_LINE: usize = 160;

/// The diagnostic as a person is shown it: its text, its labels, its file's name and source
/// with controls escaped ([`printable`], the labels moved to match), and every overlong line
/// of the source (and of its related ones) cut to a window around its first label. Line
/// numbers stay as they are.
pub fn displayable(d: &Diag) -> Diag {
    let mut out = d.clone();
    out.message = printable(&d.message).into_owned();
    out.help = d.help.as_deref().map(|h| printable(h).into_owned());
    for (_, text) in &mut out.labels {
        *text = printable(text).into_owned();
    }
    out.related = d.related.iter().map(displayable).collect();
    let Some(source) = &d.source else { return out };
    let escaped = Escaped::new(source.inner());
    if let Some(escaped) = &escaped {
        for (span, _) in &mut out.labels {
            *span = escaped.map(span.start)..escaped.map(span.end);
        }
    }
    let text: &str = escaped.as_ref().map_or(source.inner(), |e| &e.text);
    let name = printable_line(source.name()).into_owned();
    if !text.split('\n').any(|l| l.len() > MAX_SHOWN_LINE) {
        // The source is copied only when something in it is escaped.
        let text = escaped.map_or_else(|| Arc::clone(source.inner()), |e| Arc::new(e.text));
        out.source = Some(NamedSource::new(name, text));
        return out;
    }
    let starts: Vec<usize> = out.labels.iter().map(|(s, _)| s.start).collect();
    let cropped = Cropped::new(text, &starts);
    for (span, _) in &mut out.labels {
        let start = cropped.map(span.start);
        *span = start..cropped.map(span.end).max(start);
    }
    out.source = Some(NamedSource::new(name, Arc::new(cropped.text)));
    out
}

/// Text from a file (a transcript, a record, a rules file, a file's name) as it may be shown
/// on a terminal: every control character but a line break (`\n`, `\r\n`) and `\t` (C0, DEL,
/// C1), and every bidirectional control (U+061C, U+200E/F, U+202A–E, U+2066–9), is written
/// as its escape, `\u{1b}`, so that a file can neither move the cursor, clear the screen,
/// retitle the window, sound the bell nor reorder what is shown. Distinct texts stay
/// distinct: a run of backslashes right before an escape, or before a written `u{`, is
/// doubled (`\u{1b}` written in a file is shown `\\u{1b}`). Text with nothing to escape is
/// returned as it is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) && !text.contains("\\u{") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    escape_into(text, &mut out, |_, _| {});
    Cow::Owned(out)
}

/// A name (a file's, a board's) as it may be shown within one line: as [`printable`], with its
/// line breaks and tabs escaped too, so that a file named `a.yaml: legal⏎b.yaml` cannot print
/// a line of its own.
pub fn printable_line(text: &str) -> Cow<'_, str> {
    let shown = printable(text);
    if !shown.contains(['\n', '\r', '\t']) {
        return shown;
    }
    Cow::Owned(shown.replace('\n', "\\u{a}").replace('\r', "\\u{d}").replace('\t', "\\u{9}"))
}

/// Whether a character is shown escaped (wherever it stands; `\r` not before `\n`).
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c`, followed by `after`, is escaped: a `\r` that ends a line is not.
fn escaped(c: char, after: &str) -> bool {
    hidden(c) && !(c == '\r' && after.starts_with('\n'))
}

/// Writes `text` escaped to `out`, telling `grew` each offset of `text` where the output
/// grew and by how many bytes (for moving spans).
fn escape_into(text: &str, out: &mut String, mut grew: impl FnMut(usize, usize)) {
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let rest = &text[at..];
        if c == '\\' {
            let run = rest.len() - rest.trim_start_matches('\\').len();
            let after = &rest[run..];
            let next = after.chars().next();
            out.push_str(&rest[..run]);
            if after.starts_with("u{") || next.is_some_and(|n| escaped(n, &after[n.len_utf8()..])) {
                out.push_str(&rest[..run]);
                grew(at, run);
            }
            at += run;
            continue;
        }
        let after = &rest[c.len_utf8()..];
        if escaped(c, after) {
            let before = out.len();
            out.extend(c.escape_unicode());
            grew(at, out.len() - before - c.len_utf8());
        } else {
            out.push(c);
        }
        at += c.len_utf8();
    }
}

/// A source escaped for showing ([`printable`]), and how to find an old offset in it.
struct Escaped {
    text: String,
    /// Each offset of the old text where the new one grew, with how much it had grown in all
    /// once past it.
    grown: Vec<(usize, usize)>,
}

impl Escaped {
    /// `None` when the source has nothing to escape.
    fn new(old: &str) -> Option<Escaped> {
        if !old.chars().any(hidden) && !old.contains("\\u{") {
            return None;
        }
        let mut text = String::with_capacity(old.len() + 16);
        let mut grown = vec![];
        let mut total = 0;
        escape_into(old, &mut text, |at, by| {
            total += by;
            grown.push((at, total));
        });
        (!grown.is_empty()).then_some(Escaped { text, grown })
    }

    /// Where an old offset is in the new text: moved by what grew before it.
    fn map(&self, offset: usize) -> usize {
        let i = self.grown.partition_point(|(at, _)| *at < offset);
        let by = i.checked_sub(1).and_then(|i| self.grown.get(i)).map_or(0, |(_, total)| *total);
        (offset + by).min(self.text.len())
    }
}

/// A text whose long lines were cut, and how to find an old offset in it.
struct Cropped {
    text: String,
    /// Per line: old start, old end, new start, kept window (old offsets), and the length of
    /// the `…` put before the window.
    lines: Vec<(usize, usize, usize, std::ops::Range<usize>, usize)>,
}

impl Cropped {
    fn new(old: &str, labels: &[usize]) -> Cropped {
        let mut text = String::with_capacity(old.len().min(1 << 20));
        let mut lines = vec![];
        let mut at = 0;
        for line in old.split_inclusive('\n') {
            let end = at + line.trim_end_matches('\n').len();
            let new_start = text.len();
            if end - at <= MAX_SHOWN_LINE {
                text.push_str(line);
                lines.push((at, end, new_start, at..end, 0));
            } else {
                let focus = labels.iter().copied().find(|l| (at..=end).contains(l)).unwrap_or(at);
                let lo = floor_char(old, focus.saturating_sub(MAX_SHOWN_LINE / 2).max(at));
                let hi = floor_char(old, (lo + MAX_SHOWN_LINE).min(end));
                let before = if lo > at { "…" } else { "" };
                text.push_str(before);
                text.push_str(&old[lo..hi]);
                if hi < end {
                    text.push('…');
                }
                text.push_str(&line[end - at..]);
                lines.push((at, end, new_start, lo..hi, before.len()));
            }
            at += line.len();
        }
        Cropped { text, lines }
    }

    fn map(&self, offset: usize) -> usize {
        let i = self.lines.partition_point(|(start, ..)| *start <= offset).saturating_sub(1);
        let Some((start, end, new_start, window, before)) = self.lines.get(i) else { return self.text.len() };
        if window.start == *start && window.end == *end {
            return (new_start + offset.saturating_sub(*start)).min(self.text.len());
        }
        let kept = offset.clamp(window.start, window.end);
        new_start + before + (kept - window.start)
    }
}

/// The nearest char boundary at or before `at`.
pub fn floor_char(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The line and column (from 1; columns in characters) of a byte offset into a text.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let at = floor_char(text, offset.min(text.len()));
    let before = text.get(..at).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before.get(line_start..).map_or(0, |l| l.chars().count()) + 1)
}

/// Longest name, in bytes, for which a close one is looked for.
pub const MAX_SUGGESTED: usize = 256;

/// The known name closest to a mistyped one, when it is close enough to be a typo.
pub fn did_you_mean<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    // The edit distance costs the product of the lengths: a name from a hostile file may be
    // a megabyte long. Past `MAX_SUGGESTED` bytes, or further apart in length than the edits
    // allowed, no name can be close, so none is measured.
    if name.len() > MAX_SUGGESTED {
        return None;
    }
    candidates
        .filter(|c| c.len() <= MAX_SUGGESTED && name.len().abs_diff(c.len()) <= 2.max(c.len() / 3))
        .map(|c| (strsim::levenshtein(name, c), c))
        // Two edits are a typo in a long name, but a different word in a three-letter one.
        .filter(|(d, c)| *d <= 2.max(c.len() / 3) && *d * 2 <= c.len())
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::{Diag, SourceMap, did_you_mean, line_column, source};

    #[test]
    fn a_place_is_its_line_and_column_in_characters_from_one() {
        let text = "game g\n  é = x\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 7), (2, 1));
        // After a two-byte character; inside one counts from its start; past the end, at it.
        assert_eq!(line_column(text, 12), (2, 5));
        assert_eq!(line_column(text, 10), (2, 3));
        assert_eq!(line_column(text, 99), (3, 1));
        let placed = Diag::new("c", "m").label(11..12, "here");
        let placed = SourceMap::single(source("g.rules", text)).place(placed);
        assert_eq!(placed.location().as_deref(), Some("g.rules:2:4"));
        assert_eq!(Diag::new("c", "m").location(), None);
    }

    #[test]
    fn a_block_ends_just_past_its_own_brace_in_its_own_file() {
        let parent = "x = 1\n";
        let child = "a {\n  x = 2\n  // not this }\n  }\n}\n";
        let map = SourceMap::new(vec![(0, source("p.rules", parent)), (parent.len(), source("c.rules", child))]);
        // From the end of `x = 2` in the second file: past the brace on its fourth line.
        let from = parent.len() + child.find("x = 2").unwrap() + "x = 2".len();
        let brace = parent.len() + child.find("  }\n}").unwrap() + "  }".len();
        assert_eq!(map.closing_brace_after(from), Some(brace));
        // On the same line, and none left.
        assert_eq!(map.closing_brace_after(brace - 3), Some(brace));
        assert_eq!(map.closing_brace_after(parent.len() + child.len() - 1), None);
    }

    #[test]
    fn a_typo_is_close_for_its_length() {
        let suggest = |name: &str, known: &'static str| did_you_mean(name, [known].into_iter());
        // A two-letter name: one edit is a typo.
        assert_eq!(suggest("xb", "ab"), Some("ab"));
        // Three letters: one edit is, two are another word.
        assert_eq!(suggest("xbc", "abc"), Some("abc"));
        assert_eq!(suggest("xyc", "abc"), None);
        // Twelve letters: up to a third of them (4 edits), not 5.
        assert_eq!(suggest("abcdefghWXYZ", "abcdefghijkl"), Some("abcdefghijkl"));
        assert_eq!(suggest("abcdefgVWXYZ", "abcdefghijkl"), None);
        // The closest of several.
        assert_eq!(did_you_mean("colour-chip", ["color-chip", "hold-card"].into_iter()), Some("color-chip"));
    }
}
