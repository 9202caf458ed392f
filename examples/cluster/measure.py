"""Throughput of the cluster example against `shinpan check` on the same corpus, one machine.

    python examples/cluster/measure.py [GAMES_PER_GAME] [WORKERS]

makes a corpus (GAMES_PER_GAME random games of Hangover, Toriteban and Curtain Call, one file
each), then checks it with `shinpan check --jobs WORKERS` and with check_archive.py on a
local Dask cluster of WORKERS worker processes, and prints transcripts per second of each.
Needs the package installed (pip install ./python) and the release binary (cargo build --release).
"""

import importlib.util
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

from dask.distributed import Client, LocalCluster

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHINPAN = os.environ.get("SHINPAN_BIN", str(ROOT / "target" / "release" / "shinpan"))


def corpus(folder: pathlib.Path, games: int) -> int:
    count = 0
    for game, players in [("hangover", 4), ("torite-4to6", 4), ("curtain-call", 2)]:
        args = [SHINPAN, "play", "--rules", game, "--players", str(players), "--games", str(games), "--seed", "1"]
        for line in subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines():
            (folder / f"game-{count:07}.json").write_text(line + "\n")
            count += 1
    return count


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else os.cpu_count() or 1
    spec = importlib.util.spec_from_file_location("check_archive", ROOT / "examples" / "cluster" / "check_archive.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        total = corpus(folder, games)
        start = time.perf_counter()
        subprocess.run([SHINPAN, "check", "--format", "json", "--jobs", str(workers), str(folder)], capture_output=True)
        cli = time.perf_counter() - start
        start = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                up = time.perf_counter() - start
                result = example.check_archive(folder, io.StringIO(), client)
        print(json.dumps({
            "transcripts": total,
            "workers": workers,
            "shinpan_check_per_second": round(total / cli),
            "dask_per_second": result["transcripts_per_second"],
            "dask_cluster_start_seconds": round(up, 1),
        }, indent=2))


if __name__ == "__main__":
    main()
