"""Work handed to forked processes, on a machine's other cores (issue 25).

A forked worker starts with the process's memory as it is: nothing it needs is sent,
and what it computes comes back pickled. Only where the operating system forks (Linux,
the BSDs; not Windows, and not macOS, where forking a process that holds system
frameworks is unsafe): elsewhere the work stays in the process.

Standard library only, so that every floor may use it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys


def forking_cores() -> int:
    """The cores this process may run on, where workers can be forked; else 1."""
    if sys.platform == "darwin" or "fork" not in mp.get_all_start_methods():
        return 1
    if not hasattr(os, "sched_getaffinity"):
        return 1
    return len(os.sched_getaffinity(0))


def fork_context() -> mp.context.BaseContext:
    """The multiprocessing context whose workers are forked (after ``forking_cores``)."""
    return mp.get_context("fork")
