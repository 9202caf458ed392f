"""Check an archive of transcripts on a Dask cluster with the shinpan Python package.

The archive is a folder of transcript files (.yaml, .yml, .json) or a JSON Lines file (one
transcript a line, as `shinpan play --games N` writes). It is cut into batches; each batch is
a task that a worker checks with `shinpan.check_paths` or `shinpan.check_texts`, and a worker
compiles each game's rules once, the first time a transcript names it, then keeps them. The
verdicts are written as JSON Lines in the order of the archive, then a summary: how many
transcripts got each verdict, and how many were stopped by each rule.

    python examples/cluster/check_archive.py ARCHIVE --out verdicts.jsonl            # a local cluster
    python examples/cluster/check_archive.py ARCHIVE --scheduler tcp://host:8786 ...  # a running one

On a real cluster the workers must see the archive at the same path (a shared file system)
for a folder; a JSON Lines archive is read here and its lines sent with the tasks.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import sys
import time
from collections.abc import Iterator

from dask.distributed import Client, LocalCluster

SUFFIXES = {".yaml", ".yml", ".json"}


def check_batch(kind: str, items: list) -> list[dict]:
    """A task: the verdicts on one batch, checked on the worker's own thread."""
    import shinpan

    if kind == "paths":
        return list(shinpan.check_paths(items, jobs=1))
    return list(shinpan.check_texts(items, jobs=1))


def batches(archive: pathlib.Path, size: int) -> Iterator[tuple[str, list]]:
    """The archive as tasks' inputs: paths of a folder (sorted, as `shinpan check` orders a
    folder) or lines of a JSON Lines file, named `ARCHIVE#LINE` and numbered by the archive's
    lines, as `check --stream` names and numbers them."""
    if archive.is_dir():
        paths = sorted(str(p) for p in archive.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        for i in range(0, len(paths), size):
            yield "paths", paths[i : i + size]
        return
    batch: list[tuple[str, str, int]] = []
    with archive.open(encoding="utf-8", newline="") as lines:
        for number, line in enumerate(lines, start=1):
            # As `check --stream`: the line without its end, skipped when only spaces and tabs.
            line = line.removesuffix("\n").removesuffix("\r")
            if line.strip(" \t"):
                batch.append((f"{archive}#{number}", line, number))
            if len(batch) == size:
                yield "texts", batch
                batch = []
    if batch:
        yield "texts", batch


def summary(verdicts: collections.Counter, rules: collections.Counter, seconds: float) -> dict:
    total = sum(verdicts.values())
    return {
        "transcripts": total,
        "verdicts": dict(sorted(verdicts.items())),
        "stopped_by_rule": dict(sorted(rules.items())),
        "seconds": round(seconds, 3),
        "transcripts_per_second": round(total / seconds) if seconds else None,
    }


def check_archive(archive: pathlib.Path, out, client: Client, batch_size: int = 500) -> dict:
    """Checks `archive` on `client`'s workers, writes the verdicts to `out` in order, and
    gives the summary. At most four batches per worker are in flight, so the memory this
    takes stays the same however large the archive."""
    start = time.perf_counter()
    window = 4 * max(1, len(client.scheduler_info()["workers"]))
    verdicts: collections.Counter = collections.Counter()
    rules: collections.Counter = collections.Counter()

    def write(future) -> None:
        for verdict in future.result():
            out.write(json.dumps(verdict) + "\n")
            verdicts[verdict["verdict"]] += 1
            for violation in verdict.get("violations", []):
                rules[violation["rule"]] += 1
        future.release()

    in_flight: collections.deque = collections.deque()
    for kind, items in batches(archive, batch_size):
        in_flight.append(client.submit(check_batch, kind, items, pure=False))
        if len(in_flight) >= window:
            write(in_flight.popleft())
    while in_flight:
        write(in_flight.popleft())
    return summary(verdicts, rules, time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", type=pathlib.Path, help="a folder of transcripts or a JSON Lines file")
    parser.add_argument("--out", type=pathlib.Path, required=True, help="where the verdicts go (JSON Lines)")
    parser.add_argument("--scheduler", help="the address of a running Dask scheduler (default: a local cluster)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes of a local cluster")
    parser.add_argument("--batch", type=int, default=500, help="transcripts per task")
    args = parser.parse_args()
    if not args.archive.exists():
        print(f"check_archive: {args.archive} does not exist", file=sys.stderr)
        return 64
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    with client, args.out.open("w", encoding="utf-8") as out:
        result = check_archive(args.archive, out, client, args.batch)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
