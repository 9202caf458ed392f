//! Conditions remembered between waiting points: a `due` condition or an `always` guard
//! whose variables (and `events_taken`, where it reads it) are as they were last time has the
//! value it had, and costs the fuel it cost; that fuel is burnt again without evaluating.

use super::{Machine, Run};
use crate::program::X;
use crate::program::value::Value;

/// A condition's last value, with what it read and what evaluating it took.
#[derive(Clone)]
pub(super) struct Memo {
    /// The assignment count of each variable it reads, in the order of its `Reads`.
    counts: Vec<u32>,
    /// `events_taken` then, for a condition that reads it (0 for one that does not, which
    /// holds across events).
    taken: usize,
    value: bool,
    fuel: u64,
    /// How deep evaluation already was (and helper calls were) when it was evaluated: from
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
        let taken_now = if reads.events_taken { self.taken } else { 0 };
        if let Some(Some(memo)) = self.memos.get(at)
            && memo.taken == taken_now
            && self.nesting <= memo.nesting
            && self.depth <= memo.depth
            && self.fuel >= memo.fuel
            && reads.globals.iter().zip(&memo.counts).all(|(g, n)| self.versions.get(*g as usize) == Some(n))
        {
            self.fuel -= memo.fuel;
            self.remembered += 1;
            return Ok(memo.value);
        }
        let (fuel, nesting, depth) = (self.fuel, self.nesting, self.depth);
        let value = self.truth(x, frame)?;
        let Some(slot) = self.memos.get_mut(at) else { return Ok(value) };
        // The counts are written over the last ones' storage: a condition that reads
        // `events_taken` is evaluated again at every event.
        let mut counts = slot.take().map(|m| m.counts).unwrap_or_default();
        counts.clear();
        counts.extend(reads.globals.iter().map(|g| self.versions.get(*g as usize).copied().unwrap_or(0)));
        *slot = Some(Memo { counts, taken: taken_now, value, fuel: fuel - self.fuel, nesting, depth });
        Ok(value)
    }
}
