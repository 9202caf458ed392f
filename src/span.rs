//! Byte spans into a source file.

/// A byte range in the source it came from.
pub type Span = std::ops::Range<usize>;

/// A name as written, with where it was written.
#[derive(Clone, Debug)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

impl PartialEq for Name {
    /// Spans are left out of equality so that re-parsed trees compare by structure.
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}
