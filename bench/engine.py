"""Time the list engine on synthetic national seasons (bench/federation.py).

    .venv/bin/python bench/engine.py [--sizes 20000,200000,2000000] [--repeat 3]
                                     [--rule-set-sizes 200000] [--no-reference]
                                     [--seed 2010]

For each size and rate (list 2010-07, ecf-2009) it prints the season's shape, the time
to generate it, the median time of ``compute_list(inputs)`` over ``--repeat`` runs and,
at 200,000 games, one run of the per-game reference (tests/engine/reference.py) and how
many times slower it is. Then, for each of ``--rule-set-sizes``, a standard list under
each rule set, each dated in its era (G31) and computed under the rule set of its date:
ecf-2009 (2010-07), ecf-2012 (2013-07: count back 30 games, standard X) and ecf-2015
(2016-07: whole half-years, F); these seasons carry every stored game of P1 and P2.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.inputs import ListInputs
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from federation import LIST_ID, SeasonStats, describe, national_season

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_SIZE = 200_000
# G31: a standard list in each rule set's era, July like the default 2010-07.
RULE_SET_LISTS = (ListId(2010, 7), ListId(2013, 7), ListId(2016, 7))
Compute = Callable[[ListInputs], Any]


@dataclass(frozen=True)
class Row:
    list_id: ListId
    rate: Rate
    size: int
    stats: SeasonStats
    generate: float
    engine: float | None
    reference: float | None


def load_engine() -> Compute | None:
    try:
        from ecfgrading.engine.compute import compute_list
    except ImportError as error:
        print(f"engine timing skipped: cannot import compute_list ({error})")
        return None
    return compute_list


def load_reference() -> Compute | None:
    sys.path.insert(0, str(ROOT))
    try:
        from tests.engine.reference import reference_compute
    except ImportError as error:
        print(f"reference timing skipped: cannot import reference_compute ({error})")
        return None
    return reference_compute


def timed(run: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(
    job: tuple[int, Rate, ListId],
    seed: int,
    repeat: int,
    engine: Compute | None,
    reference: Compute | None,
) -> Row:
    size, rate, list_id = job
    box: list[ListInputs] = []
    generate = timed(lambda: box.append(national_season(size, rate, seed, list_id)))
    inputs = box[0]
    engine_time = None
    if engine is not None:
        engine_time = statistics.median(timed(lambda: engine(inputs)) for _ in range(repeat))
    reference_time = None
    if reference is not None and size == REFERENCE_SIZE:
        reference_time = timed(lambda: reference(inputs))
    return Row(list_id, rate, size, describe(inputs), generate, engine_time, reference_time)


HEADER = (
    "list",
    "rule set",
    "rate",
    "games",
    "graded",
    "on record",
    "active",
    "estimated",
    "games/player",
    "generate s",
    "engine s",
    "reference s",
    "ratio",
)


def cells(row: Row) -> tuple[str, ...]:
    ratio = "-"
    if row.engine and row.reference is not None:
        ratio = f"{row.reference / row.engine:.0f}x"
    return (
        str(row.list_id),
        rules_for(row.list_id).name,
        row.rate.value,
        f"{row.size:,}",
        f"{row.stats.graded:,}",
        f"{row.stats.on_record:,}",
        f"{row.stats.active:,}",
        f"{row.stats.estimated_share:.1%}",
        f"{row.stats.games_per_player:.1f}",
        f"{row.generate:.2f}",
        "-" if row.engine is None else f"{row.engine:.3f}",
        "-" if row.reference is None else f"{row.reference:.2f}",
        ratio,
    )


def print_table(rows: list[Row]) -> None:
    lines = [HEADER, *(cells(row) for row in rows)]
    widths = [max(len(line[k]) for line in lines) for k in range(len(HEADER))]
    for n, line in enumerate(lines):
        print("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * width for width in widths))


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="20000,200000,2000000", help="games in P0, by commas")
    parser.add_argument("--repeat", type=int, default=3, help="engine runs per season (median)")
    parser.add_argument(
        "--rule-set-sizes",
        default="200000",
        help="games of the standard list timed under each rule set, by commas ('' for none)",
    )
    parser.add_argument("--no-reference", action="store_true", help="skip the slow reference")
    parser.add_argument("--seed", type=int, default=2010)
    return parser.parse_args(argv)


def sizes_of(text: str) -> list[int]:
    return [int(part.replace("_", "")) for part in text.split(",") if part.strip()]


def jobs(sizes: list[int], rule_set_sizes: list[int]) -> list[tuple[int, Rate, ListId]]:
    """Both rates of list 2010-07 at each size, then a standard list of each era."""
    found = [(size, rate, LIST_ID) for size in sizes for rate in (Rate.STANDARD, Rate.RAPID)]
    for size in rule_set_sizes:
        for list_id in RULE_SET_LISTS:
            if (size, Rate.STANDARD, list_id) not in found:
                found.append((size, Rate.STANDARD, list_id))
    return found


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    engine = load_engine()
    reference = None if args.no_reference else load_reference()
    rows = []
    for job in jobs(sizes_of(args.sizes), sizes_of(args.rule_set_sizes)):
        rows.append(measure(job, args.seed, args.repeat, engine, reference))
        size, rate, list_id = job
        print(f"  done: {rate.value} {list_id} {size:,}", file=sys.stderr, flush=True)
    print_table(rows)


if __name__ == "__main__":
    main()
