//! `shinpan import`: each deal of record files (PBN, LIN) written as a transcript.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::exit::ExitStatus;

/// Writes every deal that can be a transcript; a deal that cannot, or a file that cannot be
/// read, is reported in its place (`Errors`) and the rest are still written; a write that fails
/// (a full disk) ends the import (`WriteFailed`). Nothing is
/// overwritten unless `overwrite` says so: two inputs that would write the same names, or
/// names already in `out`, are refused before anything is written.
pub fn run(paths: &[PathBuf], out: &Path, overwrite: bool) -> ExitStatus {
    if let Err(why) = import_names_are_free(paths, out, overwrite) {
        eprintln!("shinpan: {why}");
        return ExitStatus::Usage;
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("shinpan: cannot make {}: {}", out.display(), shinpan::files::io_words(&e));
        return ExitStatus::WriteFailed;
    }
    let mut worst = ExitStatus::Success;
    for path in paths {
        let text = match shinpan::files::read_lossy(path, shinpan::Limits::DEFAULT.transcript_bytes) {
            Ok(text) => text,
            Err(why) => {
                eprintln!("shinpan: {}: {}", path.display(), why.message());
                worst = ExitStatus::Errors;
                continue;
            }
        };
        for deal in shinpan::records::read_deals(path, &text) {
            let target = out.join(import_name(path, deal.number));
            let Ok(t) = &deal.transcript else {
                if let Err(why) = &deal.transcript {
                    eprintln!(
                        "shinpan: {}#{}: line {}: cannot be represented: {why}",
                        path.display(),
                        deal.number,
                        deal.line
                    );
                }
                worst = ExitStatus::Errors;
                continue;
            };
            // A write that fails (a full disk) fails the rest too: stop, as `check` does when
            // its output is lost, rather than report every deal after it as if it were bad.
            if let Err(why) = write_new(&target, t.as_bytes(), overwrite) {
                eprintln!("shinpan: {}#{}: {why}", path.display(), deal.number);
                return ExitStatus::WriteFailed;
            }
        }
    }
    worst
}

/// The file a deal of a record is imported as: `<stem>-<NNNN>.yaml`.
fn import_name(record: &Path, deal: usize) -> String {
    format!("{}-{deal:04}.yaml", import_stem(record))
}

fn import_stem(record: &Path) -> String {
    record.file_stem().map_or("deal".into(), |s| s.to_string_lossy().into_owned())
}

/// Refuses an import that would write one name twice (two inputs of the same stem, such as
/// `a/match.pbn b/match.lin`) or, without `overwrite`, replace a file an earlier import wrote.
fn import_names_are_free(paths: &[PathBuf], out: &Path, overwrite: bool) -> Result<(), String> {
    let mut stems: std::collections::HashMap<String, &Path> = std::collections::HashMap::new();
    for path in paths {
        if let Some(first) = stems.insert(import_stem(path), path) {
            return Err(format!(
                "{} and {} would both be written as {}: import them into different folders",
                first.display(),
                path.display(),
                out.join(import_name(path, 1).replace("0001", "NNNN")).display()
            ));
        }
    }
    if overwrite {
        return Ok(());
    }
    let Ok(entries) = std::fs::read_dir(out) else { return Ok(()) };
    for name in entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()) {
        if stems.keys().any(|stem| is_import_of(&name, stem)) {
            return Err(format!(
                "{} is there already (from an earlier import?): give --overwrite to replace the files \
                 this import writes, or choose another --out",
                out.join(&name).display()
            ));
        }
    }
    Ok(())
}

/// Whether `name` is one that importing a record of stem `stem` writes (`<stem>-<digits>.yaml`).
fn is_import_of(name: &str, stem: &str) -> bool {
    let digits = name.strip_prefix(stem).and_then(|r| r.strip_prefix('-')).and_then(|r| r.strip_suffix(".yaml"));
    digits.is_some_and(|d| d.len() >= 4 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Writes a new file, never replacing one (`create_new`) unless `overwrite` says so, and then
/// whole or not at all.
fn write_new(target: &Path, bytes: &[u8], overwrite: bool) -> Result<(), String> {
    let words = |e: std::io::Error| format!("cannot write {}: {}", target.display(), shinpan::files::io_words(&e));
    if overwrite {
        // A link planted in OUT is replaced, not followed.
        return shinpan::files::replace_atomically(target, bytes).map_err(words);
    }
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(target).map_err(words)?;
    file.write_all(bytes).and_then(|()| file.sync_all()).map_err(|e| {
        // The file is this import's own: never leave part of a transcript behind.
        let _ = std::fs::remove_file(target);
        words(e)
    })
}
