//! Values remembered between evaluations: a `due` condition, an `always` guard or a call of a
//! helper without arguments whose variables (and `events_taken`, where it reads it) are as
//! they were last time has the value it had, and costs the fuel it cost; that fuel is burnt
//! again without evaluating.

use super::{Machine, Run};
use crate::program::memo::Reads;
use crate::program::value::Value;
use crate::program::{Func, X};

/// A value as it was last worked out, with what it read and what working it out took.
#[derive(Clone)]
pub(super) struct Memo<T> {
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

impl Machine<'_> {
    /// `truth`, remembered at place `at` (the `due` conditions, then the `always` guards).
    pub(super) fn truth_remembered(&mut self, at: usize, x: &X, frame: &mut Vec<Value>) -> Run<bool> {
        let prog = self.prog;
        let dues = prog.remembered.dues.len();
        let reads = if at < dues { prog.remembered.dues.get(at) } else { prog.remembered.guards.get(at - dues) };
        let Some(Some(reads)) = reads else { return self.truth(x, frame) };
        let mut memo = self.memos.get_mut(at).and_then(Option::take);
        let value = self.recall_or(reads, &mut memo, |m| m.truth(x, frame));
        if let Some(slot) = self.memos.get_mut(at) {
            *slot = memo;
        }
        if value.as_ref().is_ok_and(|(_, recalled)| *recalled) {
            self.remembered += 1;
        }
        value.map(|(v, _)| v)
    }

    /// A call of helper `f` without arguments, remembered when the helper may be: its body
    /// run in a frame of its own.
    pub(super) fn call_remembered(&mut self, f: u16, func: &Func) -> Run<Value> {
        let prog = self.prog;
        let Some(Some(reads)) = prog.remembered.helpers.get(f as usize) else { return self.call_body(func) };
        let mut memo = self.helper_memos.get_mut(f as usize).and_then(Option::take);
        let value = self.recall_or(reads, &mut memo, |m| m.call_body(func));
        if let Some(slot) = self.helper_memos.get_mut(f as usize) {
            *slot = memo;
        }
        if value.as_ref().is_ok_and(|(_, recalled)| *recalled) {
            self.calls_remembered += 1;
        }
        value.map(|(v, _)| v)
    }

    fn call_body(&mut self, func: &Func) -> Run<Value> {
        self.with_args(func.locals, &[], &mut vec![], |m, inner| m.eval(&func.body, inner))
    }

    /// The remembered value when what it read is unchanged (its fuel burnt again), else the
    /// value `work` gives, remembered in `memo`; and whether it was remembered.
    fn recall_or<T: Clone>(
        &mut self,
        reads: &Reads,
        memo: &mut Option<Memo<T>>,
        work: impl FnOnce(&mut Self) -> Run<T>,
    ) -> Run<(T, bool)> {
        let taken_now = if reads.events_taken { self.taken } else { 0 };
        if let Some(memo) = memo
            && memo.taken == taken_now
            && self.nesting <= memo.nesting
            && self.depth <= memo.depth
            && self.fuel >= memo.fuel
            && reads.globals.iter().zip(&memo.counts).all(|(g, n)| self.versions.get(*g as usize) == Some(n))
        {
            self.fuel -= memo.fuel;
            return Ok((memo.value.clone(), true));
        }
        let (fuel, nesting, depth) = (self.fuel, self.nesting, self.depth);
        let value = work(self)?;
        // The counts are written over the last ones' storage: a value that reads
        // `events_taken` is worked out again at every event.
        let mut counts = memo.take().map(|m| m.counts).unwrap_or_default();
        counts.clear();
        counts.extend(reads.globals.iter().map(|g| self.versions.get(*g as usize).copied().unwrap_or(0)));
        let fuel = fuel - self.fuel;
        *memo = Some(Memo { counts, taken: taken_now, value: value.clone(), fuel, nesting, depth });
        Ok((value, false))
    }
}
