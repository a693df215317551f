"""Work done once per data token, done before a visitor asks for it (issue 23).

New data (a file imported, a list published, a player identified) makes a new data
token (``lookups.freshness``). The first lookup of a name after that builds the index of
the names on record, and the first page with a newcomer grades the next lists as the
results received so far give them: on a national federation, seconds, paid by whoever
asks first. Each served worker runs a thread that notices a new token within
``INTERVAL`` seconds and does both; the next lists are computed once for all workers
(``lookups.provisional``: the shared cache, with a lock), the names once per worker.
The newest list's files are made and kept on the server's disk too
(``lookups.list_files``): once for every worker of the server. So are the club index and
every county's team (``lookups.clubs``; issue 25): a pass over every county match, once
per worker, where each county-team page made cold took 150 ms.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import connections

from ecfgrading.lookups.clubs import warm_clubs
from ecfgrading.lookups.list_files import forget_stale, warm_files
from ecfgrading.lookups.members import warm_members
from ecfgrading.lookups.search import warm_lookups
from ecfgrading.web.deployed import site_build

INTERVAL = 2.0  # seconds between looks at the data token

log = logging.getLogger(__name__)


def start_warming() -> threading.Thread:
    """The warming thread of this process (a daemon: it ends with the process)."""
    thread = threading.Thread(target=_keep_warm, name="ecfgrading-warming", daemon=True)
    thread.start()
    return thread


def _keep_warm() -> None:
    seen = ""
    while True:
        try:
            seen = warm_once(seen)
        finally:
            connections.close_all()  # this thread's own connections, between looks
        time.sleep(INTERVAL)


def warm_once(seen: str) -> str:
    """Warm what a token other than ``seen`` needs; the token now warm (``seen`` when
    nothing could be done: the database may be down or not yet migrated)."""
    try:
        token = warm_lookups(seen)
        if token != seen:
            warm_clubs()  # the club index and every county's team (issue 25)
            warm_members()  # who is graded now, for the member lists (issue 25)
            warm_files(site_build())  # the newest list's files, made once and kept
            forget_stale(site_build())  # earlier deployments' kept files, long unused
        return token
    except Exception as error:  # a warming failure must never take a worker down
        _say_once(error)
        return seen


_said = [""]  # the last failure logged: the same one is not logged every INTERVAL


def _say_once(error: Exception) -> None:
    text = f"{type(error).__name__}: {error}"
    if text != _said[0]:
        _said[0] = text
        log.warning("warming the lookups failed (%s); the first visitor will do it", text)
