//! What a command reads: the paths given and listed (`--files-from`), folders walked for the
//! files a command takes, and standard input. A path that cannot be read keeps its place with
//! the reason, so that it gets its verdict rather than ending the run.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use shinpan::{Input, Problem};

/// The paths given, then those listed in `list` (one per line; `-` is standard input).
/// Standard input can be read once: as the list or as a transcript, not both.
pub fn with_listed(mut paths: Vec<PathBuf>, list: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let Some(list) = list else { return Ok(paths) };
    let text = if list == Path::new("-") {
        if paths.iter().any(|p| p == Path::new("-")) {
            return Err("standard input is read once: as the list of paths or as a transcript, not both".into());
        }
        let bytes = shinpan::files::read_bounded(std::io::stdin().lock(), shinpan::files::MAX_LIST_BYTES)
            .map_err(|e| format!("cannot read the list of paths from standard input: {}", e.message()))?;
        String::from_utf8(bytes).map_err(|_| "the list of paths on standard input is not UTF-8 text".to_string())?
    } else {
        shinpan::files::read_text(list, shinpan::files::MAX_LIST_BYTES).map_err(|e| {
            let hint =
                if list.exists() && !list.is_file() { " (give `--files-from -` to read it from a pipe)" } else { "" };
            format!("cannot read the list of paths {}: {}{hint}", list.display(), e.message())
        })?
    };
    paths.extend(text.lines().map(|l| l.trim_end_matches('\r')).filter(|l| !l.is_empty()).map(PathBuf::from));
    Ok(paths)
}

/// Every path given, in order; directories expanded recursively (each once, however many
/// links lead to it) and sorted by path. `confine`: links may not lead out of a folder given
/// (`--only-builtin-rules`).
pub fn transcripts(paths: &[PathBuf], confine: bool) -> Vec<Input> {
    let is_transcript = |f: &Path| {
        matches!(f.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json"))
            || shinpan::records::is_record(f)
    };
    let mut walk = Walk { keep: &is_transcript, seen: HashSet::new(), confine };
    let mut inputs = vec![];
    for p in paths {
        if p == Path::new("-") {
            inputs.push(stdin_transcript());
            continue;
        }
        match std::fs::metadata(p) {
            Ok(meta) if meta.is_dir() => {
                let mut found = vec![];
                walk.folder(p, &mut found);
                sort_by_path(&mut found);
                inputs.extend(found);
            }
            Ok(_) => inputs.push(Input::Path(p.clone())),
            Err(e) => inputs.push(unreadable(p, shinpan::files::io_words(&e))),
        }
    }
    inputs
}

/// The rules files given, and those in the directories given (*.rules), sorted.
pub fn rules_files(paths: &[PathBuf]) -> Vec<Input> {
    let is_rules = |f: &Path| f.extension().is_some_and(|e| e == "rules");
    let mut walk = Walk { keep: &is_rules, seen: HashSet::new(), confine: false };
    let mut inputs = vec![];
    for p in paths {
        if p.is_dir() {
            walk.folder(p, &mut inputs);
        } else {
            inputs.push(Input::Path(p.clone()));
        }
    }
    sort_by_path(&mut inputs);
    inputs
}

/// The text of a rules file input, or why it cannot be read.
pub fn rules_text(input: &Input) -> Result<String, String> {
    match input {
        Input::Path(path) => shinpan::files::read_rules(path),
        Input::Unreadable { why, .. } => Err(why.clone()),
        Input::Text { text, .. } => Ok(text.clone()),
    }
}

/// The path an input was read from, or names.
pub fn path_of(input: &Input) -> PathBuf {
    match input {
        Input::Path(path) => path.clone(),
        other => PathBuf::from(other.name()),
    }
}

/// Sorted by path, component by component (`a/b` before `a.b`), as a folder is listed.
fn sort_by_path(inputs: &mut [Input]) {
    inputs.sort_by_key(path_of);
}

fn unreadable(path: &Path, why: String) -> Input {
    Input::Unreadable { name: path.display().to_string(), problem: Problem::Unreadable, why }
}

/// The transcript on standard input, read whole (up to the size a transcript file may have).
fn stdin_transcript() -> Input {
    let name = "-".to_string();
    let bytes = match shinpan::files::read_bounded(std::io::stdin().lock(), shinpan::Limits::DEFAULT.transcript_bytes) {
        Ok(bytes) => bytes,
        Err(shinpan::files::Unread::TooLarge(why)) => {
            return Input::Unreadable { name, problem: Problem::TooLarge, why: format!("standard input: {why}") };
        }
        Err(shinpan::files::Unread::Unreadable(why)) => {
            let why = format!("cannot read standard input: {why}");
            return Input::Unreadable { name, problem: Problem::Unreadable, why };
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Input::Text { name, text, line: 1 },
        Err(_) => {
            Input::Unreadable { name, problem: Problem::Unreadable, why: "standard input is not UTF-8 text".into() }
        }
    }
}

/// How a directory is walked: which files are kept, which directories were seen (by their
/// real path), and, when links may not lead out of the folder given, that folder's real path.
struct Walk<'a> {
    keep: &'a dyn Fn(&Path) -> bool,
    seen: HashSet<PathBuf>,
    confine: bool,
}

impl Walk<'_> {
    /// The files under `dir` that `keep` accepts, each directory walked once however many links
    /// lead to it; one that cannot be read is reported in its place.
    fn folder(&mut self, dir: &Path, out: &mut Vec<Input>) {
        // A folder that cannot be resolved is reported by `under`, which reads nothing of it.
        let root = if self.confine { std::fs::canonicalize(dir).ok() } else { None };
        self.under(dir, root.as_deref(), out);
    }

    fn under(&mut self, dir: &Path, root: Option<&Path>, out: &mut Vec<Input>) {
        let Ok(real) = std::fs::canonicalize(dir) else {
            out.push(unreadable(dir, "cannot resolve the directory".into()));
            return;
        };
        if !self.seen.insert(real) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                out.push(unreadable(dir, format!("cannot read the directory: {}", shinpan::files::io_words(&e))));
                return;
            }
        };
        for entry in entries {
            match entry {
                Ok(entry) => self.entry(entry.path(), root, out),
                Err(e) => {
                    out.push(unreadable(dir, format!("cannot read the directory: {}", shinpan::files::io_words(&e))))
                }
            }
        }
    }

    fn entry(&mut self, path: PathBuf, root: Option<&Path>, out: &mut Vec<Input>) {
        let meta = std::fs::metadata(&path);
        let wanted = meta.as_ref().map_or_else(|_| (self.keep)(&path), |m| m.is_dir() || (self.keep)(&path));
        if !wanted {
            return;
        }
        if let Some(root) = root
            && leads_out_of(&path, root)
        {
            let why = "it is a link that leads out of the folder given, which --only-builtin-rules does not follow";
            out.push(unreadable(&path, why.into()));
            return;
        }
        match meta {
            Ok(meta) if meta.is_dir() => self.under(&path, root, out),
            Ok(_) => out.push(Input::Path(path)),
            Err(e) => out.push(unreadable(&path, shinpan::files::io_words(&e))),
        }
    }
}

/// Whether `path`, once its links are followed, is somewhere outside `root` (a real path).
/// A dangling link leads nowhere: reading it fails on its own.
fn leads_out_of(path: &Path, root: &Path) -> bool {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    is_link && std::fs::canonicalize(path).is_ok_and(|real| !real.starts_with(root))
}
