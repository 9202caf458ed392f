//! Constants folded once the program is checked: a string with nothing to fill in and an
//! empty list become constants, instead of a new text or list built at every evaluation
//! (`deck[p] == []`, `kind_of(x) == "map"`). Only folds that change nothing else are made:
//! the folded node is still entered once (the nesting count), and building either spends no
//! fuel.

use super::{E, Part, Program, X};
use crate::program::value::Value;

/// Folds the constants of every expression of the program.
pub fn fold_constants(prog: &mut Program) {
    super::visit::every_expression(prog, &mut expr);
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
