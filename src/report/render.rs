//! Reports in the two output formats of the contract: JSON Lines and miette diagnostics.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value as Json, json};

use crate::codes;
use crate::diag::{self, Diag, Level};
use crate::program::{Program, St};
use crate::report::check::{Report, Verdict};

/// One JSON object per transcript, keys in the contract's order.
pub fn json_line(r: &Report) -> String {
    // Written straight from the report: a line is written for every transcript checked, and
    // building it as a map first cost about 1% of checking a game.
    let listed =
        if r.verdict == Verdict::Malformed { ("errors", errors_json(r)) } else { ("violations", violations_json(r)) };
    serde_json::to_string(&Line { r, listed }).unwrap_or_default()
}

/// A verdict line: the report, with its errors or violations (under their key) as the
/// contract writes them.
struct Line<'r> {
    r: &'r Report,
    listed: (&'static str, Vec<Json>),
}

impl Serialize for Line<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.r;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("file", &r.file)?;
        m.serialize_entry("rules", &r.rules)?;
        m.serialize_entry("verdict", r.verdict.word())?;
        for (key, value) in [("board", &r.board), ("room", &r.room)] {
            if let Some(v) = value {
                m.serialize_entry(key, v)?;
            }
        }
        m.serialize_entry(self.listed.0, &self.listed.1)?;
        m.serialize_entry("finished", &r.finished)?;
        if let Some(scores) = &r.scores {
            m.serialize_entry("scores", &Entries(scores))?;
        }
        m.serialize_entry("winners", &r.winners)?;
        if !r.notes.is_empty() {
            let notes: Vec<Json> = r.notes.iter().map(note_json).collect();
            m.serialize_entry("notes", &notes)?;
        }
        if r.truncated {
            // Values were left out (`…`) for want of budget: a program need not search for them.
            m.serialize_entry("truncated", &true)?;
        }
        m.serialize_entry("schema_version", &SCHEMA_VERSION)?;
        m.end()
    }
}

/// Entries written as a JSON object in their order (their keys are distinct: the scores are
/// an object's entries).
struct Entries<'a>(&'a [(String, Json)]);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            m.serialize_entry(key, value)?;
        }
        m.end()
    }
}

/// A malformed transcript's reading errors, as the verdict line lists them.
fn errors_json(r: &Report) -> Vec<Json> {
    r.errors
        .iter()
        .map(|e| {
            let mut m = Map::new();
            m.insert("message".into(), json!(e.message));
            if let Some(l) = e.line {
                m.insert("line".into(), json!(l));
                if let Some(span) = &e.span {
                    m.insert("column".into(), json!(column(&r.text, span.start)));
                }
            }
            if let Some(ev) = e.event {
                m.insert("event".into(), json!(ev));
            }
            m.insert("code".into(), json!(codes::MALFORMED));
            m.insert("kind".into(), json!(e.problem.word()));
            Json::Object(m)
        })
        .collect()
}

/// The violations, as the verdict line lists them.
fn violations_json(r: &Report) -> Vec<Json> {
    r.violations
        .iter()
        .map(|v| {
            let mut line = json!({
                "rule": v.rule,
                "event": v.event,
                "line": v.line,
                "message": v.message,
                "column": column(&r.text, v.event_span.start),
                "code": codes::VIOLATION,
                "legal": v.legal_events,
                "legal_count": v.legal_count,
            });
            if let Some(stood) = v.stood {
                line["stood"] = json!(stood);
            }
            line["state"] = Json::Object(v.state.clone());
            if !v.history.is_empty() {
                let history: Map<String, Json> =
                    v.history.iter().map(|(name, values, _)| (name.clone(), Json::Array(values.clone()))).collect();
                line["history"] = Json::Object(history);
            }
            line
        })
        .collect()
}

/// A note as the verdict line writes it: the message, and the event it followed.
fn note_json(n: &crate::report::check::Noted) -> Json {
    let mut line = json!({ "message": n.message });
    if let Some((event, at)) = n.event {
        line["event"] = json!(event);
        line["line"] = json!(at);
    }
    line
}

/// The version of the verdict line's shape (docs/verdict.schema.json). Fields may be added
/// within a version; a field that changes or goes away makes a new one.
pub const SCHEMA_VERSION: u32 = 1;

/// The 1-based column of a byte offset, in characters from the start of its line.
fn column(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text.get(start..offset).map_or(0, |s| s.chars().count()) + 1
}

/// The diagnostics of one report: violations, reading errors, rules-file errors, the state
/// wrapped for the default width.
pub fn diagnostics(r: &Report) -> Vec<Diag> {
    diagnostics_at(r, crate::report::values::DEFAULT_WIDTH)
}

/// The diagnostics of one report, the state and each `history` line wrapped between items to
/// fit `width` columns (a terminal's).
pub fn diagnostics_at(r: &Report, width: usize) -> Vec<Diag> {
    let source = diag::source(&r.file, &r.text);
    let mut out: Vec<Diag> = r.violations.iter().map(|v| violation(r, v, &source, width)).collect();
    out.extend(r.notes.iter().map(|n| note(r, n, &source)));
    for e in &r.errors {
        let mut d = Diag::new(codes::MALFORMED, format!("malformed transcript: {}", e.message));
        if let Some(span) = &e.span {
            let label = e.event.map_or("here".to_string(), |i| format!("event {i}"));
            d = d.label(span.clone(), label).in_source(&source);
        }
        out.push(d);
    }
    out.extend(r.spec_errors.iter().cloned());
    out
}

fn violation(r: &Report, v: &crate::report::check::Broken, source: &diag::Source, width: usize) -> Diag {
    let stands = if v.stood == Some(true) { " (the move stands)" } else { "" };
    let message = format!("rule `{}` broken at event {}{stands}: {}", v.rule, v.event, v.message);
    let mut d = Diag::new(codes::VIOLATION, message)
        .label(v.event_span.clone(), format!("event {} breaks `{}`", v.event, v.rule))
        .in_source(source);
    let legal = if v.legal.is_empty() {
        "nothing is legal here".to_string()
    } else {
        format!("legal here: {}", v.legal.join(", "))
    };
    let stands = r.program.as_ref().is_some_and(|p| p.rules.iter().any(|rule| rule.id == v.rule && rule.stands));
    d.help = Some(match v.stood {
        Some(false) if stands => {
            format!("{legal}; the same event breaks a rule that does not stand, so checking stops here")
        }
        Some(false) => format!("{legal}; a broken `{}` does not stand, so checking stops here", v.rule),
        _ => legal,
    });
    if let Some(program) = &r.program {
        let shared = crate::resolve::SHARED_RULES.iter().find(|(id, _)| *id == v.rule).map(|(_, text)| *text);
        let what = match (v.rule_text.as_str(), shared) {
            ("", Some(meaning)) => format!("`{}`: {meaning}", v.rule),
            ("", None) => format!("`{}` is checked here", v.rule),
            (text, _) => format!("`{}`: {text}", v.rule),
        };
        let ended_here = program.source.line_at(v.spec_span.start).is_some_and(|l| l.starts_with("finish"));
        let label = match v.rule.as_str() {
            "after-game-end" if ended_here => "the game ended here",
            "unexpected-action" | "after-game-end" => "what may happen here",
            "turn-order" => "who may act here",
            _ => "the rule",
        };
        let mut related = program.source.place(Diag::new(codes::RULE_HERE, what).label(v.spec_span.clone(), label));
        related.level = Level::Advice;
        d = d.with_related(related);
    }
    // Advice is drawn behind `  │ `, in lines miette keeps two columns short of the width: six columns.
    let wrapped = |lines: &[String]| -> String {
        let width = width.saturating_sub(ADVICE_MARGIN);
        let each = lines.iter().flat_map(|l| crate::report::values::wrap_between_items(l, width, "  ", "      "));
        each.map(|l| format!("\n{l}")).collect()
    };
    for (name, _, changes) in &v.history {
        let lines = wrapped(changes);
        let mut how = Diag::new(codes::STATE, format!("how `{name}` came to be:{lines}"));
        how.level = Level::Advice;
        d = d.with_related(how);
    }
    if !v.state_lines.is_empty() {
        let lines = wrapped(&v.state_lines);
        let mut state = Diag::new(codes::STATE, format!("the game before event {}:{lines}", v.event));
        state.level = Level::Advice;
        d = d.with_related(state);
    }
    d
}

/// The columns a related diagnostic's lines lose: the `  │ ` they are drawn behind, and the two miette keeps free.
const ADVICE_MARGIN: usize = 6;

/// A note of the rules as advice: after which event, and the `note` line in the rules file.
fn note(r: &Report, n: &crate::report::check::Noted, source: &diag::Source) -> Diag {
    let mut d = Diag::new(codes::NOTE, format!("note: {}", n.message));
    d.level = Level::Advice;
    if let Some((event, _)) = n.event {
        d = d.label(n.event_span.clone(), format!("noted after event {event}")).in_source(source);
    }
    if let Some(program) = &r.program {
        let mut related = program
            .source
            .place(Diag::new(codes::RULE_HERE, "noted by the rules here").label(n.spec_span.clone(), "the note"));
        related.level = Level::Advice;
        d = d.with_related(related);
    }
    d
}

/// A one-line summary for a transcript with nothing to report.
pub fn summary(r: &Report) -> String {
    let scores = r.scores.as_ref().map_or(String::new(), |s| {
        let parts: Vec<String> = s.iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!(", scores: {}", parts.join(", "))
    });
    let winners = if r.finished {
        format!(", winners: {}", if r.winners.is_empty() { "none".into() } else { r.winners.join(", ") })
    } else {
        String::new()
    };
    // A deal of a record file says where it sat: board and room, as the record names them.
    let place: String =
        [r.board.as_ref().map(|b| format!("board {b}")), r.room.as_ref().map(|room| format!("room {room}"))]
            .into_iter()
            .flatten()
            .map(|p| format!(" {p},"))
            .collect();
    let line = format!(
        "{}:{place} {} ({}{scores}{winners})",
        r.file,
        r.verdict.word(),
        if r.finished { "finished" } else { "not finished" }
    );
    // The file's name, the players', the board's: controls in them are shown escaped, and a
    // line break too, since the summary is one line (a file's name cannot start another).
    diag::printable_line(&line).into_owned()
}

/// What a rule id means in a game, for a judge: its text, the rulebook section it cites,
/// whether a move breaking it stands, and each place the rules file checks it (file, line and
/// the line itself). `None` when the game has no such rule. Controls from the rules file
/// are shown escaped.
pub fn explain(program: &Program, rule: &str) -> Option<String> {
    explained(program, rule).map(|text| diag::printable(&text).into_owned())
}

fn explained(program: &Program, rule: &str) -> Option<String> {
    let index = program.rules.iter().position(|r| r.id == rule)?;
    let info = &program.rules[index];
    let shared = crate::resolve::SHARED_RULES.iter().find(|(id, _)| *id == rule).map(|(_, text)| *text);
    let mut out = format!("{rule} ({}): {}\n", program.name, shared.unwrap_or(&info.text));
    match cited(program, rule) {
        Some((section, Some(doc))) => out.push_str(&format!("  cites: {section}, in {doc}\n")),
        Some((section, None)) => out.push_str(&format!("  cites: {section} (of the game's rules document)\n")),
        None => {}
    }
    let place = |offset: usize| {
        let at = program.source.location(offset).unwrap_or_default();
        let line = program.source.line_at(offset).unwrap_or_default();
        let short: String = line.chars().take(MAX_EXPLAINED_LINE).collect();
        let cut = if short.len() < line.len() { "…" } else { "" };
        format!("{at}: {short}{cut}")
    };
    // A check is shown whole, however many lines it is written over.
    let whole = |span: &crate::span::Span| {
        let at = program.source.location(span.start).unwrap_or_default();
        let text = program.source.statement(span).unwrap_or_default();
        format!("{at}: {}", text.replace('\n', "\n      "))
    };
    if shared.is_some() {
        out.push_str(&format!("  checked by the engine: {}\n", engine_check(rule)));
        if rule == "after-game-end" {
            for s in program.statements_where(|s| matches!(s, St::Finish(_))) {
                out.push_str(&format!("  the game ends at {}\n", place(s.span.start)));
            }
        }
        return Some(out);
    }
    out.push_str(if info.stands {
        "  stands: under `check --all` a move that breaks it is played as recorded, and checking goes on\n"
    } else {
        "  does not stand: under `check --all` too, checking stops at a move that breaks it\n"
    });
    out.push_str(&format!("  declared at {}\n", place(info.span.start)));
    for s in program.statements_where(|s| matches!(s, St::Require { rule: r, .. } if *r as usize == index)) {
        // A check's span ends at its message; what a move that stands costs follows it.
        let end = match &s.s {
            St::Require { cost, .. } => cost.last().and_then(|last| program.source.closing_brace_after(last.span.end)),
            _ => None,
        };
        out.push_str(&format!("  checked at {}\n", whole(&(s.span.start..end.unwrap_or(s.span.end)))));
    }
    Some(out)
}

/// The section of its game's rules a rule cites (`5.3, Law 18`), and for a rule declared in a
/// built-in game's file the rules reference in `docs/rules/` whose sections bear those numbers.
pub fn cited(program: &Program, rule: &str) -> Option<(String, Option<String>)> {
    let info = program.rules.iter().find(|r| r.id == rule)?;
    let section = cited_section(&info.text)?.to_string();
    let place = program.source.location(info.span.start)?;
    let file = place.rsplit_once(':').map_or(place.as_str(), |(file, _)| file);
    let game = file.strip_prefix("specs/").and_then(|f| f.strip_suffix(".rules"));
    let doc = game.filter(|g| crate::lang::specs::builtin(g).is_some()).map(|g| format!("docs/rules/{g}.md"));
    Some((section, doc))
}

/// How much of a rules file's line `explain` shows (the file and line lead to the rest).
const MAX_EXPLAINED_LINE: usize = 100;

/// The rulebook section a rule's text cites: its last parenthesis, `(5.7, Law 44C)`.
fn cited_section(text: &str) -> Option<&str> {
    let open = text.rfind('(')?;
    let close = open + text[open..].find(')')?;
    Some(&text[open + 1..close]).filter(|s| !s.trim().is_empty())
}

/// When the engine checks one of its own rule ids.
fn engine_check(rule: &str) -> &'static str {
    match rule {
        "after-game-end" => {
            "at every event after the rules have run `finish` (a record the game still waits for is taken)"
        }
        "turn-order" => {
            "at every waiting point: the action is open, but the `by` of its branch does not name this actor"
        }
        _ => "at every waiting point: no branch open there takes this action",
    }
}

/// One event of a replay: as written, the state after it (before it, for the event checking
/// stopped at), and the violations it made.
pub struct ReplayStep<'r> {
    /// The 0-based index of the event.
    pub event: usize,
    /// Its 1-based line in the transcript.
    pub line: usize,
    /// The event as the transcript writes it.
    pub written: &'r str,
    /// The event whole in transcript words (`aki present {actor: QC, kuroko: QC}`).
    pub words: &'r str,
    /// The event as JSON (`{"by": ..., ACTION: ARG}`).
    pub action: Option<&'r Json>,
    /// The rules' `view` after the event, in transcript words (JSON).
    pub state: &'r Map<String, Json>,
    /// The same state as lines for a person.
    pub state_lines: &'r [String],
    /// The state is the one before the event: the game did not go past it.
    pub before: bool,
    /// Checking stopped at this event: how many events of the transcript follow it.
    pub follow: Option<usize>,
    /// The state left values out (`…`) for want of budget.
    pub cut: bool,
    /// The rules this event broke.
    pub violations: Vec<&'r crate::report::check::Broken>,
    /// The rules, for how their cards look on a terminal (`look`).
    pub(crate) program: Option<&'r Program>,
}

/// A report's events in order with their states and violations (the report must have been
/// made with `record_states`).
pub fn replay(r: &Report) -> Vec<ReplayStep<'_>> {
    let mut out: Vec<ReplayStep> = r
        .steps
        .iter()
        .map(|s| ReplayStep {
            event: s.event,
            line: s.line,
            written: r.text.get(s.span.clone()).unwrap_or_default(),
            words: &s.words,
            action: Some(&s.action),
            state: &s.state,
            state_lines: &s.state_lines,
            before: false,
            follow: None,
            program: r.program.as_deref(),
            cut: s.cut,
            violations: r.violations.iter().filter(|v| v.event == s.event).collect(),
        })
        .collect();
    // The event checking stopped at was not played: it is shown with the state before it.
    if let Some(v) = r.violations.last().filter(|v| !out.iter().any(|s| s.event == v.event)) {
        out.push(ReplayStep {
            event: v.event,
            line: v.line,
            written: r.text.get(v.event_span.clone()).unwrap_or_default(),
            words: &v.event_words,
            action: v.action.as_ref(),
            state: &v.state,
            state_lines: &v.state_lines,
            before: true,
            follow: (v.stood != Some(true)).then(|| r.events.saturating_sub(v.event + 1)),
            program: r.program.as_deref(),
            cut: r.truncated,
            violations: vec![v],
        });
    }
    out
}

impl ReplayStep<'_> {
    /// The event as written, the state and the violations, for a person (controls from the
    /// transcript and the rules file shown escaped).
    pub fn human(&self) -> String {
        self.human_at(crate::report::values::DEFAULT_WIDTH)
    }

    /// The same in colour for a terminal: each card whose group the rules give a `look` in
    /// that colour (the words stay the transcript's).
    pub fn human_in_colour(&self, width: usize) -> String {
        let text = self.human_at(width);
        match self.program {
            Some(program) if !program.looks.is_empty() => painted(&text, &card_colours(program)),
            _ => text,
        }
    }

    /// The same, the state wrapped between items to fit `width` columns (a terminal's).
    pub fn human_at(&self, width: usize) -> String {
        let width = width.clamp(*crate::report::values::WIDTHS.start(), *crate::report::values::WIDTHS.end());
        diag::printable(&self.human_raw(width)).into_owned()
    }

    fn human_raw(&self, width: usize) -> String {
        let mut out = format!("event {} (line {}): {}\n", self.event, self.line, self.words);
        for v in &self.violations {
            let stands = if v.stood == Some(true) { " (the move stands)" } else { "" };
            out.push_str(&format!("  ✗ `{}` broken{stands}: {}\n", v.rule, v.message));
        }
        if let Some(follow) = self.follow {
            out.push_str(&format!("  checking stopped here; {}\n", follow_words(follow)));
        }
        out.push_str(if self.before { "  the game before it:\n" } else { "  the game after it:\n" });
        for line in self.state_lines {
            for part in crate::report::values::wrap_between_items(line, width, "    ", "        ") {
                out.push_str(&part);
                out.push('\n');
            }
        }
        out
    }

    /// One JSON line: the event, where it is, the state (`after` or `before` it) and its
    /// violations (rule, message, code).
    pub fn json(&self) -> String {
        let violations: Vec<Json> = self
            .violations
            .iter()
            .map(|v| json!({"rule": v.rule, "message": v.message, "code": codes::VIOLATION}))
            .collect();
        let mut line = json!({"event": self.event, "line": self.line});
        if let Some(action) = self.action {
            line["action"] = action.clone();
        }
        line[if self.before { "state_before" } else { "state_after" }] = Json::Object(self.state.clone());
        line["violations"] = Json::Array(violations);
        if self.cut {
            line["truncated"] = json!(true);
        }
        line.to_string()
    }
}

/// How many events follow the one checking stopped at, in words.
pub fn follow_words(n: usize) -> String {
    match n {
        0 => "no more events follow".into(),
        1 => "1 more event follows".into(),
        n => format!("{n} more events follow"),
    }
}

/// Most characters of a parameter's line in `describe`.
const MAX_DESCRIBED_LINE: usize = 100;

/// A game's players, parameters as declared (type, range, default) and rule ids in check
/// order, with the file each comes from; `name` as the person gave it.
pub fn described(name: &str, program: &Program) -> String {
    let (lo, hi) = program.players;
    let players = match &program.seats {
        Some(seats) => format!("players {}", seats.join(", ")),
        None if lo == hi => format!("{lo} players"),
        None => format!("{lo} to {hi} players"),
    };
    // Headed by the game's own name, as `explain` and verdicts call it; the file as named, or
    // for a built-in the file it comes from.
    let file = if crate::lang::specs::builtin(name).is_some() { program.source.name() } else { name.to_string() };
    let mut out = format!("{}: {players} ({file})\n", program.name);
    for p in &program.params {
        // Cut: several declarations may share one long line, which would be printed for each.
        let line = program.source.line_at(p.span.start).unwrap_or_else(|| p.name.clone());
        out.push_str(&format!("  {}\n", crate::report::values::cut_to(line, MAX_DESCRIBED_LINE)));
    }
    for r in &program.rules {
        let shared = crate::resolve::SHARED_RULES.iter().find(|(id, _)| *id == r.id).map(|(_, text)| *text);
        out.push_str(&format!("  rule {}: {}\n", r.id, shared.unwrap_or(&r.text)));
    }
    out
}

/// Each card code whose group has a `look`, with its colour's terminal code (SGR).
fn card_colours(program: &Program) -> std::collections::HashMap<String, u8> {
    let sgr = |group: &str| {
        let look = program.looks.iter().find(|l| l.group == group)?;
        crate::resolve::LOOK_COLOURS.iter().find(|(name, ..)| *name == look.colour).map(|(_, _, sgr)| *sgr)
    };
    crate::report::page::groups(program).filter_map(|(code, group)| Some((code, sgr(&group)?))).collect()
}

/// `text` (already escaped) with every word that is a card code of `colours` in its colour.
fn painted(text: &str, colours: &std::collections::HashMap<String, u8>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match colours.get(word.as_str()) {
            Some(sgr) => out.push_str(&format!("\u{1b}[{sgr}m{word}\u{1b}[0m")),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() || "[](){},:".contains(c) {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}
