//! Expressions without loops of their own, calls or built-ins, compiled a second time into a
//! form the interpreter runs without building values: a place (a variable, a local, an entry
//! of a map or list, a field) is read where it is, a condition gives a bool and arithmetic an
//! int, and the fuel is added up as it goes. The walk over `X` stays the meaning: where a quick
//! form meets anything the walk would report (a type error, fuel running out, the nesting
//! limit near), it gives up and the walk runs the expression instead (`run/fast.rs`).

use crate::lang::ast::BinOp;
use crate::program::value::Value;
use crate::program::{E, Program, Slot, X};

/// Deepest expression given a quick form: what the compiler walks is bounded, and deeper
/// expressions are rare enough for the walk.
const MAX_DEPTH: u32 = 48;

/// Fewest expressions a quick form is given for: below it, the walk costs no more than
/// starting a quick form does.
const MIN_NODES: usize = 5;

/// An expression's quick form, and how deep the expression is (a quick form runs only where
/// the walk would not reach the nesting limit inside it).
#[derive(Debug, Clone)]
pub struct Quick {
    pub fast: Fast,
    pub depth: u32,
    /// Whether it holds a quantifier remembered between candidates: while candidates are
    /// tried, the walk runs it, and asks that quantifier's memory (`run/memo.rs`).
    pub remembers: bool,
}

/// What a quick form gives: a bool, an int, or a value read where it is.
#[derive(Debug, Clone)]
pub enum Fast {
    Cond(C),
    Num(N),
    Place(P),
}

/// A condition.
#[derive(Debug, Clone)]
pub enum C {
    And(Box<C>, Box<C>),
    Or(Box<C>, Box<C>),
    Not(Box<C>),
    /// A value that must be a bool, and the bool it must be for the condition to hold
    /// (`not flag[p]` is `flag[p]` wanted false).
    Truth(P, bool),
    /// `==`, or `!=` with `ne`.
    Same {
        ne: bool,
        l: Box<Fast>,
        r: Box<Fast>,
    },
    /// `<`, `<=`, `>`, `>=`.
    Order(BinOp, Box<Fast>, Box<Fast>),
    /// `in`, or `not in` with `not`.
    In {
        not: bool,
        item: Box<Fast>,
        coll: Box<P>,
    },
    Quantifier {
        all: bool,
        slot: Slot,
        coll: Box<P>,
        body: Box<C>,
    },
}

/// An int worked out.
#[derive(Debug, Clone)]
pub enum N {
    /// `+`, `-`, `*`, `/`, `%` of two ints (lists are the walk's).
    Arith(BinOp, Box<Fast>, Box<Fast>),
    EventsTaken,
}

/// A value read where it is.
#[derive(Debug, Clone)]
pub enum P {
    Const(Value),
    Local(Slot),
    Global(u16),
    Param(u16),
    Players,
    /// `a[k]`: an entry of a map or an item of a list.
    Index(Box<P>, Box<Fast>),
    /// `a.name`: a card's attribute or a record's field, by its name and symbol.
    Field(Box<P>, Value, u16),
    If(Box<C>, Box<P>, Box<P>),
}

/// Gives every expression of the program that has a quick form its quick form, the
/// expressions inside one included (the walk uses theirs where it runs the outer one).
pub fn compile(prog: &mut Program) {
    super::visit::every_expression(prog, &mut |x: &mut X| give_quick_forms(x));
}

fn give_quick_forms(x: &mut X) {
    if nodes_up_to(x, MIN_NODES) >= MIN_NODES
        && let Some(fast) = fast(x, MAX_DEPTH)
    {
        x.quick = Some(Box::new(Quick { fast, depth: depth(x), remembers: remembers(x) }));
    }
    x.children_mut().into_iter().for_each(give_quick_forms);
}

/// Whether `x` holds a quantifier remembered between candidates.
fn remembers(x: &X) -> bool {
    matches!(x.e, E::Quantifier { memo: Some(_), .. }) || x.children().into_iter().any(remembers)
}

/// How many expressions `x` is made of, itself included, counted up to `limit` (asked of
/// every expression, so a large one is not counted whole each time).
fn nodes_up_to(x: &X, limit: usize) -> usize {
    let mut n = 1;
    for child in x.children() {
        if n >= limit {
            break;
        }
        n += nodes_up_to(child, limit - n);
    }
    n
}

/// How deep the walk goes in `x`: 1 for a leaf.
fn depth(x: &X) -> u32 {
    1 + x.children().into_iter().map(depth).max().unwrap_or(0)
}

/// `x`'s quick form, if it has one within `room` levels.
fn fast(x: &X, room: u32) -> Option<Fast> {
    let room = room.checked_sub(1)?;
    let inner = |a: &X| fast(a, room).map(Box::new);
    Some(match &x.e {
        E::Const(v) => Fast::Place(P::Const(v.clone())),
        E::Local(s) => Fast::Place(P::Local(*s)),
        E::Global(g) => Fast::Place(P::Global(*g)),
        E::Param(p) => Fast::Place(P::Param(*p)),
        E::Players => Fast::Place(P::Players),
        E::EventsTaken => Fast::Num(N::EventsTaken),
        E::Not(a) => Fast::Cond(match cond(a, room)? {
            C::Truth(p, wanted) => C::Truth(p, !wanted),
            c => C::Not(Box::new(c)),
        }),
        E::Binary(op, a, b) => match op {
            BinOp::And => Fast::Cond(C::And(Box::new(cond(a, room)?), Box::new(cond(b, room)?))),
            BinOp::Or => Fast::Cond(C::Or(Box::new(cond(a, room)?), Box::new(cond(b, room)?))),
            BinOp::Eq | BinOp::Ne => Fast::Cond(C::Same { ne: *op == BinOp::Ne, l: inner(a)?, r: inner(b)? }),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Fast::Cond(C::Order(*op, inner(a)?, inner(b)?)),
            BinOp::In | BinOp::NotIn => {
                Fast::Cond(C::In { not: *op == BinOp::NotIn, item: inner(a)?, coll: Box::new(place(b, room)?) })
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                Fast::Num(N::Arith(*op, inner(a)?, inner(b)?))
            }
            BinOp::Concat => return None,
        },
        E::Index(a, k) => Fast::Place(P::Index(Box::new(place(a, room)?), inner(k)?)),
        E::Field(a, name, sym) => Fast::Place(P::Field(Box::new(place(a, room)?), name.clone(), *sym)),
        E::If(c, a, b) => {
            Fast::Place(P::If(Box::new(cond(c, room)?), Box::new(place(a, room)?), Box::new(place(b, room)?)))
        }
        E::Quantifier { all, slot, coll, body, .. } => Fast::Cond(C::Quantifier {
            all: *all,
            slot: *slot,
            coll: Box::new(place(coll, room)?),
            body: Box::new(cond(body, room)?),
        }),
        _ => return None,
    })
}

fn cond(x: &X, room: u32) -> Option<C> {
    match fast(x, room)? {
        Fast::Cond(c) => Some(c),
        Fast::Place(p) => Some(C::Truth(p, true)),
        Fast::Num(_) => None,
    }
}

fn place(x: &X, room: u32) -> Option<P> {
    match fast(x, room)? {
        Fast::Place(p) => Some(p),
        _ => None,
    }
}

/// Rules that meet every kind of quick form, each in a `require` that holds for the players'
/// first moves (`R1` each): the tests of both the compiling (here) and the running
/// (`run/fast.rs`) of quick forms read them.
#[cfg(test)]
pub(crate) const EVERY_KIND: &str = "game quick\nplayers 2..2\nrule r \"the check\"\nparam bonus: int = 3\n\
    enum Suit { R, B }\ncard Coin(suit: Suit, face: int) {\n  \"R1\" (Suit.R, 1)\n  \"R2\" (Suit.R, 2)\n  \"B1\" (Suit.B, 1)\n}\n\
    action go: Coin\nvar hand per player = [Coin(\"R1\"), Coin(\"R2\")]\nvar ready per player = true\n\
    var done per player = false\nvar owner = {a: 1}\nvar pairs = [[1], [2]]\nvar moves = 0\nscores {}\nwinners []\n\
    flow {\n  for p in players {\n    choose {\n      go(c) by p {\n\
    require c in hand[p] and ready[p] and not done[p] and not (moves > 5) else r \"one\"\n\
    require (moves == 0 or moves > 0) and hand[p] != [] and c.suit <= Suit.B and moves < 3 else r \"two\"\n\
    require p in hand and p in players and pairs[0] in pairs and 3 not in pairs[0] and owner.a >= 1 else r \"three\"\n\
    require exists h in hand[p]: all k in hand[p]: k.face >= 1 or h == k else r \"four\"\n\
    require c.face * 2 + bonus - 1 > c.face / 1 % 5 - events_taken else r \"five\"\n\
    require (if c.face == 1 then c.suit else Suit.B) == Suit.R else r \"six\"\n\
    done[p] = true\n        moves += 1\n      }\n    }\n  }\n}\n";

#[cfg(test)]
#[allow(clippy::panic, reason = "tests fail loudly")]
mod tests {
    use crate::program::{Choose, Program, S, St};

    /// The first waiting point of a block, at its top or in a `for` loop's body.
    fn first_choose(block: &[S]) -> Option<&Choose> {
        block.iter().find_map(|s| match &s.s {
            St::Choose(c) => Some(&**c),
            St::For { body, .. } => first_choose(body),
            _ => None,
        })
    }

    /// The conditions of the first branch's `require`s, in order.
    fn conditions(prog: &Program) -> Vec<&crate::program::X> {
        let Some(c) = first_choose(&prog.flow) else { panic!("no waiting point") };
        c.branches[0]
            .checks
            .iter()
            .filter_map(|s| match &s.s {
                St::Require { cond, .. } => Some(cond),
                _ => None,
            })
            .collect()
    }

    /// Which expressions get a quick form, how deep each is (what the nesting check counts),
    /// and whether it holds a quantifier remembered between candidates.
    #[test]
    fn quick_forms_their_depth_and_their_memory() {
        let rules = "game q\nplayers 2..2\nrule r \"x\"\naction go: int 0..3\nvar v = [1, 2]\nvar a = 0\nscores {}\nwinners []\n\
            flow {\n  choose {\n    go(n) by players[0] {\n\
            require not (a == n) else r \"four nodes\"\n\
            require a + 1 == n or n >= 0 else r \"eight nodes\"\n\
            require a + 1 != n else r \"five nodes\"\n\
            require exists y in v: y > a else r \"remembered\"\n\
            require len(v) > n and a == 0 else r \"a call\"\n    }\n  }\n}\n";
        let prog = crate::resolve::compile("q.rules", rules).unwrap_or_else(|d| panic!("{}", d[0].message));
        let found: Vec<_> =
            conditions(&prog).iter().map(|x| x.quick.as_ref().map(|q| (q.depth, q.remembers))).collect();
        assert_eq!(found, [None, Some((4, false)), Some((3, false)), Some((3, true)), None]);
    }

    /// Each condition of `EVERY_KIND` is made only of kinds of expression that quick forms take
    /// (a parameter, `players`, `events_taken`, `not`, `and`, `or`, every comparison, `in` and
    /// `not in`, arithmetic, an index, a field, `if`, both quantifiers), so each has a quick
    /// form at its top: without one kind, the conditions that use it would have none.
    #[test]
    fn every_kind_of_expression_taken_gives_a_quick_form() {
        let prog =
            crate::resolve::compile("quick.rules", super::EVERY_KIND).unwrap_or_else(|d| panic!("{}", d[0].message));
        let found = conditions(&prog);
        let without: Vec<usize> = (1..=found.len()).filter(|i| found[i - 1].quick.is_none()).collect();
        assert_eq!(found.len(), 6);
        assert!(without.is_empty(), "conditions without a quick form: {without:?}");
    }
}
