"""Replaying history: every list of a span recomputed in order as drafts, and compared.

``regrade`` recomputes each published list of a span, standard before rapid and earlier
lists first, as a draft from what is stored (the games on record and the published
versions each list reads, G4, G5, G17, G33, G34), under the rule set of its date (G31)
or under one named rule set (a what-if, never publishable as the list's own, G31). Each
draft is compared with the list's current published version (``lookups.differences``):
how many grades differ and the largest differences. A federation re-checks its history
this way, or the grading team a change of code.

By default a draft reads every game on record now, results received after the list was
published included (late files, corrections): the differences are then what the results
on record say now. ``as_published`` reads only the results received by the time the
published version was computed, as it did, so that with unchanged code and identities
every grade comes out the same and any difference is the code's (or a rule set's).

The drafts are the run's memory: a draft made by a run carries the run's key in its
report, so a run interrupted (Ctrl-C, a lost connection) and started again goes on where
it stopped; ``again`` recomputes everything.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ecfgrading.engine import ListId, Rate
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.rules import rule_set
from ecfgrading.errors import ErrorKind, user_input
from ecfgrading.lookups import versions
from ecfgrading.lookups.differences import Change, difference
from ecfgrading.lookups.versions import VersionError
from ecfgrading.progress import Progress
from ecfgrading.registry.models import GradingList, ListVersion
from ecfgrading.services.grading.compute import compute_version

LARGEST_SHOWN = 5  # differences listed per list; the draft's differences page has them all


@dataclass(frozen=True)
class ListCheck:
    """One list of the span: its draft and how it differs from the published version."""

    list_id: str
    rate: str
    rule_set: str
    draft: str  # the draft's version name ("" when the list was skipped)
    against: str  # the published version compared with
    players: int
    changed: int
    new: int
    dropped: int
    largest: tuple[Change, ...]
    seconds: float
    resumed: bool  # made by an earlier, interrupted run of the same span
    skipped: str = ""  # why no draft was made
    as_published: bool = False  # on the results received by the published version

    @property
    def differs(self) -> int:
        return self.changed + self.new + self.dropped

    def to_text(self) -> str:
        head = f"{self.rate} {self.list_id} ({self.rule_set})"
        if not self.draft:
            return f"{head}: {self.skipped}, skipped"
        done = "already recomputed by this run" if self.resumed else f"{self.seconds:.2f} s"
        results = " (on its results)" if self.as_published else ""
        line = (
            f"{head}: draft {self.draft} against {self.against}{results}: {self.differs} of "
            f"{self.players} grades differ ({self.changed} changed, {self.new} new, "
            f"{self.dropped} dropped); {done}"
        )
        rows = [f"    {c.code} {c.name}: {c.old or '-'} -> {c.new or '-'}" for c in self.largest]
        return "\n".join([line, *rows])


def span(first: str, last: str) -> list[tuple[ListId, Rate]]:
    """Every list of the span in order: by date, standard before rapid (G4, G5 read the
    lists before; the other rate's list six months earlier, G33)."""
    with user_input(VersionError):
        start, end = ListId.parse(first), ListId.parse(last)
    if end < start:
        raise VersionError(f"expected --from {first} to come before --to {last}")
    found = []
    lid = start
    while lid <= end:
        found += [(lid, rate) for rate in lid.rates()]
        lid = lid.next()
    return found


def regrade(
    first: str,
    last: str,
    *,
    rules_name: str | None = None,
    again: bool = False,
    as_published: bool = False,
    actor: str = "regrade",
    progress: Progress | None = None,
) -> Iterator[ListCheck]:
    """Recompute every published list from ``first`` to ``last`` as a draft, one by one.

    Yields each list's check as soon as it is done, so that a caller can show it and an
    interruption loses at most the list under way (each is computed in one transaction).
    ``as_published``: on the results the published version had (see the module's text).
    """
    with user_input(VersionError):
        named = rule_set(rules_name) if rules_name else None
    lists = span(first, last)
    results = " as published" if as_published else ""
    key = f"{first}..{last} {named.name if named else 'own'}{results}"
    for done, (lid, rate) in enumerate(lists):
        if progress is not None:
            progress(done, len(lists), f"regrade {rate} {lid}")
        yield _check(
            lid,
            rate,
            named.name if named else None,
            key,
            again=again,
            as_published=as_published,
            actor=actor,
        )
    if progress is not None:
        progress(len(lists), len(lists), "regrade")


def _check(
    lid: ListId,
    rate: Rate,
    rules_name: str | None,
    key: str,
    *,
    again: bool,
    as_published: bool,
    actor: str,
) -> ListCheck:
    rules = rules_name or rules_for(lid).name
    published = versions.published(str(lid), rate)
    if published is None:
        return _skipped(lid, rate, rules, "not published")
    if (published.report or {}).get("source"):  # loaded from a file: no games on record
        return _skipped(lid, rate, rules, "loaded from a file, its games not on record")
    draft = _draft_of(lid, rate)
    resumed = draft is not None and not again and _made_by(draft, key) and _rules_of(draft, rules)
    started = time.perf_counter()
    if not resumed:
        received_by = published.computed_at if as_published else None
        run = compute_version(
            str(lid), rate, rules_name=rules_name, actor=actor, received_by=received_by
        )
        draft = ListVersion.objects.get(pk=run.version_id)
        draft.report = {**draft.report, "regrade": key}
        draft.save(update_fields=["report"])
    assert draft is not None
    seconds = time.perf_counter() - started
    found = difference(draft)
    return ListCheck(
        list_id=str(lid),
        rate=rate.value,
        rule_set=draft.rules_name,
        draft=draft.name,
        against=found.against,
        players=found.changed + found.unchanged + found.new + found.dropped,
        changed=found.changed,
        new=found.new,
        dropped=found.dropped,
        largest=tuple(c for c in found.rows if c.kind == "changed")[:LARGEST_SHOWN],
        seconds=seconds,
        resumed=resumed,
        as_published=as_published,
    )


def _skipped(lid: ListId, rate: Rate, rules: str, why: str) -> ListCheck:
    return ListCheck(str(lid), rate.value, rules, "", "", 0, 0, 0, 0, (), 0.0, False, why)


def _draft_of(lid: ListId, rate: Rate) -> ListVersion | None:
    grading_list = GradingList.objects.filter(list_id=str(lid), rate=rate.value).first()
    if grading_list is None:
        return None
    return grading_list.versions.filter(status=ListVersion.Status.DRAFT).first()


def _made_by(draft: ListVersion, key: str) -> bool:
    report: dict[str, Any] = draft.report or {}
    return report.get("regrade") == key


def _rules_of(draft: ListVersion, rules: str) -> bool:
    return draft.rules_name == rules


def check_span(first: str, last: str) -> None:
    """Refuse a span with nothing published in it before any work is done."""
    lists = span(first, last)
    if not any(versions.published(str(lid), rate) for lid, rate in lists):
        raise VersionError(
            f"expected published lists between {first} and {last}, found none",
            kind=ErrorKind.NOT_FOUND,
        )
