//! Run-time values of the rules language.

use std::collections::HashMap;
use std::rc::Rc;

/// A text value: one pointer, so that a value is two words (a tag and a pointer or a
/// number) rather than three.
pub type Text = Rc<String>;

/// A value. Lists and maps share their storage; cloning is cheap.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u64)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Str(Text),
    /// A seat: the index in the transcript's `players`.
    Player(u8),
    /// The table, actor of chance outcomes and records.
    Table,
    /// An index into the program's card table.
    Card(u32),
    /// An enum and one of its variants.
    Enum(u16, u16),
    List(Rc<Vec<Value>>),
    /// Keys in insertion order; records are maps with string keys.
    Map(Rc<Vec<(Value, Value)>>),
}

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
    }

    pub fn map(entries: Vec<(Value, Value)>) -> Value {
        Value::Map(Rc::new(entries))
    }

    pub fn str(s: &str) -> Value {
        Value::Str(Rc::new(s.to_string()))
    }

    /// Looks a key up in a map.
    pub fn get(&self, key: &Value) -> Option<&Value> {
        match self {
            Value::Map(m) => lookup(m, key),
            _ => None,
        }
    }

    /// `==`, with the scalars that searches meet most (seats, cards, ints, enum values)
    /// compared in place: a map lookup or `in` compares the item with every entry.
    #[inline]
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Player(a), Value::Player(b)) => a == b,
            (Value::Card(a), Value::Card(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Enum(a, b), Value::Enum(c, d)) => a == c && b == d,
            (Value::Str(a), Value::Str(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => self == other,
        }
    }

    /// The name of this value's type, in the words a spec author uses.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Str(_) => "str",
            Value::Player(_) => "player",
            Value::Table => "table",
            Value::Card(_) => "card",
            Value::Enum(..) => "enum value",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }
}

impl Value {
    /// The work a value stands for: every value inside it, counted each time it is reached
    /// (a list shared a thousand times counts a thousand times), stopping past `cap`.
    /// Never less than 1.
    #[inline]
    pub fn weight(&self, cap: usize) -> usize {
        // Scalars are weighed where they are met: this is asked of every compared value.
        match self {
            Value::List(_) | Value::Map(_) => self.collection_weight(cap),
            Value::Str(s) => 1 + s.len() / 16,
            _ => 1,
        }
    }

    /// The smaller of two values' weights (exact up to `cap`, past it when both are). The side
    /// with fewer items is weighed first, and the other only up to that weight: `deck == []`
    /// weighs `[]` and stops, without walking the deck. A weight is never below 1, so a side
    /// that weighs 1 spares weighing the other.
    // Inlined where `==` and `!=` compare: left to the compiler, it is called out of line there
    // once other callers of the operators' code appear (0.1% of the instructions of checking).
    #[inline(always)]
    pub fn lighter_weight(a: &Value, b: &Value, cap: usize) -> usize {
        // Most comparisons have a side that is neither a text nor a collection: it weighs 1,
        // and nothing weighs less.
        let weighs_one = |v: &Value| !matches!(v, Value::Str(_) | Value::List(_) | Value::Map(_));
        if weighs_one(a) || weighs_one(b) {
            return 1;
        }
        let (first, second) = if a.items() <= b.items() { (a, b) } else { (b, a) };
        match first.weight(cap) {
            1 => 1,
            w => second.weight(w).min(w),
        }
    }

    /// How many items a list or map holds at its top level (none for a scalar).
    fn items(&self) -> usize {
        match self {
            Value::List(items) => items.len(),
            Value::Map(entries) => 2 * entries.len(),
            _ => 0,
        }
    }

    fn collection_weight(&self, cap: usize) -> usize {
        /// A value's weight when it is no list or map (`weight`).
        fn scalar_weight(v: &Value) -> Option<usize> {
            match v {
                Value::List(_) | Value::Map(_) => None,
                Value::Str(s) => Some(1 + s.len() / 16),
                _ => Some(1),
            }
        }
        /// The weight of a list or map whose items are scalars or flat lists and maps; `None`
        /// for a deeper one. Stopped past `cap` as the walk is: the items may all be one large
        /// list, shared.
        fn shallow_weight(v: &Value, cap: usize) -> Option<usize> {
            let mut n = 1usize;
            let mut add = |item: &Value| -> Option<bool> {
                n += flat_weight(item)?;
                Some(n <= cap)
            };
            match v {
                Value::List(items) => {
                    for item in items.iter() {
                        if !add(item)? {
                            break;
                        }
                    }
                }
                Value::Map(entries) => {
                    for (k, v) in entries.iter() {
                        if !(add(k)? && add(v)?) {
                            break;
                        }
                    }
                }
                other => return scalar_weight(other),
            }
            Some(n)
        }
        /// A flat list's or map's weight, or a scalar's; `None` for a list or map that holds one.
        // In line: out of line, each flat list weighed (most are) pays a call.
        #[inline(always)]
        fn flat_weight(v: &Value) -> Option<usize> {
            match v {
                Value::List(items) => items.iter().try_fold(1usize, |n, v| Some(n + scalar_weight(v)?)),
                Value::Map(entries) => {
                    entries.iter().try_fold(1usize, |n, (k, v)| Some(n + scalar_weight(k)? + scalar_weight(v)?))
                }
                other => scalar_weight(other),
            }
        }
        // Most lists and maps a game builds are flat (a hand), and most others nest two levels
        // (a trick of records, a list of pairs): counted without the walk's stack.
        if let Some(n) = flat_weight(self).or_else(|| shallow_weight(self, cap)) {
            return n;
        }
        // Each collection's scalars are counted where they are met; only its collections wait
        // their turn. Past `cap` the walk stops, at most one collection's items later.
        let mut count = 0usize;
        // Room for the collections of a deal or a trick at once: grown from one, the stack
        // was allocated twice for most walks.
        let mut pending: Vec<&Value> = Vec::with_capacity(16);
        pending.push(self);
        /// A scalar's weight, or 0 for a collection, which waits its turn.
        fn meet<'v>(v: &'v Value, pending: &mut Vec<&'v Value>) -> usize {
            scalar_weight(v).unwrap_or_else(|| {
                pending.push(v);
                0
            })
        }
        while let Some(v) = pending.pop() {
            count += 1;
            if count > cap {
                break;
            }
            match v {
                Value::List(items) => items.iter().for_each(|item| count += meet(item, &mut pending)),
                Value::Map(entries) => {
                    entries.iter().for_each(|(k, v)| count += meet(k, &mut pending) + meet(v, &mut pending))
                }
                _ => {}
            }
        }
        count
    }

    /// Whether lists and maps nest more than `limit` deep inside this value. A value that
    /// shares its parts (`x = [x, x]` in a loop) is walked once per shared part, not once
    /// per path, so the answer never costs more than the value's size in memory.
    // Inlined where it is asked (every value a `let` or an assignment keeps): most are scalars.
    #[inline]
    pub fn deeper_than(&self, limit: usize) -> bool {
        matches!(self, Value::List(_) | Value::Map(_)) && self.collection_deeper_than(limit)
    }

    fn collection_deeper_than(&self, limit: usize) -> bool {
        // Most values a game keeps nest two levels at most (a trick of records, a deal of
        // hands): told by looking at their items, without the walk's count of the work done.
        if let Some(depth) = self.depth_if_shallow() {
            return depth > limit;
        }
        let mut work = 0;
        match self.deeper_than_quickly(limit, &mut work) {
            Some(answer) => answer,
            None => self.depth(&mut HashMap::new()) > limit,
        }
    }

    /// How many levels of lists and maps this value nests, when that is two at most: `None`
    /// for a deeper value, and also once the lists and maps inside hold more than `SCANNED`
    /// items between them (a value that shares one long list many times is left to the walk,
    /// which measures a shared part once).
    fn depth_if_shallow(&self) -> Option<usize> {
        const SCANNED: usize = 4096;
        fn scalar(v: &Value) -> bool {
            !matches!(v, Value::List(_) | Value::Map(_))
        }
        let mut left = SCANNED;
        let mut nests = false;
        let mut flat = |v: &Value| {
            if scalar(v) {
                return true;
            }
            nests = true;
            let Some(rest) = left.checked_sub(v.items()) else { return false };
            left = rest;
            match v {
                Value::List(items) => items.iter().all(scalar),
                Value::Map(entries) => entries.iter().all(|(k, v)| scalar(k) && scalar(v)),
                _ => true,
            }
        };
        let shallow = match self {
            Value::List(items) => items.iter().all(&mut flat),
            Value::Map(entries) => entries.iter().all(|(k, v)| flat(k) && flat(v)),
            _ => return Some(0),
        };
        shallow.then_some(if nests { 2 } else { 1 })
    }

    /// The plain walk, for the usual small values; `None` once it has looked at too many
    /// lists and maps.
    fn deeper_than_quickly(&self, limit: usize, work: &mut usize) -> Option<bool> {
        *work += 1;
        if *work > 4096 {
            return None;
        }
        match self {
            Value::List(items) => children_deeper_than(items.iter(), limit, work),
            Value::Map(entries) => children_deeper_than(entries.iter().flat_map(|(k, v)| [k, v]), limit, work),
            _ => Some(false),
        }
    }

    /// How many lists and maps nest inside this value, each shared part measured once.
    fn depth(&self, seen: &mut HashMap<*const (), usize>) -> usize {
        let (key, children): (*const (), Vec<&Value>) = match self {
            Value::List(items) => (Rc::as_ptr(items).cast(), items.iter().collect()),
            Value::Map(entries) => (Rc::as_ptr(entries).cast(), entries.iter().flat_map(|(k, v)| [k, v]).collect()),
            _ => return 0,
        };
        if let Some(d) = seen.get(&key) {
            return *d;
        }
        let d = 1 + children.into_iter().map(|c| c.depth(seen)).max().unwrap_or(0);
        seen.insert(key, d);
        d
    }
}

/// The value of `key` in a map's entries. A record's field names are the rules file's own
/// texts, shared rather than copied, so a field is first looked for by its text's address:
/// no name is compared letter by letter (`card` against `suit`) on the way to it.
#[inline]
pub fn lookup<'m>(entries: &'m [(Value, Value)], key: &Value) -> Option<&'m Value> {
    if let Value::Str(name) = key
        && let Some((_, v)) = entries.iter().find(|(k, _)| matches!(k, Value::Str(t) if Rc::ptr_eq(t, name)))
    {
        return Some(v);
    }
    entries.iter().find(|(k, _)| k.same(key)).map(|(_, v)| v)
}

/// Whether a list or map with these children nests more than `limit` deep.
fn children_deeper_than<'v>(children: impl Iterator<Item = &'v Value>, limit: usize, work: &mut usize) -> Option<bool> {
    if limit == 0 {
        return Some(true);
    }
    for child in children {
        // A scalar nests nothing: it is passed over without a call.
        if matches!(child, Value::List(_) | Value::Map(_)) && child.deeper_than_quickly(limit - 1, work)? {
            return Some(true);
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value is two words: a tag and a number or one pointer. Values are moved and
    /// copied everywhere, and a third word costs every one of them.
    #[test]
    fn a_value_is_two_words() {
        assert_eq!(std::mem::size_of::<Value>(), 2 * std::mem::size_of::<usize>());
    }

    /// A field is found by its text whether or not the key shares the name's storage.
    #[test]
    fn a_key_is_found_by_its_address_or_its_text() {
        let name: Text = Rc::new("card".into());
        let entries = vec![(Value::str("suit"), Value::Int(1)), (Value::Str(name.clone()), Value::Int(2))];
        assert_eq!(lookup(&entries, &Value::Str(name)), Some(&Value::Int(2)));
        assert_eq!(lookup(&entries, &Value::str("card")), Some(&Value::Int(2)), "another copy of the text");
        assert_eq!(lookup(&entries, &Value::str("suit")), Some(&Value::Int(1)));
        assert_eq!(lookup(&entries, &Value::str("rank")), None);
        assert_eq!(lookup(&entries, &Value::Int(2)), None);
    }

    /// `same` is `==` for every pair of values, scalars of every kind among them.
    #[test]
    fn same_is_equality() {
        let values = [
            Value::Null,
            Value::Table,
            Value::Bool(true),
            Value::Int(3),
            Value::Int(4),
            Value::str("a"),
            Value::str("b"),
            Value::Player(0),
            Value::Player(1),
            Value::Card(7),
            Value::Card(8),
            Value::Enum(1, 2),
            Value::Enum(1, 3),
            Value::Enum(2, 2),
            Value::list(vec![Value::Int(3)]),
            Value::map(vec![(Value::Int(3), Value::Null)]),
        ];
        // The same values built again: equal, sharing no storage with the first ones.
        let fresh = |v: &Value| match v {
            Value::Str(s) => Value::str(s),
            Value::List(l) => Value::list(l.to_vec()),
            Value::Map(m) => Value::map(m.to_vec()),
            other => other.clone(),
        };
        for a in &values {
            for b in &values {
                assert_eq!(a.same(b), a == b, "{a:?} {b:?}");
                assert_eq!(a.same(&fresh(b)), a == b, "{a:?} and a fresh {b:?}");
            }
        }
    }

    /// A weight is the plain definition (one for each value inside, a list or map counted too,
    /// and one more for every 16 bytes of a text) whenever that is within the cap, and past the
    /// cap whenever that is: flat and nested lists and maps, texts as items and keys, a list
    /// shared many times over.
    #[test]
    fn a_weight_counts_every_value_inside() {
        fn plain(v: &Value) -> usize {
            match v {
                Value::List(items) => 1 + items.iter().map(plain).sum::<usize>(),
                Value::Map(entries) => 1 + entries.iter().map(|(k, v)| plain(k) + plain(v)).sum::<usize>(),
                Value::Str(s) => 1 + s.len() / 16,
                _ => 1,
            }
        }
        let flat = Value::list((0..50).map(Value::Int).collect());
        let text = Value::str(&"x".repeat(100));
        let nested =
            Value::list(vec![flat.clone(), Value::list(vec![]), text.clone(), Value::list(vec![text.clone()])]);
        let keyed =
            Value::map(vec![(text.clone(), nested.clone()), (nested.clone(), Value::Null), (Value::Int(1), text)]);
        let record = Value::map(vec![(Value::str("card"), Value::Card(1)), (Value::str("up"), Value::Bool(true))]);
        let values = [
            Value::Int(3),
            flat.clone(),
            nested.clone(),
            keyed.clone(),
            Value::list(vec![nested; 40]),
            Value::map(vec![(Value::Player(0), flat.clone()), (Value::Player(1), keyed)]),
            Value::list(vec![record; 4]),
            Value::list(vec![flat.clone(), Value::Int(1), Value::map(vec![(Value::Int(2), flat)])]),
        ];
        for v in &values {
            let exact = plain(v);
            for cap in [0, 1, 2, 5, 50, 51, 52, exact - 1, exact, exact + 1, usize::MAX] {
                match v.weight(cap) {
                    w if exact <= cap => assert_eq!(w, exact, "{v:?} cap {cap}"),
                    w => assert!(w > cap, "{v:?} cap {cap}: {w}"),
                }
            }
        }
    }

    /// A list that holds one large list many times over weighs 10^11: weighing it up to a cap
    /// stops soon past the cap, two levels deep as deeper (a weight counted to the end would
    /// take minutes).
    #[test]
    fn a_weight_stops_past_its_cap() {
        let large = Value::list((0..100_000).map(Value::Int).collect());
        let shared = Value::list(vec![large; 1_000_000]);
        for cap in [0, 1_000, 1_000_000] {
            assert!(shared.weight(cap) > cap);
            assert!(Value::list(vec![shared.clone()]).weight(cap) > cap);
        }
    }

    /// `deeper_than` is the plain depth against the limit, whichever way it is told: two levels
    /// at most, by the walk, or by the measure of shared parts past the walk's work. Values one
    /// and two levels deep in lists, maps and keys; three and more, a map inside a list among
    /// them; a list of records; a long flat list shared past the scan's budget, two levels deep
    /// and three.
    #[test]
    fn deeper_than_is_the_plain_depth_against_the_limit() {
        fn plain(v: &Value) -> usize {
            match v {
                Value::List(items) => 1 + items.iter().map(plain).max().unwrap_or(0),
                Value::Map(entries) => 1 + entries.iter().map(|(k, v)| plain(k).max(plain(v))).max().unwrap_or(0),
                _ => 0,
            }
        }
        let flat = Value::list((0..50).map(Value::Int).collect());
        let record = Value::map(vec![(Value::str("card"), Value::Card(1)), (Value::str("counts"), Value::Bool(true))]);
        let two = Value::list(vec![Value::Int(1), flat.clone(), Value::map(vec![])]);
        let keyed_two = Value::map(vec![(flat.clone(), Value::Int(1))]);
        let three = Value::list(vec![Value::Int(1), two.clone()]);
        let keyed_three = Value::map(vec![(Value::Int(1), Value::Null), (two.clone(), Value::Null)]);
        // A map inside a list, holding a list as a value or as a key: three levels.
        let map_value_three = Value::list(vec![Value::map(vec![(Value::Int(1), flat.clone())])]);
        let map_key_three = Value::list(vec![Value::map(vec![(flat.clone(), Value::Int(1))])]);
        let shared_two = Value::list(vec![flat.clone(); 200]);
        // Three levels deep only in its last item, which comes after the scan's budget is spent.
        let wide_two = Value::list([(0..60).map(Value::Int).collect(), vec![flat.clone()]].concat());
        let shared_three = Value::list([vec![flat.clone(); 100], vec![wide_two]].concat());
        let values = [
            Value::Int(3),
            Value::list(vec![]),
            flat,
            Value::list(vec![record.clone(); 4]),
            record,
            two,
            keyed_two,
            three.clone(),
            keyed_three,
            map_value_three,
            map_key_three,
            Value::list(vec![three; 3]),
            shared_two,
            shared_three,
        ];
        for v in &values {
            for limit in 0..6 {
                assert_eq!(v.deeper_than(limit), plain(v) > limit, "{v:?} against {limit}");
            }
        }
    }

    /// `lighter_weight` equals the plain definition, the smaller of both weights taken with the
    /// same cap, whenever that is within the cap, and is past the cap whenever that is:
    /// scalars, long texts, flat and nested lists and maps, a list shared many times over.
    #[test]
    fn the_lighter_weight_is_the_smaller_weight() {
        let flat = Value::list((0..50).map(Value::Int).collect());
        let nested = Value::list(vec![flat.clone(), Value::list(vec![]), Value::str(&"x".repeat(100))]);
        let shared = Value::list(vec![nested.clone(); 40]);
        let map = Value::map(vec![(Value::str("a"), flat.clone()), (Value::Int(1), Value::Null)]);
        let values = [
            Value::Null,
            Value::Int(3),
            Value::str(&"long text ".repeat(20)),
            Value::list(vec![]),
            flat,
            nested,
            shared,
            map,
        ];
        for a in &values {
            for b in &values {
                for cap in [0, 1, 5, 51, 60, 200, 5_000, usize::MAX] {
                    let plain = a.weight(cap).min(b.weight(cap));
                    let lighter = Value::lighter_weight(a, b, cap);
                    if plain <= cap {
                        assert_eq!(lighter, plain, "{a:?} {b:?} cap {cap}");
                    } else {
                        assert!(lighter > cap, "{a:?} {b:?} cap {cap}: {lighter}");
                    }
                }
            }
        }
    }
}
