//! shinpan in the browser: the engine's public API as WebAssembly functions for the page in
//! `web/page/`. Everything runs on the page's one thread (no worker threads: `Checking::check`
//! checks on the calling thread), on the stack the module is linked with (`build.rs`); random
//! games come from their seeds. Verdicts are the engine's JSON lines and the replay is the
//! engine's own page (`Report::page`), so the page shows what the command line writes.
//!
//! Every function takes and gives text (JSON, HTML, rendered diagnostics): the page never
//! builds markup from it but through `textContent` or an `<iframe srcdoc>` of the engine's
//! escaped page.

use std::path::Path;

use serde_json::{Value, json};
use shinpan::{Checking, Input, Report, Rules, RulesError};
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
}

#[wasm_bindgen]
impl Judge {
    /// Each transcript against the rules it names.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Judge {
        Judge { rules: None }
    }

    /// Every transcript against a built-in game: "" when it is one, else why not.
    pub fn use_builtin(&mut self, name: &str) -> String {
        self.use_made(Rules::new(name).and_then(|r| r.game().map(|_| r)))
    }

    /// Every transcript against a rules file's text named `label` (its `extends` may name a
    /// built-in game; no other file can be read here): "" when it compiles, else its
    /// diagnostics as `lint` renders them.
    pub fn use_rules_text(&mut self, label: &str, text: &str) -> String {
        self.use_made(Rules::from_text(label, text, Path::new("")).and_then(|r| r.game().map(|_| r)))
    }

    /// Each transcript against the rules it names again.
    pub fn use_named(&mut self) {
        self.rules = None;
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
        self.reports(name, bytes).iter().map(Report::json_line).collect::<Vec<_>>().join("\n")
    }

    /// The same verdicts as `shinpan check --format human` writes them (without colour): of
    /// deal `deal` (from 1) of a record file, or of every one (0).
    pub fn check_human(&self, name: &str, bytes: &[u8], deal: usize) -> String {
        let reports = self.reports(name, bytes);
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
            out.extend(checking.check(&input).iter().map(Report::json_line));
        }
        out.join("\n")
    }

    /// The judge's replay page of a transcript (`shinpan replay --html`), or of deal `deal`
    /// (from 1) of a record file: the engine's self-contained HTML, "" where there is none.
    pub fn page(&self, name: &str, bytes: &[u8], deal: usize) -> String {
        let checking = self.checking();
        let text = if shinpan::records::is_record(Path::new(name)) {
            let text = lossy(bytes);
            let deals = shinpan::records::read_deals(Path::new(name), &text);
            match deals.into_iter().find(|d| d.number == deal).map(|d| d.transcript) {
                Some(Ok(transcript)) => return page_of(&checking.replay_text(&format!("{name}#{deal}"), &transcript)),
                _ => return String::new(),
            }
        } else {
            match transcript_text(bytes) {
                Ok(text) => text,
                Err(_) => return String::new(),
            }
        };
        page_of(&checking.replay_text(name, &text))
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
#[wasm_bindgen]
pub fn lint(label: &str, text: &str) -> String {
    match shinpan::editor::lint(label, text, Path::new("")) {
        Ok(checked) => json!({"ok": true, "cards": checked.cards.len()}).to_string(),
        Err(diags) => {
            let found: Vec<Value> = diags.iter().map(diagnostic_json).collect();
            json!({"ok": false, "diagnostics": found}).to_string()
        }
    }
}

fn diagnostic_json(d: &shinpan::diag::Diag) -> Value {
    let source = d.source.as_ref();
    let file = source.map(|s| s.name().to_string()).unwrap_or_default();
    let (start, end) = d.span().map_or((0, 0), |s| (s.start, s.end));
    let text = source.map(|s| s.inner().as_str()).unwrap_or("");
    let (line, column) = line_column(text, start);
    let (end_line, end_column) = line_column(text, end.max(start));
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

/// The line and column (from 1; columns in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let at = shinpan::diag::floor_char(text, offset.min(text.len()));
    let before = text.get(..at).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before.get(line_start..).map_or(0, |l| l.chars().count()) + 1)
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
mod tests {
    /// The module's stack (build.rs) is the engine's.
    #[test]
    fn the_stack_is_the_engines() {
        assert_eq!(env!("SHINPAN_WEB_STACK").parse::<usize>().ok(), Some(shinpan::STACK_BYTES));
    }
}
