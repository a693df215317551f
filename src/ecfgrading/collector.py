"""Python's cycle collector, paused over work that makes no cycles and held back over a
batch (issue 25).

Reading a results file, a grading run and a publication make millions of short-lived
records and rows, which reference counts free as they go; each one counted towards the
collector's next pass, and its passes over the long-lived objects of the process (a
demo's federation, an import's index) took from a quarter of the time of reading a season
to 15-40% of a national grading run's. The few cycles such work makes wait for the next
pass after it.

Standard library only, so that every floor (formats, services) may use it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off for the block, and on again after, whatever happened; left alone
    if something else turned it off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def collect_young() -> None:
    """The cycles a failure's exceptions leave (a traceback holds its frames, which hold
    it, and they the rows they were writing) collected now, not when a pause ends: the
    youngest generation, which while the collector is paused holds everything made
    since the last pass (a batch's first call walks all the batch holds)."""
    gc.collect(0)


# A batch allocates millions of short-lived objects beside long-lived ones (the view of
# the registry, a list's players); Python's default cycle collection (every 700
# allocations) then walks them again and again, a tenth of the batch's time at national
# size. Objects here rarely form cycles, and reference counting frees them either way.
BATCH_GC_THRESHOLD = 50_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect cyclic garbage less often for the span of a batch, and never walk what was
    alive before it; then as before.

    What was alive when the batch began is frozen (``gc.freeze``) until it ends: the
    collector's full passes walked every object of the process each time, and in the
    demo, beside its federation and earlier seasons' view of the registry, 51 of them
    took 22 s of a national build (issue 25, measured). Objects the batch makes are
    collected as before. Left alone if something else froze objects already (a server
    that froze its start-up objects before forking keeps them frozen)."""
    before = gc.get_threshold()
    freeze = gc.get_freeze_count() == 0
    gc.set_threshold(max(before[0], BATCH_GC_THRESHOLD), *before[1:])
    if freeze:
        gc.freeze()
    try:
        yield
    finally:
        if freeze:
            gc.unfreeze()
        gc.set_threshold(*before)
