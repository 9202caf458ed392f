//! Byte spans into a source file.

/// A byte range in the source it came from.
pub type Span = std::ops::Range<usize>;

/// A name as written, with where it was written.
#[derive(Clone, Debug)]
pub struct Name {
    /// The name as written.
    pub text: String,
    /// Where it is written.
    pub span: Span,
}
