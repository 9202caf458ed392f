//! Which conditions may be remembered between evaluations: a `due` step's condition and an
//! `always` branch's guard, asked before every event, give the same value for the same fuel
//! as long as the variables they read are unchanged; so does a call of a helper given the
//! same arguments as its last call (`fn deck() = ...`, `matching(hand[o], c)`), and so does
//! a quantifier of a branch's checks whose locals from around it are as they were
//! (`exists h in hand[p]: h.suit == led`, asked again for every card a playout tries). This
//! finds, once per program, what each of them reads, or that it cannot be remembered (it
//! draws at random, or reads a local it did not bind itself), or need not be (it is a read of
//! one variable, which costs less than asking whether the variable changed).

use super::builtins::Builtin;
use super::{Block, Branch, E, Func, Program, Slot, St, X};

/// What a condition reads, when it reads nothing else.
#[derive(Debug, Clone, PartialEq)]
pub struct Reads {
    /// The `var`s it reads, directly or through the helpers it calls.
    pub globals: Vec<u16>,
    /// Whether it reads `events_taken`.
    pub events_taken: bool,
}

/// For each condition that may be remembered, what it reads (`None` where it may not).
#[derive(Debug, Clone, Default)]
pub struct Remembered {
    /// One per `due` step, in order.
    pub dues: Vec<Option<Reads>>,
    /// One per `always` branch, in order.
    pub guards: Vec<Option<Reads>>,
    /// One per `fn`, in order: what a call of it reads besides its arguments.
    pub helpers: Vec<Option<Reads>>,
    /// One per quantifier remembered (`E::Quantifier`'s `memo`), in the order numbered.
    pub quantifiers: Vec<Quantified>,
}

/// What a quantifier of a branch's checks reads: variables, and the locals bound around it (its
/// own loop's name aside), which are compared as a helper's arguments are.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantified {
    pub reads: Reads,
    pub locals: Vec<Slot>,
}

impl Remembered {
    /// What each condition, helper and quantifier of the program reads; the quantifiers that
    /// may be remembered are numbered in the program.
    pub fn of(prog: &mut Program) -> Remembered {
        let quantifiers = number_quantifiers(prog);
        let prog = &*prog;
        // The `always` guards and actors share one frame at a waiting point: a guard that is
        // not evaluated binds none of its loop's names there, which only matters to one of
        // them that reads a name it did not bind. With any such, no guard is remembered.
        let closed = prog.always.iter().all(|b| reads(prog, &b.actors).is_some())
            && prog.always.iter().flat_map(|b| &b.guard).all(|g| reads(prog, g).is_some());
        let guard = |b: &crate::program::Branch| {
            b.guard.as_ref().filter(|g| closed && !is_a_read(g)).and_then(|g| reads(prog, g))
        };
        Remembered {
            dues: prog.dues.iter().map(|d| reads(prog, &d.cond).filter(|_| !is_a_read(&d.cond))).collect(),
            guards: prog.always.iter().map(guard).collect(),
            helpers: prog
                .fns
                .iter()
                .map(|f| if worth_remembering(f) { walk_reads(&prog.fns, &f.body, true) } else { None })
                .collect(),
            quantifiers,
        }
    }
}

/// Numbers the quantifiers of branches' checks that may be remembered, and finds what each
/// reads. Only checks are tried candidate after candidate (`Machine::passes`), so only their
/// quantifiers are asked again with nothing changed. Of those, only the outermost: one inside
/// a loop's body sees the loop's name change at every round. And none that reads the
/// candidate, directly or through a name bound from it, or the name of a `for` loop of the
/// checks: it changes from one try, or one round, to the next.
fn number_quantifiers(prog: &mut Program) -> Vec<Quantified> {
    // Helpers are walked through, not changed: held apart while the branches are numbered.
    let fns = std::mem::take(&mut prog.fns);
    let mut numbering = Numbering { fns: &fns, found: vec![] };
    super::visit::in_statements(prog, &mut numbering);
    let found = numbering.found;
    prog.fns = fns;
    found
}

/// The quantifiers numbered so far.
struct Numbering<'a> {
    fns: &'a [Func],
    found: Vec<Quantified>,
}

impl super::visit::Visitor for Numbering<'_> {
    fn expression(&mut self, _: &mut X) {}

    fn branch(&mut self, b: &mut Branch) {
        // The names that change from one candidate to the next, or from one round of a loop of
        // the checks to the next.
        let mut changing = vec![b.arg];
        bound_from(&b.checks, &mut changing);
        super::visit::block(&mut b.checks, &mut |x: &mut X| self.outermost(x, &changing));
    }
}

impl Numbering<'_> {
    fn outermost(&mut self, x: &mut X, changing: &[Slot]) {
        match &x.e {
            E::Quantifier { .. } => {
                let mut locals = vec![];
                let Some(reads) = walk(self.fns, x, false, Some(&mut locals)) else { return };
                if locals.iter().any(|s| changing.contains(s)) {
                    return;
                }
                let Ok(at) = u16::try_from(self.found.len()) else { return };
                self.found.push(Quantified { reads, locals });
                if let E::Quantifier { memo, .. } = &mut x.e {
                    *memo = Some(at);
                }
            }
            E::Comprehension { .. } | E::Lambda(..) => {}
            _ => x.children_mut().into_iter().for_each(|c| self.outermost(c, changing)),
        }
    }
}

/// Adds to `changing` the names that checks bind from those in it (`let cards =
/// flatten(values(d))`), in order, inside their `if`s too, and the names of their `for` loops,
/// which change at every round. (Checks hold no other statements that bind a name.)
fn bound_from(checks: &Block, changing: &mut Vec<Slot>) {
    for s in checks {
        match &s.s {
            St::Let(slot, x) if changing.iter().any(|s| x.reads_local(*s)) => changing.push(*slot),
            St::For { slot, slot2, body, .. } => {
                changing.extend(std::iter::once(*slot).chain(*slot2));
                bound_from(body, changing);
            }
            St::If(_, a, b) => {
                bound_from(a, changing);
                bound_from(b, changing);
            }
            _ => {}
        }
    }
}

/// What `x` reads, or `None` when its value may change with anything else.
pub fn reads(prog: &Program, x: &X) -> Option<Reads> {
    walk_reads(&prog.fns, x, false)
}

/// What `x` reads; `in_helper` for a helper's body, where every local is bound (its frame is
/// its own, filled by its arguments).
fn walk_reads(fns: &[Func], x: &X, in_helper: bool) -> Option<Reads> {
    walk(fns, x, in_helper, None)
}

/// `walk_reads`, where a local that `x` does not bind is noted in `free` when that is given
/// (and makes `x` one that may not be remembered when it is not).
fn walk(fns: &[Func], x: &X, in_helper: bool, free: Option<&mut Vec<Slot>>) -> Option<Reads> {
    let mut found = Reads { globals: vec![], events_taken: false };
    let mut seen_fns = vec![];
    let mut walker = Walk { fns, bound: vec![], in_helper, free, found: &mut found, seen_fns: &mut seen_fns };
    walker.walk(x).then_some(found)
}

/// Whether a condition only reads one value (a variable, a local, a parameter, a constant or
/// `events_taken`), or is the `not` of such a read: remembering it costs more than reading it
/// again (the lookup compares what it read, and a value worked out again is kept anew).
fn is_a_read(x: &X) -> bool {
    match &x.e {
        E::Not(inner) => is_a_read(inner),
        E::Global(_) | E::Local(_) | E::Param(_) | E::Const(_) | E::EventsTaken => true,
        _ => false,
    }
}

/// Whether remembering a helper's last call can pay: always without arguments, where the
/// lookup compares nothing; with arguments, only for a body that loops (a comprehension or a
/// quantifier), since comparing and keeping the arguments of every call costs about what a
/// short body like `c.rank * 2 + 1` does.
fn worth_remembering(f: &Func) -> bool {
    fn loops(x: &X) -> bool {
        matches!(x.e, E::Comprehension { .. } | E::Quantifier { .. }) || x.children().into_iter().any(loops)
    }
    f.arity == 0 || loops(&f.body)
}

/// A walk through a condition and the helpers it calls.
struct Walk<'a> {
    fns: &'a [Func],
    /// The locals that loops inside the condition bind, where the walk is.
    bound: Vec<Slot>,
    /// Inside a helper's body, which runs in a frame of its own filled by its arguments: every
    /// local there is bound.
    in_helper: bool,
    /// Where the locals read but not bound are noted, for a quantifier that may read them.
    free: Option<&'a mut Vec<Slot>>,
    found: &'a mut Reads,
    seen_fns: &'a mut Vec<u16>,
}

impl Walk<'_> {
    /// Adds what `x` reads; false when it draws at random or reads a local it did not bind.
    fn walk(&mut self, x: &X) -> bool {
        match &x.e {
            E::Builtin(Builtin::Shuffle, _) => return false,
            E::Local(s) => return self.in_helper || self.bound.contains(s) || self.note_free(*s),
            E::Global(g) if !self.found.globals.contains(g) => self.found.globals.push(*g),
            E::EventsTaken => self.found.events_taken = true,
            E::CallFn(f, _) if !self.seen_fns.contains(f) => {
                self.seen_fns.push(*f);
                let outer = std::mem::replace(&mut self.in_helper, true);
                let body_ok = self.fns.get(*f as usize).is_some_and(|func| self.walk(&func.body));
                self.in_helper = outer;
                if !body_ok {
                    return false;
                }
            }
            E::Comprehension { body, slot, slot2, coll, cond } => {
                return self.walk(coll)
                    && self
                        .binding(&[Some(*slot), *slot2], |w| w.walk(body) && cond.as_ref().is_none_or(|c| w.walk(c)));
            }
            E::Quantifier { slot, coll, body, .. } => {
                return self.walk(coll) && self.binding(&[Some(*slot)], |w| w.walk(body));
            }
            E::Let { slot, value, body } => {
                return self.walk(value) && self.binding(&[Some(*slot)], |w| w.walk(body));
            }
            E::Lambda(slot, body) => return self.binding(&[Some(*slot)], |w| w.walk(body)),
            _ => {}
        }
        x.children().into_iter().all(|c| self.walk(c))
    }

    /// Notes a local read and not bound, where the walk notes them; false where it does not.
    fn note_free(&mut self, slot: Slot) -> bool {
        let Some(free) = self.free.as_deref_mut() else { return false };
        if !free.contains(&slot) {
            free.push(slot);
        }
        true
    }

    /// Walks with `slots` bound, as a loop binds its names for its body.
    fn binding(&mut self, slots: &[Option<Slot>], inner: impl FnOnce(&mut Self) -> bool) -> bool {
        let mark = self.bound.len();
        self.bound.extend(slots.iter().flatten());
        let ok = inner(self);
        self.bound.truncate(mark);
        ok
    }
}
