"""What changed between a list version and the one before it, player by player, and
what can explain each change: games, starting grades (G6), the junior bonus (G20),
amendments. The grading team reads it before publishing a draft (``lookups.drafts``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from ecfgrading.engine import Rate
from ecfgrading.engine.codes import code_text
from ecfgrading.formats.names import full_name
from ecfgrading.lookups import versions
from ecfgrading.registry.models import Amendment, ListEntry, ListVersion, StartingGradeAssignment

ROWS_SHOWN = 100  # the largest changes first; the full list is in the version's export


@dataclass(frozen=True)
class Change:
    """One player whose published grade differs between two versions, and why."""

    code: str
    name: str
    kind: str  # new, dropped, changed
    old: str  # "148B" or "" (none)
    new: str
    change: int | None  # new minus old grade, when both are graded
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Difference:
    against: str  # the version compared with, or "" for none
    new: int
    dropped: int
    changed: int
    unchanged: int
    rows: tuple[Change, ...]  # the largest moves first, at most ROWS_SHOWN


def previous_of(version: ListVersion) -> ListVersion | None:
    """The version this one follows: an earlier published version of the same list
    (initial before august, before rev1, G26), else the previous list's current one (G4)."""
    grading_list = version.grading_list
    earlier = [
        v
        for v in grading_list.versions.filter(status=ListVersion.Status.PUBLISHED)
        if versions.rank(v.name) < versions.rank(version.name)
    ]
    if earlier:
        return max(earlier, key=lambda v: versions.rank(v.name))
    rate = Rate(grading_list.rate)
    return versions.published(grading_list.list.previous_same_rate(rate), rate)


def difference(version: ListVersion) -> Difference:
    previous = previous_of(version)
    now, before = _entries(version), _entries(previous)
    why = _Reasons(version, previous, [e.player_id for e in now.values()])
    rows = [_change(now.get(pid), before.get(pid), why) for pid in now.keys() | before.keys()]
    found = [row for row in rows if row is not None]
    kinds = [row.kind for row in found]
    shown = sorted(found, key=lambda r: (-abs(r.change or 0), r.kind, r.name, r.code))
    in_both = sum(1 for pid in now.keys() & before.keys() if now[pid].shown and before[pid].shown)
    return Difference(
        against=_label(previous),
        new=kinds.count("new"),
        dropped=kinds.count("dropped"),
        changed=kinds.count("changed"),
        unchanged=in_both - kinds.count("changed"),
        rows=tuple(shown[:ROWS_SHOWN]),
    )


@dataclass(frozen=True)
class _Entry:
    player_id: int
    code: str
    name: str
    grade: int | None
    category: str
    published: bool
    games_latest: int
    start_grade: float | None
    start_source: str
    bonus: float

    @property
    def shown(self) -> bool:
        return self.published and self.grade is not None

    @property
    def text(self) -> str:
        return f"{self.grade}{self.category}" if self.shown else ""


def _entries(version: ListVersion | None) -> dict[int, _Entry]:
    if version is None:
        return {}
    rows = (
        ListEntry.objects.filter(version=version)
        .order_by()
        .values_list(
            "player_id",
            "player__code",
            "player__surname",
            "player__forenames",
            "grade",
            "category",
            "published",
            "games_latest",
            "start_grade",
            "start_source",
            "bonus",
        )
    )
    return {row[0]: _entry(*row) for row in rows}


def _entry(pid: int, code: int, surname: str, forenames: str, *rest: Any) -> _Entry:
    return _Entry(pid, code_text(code), full_name(surname, forenames), *rest)


class _Reasons:
    """What can explain a change: games, starting grades, the junior bonus, amendments."""

    def __init__(
        self, version: ListVersion, previous: ListVersion | None, players: Iterable[int]
    ) -> None:
        since = previous.published_at if previous is not None else None
        amendments = Amendment.objects.filter(player_id__in=list(players))
        amendments = amendments.filter(Q(version=version) | Q(version__isnull=True))
        if since is not None:
            amendments = amendments.filter(made_at__gt=since)
        self.amended: dict[int, list[str]] = {}
        for pid, what in amendments.order_by("made_at").values_list("player_id", "what"):
            self.amended.setdefault(pid, []).append(what)
        assigned = StartingGradeAssignment.objects.filter(
            rate=version.grading_list.rate, valid_from__lte=version.grading_list.list_id
        )
        if since is not None:
            assigned = assigned.filter(created_at__gt=since)
        self.assigned = set(assigned.values_list("player_id", flat=True))

    def of(self, now: _Entry | None, before: _Entry | None) -> tuple[str, ...]:
        reasons: list[str] = []
        if now is not None and before is not None:
            reasons += _compared(now, before)
        pid = (now or before).player_id  # type: ignore[union-attr]  # one is set
        if pid in self.assigned:
            reasons.append("starting grade assigned (G6)")
        reasons += [f"amendment: {what}" for what in self.amended.get(pid, [])]
        return tuple(reasons)


def _compared(now: _Entry, before: _Entry) -> list[str]:
    reasons = []
    if now.games_latest != before.games_latest:
        reasons.append(f"games in the latest period {before.games_latest} → {now.games_latest}")
    if (now.start_grade, now.start_source) != (before.start_grade, before.start_source):
        reasons.append(
            f"starting grade {_grade(before.start_grade)} ({before.start_source or '-'}) → "
            f"{_grade(now.start_grade)} ({now.start_source or '-'})"
        )
    if now.bonus != before.bonus:
        reasons.append(f"junior bonus {before.bonus:g} → {now.bonus:g} (G20)")
    return reasons


def _change(now: _Entry | None, before: _Entry | None, why: _Reasons) -> Change | None:
    shown_now, shown_before = bool(now and now.shown), bool(before and before.shown)
    if not shown_now and not shown_before:
        return None
    one = now or before
    assert one is not None
    if shown_now and shown_before:
        assert now is not None and before is not None and now.grade is not None
        if now.text == before.text:
            return None
        moved = now.grade - (before.grade or 0)
        return Change(
            one.code, one.name, "changed", before.text, now.text, moved, why.of(now, before)
        )
    kind = "new" if shown_now else "dropped"
    reasons = why.of(now, before)
    if kind == "dropped":
        reasons = (_dropped(now), *reasons)
    return Change(
        one.code,
        one.name,
        kind,
        before.text if before else "",
        now.text if now else "",
        None,
        reasons,
    )


def _dropped(now: _Entry | None) -> str:
    if now is None:
        return "no games in the periods this list counts"
    return f"ungraded now: {now.games_latest} games in the latest period (G23)"


def _grade(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _label(version: ListVersion | None) -> str:
    if version is None:
        return ""
    return f"{version.grading_list.rate} {version.grading_list.list_id} {version.name}"
