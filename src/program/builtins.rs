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

/// Name, builtin, number of arguments, whether the last argument is a `x => ...` lambda.
const TABLE: &[(&str, Builtin, usize, bool)] = &[
    ("len", Builtin::Len, 1, false),
    ("sum", Builtin::Sum, 1, false),
    ("max", Builtin::Max, 1, false),
    ("min", Builtin::Min, 1, false),
    ("max_by", Builtin::MaxBy, 2, true),
    ("min_by", Builtin::MinBy, 2, true),
    ("sort", Builtin::Sort, 1, false),
    ("sort_by", Builtin::SortBy, 2, true),
    ("reverse", Builtin::Reverse, 1, false),
    ("first", Builtin::First, 1, false),
    ("last", Builtin::Last, 1, false),
    ("range", Builtin::Range, 2, false),
    ("distinct", Builtin::Distinct, 1, false),
    ("dup", Builtin::Dup, 1, false),
    ("count", Builtin::Count, 2, true),
    ("tally", Builtin::Tally, 2, true),
    ("keys", Builtin::Keys, 1, false),
    ("values", Builtin::Values, 1, false),
    ("flatten", Builtin::Flatten, 1, false),
    ("seats_from", Builtin::SeatsFrom, 1, false),
    ("seats_after", Builtin::SeatsAfter, 1, false),
    ("next_player", Builtin::NextPlayer, 1, false),
    ("index_of", Builtin::IndexOf, 2, false),
    ("abs", Builtin::Abs, 1, false),
    ("str", Builtin::Str, 1, false),
    ("repeat", Builtin::Repeat, 2, false),
    ("chunks", Builtin::Chunks, 2, false),
    ("zip_map", Builtin::ZipMap, 2, false),
    ("shuffle", Builtin::Shuffle, 1, false),
    ("permutations", Builtin::Permutations, 1, false),
    ("subsets", Builtin::Subsets, 1, false),
    ("join", Builtin::Join, 2, false),
    ("matches", Builtin::Matches, 2, false),
    ("kind_of", Builtin::KindOf, 1, false),
    ("combinations", Builtin::Combinations, 2, false),
];

pub fn lookup(name: &str) -> Option<(Builtin, usize, bool)> {
    TABLE.iter().find(|(n, ..)| *n == name).map(|&(_, b, arity, lambda)| (b, arity, lambda))
}

pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|(n, ..)| *n)
}
