"""Importing results files: keep the bytes, check, identify, then write all or nothing.

``import_results`` handles one file; ``ResultsImporter`` a batch, loading the players
on record once so that identification costs no query per player.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Max

from ecfgrading.formats import read_results_bytes
from ecfgrading.formats.problems import Problem
from ecfgrading.formats.results_checks import code_of_another_player, stale_submission_index
from ecfgrading.formats.results_model import PlayerEntry, ResultsFile
from ecfgrading.matching.identify import (
    Decision,
    DecisionKind,
    MatchPolicy,
    Received,
    RecordIndex,
    identify,
)
from ecfgrading.registry.models import Club, County, Submission
from ecfgrading.registry.numbering import CodesExhausted
from ecfgrading.services.people import PlayerDetails, from_entry, normalise, too_long
from ecfgrading.services.results.feedback import Feedback, Written
from ecfgrading.services.results.records import load_record_index
from ecfgrading.services.results.registry_cache import RegistryCache
from ecfgrading.services.results.write import Plan, write_plan

# What the database or the code sequence may refuse in a file that passed every check:
# the file is then rejected (and kept) like any other, and the batch goes on.
REFUSALS = (DatabaseError, ValueError, OverflowError, CodesExhausted)

Progress = Callable[[int, int, str], None]  # files done, files in all, current filename


@dataclass(frozen=True)
class ImportResult:
    submission_id: int
    accepted: bool
    feedback: Feedback


class ResultsImporter:
    """Imports files one by one, keeping one index of players on record for the batch."""

    def __init__(
        self, *, sender: str = "", user: Any = None, policy: MatchPolicy | None = None
    ) -> None:
        self.sender, self.user = sender, user
        self.policy = policy or MatchPolicy()
        self._index: RecordIndex | None = None
        self._cache: RegistryCache | None = None

    @property
    def index(self) -> RecordIndex:
        if self._index is None:
            self._index = load_record_index()
        return self._index

    def check(self, data: bytes, filename: str) -> Feedback:
        """Every problem the import would find, writing nothing at all."""
        return replace(self.plan(data, filename).feedback, checked_only=True)

    def import_file(self, data: bytes, filename: str) -> ImportResult:
        submission = store_raw(data, filename, self.sender, self.user)
        plan = self.plan(data, filename)
        feedback = replace(plan.feedback, submission_id=submission.id)
        if feedback.ok and plan.results is not None:
            try:
                written = self._write(plan, feedback, submission)
            except REFUSALS as error:  # a concurrent import, a value the database refuses
                feedback = feedback.with_problem(_conflict(plan.results, error))
            else:
                # Built once the writes are committed: a rollback reports nothing as done.
                return ImportResult(submission.id, True, feedback.accepting(written))
        reject(submission, feedback)
        return ImportResult(submission.id, False, feedback)

    def plan(self, data: bytes, filename: str) -> Plan:
        results, report = read_results_bytes(data)
        if results is None:
            return Plan(None, Feedback(filename, problems=report.problems))
        details, detail_problems = _details(results)
        decisions, found = self._identify(results)
        event = results.event
        feedback = Feedback(
            filename,
            event_code=event.code,
            event_name=event.name,
            submission_index=event.submission_index,
            problems=(*report.problems, *detail_problems, *_index_problems(results), *found),
        )
        return Plan(results, feedback, decisions, details)

    def _identify(self, results: ResultsFile) -> tuple[dict[int, Decision], list[Problem]]:
        """Each player's decision, and the problems identification found."""
        decisions: dict[int, Decision] = {}
        problems: list[Problem] = []
        for entry in results.players:
            if entry.code_text and entry.code is None:
                continue  # a malformed code is already an error of the file
            decision = identify(Received.from_entry(entry), self.index, self.policy)
            if decision.kind is DecisionKind.CODE_NAME_MISMATCH and entry.code is not None:
                holder = self.index.holder(entry.code.number)
                on_record = f"{holder.surname}, {holder.forenames}" if holder else "?"
                problems.append(code_of_another_player(entry, on_record))
            if decision.kind is DecisionKind.CREATE_WITH_CODE:
                problems.append(_code_not_on_record(entry))
            decisions[entry.pin] = decision
        return decisions, problems

    def _write(self, plan: Plan, feedback: Feedback, submission: Submission) -> Written:
        if self._cache is None:
            self._cache = RegistryCache.load()
        try:
            with transaction.atomic():
                written, created = write_plan(
                    plan, submission, self._cache, user=self.user, actor=self.sender
                )
                accept(submission, written, feedback.accepting(written))
        except Exception:
            self._cache = None  # it may hold rows the rollback removed
            raise
        for record in created:
            self.index.add(record)
        return written


def import_results(
    data: bytes, *, filename: str, sender: str = "", user: Any = None
) -> ImportResult:
    """Import one results file (the CLI and the back office call this)."""
    return ResultsImporter(sender=sender, user=user).import_file(data, filename)


def import_files(
    files: Iterable[tuple[str, bytes]],
    *,
    sender: str = "",
    user: Any = None,
    progress: Progress | None = None,
) -> list[ImportResult]:
    """Import files in order with one index of players on record."""
    importer = ResultsImporter(sender=sender, user=user)
    batch = list(files)
    results = []
    for done, (filename, data) in enumerate(batch):
        if progress:
            progress(done, len(batch), filename)
        results.append(importer.import_file(data, filename))
    if progress:
        progress(len(batch), len(batch), "")
    return results


def check_results(files: Iterable[tuple[str, bytes]]) -> list[Feedback]:
    """Check files against the rules and the database, writing nothing."""
    importer = ResultsImporter()
    return [importer.check(data, filename) for filename, data in files]


def store_raw(data: bytes, filename: str, sender: str, user: Any) -> Submission:
    """The bytes go on record first, in their own transaction: nothing is ever lost."""
    with transaction.atomic():
        return Submission.objects.create(
            raw=data,
            filename=filename,
            sha256=hashlib.sha256(data).hexdigest(),
            sender=user,
            sender_name=sender,
        )


def accept(submission: Submission, written: Written, feedback: Feedback) -> None:
    """The file is accepted with its report in one UPDATE, inside the import's transaction:
    the row holds the file's bytes, which each UPDATE rewrites, and a rollback takes the
    report with the rest."""
    submission.event_id = written.event_id
    submission.event_code = written.event_code
    submission.submission_index = feedback.submission_index
    submission.status = Submission.Status.ACCEPTED
    submission.report = feedback.as_dict()
    fields = ["event", "event_code", "submission_index", "status", "report"]
    submission.save(update_fields=fields)


def reject(submission: Submission, feedback: Feedback) -> None:
    submission.status = Submission.Status.REJECTED
    submission.event_code = feedback.event_code[:20]
    submission.submission_index = feedback.submission_index
    submission.report = feedback.as_dict()
    submission.save(update_fields=["status", "event_code", "submission_index", "report"])


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


def _index_problems(results: ResultsFile) -> list[Problem]:
    """A file must carry a higher SUBMISSION INDEX than the last one accepted."""
    event = results.event
    if not event.code or event.submission_index is None:
        return []
    last = Submission.objects.filter(
        event_code=event.code, status__in=[Submission.Status.ACCEPTED, Submission.Status.SUPERSEDED]
    ).aggregate(last=Max("submission_index"))["last"]
    if last is not None and event.submission_index <= last:
        return [stale_submission_index(event, last)]
    return []


def _code_not_on_record(entry: PlayerEntry) -> Problem:
    expected = "a grading code on record (records older than the system may lack it)"
    return Problem.make("code-not-on-record", entry.line, "ECF CODE", expected, entry.code_text)


def _conflict(results: ResultsFile, error: Exception) -> Problem:
    line = results.event.field_lines.get("EVENT CODE", results.event.line)
    expected = "a file consistent with the records (try again if two imports raced)"
    return Problem.make("import-conflict", line, "EVENT CODE", expected, str(error)[:200])
