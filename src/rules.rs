//! The library's front door: a game's rules, compiled once per thread, that check transcripts
//! and play games. `Rules` is `Send + Sync` and cheap to clone, so one value serves every
//! thread of a service; each thread compiles the rules the first time it uses them and keeps
//! them (the compiled form shares values without locks, so it stays on its thread).
//!
//! ```
//! let rules = shinpan::Rules::new("hangover")?.with_variant("hand_size", "3")?;
//! let transcript = std::fs::read_to_string("fixtures/hangover/must-follow.yaml").unwrap();
//! let report = rules.check_text("must-follow.yaml", &transcript);
//! assert_eq!(report.verdict, shinpan::Verdict::Illegal);
//! assert_eq!(report.violations[0].rule, "must-follow");
//! // The verdict as the JSON line of the contract (docs/transcripts.md).
//! let json = report.json();
//! assert_eq!(json["violations"][0]["rule"], "must-follow");
//! # Ok::<(), shinpan::RulesError>(())
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use crate::diag::Diag;
use crate::limits::Limits;
use crate::program::Program;
use crate::report::check::{Checker, Lookup, Report};
use crate::transcript::Yaml;

pub use crate::play::Stats;

/// A game's rules: a built-in game or a rules file, with parameters over its defaults.
#[derive(Clone, Debug)]
pub struct Rules {
    /// A built-in name, the absolute path of a rules file, or the label of rules given as text.
    name: String,
    /// Rules given as text, and the folder their `extends` and data files are found from.
    text: Option<Arc<(String, PathBuf)>>,
    variant: Vec<(String, Yaml)>,
    /// What a thread's checker is kept under, with the parameters: the name (for a rules
    /// file, with a hash of its text when read), or for rules given as text, the label and a
    /// hash of the text.
    origin: String,
    /// The name or path as the caller gave it (what `describe` shows).
    given: String,
    /// What one transcript and one game may cost.
    limits: Limits,
}

/// Why rules could not be used: they are unknown, do not compile, or a parameter or a player
/// count does not fit them. `code` is the stable code the command line shows.
#[derive(Debug)]
pub struct RulesError {
    /// The stable code: `shinpan::usage`, or the rules file's first diagnostic's.
    pub code: &'static str,
    /// What is wrong, in one line.
    pub message: String,
    /// The rules file's diagnostics, when it does not compile (rendered by `Display`).
    pub diagnostics: Vec<Diag>,
}

/// What a person reads: a message may quote a name or a path the caller gave, so its control and
/// direction characters are shown escaped (`message` keeps the text as it is).
impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.diagnostics.is_empty() {
            return write!(f, "{}", crate::diag::printable(&self.message));
        }
        for d in &self.diagnostics {
            write!(f, "{}", crate::diag::render_plain(d))?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesError {}

impl RulesError {
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        RulesError { code: crate::codes::USAGE, message: message.into(), diagnostics: vec![] }
    }
}

impl Rules {
    /// A built-in game by name (`hangover`, `bridge`, ...) or a rules file by path; compiled
    /// now on this thread, so a rules file that does not compile is an error here.
    ///
    /// ```
    /// assert!(shinpan::Rules::new("hangover").is_ok());
    /// let unknown = shinpan::Rules::new("hangovr").unwrap_err();
    /// assert!(unknown.message.contains("did you mean `hangover`?"), "{unknown}");
    /// ```
    pub fn new(name_or_path: &str) -> Result<Rules, RulesError> {
        let name = Checker::new(Some(name_or_path.to_string())).rules_override.unwrap_or_default();
        let given = name_or_path.to_string();
        let own = origin_of_named(&name);
        Rules { origin: String::new(), name, text: None, variant: vec![], given, limits: Limits::DEFAULT }
            .made_from(own)
    }

    /// Rules given as the text of a rules file: `label` names them in diagnostics and in the
    /// transcripts `play` writes; `base` is the folder their `extends` and data files are
    /// found from (or, inside `files::with_given`, the files given). Compiled now, so text
    /// with errors is an error here.
    ///
    /// ```
    /// let text = "game coin\nplayers 2..2\nrule r \"a toss is 0 or 1\"\naction toss: int 0..1\n\
    ///             scores {}\nwinners []\nflow {\n  choose {\n    toss(n) by players[0] {\n    }\n  }\n}\n";
    /// let rules = shinpan::Rules::from_text("coin.rules", text, std::path::Path::new("."))?;
    /// let game = "{rules: coin.rules, players: [a, b], events: [{by: a, toss: 1}]}";
    /// assert_eq!(rules.check_text("game", game).verdict, shinpan::Verdict::Legal);
    /// let broken = shinpan::Rules::from_text("coin.rules", "game coin\nplayers 2\nflow {", std::path::Path::new("."));
    /// assert!(broken.is_err());
    /// # Ok::<(), shinpan::RulesError>(())
    /// ```
    pub fn from_text(label: &str, text: &str, base: &Path) -> Result<Rules, RulesError> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut hasher);
        base.hash(&mut hasher);
        // The rules it extends and its card pool may be files given in memory: other files,
        // other rules.
        crate::files::given_key().hash(&mut hasher);
        let own = format!("{label}\u{0}text {:x}", hasher.finish());
        let text = Some(Arc::new((text.to_string(), base.to_path_buf())));
        let given = label.to_string();
        let rules = Rules {
            origin: String::new(),
            name: label.to_string(),
            text,
            variant: vec![],
            given,
            limits: Limits::DEFAULT,
        };
        rules.made_from(own)
    }

    /// These rules (whose origin is set here) compiled now on this thread, kept under `own`
    /// (their own text's origin) and what the files they read besides hold now (the rules they
    /// extend, and theirs), so that rules made again after any of those files was edited are
    /// compiled again. Which files those are is known once the rules have been compiled: the
    /// first time, or when an edit made them read others, the rules compiled here are kept
    /// under the key that names them.
    fn made_from(mut self, own: String) -> Result<Rules, RulesError> {
        self.origin = with_files_read(&own);
        let compiled = self.with_program(|_| ());
        let read = self.with_checker(|c| c.files_read().to_vec());
        if remember_files_read(&own, read) {
            let before = self.key();
            self.origin = with_files_read(&own);
            crate::report::check::rename_checker(&before, &self.key());
        }
        compiled?;
        Ok(self)
    }

    /// The same rules with a parameter set over the default and over every transcript's own
    /// `variant`; the value is read as YAML (`"9"` is a number, `"[1, 12]"` a list). A name the
    /// rules do not have, or a value out of its range, is an error.
    ///
    /// ```
    /// let rules = shinpan::Rules::new("hangover")?;
    /// assert!(rules.clone().with_variant("hand_size", "9").is_ok());
    /// let e = rules.with_variant("hand_sise", "9").unwrap_err();
    /// assert!(e.message.contains("did you mean `hand_size`?"), "{e}");
    /// # Ok::<(), shinpan::RulesError>(())
    /// ```
    pub fn with_variant(self, key: &str, value: &str) -> Result<Rules, RulesError> {
        self.with_parameter(&Parameter::new(key, value).map_err(RulesError::usage)?)
    }

    /// The same rules with a parameter already read (`with_variant`).
    pub fn with_parameter(mut self, parameter: &Parameter) -> Result<Rules, RulesError> {
        let (key, value) = parameter.pair();
        self.variant.retain(|(k, _)| *k != key);
        self.variant.push((key, value));
        // The parameters are checked as a game of the fewest players would be.
        self.with_program(|p| crate::play::game_with(p, p.players.0 as usize, &self.variant).map(|_| ()))?
            .map_err(|d| RulesError::usage(d.message))?;
        Ok(self)
    }

    /// The same rules checking and playing within other limits (`Limits::default()` unless
    /// set): a transcript past them is malformed or cut as each limit says.
    ///
    /// ```
    /// let mut limits = shinpan::Limits::default();
    /// limits.transcript_bytes = 100;
    /// let rules = shinpan::Rules::new("hangover")?.with_limits(limits);
    /// let report = rules.check_path(std::path::Path::new("fixtures/hangover/must-follow.yaml"));
    /// assert_eq!(report.errors[0].problem, shinpan::Problem::TooLarge);
    /// # Ok::<(), shinpan::RulesError>(())
    /// ```
    pub fn with_limits(mut self, limits: Limits) -> Rules {
        self.limits = limits;
        self
    }

    /// The limits these rules check and play within.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The game's name, as its rules file declares it.
    pub fn game(&self) -> Result<String, RulesError> {
        self.with_program(|p| p.name.clone())
    }

    /// Checks a transcript given as text (YAML or JSON); `name` names it in the verdict and
    /// its diagnostics. A transcript that cannot be read is a malformed verdict, not an error.
    pub fn check_text(&self, name: &str, text: &str) -> Report {
        self.with_checker(|c| c.check_text(name, text.to_string(), Path::new(".")))
    }

    /// Checks a transcript file. One that cannot be read is a malformed verdict.
    pub fn check_path(&self, path: &Path) -> Report {
        self.with_checker(|c| c.check_path(path))
    }

    /// Checks a transcript already parsed into JSON values (`{"rules": ..., "players": ...,
    /// "events": [...]}`); its events are numbered as they come, line 1 throughout.
    ///
    /// ```
    /// let rules = shinpan::Rules::new("hangover")?;
    /// let game = serde_json::json!({"rules": "hangover", "players": ["aki", "ben", "chie"], "events": []});
    /// let report = rules.check_value("game", &game);
    /// assert_eq!((report.verdict, report.finished), (shinpan::Verdict::Legal, false));
    /// # Ok::<(), shinpan::RulesError>(())
    /// ```
    pub fn check_value(&self, name: &str, transcript: &serde_json::Value) -> Report {
        self.check_text(name, &transcript.to_string())
    }

    /// Plays one random legal game among `players` players from `seed` (the same seed gives
    /// the same game) and gives it as a transcript that checks again.
    ///
    /// ```
    /// let rules = shinpan::Rules::new("hangover")?;
    /// let transcript = rules.play(3, 7)?;
    /// assert_eq!(rules.check_text("played", &transcript).verdict, shinpan::Verdict::Legal);
    /// assert!(rules.play(9, 7).is_err(), "Hangover is for 3 to 5 players");
    /// # Ok::<(), shinpan::RulesError>(())
    /// ```
    pub fn play(&self, players: usize, seed: u64) -> Result<String, RulesError> {
        self.play_one(players, seed, self.limits.playout_events)
    }

    /// Plays one random game as `play_one` does, and says whether it stopped at a dead end:
    /// a waiting point where nothing was legal before the game finished (a bug of the rules,
    /// reported at that `choose`). The transcript is the game up to there either way.
    pub fn play_one_or_dead_end(
        &self,
        players: usize,
        seed: u64,
        max_events: usize,
    ) -> Result<(String, Option<Diag>), RulesError> {
        self.with_players(players, |p| {
            let played = playout(p, players, &self.variant, seed, &self.cut_after(max_events))?;
            let stuck = crate::play::dead_end(p, &played);
            Ok((crate::play::transcript_text_for(&self.name, &self.variant, p, &played), stuck))
        })
    }

    /// Plays one random game as `play` does, cut short after `max_events` events.
    pub fn play_one(&self, players: usize, seed: u64, max_events: usize) -> Result<String, RulesError> {
        self.with_players(players, |p| {
            let played = playout(p, players, &self.variant, seed, &self.cut_after(max_events))?;
            Ok(crate::play::transcript_text_for(&self.name, &self.variant, p, &played))
        })
    }

    /// Plays `games` random games from seeds `seed`, `seed + 1`, ..., handing each to `each` as
    /// a transcript of one JSON line as soon as it is played; stops when `each` says `false`.
    /// Returns the first game that stopped at a dead end (its seed, and the diagnostic at the
    /// `choose` where nothing was legal), if one did: a bug of the rules.
    ///
    /// ```
    /// let rules = shinpan::Rules::new("hangover")?;
    /// let mut lines = vec![];
    /// let stuck = rules.play_games(3, 7, 2, 1000, |line| { lines.push(line.to_string()); true })?;
    /// assert!(stuck.is_none());
    /// assert_eq!(lines.len(), 2);
    /// assert!(lines.iter().all(|l| rules.check_text("game", l).verdict == shinpan::Verdict::Legal));
    /// # Ok::<(), shinpan::RulesError>(())
    /// ```
    pub fn play_games(
        &self,
        players: usize,
        seed: u64,
        games: usize,
        max_events: usize,
        mut each: impl FnMut(&str) -> bool,
    ) -> Result<Option<(u64, Diag)>, RulesError> {
        self.with_players(players, |p| {
            let mut first_stuck = None;
            let mut carried = None;
            for k in 0..games as u64 {
                let seed = seed.wrapping_add(k);
                let limits = self.cut_after(max_events);
                let played = playout_carrying(p, players, &self.variant, seed, &limits, &mut carried)?;
                if first_stuck.is_none() {
                    first_stuck = crate::play::dead_end(p, &played).map(|d| (seed, d));
                }
                if !each(&crate::play::transcript_json_line_for(&self.name, &self.variant, p, &played)) {
                    break;
                }
            }
            Ok(first_stuck)
        })
    }

    /// The figures of `games` random games from seeds `seed`, `seed + 1`, ... (`play --stats`):
    /// lengths, scores and wins per seat, actions taken, how games ended.
    pub fn play_stats(&self, players: usize, seed: u64, games: usize, max_events: usize) -> Result<Stats, RulesError> {
        self.with_players(players, |p| {
            let mut stats = Stats::default();
            let mut carried = None;
            for k in 0..games as u64 {
                let limits = self.cut_after(max_events);
                let game = playout_carrying(p, players, &self.variant, seed.wrapping_add(k), &limits, &mut carried)?;
                stats.add_capped(p, &game, limits.playout_events);
            }
            Ok(stats)
        })
    }

    /// These rules' limits, a random game cut short after `max_events` events.
    fn cut_after(&self, max_events: usize) -> Limits {
        Limits { playout_events: max_events, ..self.limits }
    }

    /// Runs `f` with the compiled rules once `players` is known to fit them.
    fn with_players<T>(
        &self,
        players: usize,
        f: impl FnOnce(&Program) -> Result<T, RulesError>,
    ) -> Result<T, RulesError> {
        self.with_program(|p| {
            let (lo, hi) = p.players;
            if !(lo as usize..=hi as usize).contains(&players) {
                let words = p.player_count_words();
                return Err(RulesError::usage(format!("`{}` is for {words}, not {players}", p.name)));
            }
            f(p)
        })?
    }

    /// The fewest and the most players the rules allow.
    pub fn player_counts(&self) -> Result<(usize, usize), RulesError> {
        self.with_program(|p| (p.players.0 as usize, p.players.1 as usize))
    }

    /// The players the rules allow, in words (`3 to 5 players`, `players N, E, S, W`).
    pub fn player_count_words(&self) -> Result<String, RulesError> {
        self.with_program(Program::player_count_words)
    }

    /// What the transcripts `play` writes name as their rules: a built-in's name, or the
    /// rules file's absolute path (so the transcript checks again wherever it is saved).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The ids of the rules' rules, in the order they are checked.
    pub fn rule_ids(&self) -> Result<Vec<String>, RulesError> {
        self.with_program(|p| p.rules.iter().map(|r| r.id.clone()).collect())
    }

    /// What a rule means and where it is checked (`shinpan explain`), if the rules have it.
    pub fn explain(&self, rule: &str) -> Result<Option<String>, RulesError> {
        self.with_program(|p| crate::report::render::explain(p, rule))
    }

    /// The players, the parameters as declared (type, range, default) and the rule ids in
    /// check order, with the file each comes from (`shinpan rules NAME`); the rules file's
    /// controls shown escaped.
    pub fn describe(&self) -> Result<String, RulesError> {
        self.with_program(|p| crate::diag::printable(&crate::report::render::described(&self.given, p)).into_owned())
    }

    /// What this thread's checker for these rules, parameters and limits is kept under.
    pub(crate) fn key(&self) -> String {
        let given: Vec<String> = self.variant.iter().map(|(k, v)| format!("\u{0}{k}={}", v.to_json())).collect();
        format!("{}{}{}", self.origin, given.concat(), limits_key(&self.limits))
    }

    /// A new checker of every transcript against these rules and parameters.
    pub(crate) fn checker(&self) -> Checker {
        let mut c = match &self.text {
            Some(given) => Checker::with_rules_text(&self.name, &given.0, &given.1),
            None => Checker::new(Some(self.name.clone())),
        };
        c.variant = self.variant.clone();
        c.limits = self.limits;
        c
    }

    /// Runs `f` with this thread's checker for these rules, made on first use.
    fn with_checker<T>(&self, f: impl FnOnce(&mut Checker) -> T) -> T {
        crate::report::check::with_checker(&self.key(), || self.checker(), f)
    }

    /// Runs `f` with the compiled rules (without the cards of any data file).
    fn with_program<T>(&self, f: impl FnOnce(&Program) -> T) -> Result<T, RulesError> {
        let program = self.program()?;
        Ok(f(&program))
    }

    /// The compiled rules, with the cards of their default data files, as this thread keeps
    /// them.
    pub(crate) fn program(&self) -> Result<Rc<Program>, RulesError> {
        self.with_checker(|c| c.program(&self.name, Path::new("."))).map_err(|e| match e {
            Lookup::Unknown(message) => RulesError::usage(message),
            Lookup::Broken(diagnostics) => RulesError {
                code: diagnostics.first().map_or(crate::codes::USAGE, |d| d.code),
                message: diagnostics.first().map_or_else(String::new, |d| d.message.clone()),
                diagnostics,
            },
        })
    }

    /// These rules with a transcript's own parameters under the ones given here (as `check`
    /// reads a transcript's `variant`).
    pub(crate) fn under_variant(&self, transcript: &[(String, Yaml)]) -> Rules {
        let mut rules = self.clone();
        rules.variant = transcript.iter().filter(|(k, _)| !self.variant.iter().any(|(g, _)| g == k)).cloned().collect();
        rules.variant.extend(self.variant.iter().cloned());
        rules
    }

    /// The rules, players and parameters of a game among the players `raw` names.
    pub(crate) fn game_program(
        &self,
        raw: crate::transcript::RawTranscript,
    ) -> Result<(Rc<Program>, crate::transcript::decode::Envelope), String> {
        self.with_checker(|c| c.game_program(raw, Path::new(".")))
    }

    /// The parameters given over the rules' defaults.
    pub(crate) fn variant(&self) -> &[(String, Yaml)] {
        &self.variant
    }
}

/// A parameter of the rules, set over the default and over every transcript's own `variant`
/// (the command line's `--variant KEY=VALUE`); the value is read as YAML, so `9` is a number
/// and `[1, 12]` a list.
#[derive(Clone, Debug)]
pub struct Parameter {
    key: String,
    value: Yaml,
}

impl Parameter {
    /// `KEY=VALUE`.
    ///
    /// ```
    /// assert_eq!(shinpan::Parameter::parse("hand_size=9").unwrap().key(), "hand_size");
    /// assert_eq!(shinpan::Parameter::parse(" hand_size = 9").unwrap().key(), "hand_size");
    /// assert!(shinpan::Parameter::parse("hand_size").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Parameter, String> {
        let Some((key, value)) = text.split_once('=') else {
            return Err(format!("`{text}` is not KEY=VALUE"));
        };
        let parameter = Parameter::new(key, value)?;
        Ok(Parameter { key: key.trim().to_string(), ..parameter })
    }

    /// A parameter from its name and its value as YAML (or JSON) text.
    pub fn new(key: &str, value: &str) -> Result<Parameter, String> {
        let value =
            crate::transcript::parse_value(value).map_err(|e| format!("the value of `{key}`: {}", e.message))?;
        Ok(Parameter { key: key.to_string(), value })
    }

    /// The parameter's name.
    pub fn key(&self) -> &str {
        &self.key
    }

    pub(crate) fn pair(&self) -> (String, Yaml) {
        (self.key.clone(), self.value.clone())
    }
}

/// What a thread keeps the rules of a name or path under: a rules file's compiled rules with
/// a hash of its text as it is now, so that rules made again after their file was edited (a
/// designer trying a variant in a live session) are compiled again, not taken from before. A
/// built-in name, or a file that cannot be read (reported when compiling), is its own key.
fn origin_of_named(name: &str) -> String {
    if crate::lang::specs::builtin(name).is_some() {
        return name.to_string();
    }
    match fingerprint(Path::new(name)) {
        Some(print) => format!("{name}\u{0}file {print:x}"),
        None => name.to_string(),
    }
}

/// A hash of a rules file's bytes as they are now; `None` when it cannot be read.
fn fingerprint(path: &Path) -> Option<u64> {
    let bytes = crate::files::read_bytes(path, crate::files::MAX_RULES_BYTES).ok()?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    Some(hasher.finish())
}

thread_local! {
    /// The files that compiling rules read besides their own text, by that text's origin
    /// (`made_from`): the rules they extend, and theirs.
    static FILES_READ: RefCell<HashMap<String, Vec<PathBuf>>> = RefCell::new(HashMap::new());
}

/// The most origins whose files read a thread remembers; past it, it starts again (and rules
/// made then are compiled once more).
const MAX_REMEMBERED_ORIGINS: usize = 256;

/// `own`, with each file its rules were last seen to read and a hash of that file as it is
/// now (or that it cannot be read).
fn with_files_read(own: &str) -> String {
    let read = FILES_READ.with(|known| known.borrow().get(own).cloned().unwrap_or_default());
    let mut origin = own.to_string();
    for path in read {
        let print = fingerprint(&path).map_or_else(|| "unreadable".to_string(), |p| format!("{p:x}"));
        origin.push_str(&format!("\u{0}{}\u{0}{print}", path.display()));
    }
    origin
}

/// Remembers the files that compiling the rules of `own` read; whether that is news.
fn remember_files_read(own: &str, read: Vec<PathBuf>) -> bool {
    FILES_READ.with(|known| {
        let mut known = known.borrow_mut();
        if known.get(own).map_or(read.is_empty(), |before| *before == read) {
            return false;
        }
        if known.len() >= MAX_REMEMBERED_ORIGINS {
            known.clear();
        }
        known.insert(own.to_string(), read);
        true
    })
}

/// What a checker's key says of its limits: nothing for the defaults (so the common key is
/// made without formatting them), else every figure.
pub(crate) fn limits_key(limits: &Limits) -> String {
    if *limits == Limits::DEFAULT { String::new() } else { format!("\u{0}{limits:?}") }
}

/// One random game, its failure as a `RulesError` with the rules' diagnostic.
fn playout(
    p: &Program,
    players: usize,
    variant: &[(String, Yaml)],
    seed: u64,
    limits: &Limits,
) -> Result<crate::play::Playout, RulesError> {
    playout_carrying(p, players, variant, seed, limits, &mut None)
}

/// `playout`, one of a run of games of the same rules, which carry to the next game what each
/// works out once for all (`Machine::carried`).
fn playout_carrying(
    p: &Program,
    players: usize,
    variant: &[(String, Yaml)],
    seed: u64,
    limits: &Limits,
    carried: &mut Option<crate::run::Carried>,
) -> Result<crate::play::Playout, RulesError> {
    crate::play::playout_carrying(p, players, variant, seed, limits, carried).map_err(|d| RulesError {
        code: d.code,
        message: d.message.clone(),
        diagnostics: vec![d],
    })
}

impl Report {
    /// The verdict as the JSON object of the contract (one line of `check --format json`).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.json_line()).unwrap_or_default()
    }

    /// The same verdict as that line of text, written once (what a service sends on).
    pub fn json_line(&self) -> String {
        crate::report::render::json_line(self)
    }

    /// The verdict for a person: each diagnostic (the event, the rule's line, what was legal,
    /// the table before it), then a summary line; in colour when `color` says so.
    pub fn human(&self, color: bool) -> String {
        self.human_at(color, crate::report::values::DEFAULT_WIDTH)
    }

    /// The same for a terminal `width` columns wide: the state at a violation wrapped between
    /// its items to fit it.
    pub fn human_at(&self, color: bool, width: usize) -> String {
        let width = width.clamp(*crate::report::values::WIDTHS.start(), *crate::report::values::WIDTHS.end());
        let mut text: String = crate::report::render::diagnostics_at(self, width)
            .iter()
            .map(|d| crate::diag::render_fancy_at(d, color, width))
            .collect();
        text.push_str(&crate::report::render::summary(self));
        text
    }

    /// Each event judged and the state after it (`shinpan replay`), when the report was made
    /// by `Checking::replay`; else only the broken event, with the state before it.
    pub fn replay_steps(&self) -> Vec<crate::report::render::ReplayStep<'_>> {
        crate::report::render::replay(self)
    }

    /// The judge's replay page: one self-contained HTML file, when the report was made by
    /// `Checking::replay` and its transcript could be read.
    pub fn page(&self) -> Option<String> {
        crate::report::page::page(self)
    }
}

/// The names of every built-in game and the paths of the gallery's rules files
/// (`examples/games/NAME/NAME.rules`): what the tests that play every shipped game play.
#[cfg(test)]
pub(crate) fn shipped_rules() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = crate::lang::specs::BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
    let mut gallery: Vec<_> = std::fs::read_dir(root.join("examples/games"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|dir| dir.is_dir())
        .collect();
    gallery.sort();
    for dir in gallery {
        if let Some(name) = dir.file_name().and_then(|n| n.to_str()) {
            names.push(dir.join(format!("{name}.rules")).to_string_lossy().into_owned());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::Rules;

    /// Rules that extend a file are compiled once: what was compiled before the file they read
    /// was known is kept under the key that names that file, not compiled again there.
    #[test]
    fn rules_that_extend_a_file_are_kept_where_they_are_looked_for() {
        let folder = std::env::temp_dir().join(format!("shinpan-kept-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let coin = "game coin\nplayers 2\nrule r \"a toss\"\naction toss: int 0..1\nscores {}\nwinners []\n\
                    flow {\n  choose {\n    toss(n) by players[0] {\n    }\n  }\n}\n";
        std::fs::write(folder.join("base.rules"), coin).unwrap();
        std::fs::write(folder.join("child.rules"), "extends base.rules\n").unwrap();
        let rules = Rules::new(folder.join("child.rules").to_str().unwrap()).unwrap();
        assert!(rules.key().contains("base.rules"), "{:?}", rules.key());
        let kept = |key: &str| {
            crate::report::check::with_checker(key, crate::report::check::Checker::default, |c| c.program_count())
        };
        assert_eq!(kept(&rules.key()), 1, "the compiled rules are under the key that names the parent");
        let again = Rules::new(folder.join("child.rules").to_str().unwrap()).unwrap();
        assert_eq!(again.key(), rules.key());
        // Other rules that extend a file, made in between, leave what was remembered of these.
        std::fs::write(folder.join("other.rules"), "extends base.rules\n").unwrap();
        Rules::new(folder.join("other.rules").to_str().unwrap()).unwrap();
        let compiled = rules.program().unwrap();
        let third = Rules::new(folder.join("child.rules").to_str().unwrap()).unwrap();
        assert!(std::rc::Rc::ptr_eq(&third.program().unwrap(), &compiled), "not compiled again");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
