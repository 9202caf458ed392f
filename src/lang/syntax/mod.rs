//! Text to syntax tree: the pest grammar (`grammar/spec.pest`), then lowering of its pairs.

mod errors;
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
    let mut pairs = SpecParser::parse(Rule::spec, text).map_err(|e| errors::syntax_error(&e, text))?;
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
    // After a `let` inside an expression, its `=` binds a name: it does not begin a new
    // expression the way an assignment's does.
    let mut let_binding = false;
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
                    if std::mem::take(&mut let_binding) {
                        // `let x = ...` inside an expression: still nested.
                    } else if let Some(level) = levels.last_mut() {
                        level.words = 0;
                    }
                }
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let end = word_end(text, at);
                    let word = &text[at..end];
                    while chars.next_if(|(i, _)| *i < end).is_some() {}
                    if let Some(level) = levels.last_mut() {
                        if word == "let" && inside_expression(&text[..at]) {
                            // `let x = V in BODY` where an expression stands nests BODY.
                            level.words += 1;
                            let_binding = true;
                        } else if STATEMENT_WORDS.contains(&word) {
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

/// Whether a word after `before` stands where an expression does (after an operator, an
/// opening bracket, a comma, `=` or a word such as `in` or `then`), not where a statement begins.
fn inside_expression(before: &str) -> bool {
    let before = before.trim_end();
    if before.ends_with(['=', '(', '[', ',', ':', '+', '-', '*', '/', '%', '<', '>', '!']) {
        return true;
    }
    // The last word is what follows the last other character, which may take more than a byte.
    let last_word = before.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or_default();
    matches!(last_word, "in" | "then" | "else" | "and" | "or" | "not" | "where" | "when" | "choices" | "by")
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
