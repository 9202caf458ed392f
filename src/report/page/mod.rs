//! The judge's page: one self-contained HTML file (no network, no other file) with a
//! transcript's events as a timeline and the game after the selected one drawn as a table.
//! Everything game-specific comes from the rules: the `view` variables, which of them are per
//! player, and the cards (a chip per card, coloured by its first enum attribute).

use serde_json::{Map, Value as Json, json};

use crate::program::Program;
use crate::program::value::Value;
use crate::report::check::Report;

/// The page's HTML, CSS and script; the data goes where `/*DATA*/` stands.
const TEMPLATE: &str = include_str!("page.html");

/// The page of a report made with `record_states` (its replay steps). A malformed transcript
/// gets one too: the events read before the first that could not be, and why it could not.
pub fn page(r: &Report) -> Option<String> {
    let (per_player, cards, looks) = match r.program.as_deref() {
        Some(program) => (
            program
                .view
                .iter()
                .map(|v| &program.vars[*v as usize])
                .filter(|v| v.per_player)
                .map(|v| v.name.clone())
                .collect::<Vec<_>>(),
            cards(program),
            looks(program),
        ),
        None => (vec![], Map::new(), Map::new()),
    };
    let steps: Vec<Json> = crate::report::render::replay(r)
        .iter()
        .map(|s| r.program.as_deref().map_or(Json::Null, |p| step(p, s)))
        .collect();
    let data = json!({
        "file": r.file,
        "rules": r.rules,
        "verdict": r.verdict.word(),
        "players": r.players,
        "per_player": per_player,
        "cards": cards,
        "looks": looks,
        "steps": steps,
        "result": result(r),
        "errors": errors(r),
    });
    Some(TEMPLATE.replace("/*DATA*/", &embeddable(&data.to_string())))
}

/// What `check --all` says of the game: finished or not, scores, winners, the rules' notes
/// (each with the event it followed), and where checking stopped with how many events follow.
fn result(r: &Report) -> Json {
    let notes: Vec<Json> = r
        .notes
        .iter()
        .map(|n| json!({"message": n.message, "event": n.event.map(|(e, _)| e), "line": n.event.map(|(_, l)| l)}))
        .collect();
    let stopped = r
        .violations
        .last()
        .filter(|v| v.stood != Some(true))
        .map(|v| json!({"event": v.event, "line": v.line, "follow": r.events.saturating_sub(v.event + 1)}));
    json!({
        "finished": r.finished,
        "scores": r.scores.as_ref().map(|s| s.iter().cloned().collect::<Map<String, Json>>()),
        "winners": r.winners,
        "notes": notes,
        "violations": r.violations.len(),
        "stopped": stopped,
    })
}

/// Why a malformed transcript could not be read: each reason with its line and event.
fn errors(r: &Report) -> Vec<Json> {
    r.errors
        .iter()
        .map(|e| {
            let written = e.span.as_ref().and_then(|s| r.text.get(s.clone())).unwrap_or_default();
            json!({"message": e.message, "line": e.line, "event": e.event, "written": written.trim()})
        })
        .collect()
}

/// JSON as a script element may hold it, whatever its strings hold: `<`, `>` and `&` as
/// `\u003c`, `\u003e` and `\u0026` (so no `</script>` ends the element and no `<!--` turns
/// its end into text), and U+2028, U+2029 as `\u2028`, `\u2029`. These characters stand only
/// inside JSON strings, where the escapes mean the same characters.
pub fn embeddable(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Each card's code with its group, which colours its chip: its `suit`, `color` or `colour`
/// attribute if its kind has one, else its first attribute of an enum.
fn cards(program: &Program) -> Map<String, Json> {
    groups(program).map(|(code, group)| (code, json!(group))).collect()
}

/// Each card's code with its group: its `suit`, `color` or `colour` attribute if its kind has
/// one, else its first attribute of an enum (none for a kind of plain codes).
pub(crate) fn groups(program: &Program) -> impl Iterator<Item = (String, String)> + '_ {
    let no_players: [String; 0] = [];
    program.cards.iter().filter(|c| !program.kinds[c.kind as usize].plain).map(move |c| {
        let kind = &program.kinds[c.kind as usize];
        let named = kind.fields.iter().position(|f| ["suit", "color", "colour"].contains(&f.as_str()));
        let group =
            named.and_then(|i| c.attrs.get(i)).or_else(|| c.attrs.iter().find(|a| matches!(a, Value::Enum(..))));
        let group = group.map_or(String::new(), |g| crate::run::show(program, &no_players, g));
        (c.code.to_string(), group)
    })
}

fn step(program: &Program, s: &crate::report::render::ReplayStep<'_>) -> Json {
    let violations: Vec<Json> = s
        .violations
        .iter()
        .map(|v| {
            let history: Vec<Json> =
                v.history.iter().map(|(name, _, lines)| json!({"name": name, "lines": lines})).collect();
            json!({
                "rule": v.rule,
                "message": v.message,
                "rule_text": v.rule_text,
                "where": program.source.location(v.spec_span.start),
                "rule_line": program.source.statement(&v.spec_span),
                "section": crate::report::render::cited(program, &v.rule).map(|(section, doc)| {
                    json!({"section": section, "doc": doc})
                }),
                "legal": v.legal,
                "stood": v.stood == Some(true),
                "history": history,
            })
        })
        .collect();
    json!({
        "event": s.event,
        "line": s.line,
        "words": s.words,
        "written": s.written.trim(),
        "state": s.state,
        "before": s.before,
        "violations": violations,
        "follow": s.follow,
    })
}

/// How the rules say a group of cards looks (`look`): its colour on the page and its symbol,
/// by group.
fn looks(program: &Program) -> Map<String, Json> {
    program
        .looks
        .iter()
        .map(|l| {
            let css = crate::resolve::LOOK_COLOURS.iter().find(|(name, ..)| *name == l.colour).map(|(_, css, _)| *css);
            (l.group.clone(), json!({"colour": css, "symbol": l.symbol}))
        })
        .collect()
}
