//! A coarse static type check of a compiled program: conditions are bools, arithmetic and
//! ordering take ints, `+` and `-` join like with like, only lists and maps are indexed, and
//! a card's attribute exists. What cannot be known stays unknown and is never an error.

use crate::codes;
use crate::diag::Diag;
use crate::lang::ast::BinOp;
use crate::program::builtins::Builtin;
use crate::program::value::Value;
use crate::program::{Block, E, Part, Program, Shape, St, X};

#[derive(Clone, Debug, PartialEq)]
enum T {
    Unknown,
    Int,
    Bool,
    Str,
    Player,
    Card(u16),
    Enum(u16),
    List(Box<T>),
    Map(Box<T>, Box<T>),
}

impl T {
    fn words(&self) -> &'static str {
        match self {
            T::Unknown => "a value",
            T::Int => "an int",
            T::Bool => "a bool",
            T::Str => "a string",
            T::Player => "a player",
            T::Card(_) => "a card",
            T::Enum(_) => "an enum value",
            T::List(_) => "a list",
            T::Map(..) => "a map",
        }
    }
}

struct Checker<'p> {
    prog: &'p Program,
    globals: Vec<T>,
    locals: Vec<T>,
    errors: Vec<Diag>,
}

/// Whether values of these types can be equal; unknown types, lists and maps are let through
/// (the interpreter refuses what is left when it runs).
fn comparable(l: &T, r: &T) -> bool {
    match (l, r) {
        (T::Unknown | T::List(_) | T::Map(..), _) | (_, T::Unknown | T::List(_) | T::Map(..)) => true,
        (T::Card(a), T::Card(b)) | (T::Enum(a), T::Enum(b)) => a == b,
        _ => std::mem::discriminant(l) == std::mem::discriminant(r),
    }
}

pub fn check(prog: &Program) -> Vec<Diag> {
    let mut c = Checker { prog, globals: vec![], locals: vec![], errors: vec![] };
    c.globals = prog
        .vars
        .iter()
        .map(|v| {
            let t = c.expr(&v.init);
            if v.per_player { T::Map(Box::new(T::Player), Box::new(t)) } else { widen(t) }
        })
        .collect();
    for f in &prog.fns {
        c.locals = vec![T::Unknown; f.locals];
        c.expr(&f.body);
    }
    for p in &prog.procs {
        c.locals = vec![T::Unknown; p.locals];
        c.block(&p.body);
    }
    c.locals = vec![];
    for b in &prog.always {
        c.branch(b);
    }
    for d in &prog.dues {
        c.locals = vec![T::Unknown; d.locals];
        c.want(&d.cond, T::Bool);
    }
    c.expr(&prog.scores);
    c.expr(&prog.winners);
    c.block(&prog.flow);
    c.errors
}

/// A variable's initial value says little about later ones when it is empty or null.
fn widen(t: T) -> T {
    match t {
        T::List(_) => T::List(Box::new(T::Unknown)),
        T::Map(..) => T::Map(Box::new(T::Unknown), Box::new(T::Unknown)),
        other => other,
    }
}

fn of_shape(s: &Shape) -> T {
    match s {
        Shape::Int(..) => T::Int,
        Shape::Bool => T::Bool,
        Shape::Str | Shape::Literal(_) | Shape::File => T::Str,
        Shape::Player => T::Player,
        Shape::Card(k) => T::Card(*k),
        Shape::Enum(e) => T::Enum(*e),
        Shape::List(_, item, _) => T::List(Box::new(of_shape(item))),
        Shape::Map(k, v, _) => T::Map(Box::new(of_shape(k)), Box::new(of_shape(v))),
        Shape::Record(_) => T::Map(Box::new(T::Str), Box::new(T::Unknown)),
        Shape::NonEmpty(inner) => of_shape(inner),
        Shape::Null | Shape::Union(_) => T::Unknown,
    }
}

impl Checker<'_> {
    fn set_local(&mut self, slot: u16, t: T) {
        let i = slot as usize;
        if i >= self.locals.len() {
            self.locals.resize(i + 1, T::Unknown);
        }
        self.locals[i] = t;
    }

    fn want(&mut self, x: &X, want: T) {
        let got = self.expr(x);
        self.expect(x, got, want);
    }

    /// Reports `x`, already typed as `got`, unless it may be a `want`.
    fn expect(&mut self, x: &X, got: T, want: T) {
        if got != T::Unknown && got != want {
            self.errors.push(
                Diag::new(codes::TYPE_MISMATCH, format!("expected {}, found {}", want.words(), got.words()))
                    .label(x.span.clone(), format!("this is {}", got.words())),
            );
        }
    }

    /// A type in words, with the name of its enum.
    fn named(&self, t: &T) -> String {
        match t {
            T::Enum(e) => format!("a `{}` value", self.prog.enums[*e as usize].name),
            T::Card(k) => self.prog.kinds.get(*k as usize).map_or("a card".into(), |k| format!("a {}", k.noun())),
            other => other.words().to_string(),
        }
    }

    fn mismatch(&mut self, x: &X, message: String) {
        self.errors.push(Diag::new(codes::TYPE_MISMATCH, message).label(x.span.clone(), "here"));
    }

    fn block(&mut self, b: &Block) {
        for s in b {
            match &s.s {
                St::Let(slot, x) => {
                    let t = self.expr(x);
                    self.set_local(*slot, widen(t));
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
                    self.bind_items(*slot, *slot2, coll);
                    self.block(body);
                }
                St::While(c, body) => {
                    self.want(c, T::Bool);
                    self.block(body);
                }
                St::Loop(body) => self.block(body),
                St::Choose(c) => {
                    c.branches.iter().for_each(|b| self.branch(b));
                    if let Some(g) = &c.optional_while {
                        self.want(g, T::Bool);
                    }
                    if let Some(o) = &c.otherwise {
                        self.block(o);
                    }
                }
                St::Assign { path, value, .. } => {
                    path.iter().for_each(|k| {
                        self.expr(k);
                    });
                    self.expr(value);
                }
                St::Call(_, args) => args.iter().for_each(|a| {
                    self.expr(a);
                }),
                St::Break | St::Continue | St::Again | St::Finish(_) | St::Settle | St::Open(_) => {}
            }
        }
    }

    fn branch(&mut self, b: &crate::program::Branch) {
        self.expr(&b.actors);
        self.set_local(b.arg, of_shape(&self.prog.actions[b.action as usize].shape));
        if let Some(slot) = b.actor {
            self.set_local(slot, T::Unknown);
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
    fn bind_items(&mut self, slot: u16, slot2: Option<u16>, coll: &X) {
        let (first, second) = match self.expr(coll) {
            T::List(item) if slot2.is_some() => (T::Int, *item),
            T::List(item) => (*item, T::Unknown),
            T::Map(k, v) => (*k, *v),
            _ => (T::Unknown, T::Unknown),
        };
        self.set_local(slot, first);
        if let Some(s2) = slot2 {
            self.set_local(s2, second);
        }
    }

    fn expr(&mut self, x: &X) -> T {
        match &x.e {
            E::Const(v) => const_type(v),
            E::Local(s) => self.locals.get(*s as usize).cloned().unwrap_or(T::Unknown),
            E::Global(g) => self.globals.get(*g as usize).cloned().unwrap_or(T::Unknown),
            E::Param(p) => self.prog.params.get(*p as usize).map_or(T::Unknown, |p| of_shape(&p.shape)),
            E::Players => T::List(Box::new(T::Player)),
            E::EventsTaken => T::Int,
            E::AllCards(k) => T::List(Box::new(T::Card(*k))),
            E::AllVariants(e) => T::List(Box::new(T::Enum(*e))),
            E::Template(parts) => {
                self.parts(parts);
                T::Str
            }
            E::List(items) => {
                let types: Vec<T> = items.iter().map(|i| self.expr(i)).collect();
                T::List(Box::new(same(&types)))
            }
            E::Record(fields) => {
                fields.iter().for_each(|(_, v)| {
                    self.expr(v);
                });
                T::Map(Box::new(T::Str), Box::new(T::Unknown))
            }
            E::Comprehension { body, slot, slot2, coll, cond } => {
                self.bind_items(*slot, *slot2, coll);
                if let Some(c) = cond {
                    self.want(c, T::Bool);
                }
                T::List(Box::new(self.expr(body)))
            }
            E::Quantifier { slot, coll, body, .. } => {
                self.bind_items(*slot, None, coll);
                self.want(body, T::Bool);
                T::Bool
            }
            E::If(c, a, b) => {
                self.want(c, T::Bool);
                let (a, b) = (self.expr(a), self.expr(b));
                if a == b { a } else { T::Unknown }
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
            E::CallFn(_, args) => {
                args.iter().for_each(|a| {
                    self.expr(a);
                });
                T::Unknown
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
            // Ints compare by value; values of one enum by their order in its declaration.
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (l, r) = (self.expr(a), self.expr(b));
                match (&l, &r) {
                    (T::Enum(p), T::Enum(q)) if p == q => {}
                    (T::Enum(_), T::Unknown) | (T::Unknown, T::Enum(_)) => {}
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
                T::Bool
            }
            BinOp::Mul | BinOp::Div | BinOp::Rem => {
                self.want(a, T::Int);
                self.want(b, T::Int);
                T::Int
            }
            BinOp::Add | BinOp::Sub => {
                let (l, r) = (self.expr(a), self.expr(b));
                match (&l, &r) {
                    (T::Int, T::Int) => T::Int,
                    (T::List(_), T::List(_)) => widen(l),
                    (T::Unknown, other) | (other, T::Unknown) => match other {
                        T::Int => T::Int,
                        T::List(_) => T::List(Box::new(T::Unknown)),
                        _ => T::Unknown,
                    },
                    _ => {
                        let message =
                            format!("`+` and `-` join two ints or two lists, not {} and {}", l.words(), r.words());
                        self.mismatch(b, message);
                        T::Unknown
                    }
                }
            }
            BinOp::Concat => {
                self.expr(a);
                self.expr(b);
                T::Str
            }
            BinOp::Eq | BinOp::Ne => {
                let (l, r) = (self.expr(a), self.expr(b));
                if !comparable(&l, &r) {
                    let (l, r) = (self.kind_words(&l), self.kind_words(&r));
                    self.mismatch(b, format!("{l} is never equal to {r}: compare values of one kind"));
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
                if key != T::Unknown && key != T::Int {
                    self.mismatch(i, format!("a list is indexed by an int, not {}", key.words()));
                }
                *item
            }
            T::Map(_, v) => *v,
            T::Unknown => T::Unknown,
            other => {
                self.mismatch(a, format!("only lists and maps can be indexed, not {}", other.words()));
                T::Unknown
            }
        }
    }

    fn field(&mut self, a: &X, name: &Value, x: &X) -> T {
        let Value::Str(name) = name else { return T::Unknown };
        match self.expr(a) {
            T::Card(k) => {
                let kind = &self.prog.kinds[k as usize];
                if &**name == "code" {
                    return T::Str;
                }
                match kind.fields.iter().position(|f| f == &**name) {
                    Some(i) => kind.shapes.get(i).map_or(T::Unknown, of_shape),
                    None => {
                        let mut d = Diag::new(
                            codes::TYPE_MISMATCH,
                            format!("{}s of `{}` have no attribute `{name}`", kind.noun(), kind.name),
                        )
                        .label(x.span.clone(), "no such attribute");
                        let names = kind.fields.iter().map(String::as_str).chain(["code"]);
                        if let Some(best) = crate::diag::did_you_mean(name, names) {
                            d = d.help(format!("did you mean `{best}`?"));
                        }
                        self.errors.push(d);
                        T::Unknown
                    }
                }
            }
            T::Int | T::Bool | T::Str | T::Player | T::Enum(_) | T::List(_) => {
                let message = format!("{} has no field `{name}`", self.expr(a).words());
                self.mismatch(x, message);
                T::Unknown
            }
            _ => T::Unknown,
        }
    }

    fn builtin(&mut self, b: Builtin, args: &[X]) -> T {
        let types: Vec<T> = args.iter().map(|a| self.expr(a)).collect();
        let first = types.first().cloned().unwrap_or(T::Unknown);
        let item = match &first {
            T::List(item) => (**item).clone(),
            _ => T::Unknown,
        };
        match b {
            Builtin::Len | Builtin::Sum | Builtin::Count | Builtin::Abs => T::Int,
            Builtin::IndexOf => T::Unknown,
            Builtin::Distinct | Builtin::Matches => T::Bool,
            Builtin::Str | Builtin::Join | Builtin::KindOf => T::Str,
            Builtin::Range => T::List(Box::new(T::Int)),
            Builtin::First
            | Builtin::Last
            | Builtin::Max
            | Builtin::Min
            | Builtin::MaxBy
            | Builtin::MinBy
            | Builtin::Dup => item,
            Builtin::Sort | Builtin::SortBy | Builtin::Reverse | Builtin::Shuffle | Builtin::Repeat => first,
            Builtin::SeatsFrom | Builtin::SeatsAfter => T::List(Box::new(T::Player)),
            Builtin::NextPlayer => T::Player,
            Builtin::Keys => match first {
                T::Map(k, _) => T::List(k),
                _ => T::List(Box::new(T::Unknown)),
            },
            Builtin::Values => match first {
                T::Map(_, v) => T::List(v),
                _ => T::List(Box::new(T::Unknown)),
            },
            Builtin::Flatten => match item {
                T::List(inner) => T::List(inner),
                _ => T::List(Box::new(T::Unknown)),
            },
            Builtin::Chunks | Builtin::Permutations | Builtin::Subsets | Builtin::Combinations => {
                T::List(Box::new(first))
            }
            Builtin::Tally => T::Map(Box::new(T::Unknown), Box::new(T::Int)),
            Builtin::ZipMap => {
                let value = match types.get(1) {
                    Some(T::List(v)) => (**v).clone(),
                    _ => T::Unknown,
                };
                T::Map(Box::new(item), Box::new(value))
            }
        }
    }
}

fn const_type(v: &Value) -> T {
    match v {
        Value::Int(_) => T::Int,
        Value::Bool(_) => T::Bool,
        Value::Str(_) => T::Str,
        Value::Player(_) => T::Player,
        Value::Card(_) | Value::Null | Value::Table | Value::Map(_) | Value::List(_) => T::Unknown,
        Value::Enum(e, _) => T::Enum(*e),
    }
}

fn same(types: &[T]) -> T {
    match types.split_first() {
        Some((first, rest)) if rest.iter().all(|t| t == first) => first.clone(),
        _ => T::Unknown,
    }
}
