"""Players who need the grading team's attention: unanchored pools (G11) and zeros (G21)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from ecfgrading.engine.codes import code_text
from ecfgrading.engine.types import Flag, Rate
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.reports.common import (
    TeamReport,
    chosen_version,
    fmt,
    label,
)
from ecfgrading.registry.models import ListEntry


@dataclass(frozen=True)
class AttentionPlayer:
    code: str
    name: str
    grade: int | None
    published: bool
    category: str
    games_latest: int  # G24: games in P0
    games_counted: int
    start_grade: float | None
    start_source: str
    flags: tuple[str, ...]


@dataclass(frozen=True)
class AttentionReport(TeamReport):
    list_id: str
    rate: str
    version: str
    # G11: estimated in a closed pool; the team should assign starting grades (G6).
    unanchored: tuple[AttentionPlayer, ...]
    # G21: published at 0, a performance of zero or below; worth a second look.
    zero: tuple[AttentionPlayer, ...]

    def to_text(self) -> str:
        lines = [f"Players needing attention in {self.version}"]
        for title, players in (
            ("unanchored (G11)", self.unanchored),
            ("published at 0 (G21)", self.zero),
        ):
            lines.append(f"  {title}: {len(players)}")
            lines += [f"    {_line(p)}" for p in players]
        return "\n".join(lines)


def unanchored_and_zero(list_id: str, rate: Rate, *, version: str | None = None) -> AttentionReport:
    """Players flagged ``unanchored`` and players published at grade 0, by name."""
    rate = Rate(rate)
    found = chosen_version(list_id, rate, version)
    wanted = Q(flags__contains=Flag.UNANCHORED.value) | Q(published=True, grade=0)
    rows = ListEntry.objects.filter(wanted, version=found).order_by().values_list(*_FIELDS)
    players = sorted((_player(*row) for row in rows), key=lambda p: (p.name, p.code))
    return AttentionReport(
        str(list_id),
        rate.value,
        label(found),
        tuple(p for p in players if Flag.UNANCHORED.value in p.flags),
        tuple(p for p in players if p.published and p.grade == 0),
    )


_FIELDS = (
    "player__code",
    "player__surname",
    "player__forenames",
    "grade",
    "published",
    "category",
    "games_latest",
    "games_counted",
    "start_grade",
    "start_source",
    "flags",
)


def _player(code: int, surname: str, forenames: str, *rest: Any) -> AttentionPlayer:
    grade, published, category, latest, counted, start, source, flags = rest
    # The database filter is a substring match; a flag is a whole comma-separated word.
    names = tuple(flag.strip() for flag in flags.split(",") if flag.strip())
    return AttentionPlayer(
        code_text(code),
        full_name(surname, forenames),
        grade,
        published,
        category,
        latest,
        counted,
        start,
        source,
        names,
    )


def _line(p: AttentionPlayer) -> str:
    grade = "-" if p.grade is None else str(p.grade)
    return (
        f"{p.code} {p.name}: grade {grade}{p.category}, {p.games_latest} games "
        f"({p.games_counted} counted), start {fmt(p.start_grade)} ({p.start_source or '-'})"
    )
