//! Checking transcripts: find the rules, read, decode, run, and say what was found.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::diag::Diag;
use crate::limits::Limits;
use crate::program::Program;
use crate::program::value::Value;
use crate::report::values::JsonBudget;
use crate::run::{Carried, Machine, Outcome, Source};
use crate::transcript::decode::{Envelope, Game, Malformed, envelope, events};
use crate::transcript::{Problem, RawTranscript, Yaml, read_within};

/// Most winners a verdict names (a game has at most 255 players; a rules file that says
/// otherwise is cut short here).
const MAX_WINNERS: usize = 1_000;

/// What a transcript is, judged against its rules (docs/transcripts.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every event follows the rules (the game may be unfinished).
    Legal,
    /// An event breaks a rule: `violations` says which and where.
    Illegal,
    /// It cannot be read as a game of these rules at all: `errors` says why.
    Malformed,
}

impl Verdict {
    /// The verdict as the contract writes it: `legal`, `illegal`, `malformed`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Legal => "legal",
            Verdict::Illegal => "illegal",
            Verdict::Malformed => "malformed",
        }
    }
}

/// The first broken rule, in the words of the contract.
#[derive(Debug, Clone)]
pub struct Broken {
    /// The rule id (`must-follow`, or a shared one such as `not-held`).
    pub rule: String,
    /// The 0-based index of the event that broke it.
    pub event: usize,
    /// The 1-based line of the transcript where that event is written.
    pub line: usize,
    /// The event whole in transcript words (`aki play R5`), however it was written.
    pub event_words: String,
    /// The same event as transcript JSON (`{"by": ..., ACTION: ARG}`), as a replay writes it.
    pub action: Option<serde_json::Value>,
    /// What was wrong, in the rules file's words.
    pub message: String,
    /// Where the event is written in the transcript (bytes).
    pub event_span: crate::span::Span,
    /// Where the rules file states the check that failed (bytes of the rules file).
    pub spec_span: crate::span::Span,
    /// The rule's description, as its `rule` declaration gives it.
    pub rule_text: String,
    /// What was legal at that point instead, for a person (`aki play R5`).
    pub legal: Vec<String>,
    /// The legal actions as transcript events (`{"by": ..., ACTION: ARG}`), up to
    /// `Limits::legal_events`, and how many there were.
    pub legal_events: Vec<serde_json::Value>,
    /// How many legal actions there were, listed or not.
    pub legal_count: usize,
    /// Under `check --all`: whether the game went on past this violation (the move stood) or
    /// stopped at it. `None` when checking stops at the first violation anyway.
    pub stood: Option<bool>,
    /// The rules' `view` just before the event: each variable's value in transcript words
    /// (JSON), and the same as lines for a person (one per player, then the table's).
    pub state: serde_json::Map<String, serde_json::Value>,
    /// The same state as lines for a person.
    pub state_lines: Vec<String>,
    /// How each `history` variable the broken check reads came to be: (variable, its values
    /// as JSON with the event and line after which each was seen, the same as lines).
    pub history: Vec<(String, Vec<serde_json::Value>, Vec<String>)>,
}

/// One event of a replay and the state after it.
#[derive(Debug, Clone)]
pub struct Step {
    /// The 0-based index of the event.
    pub event: usize,
    /// Its 1-based line in the transcript.
    pub line: usize,
    /// Where the event is written in the transcript.
    pub span: crate::span::Span,
    /// The event whole in transcript words (`aki present {actor: QC, kuroko: QC}`).
    pub words: String,
    /// The event as the transcript gives it (`{"by": ..., ACTION: ARG}`).
    pub action: serde_json::Value,
    /// The rules' `view` after the event, in transcript words (JSON).
    pub state: serde_json::Map<String, serde_json::Value>,
    /// The same state as lines for a person.
    pub state_lines: Vec<String>,
    /// Whether `state` left values out (`…`) for want of the replay's budget.
    pub cut: bool,
}

/// A line the rules' `note` statement wrote, placed in the transcript and in the rules file.
#[derive(Debug, Clone)]
pub struct Noted {
    /// The line, as the rules wrote it.
    pub message: String,
    /// The last event judged when it was written, and that event's line.
    pub event: Option<(usize, usize)>,
    /// Where that event is written in the transcript.
    pub event_span: crate::span::Span,
    /// Where the rules file's `note` statement is.
    pub spec_span: crate::span::Span,
}

/// The verdict on one transcript, with everything a person or a program needs to act on it:
/// `json()` gives the contract's JSON line, `render::diagnostics` the human report.
pub struct Report {
    /// The transcript's name as given (a path, `PATH#N` for a stream line or a deal).
    pub file: String,
    /// The transcript's text, which diagnostics quote.
    pub text: Rc<String>,
    /// The rules it was checked against, when they were found.
    pub rules: Option<String>,
    /// Legal, illegal or malformed.
    pub verdict: Verdict,
    /// Each rule broken, in order: the first only, unless checking went on past moves that
    /// stand (`check --all`).
    pub violations: Vec<Broken>,
    /// Why a malformed transcript could not be read (up to 20 reasons).
    pub errors: Vec<Malformed>,
    /// Diagnostics of a rules file that could not be compiled or misbehaved.
    pub spec_errors: Vec<Diag>,
    /// Whether the game reached its end within the events judged.
    pub finished: bool,
    /// Each player's score in transcript words (JSON), as the contract prints it.
    pub scores: Option<Vec<(String, serde_json::Value)>>,
    /// The winners once finished; none before.
    pub winners: Vec<String>,
    /// The players in seating order (none for a malformed transcript).
    pub players: Vec<String>,
    /// What the rules noted while the game ran (an adjustment of the score, a ruling).
    pub notes: Vec<Noted>,
    /// Each event judged and the state after it, when the checker records them (`replay`).
    pub steps: Vec<Step>,
    /// The compiled rules it was checked against, when they were found (for the page).
    pub(crate) program: Option<Rc<Program>>,
    /// How many events the transcript holds (those after the one checking stopped at too);
    /// for a malformed one, how many could be read before the first that could not.
    pub(crate) events: usize,
    /// For a deal of a record file (PBN, LIN): its board and room, where the record gives them.
    pub board: Option<String>,
    /// The room of a team match (`open`, `closed`), where the record gives it.
    pub room: Option<String>,
    /// Whether the verdict line left values out for want of budget (`Limits::verdict_json_values`):
    /// the line then says `"truncated": true`, and `…` stands where values were left out.
    pub truncated: bool,
    /// The fuel the rules burnt judging it (0 when it was not run): the work the fuel limit
    /// counts, the same for the same rules and events however the evaluator is built.
    pub fuel_spent: u64,
    /// How many conditions the run answered from memory (a measure of work saved, not part
    /// of the verdict).
    pub(crate) conditions_remembered: u64,
    /// How many helper calls it answered from memory (the same).
    pub(crate) calls_remembered: u64,
}

#[cfg(feature = "internals")]
impl Report {
    /// The compiled rules it was checked against (for tests).
    pub fn program(&self) -> Option<&Rc<Program>> {
        self.program.as_ref()
    }

    /// How many conditions and helper calls the run answered from memory (for tests).
    pub fn remembered(&self) -> (u64, u64) {
        (self.conditions_remembered, self.calls_remembered)
    }
}

impl Report {
    /// The verdict of a transcript that is line `line` of a stream: its lines are the
    /// stream's (a transcript of a stream is one line).
    pub fn on_stream_line(mut self, line: usize) -> Report {
        let shift = line.saturating_sub(1);
        for v in &mut self.violations {
            v.line += shift;
        }
        for e in &mut self.errors {
            e.line = e.line.map(|l| l + shift);
        }
        self
    }

    /// The verdict for a path that could not be read as a transcript (or whose checking
    /// failed inside shinpan): malformed, with the reason.
    pub fn unreadable(file: &str, problem: Problem, message: impl Into<String>) -> Report {
        Report::malformed(file, Rc::new(String::new()), None, vec![Malformed::new(problem, message)])
    }

    /// The verdict for a file that could not be read: too large, or unreadable.
    pub fn unread(file: &str, why: crate::files::Unread) -> Report {
        match why {
            crate::files::Unread::Unreadable(message) => Report::unreadable(file, Problem::Unreadable, message),
            crate::files::Unread::TooLarge(message) => Report::unreadable(file, Problem::TooLarge, message),
        }
    }

    fn malformed(file: &str, text: Rc<String>, rules: Option<String>, errors: Vec<Malformed>) -> Report {
        Report {
            file: file.into(),
            text,
            rules,
            verdict: Verdict::Malformed,
            violations: vec![],
            errors,
            spec_errors: vec![],
            finished: false,
            scores: None,
            winners: vec![],
            players: vec![],
            notes: vec![],
            steps: vec![],
            program: None,
            events: 0,
            board: None,
            room: None,
            truncated: false,
            fuel_spent: 0,
            conditions_remembered: 0,
            calls_remembered: 0,
        }
    }
}

/// Compiled rules kept at once; past this the cache starts again, so that a corpus naming
/// ever new rules files cannot grow memory without end.
const MAX_CACHED_PROGRAMS: usize = 64;

/// Envelopes kept at once (`Checker::envelope_of`); past this that cache starts again.
const MAX_CACHED_ENVELOPES: usize = 256;

/// Checkers a thread keeps, at most: past it the thread starts again, so that a service that
/// builds rules from ever new files does not grow without bound.
const MAX_CHECKERS_PER_THREAD: usize = 64;

thread_local! {
    /// This thread's checkers, by what they check against and how: each compiles its rules
    /// once and keeps them (the compiled form shares values without locks, so it stays here).
    static CHECKERS: RefCell<HashMap<String, Checker>> = RefCell::new(HashMap::new());
}

/// Runs `f` with this thread's checker kept under `key`, made by `make` on first use. A
/// panic inside `f` drops that checker, so whatever it was doing is not kept.
pub(crate) fn with_checker<T>(key: &str, make: impl FnOnce() -> Checker, f: impl FnOnce(&mut Checker) -> T) -> T {
    CHECKERS.with(|cell| {
        let mut checkers = cell.borrow_mut();
        if !checkers.contains_key(key) && checkers.len() >= MAX_CHECKERS_PER_THREAD {
            checkers.clear();
        }
        let checker = checkers.entry(key.to_string()).or_insert_with(make);
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(checker))) {
            Ok(value) => value,
            Err(panic) => {
                checkers.remove(key);
                std::panic::resume_unwind(panic)
            }
        }
    })
}

/// Keeps this thread's checker under `old` under `new` instead: rules whose key changed once
/// they were compiled, when what they read became known.
pub(crate) fn rename_checker(old: &str, new: &str) {
    CHECKERS.with(|cell| {
        let mut checkers = cell.borrow_mut();
        if let Some(checker) = checkers.remove(old) {
            checkers.insert(new.to_string(), checker);
        }
    })
}

/// Checks many transcripts, compiling each rules file once.
#[derive(Default)]
pub struct Checker {
    programs: HashMap<String, Result<Rc<Program>, Vec<Diag>>>,
    pub rules_override: Option<String>,
    /// Transcripts may name only built-in rules, never a file (for servers that check what
    /// players upload).
    pub builtin_only: bool,
    /// Programs with the cards of their data files, by program and files.
    pooled: HashMap<String, Rc<Program>>,
    /// The files its programs were compiled from besides their own (the rules they extend),
    /// each once: rules made again look for an edit to them (`Rules::new`).
    files_read: Vec<PathBuf>,
    /// Parameters given on the command line (`--variant key=value`): over every transcript's
    /// own `variant`.
    pub variant: Vec<(String, Yaml)>,
    /// Go on past every broken rule that `stands` (`check --all`).
    pub all: bool,
    /// Keep the state after every event in the report (`replay`).
    pub record_states: bool,
    /// Rules given as text, not named (the library's `Rules::from_text`): their label, text
    /// and the folder their `extends` and data files are found from.
    inline: Option<(String, String, PathBuf)>,
    /// The players and parameters of transcripts that give no variant, by program (which
    /// the entry keeps alive, so its address is not reused) and player names.
    envelopes: HashMap<(usize, Vec<String>), (Rc<Program>, Envelope)>,
    /// What one transcript and one game may cost.
    pub limits: Limits,
    /// What the last game judged worked out once for every game of its rules (kept alive
    /// here), players and parameters: the next such game starts with it.
    carried: std::cell::RefCell<Option<(Rc<Program>, Carried)>>,
}

impl Checker {
    /// `rules_override` is a built-in name or a path relative to the working directory.
    pub fn new(rules_override: Option<String>) -> Self {
        let rules_override = rules_override.map(|r| {
            let path_like = Path::new(&r).exists() || r.ends_with(".rules") || r.contains('/');
            if crate::lang::specs::builtin(&r).is_none() && path_like {
                std::path::absolute(&r).map_or(r, |p| p.display().to_string())
            } else {
                r
            }
        });
        Checker {
            programs: HashMap::new(),
            pooled: HashMap::new(),
            rules_override,
            builtin_only: false,
            variant: vec![],
            all: false,
            record_states: false,
            inline: None,
            envelopes: HashMap::new(),
            carried: std::cell::RefCell::new(None),
            limits: Limits::DEFAULT,
            files_read: vec![],
        }
    }

    /// How many rules it has compiled and keeps.
    #[cfg(test)]
    pub(crate) fn program_count(&self) -> usize {
        self.programs.len()
    }

    /// The files its programs were compiled from besides their own: the rules they extend.
    pub(crate) fn files_read(&self) -> &[PathBuf] {
        &self.files_read
    }

    /// A checker of every transcript against rules given as text: `label` names them in
    /// diagnostics, `base` is where their `extends` and data files are found.
    pub fn with_rules_text(label: &str, text: &str, base: &Path) -> Self {
        let mut checker = Checker::new(None);
        checker.rules_override = Some(label.to_string());
        checker.inline = Some((label.to_string(), text.to_string(), base.to_path_buf()));
        checker
    }

    pub fn check_path(&mut self, path: &Path) -> Report {
        let file = path.display().to_string();
        let text = match crate::files::read_text(path, self.limits.transcript_bytes) {
            Ok(t) => t,
            Err(why) => return Report::unread(&file, why),
        };
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.check_text(&file, text, &base)
    }

    /// Every deal of a record file (`.pbn`, `.lin`), each checked as a transcript named
    /// `PATH#N`; a deal that cannot be represented is malformed with its line and reason,
    /// and the other deals are still checked.
    pub fn check_record(&mut self, path: &Path) -> Vec<Report> {
        let file = path.display().to_string();
        // Records are often Latin-1 or carry stray bytes: read leniently, through the same
        // checks as a transcript (a regular file, at most as large as a transcript may be).
        let text = match crate::files::read_lossy(path, self.limits.transcript_bytes) {
            Ok(t) => t,
            Err(why) => return vec![Report::unread(&file, why)],
        };
        self.check_record_text(path, &text)
    }

    /// Every deal of a record file's text, as `check_record` checks the file at `path` (its
    /// extension says the format; its folder is where rules files are found from).
    pub fn check_record_text(&mut self, path: &Path, text: &str) -> Vec<Report> {
        let file = path.display().to_string();
        let deals = crate::import::read_deals(path, text);
        if deals.is_empty() {
            return vec![Report::unreadable(&file, Problem::NotATranscript, "the file holds no deal")];
        }
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        deals.into_iter().map(|deal| self.check_deal(&file, deal, &base)).collect()
    }

    fn check_deal(&mut self, file: &str, deal: crate::import::Deal, base: &Path) -> Report {
        let label = format!("{file}#{}", deal.number);
        let mut report = match &deal.transcript {
            Ok(t) => self.check_text(&label, crate::import::transcript_text(t), base),
            Err(why) => {
                let message =
                    format!("deal {} (line {} of {file}) cannot be represented: {why}", deal.number, deal.line);
                Report::unreadable(&label, Problem::NotATranscript, message)
            }
        };
        (report.board, report.room) = (deal.board, deal.room);
        report
    }

    pub fn check_text(&mut self, file: &str, text: String, base: &Path) -> Report {
        let text = Rc::new(text);
        let (program, game) = match self.read_quickly(&text, base) {
            Some(read) => read,
            None => match self.read_game(file, &text, base) {
                Ok(read) => read,
                Err(report) => return report,
            },
        };
        self.judge(file, text, &program, game)
    }

    /// The rules and the game of a JSON transcript that the typed reader reads and decodes
    /// (`transcript::quick`): `None` leaves it to `read_game`, which says what is wrong.
    pub(crate) fn read_quickly(&mut self, text: &str, base: &Path) -> Option<(Rc<Program>, Game)> {
        use crate::transcript::quick::{self, Events};
        let limits = self.limits;
        let quick = quick::read(text, &limits, &mut |raw| self.prepare(raw, base))?;
        match quick.events {
            Events::Read(program, game) => Some((program, game)),
            Events::Texts(texts) => {
                let (program, envelope) = self.prepare(&quick.raw, base)?;
                let game =
                    crate::transcript::decode::typed::events(&program, envelope, &texts, quick.nodes, &self.limits)?;
                Some((program, game))
            }
        }
    }

    /// The rules a transcript's envelope names (or `--rules`) and its players and parameters
    /// (with `--variant`), for the typed reader; `None` leaves the transcript to `read_game`.
    pub(crate) fn prepare(&mut self, raw: &RawTranscript, base: &Path) -> Option<(Rc<Program>, Envelope)> {
        let rules_name = match (&self.rules_override, raw.rules.as_ref().map(|l| &l.value)) {
            (Some(r), _) => r.clone(),
            (None, Some(Yaml::Str(s))) => s.clone(),
            _ => return None,
        };
        let program = self.lookup(&rules_name, base, self.rules_override.is_none()).ok()?;
        let raw = with_variant(raw.envelope(), &self.variant);
        let envelope = self.envelope_of(&program, &raw).ok()?;
        let program = self.with_pools(program, &envelope, base).ok()?;
        Some((program, envelope))
    }

    /// The rules and the game of a transcript read as a tree, or its malformed verdict.
    pub(crate) fn read_game(
        &mut self,
        file: &str,
        text: &Rc<String>,
        base: &Path,
    ) -> Result<(Rc<Program>, Game), Report> {
        let raw = match read_within(text, &self.limits) {
            Ok(raw) => with_variant(raw, &self.variant),
            Err(e) => {
                let m = Malformed { problem: e.problem, message: e.message, line: e.line, event: None, span: e.span };
                return Err(Report::malformed(file, text.clone(), None, vec![m]));
            }
        };
        let malformed = |rules: Option<String>, errors| Report::malformed(file, text.clone(), rules, errors);
        let rules_name = match (&self.rules_override, raw.rules.as_ref().map(|l| &l.value)) {
            (Some(r), _) => r.clone(),
            (None, Some(Yaml::Str(s))) => s.clone(),
            (None, Some(other)) => {
                let message = format!("`rules` must be a name, not {}", other.kind());
                return Err(malformed(None, vec![Malformed::at(Problem::NotATranscript, message, raw.rules.as_ref())]));
            }
            (None, None) => {
                let missing = Malformed::new(Problem::NotATranscript, "the transcript has no `rules`");
                return Err(malformed(None, vec![missing]));
            }
        };
        let named_by_transcript = self.rules_override.is_none();
        let program = match self.lookup(&rules_name, base, named_by_transcript) {
            Ok(p) => p,
            Err(Lookup::Unknown(m)) => {
                let at = if self.rules_override.is_some() { None } else { raw.rules.as_ref() };
                return Err(malformed(Some(rules_name), vec![Malformed::at(Problem::UnknownRules, m, at)]));
            }
            Err(Lookup::Broken(diags)) => {
                let message = format!("the rules `{rules_name}` have errors");
                let at = if named_by_transcript { raw.rules.as_ref() } else { None };
                let mut r = malformed(Some(rules_name), vec![Malformed::at(Problem::BadRules, message, at)]);
                r.spec_errors = diags;
                return Err(r);
            }
        };
        let rules = Some(program.name.clone());
        let envelope = self.envelope_of(&program, &raw).map_err(|errors| malformed(rules.clone(), errors))?;
        let program = self.with_pools(program, &envelope, base).map_err(|m| {
            malformed(rules.clone(), vec![Malformed::at(Problem::BadCardFile, m, raw.variant.as_ref())])
        })?;
        // A replay of a transcript with an event that cannot be read still shows those before it.
        let kept = self.record_states.then(|| envelope.clone());
        match (events(&program, &raw, envelope), kept) {
            (Ok(game), _) => Ok((program, game)),
            (Err(errors), Some(envelope)) => {
                let readable = Readable { program: &program, raw: &raw, envelope };
                Err(self.replay_of_malformed(file, text.clone(), rules, readable, errors))
            }
            (Err(errors), None) => Err(malformed(rules, errors)),
        }
    }

    /// The verdict on a game read from `text`.
    fn judge(&self, file: &str, text: Rc<String>, program: &Rc<Program>, game: Game) -> Report {
        let rules = Some(program.name.clone());
        let events = game.events.clone();
        let mut machine = Machine::new(
            program,
            game.players.clone(),
            game.params,
            Source::Transcript { events: game.events, pos: 0 },
        );
        if self.all {
            machine.let_moves_stand();
        }
        if self.record_states {
            machine.record_states();
        }
        machine.set_limits(&self.limits);
        if let Some((before, carried)) = self.carried.take()
            && Rc::ptr_eq(&before, program)
        {
            machine.carry_in(carried);
        }
        let run = machine.run();
        self.carried.replace(Some((program.clone(), machine.carried())));
        match run {
            Ok(outcome) => {
                let stopped = outcome.violation.is_some();
                let judged = Judged { program, players: &game.players, events: &events, limits: &self.limits };
                let mut r = report(file, text, rules, judged, outcome);
                if self.all {
                    // Which violations the game went past, and those of the event it could not.
                    let stopped_at = r.violations.last().filter(|_| stopped).map(|v| v.event);
                    for v in &mut r.violations {
                        v.stood = Some(Some(v.event) != stopped_at);
                    }
                }
                r
            }
            Err(d) => rules_failed(file, text, rules, d),
        }
    }

    /// The malformed verdict of a replayed transcript, with the events before the first that
    /// could not be read judged and recorded (for the page): the verdict, its errors and what
    /// the summary says are those of the malformed transcript; only the steps are added.
    fn replay_of_malformed(
        &mut self,
        file: &str,
        text: Rc<String>,
        rules: Option<String>,
        readable: Readable<'_>,
        errors: Vec<Malformed>,
    ) -> Report {
        let Readable { program, raw, envelope } = readable;
        let first_bad = errors.iter().filter_map(|e| e.event).min();
        let (Some(first_bad), Some(Ok(list))) = (first_bad, &raw.events) else {
            return Report::malformed(file, text, rules, errors);
        };
        let mut read = vec![];
        for (index, e) in list.iter().take(first_bad).enumerate() {
            match crate::transcript::decode::one_event(program, &envelope.players, &envelope.params, index, e) {
                Ok(event) => read.push(event),
                Err(_) => break,
            }
        }
        let events = read.clone();
        let source = Source::Transcript { events: read, pos: 0 };
        let mut machine = Machine::new(program, envelope.players.clone(), envelope.params.clone(), source);
        machine.record_states();
        machine.set_limits(&self.limits);
        let Ok(outcome) = machine.run() else { return Report::malformed(file, text, rules, errors) };
        let judged = Judged { program, players: &envelope.players, events: &events, limits: &self.limits };
        let replayed = report(file, text.clone(), rules.clone(), judged, outcome);
        let mut r = Report::malformed(file, text, rules, errors);
        r.steps = replayed.steps.into_iter().filter(|s| s.event < first_bad).collect();
        r.players = replayed.players;
        r.program = replayed.program;
        r.events = r.steps.len();
        r
    }

    /// A compiled rules file by built-in name or path (relative to `base`), as the person
    /// running shinpan names it, with the cards of its default data files.
    pub fn program(&mut self, name: &str, base: &Path) -> Result<Rc<Program>, Lookup> {
        let program = self.lookup(name, base, false)?;
        if !crate::transcript::pool::has_pools(&program) {
            return Ok(program);
        }
        let pooled = crate::transcript::pool::with_defaults(&program).map_err(Lookup::Unknown)?;
        Ok(Rc::new(pooled))
    }

    /// The players and parameters of a transcript, remembered for one that gives no variant:
    /// its parameters are then the defaults, which follow from the rules and the players
    /// alone, so a corpus works them out once, not once per file.
    fn envelope_of(&mut self, program: &Rc<Program>, raw: &RawTranscript) -> Result<Envelope, Vec<Malformed>> {
        let no_variant = raw.variant.as_ref().is_none_or(|v| matches!(v.value, Yaml::Null));
        let names = match raw.players.as_ref().map(|p| &p.value) {
            Some(Yaml::Seq(items)) if no_variant => items
                .iter()
                .map(|y| match y {
                    Yaml::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect::<Option<Vec<String>>>(),
            _ => None,
        };
        let Some(names) = names else { return envelope(program, raw) };
        let key = (Rc::as_ptr(program) as usize, names);
        if let Some((_, known)) = self.envelopes.get(&key) {
            return Ok(known.clone());
        }
        let found = envelope(program, raw)?;
        if self.envelopes.len() >= MAX_CACHED_ENVELOPES {
            self.envelopes.clear();
        }
        self.envelopes.insert(key, (program.clone(), found.clone()));
        Ok(found)
    }

    /// The rules, players and parameters of a game played move by move among the players
    /// `raw` names with the parameters it gives (under the checker's own), found as
    /// `check_text` finds them for a transcript: the cards of the data files they name too.
    pub(crate) fn game_program(&mut self, raw: RawTranscript, base: &Path) -> Result<(Rc<Program>, Envelope), String> {
        let name = self.rules_override.clone().unwrap_or_default();
        let program = self.lookup(&name, base, false).map_err(|e| match e {
            Lookup::Unknown(message) => message,
            Lookup::Broken(diags) => diags.first().map_or_else(String::new, |d| d.message.clone()),
        })?;
        let raw = with_variant(raw, &self.variant);
        let first = |errors: Vec<Malformed>| errors.into_iter().next().map_or_else(String::new, |e| e.message);
        let envelope = self.envelope_of(&program, &raw).map_err(first)?;
        let program = self.with_pools(program, &envelope, base)?;
        Ok((program, envelope))
    }

    /// The program with the cards of the data files this transcript's parameters name.
    fn with_pools(&mut self, program: Rc<Program>, envelope: &Envelope, base: &Path) -> Result<Rc<Program>, String> {
        if !crate::transcript::pool::has_pools(&program) {
            return Ok(program);
        }
        if self.builtin_only && program.params.iter().zip(&envelope.given).any(|(p, g)| *g && p.shape.is_file()) {
            return Err("only the built-in card files may be used here, not one a transcript names".into());
        }
        let sources = crate::transcript::pool::sources(&program, &envelope.params, &envelope.given, base)?;
        // The same rules with the same files give the same cards.
        let key = format!("{:p}{}", Rc::as_ptr(&program), crate::transcript::pool::cache_key(&sources));
        if let Some(p) = self.pooled.get(&key) {
            return Ok(p.clone());
        }
        let pooled =
            Rc::new(crate::transcript::pool::instantiate(&program, &envelope.players, &envelope.params, &sources)?);
        if self.pooled.len() >= MAX_CACHED_PROGRAMS {
            self.pooled.clear();
        }
        self.pooled.insert(key, pooled.clone());
        Ok(pooled)
    }

    /// A compiled rules file. One named inside a transcript is untrusted: it must be a
    /// `.rules` file (never `/etc/passwd`, whose lines a diagnostic would show), and with
    /// `builtin_only` it must be built in.
    fn lookup(&mut self, name: &str, base: &Path, named_by_transcript: bool) -> Result<Rc<Program>, Lookup> {
        let builtin = crate::lang::specs::builtin(name);
        if named_by_transcript && builtin.is_none() {
            if self.builtin_only {
                return Err(Lookup::Unknown(format!(
                    "`{}` is not a built-in rules name, and only built-in rules may be named here",
                    crate::transcript::cut(name)
                )));
            }
            if name.contains('/') && !name.ends_with(".rules") {
                let what = crate::transcript::cut(name);
                return Err(Lookup::Unknown(format!("`{what}` is not a rules file: its name must end in `.rules`")));
            }
        }
        let inline = self.inline.as_ref().filter(|(label, ..)| label == name);
        let (key, text, label, dir) = match (inline, builtin) {
            // Kept apart from a built-in or a file of the same name.
            (Some((label, text, dir)), _) => {
                (format!("\0{label}"), Cow::Owned(text.clone()), label.clone(), dir.clone())
            }
            // Not copied: a built-in's text is looked up for every transcript that names it.
            (None, Some(text)) => {
                (name.to_string(), Cow::Borrowed(text), format!("specs/{name}.rules"), base.to_path_buf())
            }
            (None, None) if name.ends_with(".rules") || name.contains('/') => {
                let path: PathBuf = if Path::new(name).is_absolute() { name.into() } else { base.join(name) };
                if named_by_transcript {
                    // The name was checked; what it leads to must be a rules file too.
                    crate::files::real_file_with_extension(&path, &["rules"]).map_err(|e| {
                        Lookup::Unknown(format!("cannot read rules file `{}`: {e}", crate::transcript::cut(name)))
                    })?;
                }
                let text = crate::files::read_rules(&path)
                    .map_err(|e| Lookup::Unknown(format!("cannot read rules file `{}`: {e}", path.display())))?;
                let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                (path.display().to_string(), Cow::Owned(text), path.display().to_string(), dir)
            }
            (None, None) => {
                let known: Vec<&str> = crate::lang::specs::BUILTIN.iter().map(|(n, _)| *n).collect();
                let hint = crate::diag::did_you_mean(name, known.iter().copied())
                    .map_or(String::new(), |k| format!(" (did you mean `{k}`?)"));
                let name = crate::transcript::cut(name);
                return Err(Lookup::Unknown(format!("unknown rules `{name}`{hint}; built in: {}", known.join(", "))));
            }
        };
        if self.programs.len() >= MAX_CACHED_PROGRAMS && !self.programs.contains_key(&key) {
            // A program's address names its cards in `pooled`: both go together.
            self.programs.clear();
            self.pooled.clear();
        }
        let data_dir = if builtin.is_some() && inline.is_none() { None } else { Some(dir.clone()) };
        let files_read = &mut self.files_read;
        let entry = self.programs.entry(key).or_insert_with(|| {
            let (compiled, read) = crate::files::recording_reads(|| crate::resolve::compile_in(&label, &text, &dir));
            for path in read {
                if !files_read.contains(&path) {
                    files_read.push(path);
                }
            }
            compiled.map(|mut p| {
                p.data_dir = data_dir;
                Rc::new(p)
            })
        });
        entry.clone().map_err(Lookup::Broken)
    }
}

pub enum Lookup {
    Unknown(String),
    Broken(Vec<Diag>),
}

/// What a transcript that could not be read wholly gives to read the events before the first
/// bad one: its rules, raw events, players and parameters.
struct Readable<'a> {
    program: &'a Rc<Program>,
    raw: &'a RawTranscript,
    envelope: Envelope,
}

/// A game judged: its rules, players and events, and the limits its verdict is written within.
pub(crate) struct Judged<'a> {
    pub(crate) program: &'a Rc<Program>,
    pub(crate) players: &'a [String],
    pub(crate) events: &'a [crate::run::Event],
    pub(crate) limits: &'a Limits,
}

/// The verdict on a transcript whose rules failed while checking it.
pub(crate) fn rules_failed(file: &str, text: Rc<String>, rules: Option<String>, d: Diag) -> Report {
    let message = format!("the rules failed while checking: {}", d.message);
    let mut r = Report::malformed(file, text, rules, vec![Malformed::new(Problem::RulesFailed, message)]);
    r.spec_errors = vec![d];
    r
}

pub(crate) fn report(
    file: &str,
    text: Rc<String>,
    rules: Option<String>,
    judged: Judged<'_>,
    outcome: Outcome,
) -> Report {
    let Judged { program, players, events, limits } = judged;
    // One budget for everything the verdict line writes of the game's values: the scores
    // first (each may share the same huge value), then each violation's state, history and
    // legal events.
    let mut budget = JsonBudget::new(limits.verdict_json_values);
    let scores = match crate::report::values::value_json_within(program, players, &outcome.scores, &mut budget) {
        serde_json::Value::Object(m) => m.into_iter().collect(),
        _ => vec![],
    };
    let broken: Vec<&crate::run::Violation> = outcome.stood.iter().chain(outcome.violation.iter()).collect();
    let violations: Vec<Broken> = broken
        .iter()
        .enumerate()
        .map(|(n, v)| {
            let event = events.get(v.event);
            let rule = program.rules.get(v.rule as usize);
            // Each violation gets an even share of what is left, and within it the state, the
            // history and the legal events a third each (what one leaves goes on to the next).
            let mut part = budget.split_off(budget.left() / (broken.len() - n));
            let state = part.share(3, |b| crate::report::values::state_json(program, players, &v.state, b));
            let history = v
                .history
                .iter()
                .enumerate()
                .map(|(h, (var, changes))| {
                    let name = program.vars[*var as usize].name.clone();
                    let lines = crate::report::values::change_lines(program, players, events, changes);
                    // Shared among the history's variables and the legal events after them.
                    let parts = v.history.len() - h + 1;
                    let json = part
                        .share(parts, |b| crate::report::values::changes_json(program, players, events, changes, b));
                    (name, json, lines)
                })
                .collect();
            let mut legal_events = vec![];
            for (i, k) in v.legal_events.iter().enumerate() {
                // Past the budget the list stops (`legal_count` still says how many there were).
                if part.left() == 0 {
                    part.mark_cut();
                    break;
                }
                let parts = v.legal_events.len() - i;
                legal_events.push(part.share(parts, |b| crate::report::values::candidate_json(program, players, k, b)));
            }
            budget.give_back(part);
            Broken {
                rule: rule.map_or(String::new(), |r| r.id.clone()),
                event: v.event,
                line: event.map_or(0, |e| e.line),
                event_words: event.map_or(String::new(), |e| {
                    crate::report::values::event_words(program, players, &e.actor, e.action, &e.arg)
                }),
                action: event.map(|e| {
                    let values = limits.verdict_json_values;
                    crate::report::values::action_json(program, players, &e.actor, e.action, &e.arg, values)
                }),
                message: v.message.clone(),
                event_span: event.map_or(0..0, |e| e.span.clone()),
                spec_span: v.spec_span.clone(),
                rule_text: rule.map_or(String::new(), |r| r.text.clone()),
                legal: v.legal.clone(),
                legal_events,
                legal_count: v.legal_count,
                stood: None,
                state,
                state_lines: crate::report::values::state_lines(program, players, &v.state),
                history,
            }
        })
        .collect();
    let truncated = budget.was_cut();
    let verdict = if violations.is_empty() { Verdict::Legal } else { Verdict::Illegal };
    let winners = match &outcome.winners {
        Value::List(l) => l.iter().take(MAX_WINNERS).map(|p| crate::run::show(program, players, p)).collect(),
        _ => vec![],
    };
    let notes = outcome
        .notes
        .into_iter()
        .map(|n| {
            let event = n.event.and_then(|i| events.get(i));
            Noted {
                message: n.message,
                event: event.map(|e| (e.index, e.line)),
                event_span: event.map_or(0..0, |e| e.span.clone()),
                spec_span: n.spec_span,
            }
        })
        .collect();
    // The replay as a whole has one budget, so that a long game of large states is cut (`…`,
    // and `"truncated": true` on the step) rather than written as gigabytes: each step in turn
    // gets an even share of what is left, and what a step leaves unspent goes on to the next.
    // At the default a game of 500 events with a state of 1,000 values each fits whole.
    let mut replay_budget = JsonBudget::new(limits.replay_json_values);
    let kept = outcome.states.len();
    let steps = outcome
        .states
        .iter()
        .enumerate()
        .filter_map(|(n, (i, state))| {
            let e = events.get(*i)?;
            let mut share = replay_budget.split_off(replay_budget.left() / (kept - n).max(1));
            let state_json = crate::report::values::state_json(program, players, state, &mut share);
            let cut = share.was_cut();
            replay_budget.give_back(share);
            Some(Step {
                event: *i,
                line: e.line,
                span: e.span.clone(),
                words: crate::report::values::event_words(program, players, &e.actor, e.action, &e.arg),
                action: {
                    let values = limits.verdict_json_values;
                    crate::report::values::action_json(program, players, &e.actor, e.action, &e.arg, values)
                },
                state: state_json,
                state_lines: crate::report::values::state_lines(program, players, state),
                cut,
            })
        })
        .collect();
    Report {
        file: file.into(),
        text,
        rules,
        verdict,
        violations,
        errors: vec![],
        spec_errors: vec![],
        finished: outcome.finished,
        scores: Some(scores),
        winners,
        players: players.to_vec(),
        notes,
        steps,
        program: Some(program.clone()),
        events: events.len(),
        board: None,
        room: None,
        truncated,
        fuel_spent: outcome.fuel_spent,
        conditions_remembered: outcome.conditions_remembered,
        calls_remembered: outcome.calls_remembered,
    }
}

/// The transcript's `variant` with the command line's parameters put over it (a key given on
/// both is the command line's).
fn with_variant(
    mut raw: crate::transcript::RawTranscript,
    given: &[(String, Yaml)],
) -> crate::transcript::RawTranscript {
    if given.is_empty() {
        return raw;
    }
    let (mut entries, line, span) = match raw.variant.take() {
        Some(crate::transcript::Located { value: Yaml::Map(m), line, span }) => (m, line, span),
        Some(other) if other.value != Yaml::Null => {
            raw.variant = Some(other);
            return raw;
        }
        Some(located) => (vec![], located.line, located.span),
        None => (vec![], 0, 0..0),
    };
    entries.retain(|(k, _)| !given.iter().any(|(name, _)| matches!(k, Yaml::Str(s) if s == name)));
    entries.extend(given.iter().map(|(name, value)| (Yaml::Str(name.clone()), value.clone())));
    raw.variant = Some(crate::transcript::Located { value: Yaml::Map(entries), line, span });
    raw
}
