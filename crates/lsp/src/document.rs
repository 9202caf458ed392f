//! An open rules document: its text, what it knows about its names, the files it `extends`
//! (read from disk, or built in), and its diagnostics as `shinpan lint` gives them.

use std::path::{Path, PathBuf};

use lsp_types::{Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Uri};

use crate::text::{Lines, path_of, uri_of};
use shinpan::diag::{Diag, Level};
use shinpan::editor::{Analysis, Decl, DeclKind, Found, Local, Use, analyse};
use shinpan::span::Span;

/// How many files deep `extends` is followed (as the compiler does).
const MAX_PARENTS: usize = 8;

/// A rules text the server knows: the document itself or one it extends.
pub struct Unit {
    /// Where the text is on disk (none for a built-in game without its file at hand).
    pub uri: Option<Uri>,
    /// How the text is named to the user: a path, or the built-in game's file.
    pub label: String,
    pub text: String,
    pub analysis: Analysis,
}

pub struct Document {
    pub uri: Uri,
    pub text: String,
    /// None while the text does not parse (or is too large to look at).
    pub analysis: Option<Analysis>,
    /// The names of the last text that parsed: completion still offers them while the
    /// text is being typed.
    pub last_parsed: Option<Analysis>,
    /// The files this one extends, nearest first.
    pub parents: Vec<Unit>,
    /// Card and code names (code, kind) of the last text that compiled.
    pub codes: Vec<(String, String)>,
    pub diagnostics: Vec<Diagnostic>,
    /// The version the client gave the text last.
    pub version: Option<i32>,
    /// The text changed since it was last analysed: it is analysed once, with its newest text,
    /// before a request about it or when no message is waiting.
    pub stale: bool,
}

/// What a name at some place of the document refers to.
pub enum Target<'a> {
    /// A declaration in the document (unit 0) or in a file it extends.
    Decl(usize, &'a Decl),
    Local(&'a Local),
    Builtin(&'static str, &'static str, &'static str),
    /// A rule id every game has, with its text.
    SharedRule(&'static str, &'static str),
    /// A word of the language that names a value (`players`, `table`, `events_taken`, `code`).
    Word(&'static str),
}

/// Values that every rules file may name without declaring them.
pub const WORDS: [(&str, &str); 4] = [
    ("players", "the players, in seating order"),
    ("table", "the table: the actor of events no player takes (deals, records)"),
    ("events_taken", "the number of events taken so far"),
    ("code", "a card's or code's code, as transcripts write it"),
];

impl Document {
    pub fn new(uri: Uri, text: String, roots: &[PathBuf]) -> Document {
        let mut doc = Document::unanalysed(uri, text, None);
        doc.refresh(roots);
        doc
    }

    /// A document not analysed yet (`stale`).
    pub fn unanalysed(uri: Uri, text: String, version: Option<i32>) -> Document {
        Document {
            uri,
            text,
            analysis: None,
            last_parsed: None,
            parents: vec![],
            codes: vec![],
            diagnostics: vec![],
            version,
            stale: true,
        }
    }

    /// Takes a new text: analyses it, reads its parents and compiles it for diagnostics.
    pub fn update(&mut self, text: String, roots: &[PathBuf]) {
        self.text = text;
        self.refresh(roots);
    }

    /// Applies a change as the client sends it, without analysing: a range replaced, or the
    /// whole text when it has no range. Changes are applied in the order they come.
    pub fn apply(&mut self, change: lsp_types::TextDocumentContentChangeEvent) {
        self.stale = true;
        let Some(range) = change.range else {
            self.text = change.text;
            return;
        };
        let start = crate::text::offset_in(&self.text, range.start);
        let end = crate::text::offset_in(&self.text, range.end).max(start);
        self.text.replace_range(start..end, &change.text);
    }

    /// Larger than a rules file may be (`shinpan lint` refuses it): nothing but its size is
    /// looked at, and requests about it are refused.
    pub fn too_large(&self) -> bool {
        self.text.len() as u64 > shinpan::files::MAX_RULES_BYTES
    }

    pub fn refresh(&mut self, roots: &[PathBuf]) {
        self.stale = false;
        if self.too_large() {
            self.analysis = None;
            self.parents.clear();
            let message = format!(
                "the document is larger than {} MiB, too large to be a rules file",
                shinpan::files::MAX_RULES_BYTES / (1024 * 1024)
            );
            self.diagnostics = vec![error_at(Range::default(), shinpan::codes::LIMIT, message)];
            return;
        }
        self.analysis = analyse(&self.text).ok();
        if let Some(analysis) = &self.analysis {
            self.parents = parents(analysis, self.dir().as_deref(), roots);
            self.last_parsed = Some(analysis.clone());
        }
        self.diagnostics = self.lint(roots);
    }

    fn path(&self) -> Option<PathBuf> {
        path_of(&self.uri)
    }

    fn dir(&self) -> Option<PathBuf> {
        self.path().and_then(|p| p.parent().map(Path::to_path_buf))
    }

    fn label(&self) -> String {
        self.path().map_or_else(|| self.uri.as_str().to_string(), |p| p.display().to_string())
    }

    /// `shinpan lint`'s diagnostics for the text, placed in the document.
    fn lint(&mut self, roots: &[PathBuf]) -> Vec<Diagnostic> {
        let label = self.label();
        let dir = self.dir().unwrap_or_else(|| PathBuf::from("."));
        let compiled = std::panic::catch_unwind(|| shinpan::editor::lint(&label, &self.text, &dir));
        let diags = match compiled {
            Ok(Ok(checked)) => {
                self.codes = checked.cards;
                checked.warnings
            }
            Ok(Err(diags)) => diags,
            Err(_) => {
                let message = "the rules could not be checked (an internal error of shinpan)".to_string();
                return vec![error_at(Range::default(), shinpan::codes::RUNTIME, message)];
            }
        };
        let lines = Lines::new(&self.text);
        let extends_at = self.analysis.as_ref().and_then(|a| a.extends.as_ref()).map(|n| n.span.clone());
        let place = Placer { label: &label, uri: &self.uri, lines: &lines, extends_at, roots, dir: &dir };
        diags.iter().map(|d| place.diagnostic(d)).collect()
    }

    /// The texts to look names up in: the document's (when it parses), then its parents'.
    pub fn units(&self) -> impl Iterator<Item = (usize, &Analysis)> {
        let own = self.analysis.iter().map(|a| (0, a));
        own.chain(self.parents.iter().enumerate().map(|(i, u)| (i + 1, &u.analysis)))
    }

    /// The first declaration, in the document then in its parents, that `keep` accepts.
    pub fn global(&self, name: &str, keep: impl Fn(&Decl) -> bool) -> Option<(usize, &Decl)> {
        self.units().find_map(|(unit, a)| a.decl(name, &keep).map(|d| (unit, d)))
    }

    /// The text of a unit (0: the document).
    pub fn unit_text(&self, unit: usize) -> &str {
        match unit.checked_sub(1) {
            None => &self.text,
            Some(i) => self.parents.get(i).map_or("", |u| u.text.as_str()),
        }
    }

    /// What the name at `offset` refers to, with the span of the name.
    pub fn target_at(&self, offset: usize) -> Option<(Span, Target<'_>)> {
        let analysis = self.analysis.as_ref()?;
        let (span, found) = analysis.at(offset)?;
        let target = match found {
            Found::Decl(decl) => Target::Decl(0, decl),
            Found::Local(local) => Target::Local(local),
            Found::Unknown(_) => {
                let used = analysis.use_at(offset)?;
                self.resolve_use(analysis, &used.name, &used.used_as, offset)?
            }
        };
        Some((span, target))
    }

    fn resolve_use<'a>(&'a self, here: &'a Analysis, name: &str, used_as: &Use, at: usize) -> Option<Target<'a>> {
        let decl = |keep: &dyn Fn(&Decl) -> bool| self.global(name, keep).map(|(u, d)| Target::Decl(u, d));
        match used_as {
            Use::Value => here
                .local(name, at)
                .map(Target::Local)
                .or_else(|| decl(&|d| d.kind.is_value()))
                .or_else(|| builtin(name))
                .or_else(|| word(name)),
            Use::Rule => decl(&|d| d.kind == DeclKind::Rule).or_else(|| shared_rule(name)),
            Use::Action => decl(&|d| d.kind == DeclKind::Action),
            Use::Shape => decl(&|d| matches!(d.kind, DeclKind::Enum | DeclKind::Kind)),
            Use::Field { base } => {
                let of_enum = base
                    .as_deref()
                    .filter(|b| here.local(b, at).is_none())
                    .filter(|b| self.global(b, |d| d.kind.is_value()).is_some_and(|(_, d)| d.kind == DeclKind::Enum));
                match of_enum {
                    Some(e) => decl(&|d| d.kind == DeclKind::Member && d.container.as_deref() == Some(e)),
                    // An attribute of a kind of card, else where a record writes the key.
                    None => decl(&|d| d.kind == DeclKind::Field)
                        .or_else(|| word(name))
                        .or_else(|| decl(&|d| d.kind == DeclKind::Key)),
                }
            }
        }
    }
}

fn builtin(name: &str) -> Option<Target<'static>> {
    let (name, signature, description) = shinpan::editor::builtin_function(name)?;
    Some(Target::Builtin(name, signature, description))
}

fn shared_rule(id: &str) -> Option<Target<'static>> {
    shinpan::editor::shared_rules().iter().find(|(i, _)| *i == id).map(|(i, text)| Target::SharedRule(i, text))
}

fn word(name: &str) -> Option<Target<'static>> {
    WORDS.iter().find(|(w, _)| *w == name).map(|(w, _)| Target::Word(w))
}

/// Reads the chain of files a document extends: built-in games by name (their file in the
/// workspace when there is one, so a definition can be shown), others by path.
fn parents(first: &Analysis, dir: Option<&Path>, roots: &[PathBuf]) -> Vec<Unit> {
    let mut out: Vec<Unit> = vec![];
    let mut next = first.extends.as_ref().map(|n| n.text.clone());
    let mut dir = dir.map(Path::to_path_buf);
    while let Some(target) = next.take() {
        if out.len() >= MAX_PARENTS {
            break;
        }
        let Some((unit, unit_dir)) = load(&target, dir.as_deref(), roots) else { break };
        next = unit.analysis.extends.as_ref().map(|n| n.text.clone());
        dir = unit_dir.or(dir);
        out.push(unit);
    }
    out
}

fn load(target: &str, dir: Option<&Path>, roots: &[PathBuf]) -> Option<(Unit, Option<PathBuf>)> {
    if let Some(builtin) = shinpan::editor::builtin_rules(target) {
        let file = builtin_file(&format!("specs/{target}.rules"), dir, roots);
        let on_disk = file.as_deref().and_then(read_rules_file);
        let (text, uri, label) = match (on_disk, &file) {
            (Some(text), Some(f)) => (text, uri_of(f), f.display().to_string()),
            _ => (builtin.to_string(), None, format!("the built-in `{target}`")),
        };
        let analysis = analyse(&text).ok()?;
        return Some((Unit { uri, label, text, analysis }, None));
    }
    if !target.ends_with(".rules") {
        return None;
    }
    let path = dir.map_or_else(|| PathBuf::from(target), |d| d.join(target));
    let text = read_rules_file(&path)?;
    let analysis = analyse(&text).ok()?;
    let unit = Unit { uri: uri_of(&path), label: path.display().to_string(), text, analysis };
    Some((unit, path.parent().map(Path::to_path_buf)))
}

/// A parent's text, read only where its name leads to a rules file, as the compiler reads it
/// (`lang/extend.rs`): hover would otherwise show the lines of whatever a link leads to.
fn read_rules_file(path: &Path) -> Option<String> {
    shinpan::files::real_file_with_extension(path, &["rules"]).ok()?;
    shinpan::files::read_rules(path).ok()
}

/// A built-in game's file (`specs/NAME.rules`) in a folder above the document or in the
/// workspace, if the user has the repository at hand.
pub fn builtin_file(relative: &str, dir: Option<&Path>, roots: &[PathBuf]) -> Option<PathBuf> {
    let above = dir.into_iter().flat_map(Path::ancestors).take(12);
    above.chain(roots.iter().map(PathBuf::as_path)).map(|d| d.join(relative)).find(|f| f.is_file())
}

fn error_at(range: Range, code: &str, message: String) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(code.to_string())),
        source: Some("shinpan".to_string()),
        message,
        ..Diagnostic::default()
    }
}

/// Turns compiler diagnostics into the document's: a diagnostic in a file the document
/// extends is shown on its `extends` line, with the place in that file beside it.
struct Placer<'a> {
    label: &'a str,
    uri: &'a Uri,
    lines: &'a Lines<'a>,
    extends_at: Option<Span>,
    roots: &'a [PathBuf],
    dir: &'a Path,
}

impl Placer<'_> {
    fn diagnostic(&self, d: &Diag) -> Diagnostic {
        let source_name = d.source.as_ref().map(|s| s.name().to_string());
        let here = source_name.as_deref().is_none_or(|n| n == self.label);
        let mut message = d.message.clone();
        let mut related: Vec<DiagnosticRelatedInformation> = vec![];
        let range = if here {
            self.lines.range(&d.span().unwrap_or(0..0))
        } else {
            let name = source_name.unwrap_or_default();
            message = format!("in `{name}`, which this file extends: {message}");
            self.lines.range(&self.extends_at.clone().unwrap_or(0..0))
        };
        for (span, text) in d.labels.iter().skip(usize::from(here)) {
            related.extend(self.located(d, span, text));
        }
        for other in &d.related {
            related.extend(other.span().and_then(|s| self.located(other, &s, &other.message)));
        }
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let mut out = error_at(range, d.code, message);
        out.severity = Some(match d.level {
            Level::Error => DiagnosticSeverity::ERROR,
            Level::Warning => DiagnosticSeverity::WARNING,
            Level::Advice => DiagnosticSeverity::INFORMATION,
        });
        out.related_information = (!related.is_empty()).then_some(related);
        out
    }

    /// A place in the file of `d`'s source, as a location an editor can open.
    fn located(&self, d: &Diag, span: &Span, text: &str) -> Option<DiagnosticRelatedInformation> {
        let source = d.source.as_ref()?;
        let name = source.name();
        let uri = if name == self.label {
            Some(self.uri.clone())
        } else {
            let path = Path::new(name);
            let file = if path.is_file() { Some(path.to_path_buf()) } else { self.builtin(name) };
            file.as_deref().and_then(uri_of)
        }?;
        let range = Lines::new(source.inner()).range(span);
        Some(DiagnosticRelatedInformation { location: Location { uri, range }, message: text.to_string() })
    }

    fn builtin(&self, name: &str) -> Option<PathBuf> {
        name.starts_with("specs/").then(|| builtin_file(name, Some(self.dir), self.roots)).flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::read_rules_file;

    /// A parent named `x.rules` that is a link to another kind of file is not read (hover
    /// would show its lines); one that is a rules file is.
    #[test]
    #[allow(clippy::unwrap_used, reason = "tests fail loudly")]
    fn a_parent_is_read_only_where_its_name_leads_to_a_rules_file() {
        let dir = std::env::temp_dir().join(format!("shinpan-lsp-parent-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("secret.txt"), "var secret = 1\n").unwrap();
        std::fs::write(dir.join("real.rules"), "var shown = 1\n").unwrap();
        std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("evil.rules")).unwrap();
        std::os::unix::fs::symlink(dir.join("real.rules"), dir.join("good.rules")).unwrap();
        let read = (read_rules_file(&dir.join("evil.rules")), read_rules_file(&dir.join("good.rules")));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(read, (None, Some("var shown = 1\n".to_string())));
    }
}
