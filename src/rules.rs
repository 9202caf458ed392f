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
//! // The verdict as the JSON line of the contract (../shared/TRANSCRIPTS.md).
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
use crate::program::Program;
use crate::report::check::{Checker, Lookup, Report};
use crate::transcript::Yaml;

/// Compiled rules a thread keeps, at most: past it the thread starts again (a service that
/// builds rules from many files must not grow without bound).
const MAX_RULES_PER_THREAD: usize = 64;

thread_local! {
    static CHECKERS: RefCell<HashMap<String, Checker>> = RefCell::new(HashMap::new());
}

/// A game's rules: a built-in game or a rules file, with parameters over its defaults.
#[derive(Clone, Debug)]
pub struct Rules {
    /// A built-in name, the absolute path of a rules file, or the label of rules given as text.
    name: String,
    /// Rules given as text, and the folder their `extends` and data files are found from.
    text: Option<Arc<(String, PathBuf)>>,
    variant: Vec<(String, Yaml)>,
    /// What a thread's checker is kept under, with the parameters: the name, or for rules
    /// given as text, the label and a hash of the text.
    origin: String,
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

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.diagnostics.is_empty() {
            return write!(f, "{}", self.message);
        }
        for d in &self.diagnostics {
            write!(f, "{}", crate::diag::render_plain(d))?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesError {}

impl RulesError {
    fn usage(message: impl Into<String>) -> Self {
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
        let rules = Rules { origin: name.clone(), name, text: None, variant: vec![] };
        rules.with_program(|_| ())?;
        Ok(rules)
    }

    /// Rules given as the text of a rules file: `label` names them in diagnostics and in the
    /// transcripts `play` writes; `base` is the folder their `extends` and data files are
    /// found from. Compiled now, so text with errors is an error here.
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
        let origin = format!("{label}\u{0}text {:x}", hasher.finish());
        let text = Some(Arc::new((text.to_string(), base.to_path_buf())));
        let rules = Rules { origin, name: label.to_string(), text, variant: vec![] };
        rules.with_program(|_| ())?;
        Ok(rules)
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
    pub fn with_variant(mut self, key: &str, value: &str) -> Result<Rules, RulesError> {
        let value = crate::transcript::parse_value(value)
            .map_err(|e| RulesError::usage(format!("the value of `{key}`: {}", e.message)))?;
        self.variant.retain(|(k, _)| k != key);
        self.variant.push((key.to_string(), value));
        // The parameters are checked as a game of the fewest players would be.
        self.with_program(|p| crate::play::game_with(p, p.players.0 as usize, &self.variant).map(|_| ()))?
            .map_err(|d| RulesError::usage(d.message))?;
        Ok(self)
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
        self.with_program(|p| {
            let (lo, hi) = p.players;
            if !(lo as usize..=hi as usize).contains(&players) {
                let words = p.player_count_words();
                return Err(RulesError::usage(format!("`{}` is for {words}, not {players}", p.name)));
            }
            let played = crate::play::playout_with(p, players, &self.variant, seed, crate::play::MAX_PLAYOUT_EVENTS)
                .map_err(|d| RulesError { code: d.code, message: d.message.clone(), diagnostics: vec![d] })?;
            Ok(crate::play::transcript_text_for(&self.name, &self.variant, p, &played))
        })?
    }

    /// What this thread's checker for these rules and parameters is kept under.
    fn key(&self) -> String {
        let given: Vec<String> = self.variant.iter().map(|(k, v)| format!("\u{0}{k}={}", v.to_json())).collect();
        format!("{}{}", self.origin, given.concat())
    }

    /// Runs `f` with this thread's checker for these rules, made on first use.
    fn with_checker<T>(&self, f: impl FnOnce(&mut Checker) -> T) -> T {
        let key = self.key();
        CHECKERS.with(|cell| {
            let mut checkers = cell.borrow_mut();
            if !checkers.contains_key(&key) && checkers.len() >= MAX_RULES_PER_THREAD {
                checkers.clear();
            }
            let checker = checkers.entry(key).or_insert_with(|| {
                let mut c = match &self.text {
                    Some(given) => Checker::with_rules_text(&self.name, &given.0, &given.1),
                    None => Checker::new(Some(self.name.clone())),
                };
                c.variant = self.variant.clone();
                c
            });
            f(checker)
        })
    }

    /// Runs `f` with the compiled rules (without the cards of any data file).
    fn with_program<T>(&self, f: impl FnOnce(&Program) -> T) -> Result<T, RulesError> {
        let program: Rc<Program> =
            self.with_checker(|c| c.program(&self.name, Path::new("."))).map_err(|e| match e {
                Lookup::Unknown(message) => RulesError::usage(message),
                Lookup::Broken(diagnostics) => RulesError {
                    code: diagnostics.first().map_or(crate::codes::USAGE, |d| d.code),
                    message: diagnostics.first().map_or_else(String::new, |d| d.message.clone()),
                    diagnostics,
                },
            })?;
        Ok(f(&program))
    }
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
}
