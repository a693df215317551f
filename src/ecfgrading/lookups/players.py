"""A player: who he is, his grades now, on a date and in every list, and his page.

The one read model of a player, for every door: the player page and its JSON twin, the
/api/v1 player endpoints and the federation's rating API read him here, so they give the
same facts (docs/api.md: "a grade here is the grade on the player's page").

- ``locate`` turns a code (with or without its check letter, in any case) into the
  record it counts for: a merged code names its survivor (G28), whose records are his
  own and those merged into him (``records.Survivors.records``);
- ``player_summary``: who he is (code, name, clubs by the lapse rule C2, FIDE id,
  nation, junior age, never a date of birth) and per rate his grade in the current
  version of the current list (``RateNow``, from ``grades.list_grades``): category,
  games (G24), the list's August grade (G27) and the G29 equivalents; one ungraded now
  has his latest grade beside;
- ``player_page``: the summary with what the page adds: how each grade was calculated
  (``breakdown``), every list's grade (``history``) and the next list (``provisional``);
  given a list (``?list=2011-07``, and a version), the grades, games and breakdown of
  that list as its version published them instead of the current lists';
- ``player_history``, ``player_games``: a program's asks for his history and for a
  list's games with their points;
- ``rating_on``: his grades in the list in force on a date (the federation's API);
- ``player_info``, ``players_named``, ``player_by_member_no``: players as the federation's
  API finds them, graded or not.

Each reads a fixed number of queries whatever the player's history.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import date, datetime
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from ecfgrading.engine.codes import GradingCode, InvalidCode, code_text
from ecfgrading.engine.conversions import below_fide_minimum, ecf_to_fide, ecf_to_national_elo
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.explain import Explanation
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.engine.types import Rate
from ecfgrading.errors import ErrorKind, NotFound, ServiceError
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.breakdown import (
    Breakdown,
    Context,
    context_for,
    explained,
    explained_together,
    short_words,
    stored_breakdown,
)
from ecfgrading.lookups.clock import today
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.grades import (
    PLAYER_COLUMNS,
    Club,
    ListGrades,
    clubs_of,
    list_grades,
    lists_in_force,
)
from ecfgrading.lookups.history import (
    EntryRow,
    HistoryPoint,
    HistoryRow,
    by_version,
    entry_rows,
    grade_history,
    latest_grade,
    revision_reasons,
)
from ecfgrading.lookups.lists import (
    CurrentList,
    VersionInfo,
    current_season,
    list_label,
    lists_by_rate,
    published_versions,
)
from ecfgrading.lookups.memberships import ClubShown, shown_clubs
from ecfgrading.lookups.provisional import (
    NextList,
    next_lists,
    next_runs,
    received_games,
)
from ecfgrading.lookups.records import Survivors
from ecfgrading.lookups.shaped import Statement
from ecfgrading.matching.names import prefix_successor, search_prefix
from ecfgrading.registry.models import Game, ListEntry, Player, PlayerAlias

FIDE_PROFILE = "https://ratings.fide.com/profile/{id}"
MAX_FOUND = 500  # players a name search answers with, in name order
_DIGITS = re.compile(r"^\d{6}$")
RATES = (Rate.STANDARD, Rate.RAPID)


class PlayerNotFound(NotFound):
    """No player holds the code (or it is not a grading code at all)."""


class NoGrades(NotFound):
    """The player has no entry in the list asked for, or no such list is published."""


class BadList(ServiceError):
    """A list asked for by a malformed id (not '2011-07'), or a version without a list."""

    kind = ErrorKind.INVALID


# -- the record a code names ------------------------------------------------------------------


@dataclass(frozen=True)
class Located:
    """The record a code counts for, and how the asked code differs from its own."""

    code: str  # the surviving record's full code, e.g. 261619B
    player_id: int
    merged: bool  # the code asked for was merged into this record (G28)


def locate(text: str) -> Located:
    """A code with or without its check letter, in any case; merged codes to survivors."""
    cleaned = text.strip().upper()
    try:
        code = GradingCode(int(cleaned)) if _DIGITS.match(cleaned) else GradingCode.parse(cleaned)
    except InvalidCode as bad:
        raise PlayerNotFound(f"{bad}: no player has that code") from None
    player = Player.objects.filter(code=code.number).only("id", "code", "merged_into").first()
    if player is None:
        alias = PlayerAlias.objects.filter(code=code.number).select_related("player").first()
        player = alias.player if alias else None
    if player is None:
        raise PlayerNotFound(f"no player on record has the grading code {code}")
    merged = player.code != code.number or player.merged_into_id is not None
    survivor = player.surviving()
    return Located(survivor.ref, survivor.id, merged)


@dataclass(frozen=True)
class _Record:
    """The player's public columns and his records (G28); his date of birth only to tell
    a junior with no provisional entry yet (G25), never shown."""

    id: int
    code: str
    name: str
    fide_id: int | None
    nation: str
    records: tuple[int, ...]  # his own record, then those merged into him
    survivors: Survivors
    born: dt.date | None
    sex: str = ""  # M, F or blank: the page's pronouns, never shown
    merged_codes: tuple[str, ...] = ()  # the codes of the records merged into him (G28)


_RECORD = Statement(
    lambda pk: Player.objects.filter(id=pk).order_by().values_list(*PLAYER_COLUMNS, "date_of_birth")
)


def _record(located: Located) -> _Record:
    found = _RECORD.rows(located.player_id)
    if not found:
        raise Player.DoesNotExist(f"no player has the id {located.player_id}")
    pk, _code, surname, forenames, _key, sex, fide_id, _member_no, nation, born = found[0]
    survivors = Survivors()
    name = full_name(surname, forenames)
    records = survivors.records(pk)
    merged = _codes(records[1:])
    return _Record(
        pk, located.code, name, fide_id, nation, records, survivors, born, sex or "", merged
    )


def _codes(player_ids: Sequence[int]) -> tuple[str, ...]:
    """The codes of these records in code order (G28: a merged code is never reused, and
    still leads to the record it counts for): no query when there are none."""
    if not player_ids:
        return ()
    found = Player.objects.filter(id__in=list(player_ids)).order_by("code")
    return tuple(code_text(number) for number in found.values_list("code", flat=True))


def _public_rows(ids: Sequence[int]) -> dict[int, tuple[Any, ...]]:
    """Players' public columns by id (``grades.PLAYER_COLUMNS``): one query."""
    return {row[0]: row for row in _PUBLIC.rows(list(ids))}


_PUBLIC = Statement(
    lambda ids: Player.objects.filter(id__in=ids).order_by().values_list(*PLAYER_COLUMNS)
)


# -- his grades now -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RateNow:
    """One rate's grade in the current version of the current list, and beside it."""

    rate: Rate
    list: str | None  # the current list of the rate; None when none is published
    version: str | None
    rule_set: str | None  # G31: the rule set the version was computed under
    published_at: datetime | None
    grade: int | None  # None: ungraded in the current list
    category: str | None
    games_latest: int  # G24: games in the latest season
    games_counted: int
    august_grade: int | None  # G27: in the list's August version, used for eligibility
    august_category: str | None
    revised: bool  # G27: a later version's grade differs from the August grade
    after_august: bool  # the current version is a revision after the August one
    fide: int | None  # G29: ECF x 8 + 650
    national_elo: int | None  # G29: ECF x 8 + 600
    below_fide_minimum: bool  # G29: the minimum published FIDE rating is 1200
    last_graded: HistoryPoint | None  # when ungraded now: his latest grade of the rate

    @property
    def list_label(self) -> str:
        return list_label(self.list) if self.list else ""


@dataclass(frozen=True)
class PlayerSummary:
    code: str
    name: str  # Surname, Forenames
    merged: bool  # the code asked for was merged into this record (G28)
    merged_codes: tuple[str, ...]  # the codes of the records merged into this one (G28)
    clubs: tuple[ClubShown, ...]
    fide_id: int | None
    nation: str
    junior_age: int | None  # G25: juniors only; adults' ages are not published
    age_date: date | None  # the day that age is reckoned on
    standard: RateNow
    rapid: RateNow


@dataclass(frozen=True)
class _Grades:
    """What the summary and the page read of the player's entries (two queries)."""

    entries: dict[int, EntryRow]  # by version: his own entry before a merged record's
    versions: list[VersionInfo]
    history: tuple[HistoryRow, ...]
    current: dict[Rate, CurrentList]
    lists: dict[Rate, ListGrades]  # his grades in each rate's current list


def _grades(record: _Record) -> _Grades:
    versions = published_versions()
    entries = by_version(entry_rows(record.records, versions))
    current = {rate: found[0] for rate, found in lists_by_rate(versions).items() if found}
    lists = {rate: list_grades(found, entries) for rate, found in current.items()}
    return _Grades(entries, versions, grade_history(entries, versions), current, lists)


def player_summary(located: Located) -> PlayerSummary:
    record = _record(located)
    return _summary(record, located, _grades(record))


def _summary(record: _Record, located: Located, grades: _Grades) -> PlayerSummary:
    junior = _junior(grades.current, grades.entries)
    season = current_season(grades.current)
    return PlayerSummary(
        code=record.code,
        name=record.name,
        merged=located.merged,
        merged_codes=record.merged_codes,
        clubs=shown_clubs([record.id], season).get(record.id, ()) if season else (),
        fide_id=record.fide_id,
        nation=record.nation,
        junior_age=junior[0] if junior else None,
        age_date=junior[1] if junior else None,
        standard=rate_now(Rate.STANDARD, grades.lists.get(Rate.STANDARD), grades.history),
        rapid=rate_now(Rate.RAPID, grades.lists.get(Rate.RAPID), grades.history),
    )


def rate_now(rate: Rate, found: ListGrades | None, history: Sequence[HistoryRow]) -> RateNow:
    """One rate's grades in its current list (``found``; None: none published)."""
    grade = found.grade if found else None
    fide = None if grade is None else round(ecf_to_fide(grade))
    return RateNow(
        rate=rate,
        list=found.list_id if found else None,
        version=found.version.name if found else None,
        rule_set=found.version.rules_name if found else None,
        published_at=found.version.published_at if found else None,
        grade=grade,
        category=found.category if found and grade is not None else None,
        games_latest=found.games_latest if found else 0,
        games_counted=found.games_counted if found else 0,
        august_grade=found.august_grade if found else None,
        august_category=(found.august_category or None) if found else None,
        revised=found.revised if found else False,
        after_august=found.after_august if found else False,
        fide=fide,
        national_elo=None if grade is None else round(ecf_to_national_elo(grade)),
        below_fide_minimum=fide is not None and below_fide_minimum(fide),
        last_graded=latest_grade(history, rate) if grade is None else None,
    )


def _junior(
    current: Mapping[Rate, CurrentList], entries: Mapping[int, EntryRow]
) -> tuple[int, date] | None:
    """G25: the age his latest current list publishes, and the day it is reckoned on."""
    for found in sorted(current.values(), key=lambda c: c.list_id, reverse=True):
        row = entries.get(found.current.id)
        if row is not None and row.junior_age is not None:
            listed = ListId.parse(found.list_id)
            return row.junior_age, listed.age_date(rules_for(listed))
    return None


# -- his page ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GradeCard(RateNow):
    """``RateNow`` as the page shows it: with its category in words and its breakdown."""

    category_words: str
    junior_age: int | None  # G25: the age this list publishes (juniors only)
    breakdown: Breakdown | None  # how the grade was calculated; None: not on record
    from_file: bool  # a list loaded from a file: its games are not on record


@dataclass(frozen=True)
class PlayerPage(PlayerSummary):
    """``PlayerSummary`` with what the page adds (its JSON twin is the API's shape)."""

    standard: GradeCard
    rapid: GradeCard
    fide_url: str
    history: tuple[HistoryRow, ...]
    next_lists: tuple[NextList, ...]
    cap: float = ECF_2009.cap  # G12 (every rule set): the 40-point rule, for the page's words
    margin: float = ECF_2009.result_margin  # G12: plus or minus 50
    shown_list: str | None = None  # the list asked for (?list=); None: the current lists
    shown_version: str | None = None  # the version asked for (?version=); None: current
    sex: str = ""  # the record's M, F or blank: the page's pronouns (never shown)

    def _from(self, card: GradeCard) -> str:
        """' (July 2009)' for a grade from an earlier list than the one shown."""
        other = self.shown_list and card.list and card.list != self.shown_list
        return f" ({card.list_label})" if other else ""

    @property
    def revised_points(self) -> tuple[HistoryPoint, ...]:
        """The history's grades that a later version of their list changed, latest first."""
        points = (p for row in self.history for p in (row.standard, row.rapid))
        return tuple(p for p in points if p is not None and p.revised)

    @property
    def shown_label(self) -> str:
        """'July 2011' for the list asked for; '' for the current lists."""
        return list_label(self.shown_list) if self.shown_list else ""

    @property
    def has_location(self) -> bool:
        """A club shown with an asterisk is a location (the seeds), which the page says."""
        return any(club.is_location for club in self.clubs)

    @property
    def cards(self) -> tuple[GradeCard, GradeCard]:
        return (self.standard, self.rapid)

    @property
    def title(self) -> str:
        """'Smith, John (123456A) - standard 148' (web-design principle 9); with the list
        shown first when it is not the current: '... - July 2011: standard 113'."""
        grades = [
            f"{c.rate.value} {c.grade}{self._from(c)}" for c in self.cards if c.grade is not None
        ]
        shown = f"{self.shown_label}{f' {self.shown_version}' if self.shown_version else ''}: "
        return f"{self.name} ({self.code}) - {shown if self.shown_list else ''}" + (
            ", ".join(grades) or "ungraded"
        )


def player_page(
    located: Located, list_id: str | None = None, version: str | None = None
) -> PlayerPage:
    """Everything the page of ``located`` shows (see the module's docstring): for the
    current lists, or for the list ``list_id`` at ``version`` (default: its current
    version, G26). BadList for a malformed list id; NoGrades for a list he has no entry in."""
    list_id = None if list_id is None else _list_id(list_id)
    record = _record(located)
    grades = _grades(record)
    summary = _summary(record, located, grades)
    history = revision_reasons(grades.history, record.records, grades.versions)
    chosen = grades.current if list_id is None else _chosen(record, grades, list_id, version)
    shown = history if list_id is None else tuple(r for r in history if r.list_id <= list_id)
    now = {rate: _rate_now(rate, chosen, grades, shown) for rate in RATES}
    how = explained_together(_entries_in(chosen, grades), record.survivors)
    runs = next_runs(grades.current, data_token())
    ahead = {rate: run.explanation(record.id) for rate, run in runs.items()}
    final = record.survivors.final
    new = received_games(record.records, runs, final)
    explanations = [*(found[0] for found in how.values() if found), *ahead.values()]
    # Each breakdown is shown under its own list's rule set (stored_breakdown, next_lists).
    context = context_for(record.id, explanations, new, final, ECF_2009)
    lists = {rate: list_grades(found, grades.entries) for rate, found in chosen.items()}
    cards = {rate: _card(now[rate], rate, lists.get(rate), how, context) for rate in RATES}
    return PlayerPage(
        **{**_values(summary), "standard": cards[Rate.STANDARD], "rapid": cards[Rate.RAPID]},
        fide_url=FIDE_PROFILE.format(id=record.fide_id) if record.fide_id else "",
        history=history,
        next_lists=next_lists(
            record.id, record.born, record.records, runs, ahead, new, context, grades.versions
        ),
        shown_list=list_id,
        shown_version=version if list_id is not None else None,
        sex=record.sex,
    )


def _rate_now(
    rate: Rate, chosen: Mapping[Rate, CurrentList], grades: _Grades, history: Sequence[HistoryRow]
) -> RateNow:
    """One rate's grades in the chosen list (the current one's are read already)."""
    found = chosen.get(rate)
    if found is not None and found is grades.current.get(rate):
        return rate_now(rate, grades.lists.get(rate), history)
    return rate_now(rate, list_grades(found, grades.entries) if found else None, history)


def _chosen(
    record: _Record, grades: _Grades, list_id: str, version: str | None
) -> dict[Rate, CurrentList]:
    """The lists of each rate as they stood in ``list_id``'s month: its own list of a
    rate at ``version`` (default its current version, G26), or for a rate with no list
    that month (standard lists were annual until 2012, G31) the one in force then."""
    by_rate = lists_by_rate(grades.versions)
    own = {rate: found for rate in RATES for found in by_rate[rate] if found.list_id == list_id}
    if not own:
        raise NoGrades(f"no list of {list_label(list_id)} has been published")
    if not any(v.id in grades.entries for found in own.values() for v in found.versions):
        raise NoGrades(f"{record.code} {record.name} {_not_in(record, grades, list_id)}")
    if version is not None:
        own = _at_version(own, list_id, version)
    earlier = {rate: _in_force(by_rate[rate], list_id) for rate in RATES if rate not in own}
    return {rate: found for rate, found in {**earlier, **own}.items() if found is not None}


def _list_id(text: str) -> str:
    try:
        return str(ListId.parse(text))
    except ValueError as bad:
        raise BadList(
            f"{bad}: a list is named by its year and month, as in ?list=2011-07"
        ) from None


def _not_in(record: _Record, grades: _Grades, list_id: str) -> str:
    """'has no entry in the July 2008 lists; the player's lists run from July 2009 to
    July 2015'."""
    held = [row.list_id for row in grades.history]
    span = f"{list_label(held[-1])} to {list_label(held[0])}" if held else "none"
    return f"has no entry in the {list_label(list_id)} lists; the player's lists run from {span}"


def _at_version(
    own: Mapping[Rate, CurrentList], list_id: str, version: str
) -> dict[Rate, CurrentList]:
    """Each of the month's lists as far as ``version`` (a rate's list without that version
    stays at its current one); NoGrades when no list of the month has it."""
    cut = {rate: _up_to(found, version) for rate, found in own.items()}
    if all(found is None for found in cut.values()):
        names = sorted({v.name for found in own.values() for v in found.versions})
        raise NoGrades(
            f"the {list_label(list_id)} lists have no version named {version!r}: "
            f"they have {', '.join(names)}"
        )
    return {rate: cut[rate] or found for rate, found in own.items()}


def _up_to(found: CurrentList, version: str) -> CurrentList | None:
    names = [v.name for v in found.versions]
    if version not in names:
        return None
    return CurrentList(found.rate, found.list_id, found.versions[: names.index(version) + 1])


def _in_force(lists: Sequence[CurrentList], list_id: str) -> CurrentList | None:
    """The latest list of a rate before ``list_id`` (``lists`` latest first)."""
    return next((found for found in lists if found.list_id < list_id), None)


def _values(found: object) -> dict[str, Any]:
    """A dataclass's fields by name, not copied (``asdict`` would copy nested values)."""
    return {f.name: getattr(found, f.name) for f in fields(found)}  # type: ignore[arg-type]


def _entries_in(chosen: Mapping[Rate, CurrentList], grades: _Grades) -> dict[Rate, ListEntry]:
    """His entries in the chosen versions, as rows the stored explanation reads."""
    rows = [grades.entries.get(c.current.id) for c in chosen.values()]
    ids = [row.id for row in rows if row is not None]
    found = ListEntry.objects.filter(id__in=ids).select_related("version__grading_list")
    return {Rate(e.version.grading_list.rate): e for e in found.order_by()}


def _card(
    now: RateNow,
    rate: Rate,
    found: ListGrades | None,
    how: Mapping[Rate, tuple[Explanation, RuleSet] | None],
    context: Context,
) -> GradeCard:
    """``how``: the stored explanation of each rate he has an entry in (None: the list
    was loaded from a file, without its games)."""
    graded = found if found is not None and found.grade is not None else None
    junior = graded.junior_age if graded else None
    explanation = how.get(rate)
    shown = stored_breakdown(explanation, now.version or "", context) if explanation else None
    return GradeCard(
        **_values(now),
        category_words=_category_words(graded),
        junior_age=junior,
        breakdown=shown,
        from_file=rate in how and explanation is None,
    )


def _category_words(graded: ListGrades | None) -> str:
    """The category in words, by the table of the list's rule set (G23, G31, G39)."""
    if graded is None:
        return ""
    rules = rules_for(ListId.parse(graded.list_id))
    return short_words(graded.category, graded.junior_age is not None, rules)


# -- what a program asks for ---------------------------------------------------------------------


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
    rule_set: str  # G31: the rule set the version was computed under
    grade: int | None  # None: ungraded in this list (too few games, G23)
    category: str | None
    from_file: bool  # a list loaded from a file: its games are not on record
    breakdown: Breakdown | None  # None when ``from_file``


def player_history(located: Located) -> PlayerHistory:
    record = _record(located)
    return PlayerHistory(record.code, record.name, _grades(record).history)


def player_games(located: Located, rate: Rate, list_id: str | None = None) -> PlayerGames:
    """The games of ``list_id`` (default: the current list of ``rate``) as its current
    version graded them; NoGrades when he has no entry in it."""
    record = _record(located)
    found = _list(rate, list_id)
    version = found.current
    entry = _entry(record, version)
    graded = entry.grade if entry.published else None
    how = explained(entry, record.survivors)
    return PlayerGames(
        code=record.code,
        name=record.name,
        rate=rate,
        list=found.list_id,
        version=version.name,
        rule_set=version.rules_name,
        grade=graded,
        category=entry.category if entry.published else None,
        from_file=how is None,
        breakdown=None if how is None else _breakdown(record, how, version.name),
    )


def _breakdown(record: _Record, how: tuple[Explanation, RuleSet], version: str) -> Breakdown:
    """Section 10 with its events and opponents: two queries."""
    context = context_for(record.id, [how[0]], {}, record.survivors.final, how[1])
    return stored_breakdown(how, version, context)


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


def _entry(record: _Record, version: VersionInfo) -> ListEntry:
    """His entry in the version: his own record's before a merged record's."""
    entries = ListEntry.objects.filter(version_id=version.id, player_id__in=record.records)
    by_player = {e.player_id: e for e in entries.order_by().select_related("version__grading_list")}
    entry = next((by_player[p] for p in record.records if p in by_player), None)
    if entry is None:
        raise NoGrades(
            f"{record.code} {record.name} has no entry in the {version.month_label} "
            f"{version.rate.value} list"
        )
    return entry


# -- his grades on a date (the federation's rating API) ------------------------------------------


@dataclass(frozen=True)
class Rating:
    """A player's grades of one rate in the list in force on a date."""

    code: str
    name: str
    on: dt.date  # the date asked (today when none was)
    grades: ListGrades  # of the version in force; he is published in it


def rating_on(located: Located, rate: Rate, on: dt.date | None) -> Rating:
    """His grades in the ``rate`` list in force on ``on`` (the current list when None);
    NotFound when no list was in force or he is not published in it."""
    in_force = lists_in_force(on).get(rate)
    day = on or today()
    if in_force is None:
        raise NotFound(f"no {rate.value} list was in force on {day.isoformat()}")
    record = _record(located)
    grades = list_grades(in_force, by_version(entry_rows(record.records, in_force.versions)))
    if grades.grade is None:
        raise NotFound(
            f"{record.code} is not graded in the {rate.value} list in force on "
            f"{day.isoformat()} ({in_force.list_id}, {in_force.current.name} version)"
        )
    return Rating(record.code, record.name, day, grades)


# -- players as the federation's API finds them ---------------------------------------------------


@dataclass(frozen=True)
class PlayerInfo:
    """What the federation's API says about a player besides his ratings."""

    code: str
    name: str
    member_no: str
    fide_no: int | None
    gender: str
    nation: str
    date_last_game: dt.date | None  # his latest graded game of either rate
    clubs: tuple[Club, ...]  # most recently quoted first, no locations


def player_info(located: Located) -> PlayerInfo:
    return player_infos([located.player_id])[0]


def player_by_member_no(number: str) -> PlayerInfo:
    """The player with this membership number (one not merged into another)."""
    wanted = number.strip()
    held = Q(membership_no=wanted) | Q(membership_no=wanted.upper())  # by its index
    found = Player.objects.filter(held, merged_into__isnull=True)
    pk = found.values_list("id", flat=True).first() if wanted else None
    if pk is None:
        raise PlayerNotFound(f"no player on record has the membership number {number!r}")
    return player_infos([pk])[0]


def players_named(stem: str) -> list[PlayerInfo]:
    """Players whose surname starts with ``stem``, or with 'Surname, Fore' whose surname is
    Surname and whose forenames start with Fore; case, accents and spaces ignored."""
    prefix = search_prefix(" ".join(stem.split()))
    if not prefix or prefix.startswith(","):
        raise ServiceError(
            f"expected the start of a surname, e.g. 'smi' or 'smith,+jo'; got {stem!r}"
        )
    # "Not merged" as an expression no index answers: SQLite, with no statistics, read
    # every unmerged player by the merges' index (most of the registry) and sorted them,
    # where the names' index gives the stem's players in order (issue 25).
    return player_infos([pk for (pk,) in _NAMED.rows(prefix, prefix_successor(prefix))])


_NAMED = Statement(
    lambda prefix, successor: (
        Player.objects.alias(merged=Coalesce("merged_into_id", 0))
        .filter(name_key__gte=prefix, name_key__lt=successor, merged=0)
        .order_by("name_key", "code")
        .values_list("id")[:MAX_FOUND]
    )
)


def player_infos(ids: Sequence[int]) -> list[PlayerInfo]:
    """Players by id, in the order given: six queries for any number."""
    rows = _public_rows(ids)
    season = current_season()
    shown = shown_clubs(ids, season, limit=None) if season is not None and ids else {}
    last = _last_games(ids)
    return [_info(rows[pk], clubs_of(shown.get(pk, ())), last.get(pk)) for pk in ids if pk in rows]


def _info(row: tuple[Any, ...], clubs: tuple[Club, ...], last: dt.date | None) -> PlayerInfo:
    _pk, code, surname, forenames, _key, sex, fide_id, membership_no, nation = row
    return PlayerInfo(
        code=code_text(code),
        name=full_name(surname, forenames),
        member_no=membership_no or "",
        fide_no=fide_id,
        gender=sex or "",
        nation=nation,
        date_last_game=last,
        clubs=clubs,
    )


def _last_games(ids: Sequence[int]) -> dict[int, dt.date]:
    """Each player's latest graded game, his merged records' games included (G28): for
    each record and side, the last entry of that side's index of (player, graded, date),
    one step of the index each. Aggregating a record's games instead read every game
    of a name search's 500 players, the tail of the v2 search by name (issue 25)."""
    records = Survivors().holders(ids)
    last: dict[int, dt.date] = {}
    for pk, *days in _LAST_GAMES.rows(list(records)):
        end = records[pk]
        for day in days:
            if day is not None:
                last[end] = max(day, last.get(end, day))
    return last


_LAST_GAMES = Statement(
    lambda records: (
        Player.objects.filter(pk__in=records)
        .order_by()
        .annotate(first=_latest_graded("player1"), second=_latest_graded("player2"))
        .values_list("pk", "first", "second")
    )
)


def _latest_graded(side: str) -> Subquery:
    """The date of the latest graded game the outer player played on ``side``
    (``graded__in``: SQLite reads a bare boolean as no step of an index, and sorted each
    player's games; see ``list_inputs``)."""
    games = Game.objects.filter(**{side: OuterRef("pk")}, graded__in=[True])
    games = games.order_by("-game_date")
    return Subquery(games.values("game_date")[:1])
