//! Expressions and built-in functions.

use std::collections::HashMap;
use std::rc::Rc;

use super::{MAX_NESTING, Machine, Run, Stop};
use crate::lang::ast::BinOp;
use crate::program::builtins::{Builtin, Cost, MAX_COMBINED, MAX_COUNT, MAX_PERMUTED, MAX_RANGE, MAX_SUBSET_ITEMS};
use crate::program::value::{Value, lookup};
use crate::program::{E, Part, X};

impl Machine<'_> {
    /// Evaluates an expression. Fuel is spent where work can repeat (calls, and each item of
    /// a comprehension, quantifier or keyed built-in), so every runaway is still stopped.
    pub(super) fn eval(&mut self, x: &X, frame: &mut Vec<Value>) -> Run<Value> {
        // An expression with a quick form runs it, unless it gives up (`run/fast.rs`).
        if let Some(quick) = &x.quick {
            #[cfg(test)]
            if super::fast::verifying() {
                return self.quickly_beside_the_walk(quick, x, frame);
            }
            if let Some(v) = self.quickly(quick, frame) {
                return Ok(v);
            }
        }
        self.enter(&x.span)?;
        let out = self.eval_node(x, frame);
        self.nesting -= 1;
        out
    }

    /// `eval` for an operand: a local, a constant, a variable or `players` is read here,
    /// without the entry and exit of `eval`, where nothing can fail. The nesting limit, which a
    /// leaf one level down would reach, and a variable read before it is set are left to
    /// `eval` to report, in its words.
    #[inline(always)]
    pub(super) fn operand(&mut self, x: &X, frame: &mut Vec<Value>) -> Run<Value> {
        if self.nesting < MAX_NESTING {
            match &x.e {
                E::Local(s) => return Ok(frame.get(*s as usize).cloned().unwrap_or(Value::Null)),
                E::Const(v) => return Ok(v.clone()),
                E::Players => return Ok(self.seat_list.clone()),
                E::Global(g) => {
                    if let Some(v) = self.globals.get(*g as usize) {
                        return Ok(v.clone());
                    }
                }
                _ => {}
            }
        }
        self.eval(x, frame)
    }

    pub(super) fn eval_node(&mut self, x: &X, frame: &mut Vec<Value>) -> Run<Value> {
        match &x.e {
            E::Const(v) => Ok(v.clone()),
            E::Local(s) => Ok(frame.get(*s as usize).cloned().unwrap_or(Value::Null)),
            E::Global(g) => match self.globals.get(*g as usize) {
                Some(v) => Ok(v.clone()),
                None => Err(self.read_before_set(x, "state read before it is set")),
            },
            E::Param(p) => match self.params.get(*p as usize) {
                Some(v) => Ok(v.clone()),
                None => Err(self.read_before_set(x, "a parameter is read before it is set")),
            },
            E::Players => Ok(self.seat_list.clone()),
            E::EventsTaken => Ok(Value::Int(self.taken as i64)),
            E::AllCards(k) => Ok(self.cards_of_kind(*k)),
            E::CardCode(k, code) => self.card_by_code(*k, code, x),
            E::AllVariants(e) => Ok(self.all_variants(*e)),
            E::Template(parts) => self.template_value(parts, frame),
            E::List(items) => self.list_of(items, frame),
            E::Record(fields) => self.record_of(fields, frame),
            E::Comprehension { .. } => self.comprehension(x, frame),
            E::Quantifier { all, slot, coll, body, memo: Some(at) } if self.trying => {
                self.quantifier_remembered(*at, |m, frame| m.quantifier(*all, *slot, coll, body, frame), frame)
            }
            E::Quantifier { all, slot, coll, body, .. } => self.quantifier(*all, *slot, coll, body, frame),
            E::Let { slot, value, body } => self.let_in(*slot, value, body, frame),
            E::If(c, a, b) => {
                if self.truth(c, frame)? {
                    self.eval(a, frame)
                } else {
                    self.eval(b, frame)
                }
            }
            E::Not(a) => Ok(Value::Bool(!self.truth(a, frame)?)),
            E::Neg(a) => {
                let i = self.int(a, frame)?;
                i.checked_neg().map(Value::Int).ok_or_else(|| self.overflow(x))
            }
            E::Binary(op, a, b) => self.binary(*op, a, b, frame, x),
            E::Index(a, i) => self.index_of(a, i, frame, x),
            E::Slice(a, lo, hi) => self.slice(a, lo.as_deref(), hi.as_deref(), frame),
            E::Field(a, f, sym) => self.field_of_expr(a, f, *sym, frame, x),
            E::CallFn(f, args) => self.call_fn(*f, args, frame, x),
            E::Builtin(b, args) => self.builtin(*b, args, frame, x),
            E::Lambda(..) => Err(self.spec_error(&x.span, "a lambda is only an argument".into())),
        }
    }

    // The work of each kind of expression, out of line: `eval` is entered for every node of
    // every expression, and inlined work would make every entry save and restore as many
    // registers as the largest of them needs.

    #[cold]
    fn read_before_set(&self, x: &X, message: &str) -> Stop {
        self.spec_error(&x.span, message.into())
    }

    #[inline(never)]
    fn all_variants(&self, e: u16) -> Value {
        Value::list((0..self.prog.enums[e as usize].variants.len()).map(|v| Value::Enum(e, v as u16)).collect())
    }

    #[inline(never)]
    fn template_value(&mut self, parts: &[Part], frame: &mut Vec<Value>) -> Run<Value> {
        Ok(Value::str(&self.template(parts, frame)?))
    }

    // A list or record written out has as many items as its text: made at that size, rather
    // than collected through `Result`, which knows no size and grows the list at its first item.
    #[inline(never)]
    fn list_of(&mut self, items: &[X], frame: &mut Vec<Value>) -> Run<Value> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            out.push(self.operand(item, frame)?);
        }
        Ok(Value::list(out))
    }

    #[inline(never)]
    fn record_of(&mut self, fields: &[(Value, X)], frame: &mut Vec<Value>) -> Run<Value> {
        let mut out = Vec::with_capacity(fields.len());
        for (name, field) in fields {
            out.push((name.clone(), self.operand(field, frame)?));
        }
        Ok(Value::map(out))
    }

    #[inline(never)]
    fn comprehension(&mut self, x: &X, frame: &mut Vec<Value>) -> Run<Value> {
        let mut out = vec![];
        self.comprehension_into(x, frame, &mut out)?;
        Ok(Value::list(out))
    }

    #[inline(never)]
    fn index_of(&mut self, a: &X, i: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        // A local or variable that is a map is read where it is (`hand[p]`), without a copy of
        // the map. It is read after the key instead of before: evaluating the key changes no
        // variable and no local in scope, and reading a map there can neither fail nor burn.
        if self.nesting < MAX_NESTING && matches!(self.leaf(a, frame), Some(Value::Map(_))) {
            let key = self.operand(i, frame)?;
            if let Some(Value::Map(m)) = self.leaf(a, frame) {
                let per_key = key.weight(usize::try_from(self.fuel).unwrap_or(usize::MAX));
                let work = m.len().saturating_mul(per_key);
                let found = seat_entry(m, &key).or_else(|| lookup(m, &key)).map_or(Value::Null, Value::clone);
                self.burn_n(work, &x.span)?;
                return Ok(found);
            }
        }
        let base = self.operand(a, frame)?;
        let key = self.operand(i, frame)?;
        self.index(&base, &key, x)
    }

    #[inline(never)]
    fn field_of_expr(&mut self, a: &X, f: &Value, sym: u16, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        // A card's attribute or a record's field read where the card or record is.
        if self.nesting < MAX_NESTING {
            match self.leaf(a, frame) {
                Some(Value::Card(c)) => {
                    if let Some(v) = self.card_attribute(*c, sym) {
                        return Ok(v);
                    }
                }
                Some(Value::Map(m)) if matches!(f, Value::Str(_)) => {
                    let (work, found) = (m.len(), lookup(m, f).cloned());
                    self.burn_n(work, &x.span)?;
                    return Ok(found.unwrap_or(Value::Null));
                }
                _ => {}
            }
        }
        let base = self.operand(a, frame)?;
        self.field(&base, f, sym, x)
    }

    /// A local or a variable, where it is, for a read that needs no copy of it.
    #[inline(always)]
    fn leaf<'a>(&'a self, x: &X, frame: &'a [Value]) -> Option<&'a Value> {
        match &x.e {
            E::Local(s) => frame.get(*s as usize),
            E::Global(g) => self.globals.get(*g as usize),
            _ => None,
        }
    }

    /// A card's attribute by its field symbol, when the card's kind has it.
    #[inline(always)]
    fn card_attribute(&self, card: u32, sym: u16) -> Option<Value> {
        let card = self.prog.cards.get(card as usize)?;
        let slot = (*self.prog.kinds.get(card.kind as usize)?.slots.get(sym as usize)?)?;
        card.attrs.get(slot as usize).cloned()
    }

    /// Every card of a kind, as a list built once per game.
    #[inline(never)]
    fn card_by_code(&self, k: u16, code: &Value, x: &X) -> Run<Value> {
        let kind = self.prog.kinds.get(k as usize);
        let Value::Str(text) = code else { return Err(self.spec_error(&x.span, "a code is a text".into())) };
        match kind.and_then(|kind| kind.by_code.get(text.as_str())) {
            Some(id) => Ok(Value::Card(*id)),
            None => {
                let (noun, name) = kind.map_or(("card", ""), |kind| (kind.noun(), kind.name.as_str()));
                Err(self.spec_error(&x.span, format!("no {noun} `{text}` in `{name}`")))
            }
        }
    }

    fn cards_of_kind(&mut self, k: u16) -> Value {
        let Some(slot) = self.kind_lists.get_mut(k as usize) else { return Value::Null };
        let prog = self.prog;
        slot.get_or_insert_with(|| Value::list(prog.kinds[k as usize].cards.clone().map(Value::Card).collect())).clone()
    }

    pub(super) fn template(&mut self, parts: &[Part], frame: &mut Vec<Value>) -> Run<String> {
        let mut out = String::new();
        for p in parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Expr(e) => {
                    let v = self.eval(e, frame)?;
                    self.burn_weight(&v, &e.span)?;
                    out.push_str(&super::show(self.prog, &self.players, &v));
                }
            }
        }
        Ok(out)
    }

    pub(super) fn truth(&mut self, x: &X, frame: &mut Vec<Value>) -> Run<bool> {
        match self.eval(x, frame)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.expected(x, "a bool", &other)),
        }
    }

    fn int(&mut self, x: &X, frame: &mut Vec<Value>) -> Run<i64> {
        match self.eval(x, frame)? {
            Value::Int(i) => Ok(i),
            other => Err(self.expected(x, "an int", &other)),
        }
    }

    #[cold]
    fn expected(&self, x: &X, wanted: &str, found: &Value) -> Stop {
        self.spec_error(&x.span, format!("expected {wanted}, found {}", found.type_name()))
    }

    pub(super) fn list(&mut self, x: &X, frame: &mut Vec<Value>) -> Run<Rc<Vec<Value>>> {
        match self.eval(x, frame)? {
            Value::List(l) => Ok(l),
            Value::Map(m) => {
                self.burn_n(m.len(), &x.span)?;
                Ok(Rc::new(m.iter().map(|(k, _)| k.clone()).collect()))
            }
            other => Err(self.spec_error(&x.span, format!("expected a list, found {}", other.type_name()))),
        }
    }

    /// Items of a collection for `for` and comprehensions: one name takes each item of a
    /// list (each key of a map); two names take (index, item) or (key, value). The items are
    /// read from the collection as the loop goes, not copied out first.
    pub(super) fn entries(&mut self, coll: &X, two: bool, frame: &mut Vec<Value>) -> Run<Entries> {
        let value = self.eval(coll, frame)?;
        let collection = match value {
            Value::List(l) => Collection::List(l),
            Value::Map(m) => Collection::Map(m),
            other => {
                return Err(self.spec_error(&coll.span, format!("expected a list or map, found {}", other.type_name())));
            }
        };
        let entries = Entries { collection, two, next: 0 };
        self.burn_n(entries.len(), &coll.span)?;
        Ok(entries)
    }

    /// A built-in that folds a list, given a comprehension: each item is folded in as it is
    /// made instead of being kept in a list. The work is the same as building the list and
    /// then folding it (every item is made, with the same fuel, nesting and errors, and a
    /// problem with an item is reported once all are made, as the built-in would find it).
    fn fused(&mut self, fold: Fold, comprehension: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        self.enter(&comprehension.span)?;
        let mut state = Folding::new(fold);
        let made = self.comprehension_into(comprehension, frame, &mut state);
        self.nesting -= 1;
        made?;
        self.folded(state, x)
    }

    /// What a fold of every item gives: `max` and `min` compare every item once, and pay
    /// the weight of the list at once; a problem `sum` met is reported at the call.
    fn folded(&mut self, folding: Folding, x: &X) -> Run<Value> {
        let fold = folding.fold;
        match folding.finish() {
            Ok((value, weight)) => {
                if matches!(fold, Fold::Max | Fold::Min) {
                    self.burn_n(weight, &x.span)?;
                }
                Ok(value)
            }
            Err(found) => Err(self.spec_error(&x.span, found.message())),
        }
    }

    /// The items of a comprehension, each handed to `sink` as it is made.
    fn comprehension_into(&mut self, x: &X, frame: &mut Vec<Value>, sink: &mut impl Sink) -> Run<()> {
        let E::Comprehension { body, slot, slot2, coll, cond } = &x.e else {
            return Err(self.spec_error(&x.span, "expected a comprehension".into()));
        };
        let mut entries = self.entries(coll, slot2.is_some(), frame)?;
        sink.expect(entries.len());
        while entries.more() {
            self.burn(&body.span)?;
            entries.bind_next(frame, *slot, *slot2);
            if let Some(c) = cond
                && !self.truth(c, frame)?
            {
                continue;
            }
            let item = self.operand(body, frame)?;
            sink.take(item, usize::try_from(self.fuel).unwrap_or(usize::MAX));
        }
        Ok(())
    }

    #[inline(never)]
    fn quantifier(&mut self, all: bool, slot: u16, coll: &X, body: &X, frame: &mut Vec<Value>) -> Run<Value> {
        let items = self.list(coll, frame)?;
        for item in items.iter() {
            self.burn(&body.span)?;
            bind(frame, slot, item.clone());
            if self.truth(body, frame)? != all {
                return Ok(Value::Bool(!all));
            }
        }
        Ok(Value::Bool(all))
    }

    /// `let x = VALUE in BODY`: the value in its slot for the body.
    #[inline(never)]
    fn let_in(&mut self, slot: u16, value: &X, body: &X, frame: &mut Vec<Value>) -> Run<Value> {
        let v = self.eval(value, frame)?;
        self.shallow_enough(&v, &value.span)?;
        bind(frame, slot, v);
        self.eval(body, frame)
    }

    #[inline(never)]
    fn binary(&mut self, op: BinOp, a: &X, b: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        match op {
            BinOp::And => return Ok(Value::Bool(self.truth(a, frame)? && self.truth(b, frame)?)),
            BinOp::Or => return Ok(Value::Bool(self.truth(a, frame)? || self.truth(b, frame)?)),
            _ => {}
        }
        let l = self.operand(a, frame)?;
        let r = self.operand(b, frame)?;
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            if !self.comparable(&l, &r) {
                let message = format!(
                    "cannot compare {} with {}: they are never equal",
                    self.kind_words(&l),
                    self.kind_words(&r)
                );
                return Err(self.spec_error(&x.span, message));
            }
            // Comparing costs the lighter side.
            let cap = usize::try_from(self.fuel).unwrap_or(usize::MAX);
            self.burn_n(Value::lighter_weight(&l, &r, cap), &x.span)?;
        }
        match (op, &l, &r) {
            (BinOp::Eq, ..) => Ok(Value::Bool(l.same(&r))),
            (BinOp::Ne, ..) => Ok(Value::Bool(!l.same(&r))),
            (BinOp::In, ..) => Ok(Value::Bool(self.contains(&r, &l, b)?)),
            (BinOp::NotIn, ..) => Ok(Value::Bool(!self.contains(&r, &l, b)?)),
            (BinOp::Concat, ..) => {
                self.burn_weight(&l, &x.span)?;
                self.burn_weight(&r, &x.span)?;
                let mut s = super::show(self.prog, &self.players, &l);
                s.push_str(&super::show(self.prog, &self.players, &r));
                self.size_ok(s.len(), x)?;
                Ok(Value::str(&s))
            }
            (BinOp::Add, Value::List(p), Value::List(q)) => {
                self.size_ok(p.len() + q.len(), x)?;
                self.burn_n(p.len() + q.len(), &x.span)?;
                Ok(Value::list(p.iter().chain(q.iter()).cloned().collect()))
            }
            (BinOp::Sub, Value::List(p), Value::List(q)) => {
                let cap = usize::try_from(self.fuel).unwrap_or(usize::MAX);
                self.burn_n(l.weight(cap).saturating_mul(q.len().max(1)), &x.span)?;
                Ok(Value::list(multiset_minus(p, q)))
            }
            (_, Value::Int(p), Value::Int(q)) => self.arith(op, *p, *q, x),
            (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Value::Enum(e, p), Value::Enum(f, q)) if e == f => {
                Ok(Value::Bool(ordered(op, p, q)))
            }
            _ => Err(self.cannot_apply(x, l.type_name(), r.type_name())),
        }
    }

    /// An operator given values of types it does not take, named as `Value::type_name` names them.
    #[cold]
    pub(super) fn cannot_apply(&self, x: &X, left: &str, right: &str) -> Stop {
        self.spec_error(&x.span, format!("cannot apply this operator to {left} and {right}"))
    }

    /// Whether `==` between these values can be true: values of different kinds never are,
    /// and asking is a mistake in the rules (`declarer == "N"`, a suit against a strain),
    /// which must not pass as a silent `false`. Anything may be compared with null.
    pub(super) fn comparable(&self, l: &Value, r: &Value) -> bool {
        match (l, r) {
            (Value::Null, _) | (_, Value::Null) => true,
            (Value::Player(_) | Value::Table, Value::Player(_) | Value::Table) => true,
            (Value::Card(a), Value::Card(b)) => self.card_kind(*a) == self.card_kind(*b),
            (Value::Enum(a, _), Value::Enum(b, _)) => a == b,
            _ => std::mem::discriminant(l) == std::mem::discriminant(r),
        }
    }

    fn card_kind(&self, card: u32) -> Option<u16> {
        self.prog.cards.get(card as usize).map(|c| c.kind)
    }

    /// A value's kind in the words of the rules file: `a Card`, `a Strain`, `a str`.
    fn kind_words(&self, v: &Value) -> String {
        let name = match v {
            Value::Card(c) => self.card_kind(*c).and_then(|k| self.prog.kinds.get(k as usize)).map(|k| k.name.as_str()),
            Value::Enum(e, _) => self.prog.enums.get(*e as usize).map(|e| e.name.as_str()),
            _ => None,
        };
        match name {
            Some(name) => format!("a {name}"),
            None if matches!(v, Value::Int(_)) => "an int".into(),
            None => format!("a {}", v.type_name()),
        }
    }

    /// Spends fuel for comparing or hashing every item of a list `times` times over.
    fn burn_items(&mut self, items: &[Value], times: usize, x: &X) -> Run<()> {
        let cap = usize::try_from(self.fuel).unwrap_or(usize::MAX);
        let mut work = 0usize;
        for item in items {
            work = work.saturating_add(item.weight(cap.saturating_sub(work)));
            if work > cap {
                break;
            }
        }
        self.burn_n(work.saturating_mul(times), &x.span)
    }

    /// Refuses to build a list or text larger than `Limits::list_items`: far above any card
    /// game, and a stop for a rules file that doubles a list in a loop before its fuel runs out.
    pub(super) fn size_ok(&self, size: usize, x: &X) -> Run<()> {
        let most = self.limits.list_items;
        if size > most {
            return Err(self.spec_error(&x.span, format!("the rules build a list or text of more than {most} items")));
        }
        Ok(())
    }

    fn arith(&self, op: BinOp, p: i64, q: i64, x: &X) -> Run<Value> {
        let overflow = || self.overflow(x);
        Ok(match op {
            BinOp::Add => Value::Int(p.checked_add(q).ok_or_else(overflow)?),
            BinOp::Sub => Value::Int(p.checked_sub(q).ok_or_else(overflow)?),
            BinOp::Mul => Value::Int(p.checked_mul(q).ok_or_else(overflow)?),
            BinOp::Div => Value::Int(p.checked_div_euclid(q).ok_or_else(overflow)?),
            BinOp::Rem => Value::Int(p.checked_rem_euclid(q).ok_or_else(overflow)?),
            BinOp::Lt => Value::Bool(p < q),
            BinOp::Le => Value::Bool(p <= q),
            BinOp::Gt => Value::Bool(p > q),
            BinOp::Ge => Value::Bool(p >= q),
            _ => return Err(self.spec_error(&x.span, "this operator does not apply to ints".into())),
        })
    }

    fn contains(&mut self, coll: &Value, item: &Value, at: &X) -> Run<bool> {
        if let Value::List(l) = coll
            && let Some((weight, found)) = weigh_and_find(l, item)
        {
            self.burn_n(weight, &at.span)?;
            return Ok(found);
        }
        self.burn_weight(coll, &at.span)?;
        match coll {
            Value::List(l) => Ok(l.iter().any(|v| v.same(item))),
            Value::Map(m) => Ok(m.iter().any(|(k, _)| k.same(item))),
            other => Err(self.spec_error(&at.span, format!("`in` needs a list or map, found {}", other.type_name()))),
        }
    }

    pub(super) fn index(&mut self, base: &Value, key: &Value, x: &X) -> Run<Value> {
        if let Value::Map(m) = base {
            // A lookup compares the key with each key of the map.
            let per_key = key.weight(usize::try_from(self.fuel).unwrap_or(usize::MAX));
            self.burn_n(m.len().saturating_mul(per_key), &x.span)?;
        }
        match (base, key) {
            (Value::List(l), Value::Int(i)) => usize::try_from(*i)
                .ok()
                .and_then(|i| l.get(i))
                .cloned()
                .ok_or_else(|| self.spec_error(&x.span, format!("index {i} is outside a list of {}", l.len()))),
            (Value::Map(_), k) => Ok(base.get(k).cloned().unwrap_or(Value::Null)),
            (Value::Null, _) => Err(self.spec_error(&x.span, "this is null, which has no items to index".into())),
            _ => Err(self.spec_error(&x.span, format!("cannot index {} with {}", base.type_name(), key.type_name()))),
        }
    }

    #[inline(never)]
    fn slice(&mut self, a: &X, lo: Option<&X>, hi: Option<&X>, frame: &mut Vec<Value>) -> Run<Value> {
        let items = self.list(a, frame)?;
        let len = items.len() as i64;
        let lo = match lo {
            Some(x) => self.int(x, frame)?,
            None => 0,
        }
        .clamp(0, len) as usize;
        let hi = match hi {
            Some(x) => self.int(x, frame)?,
            None => len,
        }
        .clamp(0, len) as usize;
        let part = items.get(lo..hi.max(lo)).unwrap_or(&[]);
        self.burn_n(part.len(), &a.span)?;
        Ok(Value::list(part.to_vec()))
    }

    fn field(&mut self, base: &Value, f: &Value, sym: u16, x: &X) -> Run<Value> {
        if let Value::Map(m) = base {
            self.burn_n(m.len(), &x.span)?;
        }
        let Value::Str(name) = f else { return Err(self.spec_error(&x.span, "bad field".into())) };
        match base {
            Value::Card(c) => {
                let card = &self.prog.cards[*c as usize];
                let kind = &self.prog.kinds[card.kind as usize];
                if let Some(Some(slot)) = kind.slots.get(sym as usize)
                    && let Some(v) = card.attrs.get(*slot as usize)
                {
                    return Ok(v.clone());
                }
                if &**name == "code" {
                    return Ok(Value::Str(card.code.clone()));
                }
                Err(self.spec_error(&x.span, format!("{}s of `{}` have no attribute `{name}`", kind.noun(), kind.name)))
            }
            Value::Map(_) => Ok(base.get(f).cloned().unwrap_or(Value::Null)),
            other => Err(self.spec_error(&x.span, format!("{} has no field `{name}`", other.type_name()))),
        }
    }

    #[inline(never)]
    fn call_fn(&mut self, f: u16, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let prog = self.prog;
        let func = &prog.fns[f as usize];
        if args.len() != func.arity {
            return Err(self.spec_error(&x.span, format!("`{}` takes {} argument(s)", func.name, func.arity)));
        }
        if self.depth >= self.limits.call_depth {
            let most = self.limits.call_depth;
            return Err(self.spec_error(&x.span, format!("helpers call each other more than {most} deep")));
        }
        self.burn(&x.span)?;
        self.call_remembered(f, func, args, frame)
    }

    /// Evaluates `args` into a fresh frame of `locals` slots, runs `body` one call deeper in
    /// it, and keeps the frame for the next call.
    pub(super) fn with_args<T>(
        &mut self,
        locals: usize,
        args: &[X],
        frame: &mut Vec<Value>,
        body: impl FnOnce(&mut Self, &mut Vec<Value>) -> Run<T>,
    ) -> Run<T> {
        let mut inner = self.frame_of_args(locals, args, frame)?;
        self.depth += 1;
        let out = body(self, &mut inner);
        self.depth -= 1;
        self.give_frame(inner);
        out
    }

    /// A fresh frame of `locals` slots (no fewer than the arguments), the arguments evaluated
    /// into its first slots.
    pub(super) fn frame_of_args(&mut self, locals: usize, args: &[X], frame: &mut Vec<Value>) -> Run<Vec<Value>> {
        let mut inner = self.take_frame(locals.max(args.len()));
        for (i, a) in args.iter().enumerate() {
            let v = self.operand(a, frame)?;
            if let Some(slot) = inner.get_mut(i) {
                *slot = v;
            }
        }
        Ok(inner)
    }

    fn lambda_apply(&mut self, lambda: &X, item: Value, frame: &mut Vec<Value>) -> Run<Value> {
        let E::Lambda(slot, body) = &lambda.e else {
            return Err(self.spec_error(&lambda.span, "expected `x => ...`".into()));
        };
        self.burn(&lambda.span)?;
        bind(frame, *slot, item);
        self.eval(body, frame)
    }

    /// A built-in pays fuel for the items it reads or builds, so that one call in a loop
    /// cannot do unbounded work for one step.
    #[inline(never)]
    fn builtin(&mut self, b: Builtin, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let out = self.builtin_value(b, args, frame, x)?;
        self.burn_weight(&out, &x.span)?;
        Ok(out)
    }

    /// Each built-in's work, by its id; its fuel (`Cost`) and caps are the table's.
    fn builtin_value(&mut self, b: Builtin, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let Some(first) = args.first() else { return Err(self.spec_error(&x.span, "missing argument".into())) };
        if let E::Comprehension { .. } = &first.e
            && let Some(fold) = Fold::of(b)
        {
            return self.fused(fold, first, frame, x);
        }
        match b {
            Builtin::Len => self.length(first, frame, x),
            Builtin::Sum | Builtin::Max | Builtin::Min => self.fold_list(b, first, frame, x),
            Builtin::MaxBy | Builtin::MinBy | Builtin::SortBy | Builtin::Count | Builtin::Tally => {
                self.keyed(b, first, args, frame, x)
            }
            Builtin::First => Ok(self.list(first, frame)?.first().cloned().unwrap_or(Value::Null)),
            Builtin::Last => Ok(self.list(first, frame)?.last().cloned().unwrap_or(Value::Null)),
            Builtin::Reverse => Ok(Value::list(self.list(first, frame)?.iter().rev().cloned().collect())),
            Builtin::Range => self.range(first, args, frame, x),
            Builtin::Distinct | Builtin::Dup => self.duplicate(b, first, frame, x),
            Builtin::Sort => self.sorted(first, frame, x),
            Builtin::Keys => Ok(Value::List(self.list(first, frame)?)),
            Builtin::Values => self.values(first, frame, x),
            Builtin::Flatten => self.flatten(first, frame),
            Builtin::SeatsFrom | Builtin::SeatsAfter | Builtin::NextPlayer => self.seating(b, first, frame, x),
            Builtin::IndexOf => self.position(first, args, frame, x),
            Builtin::Abs => {
                let i = self.int(first, frame)?;
                i.checked_abs().map(Value::Int).ok_or_else(|| self.overflow(x))
            }
            Builtin::Str => {
                let v = self.eval(first, frame)?;
                Ok(Value::str(&super::show(self.prog, &self.players, &v)))
            }
            Builtin::Repeat | Builtin::Chunks => self.repeat_or_chunks(b, first, args, frame, x),
            Builtin::ZipMap => self.zip_map(first, args, frame, x),
            Builtin::Combinations => self.combinations(first, args, frame, x),
            Builtin::Pow => self.power(first, args, frame, x),
            Builtin::KindOf => self.kind_of(first, frame),
            Builtin::Join => self.join(first, args, frame, x),
            Builtin::Matches => self.matches(first, args, frame, x),
            Builtin::Shuffle => {
                let mut items = self.list(first, frame)?.as_ref().clone();
                self.rng.shuffle(&mut items);
                Ok(Value::list(items))
            }
            Builtin::Permutations => self.permutations(first, frame, x),
            Builtin::Subsets => self.subsets(first, frame, x),
        }
    }

    /// A built-in's second argument, which resolve has made sure is there.
    fn second<'a>(&self, args: &'a [X], x: &X) -> Run<&'a X> {
        args.get(1).ok_or_else(|| self.spec_error(&x.span, "missing argument".into()))
    }

    /// The fuel a built-in pays for reading `items`, as its table entry says.
    fn burn_reading(&mut self, b: Builtin, items: &[Value], x: &X) -> Run<()> {
        match b.entry().cost {
            Cost::ItemsOnce => self.burn_items(items, 1, x),
            Cost::ItemsSorted => self.burn_items(items, items.len().max(2).ilog2() as usize, x),
            Cost::Nothing | Cost::PerKey | Cost::TextBytes => Ok(()),
        }
    }

    fn length(&mut self, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        match self.eval(first, frame)? {
            Value::List(l) => Ok(Value::Int(l.len() as i64)),
            Value::Map(m) => Ok(Value::Int(m.len() as i64)),
            Value::Str(s) => Ok(Value::Int(s.chars().count() as i64)),
            other => Err(self.spec_error(&x.span, format!("`len` of {}", other.type_name()))),
        }
    }

    /// The folds a comprehension's items take as they are made (`fused`), here over a list.
    fn fold_list(&mut self, b: Builtin, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        let mut folding = Folding::new(Fold::of(b).unwrap_or(Fold::Len));
        let fuel = usize::try_from(self.fuel).unwrap_or(usize::MAX);
        items.iter().for_each(|item| folding.take(item.clone(), fuel));
        self.folded(folding, x)
    }

    /// `max_by`, `min_by`, `sort_by`, `count` and `tally`: each item's key, then the answer.
    fn keyed(&mut self, b: Builtin, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        let Some(lambda) = args.get(1) else {
            return Err(self.spec_error(&x.span, "missing `x => ...`".into()));
        };
        let mut keyed = Vec::with_capacity(items.len());
        for item in items.iter() {
            let key = self.lambda_apply(lambda, item.clone(), frame)?;
            self.burn_weight(&key, &lambda.span)?;
            keyed.push((key, item.clone()));
        }
        Ok(by_key(b, keyed))
    }

    fn range(&mut self, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let lo = self.int(first, frame)?;
        let hi = match args.get(1) {
            Some(h) => self.int(h, frame)?,
            None => lo,
        };
        if hi.saturating_sub(lo) > MAX_RANGE {
            return Err(self.spec_error(&x.span, format!("a range of more than {MAX_RANGE} numbers")));
        }
        Ok(Value::list((lo..=hi).map(Value::Int).collect()))
    }

    /// `distinct`: whether no item repeats; `dup`: the first that does.
    fn duplicate(&mut self, b: Builtin, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        self.burn_reading(b, &items, x)?;
        let twice = first_duplicate(&items);
        Ok(if b == Builtin::Distinct { Value::Bool(twice.is_none()) } else { twice.unwrap_or(Value::Null) })
    }

    fn sorted(&mut self, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let mut items = self.list(first, frame)?.as_ref().clone();
        self.burn_reading(Builtin::Sort, &items, x)?;
        items.sort();
        Ok(Value::list(items))
    }

    fn values(&mut self, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        match self.eval(first, frame)? {
            Value::Map(m) => Ok(Value::list(m.iter().map(|(_, v)| v.clone()).collect())),
            other => Err(self.spec_error(&x.span, format!("`values` of {}", other.type_name()))),
        }
    }

    fn flatten(&mut self, first: &X, frame: &mut Vec<Value>) -> Run<Value> {
        let mut out = vec![];
        for item in self.list(first, frame)?.iter() {
            match item {
                Value::List(l) => out.extend(l.iter().cloned()),
                other => out.push(other.clone()),
            }
        }
        Ok(Value::list(out))
    }

    fn seating(&mut self, b: Builtin, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let Value::Player(p) = self.eval(first, frame)? else {
            return Err(self.spec_error(&x.span, "expected a player".into()));
        };
        Ok(self.seats(b, p))
    }

    /// `index_of`.
    fn position(&mut self, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        let needle = self.second(args, x)?;
        let needle = self.eval(needle, frame)?;
        self.burn_reading(Builtin::IndexOf, &items, x)?;
        Ok(items.iter().position(|v| *v == needle).map_or(Value::Null, |i| Value::Int(i as i64)))
    }

    fn repeat_or_chunks(&mut self, b: Builtin, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        let n = self.second(args, x)?;
        let n = self.int(n, frame)?;
        if !(1..=MAX_COUNT).contains(&n) {
            return Err(self.spec_error(&x.span, format!("a count of {n}, outside 1..{MAX_COUNT}")));
        }
        let n = n as usize;
        if b == Builtin::Repeat {
            self.size_ok(items.len().saturating_mul(n), x)?;
            return Ok(Value::list(items.iter().cloned().cycle().take(items.len() * n).collect()));
        }
        Ok(Value::list(items.chunks(n).map(|c| Value::list(c.to_vec())).collect()))
    }

    fn zip_map(&mut self, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let keys = self.list(first, frame)?;
        let values = self.second(args, x)?;
        let values = self.list(values, frame)?;
        Ok(Value::map(keys.iter().cloned().zip(values.iter().cloned()).collect()))
    }

    fn combinations(&mut self, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        let k = self.second(args, x)?;
        let k = self.int(k, frame)?;
        if items.len() > MAX_COMBINED || k < 0 {
            return Err(self.spec_error(&x.span, format!("`combinations` of {k} from {} items", items.len())));
        }
        // More than there are: no way to choose them.
        if k > items.len() as i64 {
            return Ok(Value::list(vec![]));
        }
        Ok(Value::list(combinations(&items, k as usize).into_iter().map(Value::list).collect()))
    }

    /// `pow(a, b)`: overflow is the error of any other arithmetic; a negative exponent has
    /// no int value.
    fn power(&mut self, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let a = self.int(first, frame)?;
        let b = self.second(args, x)?;
        let b = self.int(b, frame)?;
        if b < 0 {
            return Err(
                self.spec_error(&x.span, format!("`pow` with the negative exponent {b}: the result is not an int"))
            );
        }
        // An exponent past u32's range overflows unless `a` is -1, 0 or 1, where only its
        // parity counts.
        let e = u32::try_from(b).unwrap_or(u32::MAX - 1 + (b % 2) as u32);
        a.checked_pow(e).map(Value::Int).ok_or_else(|| self.overflow(x))
    }

    fn kind_of(&mut self, first: &X, frame: &mut Vec<Value>) -> Run<Value> {
        let v = self.eval(first, frame)?;
        Ok(Value::str(match v {
            Value::Card(c) => {
                self.card_kind(c).and_then(|k| self.prog.kinds.get(k as usize)).map_or("card", |k| k.noun())
            }
            other => other.type_name(),
        }))
    }

    fn join(&mut self, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        let sep = self.second(args, x)?;
        let sep = self.eval(sep, frame)?;
        let sep = super::show(self.prog, &self.players, &sep);
        let words: Vec<String> = items.iter().map(|v| super::show(self.prog, &self.players, v)).collect();
        Ok(Value::str(&words.join(&sep)))
    }

    fn matches(&mut self, first: &X, args: &[X], frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let p = self.second(args, x)?;
        let (text, pattern) = (self.eval(first, frame)?, self.eval(p, frame)?);
        let (Value::Str(text), Value::Str(pattern)) = (&text, &pattern) else {
            return Err(self.spec_error(&x.span, "`matches` takes a text and a pattern".into()));
        };
        self.burn_n(text.len() + pattern.len(), &x.span)?;
        let re = regex_lite::RegexBuilder::new(pattern)
            .size_limit(MAX_PATTERN_SIZE)
            .build()
            .map_err(|e| self.spec_error(&x.span, format!("`{pattern}` is not a pattern: {e}")))?;
        Ok(Value::Bool(re.is_match(text)))
    }

    fn permutations(&mut self, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        if items.len() > MAX_PERMUTED {
            return Err(self.spec_error(&x.span, format!("`permutations` of more than {MAX_PERMUTED} items")));
        }
        Ok(Value::list(permutations(&items).into_iter().map(Value::list).collect()))
    }

    fn subsets(&mut self, first: &X, frame: &mut Vec<Value>, x: &X) -> Run<Value> {
        let items = self.list(first, frame)?;
        if items.len() > MAX_SUBSET_ITEMS {
            return Err(self.spec_error(&x.span, format!("`subsets` of more than {MAX_SUBSET_ITEMS} items")));
        }
        let subset = |mask: u32| {
            Value::list(
                items.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, v)| v.clone()).collect(),
            )
        };
        Ok(Value::list((0u32..1 << items.len()).map(subset).collect()))
    }

    fn seats(&self, b: Builtin, p: u8) -> Value {
        let n = self.players.len().max(1);
        let at = |k: usize| Value::Player(((p as usize + k) % n) as u8);
        match b {
            Builtin::NextPlayer => at(1),
            Builtin::SeatsFrom => Value::list((0..n).map(at).collect()),
            _ => Value::list((1..=n).map(at).collect()),
        }
    }
}

/// A list or map a loop walks.
#[derive(Clone)]
enum Collection {
    List(Rc<Vec<Value>>),
    Map(Rc<Vec<(Value, Value)>>),
}

/// The entries of a collection, one at a time: (item, null) or (index, item) for a list,
/// (key, null) or (key, value) for a map.
#[derive(Clone)]
pub(crate) struct Entries {
    collection: Collection,
    two: bool,
    next: usize,
}

impl Entries {
    pub(super) fn len(&self) -> usize {
        match &self.collection {
            Collection::List(l) => l.len(),
            Collection::Map(m) => m.len(),
        }
    }

    /// Whether an entry is left.
    #[inline]
    pub(super) fn more(&self) -> bool {
        self.next < self.len()
    }

    /// Binds the next entry to a loop's names (`slot2` takes the second of two), as `next`
    /// gives it, without the pair made for it: a loop over one name copies the item only.
    #[inline]
    pub(super) fn bind_next(&mut self, frame: &mut Vec<Value>, slot: u16, slot2: Option<u16>) {
        if let (Collection::List(l), None) = (&self.collection, slot2) {
            if let Some(item) = l.get(self.next) {
                bind(frame, slot, item.clone());
            }
            self.next += 1;
            return;
        }
        if let Some((a, b)) = self.next() {
            bind(frame, slot, a);
            if let Some(s2) = slot2 {
                bind(frame, s2, b);
            }
        }
    }
}

impl Iterator for Entries {
    type Item = (Value, Value);

    fn next(&mut self) -> Option<(Value, Value)> {
        let i = self.next;
        let entry = match &self.collection {
            Collection::List(l) if self.two => (Value::Int(i as i64), l.get(i)?.clone()),
            Collection::List(l) => (l.get(i)?.clone(), Value::Null),
            Collection::Map(m) if self.two => m.get(i)?.clone(),
            Collection::Map(m) => (m.get(i)?.0.clone(), Value::Null),
        };
        self.next += 1;
        Some(entry)
    }
}

/// The built-ins that fold a list into one value, one item at a time: a list's items, or a
/// comprehension's as they are made.
#[derive(Clone, Copy, PartialEq)]
enum Fold {
    Len,
    Sum,
    Max,
    Min,
    First,
    Last,
}

impl Fold {
    fn of(b: Builtin) -> Option<Fold> {
        Some(match b {
            Builtin::Len => Fold::Len,
            Builtin::Sum => Fold::Sum,
            Builtin::Max => Fold::Max,
            Builtin::Min => Fold::Min,
            Builtin::First => Fold::First,
            Builtin::Last => Fold::Last,
            _ => return None,
        })
    }
}

/// Where a comprehension's items go as they are made: a list, or a fold.
trait Sink {
    /// How many items at most are coming.
    fn expect(&mut self, _most: usize) {}
    /// One item, and the fuel left, past which weighing it need not count.
    fn take(&mut self, item: Value, fuel: usize);
}

impl Sink for Vec<Value> {
    fn expect(&mut self, most: usize) {
        self.reserve(most);
    }

    fn take(&mut self, item: Value, _fuel: usize) {
        self.push(item);
    }
}

/// What a fold has found so far.
struct Folding {
    fold: Fold,
    count: usize,
    total: i64,
    pick: Option<Value>,
    /// The items' weight (`max` and `min` pay it), counted up to past the fuel left.
    weight: usize,
    /// The first item `sum` cannot add, which it reports once every item is made.
    problem: Option<SumProblem>,
}

/// What `sum` cannot add: an item that is not an int, or a total past the largest int.
#[derive(Clone, Copy)]
enum SumProblem {
    NotAnInt(&'static str),
    Overflow,
}

impl SumProblem {
    fn message(self) -> String {
        match self {
            SumProblem::NotAnInt(kind) => format!("`sum` of a list holding {kind}"),
            SumProblem::Overflow => "overflow".into(),
        }
    }
}

impl Sink for Folding {
    fn take(&mut self, item: Value, fuel: usize) {
        self.count += 1;
        match self.fold {
            Fold::Len => {}
            Fold::Sum if self.problem.is_some() => {}
            Fold::Sum => match item {
                Value::Int(i) => match self.total.checked_add(i) {
                    Some(t) => self.total = t,
                    None => self.problem = Some(SumProblem::Overflow),
                },
                other => self.problem = Some(SumProblem::NotAnInt(other.type_name())),
            },
            Fold::Max | Fold::Min => {
                if self.weight <= fuel {
                    self.weight = self.weight.saturating_add(item.weight(fuel - self.weight));
                }
                // Of equal items `max` keeps the last and `min` the first, as a list's would.
                let better = match &self.pick {
                    None => true,
                    Some(best) if self.fold == Fold::Max => item >= *best,
                    Some(best) => item < *best,
                };
                if better {
                    self.pick = Some(item);
                }
            }
            Fold::First if self.pick.is_some() => {}
            Fold::First | Fold::Last => self.pick = Some(item),
        }
    }
}

impl Folding {
    fn new(fold: Fold) -> Folding {
        Folding { fold, count: 0, total: 0, pick: None, weight: 0, problem: None }
    }

    /// The value, and the weight `max` and `min` pay.
    fn finish(self) -> Result<(Value, usize), SumProblem> {
        if let Some(problem) = self.problem {
            return Err(problem);
        }
        let value = match self.fold {
            Fold::Len => Value::Int(self.count as i64),
            Fold::Sum => Value::Int(self.total),
            _ => self.pick.unwrap_or(Value::Null),
        };
        Ok((value, self.weight))
    }
}

pub(super) fn bind(frame: &mut Vec<Value>, slot: u16, v: Value) {
    let i = slot as usize;
    if i >= frame.len() {
        frame.resize(i + 1, Value::Null);
    }
    frame[i] = v;
}

/// A per-seat map's entry for a seat, where such maps keep it: a map made for every seat keys
/// seat `i` at position `i`, so `hand[p]` is found without a search. Any other map (or a seat
/// kept elsewhere) is searched as before.
#[inline]
pub(super) fn seat_entry<'m>(entries: &'m [(Value, Value)], key: &Value) -> Option<&'m Value> {
    let Value::Player(seat) = key else { return None };
    entries.get(usize::from(*seat)).filter(|(k, _)| k.same(key)).map(|(_, v)| v)
}

/// `item in list` and the list's weight (the fuel the search pays) in one pass, for a list
/// of scalars and texts (a hand of cards); `None` for a list that holds lists or maps, which
/// is weighed by `Value::weight`.
#[inline]
pub(super) fn weigh_and_find(items: &[Value], item: &Value) -> Option<(usize, bool)> {
    // The item's kind is looked at once, not at every comparison: a card, a seat or an int
    // is compared with each item as a number (`same` compares them so).
    match *item {
        Value::Card(card) => weigh_and_find_by(items, |v| matches!(v, Value::Card(c) if *c == card)),
        Value::Player(seat) => weigh_and_find_by(items, |v| matches!(v, Value::Player(p) if *p == seat)),
        Value::Int(int) => weigh_and_find_by(items, |v| matches!(v, Value::Int(i) if *i == int)),
        _ => weigh_and_find_by(items, |v| v.same(item)),
    }
}

#[inline(always)]
fn weigh_and_find_by(items: &[Value], is_item: impl Fn(&Value) -> bool) -> Option<(usize, bool)> {
    // Each item weighs 1, a text more (`Value::weight`).
    let mut weight = 1 + items.len();
    let mut found = false;
    for v in items {
        match v {
            Value::List(_) | Value::Map(_) => return None,
            Value::Str(s) => weight += s.len() / 16,
            _ => {}
        }
        found |= is_item(v);
    }
    Some((weight, found))
}

fn by_key(b: Builtin, keyed: Vec<(Value, Value)>) -> Value {
    match b {
        // The first of equal keys wins, so ties resolve in collection order.
        Builtin::MaxBy => keyed
            .into_iter()
            .fold(None, |best: Option<(Value, Value)>, (k, v)| match best {
                Some((bk, bv)) if bk >= k => Some((bk, bv)),
                _ => Some((k, v)),
            })
            .map_or(Value::Null, |(_, v)| v),
        Builtin::MinBy => keyed
            .into_iter()
            .fold(None, |best: Option<(Value, Value)>, (k, v)| match best {
                Some((bk, bv)) if bk <= k => Some((bk, bv)),
                _ => Some((k, v)),
            })
            .map_or(Value::Null, |(_, v)| v),
        Builtin::Count => Value::Int(keyed.iter().filter(|(k, _)| *k == Value::Bool(true)).count() as i64),
        Builtin::Tally => tally(keyed),
        _ => {
            let mut keyed = keyed;
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            Value::list(keyed.into_iter().map(|(_, v)| v).collect())
        }
    }
}

/// Most memory a `matches` pattern may compile to: far above any code pattern.
const MAX_PATTERN_SIZE: usize = 1 << 20;

pub(super) fn ordered<T: Ord>(op: BinOp, p: T, q: T) -> bool {
    match op {
        BinOp::Lt => p < q,
        BinOp::Le => p <= q,
        BinOp::Gt => p > q,
        _ => p >= q,
    }
}

/// How many items have each key, keys in the order they first appear.
fn tally(keyed: Vec<(Value, Value)>) -> Value {
    let mut counts: Vec<(Value, Value)> = vec![];
    let mut at: HashMap<Value, usize> = HashMap::new();
    for (key, _) in keyed {
        match at.get(&key) {
            Some(&i) => {
                if let Some((_, Value::Int(n))) = counts.get_mut(i) {
                    *n += 1;
                }
            }
            None => {
                at.insert(key.clone(), counts.len());
                counts.push((key, Value::Int(1)));
            }
        }
    }
    Value::map(counts)
}

/// `a - b` on lists: each item of `b` removes one equal item of `a`.
pub(super) fn multiset_minus(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = a.to_vec();
    remove_each(&mut out, b);
    out
}

/// `a -= b` on a list: each item of `b` removes the first equal item of `a`.
pub(super) fn remove_each(a: &mut Vec<Value>, b: &[Value]) {
    for item in b {
        if let Some(i) = a.iter().position(|x| x.same(item)) {
            a.remove(i);
        }
    }
}

/// The first item that repeats an earlier one, in one pass.
fn first_duplicate(items: &[Value]) -> Option<Value> {
    // foldhash: SipHash's resistance to chosen keys costs most of the time here, and each set
    // is seeded afresh (each run at random), so a transcript cannot aim its values at one.
    let mut seen =
        std::collections::HashSet::with_capacity_and_hasher(items.len(), foldhash::fast::RandomState::default());
    items.iter().find(|v| !seen.insert(*v)).cloned()
}

/// Every choice of `k` items, in the order of the list: index tuples in lexicographic order.
fn combinations(items: &[Value], k: usize) -> Vec<Vec<Value>> {
    let n = items.len();
    let mut out = vec![];
    if k > n {
        return out;
    }
    let mut picked: Vec<usize> = (0..k).collect();
    loop {
        out.push(picked.iter().map(|&i| items[i].clone()).collect());
        // The rightmost index that can still move right, moved, and those after it reset.
        let Some(at) = (0..k).rev().find(|&j| picked[j] < n - k + j) else { return out };
        picked[at] += 1;
        for j in at + 1..k {
            picked[j] = picked[j - 1] + 1;
        }
    }
}

/// Every order of the items (items at different places counted apart, as the rules list
/// them): index orders in lexicographic order, each built once.
pub(super) fn permutations(items: &[Value]) -> Vec<Vec<Value>> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    let mut out = Vec::with_capacity((1..=items.len()).product());
    loop {
        out.push(order.iter().map(|&i| items[i].clone()).collect());
        // The next order: the standard successor of an index sequence.
        let Some(pivot) = (1..order.len()).rev().find(|&i| order[i - 1] < order[i]).map(|i| i - 1) else {
            return out;
        };
        let Some(swap) = (pivot + 1..order.len()).rev().find(|&j| order[j] > order[pivot]) else { return out };
        order.swap(pivot, swap);
        order[pivot + 1..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recursive definitions, written the obvious way.
    fn permutations_by_definition(items: &[Value]) -> Vec<Vec<Value>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut out = vec![];
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let head = rest.remove(i);
            for tail in permutations_by_definition(&rest) {
                out.push([vec![head.clone()], tail].concat());
            }
        }
        out
    }

    fn combinations_by_definition(items: &[Value], k: usize) -> Vec<Vec<Value>> {
        if k == 0 {
            return vec![vec![]];
        }
        let mut out = vec![];
        for (i, head) in items.iter().enumerate() {
            for tail in combinations_by_definition(&items[i + 1..], k - 1) {
                out.push([vec![head.clone()], tail].concat());
            }
        }
        out
    }

    /// The one-pass search pays what weighing the list pays, and finds what `any` finds.
    #[test]
    fn weighing_while_searching_agrees_with_weighing_then_searching() {
        let long = Value::str(&"x".repeat(40));
        let flat = vec![Value::Card(3), long.clone(), Value::Int(7), Value::str("ab"), Value::Null, Value::Player(2)];
        // Each kind compared as a number is found only as itself: `Card(7)` is not `Int(7)`.
        let kinds = [Value::Card(7), Value::Card(2), Value::Player(2), Value::Player(3), Value::Int(3), Value::Int(2)];
        for item in
            [Value::Card(3), long, Value::str("x"), Value::Int(7), Value::Null, Value::Int(8)].into_iter().chain(kinds)
        {
            let found = flat.iter().any(|v| v.same(&item));
            assert_eq!(weigh_and_find(&flat, &item), Some((Value::list(flat.clone()).weight(usize::MAX), found)));
        }
        assert_eq!(weigh_and_find(&[], &Value::Int(1)), Some((1, false)));
        let nested = [Value::Int(1), Value::list(vec![Value::Int(1)])];
        assert_eq!(weigh_and_find(&nested, &Value::Int(1)), None, "a nested list is weighed by `weight`");
    }

    /// A seat is found at its own place when the map keeps it there, and not otherwise.
    #[test]
    fn a_seat_is_found_at_its_place() {
        let by_seat: Vec<(Value, Value)> = (0..4).map(|s| (Value::Player(s), Value::Int(10 + i64::from(s)))).collect();
        assert_eq!(seat_entry(&by_seat, &Value::Player(2)), Some(&Value::Int(12)));
        assert_eq!(seat_entry(&by_seat, &Value::Player(4)), None);
        let reversed: Vec<(Value, Value)> = by_seat.iter().rev().cloned().collect();
        assert_eq!(seat_entry(&reversed, &Value::Player(2)), None, "seat 2 is not at place 2 here");
        assert_eq!(seat_entry(&by_seat, &Value::Int(2)), None, "only a seat is looked for by place");
    }

    #[test]
    fn permutations_and_combinations_in_the_order_of_their_definitions() {
        for n in 0..=6 {
            // Repeated items are told apart by their places, as the rules list them.
            let items: Vec<Value> = (0..n).map(|i| Value::Int(i % 3)).collect();
            assert_eq!(permutations(&items), permutations_by_definition(&items), "{n} items");
            for k in 0..=n + 1 {
                assert_eq!(
                    combinations(&items, k as usize),
                    combinations_by_definition(&items, k as usize),
                    "{k} of {n}"
                );
            }
        }
    }
}
