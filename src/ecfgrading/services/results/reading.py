"""Reading a results file: all an import does that needs no database, done here or, for
a batch, ahead of the importer by a forked process on another core (issue 25); there
the file's players are also identified, on the copy of the importer's index the process
was forked with, and the importer identifies again only those whom what its index took
in since concerns (services.results.identifying, matching.identify.IndexChanges).

A file read is its records, its report so far (the reader's problems, its players'
details and values checked) and its players' details as the registry will keep them.
``read_file`` is a function of the bytes, the name and the day alone for a file read
without a TRF's event, the only files read ahead: the same arguments give the same
reading in whichever process it is made. (A TRF read for an event asks the database for
the event's next SUBMISSION INDEX and its players' FIDE ids: it is always read here.)
"""

from __future__ import annotations

import logging
import pickle
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from hashlib import sha256
from types import TracebackType

from django.utils import timezone

from ecfgrading.formats import read_results_bytes
from ecfgrading.formats.problems import Problem, printable
from ecfgrading.formats.results_model import PlayerEntry, ResultsFile
from ecfgrading.formats.trf import is_trf
from ecfgrading.matching.identify import IndexChanges, MatchPolicy, Received, RecordIndex
from ecfgrading.registry.models import Club, County, Submission
from ecfgrading.services.people import PlayerDetails, from_entry, normalise, too_long, width
from ecfgrading.services.results.checks import value_problems
from ecfgrading.services.results.identifying import Identification, identify_players
from ecfgrading.services.results.import_report import ImportReport
from ecfgrading.services.results.trf import read_trf
from ecfgrading.workers import forked_worker, forking_cores

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileRead:
    """A file read and its players' details normalised: all that needs no database."""

    results: ResultsFile | None
    report: ImportReport
    details: dict[int, PlayerDetails]
    # Each player set as identification reads it, in the order of ``results.players``;
    # None for a set whose code is malformed (an error of the file, identified by no
    # one). Made here, ahead of the importer for a batch: a season's 80,000 sets folded
    # were a twentieth of the importer's work (issue 25).
    received: tuple[Received | None, ...] = ()


def received_of(results: ResultsFile) -> tuple[Received | None, ...]:
    """``FileRead.received`` of ``results``."""
    return tuple(
        None if entry.code_text and entry.code is None else Received.from_entry(entry)
        for entry in results.players
    )


def read_file(
    data: bytes, filename: str, event_code: str = "", today: date | None = None
) -> FileRead:
    """A results file, or a TRF (by its content) for the event ``event_code``; dates are
    checked against ``today`` (the local day, if not given)."""
    results, found = read_trf(data, event_code) if is_trf(data) else read_results_bytes(data)
    if results is None:
        return FileRead(None, ImportReport(filename, problems=found.problems), {})
    details, detail_problems = _details(results)
    values = value_problems(results, today=today or timezone.localdate())
    event = results.event
    report = ImportReport(
        filename,
        event_code=printable(event.code),  # a report must be storable, whatever the file
        event_name=printable(event.name),
        submission_index=event.submission_index,
        problems=(*found.problems, *detail_problems, *values),
    )
    return FileRead(results, report, details, received_of(results))


def stored_filename(filename: str) -> str:
    """A file's name as its submission keeps it: a name from a browser may hold anything."""
    return printable(filename)[: width(Submission, "filename")]


def stored_event_code(event_code: str) -> str:
    """The event a TRF is for, as its submission keeps it."""
    return event_code.strip().upper()[: width(Submission, "event_code")]


# A batch of more files than this is read ahead by a forked process: below, forking
# costs more than it saves.
READ_AHEAD_FILES = 64

_Key = tuple[str, str, str]  # sha256 of the bytes, filename and event code, as stored
_Done = tuple[FileRead, Identification | None]  # a reading, and its players identified
IdentifyOn = Callable[[], tuple[RecordIndex, MatchPolicy]]  # the importer's index, policy


class ReadAhead:
    """A batch's files read by a forked process, in the order asked, while the importer
    writes the files before them: the importer takes each reading when it comes to the
    file (``read``), and reads here a file not asked for, or whose reading was lost with
    the process. Where no process can be forked, or for a small batch, every file is
    read here. The process is the one kept for the batches of a long run
    (``reader_kept``), else one forked for the batch: given ``identify_on``, forked once
    the importer's index is loaded, so that it identifies the files' players on a copy
    of the index as it stood then (``read_identified``). Close it when the batch ends (a
    ``with`` block)."""

    def __init__(self, files: int, identify_on: IdentifyOn | None = None) -> None:
        self._asked: dict[_Key, Future[bytes]] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._own = False
        # The index the process was forked with, and a watch open on it since.
        self._forked_with: tuple[RecordIndex, IndexChanges] | None = None
        if files > READ_AHEAD_FILES and forking_cores() > 1:
            self._own = _KEPT is None
            self._pool = _KEPT or self._forked(identify_on)

    def _forked(self, identify_on: IdentifyOn | None) -> ProcessPoolExecutor | None:
        """The batch's own process, forked now: holding the importer's index, if given,
        with a watch opened on it at the same moment."""
        global _IDENTIFYING
        if identify_on is None:
            return forked_worker()
        index, policy = identify_on()
        pool = forked_worker()
        _IDENTIFYING = (index, policy)
        try:
            pool.submit(int).result()  # forked here, with the index as it stands
        except Exception as error:  # no process to be had (out of memory): read here
            log.warning("no reading process: %r", error)
            pool.shutdown(wait=False, cancel_futures=True)
            return None
        except BaseException:  # interrupted: no process left behind
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            _IDENTIFYING = None
        self._forked_with = (index, index.watching())
        return pool

    def ask(self, files: Iterable[tuple[str, bytes]]) -> None:
        """Start reading these (filename, bytes), as they will be stored (no TRF's event:
        a batch gives none)."""
        today = timezone.localdate()  # this process's, not the one it had when forked
        for filename, data in files:
            if self._pool is None:
                return
            name = stored_filename(filename)
            key = (sha256(data).hexdigest(), name, "")
            if key in self._asked:
                continue
            try:
                self._asked[key] = self._pool.submit(_read_there, data, name, today)
            except BrokenProcessPool:  # a kept process that died: read here from now on
                self.close()

    def read(self, submission: Submission) -> FileRead:
        """The stored file's reading: made ahead if it was asked for, else now."""
        return self.read_identified(submission)[0]

    def read_identified(self, submission: Submission) -> _Done:
        """The stored file's reading, and its players as identified ahead (None: not
        identified there, as for a file with errors of its own or one read here)."""
        key = (submission.sha256, submission.filename, submission.event_code)
        asked = self._asked.pop(key, None)
        if asked is not None:
            try:
                done: _Done = pickle.loads(asked.result())
                return done
            except Exception as error:  # it died (killed, out of memory), or could not send
                log.warning("%s read here: the reading process failed (%r)", key[1], error)
                self.close()  # a bug of the reader shows again, raised here
        raw = bytes(submission.raw)
        return read_file(raw, submission.filename, submission.event_code), None

    def changes_since_forked(self, index: RecordIndex) -> IndexChanges | None:
        """A watch of what ``index`` took in since the process was forked with it, for a
        file identified there; None if the process holds another index (the importer's
        was dropped and loaded again meanwhile), whose decisions are then not taken."""
        if self._forked_with is None:
            return None
        forked, since = self._forked_with
        if forked is not index:  # nor any later: the old index is let go
            forked.unwatch(since)
            self._forked_with = None
            return None
        return index.watching_since(since)

    def close(self) -> None:
        """Readings not taken are dropped, and the batch's own process ends."""
        pool, self._pool = self._pool, None
        for asked in self._asked.values():
            asked.cancel()
        self._asked.clear()
        if self._forked_with is not None:
            index, since = self._forked_with
            index.unwatch(since)
            self._forked_with = None
        if pool is not None and self._own:
            pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> ReadAhead:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


# The reading process kept for the batches of a long run (reader_kept).
_KEPT: ProcessPoolExecutor | None = None
# In a batch's own reading process: the importer's index as it stood when forked, and
# its policy (ReadAhead._forked); None in the importer, and in a kept process.
_IDENTIFYING: tuple[RecordIndex, MatchPolicy] | None = None


@contextmanager
def reader_kept() -> Iterator[None]:
    """One reading process for every batch imported in the block, forked now: a long run
    of batches (the demo's, 20 of them) forks once, while this process is still small,
    and not once a batch from a process grown large, whose every page written then is
    copied (0.25 s for 500 MB, measured). Nothing where no process can be forked, or
    inside another such block."""
    global _KEPT
    if _KEPT is not None or forking_cores() < 2:
        yield
        return
    pool = forked_worker()
    try:
        pool.submit(int).result()  # forked now, not at the first batch
        _KEPT = pool
    except Exception as error:  # no process to be had (out of memory): each batch forks
        log.warning("no reading process kept: %r", error)
    try:
        yield
    finally:
        _KEPT = None
        pool.shutdown(wait=True, cancel_futures=True)


def _read_there(data: bytes, filename: str, today: date) -> bytes:
    """In the forked process: ``read_file`` of a file without a TRF's event (which
    asks nothing of the database), named where that process finds it; and its players
    identified on the index it was forked with, if any, when the file has no errors of
    its own (the files the importer identifies). Sent pickled here, to be unpickled by
    the importer when it takes the reading, not by the pool's thread as it arrives."""
    read = read_file(data, filename, "", today)
    done: _Done
    if _IDENTIFYING is None or read.results is None or not read.report.ok:
        done = read, None
    else:
        index, policy = _IDENTIFYING
        done = read, identify_players(read.results, read.received, index, policy)
    return pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL)


def _details(results: ResultsFile) -> tuple[dict[int, PlayerDetails], list[Problem]]:
    """Each player's details as the registry will keep them, and their problems.

    A set with no name at all was reported by the reader; it is not reported again (a
    NAME such as ', Joe', with no surname, is ours to report).
    """
    details: dict[int, PlayerDetails] = {}
    problems: list[Problem] = []
    for entry in results.players:
        details[entry.pin], found = normalise(from_entry(entry))
        problems += (p for p in found if entry.full_name or p.code != "missing-name")
        problems += _club_problems(entry)
    return details, problems


def _club_problems(entry: PlayerEntry) -> Iterator[Problem]:
    """A club or county name wider than the registry stores (the same rule as a name's)."""
    texts = (
        ("CLUB NAME", Club._meta.get_field("name"), entry.club_name.strip()),
        ("CLUB COUNTY", County._meta.get_field("name"), entry.club_county.strip()),
    )
    for label, column, text in texts:
        if problem := too_long(entry.line, label, column, text):
            yield problem
