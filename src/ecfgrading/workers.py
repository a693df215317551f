"""Work handed to forked processes, on a machine's other cores (issue 25).

A forked worker starts with the process's memory as it is: nothing it needs is sent,
and what it computes comes back pickled. Only where the operating system forks (Linux,
the BSDs; not Windows, and not macOS, where forking a process that holds system
frameworks is unsafe): elsewhere the work stays in the process.

Standard library only, so that every floor may use it.
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor


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


def forked_worker() -> ProcessPoolExecutor:
    """One forked worker process (after ``forking_cores``), which ends with this process:
    a worker left behind by an importer killed outright would hold what it inherited,
    the importer's database connection among them (on PostgreSQL, the killed importer's
    session, its transaction and its locks would then stay open). Linux signals it when
    the thread that forked it ends: fork from the thread that uses it, as importers do (a
    worker that ends early is a broken pool, and its callers read in their own process)."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=fork_context(),
        initializer=_end_with_parent,
        initargs=(os.getpid(),),
    )


_PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent ends


def _end_with_parent(parent: int) -> None:
    """In the worker, first: killed when its parent ends (Linux), or ended now if the
    parent already has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)
