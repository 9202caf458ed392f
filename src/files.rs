//! Reading the files a run names (rules, transcripts, card data) with limits: only regular
//! files, at most so many bytes, UTF-8; errors in plain words.

use std::path::Path;

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

/// Reads a rules file, refusing one too large to be a rules file.
pub fn read_rules(path: &Path) -> Result<String, String> {
    read_text(path, MAX_RULES_BYTES).map_err(Unread::message)
}

/// Reads a data file (a card pool), refusing one larger than `max` bytes.
pub fn read_data(path: &Path, max: u64) -> Result<String, String> {
    read_text(path, max).map_err(Unread::message)
}

/// Reads a UTF-8 text file of at most `max` bytes. Only regular files are read: a FIFO would
/// block and a device (`/dev/zero`) would never end. The size is checked as the file is read,
/// not only as its metadata says.
pub fn read_text(path: &Path, max: u64) -> Result<String, Unread> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| Unread::Unreadable(io_words(&e));
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(Unread::Unreadable(format!("{} is not a regular file", kind_of_file(&meta))));
    }
    let too_large = || Unread::TooLarge(format!("the file is larger than {} MiB", max / (1024 * 1024)));
    if meta.len() > max {
        return Err(too_large());
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max + 1).read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| Unread::Unreadable("the file is not UTF-8 text".to_string()))
}

/// An I/O error in plain words, without the OS error number.
pub fn io_words(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_lowercase(),
        None => text.to_lowercase(),
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
