//! Syntax errors in the author's words: what was expected (a declaration, a statement, a
//! value, `else`), placed where it was missing rather than at the next line's first word, and
//! a fix where the mistake is a common one (`=` for `==`, `&&`, a `{` never closed, `let`
//! without `in`, a keyword used as a name).

use pest::error::{ErrorVariant, InputLocation};

use super::Rule;
use crate::codes;
use crate::diag::Diag;

/// Whether `word` is one the language keeps (the grammar's own `keyword` rule): never a name.
fn is_kept_word(word: &str) -> bool {
    use pest::Parser;
    super::SpecParser::parse(Rule::keyword, word)
        .is_ok_and(|mut pairs| pairs.next().is_some_and(|p| p.as_str() == word))
}

/// A pest error as a diagnostic of the rules file `text`.
pub(super) fn syntax_error(e: &pest::error::Error<Rule>, text: &str) -> Diag {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((a, _)) => a,
    }
    .min(text.len());
    let positives: Vec<Rule> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { .. } => vec![],
    };
    let rest = &text[pos..];
    let expected = expected_words(&positives);
    let (span, label) = place(text, pos, &positives);
    let syntax = |message: String| Diag::new(codes::SYNTAX, message);

    // Mistakes with a fix of their own.
    let in_expression = positives.iter().any(|r| matches!(r, Rule::cmp_op | Rule::let_cmp_op | Rule::sum_op));
    if in_expression && rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>") {
        return syntax("syntax error: `=` sets a value; a comparison is `==`".into())
            .label(pos..pos + 1, "`=` in a condition")
            .help("write `==` to compare");
    }
    for (written, word) in [("&&", "and"), ("||", "or"), ("!", "not")] {
        if rest.starts_with(written) && !rest.starts_with("!=") {
            return syntax(format!("syntax error: the rules language writes `{word}`, not `{written}`"))
                .label(pos..pos + written.len(), "here")
                .help(format!("write `{word}`"));
        }
    }
    if let Some(open) = unclosed(text)
        && text[pos..].trim().is_empty()
    {
        let closer = match open.1 {
            '{' => '}',
            '(' => ')',
            _ => ']',
        };
        let what = if open.1 == '"' { "a string's `\"`" } else { "this bracket" };
        let message = if open.1 == '"' {
            "syntax error: a string is never closed".to_string()
        } else {
            format!("syntax error: a `{}` is never closed", open.1)
        };
        let help = if open.1 == '"' {
            "end the string with `\"`".to_string()
        } else {
            format!("add `{closer}` where it ends")
        };
        return syntax(message).label(open.0..open.0 + 1, format!("{what} is never closed")).help(help);
    }
    if positives.contains(&Rule::ident) {
        let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if is_kept_word(&word) {
            return syntax(format!("syntax error: `{word}` is a word of the rules language, not a name"))
                .label(pos..pos + word.len(), "expected a name here")
                .help("choose another name");
        }
    }
    if rest.starts_with('}') && unclosed(&text[..pos]).is_none() {
        return syntax("syntax error: this `}` closes nothing".into())
            .label(pos..pos + 1, "no `{` is open here")
            .help("remove it, or open its block above");
    }
    // The line the mistake is on: where the error points.
    let line = line_of(text, span.start);
    let head = line.split_whitespace().next().unwrap_or_default();
    let help = if positives.contains(&Rule::k_in) && line.contains("let ") && head != "let" && head != "for" {
        Some(
            "inside an expression, `let` is `let NAME = VALUE in BODY`; a VALUE that tests `in` or ends in `if ... else` goes in brackets",
        )
    } else if positives.contains(&Rule::k_else) && head == "require" {
        Some("a check is `require CONDITION else RULE-ID \"message\"`")
    } else if positives.contains(&Rule::k_else) || positives.contains(&Rule::k_then) {
        Some("an `if` inside an expression is `if CONDITION then A else B`, both arms given")
    } else if positives.contains(&Rule::k_by) {
        Some("a branch is `ACTION(arg) by ACTORS { checks, then effects }`")
    } else if head == "players" {
        Some("`players 4`, `players 3..5`, or the seats' names: `players N, E, S, W`")
    } else if head == "fn" && !line.contains('=') {
        Some("a `fn` is one expression, `fn NAME(a, b) = EXPR`; a helper with statements is a `proc`")
    } else if head == "param" {
        Some(
            "a parameter is `param NAME: TYPE = DEFAULT`: `param hand_size: int 1..12 = 11`, or a default by player count: `= by players { 3: 5, 4: 6 }`",
        )
    } else if head == "extends" {
        Some("`extends NAME`, `extends path.rules`, or a path with blanks in quotes: `extends \"my rules.rules\"`")
    } else {
        None
    };
    let d = syntax(format!("syntax error: expected {expected}")).label(span, label);
    match help {
        Some(h) => d.help(h),
        None => d,
    }
}

/// Where to point, and what to say there: a word that continues what came before (`else`,
/// `in`, `..`, an operator) belongs at the end of it, not at the next line's first word.
fn place(text: &str, pos: usize, positives: &[Rule]) -> (std::ops::Range<usize>, &'static str) {
    let before = strip_comment(&text[..pos]);
    let end = before.trim_end().len();
    let continues = positives.iter().all(|r| continuing(*r)) && !positives.is_empty();
    let last_word = before[..end].rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or_default();
    let dangling = before[..end].ends_with(['.', '=', ',', '+', '-', '*', '/', '%', '(', '[', ':', '<', '>'])
        || matches!(last_word, "in" | "then" | "else" | "and" | "or" | "not" | "by" | "when" | "choices" | "code");
    // The line break is looked for in the text itself: a comment after the word is not in `before`.
    if (continues || dangling) && end > 0 && text[end..pos].contains('\n') {
        let last = before[..end].chars().next_back().map_or(1, char::len_utf8);
        return (end - last..end, "expected after this");
    }
    let width = text[pos..].chars().next().map_or(1, char::len_utf8);
    (pos..pos + width, "here")
}

/// The text before a position, without a comment that ends its last line.
fn strip_comment(before: &str) -> &str {
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let trimmed_end = before.trim_end().len();
    if trimmed_end < line_start {
        // The position is on a later line than the text's last word: look at that word's line.
        let upto = &before[..trimmed_end];
        // From the line break before that line, if any: a line break is neither a quote nor a
        // slash, so where a comment starts is the same.
        let start = upto.rfind('\n').unwrap_or(0);
        return match comment_start(&upto[start..]) {
            Some(at) => &before[..start + at],
            None => before,
        };
    }
    before
}

/// Where a `//` comment starts on a line, outside strings. A string's `{…}` hole is an
/// expression, as in `unclosed`: a quote in it opens a string of its own.
fn comment_start(line: &str) -> Option<usize> {
    // What the current character is inside, innermost last: a string (`true`) or a brace
    // (`false`), the hole of a string or a brace of the expression, as `}` closes either.
    let mut inside: Vec<bool> = vec![];
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let in_string = inside.last() == Some(&true);
        match c {
            '\\' if in_string => {
                chars.next();
            }
            '"' if in_string => {
                inside.pop();
            }
            '{' => inside.push(false),
            _ if in_string => {}
            '"' => inside.push(true),
            // Back in the string when its hole closes; a brace closed on a later line than it
            // opened has nothing to pop.
            '}' => {
                inside.pop();
            }
            '/' if chars.peek().is_some_and(|(_, n)| *n == '/') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Whether a rule only continues something already begun.
fn continuing(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::bracket
            | Rule::index
            | Rule::field
            | Rule::dotdot
            | Rule::cmp_op
            | Rule::let_cmp_op
            | Rule::sum_op
            | Rule::product_op
            | Rule::concat_op
            | Rule::or_op
            | Rule::and_op
            | Rule::k_else
            | Rule::k_then
            | Rule::k_in
            | Rule::k_by
            | Rule::k_code
            | Rule::colon
            | Rule::else_if
            | Rule::else_if_expr
            | Rule::comprehension
            | Rule::k_for
            | Rule::assign_op
            | Rule::not_in
            | Rule::in_op
    )
}

/// The line a position is on.
fn line_of(text: &str, pos: usize) -> &str {
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    &text[start..end]
}

/// The last bracket or string left open at the end of the text: where, and which.
fn unclosed(text: &str) -> Option<(usize, char)> {
    let mut open: Vec<(usize, char)> = vec![];
    let mut string: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if string.is_some() {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => string = None,
                // A string's hole is an expression: its braces count, its quotes open strings.
                '{' => {
                    open.push((i, 'I'));
                    string = None;
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => string = Some(i),
            '/' if chars.peek().is_some_and(|(_, n)| *n == '/') => {
                while chars.next_if(|(_, n)| *n != '\n').is_some() {}
            }
            '(' | '[' | '{' => open.push((i, c)),
            ')' | ']' | '}' => {
                if let Some((at, 'I')) = open.last().copied() {
                    open.pop();
                    if c == '}' {
                        string = Some(at);
                    }
                } else {
                    open.pop();
                }
            }
            _ => {}
        }
    }
    match string {
        Some(at) => Some((at, '"')),
        None => open.into_iter().rev().find(|(_, c)| *c != 'I'),
    }
}

/// What was expected, in the author's words: a declaration, a statement, a value, a type, or
/// the words themselves.
fn expected_words(positives: &[Rule]) -> String {
    let declarations = positives.iter().filter(|r| declaration_word(**r)).count();
    let statements = positives.iter().filter(|r| statement_word(**r)).count();
    let mut names: Vec<String> = vec![];
    let mut push = |name: String| {
        if !names.contains(&name) {
            names.push(name);
        }
    };
    if declarations >= 3 {
        push("a declaration (`game`, `players`, `rule`, `card`, `action`, `var`, `fn`, `proc`, `flow`, ...)".into());
    }
    if statements >= 3 {
        push("a statement (`let`, `require`, `if`, `for`, `choose`, an assignment, a call, ...)".into());
    }
    let specific = positives.iter().any(|r| !continuing(*r) || matches!(r, Rule::k_else | Rule::k_then | Rule::k_in));
    for r in positives {
        if (declarations >= 3 && declaration_word(*r)) || (statements >= 3 && statement_word(*r)) {
            continue;
        }
        if statements >= 3 && *r == Rule::ident {
            continue;
        }
        // The operators and accessors that could go on are left out when something in
        // particular was expected.
        if specific && matches!(r, Rule::bracket | Rule::index | Rule::field) {
            continue;
        }
        push(rule_name(r));
    }
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "something else".into(),
    }
}

fn declaration_word(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::k_game
            | Rule::k_extends
            | Rule::k_players
            | Rule::k_rule
            | Rule::k_param
            | Rule::k_enum
            | Rule::card_word
            | Rule::k_window
            | Rule::k_action
            | Rule::k_var
            | Rule::k_fn
            | Rule::k_proc
            | Rule::k_check
            | Rule::k_always
            | Rule::k_due
            | Rule::k_scores
            | Rule::k_winners
            | Rule::k_view
            | Rule::k_look
            | Rule::k_history
            | Rule::k_flow
            | Rule::fn_decl
            | Rule::proc_decl
            | Rule::check_decl
            | Rule::var_decl
            | Rule::action_decl
    )
}

fn statement_word(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::k_open
            | Rule::k_note
            | Rule::k_settle
            | Rule::k_let
            | Rule::k_require
            | Rule::k_if
            | Rule::k_for
            | Rule::k_while
            | Rule::k_loop
            | Rule::k_choose
            | Rule::k_break
            | Rule::k_continue
            | Rule::k_again
            | Rule::k_finish
    )
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
        Rule::EOI => "the end of the file".into(),
        Rule::ident => "a name".into(),
        Rule::rule_id => "a rule id".into(),
        Rule::int => "a number".into(),
        Rule::string => "a string in quotes".into(),
        Rule::bare_path => "a rules name or path".into(),
        Rule::assign_op => "`=`".into(),
        Rule::seat_names => "the players' names".into(),
        Rule::branch => "a branch (`ACTION(arg) by ACTORS { ... }`)".into(),
        Rule::otherwise => "`otherwise`".into(),
        Rule::block => "`{`".into(),
        Rule::comprehension => "`for`".into(),
        Rule::ty | Rule::ty_int | Rule::ty_list | Rule::ty_map | Rule::ty_record | Rule::ty_named => "a type".into(),
        Rule::cmp_op
        | Rule::let_cmp_op
        | Rule::sum_op
        | Rule::product_op
        | Rule::concat_op
        | Rule::or_op
        | Rule::and_op
        | Rule::not_in
        | Rule::in_op => "an operator".into(),
        Rule::fn_decl | Rule::proc_decl | Rule::check_decl | Rule::var_decl | Rule::action_decl => {
            "a declaration".into()
        }
        Rule::expr
        | Rule::disj
        | Rule::conj
        | Rule::neg
        | Rule::cmp
        | Rule::concat
        | Rule::sum
        | Rule::product
        | Rule::unary
        | Rule::postfix
        | Rule::let_value
        | Rule::let_disj
        | Rule::let_conj
        | Rule::let_neg
        | Rule::let_cmp
        | Rule::range_lo
        | Rule::range_hi
        | Rule::lambda => "a value".into(),
        _ => text.replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::{comment_start, is_kept_word, line_of};

    #[test]
    fn the_line_of_a_position_is_that_line_alone() {
        let text = "game g\n  players 2\nflow";
        assert_eq!(line_of(text, 0), "game g");
        assert_eq!(line_of(text, 11), "  players 2");
        assert_eq!(line_of(text, 7), "  players 2");
        assert_eq!(line_of(text, text.len()), "flow");
    }

    #[test]
    fn a_comment_starts_at_two_slashes_outside_strings() {
        assert_eq!(comment_start("n = 1 // one"), Some(6));
        assert_eq!(comment_start("note \"a // b\" // c"), Some(14));
        // An escaped quote does not end a string; a backslash outside one escapes nothing.
        assert_eq!(comment_start("note \"\\\" // b\" // c"), Some(15));
        assert_eq!(comment_start("n = a \\// b"), Some(7));
        assert_eq!(comment_start("note \"{f(\"//\")}\""), None);
    }

    #[test]
    fn kept_words_are_the_grammars_keywords_whole() {
        assert!(["let", "table", "exists", "null"].iter().all(|w| is_kept_word(w)));
        // A name that starts with one, a statement word that is not kept, and nothing.
        assert!(!["letter", "tables", "settle", ""].iter().any(|w| is_kept_word(w)));
    }
}
