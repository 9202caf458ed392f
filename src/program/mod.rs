//! The compiled program: the rules file with every name resolved to an index. The
//! interpreter accepts only this form, so an unknown name cannot arise while checking.

pub mod builtins;
pub mod fast;
pub mod fold;
pub mod memo;
pub mod types;
pub mod value;
pub mod visit;

use std::collections::HashMap;

use crate::diag::SourceMap;
use crate::program::value::{Text, Value};
use crate::span::Span;

pub type Slot = u16;

pub use crate::lang::ast::MAX_PLAYERS;
/// Most cards a rules file may declare, all kinds together.
pub const MAX_CARDS: usize = 100_000;

#[derive(Debug, Clone)]
pub struct Program {
    pub name: String,
    pub source: SourceMap,
    pub players: (u32, u32),
    /// `players N, E, S, W`: the names every transcript must list, in this order.
    pub seats: Option<Vec<String>>,
    pub rules: Vec<RuleInfo>,
    pub params: Vec<Param>,
    pub enums: Vec<EnumInfo>,
    /// `look`: how the cards of each group are drawn (a colour and a symbol), by group.
    pub looks: Vec<Look>,
    pub kinds: Vec<Kind>,
    pub cards: Vec<CardInfo>,
    pub actions: Vec<ActionInfo>,
    /// Looked up for every event read: foldhash, as `by_code` (the names are the rules file's).
    pub action_index: HashMap<String, u16, foldhash::fast::RandomState>,
    pub vars: Vec<Var>,
    /// The variables a judge sees at a violation, in order (`view`; every variable without one).
    pub view: Vec<u16>,
    /// The variables whose changes are kept event by event (`history`).
    pub history: Vec<u16>,
    pub fns: Vec<Func>,
    pub procs: Vec<Proc>,
    pub always: Vec<Branch>,
    /// `due` steps in file order: the procedure to run and when it is due.
    pub dues: Vec<Due>,
    pub always_locals: usize,
    pub scores: X,
    pub winners: X,
    /// Every field name used in the program; `E::Field` refers to them by index.
    pub field_names: Vec<String>,
    pub flow: Block,
    pub flow_locals: usize,
    /// The directory of the rules file, where a `file` parameter's default is looked up
    /// (`None` for built-in rules, whose data files are built in too).
    pub data_dir: Option<std::path::PathBuf>,
    /// What each `due` condition and `always` guard reads, where it may be remembered.
    pub remembered: memo::Remembered,
    /// Each variable's type as the static check worked it out (`Unknown` where it could not).
    pub var_types: Vec<types::Type>,
}

#[derive(Debug, Clone)]
pub struct RuleInfo {
    pub id: String,
    pub text: String,
    pub span: Span,
    /// A move that breaks this rule may stand (`check --all`).
    pub stands: bool,
}

#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub shape: Shape,
    pub default: ParamDefault,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum ParamDefault {
    Expr(X),
    ByPlayers(Vec<(u32, X)>),
}

#[derive(Debug, Clone)]
pub struct EnumInfo {
    pub name: String,
    pub variants: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Kind {
    pub name: String,
    pub fields: Vec<String>,
    /// For each field symbol of the program, the attribute it names in this kind.
    pub slots: Vec<Option<u16>>,
    /// The declared shape of each attribute.
    pub shapes: Vec<Shape>,
    pub cards: std::ops::Range<u32>,
    /// Looked up for every card a transcript names: foldhash, several times as fast as
    /// SipHash on a short code (the codes are the rules file's own, never a transcript's).
    pub by_code: HashMap<String, u32, foldhash::fast::RandomState>,
    /// Where the cards come from when they are read from a data file (`from pool.cards`).
    pub pool: Option<PoolSpec>,
    /// Declared with `codes`: coded values that are not cards.
    pub plain: bool,
}

impl Kind {
    /// What one value of the kind is called in messages.
    pub fn noun(&self) -> &'static str {
        if self.plain { "code" } else { "card" }
    }
}

/// Cards read from a YAML file named by a `file` parameter: each row of the list under
/// `key` is one card. Attributes are locals `0..n` and the code local `n` in `when` and
/// `checks`.
#[derive(Debug, Clone)]
pub struct PoolSpec {
    pub param: u16,
    pub key: String,
    /// For each attribute, when a card has it (others read null).
    pub when: Vec<Option<X>>,
    /// Each row must pass these, else the pool (and every transcript using it) is malformed.
    pub checks: Vec<(X, Vec<Part>)>,
    pub locals: usize,
}

#[derive(Debug, Clone)]
pub struct CardInfo {
    pub kind: u16,
    pub code: Text,
    pub attrs: Vec<Value>,
}

#[derive(Debug, Clone)]
pub struct ActionInfo {
    pub name: String,
    pub shape: Shape,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    pub per_player: bool,
    pub init: X,
}

#[derive(Debug, Clone)]
pub struct Func {
    pub name: String,
    pub arity: usize,
    pub locals: usize,
    pub body: X,
}

#[derive(Debug, Clone)]
pub struct Due {
    pub proc_: u16,
    pub cond: X,
    pub locals: usize,
}

#[derive(Debug, Clone)]
pub struct Proc {
    pub name: String,
    pub arity: usize,
    pub locals: usize,
    pub body: Block,
    /// A `check` helper: its body is checks, run where a branch's checks call it.
    pub checks_only: bool,
}

/// The shape of a transcript value; bounds may depend on parameters.
#[derive(Debug, Clone)]
pub enum Shape {
    Int(Option<X>, Option<X>),
    Bool,
    Str,
    Player,
    Null,
    Literal(Text),
    Card(u16),
    Enum(u16),
    List(Option<X>, Box<Shape>, bool),
    /// Keys, values, and whether every value of the key shape must be a key.
    Map(Box<Shape>, Box<Shape>, bool),
    Record(Vec<(Text, bool, Shape)>),
    /// A path to a data file.
    File,
    /// A list or map with at least one item.
    NonEmpty(Box<Shape>),
    Union(Vec<Shape>),
}

/// An expression with its span in the rules file.
#[derive(Debug, Clone)]
pub struct X {
    pub e: E,
    pub span: Span,
    /// Its quick form, where it has one (`fast`), given once the program is checked.
    pub quick: Option<Box<fast::Quick>>,
}

#[derive(Debug, Clone)]
pub enum E {
    Const(Value),
    Local(Slot),
    Global(u16),
    Param(u16),
    Players,
    /// How many events have been taken so far.
    EventsTaken,
    AllCards(u16),
    /// `Kind("CODE")`: the card of the kind with the code (looked up when it runs, for the
    /// cards of a data file).
    CardCode(u16, Value),
    AllVariants(u16),
    Template(Vec<Part>),
    List(Vec<X>),
    Record(Vec<(Value, X)>),
    Comprehension {
        body: Box<X>,
        slot: Slot,
        slot2: Option<Slot>,
        coll: Box<X>,
        cond: Option<Box<X>>,
    },
    Quantifier {
        all: bool,
        slot: Slot,
        coll: Box<X>,
        body: Box<X>,
        /// Where its last value is remembered (`memo::Remembered::quantifiers`), when it is.
        memo: Option<u16>,
    },
    If(Box<X>, Box<X>, Box<X>),
    /// `let x = VALUE in BODY`: VALUE in the local `slot`, then BODY.
    Let {
        slot: Slot,
        value: Box<X>,
        body: Box<X>,
    },
    Not(Box<X>),
    Neg(Box<X>),
    Binary(crate::lang::ast::BinOp, Box<X>, Box<X>),
    Index(Box<X>, Box<X>),
    Slice(Box<X>, Option<Box<X>>, Option<Box<X>>),
    /// A field by name, and its symbol (an index into `Program::field_names`).
    Field(Box<X>, Value, u16),
    CallFn(u16, Vec<X>),
    Builtin(crate::program::builtins::Builtin, Vec<X>),
    Lambda(Slot, Box<X>),
}

#[derive(Debug, Clone)]
pub enum Part {
    Text(String),
    Expr(X),
}

pub type Block = Vec<S>;

#[derive(Debug, Clone)]
pub struct S {
    pub s: St,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum St {
    Let(Slot, X),
    Require {
        cond: X,
        rule: u16,
        message: Vec<Part>,
        /// What a move that stands costs: run, with the names the checks had here, when the
        /// move is let stand (empty for none).
        cost: Block,
    },
    If(X, Block, Block),
    For {
        slot: Slot,
        slot2: Option<Slot>,
        coll: X,
        body: Block,
    },
    While(X, Block),
    Loop(Block),
    Choose(Box<Choose>),
    Break,
    Continue,
    Again,
    /// `finish`; with `true` (`finish now`) the flow stops at once.
    Finish(bool),
    Settle,
    /// `open ACTION`: the action's `window` records open.
    Open(u16),
    /// `note "text"`: a line for the verdict.
    Note(Vec<Part>),
    Assign {
        target: Target,
        path: Vec<X>,
        op: crate::lang::ast::AssignOp,
        value: X,
    },
    Call(u16, Vec<X>),
}

#[derive(Debug, Clone, Copy)]
pub enum Target {
    Global(u16),
    Local(Slot),
}

#[derive(Debug, Clone)]
pub struct Choose {
    pub branches: Vec<Branch>,
    pub otherwise: Option<Block>,
    /// The point is optional only while this holds (always, when absent).
    pub optional_while: Option<X>,
    pub span: Span,
}

/// One action open at a waiting point. `checks` never change the state; `effects` may.
#[derive(Debug, Clone)]
pub struct Branch {
    pub action: u16,
    pub arg: Slot,
    pub actors: X,
    pub actor: Option<Slot>,
    pub guard: Option<X>,
    pub choices: Option<X>,
    pub checks: Block,
    pub effects: Block,
    pub span: Span,
    /// A `window` record: open only from an `open` of its action until it is taken or the
    /// next event of the flow is.
    pub window: bool,
    /// Which form of `DrawnFrom` the checks have, worked out the first time it is asked: the
    /// checks do not change once the rules run, and working it out walks their expressions.
    pub drawn: std::cell::OnceCell<Drawn>,
}

/// The form of a branch's `DrawnFrom`, without what it borrows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawn {
    Nowhere,
    Members,
    SubLists,
    Fields,
}

/// Where a branch's checks say its argument comes from, for `play` and the legal actions of a
/// branch without `choices`.
#[derive(Debug, Clone)]
pub enum DrawnFrom<'p> {
    /// `require ARG in COLLECTION` first: only the collection's items can pass.
    Members(&'p X),
    /// `require all x in ARG: x in COLLECTION` first (a list of items taken from a
    /// collection), with the length a `require len(ARG) == N` among the first checks gives:
    /// only the collection's sub-lists (of N items) can pass.
    SubLists { coll: &'p X, len: Option<&'p X> },
    /// `require ARG.FIELD in COLLECTION` first, and the checks of that form right after it
    /// that name other fields (of a record argument): only records whose named fields are
    /// items of their collections can pass. Each field's name, with its collection, in the
    /// order of the checks.
    Fields(Vec<(&'p Value, &'p X)>),
}

impl Branch {
    /// `require ARG in COLLECTION` as the branch's first check: only the collection's items
    /// can pass, so listing them is enough (and far cheaper than a whole domain).
    pub fn first_membership_check(&self) -> Option<&X> {
        let St::Require { cond, .. } = &self.checks.first()?.s else { return None };
        let E::Binary(crate::lang::ast::BinOp::In, item, coll) = &cond.e else { return None };
        let is_arg = matches!(item.e, E::Local(s) if s == self.arg);
        (is_arg && !coll.reads_local(self.arg)).then_some(&**coll)
    }

    /// Where the branch's first checks say its argument comes from, if they do. Asked at every
    /// listing of a waiting point's candidates: the form is remembered, and the most common
    /// ones are then taken from the checks as they stand.
    pub fn drawn_from(&self) -> Option<DrawnFrom<'_>> {
        let form = *self.drawn.get_or_init(|| match self.drawn_from_checks() {
            None => Drawn::Nowhere,
            Some(DrawnFrom::Members(_)) => Drawn::Members,
            Some(DrawnFrom::SubLists { .. }) => Drawn::SubLists,
            Some(DrawnFrom::Fields(_)) => Drawn::Fields,
        });
        match form {
            Drawn::Nowhere => None,
            Drawn::Members => self.first_collection().map(DrawnFrom::Members),
            Drawn::SubLists | Drawn::Fields => self.drawn_from_checks(),
        }
    }

    /// The collection of the first check once it is known to be `require ARG in COLLECTION`.
    fn first_collection(&self) -> Option<&X> {
        let St::Require { cond, .. } = &self.checks.first()?.s else { return None };
        let E::Binary(crate::lang::ast::BinOp::In, _, coll) = &cond.e else { return None };
        Some(coll)
    }

    /// `drawn_from`, worked out from the checks.
    fn drawn_from_checks(&self) -> Option<DrawnFrom<'_>> {
        if let Some(coll) = self.first_membership_check() {
            return Some(DrawnFrom::Members(coll));
        }
        let fields = self.field_membership_checks();
        if !fields.is_empty() {
            return Some(DrawnFrom::Fields(fields));
        }
        let St::Require { cond, .. } = &self.checks.first()?.s else { return None };
        let E::Quantifier { all: true, slot, coll: whole, body, .. } = &cond.e else { return None };
        let E::Binary(crate::lang::ast::BinOp::In, item, coll) = &body.e else { return None };
        let of_arg = matches!(whole.e, E::Local(s) if s == self.arg) && matches!(item.e, E::Local(s) if s == *slot);
        if !of_arg || coll.reads_local(self.arg) || coll.reads_local(*slot) {
            return None;
        }
        Some(DrawnFrom::SubLists { coll, len: self.required_length() })
    }

    /// The checks `require ARG.FIELD in COLLECTION` from the first on, each of a field not
    /// named before and with a collection that does not read the argument: only consecutive
    /// ones, so that each collection is one the checks would have evaluated anyway, in the
    /// same frame, for any record that passed the ones before it.
    fn field_membership_checks(&self) -> Vec<(&Value, &X)> {
        let mut fields: Vec<(&Value, &X)> = vec![];
        for s in &self.checks {
            let St::Require { cond, .. } = &s.s else { break };
            let E::Binary(crate::lang::ast::BinOp::In, item, coll) = &cond.e else { break };
            let E::Field(record, name, _) = &item.e else { break };
            let of_arg = matches!(record.e, E::Local(s) if s == self.arg);
            if !of_arg || coll.reads_local(self.arg) || fields.iter().any(|(f, _)| f.same(name)) {
                break;
            }
            fields.push((name, coll));
        }
        fields
    }

    /// `N` of a `require len(ARG) == N` (or `N == len(ARG)`, or either as one side of an
    /// `and`: `require len(ARG) == N and distinct(ARG)`) among the checks before the first
    /// `let` or other statement, where `N` does not read the argument.
    fn required_length(&self) -> Option<&X> {
        let is_len_of_arg = |x: &X| {
            matches!(&x.e, E::Builtin(crate::program::builtins::Builtin::Len, args)
                if matches!(args.as_slice(), [a] if matches!(a.e, E::Local(s) if s == self.arg)))
        };
        let mut conditions = vec![];
        for s in &self.checks {
            let St::Require { cond, .. } = &s.s else { break };
            conjuncts(cond, &mut conditions);
        }
        conditions.into_iter().find_map(|cond| {
            let E::Binary(crate::lang::ast::BinOp::Eq, a, b) = &cond.e else { return None };
            let n = if is_len_of_arg(a) {
                b
            } else if is_len_of_arg(b) {
                a
            } else {
                return None;
            };
            (!n.reads_local(self.arg)).then_some(&**n)
        })
    }
}

/// The conditions an `and` joins, each of which must hold for it to (the condition itself when
/// it is no `and`), in the order written.
fn conjuncts<'x>(cond: &'x X, out: &mut Vec<&'x X>) {
    match &cond.e {
        E::Binary(crate::lang::ast::BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(cond),
    }
}

impl S {
    /// The blocks directly inside this statement.
    pub fn blocks(&self) -> Vec<&Block> {
        match &self.s {
            St::If(_, a, b) => vec![a, b],
            St::For { body, .. } | St::While(_, body) | St::Loop(body) => vec![body],
            St::Require { cost, .. } => vec![cost],
            St::Choose(c) => {
                c.branches.iter().flat_map(|b| [&b.checks, &b.effects]).chain(c.otherwise.iter()).collect()
            }
            _ => vec![],
        }
    }
}

impl Program {
    /// The variables an expression reads, directly or in the functions it calls.
    pub fn variables_read(&self, x: &X, out: &mut Vec<u16>, seen_fns: &mut Vec<u16>) {
        match &x.e {
            E::Global(g) if !out.contains(g) => out.push(*g),
            E::CallFn(f, _) if !seen_fns.contains(f) => {
                seen_fns.push(*f);
                self.variables_read(&self.fns[*f as usize].body, out, seen_fns);
            }
            _ => {}
        }
        for child in x.children() {
            self.variables_read(child, out, seen_fns);
        }
    }

    /// Every branch of the rules (each `always` record and each branch of each `choose`), in
    /// file order.
    pub fn branches(&self) -> Vec<&Branch> {
        let mut branches: Vec<&Branch> = self.always.iter().collect();
        for s in self.statements_where(|s| matches!(s, St::Choose(_))) {
            if let St::Choose(c) = &s.s {
                branches.extend(c.branches.iter());
            }
        }
        branches.sort_by_key(|b| b.span.start);
        branches
    }

    /// Every statement anywhere in the rules that `keep` accepts, in file order.
    pub fn statements_where(&self, keep: impl Fn(&St) -> bool) -> Vec<&S> {
        let mut blocks: Vec<&Block> = vec![&self.flow];
        blocks.extend(self.procs.iter().map(|p| &p.body));
        blocks.extend(self.always.iter().flat_map(|b| [&b.checks, &b.effects]));
        let mut found = vec![];
        while let Some(block) = blocks.pop() {
            for s in block {
                if keep(&s.s) {
                    found.push(s);
                }
                blocks.extend(s.blocks());
            }
        }
        found.sort_by_key(|s| s.span.start);
        found
    }
}

impl Shape {
    pub fn is_file(&self) -> bool {
        matches!(self, Shape::File)
    }
}

/// Where a field read by name (`x.card`) stands among a record shape's fields.
pub fn field_index(fields: &[(Text, bool, Shape)], name: &Value) -> Option<usize> {
    fields.iter().position(|(f, ..)| matches!(name, Value::Str(n) if n == f))
}

/// The expressions directly inside an expression: one list of cases for shared and for
/// mutable references (`children`, `children_mut`).
macro_rules! children_of {
    ($e:expr, $iter:ident, $as_deref:ident $(, $m:tt)?) => {
        match $e {
            E::Const(_)
            | E::Local(_)
            | E::Global(_)
            | E::Param(_)
            | E::Players
            | E::EventsTaken
            | E::AllCards(_)
            | E::CardCode(..)
            | E::AllVariants(_) => vec![],
            E::Template(parts) => parts
                .$iter()
                .filter_map(|p| match p {
                    Part::Expr(x) => Some(x),
                    Part::Text(_) => None,
                })
                .collect(),
            E::List(items) | E::CallFn(_, items) | E::Builtin(_, items) => items.$iter().collect(),
            E::Record(fields) => fields.$iter().map(|(_, x)| x).collect(),
            E::Comprehension { body, coll, cond, .. } => {
                [Some(&$($m)? **body), Some(&$($m)? **coll), cond.$as_deref()].into_iter().flatten().collect()
            }
            E::Quantifier { coll, body, .. } => vec![coll, body],
            E::If(a, b, c) => vec![a, b, c],
            E::Let { value, body, .. } => vec![value, body],
            E::Not(a) | E::Neg(a) | E::Field(a, ..) | E::Lambda(_, a) => vec![a],
            E::Binary(_, a, b) | E::Index(a, b) => vec![a, b],
            E::Slice(a, lo, hi) => {
                [Some(&$($m)? **a), lo.$as_deref(), hi.$as_deref()].into_iter().flatten().collect()
            }
        }
    };
}

impl X {
    /// The expressions directly inside this one.
    pub fn children(&self) -> Vec<&X> {
        children_of!(&self.e, iter, as_deref)
    }

    /// The expressions directly inside this one, to change.
    pub fn children_mut(&mut self) -> Vec<&mut X> {
        children_of!(&mut self.e, iter_mut, as_deref_mut, mut)
    }

    /// Whether this expression reads the local `slot` anywhere inside.
    pub fn reads_local(&self, slot: Slot) -> bool {
        matches!(self.e, E::Local(s) if s == slot) || self.children().iter().any(|c| c.reads_local(slot))
    }
}

impl Program {
    /// How many players the game is for, in words: `4 players`, `3 to 5 players`.
    pub fn player_count_words(&self) -> String {
        let (lo, hi) = self.players;
        if lo == hi { format!("{lo} players") } else { format!("{lo} to {hi} players") }
    }
}

/// How the cards of one group look (`look S black "♠"`): the group as shown (an enum
/// member), a colour of `resolve::LOOK_COLOURS`, and a symbol shown beside the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    pub group: String,
    pub colour: String,
    pub symbol: Option<String>,
}

#[cfg(test)]
#[allow(clippy::panic, reason = "tests fail loudly")]
mod tests {
    use super::{Drawn, DrawnFrom};

    /// Where an argument is drawn from is the same when asked again (when the form is
    /// remembered) as the first time (when it is worked out from the checks), for each form.
    #[test]
    fn where_an_argument_is_drawn_from_is_the_same_when_asked_again() {
        let text = "game t\nplayers 2\nrule r \"x\"\naction a: int\naction b: list int\n\
                    action c: {x: int, y: int}\naction d: int\nvar pool = [1, 2, 3]\nscores {}\nwinners []\n\
                    always a(n) by table {\n  require n in pool else r \"no\"\n}\n\
                    always b(l) by table {\n  require all i in l: i in pool else r \"no\"\n  require len(l) == 2 else r \"two\"\n}\n\
                    always c(v) by table {\n  require v.x in pool else r \"x\"\n  require v.y in pool else r \"y\"\n}\n\
                    always d(n) by table {\n  require n > 0 else r \"positive\"\n}\n\
                    flow {\n  finish\n}\n";
        let program = crate::resolve::compile("t.rules", text).unwrap_or_else(|d| panic!("{d:?}"));
        let forms: Vec<Option<Drawn>> = program.always.iter().map(|b| b.drawn.get().copied()).collect();
        assert_eq!(forms, [None; 4], "nothing is worked out before it is asked");
        let shown = |d: Option<DrawnFrom<'_>>| format!("{d:?}");
        let first: Vec<String> = program.always.iter().map(|b| shown(b.drawn_from())).collect();
        let again: Vec<String> = program.always.iter().map(|b| shown(b.drawn_from())).collect();
        assert_eq!(first, again);
        let forms: Vec<Option<Drawn>> = program.always.iter().map(|b| b.drawn.get().copied()).collect();
        let expected = [Drawn::Members, Drawn::SubLists, Drawn::Fields, Drawn::Nowhere].map(Some);
        assert_eq!(forms, expected);
        assert!(first[0].starts_with("Some(Members("), "{}", first[0]);
        assert!(first[1].contains("len: Some("), "{}", first[1]);
        assert!(first[2].contains("Str(\"y\")"), "{}", first[2]);
        assert_eq!(first[3], "None");
    }
}
