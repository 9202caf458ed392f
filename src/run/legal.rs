//! The legal actions at a waiting point: the open branches, each actor, each argument of
//! the action's finite domain (or the branch's `choices`), kept when the checks pass.

use std::rc::Rc;

use super::eval::bind;
use super::{DeadEnd, Event, Machine, Passed, Run, Source};
use crate::program::value::{Text, Value};
use crate::program::{Branch, Choose, DrawnFrom, E, Program, Shape, X, field_index};

/// A branch open at a waiting point, with its actors and whether it is an `always` record.
pub(super) type OpenBranch<'p> = (&'p Branch, Actors, bool);

/// Who may take a branch's action here: one actor (most branches, built with no list), or a
/// list shared with the rules' value.
pub(super) enum Actors {
    One(Value),
    Many(Rc<Vec<Value>>),
}

impl Actors {
    /// Whether `actor` is one of them.
    pub(super) fn includes(&self, actor: &Value) -> bool {
        self.iter().any(|a| a.same(actor))
    }
}

impl std::ops::Deref for Actors {
    type Target = [Value];

    fn deref(&self) -> &[Value] {
        match self {
            Actors::One(actor) => std::slice::from_ref(actor),
            Actors::Many(actors) => actors,
        }
    }
}

/// An action to try: its branch, actor, argument, and whether the branch is an `always` one.
type Try<'p> = (&'p Branch, Value, Value, bool);

/// The actions one actor could try through one branch: the branch, the actor, their
/// arguments, and whether the branch is an `always` one.
type Group<'p> = (&'p Branch, Value, Arguments, bool);

/// The arguments an actor may try an action with: a list (shared with the rules' value, not
/// copied), or every order of some items (`choices permutations(xs)`), each made only when a
/// random playout draws it, in the order `permutations` lists them.
enum Arguments {
    Listed(Rc<Vec<Value>>),
    /// The items of the collection the branch's first check requires the argument to be in
    /// (`require c in hand[p]`), or the records whose fields are items of the collections its
    /// first checks take them from (`require x.card in hand[p]`): each passes that many of
    /// the branch's first checks.
    Members(Rc<Vec<Value>>, usize),
    Orders(Rc<Vec<Value>>),
}

impl Arguments {
    fn len(&self) -> usize {
        match self {
            Arguments::Listed(items) | Arguments::Members(items, _) => items.len(),
            Arguments::Orders(items) => (1..=items.len()).product(),
        }
    }

    /// The `k`-th argument (`k < len()`).
    fn get(&self, k: usize) -> Option<Value> {
        match self {
            Arguments::Listed(items) | Arguments::Members(items, _) => items.get(k).cloned(),
            Arguments::Orders(items) => (k < self.len()).then(|| Value::list(nth_order(items, k))),
        }
    }
}

/// Arguments enumerated for one action at most; larger domains need `choices`.
const MAX_DOMAIN: usize = 4096;
/// Legal actions named in a diagnostic's help before it is shortened.
const MAX_LISTED: usize = 8;

#[derive(Debug, Clone)]
pub struct Candidate {
    pub actor: Value,
    pub action: u16,
    pub arg: Value,
    /// Drawn at random by the branch's `choices` (a shuffled deal): one of many, not the one
    /// the game called for.
    pub sampled: bool,
}

pub(super) enum Pick {
    Event(Event),
    Otherwise,
    Stop,
}

impl<'p> Machine<'p> {
    /// Branches open here, with their actors and whether they are `always` records.
    pub(super) fn open_branches(&mut self, c: Option<&'p Choose>, frame: &mut Vec<Value>) -> Run<Vec<OpenBranch<'p>>> {
        let prog = self.prog;
        let own = c.map_or(&[][..], |c| &c.branches[..]);
        // At its most, every branch is open: made at that size, the list is never grown. The
        // list of the last event is used again where it was given back (`give_open`).
        let mut open = std::mem::take(&mut self.spare_open);
        open.reserve(own.len() + prog.always.len());
        for b in own {
            if let Some(actors) = self.actors_if_open(b, None, frame)? {
                open.push((b, actors, false));
            }
        }
        // An optional point (`otherwise`) waits for its own branches only.
        if self.optional(c, frame)? {
            return Ok(open);
        }
        // The records' guards and actors are read in a frame of their own, left empty until a
        // name is bound in it: a local not bound reads as null either way, and most guards
        // bind none (`when won_open`), so most events fill and clear no slots for them.
        let mut scratch = self.take_frame(0);
        for (i, b) in prog.always.iter().enumerate() {
            if let Some(actors) = self.actors_if_open(b, Some(prog.dues.len() + i), &mut scratch)? {
                open.push((b, actors, true));
            }
        }
        self.give_frame(scratch);
        Ok(open)
    }

    /// Gives back a list of open branches, emptied, for the next event's.
    pub(super) fn give_open(&mut self, mut open: Vec<OpenBranch<'p>>) {
        open.clear();
        self.spare_open = open;
    }

    /// The actors of a branch open here; `memo` is the place its guard is remembered at, for
    /// an `always` branch.
    fn actors_if_open(&mut self, b: &Branch, memo: Option<usize>, frame: &mut Vec<Value>) -> Run<Option<Actors>> {
        if b.window && !self.open_windows[b.action as usize] {
            return Ok(None);
        }
        if let Some(g) = &b.guard {
            let open = match memo {
                Some(at) => self.truth_remembered(at, g, frame)?,
                None => self.truth(g, frame)?,
            };
            if !open {
                return Ok(None);
            }
        }
        // A list of actors is shared with the rules' value, not copied at every event.
        Ok(match self.eval(&b.actors, frame)? {
            Value::List(l) if l.is_empty() => None,
            Value::List(l) => Some(Actors::Many(l)),
            Value::Null => None,
            one => Some(Actors::One(one)),
        })
    }

    /// Every legal action here.
    pub fn legal(&mut self, c: Option<&'p Choose>, frame: &mut Vec<Value>) -> Run<Vec<Candidate>> {
        let mut out = vec![];
        for (b, actor, arguments, ambient) in self.candidates(c, frame, false)? {
            // Whether the branch's arguments are drawn is a property of its `choices`, found
            // once for all of them.
            let sampled = b.choices.as_ref().is_some_and(|x| draws_at_random(self.prog, x, &mut vec![]));
            for k in 0..arguments.len() {
                let Some(arg) = arguments.get(k) else { continue };
                let tried = (b, actor.clone(), arg, ambient);
                // Every check from the first, as a verdict has always listed what was legal:
                // the fuel that costs is part of the verdict (`tests/fuel.rs`).
                if let Some(own) = self.passes(&tried, frame, 0)? {
                    self.give_frame(own);
                    let (_, actor, arg, _) = tried;
                    out.push(Candidate { actor, action: b.action, arg, sampled });
                }
            }
        }
        Ok(out)
    }

    /// What is legal at one point of a listing that goes on past the points which may be left
    /// without an event (a live game's `legal`, a probe): the legal events here, and the
    /// actions open here when the point may be left (events of those are judged here, never
    /// at a later point).
    pub(super) fn legal_at_point(
        &mut self,
        c: Option<&'p Choose>,
        frame: &mut Vec<Value>,
        has_otherwise: bool,
    ) -> Run<(Vec<Candidate>, Vec<u16>)> {
        let here = self.legal(c, frame)?;
        let open =
            if has_otherwise { self.open_branches(c, frame)?.iter().map(|(b, ..)| b.action).collect() } else { vec![] };
        Ok((here, open))
    }

    /// Whether an action passes the checks of the branch that judges it, tried as it would be
    /// judged: in the waiting point's frame, or an `always` record in a frame of its own. When
    /// it passes: that frame of its own (empty for the waiting point's branches).
    /// From check `from` on: a random playout passes over the first check of an argument it
    /// drew from that check's own collection, which it passes by construction.
    fn passes(
        &mut self,
        (b, actor, arg, ambient): &Try<'p>,
        frame: &mut Vec<Value>,
        from: usize,
    ) -> Run<Option<Vec<Value>>> {
        let mut own = if *ambient { self.take_frame(self.prog.always_locals) } else { vec![] };
        let f: &mut Vec<Value> = if *ambient { &mut own } else { frame };
        let outer = std::mem::replace(&mut self.trying, true);
        let broken = self.checks_of(b, (actor, arg), f, false, from);
        self.trying = outer;
        if broken?.is_none() {
            return Ok(Some(own));
        }
        self.give_frame(own);
        Ok(None)
    }

    /// Every action that could be tried here, before its checks, by branch and actor. With
    /// `drawn`, for a random playout, every order of `choices permutations(xs)` is left to be
    /// made when drawn (listing what is legal makes them all, as the rules' value).
    fn candidates(&mut self, c: Option<&'p Choose>, frame: &mut Vec<Value>, drawn: bool) -> Run<Vec<Group<'p>>> {
        // As in `open_branches`: a frame that grows as names are bound in it.
        let mut scratch = self.take_frame(0);
        let open = self.open_branches(c, frame)?;
        // A group for each actor of each open branch, at the most.
        let mut out = Vec::with_capacity(open.iter().map(|(_, actors, _)| actors.len()).sum());
        for (i, (b, actors, ambient)) in open.iter().enumerate() {
            let f: &mut Vec<Value> = if *ambient { &mut scratch } else { frame };
            for actor in actors.iter() {
                // An event is judged by the first open branch of its action that its actor may
                // take: a later one never judges this actor's action here.
                if open[..i].iter().any(|(o, others, _)| o.action == b.action && others.includes(actor)) {
                    continue;
                }
                let arguments = self.arguments(b, actor, f, drawn)?;
                out.push((*b, actor.clone(), arguments, *ambient));
            }
        }
        self.give_open(open);
        self.give_frame(scratch);
        Ok(out)
    }

    fn arguments(&mut self, b: &Branch, actor: &Value, frame: &mut Vec<Value>, drawn: bool) -> Run<Arguments> {
        if let Some(choices) = &b.choices {
            if let Some(slot) = b.actor {
                bind(frame, slot, actor.clone());
            }
            if drawn && let Some(items) = self.orders_to_draw(choices, frame)? {
                return Ok(Arguments::Orders(items));
            }
            return Ok(Arguments::Listed(self.list(choices, frame)?));
        }
        let prog = self.prog;
        let shape = &prog.actions[b.action as usize].shape;
        if let Some(drawn) = b.drawn_from() {
            if let Some(slot) = b.actor {
                bind(frame, slot, actor.clone());
            }
            match drawn {
                DrawnFrom::Members(coll) => {
                    let items = self.list(coll, frame)?;
                    if items.iter().all(|v| self.fits(shape, v)) {
                        return Ok(Arguments::Members(distinct_shared(items), 1));
                    }
                }
                DrawnFrom::SubLists { coll, len } => {
                    if let Some(lists) = self.sub_lists(shape, coll, len, frame)? {
                        return Ok(Arguments::Listed(Rc::new(lists)));
                    }
                }
                DrawnFrom::Fields(given) => {
                    if let Some(records) = self.records_from(shape, &given, frame)? {
                        return Ok(Arguments::Members(Rc::new(records), given.len()));
                    }
                }
            }
        }
        Ok(Arguments::Listed(Rc::new(self.domain(shape)?.unwrap_or_default())))
    }

    /// The records a record argument's first checks take some fields from: each such field
    /// one of its collection's items (each once, in the collection's order), every other
    /// field every value of its shape, combined in the order of the shape's own domain (so
    /// that the records that pass are the ones of the domain that passed). A field left out
    /// could not pass its check. `None` where the shape is not a record with those fields, an
    /// item is not of its field's shape, or another field has no list of values or there are
    /// more than a domain may hold (the shape's own candidates are used then, as before).
    fn records_from(
        &mut self,
        shape: &Shape,
        given: &[(&Value, &X)],
        frame: &mut Vec<Value>,
    ) -> Run<Option<Vec<Value>>> {
        let Shape::Record(fields) = shape else { return Ok(None) };
        let mut values: Vec<Option<Vec<Value>>> = vec![None; fields.len()];
        for (name, coll) in given {
            let Some(i) = field_index(fields, name) else { return Ok(None) };
            let shape = &fields[i].2;
            let items = self.list(coll, frame)?;
            if !items.iter().all(|v| self.fits(shape, v)) {
                return Ok(None);
            }
            // An int outside the field's range is no argument (a transcript cannot hold it),
            // nor in the field's domain: the records that pass are the domain's that did.
            let distinct = distinct_in_order(&items);
            let (lo, hi) = if distinct.is_empty() { (None, None) } else { self.int_bounds(shape)? };
            let kept: Vec<Value> = distinct
                .into_iter()
                .filter(|v| !matches!(v, Value::Int(i) if lo.is_some_and(|lo| *i < lo) || hi.is_some_and(|hi| *i > hi)))
                .collect();
            // No record passes this check: the checks after it, and their collections, are
            // never reached.
            if kept.is_empty() {
                return Ok(Some(vec![]));
            }
            values[i] = Some(kept);
        }
        self.record_domain(fields, &values)
    }

    /// The sub-lists of a collection a list argument's checks take its items from: each
    /// choice of its items (of the required length, else of every length), in the
    /// collection's order, each list once. `None` where the shape is not a list of the
    /// collection's items, or where there are more than a domain may hold (the shape's own
    /// candidates are used then, as before).
    fn sub_lists(
        &mut self,
        shape: &Shape,
        coll: &X,
        len: Option<&X>,
        frame: &mut Vec<Value>,
    ) -> Run<Option<Vec<Value>>> {
        let Shape::List(shape_len, item, distinct) = shape else { return Ok(None) };
        let items = self.list(coll, frame)?;
        if !items.iter().all(|v| self.fits(item, v)) {
            return Ok(None);
        }
        let wanted = match len.or(shape_len.as_ref()) {
            Some(x) => match self.eval(x, frame)? {
                Value::Int(k) => Some(usize::try_from(k).unwrap_or(usize::MAX)),
                _ => return Ok(None),
            },
            None => None,
        };
        let sizes = match wanted {
            Some(k) => k..=k,
            None => 0..=items.len(),
        };
        let mut count = 0usize;
        for k in sizes.clone() {
            count = count.saturating_add(choose(items.len(), k));
        }
        if count > MAX_DOMAIN {
            return Ok(None);
        }
        let mut lists = Vec::with_capacity(count);
        for k in sizes {
            for picked in combinations_of(&items, k) {
                if *distinct && distinct_in_order(&picked).len() < picked.len() {
                    continue;
                }
                lists.push(Value::list(picked));
            }
        }
        self.burn_n(lists.len(), &coll.span)?;
        Ok(Some(distinct_in_order(&lists)))
    }

    /// For `choices permutations(xs)`: the items whose every order is an argument, evaluated
    /// one level down as the call would evaluate them. `None` for other choices, and for more
    /// items than `permutations` takes, which the call itself then reports.
    fn orders_to_draw(&mut self, choices: &X, frame: &mut Vec<Value>) -> Run<Option<Rc<Vec<Value>>>> {
        let E::Builtin(crate::program::builtins::Builtin::Permutations, args) = &choices.e else { return Ok(None) };
        let [items] = args.as_slice() else { return Ok(None) };
        self.enter(&choices.span)?;
        let items = self.list(items, frame);
        self.nesting -= 1;
        let items = items?;
        Ok((items.len() <= crate::program::builtins::MAX_PERMUTED).then_some(items))
    }

    /// Whether a value is of a shape (kind only; bounds are left to the checks).
    fn fits(&self, shape: &Shape, v: &Value) -> bool {
        match (shape, v) {
            (Shape::Card(k), Value::Card(c)) => self.prog.cards.get(*c as usize).is_some_and(|c| c.kind == *k),
            (Shape::Player, Value::Player(_)) | (Shape::Int(..), Value::Int(_)) | (Shape::Bool, Value::Bool(_)) => true,
            (Shape::Enum(e), Value::Enum(f, _)) => e == f,
            _ => false,
        }
    }

    /// An int shape's bounds, each evaluated once (`None`: no bound, or not an int shape).
    fn int_bounds(&mut self, shape: &Shape) -> Run<(Option<i64>, Option<i64>)> {
        let Shape::Int(lo, hi) = shape else { return Ok((None, None)) };
        let mut bound = |b: &Option<X>| -> Run<Option<i64>> {
            Ok(match b {
                Some(x) => match self.eval(x, &mut vec![])? {
                    Value::Int(n) => Some(n),
                    _ => None,
                },
                None => None,
            })
        };
        Ok((bound(lo)?, bound(hi)?))
    }

    /// Every argument of an action, when its shape is finite and small.
    pub fn arguments_of(&mut self, action: u16) -> Option<Vec<Value>> {
        let prog = self.prog;
        self.domain(&prog.actions.get(action as usize)?.shape).ok().flatten()
    }

    /// All values of a shape, when there are few enough to list.
    fn domain(&mut self, shape: &Shape) -> Run<Option<Vec<Value>>> {
        Ok(Some(match shape {
            Shape::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Shape::Null => vec![Value::Null],
            Shape::Literal(s) => vec![Value::Str(s.clone())],
            Shape::Player => (0..self.players.len()).map(|i| Value::Player(i as u8)).collect(),
            Shape::Card(k) => self.prog.kinds[*k as usize].cards.clone().map(Value::Card).collect(),
            Shape::Enum(e) => {
                (0..self.prog.enums[*e as usize].variants.len()).map(|v| Value::Enum(*e, v as u16)).collect()
            }
            Shape::Int(Some(lo), Some(hi)) => {
                let (Value::Int(lo), Value::Int(hi)) = (self.eval(lo, &mut vec![])?, self.eval(hi, &mut vec![])?)
                else {
                    return Ok(None);
                };
                if hi.saturating_sub(lo) as usize > MAX_DOMAIN {
                    return Ok(None);
                }
                (lo..=hi).map(Value::Int).collect()
            }
            Shape::Union(alts) => {
                let mut all = vec![];
                for a in alts {
                    all.extend(self.domain(a)?.unwrap_or_default());
                }
                all
            }
            Shape::Record(fields) => return self.record_domain(fields, &[]),
            _ => return Ok(None),
        }))
    }

    /// Every record of the fields' values, the first field's varying slowest: each field's
    /// value from `given` where it names them (such a field is never left out), else from
    /// its shape's domain.
    fn record_domain(
        &mut self,
        fields: &[(Text, bool, Shape)],
        given: &[Option<Vec<Value>>],
    ) -> Run<Option<Vec<Value>>> {
        let mut rows: Vec<Vec<(Value, Value)>> = vec![vec![]];
        for (i, (name, optional, shape)) in fields.iter().enumerate() {
            let (values, omissible) = match given.get(i) {
                Some(Some(values)) => (values.clone(), false),
                _ => match self.domain(shape)? {
                    Some(values) => (values, *optional),
                    None => return Ok(None),
                },
            };
            let mut next = vec![];
            for row in &rows {
                if omissible {
                    next.push(row.clone());
                }
                for v in &values {
                    let mut r = row.clone();
                    r.push((Value::Str(name.clone()), v.clone()));
                    next.push(r);
                }
            }
            if next.len() > MAX_DOMAIN {
                return Ok(None);
            }
            rows = next;
        }
        Ok(Some(rows.into_iter().map(Value::map).collect()))
    }

    /// The legal actions in words, shortened when many, for a diagnostic's help.
    /// The first legal actions in words, and `N more` for the rest.
    /// The legal actions in words; one drawn at random is named by its kind, not its value.
    pub(super) fn legal_descriptions(&self, legal: &[Candidate]) -> Vec<String> {
        let mut words: Vec<String> = vec![];
        for k in legal.iter().take(MAX_LISTED) {
            let word = if k.sampled {
                let action = &self.prog.actions[k.action as usize].name;
                format!("{} {action} (any the rules allow)", self.who(&k.actor))
            } else {
                self.describe(k)
            };
            if !words.contains(&word) {
                words.push(word);
            }
        }
        if legal.len() > MAX_LISTED {
            words.push(format!("{} more", legal.len() - MAX_LISTED));
        }
        words
    }

    pub fn describe(&self, k: &Candidate) -> String {
        let action = &self.prog.actions[k.action as usize].name;
        match &k.arg {
            Value::Null => format!("{} {action}", self.who(&k.actor)),
            arg => format!("{} {action} {}", self.who(&k.actor), super::show(self.prog, &self.players, arg)),
        }
    }

    /// In a random playout: one of the legal actions (or leaving an optional point).
    pub(super) fn pick_random(&mut self, c: Option<&'p Choose>, frame: &mut Vec<Value>) -> Run<Pick> {
        self.passed = None;
        let (limit, made) = match &self.source {
            Source::Random { limit, made, .. } => (*limit, made.len()),
            // A live game draws one event at a time, as long as it goes on.
            Source::Live(_) => (usize::MAX, self.taken),
            _ => return Ok(Pick::Stop),
        };
        let optional = self.optional(c, frame)?;
        // Stopping leaves an optional point the way the end of a transcript does.
        if self.finished || made >= limit {
            return Ok(if optional { Pick::Otherwise } else { Pick::Stop });
        }
        // The first legal one of the candidates in a random order is uniform among the legal
        // ones, without checking them all. Leaving an optional point is one more candidate.
        // Only the candidate tried is made: an index of the whole list, in the same order and
        // with the same draws as when every candidate was listed, so a seed plays the same game.
        let mut groups = self.candidates(c, frame, true)?;
        // A live game may draw one action by one actor only (a chance move it was asked for).
        let only = match &self.source {
            Source::Live(live) => live.only.clone(),
            _ => None,
        };
        if let Some((actor, action)) = &only {
            groups.retain(|(b, by, ..)| b.action == *action && by.same(actor));
        }
        let leave = optional && only.is_none();
        let count: usize = groups.iter().map(|(_, _, arguments, _)| arguments.len()).sum();
        let mut order: Vec<usize> = (0..count + usize::from(leave)).collect();
        self.rng.shuffle(&mut order);
        let mut chosen = None;
        for i in order {
            let Some((tried, from)) = nth_candidate(&groups, i) else { return Ok(Pick::Otherwise) };
            if let Some(own) = self.passes(&tried, frame, from)? {
                chosen = Some((tried, own));
                break;
            }
        }
        let Some(((b, actor, arg, ambient), own)) = chosen else {
            // Nothing legal, not finished, before the cap: the game cannot go on.
            self.dead_end = Some(match c {
                Some(c) => DeadEnd::Choose(c.span.clone()),
                None => DeadEnd::AfterFlow(self.where_the_flow_ended()),
            });
            return Ok(Pick::Stop);
        };
        // It passed the checks of the branch that judges it: judging it again would only
        // repeat them, so `dispatch` plays it as it stands.
        self.passed = Some(Passed { branch: b, ambient, frame: own });
        let event = Event { actor, action: b.action, arg, index: made, line: 0, span: 0..0 };
        if let Source::Random { made, .. } = &mut self.source {
            made.push(event.clone());
        }
        Ok(Pick::Event(event))
    }
}

/// Adds a point's legal events to a listing (`legal_at_point`), less those of the actions an
/// earlier point judged, and notes the actions this point judges.
pub(super) fn add_point(found: &mut Vec<Candidate>, judged: &mut Vec<u16>, (here, open): (Vec<Candidate>, Vec<u16>)) {
    found.extend(here.into_iter().filter(|k| !judged.contains(&k.action)));
    judged.extend(open);
}

/// How many ways there are to choose `k` of `n` (0 past `n`), saturating.
fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Every choice of `k` of the items, by position, in lexicographic order of positions.
fn combinations_of(items: &[Value], k: usize) -> Vec<Vec<Value>> {
    let n = items.len();
    if k > n {
        return vec![];
    }
    let mut out = vec![];
    let mut at: Vec<usize> = (0..k).collect();
    loop {
        out.push(at.iter().map(|&i| items[i].clone()).collect());
        // The rightmost position that can still move right, and everything after it reset.
        let Some(i) = (0..k).rev().find(|&i| at[i] < n - k + i) else { return out };
        at[i] += 1;
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
        }
    }
}

/// Candidate `i` of the groups, counted through each group's arguments in turn, and the
/// first of its branch's checks it still has to pass.
fn nth_candidate<'p>(groups: &[Group<'p>], mut i: usize) -> Option<(Try<'p>, usize)> {
    for (b, actor, arguments, ambient) in groups {
        let len = arguments.len();
        if i < len {
            let from = if let Arguments::Members(_, passed) = arguments { *passed } else { 0 };
            return Some(((*b, actor.clone(), arguments.get(i)?, *ambient), from));
        }
        i -= len;
    }
    None
}

/// Order `k` of the items (`k` below the number of orders), counting as `permutations` lists
/// them (their positions in lexicographic order): each position's item is picked by the
/// digits of `k` in the factorial number system.
fn nth_order(items: &[Value], mut k: usize) -> Vec<Value> {
    let mut left: Vec<&Value> = items.iter().collect();
    let mut out = Vec::with_capacity(items.len());
    while !left.is_empty() {
        // The orders of the items after this position, each block of them led by one item.
        let block: usize = (1..left.len()).product();
        // Below the items left for any `k` below the number of orders; the remainder keeps
        // any other `k` from picking past them.
        let pick = k / block % left.len();
        k %= block;
        out.push(left.remove(pick).clone());
    }
    out
}

/// `distinct_in_order`, sharing the list itself where nothing repeats in it: told, for a hand
/// of cards, by a set of the cards' numbers, without a new list or a comparison of each card
/// with the others.
fn distinct_shared(items: Rc<Vec<Value>>) -> Rc<Vec<Value>> {
    if cards_all_distinct(&items) { items } else { Rc::new(distinct_in_order(&items)) }
}

/// Whether the items are all cards numbered below 256, none of them twice.
fn cards_all_distinct(items: &[Value]) -> bool {
    let mut seen = [0u64; 4];
    items.iter().all(|v| {
        let Value::Card(card) = v else { return false };
        let Some(word) = seen.get_mut(*card as usize / 64) else { return false };
        let bit = 1u64 << (card % 64);
        let fresh = *word & bit == 0;
        *word |= bit;
        fresh
    })
}

/// The items without repeats, in their order. A hand is short: comparing each item with the
/// ones kept costs less than hashing it.
fn distinct_in_order(items: &[Value]) -> Vec<Value> {
    const HASHED_FROM: usize = 64;
    let mut kept: Vec<Value> = Vec::with_capacity(items.len());
    if items.len() < HASHED_FROM {
        for v in items {
            if !kept.iter().any(|k| k.same(v)) {
                kept.push(v.clone());
            }
        }
        return kept;
    }
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    kept.extend(items.iter().filter(|v| seen.insert(*v)).cloned());
    kept
}

/// Whether an expression draws at random (`shuffle`), directly or in a function it calls.
fn draws_at_random(prog: &Program, x: &X, seen: &mut Vec<u16>) -> bool {
    match &x.e {
        E::Builtin(crate::program::builtins::Builtin::Shuffle, _) => true,
        E::CallFn(f, args) => {
            let body_draws = !seen.contains(f) && {
                seen.push(*f);
                draws_at_random(prog, &prog.fns[*f as usize].body, seen)
            };
            body_draws || args.iter().any(|a| draws_at_random(prog, a, seen))
        }
        _ => x.children().iter().any(|c| draws_at_random(prog, c, seen)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each order drawn is the order `permutations` lists at that place, for every size it takes.
    #[test]
    fn the_nth_order_is_the_nth_permutation() {
        for n in 0..=6 {
            let items: Vec<Value> = (0..n).map(|i| Value::Int(i * 10)).collect();
            let listed = super::super::eval::permutations(&items);
            let orders = Arguments::Orders(Rc::new(items.clone()));
            assert_eq!(orders.len(), listed.len(), "{n} items");
            let count = listed.len();
            for (k, order) in listed.into_iter().enumerate() {
                assert_eq!(orders.get(k), Some(Value::list(order)), "order {k} of {n} items");
            }
            assert_eq!(orders.get(count), None, "past the last order of {n} items");
        }
    }

    /// A list of cards without repeats is shared as it is; one with a repeat, a card numbered
    /// past the set's 256, or an item that is no card is made anew without repeats.
    #[test]
    fn a_list_is_shared_where_nothing_repeats_in_it() {
        let cards = |numbers: &[u32]| Rc::new(numbers.iter().map(|n| Value::Card(*n)).collect::<Vec<_>>());
        let hand = cards(&[0, 63, 64, 127, 128, 255, 7]);
        assert!(Rc::ptr_eq(&distinct_shared(hand.clone()), &hand));
        for (given, expected) in [
            (cards(&[5, 70, 5]), cards(&[5, 70])),
            (cards(&[64, 0, 64]), cards(&[64, 0])),
            (cards(&[255, 255]), cards(&[255])),
            (cards(&[3, 256, 3]), cards(&[3, 256])),
            (cards(&[300, 4]), cards(&[300, 4])),
            (Rc::new(vec![Value::Card(1), Value::Int(1)]), Rc::new(vec![Value::Card(1), Value::Int(1)])),
        ] {
            let shared = distinct_shared(given.clone());
            assert_eq!(shared, expected, "{given:?}");
            assert!(!Rc::ptr_eq(&shared, &given), "{given:?} is made anew");
        }
    }

    #[test]
    fn repeats_are_dropped_in_order_short_or_long() {
        for len in [0, 5, 63, 64, 65, 200] {
            let items: Vec<Value> = (0..len).map(|i| Value::Int((i * 7) % 40)).collect();
            let mut expected: Vec<Value> = vec![];
            for v in &items {
                if !expected.contains(v) {
                    expected.push(v.clone());
                }
            }
            assert_eq!(distinct_in_order(&items), expected, "{len} items");
        }
    }
}
