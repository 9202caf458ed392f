//! A static type check of a compiled program: conditions are bools, arithmetic and ordering
//! take ints, `+` and `-` join like with like, only lists and maps are indexed, a card's
//! attribute and a record's field exist, `==` compares values of one kind, and `x += v`,
//! `x -= v` and `x = v` fit the variable. The types of variables, of `fn` results and of
//! `proc` parameters flow through the program: the checker goes over it until nothing it
//! learns changes any more (a fixed point), then once more to report. What cannot be known
//! stays unknown and is never an error.

use crate::codes;
use crate::diag::Diag;
use crate::lang::ast::{AssignOp, BinOp};
use crate::program::builtins::{Builtin, Gives};
use crate::program::value::Value;
use crate::program::{Block, Branch, E, Part, Program, S, Slot, St, Target, X};
use crate::resolve::types::{
    Field, Key, T, assignable, at_path, combine, comparable, const_type, join, of_shape, store,
};
use crate::span::Span;
use std::collections::HashSet;
use std::rc::Rc;

/// How many helpers' bodies may be typed one inside another when calls widen their
/// parameters (`helper_widened`).
const MAX_HELPERS_OPEN: usize = 64;

/// Rounds over the whole program before the checker gives up learning and forgets every
/// variable's type; real rules settle in three or four.
const MAX_ROUNDS: usize = 30;
/// Rounds over one loop before its variables are forgotten.
const MAX_LOOP_ROUNDS: usize = 12;
/// Statements visited before loops stop going round (each loop inside a loop goes round
/// each time the outer one does).
const MAX_WORK: usize = 2_000_000;

/// Where a local's type comes from: the declared type (`let`; none for loop names and
/// branch arguments, which are not declared to keep theirs), the type the place gave, and
/// the place.
#[derive(Clone, Debug)]
struct Decl {
    t: Option<T>,
    gave: T,
    span: Span,
}

/// What the checker learns across the program; it only grows, until it settles.
#[derive(Clone, Debug, PartialEq)]
struct Facts {
    /// Every type each variable's value takes.
    vars: Vec<T>,
    fn_results: Vec<T>,
    /// Every type the arguments of each helper (`fn`) take at its calls.
    fn_params: Vec<Vec<T>>,
    /// Every type the arguments of each `proc` (and `check`) take at its calls.
    proc_params: Vec<Vec<T>>,
}

struct Checker<'p> {
    prog: &'p Program,
    /// Where the program holds a placeholder for a name that did not resolve.
    unresolved: &'p HashSet<Span>,
    facts: Facts,
    /// Each variable's type as its declaration gives it.
    declared: Vec<T>,
    locals: Vec<T>,
    decls: Vec<Option<Decl>>,
    /// For each helper's and each procedure's parameters, the argument of the call that last
    /// widened its type: where a mismatch inside points back to.
    fn_origins: Vec<Vec<Option<Span>>>,
    proc_origins: Vec<Vec<Option<Span>>>,
    /// Whose parameters the first locals are, while a helper's or procedure's body is typed.
    callee: Option<Callee>,
    /// The helpers whose bodies are being typed, innermost last (`helper_widened`).
    helpers_open: Vec<usize>,
    /// Statements visited so far, against `MAX_WORK`.
    work: usize,
    /// Learning only: the final round reports.
    quiet: bool,
    errors: Vec<Diag>,
}

/// Checks a program that may hold placeholders for names that did not resolve (at the spans
/// of `unresolved`): each is of unknown type, so that its error is not followed by others.
/// Gives the errors and each variable's type.
pub fn check_around(prog: &Program, unresolved: &HashSet<Span>) -> (Vec<Diag>, Vec<T>) {
    let facts = Facts {
        vars: vec![T::Never; prog.vars.len()],
        fn_results: vec![T::Never; prog.fns.len()],
        fn_params: prog.fns.iter().map(|f| vec![T::Never; f.arity]).collect(),
        proc_params: prog.procs.iter().map(|p| vec![T::Never; p.arity]).collect(),
    };
    let mut c = Checker {
        prog,
        unresolved,
        facts,
        declared: vec![],
        locals: vec![],
        decls: vec![],
        fn_origins: prog.fns.iter().map(|f| vec![None; f.arity]).collect(),
        proc_origins: prog.procs.iter().map(|p| vec![None; p.arity]).collect(),
        callee: None,
        helpers_open: vec![],
        work: 0,
        quiet: true,
        errors: vec![],
    };
    let settled = (0..MAX_ROUNDS).any(|_| {
        let before = c.facts.clone();
        c.round();
        c.facts == before
    });
    if !settled {
        c.forget_all();
    }
    c.quiet = false;
    c.round();
    (c.errors, c.facts.vars)
}

impl Checker<'_> {
    /// One pass over every part of the program, learning and (unless quiet) reporting.
    fn round(&mut self) {
        let prog = self.prog;
        // Each round has the whole budget: the reporting round must not find it spent by the
        // quiet ones before it (its loops would give up and say nothing).
        self.work = 0;
        self.declared = prog
            .vars
            .iter()
            .map(|v| {
                self.frame(0);
                let t = self.expr(&v.init);
                if v.per_player { T::map(T::Player, t) } else { t }
            })
            .collect();
        for (g, t) in self.declared.clone().iter().enumerate() {
            self.learn_var(g, t);
        }
        for i in 0..prog.fns.len() {
            self.helper(i);
        }
        for (i, p) in prog.procs.iter().enumerate() {
            self.frame(p.locals);
            self.bind_params(Callee::Proc(i));
            self.block(&p.body);
        }
        for b in &prog.always {
            self.frame(prog.always_locals);
            self.branch(b);
        }
        for d in &prog.dues {
            self.frame(d.locals);
            self.want(&d.cond, T::Bool);
        }
        self.frame(0);
        self.expr(&prog.scores);
        self.expr(&prog.winners);
        self.frame(prog.flow_locals);
        self.block(&prog.flow);
    }

    /// What is left when the program does not settle: nothing is known about variables.
    fn forget_all(&mut self) {
        let f = &mut self.facts;
        let params = f.fn_params.iter_mut().chain(f.proc_params.iter_mut()).flatten();
        f.vars.iter_mut().chain(f.fn_results.iter_mut()).chain(params).for_each(|t| {
            *t = T::Unknown;
        });
    }

    /// Types helper `i`'s body with the types its parameters hold now, and joins its result
    /// into what the helper gives.
    fn helper(&mut self, i: usize) {
        let Some(f) = self.prog.fns.get(i) else { return };
        self.frame(f.locals);
        self.bind_params(Callee::Fn(i));
        let t = self.expr(&f.body);
        if let Some(known) = self.facts.fn_results.get_mut(i) {
            *known = join(known, &t);
        }
    }

    /// A call of helper `i` whose arguments widened its parameters: its body is typed again at
    /// once, so that its callers see what it gives now, in this round rather than the next
    /// (each round walks the whole program). A helper already being typed is not entered
    /// again: a recursive call takes what the helper gives so far.
    fn helper_widened(&mut self, i: usize) {
        // Past a few dozen helpers deep the rest waits for the next round, so that a long
        // chain of helpers cannot take the stack.
        if self.helpers_open.len() >= MAX_HELPERS_OPEN || self.helpers_open.contains(&i) {
            return;
        }
        let locals = std::mem::take(&mut self.locals);
        let decls = std::mem::take(&mut self.decls);
        let callee = self.callee;
        self.helpers_open.push(i);
        self.helper(i);
        self.helpers_open.pop();
        self.locals = locals;
        self.decls = decls;
        self.callee = callee;
    }

    /// A helper's or procedure's parameters, its first locals, hold the types of its calls.
    fn bind_params(&mut self, callee: Callee) {
        let params = match callee {
            Callee::Fn(i) => self.facts.fn_params.get(i),
            Callee::Proc(i) => self.facts.proc_params.get(i),
        };
        let Some(params) = params else { return };
        // Written in place, not through `set_local`: the types are read where they are kept.
        let wanted = params.len().max(self.locals.len());
        self.locals.resize(wanted, T::Unknown);
        self.decls.resize(wanted, None);
        for (slot, t) in params.iter().enumerate() {
            self.locals[slot] = t.clone();
        }
        self.callee = Some(callee);
    }

    /// Where a parameter of the helper or procedure being typed got its type: the argument of
    /// the call that last widened it, while the parameter still holds that type.
    fn param_origin(&self, slot: usize) -> Option<Span> {
        let (params, origins) = match self.callee? {
            Callee::Fn(i) => (self.facts.fn_params.get(i)?, self.fn_origins.get(i)?),
            Callee::Proc(i) => (self.facts.proc_params.get(i)?, self.proc_origins.get(i)?),
        };
        (self.locals.get(slot) == params.get(slot)).then(|| origins.get(slot).cloned().flatten()).flatten()
    }

    /// What a call teaches of its callee's parameters: each also takes its argument's type.
    /// Whether any of them widened.
    fn learn_call(&mut self, callee: Callee, args: &[X]) -> bool {
        let types: Vec<T> = args.iter().map(|a| self.expr(a)).collect();
        let (params, origins) = match callee {
            Callee::Fn(i) => (self.facts.fn_params.get_mut(i), self.fn_origins.get_mut(i)),
            Callee::Proc(i) => (self.facts.proc_params.get_mut(i), self.proc_origins.get_mut(i)),
        };
        let (Some(params), Some(origins)) = (params, origins) else { return false };
        let mut widened = false;
        for (((param, origin), t), arg) in params.iter_mut().zip(origins.iter_mut()).zip(&types).zip(args) {
            if learn_argument(param, t) {
                *origin = Some(arg.span.clone());
                widened = true;
            }
        }
        widened
    }

    fn frame(&mut self, locals: usize) {
        self.locals = vec![T::Unknown; locals];
        self.decls = vec![None; locals];
        self.callee = None;
    }

    fn learn_var(&mut self, g: usize, t: &T) {
        if let Some(known) = self.facts.vars.get_mut(g) {
            *known = join(known, t);
        }
    }

    fn report(&mut self, d: Diag) {
        if !self.quiet {
            self.errors.push(d);
        }
    }

    fn set_local(&mut self, slot: Slot, t: T, decl: Option<Decl>) {
        let i = slot as usize;
        if i >= self.locals.len() {
            self.locals.resize(i + 1, T::Unknown);
            self.decls.resize(i + 1, None);
        }
        self.locals[i] = t;
        self.decls[i] = decl;
    }

    fn want(&mut self, x: &X, want: T) {
        let got = self.expr(x);
        self.expect(x, got, want);
    }

    /// Reports `x`, already typed as `got`, unless it may be a `want`.
    fn expect(&mut self, x: &X, got: T, want: T) {
        if !got.vague() && got != want {
            self.report(
                Diag::new(codes::TYPE_MISMATCH, format!("expected {}, found {}", want.words(), got.words()))
                    .label(x.span.clone(), format!("this is {}", got.words())),
            );
        }
    }

    /// A type in words, with the name of its enum.
    fn named(&self, t: &T) -> String {
        match t {
            T::Enum(e) => {
                self.prog.enums.get(*e as usize).map_or("an enum value".into(), |e| format!("a `{}` value", e.name))
            }
            T::Card(k) => self.prog.kinds.get(*k as usize).map_or("a card".into(), |k| format!("a {}", k.noun())),
            other => other.words().to_string(),
        }
    }

    fn mismatch(&mut self, x: &X, message: String) {
        self.report(Diag::new(codes::TYPE_MISMATCH, message).label(x.span.clone(), "here"));
    }

    // ------------------------------------------------------------ statements

    fn block(&mut self, b: &Block) {
        for s in b {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &S) {
        self.work += 1;
        match &s.s {
            St::Let(slot, x) => {
                let t = self.expr(x);
                let decl = Decl { t: Some(t.clone()), gave: t.clone(), span: x.span.clone() };
                self.set_local(*slot, t, Some(decl));
            }
            St::Require { cond, message, cost, .. } => {
                self.want(cond, T::Bool);
                self.parts(message);
                self.block(cost);
            }
            St::Note(text) => self.parts(text),
            St::If(c, a, b) => {
                self.want(c, T::Bool);
                self.block(a);
                self.block(b);
            }
            St::For { slot, slot2, coll, body } => {
                let items = self.expr(coll);
                self.repeat(|c| {
                    c.bind_items(*slot, *slot2, &items, &coll.span);
                    c.block(body);
                });
            }
            St::While(cond, body) => self.repeat(|c| {
                c.want(cond, T::Bool);
                c.block(body);
            }),
            St::Loop(body) => self.repeat(|c| c.block(body)),
            St::Choose(choose) => self.repeat(|c| {
                choose.branches.iter().for_each(|b| c.branch(b));
                if let Some(g) = &choose.optional_while {
                    c.want(g, T::Bool);
                }
                if let Some(o) = &choose.otherwise {
                    c.block(o);
                }
            }),
            St::Assign { target, path, op, value } => self.assign(s, *target, path, *op, value),
            St::Call(p, args) => self.call(*p, args),
            St::Break | St::Continue | St::Again | St::Finish(_) | St::Settle | St::Open(_) => {}
        }
    }

    /// Runs a loop's body until its names' types settle (quietly), then, when reporting,
    /// once more to report. Past the work budget a loop's names are forgotten instead, so
    /// that loops nested deep cannot make the check slow.
    fn repeat(&mut self, mut body: impl FnMut(&mut Self)) {
        let quiet = std::mem::replace(&mut self.quiet, true);
        let settled = (0..MAX_LOOP_ROUNDS).any(|_| {
            if self.work > MAX_WORK {
                return false;
            }
            let before = self.locals.clone();
            body(self);
            self.locals == before
        });
        if !settled {
            self.locals.iter_mut().for_each(|t| *t = T::Unknown);
        }
        self.quiet = quiet;
        // A settled quiet round already left the loop's types where they are.
        if !quiet || !settled {
            body(self);
        }
    }

    /// A procedure call: its arguments' types are what its parameters hold.
    fn call(&mut self, p: u16, args: &[X]) {
        self.learn_call(Callee::Proc(p as usize), args);
    }

    fn branch(&mut self, b: &Branch) {
        // The actor (`as p`) is the actors' value, or one item of it when it is a list.
        let actor = match self.expr(&b.actors) {
            T::List(item) => Rc::unwrap_or_clone(item),
            one => one,
        };
        let action = self.prog.actions.get(b.action as usize);
        let arg = action.map_or(T::Unknown, |a| of_shape(&a.shape));
        let decl = action.map(|a| Decl { t: None, gave: arg.clone(), span: a.span.clone() });
        self.set_local(b.arg, arg, decl);
        if let Some(slot) = b.actor {
            self.set_local(slot, actor, None);
        }
        if let Some(g) = &b.guard {
            self.want(g, T::Bool);
        }
        if let Some(c) = &b.choices {
            self.expr(c);
        }
        self.block(&b.checks);
        self.block(&b.effects);
    }

    fn parts(&mut self, parts: &[Part]) {
        for p in parts {
            if let Part::Expr(x) = p {
                self.expr(x);
            }
        }
    }

    /// Binds loop names: item (or index and item) of a list, key (and value) of a map.
    fn bind_items(&mut self, slot: Slot, slot2: Option<Slot>, coll: &T, at: &Span) {
        let (first, second) = match coll {
            T::List(item) if slot2.is_some() => (T::Int, (**item).clone()),
            T::List(item) => ((**item).clone(), T::Unknown),
            T::Map(k, v) => ((**k).clone(), (**v).clone()),
            T::Record(fields) => (T::Str, T::record_as_map(fields)),
            T::Never => (T::Never, T::Never),
            _ => (T::Unknown, T::Unknown),
        };
        let decl = |t: &T| Some(Decl { t: None, gave: t.clone(), span: at.clone() });
        self.set_local(slot, first.clone(), decl(&first));
        if let Some(s2) = slot2 {
            self.set_local(s2, second.clone(), decl(&second));
        }
    }

    // ------------------------------------------------------------ assignments

    fn assign(&mut self, s: &S, target: Target, path: &[X], op: AssignOp, value: &X) {
        let keys: Vec<Key> = path.iter().map(|k| Key { t: self.expr(k), name: constant_text(k) }).collect();
        let v = self.expr(value);
        let (current, declared, origin) = match target {
            Target::Global(g) => {
                let g = g as usize;
                let init = self.prog.vars.get(g).map(|var| var.init.span.clone());
                (self.facts.vars.get(g).cloned(), self.declared.get(g).cloned(), init)
            }
            Target::Local(slot) => {
                let decl = self.decls.get(slot as usize).cloned().flatten();
                let declared = decl.as_ref().and_then(|d| d.t.clone());
                (self.locals.get(slot as usize).cloned(), declared, decl.map(|d| d.span))
            }
        };
        let current = current.unwrap_or(T::Unknown);
        let declared = declared.map(|d| at_path(&d, &keys));
        let slot = at_path(&current, &keys);
        // The declaration is shown only where it gave the type the check holds against.
        let origin = origin.filter(|_| op == AssignOp::Set || declared.as_ref() == Some(&slot));
        let place = Place { stmt: s, value, origin };
        let fits = if op == AssignOp::Set {
            declared.is_none_or(|d| self.fits_declared(&place, &d, &v))
        } else {
            self.combines(&place, op, &slot, &v)
        };
        // A refused assignment leaves nothing: its error stands where it is.
        if !fits {
            return;
        }
        let after = join(&current, &store(&current, &keys, op, &v));
        match target {
            Target::Global(g) => self.learn_var(g as usize, &after),
            Target::Local(slot) => {
                if let Some(t) = self.locals.get_mut(slot as usize) {
                    *t = after;
                }
            }
        }
    }

    /// `x = v` where `x` is declared as `declared`: a value of another kind is refused.
    fn fits_declared(&mut self, place: &Place, declared: &T, v: &T) -> bool {
        if assignable(declared, v) {
            return true;
        }
        let at = self.place_text(place);
        let (had, got) = (self.named(declared), self.named(v));
        let d = Diag::new(codes::ASSIGN_MISMATCH, format!("`{at}` is {had}, so it cannot be set to {got}"))
            .label(place.value.span.clone(), format!("this is {got}"));
        let d = self.with_origin(d, place, format!("this makes `{at}` {had}"));
        self.report(
            d.help(format!("a variable keeps the kind of value it is declared with: use another one for {got}")),
        );
        false
    }

    /// `x += v` and `x -= v`: ints with ints, lists with lists.
    fn combines(&mut self, place: &Place, op: AssignOp, slot: &T, v: &T) -> bool {
        if combine(slot, op, v).is_some() {
            return true;
        }
        let at = self.place_text(place);
        let (had, got) = (self.named(slot), self.named(v));
        let (sign, verb, prep) = if op == AssignOp::Add { ("+=", "add", "to") } else { ("-=", "take", "from") };
        let message = if v.vague() {
            format!("`{sign}` cannot {verb} anything {prep} `{at}`, which is {had}")
        } else {
            format!("`{sign}` cannot {verb} {got} {prep} `{at}`, which is {had}")
        };
        let help = match slot {
            T::Int => format!("`{sign}` on an int takes an int (`sum(...)` adds up a list of ints)"),
            T::List(_) => {
                let item = self.text(&place.value.span).unwrap_or_else(|| "item".into());
                format!("`{sign}` on a list takes a list: `{at} {sign} [{item}]` for one item")
            }
            T::Str => format!("`+=` and `-=` work on ints and lists: `{at} = {at} ++ ...` adds to a string"),
            _ => format!("`+=` and `-=` work on ints and lists: `{at} = ...` replaces {had}"),
        };
        let d = Diag::new(codes::ASSIGN_MISMATCH, message).label(place.value.span.clone(), format!("this is {got}"));
        let d = self.with_origin(d, place, format!("this makes `{at}` {had}"));
        self.report(d.help(help));
        false
    }

    /// The place an assignment writes, as written (`vp[w]`).
    fn place_text(&self, place: &Place) -> String {
        let whole = place.stmt.span.start..place.value.span.start;
        let text = self.text(&whole).unwrap_or_default();
        let text = text.trim_end();
        let text = text.strip_suffix("+=").or(text.strip_suffix("-=")).or(text.strip_suffix('=')).unwrap_or(text);
        let text = text.trim();
        if text.is_empty() { "this variable".into() } else { text.to_string() }
    }

    fn text(&self, span: &Span) -> Option<String> {
        self.prog.source.text(span).map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// Adds a label on the declaration that gave a type, when it is in the same file.
    fn with_origin(&self, d: Diag, place: &Place, text: String) -> Diag {
        match &place.origin {
            Some(o) if self.prog.source.same_file(o.start, place.value.span.start) => d.label(o.clone(), text),
            _ => d,
        }
    }

    // ------------------------------------------------------------ expressions

    fn expr(&mut self, x: &X) -> T {
        match &x.e {
            E::Const(_) if self.unresolved.contains(&x.span) => T::Unknown,
            E::Const(v) => const_type(v),
            E::Local(s) => self.locals.get(*s as usize).cloned().unwrap_or(T::Unknown),
            E::Global(g) => self.facts.vars.get(*g as usize).cloned().unwrap_or(T::Unknown),
            E::Param(p) => self.prog.params.get(*p as usize).map_or(T::Unknown, |p| of_shape(&p.shape)),
            E::Players => T::list(T::Player),
            E::EventsTaken => T::Int,
            E::AllCards(k) => T::list(T::Card(*k)),
            E::CardCode(k, _) => T::Card(*k),
            E::AllVariants(e) => T::list(T::Enum(*e)),
            E::Template(parts) => {
                self.parts(parts);
                T::Str
            }
            E::List(items) => {
                let types: Vec<T> = items.iter().map(|i| self.expr(i)).collect();
                T::list(types.iter().fold(T::Never, |acc, t| join(&acc, t)))
            }
            E::Record(fields) => {
                let fields = fields
                    .iter()
                    .map(|(k, v)| (k, self.expr(v)))
                    .filter_map(|(k, t)| match k {
                        Value::Str(name) => Some(Field { name: Rc::from(name.as_str()), t, always: true }),
                        _ => None,
                    })
                    .collect();
                crate::resolve::types::record(fields)
            }
            E::Comprehension { body, slot, slot2, coll, cond } => {
                let items = self.expr(coll);
                self.bind_items(*slot, *slot2, &items, &coll.span);
                if let Some(c) = cond {
                    self.want(c, T::Bool);
                }
                T::list(self.expr(body))
            }
            E::Quantifier { slot, coll, body, .. } => {
                let items = self.expr(coll);
                self.bind_items(*slot, None, &items, &coll.span);
                self.want(body, T::Bool);
                T::Bool
            }
            E::Let { slot, value, body } => {
                let t = self.expr(value);
                let decl = Decl { t: Some(t.clone()), gave: t.clone(), span: value.span.clone() };
                self.set_local(*slot, t, Some(decl));
                self.expr(body)
            }
            E::If(c, a, b) => {
                self.want(c, T::Bool);
                let (a, b) = (self.expr(a), self.expr(b));
                join(&a, &b)
            }
            E::Not(a) => {
                self.want(a, T::Bool);
                T::Bool
            }
            E::Neg(a) => {
                self.want(a, T::Int);
                T::Int
            }
            E::Binary(op, a, b) => self.binary(*op, a, b),
            E::Index(a, i) => self.index(a, i),
            E::Slice(a, lo, hi) => {
                for bound in [lo, hi].into_iter().flatten() {
                    self.want(bound, T::Int);
                }
                self.expr(a)
            }
            E::Field(a, name, _) => self.field(a, name, x),
            E::CallFn(f, args) => {
                let i = *f as usize;
                if self.learn_call(Callee::Fn(i), args) {
                    self.helper_widened(i);
                }
                self.facts.fn_results.get(i).cloned().unwrap_or(T::Unknown)
            }
            E::Builtin(b, args) => self.builtin(*b, args),
            E::Lambda(_, body) => self.expr(body),
        }
    }

    fn binary(&mut self, op: BinOp, a: &X, b: &X) -> T {
        match op {
            BinOp::And | BinOp::Or => {
                self.want(a, T::Bool);
                self.want(b, T::Bool);
                T::Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (l, r) = (self.expr(a), self.expr(b));
                self.ordered(a, b, l, r);
                T::Bool
            }
            BinOp::Mul | BinOp::Div | BinOp::Rem => {
                self.want(a, T::Int);
                self.want(b, T::Int);
                T::Int
            }
            BinOp::Add | BinOp::Sub => {
                let (l, r) = (self.expr(a), self.expr(b));
                self.add(op, a, b, l, r)
            }
            BinOp::Concat => {
                self.expr(a);
                self.expr(b);
                T::Str
            }
            BinOp::Eq | BinOp::Ne => {
                let (l, r) = (self.expr(a), self.expr(b));
                if !comparable(&l, &r) {
                    let (lw, rw) = (self.kind_words(&l), self.kind_words(&r));
                    let d = Diag::new(
                        codes::TYPE_MISMATCH,
                        format!("{lw} is never equal to {rw}: compare values of one kind"),
                    )
                    .label(b.span.clone(), format!("this is {rw}"));
                    let d = self.compared_origin(d, a, &l);
                    let d = self.compared_origin(d, b, &r);
                    self.report(d);
                }
                T::Bool
            }
            BinOp::In | BinOp::NotIn => {
                self.expr(a);
                self.expr(b);
                T::Bool
            }
        }
    }

    /// Ints compare by value; values of one enum by their order in its declaration.
    fn ordered(&mut self, a: &X, b: &X, l: T, r: T) {
        match (&l, &r) {
            (T::Enum(p), T::Enum(q)) if p == q => {}
            (T::Enum(_), t) | (t, T::Enum(_)) if t.vague() => {}
            (T::Enum(_), _) | (_, T::Enum(_)) => {
                let message = format!(
                    "{} and {} cannot be ordered: only values of one enum compare",
                    self.named(&l),
                    self.named(&r)
                );
                self.mismatch(a, message);
            }
            _ => {
                for (x, t) in [(a, l), (b, r)] {
                    self.expect(x, t, T::Int);
                }
            }
        }
    }

    fn add(&mut self, op: BinOp, a: &X, b: &X, l: T, r: T) -> T {
        match (&l, &r) {
            (T::Int, T::Int) => T::Int,
            (T::List(p), T::List(q)) if op == BinOp::Add => T::list(join(p, q)),
            (T::List(_), T::List(_)) => l,
            (T::Never, _) | (_, T::Never) => T::Never,
            // Taking items away leaves some of the left's items, whatever the right holds.
            (T::List(_), T::Unknown) if op == BinOp::Sub => l,
            (v, other) | (other, v) if v.vague() => match other {
                T::Int => T::Int,
                T::List(_) => T::list(T::Unknown),
                _ => T::Unknown,
            },
            _ => {
                let message = format!("`+` and `-` join two ints or two lists, not {} and {}", l.words(), r.words());
                let mut d = Diag::new(codes::TYPE_MISMATCH, message).label(b.span.clone(), "here");
                // The side that is not an int is the one to trace: where it became a list.
                for (x, t) in [(a, &l), (b, &r)] {
                    if *t != T::Int {
                        d = self.compared_origin(d, x, t);
                    }
                }
                self.report(d.help(self.one_item_help(op, a, b, &l, &r)));
                // Refused when it runs: no value comes of it.
                T::Never
            }
        }
    }

    /// What to write instead of a list and one item joined by `+` or `-`, in their order.
    fn one_item_help(&self, op: BinOp, a: &X, b: &X, l: &T, r: &T) -> String {
        let sign = if op == BinOp::Add { "+" } else { "-" };
        let text = |x: &X| self.text(&x.span).unwrap_or_default();
        let (written, does) = match (l, r) {
            (T::List(_), _) if op == BinOp::Add => (format!("{} + [{}]", text(a), text(b)), "adds it"),
            (T::List(_), _) => (format!("{} - [{}]", text(a), text(b)), "takes it away"),
            (_, T::List(_)) if op == BinOp::Add => (format!("[{}] + {}", text(a), text(b)), "adds it in front"),
            _ => return format!("`{sign}` works on two ints (`sum(...)` adds up a list) or two lists"),
        };
        format!("one item is a list of one: `{written}` {does}")
    }

    /// Labels where a compared variable got its type, when that is in the same file.
    fn compared_origin(&self, d: Diag, x: &X, t: &T) -> Diag {
        let Some(origin) = self.origin(x) else { return d };
        if !self.prog.source.same_file(origin.start, x.span.start) || t.vague() {
            return d;
        }
        let name = self.text(&x.span).unwrap_or_default();
        d.label(origin, format!("this makes `{name}` {}", self.named(t)))
    }

    /// The declaration that gave a variable (or a part of one) its type, if nothing
    /// assigned later changed that type.
    fn origin(&self, x: &X) -> Option<Span> {
        match &x.e {
            E::Local(s) => {
                let Some(decl) = self.decls.get(*s as usize).cloned().flatten() else {
                    return self.param_origin(*s as usize);
                };
                (self.locals.get(*s as usize) == Some(&decl.gave)).then_some(decl.span)
            }
            E::Global(g) => {
                let g = *g as usize;
                let unchanged = self.declared.get(g).is_some_and(|d| self.facts.vars.get(g) == Some(d));
                self.prog.vars.get(g).filter(|_| unchanged).map(|v| v.init.span.clone())
            }
            E::Index(base, _) | E::Field(base, ..) => self.origin(base),
            _ => None,
        }
    }

    /// A type in the words of the rules file: `a Card`, `a Strain`, `a string`.
    fn kind_words(&self, t: &T) -> String {
        let name = match t {
            T::Card(k) => self.prog.kinds.get(*k as usize).map(|k| k.name.as_str()),
            T::Enum(e) => self.prog.enums.get(*e as usize).map(|e| e.name.as_str()),
            _ => None,
        };
        name.map_or_else(|| t.words().to_string(), |n| format!("a {n}"))
    }

    fn index(&mut self, a: &X, i: &X) -> T {
        let base = self.expr(a);
        let key = self.expr(i);
        match base {
            T::List(item) => {
                if !key.vague() && key != T::Int {
                    self.mismatch(i, format!("a list is indexed by an int, not {}", key.words()));
                }
                Rc::unwrap_or_clone(item)
            }
            T::Map(_, v) => Rc::unwrap_or_clone(v),
            T::Record(fields) => match constant_text(i) {
                Some(name) => T::field(&fields, &name).unwrap_or(T::Unknown),
                None => T::Unknown,
            },
            T::Unknown => T::Unknown,
            T::Never => T::Never,
            other => {
                self.mismatch(a, format!("only lists and maps can be indexed, not {}", other.words()));
                T::Never
            }
        }
    }

    fn field(&mut self, a: &X, name: &Value, x: &X) -> T {
        let Value::Str(name) = name else { return T::Unknown };
        match self.expr(a) {
            T::Card(k) => self.attribute(k, name, x),
            T::Record(fields) => match T::field(&fields, name) {
                Some(t) => t,
                None => {
                    self.no_field(&fields, name, a, x);
                    T::Unknown
                }
            },
            t @ (T::Int | T::Bool | T::Str | T::Player | T::Enum(_) | T::List(_)) => {
                self.mismatch(x, format!("{} has no field `{name}`", t.words()));
                T::Never
            }
            T::Never => T::Never,
            _ => T::Unknown,
        }
    }

    /// `c.name` on a card of kind `k`: its attribute's type, or an error with a suggestion.
    fn attribute(&mut self, k: u16, name: &str, x: &X) -> T {
        let Some(kind) = self.prog.kinds.get(k as usize) else { return T::Unknown };
        if name == "code" {
            return T::Str;
        }
        if let Some(i) = kind.fields.iter().position(|f| f == name) {
            return kind.shapes.get(i).map_or(T::Unknown, of_shape);
        }
        let mut d =
            Diag::new(codes::UNKNOWN_FIELD, format!("{}s of `{}` have no attribute `{name}`", kind.noun(), kind.name))
                .label(x.span.clone(), "no such attribute");
        let names = kind.fields.iter().map(String::as_str).chain(["code"]);
        if let Some(best) = crate::diag::did_you_mean(name, names) {
            d = d.help(format!("did you mean `{best}`?"));
        }
        self.report(d);
        T::Never
    }

    /// `r.name` where no record `r` may hold has the field: it would always read null.
    fn no_field(&mut self, fields: &[Field], name: &str, a: &X, x: &X) {
        let base = self.text(&a.span).unwrap_or_else(|| "this record".into());
        let mut d = Diag::new(codes::UNKNOWN_FIELD, format!("`{base}` has no field `{name}`"))
            .label(x.span.clone(), "no such field");
        let names = fields.iter().map(|f| &*f.name);
        d = match crate::diag::did_you_mean(name, names) {
            Some(best) => d.help(format!("did you mean `{best}`?")),
            None if fields.is_empty() => d.help("the record has no fields"),
            None => {
                let all: Vec<String> = fields.iter().map(|f| format!("`{}`", f.name)).collect();
                d.help(format!("its fields are {}", all.join(", ")))
            }
        };
        if let Some(origin) = self.origin(a).filter(|o| self.prog.source.same_file(o.start, x.span.start)) {
            d = d.label(origin, format!("the fields of `{base}` come from here"));
        }
        self.report(d);
    }

    fn builtin(&mut self, b: Builtin, args: &[X]) -> T {
        let first = args.first().map_or(T::Unknown, |a| self.expr(a));
        let item = match &first {
            T::List(item) => (**item).clone(),
            T::Never => T::Never,
            _ => T::Unknown,
        };
        // A lambda's name stands for each item of the list it runs over.
        let types: Vec<T> = args
            .iter()
            .skip(1)
            .map(|a| {
                if let E::Lambda(slot, _) = &a.e {
                    self.set_local(*slot, item.clone(), None);
                }
                self.expr(a)
            })
            .collect();
        let second = types.first().cloned().unwrap_or(T::Unknown);
        given(b.entry().gives, first, item, second)
    }
}

/// A parameter also takes the type of one call's argument. Whether it widened.
fn learn_argument(param: &mut T, t: &T) -> bool {
    // Most calls give what the parameter already holds: nothing to join (which builds).
    if param == t || *param == T::Unknown {
        return false;
    }
    let joined = join(param, t);
    let widened = joined != *param;
    *param = joined;
    widened
}

/// A helper (`fn`) or a procedure (`proc`, `check`), by its index.
#[derive(Clone, Copy)]
enum Callee {
    Fn(usize),
    Proc(usize),
}

/// The type a built-in gives, from its table entry and the types of its first two arguments
/// (`item` is the type of the first one's items).
fn given(gives: Gives, first: T, item: T, second: T) -> T {
    match gives {
        Gives::Int => T::Int,
        Gives::Bool => T::Bool,
        Gives::Str => T::Str,
        Gives::Unknown => T::Unknown,
        Gives::Ints => T::list(T::Int),
        Gives::Item => item,
        Gives::SameAsFirst => first,
        Gives::Players => T::list(T::Player),
        Gives::Player => T::Player,
        Gives::Keys => match first {
            T::Map(k, _) => T::List(k),
            T::Record(_) => T::list(T::Str),
            T::Never => T::list(T::Never),
            _ => T::list(T::Unknown),
        },
        Gives::Values => match first {
            T::Map(_, v) => T::List(v),
            T::Record(fields) => match T::record_as_map(&fields) {
                T::Map(_, v) => T::List(v),
                _ => T::list(T::Unknown),
            },
            T::Never => T::list(T::Never),
            _ => T::list(T::Unknown),
        },
        Gives::Flattened => match item {
            T::List(inner) => T::List(inner),
            T::Never => T::list(T::Never),
            _ => T::list(T::Unknown),
        },
        Gives::ListsOfFirst => T::list(first),
        Gives::Tally => T::map(T::Unknown, T::Int),
        Gives::Zipped => {
            let value = match second {
                T::List(v) => Rc::unwrap_or_clone(v),
                _ => T::Unknown,
            };
            T::map(item, value)
        }
    }
}

/// An assignment being checked: the statement, its value, and where its variable was declared.
struct Place<'a> {
    stmt: &'a S,
    value: &'a X,
    origin: Option<Span>,
}

/// The text of a constant string key (`.name` in a place, `r["name"]`). Types are checked
/// before constants are folded, so a quoted key is still a template with nothing to fill in.
fn constant_text(x: &X) -> Option<Rc<str>> {
    match &x.e {
        E::Const(Value::Str(s)) => Some(Rc::from(s.as_str())),
        E::Template(parts) => match parts.as_slice() {
            [Part::Text(t)] => Some(Rc::from(t.as_str())),
            _ => None,
        },
        _ => None,
    }
}
