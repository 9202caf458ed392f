//! The static types the checker works out (`resolve/typecheck.rs`), kept on the program for
//! the variables: what a typed layout of the state may rely on. A type says what a value is
//! whenever it is not null; `Unknown` says nothing, and `Never` is null or no value at all.

use std::rc::Rc;

use crate::program::Program;
use crate::program::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Never,
    Unknown,
    Int,
    Bool,
    Str,
    Player,
    Card(u16),
    Enum(u16),
    List(Rc<Type>),
    Map(Rc<Type>, Rc<Type>),
    /// A map with string keys built as a record, its fields sorted by name.
    Record(Vec<Field>),
}

/// A field of a record type: its name, its type, and whether every record of the type has it
/// (a field that only some have reads as null in the others).
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: Rc<str>,
    pub t: Type,
    pub always: bool,
}

impl Type {
    /// Whether `value` is one the type allows: null always is; a card of the type's kind, an
    /// enum value of its enum, a list or map whose every item is, a record whose every field
    /// is one of the type's and holds a value of that field's type.
    pub fn admits(&self, prog: &Program, value: &Value) -> bool {
        match (self, value) {
            (_, Value::Null) | (Type::Unknown, _) => true,
            (Type::Int, Value::Int(_))
            | (Type::Bool, Value::Bool(_))
            | (Type::Str, Value::Str(_))
            | (Type::Player, Value::Player(_)) => true,
            (Type::Card(kind), Value::Card(c)) => prog.cards.get(*c as usize).is_some_and(|card| card.kind == *kind),
            (Type::Enum(e), Value::Enum(of, _)) => e == of,
            (Type::List(item), Value::List(items)) => items.iter().all(|v| item.admits(prog, v)),
            (Type::Map(k, v), Value::Map(entries)) => {
                entries.iter().all(|(key, value)| k.admits(prog, key) && v.admits(prog, value))
            }
            (Type::Record(fields), Value::Map(entries)) => entries.iter().all(|(key, value)| {
                let Value::Str(name) = key else { return false };
                fields.iter().any(|f| *f.name == ***name && f.t.admits(prog, value))
            }),
            _ => false,
        }
    }
}

impl Type {
    /// The type as a rules file writes a shape (`map player -> list Drink`,
    /// `{card: Snack, add: int}`, a field only some records have marked `?`), with `?` for
    /// a part that is not known and `null` for one that is never anything else.
    pub fn written(&self, prog: &Program) -> String {
        match self {
            Type::Never => "null".into(),
            Type::Unknown => "?".into(),
            Type::Int => "int".into(),
            Type::Bool => "bool".into(),
            Type::Str => "str".into(),
            Type::Player => "player".into(),
            Type::Card(k) => prog.kinds.get(*k as usize).map_or("?".into(), |kind| kind.name.clone()),
            Type::Enum(e) => prog.enums.get(*e as usize).map_or("?".into(), |en| en.name.clone()),
            Type::List(item) => format!("list {}", item.written_inside(prog)),
            Type::Map(k, v) => format!("map {} -> {}", k.written_inside(prog), v.written_inside(prog)),
            Type::Record(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}{}: {}", f.name, if f.always { "" } else { "?" }, f.t.written(prog)))
                    .collect();
                format!("{{{}}}", fields.join(", "))
            }
        }
    }

    /// `written`, in parentheses where it would otherwise run on (`list (map player -> int)`).
    fn written_inside(&self, prog: &Program) -> String {
        match self {
            Type::Map(..) => format!("({})", self.written(prog)),
            _ => self.written(prog),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::{Field, Type};
    use crate::program::value::Value;

    const RULES: &str = "game typed\nplayers 2\nrule r \"a toss\"\nenum Suit { R, B }\nenum Side { L, M }\n\
                         card A(n: int) {\n  \"a1\" (1)\n}\ncard B(n: int) {\n  \"b1\" (1)\n}\n\
                         action toss: int 0..1\nscores {}\nwinners []\nflow {\n}\n";

    fn kind(prog: &crate::program::Program, name: &str) -> u16 {
        prog.kinds.iter().position(|k| k.name == name).unwrap() as u16
    }

    fn card(prog: &crate::program::Program, code: &str) -> Value {
        Value::Card(prog.cards.iter().position(|c| c.code.as_str() == code).unwrap() as u32)
    }

    fn record(entries: &[(&str, Value)]) -> Value {
        Value::map(entries.iter().map(|(k, v)| (Value::str(k), v.clone())).collect())
    }

    #[test]
    fn a_type_admits_null_and_its_own_values_only() {
        let prog = crate::Rules::from_text("typed", RULES, std::path::Path::new(".")).unwrap().program().unwrap();
        let (a, b) = (card(&prog, "a1"), card(&prog, "b1"));
        let of_a = Type::Card(kind(&prog, "A"));
        let suit = prog.enums.iter().position(|e| e.name == "Suit").unwrap() as u16;
        let side = prog.enums.iter().position(|e| e.name == "Side").unwrap() as u16;
        for t in [Type::Never, Type::Int, of_a.clone(), Type::List(Rc::new(Type::Int))] {
            assert!(t.admits(&prog, &Value::Null), "{t:?} refuses null");
        }
        assert!(!Type::Never.admits(&prog, &Value::Int(1)));
        assert!(Type::Unknown.admits(&prog, &a) && Type::Unknown.admits(&prog, &Value::list(vec![Value::Bool(true)])));
        assert!(Type::Int.admits(&prog, &Value::Int(3)) && !Type::Int.admits(&prog, &Value::Bool(true)));
        assert!(Type::Bool.admits(&prog, &Value::Bool(false)) && !Type::Bool.admits(&prog, &Value::Int(0)));
        assert!(Type::Str.admits(&prog, &Value::str("x")) && !Type::Str.admits(&prog, &Value::Player(0)));
        assert!(Type::Player.admits(&prog, &Value::Player(1)) && !Type::Player.admits(&prog, &Value::Table));
        assert!(of_a.admits(&prog, &a) && !of_a.admits(&prog, &b) && !of_a.admits(&prog, &Value::Card(99)));
        assert!(!of_a.admits(&prog, &Value::Int(0)));
        assert!(Type::Enum(suit).admits(&prog, &Value::Enum(suit, 1)));
        assert!(!Type::Enum(suit).admits(&prog, &Value::Enum(side, 1)));
        let ints = Type::List(Rc::new(Type::Int));
        assert!(ints.admits(&prog, &Value::list(vec![Value::Int(1), Value::Null])));
        assert!(!ints.admits(&prog, &Value::list(vec![Value::Int(1), Value::Bool(true)])));
        assert!(!ints.admits(&prog, &Value::map(vec![])), "a map is no list");
        let scores = Type::Map(Rc::new(Type::Player), Rc::new(Type::Int));
        assert!(scores.admits(&prog, &Value::map(vec![(Value::Player(0), Value::Int(1))])));
        assert!(
            !scores.admits(&prog, &Value::map(vec![(Value::Player(0), Value::str("1"))])),
            "a value of another type"
        );
        assert!(!scores.admits(&prog, &Value::map(vec![(Value::Int(0), Value::Int(1))])), "a key of another type");
        assert!(!scores.admits(&prog, &Value::list(vec![])), "a list is no map");
        let used = Type::Record(vec![
            Field { name: Rc::from("add"), t: Type::Int, always: false },
            Field { name: Rc::from("card"), t: of_a.clone(), always: true },
        ]);
        assert!(used.admits(&prog, &record(&[("card", a.clone())])));
        assert!(used.admits(&prog, &record(&[("card", a.clone()), ("add", Value::Int(2))])));
        assert!(!used.admits(&prog, &record(&[("card", b)])), "a field of another type");
        assert!(!used.admits(&prog, &record(&[("cards", a.clone())])), "a field the type does not have");
        assert!(!used.admits(&prog, &Value::map(vec![(Value::Int(0), a)])), "a key that is no name");
        assert!(!used.admits(&prog, &Value::Int(0)));
    }

    #[test]
    fn a_type_is_written_as_a_rules_file_writes_a_shape() {
        let prog = crate::Rules::from_text("typed", RULES, std::path::Path::new(".")).unwrap().program().unwrap();
        let of_a = Type::Card(kind(&prog, "A"));
        let hands = Type::Map(Rc::new(Type::Player), Rc::new(Type::List(Rc::new(of_a.clone()))));
        assert_eq!(hands.written(&prog), "map player -> list A");
        let nested = Type::List(Rc::new(Type::Map(Rc::new(Type::Unknown), Rc::new(Type::Never))));
        assert_eq!(nested.written(&prog), "list (map ? -> null)");
        let suit = prog.enums.iter().position(|e| e.name == "Suit").unwrap() as u16;
        let used = Type::Record(vec![
            Field { name: Rc::from("add"), t: Type::Int, always: false },
            Field { name: Rc::from("card"), t: of_a, always: true },
            Field { name: Rc::from("suit"), t: Type::Enum(suit), always: true },
            Field { name: Rc::from("when"), t: Type::Map(Rc::new(Type::Str), Rc::new(Type::Bool)), always: true },
        ]);
        assert_eq!(used.written(&prog), "{add?: int, card: A, suit: Suit, when: map str -> bool}");
        assert_eq!(Type::Card(999).written(&prog), "?");
        assert_eq!(Type::Enum(999).written(&prog), "?");
    }
}
