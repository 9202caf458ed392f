//! Values remembered between evaluations: a `due` condition, an `always` guard, a call of a
//! helper (with the same arguments as its last call) or a quantifier (with the same locals
//! around it) whose variables (and `events_taken`, where it reads it) are as they were last
//! time has the value it had, and costs the fuel it cost; that fuel is burnt again without
//! evaluating.

use std::rc::Rc;

use super::{Machine, Run};
use crate::program::memo::Reads;
use crate::program::value::Value;
use crate::program::{Func, Slot, X};

/// A value as it was last worked out, with what it read and what working it out took.
#[derive(Clone)]
pub(super) struct Memo<T> {
    /// The arguments of a helper call it is the value of (none for a condition).
    args: Vec<Value>,
    /// The assignment count of each variable it reads, in the order of its `Reads`.
    counts: Vec<u32>,
    /// `events_taken` then, for a value that reads it (0 for one that does not, which holds
    /// across events).
    taken: usize,
    value: T,
    fuel: u64,
    /// How deep evaluation already was (and helper calls were) when it was worked out: from
    /// no deeper, it cannot reach a limit it did not reach then.
    nesting: u32,
    depth: u32,
}

/// What one game worked out that holds for every game of the same rules, players and
/// parameters: the last calls of its helpers that read no variable
/// (`fn deck() = [c for c in Drink where c.rank <= max_rank]`), each with the fuel it cost (one
/// that reads `events_taken` holds where as many events have been taken, which its memory
/// checks). The next such game starts with them (`Machine::carry_in`), and works them out no
/// more.
#[derive(Clone)]
pub struct Carried {
    players: Rc<[String]>,
    params: Vec<Value>,
    helper_memos: Vec<Option<Memo<Value>>>,
}

impl Machine<'_> {
    /// What this game worked out that the next game of the same rules, players and parameters
    /// may start with.
    pub fn carried(&self) -> Carried {
        let helpers = &self.prog.remembered.helpers;
        let constant = |f: usize| matches!(helpers.get(f), Some(Some(r)) if r.globals.is_empty());
        let helper_memos =
            self.helper_memos.iter().enumerate().map(|(f, memo)| memo.clone().filter(|_| constant(f))).collect();
        Carried { players: self.players.clone(), params: self.params.clone(), helper_memos }
    }

    /// Starts, before it runs, with what an earlier game carried, where that game had these
    /// players and parameters; the caller makes sure it had these rules too (the same program,
    /// kept alive, so that its address is not another's).
    pub fn carry_in(&mut self, carried: Carried) {
        let same_game = carried.players == self.players
            && carried.params == self.params
            && carried.helper_memos.len() == self.helper_memos.len();
        if same_game {
            self.helper_memos = carried.helper_memos;
        }
    }

    /// `truth`, remembered at place `at` (the `due` conditions, then the `always` guards).
    pub(super) fn truth_remembered(&mut self, at: usize, x: &X, frame: &mut Vec<Value>) -> Run<bool> {
        let prog = self.prog;
        let dues = prog.remembered.dues.len();
        let reads = if at < dues { prog.remembered.dues.get(at) } else { prog.remembered.guards.get(at - dues) };
        let Some(Some(reads)) = reads else { return self.truth(x, frame) };
        let mut memo = self.memos.get_mut(at).and_then(Option::take);
        let value = match self.recalled(reads, [].iter(), &memo) {
            Some(value) => {
                self.remembered += 1;
                Ok(value)
            }
            None => {
                let before = self.marks();
                let value = self.truth(x, frame);
                if let Ok(v) = &value {
                    self.remember(reads, [].iter(), &mut memo, *v, before);
                }
                value
            }
        };
        if let Some(slot) = self.memos.get_mut(at) {
            *slot = memo;
        }
        value
    }

    /// A call of helper `f` with these arguments, remembered when the helper may be: the
    /// arguments are evaluated as for any call, and the body is run in a frame of its own
    /// only when they, or what the body reads, differ from the last call's.
    pub(super) fn call_remembered(&mut self, f: u16, func: &Func, args: &[X], frame: &mut Vec<Value>) -> Run<Value> {
        let prog = self.prog;
        let Some(Some(reads)) = prog.remembered.helpers.get(f as usize) else {
            return self.with_args(func.locals, args, frame, |m, inner| m.eval(&func.body, inner));
        };
        let mut inner = self.frame_of_args(func.locals, args, frame)?;
        let given = args.len().min(inner.len());
        let mut memo = self.helper_memos.get_mut(f as usize).and_then(Option::take);
        let value = match self.recalled(reads, inner[..given].iter(), &memo) {
            Some(value) => {
                self.calls_remembered += 1;
                Ok(value)
            }
            None => {
                let before = self.marks();
                self.depth += 1;
                let value = self.eval(&func.body, &mut inner);
                self.depth -= 1;
                if let Ok(v) = &value {
                    self.remember(reads, inner[..given].iter(), &mut memo, v.clone(), before);
                }
                value
            }
        };
        if let Some(slot) = self.helper_memos.get_mut(f as usize) {
            *slot = memo;
        }
        self.give_frame(inner);
        value
    }

    /// A quantifier numbered `at` (`program::memo::Quantified`), remembered with the values of
    /// the locals it reads from around it; `evaluate` works it out.
    pub(super) fn quantifier_remembered(
        &mut self,
        at: u16,
        evaluate: impl FnOnce(&mut Self, &mut Vec<Value>) -> Run<Value>,
        frame: &mut Vec<Value>,
    ) -> Run<Value> {
        let prog = self.prog;
        let Some(quantified) = prog.remembered.quantifiers.get(usize::from(at)) else { return evaluate(self, frame) };
        let place = prog.dues.len() + prog.always.len() + usize::from(at);
        let mut memo = self.memos.get_mut(place).and_then(Option::take);
        let value = match self.recalled(&quantified.reads, values_of(&quantified.locals, frame), &memo) {
            Some(value) => {
                self.remembered += 1;
                Ok(Value::Bool(value))
            }
            None => {
                let before = self.marks();
                let value = evaluate(self, frame);
                if let Ok(Value::Bool(v)) = &value {
                    self.remember(&quantified.reads, values_of(&quantified.locals, frame), &mut memo, *v, before);
                }
                value
            }
        };
        if let Some(slot) = self.memos.get_mut(place) {
            *slot = memo;
        }
        value
    }

    /// The fuel left, the nesting and the call depth, before a value is worked out.
    fn marks(&self) -> (u64, u32, u32) {
        (self.fuel, self.nesting, self.depth)
    }

    /// The remembered value, its fuel burnt again, when it was worked out for these arguments
    /// and what it read is unchanged since.
    fn recalled<'v, T: Clone>(
        &mut self,
        reads: &Reads,
        args: impl ExactSizeIterator<Item = &'v Value>,
        memo: &Option<Memo<T>>,
    ) -> Option<T> {
        let memo = memo.as_ref()?;
        let taken_now = if reads.events_taken { self.taken } else { 0 };
        let unchanged = memo.taken == taken_now
            && self.nesting <= memo.nesting
            && self.depth <= memo.depth
            && self.fuel >= memo.fuel
            && reads.globals.iter().zip(&memo.counts).all(|(g, n)| self.versions.get(*g as usize) == Some(n))
            && memo.args.len() == args.len()
            && memo.args.iter().zip(args).all(|(a, b)| a.same(b));
        if !unchanged {
            return None;
        }
        self.fuel -= memo.fuel;
        Some(memo.value.clone())
    }

    /// Keeps `value` in `memo`, with what it read now and what working it out took since
    /// `before` (the last memo's storage is written over).
    fn remember<'v, T>(
        &self,
        reads: &Reads,
        args: impl Iterator<Item = &'v Value>,
        memo: &mut Option<Memo<T>>,
        value: T,
        before: (u64, u32, u32),
    ) {
        let (fuel, nesting, depth) = before;
        let (mut kept_args, mut counts) = memo.take().map(|m| (m.args, m.counts)).unwrap_or_default();
        kept_args.clear();
        kept_args.extend(args.cloned());
        counts.clear();
        counts.extend(reads.globals.iter().map(|g| self.versions.get(*g as usize).copied().unwrap_or(0)));
        let taken = if reads.events_taken { self.taken } else { 0 };
        let fuel = fuel - self.fuel;
        *memo = Some(Memo { args: kept_args, counts, taken, value, fuel, nesting, depth });
    }
}

/// The values of these locals in a frame (null where the frame does not reach one, as a read
/// of it gives).
fn values_of<'f>(slots: &'f [Slot], frame: &'f [Value]) -> impl ExactSizeIterator<Item = &'f Value> {
    const NULL: &Value = &Value::Null;
    slots.iter().map(|s| frame.get(usize::from(*s)).unwrap_or(NULL))
}
