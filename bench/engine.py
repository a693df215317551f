"""Time the list engine on synthetic national seasons (bench/federation.py).

    .venv/bin/python bench/engine.py [--sizes 20000,200000,2000000] [--repeat 3]
                                     [--no-reference] [--seed 2010]

For each size and rate it prints the season's shape, the time to generate it, the
median time of ``compute_list(inputs)`` over ``--repeat`` runs and, at 200,000 games,
one run of the per-game reference (tests/engine/reference.py) and how many times
slower it is.
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

from ecfgrading.engine.inputs import ListInputs
from ecfgrading.engine.types import Rate
from federation import SeasonStats, describe, national_season

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_SIZE = 200_000
Compute = Callable[[ListInputs], Any]


@dataclass(frozen=True)
class Row:
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
    size: int,
    rate: Rate,
    seed: int,
    repeat: int,
    engine: Compute | None,
    reference: Compute | None,
) -> Row:
    box: list[ListInputs] = []
    generate = timed(lambda: box.append(national_season(size, rate, seed)))
    inputs = box[0]
    engine_time = None
    if engine is not None:
        engine_time = statistics.median(timed(lambda: engine(inputs)) for _ in range(repeat))
    reference_time = None
    if reference is not None and size == REFERENCE_SIZE:
        reference_time = timed(lambda: reference(inputs))
    return Row(rate, size, describe(inputs), generate, engine_time, reference_time)


HEADER = (
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
    parser.add_argument("--no-reference", action="store_true", help="skip the slow reference")
    parser.add_argument("--seed", type=int, default=2010)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    sizes = [int(text.replace("_", "")) for text in args.sizes.split(",") if text.strip()]
    engine = load_engine()
    reference = None if args.no_reference else load_reference()
    rows = []
    for size in sizes:
        for rate in (Rate.STANDARD, Rate.RAPID):
            rows.append(measure(size, rate, args.seed, args.repeat, engine, reference))
            print(f"  done: {rate.value} {size:,}", file=sys.stderr, flush=True)
    print_table(rows)


if __name__ == "__main__":
    main()
