//! The number of arguments of a call of a `fn` or `proc` declared in the rules: checked
//! when compiling, so that a wrong count is a lint error and not a failure in the middle of
//! a game that reaches the call.

use crate::codes;
use crate::diag::{Diag, SourceMap};
use crate::span::{Name, Span};

/// What a call of a declared helper must match: its parameters and where it is declared.
pub(super) struct Signature {
    name: String,
    params: Vec<String>,
    declared_at: Span,
}

impl Signature {
    pub(super) fn new(name: &Name, params: &[Name]) -> Self {
        Signature {
            name: name.text.clone(),
            params: params.iter().map(|p| p.text.clone()).collect(),
            declared_at: name.span.clone(),
        }
    }

    /// The diagnostic for a call at `call` with `given` arguments, if that is not the count
    /// the helper takes.
    pub(super) fn wrong_count(&self, given: usize, call: &Span, source: &SourceMap) -> Option<Diag> {
        let takes = self.params.len();
        if given == takes {
            return None;
        }
        let message = format!("`{}` takes {}, not {given}", self.name, arguments(takes));
        let d = Diag::new(codes::ARITY, message).label(call.clone(), format!("called with {}", arguments(given)));
        // A diagnostic's labels all point into one file: a helper declared in the file this
        // one extends is named in the help line instead.
        let d = if source.same_file(self.declared_at.start, call.start) {
            d.label(self.declared_at.clone(), format!("`{}` takes {}", self.name, arguments(takes)))
        } else {
            d
        };
        Some(d.help(format!("call it as `{}({})`", self.name, self.params.join(", "))))
    }
}

/// `1 argument`, `2 arguments`, `no arguments`.
fn arguments(n: usize) -> String {
    match n {
        0 => "no arguments".into(),
        1 => "1 argument".into(),
        n => format!("{n} arguments"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_written_as_words_say_them() {
        assert_eq!(arguments(0), "no arguments");
        assert_eq!(arguments(1), "1 argument");
        assert_eq!(arguments(3), "3 arguments");
    }
}
