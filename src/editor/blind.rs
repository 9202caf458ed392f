//! What `lint` can tell of random play before any game: the branches `play` can never take
//! because their argument has no list of values to try (a likely dead end), and those whose
//! argument it tries blindly, value by value, with how many values that is.

use crate::codes;
use crate::diag::{Diag, Level};
use crate::program::value::Text;
use crate::program::{Branch, DrawnFrom, E, Program, Shape, field_index};

/// More values than this, tried blindly at one branch, are worth a `choices`.
pub(super) const BLIND_WARN_AT: u64 = 256;

/// How `play` finds the arguments of one branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Candidates {
    /// `choices LIST`, or first checks that say where the argument comes from (`require x in
    /// COLLECTION`, for a list `require all c in x: c in COLLECTION`, or for a record
    /// `require x.FIELD in COLLECTION` with its other fields' values listed).
    Given,
    /// Every value of the shape, each through the checks: about this many (`None`: it
    /// depends on the players or on a data file).
    Blind(Option<u64>),
    /// The shape has no list of values: `play` never tries the branch.
    Never,
}

/// How `play` finds the arguments of a branch.
pub fn candidates(prog: &Program, b: &Branch) -> Candidates {
    if b.choices.is_some() {
        return Candidates::Given;
    }
    let shape = prog.actions.get(b.action as usize).map(|a| &a.shape);
    match b.drawn_from() {
        // A record's checked fields come from their collections, its other fields from
        // their shapes (`run::legal`): where one of those has no list of values, neither
        // has the record. A field the record does not have, or an argument that is not a
        // record, names nothing: the shape's values are tried.
        Some(DrawnFrom::Fields(given)) => {
            if let Some(Shape::Record(fields)) = shape
                && let Some(named) = given.iter().map(|(name, _)| field_index(fields, name)).collect::<Option<Vec<_>>>()
            {
                let others = fields.iter().enumerate().filter(|(i, _)| !named.contains(i)).map(|(_, f)| f);
                if let Size::Infinite = record_size(prog, others) {
                    return Candidates::Never;
                }
                return Candidates::Given;
            }
        }
        Some(_) => return Candidates::Given,
        None => {}
    }
    match shape.map(|s| size(prog, s)) {
        Some(Size::Finite(n)) => Candidates::Blind(Some(n)),
        Some(Size::Unknown) => Candidates::Blind(None),
        Some(Size::Infinite) | None => Candidates::Never,
    }
}

/// Advice for `lint`: each branch `play` never tries, and each it tries blindly over more than
/// `BLIND_WARN_AT` values, at the branch.
pub fn advice(prog: &Program) -> Vec<Diag> {
    let mut out = vec![];
    for b in prog.branches() {
        let Some(action) = prog.actions.get(b.action as usize) else { continue };
        let head = b.span.start..b.span.start + action.name.len();
        let d = match candidates(prog, b) {
            Candidates::Never => Diag::new(
                codes::DEAD_END,
                format!("`play` never takes `{}` here: its argument's shape has no list of values to try", action.name),
            )
            .label(head, "no candidates")
            .help("give the branch `choices LIST` (the arguments to try), or make its first check say where the argument comes from: `require x in COLLECTION`, or for a list `require all c in x: c in COLLECTION`"),
            Candidates::Blind(Some(n)) if n > BLIND_WARN_AT => Diag::new(
                codes::BLIND_PLAY,
                format!("`play` tries all {n} values of `{}`'s argument here, one by one through the checks", action.name),
            )
            .label(head, "enumerated blindly")
            .help("give the branch `choices LIST`, or make its first check `require x in COLLECTION`"),
            _ => continue,
        };
        out.push(prog.source.place(Diag { level: Level::Warning, ..d }));
    }
    out
}

enum Size {
    Finite(u64),
    /// Finite, but its size is known only with the players or a data file.
    Unknown,
    Infinite,
}

/// How many values `play` would try for a shape (the legal domain, `run::legal`).
fn size(prog: &Program, shape: &Shape) -> Size {
    match shape {
        Shape::Bool => Size::Finite(2),
        Shape::Null | Shape::Literal(_) => Size::Finite(1),
        Shape::Player => Size::Unknown,
        Shape::Card(k) => match prog.kinds.get(*k as usize) {
            Some(kind) if kind.pool.is_none() => Size::Finite(kind.cards.len() as u64),
            _ => Size::Unknown,
        },
        Shape::Enum(e) => Size::Finite(prog.enums.get(*e as usize).map_or(0, |e| e.variants.len() as u64)),
        Shape::Int(Some(lo), Some(hi)) => match (&lo.e, &hi.e) {
            (E::Const(crate::program::value::Value::Int(lo)), E::Const(crate::program::value::Value::Int(hi))) => {
                let n = hi.saturating_sub(*lo).saturating_add(1).max(0) as u64;
                if n > 4097 { Size::Infinite } else { Size::Finite(n) }
            }
            _ => Size::Unknown,
        },
        // An alternative with no list of values adds none (as `run::legal` lists them).
        Shape::Union(alts) => {
            let sizes: Vec<Size> = alts.iter().map(|a| size(prog, a)).collect();
            if sizes.iter().all(|s| matches!(s, Size::Infinite)) {
                return Size::Infinite;
            }
            sizes.into_iter().fold(Size::Finite(0), |acc, s| match (acc, s) {
                (acc, Size::Infinite) => acc,
                (Size::Finite(a), Size::Finite(b)) => Size::Finite(a.saturating_add(b)),
                _ => Size::Unknown,
            })
        }
        Shape::Record(fields) => record_size(prog, fields.iter()),
        _ => Size::Infinite,
    }
}

/// How many records of these fields `play` would try (past 4,096, none).
fn record_size<'a>(prog: &Program, fields: impl Iterator<Item = &'a (Text, bool, Shape)>) -> Size {
    fields.fold(Size::Finite(1), |acc, (_, optional, s)| match (acc, size(prog, s)) {
        (Size::Infinite, _) | (_, Size::Infinite) => Size::Infinite,
        (Size::Finite(a), Size::Finite(b)) => {
            let n = a.saturating_mul(b + u64::from(*optional));
            if n > 4096 { Size::Infinite } else { Size::Finite(n) }
        }
        _ => Size::Unknown,
    })
}
