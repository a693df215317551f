"""What the cycle collector finds unreachable, kept to be named: for the tests that hold
work to making no reference cycles (ecfgrading.collector, issue 25)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def garbage_kept() -> Iterator[list[Any]]:
    """``gc.garbage``, in which every pass made inside the block keeps what it found
    unreachable (``gc.DEBUG_SAVEALL``), from a collection made first; emptied after."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
