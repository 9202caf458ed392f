//! Cards read from a data file. A kind declared `card K(...) { from PARAM.KEY ... }` has no
//! cards when the rules are compiled; for each transcript its cards are the rows of the list
//! under KEY in the YAML file that the `file` parameter PARAM names: the transcript's
//! `variant` (relative to the transcript), else the default (beside the rules file, or built
//! in with built-in rules). A file that breaks the kind's table makes the transcript
//! malformed, with the file's line.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::rc::Rc;

use crate::diag::Diag;
use crate::program::value::Value;
use crate::program::{CardInfo, MAX_CARDS, Part, PoolSpec, Program};
use crate::run::eval_with_locals;
use crate::transcript::{RawEvent, Yaml};

/// Largest card pool file read.
pub const MAX_POOL_BYTES: u64 = 16 * 1024 * 1024;

/// One data file a transcript's cards come from: which kind, where it was found, its text.
pub struct Source {
    kind: usize,
    label: String,
    text: String,
}

/// Whether any kind of the program is read from a file.
pub fn has_pools(prog: &Program) -> bool {
    prog.kinds.iter().any(|k| k.pool.is_some())
}

/// Finds and reads the data file of every kind read from one. `given[i]` says whether the
/// transcript gave parameter `i` (then its path is relative to `transcript_dir`).
pub fn sources(prog: &Program, params: &[Value], given: &[bool], transcript_dir: &Path) -> Result<Vec<Source>, String> {
    let mut out = vec![];
    for (kind, k) in prog.kinds.iter().enumerate() {
        let Some(pool) = &k.pool else { continue };
        let Some(Value::Str(path)) = params.get(pool.param as usize) else {
            return Err(format!("the cards of `{}` need a file path", k.name));
        };
        let from_transcript = given.get(pool.param as usize).copied().unwrap_or(false);
        let (label, text) = read(prog, path, from_transcript, transcript_dir)?;
        out.push(Source { kind, label, text });
    }
    Ok(out)
}

/// The text of a data file, and its name in messages: the path as the transcript or the rules
/// wrote it (so that a message reads the same wherever the files are).
fn read(prog: &Program, path: &str, from_transcript: bool, transcript_dir: &Path) -> Result<(String, String), String> {
    let read_at = |at: &Path| {
        crate::files::read_data(at, MAX_POOL_BYTES)
            .map(|t| (path.to_string(), t))
            .map_err(|e| format!("cannot read the card file `{path}`: {e}"))
    };
    if from_transcript {
        // The name ends in `.yaml` (decode checks it); what it leads to must, too.
        let at = transcript_dir.join(path);
        crate::files::real_file_with_extension(&at, &["yaml", "yml"])
            .map_err(|e| format!("cannot read the card file `{path}`: {e}"))?;
        return read_at(&at);
    }
    if let Some(dir) = &prog.data_dir {
        let at = dir.join(path);
        if crate::files::exists(&at) || crate::lang::specs::builtin_data(path).is_none() {
            return read_at(&at);
        }
    }
    match crate::lang::specs::builtin_data(path) {
        Some(text) => Ok((format!("specs/{path}"), text.to_string())),
        None => Err(format!("no card file `{path}` is built in")),
    }
}

/// A name for the program these sources make: the same files give the same cards.
pub fn cache_key(sources: &[Source]) -> String {
    let mut key = String::new();
    for s in sources {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.text.hash(&mut h);
        key.push_str(&format!("\u{0}{}\u{0}{:x}", s.label, h.finish()));
    }
    key
}

/// The program with the cards of its data files added.
pub fn instantiate(
    prog: &Program,
    players: &Rc<[String]>,
    params: &[Value],
    sources: &[Source],
) -> Result<Program, String> {
    let mut out = prog.clone();
    for source in sources {
        let Some(pool) = prog.kinds[source.kind].pool.clone() else { continue };
        let rows = crate::transcript::read_list(&source.text, &pool.key).map_err(|e| {
            let line = e.line.map_or(String::new(), |l| format!(", line {l}"));
            format!("the card file `{}`{line}: {}", source.label, e.message)
        })?;
        let reader = Rows { prog, players, params, kind: source.kind, pool: &pool };
        add_cards(&mut out, &reader, &rows)
            .map_err(|(line, m)| format!("the card file `{}`, line {line}: {m}", source.label))?;
    }
    Ok(out)
}

/// The program with the default data files: for playouts and for tools that list what a
/// rules file declares.
pub fn with_defaults(prog: &Program) -> Result<Program, String> {
    let players: Rc<[String]> = (0..prog.players.0.max(1)).map(|i| format!("p{i}")).collect();
    let mut params = vec![];
    for p in &prog.params {
        let value = match &p.default {
            crate::program::ParamDefault::Expr(x) => {
                crate::run::eval_with_params(prog, players.clone(), &params, x).map_err(|d| d.message)?
            }
            crate::program::ParamDefault::ByPlayers(_) => Value::Null,
        };
        params.push(value);
    }
    let sources = sources(prog, &params, &[], Path::new("."))?;
    instantiate(prog, &players, &params, &sources)
}

struct Rows<'a> {
    prog: &'a Program,
    players: &'a Rc<[String]>,
    params: &'a [Value],
    kind: usize,
    pool: &'a PoolSpec,
}

fn add_cards(out: &mut Program, rows: &Rows<'_>, items: &[RawEvent]) -> Result<(), (usize, String)> {
    let start = out.cards.len() as u32;
    for item in items {
        if out.cards.len() >= MAX_CARDS {
            return Err((item.line, format!("more than {MAX_CARDS} cards")));
        }
        let (code, attrs) = rows.card(&item.value).map_err(|m| (item.line, m))?;
        let id = out.cards.len() as u32;
        if out.kinds[rows.kind].by_code.insert(code.clone(), id).is_some() {
            return Err((item.line, format!("the code `{}` is given twice", crate::transcript::cut(&code))));
        }
        out.cards.push(CardInfo { kind: rows.kind as u16, code: Rc::new(code.clone()), attrs });
    }
    out.kinds[rows.kind].cards = start..out.cards.len() as u32;
    Ok(())
}

impl Rows<'_> {
    /// One row: its code and attributes, checked against the kind's table.
    fn card(&self, row: &Yaml) -> Result<(String, Vec<Value>), String> {
        if !matches!(row, Yaml::Map(_)) {
            return Err(format!("a card is a mapping, not {}", row.kind()));
        }
        let code = match row.get("code") {
            Some(Yaml::Str(s)) => s.clone(),
            Some(other) => return Err(format!("`code` must be a string, not {}", other.kind())),
            None => return Err("the card has no `code`".into()),
        };
        let kind = &self.prog.kinds[self.kind];
        // Unconditional attributes first: the conditions of the others may read them.
        let mut attrs = vec![Value::Null; kind.fields.len()];
        for (i, name) in kind.fields.iter().enumerate() {
            if self.pool.when.get(i).is_some_and(Option::is_none) {
                attrs[i] = self.attribute(i, name, row, &code)?;
            }
        }
        for (i, name) in kind.fields.iter().enumerate() {
            let Some(Some(cond)) = self.pool.when.get(i) else { continue };
            if self.eval(cond, &attrs, &code)? == Value::Bool(true) {
                attrs[i] = self.attribute(i, name, row, &code)?;
            }
        }
        for (cond, message) in &self.pool.checks {
            if self.eval(cond, &attrs, &code)? != Value::Bool(true) {
                return Err(self.message(message, &attrs, &code)?);
            }
        }
        Ok((code, attrs))
    }

    fn attribute(&self, i: usize, name: &str, row: &Yaml, code: &str) -> Result<Value, String> {
        let shape = &self.prog.kinds[self.kind].shapes[i];
        let code = crate::transcript::cut(code);
        match row.get(name) {
            Some(y) => crate::transcript::decode::data_value(self.prog, self.players, self.params, shape, y)
                .map_err(|m| format!("`{name}` of {code}: {m}")),
            None => crate::transcript::decode::data_value(self.prog, self.players, self.params, shape, &Yaml::Null)
                .map_err(|_| format!("{code} has no `{name}`")),
        }
    }

    fn eval(&self, x: &crate::program::X, attrs: &[Value], code: &str) -> Result<Value, String> {
        let mut locals = attrs.to_vec();
        locals.push(Value::str(code));
        eval_with_locals(self.prog, self.players.clone(), self.params, x, &locals).map_err(|d| d.message)
    }

    fn message(&self, parts: &[Part], attrs: &[Value], code: &str) -> Result<String, String> {
        let mut text = String::new();
        for part in parts {
            match part {
                Part::Text(t) => text.push_str(t),
                Part::Expr(x) => text.push_str(&crate::run::show_plain(self.prog, &self.eval(x, attrs, code)?)),
            }
        }
        Ok(text)
    }
}

/// A built-in game, compiled, with the cards of its default data files (a card pool): what
/// playouts and the property tests run.
pub fn builtin_program(name: &str) -> Option<Result<Program, Vec<Diag>>> {
    let text = crate::lang::specs::builtin(name)?;
    Some(crate::resolve::compile(name, text).and_then(|p| {
        if !has_pools(&p) {
            return Ok(p);
        }
        with_defaults(&p).map_err(|m| vec![Diag::new(crate::codes::MALFORMED, m)])
    }))
}
