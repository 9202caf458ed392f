//! Every stable diagnostic code, one line each. Fixtures and snapshots are named after them.

// Rules files (`shinpan lint`).
/// The text is not the language: a token out of place, a missing brace.
pub const SYNTAX: &str = "shinpan::spec::syntax";
/// Expressions or blocks nested deeper than the parser takes.
pub const TOO_DEEP: &str = "shinpan::spec::too-deep";
/// A name that nothing declares.
pub const UNKNOWN_NAME: &str = "shinpan::spec::unknown-name";
/// A name declared twice.
pub const DUPLICATE: &str = "shinpan::spec::duplicate";
/// A check that cites a rule id no `rule` declares.
pub const UNKNOWN_RULE: &str = "shinpan::spec::unknown-rule";
/// A branch of `choose` for an action no `action` declares.
pub const UNKNOWN_ACTION: &str = "shinpan::spec::unknown-action";
/// A value of one type where another is needed.
pub const TYPE_MISMATCH: &str = "shinpan::spec::type-mismatch";
/// `x += v`, `x -= v` or `x = v` with a value that does not fit what `x` holds.
pub const ASSIGN_MISMATCH: &str = "shinpan::spec::assign-mismatch";
/// A field that no record of that type has, or an attribute a card kind does not have.
pub const UNKNOWN_FIELD: &str = "shinpan::spec::unknown-field";
/// A call with the wrong number of arguments.
pub const ARITY: &str = "shinpan::spec::arity";
/// A declaration every rules file needs is missing (`game`, `flow`, ...).
pub const MISSING: &str = "shinpan::spec::missing";
/// A statement where it cannot be (`break` outside a loop, ...).
pub const MISPLACED: &str = "shinpan::spec::misplaced";
/// Code that no game can reach.
pub const UNREACHABLE: &str = "shinpan::spec::unreachable";
/// A check after an action has already changed the game.
pub const CHECK_AFTER_EFFECT: &str = "shinpan::spec::check-after-effect";
/// Card declarations that cannot make a deck (duplicate codes, bad attributes).
pub const BAD_CARDS: &str = "shinpan::spec::bad-cards";
/// The rules failed while running a game (an index out of range, ...).
pub const RUNTIME: &str = "shinpan::spec::runtime";
/// The rules ran out of fuel: a loop that does not end, or work past the limit.
pub const FUEL: &str = "shinpan::spec::fuel";
/// The rules ask for more than the engine holds (players, cards, nesting of values).
pub const LIMIT: &str = "shinpan::spec::limit";
/// A random game (`shinpan play`) reached a waiting point where no action is legal before the
/// game finished: a bug of the rules.
pub const DEAD_END: &str = "shinpan::spec::dead-end";
/// A warning: `play` tries a branch's argument value by value over many values (no `choices`).
pub const BLIND_PLAY: &str = "shinpan::spec::blind-play";
/// A warning: the flow can run out without `finish`, and then the game is never over.
pub const NO_FINISH: &str = "shinpan::spec::no-finish";
/// A warning: a branch checks a rule after one declared later, so an event breaking both is
/// reported as the later one.
pub const RULE_ORDER: &str = "shinpan::spec::rule-order";
/// `shinpan fmt` could not lay a file out without changing its meaning (a bug to report).
pub const FORMAT: &str = "shinpan::spec::format";

// Transcripts.
/// A transcript that cannot be read as a game of its rules.
pub const MALFORMED: &str = "shinpan::transcript::malformed";
/// An event that breaks a rule.
pub const VIOLATION: &str = "shinpan::rule";
/// Where the rules file states the broken rule (advice beside a violation).
pub const RULE_HERE: &str = "shinpan::rule::stated-here";
/// The state of the game just before a broken event (the rules' `view`).
pub const STATE: &str = "shinpan::rule::state";
/// A line the rules wrote for the verdict (`note`): an adjustment, a ruling.
pub const NOTE: &str = "shinpan::rule::note";

// The library.
/// Rules used in a way they do not allow: an unknown game, a parameter they do not have or a
/// value out of its range, a player count outside theirs (the command line's exit 64).
pub const USAGE: &str = "shinpan::usage";

// The live referee (`shinpan referee`): why a request got no answer of its own.
/// A request line that is not a JSON object, or a field missing or not of its type.
pub const REFEREE_BAD_REQUEST: &str = "shinpan::referee::bad-request";
/// A request whose `op` the referee does not know.
pub const REFEREE_UNKNOWN_OP: &str = "shinpan::referee::unknown-op";
/// A request naming a `game` that is not open (never opened, or closed).
pub const REFEREE_UNKNOWN_GAME: &str = "shinpan::referee::unknown-game";
/// A request past one of the referee's limits: a line too long, too many games open, too
/// many events in one game.
pub const REFEREE_LIMIT: &str = "shinpan::referee::limit";
/// shinpan failed inside while answering (a bug to report); the game it was playing is closed.
pub const REFEREE_INTERNAL: &str = "shinpan::referee::internal";
