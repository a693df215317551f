"""Importing results files: keep the bytes, check, identify, then write all or nothing.

``import_results`` handles one file; ``ResultsImporter`` a batch, loading the players
on record once so that identification costs no query per player.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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
from ecfgrading.registry.models import Submission
from ecfgrading.registry.numbering import CodesExhausted
from ecfgrading.services.results.feedback import Feedback
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
        feedback = self.plan(data, filename).feedback
        feedback.checked_only = True
        return feedback

    def import_file(self, data: bytes, filename: str) -> ImportResult:
        submission = store_raw(data, filename, self.sender, self.user)
        plan = self.plan(data, filename)
        plan.feedback.submission_id = submission.id
        if plan.feedback.ok and plan.results is not None:
            try:
                self._write(plan, submission)
                return ImportResult(submission.id, True, plan.feedback)
            except REFUSALS as error:  # a concurrent import, a value the database refuses
                plan.feedback.forget_writes()
                plan.feedback.problems.append(_conflict(plan.results, error))
        reject(submission, plan.feedback)
        return ImportResult(submission.id, False, plan.feedback)

    def plan(self, data: bytes, filename: str) -> Plan:
        results, report = read_results_bytes(data)
        feedback = Feedback(filename, problems=list(report.problems))
        plan = Plan(results, feedback)
        if results is not None:
            event = results.event
            feedback.event_code, feedback.event_name = event.code, event.name
            feedback.submission_index = event.submission_index
            feedback.problems += _index_problems(results)
            plan.decisions = self._identify(results, feedback)
        return plan

    def _identify(self, results: ResultsFile, feedback: Feedback) -> dict[int, Decision]:
        decisions: dict[int, Decision] = {}
        for entry in results.players:
            if entry.code_text and entry.code is None:
                continue  # a malformed code is already an error of the file
            decision = identify(Received.from_entry(entry), self.index, self.policy)
            if decision.kind is DecisionKind.CODE_NAME_MISMATCH and entry.code is not None:
                holder = self.index.holder(entry.code.number)
                on_record = f"{holder.surname}, {holder.forenames}" if holder else "?"
                feedback.problems.append(code_of_another_player(entry, on_record))
            if decision.kind is DecisionKind.CREATE_WITH_CODE:
                feedback.problems.append(_code_not_on_record(entry))
            decisions[entry.pin] = decision
        return decisions

    def _write(self, plan: Plan, submission: Submission) -> None:
        if self._cache is None:
            self._cache = RegistryCache.load()
        try:
            with transaction.atomic():
                created = write_plan(
                    plan, submission, self._cache, user=self.user, actor=self.sender
                )
        except Exception:
            self._cache = None  # it may hold rows the rollback removed
            raise
        for record in created:
            self.index.add(record)


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


def reject(submission: Submission, feedback: Feedback) -> None:
    submission.status = Submission.Status.REJECTED
    submission.event_code = feedback.event_code[:20]
    submission.submission_index = feedback.submission_index
    submission.report = feedback.as_dict()
    submission.save(update_fields=["status", "event_code", "submission_index", "report"])


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
