//! Whether the flow can run out without `finish`: a game whose flow ends without one is never
//! over (its winners are never read, and every later event is unexpected), which is almost
//! always a forgotten `finish` rather than what the author meant.
//!
//! The question is asked of the text, not of games: a way through the flow on which no
//! `finish` runs. Two readings keep it to what authors write. A loop counts as finishing when
//! its body can finish (`while not over() { ... if over() { finish } }` loops until the game
//! ends), and a loop with no `break` never comes out. What a `due` step or an `always` action
//! does counts only where the flow waits or settles, and only as "can finish".

use crate::codes;
use crate::diag::{Diag, Level};
use crate::program::{Block, Program, St};
use crate::span::Span;

/// The warning for a flow that can end without `finish`, if it can.
pub(super) fn flow_can_end_unfinished(prog: &Program) -> Option<Diag> {
    let mut walk = Walk::new(prog);
    let gap = walk.gap(&prog.flow)?;
    let end = prog.flow.last().map(|s| s.span.clone()).unwrap_or_default();
    let mut d = Diag::new(codes::NO_FINISH, "the flow can end without `finish`, and then the game is never over")
        .label(gap.at, gap.why)
        .help("add `finish` where the game is over (at the end of the flow, or in each branch that ends it)");
    if !d.labels.iter().any(|(span, _)| *span == end) {
        d = d.label(end, "the flow ends after this");
    }
    d.level = Level::Warning;
    Some(prog.source.place(d))
}

/// A way through a block on which no `finish` runs: the statement it goes past and why.
struct Gap {
    at: Span,
    why: &'static str,
}

/// What is known of each procedure, filled in as the walk reaches its calls.
#[derive(Clone, Copy, PartialEq)]
enum Known {
    Unknown,
    /// Being walked: a call to it from inside itself is taken to finish (the outer call
    /// decides).
    Walking,
    Done(bool),
}

struct Walk<'p> {
    prog: &'p Program,
    /// Per procedure: whether every way through it finishes.
    always: Vec<Known>,
    /// Per procedure: whether some way through it finishes.
    sometimes: Vec<Known>,
    /// Whether a `due` step or an `always` action can finish, once worked out.
    outside_flow: Option<bool>,
}

impl<'p> Walk<'p> {
    fn new(prog: &'p Program) -> Self {
        let n = prog.procs.len();
        Walk { prog, always: vec![Known::Unknown; n], sometimes: vec![Known::Unknown; n], outside_flow: None }
    }

    /// The first way through `block` on which no `finish` runs, if there is one.
    fn gap(&mut self, block: &'p Block) -> Option<Gap> {
        let mut last = None;
        for s in block {
            match self.statement_gap(&s.s, &s.span) {
                None => return None,
                Some(gap) => last = Some(gap),
            }
        }
        Some(last.unwrap_or(Gap { at: 0..0, why: "nothing here finishes" }))
    }

    /// How a way through one statement goes on without `finish`, or `None` when every way
    /// through it finishes (or none comes out of it).
    fn statement_gap(&mut self, s: &'p St, at: &Span) -> Option<Gap> {
        let gap = |why| Some(Gap { at: at.clone(), why });
        match s {
            St::Finish(_) => None,
            // These leave the block before its end: that way through does not reach it.
            St::Break | St::Continue | St::Again => None,
            St::If(_, yes, no) => {
                let no_gap = self.gap(no);
                let yes_gap = self.gap(yes);
                match (yes_gap, no_gap) {
                    (None, None) => None,
                    (_, Some(_)) if no.is_empty() => gap("when this does not hold, nothing here finishes"),
                    (Some(g), _) | (None, Some(g)) => Some(g),
                }
            }
            St::While(_, body) | St::For { body, .. } => {
                if self.can_finish(body) {
                    None
                } else {
                    gap("this loop ends without `finish`")
                }
            }
            St::Loop(body) => {
                if !breaks_out(body) || self.can_finish(body) {
                    None
                } else {
                    gap("this loop ends without `finish`")
                }
            }
            St::Choose(c) => {
                let mut ways = c.branches.iter().map(|b| &b.effects).chain(c.otherwise.iter());
                if ways.any(|w| self.gap(w).is_some()) {
                    gap("an action taken here goes on without `finish`")
                } else {
                    None
                }
            }
            St::Call(p, _) => {
                if self.always_finishes(*p) {
                    None
                } else {
                    gap("this goes on without `finish`")
                }
            }
            _ => gap("nothing after this finishes"),
        }
    }

    fn always_finishes(&mut self, p: u16) -> bool {
        let i = usize::from(p);
        match self.always.get(i).copied() {
            Some(Known::Done(known)) => known,
            Some(Known::Walking) => true,
            Some(Known::Unknown) => {
                self.always[i] = Known::Walking;
                let prog = self.prog;
                let finishes = self.gap(&prog.procs[i].body).is_none();
                self.always[i] = Known::Done(finishes);
                finishes
            }
            None => false,
        }
    }

    /// Whether some way through `block` runs `finish`.
    fn can_finish(&mut self, block: &'p Block) -> bool {
        block.iter().any(|s| self.statement_can_finish(&s.s))
    }

    fn statement_can_finish(&mut self, s: &'p St) -> bool {
        match s {
            St::Finish(_) => true,
            St::If(_, yes, no) => self.can_finish(yes) || self.can_finish(no),
            St::While(_, body) | St::For { body, .. } | St::Loop(body) => self.can_finish(body),
            St::Choose(c) => {
                // A check's cost (a move let stand) runs among the checks.
                let mut ways = c.branches.iter().flat_map(|b| [&b.checks, &b.effects]).chain(c.otherwise.iter());
                ways.any(|w| self.can_finish(w)) || self.outside_flow_can_finish()
            }
            St::Settle => self.outside_flow_can_finish(),
            St::Require { cost, .. } => self.can_finish(cost),
            St::Call(p, _) => self.sometimes_finishes(*p),
            _ => false,
        }
    }

    fn sometimes_finishes(&mut self, p: u16) -> bool {
        let i = usize::from(p);
        match self.sometimes.get(i).copied() {
            Some(Known::Done(known)) => known,
            Some(Known::Walking) | None => false,
            Some(Known::Unknown) => {
                self.sometimes[i] = Known::Walking;
                let prog = self.prog;
                let finishes = self.can_finish(&prog.procs[i].body);
                self.sometimes[i] = Known::Done(finishes);
                finishes
            }
        }
    }

    /// Whether a `due` step or an `always` action can finish: either may run while the flow
    /// waits for an event.
    fn outside_flow_can_finish(&mut self) -> bool {
        if let Some(known) = self.outside_flow {
            return known;
        }
        // Asked again from inside a due step's own body: not by this way.
        self.outside_flow = Some(false);
        let prog = self.prog;
        let finishes = prog.dues.iter().any(|d| self.sometimes_finishes(d.proc_))
            || prog.always.iter().any(|b| self.can_finish(&b.checks) || self.can_finish(&b.effects));
        self.outside_flow = Some(finishes);
        finishes
    }
}

/// Whether a `break` of this loop (not of a loop inside it) can run.
fn breaks_out(body: &Block) -> bool {
    body.iter().any(|s| match &s.s {
        St::Break => true,
        St::If(_, yes, no) => breaks_out(yes) || breaks_out(no),
        St::Choose(c) => {
            c.branches.iter().any(|b| breaks_out(&b.effects)) || c.otherwise.as_ref().is_some_and(breaks_out)
        }
        _ => false,
    })
}
