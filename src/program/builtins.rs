//! The built-in functions of the rules language: general collection and seating helpers,
//! nothing particular to any game. Their meaning is implemented in `interp::eval`.

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
}

/// Name, builtin, number of arguments, whether the last argument is a `x => ...` lambda, how
/// a call is written, and what it gives (for the language server's hover and completion).
const TABLE: &[(&str, Builtin, usize, bool, &str, &str)] = &[
    ("len", Builtin::Len, 1, false, "len(xs)", "the number of items of a list or entries of a map"),
    ("sum", Builtin::Sum, 1, false, "sum(xs)", "the sum of a list of ints (0 for an empty list)"),
    ("max", Builtin::Max, 1, false, "max(xs)", "the greatest item of a list (null for an empty list)"),
    ("min", Builtin::Min, 1, false, "min(xs)", "the least item of a list (null for an empty list)"),
    (
        "max_by",
        Builtin::MaxBy,
        2,
        true,
        "max_by(xs, x => KEY)",
        "the item with the greatest key; ties go to the earliest item",
    ),
    (
        "min_by",
        Builtin::MinBy,
        2,
        true,
        "min_by(xs, x => KEY)",
        "the item with the least key; ties go to the earliest item",
    ),
    ("sort", Builtin::Sort, 1, false, "sort(xs)", "the items in ascending order"),
    (
        "sort_by",
        Builtin::SortBy,
        2,
        true,
        "sort_by(xs, x => KEY)",
        "the items in ascending order of their key, ties kept in order",
    ),
    ("reverse", Builtin::Reverse, 1, false, "reverse(xs)", "the items in reverse order"),
    ("first", Builtin::First, 1, false, "first(xs)", "the first item (null for an empty list)"),
    ("last", Builtin::Last, 1, false, "last(xs)", "the last item (null for an empty list)"),
    ("range", Builtin::Range, 2, false, "range(a, b)", "the ints from a to b, both included"),
    ("distinct", Builtin::Distinct, 1, false, "distinct(xs)", "whether no item appears twice"),
    ("dup", Builtin::Dup, 1, false, "dup(xs)", "the first item that appears twice (null when none does)"),
    ("count", Builtin::Count, 2, true, "count(xs, x => COND)", "how many items the condition holds for"),
    (
        "tally",
        Builtin::Tally,
        2,
        true,
        "tally(xs, x => KEY)",
        "a map from each key to how many items have it, keys in the order they first appear",
    ),
    ("keys", Builtin::Keys, 1, false, "keys(map)", "the keys of a map, in order"),
    ("values", Builtin::Values, 1, false, "values(map)", "the values of a map, in the order of its keys"),
    ("flatten", Builtin::Flatten, 1, false, "flatten(xss)", "a list of lists joined into one list"),
    ("seats_from", Builtin::SeatsFrom, 1, false, "seats_from(p)", "the players in seating order, p first"),
    (
        "seats_after",
        Builtin::SeatsAfter,
        1,
        false,
        "seats_after(p)",
        "the players in seating order starting after p, p last",
    ),
    ("next_player", Builtin::NextPlayer, 1, false, "next_player(p)", "the player seated after p"),
    (
        "index_of",
        Builtin::IndexOf,
        2,
        false,
        "index_of(xs, x)",
        "the index of the first item equal to x, from 0 (null when absent)",
    ),
    ("abs", Builtin::Abs, 1, false, "abs(n)", "the absolute value of an int"),
    ("str", Builtin::Str, 1, false, "str(x)", "a value as text, in transcript words"),
    ("repeat", Builtin::Repeat, 2, false, "repeat(xs, n)", "the list xs n times over"),
    (
        "chunks",
        Builtin::Chunks,
        2,
        false,
        "chunks(xs, n)",
        "the list cut into lists of n items (the last may be shorter)",
    ),
    (
        "zip_map",
        Builtin::ZipMap,
        2,
        false,
        "zip_map(keys, values)",
        "a map from each key to the value at the same place",
    ),
    (
        "shuffle",
        Builtin::Shuffle,
        1,
        false,
        "shuffle(xs)",
        "the items in a seeded random order (for `choices` of random outcomes)",
    ),
    ("permutations", Builtin::Permutations, 1, false, "permutations(xs)", "every order of the items (up to 8 items)"),
    ("subsets", Builtin::Subsets, 1, false, "subsets(xs)", "every subset of the items, in order (up to 12 items)"),
    ("join", Builtin::Join, 2, false, "join(xs, sep)", "the items as text, separated by sep"),
    (
        "matches",
        Builtin::Matches,
        2,
        false,
        "matches(text, pattern)",
        "whether the text matches a regular expression (for checks of data files)",
    ),
    (
        "kind_of",
        Builtin::KindOf,
        1,
        false,
        "kind_of(x)",
        "what a value is: `\"card\"`, `\"code\"`, `\"map\"`, `\"list\"`, `\"int\"`, `\"str\"`, ...",
    ),
    (
        "combinations",
        Builtin::Combinations,
        2,
        false,
        "combinations(xs, k)",
        "every choice of k items, in order (up to 20 items)",
    ),
];

pub fn lookup(name: &str) -> Option<(Builtin, usize, bool)> {
    TABLE.iter().find(|(n, ..)| *n == name).map(|&(_, b, arity, lambda, ..)| (b, arity, lambda))
}

pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|(n, ..)| *n)
}

/// How a built-in is called and what it gives: `("max_by(xs, x => KEY)", "the item ...")`.
pub fn describe(name: &str) -> Option<(&'static str, &'static str)> {
    TABLE.iter().find(|(n, ..)| *n == name).map(|&(.., signature, description)| (signature, description))
}
