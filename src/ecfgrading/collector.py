"""Python's cycle collector, paused over work that makes no cycles (issue 25).

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
