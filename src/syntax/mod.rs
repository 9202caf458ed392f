//! Text to syntax tree: the pest grammar (`grammar/spec.pest`), then lowering of its pairs.

mod lower;

use pest::Parser;

use crate::ast::Spec;
use crate::codes;
use crate::diag::Diag;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/spec.pest"]
pub struct SpecParser;

/// Deepest bracket nesting a rules file may use; pest recurses once per level.
const MAX_NESTING: usize = 64;

/// Parses a rules file into its syntax tree.
pub fn parse(text: &str) -> Result<Spec, Diag> {
    check_nesting(text)?;
    let mut pairs = SpecParser::parse(Rule::spec, text).map_err(|e| syntax_error(&e))?;
    let spec = pairs.next().ok_or_else(|| Diag::new(codes::SYNTAX, "empty rules file"))?;
    lower::spec(spec)
}

/// Refuses absurd nesting before pest sees it, so a hostile file cannot exhaust the stack.
fn check_nesting(text: &str) -> Result<(), Diag> {
    let mut depth = 0usize;
    for (at, ch) in text.char_indices() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(Diag::new(codes::TOO_DEEP, format!("brackets nest more than {MAX_NESTING} deep"))
                .label(at..at + 1, "too deep here")
                .help("split the expression with `let` or a helper `fn`"));
        }
    }
    Ok(())
}

fn syntax_error(e: &pest::error::Error<Rule>) -> Diag {
    let span = match e.location {
        pest::error::InputLocation::Pos(p) => p..p + 1,
        pest::error::InputLocation::Span((a, b)) => a..b.max(a + 1),
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
            let mut names: Vec<String> = vec![];
            for name in positives.iter().map(rule_name) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("expected {} or {last}", rest.join(", ")),
                _ => format!("expected {}", names.join("")),
            }
        }
        _ => "unexpected input".to_string(),
    };
    Diag::new(codes::SYNTAX, format!("syntax error: {expected}")).label(span, "here")
}

/// Names grammar rules the way a spec author reads them.
fn rule_name(rule: &Rule) -> String {
    let text = format!("{rule:?}");
    if let Some(word) = text.strip_prefix("k_") {
        return format!("`{word}`");
    }
    match rule {
        Rule::closing_brace => "`}`".into(),
        Rule::colon => "`:`".into(),
        Rule::dotdot => "`..`".into(),
        Rule::EOI => "end of file".into(),
        Rule::ident => "a name".into(),
        Rule::rule_id => "a rule id".into(),
        Rule::int => "a number".into(),
        Rule::string => "a string".into(),
        Rule::assign_op => "`=`".into(),
        Rule::cmp_op | Rule::sum_op | Rule::product_op | Rule::concat_op | Rule::or_op | Rule::and_op => {
            "an operator".into()
        }
        _ => text.replace('_', " "),
    }
}
