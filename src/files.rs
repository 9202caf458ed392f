//! Reading and writing the files a run names (rules, transcripts, records, card data, lists
//! of paths) with limits: only regular files, at most so many bytes; errors in plain words.
//! Every file shinpan reads goes through `read_bytes`, and every file it writes in place
//! through `write_atomically`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Why a file was not read.
#[derive(Debug)]
pub enum Unread {
    /// Missing, not a regular file, not UTF-8, or an I/O error: the words say which.
    Unreadable(String),
    /// Larger than the limit for its kind of file.
    TooLarge(String),
}

impl Unread {
    /// What went wrong, in words for the person who named the file.
    pub fn message(self) -> String {
        match self {
            Unread::Unreadable(m) | Unread::TooLarge(m) => m,
        }
    }
}

/// Largest rules file read.
pub const MAX_RULES_BYTES: u64 = 4 * 1024 * 1024;

/// Largest list of paths read (`check --files-from`).
pub const MAX_LIST_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a rules file, refusing one too large to be a rules file.
pub fn read_rules(path: &Path) -> Result<String, String> {
    read_text(path, MAX_RULES_BYTES).map_err(Unread::message)
}

/// Reads a data file (a card pool), refusing one larger than `max` bytes.
pub fn read_data(path: &Path, max: u64) -> Result<String, String> {
    read_text(path, max).map_err(Unread::message)
}

/// Reads a UTF-8 text file of at most `max` bytes (see `read_bytes`).
pub fn read_text(path: &Path, max: u64) -> Result<String, Unread> {
    text_of(read_bytes(path, max)?, max, false)
}

/// Reads a text file of at most `max` bytes whose stray bytes become U+FFFD: record files are
/// often Latin-1 or carry a byte of another encoding.
pub fn read_lossy(path: &Path, max: u64) -> Result<String, Unread> {
    text_of(read_bytes(path, max)?, max, true)
}

/// The text of a file's bytes, as `read_text` (or, when `lossy`, `read_lossy`) gives it: for
/// bytes read elsewhere (a file a browser's page was given), with the same limit and words.
pub fn text_of(bytes: Vec<u8>, max: u64, lossy: bool) -> Result<String, Unread> {
    if bytes.len() as u64 > max {
        return Err(Unread::TooLarge(format!("the file is larger than {}", size_words(max))));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e) if lossy => Ok(String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Err(_) => Err(Unread::Unreadable("the file is not UTF-8 text".to_string())),
    }
}

/// Reads a file of at most `max` bytes. Only regular files are read: a named pipe would block
/// and a device (`/dev/zero`) would never end. What the path leads to is checked before it
/// is opened (opening some devices does something), and the opened file is checked again, so
/// that a file swapped for a pipe in between is refused too; the size is checked as the file
/// is read, not only as its metadata says.
pub fn read_bytes(path: &Path, max: u64) -> Result<Vec<u8>, Unread> {
    note_read(path);
    if let Some(found) = given_file(path) {
        let bytes = found?;
        if bytes.len() as u64 > max {
            return Err(Unread::TooLarge(format!("the file is larger than {}", size_words(max))));
        }
        return Ok(bytes.to_vec());
    }
    let unreadable = |e: std::io::Error| Unread::Unreadable(io_words(&e));
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    refuse_unless_regular(&meta)?;
    let too_large = || Unread::TooLarge(format!("the file is larger than {}", size_words(max)));
    if meta.len() > max {
        return Err(too_large());
    }
    let file = open_without_blocking(path).map_err(unreadable)?;
    refuse_unless_regular(&file.metadata().map_err(unreadable)?)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(max)).unwrap_or(0));
    file.take(max + 1).read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Opens a file that is read as a stream, line by line as it comes (`check --stream`): a
/// regular file, or a named pipe, which is a stream by nature as standard input is. A device,
/// a socket or a directory is refused.
pub fn open_stream(path: &Path) -> Result<std::fs::File, Unread> {
    let unreadable = |e: std::io::Error| Unread::Unreadable(io_words(&e));
    refuse_unless_stream(&std::fs::metadata(path).map_err(unreadable)?)?;
    let file = std::fs::File::open(path).map_err(unreadable)?;
    refuse_unless_stream(&file.metadata().map_err(unreadable)?)?;
    Ok(file)
}

fn refuse_unless_stream(meta: &std::fs::Metadata) -> Result<(), Unread> {
    if meta.is_file() || is_pipe(meta) {
        Ok(())
    } else {
        Err(Unread::Unreadable(format!("{} is not a regular file or a named pipe", kind_of_file(meta))))
    }
}

/// Reads at most `max` bytes from `input` (standard input), refusing more.
pub fn read_bounded(input: impl Read, max: u64) -> Result<Vec<u8>, Unread> {
    let mut bytes = vec![];
    input.take(max + 1).read_to_end(&mut bytes).map_err(|e| Unread::Unreadable(io_words(&e)))?;
    if bytes.len() as u64 > max {
        return Err(Unread::TooLarge(format!("it holds more than {}", size_words(max))));
    }
    Ok(bytes)
}

fn refuse_unless_regular(meta: &std::fs::Metadata) -> Result<(), Unread> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(Unread::Unreadable(format!("{} is not a regular file", kind_of_file(meta))))
    }
}

/// Opens for reading without waiting for a writer: a named pipe put in place of the file
/// after it was checked opens at once, and the check of the opened file refuses it.
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// A byte count in the words of the limits table: MiB when whole, else bytes.
fn size_words(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) { format!("{} MiB", bytes / MIB) } else { format!("{bytes} bytes") }
}

/// Whether `path`, once every link is followed, is a regular file whose name ends in one of
/// `extensions`: a name checked only on the link (`evil.rules -> /etc/passwd`) proves nothing.
/// Else the reason, in words.
pub fn real_file_with_extension(path: &Path, extensions: &[&str]) -> Result<PathBuf, String> {
    let real = match given_file(path) {
        // A given file is the file its name says: there is no link to follow.
        Some(found) => found.map(|_| path.to_path_buf()).map_err(Unread::message)?,
        None => std::fs::canonicalize(path).map_err(|e| io_words(&e))?,
    };
    let extension = real.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !extensions.contains(&extension) {
        let wanted: Vec<String> = extensions.iter().map(|e| format!("`.{e}`")).collect();
        return Err(format!("it leads to a file whose name does not end in {}", wanted.join(" or ")));
    }
    Ok(real)
}

/// Whether a file is at `path`: among the given files while some are (`with_given`), else on
/// the filesystem.
pub fn exists(path: &Path) -> bool {
    match given_file(path) {
        Some(found) => found.is_ok(),
        None => path.exists(),
    }
}

/// Files given in memory, found by name (`with_given`).
struct Given {
    files: BTreeMap<String, Rc<[u8]>>,
    looked: RefCell<Looked>,
}

/// The file names looked for while files were given (`with_given`), in order, each once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Looked {
    /// Those found among the files given.
    pub found: Vec<String>,
    /// Those not given.
    pub missing: Vec<String>,
}

thread_local! {
    static GIVEN: RefCell<Option<Rc<Given>>> = const { RefCell::new(None) };
    /// The paths read while `recording_reads` runs; `None` when it does not.
    static READS: RefCell<Option<Vec<PathBuf>>> = const { RefCell::new(None) };
}

/// Runs `run`, and gives with what it gives every path it read (or tried to read: a file
/// missing now may be there later) through `read_bytes`, in order, each once: the files that
/// rules compiled inside were made from, so that an edit to any of them can be noticed. The
/// paths read inside a recording that runs inside another are the outer one's too.
pub fn recording_reads<T>(run: impl FnOnce() -> T) -> (T, Vec<PathBuf>) {
    /// Puts back the outer recording, with this one's paths, however `run` ends.
    struct Restore(Option<Vec<PathBuf>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            READS.with(|r| {
                let inner = std::mem::replace(&mut *r.borrow_mut(), outer).unwrap_or_default();
                inner.iter().for_each(|path| note_read(path));
            });
        }
    }
    let outer = READS.with(|r| r.borrow_mut().replace(vec![]));
    let restore = Restore(outer);
    let out = run();
    let read = READS.with(|r| r.borrow().clone().unwrap_or_default());
    drop(restore);
    (out, read)
}

/// Adds a path read to the recording under way, if one is.
fn note_read(path: &Path) {
    READS.with(|r| {
        if let Some(list) = r.borrow_mut().as_mut()
            && !list.iter().any(|p| p == path)
        {
            list.push(path.to_path_buf());
        }
    });
}

/// Runs `run` with `files` (each a file name and its bytes) as the only files this thread
/// reads: every read of a path through this module (a rules file, the rules it `extends`, a
/// card pool, a rules file a transcript names) finds the given file of the path's file name,
/// wherever the path leads, and a name not given is missing ("no file of that name was
/// given"). For a host with no filesystem: the browser's page, given the files its user opened
/// together. Gives what `run` gives and the file names it looked for. Rules compiled inside
/// are kept apart from the same text compiled with other files (`given_key`).
pub fn with_given<T>(files: &[(String, Vec<u8>)], run: impl FnOnce() -> T) -> (T, Looked) {
    let given = Rc::new(Given {
        files: files.iter().map(|(name, bytes)| (name.clone(), Rc::from(bytes.as_slice()))).collect(),
        looked: RefCell::new(Looked::default()),
    });
    /// Puts back the files given before, however `run` ends.
    struct Restore(Option<Rc<Given>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            GIVEN.with(|g| *g.borrow_mut() = before);
        }
    }
    let before = GIVEN.with(|g| g.borrow_mut().replace(given.clone()));
    let restore = Restore(before);
    let out = run();
    drop(restore);
    let looked = given.looked.borrow().clone();
    (out, looked)
}

/// A fingerprint of the files given on this thread (`with_given`), 0 when none are.
pub fn given_key() -> u64 {
    GIVEN.with(|g| {
        g.borrow().as_ref().map_or(0, |given| {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            given.files.hash(&mut hasher);
            hasher.finish() | 1
        })
    })
}

/// The given file at `path` (by its file name), or why it is missing; `None` when no files
/// are given and the filesystem is read.
fn given_file(path: &Path) -> Option<Result<Rc<[u8]>, Unread>> {
    let given = GIVEN.with(|g| g.borrow().clone())?;
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let found = given.files.get(&name).cloned();
    let mut looked = given.looked.borrow_mut();
    let list = if found.is_some() { &mut looked.found } else { &mut looked.missing };
    if !list.contains(&name) {
        list.push(name);
    }
    found.map(Ok).or_else(|| Some(Err(Unread::Unreadable("no file of that name was given".to_string()))))
}

/// Writes `bytes` to `path` so that the file is either what it was or the whole new text,
/// never a part: the text goes to a new file beside it, is synced to the disk, then renamed
/// over the original (a full disk fails the write, and the original is untouched). A link is
/// followed: the file it leads to is replaced and the link stays (a file the person edits
/// through a link). The original's permissions and owner are kept.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = match std::fs::canonicalize(path) {
        Ok(real) => real,
        // A link that leads nowhere (or to `pipe:[…]`, as `/dev/stdout` may): renaming over it
        // would replace the link.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && std::fs::symlink_metadata(path).is_ok() => {
            return Err(std::io::Error::other("it is a link that leads to no file"));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(e),
    };
    write_over(&target, bytes)
}

/// As `write_atomically`, but a link at `path` is replaced itself, never followed: for a file
/// shinpan made in a folder others may write to, where a planted link could lead anywhere.
pub fn replace_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_over(path, bytes)
}

/// Writes a new file beside `target` and renames it over. Only a regular file, a link (which
/// the rename replaces) or nothing may be at `target`: a device, a named pipe or a folder is
/// never replaced (`--html /dev/null` would otherwise swap the device for a file). The new
/// file has the original's owner and permissions before a byte of the text is in it.
fn write_over(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let original = match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.is_file() => Some(meta),
        Ok(meta) if meta.file_type().is_symlink() => None,
        Ok(meta) => return Err(std::io::Error::other(format!("{} is not a regular file", kind_of_file(&meta)))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    // A bare name's parent is "", and a name joined to "" is that name, in the working folder.
    let (temporary, mut file) = new_file_in(target.parent().unwrap_or(Path::new("")))?;
    let written = (|| {
        if let Some(meta) = &original {
            keep_owner(&file, meta);
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temporary, target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Gives the new file the original's owner and group, where this process may (root may; the
/// owner of a file may keep its group when a member of it). Where it may not, the file is the
/// writer's, as any file it makes.
fn keep_owner(file: &std::fs::File, original: &std::fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
    }
    #[cfg(not(unix))]
    let _ = (file, original);
}

/// A new file in `dir`, made with `create_new` so that nothing there is ever opened or
/// replaced by it. Its name does not grow with the file's: a name near the system's limit can
/// still be written.
fn new_file_in(dir: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let mut last = None;
    for attempt in 0..100u32 {
        let temporary = dir.join(format!(".shinpan-{}-{attempt}.tmp", std::process::id()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary file could be made")))
}

/// An I/O error in plain words, without the OS error number.
pub fn io_words(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_lowercase(),
        None => text.to_lowercase(),
    }
}

fn is_pipe(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        meta.file_type().is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

fn kind_of_file(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "it is a named pipe, which";
        }
        if t.is_char_device() || t.is_block_device() {
            return "it is a device, which";
        }
        if t.is_socket() {
            return "it is a socket, which";
        }
    }
    if meta.is_dir() { "it is a directory, which" } else { "it" }
}

/// Reads one line, without its end (`\n` or `\r\n`), into `buf`, keeping at most `max` bytes
/// of it: the rest is read and dropped, so a huge line costs no memory. `None` at the end of
/// the input; else whether the line was longer than `max` (what `buf` then holds is its
/// start). `check --stream` and `shinpan referee` read their lines so.
pub fn read_line_within(r: &mut impl std::io::BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<Option<bool>> {
    buf.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then(|| cut_to(buf, max, too_long)));
        }
        any = true;
        let end = memchr::memchr(b'\n', chunk);
        let part = &chunk[..end.unwrap_or(chunk.len())];
        // One byte more than the cap is kept: the `\r` of a `\r\n` is not the line's.
        let room = max.saturating_add(1).saturating_sub(buf.len());
        too_long |= part.len() > room;
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = end.map_or(chunk.len(), |e| e + 1);
        r.consume(used);
        if end.is_some() {
            if !too_long && buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Some(cut_to(buf, max, too_long)));
        }
    }
}

/// Cuts a line read to `max` bytes; whether it was longer.
fn cut_to(buf: &mut Vec<u8>, max: usize, too_long: bool) -> bool {
    let longer = too_long || buf.len() > max;
    buf.truncate(max);
    longer
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{
        exists, given_key, read_line_within, read_rules, real_file_with_extension, recording_reads, size_words,
        with_given,
    };

    /// Files given in memory are found by file name wherever the path leads, with the limit
    /// of their kind; a name not given is missing and reported; outside, the filesystem is read.
    #[test]
    fn given_files_are_found_by_name() {
        let files = [("parent.rules".to_string(), b"game parent".to_vec()), ("big.rules".to_string(), vec![b' '; 5])];
        let (read, looked) = with_given(&files, || {
            assert_ne!(given_key(), 0);
            assert!(exists(Path::new("any/where/parent.rules")));
            assert!(!exists(Path::new("Cargo.toml")));
            assert!(real_file_with_extension(Path::new("../parent.rules"), &["rules"]).is_ok());
            let not_rules = real_file_with_extension(Path::new("parent.rules"), &["yaml"]).unwrap_err();
            assert!(not_rules.contains("does not end in `.yaml`"), "{not_rules}");
            assert!(super::read_bytes(Path::new("big.rules"), 4).is_err());
            assert!(super::read_bytes(Path::new("big.rules"), 5).is_ok());
            let gone = read_rules(Path::new("other.rules")).unwrap_err();
            assert_eq!(gone, "no file of that name was given");
            read_rules(Path::new("/x/parent.rules"))
        });
        assert_eq!(read.as_deref(), Ok("game parent"));
        assert_eq!(looked.missing, ["Cargo.toml", "other.rules"]);
        assert_eq!(looked.found, ["parent.rules", "big.rules"]);
        assert_eq!(given_key(), 0);
        assert!(exists(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))));
    }

    /// A recording lists each path read (or looked for) once, in order; one inside another
    /// adds its paths to the outer one; none is kept once the outermost has ended, even when
    /// its run panicked.
    #[test]
    fn reads_are_recorded_while_a_recording_runs() {
        let manifest = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
        let missing = Path::new("no/such/file.rules");
        let (inner, outer) = recording_reads(|| {
            assert!(read_rules(missing).is_err());
            let ((), inner) = recording_reads(|| {
                assert!(read_rules(manifest).is_ok());
                assert!(read_rules(missing).is_err());
            });
            assert!(read_rules(manifest).is_ok());
            inner
        });
        assert_eq!(inner, [manifest, missing]);
        assert_eq!(outer, [missing, manifest]);
        let ((), after) = recording_reads(|| ());
        assert!(after.is_empty());
        // A run that ends in a panic, as a thread's checker may.
        let panicked = std::panic::catch_unwind(|| {
            recording_reads(|| read_rules(manifest).map(|_| std::panic::resume_unwind(Box::new("read"))))
        });
        assert!(panicked.is_err());
        assert!(super::READS.with(|r| r.borrow().is_none()), "no recording is left running");
        assert!(read_rules(manifest).is_ok());
        assert!(super::READS.with(|r| r.borrow().is_none()));
    }

    /// A limit is said in MiB when it is a whole number of them, else in bytes.
    #[test]
    fn a_limit_is_said_in_the_table_s_words() {
        const MIB: u64 = 1024 * 1024;
        assert_eq!(size_words(0), "0 bytes");
        assert_eq!(size_words(1000), "1000 bytes");
        assert_eq!(size_words(3 * MIB), "3 MiB");
        assert_eq!(size_words(MIB + 1), "1048577 bytes");
    }

    /// Lines are read whole up to the cap, and past it only counted as too long: the next
    /// line is read as usual. Line ends may be `\n` or `\r\n`; the last line may have none.
    #[test]
    fn a_line_is_read_within_its_cap() {
        // The fifth line is one byte past the cap before its `\r\n`; the sixth line's byte past
        // the cap is a `\r` that does not end it: both too long.
        let text = "short\r\nexactly10!!\r\n0123456789abc\nexactly10!!\n0123456789ab\r\n0123456789a\rXYZ\n\nlast";
        // A tiny buffer, so that lines arrive in pieces as from a pipe.
        let mut reader = std::io::BufReader::with_capacity(4, text.as_bytes());
        let mut buf = vec![];
        let mut lines = vec![];
        while let Some(too_long) = read_line_within(&mut reader, &mut buf, 11).unwrap() {
            lines.push((String::from_utf8_lossy(&buf).into_owned(), too_long));
        }
        let want = [
            ("short", false),
            ("exactly10!!", false),
            ("0123456789a", true),
            ("exactly10!!", false),
            ("0123456789a", true),
            ("0123456789a", true),
            ("", false),
            ("last", false),
        ];
        assert_eq!(lines, want.map(|(l, t)| (l.to_string(), t)));
    }
}
