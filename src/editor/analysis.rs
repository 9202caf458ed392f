//! What one rules text knows about its names: the declarations with their spans, the local
//! names with the stretch of text where each is seen, and every use of a name with what kind
//! of name it is. Built from the syntax tree alone, so it works on a file that does not
//! compile (an unknown name elsewhere, a type error) as long as it parses.

use pest::Parser;

use crate::diag::Diag;
use crate::lang::ast::{self, Block, Branch, CardBody, ExprKind, Spec, StmtKind, TemplatePart, TyKind};
use crate::lang::syntax::{Rule, SpecParser};
use crate::span::{Name, Span};

/// What a declared name is; the unmarked kinds are named after the keyword that declares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "each is its keyword")]
pub enum DeclKind {
    Game,
    Rule,
    Param,
    Enum,
    /// A member of an enum (its container).
    Member,
    /// A kind of card (or of codes).
    Kind,
    /// An attribute of a kind of card (its container).
    Field,
    /// A card or code written out as a row of its kind (its container).
    Code,
    /// A key of a record, where a record value or shape writes it (`{player: p}`).
    Key,
    Action,
    Var,
    Fn,
    Proc,
    Check,
    Due,
}

impl DeclKind {
    /// Names that an expression may use.
    pub fn is_value(self) -> bool {
        matches!(self, Self::Param | Self::Enum | Self::Kind | Self::Var | Self::Fn | Self::Proc | Self::Check)
    }
}

#[derive(Clone, Debug)]
/// A declared name and where it is.
pub struct Decl {
    /// The name declared.
    pub name: String,
    /// What it is.
    pub kind: DeclKind,
    /// The name as written in the declaration.
    pub span: Span,
    /// The enum of a member, the kind of a field or code.
    pub container: Option<String>,
}

/// How a name is used, which says where to look it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Use {
    /// A variable, parameter, helper, enum, kind of card or local.
    Value,
    /// A rule id after `else`.
    Rule,
    /// An action of a branch or of `open`.
    Action,
    /// An enum or kind of card in a shape.
    Shape,
    /// The name after a dot; `base` is the name before it when that is a plain name (an
    /// enum's member, or an attribute).
    Field {
        /// The plain name before the dot, if it is one.
        base: Option<String>,
    },
}

#[derive(Clone, Debug)]
/// A use of a name.
pub struct Occurrence {
    /// The name as written.
    pub name: String,
    /// Where it is written.
    pub span: Span,
    /// What kind of name the place of the use wants.
    pub used_as: Use,
}

/// A name bound inside a declaration: a parameter, `let`, loop variable, branch argument.
#[derive(Clone, Debug)]
pub struct Local {
    /// The name.
    pub name: String,
    /// Where it is bound.
    pub span: Span,
    /// Where the name may be used.
    pub scope: Span,
}

/// What kind of top-level item a declaration is, named after the keyword that starts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "each is its keyword")]
pub enum ItemKind {
    Game,
    Extends,
    Players,
    Rule,
    Param,
    Enum,
    Card,
    Action,
    Var,
    Fn,
    Proc,
    Check,
    Due,
    Always,
    Window,
    Flow,
    /// Anything else (`scores`, `winners`, `view`, `history`, ...).
    Other,
}

impl ItemKind {
    fn of(rule: Rule) -> ItemKind {
        match rule {
            Rule::game_decl => ItemKind::Game,
            Rule::extends_decl => ItemKind::Extends,
            Rule::players_decl => ItemKind::Players,
            Rule::rule_decl => ItemKind::Rule,
            Rule::param_decl => ItemKind::Param,
            Rule::enum_decl => ItemKind::Enum,
            Rule::card_decl => ItemKind::Card,
            Rule::action_decl => ItemKind::Action,
            Rule::var_decl => ItemKind::Var,
            Rule::fn_decl => ItemKind::Fn,
            Rule::proc_decl => ItemKind::Proc,
            Rule::check_decl => ItemKind::Check,
            Rule::due_decl => ItemKind::Due,
            Rule::always_decl => ItemKind::Always,
            Rule::window_decl => ItemKind::Window,
            Rule::flow_decl => ItemKind::Flow,
            _ => ItemKind::Other,
        }
    }
}

/// A top-level item: what it is, its name (or its keyword) and all its text.
#[derive(Clone, Debug)]
pub struct Item {
    /// What kind of item it is.
    pub kind: ItemKind,
    /// Its name (a rule's id, an action's name), or its keyword when it has none.
    pub name: String,
    /// Where its name is (empty at its start when it has none).
    pub name_span: Span,
    /// All its text.
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
/// The names of one rules text.
pub struct Analysis {
    /// Every declaration.
    pub decls: Vec<Decl>,
    /// Every local name (a parameter, a `let`, a loop variable).
    pub locals: Vec<Local>,
    /// Every use of a name.
    pub uses: Vec<Occurrence>,
    /// The top-level items, in order (an outline).
    pub items: Vec<Item>,
    /// The rules this text starts from, as written after `extends`.
    pub extends: Option<Name>,
}

/// What a name at some place refers to.
pub enum Found<'a> {
    /// A declaration.
    Decl(&'a Decl),
    /// A local name.
    Local(&'a Local),
    /// A name nothing declares.
    Unknown(&'a str),
}

/// Parses a rules text and collects its names (the parse error if it does not parse).
pub fn analyse(text: &str) -> Result<Analysis, Diag> {
    let spec = crate::lang::syntax::parse(text)?;
    let mut walker = Walker::default();
    walker.spec(&spec);
    let mut analysis = walker.out;
    analysis.extends = spec.extends;
    // `parse` succeeded, so its nesting guard passed: parsing again is safe.
    analysis.items = items(text);
    Ok(analysis)
}

impl Analysis {
    /// The declaration or use whose name covers `offset`, with the name's span.
    pub fn at(&self, offset: usize) -> Option<(Span, Found<'_>)> {
        let covers = |span: &Span| span.start <= offset && offset <= span.end;
        if let Some(decl) = self.decls.iter().find(|d| covers(&d.span)) {
            return Some((decl.span.clone(), Found::Decl(decl)));
        }
        if let Some(local) = self.locals.iter().find(|l| covers(&l.span)) {
            return Some((local.span.clone(), Found::Local(local)));
        }
        let used = self.uses.iter().find(|u| covers(&u.span))?;
        Some((used.span.clone(), Found::Unknown(&used.name)))
    }

    /// The use at `offset`, if a use is there.
    pub fn use_at(&self, offset: usize) -> Option<&Occurrence> {
        self.uses.iter().find(|u| u.span.start <= offset && offset <= u.span.end)
    }

    /// The local that `name` means at `offset`: of those seen there, the last one bound.
    pub fn local(&self, name: &str, offset: usize) -> Option<&Local> {
        self.visible_locals(offset).filter(|l| l.name == name).max_by_key(|l| l.span.start)
    }

    /// Every local seen at `offset`.
    pub fn visible_locals(&self, offset: usize) -> impl Iterator<Item = &Local> {
        self.locals.iter().filter(move |l| l.scope.start <= offset && offset <= l.scope.end)
    }

    /// The declaration of `name` of one of the `kinds`.
    pub fn decl(&self, name: &str, keep: impl Fn(&Decl) -> bool) -> Option<&Decl> {
        self.decls.iter().find(|d| d.name == name && keep(d))
    }
}

/// The top-level items of a text that parses, each with its whole span.
fn items(text: &str) -> Vec<Item> {
    let Ok(mut pairs) = SpecParser::parse(Rule::spec, text) else { return vec![] };
    let Some(spec) = pairs.next() else { return vec![] };
    spec.into_inner().filter(|p| p.as_rule() != Rule::EOI).map(item).collect()
}

fn item(p: pest::iterators::Pair<'_, Rule>) -> Item {
    let span = p.as_span().start()..p.as_span().start() + trimmed_len(p.as_str());
    let rule = p.as_rule();
    // The first name inside (a branch's action for `always` and `window`), else the keyword.
    let named =
        p.clone().into_inner().flatten().find(|k| matches!(k.as_rule(), Rule::ident | Rule::rule_id | Rule::string));
    let keyword = p.as_str().split_whitespace().next().unwrap_or("").to_string();
    match named {
        Some(n) if !matches!(rule, Rule::scores_decl | Rule::winners_decl | Rule::flow_decl) => {
            let text = n.as_str().trim_matches('"');
            let name = if matches!(rule, Rule::always_decl | Rule::window_decl | Rule::view_decl | Rule::history_decl) {
                format!("{keyword} {text}")
            } else {
                text.to_string()
            };
            Item { kind: ItemKind::of(rule), name, name_span: n.as_span().start()..n.as_span().end(), span }
        }
        _ => Item { kind: ItemKind::of(rule), name: keyword, name_span: span.start..span.start, span },
    }
}

/// The length of an item's text without the blanks and comments that the grammar lets it
/// take after its last token (`rule a "..."` followed by an optional `stands`).
fn trimmed_len(text: &str) -> usize {
    let mut text = text.trim_end();
    while let Some(at) = text.rfind('\n') {
        let last = text.get(at + 1..).unwrap_or("").trim_start();
        if !last.starts_with("//") {
            break;
        }
        text = text.get(..at).unwrap_or("").trim_end();
    }
    text.len()
}

#[derive(Default)]
struct Walker {
    out: Analysis,
}

impl Walker {
    fn declare(&mut self, name: &Name, kind: DeclKind, container: Option<&Name>) {
        let container = container.map(|c| c.text.clone());
        self.out.decls.push(Decl { name: name.text.clone(), kind, span: name.span.clone(), container });
    }

    fn bind(&mut self, name: &Name, scope: Span) {
        self.out.locals.push(Local { name: name.text.clone(), span: name.span.clone(), scope });
    }

    fn used(&mut self, name: &Name, used_as: Use) {
        self.out.uses.push(Occurrence { name: name.text.clone(), span: name.span.clone(), used_as });
    }

    fn spec(&mut self, spec: &Spec) {
        if let Some(game) = &spec.game {
            self.declare(game, DeclKind::Game, None);
        }
        for rule in &spec.rules {
            self.declare(&rule.id, DeclKind::Rule, None);
        }
        for param in &spec.params {
            self.param(param);
        }
        for decl in &spec.enums {
            self.declare(&decl.name, DeclKind::Enum, None);
            for member in &decl.variants {
                self.declare(member, DeclKind::Member, Some(&decl.name));
            }
        }
        for card in &spec.cards {
            self.card(card);
        }
        for action in &spec.actions {
            self.declare(&action.name, DeclKind::Action, None);
            self.ty(&action.ty);
        }
        for var in &spec.vars {
            self.declare(&var.name, DeclKind::Var, None);
            self.expr(&var.init);
        }
        for f in &spec.fns {
            self.declare(&f.name, DeclKind::Fn, None);
            for p in &f.params {
                self.bind(p, f.body.span.clone());
            }
            self.expr(&f.body);
        }
        self.procs(spec);
        for branch in spec.always.iter().chain(&spec.windows) {
            self.branch(branch);
        }
        for e in spec.scores.iter().chain(&spec.winners) {
            self.expr(e);
        }
        for name in spec.view.iter().chain(&spec.history).flatten() {
            self.used(name, Use::Value);
        }
        if let Some(flow) = &spec.flow {
            self.block(flow);
        }
    }

    fn param(&mut self, param: &ast::ParamDecl) {
        self.declare(&param.name, DeclKind::Param, None);
        self.ty(&param.ty);
        match &param.default {
            ast::ParamDefault::Expr(e) => self.expr(e),
            ast::ParamDefault::ByPlayers(entries) => entries.iter().for_each(|(_, e)| self.expr(e)),
        }
    }

    /// Procedures, `check` helpers and `due` steps (whose bodies the parser keeps as procedures).
    fn procs(&mut self, spec: &Spec) {
        for due in &spec.dues {
            self.expr(&due.cond);
        }
        for p in &spec.procs {
            let kind = if spec.dues.iter().any(|d| d.name.span == p.name.span) {
                DeclKind::Due
            } else if p.checks_only {
                DeclKind::Check
            } else {
                DeclKind::Proc
            };
            self.declare(&p.name, kind, None);
            let scope = p.name.span.start..block_end(&p.body).max(p.name.span.end);
            for param in &p.params {
                self.bind(param, scope.clone());
            }
            self.block(&p.body);
        }
    }

    fn card(&mut self, card: &ast::CardDecl) {
        self.declare(&card.name, DeclKind::Kind, None);
        for (field, ty) in &card.fields {
            self.declare(field, DeclKind::Field, Some(&card.name));
            self.ty(ty);
        }
        // An attribute's condition reads the other attributes by name: they are its locals,
        // declared where the attributes are.
        for when in card.when.iter().flatten() {
            for (field, _) in &card.fields {
                self.bind(field, when.span.clone());
            }
            self.expr(when);
        }
        self.card_body(&card.body, card);
    }

    fn card_body(&mut self, body: &CardBody, card: &ast::CardDecl) {
        match body {
            CardBody::Each { bindings, code } => {
                for (name, e) in bindings {
                    self.expr(e);
                    self.bind(name, name.span.end..code.span.end);
                }
                self.expr(code);
            }
            CardBody::Rows(rows) => {
                for (code, values) in rows {
                    self.declare(code, DeclKind::Code, Some(&card.name));
                    values.iter().for_each(|e| self.expr(e));
                }
            }
            CardBody::Both(a, b) => {
                self.card_body(a, card);
                self.card_body(b, card);
            }
            CardBody::Pool { param, checks, .. } => {
                self.used(param, Use::Value);
                for (e, message) in checks {
                    for (field, _) in &card.fields {
                        self.bind(field, e.span.start..message.span.end);
                    }
                    self.expr(e);
                    self.template(message);
                }
            }
        }
    }

    fn ty(&mut self, ty: &ast::Ty) {
        match &ty.kind {
            TyKind::Named(name) => self.used(name, Use::Shape),
            TyKind::Int(lo, hi) => lo.iter().chain(hi).for_each(|e| self.expr(e)),
            TyKind::List(len, item, _) => {
                len.iter().for_each(|e| self.expr(e));
                self.ty(item);
            }
            TyKind::Map(k, v, _) => {
                self.ty(k);
                self.ty(v);
            }
            TyKind::NonEmpty(t) => self.ty(t),
            TyKind::Record(fields) => {
                for (key, _, t) in fields {
                    self.declare(key, DeclKind::Key, None);
                    self.ty(t);
                }
            }
            TyKind::Union(ts) => ts.iter().for_each(|t| self.ty(t)),
            TyKind::Bool | TyKind::Str | TyKind::Player | TyKind::Null | TyKind::Literal(_) | TyKind::File => {}
        }
    }

    fn block(&mut self, block: &Block) {
        let end = block_end(block);
        for stmt in block {
            self.stmt(stmt, end);
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt, block_end: usize) {
        match &stmt.kind {
            StmtKind::Let(name, e) => {
                self.expr(e);
                self.bind(name, stmt.span.end..block_end.max(stmt.span.end));
            }
            StmtKind::Require(cond, rule, message, cost) => {
                self.expr(cond);
                self.used(rule, Use::Rule);
                self.template(message);
                cost.iter().for_each(|b| self.block(b));
            }
            StmtKind::If(cond, then, otherwise) => {
                self.expr(cond);
                self.block(then);
                otherwise.iter().for_each(|b| self.block(b));
            }
            StmtKind::For(var, var2, coll, body) => {
                self.expr(coll);
                let scope = coll.span.end..stmt_end(stmt);
                self.bind(var, scope.clone());
                var2.iter().for_each(|v| self.bind(v, scope.clone()));
                self.block(body);
            }
            StmtKind::While(cond, body) => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::Loop(body) => self.block(body),
            StmtKind::Choose(branches, otherwise) => {
                branches.iter().for_each(|b| self.branch(b));
                if let Some((guard, body)) = otherwise {
                    guard.iter().for_each(|g| self.expr(g));
                    self.block(body);
                }
            }
            StmtKind::Open(action) => self.used(action, Use::Action),
            StmtKind::Note(message) => self.template(message),
            StmtKind::Assign(target, _, e) => {
                self.used(&target.root, Use::Value);
                let mut base = Some(target.root.text.clone());
                for step in &target.path {
                    match step {
                        ast::Accessor::Index(i) => self.expr(i),
                        ast::Accessor::Field(f) => self.used(f, Use::Field { base: base.take() }),
                    }
                    base = None;
                }
                self.expr(e);
            }
            StmtKind::Call(name, args) => {
                self.used(name, Use::Value);
                args.iter().for_each(|a| self.expr(a));
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Again | StmtKind::Finish(_) | StmtKind::Settle => {}
        }
    }

    fn branch(&mut self, branch: &Branch) {
        self.used(&branch.action, Use::Action);
        self.bind(&branch.arg, branch.span.clone());
        self.expr(&branch.actors);
        if let Some(actor) = &branch.actor_var {
            self.bind(actor, branch.span.clone());
        }
        branch.guard.iter().chain(&branch.choices).for_each(|e| self.expr(e));
        self.block(&branch.body);
    }

    fn template(&mut self, template: &ast::Template) {
        for part in &template.parts {
            if let TemplatePart::Expr(e) = part {
                self.expr(e);
            }
        }
    }

    fn expr(&mut self, e: &ast::Expr) {
        match &e.kind {
            ExprKind::Name(name) => self.used(name, Use::Value),
            ExprKind::Str(t) => self.template(t),
            ExprKind::List(items) => items.iter().for_each(|x| self.expr(x)),
            ExprKind::Record(entries) => {
                for (key, x) in entries {
                    self.declare(key, DeclKind::Key, None);
                    self.expr(x);
                }
            }
            ExprKind::Comprehension { body, var, var2, coll, cond } => {
                self.bind(var, e.span.clone());
                var2.iter().for_each(|v| self.bind(v, e.span.clone()));
                self.expr(body);
                self.expr(coll);
                cond.iter().for_each(|c| self.expr(c));
            }
            ExprKind::Quantifier { var, coll, body, .. } => {
                self.bind(var, coll.span.end..e.span.end);
                self.expr(coll);
                self.expr(body);
            }
            ExprKind::If(a, b, c) => [a, b, c].iter().for_each(|x| self.expr(x)),
            ExprKind::Let(var, value, body) => {
                self.expr(value);
                self.bind(var, body.span.clone());
                self.expr(body);
            }
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Slice(x, lo, hi) => {
                self.expr(x);
                lo.iter().chain(hi).for_each(|b| self.expr(b));
            }
            ExprKind::Field(base, field) => {
                let base_name = match &base.kind {
                    ExprKind::Name(n) => Some(n.text.clone()),
                    _ => None,
                };
                self.expr(base);
                self.used(field, Use::Field { base: base_name });
            }
            ExprKind::Call(name, args) => {
                self.used(name, Use::Value);
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Lambda(var, body) => {
                self.bind(var, e.span.clone());
                self.expr(body);
            }
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Null | ExprKind::Table => {}
        }
    }
}

/// The end of the last statement of a block (0 for an empty block).
fn block_end(block: &Block) -> usize {
    block.iter().map(stmt_end).max().unwrap_or(0)
}

/// Where a statement's text ends, including a cost block after a `require`'s message.
fn stmt_end(stmt: &ast::Stmt) -> usize {
    match &stmt.kind {
        StmtKind::Require(.., Some(cost)) => stmt.span.end.max(block_end(cost)),
        _ => stmt.span.end,
    }
}
