//! The coarse types of the static check and how they combine. A type says what a value is
//! whenever it is not null (null compares with anything, so it never makes a check wrong);
//! `Unknown` says nothing and is never an error, and `Never` is null or no value at all
//! (`null`, an empty list's items, a helper that never returns, a variable not typed yet
//! while the checker looks for a fixed point).

use std::rc::Rc;

use crate::lang::ast::AssignOp;
use crate::program::Shape;
use crate::program::value::Value;

/// Types nest at most this deep; deeper parts are `Unknown`, so that joining always ends
/// (`x = [x]` in a loop would otherwise grow a type forever).
const MAX_DEPTH: usize = 6;

pub(super) use crate::program::types::{Field, Type as T};

impl T {
    pub fn words(&self) -> &'static str {
        match self {
            T::Never | T::Unknown => "a value",
            T::Int => "an int",
            T::Bool => "a bool",
            T::Str => "a string",
            T::Player => "a player",
            T::Card(_) => "a card",
            T::Enum(_) => "an enum value",
            T::List(_) => "a list",
            T::Map(..) => "a map",
            T::Record(_) => "a record",
        }
    }

    /// Whether the type says nothing a check could hold against a value.
    pub fn vague(&self) -> bool {
        matches!(self, T::Unknown | T::Never)
    }

    pub fn list(item: T) -> T {
        T::List(Rc::new(item))
    }

    pub fn map(k: T, v: T) -> T {
        T::Map(Rc::new(k), Rc::new(v))
    }

    /// A record as the map it is: string keys, any of its fields' values.
    pub fn record_as_map(fields: &[Field]) -> T {
        let value = fields.iter().fold(T::Never, |acc, f| join(&acc, &f.t));
        T::map(T::Str, value)
    }

    /// The type of `x.name` on a record of this type: `None` when no record of it has the
    /// field; a field only some records have may be null, so it says nothing.
    pub fn field(fields: &[Field], name: &str) -> Option<T> {
        let f = fields.iter().find(|f| &*f.name == name)?;
        Some(if f.always { f.t.clone() } else { T::Unknown })
    }
}

/// The least type that holds the values of both.
pub(super) fn join(a: &T, b: &T) -> T {
    cut(join_any(a, b), MAX_DEPTH)
}

fn join_any(a: &T, b: &T) -> T {
    match (a, b) {
        (T::Never, other) | (other, T::Never) => other.clone(),
        (T::List(x), T::List(y)) => T::list(join_any(x, y)),
        (T::Map(k, v), T::Map(k2, v2)) => T::map(join_any(k, k2), join_any(v, v2)),
        (T::Record(f), T::Record(g)) => T::Record(join_fields(f, g)),
        (T::Record(f), m @ T::Map(..)) | (m @ T::Map(..), T::Record(f)) => join_any(&T::record_as_map(f), m),
        _ if a == b => a.clone(),
        _ => T::Unknown,
    }
}

/// Every field of either; one that only one side has is not always there.
fn join_fields(f: &[Field], g: &[Field]) -> Vec<Field> {
    let mut out: Vec<Field> = f
        .iter()
        .map(|a| match g.iter().find(|b| b.name == a.name) {
            Some(b) => Field { name: a.name.clone(), t: join_any(&a.t, &b.t), always: a.always && b.always },
            None => Field { always: false, ..a.clone() },
        })
        .collect();
    out.extend(g.iter().filter(|b| !f.iter().any(|a| a.name == b.name)).map(|b| Field { always: false, ..b.clone() }));
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// `t` with everything below `depth` levels replaced by `Unknown`.
fn cut(t: T, depth: usize) -> T {
    // Most types are shallow: kept as they are, without building them again.
    if fits(&t, depth) {
        return t;
    }
    // What does not fit at the last level is neither `Never` nor `Unknown` (`fits`).
    if depth == 0 {
        return T::Unknown;
    }
    match t {
        T::List(x) => T::list(cut(Rc::unwrap_or_clone(x), depth - 1)),
        T::Map(k, v) => T::map(cut(Rc::unwrap_or_clone(k), depth - 1), cut(Rc::unwrap_or_clone(v), depth - 1)),
        T::Record(fields) => T::Record(fields.into_iter().map(|f| Field { t: cut(f.t, depth - 1), ..f }).collect()),
        other => other,
    }
}

/// Whether `t` has nothing below `depth` levels that `cut` would replace.
fn fits(t: &T, depth: usize) -> bool {
    match t {
        T::Never | T::Unknown => true,
        _ if depth == 0 => false,
        T::List(x) => fits(x, depth - 1),
        T::Map(k, v) => fits(k, depth - 1) && fits(v, depth - 1),
        T::Record(fields) => fields.iter().all(|f| fits(&f.t, depth - 1)),
        _ => true,
    }
}

/// A record type from its fields, in any order.
pub(super) fn record(mut fields: Vec<Field>) -> T {
    fields.sort_by(|a, b| a.name.cmp(&b.name));
    fields.dedup_by(|a, b| a.name == b.name);
    cut(T::Record(fields), MAX_DEPTH)
}

/// Whether `==` between values of these types can be true. Values of two kinds never are
/// and the interpreter refuses to compare them; lists and maps compare with their own kind.
pub(super) fn comparable(l: &T, r: &T) -> bool {
    match (l, r) {
        (a, b) if a.vague() || b.vague() => true,
        (T::Card(a), T::Card(b)) | (T::Enum(a), T::Enum(b)) => a == b,
        (T::Record(_) | T::Map(..), T::Record(_) | T::Map(..)) => true,
        _ => std::mem::discriminant(l) == std::mem::discriminant(r),
    }
}

/// Whether a variable declared with type `declared` may be set to a value of type `value`:
/// a value of another kind is a mistake even though the interpreter would allow it.
pub(super) fn assignable(declared: &T, value: &T) -> bool {
    match (declared, value) {
        (a, b) if a.vague() || b.vague() => true,
        (T::List(a), T::List(b)) => assignable(a, b),
        (T::Map(k, v), T::Map(k2, v2)) => assignable(k, k2) && assignable(v, v2),
        (T::Record(_) | T::Map(..), T::Record(_) | T::Map(..)) => true,
        _ => comparable(declared, value),
    }
}

/// What `x += v` or `x -= v` leaves in `x`, or `None` when the interpreter refuses it
/// (an int with a list, a list with an item, a string). A vague side could be anything.
pub(super) fn combine(slot: &T, op: AssignOp, value: &T) -> Option<T> {
    match (op, slot, value) {
        (AssignOp::Set, _, v) => Some(v.clone()),
        (_, T::Unknown, _) => Some(T::Unknown),
        (_, T::Never, _) => Some(T::Never),
        (_, T::Int, T::Int) => Some(T::Int),
        (_, T::Int, v) if v.vague() => Some(T::Int),
        (AssignOp::Add, T::List(a), T::List(b)) => Some(T::list(join(a, b))),
        // An unknown item joined with any other is unknown.
        (AssignOp::Add, T::List(_), T::Unknown) => Some(T::list(T::Unknown)),
        (_, l @ T::List(_), v) if v.vague() || matches!(v, T::List(_)) => Some(l.clone()),
        _ => None,
    }
}

/// The type of the place `keys` leads to inside a value of type `t` (vague when unknown).
pub(super) fn at_path(t: &T, keys: &[Key]) -> T {
    let Some((key, rest)) = keys.split_first() else { return t.clone() };
    let inner = match t {
        T::List(item) => (**item).clone(),
        T::Map(_, v) => (**v).clone(),
        T::Record(fields) => match &key.name {
            Some(name) => T::field(fields, name).unwrap_or(T::Unknown),
            None => return T::Unknown,
        },
        _ => return T::Unknown,
    };
    at_path(&inner, rest)
}

/// A key of an assignment's place: its type, and its text when it is a constant string (a
/// field of a record).
pub(super) struct Key {
    pub t: T,
    pub name: Option<Rc<str>>,
}

/// The type of the whole value after `x[keys] op= value`, where `x` had type `t`; a refused
/// assignment leaves nothing (`Never`), the error being reported where it stands.
pub(super) fn store(t: &T, keys: &[Key], op: AssignOp, value: &T) -> T {
    let Some((key, rest)) = keys.split_first() else {
        return combine(t, op, value).unwrap_or(T::Never);
    };
    match t {
        T::List(item) => T::list(join(item, &store(item, rest, op, value))),
        T::Map(k, v) => T::map(join(k, &key.t), join(v, &store(v, rest, op, value))),
        T::Record(fields) => match &key.name {
            Some(name) => store_field(fields, name, rest, op, value),
            None => store(&T::record_as_map(fields), keys, op, value),
        },
        T::Unknown => T::Unknown,
        _ => T::Never,
    }
}

fn store_field(fields: &[Field], name: &Rc<str>, rest: &[Key], op: AssignOp, value: &T) -> T {
    let mut out = fields.to_vec();
    match out.iter_mut().find(|f| f.name == *name) {
        Some(f) => {
            let old = if f.always { f.t.clone() } else { T::Unknown };
            f.t = join(&f.t, &store(&old, rest, op, value));
        }
        None => out.push(Field { name: name.clone(), t: store(&T::Unknown, rest, op, value), always: true }),
    }
    record(out)
}

pub(super) fn of_shape(s: &Shape) -> T {
    match s {
        Shape::Int(..) => T::Int,
        Shape::Bool => T::Bool,
        Shape::Str | Shape::Literal(_) | Shape::File => T::Str,
        Shape::Player => T::Player,
        Shape::Card(k) => T::Card(*k),
        Shape::Enum(e) => T::Enum(*e),
        Shape::List(_, item, _) => T::list(of_shape(item)),
        Shape::Map(k, v, _) => T::map(of_shape(k), of_shape(v)),
        Shape::Record(fields) => record(
            fields
                .iter()
                .map(|(name, optional, shape)| Field {
                    name: Rc::from(name.as_str()),
                    t: of_shape(shape),
                    always: !optional,
                })
                .collect(),
        ),
        Shape::NonEmpty(inner) => of_shape(inner),
        // `null` is the one value of no type (`Never`), which any other type admits: a shape
        // `{...} | null` is the record's type.
        Shape::Null => T::Never,
        Shape::Union(alternatives) => alternatives.iter().fold(T::Never, |t, a| join(&t, &of_shape(a))),
    }
}

pub(super) fn const_type(v: &Value) -> T {
    match v {
        Value::Int(_) => T::Int,
        Value::Bool(_) => T::Bool,
        Value::Str(_) => T::Str,
        Value::Player(_) => T::Player,
        Value::Null => T::Never,
        Value::Card(_) | Value::Table | Value::Map(_) | Value::List(_) => T::Unknown,
        Value::Enum(e, _) => T::Enum(*e),
    }
}

#[cfg(test)]
#[allow(clippy::panic, reason = "tests fail loudly")]
mod tests {
    use super::*;

    fn field(name: &str, t: T) -> Field {
        Field { name: Rc::from(name), t, always: true }
    }

    #[test]
    fn records_of_different_fields_join_to_optional_fields() {
        let a = record(vec![field("member", T::Player)]);
        let b = record(vec![field("slot", T::Int)]);
        let T::Record(fields) = join(&a, &b) else { panic!("not a record") };
        assert_eq!(
            fields.iter().map(|f| (&*f.name, f.always)).collect::<Vec<_>>(),
            [("member", false), ("slot", false)]
        );
        assert_eq!(T::field(&fields, "member"), Some(T::Unknown));
        assert_eq!(T::field(&fields, "nmae"), None);
    }

    #[test]
    fn an_empty_list_takes_the_type_of_the_items_added() {
        let empty = T::list(T::Never);
        assert_eq!(join(&empty, &T::list(T::Card(0))), T::list(T::Card(0)));
        assert_eq!(combine(&empty, AssignOp::Add, &T::list(T::Int)), Some(T::list(T::Int)));
    }

    #[test]
    fn ints_and_lists_do_not_combine() {
        assert_eq!(combine(&T::Int, AssignOp::Add, &T::list(T::Int)), None);
        assert_eq!(combine(&T::list(T::Int), AssignOp::Sub, &T::Int), None);
        assert_eq!(combine(&T::Str, AssignOp::Add, &T::Str), None);
        assert_eq!(combine(&T::Int, AssignOp::Add, &T::Unknown), Some(T::Int));
    }

    /// However a type grows by joins (a list in a list, a map's key or value, a record's
    /// field), it stops at `MAX_DEPTH` levels.
    #[test]
    fn joining_ends_however_deep_a_type_grows() {
        let grow: [fn(T) -> T; 4] =
            [T::list, |t| T::map(T::Int, t), |t| T::map(t, T::Int), |t| record(vec![field("inner", t)])];
        for wrap in grow {
            let mut t = wrap(T::Never);
            for _ in 0..20 {
                t = join(&t, &wrap(t.clone()));
            }
            assert_eq!(join(&t, &wrap(t.clone())), t);
            assert!(!fits(&t, MAX_DEPTH - 1) && fits(&t, MAX_DEPTH), "{t:?}");
        }
    }

    /// A union shape is what its alternatives have in common: a record or null is the record,
    /// a card or a text is not known, and `null` alone is `Never` (it admits null only).
    #[test]
    fn a_union_shape_joins_its_alternatives() {
        let record = Shape::Record(vec![(Rc::new("count".to_string()), false, Shape::Int(None, None))]);
        let or_null = Shape::Union(vec![record.clone(), Shape::Null]);
        assert_eq!(of_shape(&or_null), of_shape(&record));
        assert!(matches!(of_shape(&record), T::Record(_)));
        assert_eq!(of_shape(&Shape::Union(vec![Shape::Card(0), Shape::Literal(Rc::new("Pass".into()))])), T::Unknown);
        assert_eq!(of_shape(&Shape::Union(vec![Shape::Card(0), Shape::Card(0)])), T::Card(0));
        assert_eq!(of_shape(&Shape::Null), T::Never);
    }

    #[test]
    fn a_stored_item_joins_the_items_already_there() {
        let hands = T::map(T::Player, T::list(T::Never));
        let key = Key { t: T::Player, name: None };
        let after = store(&hands, &[key], AssignOp::Set, &T::list(T::Card(1)));
        assert_eq!(after, T::map(T::Player, T::list(T::Card(1))));
        let bad =
            store(&T::map(T::Player, T::Int), &[Key { t: T::Player, name: None }], AssignOp::Add, &T::list(T::Int));
        assert_eq!(bad, T::map(T::Player, T::Int));
    }
}
