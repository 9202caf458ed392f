//! Which conditions may be remembered between evaluations: a `due` step's condition and an
//! `always` branch's guard, asked before every event, give the same value for the same fuel
//! as long as the variables they read are unchanged; so does a call of a helper given the
//! same arguments as its last call (`fn deck() = ...`, `matching(hand[o], c)`). This finds,
//! once per program, what each of them reads, or that it cannot be remembered (it draws at
//! random, or reads a local it did not bind itself), or need not be (it is a read of one
//! variable, which costs less than asking whether the variable changed).

use super::builtins::Builtin;
use super::{E, Program, Slot, X};

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
}

impl Remembered {
    pub fn of(prog: &Program) -> Remembered {
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
                .map(|f| if worth_remembering(f) { walk_reads(prog, &f.body, true) } else { None })
                .collect(),
        }
    }
}

/// What `x` reads, or `None` when its value may change with anything else.
pub fn reads(prog: &Program, x: &X) -> Option<Reads> {
    walk_reads(prog, x, false)
}

/// What `x` reads; `in_helper` for a helper's body, where every local is bound (its frame is
/// its own, filled by its arguments).
fn walk_reads(prog: &Program, x: &X, in_helper: bool) -> Option<Reads> {
    let mut found = Reads { globals: vec![], events_taken: false };
    let mut seen_fns = vec![];
    let mut walker = Walk { prog, bound: vec![], in_helper, found: &mut found, seen_fns: &mut seen_fns };
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
fn worth_remembering(f: &super::Func) -> bool {
    fn loops(x: &X) -> bool {
        matches!(x.e, E::Comprehension { .. } | E::Quantifier { .. }) || x.children().into_iter().any(loops)
    }
    f.arity == 0 || loops(&f.body)
}

/// A walk through a condition and the helpers it calls.
struct Walk<'a> {
    prog: &'a Program,
    /// The locals that loops inside the condition bind, where the walk is.
    bound: Vec<Slot>,
    /// Inside a helper's body, which runs in a frame of its own filled by its arguments: every
    /// local there is bound.
    in_helper: bool,
    found: &'a mut Reads,
    seen_fns: &'a mut Vec<u16>,
}

impl Walk<'_> {
    /// Adds what `x` reads; false when it draws at random or reads a local it did not bind.
    fn walk(&mut self, x: &X) -> bool {
        match &x.e {
            E::Builtin(Builtin::Shuffle, _) => return false,
            E::Local(s) => return self.in_helper || self.bound.contains(s),
            E::Global(g) if !self.found.globals.contains(g) => self.found.globals.push(*g),
            E::EventsTaken => self.found.events_taken = true,
            E::CallFn(f, _) if !self.seen_fns.contains(f) => {
                self.seen_fns.push(*f);
                let outer = std::mem::replace(&mut self.in_helper, true);
                let body_ok = self.prog.fns.get(*f as usize).is_some_and(|func| self.walk(&func.body));
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

    /// Walks with `slots` bound, as a loop binds its names for its body.
    fn binding(&mut self, slots: &[Option<Slot>], inner: impl FnOnce(&mut Self) -> bool) -> bool {
        let mark = self.bound.len();
        self.bound.extend(slots.iter().flatten());
        let ok = inner(self);
        self.bound.truncate(mark);
        ok
    }
}
