//! What one transcript, or one game the rules run, may cost: one value, settable by a library
//! user (`Rules::with_limits`, `Checking::limits`), whose defaults are the figures the table
//! of limits in docs/untrusted-input.md states.
//!
//! ```
//! let mut limits = shinpan::Limits::default();
//! limits.fuel_per_event = 10_000;
//! let rules = shinpan::Rules::new("hangover")?.with_limits(limits);
//! # Ok::<(), shinpan::RulesError>(())
//! ```

/// The bounds on what an untrusted transcript, or a runaway rules file, may cost one game:
/// the size and shape of a transcript as read, the work and the values the rules may make
/// between two events, and how much a verdict writes. Every check compares with one of these
/// (read into the checker and the interpreter once per game); `Limits::default()` gives the
/// documented figures. Lowering a limit is always safe. Raising one costs what it says: time or
/// memory, and for `transcript_depth` and `value_depth`, stack (values are read, compared and
/// dropped by recursion; the defaults stay far within `STACK_BYTES`).
///
/// Left out on purpose, as constants where they are used:
/// - what bounds a rules file rather than a game: its size, its nesting, the cards it
///   declares, the fuel to compile it. A rules file is compiled once per thread and kept, and
///   `lint`, `fmt` and the language server read it under the same bounds, so one file is
///   taken or refused alike everywhere;
/// - guards of the stack and the parser (evaluations nested at run time, the YAML reader's
///   longest key), which no setting should move;
/// - caches (compiled rules, checkers per thread) and cuts of what a person reads (a value
///   shown in a message, a quoted token, history lines, reading errors listed): they bound
///   memory kept or text shown, not what one game may cost;
/// - rules of the transcript format (a player's name is at most 64 characters), and the caps
///   of built-in functions (documented with each built-in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// Largest transcript or record file (PBN, LIN) read, and longest line of a stream
    /// (`Checking::check_lines`), in bytes; past it the verdict is malformed (`too-large`).
    /// Default 64 MiB. A transcript given as text is not measured: it is already in memory.
    pub transcript_bytes: u64,
    /// Deepest nesting of lists and mappings in a transcript. Default 64.
    pub transcript_depth: usize,
    /// Most values in a transcript, an alias counted each time it is used. Default 2,000,000.
    pub transcript_values: usize,
    /// Most aliases (`*name`) in a transcript. Default 10,000.
    pub transcript_aliases: usize,
    /// Steps the rules may run between two events (every statement, loop round, call, and
    /// item a built-in reads or builds): past it, `shinpan::spec::fuel`. Default 2,000,000.
    pub fuel_per_event: u64,
    /// Deepest nesting of helper and procedure calls. Default 200 (evaluations nested at run
    /// time stop at 2,000 whatever this says).
    pub call_depth: u32,
    /// Most items of one list or characters of one text the rules build. Default 1,000,000.
    pub list_items: usize,
    /// Deepest nesting of lists and maps in a value the rules keep. Default 100.
    pub value_depth: usize,
    /// Most legal actions a violation lists as events (`legal_count` still counts them all).
    /// Default 1,000.
    pub legal_events: usize,
    /// Most notes one game keeps; one more says the rest were not kept. Default 1,000.
    pub notes: usize,
    /// Most values one verdict line writes (scores, and each violation's state, history and
    /// legal events together; a text counts one value per 16 bytes): past it `"…"` and
    /// `"truncated": true`. The event of a replay step has a budget as large of its own.
    /// Default 100,000.
    pub verdict_json_values: usize,
    /// Most values a replay writes of the states after its events (`Checking::replay`), each
    /// step an even share of what is left. Default 500,000.
    pub replay_json_values: usize,
    /// Events a random game plays before it is cut short (`Rules::play`). Default 100,000.
    pub playout_events: usize,
}

impl Limits {
    /// The documented defaults (what `Limits::default()` gives), usable where a constant is.
    pub const DEFAULT: Limits = Limits {
        transcript_bytes: 64 * 1024 * 1024,
        transcript_depth: 64,
        transcript_values: 2_000_000,
        transcript_aliases: 10_000,
        fuel_per_event: 2_000_000,
        call_depth: 200,
        list_items: 1_000_000,
        value_depth: 100,
        legal_events: 1_000,
        notes: 1_000,
        verdict_json_values: 100_000,
        replay_json_values: 500_000,
        playout_events: 100_000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
