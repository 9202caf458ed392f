//! `PLACE = PLACE + LIST` and `PLACE = PLACE - LIST` changed where the list is.
//!
//! Rules write a hand or a trick as a list that a statement replaces with itself plus or
//! minus some items: `hand[p] = hand[p] - [c]`, `trick = trick + [entry]`. Evaluated as
//! written, the right side copies the list into a new one and the assignment drops the old.
//! Here the list is changed in place instead, with every charge of the statement as written:
//! the same fuel, at the same spans, in the same order, and the same errors. A statement that
//! is not of this form, or whose place does not hold a list, goes the general way, decided
//! before anything is evaluated or paid.

use super::eval::remove_each;
use super::{MAX_NESTING, Machine, Run};
use crate::lang::ast::BinOp;
use crate::program::value::{Value, lookup};
use crate::program::{E, S, Target, X};

/// The operands' evaluation nests this many levels below the statement: the operator, then
/// the read of the place. With this much room, neither can reach the nesting limit.
const ROOM: u32 = 3;

/// The right side of a statement run in place: a value evaluated, or the items of a list
/// written out, evaluated one by one into a list kept for the next statement.
enum Right {
    Made(Value),
    Written(Vec<Value>),
}

/// A statement to run in place: what it does, and where.
struct InPlace<'x> {
    op: BinOp,
    target: Target,
    /// The key of the entry it changes, when it changes an entry of a map.
    key: Option<Value>,
    /// The read of the place on the right side, and the list added or taken out.
    read: &'x X,
    right: &'x X,
    /// The whole right side.
    value: &'x X,
}

impl Machine<'_> {
    /// Runs `PLACE = PLACE + LIST` or `PLACE = PLACE - LIST` (a variable or local, or its
    /// entry under one key, read and written through the same key) where the place holds a
    /// list; `None`, with nothing evaluated or paid, where the general way must run it.
    pub(super) fn assign_in_place(
        &mut self,
        target: Target,
        path: &[X],
        value: &X,
        frame: &mut Vec<Value>,
        s: &S,
    ) -> Option<Run<()>> {
        let E::Binary(op @ (BinOp::Add | BinOp::Sub), read, right) = &value.e else { return None };
        let key = match (path, &read.e) {
            ([], _) if reads(read, target) => None,
            ([key], E::Index(base, same)) if reads(base, target) && same_leaf(key, same) => Some(key),
            _ => return None,
        };
        // An entry is read in place only from a map (`hand[p]`), as the general way reads it.
        let room = self.nesting + ROOM <= MAX_NESTING;
        match (self.slot(target, frame), key) {
            (Some(Value::Map(_)), Some(_)) | (Some(_), None) if room => {}
            _ => return None,
        }
        // A key is a local, constant or parameter: reading it changes nothing.
        let key = match key.map(|k| self.eval(k, frame)).transpose() {
            Ok(key) => key,
            Err(stop) => return Some(Err(stop)),
        };
        let statement = InPlace { op: *op, target, key, read, right, value };
        self.can_change(&statement, frame).then(|| self.run_in_place(&statement, frame, s))
    }

    /// Whether the place holds a list that can be changed where it is: the entry the
    /// assignment writes, and for `-`, one that taking items out leaves within the nesting
    /// limit (always so for a flat list, such as a hand of cards).
    fn can_change(&self, statement: &InPlace<'_>, frame: &[Value]) -> bool {
        let Some(root) = self.slot(statement.target, frame) else { return false };
        let (Some(place @ Value::List(items)), true) = entry(root, statement.key.as_ref()) else { return false };
        let depth = self.depth_below(statement);
        statement.op == BinOp::Add || (is_flat(items) && depth >= 1) || !place.deeper_than(depth)
    }

    /// How deep the assignment lets a new value nest, below its path's own level.
    fn depth_below(&self, statement: &InPlace<'_>) -> usize {
        self.limits.value_depth.saturating_sub(usize::from(statement.key.is_some()))
    }

    fn run_in_place(&mut self, statement: &InPlace<'_>, frame: &mut Vec<Value>, s: &S) -> Run<()> {
        // The operator's own level, as `eval` enters it.
        self.enter(&statement.value.span)?;
        let changed = match self.right_side(statement, frame) {
            Ok(Right::Made(Value::List(more))) => self.change(statement, &more, frame),
            // The place holds a list (`can_change`), and evaluating the right side changed no
            // variable: a right side that is not a list is the operator's error.
            Ok(Right::Made(other)) => Err(self.cannot_apply(statement.value, "list", other.type_name())),
            Ok(Right::Written(mut more)) => {
                let changed = self.change(statement, &more, frame);
                // Emptied now, as the list it stands for would be dropped: an item kept here
                // would share what the place holds.
                more.clear();
                self.spare_items = more;
                changed
            }
            Err(stop) => Err(stop),
        };
        self.nesting -= 1;
        // The assignment's own work: each key of the map compared with the key.
        self.burn_n(changed?, &s.span)
    }

    /// Pays for reading the place, as `hand[p]` pays (each key of the map compared with the
    /// key), then evaluates the right side.
    fn right_side(&mut self, statement: &InPlace<'_>, frame: &mut Vec<Value>) -> Run<Right> {
        if let Some(key) = &statement.key {
            self.enter(&statement.read.span)?;
            let entries = self.slot(statement.target, frame).map_or(0, entries);
            let per_key = key.weight(usize::try_from(self.fuel).unwrap_or(usize::MAX));
            let paid = self.burn_n(entries.saturating_mul(per_key), &statement.read.span);
            self.nesting -= 1;
            paid?;
        }
        match self.written_items(statement, frame) {
            Some(items) => items.map(Right::Written),
            None => self.operand(statement.right, frame).map(Right::Made),
        }
    }

    /// The items of a right side written as a list (`[c]`, `[{player: p, card: c}]`), each
    /// evaluated as `eval` evaluates the list, into a list kept for the next statement rather
    /// than one made and dropped; `None` for any other right side.
    fn written_items(&mut self, statement: &InPlace<'_>, frame: &mut Vec<Value>) -> Option<Run<Vec<Value>>> {
        let E::List(items) = &statement.right.e else { return None };
        Some(self.enter(&statement.right.span).and_then(|()| {
            let mut out = std::mem::take(&mut self.spare_items);
            out.clear();
            let made = items.iter().try_for_each(|item| {
                out.push(self.operand(item, frame)?);
                Ok(())
            });
            self.nesting -= 1;
            made.map(|()| out)
        }))
    }

    /// Pays what the operator pays, changes the list, and gives the assignment's work.
    fn change(&mut self, statement: &InPlace<'_>, more: &[Value], frame: &mut [Value]) -> Run<usize> {
        let value = statement.value;
        let (had, weight) = {
            let root = self.slot(statement.target, frame);
            let Some(list @ Value::List(items)) = root.and_then(|root| entry(root, statement.key.as_ref()).0) else {
                return Ok(0);
            };
            // Only `-` weighs the list it takes items from.
            let cap = usize::try_from(self.fuel).unwrap_or(usize::MAX);
            (items.len(), if statement.op == BinOp::Sub { list.weight(cap) } else { 0 })
        };
        if statement.op == BinOp::Add {
            self.size_ok(had + more.len(), value)?;
            self.burn_n(had + more.len(), &value.span)?;
        } else {
            self.burn_n(weight.saturating_mul(more.len().max(1)), &value.span)?;
        }
        let depth = self.depth_below(statement);
        let root = self.slot_mut(statement.target, frame);
        let entries = root.as_deref().map_or(0, entries);
        let place = root.and_then(|root| entry_mut(root, statement.key.as_ref()));
        if let Some(place) = place
            && !alter(place, statement.op, more, depth)
        {
            return Err(self.too_deep_value(&value.span));
        }
        self.note_change(statement.target);
        let per_key = statement.key.as_ref().map_or(1, |k| k.weight(usize::try_from(self.fuel).unwrap_or(usize::MAX)));
        Ok(entries.saturating_mul(per_key))
    }

    /// The variable or local an assignment writes, to change (`assign` finds it the same way).
    fn slot_mut<'a>(&'a mut self, target: Target, frame: &'a mut [Value]) -> Option<&'a mut Value> {
        match target {
            Target::Global(g) => self.globals.get_mut(g as usize),
            Target::Local(l) => frame.get_mut(l as usize),
        }
    }

    /// Counts a change of a variable, which the results remembered of what reads it wait for
    /// (as `assign` counts it).
    fn note_change(&mut self, target: Target) {
        if let Target::Global(g) = target
            && let Some(count) = self.versions.get_mut(g as usize)
        {
            *count = count.wrapping_add(1);
        }
    }

    /// The variable or local an assignment writes.
    fn slot<'a>(&'a self, target: Target, frame: &'a [Value]) -> Option<&'a Value> {
        match target {
            Target::Global(g) => self.globals.get(g as usize),
            Target::Local(l) => frame.get(l as usize),
        }
    }
}

/// Adds `more` to the list at `place` or takes its items out, as `+` and `-` would build the
/// new list. False, with the list as it was, where what `+` made nests deeper than `depth`
/// (the assignment refuses to store it); what `-` leaves was looked at before it ran.
fn alter(place: &mut Value, op: BinOp, more: &[Value], depth: usize) -> bool {
    let Value::List(list) = place else { return true };
    let Some(items) = unshared(list) else { return true };
    let had = items.len();
    if op == BinOp::Sub {
        remove_each(items, more);
        return true;
    }
    items.extend(more.iter().cloned());
    if !place.deeper_than(depth) {
        return true;
    }
    if let Value::List(list) = place
        && let Some(items) = unshared(list)
    {
        items.truncate(had);
    }
    false
}

/// Whether no item of a list is a list or map (a hand of cards): the list nests one level.
fn is_flat(items: &[Value]) -> bool {
    !items.iter().any(|v| matches!(v, Value::List(_) | Value::Map(_)))
}

/// How many entries a map has (none for anything else).
fn entries(root: &Value) -> usize {
    match root {
        Value::Map(m) => m.len(),
        _ => 0,
    }
}

/// Whether `x` reads the assignment's target itself.
fn reads(x: &X, target: Target) -> bool {
    match (&x.e, target) {
        (E::Global(a), Target::Global(b)) => *a == b,
        (E::Local(a), Target::Local(b)) => *a == b,
        _ => false,
    }
}

/// Whether two keys are the same local, constant or parameter: evaluating either gives the
/// same value, and costs nothing.
fn same_leaf(a: &X, b: &X) -> bool {
    match (&a.e, &b.e) {
        (E::Local(x), E::Local(y)) => x == y,
        (E::Param(x), E::Param(y)) => x == y,
        (E::Const(x), E::Const(y)) => x == y,
        _ => false,
    }
}

/// The place: the root itself, or its entry under `key` found the way `hand[p]` reads it
/// (`None` where it has none), and whether the assignment writes that same entry (not so only
/// in a map that holds a key twice, which the general way gets right).
fn entry<'a>(root: &'a Value, key: Option<&Value>) -> (Option<&'a Value>, bool) {
    let Some(key) = key else { return (Some(root), true) };
    let Value::Map(m) = root else { return (None, false) };
    // As `hand[p]` finds it: a seat at its own place first (`eval::seat_entry`), then by search.
    let at_seat = match key {
        Value::Player(seat) => m.get(usize::from(*seat)).filter(|(k, _)| k.same(key)).map(|(_, v)| v),
        _ => None,
    };
    let written = m.iter().find(|(k, _)| k.same(key)).map(|(_, v)| v);
    let read = at_seat.or_else(|| lookup(m, key));
    (read, matches!((read, written), (Some(r), Some(w)) if std::ptr::eq(r, w)))
}

/// The place, to change: found the way the assignment finds it.
fn entry_mut<'a>(root: &'a mut Value, key: Option<&Value>) -> Option<&'a mut Value> {
    let Some(key) = key else { return Some(root) };
    let Value::Map(m) = root else { return None };
    unshared(m)?.iter_mut().find(|(k, _)| k.same(key)).map(|(_, v)| v)
}

/// The items of a list or map, to change: copied first if anything else holds them (a saved
/// game, a local). Written out rather than `Rc::make_mut`, which the general way's `update`
/// has inlined only while few places call it.
fn unshared<T: Clone>(items: &mut std::rc::Rc<Vec<T>>) -> Option<&mut Vec<T>> {
    if std::rc::Rc::get_mut(items).is_none() {
        *items = std::rc::Rc::new(items.to_vec());
    }
    std::rc::Rc::get_mut(items)
}
