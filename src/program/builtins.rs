//! The built-in functions of the rules language: general collection and seating helpers,
//! nothing particular to any game. `TABLE` declares each one once: its name and arguments
//! (for resolve), what it gives (for the type checker), the fuel it pays and its cap (for
//! the interpreter, `run::eval`, which implements it), and its one-line documentation (for
//! the language server and `docs/language.md`, which a test keeps in agreement).

use std::sync::OnceLock;

/// Most numbers past the first one `range(a, b)` holds: `b - a` is at most this.
pub const MAX_RANGE: i64 = 100_000;
/// Most times `repeat` repeats a list, and most items of one piece of `chunks`.
pub const MAX_COUNT: i64 = 10_000;
/// Most items `combinations` chooses from (C(20, 10) = 184,756 choices at most).
pub const MAX_COMBINED: usize = 20;
/// Most items `permutations` takes (8! = 40,320 orders).
pub const MAX_PERMUTED: usize = 8;
/// Most items `subsets` takes (2^12 = 4,096 subsets).
pub const MAX_SUBSET_ITEMS: usize = 12;

/// Which built-in a call is: the interpreter dispatches on it, and `TABLE` holds its entry
/// at the same index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Len,
    Sum,
    Max,
    Min,
    MaxBy,
    MinBy,
    Sort,
    SortBy,
    Reverse,
    First,
    Last,
    Range,
    Distinct,
    Dup,
    Count,
    Tally,
    Keys,
    Values,
    Flatten,
    SeatsFrom,
    SeatsAfter,
    NextPlayer,
    IndexOf,
    Abs,
    Str,
    Repeat,
    Chunks,
    ZipMap,
    Shuffle,
    Permutations,
    Subsets,
    Join,
    Matches,
    KindOf,
    Combinations,
    Pow,
}

impl Builtin {
    /// How many built-ins there are: one past the last variant.
    pub const COUNT: usize = Builtin::Pow as usize + 1;

    /// Its entry in the table.
    pub const fn entry(self) -> &'static Entry {
        &TABLE[self as usize]
    }
}

/// One built-in, declared once.
#[derive(Debug)]
pub struct Entry {
    pub builtin: Builtin,
    pub name: &'static str,
    pub args: &'static [Arg],
    pub gives: Gives,
    /// The fuel it pays besides the size of the value it gives, which every built-in pays.
    pub cost: Cost,
    pub cap: Option<Cap>,
    /// What it gives, in one line; `{cap}` stands for the cap's number.
    pub doc: &'static str,
}

/// An argument, by the name the signature gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    Value(&'static str),
    /// `x => ...`: evaluated once for each item of the first argument, its name bound to the item.
    Lambda(&'static str),
}

/// The static type of what a built-in gives, in terms of its arguments' types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gives {
    Int,
    Bool,
    Str,
    /// Not known statically (an int or null).
    Unknown,
    /// A list of ints.
    Ints,
    /// An item of the first argument, a list.
    Item,
    /// The type of the first argument.
    SameAsFirst,
    /// A list of players.
    Players,
    Player,
    /// A list of the keys of the first argument, a map.
    Keys,
    /// A list of the values of the first argument, a map.
    Values,
    /// A list of the items of the first argument's lists.
    Flattened,
    /// A list of lists of the first argument's type.
    ListsOfFirst,
    /// A map from keys to ints.
    Tally,
    /// A map from the first argument's items to the second's.
    Zipped,
}

/// The fuel a built-in pays besides the size of the value it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    Nothing,
    /// The size of each item, once: it reads them all.
    ItemsOnce,
    /// The size of each item about log2(n) times: a sort compares each item that often.
    ItemsSorted,
    /// One step and the key's size for each item's `x => ...`.
    PerKey,
    /// The bytes of the text and of the pattern.
    TextBytes,
}

impl Cost {
    /// The fuel, in the words of `docs/language.md`'s table of built-ins.
    pub fn words(self) -> &'static str {
        match self {
            Cost::Nothing => "",
            Cost::ItemsOnce => "the size of each item",
            Cost::ItemsSorted => "the size of each item, log2(n) times",
            Cost::PerKey => "a step and the key's size for each item",
            Cost::TextBytes => "the bytes of the text and the pattern",
        }
    }
}

/// How much a built-in takes at most: `bounds`, written in the signature's words, is at
/// most `most` (past it the call stops the check with `shinpan::spec::runtime`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    pub bounds: &'static str,
    pub most: i64,
}

impl Cap {
    /// The cap, in the words of `docs/language.md`'s table of built-ins: "`b - a` at most 100,000".
    pub fn words(&self) -> String {
        let digits = self.most.to_string();
        let mut grouped = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        format!("`{}` at most {grouped}", self.bounds)
    }
}

use Arg::{Lambda, Value as V};

const fn entry(
    builtin: Builtin,
    name: &'static str,
    args: &'static [Arg],
    gives: Gives,
    cost: Cost,
    cap: Option<Cap>,
    doc: &'static str,
) -> Entry {
    Entry { builtin, name, args, gives, cost, cap, doc }
}

const fn cap(bounds: &'static str, most: i64) -> Option<Cap> {
    Some(Cap { bounds, most })
}

const LIST: &[Arg] = &[V("xs")];
const KEYED: &[Arg] = &[V("xs"), Lambda("x => KEY")];
const PLAYER: &[Arg] = &[V("p")];
const LIST_AND_COUNT: &[Arg] = &[V("xs"), V("n")];

#[rustfmt::skip]
pub static TABLE: [Entry; Builtin::COUNT] = {
    use Builtin as B;
    use Cost::{ItemsOnce, ItemsSorted, Nothing, PerKey, TextBytes};
    use Gives as G;
    [
        entry(B::Len, "len", LIST, G::Int, Nothing, None, "the number of items of a list or entries of a map"),
        entry(B::Sum, "sum", LIST, G::Int, Nothing, None, "the sum of a list of ints (0 for an empty list)"),
        entry(B::Max, "max", LIST, G::Item, ItemsOnce, None, "the greatest item of a list (null for an empty list)"),
        entry(B::Min, "min", LIST, G::Item, ItemsOnce, None, "the least item of a list (null for an empty list)"),
        entry(B::MaxBy, "max_by", KEYED, G::Item, PerKey, None, "the item with the greatest key; ties go to the earliest item"),
        entry(B::MinBy, "min_by", KEYED, G::Item, PerKey, None, "the item with the least key; ties go to the earliest item"),
        entry(B::Sort, "sort", LIST, G::SameAsFirst, ItemsSorted, None, "the items in ascending order"),
        entry(B::SortBy, "sort_by", KEYED, G::SameAsFirst, PerKey, None, "the items in ascending order of their key, ties kept in order"),
        entry(B::Reverse, "reverse", LIST, G::SameAsFirst, Nothing, None, "the items in reverse order"),
        entry(B::First, "first", LIST, G::Item, Nothing, None, "the first item (null for an empty list)"),
        entry(B::Last, "last", LIST, G::Item, Nothing, None, "the last item (null for an empty list)"),
        entry(B::Range, "range", &[V("a"), V("b")], G::Ints, Nothing, cap("b - a", MAX_RANGE), "the ints from a to b, both included"),
        entry(B::Distinct, "distinct", LIST, G::Bool, ItemsOnce, None, "whether no item appears twice"),
        entry(B::Dup, "dup", LIST, G::Item, ItemsOnce, None, "the first item that appears twice (null when none does)"),
        entry(B::Count, "count", &[V("xs"), Lambda("x => COND")], G::Int, PerKey, None, "how many items the condition holds for"),
        entry(B::Tally, "tally", KEYED, G::Tally, PerKey, None, "a map from each key to how many items have it, keys in the order they first appear"),
        entry(B::Keys, "keys", &[V("map")], G::Keys, Nothing, None, "the keys of a map, in order"),
        entry(B::Values, "values", &[V("map")], G::Values, Nothing, None, "the values of a map, in the order of its keys"),
        entry(B::Flatten, "flatten", &[V("xss")], G::Flattened, Nothing, None, "a list of lists joined into one list"),
        entry(B::SeatsFrom, "seats_from", PLAYER, G::Players, Nothing, None, "the players in seating order, p first"),
        entry(B::SeatsAfter, "seats_after", PLAYER, G::Players, Nothing, None, "the players in seating order starting after p, p last"),
        entry(B::NextPlayer, "next_player", PLAYER, G::Player, Nothing, None, "the player seated after p"),
        entry(B::IndexOf, "index_of", &[V("xs"), V("x")], G::Unknown, ItemsOnce, None, "the index of the first item equal to x, from 0 (null when absent)"),
        entry(B::Abs, "abs", &[V("n")], G::Int, Nothing, None, "the absolute value of an int"),
        entry(B::Str, "str", &[V("x")], G::Str, Nothing, None, "a value as text, in transcript words"),
        entry(B::Repeat, "repeat", LIST_AND_COUNT, G::SameAsFirst, Nothing, cap("n", MAX_COUNT), "the list xs n times over"),
        entry(B::Chunks, "chunks", LIST_AND_COUNT, G::ListsOfFirst, Nothing, cap("n", MAX_COUNT), "the list cut into lists of n items (the last may be shorter)"),
        entry(B::ZipMap, "zip_map", &[V("keys"), V("values")], G::Zipped, Nothing, None, "a map from each key to the value at the same place"),
        entry(B::Shuffle, "shuffle", LIST, G::SameAsFirst, Nothing, None, "the items in a seeded random order (for `choices` of random outcomes)"),
        entry(B::Permutations, "permutations", LIST, G::ListsOfFirst, Nothing, cap("len(xs)", MAX_PERMUTED as i64), "every order of the items (up to {cap} items)"),
        entry(B::Subsets, "subsets", LIST, G::ListsOfFirst, Nothing, cap("len(xs)", MAX_SUBSET_ITEMS as i64), "every subset of the items, in order (up to {cap} items)"),
        entry(B::Join, "join", &[V("xs"), V("sep")], G::Str, Nothing, None, "the items as text, separated by sep"),
        entry(B::Matches, "matches", &[V("text"), V("pattern")], G::Bool, TextBytes, None, "whether the text matches a regular expression (for checks of data files)"),
        entry(B::KindOf, "kind_of", &[V("x")], G::Str, Nothing, None, "what a value is: `\"card\"`, `\"code\"`, `\"map\"`, `\"list\"`, `\"int\"`, `\"str\"`, ..."),
        entry(B::Combinations, "combinations", &[V("xs"), V("k")], G::ListsOfFirst, Nothing, cap("len(xs)", MAX_COMBINED as i64), "every choice of k items, in order (up to {cap} items; none when k is more than there are)"),
        entry(B::Pow, "pow", &[V("a"), V("b")], G::Int, Nothing, None, "a to the power b (b not negative)"),
    ]
};

// The table is in the order of `Builtin`, so that `Builtin::entry` is an index: checked
// when compiling.
const _: () = {
    let mut i = 0;
    while i < TABLE.len() {
        assert!(TABLE[i].builtin as usize == i, "TABLE is not in the order of `Builtin`");
        i += 1;
    }
};

impl Entry {
    pub fn arity(&self) -> usize {
        self.args.len()
    }

    /// Whether its last argument is a `x => ...` lambda.
    pub fn takes_lambda(&self) -> bool {
        matches!(self.args.last(), Some(Arg::Lambda(_)))
    }

    /// How a call is written: `max_by(xs, x => KEY)`.
    pub fn signature(&self) -> String {
        let args: Vec<&str> = self.args.iter().map(|(Arg::Value(a) | Arg::Lambda(a))| *a).collect();
        format!("{}({})", self.name, args.join(", "))
    }

    /// What it gives, its cap's number written in.
    pub fn description(&self) -> String {
        match self.cap {
            Some(cap) => self.doc.replace("{cap}", &cap.most.to_string()),
            None => self.doc.to_string(),
        }
    }
}

pub fn lookup(name: &str) -> Option<&'static Entry> {
    TABLE.iter().find(|e| e.name == name)
}

pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|e| e.name)
}

/// How a built-in is called and what it gives: `("max_by(xs, x => KEY)", "the item ...")`.
pub fn describe(name: &str) -> Option<(&'static str, &'static str)> {
    // Written out once, on the language server's first question.
    static DESCRIBED: OnceLock<Vec<(String, String)>> = OnceLock::new();
    let described = DESCRIBED.get_or_init(|| TABLE.iter().map(|e| (e.signature(), e.description())).collect());
    let at = TABLE.iter().position(|e| e.name == name)?;
    described.get(at).map(|(signature, description)| (signature.as_str(), description.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_is_written_only_where_there_is_one() {
        for e in &TABLE {
            assert!(!e.description().contains("{cap}"), "{} writes a cap it does not have", e.name);
            assert_eq!(e.takes_lambda(), e.args.iter().any(|a| matches!(a, Arg::Lambda(_))), "{}", e.name);
        }
        assert_eq!(describe("permutations"), Some(("permutations(xs)", "every order of the items (up to 8 items)")));
        assert_eq!(describe("max_by").map(|d| d.0), Some("max_by(xs, x => KEY)"));
        assert_eq!(describe("nothing"), None);
        assert_eq!(Cap { bounds: "n", most: 1_234_567 }.words(), "`n` at most 1,234,567");
        assert_eq!(Cap { bounds: "n", most: 123 }.words(), "`n` at most 123");
    }
}
