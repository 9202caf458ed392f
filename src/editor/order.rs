//! Whether a branch checks its rules in the order they are declared. An event is judged by a
//! branch's checks in the order they are written, and the first that fails is the rule
//! reported; the rule ids are declared in the order the game's rules document lists them,
//! which is the order a verdict promises. A check of an earlier rule written after a check of
//! a later one breaks that promise for an event that breaks both.

use crate::codes;
use crate::diag::{Diag, Level};
use crate::program::{Block, Program, S, St};

/// A warning at each branch whose checks name a rule after one declared later than it.
pub(super) fn out_of_order(prog: &Program) -> Vec<Diag> {
    prog.branches().into_iter().filter_map(|b| first_out_of_order(prog, &b.checks)).collect()
}

/// The first check of a block (in the order written, loops and both arms of an `if` read
/// through) whose rule is declared before the rule of a check above it.
fn first_out_of_order(prog: &Program, checks: &Block) -> Option<Diag> {
    let mut written = vec![];
    requires_in(checks, &mut written);
    // The check of the latest-declared rule so far.
    let mut latest: Option<(u16, &S)> = None;
    for (rule, s) in written {
        match latest {
            Some((top, above)) if top > rule => return Some(warning(prog, (top, above), (rule, s))),
            Some((top, _)) if top == rule => {}
            _ => latest = Some((rule, s)),
        }
    }
    None
}

/// Every `require` of a block and the blocks inside it, with its rule, in the order written.
fn requires_in<'p>(block: &'p Block, out: &mut Vec<(u16, &'p S)>) {
    for s in block {
        match &s.s {
            St::Require { rule, .. } => out.push((*rule, s)),
            _ => {
                for inner in s.blocks() {
                    requires_in(inner, out);
                }
            }
        }
    }
}

fn warning(prog: &Program, (later, above): (u16, &S), (earlier, below): (u16, &S)) -> Diag {
    let id = |rule: u16| prog.rules.get(usize::from(rule)).map_or("", |r| r.id.as_str()).to_string();
    let (first, second) = (id(later), id(earlier));
    let d = Diag::new(
        codes::RULE_ORDER,
        format!(
            "`{second}` is declared before `{first}` but checked after it: an event that breaks both is reported as `{first}`"
        ),
    )
    .label(prog.source.first_line(&below.span), format!("`{second}` is checked here"))
    .label(prog.source.first_line(&above.span), format!("after `{first}`"))
    .help(format!(
        "a branch's checks are judged in the order they are written: move this check above the check of `{first}`, \
         or declare `{second}` after `{first}`"
    ));
    prog.source.place(Diag { level: Level::Warning, ..d })
}
