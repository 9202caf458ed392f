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

/// The page of a report made with `record_states` (its replay steps), or `None` for a report
/// with no compiled rules (a malformed transcript).
pub fn page(r: &Report) -> Option<String> {
    let program = r.program.as_ref()?;
    let data = json!({
        "file": r.file,
        "rules": r.rules,
        "verdict": r.verdict.word(),
        "players": r.players,
        "per_player": program.view.iter().map(|v| &program.vars[*v as usize]).filter(|v| v.per_player).map(|v| v.name.clone()).collect::<Vec<_>>(),
        "cards": cards(program),
        "steps": crate::report::render::replay(r).iter().map(|s| step(program, s)).collect::<Vec<_>>(),
    });
    Some(TEMPLATE.replace("/*DATA*/", &embeddable(&data.to_string())))
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
    let no_players: [String; 0] = [];
    program
        .cards
        .iter()
        .filter(|c| !program.kinds[c.kind as usize].plain)
        .map(|c| {
            let kind = &program.kinds[c.kind as usize];
            let named = kind.fields.iter().position(|f| ["suit", "color", "colour"].contains(&f.as_str()));
            let group =
                named.and_then(|i| c.attrs.get(i)).or_else(|| c.attrs.iter().find(|a| matches!(a, Value::Enum(..))));
            let group = group.map_or(String::new(), |g| crate::run::show(program, &no_players, g));
            (c.code.to_string(), json!(group))
        })
        .collect()
}

fn step(program: &Program, s: &crate::report::render::ReplayStep<'_>) -> Json {
    let violations: Vec<Json> = s
        .violations
        .iter()
        .map(|v| {
            json!({
                "rule": v.rule,
                "message": v.message,
                "rule_text": v.rule_text,
                "where": program.source.location(v.spec_span.start),
                "rule_line": program.source.line_at(v.spec_span.start),
                "legal": v.legal,
                "stood": v.stood == Some(true),
            })
        })
        .collect();
    json!({
        "event": s.event,
        "line": s.line,
        "written": s.written.trim(),
        "state": s.state,
        "before": s.before,
        "violations": violations,
    })
}
