//! `shinpan explain RULE`: what a rule id means, in one game or every built-in one.

use std::collections::BTreeSet;

use crate::commands::rules::{compiled, failed};
use crate::exit::ExitStatus;
use crate::output::say;

pub fn run(rule: &str, rules: Option<&str>) -> ExitStatus {
    let names: Vec<&str> = match rules {
        Some(name) => vec![name],
        None => shinpan::editor::builtin_games().collect(),
    };
    let (mut found, mut known) = (vec![], BTreeSet::new());
    for name in names {
        let explained = compiled(name).and_then(|r| {
            let ids = r.rule_ids().map_err(|e| failed(&e))?;
            Ok((ids, r.explain(rule).map_err(|e| failed(&e))?))
        });
        match explained {
            Ok((ids, text)) => {
                known.extend(ids);
                found.extend(text);
            }
            Err(status) => return status,
        }
    }
    if found.is_empty() {
        let known: Vec<String> = known.into_iter().collect();
        let hint = shinpan::diag::did_you_mean(rule, known.iter().map(String::as_str))
            .map_or(String::new(), |m| format!("; did you mean `{m}`?"));
        eprintln!("shinpan: no rule `{rule}` in {}{hint}", rules.unwrap_or("the built-in games"));
        return ExitStatus::Usage;
    }
    ExitStatus::written(say(&found.join("\n")))
}
