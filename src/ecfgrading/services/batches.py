"""What a batch of a season's files or a national list needs of the interpreter."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# A batch allocates millions of short-lived objects beside long-lived ones (the view of
# the registry, a list's players); Python's default cycle collection (every 700
# allocations) then walks them again and again, a tenth of the batch's time at national
# size. Objects here rarely form cycles, and reference counting frees them either way.
BATCH_GC_THRESHOLD = 50_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect cyclic garbage less often for the span of a batch, then as before."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], BATCH_GC_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
