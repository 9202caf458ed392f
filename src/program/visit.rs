//! The expressions and branches of a program, each handed to a pass that changes them once the
//! program is checked (`fold`, `memo`). A pass is given the outermost expressions; what is
//! inside them is its own to walk.

use super::{Block, Branch, Part, Program, S, St, X};

/// A pass over a program: what it does with each outermost expression, and with each branch.
pub trait Visitor {
    fn expression(&mut self, x: &mut X);

    /// A branch, before its expressions are handed to `expression`.
    fn branch(&mut self, _b: &mut Branch) {}
}

/// A pass that only changes expressions.
impl<F: FnMut(&mut X)> Visitor for F {
    fn expression(&mut self, x: &mut X) {
        self(x)
    }
}

/// Every expression of the program: its variables' starting values, helpers, `due`
/// conditions, scores and winners, then those of `in_statements`.
pub fn every_expression(prog: &mut Program, f: &mut impl Visitor) {
    for var in &mut prog.vars {
        f.expression(&mut var.init);
    }
    for func in &mut prog.fns {
        f.expression(&mut func.body);
    }
    for due in &mut prog.dues {
        f.expression(&mut due.cond);
    }
    f.expression(&mut prog.scores);
    f.expression(&mut prog.winners);
    in_statements(prog, f);
}

/// The expressions of the statements and branches: of procedures, `always` branches and the
/// flow.
pub fn in_statements(prog: &mut Program, f: &mut impl Visitor) {
    for proc_ in &mut prog.procs {
        block(&mut proc_.body, f);
    }
    for branch_ in &mut prog.always {
        branch(branch_, f);
    }
    block(&mut prog.flow, f);
}

pub fn block(b: &mut Block, f: &mut impl Visitor) {
    for s in b {
        statement(s, f);
    }
}

fn statement(s: &mut S, f: &mut impl Visitor) {
    match &mut s.s {
        St::Let(_, x) => f.expression(x),
        St::Require { cond, message, cost, .. } => {
            f.expression(cond);
            parts(message, f);
            block(cost, f);
        }
        St::If(c, a, b) => {
            f.expression(c);
            block(a, f);
            block(b, f);
        }
        St::For { coll, body, .. } => {
            f.expression(coll);
            block(body, f);
        }
        St::While(c, body) => {
            f.expression(c);
            block(body, f);
        }
        St::Loop(body) => block(body, f),
        St::Choose(c) => {
            c.branches.iter_mut().for_each(|b| branch(b, f));
            if let Some(otherwise) = &mut c.otherwise {
                block(otherwise, f);
            }
            if let Some(x) = &mut c.optional_while {
                f.expression(x);
            }
        }
        St::Note(message) => parts(message, f),
        St::Assign { path, value, .. } => {
            path.iter_mut().for_each(|x| f.expression(x));
            f.expression(value);
        }
        St::Call(_, args) => args.iter_mut().for_each(|x| f.expression(x)),
        St::Break | St::Continue | St::Again | St::Finish(_) | St::Settle | St::Open(_) => {}
    }
}

fn branch(b: &mut Branch, f: &mut impl Visitor) {
    f.branch(b);
    f.expression(&mut b.actors);
    for x in [&mut b.guard, &mut b.choices].into_iter().flatten() {
        f.expression(x);
    }
    block(&mut b.checks, f);
    block(&mut b.effects, f);
}

fn parts(parts: &mut [Part], f: &mut impl Visitor) {
    for p in parts {
        if let Part::Expr(x) = p {
            f.expression(x);
        }
    }
}
