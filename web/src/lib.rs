//! shinpan in the browser: the engine's public API as WebAssembly functions for the page in
//! `web/page/`. Everything runs on the page's one thread (no worker threads: `Checking::check`
//! checks on the calling thread), on the stack the module is linked with (`build.rs`); random
//! games come from their seeds. Verdicts are the engine's JSON lines and the replay is the
//! engine's own page (`Report::page`), so the page shows what the command line writes.
//!
//! Every function takes and gives text (JSON, HTML, rendered diagnostics): the page never
//! builds markup from it but through `textContent` or an `<iframe srcdoc>` of the engine's
//! escaped page.

use std::cell::RefCell;
use std::path::Path;

use serde_json::{Value, json};
use shinpan::{Checking, Game, Input, LegalEvent, Report, Rules, RulesError};
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
extern "C" {
    /// Milliseconds since the epoch, from the browser's clock: the only clock on this target
    /// (`std::time::Instant` has none), used for `play --stats`'s games per second.
    #[wasm_bindgen(js_namespace = Date)]
    fn now() -> f64;
}

/// Seconds since some fixed time: the browser's clock in the page, the system's in a test.
fn seconds() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
    }
}

thread_local! {
    /// The files the page's user opened that rules and transcripts may name: the rules a rules
    /// file `extends`, its card pool, a transcript's pool. Found by file name alone
    /// (`shinpan::files::with_given`): the page has no filesystem.
    static OPENED: RefCell<Vec<(String, Vec<u8>)>> = const { RefCell::new(vec![]) };
}

/// Gives the engine a file the user opened, by its name (one of the same name is replaced),
/// for the rules and transcripts that name it.
#[wasm_bindgen]
pub fn give_file(name: &str, bytes: &[u8]) {
    OPENED.with(|o| {
        let mut opened = o.borrow_mut();
        opened.retain(|(n, _)| n != name);
        opened.push((name.to_string(), bytes.to_vec()));
    });
}

/// Forgets every file given.
#[wasm_bindgen]
pub fn forget_files() {
    OPENED.with(|o| o.borrow_mut().clear());
}

/// Runs `run` with the opened files as the only files the engine can read, and what it looked
/// for among them.
fn among_opened<T>(run: impl FnOnce() -> T) -> (T, shinpan::files::Looked) {
    OPENED.with(|o| {
        let opened = o.borrow().clone();
        shinpan::files::with_given(&opened, run)
    })
}

/// The same, when what was looked for does not matter.
fn opened<T>(run: impl FnOnce() -> T) -> T {
    among_opened(run).0
}

/// What a rules file that could not be used lacks: a sentence for each file it names that
/// was not opened (a parent it `extends`, a card pool), "" when none.
fn missing_words(label: &str, missing: &[String]) -> String {
    missing
        .iter()
        .map(|name| {
            let why = if name.ends_with(".rules") { "the rules it extends" } else { "a file it reads cards from" };
            format!("{label} needs {name} ({why}): open {name} too, with it or on its own\n")
        })
        .collect()
}

/// The built-in games, as JSON: `[{"name", "players": [fewest, most], "words", "text"}]`
/// (`text`: the rules file, for the editor).
#[wasm_bindgen]
pub fn builtin_games() -> String {
    let games: Vec<Value> = shinpan::editor::builtin_games()
        .map(|name| {
            let rules = Rules::new(name);
            let counts = rules.as_ref().ok().and_then(|r| r.player_counts().ok()).unwrap_or((0, 0));
            let words = rules.as_ref().ok().and_then(|r| r.player_count_words().ok()).unwrap_or_default();
            let text = shinpan::editor::builtin_rules(name).unwrap_or("");
            json!({"name": name, "players": [counts.0, counts.1], "words": words, "text": text})
        })
        .collect();
    Value::Array(games).to_string()
}

/// What transcripts are checked against: each one's own `rules` (a built-in game), or one set
/// of rules for all (a built-in game picked on the page, or a rules file opened or edited).
#[wasm_bindgen]
#[derive(Default)]
pub struct Judge {
    rules: Option<Rules>,
    /// What the last rules file used (`use_rules_text`) looked for among the opened files.
    looked: Value,
}

#[wasm_bindgen]
impl Judge {
    /// Each transcript against the rules it names.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Judge {
        Judge { rules: None, looked: json!({}) }
    }

    /// Every transcript against a built-in game: "" when it is one, else why not.
    pub fn use_builtin(&mut self, name: &str) -> String {
        self.use_made(Rules::new(name).and_then(|r| r.game().map(|_| r)))
    }

    /// Every transcript against a rules file's text named `label` (its `extends` and card
    /// pool found among the opened files by name, or built in): "" when it compiles, else
    /// the files it needs that were not opened and its diagnostics as `lint` renders them.
    pub fn use_rules_text(&mut self, label: &str, text: &str) -> String {
        let (made, looked) =
            among_opened(|| Rules::from_text(label, text, Path::new("")).and_then(|r| r.game().map(|_| r)));
        let needs = if made.is_err() { missing_words(label, &looked.missing) } else { String::new() };
        self.looked = json!({"uses": looked.found, "missing": looked.missing, "needs": needs});
        let problem = self.use_made(made);
        if problem.is_empty() { problem } else { needs + &problem }
    }

    /// What the last rules file used (`use_rules_text`) looked for among the opened files, as
    /// JSON: `{"uses": [NAME], "missing": [NAME], "needs": SENTENCES}` (`needs`, when the
    /// rules could not be used: a sentence for each file to open too).
    pub fn looked(&self) -> String {
        self.looked.to_string()
    }

    /// Each transcript against the rules it names again.
    pub fn use_named(&mut self) {
        self.rules = None;
        self.looked = json!({});
    }

    fn use_made(&mut self, made: Result<Rules, RulesError>) -> String {
        match made {
            Ok(rules) => {
                self.rules = Some(rules);
                String::new()
            }
            Err(e) => rules_error_text(&e),
        }
    }

    fn checking(&self) -> Checking {
        self.rules.as_ref().map_or_else(Checking::new, Checking::with_rules)
    }

    /// The verdicts on a file's bytes named `name` (a transcript: YAML, JSON; a record file
    /// `.pbn`, `.lin`: one a deal), as `shinpan check --format json` writes them: JSON lines.
    pub fn check(&self, name: &str, bytes: &[u8]) -> String {
        opened(|| self.reports(name, bytes)).iter().map(Report::json_line).collect::<Vec<_>>().join("\n")
    }

    /// The same verdicts as `shinpan check --format human` writes them (without colour): of
    /// deal `deal` (from 1) of a record file, or of every one (0).
    pub fn check_human(&self, name: &str, bytes: &[u8], deal: usize) -> String {
        let reports = opened(|| self.reports(name, bytes));
        let wanted = format!("{name}#{deal}");
        reports.iter().filter(|r| deal == 0 || r.file == wanted).map(|r| r.human(false)).collect()
    }

    /// The lines of a JSON Lines file (`check --stream`): each line not blank a transcript
    /// named `NAME#LINE`, its verdict's lines the stream's.
    pub fn check_lines(&self, name: &str, text: &str) -> String {
        let checking = self.checking();
        let mut out = vec![];
        for (i, line) in text.split('\n').enumerate() {
            let line_text = line.strip_suffix('\r').unwrap_or(line);
            if line_text.bytes().all(|b| b == b' ' || b == b'\t') {
                continue;
            }
            let input = Input::Text { name: format!("{name}#{}", i + 1), text: line_text.to_string(), line: i + 1 };
            out.extend(opened(|| checking.check(&input)).iter().map(Report::json_line));
        }
        out.join("\n")
    }

    /// The judge's replay page of a transcript (`shinpan replay --html`), or of deal `deal`
    /// (from 1) of a record file: the engine's self-contained HTML, "" where there is none.
    /// Shown in the page's frame, it tells the page which event it shows (`FRAME_SCRIPT`).
    pub fn page(&self, name: &str, bytes: &[u8], deal: usize) -> String {
        let Some((file, text)) = transcript_of(name, bytes, deal) else { return String::new() };
        in_frame(&page_of(&opened(|| self.checking().replay_text(&file, &text))))
    }

    /// A game to try other moves in: the transcript (of deal `deal`, from 1, of a record
    /// file) replayed into a live referee (`shinpan::Game`) up to its event `event` (from 0),
    /// the one not taken, under the rules it is checked against; `seed` draws its random and
    /// chance moves.
    pub fn trial(&self, name: &str, bytes: &[u8], deal: usize, event: usize, seed: u64) -> Trial {
        let Some((file, text)) = transcript_of(name, bytes, deal) else {
            return Trial::failed("the transcript cannot be read, so no game can be made of it");
        };
        opened(|| {
            let replay = self.checking().replay_text(&file, &text);
            let steps = replay.replay_steps();
            // The event checking stopped at was not played (`before`): named, never offered.
            let playable = |s: &shinpan::ReplayStep| s.action.filter(|_| !s.before).cloned();
            let recorded = steps.iter().find(|s| s.event == event).map(|s| (playable(s), s.words.to_string()));
            let rules = match &self.rules {
                Some(rules) => Ok(rules.clone()),
                None => replay.rules.as_deref().map_or_else(
                    || Err(replay.errors.first().map_or("no rules were found", |e| e.message.as_str()).to_string()),
                    |named| Rules::new(named).map_err(|e| format!("the rules `{named}`: {e}")),
                ),
            };
            let rules = match rules {
                Ok(rules) => rules,
                Err(why) => return Trial::failed(&why),
            };
            match rules.resume_game_after(&file, &text, event, seed) {
                Ok(game) => Trial::new(game, rules, recorded),
                Err(refused) => Trial::failed(&format!("the game cannot be replayed to event {event}: {refused}")),
            }
        })
    }

    fn reports(&self, name: &str, bytes: &[u8]) -> Vec<Report> {
        let checking = self.checking();
        if shinpan::records::is_record(Path::new(name)) {
            return match text_of(bytes, true) {
                Ok(text) => checking.check_record_text(name, &text),
                Err(why) => vec![Report::unread(name, why)],
            };
        }
        match transcript_text(bytes) {
            Ok(text) => checking.check(&Input::text(name, &text)),
            Err(why) => vec![Report::unread(name, why)],
        }
    }
}

fn page_of(report: &Report) -> String {
    report.page().unwrap_or_default()
}

/// A transcript's name and text, from a transcript file's bytes or a record file's deal.
fn transcript_of(name: &str, bytes: &[u8], deal: usize) -> Option<(String, String)> {
    if shinpan::records::is_record(Path::new(name)) {
        let deals = shinpan::records::read_deals(Path::new(name), &lossy(bytes));
        let transcript = deals.into_iter().find(|d| d.number == deal)?.transcript.ok()?;
        return Some((format!("{name}#{deal}"), transcript));
    }
    transcript_text(bytes).ok().map(|text| (name.to_string(), text))
}

/// Added to a replay page shown in the page's frame: it tells the page around it which event
/// it shows (the number its `select` writes on `<body data-event>`), so that the page can offer
/// to try another move there. A number only; the page checks that it is one.
const FRAME_SCRIPT: &str = "<script>\n\"use strict\";\n// shinpan's web page: say which event this replay shows.\n\
    const tell = () => parent.postMessage({ shinpanEvent: Number(document.body.dataset.event) }, \"*\");\n\
    new MutationObserver(tell).observe(document.body, { attributes: true, attributeFilter: [\"data-event\"] });\n\
    tell();\n</script>\n";

/// The replay page with `FRAME_SCRIPT` before its end.
fn in_frame(page: &str) -> String {
    match page.rfind("</body>") {
        Some(at) => format!("{}{FRAME_SCRIPT}{}", &page[..at], &page[at..]),
        None => page.to_string(),
    }
}

/// Another move tried at a point of a game: a live referee (`shinpan::Game`) replayed from a
/// transcript to that point, played on move by move from the legal events it lists.
#[wasm_bindgen]
pub struct Trial {
    game: Option<Game>,
    rules: Option<Rules>,
    /// Why there is no game.
    error: String,
    /// The legal events where the game waits, as `view` listed them.
    legal: Vec<LegalEvent>,
    /// The event the transcript records at the point tried (JSON, but for the event checking
    /// stopped at, and in words), and how many events came before it.
    recorded: Option<(Option<Value>, String)>,
    start: usize,
}

impl Trial {
    fn failed(why: &str) -> Trial {
        Trial { game: None, rules: None, error: why.to_string(), legal: vec![], recorded: None, start: 0 }
    }

    fn new(game: Game, rules: Rules, recorded: Option<(Option<Value>, String)>) -> Trial {
        let start = game.event_count();
        let mut trial =
            Trial { game: Some(game), rules: Some(rules), error: String::new(), legal: vec![], recorded, start };
        trial.list();
        trial
    }

    /// Lists what is legal where the game now waits.
    fn list(&mut self) {
        self.legal = self.game.as_ref().map(|g| opened(|| g.legal()).unwrap_or_default()).unwrap_or_default();
    }

    /// Runs `step` on the game, then lists what is legal: "" or why the step was not taken.
    fn step(&mut self, step: impl FnOnce(&mut Game) -> Result<(), String>) -> String {
        let Some(game) = self.game.as_mut() else { return self.error.clone() };
        let answer = opened(|| step(game));
        self.list();
        answer.err().unwrap_or_default()
    }

    /// The recorded event, when the game waits where the transcript recorded it.
    fn recorded_here(&self) -> Option<&(Option<Value>, String)> {
        self.recorded.as_ref().filter(|_| self.game.as_ref().is_some_and(|g| g.event_count() == self.start))
    }
}

#[wasm_bindgen]
impl Trial {
    /// Why no game could be made ("" when there is one).
    pub fn error(&self) -> String {
        self.error.clone()
    }

    /// The game where it waits, as JSON: `{"events", "start", "finished", "legal": [{"words",
    /// "by", "action", "chance", "recorded"}], "recorded": WORDS or null (the event the
    /// transcript records here), "recorded_playable" (false for the event checking stopped at,
    /// which the rules refuse), "state", "verdict" (check's JSON of the game so far), "human"
    /// (the same as `check --format human`)}`.
    pub fn view(&self) -> String {
        let Some(game) = &self.game else { return json!({"error": self.error}).to_string() };
        let recorded = self.recorded_here();
        let legal: Vec<Value> = self
            .legal
            .iter()
            .map(|l| {
                let json = l.json();
                let is_recorded = recorded.is_some_and(|(event, _)| event.is_some() && l.event() == *event);
                json!({"words": json["words"], "by": json["by"], "action": json["action"], "chance": l.chance(),
                       "recorded": is_recorded})
            })
            .collect();
        let recorded_words = recorded.map(|(_, words)| words);
        let recorded_playable = recorded.is_some_and(|(event, _)| event.is_some());
        let verdict = opened(|| game.verdict());
        json!({
            "events": game.event_count(),
            "start": self.start,
            "finished": game.finished(),
            "legal": legal,
            "recorded": recorded_words,
            "recorded_playable": recorded_playable,
            "state": Value::Object(game.state()),
            "verdict": verdict.json(),
            "human": verdict.human(false),
        })
        .to_string()
    }

    /// Takes the legal event `index` of those `view` listed (a chance move is drawn): "" or
    /// why it was not taken.
    pub fn take(&mut self, index: usize) -> String {
        let Some(legal) = self.legal.get(index).cloned() else { return "no such move".to_string() };
        self.step(|g| g.apply_legal(&legal).map_err(|r| r.to_string()))
    }

    /// Takes the event the transcript records here, as it is written: "" or why not.
    pub fn take_recorded(&mut self) -> String {
        let Some((Some(event), _)) = self.recorded_here().cloned() else {
            return "the game is not where the transcript recorded it".to_string();
        };
        self.step(|g| g.apply(&event).map_err(|r| r.to_string()))
    }

    /// Draws one random legal move, as `play` draws: "" or why none was taken.
    pub fn random(&mut self) -> String {
        self.step(|g| match g.draw() {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err("no move can be drawn: the game is over, or nothing is legal".to_string()),
            Err(r) => Err(r.to_string()),
        })
    }

    /// Draws random legal moves until the game is over or nothing can be drawn (at most as
    /// many as a random game of `play` may have): "" or why it stopped short.
    pub fn play_out(&mut self) -> String {
        self.step(|g| {
            for _ in 0..shinpan::Limits::DEFAULT.playout_events {
                match g.draw() {
                    Ok(Some(_)) => {}
                    Ok(None) => return Ok(()),
                    Err(r) => return Err(r.to_string()),
                }
            }
            Err(format!(
                "stopped after {} moves, the most a random game may have",
                shinpan::Limits::DEFAULT.playout_events
            ))
        })
    }

    /// Takes back the last move tried (never one of the transcript's): whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(game) = self.game.as_mut() else { return false };
        if game.event_count() <= self.start {
            return false;
        }
        let undone = opened(|| game.undo()).unwrap_or(false);
        self.list();
        undone
    }

    /// The game so far as a transcript (`check` judges it as the game was judged).
    pub fn transcript(&self) -> String {
        self.game.as_ref().map(Game::transcript).unwrap_or_default()
    }

    /// The judge's replay page of the game so far, under its rules.
    pub fn page(&self) -> String {
        let (Some(game), Some(rules)) = (&self.game, &self.rules) else { return String::new() };
        let report = opened(|| Checking::with_rules(rules).replay_text(game.name(), &game.transcript()));
        page_of(&report)
    }
}

/// A transcript's text from a file's bytes, as the command line reads a transcript file: at
/// most the limit, UTF-8.
fn transcript_text(bytes: &[u8]) -> Result<String, shinpan::files::Unread> {
    text_of(bytes, false)
}

fn text_of(bytes: &[u8], lossy: bool) -> Result<String, shinpan::files::Unread> {
    shinpan::files::text_of(bytes.to_vec(), shinpan::Limits::DEFAULT.transcript_bytes, lossy)
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A rules error as the command line shows it: each diagnostic rendered, or its message.
fn rules_error_text(e: &RulesError) -> String {
    if e.diagnostics.is_empty() {
        return format!("{}\n", e.message);
    }
    e.diagnostics.iter().map(|d| shinpan::diag::render_fancy(d, false)).collect()
}

/// A rules file's diagnostics as `shinpan lint` finds them, as JSON: `{"ok": true, "cards": N}`
/// or `{"ok": false, "diagnostics": [{"code", "message", "help", "line", "column", "end_line",
/// "end_column", "file", "text"}]}`: lines and columns from 1 (columns in characters) in the
/// file `file` (the rules file itself, or a built-in game it extends); `text` is the
/// diagnostic as `lint` prints it.
///
/// Its `extends` and card pool are found among the opened files by name (`give_file`):
/// `"uses"` lists those it read, and, when it has errors, `"missing"` the files it names that
/// were not opened, and `"needs"` a sentence for each.
#[wasm_bindgen]
pub fn lint(label: &str, text: &str) -> String {
    let (linted, looked) = among_opened(|| shinpan::editor::lint(label, text, Path::new("")));
    match linted {
        Ok(checked) => {
            let warnings: Vec<Value> = checked.warnings.iter().map(diagnostic_json).collect();
            json!({"ok": true, "cards": checked.cards.len(), "warnings": warnings, "uses": looked.found}).to_string()
        }
        Err(diags) => {
            let found: Vec<Value> = diags.iter().map(diagnostic_json).collect();
            let needs = missing_words(label, &looked.missing);
            json!({"ok": false, "diagnostics": found, "uses": looked.found, "missing": looked.missing, "needs": needs})
                .to_string()
        }
    }
}

fn diagnostic_json(d: &shinpan::diag::Diag) -> Value {
    let source = d.source.as_ref();
    let file = source.map(|s| s.name().to_string()).unwrap_or_default();
    let (start, end) = d.span().map_or((0, 0), |s| (s.start, s.end));
    let text = source.map(|s| s.inner().as_str()).unwrap_or("");
    let (line, column) = shinpan::diag::line_column(text, start);
    let (end_line, end_column) = shinpan::diag::line_column(text, end.max(start));
    json!({
        "code": d.code,
        "message": d.message,
        "help": d.help,
        "file": file,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "text": shinpan::diag::render_fancy(d, false),
    })
}

/// `shinpan play --rules RULES --players N --seed S --games G --stats --format json` on a
/// built-in game (`rules_text` empty) or a rules file's text: `{"human", "json"}` (the figures
/// as `--format human` and `--format json` give them), or `{"error"}`.
#[wasm_bindgen]
pub fn play_stats(name: &str, rules_text: &str, players: usize, seed: u64, games: usize) -> String {
    let rules =
        if rules_text.is_empty() { Rules::new(name) } else { Rules::from_text(name, rules_text, Path::new("")) };
    // Compiled first, as the command line compiles before its clock starts.
    let rules = rules.and_then(|r| r.player_counts().map(|_| r));
    let started = seconds();
    let stats = rules.and_then(|r| r.play_stats(players, seed, games, shinpan::Limits::DEFAULT.playout_events));
    let took = seconds() - started;
    match stats {
        Ok(stats) => json!({"human": stats.human(took), "json": stats.json(took)}).to_string(),
        Err(e) => json!({"error": rules_error_text(&e)}).to_string(),
    }
}

/// One random game (`shinpan play`), as the transcript it writes.
#[wasm_bindgen]
pub fn play_one(name: &str, rules_text: &str, players: usize, seed: u64) -> String {
    let rules =
        if rules_text.is_empty() { Rules::new(name) } else { Rules::from_text(name, rules_text, Path::new("")) };
    match rules.and_then(|r| r.play_one(players, seed, shinpan::Limits::DEFAULT.playout_events)) {
        Ok(text) => text,
        Err(e) => rules_error_text(&e),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]
mod tests {
    use super::in_frame;

    /// The frame's script goes before the page's last `</body>`.
    #[test]
    fn the_frame_script_goes_at_the_end() {
        let page = in_frame("<body><script>\"</body>\"</script></body></html>");
        assert!(page.ends_with("</script>\n</body></html>") && page.contains("shinpanEvent"), "{page}");
        assert!(page.starts_with("<body><script>\"</body>\"</script><script>"), "{page}");
    }

    /// The module's stack (build.rs) is the engine's.
    #[test]
    fn the_stack_is_the_engines() {
        assert_eq!(env!("SHINPAN_WEB_STACK").parse::<usize>().ok(), Some(shinpan::STACK_BYTES));
    }
}
