//! Running an expression's quick form (`program/fast.rs`): places read where they are, a
//! condition as a bool, arithmetic as an int, and the fuel the walk would burn added up on the
//! way. It gives up (`None`) wherever the walk would report something (a value of the wrong
//! type, an index outside a list, fuel running out): the walk then runs the expression from
//! the same state, and reports in its words. A quick form changes nothing (a quantifier's name
//! is bound beside the frame), so giving up leaves nothing to undo.

use super::eval::{ordered, seat_entry, weigh_and_find};
use super::{MAX_NESTING, Machine};
use crate::lang::ast::BinOp;
use crate::program::Slot;
use crate::program::fast::{C, Fast, N, P, Quick};
use crate::program::value::{Value, lookup};

const NULL: &Value = &Value::Null;

/// The locals a quick form reads: the frame, and the names its quantifiers bind, innermost
/// first.
struct Env<'a> {
    frame: &'a [Value],
    bound: Option<(Slot, &'a Value, &'a Env<'a>)>,
}

impl<'a> Env<'a> {
    #[inline(always)]
    fn local(&self, slot: Slot) -> &'a Value {
        let mut env = self;
        while let Some((s, v, up)) = env.bound {
            if s == slot {
                return v;
            }
            env = up;
        }
        self.frame.get(slot as usize).unwrap_or(NULL)
    }
}

/// An operand: read where it is, or worked out.
enum Operand<'a> {
    Read(&'a Value),
    Made(Value),
}

impl Operand<'_> {
    fn value(&self) -> &Value {
        match self {
            Operand::Read(v) => v,
            Operand::Made(v) => v,
        }
    }
}

impl Machine<'_> {
    /// The value of an expression by its quick form, with its fuel burnt; `None` where the
    /// walk must run it.
    #[inline(never)]
    pub(super) fn quickly(&mut self, quick: &Quick, frame: &[Value]) -> Option<Value> {
        if self.nesting.saturating_add(quick.depth) >= MAX_NESTING || (quick.remembers && self.trying) {
            return None;
        }
        let mut cost = 0;
        let env = Env { frame, bound: None };
        let value = match &quick.fast {
            Fast::Cond(c) => Value::Bool(self.quick_cond(c, &env, &mut cost)?),
            Fast::Num(n) => Value::Int(self.quick_num(n, &env, &mut cost)?),
            Fast::Place(p) => self.quick_read(p, &env, &mut cost)?.clone(),
        };
        self.fuel = self.fuel.checked_sub(cost)?;
        Some(value)
    }

    /// The fuel left once `cost` is burnt: how far a weight needs counting.
    fn quick_left(&self, cost: u64) -> usize {
        usize::try_from(self.fuel.saturating_sub(cost)).unwrap_or(usize::MAX)
    }

    fn quick_cond(&self, c: &C, env: &Env<'_>, cost: &mut u64) -> Option<bool> {
        match c {
            C::And(a, b) => Some(self.quick_cond(a, env, cost)? && self.quick_cond(b, env, cost)?),
            C::Or(a, b) => Some(self.quick_cond(a, env, cost)? || self.quick_cond(b, env, cost)?),
            C::Not(a) => Some(!self.quick_cond(a, env, cost)?),
            C::Truth(p, wanted) => match self.quick_read(p, env, cost)? {
                Value::Bool(b) => Some(*b == *wanted),
                _ => None,
            },
            C::Same { ne, l, r } => {
                let (l, r) = (self.quick_operand(l, env, cost)?, self.quick_operand(r, env, cost)?);
                let (l, r) = (l.value(), r.value());
                if !self.comparable(l, r) {
                    return None;
                }
                *cost += Value::lighter_weight(l, r, self.quick_left(*cost)) as u64;
                Some(l.same(r) != *ne)
            }
            C::Order(op, l, r) => {
                let (l, r) = (self.quick_operand(l, env, cost)?, self.quick_operand(r, env, cost)?);
                match (l.value(), r.value()) {
                    (Value::Int(p), Value::Int(q)) => Some(ordered(*op, p, q)),
                    (Value::Enum(e, p), Value::Enum(f, q)) if e == f => Some(ordered(*op, p, q)),
                    _ => None,
                }
            }
            C::In { not, item, coll } => {
                let item = self.quick_operand(item, env, cost)?;
                let coll = self.quick_read(coll, env, cost)?;
                Some(self.quick_holds(coll, item.value(), cost)? != *not)
            }
            C::Quantifier { all, slot, coll, body, .. } => {
                let Value::List(items) = self.quick_read(coll, env, cost)? else { return None };
                for item in items.iter() {
                    *cost += 1;
                    let inner = Env { frame: env.frame, bound: Some((*slot, item, env)) };
                    if self.quick_cond(body, &inner, cost)? != *all {
                        return Some(!*all);
                    }
                }
                Some(*all)
            }
        }
    }

    /// `item in coll`, burning what the walk's `contains` burns.
    fn quick_holds(&self, coll: &Value, item: &Value, cost: &mut u64) -> Option<bool> {
        if let Value::List(l) = coll
            && let Some((weight, found)) = weigh_and_find(l, item)
        {
            *cost += weight as u64;
            return Some(found);
        }
        *cost += coll.weight(self.quick_left(*cost)) as u64;
        match coll {
            Value::List(l) => Some(l.iter().any(|v| v.same(item))),
            Value::Map(m) => Some(m.iter().any(|(k, _)| k.same(item))),
            _ => None,
        }
    }

    fn quick_num(&self, n: &N, env: &Env<'_>, cost: &mut u64) -> Option<i64> {
        match n {
            N::EventsTaken => i64::try_from(self.taken).ok(),
            N::Arith(op, a, b) => {
                let (a, b) = (self.quick_operand(a, env, cost)?, self.quick_operand(b, env, cost)?);
                let (Value::Int(a), Value::Int(b)) = (a.value(), b.value()) else { return None };
                match op {
                    BinOp::Add => a.checked_add(*b),
                    BinOp::Sub => a.checked_sub(*b),
                    BinOp::Mul => a.checked_mul(*b),
                    BinOp::Div => a.checked_div_euclid(*b),
                    BinOp::Rem => a.checked_rem_euclid(*b),
                    _ => None,
                }
            }
        }
    }

    #[inline(always)]
    fn quick_operand<'a>(&'a self, f: &'a Fast, env: &Env<'a>, cost: &mut u64) -> Option<Operand<'a>> {
        Some(match f {
            Fast::Place(p) => Operand::Read(self.quick_read(p, env, cost)?),
            Fast::Num(n) => Operand::Made(Value::Int(self.quick_num(n, env, cost)?)),
            Fast::Cond(c) => Operand::Made(Value::Bool(self.quick_cond(c, env, cost)?)),
        })
    }

    /// A place, with the leaves read in line: most places are a local, a variable or a
    /// constant.
    #[inline(always)]
    fn quick_read<'a>(&'a self, p: &'a P, env: &Env<'a>, cost: &mut u64) -> Option<&'a Value> {
        match p {
            P::Const(v) => Some(v),
            P::Local(s) => Some(env.local(*s)),
            P::Global(g) => self.globals.get(*g as usize),
            _ => self.quick_place(p, env, cost),
        }
    }

    /// Every place but the leaves `quick_read` reads in line.
    fn quick_place<'a>(&'a self, p: &'a P, env: &Env<'a>, cost: &mut u64) -> Option<&'a Value> {
        match p {
            P::Const(_) | P::Local(_) | P::Global(_) => self.quick_read(p, env, cost),
            P::Param(i) => self.params.get(*i as usize),
            P::Players => Some(&self.seat_list),
            P::Index(base, key) => {
                let base = self.quick_read(base, env, cost)?;
                let key = self.quick_operand(key, env, cost)?;
                self.quick_entry(base, key.value(), cost)
            }
            P::Field(base, name, sym) => match self.quick_read(base, env, cost)? {
                Value::Card(c) => self.quick_attribute(*c, *sym),
                Value::Map(m) => {
                    *cost += m.len() as u64;
                    Some(lookup(m, name).unwrap_or(NULL))
                }
                _ => None,
            },
            P::If(c, a, b) => {
                if self.quick_cond(c, env, cost)? {
                    self.quick_read(a, env, cost)
                } else {
                    self.quick_read(b, env, cost)
                }
            }
        }
    }

    /// `base[key]` where it is, burning what the walk's `index` burns.
    fn quick_entry<'a>(&self, base: &'a Value, key: &Value, cost: &mut u64) -> Option<&'a Value> {
        match (base, key) {
            (Value::Map(m), key) => {
                let per_key = key.weight(self.quick_left(*cost)) as u64;
                *cost = cost.saturating_add((m.len() as u64).saturating_mul(per_key));
                Some(seat_entry(m, key).or_else(|| lookup(m, key)).unwrap_or(NULL))
            }
            (Value::List(l), Value::Int(i)) => l.get(usize::try_from(*i).ok()?),
            _ => None,
        }
    }

    /// A card's attribute where the card table keeps it.
    fn quick_attribute(&self, card: u32, sym: u16) -> Option<&Value> {
        let card = self.prog.cards.get(card as usize)?;
        let slot = (*self.prog.kinds.get(card.kind as usize)?.slots.get(sym as usize)?)?;
        card.attrs.get(slot as usize)
    }
}

#[cfg(test)]
thread_local! {
    /// Whether each quick form runs beside the walk and is held to it (tests only).
    static VERIFYING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Quick forms that gave the walk's value and fuel, and quick forms that gave up.
    static TALLY: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

#[cfg(test)]
pub(super) fn verifying() -> bool {
    VERIFYING.with(std::cell::Cell::get)
}

#[cfg(test)]
#[allow(clippy::panic, reason = "tests fail loudly")]
impl Machine<'_> {
    /// Runs the quick form, then the walk from the same fuel: where the quick form gives a
    /// value, the walk must give the same value and leave the same fuel. The walk's answer is
    /// the one used.
    pub(super) fn quickly_beside_the_walk(
        &mut self,
        quick: &Quick,
        x: &crate::program::X,
        frame: &mut Vec<Value>,
    ) -> super::Run<Value> {
        let fuel = self.fuel;
        let quickly = self.quickly(quick, frame);
        let (quick_fuel, nesting) = (self.fuel, self.nesting);
        self.fuel = fuel;
        self.enter(&x.span)?;
        let walked = self.eval_node(x, frame);
        self.nesting -= 1;
        let (done, gave_up) = TALLY.with(std::cell::Cell::get);
        match (&quickly, &walked) {
            // Left to the walk, which asks a quantifier's memory: not given up.
            (None, _) if quick.remembers && self.trying => {}
            (None, _) => TALLY.with(|t| t.set((done, gave_up + 1))),
            (Some(v), Ok(w)) => {
                assert_eq!(v, w, "the quick form of {:?} gives another value", x.span);
                assert_eq!(quick_fuel, self.fuel, "the quick form of {:?} burns other fuel", x.span);
                assert_eq!(nesting, self.nesting);
                TALLY.with(|t| t.set((done + 1, gave_up)));
            }
            (Some(v), Err(_)) => panic!("the quick form of {:?} gives {v:?} where the walk stops", x.span),
        }
        walked
    }
}

#[cfg(test)]
mod tests {
    use super::{TALLY, VERIFYING};
    use crate::Rules;
    use crate::program::fast::EVERY_KIND;

    /// Every kind of quick form (`EVERY_KIND`), each met where it gives a value: none gives up,
    /// and each gives the walk's value and fuel. A kind left out of the quick forms would give
    /// up here.
    #[test]
    fn every_kind_of_quick_form_gives_a_value() {
        let rules = Rules::from_text("quick.rules", EVERY_KIND, std::path::Path::new(".")).unwrap();
        VERIFYING.with(|v| v.set(true));
        let report = rules.check_text("t.yaml", "players: [a, b]\nevents:\n  - {by: a, go: R1}\n  - {by: b, go: R1}\n");
        VERIFYING.with(|v| v.set(false));
        assert_eq!(report.verdict.word(), "legal", "{:?} {:?}", report.violations, report.spec_errors);
        let (done, gave_up) = TALLY.with(std::cell::Cell::get);
        assert_eq!(gave_up, 0, "{gave_up} quick forms gave up");
        assert!(done >= 40, "only {done} quick forms ran");
    }

    /// A quick form gives up where the walk stops with an error: here ordering values of two
    /// enums, which the type checker cannot see (the argument is of a union shape), so the
    /// check must stop with the walk's error rather than answer.
    #[test]
    fn a_quick_form_leaves_an_error_to_the_walk() {
        let text = "game quick\nplayers 2..2\nrule r \"the check\"\nenum Suit { R, B }\nenum Level { Low, High }\n\
            action go: Suit | Level\nvar moves = 0\nscores {}\nwinners []\nflow {\n  choose {\n    go(x) by players[0] {\n\
            require x <= Suit.B and moves < 3 and moves >= 0 else r \"too late\"\n      moves += 1\n    }\n  }\n}\n";
        let rules = Rules::from_text("quick.rules", text, std::path::Path::new(".")).unwrap();
        let legal = rules.check_text("t.yaml", "players: [a, b]\nevents:\n  - {by: a, go: R}\n");
        assert_eq!(legal.verdict.word(), "legal", "{:?}", legal.spec_errors);
        let report = rules.check_text("t.yaml", "players: [a, b]\nevents:\n  - {by: a, go: Low}\n");
        let errors: Vec<&str> = report.spec_errors.iter().map(|d| d.message.as_str()).collect();
        assert!(errors.iter().any(|m| m.contains("cannot apply")), "no error from ordering two enums: {errors:?}");
    }

    /// Every quick form that gives a value gives the walk's value and burns the walk's fuel:
    /// each built-in and gallery game is played from several seeds and its transcript checked
    /// again, with every quick form run beside the walk (`quickly_beside_the_walk`).
    #[test]
    fn quick_forms_give_what_the_walk_gives() {
        VERIFYING.with(|v| v.set(true));
        let names = crate::rules::shipped_rules();
        for name in &names {
            let rules = Rules::new(name).unwrap();
            let (fewest, most) = rules.player_counts().unwrap();
            for players in fewest..=most {
                for seed in 1..=3 {
                    let text = rules.play(players, seed).unwrap();
                    let report = rules.check_text("played.yaml", &text);
                    assert!(report.errors.is_empty() && report.spec_errors.is_empty(), "{name}: {:?}", report.errors);
                }
            }
        }
        VERIFYING.with(|v| v.set(false));
        let (done, gave_up) = TALLY.with(std::cell::Cell::get);
        assert!(done > 100_000, "only {done} quick forms ran ({gave_up} gave up)");
        assert!(gave_up * 50 < done, "{gave_up} of {} quick forms gave up", done + gave_up);
    }
}
