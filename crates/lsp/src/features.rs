//! The answers to an editor's questions about an open document: hover, go to definition,
//! completion and the outline (document symbols).

use lsp_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, Hover, HoverContents, Location, MarkupContent, MarkupKind,
    Position, SymbolKind,
};

use crate::document::{Document, Target, WORDS};
use crate::text::Lines;
use shinpan::editor::{Analysis, Decl, DeclKind, Item, ItemKind};

/// The declaration (or signature and description) of the name under the cursor.
pub fn hover(doc: &Document, at: Position) -> Option<Hover> {
    let offset = Lines::new(&doc.text).offset(at);
    let (span, target) = doc.target_at(offset)?;
    let text = match target {
        Target::Decl(unit, decl) => {
            let mut text = code_block(&declaring_lines(doc.unit_text(unit), decl.span.start));
            if let Some(parent) = unit.checked_sub(1).and_then(|i| doc.parents.get(i)) {
                text.push_str(&format!("\nfrom {}", parent.label));
            }
            text
        }
        Target::Local(local) => {
            format!("{}\nlocal `{}`", code_block(&declaring_lines(&doc.text, local.span.start)), local.name)
        }
        Target::Builtin(_, signature, description) => {
            format!("{}\n{description} (built-in function)", code_block(signature))
        }
        Target::SharedRule(id, text) => {
            format!("{}\n{text} (every game has this rule)", code_block(&format!("rule {id}")))
        }
        Target::Word(word) => {
            let meaning = WORDS.iter().find(|(w, _)| *w == word).map_or("", |(_, m)| m);
            format!("{}\n{meaning}", code_block(word))
        }
    };
    let contents = HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text });
    Some(Hover { contents, range: Some(Lines::new(&doc.text).range(&span)) })
}

fn code_block(text: &str) -> String {
    format!("```shinpan\n{text}\n```\n")
}

/// The line that declares what starts at `offset`, trimmed, after the comment lines just
/// above it (which say what it is for), up to a blank line or a section's divider.
fn declaring_lines(text: &str, offset: usize) -> String {
    let before = text.get(..offset).unwrap_or(text);
    let line_no = before.matches('\n').count();
    let lines: Vec<&str> = text.lines().collect();
    let line = lines.get(line_no).map_or("", |l| l.trim());
    let comments: Vec<&str> = lines[..line_no.min(lines.len())]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("//") && !is_divider(l))
        .collect();
    let mut out: Vec<&str> = comments.into_iter().rev().collect();
    out.push(line);
    out.join("\n")
}

/// Whether a comment line is a divider between sections (`// ------ state (2.4, 1.3)`,
/// `// ======`): it heads what follows it, not the one declaration under it.
fn is_divider(comment: &str) -> bool {
    let words = comment.trim_start_matches('/').trim();
    let rule = words.chars().filter(|c| matches!(c, '-' | '=')).count();
    words.starts_with("---") || words.starts_with("===") || rule * 2 > words.chars().count()
}

/// Where the name under the cursor is declared: in the document, or in a file it extends
/// (nothing for a built-in game whose file is not at hand).
pub fn definition(doc: &Document, at: Position) -> Option<Location> {
    let offset = Lines::new(&doc.text).offset(at);
    let extends = doc.analysis.as_ref().and_then(|a| a.extends.as_ref());
    if extends.is_some_and(|e| e.span.start <= offset && offset <= e.span.end) {
        // The file named after `extends`: its start.
        return Some(Location::new(doc.parents.first()?.uri.clone()?, lsp_types::Range::default()));
    }
    let (_, target) = doc.target_at(offset)?;
    match target {
        Target::Decl(0, decl) => Some(Location::new(doc.uri.clone(), Lines::new(&doc.text).range(&decl.span))),
        Target::Decl(unit, decl) => {
            let parent = doc.parents.get(unit - 1)?;
            Some(Location::new(parent.uri.clone()?, Lines::new(&parent.text).range(&decl.span)))
        }
        Target::Local(local) => Some(Location::new(doc.uri.clone(), Lines::new(&doc.text).range(&local.span))),
        Target::Builtin(..) | Target::SharedRule(..) | Target::Word(_) => None,
    }
}

/// What may be written at the cursor: rule ids after `else`, an enum's members after its
/// name and a dot, attributes after another dot, card codes inside a string, actions after
/// `open`, and otherwise the names in scope, the built-ins, the actions and the keywords.
pub fn completion(doc: &Document, at: Position) -> Vec<CompletionItem> {
    let offset = Lines::new(&doc.text).offset(at);
    let line_start = doc.text.get(..offset).and_then(|t| t.rfind('\n')).map_or(0, |i| i + 1);
    let line = doc.text.get(line_start..offset).unwrap_or("");
    let word_start = line.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-').len();
    let before = line.get(..word_start).unwrap_or("");
    if in_string(line) {
        return codes(doc);
    }
    if let Some(base) = before.strip_suffix('.') {
        return after_dot(doc, base);
    }
    let last_word = before.split_whitespace().last().unwrap_or("");
    if last_word == "else" && line.contains("require") {
        return rule_ids(doc);
    }
    if last_word == "open" {
        return declared(doc, |d| d.kind == DeclKind::Action);
    }
    everything(doc, offset)
}

/// Whether the end of `line` is inside a string's text (not in a `{...}` hole).
fn in_string(line: &str) -> bool {
    let (mut inside, mut holes, mut escaped) = (false, 0u32, false);
    for c in line.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if inside => escaped = true,
            '"' if holes == 0 => inside = !inside,
            '{' if inside => holes += 1,
            '}' if inside && holes > 0 => holes -= 1,
            _ => {}
        }
    }
    inside && holes == 0
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: (!detail.is_empty()).then(|| detail.to_string()),
        ..CompletionItem::default()
    }
}

/// The analyses to take names from: the document's (the last that parsed), then its parents'.
fn analyses(doc: &Document) -> impl Iterator<Item = &Analysis> {
    doc.analysis.as_ref().or(doc.last_parsed.as_ref()).into_iter().chain(doc.parents.iter().map(|u| &u.analysis))
}

/// Declarations that `keep` accepts, each name once (the document's first).
fn declared(doc: &Document, keep: impl Fn(&Decl) -> bool) -> Vec<CompletionItem> {
    let mut seen = std::collections::HashSet::new();
    let decls = analyses(doc).flat_map(|a| a.decls.iter()).filter(|d| keep(d));
    decls
        .filter(|d| seen.insert((d.name.clone(), d.kind)))
        .map(|d| item(&d.name, completion_kind(d.kind), kind_word(d.kind)))
        .collect()
}

fn rule_ids(doc: &Document) -> Vec<CompletionItem> {
    let mut items = declared(doc, |d| d.kind == DeclKind::Rule);
    items.extend(shinpan::editor::shared_rules().iter().map(|(id, text)| item(id, CompletionItemKind::CONSTANT, text)));
    items
}

fn after_dot(doc: &Document, base: &str) -> Vec<CompletionItem> {
    let base: String = base.chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let base: String = base.chars().rev().collect();
    let is_enum = analyses(doc).flat_map(|a| a.decls.iter()).any(|d| d.kind == DeclKind::Enum && d.name == base);
    if is_enum {
        return declared(doc, |d| d.kind == DeclKind::Member && d.container.as_deref() == Some(base.as_str()));
    }
    let mut items = declared(doc, |d| d.kind == DeclKind::Field);
    items.push(item("code", CompletionItemKind::FIELD, "a card's code"));
    let mut seen: std::collections::HashSet<String> = items.iter().map(|i| i.label.clone()).collect();
    items.extend(declared(doc, |d| d.kind == DeclKind::Key).into_iter().filter(|i| seen.insert(i.label.clone())));
    items
}

fn codes(doc: &Document) -> Vec<CompletionItem> {
    let mut seen = std::collections::HashSet::new();
    let compiled = doc.codes.iter().map(|(code, kind)| (code.clone(), kind.clone()));
    let written = analyses(doc)
        .flat_map(|a| a.decls.iter())
        .filter(|d| d.kind == DeclKind::Code)
        .map(|d| (d.name.clone(), d.container.clone().unwrap_or_default()));
    compiled
        .chain(written)
        .filter(|(code, _)| seen.insert(code.clone()))
        .map(|(code, kind)| item(&code, CompletionItemKind::CONSTANT, &kind))
        .collect()
}

/// Keywords offered where a statement or an expression may start.
const KEYWORDS: &[&str] = &[
    "let",
    "require",
    "else",
    "if",
    "then",
    "for",
    "in",
    "while",
    "loop",
    "choose",
    "by",
    "as",
    "when",
    "choices",
    "otherwise",
    "break",
    "continue",
    "again",
    "finish",
    "settle",
    "open",
    "note",
    "costs",
    "and",
    "or",
    "not",
    "all",
    "exists",
    "where",
    "true",
    "false",
    "null",
];

fn everything(doc: &Document, offset: usize) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = vec![];
    if let Some(analysis) = &doc.analysis {
        let mut seen = std::collections::HashSet::new();
        let locals = analysis.visible_locals(offset).filter(|l| seen.insert(l.name.clone()));
        items.extend(locals.map(|l| item(&l.name, CompletionItemKind::VARIABLE, "local")));
    }
    items.extend(declared(doc, |d| d.kind.is_value() || d.kind == DeclKind::Action));
    let builtins = shinpan::editor::builtin_functions().map(|(n, sig, text)| (n, (sig, text)));
    items.extend(builtins.map(|(name, (signature, description))| {
        let mut it = item(name, CompletionItemKind::FUNCTION, signature);
        it.documentation = Some(lsp_types::Documentation::String(description.to_string()));
        it
    }));
    items.extend(WORDS.iter().filter(|(w, _)| *w != "code").map(|(w, m)| item(w, CompletionItemKind::VALUE, m)));
    items.extend(KEYWORDS.iter().map(|k| item(k, CompletionItemKind::KEYWORD, "")));
    items
}

fn completion_kind(kind: DeclKind) -> CompletionItemKind {
    match kind {
        DeclKind::Rule | DeclKind::Code | DeclKind::Game => CompletionItemKind::CONSTANT,
        DeclKind::Param => CompletionItemKind::PROPERTY,
        DeclKind::Enum => CompletionItemKind::ENUM,
        DeclKind::Member => CompletionItemKind::ENUM_MEMBER,
        DeclKind::Kind => CompletionItemKind::CLASS,
        DeclKind::Field | DeclKind::Key => CompletionItemKind::FIELD,
        DeclKind::Action => CompletionItemKind::EVENT,
        DeclKind::Var => CompletionItemKind::VARIABLE,
        DeclKind::Fn | DeclKind::Proc | DeclKind::Check | DeclKind::Due => CompletionItemKind::FUNCTION,
    }
}

fn kind_word(kind: DeclKind) -> &'static str {
    match kind {
        DeclKind::Game => "game",
        DeclKind::Rule => "rule",
        DeclKind::Param => "param",
        DeclKind::Enum => "enum",
        DeclKind::Member => "enum member",
        DeclKind::Kind => "card kind",
        DeclKind::Field => "attribute",
        DeclKind::Key => "record key",
        DeclKind::Code => "card",
        DeclKind::Action => "action",
        DeclKind::Var => "var",
        DeclKind::Fn => "fn",
        DeclKind::Proc => "proc",
        DeclKind::Check => "check",
        DeclKind::Due => "due",
    }
}

/// Every top-level declaration, with an enum's members and a kind's attributes inside it.
pub fn symbols(doc: &Document) -> Vec<DocumentSymbol> {
    let Some(analysis) = &doc.analysis else { return vec![] };
    let lines = Lines::new(&doc.text);
    analysis.items.iter().map(|item| symbol(analysis, item, &lines)).collect()
}

#[allow(deprecated, reason = "`DocumentSymbol::deprecated` must be given; it is None")]
fn symbol(analysis: &Analysis, item: &Item, lines: &Lines<'_>) -> DocumentSymbol {
    let (kind, detail) = symbol_kind(item.kind);
    let inner = |d: &&Decl| {
        matches!(d.kind, DeclKind::Member | DeclKind::Field)
            && d.container.as_deref() == Some(item.name.as_str())
            && item.span.start <= d.span.start
            && d.span.end <= item.span.end
    };
    let children: Vec<DocumentSymbol> = analysis
        .decls
        .iter()
        .filter(inner)
        .map(|d| DocumentSymbol {
            name: d.name.clone(),
            detail: None,
            kind: if d.kind == DeclKind::Member { SymbolKind::ENUM_MEMBER } else { SymbolKind::FIELD },
            tags: None,
            deprecated: None,
            range: lines.range(&d.span),
            selection_range: lines.range(&d.span),
            children: None,
        })
        .collect();
    DocumentSymbol {
        name: item.name.clone(),
        detail: Some(detail.to_string()),
        kind,
        tags: None,
        deprecated: None,
        range: lines.range(&item.span),
        selection_range: lines.range(&item.name_span),
        children: (!children.is_empty()).then_some(children),
    }
}

fn symbol_kind(kind: ItemKind) -> (SymbolKind, &'static str) {
    match kind {
        ItemKind::Game => (SymbolKind::MODULE, "game"),
        ItemKind::Extends => (SymbolKind::NAMESPACE, "extends"),
        ItemKind::Players => (SymbolKind::PROPERTY, "players"),
        ItemKind::Rule => (SymbolKind::KEY, "rule"),
        ItemKind::Param => (SymbolKind::CONSTANT, "param"),
        ItemKind::Enum => (SymbolKind::ENUM, "enum"),
        ItemKind::Card => (SymbolKind::CLASS, "card"),
        ItemKind::Action => (SymbolKind::EVENT, "action"),
        ItemKind::Var => (SymbolKind::VARIABLE, "var"),
        ItemKind::Fn => (SymbolKind::FUNCTION, "fn"),
        ItemKind::Proc => (SymbolKind::FUNCTION, "proc"),
        ItemKind::Check => (SymbolKind::FUNCTION, "check"),
        ItemKind::Due => (SymbolKind::FUNCTION, "due"),
        ItemKind::Always => (SymbolKind::EVENT, "always"),
        ItemKind::Window => (SymbolKind::EVENT, "window"),
        ItemKind::Flow => (SymbolKind::NAMESPACE, "flow"),
        ItemKind::Other => (SymbolKind::PROPERTY, ""),
    }
}
