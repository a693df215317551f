"""What /api/v1 tells of one player: his grades now, his history, a list's games.

The player page (``player.player_page``) gathers far more than a program asks for (the
next list's provisional grade runs the engine on the whole federation), so the API reads
the same facts by the same functions, without it:

- ``player_summary``: who he is (code, name, clubs by the lapse rule, FIDE id, nation,
  junior age) and, per rate, the grade in the current version of the current list with
  its category and games (G24), the list's August grade (G27) and the FIDE and national
  Elo equivalents (G29); one ungraded now has his latest grade beside;
- ``player_history``: every list since records begin (``history.grade_history``);
- ``player_games``: a list's games with the per-game breakdown the version stored: the
  opponent's starting grade (G13), his value after the 40-point rule (G12) and the points
  (``breakdown``, from ``grading.explain.explain_entry``).

Each reads a fixed number of queries whatever the player's history. A merged record's
code answers for the record it counts for (G28), whose entries include those of every
record merged into it, as on his page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from ecfgrading.engine.conversions import below_fide_minimum, ecf_to_fide, ecf_to_national_elo
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rules import rule_set
from ecfgrading.engine.types import Rate
from ecfgrading.errors import NotFound
from ecfgrading.lookups.breakdown import (
    Breakdown,
    Context,
    breakdown,
    game_details,
    opponents,
    wanted_games,
    wanted_players,
)
from ecfgrading.lookups.explain import explain_entry
from ecfgrading.lookups.history import (
    EntryRow,
    HistoryPoint,
    HistoryRow,
    by_version,
    entry_rows,
    grade_history,
    latest_grade,
)
from ecfgrading.lookups.lists import (
    CurrentList,
    VersionInfo,
    list_label,
    lists_by_rate,
    published_versions,
)
from ecfgrading.lookups.memberships import ClubShown, shown_clubs
from ecfgrading.lookups.player import Located
from ecfgrading.lookups.provisional import RULES
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import ListEntry, Player

RATES = (Rate.STANDARD, Rate.RAPID)


class NoGrades(NotFound):
    """The player has no entry in the list asked for, or no such list is published."""


@dataclass(frozen=True)
class RateNow:
    """One rate's current grade and what stands beside it."""

    rate: Rate
    list: str | None  # the current list of the rate; None when none is published
    version: str | None
    published_at: datetime | None
    grade: int | None  # None: ungraded in the current list
    category: str | None
    games_latest: int  # G24: games in the latest season
    games_counted: int
    august_grade: int | None  # G27: his grade in the list's August version, if published
    revised: bool  # G27: a later version's grade differs from the August grade
    fide: int | None  # G29: ECF x 8 + 650
    national_elo: int | None  # G29: ECF x 8 + 600
    below_fide_minimum: bool  # G29: the minimum published FIDE rating is 1200
    last_graded: HistoryPoint | None  # when ungraded now: his latest grade of the rate


@dataclass(frozen=True)
class PlayerSummary:
    code: str
    name: str  # Surname, Forenames
    merged: bool  # the code asked for was merged into this record (G28)
    clubs: tuple[ClubShown, ...]
    fide_id: int | None
    nation: str
    junior_age: int | None  # G25: juniors only; adults' ages are not published
    age_date: date | None  # the day that age is reckoned on
    standard: RateNow
    rapid: RateNow


@dataclass(frozen=True)
class PlayerHistory:
    code: str
    name: str
    lists: tuple[HistoryRow, ...]  # latest first


@dataclass(frozen=True)
class PlayerGames:
    """A list's games of one player with the points each scored, from the version."""

    code: str
    name: str
    rate: Rate
    list: str
    version: str
    grade: int | None  # None: ungraded in this list (too few games, G23)
    category: str | None
    from_file: bool  # a list loaded from a file: its games are not on record
    breakdown: Breakdown | None  # None when ``from_file``


@dataclass(frozen=True)
class _Player:
    """The record's public columns (never the date of birth)."""

    id: int
    code: str
    name: str
    fide_id: int | None
    nation: str
    records: tuple[int, ...]  # his own record, then those merged into him
    final: dict[int, int]  # every merged record -> the record it counts for


def player_summary(located: Located) -> PlayerSummary:
    player = _player(located)
    versions = published_versions()
    entries = by_version(entry_rows(player.records, versions))
    history = grade_history(entries, versions)
    current = {rate: found[0] for rate, found in lists_by_rate(versions).items() if found}
    junior = _junior(entries, current)
    season = max((found.season for found in current.values()), default=None)
    clubs = shown_clubs([player.id], season).get(player.id, ()) if season else ()
    return PlayerSummary(
        code=player.code,
        name=player.name,
        merged=located.merged,
        clubs=clubs,
        fide_id=player.fide_id,
        nation=player.nation,
        junior_age=junior[0] if junior else None,
        age_date=junior[1] if junior else None,
        standard=_rate_now(Rate.STANDARD, current.get(Rate.STANDARD), entries, history),
        rapid=_rate_now(Rate.RAPID, current.get(Rate.RAPID), entries, history),
    )


def player_history(located: Located) -> PlayerHistory:
    player = _player(located)
    versions = published_versions()
    entries = by_version(entry_rows(player.records, versions))
    return PlayerHistory(player.code, player.name, grade_history(entries, versions))


def player_games(located: Located, rate: Rate, list_id: str | None = None) -> PlayerGames:
    """The games of ``list_id`` (default: the current list of ``rate``) as its current
    version graded them; NoGrades when he has no entry in it."""
    player = _player(located)
    found = _list(rate, list_id)
    version = found.current
    entry = _entry(player, version)
    graded = entry.grade if entry.published else None
    how = _breakdown(player, entry, version) if entry.start_source else None
    return PlayerGames(
        code=player.code,
        name=player.name,
        rate=rate,
        list=found.list_id,
        version=version.name,
        grade=graded,
        category=entry.category if entry.published else None,
        from_file=how is None,
        breakdown=how,
    )


# -- the player ---------------------------------------------------------------------------


def _player(located: Located) -> _Player:
    row = (
        Player.objects.filter(pk=located.player_id)
        .values_list("id", "code", "surname", "forenames", "fide_id", "nation")
        .get()
    )
    pk, _code, surname, forenames, fide_id, nation = row
    final = Survivors().final
    absorbed = sorted(p for p, end in final.items() if end == pk)
    return _Player(
        id=pk,
        code=located.code,
        name=f"{surname}, {forenames}" if forenames else surname,
        fide_id=fide_id,
        nation=nation,
        records=(pk, *absorbed),
        final=final,
    )


# -- the current grades -------------------------------------------------------------------


def _rate_now(
    rate: Rate,
    found: CurrentList | None,
    entries: dict[int, EntryRow],
    history: tuple[HistoryRow, ...],
) -> RateNow:
    row = entries.get(found.current.id) if found else None
    grade = row.grade if row is not None and row.published else None
    august = found.august if found else None
    august_row = entries.get(august.id) if august else None
    august_grade = august_row.grade if august_row and august_row.published else None
    later = august is not None and found is not None and found.current.id != august.id
    return RateNow(
        rate=rate,
        list=found.list_id if found else None,
        version=found.current.name if found else None,
        published_at=found.current.published_at if found else None,
        grade=grade,
        category=row.category if row is not None and grade is not None else None,
        games_latest=row.games_latest if row else 0,
        games_counted=row.games_counted if row else 0,
        august_grade=august_grade,
        revised=later and august_grade != grade,
        fide=None if grade is None else round(ecf_to_fide(grade)),
        national_elo=None if grade is None else round(ecf_to_national_elo(grade)),
        below_fide_minimum=grade is not None and below_fide_minimum(ecf_to_fide(grade)),
        last_graded=latest_grade(history, rate) if grade is None else None,
    )


def _junior(
    entries: dict[int, EntryRow], current: dict[Rate, CurrentList]
) -> tuple[int, date] | None:
    """G25: the age his latest current list publishes, and the day it is reckoned on."""
    for found in sorted(current.values(), key=lambda c: c.list_id, reverse=True):
        row = entries.get(found.current.id)
        if row is not None and row.junior_age is not None:
            return row.junior_age, ListId.parse(found.list_id).age_date(RULES)
    return None


# -- a list's games -----------------------------------------------------------------------


def _list(rate: Rate, list_id: str | None) -> CurrentList:
    lists = lists_by_rate()[rate]
    if not lists:
        raise NoGrades(f"no {rate.value} list has been published")
    if list_id is None:
        return lists[0]
    found = next((item for item in lists if item.list_id == list_id), None)
    if found is None:
        raise NoGrades(f"no {rate.value} list of {_label(list_id)} has been published")
    return found


def _label(list_id: str) -> str:
    try:
        return list_label(list_id)
    except ValueError:
        return list_id


def _entry(player: _Player, version: VersionInfo) -> ListEntry:
    """His entry in the version: his own record's before a merged record's."""
    entries = ListEntry.objects.filter(version_id=version.id, player_id__in=player.records)
    entries = entries.order_by()
    by_player = {e.player_id: e for e in entries.select_related("version__grading_list")}
    entry = next((by_player[p] for p in player.records if p in by_player), None)
    if entry is None:
        raise NoGrades(
            f"{player.code} {player.name} has no entry in the {version.month_label} "
            f"{version.rate.value} list"
        )
    return entry


def _breakdown(player: _Player, entry: ListEntry, version: VersionInfo) -> Breakdown:
    """Section 10 from what the version stored, with events and opponents: the games
    and their opponents in one query each."""
    explanation, _names = explain_entry(entry)
    details = game_details(wanted_games([explanation]), player.final)
    names = opponents(wanted_players(player.id, [explanation], details.values()))
    context = Context(player.id, details, names, rule_set(entry.version.rules_name))
    return breakdown(explanation, version.name, context)
