//! Text to syntax tree: the pest grammar (`grammar/spec.pest`), then lowering of its pairs.

mod lower;

use pest::Parser;

use crate::codes;
use crate::diag::Diag;
use crate::lang::ast::Spec;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/spec.pest"]
pub struct SpecParser;

/// How deep the parser may recurse, counted as the brackets open plus the words that open a
/// nested expression or type without a bracket (`if`, `all`, `exists`, `list`, `map`) in the
/// expression being read. Real rules files stay below 20.
pub const MAX_NESTING: usize = 64;
/// Most operands in one chain (`a + b + ...`, `not not ...`): each is one level of the tree.
pub const MAX_CHAIN: usize = 100;
/// Most grammar steps for one rules file: a backstop against any input that would make the
/// parser backtrack for too long.
const MAX_PARSER_CALLS: usize = 200_000_000;

/// Parses a rules file into its syntax tree.
pub fn parse(text: &str) -> Result<Spec, Diag> {
    check_nesting(text)?;
    pest::set_call_limit(std::num::NonZeroUsize::new(MAX_PARSER_CALLS));
    let mut pairs = SpecParser::parse(Rule::spec, text).map_err(|e| syntax_error(&e))?;
    let spec = pairs.next().ok_or_else(|| Diag::new(codes::SYNTAX, "empty rules file"))?;
    lower::spec(spec)
}

/// Words that open a nested expression or type without a bracket.
const NESTING_WORDS: &[&str] = &["if", "all", "exists", "list", "map"];
/// Words that begin a statement or declaration: the expression before them has ended.
const STATEMENT_WORDS: &[&str] = &[
    "let",
    "require",
    "for",
    "while",
    "loop",
    "choose",
    "break",
    "continue",
    "again",
    "finish",
    "game",
    "extends",
    "players",
    "rule",
    "param",
    "enum",
    "card",
    "codes",
    "action",
    "var",
    "fn",
    "proc",
    "check",
    "always",
    "window",
    "open",
    "scores",
    "winners",
    "flow",
    "otherwise",
    "due",
    "settle",
];
/// Words that continue an expression after a closing `}` (a record literal, a block's head).
const CONTINUING_WORDS: &[&str] =
    &["else", "then", "and", "or", "not", "in", "for", "where", "by", "as", "when", "choices", "code", "each"];

/// The closer of a string's `{...}`, whose `}` goes back into the string.
const INTERPOLATION: char = 'I';

/// One open bracket (or the file itself) and the nesting words read in it since the
/// expression being read began.
struct Level {
    closer: char,
    words: usize,
}

/// Refuses nesting deeper than the parser can take before pest sees the file, so that a
/// hostile file cannot exhaust the stack. Brackets in comments and in the text of strings do
/// not count; a string's `{...}` does.
fn check_nesting(text: &str) -> Result<(), Diag> {
    let mut levels = vec![Level { closer: ' ', words: 0 }];
    let mut chars = text.char_indices().peekable();
    let mut in_string = false;
    while let Some((at, ch)) = chars.next() {
        if in_string {
            match ch {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                '{' => {
                    levels.push(Level { closer: INTERPOLATION, words: 0 });
                    in_string = false;
                }
                _ => {}
            }
        } else {
            match ch {
                '"' => in_string = true,
                '/' if chars.peek().is_some_and(|(_, c)| *c == '/') => {
                    while chars.next_if(|(_, c)| *c != '\n').is_some() {}
                }
                '(' => levels.push(Level { closer: ')', words: 0 }),
                '[' => levels.push(Level { closer: ']', words: 0 }),
                '{' => levels.push(Level { closer: '}', words: 0 }),
                ')' | ']' | '}' => {
                    if levels.len() > 1 {
                        // The `}` of an interpolation goes back into its string.
                        in_string = levels.pop().is_some_and(|l| l.closer == INTERPOLATION);
                    }
                    if ch == '}'
                        && !in_string
                        && starts_statement(&text[at + 1..])
                        && let Some(level) = levels.last_mut()
                    {
                        level.words = 0;
                    }
                }
                ',' => {
                    if let Some(level) = levels.last_mut() {
                        level.words = 0;
                    }
                }
                // An assignment (`=`, `+=`, `-=`; not `==`, `!=`, `<=`, `>=`) begins a new
                // expression: `x = if a then b else c` on many lines is not nesting.
                '=' if !text[..at].ends_with(['=', '!', '<', '>']) && !text[at + 1..].starts_with(['=', '>']) => {
                    if let Some(level) = levels.last_mut() {
                        level.words = 0;
                    }
                }
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let end = word_end(text, at);
                    let word = &text[at..end];
                    while chars.next_if(|(i, _)| *i < end).is_some() {}
                    if let Some(level) = levels.last_mut() {
                        if STATEMENT_WORDS.contains(&word) {
                            level.words = 0;
                        } else if NESTING_WORDS.contains(&word) {
                            level.words += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        // Depth only grows where a bracket opens or a nesting word is read; the sum is taken
        // only then, not at every character.
        let grew = matches!(ch, '(' | '[' | '{') || ch.is_ascii_alphabetic();
        if grew && levels.iter().map(|l| l.words).sum::<usize>() + levels.len() - 1 > MAX_NESTING {
            return Err(too_deep(at));
        }
    }
    Ok(())
}

fn too_deep(at: usize) -> Diag {
    Diag::new(codes::TOO_DEEP, format!("expressions nest more than {MAX_NESTING} deep"))
        .label(at..at + 1, "too deep here")
        .help("split the expression with `let` or a helper `fn`")
}

fn word_end(text: &str, start: usize) -> usize {
    text[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(text.len(), |n| start + n)
}

/// Whether what follows a `}` begins a new statement (a word that cannot continue an
/// expression), so that the nesting words before it no longer count.
fn starts_statement(rest: &str) -> bool {
    let rest = rest.trim_start();
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let word = &rest[..end];
    !word.is_empty() && rest.starts_with(|c: char| c.is_ascii_alphabetic()) && !CONTINUING_WORDS.contains(&word)
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
        Rule::card_word => "`card`, `codes`".into(),
        Rule::closing_brace => "`}`".into(),
        Rule::bracket | Rule::index => "`[`".into(),
        Rule::field => "`.`".into(),
        Rule::else_if | Rule::else_if_expr => "`else if`".into(),
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
