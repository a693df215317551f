"""What a season's import commits, writes and reads, for holds of several lengths.

    .venv/bin/python bench/import_holds.py --season-dir DIR [--holds 0,0.5,1,2,batch]

A batch writes turn after turn in one transaction while no other importer waits, for
``services.results.ingest.HOLD_SECONDS`` at most (docs/imports.md). For each hold length
(``batch``: the whole batch in one hold, the floor of this bench), in a child process of
its own on a fresh ECFGRADING_HOME (SQLite): ``migrate``, the season's starting list, then
every file of the season (``bench/ingest.py --season-dir DIR`` writes them) by
``import_files``, with the hold set. Printed for each: the commits and the time they took,
the bytes the importer wrote and read through the kernel (``/proc/self/io``: the log's
pages, and pages read again from the OS), its system CPU, and its wall clock, with the
ratio of each to the floor's. The byte counts do not swing with the machine's speed;
the times do (docs/benchmarks.md). Nothing asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from season_db import season_files, starting_list  # bench/, beside this script

MARK = "HOLD-RESULT "


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--season-dir", type=Path, required=True)
    parser.add_argument("--holds", default="0,0.5,1,2,batch")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child's hold
    args = parser.parse_args(argv)
    if args.one is not None:
        print(MARK + json.dumps(_one(args.season_dir, args.one)))
        return
    runs = [(hold, _child(args.season_dir, hold)) for hold in args.holds.split(",")]
    _print(runs, dict(runs).get("batch"))


def _child(season: Path, hold: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as home:
        done = subprocess.run(
            [sys.executable, __file__, "--season-dir", str(season), "--one", hold],
            env={**os.environ, "ECFGRADING_HOME": home},
            capture_output=True,
            text=True,
            check=True,
        )
    line = next(line for line in done.stdout.splitlines() if line.startswith(MARK))
    figures: dict[str, Any] = json.loads(line.removeprefix(MARK))
    return figures


def _one(season: Path, hold: str) -> dict[str, Any]:
    """The import in this process, its commits counted and timed, its I/O read."""
    starting_list(season)
    from django.db import connection

    from ecfgrading.services.results import import_files, ingest

    files = season_files(season)
    ingest.HOLD_SECONDS = float("inf") if hold == "batch" else float(hold)
    commits = [0, 0.0]
    plain = connection.commit

    def commit() -> None:
        started = time.perf_counter()
        plain()
        commits[0] += 1
        commits[1] += time.perf_counter() - started

    connection.commit = commit  # type: ignore[method-assign]
    io, usage, started = _io(), resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    results = import_files(files, sender="bench")
    wall = time.perf_counter() - started
    after, used = _io(), resource.getrusage(resource.RUSAGE_SELF)
    return {
        "accepted": sum(result.accepted for result in results),
        "files": len(files),
        "commits": commits[0],
        "commit_seconds": commits[1],
        "written": after["wchar"] - io["wchar"],
        "read": after["rchar"] - io["rchar"],
        "system": used.ru_stime - usage.ru_stime,
        "wall": wall,
    }


def _io() -> dict[str, int]:
    """This process's I/O counts (Linux): bytes through read and write calls."""
    lines = Path("/proc/self/io").read_text(encoding="ascii").splitlines()
    return {key: int(value) for key, _, value in (line.partition(": ") for line in lines)}


def _print(runs: list[tuple[str, dict[str, Any]]], floor: dict[str, Any] | None) -> None:
    print(
        f"{'hold (s)':>9} {'files':>11} {'commits':>8} {'their time':>11} "
        f"{'written':>16} {'read':>16} {'system CPU':>11} {'wall':>14}"
    )
    base = floor or {}
    for hold, run in runs:
        print(
            f"{hold:>9} {run['accepted']:>5,}/{run['files']:<5,} {run['commits']:>8,} "
            f"{run['commit_seconds']:>10.2f}s "
            f"{_beside(run['written'] / 1e6, base.get('written', 0) / 1e6, 'MB'):>16} "
            f"{_beside(run['read'] / 1e6, base.get('read', 0) / 1e6, 'MB'):>16} "
            f"{run['system']:>10.2f}s "
            f"{_beside(run['wall'], base.get('wall', 0), 's'):>14}"
        )
    if floor is not None:
        print("(x: against the whole batch in one hold, its floor, measured above)")


def _beside(value: float, floor: float, unit: str) -> str:
    shown = f"{value:,.0f} {unit}" if unit == "MB" else f"{value:.2f} {unit}"
    return f"{shown} {value / floor:.1f}x" if floor else shown


if __name__ == "__main__":
    main()
