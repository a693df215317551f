"""The first files of a season imported in one process, for valgrind to count its instructions.

    ECFGRADING_HOME=$(mktemp -d) PYTHONHASHSEED=0 \\
        valgrind --tool=callgrind --callgrind-out-file=OUT \\
        .venv/bin/python bench/import_instructions.py --season-dir DIR --files 300

The machine's speed swings by a fifth within half an hour (docs/benchmarks.md), so that no
pair of wall clocks decides a change of a few percent. Instructions counted do not swing:
the same code on the same files counts the same, whatever else the machine is doing
(``valgrind --tool=callgrind``, about 50 times slower). Two trees compare by running this
script with each first on PYTHONPATH; the import's own count is the total less that of
the same run with ``--files 0`` (migrate and the starting list alone), run with the same
tree.

In a fresh ECFGRADING_HOME (SQLite): ``migrate``, the season's starting list, then the
season's first ``--files`` files (``bench/ingest.py --season-dir DIR`` writes them) by
``import_files``, one batch, read in this process rather than ahead by a forked one, so
that one process holds every instruction, its holds of turns made ``--slower`` times
longer, as valgrind makes the import. Prints the files accepted; nothing asserted.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from season_db import season_files, starting_list  # bench/, beside this script


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--season-dir", type=Path, required=True)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument(
        "--read-ahead",
        action="store_true",
        help="read (and identify) ahead in a forked process, as a batch does: count the "
        "importer's own instructions with valgrind's --callgrind-out-file=OUT.%%p",
    )
    parser.add_argument(
        "--slower",
        type=float,
        default=50.0,
        help="how many times slower valgrind runs: a hold of turns lasts that much longer",
    )
    args = parser.parse_args(argv)
    starting_list(args.season_dir)
    from ecfgrading.services.results import import_files, ingest, reading

    files = season_files(args.season_dir, args.files)
    if not args.read_ahead:
        reading.READ_AHEAD_FILES = len(files) + 1  # read here: one process counted
    # A hold of turns (ingest.HOLD_SECONDS) is a time: under valgrind it would end after
    # a fraction of a turn, so that the count would be of commits made every turn.
    hold = getattr(ingest, "HOLD_SECONDS", 0.0)  # an older tree may have none
    ingest.HOLD_SECONDS = hold * args.slower  # type: ignore[attr-defined]
    results = import_files(files, sender="bench") if files else []
    print(f"{sum(result.accepted for result in results)} of {len(files)} files accepted")


if __name__ == "__main__":
    main()
