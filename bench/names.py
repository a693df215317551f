"""Time the lookup's "did you mean" index (lookups.name_index) on synthetic national names.

    .venv/bin/python bench/names.py [--players 60000] [--samples 500] [--seed 2009]

Names are drawn as the demo draws them (demo.names: English surname frequencies, a long
tail, some foreign names). It prints the time to build the index from the rows (what a
process pays once per data token, after the query of the players' names), beside the
floor of grouping the same rows in a dict, and the p50 and p95 of a suggestion search
for a name typed with one slip (demo.names.typo), surname alone and with a forename.
No database is touched.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import django
import numpy as np

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
django.setup()

from ecfgrading.demo.names import NameMaker, typo  # noqa: E402
from ecfgrading.lookups.name_index import NameIndex  # noqa: E402
from ecfgrading.lookups.name_readings import readings  # noqa: E402
from ecfgrading.matching.names import search_key  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60_000)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2009)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    sexes = ["M" if x < 0.85 else "F" for x in rng.random(args.players)]
    names = NameMaker(rng).names(sexes, [x < 0.3 for x in rng.random(args.players)])
    rows = [
        (pk, n.surname, n.forenames, search_key(n.surname, n.forenames))
        for pk, n in enumerate(names)
    ]

    started = time.perf_counter()
    grouped: dict[str, list[tuple[int, str, str]]] = {}
    for pk, surname, forenames, key in rows:
        grouped.setdefault(key.partition(",")[0], []).append((pk, surname, forenames))
    floor = time.perf_counter() - started
    started = time.perf_counter()
    index = NameIndex(rows)
    built = time.perf_counter() - started
    print(f"{len(index):,} players, {len(grouped):,} surnames")
    print(f"build: {built * 1000:.1f} ms (grouping the rows in a dict: {floor * 1000:.1f} ms)")

    picks = rng.integers(0, len(names), args.samples).tolist()
    for label, shape in (("surname", "{s}"), ("forename surname", "{f} {s}")):
        typed = [
            shape.format(s=typo(names[pick].surname, rng), f=names[pick].forenames.split()[0])
            for pick in picks
        ]
        # First pass: each surname's forenames are sorted out when first met; second: warm.
        for when in ("first", "again"):
            times, found = [], 0
            for text in typed:
                started = time.perf_counter()
                suggested = [s for r in readings(text) for s in index.suggestions(r)]
                times.append((time.perf_counter() - started) * 1000)
                found += bool(suggested)
            p95 = statistics.quantiles(times, n=20)[-1]
            print(
                f"suggest ({label}, {when}): p50 {statistics.median(times):.2f} ms, "
                f"p95 {p95:.2f} ms; something suggested for {found} of {len(typed)}"
            )


if __name__ == "__main__":
    main()
