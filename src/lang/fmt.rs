//! `shinpan fmt`: one canonical layout for rules files.
//!
//! The text is parsed with the grammar, and the pest tree is turned into a tree of tokens:
//! the leaves of the tree plus the punctuation the grammar matches without naming it
//! (`{`, `,`, `=`, ...), each token carrying the comments around it (comments are not in the
//! tree: they are read back from the text between tokens). That tree becomes a document of
//! groups and possible line breaks (Wadler's pretty printer, in Lindig's strict form), which
//! is printed at a width of [`WIDTH`]: a group that fits on the rest of its line is written
//! flat, otherwise its own breaks are taken, the outermost first.

use pest::Parser;
use pest::iterators::Pair;

use crate::codes;
use crate::diag::Diag;
use crate::lang::syntax::{self, Rule, SpecParser};

/// The width lines are broken at (a string longer than that stays whole).
pub const WIDTH: usize = 100;
/// Indentation of a block's statements and of a broken list's items.
const INDENT: usize = 2;
/// Indentation of a broken expression's or clause's continuation lines.
const CONTINUATION: usize = 4;

/// Formats a rules text. A text that does not parse gives its syntax diagnostic (without a
/// source: the caller knows the file's name).
pub fn format_source(text: &str) -> Result<String, Vec<Diag>> {
    let before = syntax::parse(text).map_err(|d| vec![d])?;
    let pairs = SpecParser::parse(Rule::spec, text).map_err(|_| vec![internal()])?;
    let mut lexer = Lexer { text, pos: 0, newlines: 0, tokens: vec![], waiting: vec![] };
    let mut items = vec![];
    for pair in pairs {
        items.extend(lexer.gap(pair.as_span().start()));
        items.push(lexer.item(pair));
    }
    let mut builder = Builder { tokens: lexer.tokens };
    let doc = builder.spec(&items);
    let formatted = Printer::new(&builder.tokens).print(&doc);
    // A formatter must never change what a file means: the result is parsed again and
    // compared with the original, spans aside.
    match syntax::parse(&formatted) {
        Ok(after) if without_spans(&format!("{before:?}")) == without_spans(&format!("{after:?}")) => Ok(formatted),
        _ => Err(vec![internal()]),
    }
}

fn internal() -> Diag {
    Diag::new(codes::FORMAT, "the formatter could not lay out this file without changing it; it was left as it is")
        .help("this is a bug in `shinpan fmt`: please report it with the file")
}

/// A syntax tree's debug text with every byte range (`12..15`) replaced by `_`, so that two
/// trees of the same program compare equal wherever they were written. Quoted text (a
/// string of the rules, `"cards 1..9"`) is kept as it is.
pub fn without_spans(debug: &str) -> String {
    let bytes = debug.as_bytes();
    let mut out = String::with_capacity(debug.len());
    let (mut i, mut quoted) = (0, false);
    while i < bytes.len() {
        let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        let first = digits(i);
        let starts_number = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if !quoted && first > 0 && starts_number && debug[i + first..].starts_with("..") {
            let second = digits(i + first + 2);
            if second > 0 {
                out.push('_');
                i += first + 2 + second;
                continue;
            }
        }
        // Debug text escapes a quote inside a string as `\"`: a backslash keeps what follows.
        let len = match bytes[i] {
            b'"' => {
                quoted = !quoted;
                1
            }
            b'\\' if quoted => 1 + debug[i + 1..].chars().next().map_or(0, char::len_utf8),
            _ => debug[i..].chars().next().map_or(1, char::len_utf8),
        };
        out.push_str(&debug[i..i + len]);
        i += len;
    }
    out
}

// ---------------------------------------------------------------- tokens

/// A line comment, as written (`// ...`, trailing blanks dropped).
#[derive(Clone, Debug)]
struct Comment {
    text: String,
    /// A blank line came before it.
    blank_before: bool,
}

#[derive(Debug)]
struct Token {
    text: String,
    /// The grammar rule of a named token; `None` for punctuation the grammar does not name.
    rule: Option<Rule>,
    /// Comments on lines of their own before the token.
    leading: Vec<Comment>,
    /// A comment after the token on its line.
    trailing: Option<String>,
    /// A blank line came before the token (or before its leading comments).
    blank_before: bool,
    /// A record's `{` or `}`: no blank inside (`{card: c}`), where a type's has one.
    tight: bool,
}

impl Token {
    fn is(&self, text: &str) -> bool {
        self.rule.is_none() && self.text == text
    }
}

/// A node of the grammar with its children and the punctuation between them.
struct Node {
    rule: Rule,
    items: Vec<Item>,
}

enum Item {
    Node(Node),
    /// An index into the tokens.
    Token(usize),
}

/// Reads the pest tree and the text between its leaves into tokens.
struct Lexer<'a> {
    text: &'a str,
    /// How far the text has been read.
    pos: usize,
    /// Line breaks read since the last token or comment.
    newlines: usize,
    tokens: Vec<Token>,
    /// Comments on lines of their own, for the next token.
    waiting: Vec<Comment>,
}

impl Lexer<'_> {
    fn item(&mut self, pair: Pair<'_, Rule>) -> Item {
        let rule = pair.as_rule();
        let span = pair.as_span();
        if is_leaf(&pair) {
            let text = if rule == Rule::string {
                pair.as_str().to_string()
            } else {
                pair.as_str().split_whitespace().collect::<Vec<_>>().join(" ")
            };
            self.pos = span.end();
            return Item::Token(self.push(text, Some(rule)));
        }
        let mut items = vec![];
        for child in pair.into_inner() {
            items.extend(self.gap(child.as_span().start()));
            items.push(self.item(child));
        }
        items.extend(self.gap(span.end()));
        Item::Node(Node { rule, items })
    }

    fn push(&mut self, text: String, rule: Option<Rule>) -> usize {
        let leading = std::mem::take(&mut self.waiting);
        let blank_before = self.newlines >= 2;
        self.newlines = 0;
        self.tokens.push(Token { text, rule, leading, trailing: None, blank_before, tight: false });
        self.tokens.len() - 1
    }

    /// The punctuation between the read position and `end`, as tokens; comments there are
    /// attached to the token before them (on its line) or the one after them.
    fn gap(&mut self, end: usize) -> Vec<Item> {
        let mut items = vec![];
        let text = self.text;
        while self.pos < end {
            let rest = text.get(self.pos..end).unwrap_or("");
            let Some(ch) = rest.chars().next() else { break };
            if ch == '\n' {
                self.newlines += 1;
                self.pos += 1;
            } else if ch.is_whitespace() {
                self.pos += ch.len_utf8();
            } else if rest.starts_with("//") {
                let len = rest.find('\n').unwrap_or(rest.len());
                self.comment(rest[..len].trim_end().to_string());
                self.pos += len;
            } else {
                let len = if rest.starts_with("->") || rest.starts_with("=>") { 2 } else { ch.len_utf8() };
                items.push(Item::Token(self.push(rest[..len].to_string(), None)));
                self.pos += len;
            }
        }
        items
    }

    fn comment(&mut self, text: String) {
        let own_line = self.newlines > 0 || self.tokens.is_empty() || !self.waiting.is_empty();
        match self.tokens.last_mut() {
            Some(last) if !own_line && last.trailing.is_none() => last.trailing = Some(text),
            _ => self.waiting.push(Comment { text, blank_before: self.newlines >= 2 }),
        }
        self.newlines = 0;
    }
}

/// Pairs written as one token: a string with what is inside it, `finish now`, `not in`, and
/// every pair without named parts but an empty list or record (`[ ]` may hold a comment).
fn is_leaf(pair: &Pair<'_, Rule>) -> bool {
    match pair.as_rule() {
        Rule::string | Rule::finish_stmt | Rule::not_in => true,
        Rule::list_expr | Rule::record_lit => false,
        _ => pair.clone().into_inner().next().is_none(),
    }
}

// ---------------------------------------------------------------- the document

#[derive(Debug)]
enum Doc {
    Token(usize),
    /// A possible line break: nothing when its group is flat, a new line when it is broken.
    Line,
    /// A new line.
    Hard,
    /// Comments on lines of their own (those before a closing bracket, kept inside it).
    Comments(Vec<Comment>),
    Seq(Vec<Doc>),
    /// Deeper indentation for the lines begun inside.
    Nest(usize, Vec<Doc>),
    /// Flat if it fits on the line, else its lines are broken.
    Group(Vec<Doc>),
}

/// Turns the token tree into a document, rule by rule.
struct Builder {
    tokens: Vec<Token>,
}

impl Builder {
    fn spec(&mut self, items: &[Item]) -> Doc {
        let mut parts = vec![];
        for item in items {
            match item {
                Item::Node(node) if node.rule == Rule::spec => {
                    for (i, child) in node.items.iter().enumerate() {
                        if i > 0 {
                            parts.push(Doc::Hard);
                        }
                        parts.push(self.item(child));
                    }
                }
                other => parts.push(self.item(other)),
            }
        }
        Doc::Seq(parts)
    }

    fn item(&mut self, item: &Item) -> Doc {
        match item {
            Item::Token(t) => Doc::Token(*t),
            Item::Node(node) => self.node(node),
        }
    }

    fn items(&mut self, items: &[Item]) -> Vec<Doc> {
        items.iter().map(|i| self.item(i)).collect()
    }

    fn node(&mut self, node: &Node) -> Doc {
        let items = &node.items[..];
        match node.rule {
            Rule::disj
            | Rule::conj
            | Rule::cmp
            | Rule::let_disj
            | Rule::let_conj
            | Rule::let_cmp
            | Rule::concat
            | Rule::sum
            | Rule::product
            | Rule::ty => self.chain(items),
            Rule::block | Rule::choose_stmt => self.block(items),
            Rule::card_decl => self.card(items),
            Rule::require_stmt | Rule::card_check => self.require(items),
            Rule::branch => self.branch(items),
            Rule::if_expr => self.if_expr(items),
            Rule::else_if_expr => self.clause(items, Rule::k_then),
            Rule::quantifier => self.clause(items, Rule::colon),
            Rule::view_decl | Rule::history_decl | Rule::seat_names => self.names(items),
            Rule::record_lit => {
                for item in items {
                    if let Item::Token(t) = item
                        && let Some(token) = self.tokens.get_mut(*t)
                        && (token.is("{") || token.is("}"))
                    {
                        token.tight = true;
                    }
                }
                self.with_list(items, "{", "}")
            }
            Rule::list_expr => self.list_expr(items),
            Rule::call | Rule::call_stmt | Rule::fn_decl | Rule::proc_decl | Rule::check_decl | Rule::card_row => {
                self.with_list(items, "(", ")")
            }
            Rule::enum_decl | Rule::by_players | Rule::ty_record => self.with_list(items, "{", "}"),
            _ => Doc::Seq(self.items(items)),
        }
    }

    fn token_at(&self, item: Option<&Item>) -> Option<&Token> {
        match item {
            Some(Item::Token(t)) => self.tokens.get(*t),
            _ => None,
        }
    }

    /// Where the first token of this rule is among the items.
    fn find_rule(&self, items: &[Item], rule: Rule) -> Option<usize> {
        (0..items.len()).find(|&i| self.token_at(items.get(i)).is_some_and(|t| t.rule == Some(rule)))
    }

    /// Where the first punctuation token `text` is among the items.
    fn find_text(&self, items: &[Item], text: &str) -> Option<usize> {
        (0..items.len()).find(|&i| self.token_at(items.get(i)).is_some_and(|t| t.is(text)))
    }

    /// `a or b or c`: broken before each operator, the outermost chain first.
    fn chain(&mut self, items: &[Item]) -> Doc {
        let Some((first, rest)) = items.split_first() else { return Doc::Seq(vec![]) };
        let head = self.item(first);
        if rest.is_empty() {
            return head;
        }
        let mut tail = vec![];
        for item in rest {
            if self.is_operator(item) {
                tail.push(Doc::Line);
            }
            tail.push(self.item(item));
        }
        Doc::Group(vec![head, Doc::Nest(CONTINUATION, tail)])
    }

    /// A binary operator of an expression, or the `|` of a type.
    fn is_operator(&self, item: &Item) -> bool {
        match item {
            Item::Node(node) => matches!(node.rule, Rule::cmp_op | Rule::let_cmp_op),
            Item::Token(t) => self.tokens.get(*t).is_some_and(|t| {
                t.is("|")
                    || matches!(
                        t.rule,
                        Some(
                            Rule::or_op
                                | Rule::and_op
                                | Rule::cmp_op
                                | Rule::let_cmp_op
                                | Rule::concat_op
                                | Rule::sum_op
                                | Rule::product_op
                        )
                    )
            }),
        }
    }

    /// `HEAD { line, line, ... }`: statements (or a card's body) one a line, indented.
    fn block(&mut self, items: &[Item]) -> Doc {
        let Some(open) = self.find_text(items, "{") else { return Doc::Seq(self.items(items)) };
        let (head, rest) = items.split_at(open);
        let mut parts = self.items(head);
        let lines = match rest.get(1..rest.len().saturating_sub(1)) {
            Some(body) => body.iter().map(|i| self.item(i)).collect(),
            None => vec![],
        };
        parts.push(self.lines(rest.first(), lines, rest.last()));
        Doc::Seq(parts)
    }

    fn lines(&mut self, open: Option<&Item>, lines: Vec<Doc>, close: Option<&Item>) -> Doc {
        let (Some(Item::Token(open)), Some(Item::Token(close))) = (open, close) else { return Doc::Seq(lines) };
        let comments = self.closing_comments(*close);
        if lines.is_empty() && comments.is_empty() && !self.ends_line(*open) {
            return Doc::Seq(vec![Doc::Token(*open), Doc::Token(*close)]);
        }
        let mut inner = vec![];
        for line in lines {
            inner.push(Doc::Hard);
            inner.push(line);
        }
        if !comments.is_empty() {
            inner.push(Doc::Comments(comments));
        }
        Doc::Seq(vec![Doc::Token(*open), Doc::Nest(INDENT, inner), Doc::Hard, Doc::Token(*close)])
    }

    /// Whether a comment follows the token on its line (an opening bracket's: the closing one
    /// goes on a line of its own).
    fn ends_line(&self, t: usize) -> bool {
        self.tokens.get(t).is_some_and(|t| t.trailing.is_some())
    }

    /// The comments before a closing bracket, taken from it to be written inside.
    fn closing_comments(&mut self, close: usize) -> Vec<Comment> {
        self.tokens.get_mut(close).map(|t| std::mem::take(&mut t.leading)).unwrap_or_default()
    }

    /// `card NAME(fields) { ... }`: the fields as a list, the body one line each (the `each`
    /// line, then `code`; `from`, then each `require`).
    fn card(&mut self, items: &[Item]) -> Doc {
        let Some(open) = self.find_text(items, "{") else { return Doc::Seq(self.items(items)) };
        let (head, rest) = items.split_at(open);
        let mut lines = vec![];
        for item in rest.get(1..rest.len().saturating_sub(1)).unwrap_or(&[]) {
            match item {
                Item::Node(node) if matches!(node.rule, Rule::card_each | Rule::card_from) => {
                    // `code ...` and each `require ...` on a line of its own.
                    let starts_line = |i: &usize| match &node.items[*i] {
                        Item::Node(n) => n.rule == Rule::card_check,
                        Item::Token(t) => self.tokens.get(*t).is_some_and(|t| t.rule == Some(Rule::k_code)),
                    };
                    let split = (0..node.items.len()).find(starts_line).unwrap_or(node.items.len());
                    let (first, more) = node.items.split_at(split);
                    lines.push(Doc::Seq(self.items(first)));
                    if node.rule == Rule::card_each {
                        lines.push(Doc::Seq(self.items(more)));
                    } else {
                        lines.extend(self.items(more));
                    }
                }
                other => lines.push(self.item(other)),
            }
        }
        let head = self.with_list(head, "(", ")");
        Doc::Seq(vec![head, self.lines(rest.first(), lines, rest.last())])
    }

    /// `require COND else RULE "text" [costs { ... }]`: broken before `else` when long.
    fn require(&mut self, items: &[Item]) -> Doc {
        let costs = self.find_rule(items, Rule::k_costs).unwrap_or(items.len());
        let (check, after) = items.split_at(costs);
        let Some(split) = self.find_rule(check, Rule::k_else) else { return Doc::Seq(self.items(items)) };
        let (cond, otherwise) = check.split_at(split);
        let mut clause = vec![Doc::Line];
        clause.extend(self.items(otherwise));
        let mut parts = self.items(cond);
        parts.push(Doc::Nest(CONTINUATION, clause));
        let mut all = vec![Doc::Group(parts)];
        all.extend(self.items(after));
        Doc::Seq(all)
    }

    /// `ACTION(arg) by ACTORS [as p] [when GUARD] [choices EXPR] { ... }`: broken before
    /// `when` and `choices` when long.
    fn branch(&mut self, items: &[Item]) -> Doc {
        let Some((block, head)) = items.split_last() else { return Doc::Seq(vec![]) };
        let when = self.find_rule(head, Rule::k_when);
        let choices = self.find_rule(head, Rule::k_choices);
        let split = when.or(choices).unwrap_or(head.len());
        let (first, clauses) = head.split_at(split);
        let mut parts = self.items(first);
        let mut tail = vec![];
        for (i, item) in clauses.iter().enumerate() {
            if Some(i + split) == when || Some(i + split) == choices {
                tail.push(Doc::Line);
            }
            tail.push(self.item(item));
        }
        parts.push(Doc::Nest(CONTINUATION, tail));
        Doc::Seq(vec![Doc::Group(parts), self.item(block)])
    }

    /// `if C then A else if D then B else E`: broken before each `else`.
    fn if_expr(&mut self, items: &[Item]) -> Doc {
        let first_else = (0..items.len())
            .find(|&i| match &items[i] {
                Item::Node(n) => n.rule == Rule::else_if_expr,
                Item::Token(t) => self.tokens.get(*t).is_some_and(|t| t.rule == Some(Rule::k_else)),
            })
            .unwrap_or(items.len());
        let (first, rest) = items.split_at(first_else);
        let head = self.clause(first, Rule::k_then);
        let mut tail = vec![];
        let mut i = 0;
        while let Some(item) = rest.get(i) {
            tail.push(Doc::Line);
            let is_else =
                matches!(item, Item::Token(t) if self.tokens.get(*t).is_some_and(|t| t.rule == Some(Rule::k_else)));
            if is_else {
                tail.push(Doc::Seq(self.items(&rest[i..])));
                break;
            }
            tail.push(self.item(item));
            i += 1;
        }
        Doc::Group(vec![head, Doc::Nest(CONTINUATION, tail)])
    }

    /// A head and a part that may go to the next line: `if C` / `then A`, `all x in XS:` /
    /// `COND` (the break comes before the token of `rule`, or after a `:`).
    fn clause(&mut self, items: &[Item], rule: Rule) -> Doc {
        let Some(at) = self.find_rule(items, rule) else { return Doc::Seq(self.items(items)) };
        let at = if rule == Rule::colon { at + 1 } else { at };
        let (head, rest) = items.split_at(at);
        let mut tail = vec![Doc::Line];
        tail.extend(self.items(rest));
        let mut parts = self.items(head);
        parts.push(Doc::Nest(CONTINUATION, tail));
        Doc::Group(parts)
    }

    /// `view a, b, c`: broken after the commas when long.
    fn names(&mut self, items: &[Item]) -> Doc {
        let mut parts = vec![];
        let mut tail = vec![];
        for item in items {
            let comma = self.token_at(Some(item)).is_some_and(|t| t.is(","));
            if tail.is_empty() && !comma {
                parts.push(self.item(item));
            } else {
                tail.push(self.item(item));
                if comma {
                    tail.push(Doc::Line);
                }
            }
        }
        parts.push(Doc::Nest(CONTINUATION, tail));
        Doc::Group(parts)
    }

    /// `[A, B, C]` and `[E for x in XS where C]`.
    fn list_expr(&mut self, items: &[Item]) -> Doc {
        let comprehension = items.iter().position(|i| matches!(i, Item::Node(n) if n.rule == Rule::comprehension));
        let Some(at) = comprehension else { return self.with_list(items, "[", "]") };
        let (Some(open), Some(close)) = (items.first(), items.last()) else { return Doc::Seq(vec![]) };
        let mut inner = vec![Doc::Line];
        inner.extend(self.items(items.get(1..at).unwrap_or(&[])));
        if let Some(Item::Node(node)) = items.get(at) {
            let split = self.find_rule(&node.items, Rule::k_where).unwrap_or(node.items.len());
            inner.push(Doc::Line);
            inner.extend(self.items(&node.items[..split]));
            if split < node.items.len() {
                inner.push(Doc::Line);
                inner.extend(self.items(&node.items[split..]));
            }
        }
        let open = self.item(open);
        let close_doc = self.item(close);
        if let Item::Token(t) = close {
            let comments = self.closing_comments(*t);
            if !comments.is_empty() {
                inner.push(Doc::Comments(comments));
            }
        }
        Doc::Group(vec![open, Doc::Nest(INDENT, inner), Doc::Line, close_doc])
    }

    /// Items with a bracketed, comma-separated list among them (`f(a, b)`, `enum E { A, B }`):
    /// the list flat when it fits, else one element a line.
    fn with_list(&mut self, items: &[Item], open: &str, close: &str) -> Doc {
        let Some(start) = self.find_text(items, open) else { return Doc::Seq(self.items(items)) };
        let Some(end) = (start + 1..items.len()).find(|&i| self.token_at(items.get(i)).is_some_and(|t| t.is(close)))
        else {
            return Doc::Seq(self.items(items));
        };
        let mut parts = self.items(&items[..start]);
        let inside = match &items[start + 1..end] {
            [Item::Node(n)] if matches!(n.rule, Rule::args | Rule::param_names) => &n.items[..],
            other => other,
        };
        parts.push(self.list(items[start].token(), inside, items[end].token()));
        parts.extend(self.items(&items[end + 1..]));
        Doc::Seq(parts)
    }

    fn list(&mut self, open: usize, inside: &[Item], close: usize) -> Doc {
        // A sole list or record argument keeps its brackets against the call's: `f([`, `])`.
        if let [only] = inside
            && is_bracketed_literal(only)
            && self.tokens.get(close).is_some_and(|t| t.leading.is_empty())
        {
            return Doc::Seq(vec![Doc::Token(open), self.item(only), Doc::Token(close)]);
        }
        let mut comments = vec![];
        let mut inner = vec![];
        let mut at_start = true;
        for (i, item) in inside.iter().enumerate() {
            let comma = self.token_at(Some(item)).is_some_and(|t| t.is(","));
            if comma && i + 1 == inside.len() {
                // A trailing comma is dropped; its comments stay where they were.
                if let Item::Token(t) = item {
                    self.drop_token(*t, &mut comments);
                }
                continue;
            }
            if at_start {
                inner.push(Doc::Line);
            }
            inner.push(self.item(item));
            at_start = comma;
        }
        comments.extend(self.closing_comments(close));
        if inner.is_empty() && comments.is_empty() && !self.ends_line(open) {
            return Doc::Seq(vec![Doc::Token(open), Doc::Token(close)]);
        }
        if !comments.is_empty() {
            inner.push(Doc::Comments(comments));
        }
        Doc::Group(vec![Doc::Token(open), Doc::Nest(INDENT, inner), Doc::Line, Doc::Token(close)])
    }

    /// Leaves a token out, moving its comments to the token before it or to `own_lines`.
    fn drop_token(&mut self, t: usize, own_lines: &mut Vec<Comment>) {
        let Some(token) = self.tokens.get_mut(t) else { return };
        token.text.clear();
        own_lines.append(&mut token.leading);
        let trailing = token.trailing.take();
        if let Some(text) = trailing {
            match t.checked_sub(1).and_then(|p| self.tokens.get_mut(p)) {
                Some(before) if before.trailing.is_none() => before.trailing = Some(text),
                _ => own_lines.push(Comment { text, blank_before: false }),
            }
        }
    }
}

/// Whether an expression is nothing but a list or a record literal (`[...]`, `{...}`).
fn is_bracketed_literal(item: &Item) -> bool {
    match item {
        Item::Node(node) if matches!(node.rule, Rule::list_expr | Rule::record_lit) => true,
        Item::Node(Node { items, .. }) => matches!(&items[..], [only] if is_bracketed_literal(only)),
        Item::Token(_) => false,
    }
}

impl Item {
    fn token(&self) -> usize {
        match self {
            Item::Token(t) => *t,
            Item::Node(_) => usize::MAX,
        }
    }
}

// ---------------------------------------------------------------- printing

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Flat,
    Broken,
}

struct Printer<'a> {
    tokens: &'a [Token],
    out: String,
    /// Column of the end of the output.
    column: usize,
    /// The last token written on the current line (for the blank between tokens).
    last: Option<usize>,
    /// The next token starts a new line, at this indentation.
    pending: Option<usize>,
    /// The last token written opened a bracket (no blank line after it).
    opened: bool,
}

impl<'a> Printer<'a> {
    fn new(tokens: &'a [Token]) -> Self {
        Printer { tokens, out: String::new(), column: 0, last: None, pending: None, opened: false }
    }

    fn print(mut self, doc: &Doc) -> String {
        let mut stack: Vec<(usize, Mode, &Doc)> = vec![(0, Mode::Broken, doc)];
        while let Some((indent, mode, doc)) = stack.pop() {
            match doc {
                Doc::Token(t) => self.token(*t, indent),
                Doc::Line if mode == Mode::Flat => {}
                Doc::Line | Doc::Hard => self.pending = Some(indent),
                Doc::Comments(comments) => comments.iter().for_each(|c| self.comment(c, indent)),
                Doc::Seq(docs) => stack.extend(docs.iter().rev().map(|d| (indent, mode, d))),
                Doc::Nest(more, docs) => stack.extend(docs.iter().rev().map(|d| (indent + more, mode, d))),
                Doc::Group(docs) => {
                    let mode = if mode == Mode::Flat || self.fits(docs, &stack) { Mode::Flat } else { Mode::Broken };
                    stack.extend(docs.iter().rev().map(|d| (indent, mode, d)));
                }
            }
        }
        let text = self.out.trim_end();
        if text.is_empty() { String::new() } else { format!("{text}\n") }
    }

    fn token(&mut self, t: usize, indent: usize) {
        let Some(token) = self.tokens.get(t) else { return };
        for comment in &token.leading {
            self.comment(comment, indent);
        }
        if token.text.is_empty() {
            return;
        }
        let closer = matches!(token.text.as_str(), "}" | "]" | ")");
        if let Some(at) = self.pending.take() {
            self.newline(at, token.blank_before && !closer);
        } else if let Some(last) = self.last.and_then(|l| self.tokens.get(l))
            && needs_space(last, token)
        {
            self.write(" ");
        }
        self.write(&token.text);
        self.last = Some(t);
        self.opened = matches!(token.text.as_str(), "{" | "[" | "(");
        if let Some(comment) = &token.trailing {
            self.write(" ");
            self.write(comment);
            self.last = None;
            // Whatever follows goes on the next line; a break in the layout there decides
            // its indentation, else it continues the line it was on.
            self.pending = Some(indent + CONTINUATION);
        }
    }

    /// A comment on a line of its own.
    fn comment(&mut self, comment: &Comment, indent: usize) {
        self.newline(indent, comment.blank_before);
        self.write(&comment.text);
        self.last = None;
        self.opened = false;
        self.pending = Some(indent);
    }

    fn newline(&mut self, indent: usize, blank: bool) {
        if !self.out.is_empty() {
            self.out.push('\n');
            if blank && !self.opened {
                self.out.push('\n');
            }
        }
        self.column = 0;
        self.last = None;
        self.write(&" ".repeat(indent));
    }

    fn write(&mut self, text: &str) {
        self.out.push_str(text);
        self.column += text.chars().count();
    }

    /// Whether `docs`, flat, and what follows them up to the next line break fit in the width.
    fn fits(&self, docs: &[Doc], rest: &[(usize, Mode, &Doc)]) -> bool {
        let mut column = self.pending.unwrap_or(self.column);
        let mut last = if self.pending.is_some() { None } else { self.last };
        let mut todo: Vec<(Mode, &Doc)> = docs.iter().rev().map(|d| (Mode::Flat, d)).collect();
        let mut rest = rest.iter().rev();
        let mut measured = 0;
        let mut line_ended = false;
        loop {
            let (mode, doc) = match todo.pop() {
                Some(next) => next,
                None => match rest.next() {
                    Some((_, mode, doc)) => (*mode, *doc),
                    None => return true,
                },
            };
            match doc {
                Doc::Token(t) => {
                    let Some(token) = self.tokens.get(*t) else { continue };
                    if token.text.is_empty() && token.leading.is_empty() {
                        continue;
                    }
                    // Comments before the first token are written before the group; a comment
                    // after a token ends the line, so nothing of a flat group may follow it.
                    let before_first = measured == 0;
                    if line_ended || (!token.leading.is_empty() && !before_first) {
                        return mode == Mode::Broken;
                    }
                    if token.text.is_empty() {
                        continue;
                    }
                    if last.and_then(|l| self.tokens.get(l)).is_some_and(|l| needs_space(l, token)) {
                        column += 1;
                    }
                    column += token.text.chars().count();
                    measured += 1;
                    if column > WIDTH {
                        return false;
                    }
                    line_ended = token.trailing.is_some();
                    last = Some(*t);
                }
                Doc::Line | Doc::Hard | Doc::Comments(_) if mode == Mode::Broken => return true,
                Doc::Line => {}
                Doc::Hard | Doc::Comments(_) => return false,
                Doc::Seq(docs) | Doc::Nest(_, docs) | Doc::Group(docs) => {
                    todo.extend(docs.iter().rev().map(|d| (mode, d)));
                }
            }
        }
    }
}

/// Whether a blank goes between two tokens on one line.
fn needs_space(before: &Token, after: &Token) -> bool {
    let (b, a) = (before.text.as_str(), after.text.as_str());
    let word = |t: &Token| t.rule == Some(Rule::ident);
    match () {
        _ if before.is("(") || before.is("[") || before.is(".") => false,
        _ if after.is(")") || after.is("]") || after.is(",") || after.is(".") => false,
        _ if matches!(after.rule, Some(Rule::colon | Rule::optional)) => false,
        _ if before.rule == Some(Rule::minus) => false,
        _ if after.rule == Some(Rule::dotdot) => before.rule == Some(Rule::k_int),
        // `int 1.. = 5`, but `1..7` and `..(n - 1)`.
        _ if before.rule == Some(Rule::dotdot) => {
            !(word(after) || matches!(after.rule, Some(Rule::int | Rule::minus)) || after.is("("))
        }
        _ if after.is("(") => !(word(before) || b == ")" || b == "]"),
        _ if after.is("[") => {
            !(word(before)
                || b == ")"
                || b == "]"
                || before.rule == Some(Rule::string)
                || before.rule == Some(Rule::k_list))
        }
        _ if before.is("{") && (before.tight || a == "}") => false,
        _ if after.is("}") && after.tight => false,
        _ => true,
    }
}
