"""The cluster example (examples/cluster/check_archive.py) on a local Dask cluster of two worker
processes, over a generated corpus of three thousand games of three games, legal, illegal and
malformed: its verdicts are `shinpan check`'s, file by file and line by line."""

import collections
import importlib.util
import io
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
if os.environ.get("SHINPAN_PYTHON_TEST") != "required":
    pytest.importorskip("dask.distributed")
from dask.distributed import Client, LocalCluster  # noqa: E402

SHINPAN = os.environ.get("SHINPAN_BIN", str(ROOT / "target" / "release" / "shinpan"))


def example():
    spec = importlib.util.spec_from_file_location("check_archive", ROOT / "examples" / "cluster" / "check_archive.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shinpan_check(*args):
    out = subprocess.run([SHINPAN, "check", "--format", "json", *args], capture_output=True, text=True)
    assert out.returncode in (0, 1, 2), out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A JSON Lines archive of 3,000 games, and the same games one file each; every 7th is
    made illegal (an event dropped) and every 13th malformed (cut in the middle)."""
    root = tmp_path_factory.mktemp("corpus")
    lines = []
    for game, players in [("hangover", 4), ("torite-4to6", 4), ("curtain-call", 2)]:
        args = [SHINPAN, "play", "--rules", game, "--players", str(players), "--games", "1000", "--seed", "3"]
        played = subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()
        lines.extend(played)
    folder = root / "games"
    folder.mkdir()
    archive = []
    for i, line in enumerate(lines):
        if i % 13 == 0:
            line = line[: len(line) // 2]
        elif i % 7 == 0:
            transcript = json.loads(line)
            del transcript["events"][len(transcript["events"]) // 2]
            line = json.dumps(transcript)
        (folder / f"game-{i:05}.json").write_text(line + "\n")
        archive.append(line)
    # A line of only spaces and tabs is skipped, and a line may end in CRLF, as `--stream` reads them.
    archive.insert(10, " \t")
    archive[20] += "\r"
    (root / "games.jsonl").write_text("\n".join(archive) + "\n", newline="")
    return root


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def test_a_folder_on_the_cluster_gets_shinpan_checks_verdicts(corpus, client):
    out = io.StringIO()
    result = example().check_archive(corpus / "games", out, client, batch_size=250)
    ours = [json.loads(line) for line in out.getvalue().splitlines()]
    theirs = shinpan_check(str(corpus / "games"))
    assert len(ours) == len(theirs) == 3000
    assert {v["file"]: v for v in ours} == {v["file"]: v for v in theirs}
    counts = collections.Counter(v["verdict"] for v in theirs)
    assert result["verdicts"] == dict(sorted(counts.items()))
    assert set(counts) == {"legal", "illegal", "malformed"}, counts
    stopped = collections.Counter(x["rule"] for v in theirs for x in v.get("violations", []))
    assert result["stopped_by_rule"] == dict(sorted(stopped.items()))


def test_a_json_lines_archive_on_the_cluster(corpus, client):
    out = io.StringIO()
    example().check_archive(corpus / "games.jsonl", out, client, batch_size=400)
    ours = [json.loads(line) for line in out.getvalue().splitlines()]
    theirs = shinpan_check("--stream", str(corpus / "games.jsonl"))
    assert len(ours) == len(theirs) == 3000
    # The same verdicts, whole: names, and every line number the archive's.
    assert ours == theirs
    assert any(x["line"] > 1 for v in ours for x in v.get("violations", [])), "lines are the archive's"
