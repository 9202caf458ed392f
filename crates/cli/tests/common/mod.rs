//! What the integration tests share: running the binary, a scratch folder, and whether the
//! browser is there.
#![allow(dead_code, clippy::unwrap_used, clippy::panic, reason = "each test file uses a part; tests fail loudly")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository's folder (where `fixtures/`, `specs/` and `docs/` are), whichever package's
/// tests ask: the engine's at the root, the command line's in `crates/cli`.
pub fn repo() -> &'static Path {
    static REPO: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    REPO.get_or_init(|| {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let found = here.ancestors().find(|p| p.join("specs").is_dir() && p.join("fixtures").is_dir());
        std::fs::canonicalize(found.unwrap_or(here)).unwrap()
    })
}

/// The built `shinpan` (the command line's tests only), run in the repository's folder.
pub fn bin() -> Command {
    let mut c = Command::new(exe());
    c.current_dir(repo());
    c
}

/// The path of the built `shinpan`: cargo names it to the command line's tests.
pub fn exe() -> &'static str {
    option_env!("CARGO_BIN_EXE_shinpan").unwrap_or_else(|| panic!("only the command line's tests run the binary"))
}

/// Runs a command with nothing on standard input: its exit code, standard output and error.
pub fn run(c: &mut Command) -> (i32, String, String) {
    let out = c.stdin(Stdio::null()).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// A fresh directory under the system's temporary one, removed when dropped. Its name holds
/// the test binary's process id: each binary's tests name their folders apart.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("shinpan-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The path of `name` in the folder (which need not exist).
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }

    /// Writes `text` as `name` (its folders made), and gives its path.
    pub fn write(&self, name: &str, text: &str) -> String {
        let path = self.made_room_for(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A copy of a file of the repository, as `name`.
    pub fn copy(&self, from: &str, name: &str) -> String {
        self.write(name, &std::fs::read_to_string(repo().join(from)).unwrap())
    }

    /// A link `name` to `target`.
    pub fn link(&self, target: &str, name: &str) -> String {
        let path = self.made_room_for(name);
        std::os::unix::fs::symlink(target, &path).unwrap();
        path
    }

    /// A named pipe `name`.
    pub fn fifo(&self, name: &str) -> String {
        let path = self.made_room_for(name);
        assert!(Command::new("mkfifo").arg(&path).status().unwrap().success());
        path
    }

    fn made_room_for(&self, name: &str) -> String {
        let path = self.path(name);
        if let Some(dir) = Path::new(&path).parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Debian's chromium, or the one `CHROMIUM` names.
pub fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// Whether a browser test can run: chromium and playwright-core are there. Where they are not,
/// the test says it is skipped where a person sees it, and fails instead when CI requires it
/// (`.ci/run` installs both and sets SHINPAN_BROWSER_TEST=required).
pub fn browser_ready() -> bool {
    let driver = repo().join("tests/browser");
    if chromium().exists() && driver.join("node_modules/playwright-core").exists() {
        return true;
    }
    assert!(
        std::env::var("SHINPAN_BROWSER_TEST").as_deref() != Ok("required"),
        "the browser test needs {} and `npm ci --prefix tests/browser`",
        chromium().display()
    );
    say_skipped("no chromium or playwright-core (apt install chromium; npm ci --prefix tests/browser)");
    false
}

/// Says that a test is skipped where a person running `cargo test` sees it: written straight to
/// the process's standard error, which the test harness leaves alone (it keeps what
/// `eprintln!` writes, and shows it only for a test that fails).
pub fn say_skipped(why: &str) {
    use std::io::Write;
    // Nothing to do if standard error is closed: the test goes on as skipped.
    let _ = writeln!(std::io::stderr().lock(), "skipped: {why}");
}
