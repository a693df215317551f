"""Importing results files: keep the bytes, check, identify, then write all or nothing.

Every file is stored first, in a transaction of its own or of its turn's files. Reading
and checking it needs no database; its players are identified on the view of the
registry brought up to date (services.results.view), and written in a savepoint of its
turn's transaction (an upload's own), which holds the registry lock (services.locks),
identified again there only if what was written meanwhile concerns them. Importers take
turns of several files (importers_turn): in its turn one writes the files it prepared
and stores the next, and prepares those while another writes, or, while no other waits,
in the same transaction before its next turn (a hold, one commit). So two imports at once, or
one batch cut in two, give the players one import of the same files in the same order
would: they wait for each other, never fail for it, and never create one person twice
(docs/imports.md).
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from django.db import DatabaseError, OperationalError, transaction

from ecfgrading.collector import collect_young, collector_paused, fewer_collections
from ecfgrading.engine.codes import GradingCode
from ecfgrading.formats.problems import Problem
from ecfgrading.formats.results_checks import stale_submission_index
from ecfgrading.formats.results_model import ResultsFile
from ecfgrading.matching.identify import (
    Decision,
    DecisionKind,
    IndexChanges,
    MatchPolicy,
    Received,
    RecordIndex,
)
from ecfgrading.progress import Progress
from ecfgrading.registry.bulk import IN_CHUNK, update_one
from ecfgrading.registry.inserts import insert_instances
from ecfgrading.registry.models import AuditLog, Submission
from ecfgrading.registry.numbering import CodesExhausted
from ecfgrading.services.changes import Mark
from ecfgrading.services.errors import Conflict, NotFound
from ecfgrading.services.locks import (
    Busy,
    busy_as_error,
    busy_error,
    importers_turn,
    is_busy,
    take_registry_lock,
)
from ecfgrading.services.people import width
from ecfgrading.services.results.checks import (
    event_on_record,
    rate_problems,
    refusal_problem,
    resent_problems,
)
from ecfgrading.services.results.identifying import Identification, identify_players
from ecfgrading.services.results.import_report import ImportReport, Written
from ecfgrading.services.results.reading import (
    FileRead,
    IdentifyOn,
    ReadAhead,
    read_file,
    received_of,
    stored_event_code,
    stored_filename,
)
from ecfgrading.services.results.remembered import asked_once, recall_decisions
from ecfgrading.services.results.same_games import GameStatistics
from ecfgrading.services.results.view import RegistryView, shared_view
from ecfgrading.services.results.write import Plan, audit, games_together, write_plan

# What the database or the code sequence may refuse in a file that passed every check:
# the file is then rejected (and kept) like any other, and the batch goes on. A bare
# ValueError is not among them: it is a bug, and must show as one.
REFUSALS = (DatabaseError, OverflowError, CodesExhausted)

Told = Callable[["ImportResult"], None]  # each file's outcome, as soon as it is known


@dataclass(frozen=True)
class ImportResult:
    submission_id: int
    accepted: bool
    report: ImportReport
    already: bool = False  # the same bytes were accepted before: nothing was done


class ResultsImporter:
    """Imports files one by one against a view of the registry kept in step with it."""

    def __init__(
        self,
        *,
        sender: str = "",
        user: Any = None,
        policy: MatchPolicy | None = None,
        view: RegistryView | None = None,
    ) -> None:
        self.sender, self.user = sender, user
        self.policy = policy or MatchPolicy()
        self.view = view or RegistryView()
        self.statistics = GameStatistics()

    @property
    def index(self) -> RecordIndex:
        return self.view.index

    def identify_on(self) -> tuple[RecordIndex, MatchPolicy]:
        """What identification reads, for a process that identifies ahead (ReadAhead):
        the index brought up to date (loaded, if it was not), and the policy."""
        self.view.catch_up()
        return self.index, self.policy

    def check(self, data: bytes, filename: str, *, event_code: str = "") -> ImportReport:
        """Every problem the import would find, writing nothing at all (``event_code``:
        the event a TRF is for, which the file cannot say)."""
        self.view.catch_up()
        read = read_file(data, filename, event_code)
        return replace(self._plan(read).report, checked_only=True)

    def import_file(
        self,
        data: bytes,
        filename: str,
        *,
        before: Submission | bool | None = True,
        event_code: str = "",
    ) -> ImportResult:
        """Store and import one file; ``before`` is the submission that accepted the same
        bytes if the caller looked already (None: none did), else True to look here."""
        with importers_turn(f"{filename}: not stored, nothing was imported"):
            stored = self._store(filename, data, before, event_code)
        if isinstance(stored, ImportResult):
            return stored
        return self.import_stored(stored)

    def import_stored(self, submission: Submission) -> ImportResult:
        """Import a file already on record (just stored, or left by an interrupted run)."""
        ready = self._prepare(submission)
        with importers_turn(_not_imported(submission)):
            return self._write(ready)

    def import_many(
        self, files: Iterable[_ToStore], ahead: ReadAhead | None = None
    ) -> Iterator[ImportResult]:
        """Import (filename, bytes, before) in order, as ``import_file`` would one by one,
        a turn's worth at a time (services.locks.importers_turn). In one turn the files
        read and identified after the last turn are written and the next ones stored;
        then those are read and identified. While no other importer waits, turns follow
        each other in one transaction (_held); otherwise the next files are read and
        identified while another importer has its turn.
        ``ahead``: the next turn's files are read by another process during the turn.
        Each outcome is yielded as soon as its turn is committed: take it quickly."""
        batch = _Batch(_turns(files), ahead)
        try:
            batch.advance()
            while batch.left:
                if batch.alone:  # a hold failed: its turns written again one by one
                    yield from self._one_turn(batch)
                elif batch.busy:  # and its last turn's wait ran out: that turn's files
                    raise busy_error(_turn_not_done(batch.ready, batch.chunk))
                else:
                    yield from self._held(batch)
            if batch.broken is not None:  # the files given failed: those before written
                raise batch.broken
        finally:  # a batch cut short (Busy, a bug) leaves no watch open on a kept view
            batch.unwatch()

    def _one_turn(self, batch: _Batch) -> Iterator[ImportResult]:
        """One turn, its own commit; its next files then read and identified outside it.
        Only after a hold failed: what the failure left in cycles (its error's traceback
        holds the frames that hold it, and the rows they wrote) is collected first, the
        collector being paused over a batch (import_files)."""
        collect_young()
        batch.alone -= 1
        batch.ask()
        with importers_turn(_waiting_files(batch.ready, batch.chunk), self._refresh_of(batch)):
            results = self._write_turn(batch.ready)
            stored = self._store_turn(batch.chunk)
        self.statistics.wrote(sum(map(_games_written, batch.ready, results)))
        yield from results  # each outcome once its turn is committed
        self._next_turn(batch, stored)

    def _held(self, batch: _Batch) -> Iterator[ImportResult]:
        """Turns written back to back in one transaction, while no other importer waits
        for a turn and for HOLD_SECONDS at most: one commit for several turns (issue 25).
        Should anything fail, the whole hold is rolled back, and its turns are written
        again one by one (_one_turn) from where it started, as if never held: a file
        the database refuses rejected alone, and what a bug or a lock leaves stored and
        committed as before."""
        start, results, games = list(batch.ready), [], 0
        chunks = [batch.chunk]  # the hold's turns' files to store, for it to be written again
        batch.ask()
        with importers_turn(
            _waiting_files(batch.ready, batch.chunk), self._refresh_of(batch)
        ) as turn:
            try:
                with busy_as_error(_waiting_files(batch.ready, batch.chunk)), transaction.atomic():
                    until, locked = time.monotonic() + HOLD_SECONDS, False
                    while True:
                        locked = locked or self._locked_for(batch.ready)
                        written = self._write_held(batch.ready)
                        games += sum(map(_games_written, batch.ready, written))
                        results += written
                        stored = [self._store(*item) for item in batch.chunk]
                        turn.turns = len(chunks)
                        if turn.wanted() or time.monotonic() >= until:
                            break
                        self._next_turn(batch, stored)
                        stored = []
                        if not batch.left:
                            break
                        chunks.append(batch.chunk)
                        batch.ask()
            except Exception as error:
                self.view.drop()  # it took in what the rollback removed
                self._written_again(batch, start, chunks, busy=isinstance(error, Busy))
                return
            except BaseException:
                self.view.drop()
                raise
        self.statistics.wrote(games)
        yield from results  # each outcome once its hold is committed
        self._next_turn(batch, stored)

    def _written_again(
        self,
        batch: _Batch,
        start: list[_Ready | ImportResult],
        chunks: list[list[_ToStore]],
        *,
        busy: bool,
    ) -> None:
        """A failed hold's turns, to be written again one by one (_one_turn): its files
        stored again, and those it started with written again, identified again when
        written (_keep_current: the view was dropped). ``busy``: the lock's wait ran out
        in its last turn, which is not written again (it would wait again): once the
        turns before it are, Busy names its files (import_many), as a turn's own wait.
        The submissions it wrote are read again, as the rollback left them (_settle set
        their status on the instances: a file resumed from its submission would be taken
        for one accepted before)."""
        batch.unwatch()
        batch.written_again(start, chunks, busy)
        _as_on_record(item.submission for item in start if isinstance(item, _Ready))
        _as_on_record(on for chunk in chunks for _, _, on in chunk if isinstance(on, Submission))

    def _next_turn(self, batch: _Batch, stored: list[Submission | ImportResult]) -> None:
        """The stored files read and identified, the next ones to store taken."""
        self.view.catch_up()  # once for the turn's files, not once a file
        batch.ready = [
            self._prepare(s, caught_up=True, ahead=batch.ahead) if isinstance(s, Submission) else s
            for s in stored
        ]
        batch.advance()

    def _refresh_of(self, batch: _Batch) -> Callable[[], None]:
        return partial(self._refresh, batch.ready)

    def _locked_for(self, ready: list[_Ready | ImportResult]) -> bool:
        """The registry lock taken, for the rest of the hold, once it has files to write
        (not for a batch's first turn, which only stores: a file waits, stored, should
        the wait run out on PostgreSQL)."""
        if not any(isinstance(item, _Ready) for item in ready):
            return False
        with busy_as_error(_turn_not_imported(ready)):
            take_registry_lock()
        return True

    def _write_held(self, ready: list[_Ready | ImportResult]) -> list[ImportResult]:
        """The turn's files written in the hold's transaction, without a savepoint each
        (issue 25: SQLite copies every page a savepoint's writes touch); a file refused
        raises _TurnRefused, and the hold is written again."""
        self.view.catch_up()
        with _games_of_turn(self.view), asked_once():
            return [
                self._write(item, in_turn=True, alone=False) if isinstance(item, _Ready) else item
                for item in ready
            ]

    def _write_turn(self, ready: list[_Ready | ImportResult]) -> list[ImportResult]:
        """The turn's prepared files written in one transaction holding the registry lock.
        One commit a turn, not one a file (issue 25: a commit, and the pages it writes to
        the log, cost more than a small file's rows).

        A file refused rolls back alone and is rejected, the others stand. The files are
        first written without a savepoint each (issue 25: SQLite copies every page a
        savepoint's writes touch, a third of a season's games' insert); should one be
        refused, the whole turn is rolled back and written again, each file in a
        savepoint of its own, as if the first attempt had never been."""
        if not any(isinstance(item, _Ready) for item in ready):
            return [item for item in ready if isinstance(item, ImportResult)]
        try:
            return self._turn(ready, alone=False)
        except _TurnRefused:
            return self._turn(ready, alone=True)

    def _turn(self, ready: list[_Ready | ImportResult], *, alone: bool) -> list[ImportResult]:
        """The turn's transaction; ``alone``: each file in a savepoint of its own."""
        try:
            with busy_as_error(_turn_not_imported(ready)), transaction.atomic():
                take_registry_lock()
                self.view.catch_up()
                with nullcontext() if alone else _games_of_turn(self.view), asked_once():
                    return [
                        self._write(item, in_turn=True, alone=alone)
                        if isinstance(item, _Ready)
                        else item
                        for item in ready
                    ]
        except BaseException:
            self.view.drop()  # it took in what the rollback removed
            raise

    def _store_turn(self, chunk: list[_ToStore]) -> list[Submission | ImportResult]:
        """The turn's next files on record together, in one transaction: all of them, or
        none and an error saying so (nothing was read yet, nothing is lost)."""
        if not chunk:
            return []
        with busy_as_error(_waiting_files([], chunk)), transaction.atomic():
            return [self._store(*item) for item in chunk]

    def _refresh(self, ready: list[_Ready | ImportResult]) -> None:
        """While waiting for the turn: the view caught up with what others wrote, and
        the waiting files it concerns identified again, work the turn is then spared."""
        self.view.catch_up()
        for item in ready:
            if isinstance(item, _Ready) and item.identified is not None:
                self._keep_current(item)

    def _keep_current(self, item: _Ready) -> None:
        """The file's decisions as identification on the view now would make them: made
        again only if what the view took in since they were made concerns them."""
        assert item.identified is not None and item.read.results is not None
        changes, same_index = item.changes, item.identified.index is self.index
        if same_index and changes is not None and not item.identified.concerned(changes):
            changes.clear()  # the decisions hold for the view as it is now
            return
        earlier = item.identified if same_index and changes is not None else None
        identified = self._identify(item.read, earlier, changes)  # its watch still open
        item.unwatch()
        item.identified, item.changes = identified, identified.index.watching()

    def _store(
        self, filename: str, data: bytes, before: Submission | bool | None, event_code: str = ""
    ) -> Submission | ImportResult:
        """The file on record, or the outcome of the same bytes accepted before. Bytes
        an interrupted run stored and left waiting (``before`` received) are imported
        from that submission, not stored again: a batch run again resumes it."""
        if before is True:
            before = accepted_before(data)
        if isinstance(before, Submission):
            if before.status == Submission.Status.RECEIVED:
                return before
            return ImportResult(before.id, True, _already(before, filename), already=True)
        with busy_as_error(f"{filename}: not stored, nothing was imported"):
            return store_raw(data, filename, self.sender, self.user, event_code)

    def _prepare(
        self, submission: Submission, *, caught_up: bool = False, ahead: ReadAhead | None = None
    ) -> _Ready:
        """Read and identified on the view as it stands (``caught_up``: the caller just
        brought it up to date), no lock held; what changes the view from now on is
        watched."""
        if ahead is not None:
            read, found = ahead.read_identified(submission)
        else:
            raw = bytes(submission.raw)
            read, found = read_file(raw, submission.filename, submission.event_code), None
        read = replace(read, report=replace(read.report, submission_id=submission.id))
        if not read.report.ok or read.results is None:
            return _Ready(submission, read)
        if not caught_up:
            self.view.catch_up()
        since = None if found is None or ahead is None else ahead.changes_since_forked(self.index)
        if found is not None and since is not None:  # identified ahead: checked when written
            identified = _Identified(
                found.received, found.decisions, found.problems, self.index, self.policy
            )
            return _Ready(submission, read, identified, since)
        identified = self._identify(read)
        return _Ready(submission, read, identified, identified.index.watching())

    def _write(self, ready: _Ready, *, in_turn: bool = False, alone: bool = True) -> ImportResult:
        """Accept or reject a prepared file (in the importer's turn; ``in_turn``: inside
        the turn's transaction, which holds the lock and keeps the view current).
        ``alone`` False: in the turn's transaction without a savepoint of its own, a file
        refused or done elsewhere raises _TurnRefused, for the turn to be written again."""
        submission, read = ready.submission, ready.read
        if ready.identified is None:
            return self._reject_unlocked(submission, read)
        try:
            with busy_as_error(_not_imported(submission)):
                return self._import_locked(ready, in_turn=in_turn, alone=alone)
        except (_DoneElsewhere, *REFUSALS) as error:
            if not alone:
                raise _TurnRefused from error
            return self._refused(ready, error)
        finally:
            ready.unwatch()

    def _refused(self, ready: _Ready, error: Exception) -> ImportResult:
        """A file whose write was rolled back: done elsewhere, or refused by the database
        and rejected, the refusal its problem."""
        self.view.drop()  # it may hold rows the rollback removed
        submission, read = ready.submission, ready.read
        if isinstance(error, _DoneElsewhere):
            return _done_elsewhere(submission)
        assert read.results is not None
        report = read.report.with_problem(refusal_problem(read.results, error))
        if not reject(submission, report):
            return _done_elsewhere(submission)
        return ImportResult(submission.id, False, report)

    def _reject_unlocked(self, submission: Submission, read: FileRead) -> ImportResult:
        """A file with errors of its own: reported whole, written nowhere but its row."""
        self.view.catch_up()
        report = self._plan(read).report
        if not reject(submission, report):
            return _done_elsewhere(submission)
        return ImportResult(submission.id, False, report)

    def _import_locked(
        self, ready: _Ready, *, in_turn: bool = False, alone: bool = True
    ) -> ImportResult:
        """Write under the lock. Whether the stored file still waits (another process may
        have imported it meanwhile) is asked by the very UPDATE that accepts or rejects
        it: a file done elsewhere rolls back this transaction (_DoneElsewhere), a query
        saved on every other file.

        The players were identified before the lock (``_prepare``), on the view as it
        stood then, while others may have been writing. Under the lock the view catches
        up with what was written since, and only if that, or what this importer wrote
        meanwhile, touched a code, a surname or a similar surname of this file's players
        are they identified again: the decisions are those identification under the lock
        would make (matching.identify.IndexChanges), and the importers' serialised part
        shrinks to the writing. In a turn (``in_turn``) the transaction is a savepoint of
        the turn's, which holds the lock: no one else writes, and this importer's own
        writes are in the view already; ``alone`` False: not even a savepoint, the turn
        being rolled back whole should the file be refused (_write_turn)."""
        submission, read = ready.submission, ready.read
        assert read.results is not None and ready.identified is not None
        with transaction.atomic() if alone else nullcontext():
            if not in_turn:
                take_registry_lock()
                self.view.catch_up()
            self._keep_current(ready)
            plan = self._plan(read, ready.identified)
            if not plan.report.ok:
                if not reject(submission, plan.report):
                    raise _DoneElsewhere
                return ImportResult(submission.id, False, plan.report)
            written, touched = write_plan(
                plan, submission, self.view.cache, user=self.user, actor=self.sender
            )
            report = plan.report.accepting(written)
            if not accept(submission, written, report):
                raise _DoneElsewhere
            self.view.took(touched)
        return ImportResult(submission.id, True, report)

    def _plan(self, read: FileRead, identified: _Identified | None = None) -> Plan:
        """Identification (made now unless given) and the checks against the records."""
        results = read.results
        if results is None:
            return Plan(None, read.report)
        identified = identified or self._identify(read)
        decisions, remembered = recall_decisions(  # the team's decisions (issue 24, case 3)
            results.event.code, identified.received, identified.decisions, identified.index
        )
        read = replace(read, report=replace(read.report, remembered=remembered))
        on_record = event_on_record(results.event)
        stale, earlier = _index_problems(results, on_record.highest_index)
        problems = (
            *read.report.problems,
            *stale,
            *rate_problems(results, on_record.rate),
            *resent_problems(results, _played_by(decisions)),
            *identified.problems,
        )
        return Plan(
            results,
            replace(read.report, problems=problems),
            decisions,
            read.details,
            candidates=_candidate_names(decisions, identified.index),
            supersedes=earlier,
            event_known=on_record.known,
        )

    def _identify(
        self,
        read: FileRead,
        earlier: _Identified | None = None,
        changes: IndexChanges | None = None,
    ) -> _Identified:
        """Each player's decision on the view as it stands, and the problems found.

        ``earlier``: the file identified before on this very index, which has taken in
        ``changes`` since; only the players those concern are identified again, the
        others' decisions being what identification now would make (IndexChanges)."""
        assert read.results is not None
        found = identify_players(
            read.results, _received(read), self.index, self.policy, earlier, changes
        )
        return _Identified(found.received, found.decisions, found.problems, self.index, self.policy)


def _received(read: FileRead) -> tuple[Received | None, ...]:
    """The file's player sets as identification reads them: as read (ahead, for a
    batch), or made now for a reading that lacks them."""
    assert read.results is not None
    if len(read.received) == len(read.results.players):
        return read.received
    return received_of(read.results)


@dataclass(frozen=True)
class _Identified(Identification):
    """A file's players identified on ``index``, as it stood then."""

    index: RecordIndex
    policy: MatchPolicy

    def concerned(self, changes: IndexChanges) -> bool:
        """Whether changes to the index since could decide any player otherwise."""
        return bool(changes) and any(
            changes.concern(entry, self.decisions[pin], self.policy)
            for pin, entry in self.received.items()
        )


@dataclass
class _Ready:
    """A stored file read and, if it has no errors of its own, identified: waiting for
    its importer's turn to be written."""

    submission: Submission
    read: FileRead
    identified: _Identified | None = None
    changes: IndexChanges | None = None  # what the index took in since identification

    def unwatch(self) -> None:
        if self.identified is not None and self.changes is not None:
            self.identified.index.unwatch(self.changes)
            self.changes = None


_ToStore = tuple[str, bytes, "Submission | bool | None"]  # filename, bytes, before


@dataclass
class _Batch:
    """A batch's files on their way: the next turn's files to store (``chunk``), and
    those stored, read and identified, waiting to be written (``ready``)."""

    pending: Iterator[list[_ToStore]]
    ahead: ReadAhead | None
    chunk: list[_ToStore] = field(default_factory=list)
    ready: list[_Ready | ImportResult] = field(default_factory=list)
    again: deque[list[_ToStore]] = field(default_factory=deque)  # a failed hold's files
    alone: int = 0  # turns to write one by one, each its own commit (a hold failed)
    broken: Exception | None = None  # what the files given raised: none taken after it
    busy: bool = False  # a failed hold's last turn's wait ran out: raised after the others

    @property
    def left(self) -> bool:
        return bool(self.chunk or self.ready)

    def advance(self) -> None:
        """The next turn's files to store. What the files given raise (a file that cannot
        be read) ends them, and is raised once those before are written (import_many),
        not taken for a failed hold's."""
        if self.again:
            self.chunk = self.again.popleft()
            return
        try:
            self.chunk = next(self.pending, []) if self.broken is None else []
        except Exception as error:
            self.chunk, self.broken = [], error

    def ask(self) -> None:
        """The files to store read meanwhile by another process (not the bytes of a
        submission on record)."""
        if self.ahead is not None:
            files = self.chunk
            self.ahead.ask((n, data) for n, data, on in files if not isinstance(on, Submission))

    def written_again(
        self, start: list[_Ready | ImportResult], chunks: list[list[_ToStore]], busy: bool
    ) -> None:
        """Back to where a failed hold started: its turns to be written one by one, all
        but the last when its wait for the lock ran out (``busy``, raised then)."""
        self.ready, self.chunk, self.busy = start, chunks[0], busy
        self.alone = len(chunks) - busy
        self.again.extendleft(reversed(chunks[1:]))

    def unwatch(self) -> None:
        for item in self.ready:
            if isinstance(item, _Ready):
                item.unwatch()


# Files an importer writes in one turn, before another importer may write: enough to
# read and identify the next ones while another writes, few enough that a single upload
# waits a fraction of a second behind a national batch (a national turn writes 32 files
# in about 0.3 s). A turn is one commit, which writes to the WAL every page its rows
# changed; the players' indexes of the games change pages all over them, and a commit
# of more games writes each such page fewer times: a national demo's imports took
# 148.7 s with turns of 16 files, 134.7 s with 32 (checkpoints every 16 turns, not 8;
# services.locks.CHECKPOINT_TURNS), 139.2 s with 64, and a higher peak (issue 25).
TURN_FILES = 32
# A batch writes turn after turn in one transaction while no other importer waits for a
# turn (services.locks.Turn.wanted), for this long at most: a writer that does not take
# turns (a queue decision, a merge, a grading run) waits no longer than that. A commit
# writes to the WAL every page its turn changed, and the games' indexes change pages all
# over them again in the next turn; committing every few turns rather than every turn
# took what a national season writes to the log from 715 to 370 MB, its commits from 97
# to 11 (issue 25, bench/import_holds.py).
HOLD_SECONDS = 1.0


def _turns(files: Iterable[_ToStore]) -> Iterator[list[_ToStore]]:
    """The files a turn at a time. A file to be looked up when stored (``before`` True: a
    copy of one earlier in the batch) starts the next turn, so that it is looked up after
    that copy was written."""
    chunk: list[_ToStore] = []
    for item in files:
        if chunk and (len(chunk) == TURN_FILES or item[2] is True):
            yield chunk
            chunk = []
        chunk.append(item)
    if chunk:
        yield chunk


def _games_written(item: _Ready | ImportResult, result: ImportResult) -> int:
    """The games of a file this import accepted (none for a file accepted before)."""
    if not isinstance(item, _Ready) or not result.accepted or result.already:
        return 0
    assert item.read.results is not None  # accepted files read
    return sum(len(part.games) for part in item.read.results.parts)


def _not_imported(submission: Submission) -> str:
    return f"{submission.filename}: not imported (kept as submission {submission.id})"


def _turn_not_imported(ready: list[_Ready | ImportResult]) -> str:
    """What a turn's write has not done when the wait for the lock runs out."""
    waiting = [item.submission for item in ready if isinstance(item, _Ready)]
    return _not_imported(waiting[0]) if len(waiting) == 1 else _waiting_files(ready, [])


def _turn_not_done(ready: list[_Ready | ImportResult], chunk: list[_ToStore]) -> str:
    """What a turn has not done when the wait for the lock runs out: its files to write
    (kept, for a retry), or, a batch's first turn, its files to store."""
    if any(isinstance(item, _Ready) for item in ready):
        return _turn_not_imported(ready)
    return _waiting_files([], chunk)


def _waiting_files(ready: list[_Ready | ImportResult], chunk: list[_ToStore]) -> str:
    """What a batch has not done when the wait for its turn runs out."""
    kept = [str(item.submission.id) for item in ready if isinstance(item, _Ready)]
    said = []
    if kept:
        numbers = " ".join(kept)
        said.append(f"submissions {numbers} not imported (`ecfgrading results retry {numbers}`)")
    if chunk:
        more = f" and {len(chunk) - 1} more" if len(chunk) > 1 else ""
        said.append(f"{chunk[0][0]}{more}: not stored, nothing was imported")
    return "; ".join(said)


def _candidate_names(
    decisions: dict[int, Decision], index: RecordIndex
) -> dict[int, tuple[str, str]]:
    """Player id -> (code, name) of every candidate of a queued player, as the index has
    them (the report names them; the writer need not ask the database)."""
    names: dict[int, tuple[str, str]] = {}
    for decision in decisions.values():
        if decision.kind is not DecisionKind.PENDING:
            continue
        for player_id, _ in decision.candidates:
            record = index.record(player_id)
            if record is not None and record.code is not None:
                names[player_id] = (str(GradingCode(record.code)), record.written)
    return names


def _linked(decisions: dict[int, Decision]) -> dict[int, int]:
    """PIN -> id of the player on record each identified player is."""
    return {
        pin: d.player_id
        for pin, d in decisions.items()
        if d.kind is DecisionKind.LINK and d.player_id is not None
    }


def _played_by(decisions: dict[int, Decision]) -> dict[int, int]:
    """PIN -> the player on record each player is, or (waiting for the queue) most likely
    is: his games are found on record by who played them (same_games), and a game sent
    again with a player's surname misspelt is still the same game."""
    likely = {
        pin: d.candidates[0][0]
        for pin, d in decisions.items()
        if d.kind is DecisionKind.PENDING and d.candidates
    }
    return {**likely, **_linked(decisions)}


def import_results(
    data: bytes, *, filename: str, sender: str = "", user: Any = None, event_code: str = ""
) -> ImportResult:
    """Import one results file, or a TRF for ``event_code`` (the CLI and the back office
    call this)."""
    with shared_view() as view:
        importer = ResultsImporter(sender=sender, user=user, view=view)
        return importer.import_file(data, filename, event_code=event_code)


def import_files(
    files: Iterable[tuple[str, bytes]],
    *,
    sender: str = "",
    user: Any = None,
    progress: Progress | None = None,
    told: Told | None = None,
) -> list[ImportResult]:
    """Import files in order; ``told`` hears each outcome as soon as it is known."""
    batch = list(files)
    results: list[ImportResult] = []
    done_before = _accepted_among(data for _, data in batch)
    # The collector paused for the batch, as for a grading run: an import makes no
    # cyclic garbage (tested), and its passes over what each turn keeps for the next
    # took about 0.5 s of a national season's import (issue 25: 4-6% in pairs). The
    # batch's own reading process, forked inside, runs without it too: reading and
    # identifying make no cycles either.
    with shared_view() as view, fewer_collections(), collector_paused():
        importer = ResultsImporter(sender=sender, user=user, view=view)
        with ReadAhead(len(batch), _identify_on(importer, batch, done_before)) as ahead:
            for result in importer.import_many(_looked_up(batch, done_before), ahead):
                results.append(result)
                if progress:
                    progress(len(results), len(batch), batch[len(results) - 1][0])
                if told:
                    told(result)
    if progress:
        progress(len(batch), len(batch), "")
    return results


def _identify_on(
    importer: ResultsImporter, batch: list[tuple[str, bytes]], done_before: dict[str, Submission]
) -> IdentifyOn | None:
    """What a batch's reading process identifies on; None when every file was accepted
    before (a batch run again once done): no index loaded, no large process forked."""
    done = sum(1 for s in done_before.values() if s.status != Submission.Status.RECEIVED)
    return importer.identify_on if done < len(batch) else None


def _looked_up(
    batch: list[tuple[str, bytes]], done_before: dict[str, Submission]
) -> Iterator[_ToStore]:
    """Each file with the submission that accepted its bytes before the batch (or left
    them waiting), or True for a file the batch holds twice: the first copy may have been
    accepted meanwhile."""
    seen: set[str] = set()
    for filename, data in batch:
        sha = hashlib.sha256(data).hexdigest()
        yield filename, data, True if sha in seen else done_before.get(sha)
        seen.add(sha)


def check_results(
    files: Iterable[tuple[str, bytes]], *, event_code: str = ""
) -> list[ImportReport]:
    """Check files against the rules and the database, writing nothing (``event_code``:
    the event of a TRF among them)."""
    with shared_view() as view:
        importer = ResultsImporter(view=view)
        return [importer.check(data, name, event_code=event_code) for name, data in files]


# --- files left behind, and files sent twice -------------------------------------------


def accepted_before(data: bytes) -> Submission | None:
    """The submission that already accepted these very bytes, if any."""
    done = (Submission.Status.ACCEPTED, Submission.Status.SUPERSEDED)
    sha = hashlib.sha256(data).hexdigest()
    return Submission.objects.filter(sha256=sha, status__in=done).order_by("id").first()


def _accepted_among(files: Iterable[bytes]) -> dict[str, Submission]:
    """sha256 -> the submission that accepted those bytes, for a whole batch at once; or,
    for bytes no submission accepted, the first one an interrupted run left waiting."""
    shas = sorted({hashlib.sha256(data).hexdigest() for data in files})
    done = (Submission.Status.ACCEPTED, Submission.Status.SUPERSEDED)
    found: dict[str, Submission] = {}
    waiting: dict[str, Submission] = {}
    for start in range(0, len(shas), IN_CHUNK):
        rows = Submission.objects.filter(
            sha256__in=shas[start : start + IN_CHUNK],
            status__in=(*done, Submission.Status.RECEIVED),
        )
        for submission in rows.defer("raw").order_by("-id"):
            # The first that accepted them wins, or the first left waiting.
            chosen = found if submission.status in done else waiting
            chosen[submission.sha256] = submission
    return {**waiting, **found}


def interrupted() -> list[Submission]:
    """Files stored but never accepted or rejected: an import was killed, or is running."""
    return list(
        Submission.objects.filter(status=Submission.Status.RECEIVED)
        .defer("raw")
        .order_by("received_at", "id")
    )


def retry(submission_ids: Iterable[int], *, told: Told | None = None) -> list[ImportResult]:
    """Import stored files again that an interrupted run left ``received``."""
    results = []
    with shared_view() as view:
        importer = ResultsImporter(view=view)
        for submission in _waiting(submission_ids):
            results.append(importer.import_stored(submission))
            if told:
                told(results[-1])
    return results


def reject_waiting(submission_ids: Iterable[int], *, reason: str) -> list[Submission]:
    """Reject stored files an interrupted run left ``received`` (they stay on record)."""
    expected = "a file a grading officer wants imported"
    problem = Problem.make("withdrawn", 1, "", expected, reason or "rejected by hand")
    return [  # a file another process imported meanwhile keeps its outcome
        submission
        for submission in _waiting(submission_ids)
        if reject(submission, ImportReport(submission.filename, problems=(problem,)))
    ]


def _waiting(submission_ids: Iterable[int]) -> list[Submission]:
    ids = list(dict.fromkeys(submission_ids))
    found = Submission.objects.in_bulk(ids)
    for pk in ids:
        if pk not in found:
            raise NotFound(f"expected the number of a submission on record, got {pk}")
        if found[pk].status != Submission.Status.RECEIVED:
            raise Conflict(
                f"submission {pk} ({found[pk].filename}) is {found[pk].status}, "
                "not waiting to be imported"
            )
    return [found[pk] for pk in ids]


@contextmanager
def _games_of_turn(view: RegistryView) -> Iterator[None]:
    """The turn's games written together at its end (write.games_together), with what
    its files learnt of players on record, the view's mark moved past the notes of them
    each time some are written (no one else writes under the lock the turn holds). A
    row the database refuses then, or when reading games makes those waiting written
    (even while checking a file with errors of its own), is of no one file known: the
    turn is written again, each file in a savepoint of its own with its own games
    (_TurnRefused). A lock wait that ran out is no refusal: raised as it is, the turn's
    own Busy names its files and it is not waited for again."""
    try:
        with games_together(partial(_past_notes, view)) as waiting:
            yield
            waiting.write()
    except REFUSALS as error:
        if isinstance(error, OperationalError) and is_busy(error):
            raise
        raise _TurnRefused from error


def _past_notes(view: RegistryView, highest: int) -> None:
    view.wrote(Mark(change=highest))


class _TurnRefused(Exception):
    """A file of a turn written without savepoints was refused: the turn is rolled back
    and written again, a savepoint a file."""


class _DoneElsewhere(Exception):
    """The stored file was accepted or rejected by another process meanwhile: this
    import's writes are rolled back, and the file reported as done."""


def _done_elsewhere(submission: Submission) -> ImportResult:
    submission.refresh_from_db(fields=["status", "report"])
    accepted = submission.status in (Submission.Status.ACCEPTED, Submission.Status.SUPERSEDED)
    report = ImportReport(submission.filename, submission_id=submission.id, accepted=accepted)
    return ImportResult(submission.id, accepted, report, already=True)


def _already(before: Submission, filename: str) -> ImportReport:
    return ImportReport(
        filename,
        event_code=before.event_code,
        submission_id=before.id,
        submission_index=before.submission_index,
        accepted=True,
        already=True,
    )


def store_raw(
    data: bytes, filename: str, sender: str, user: Any, event_code: str = ""
) -> Submission:
    """The bytes go on record first, in their own transaction (or the caller's, for a
    turn's files together): nothing is ever lost. A TRF's event (chosen by its sender)
    is kept with it, since the file cannot say it."""
    with transaction.atomic(savepoint=False):
        submission = Submission(
            event_code=stored_event_code(event_code),
            raw=data,
            filename=stored_filename(filename),
            sha256=hashlib.sha256(data).hexdigest(),
            sender=user,
            sender_name=sender,
        )
        return insert_instances([submission])[0]  # no ORM statement for each of 1,500


def accept(submission: Submission, written: Written, report: ImportReport) -> bool:
    """The file is accepted with its report in one UPDATE, inside the import's transaction:
    the row holds the file's bytes, which each UPDATE rewrites, and a rollback takes the
    report with the rest. False, changing nothing, if the file no longer waits."""
    return _settle(
        submission,
        event_id=written.event_id,
        event_code=written.event_code,
        submission_index=report.submission_index,
        status=Submission.Status.ACCEPTED,
        report=report.as_dict(),
        duplicates=_duplicates(report),
    )


def _duplicates(report: ImportReport) -> str:
    """Flagged for the grading team when games of the file are on record under another
    event code (services.team.duplicates decides)."""
    if any(p.code == "games-already-received" for p in report.problems):
        return str(Submission.Duplicates.FLAGGED)
    return str(Submission.Duplicates.NONE)


def reject(submission: Submission, report: ImportReport) -> bool:
    """The file is rejected with its report (and audited); False, changing nothing, if it
    no longer waits (another process accepted or rejected it meanwhile)."""
    code = report.event_code[: width(Submission, "event_code")]
    done = _settle(
        submission,
        status=Submission.Status.REJECTED,
        event_code=code,
        submission_index=report.submission_index,
        report=report.as_dict(),
    )
    if done:
        entry = AuditLog.entry(
            "reject results",
            submission,
            user=submission.sender if submission.sender_id else None,
            actor=submission.sender_name or "import",
            event=code,
            errors=len(report.errors),
        )
        audit(entry)  # in a turn, with the turn's other files' entries, in their order
    return done


def _settle(submission: Submission, **values: Any) -> bool:
    """One UPDATE of a file still ``received``: the check that no one else imported it
    and the outcome in one statement. The instance follows only when it was done."""
    waiting = {"status": Submission.Status.RECEIVED}
    if not update_one(Submission, submission.id, values, where=waiting):
        return False
    for name, value in values.items():
        setattr(submission, name, value)
    return True


# What _settle sets on a submission, read again after a rollback (_as_on_record).
_SETTLED = ("status", "event", "event_code", "submission_index", "report", "duplicates")


def _as_on_record(submissions: Iterable[Submission]) -> None:
    for submission in submissions:
        submission.refresh_from_db(fields=_SETTLED)


def _index_problems(results: ResultsFile, last: int | None) -> tuple[list[Problem], bool]:
    """A file must carry a higher SUBMISSION INDEX than the last one accepted (``last``,
    EventOnRecord.highest_index); and whether an earlier file of the event may be there
    to supersede (False only when none was found: the writer, under the same lock, then
    has nothing to replace)."""
    event = results.event
    if not event.code or event.submission_index is None:
        return [], True
    if last is None:
        return [], False
    if event.submission_index <= last:
        return [stale_submission_index(event, last)], True
    return [], True
