"""The ``shinpan`` command: the Rust binary's command line, run inside this package's extension.

``pip install`` puts it on the PATH (``[project.scripts]`` in pyproject.toml), and
``python -m shinpan`` runs it too: every subcommand, its output and its exit code are the
binary's, since both are the same Rust function (``shinpan_cli::main_with_args``).
"""

from __future__ import annotations

import signal
import sys

from . import _shinpan


def main() -> None:
    """Runs ``shinpan`` on ``sys.argv`` and exits with its status."""
    # Rust writes to the process's own descriptors: whatever Python holds goes out first.
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    # Ctrl-C ends the command at once, as it ends the binary (Python's handler would only run
    # once the Rust call returned). A closed pipe is already the binary's: Python and Rust
    # both ignore SIGPIPE, so a write fails and the command exits 74.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    code = _shinpan.main(["shinpan", *sys.argv[1:]])
    # Python's own streams are empty, so leaving writes nothing more (even to a closed pipe).
    sys.exit(code)


if __name__ == "__main__":
    main()
