"""The ``shinpan`` command the wheel installs, and ``python -m shinpan``: the Rust binary's
command line (``SHINPAN_BIN``, this build's; skipped where there is none), output, error and
exit code alike. ``crates/cli/tests/python.rs`` runs the same from a fresh virtual environment,
with a closed pipe and Ctrl-C."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SHINPAN_BIN", str(ROOT / "target" / "release" / "shinpan"))
SCRIPT = pathlib.Path(sys.executable).parent / "shinpan"

if not pathlib.Path(BINARY).exists():
    pytest.skip(f"no shinpan binary at {BINARY} to compare with", allow_module_level=True)

RUNS = {
    "script": [str(SCRIPT)],
    "module": [sys.executable, "-m", "shinpan"],
}


def run(command, args, stdin=""):
    done = subprocess.run(command + args, input=stdin, capture_output=True, text=True, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("how", sorted(RUNS))
@pytest.mark.parametrize(
    "args",
    [
        ["check", "fixtures/demo/"],
        ["check", "--format", "human", "fixtures/hangover/must-follow.yaml"],
        ["check", "fixtures/malformed/"],
        ["check", "--bogus"],
        ["explain", "must-follow", "--rules", "hangover"],
        ["play", "--rules", "hangover", "--players", "4", "--seed", "9", "--games", "3"],
        ["play", "--rules", "hangover", "--players", "4", "--games", "3", "--stats", "--format", "json", "--seed", "x"],
    ],
    ids=lambda a: " ".join(a),
)
def test_the_command_is_the_binary(how, args):
    assert SCRIPT.exists() or how != "script", "pip put no shinpan script beside this Python"
    assert run(RUNS[how], args) == run([BINARY], args)


def test_the_demo_exits_1_with_six_verdicts():
    code, out, _ = run(RUNS["script"], ["check", "fixtures/demo/"])
    assert (code, len(out.splitlines())) == (1, 6)


def test_a_stream_on_standard_input():
    game = '{"rules": "hangover", "players": ["a", "b", "c"], "events": []}'
    stream = "\n".join([game, "not json: [", game]) + "\n"
    got = run(RUNS["module"], ["check", "--stream", "-"], stream)
    assert got == run([BINARY], ["check", "--stream", "-"], stream)
    assert got[0] == 2 and len(got[1].splitlines()) == 3


def test_the_script_is_on_the_path_of_the_environment():
    assert shutil.which("shinpan", path=str(SCRIPT.parent)) == str(SCRIPT)
