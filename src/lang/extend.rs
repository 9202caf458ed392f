//! `extends`: a rules file that starts from another. The parent's text and the child's are
//! compiled as one, and a declaration in the child replaces the parent's declaration of the
//! same name in place (so check order and parameter order stay the parent's).

use std::path::{Path, PathBuf};

use crate::codes;
use crate::diag::{Diag, Source, source};
use crate::lang::ast::Spec;
use crate::span::Name;

/// How many files deep `extends` may go (a cycle ends here too).
const MAX_DEPTH: usize = 8;

/// The combined text of a rules file and all it extends, with where each part came from.
pub fn assemble(label: &str, text: &str, base: &Path, depth: usize) -> Result<(String, Vec<(usize, Source)>), Diag> {
    let own = source(label, text);
    // Most files extend nothing: then there is no need to parse them twice.
    if !text.contains("extends") {
        return Ok((text.to_string(), vec![(0, own)]));
    }
    let spec = crate::lang::syntax::parse(text).map_err(|d| d.in_source(&own))?;
    let Some(parent) = spec.extends else { return Ok((text.to_string(), vec![(0, own)])) };
    if depth >= MAX_DEPTH {
        return Err(Diag::new(codes::MISPLACED, format!("`extends` goes more than {MAX_DEPTH} files deep (a cycle?)"))
            .label(parent.span, "here")
            .in_source(&own));
    }
    let (parent_label, parent_text, parent_base) = load(&parent, base).map_err(|d| d.in_source(&own))?;
    let (mut combined, mut segments) = assemble(&parent_label, &parent_text, &parent_base, depth + 1)?;
    combined.push('\n');
    segments.push((combined.len(), own));
    combined.push_str(text);
    Ok((combined, segments))
}

/// A parent by built-in name, or by path relative to the child.
fn load(parent: &Name, base: &Path) -> Result<(String, String, PathBuf), Diag> {
    if let Some(text) = crate::lang::specs::builtin(&parent.text) {
        return Ok((format!("specs/{}.rules", parent.text), text.to_string(), base.to_path_buf()));
    }
    if !parent.text.ends_with(".rules") {
        let message = format!("`{}` is neither a built-in rules name nor a `.rules` file", parent.text);
        return Err(Diag::new(codes::UNKNOWN_NAME, message).label(parent.span.clone(), "extended here"));
    }
    let path = base.join(&parent.text);
    // What the name leads to must be a rules file too: a rules file reached from a transcript
    // is not trusted, and its parent's lines would be quoted.
    let text = crate::files::real_file_with_extension(&path, &["rules"]).and_then(|_| crate::files::read_rules(&path));
    let text = text.map_err(|e| {
        Diag::new(codes::UNKNOWN_NAME, format!("cannot read the rules `{}` to extend: {e}", parent.text))
            .label(parent.span.clone(), "extended here")
    })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok((path.display().to_string(), text, dir))
}

/// Later declarations replace earlier ones of the same name, at the earlier one's place.
pub fn apply_overrides(spec: &mut Spec) {
    replace_in_place(&mut spec.rules, |r| r.id.text.clone());
    replace_in_place(&mut spec.params, |p| p.name.text.clone());
    replace_in_place(&mut spec.enums, |e| e.name.text.clone());
    replace_in_place(&mut spec.cards, |c| c.name.text.clone());
    replace_in_place(&mut spec.actions, |a| a.name.text.clone());
    replace_in_place(&mut spec.vars, |v| v.name.text.clone());
    replace_in_place(&mut spec.fns, |f| f.name.text.clone());
    replace_in_place(&mut spec.procs, |p| p.name.text.clone());
    replace_in_place(&mut spec.dues, |d| d.name.text.clone());
    replace_in_place(&mut spec.looks, |l| l.member.text.clone());
}

fn replace_in_place<T>(items: &mut Vec<T>, key: impl Fn(&T) -> String) {
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items.drain(..) {
        match out.iter().position(|o| key(o) == key(&item)) {
            Some(i) => out[i] = item,
            None => out.push(item),
        }
    }
    *items = out;
}
