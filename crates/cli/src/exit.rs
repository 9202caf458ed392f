//! The exit statuses, one name each (ruff's `ExitStatus`); a run ends with the worst.

use shinpan::Verdict;

/// What a command ends with. Ordered from best to worst, so a run over many files exits with
/// the `max` of theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// 0: every transcript legal, every file fine.
    Success,
    /// 1: some transcript illegal (none malformed), or a file `fmt --check` would change.
    Findings,
    /// 2: some transcript malformed, a rules file with errors, a file that cannot be read.
    Errors,
    /// 64 (sysexits' EX_USAGE): the command line asks for something that cannot be.
    Usage,
    /// 70 (EX_SOFTWARE): shinpan failed inside.
    Internal,
    /// 74 (EX_IOERR): the output could not be written (a full disk, a closed pipe).
    WriteFailed,
}

impl ExitStatus {
    /// The status of one verdict.
    pub fn of(verdict: Verdict) -> ExitStatus {
        match verdict {
            Verdict::Legal => ExitStatus::Success,
            Verdict::Illegal => ExitStatus::Findings,
            Verdict::Malformed => ExitStatus::Errors,
        }
    }

    /// The language server's status: 0 after a `shutdown` request, 1 without one (as the
    /// protocol asks), 74 when its answers could not be written.
    pub fn of_language_server(code: u8) -> ExitStatus {
        match code {
            0 => ExitStatus::Success,
            74 => ExitStatus::WriteFailed,
            _ => ExitStatus::Findings,
        }
    }

    /// `Success` when `written`, else `WriteFailed`.
    pub fn written(written: bool) -> ExitStatus {
        if written { ExitStatus::Success } else { ExitStatus::WriteFailed }
    }

    /// The process's exit code.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Findings => 1,
            ExitStatus::Errors => 2,
            ExitStatus::Usage => 64,
            ExitStatus::Internal => 70,
            ExitStatus::WriteFailed => 74,
        }
    }
}
