//! Constants folded once the program is checked: a string with nothing to fill in and an
//! empty list become constants, instead of a new text or list built at every evaluation
//! (`deck[p] == []`, `kind_of(x) == "map"`). Only folds that change nothing else are made:
//! the folded node is still entered once (the nesting count), and building either spends no
//! fuel.

use super::{Block, Branch, E, Part, Program, S, St, X};
use crate::program::value::Value;

/// Folds the constants of every expression of the program.
pub fn fold_constants(prog: &mut Program) {
    for var in &mut prog.vars {
        expr(&mut var.init);
    }
    for func in &mut prog.fns {
        expr(&mut func.body);
    }
    for proc_ in &mut prog.procs {
        block(&mut proc_.body);
    }
    for branch_ in &mut prog.always {
        branch(branch_);
    }
    for due in &mut prog.dues {
        expr(&mut due.cond);
    }
    expr(&mut prog.scores);
    expr(&mut prog.winners);
    block(&mut prog.flow);
}

fn block(b: &mut Block) {
    for s in b {
        statement(s);
    }
}

fn statement(s: &mut S) {
    match &mut s.s {
        St::Let(_, x) => expr(x),
        St::Require { cond, message, cost, .. } => {
            expr(cond);
            parts(message);
            block(cost);
        }
        St::If(c, a, b) => {
            expr(c);
            block(a);
            block(b);
        }
        St::For { coll, body, .. } => {
            expr(coll);
            block(body);
        }
        St::While(c, body) => {
            expr(c);
            block(body);
        }
        St::Loop(body) => block(body),
        St::Choose(c) => {
            c.branches.iter_mut().for_each(branch);
            if let Some(otherwise) = &mut c.otherwise {
                block(otherwise);
            }
            if let Some(x) = &mut c.optional_while {
                expr(x);
            }
        }
        St::Note(message) => parts(message),
        St::Assign { path, value, .. } => {
            path.iter_mut().for_each(expr);
            expr(value);
        }
        St::Call(_, args) => args.iter_mut().for_each(expr),
        St::Break | St::Continue | St::Again | St::Finish(_) | St::Settle | St::Open(_) => {}
    }
}

fn branch(b: &mut Branch) {
    expr(&mut b.actors);
    for x in [&mut b.guard, &mut b.choices].into_iter().flatten() {
        expr(x);
    }
    block(&mut b.checks);
    block(&mut b.effects);
}

fn parts(parts: &mut [Part]) {
    for p in parts {
        if let Part::Expr(x) = p {
            expr(x);
        }
    }
}

fn expr(x: &mut X) {
    x.children_mut().into_iter().for_each(expr);
    let folded = match &x.e {
        E::Template(ps) => ps
            .iter()
            .map(|p| match p {
                Part::Text(t) => Some(t.as_str()),
                Part::Expr(_) => None,
            })
            .collect::<Option<String>>()
            .map(|text| Value::str(&text)),
        E::List(items) if items.is_empty() => Some(Value::list(vec![])),
        _ => None,
    };
    if let Some(v) = folded {
        x.e = E::Const(v);
    }
}
