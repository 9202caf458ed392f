//! Diagnostics: one report type with a stable code, labels into one source, help, and
//! related reports (a second file, such as the rules file beside a transcript).

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity, SourceCode};
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
    pub fn single(source: Source) -> Self {
        SourceMap { segments: vec![(0, source)] }
    }

    pub fn new(segments: Vec<(usize, Source)>) -> Self {
        SourceMap { segments }
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

    /// The name of the file the rules were written in (the last one, for an extension).
    pub fn name(&self) -> String {
        self.segments.last().map_or(String::new(), |(_, s)| s.name().to_string())
    }
}

pub fn source(name: &str, text: &str) -> Source {
    NamedSource::new(name, Arc::new(text.to_string()))
}

#[derive(Debug, Clone)]
pub struct Diag {
    pub code: &'static str,
    pub message: String,
    pub source: Option<Source>,
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
    pub related: Vec<Diag>,
    pub advice: bool,
}

impl Diag {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Diag { code, message: message.into(), source: None, labels: vec![], help: None, related: vec![], advice: false }
    }

    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push((span, text.into()));
        self
    }

    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }

    pub fn in_source(mut self, source: &Source) -> Self {
        self.source = Some(source.clone());
        self
    }

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
        Some(if self.advice { Severity::Advice } else { Severity::Error })
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
    if handler.render_report(&mut out, diag).is_err() {
        out = diag.message.clone();
    }
    out
}

/// Renders reports for a terminal.
pub fn render_fancy(diag: &Diag, color: bool) -> String {
    let theme = if color { miette::GraphicalTheme::unicode() } else { miette::GraphicalTheme::unicode_nocolor() };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    if handler.render_report(&mut out, diag).is_err() {
        out = diag.message.clone();
    }
    out
}
