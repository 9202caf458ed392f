//! Every stable diagnostic code, one line each. Fixtures and snapshots are named after them.

// Rules files (`shinpan lint`).
pub const SYNTAX: &str = "shinpan::spec::syntax";
pub const TOO_DEEP: &str = "shinpan::spec::too-deep";
pub const UNKNOWN_NAME: &str = "shinpan::spec::unknown-name";
pub const DUPLICATE: &str = "shinpan::spec::duplicate";
pub const UNKNOWN_RULE: &str = "shinpan::spec::unknown-rule";
pub const UNKNOWN_ACTION: &str = "shinpan::spec::unknown-action";
pub const TYPE_MISMATCH: &str = "shinpan::spec::type-mismatch";
/// `x += v`, `x -= v` or `x = v` with a value that does not fit what `x` holds.
pub const ASSIGN_MISMATCH: &str = "shinpan::spec::assign-mismatch";
/// A field that no record of that type has, or an attribute a card kind does not have.
pub const UNKNOWN_FIELD: &str = "shinpan::spec::unknown-field";
pub const ARITY: &str = "shinpan::spec::arity";
pub const MISSING: &str = "shinpan::spec::missing";
pub const MISPLACED: &str = "shinpan::spec::misplaced";
pub const UNREACHABLE: &str = "shinpan::spec::unreachable";
pub const CHECK_AFTER_EFFECT: &str = "shinpan::spec::check-after-effect";
pub const BAD_CARDS: &str = "shinpan::spec::bad-cards";
pub const RUNTIME: &str = "shinpan::spec::runtime";
pub const FUEL: &str = "shinpan::spec::fuel";
/// The rules ask for more than the engine holds (players, cards, nesting of values).
pub const LIMIT: &str = "shinpan::spec::limit";
/// `shinpan fmt` could not lay a file out without changing its meaning (a bug to report).
pub const FORMAT: &str = "shinpan::spec::format";

// Transcripts.
pub const MALFORMED: &str = "shinpan::transcript::malformed";
pub const VIOLATION: &str = "shinpan::rule";
pub const RULE_HERE: &str = "shinpan::rule::stated-here";
/// The state of the game just before a broken event (the rules' `view`).
pub const STATE: &str = "shinpan::rule::state";
/// A line the rules wrote for the verdict (`note`): an adjustment, a ruling.
pub const NOTE: &str = "shinpan::rule::note";

// The library.
/// Rules used in a way they do not allow: an unknown game, a parameter they do not have or a
/// value out of its range, a player count outside theirs (the command line's exit 64).
pub const USAGE: &str = "shinpan::usage";
