//! Syntax tree to program: resolves every name to an index and checks what can be checked
//! before a game is run. Errors are diagnostics pointing into the rules file.

mod arity;
pub mod typecheck;
mod types;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::codes;
use crate::diag::{Diag, SourceMap, did_you_mean};
use crate::lang::ast::{self, ExprKind, StmtKind, TemplatePart, TyKind};
use crate::lang::extend;
use crate::program::builtins;
use crate::program::value::{Text, Value};
use crate::program::*;
use crate::span::{Name, Span};
use arity::Signature;

#[derive(Clone, Copy, Debug)]
enum Global {
    Param(u16),
    Var(u16),
    Enum(u16),
    Kind(u16),
    Fn(u16),
    Proc(u16),
}

/// The index an unresolved procedure call or branch action points at: no program has that
/// many, so the type check (which looks indices up with `get`) learns nothing from it. Such
/// a program is never run: its errors are reported instead.
const NOWHERE: u16 = u16::MAX;

/// Declared names of one kind, and how a global of that kind is made from its index.
type NameGroup<'a> = (Vec<&'a Name>, fn(u16) -> Global);

/// Where a statement stands, for the statements that only make sense in some places.
#[derive(Clone, Copy, Default)]
struct Place {
    loops: u32,
    in_branch: bool,
    in_checks: bool,
    in_always: bool,
}

struct Resolver {
    globals: HashMap<String, Global>,
    /// Where each global was declared, for the first place of a duplicate.
    declared_at: HashMap<String, Span>,
    /// The `check` helpers: a call to one is a check.
    helpers: Helpers,
    /// The actions that have a `window` record, which `open` names.
    windows: Vec<String>,
    rules: HashMap<String, u16>,
    /// The rules declared with `stands`, which alone may have a cost.
    standing: std::collections::HashSet<u16>,
    actions: HashMap<String, u16>,
    scopes: Vec<HashMap<String, Slot>>,
    next_slot: usize,
    max_slot: usize,
    enum_variants: Vec<Vec<String>>,
    field_names: Vec<String>,
    /// One text per field name, shared by every record key and field read that spells it:
    /// finding a field then compares two pointers, not two texts.
    interned: HashMap<String, Text>,
    /// Each `fn`'s and each `proc`'s parameters, by index, for the count of a call's arguments.
    fn_signatures: Vec<Signature>,
    proc_signatures: Vec<Signature>,
    /// The rules text, to tell whether a call and a declaration are in one file.
    source: SourceMap,
    /// Where an expression stands for a name that did not resolve: the type check takes
    /// it as of unknown type, so that one unknown name is one error, not a cascade.
    unresolved: HashSet<Span>,
    /// Names whose declaration was refused (declared twice, or a name the language keeps):
    /// which meaning their uses have is not known, so they are taken as of unknown type.
    refused: HashSet<String>,
    errors: Vec<Diag>,
    /// Fuel left for evaluating card codes and attributes: one event's worth for the file.
    compile_fuel: u64,
    /// Each card named by its code (`Coin("H")`): its kind, code and place, checked once the
    /// cards are known.
    card_literals: Vec<(u16, String, Span)>,
}

/// The rule ids every game has, checked first, with what each means (shared/TRANSCRIPTS.md).
/// A rules file does not declare them, so their text in the program is empty.
pub const SHARED_RULES: [(&str, &str); 3] = [
    ("after-game-end", "an event comes after the game has ended"),
    ("unexpected-action", "no one may take this action at this point of the game"),
    ("turn-order", "the action may be taken now, but not by this actor"),
];

pub fn resolve(spec: &ast::Spec, source: &SourceMap) -> Result<Program, Vec<Diag>> {
    let mut r = Resolver {
        globals: HashMap::new(),
        declared_at: HashMap::new(),
        helpers: Helpers(spec.procs.iter().filter(|p| p.checks_only).map(|p| p.name.text.clone()).collect()),
        windows: spec.windows.iter().map(|w| w.action.text.clone()).collect(),
        rules: HashMap::new(),
        standing: Default::default(),
        actions: HashMap::new(),
        scopes: vec![],
        next_slot: 0,
        max_slot: 0,
        enum_variants: spec.enums.iter().map(|e| e.variants.iter().map(|v| v.text.clone()).collect()).collect(),
        field_names: vec![],
        interned: HashMap::new(),
        fn_signatures: spec.fns.iter().map(|f| Signature::new(&f.name, &f.params)).collect(),
        proc_signatures: spec.procs.iter().map(|p| Signature::new(&p.name, &p.params)).collect(),
        source: source.clone(),
        unresolved: HashSet::new(),
        refused: HashSet::new(),
        errors: vec![],
        compile_fuel: crate::run::FUEL_PER_EVENT,
        card_literals: vec![],
    };
    let program = r.program(spec, source);
    if r.errors.is_empty() {
        return Ok(program);
    }
    r.errors.sort_by_key(|d| d.span().map_or(0, |s| s.start));
    Err(r.errors)
}

impl Resolver {
    /// Records an error; the caller may add a help line to it.
    fn error(&mut self, code: &'static str, message: String, span: Span, label: &str) -> &mut Diag {
        self.errors.push(Diag::new(code, message).label(span, label));
        let last = self.errors.len() - 1;
        &mut self.errors[last]
    }

    /// The program, complete when no error was recorded; otherwise its missing parts are
    /// placeholders, there only so that every later check still runs and reports.
    fn program(&mut self, spec: &ast::Spec, source: &SourceMap) -> Program {
        let name = self.required(spec.game.as_ref().map(|g| g.text.clone()), "game NAME", "the rules need a name");
        let players =
            self.required(spec.players.as_ref().map(|p| (p.0, p.1)), "players 3..5", "the rules need a player count");
        self.declare_globals(spec);
        let rules = self.rules(spec);
        let actions = self.actions(spec);
        let enums: Vec<EnumInfo> = spec
            .enums
            .iter()
            .map(|e| EnumInfo {
                name: e.name.text.clone(),
                variants: e.variants.iter().map(|v| v.text.clone()).collect(),
            })
            .collect();
        let params: Vec<Param> = spec.params.iter().map(|p| self.param(p)).collect();
        let vars: Vec<Var> = spec
            .vars
            .iter()
            .map(|v| Var { name: v.name.text.clone(), per_player: v.per_player, init: self.const_expr(&v.init) })
            .collect();
        let fns = spec.fns.iter().map(|f| self.func(f)).collect();
        let procs = spec.procs.iter().map(|p| self.proc(p)).collect();
        let dues = self.dues(&spec.dues);
        let (always, always_locals) = self.always(&spec.always, &spec.windows);
        let scores = self.top_expr(spec.scores.as_ref(), "scores EXPR");
        let winners = self.top_expr(spec.winners.as_ref(), "winners EXPR");
        let (flow, flow_locals) = self.flow(spec.flow.as_ref());
        let kinds = spec
            .cards
            .iter()
            .map(|c| {
                let fields: Vec<String> = c.fields.iter().map(|f| f.0.text.clone()).collect();
                let slots =
                    self.field_names.iter().map(|n| fields.iter().position(|f| f == n).map(|i| i as u16)).collect();
                let shapes = c.fields.iter().map(|(_, t)| self.shape(t)).collect();
                let pool = self.pool_spec(c, &params);
                Kind {
                    name: c.name.text.clone(),
                    fields,
                    slots,
                    shapes,
                    cards: 0..0,
                    by_code: HashMap::default(),
                    pool,
                    plain: c.plain,
                }
            })
            .collect();
        let mut program = Program {
            name: name.unwrap_or_default(),
            source: source.clone(),
            players: players.unwrap_or_default(),
            seats: spec.seats.clone(),
            rules,
            params,
            looks: self.looks(spec, &enums),
            enums,
            kinds,
            cards: vec![],
            action_index: self.actions.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            actions,
            view: match &spec.view {
                Some(names) => self.variables(names, spec, "view"),
                None => (0..vars.len() as u16).collect(),
            },
            history: self.variables(spec.history.as_deref().unwrap_or_default(), spec, "history"),
            vars,
            fns,
            procs,
            always,
            always_locals,
            dues,
            scores,
            winners,
            field_names: self.field_names.clone(),
            flow,
            flow_locals,
            data_dir: None,
            remembered: Default::default(),
            var_types: vec![],
        };
        self.cards(spec, &mut program);
        self.card_literals(&program);
        // Types are checked even where names did not resolve, so that one run reports every
        // problem: an unresolved name is of unknown type, and an unresolved procedure or action
        // is an index the checker finds nothing at (`NOWHERE`).
        let (errors, var_types) = typecheck::check_around(&program, &self.unresolved);
        self.errors.extend(errors);
        program.var_types = var_types;
        // After every check, which read literals as written; only for a program that will
        // run (its indices all resolved).
        if self.errors.is_empty() {
            crate::program::fold::fold_constants(&mut program);
            program.remembered = crate::program::memo::Remembered::of(&mut program);
            crate::program::fast::compile(&mut program);
        }
        program
    }

    fn required<T>(&mut self, value: Option<T>, form: &str, message: &str) -> Option<T> {
        if value.is_none() {
            self.errors.push(
                Diag::new(codes::MISSING, message.to_string())
                    .label(0..0, "in this file")
                    .help(format!("add `{form}`")),
            );
        }
        value
    }

    // ------------------------------------------------------------ declarations

    fn declare_globals(&mut self, spec: &ast::Spec) {
        let groups: Vec<NameGroup> = vec![
            (spec.params.iter().map(|p| &p.name).collect(), Global::Param),
            (spec.vars.iter().map(|v| &v.name).collect(), Global::Var),
            (spec.enums.iter().map(|e| &e.name).collect(), Global::Enum),
            (spec.cards.iter().map(|c| &c.name).collect(), Global::Kind),
            (spec.fns.iter().map(|f| &f.name).collect(), Global::Fn),
            (spec.procs.iter().map(|p| &p.name).collect(), Global::Proc),
        ];
        for (names, make) in groups {
            for (i, n) in names.into_iter().enumerate() {
                self.declare(n, make(i as u16));
            }
        }
    }

    /// A name declared twice, with both places where the first is in the file.
    fn twice(&mut self, what: String, again: Span, first: Option<Span>) {
        let mut d =
            Diag::new(codes::DUPLICATE, format!("{what} is declared twice")).label(again, "declared again here");
        if let Some(first) = first {
            d = d.label(first, "first declared here");
        }
        self.errors.push(d);
    }

    fn declare(&mut self, n: &Name, g: Global) {
        if let Some(first) = self.declared_at.get(&n.text).cloned() {
            self.twice(format!("`{}`", n.text), n.span.clone(), Some(first));
            self.refused.insert(n.text.clone());
            return;
        }
        let given = if builtins::lookup(&n.text).is_some() {
            Some("a built-in function")
        } else if n.text == "players" || n.text == "events_taken" {
            Some("a name the language gives every game")
        } else {
            None
        };
        if let Some(what) = given {
            let message = format!("`{}` is {what}; a declaration cannot take its name", n.text);
            self.error(codes::DUPLICATE, message, n.span.clone(), "choose another name here");
            self.refused.insert(n.text.clone());
        }
        // Declared all the same, so that its uses are not reported again as unknown names.
        self.globals.insert(n.text.clone(), g);
        self.declared_at.insert(n.text.clone(), n.span.clone());
    }

    fn rules(&mut self, spec: &ast::Spec) -> Vec<RuleInfo> {
        let shared = SHARED_RULES.map(|(id, _)| id);
        let mut out: Vec<RuleInfo> = shared
            .iter()
            .map(|id| RuleInfo { id: id.to_string(), text: String::new(), span: 0..0, stands: false })
            .collect();
        for id in shared {
            self.rules.insert(id.to_string(), self.rules.len() as u16);
        }
        for rule in &spec.rules {
            if let Some(&i) = self.rules.get(&rule.id.text) {
                let first = out.get(i as usize).map(|r: &RuleInfo| r.span.clone()).filter(|s| !s.is_empty());
                self.twice(format!("rule id `{}`", rule.id.text), rule.id.span.clone(), first);
                continue;
            }
            self.rules.insert(rule.id.text.clone(), out.len() as u16);
            if rule.stands {
                self.standing.insert(out.len() as u16);
            }
            out.push(RuleInfo {
                id: rule.id.text.clone(),
                text: rule.text.clone(),
                span: rule.id.span.start..rule.id.span.end,
                stands: rule.stands,
            });
        }
        out
    }

    fn actions(&mut self, spec: &ast::Spec) -> Vec<ActionInfo> {
        let mut out = vec![];
        for a in &spec.actions {
            if let Some(&i) = self.actions.get(&a.name.text) {
                let first = out.get(i as usize).map(|a: &ActionInfo| a.span.clone());
                self.twice(format!("action `{}`", a.name.text), a.name.span.clone(), first);
                continue;
            }
            self.actions.insert(a.name.text.clone(), out.len() as u16);
            let shape = self.shape(&a.ty);
            out.push(ActionInfo { name: a.name.text.clone(), shape, span: a.name.span.clone() });
        }
        out
    }

    fn param(&mut self, p: &ast::ParamDecl) -> Param {
        let shape = self.shape(&p.ty);
        let default = match &p.default {
            ast::ParamDefault::Expr(e) => ParamDefault::Expr(self.const_expr(e)),
            ast::ParamDefault::ByPlayers(entries) => {
                ParamDefault::ByPlayers(entries.iter().map(|(n, e)| (*n, self.const_expr(e))).collect())
            }
        };
        Param { name: p.name.text.clone(), shape, default, span: p.name.span.clone() }
    }

    fn shape(&mut self, t: &ast::Ty) -> Shape {
        match &t.kind {
            TyKind::Int(lo, hi) => {
                Shape::Int(lo.as_ref().map(|e| self.const_expr(e)), hi.as_ref().map(|e| self.const_expr(e)))
            }
            TyKind::Bool => Shape::Bool,
            TyKind::File => Shape::File,
            TyKind::Str => Shape::Str,
            TyKind::Player => Shape::Player,
            TyKind::Null => Shape::Null,
            TyKind::Literal(s) => Shape::Literal(Rc::new(s.clone())),
            TyKind::Named(n) => match self.globals.get(&n.text) {
                Some(Global::Kind(k)) => Shape::Card(*k),
                Some(Global::Enum(e)) => Shape::Enum(*e),
                _ => {
                    self.unknown(
                        n,
                        "card kind or enum",
                        self.globals_of(|g| matches!(g, Global::Kind(_) | Global::Enum(_))),
                    );
                    Shape::Null
                }
            },
            TyKind::List(len, item, distinct) => {
                Shape::List(len.as_ref().map(|e| self.const_expr(e)), Box::new(self.shape(item)), *distinct)
            }
            TyKind::Map(k, v, total) => Shape::Map(Box::new(self.shape(k)), Box::new(self.shape(v)), *total),
            TyKind::Record(fields) => {
                Shape::Record(fields.iter().map(|(n, opt, t)| (self.intern(&n.text), *opt, self.shape(t))).collect())
            }
            TyKind::NonEmpty(inner) => Shape::NonEmpty(Box::new(self.shape(inner))),
            TyKind::Union(alts) => Shape::Union(alts.iter().map(|a| self.shape(a)).collect()),
        }
    }

    /// The one shared text of a field name.
    fn intern(&mut self, name: &str) -> Text {
        self.interned.entry(name.to_string()).or_insert_with(|| Rc::new(name.to_string())).clone()
    }

    fn globals_of(&self, keep: impl Fn(&Global) -> bool) -> Vec<String> {
        self.globals.iter().filter(|(_, g)| keep(g)).map(|(k, _)| k.clone()).collect()
    }

    fn unknown(&mut self, n: &Name, what: &str, candidates: Vec<String>) {
        self.unknown_as(codes::UNKNOWN_NAME, n, what, candidates);
    }

    fn unknown_as(&mut self, code: &'static str, n: &Name, what: &str, candidates: Vec<String>) {
        let mut d = Diag::new(code, format!("unknown {what} `{}`", n.text)).label(n.span.clone(), "not declared");
        if let Some(best) = did_you_mean(&n.text, candidates.iter().map(|s| s.as_str())) {
            d = d.help(format!("did you mean `{best}`?"));
        }
        self.errors.push(d);
    }

    // ------------------------------------------------------------ frames

    fn enter_frame(&mut self) {
        self.scopes = vec![HashMap::new()];
        self.next_slot = 0;
        self.max_slot = 0;
    }

    fn bind(&mut self, n: &Name) -> Slot {
        let slot = self.fresh_slot();
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(n.text.clone(), slot);
        }
        slot
    }

    /// A new local of the frame, no name bound to it yet.
    fn fresh_slot(&mut self) -> Slot {
        let slot = self.next_slot as Slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        slot
    }

    fn push_scope(&mut self) -> usize {
        self.scopes.push(HashMap::new());
        self.next_slot
    }

    fn pop_scope(&mut self, mark: usize) {
        self.scopes.pop();
        self.next_slot = mark;
    }

    fn local(&self, name: &str) -> Option<Slot> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// An expression with no locals of its own (declarations, parameters).
    fn const_expr(&mut self, e: &ast::Expr) -> X {
        self.enter_frame();
        self.expr(e)
    }

    fn top_expr(&mut self, e: Option<&ast::Expr>, form: &str) -> X {
        match e {
            Some(e) => self.const_expr(e),
            None => {
                self.required::<()>(None, form, &format!("the rules need `{form}`"));
                X { e: E::Const(Value::Null), span: 0..0, quick: None }
            }
        }
    }

    fn func(&mut self, f: &ast::FnDecl) -> Func {
        self.enter_frame();
        for p in &f.params {
            self.bind(p);
        }
        let body = self.expr(&f.body);
        Func { name: f.name.text.clone(), arity: f.params.len(), locals: self.max_slot, body }
    }

    fn proc(&mut self, p: &ast::ProcDecl) -> Proc {
        self.enter_frame();
        for a in &p.params {
            self.bind(a);
        }
        let place = Place { in_checks: p.checks_only, ..Place::default() };
        if p.checks_only
            && let Some(effect) = p.body.iter().find(|s| !self.helpers.is_check(s))
        {
            self.error(
                codes::MISPLACED,
                format!(
                    "`{}` is a `check` helper: it may only check (`let`, `require`, `if` and `for` around them)",
                    p.name.text
                ),
                effect.span.clone(),
                "this is not a check",
            );
        }
        let body = self.block(&p.body, place);
        Proc {
            name: p.name.text.clone(),
            arity: p.params.len(),
            locals: self.max_slot,
            body,
            checks_only: p.checks_only,
        }
    }

    fn dues(&mut self, dues: &[ast::DueDecl]) -> Vec<Due> {
        let mut out = vec![];
        for d in dues {
            self.enter_frame();
            let cond = self.expr(&d.cond);
            if let Some(Global::Proc(p)) = self.globals.get(&d.name.text) {
                out.push(Due { proc_: *p, cond, locals: self.max_slot });
            }
        }
        out
    }

    /// The `always` records, then the `window` records.
    fn always(&mut self, always: &[ast::Branch], windows: &[ast::Branch]) -> (Vec<Branch>, usize) {
        let mut out = vec![];
        let mut locals = 0;
        let records = always.iter().map(|b| (b, false)).chain(windows.iter().map(|b| (b, true)));
        for (b, window) in records {
            self.enter_frame();
            out.push(Branch { window, ..self.branch(b, Place { in_always: true, ..Place::default() }) });
            locals = locals.max(self.max_slot);
        }
        (out, locals)
    }

    fn flow(&mut self, flow: Option<&ast::Block>) -> (Block, usize) {
        self.enter_frame();
        let Some(flow) = flow else {
            self.required::<()>(None, "flow { ... }", "the rules need a flow");
            return (vec![], 0);
        };
        let block = self.block(flow, Place::default());
        (block, self.max_slot)
    }

    // ------------------------------------------------------------ statements

    fn block(&mut self, stmts: &[ast::Stmt], place: Place) -> Block {
        let mark = self.push_scope();
        let out = self.stmts(stmts, place);
        self.pop_scope(mark);
        out
    }

    /// Statements in the current scope, so that later ones see their `let`s.
    fn stmts(&mut self, stmts: &[ast::Stmt], place: Place) -> Block {
        let mut out = vec![];
        let mut dead: Option<&'static str> = None;
        for s in stmts {
            if let Some(why) = dead.take() {
                self.error(codes::UNREACHABLE, "this can never be reached".into(), s.span.clone(), why);
            }
            dead = ends_block(s);
            out.push(self.stmt(s, place));
        }
        out
    }

    fn stmt(&mut self, s: &ast::Stmt, place: Place) -> S {
        let st = match &s.kind {
            StmtKind::Let(n, e) => {
                let x = self.expr(e);
                St::Let(self.bind(n), x)
            }
            StmtKind::Require(cond, rule, message, cost) => self.require(cond, rule, message, cost.as_ref(), s, place),
            StmtKind::If(c, a, b) => {
                St::If(self.expr(c), self.block(a, place), b.as_ref().map_or(vec![], |b| self.block(b, place)))
            }
            StmtKind::For(v, v2, coll, body) => {
                let coll = self.expr(coll);
                let mark = self.push_scope();
                let slot = self.bind(v);
                let slot2 = v2.as_ref().map(|n| self.bind(n));
                let body = self.block(body, Place { loops: place.loops + 1, ..place });
                self.pop_scope(mark);
                St::For { slot, slot2, coll, body }
            }
            StmtKind::While(c, body) => {
                St::While(self.expr(c), self.block(body, Place { loops: place.loops + 1, ..place }))
            }
            StmtKind::Loop(body) => St::Loop(self.block(body, Place { loops: place.loops + 1, ..place })),
            StmtKind::Choose(branches, otherwise) => self.choose(branches, otherwise.as_ref(), s, place),
            StmtKind::Break | StmtKind::Continue => {
                if place.loops == 0 {
                    self.error(
                        codes::MISPLACED,
                        "`break` and `continue` need an enclosing loop".into(),
                        s.span.clone(),
                        "outside any loop",
                    );
                }
                if matches!(s.kind, StmtKind::Break) { St::Break } else { St::Continue }
            }
            StmtKind::Again => {
                if !place.in_branch || place.in_always {
                    self.error(
                        codes::MISPLACED,
                        "`again` belongs in a branch of a `choose`".into(),
                        s.span.clone(),
                        "not in a branch",
                    );
                }
                St::Again
            }
            StmtKind::Finish(now) => St::Finish(*now),
            StmtKind::Settle => St::Settle,
            StmtKind::Open(action) => self.open(action),
            StmtKind::Note(text) => St::Note(self.template(text)),
            StmtKind::Assign(lv, op, value) => self.assign(lv, *op, value),
            StmtKind::Call(n, args) => self.call_proc(n, args, s, place),
        };
        S { s: st, span: s.span.clone() }
    }

    /// The `look`s of a rules file: each names a member of an enum, a colour of `LOOK_COLOURS`
    /// and a symbol of at most `MAX_LOOK_SYMBOL` characters without controls.
    fn looks(&mut self, spec: &ast::Spec, enums: &[crate::program::EnumInfo]) -> Vec<crate::program::Look> {
        let mut out = vec![];
        for l in &spec.looks {
            if !enums.iter().any(|e| e.variants.contains(&l.member.text)) {
                let members: Vec<String> = enums.iter().flat_map(|e| e.variants.iter().cloned()).collect();
                self.unknown_as(codes::UNKNOWN_NAME, &l.member, "enum member", members);
                continue;
            }
            if !LOOK_COLOURS.iter().any(|(name, ..)| *name == l.colour.text) {
                let known: Vec<String> = LOOK_COLOURS.iter().map(|(n, ..)| n.to_string()).collect();
                self.unknown_as(codes::UNKNOWN_NAME, &l.colour, "colour", known);
                continue;
            }
            if let Some(symbol) = &l.symbol {
                let bad = symbol.text.chars().count() > MAX_LOOK_SYMBOL || symbol.text.chars().any(char::is_control);
                if bad {
                    let message = format!("a look's symbol is at most {MAX_LOOK_SYMBOL} characters, without controls");
                    self.error(codes::LIMIT, message, symbol.span.clone(), "this symbol");
                    continue;
                }
            }
            out.push(crate::program::Look {
                group: l.member.text.clone(),
                colour: l.colour.text.clone(),
                symbol: l.symbol.as_ref().map(|s| s.text.clone()),
            });
        }
        out
    }

    /// The variables a `view` or `history` names, in its order.
    fn variables(&mut self, names: &[Name], spec: &ast::Spec, what: &str) -> Vec<u16> {
        let mut out = vec![];
        for n in names {
            match self.globals.get(&n.text) {
                Some(Global::Var(ix)) if !out.contains(ix) => out.push(*ix),
                Some(Global::Var(_)) => {
                    self.error(
                        codes::DUPLICATE,
                        format!("`{}` is in the {what} twice", n.text),
                        n.span.clone(),
                        "again",
                    );
                }
                Some(_) => {
                    self.error(
                        codes::MISPLACED,
                        format!("`{}` is not a variable; a {what} is of the state", n.text),
                        n.span.clone(),
                        "not a `var`",
                    );
                }
                None => {
                    let known: Vec<String> = spec.vars.iter().map(|v| v.name.text.clone()).collect();
                    self.unknown_as(codes::UNKNOWN_NAME, n, "variable", known);
                }
            }
        }
        out
    }

    fn open(&mut self, action: &Name) -> St {
        let Some(&id) = self.actions.get(&action.text) else {
            let known: Vec<String> = self.actions.keys().cloned().collect();
            self.unknown_as(codes::UNKNOWN_ACTION, action, "action", known);
            return St::Open(0);
        };
        if !self.windows.contains(&action.text) {
            self.error(
                codes::MISSING,
                format!("`{}` has no `window` record to open", action.text),
                action.span.clone(),
                "opened here",
            )
            .set_help(format!("declare one: `window {}(x) by table {{ ... }}`", action.text));
        }
        St::Open(id)
    }

    fn require(
        &mut self,
        cond: &ast::Expr,
        rule: &Name,
        message: &ast::Template,
        cost: Option<&ast::Block>,
        s: &ast::Stmt,
        place: Place,
    ) -> St {
        if !place.in_checks {
            self.error(
                codes::MISPLACED,
                "`require` belongs among the checks at the start of a branch".into(),
                s.span.clone(),
                "checks must come before the branch changes anything",
            )
            .set_help("move the check before the first assignment, or compute what it needs with `let`");
        }
        let rule_ix = match self.rules.get(&rule.text) {
            Some(ix) => *ix,
            None => {
                let known: Vec<String> = self.rules.keys().cloned().collect();
                self.unknown_as(codes::UNKNOWN_RULE, rule, "rule id", known);
                0
            }
        };
        let cond = self.expr(cond);
        let message = self.template(message);
        let cost = cost.map_or(vec![], |b| self.cost(b, rule, rule_ix));
        St::Require { cond, rule: rule_ix, message, cost }
    }

    /// A `costs` block: effects, in the scope of the checks before it, of a rule that stands.
    /// It cannot wait for an event (a `choose`) or leave a loop it is not in.
    fn cost(&mut self, block: &ast::Block, rule: &Name, rule_ix: u16) -> Block {
        if !self.standing.contains(&rule_ix) {
            self.error(
                codes::MISPLACED,
                format!("rule `{}` stops the checking, so it has no cost", rule.text),
                rule.span.clone(),
                "this rule does not stand",
            )
            .set_help(format!("only a rule declared with `stands` has a cost: `rule {} \"...\" stands`", rule.text));
        }
        self.block(block, Place { in_always: true, ..Place::default() })
    }

    fn choose(
        &mut self,
        branches: &[ast::Branch],
        otherwise: Option<&(Option<ast::Expr>, ast::Block)>,
        s: &ast::Stmt,
        place: Place,
    ) -> St {
        if place.in_always || place.in_checks {
            self.error(
                codes::MISPLACED,
                "`choose` cannot stand inside a record or a check".into(),
                s.span.clone(),
                "here",
            );
        }
        let branches = branches.iter().map(|b| self.branch(b, place)).collect();
        let optional_while = otherwise.and_then(|(g, _)| g.as_ref()).map(|g| self.expr(g));
        let otherwise = otherwise.map(|(_, o)| self.block(o, Place { in_branch: false, ..place }));
        St::Choose(Box::new(Choose {
            branches,
            otherwise,
            optional_while,
            span: s.span.start..s.span.start + "choose".len(),
        }))
    }

    fn branch(&mut self, b: &ast::Branch, place: Place) -> Branch {
        let action = match self.actions.get(&b.action.text) {
            Some(a) => *a,
            None => {
                let known: Vec<String> = self.actions.keys().cloned().collect();
                let mut d = Diag::new(codes::UNKNOWN_ACTION, format!("unknown action `{}`", b.action.text))
                    .label(b.action.span.clone(), "not declared with `action`");
                if let Some(best) = did_you_mean(&b.action.text, known.iter().map(|s| s.as_str())) {
                    d = d.help(format!("did you mean `{best}`?"));
                }
                self.errors.push(d);
                NOWHERE
            }
        };
        let mark = self.push_scope();
        let actors = self.expr(&b.actors);
        let arg = self.bind(&b.arg);
        let actor = b.actor_var.as_ref().map(|n| self.bind(n));
        let guard = b.guard.as_ref().map(|g| self.expr(g));
        let choices = b.choices.as_ref().map(|c| self.expr(c));
        let split = b.body.iter().position(|s| !self.helpers.is_check(s)).unwrap_or(b.body.len());
        let (check_part, effect_part) = b.body.split_at(split);
        let inner = Place { in_branch: true, ..place };
        let checks = self.stmts(check_part, Place { in_checks: true, ..inner });
        let effects = self.effects(effect_part, inner);
        self.pop_scope(mark);
        let span = b.span.clone();
        Branch {
            action,
            arg,
            actors,
            actor,
            guard,
            choices,
            checks,
            effects,
            span,
            window: false,
            drawn: Default::default(),
        }
    }

    /// Effects see the names the checks bound, so they resolve in the same scope.
    fn effects(&mut self, stmts: &[ast::Stmt], place: Place) -> Block {
        let mut out = vec![];
        let mut dead: Option<&'static str> = None;
        for s in stmts {
            if let Some(why) = dead.take() {
                self.error(codes::UNREACHABLE, "this can never be reached".into(), s.span.clone(), why);
            }
            if self.helpers.contains_require(s) {
                self.error(
                    codes::CHECK_AFTER_EFFECT,
                    "a check comes after the branch has changed the state".into(),
                    s.span.clone(),
                    "check after an effect",
                )
                .set_help("checks (`require`) must all come before the first assignment or call");
                continue;
            }
            dead = ends_block(s);
            out.push(self.stmt(s, place));
        }
        out
    }

    fn assign(&mut self, lv: &ast::LValue, op: ast::AssignOp, value: &ast::Expr) -> St {
        let target = if let Some(slot) = self.local(&lv.root.text) {
            Target::Local(slot)
        } else if self.refused.contains(&lv.root.text) {
            Target::Local(self.fresh_slot())
        } else if let Some(Global::Var(v)) = self.globals.get(&lv.root.text) {
            Target::Global(*v)
        } else {
            let vars = self.globals_of(|g| matches!(g, Global::Var(_)));
            self.unknown(&lv.root, "variable", vars);
            // A local no name reaches: the type check sees a place of unknown type there.
            Target::Local(self.fresh_slot())
        };
        let path = lv
            .path
            .iter()
            .map(|a| match a {
                ast::Accessor::Index(e) => self.expr(e),
                ast::Accessor::Field(n) => X { e: E::Const(Value::str(&n.text)), span: n.span.clone(), quick: None },
            })
            .collect();
        St::Assign { target, path, op, value: self.expr(value) }
    }

    fn call_proc(&mut self, n: &Name, args: &[ast::Expr], s: &ast::Stmt, place: Place) -> St {
        let args: Vec<X> = args.iter().map(|a| self.expr(a)).collect();
        if self.helpers.0.contains(&n.text) && !place.in_checks {
            self.error(
                codes::MISPLACED,
                format!("`{}` is a `check` helper: it belongs among the checks at the start of a branch", n.text),
                s.span.clone(),
                "called outside a branch's checks",
            );
        }
        match self.globals.get(&n.text).copied() {
            // Which declaration is meant is not known: neither's parameters hold.
            Some(Global::Proc(_)) if self.refused.contains(&n.text) => St::Call(NOWHERE, args),
            Some(Global::Proc(p)) => {
                let wrong = self
                    .proc_signatures
                    .get(p as usize)
                    .and_then(|sig| sig.wrong_count(args.len(), &s.span, &self.source));
                self.errors.extend(wrong);
                St::Call(p, args)
            }
            _ => {
                let procs = self.globals_of(|g| matches!(g, Global::Proc(_)));
                self.unknown(n, "procedure", procs);
                St::Call(NOWHERE, args)
            }
        }
    }

    // ------------------------------------------------------------ expressions

    fn expr(&mut self, e: &ast::Expr) -> X {
        let span = e.span.clone();
        let e = match &e.kind {
            ExprKind::Int(i) => E::Const(Value::Int(*i)),
            ExprKind::Str(t) => E::Template(self.template(t)),
            ExprKind::Bool(b) => E::Const(Value::Bool(*b)),
            ExprKind::Null => E::Const(Value::Null),
            ExprKind::Table => E::Const(Value::Table),
            ExprKind::Name(n) => self.name(n, &span),
            ExprKind::List(items) => E::List(items.iter().map(|i| self.expr(i)).collect()),
            ExprKind::Record(fields) => {
                E::Record(fields.iter().map(|(n, x)| (Value::Str(self.intern(&n.text)), self.expr(x))).collect())
            }
            ExprKind::Comprehension { body, var, var2, coll, cond } => {
                let coll = Box::new(self.expr(coll));
                let mark = self.push_scope();
                let slot = self.bind(var);
                let slot2 = var2.as_ref().map(|n| self.bind(n));
                let cond = cond.as_ref().map(|c| Box::new(self.expr(c)));
                let body = Box::new(self.expr(body));
                self.pop_scope(mark);
                E::Comprehension { body, slot, slot2, coll, cond }
            }
            ExprKind::Quantifier { all, var, coll, body } => {
                let coll = Box::new(self.expr(coll));
                let mark = self.push_scope();
                let slot = self.bind(var);
                let body = Box::new(self.expr(body));
                self.pop_scope(mark);
                E::Quantifier { all: *all, slot, coll, body, memo: None }
            }
            ExprKind::Let(var, value, body) => {
                let value = Box::new(self.expr(value));
                let mark = self.push_scope();
                let slot = self.bind(var);
                let body = Box::new(self.expr(body));
                self.pop_scope(mark);
                E::Let { slot, value, body }
            }
            ExprKind::If(c, a, b) => E::If(Box::new(self.expr(c)), Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Unary(ast::UnOp::Not, x) => E::Not(Box::new(self.expr(x))),
            ExprKind::Unary(ast::UnOp::Neg, x) => E::Neg(Box::new(self.expr(x))),
            ExprKind::Binary(op, a, b) => E::Binary(*op, Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Index(a, i) => E::Index(Box::new(self.expr(a)), Box::new(self.expr(i))),
            ExprKind::Slice(a, lo, hi) => E::Slice(
                Box::new(self.expr(a)),
                lo.as_ref().map(|x| Box::new(self.expr(x))),
                hi.as_ref().map(|x| Box::new(self.expr(x))),
            ),
            ExprKind::Field(base, f) => self.field(base, f, &span),
            ExprKind::Call(n, args) => self.call(n, args, &span),
            ExprKind::Lambda(n, _) => {
                self.error(
                    codes::MISPLACED,
                    "`x => ...` is only an argument of `max_by`, `min_by`, `sort_by` or `count`".into(),
                    n.span.clone(),
                    "here",
                );
                self.placeholder(&span)
            }
        };
        X { e, span, quick: None }
    }

    fn name(&mut self, n: &Name, span: &Span) -> E {
        if let Some(slot) = self.local(&n.text) {
            return E::Local(slot);
        }
        if self.refused.contains(&n.text) {
            return self.placeholder(span);
        }
        match self.globals.get(&n.text) {
            Some(Global::Param(i)) => E::Param(*i),
            Some(Global::Var(i)) => E::Global(*i),
            Some(Global::Kind(k)) => E::AllCards(*k),
            Some(Global::Enum(e)) => E::AllVariants(*e),
            _ if n.text == "players" => E::Players,
            _ if n.text == "events_taken" => E::EventsTaken,
            _ => {
                let mut candidates: Vec<String> = self.scopes.iter().flat_map(|s| s.keys().cloned()).collect();
                candidates.extend(self.globals_of(|g| !matches!(g, Global::Fn(_) | Global::Proc(_))));
                candidates.push("players".into());
                self.unknown(n, "name", candidates);
                self.placeholder(span)
            }
        }
    }

    /// What stands for an expression whose name did not resolve (already reported).
    fn placeholder(&mut self, span: &Span) -> E {
        self.unresolved.insert(span.clone());
        E::Const(Value::Null)
    }

    /// `Enum.Variant` is a constant; anything else is a field of a value.
    fn field(&mut self, base: &ast::Expr, f: &Name, span: &Span) -> E {
        if let ExprKind::Name(n) = &base.kind
            && self.local(&n.text).is_none()
            && let Some(Global::Enum(e)) = self.globals.get(&n.text).copied()
        {
            return self.variant(e, f, span);
        }
        let sym = match self.field_names.iter().position(|n| *n == f.text) {
            Some(i) => i,
            None => {
                self.field_names.push(f.text.clone());
                self.field_names.len() - 1
            }
        };
        E::Field(Box::new(self.expr(base)), Value::Str(self.intern(&f.text)), sym as u16)
    }

    fn variant(&mut self, e: u16, f: &Name, span: &Span) -> E {
        let variants = self.enum_variants.get(e as usize).cloned().unwrap_or_default();
        match variants.iter().position(|v| *v == f.text) {
            Some(v) => E::Const(Value::Enum(e, v as u16)),
            None => {
                self.unknown(f, "variant", variants);
                self.placeholder(span)
            }
        }
    }

    fn call(&mut self, n: &Name, args: &[ast::Expr], span: &Span) -> E {
        if let Some(Global::Fn(f)) = self.globals.get(&n.text).copied() {
            return self.call_fn(f, n, args, span);
        }
        if let Some(Global::Kind(k)) = self.globals.get(&n.text).copied() {
            return self.card_literal(k, n, args, span);
        }
        let Some(builtin) = builtins::lookup(&n.text) else {
            let mut fns = self.globals_of(|g| matches!(g, Global::Fn(_)));
            fns.extend(builtins::names().map(String::from));
            self.unknown(n, "function", fns);
            self.stray_args(args);
            return self.placeholder(span);
        };
        let (arity, lambda) = (builtin.arity(), builtin.takes_lambda());
        if args.len() != arity {
            self.error(
                codes::ARITY,
                format!("`{}` takes {arity} argument(s), not {}", n.text, args.len()),
                span.clone(),
                "wrong number of arguments",
            );
        }
        let args = args
            .iter()
            .enumerate()
            .map(|(i, a)| match (&a.kind, lambda && i + 1 == arity) {
                (ExprKind::Lambda(v, body), true) => self.lambda(v, body, &a.span),
                (_, true) => {
                    self.error(
                        codes::TYPE_MISMATCH,
                        format!("`{}` wants `x => ...` here", n.text),
                        a.span.clone(),
                        "not a lambda",
                    );
                    self.expr(a)
                }
                _ => self.expr(a),
            })
            .collect();
        E::Builtin(builtin.builtin, args)
    }

    /// `Kind("CODE")`: the card (or code) of that kind with that code.
    fn card_literal(&mut self, k: u16, n: &Name, args: &[ast::Expr], span: &Span) -> E {
        let code = match args {
            [ast::Expr { kind: ExprKind::Str(t), span: at }] => match t.parts.as_slice() {
                [] => Some((String::new(), at.clone())),
                [ast::TemplatePart::Text(text)] => Some((text.clone(), at.clone())),
                _ => None,
            },
            _ => None,
        };
        let Some((code, at)) = code else {
            self.error(
                codes::TYPE_MISMATCH,
                format!("`{}(...)` names one of its cards by its code, a string in quotes", n.text),
                span.clone(),
                "not one code in quotes",
            )
            .set_help(format!("write the code as the transcript does: `{}(\"CODE\")`", n.text));
            self.stray_args(args);
            return self.placeholder(span);
        };
        self.card_literals.push((k, code.clone(), at));
        E::CardCode(k, Value::str(&code))
    }

    /// Every card named by its code is one the rules declare (cards read from a data file
    /// are known only with it: those are looked up when the rules run).
    fn card_literals(&mut self, program: &Program) {
        for (k, code, at) in std::mem::take(&mut self.card_literals) {
            let Some(kind) = program.kinds.get(k as usize) else { continue };
            if kind.pool.is_some() || kind.by_code.contains_key(&code) {
                continue;
            }
            let mut d = Diag::new(codes::UNKNOWN_NAME, format!("no {} `{code}` in `{}`", kind.noun(), kind.name))
                .label(at, "no such code");
            if let Some(best) = did_you_mean(&code, kind.by_code.keys().map(|s| s.as_str())) {
                d = d.help(format!("did you mean `{best}`?"));
            }
            self.errors.push(d);
        }
    }

    /// A call of a `fn` the rules declare, with as many arguments as it has parameters.
    fn call_fn(&mut self, f: u16, n: &Name, args: &[ast::Expr], span: &Span) -> E {
        if self.refused.contains(&n.text) {
            // Which declaration is meant is not known: neither's parameters nor result hold.
            self.stray_args(args);
            return self.placeholder(span);
        }
        let wrong = self.fn_signatures.get(f as usize).and_then(|sig| sig.wrong_count(args.len(), span, &self.source));
        self.errors.extend(wrong);
        E::CallFn(f, args.iter().map(|a| self.expr(a)).collect())
    }

    /// The arguments of a call of an unknown function, resolved for the errors of their own
    /// names; a lambda among them is taken as one, since the function meant may take it.
    fn stray_args(&mut self, args: &[ast::Expr]) {
        for a in args {
            match &a.kind {
                ExprKind::Lambda(v, body) => self.lambda(v, body, &a.span),
                _ => self.expr(a),
            };
        }
    }

    fn lambda(&mut self, v: &Name, body: &ast::Expr, span: &Span) -> X {
        let mark = self.push_scope();
        let slot = self.bind(v);
        let body = self.expr(body);
        self.pop_scope(mark);
        X { e: E::Lambda(slot, Box::new(body)), span: span.clone(), quick: None }
    }

    fn template(&mut self, t: &ast::Template) -> Vec<Part> {
        t.parts
            .iter()
            .map(|p| match p {
                TemplatePart::Text(s) => Part::Text(s.clone()),
                TemplatePart::Expr(e) => Part::Expr(self.expr(e)),
            })
            .collect()
    }

    // ------------------------------------------------------------ cards

    /// For a kind read from a file: its `file` parameter, and the attribute conditions and
    /// row checks, resolved with the attributes (then `code`) as locals.
    fn pool_spec(&mut self, c: &ast::CardDecl, params: &[Param]) -> Option<PoolSpec> {
        let ast::CardBody::Pool { param, key, checks } = &c.body else {
            for w in c.when.iter().flatten() {
                self.error(
                    codes::BAD_CARDS,
                    "only cards read from a file (`from ...`) have attributes with `if`".into(),
                    w.span.clone(),
                    "a condition on an attribute",
                );
            }
            return None;
        };
        let index = match self.globals.get(&param.text) {
            Some(Global::Param(i)) if matches!(params.get(*i as usize).map(|p| &p.shape), Some(Shape::File)) => *i,
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    format!("`{}` is not a parameter of type `file`", param.text),
                    param.span.clone(),
                    "cards are read from the file this parameter names",
                )
                .set_help(format!("declare it: `param {}: file = \"cards.yaml\"`", param.text));
                return None;
            }
        };
        self.enter_frame();
        let mark = self.push_scope();
        for (n, _) in &c.fields {
            self.bind(n);
        }
        self.bind(&Name { text: "code".into(), span: c.name.span.clone() });
        let when = c.when.iter().map(|w| w.as_ref().map(|w| self.expr(w))).collect();
        let checks = checks.iter().map(|(cond, message)| (self.expr(cond), self.template(message))).collect();
        self.pop_scope(mark);
        Some(PoolSpec { param: index, key: key.text.clone(), when, checks, locals: self.max_slot })
    }

    fn cards(&mut self, spec: &ast::Spec, program: &mut Program) {
        for (k, decl) in spec.cards.iter().enumerate() {
            let start = program.cards.len() as u32;
            let rows = match self.card_rows(decl, program) {
                Ok(rows) => rows,
                Err(d) => {
                    self.errors.push(d);
                    continue;
                }
            };
            if program.cards.len() + rows.len() > MAX_CARDS {
                let message = format!("the rules declare more than {MAX_CARDS} cards");
                self.errors.push(Diag::new(codes::LIMIT, message).label(decl.name.span.clone(), "this kind of card"));
                return;
            }
            for (code, attrs, span) in rows {
                let id = program.cards.len() as u32;
                if program.kinds[k].by_code.insert(code.clone(), id).is_some() {
                    self.error(
                        codes::BAD_CARDS,
                        format!(
                            "{} `{code}` is given twice in `{}`",
                            if decl.plain { "code" } else { "card code" },
                            decl.name.text
                        ),
                        span,
                        &format!("second {} with this code", noun(decl)),
                    );
                }
                program.cards.push(CardInfo { kind: k as u16, code: Rc::new(code.clone()), attrs });
            }
            program.kinds[k].cards = start..program.cards.len() as u32;
        }
    }

    fn card_rows(&mut self, decl: &ast::CardDecl, program: &Program) -> Result<Vec<(String, Vec<Value>, Span)>, Diag> {
        let mut constants = crate::run::Constants::new(program, self.compile_fuel);
        let rows = self.card_body(decl, &decl.body, program, &mut constants);
        self.compile_fuel = constants.fuel();
        rows
    }

    fn card_body(
        &mut self,
        decl: &ast::CardDecl,
        body: &ast::CardBody,
        program: &Program,
        constants: &mut crate::run::Constants<'_>,
    ) -> Result<Vec<(String, Vec<Value>, Span)>, Diag> {
        let fields = decl.fields.len();
        match body {
            ast::CardBody::Rows(rows) => rows
                .iter()
                .map(|(code, values)| {
                    if values.len() != fields {
                        return Err(Diag::new(
                            codes::BAD_CARDS,
                            format!(
                                "{} `{}` has {} value(s) for {fields} attribute(s)",
                                noun(decl),
                                code.text,
                                values.len()
                            ),
                        )
                        .label(code.span.clone(), "here"));
                    }
                    let attrs = values.iter().map(|v| self.card_value(v, constants)).collect::<Result<Vec<_>, _>>()?;
                    Ok((code.text.clone(), attrs, code.span.clone()))
                })
                .collect(),
            // Read from a file for each transcript (`transcript::pool`), not when compiling.
            ast::CardBody::Pool { .. } => Ok(vec![]),
            ast::CardBody::Each { bindings, code } => self.card_product(decl, bindings, code, program, constants),
            ast::CardBody::Both(each, rows) => {
                let mut all = self.card_body(decl, each, program, constants)?;
                all.extend(self.card_body(decl, rows, program, constants)?);
                Ok(all)
            }
        }
    }

    /// One attribute of a card row, worked out now; null if resolving it reported an error
    /// (running it would only report what follows from that one).
    fn card_value(&mut self, v: &ast::Expr, constants: &mut crate::run::Constants<'_>) -> Result<Value, Diag> {
        let before = self.errors.len();
        let x = self.const_expr(v);
        if self.errors.len() > before {
            return Ok(Value::Null);
        }
        constants.eval(&x, &[])
    }

    /// Every combination of the `each` bindings, in order, the last varying fastest.
    fn card_product(
        &mut self,
        decl: &ast::CardDecl,
        bindings: &[(Name, ast::Expr)],
        code: &ast::Expr,
        program: &Program,
        constants: &mut crate::run::Constants<'_>,
    ) -> Result<Vec<(String, Vec<Value>, Span)>, Diag> {
        self.enter_frame();
        let before = self.errors.len();
        let domain_xs: Vec<X> = bindings.iter().map(|(_, e)| self.expr(e)).collect();
        for (n, _) in bindings {
            self.bind(n);
        }
        let code_x = self.expr(code);
        // Running what did not resolve would only report what follows from its errors.
        let runnable = self.errors.len() == before;
        let domains = if runnable { each_domains(bindings, &domain_xs, constants)? } else { vec![] };
        let order: Vec<usize> = decl
            .fields
            .iter()
            .map(|(f, _)| {
                bindings.iter().position(|(b, _)| b.text == f.text).ok_or_else(|| {
                    Diag::new(codes::BAD_CARDS, format!("attribute `{}` has no `each` binding", f.text))
                        .label(f.span.clone(), "not bound")
                })
            })
            .collect::<Result<_, _>>()?;
        if !runnable {
            return Ok(vec![]);
        }
        let count = domains.iter().try_fold(1usize, |n, d| n.checked_mul(d.len()));
        if count.is_none_or(|n| n.saturating_add(program.cards.len()) > MAX_CARDS) {
            let message = format!("`{}` would have more than {MAX_CARDS} cards", decl.name.text);
            return Err(Diag::new(codes::LIMIT, message).label(decl.name.span.clone(), "this kind of card"));
        }
        let mut out = vec![];
        let mut counters = vec![0usize; domains.len()];
        if domains.iter().any(|d| d.is_empty()) {
            return Ok(out);
        }
        loop {
            let values: Vec<Value> =
                counters.iter().zip(&domains).map(|(i, d)| d.get(*i).cloned().unwrap_or(Value::Null)).collect();
            let code = constants.eval(&code_x, &values)?;
            let text = crate::run::show_plain(program, &code);
            out.push((
                text,
                order.iter().map(|i| values.get(*i).cloned().unwrap_or(Value::Null)).collect(),
                decl.name.span.clone(),
            ));
            if !advance(&mut counters, &domains) {
                return Ok(out);
            }
        }
    }
}

/// The lists the `each` bindings of a card kind run over.
fn each_domains(
    bindings: &[(Name, ast::Expr)],
    xs: &[X],
    constants: &mut crate::run::Constants<'_>,
) -> Result<Vec<Vec<Value>>, Diag> {
    bindings
        .iter()
        .zip(xs)
        .map(|((_, e), x)| match constants.eval(x, &[])? {
            Value::List(items) => Ok(items.as_ref().clone()),
            other => Err(Diag::new(codes::TYPE_MISMATCH, format!("`each` needs a list, found {}", other.type_name()))
                .label(e.span.clone(), "not a list")),
        })
        .collect()
}

fn advance(counters: &mut [usize], domains: &[Vec<Value>]) -> bool {
    for i in (0..counters.len()).rev() {
        counters[i] += 1;
        if counters[i] < domains[i].len() {
            return true;
        }
        counters[i] = 0;
    }
    false
}

/// The names of the `check` helpers, which decide whether a call is a check.
struct Helpers(std::collections::HashSet<String>);

impl Helpers {
    /// Whether a statement only reads the state (may stand among a branch's checks).
    fn is_check(&self, s: &ast::Stmt) -> bool {
        match &s.kind {
            StmtKind::Let(..) | StmtKind::Require(..) => true,
            StmtKind::Call(n, _) => self.0.contains(&n.text),
            StmtKind::If(_, a, b) => {
                a.iter().all(|s| self.is_check(s))
                    && b.as_ref().is_none_or(|b| b.iter().all(|s| self.is_check(s)))
                    && self.contains_require(s)
            }
            StmtKind::For(_, _, _, body) => body.iter().all(|s| self.is_check(s)) && self.contains_require(s),
            _ => false,
        }
    }

    fn contains_require(&self, s: &ast::Stmt) -> bool {
        match &s.kind {
            StmtKind::Require(..) => true,
            StmtKind::Call(n, _) => self.0.contains(&n.text),
            StmtKind::If(_, a, b) => {
                a.iter().any(|s| self.contains_require(s))
                    || b.as_ref().is_some_and(|b| b.iter().any(|s| self.contains_require(s)))
            }
            StmtKind::For(_, _, _, body) | StmtKind::While(_, body) | StmtKind::Loop(body) => {
                body.iter().any(|s| self.contains_require(s))
            }
            _ => false,
        }
    }
}

/// Why the statements after this one can never run, if they cannot.
fn ends_block(s: &ast::Stmt) -> Option<&'static str> {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue | StmtKind::Again => Some("control never gets past the statement before"),
        StmtKind::Finish(true) => Some("the game ends at the `finish now` before"),
        StmtKind::Loop(body) if !body.iter().any(breaks_out) => Some("the loop before never ends: it has no `break`"),
        _ => None,
    }
}

/// Whether a loop body contains a `break` that leaves this loop (not an inner one).
fn breaks_out(s: &ast::Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::If(_, a, b) => a.iter().any(breaks_out) || b.as_ref().is_some_and(|b| b.iter().any(breaks_out)),
        StmtKind::Choose(branches, otherwise) => {
            branches.iter().any(|b| b.body.iter().any(breaks_out))
                || otherwise.as_ref().is_some_and(|(_, o)| o.iter().any(breaks_out))
        }
        _ => false,
    }
}

/// What one value of a declared kind is called in messages.
fn noun(decl: &ast::CardDecl) -> &'static str {
    if decl.plain { "code" } else { "card" }
}

/// Compiles a rules file: parse, then resolve. `label` names the file in diagnostics.
pub fn compile(label: &str, text: &str) -> Result<Program, Vec<Diag>> {
    compile_in(label, text, std::path::Path::new("."))
}

/// Compiles a rules file whose `extends` paths are relative to `base`.
pub fn compile_in(label: &str, text: &str, base: &std::path::Path) -> Result<Program, Vec<Diag>> {
    let (combined, segments) = extend::assemble(label, text, base, 0).map_err(|d| vec![d])?;
    let map = crate::diag::SourceMap::new(segments);
    let mut spec = crate::lang::syntax::parse(&combined).map_err(|d| vec![map.place(d)])?;
    if spec.extends.is_some() {
        extend::apply_overrides(&mut spec);
    }
    resolve(&spec, &map)
        .map_err(|ds| ds.into_iter().map(|d| if d.source.is_some() { d } else { map.place(d) }).collect())
}

/// The colours a `look` may give: the name, its colour on the judge's page (CSS) and its
/// colour on a terminal (an ANSI SGR code).
pub const LOOK_COLOURS: [(&str, &str, u8); 9] = [
    ("black", "#222222", 39),
    ("red", "#c8102e", 31),
    ("green", "#1a7f37", 32),
    ("blue", "#1f5fbf", 34),
    ("yellow", "#a07800", 33),
    ("orange", "#d45f00", 33),
    ("purple", "#7b2fa8", 35),
    ("cyan", "#00808c", 36),
    ("grey", "#6e6e6e", 90),
];

/// Most characters of a `look`'s symbol.
pub const MAX_LOOK_SYMBOL: usize = 4;
