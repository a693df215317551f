"""A player's page (issue 9, page 3): the seeds' expanded page, every number explained.

``locate`` turns the code in a URL into the code of the record it counts for (a merged
code names its survivor, G28); ``player_page`` gathers what the page shows:

- who he is: code, name, clubs (the lapse rule of ``services.clubs``), FIDE id, nation,
  junior age (never a date of birth);
- for each rate, the current grade with its category, games, list and version, the
  August grade when it differs (G27), and its FIDE and national Elo equivalents (G29);
- the grade history of every list, how each current grade was calculated (section 10,
  from what its version stored) with its games;
- the next list of each rate: games received since the last list, the provisional grade
  the engine gives them (``provisional``), and the games each category still needs.

A page costs a bounded number of queries whatever the player's history: none per game
or per list (see ``tests/web/test_player_page.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Sum

from ecfgrading.engine.codes import GradingCode, InvalidCode
from ecfgrading.engine.conversions import below_fide_minimum, ecf_to_fide, ecf_to_national_elo
from ecfgrading.engine.explain import Explanation
from ecfgrading.engine.periods import ListId, junior_age
from ecfgrading.engine.rules import RuleSet, rule_set
from ecfgrading.engine.types import Rate
from ecfgrading.errors import NotFound
from ecfgrading.lookups.breakdown import (
    DETAIL_COLUMNS,
    Breakdown,
    Context,
    GameDetail,
    GameRow,
    breakdown,
    detail,
    game_details,
    opponents,
    received_row,
    short_words,
    wanted_games,
    wanted_players,
)
from ecfgrading.lookups.explain import explain_entry
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.history import (
    EntryRow,
    HistoryPoint,
    HistoryRow,
    by_version,
    current_versions,
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
from ecfgrading.lookups.provisional import (
    RULES,
    CategoryNeed,
    NextRun,
    games_needed,
    next_list,
    provisional_run,
    x_needed,
)
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import Game, ListEntry, Player, PlayerAlias, StoredPeriodTotal

FIDE_PROFILE = "https://ratings.fide.com/profile/{id}"
_DIGITS = re.compile(r"^\d{6}$")
RATES = (Rate.STANDARD, Rate.RAPID)


class PlayerNotFound(NotFound):
    """No player holds the code (or it is not a grading code at all)."""


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
class GradeCard:
    """The answer first: one rate's current grade and what it rests on."""

    rate: Rate
    grade: int | None  # None: ungraded in the current list
    category: str
    category_words: str
    junior_age: int | None
    games_latest: int  # G24: games in the latest 12 months
    games_counted: int
    list_id: str  # the current list of the rate ('' when none is published)
    version: str
    published_at: datetime | None
    august_grade: int | None  # the August version's grade (G27), when the list has one
    august_category: str
    revised: bool  # G27: the current grade differs from the August grade
    fide: int | None  # G29: ECF x 8 + 650
    national_elo: int | None  # G29: ECF x 8 + 600
    below_fide_minimum: bool  # the minimum published FIDE Elo is 1200
    last_grade: HistoryPoint | None  # when ungraded now: his latest grade, with its list
    breakdown: Breakdown | None  # how the grade was calculated; None: not on record
    from_file: bool  # a list loaded from a file: its games are not on record

    @property
    def list_label(self) -> str:
        return list_label(self.list_id) if self.list_id else ""


@dataclass(frozen=True)
class NextList:
    """The next list of one rate, as far as the results received so far go."""

    rate: Rate
    list_id: str
    start: date  # its latest period P0
    end: date
    h0_start: date
    since: date  # the end of the current list's P0: later games are new
    received: tuple[GameRow, ...]  # graded games dated after ``since``
    received_until: datetime | None  # the latest results file accepted
    provisional: Breakdown | None  # None: no game of his in P0 yet
    junior: bool  # on the next list's age date (G25)
    games_latest: int  # n0 so far
    games_before: tuple[int, int]  # n1, n2: stored by the lists before (G17)
    needs: tuple[CategoryNeed, ...]
    x_need: CategoryNeed | None  # rapid only (G16)

    @property
    def label(self) -> str:
        return list_label(self.list_id)

    @property
    def on_course(self) -> str:
        """The best category already reached; '' when none is."""
        met = [need.category for need in (self.x_need, *self.needs) if need and not need.more]
        return met[0] if met else ""

    @property
    def earlier_games(self) -> tuple[GameRow, ...]:
        """Games of its period that the last list counted already (a January rapid
        list's period began before the July list's ended): counted again, afresh."""
        found = self.provisional.games if self.provisional else ()
        return tuple(g for g in found if g.date is not None and g.date <= self.since)

    @property
    def to_stay(self) -> CategoryNeed | None:
        """The last row of the table: what it takes to be on the list at all (G23)."""
        return self.needs[-1] if self.needs else None


@dataclass(frozen=True)
class PlayerPage:
    code: str
    name: str  # Surname, Forenames
    clubs: tuple[ClubShown, ...]
    fide_id: int | None
    fide_url: str
    nation: str
    junior_age: int | None  # from his current entries; adults' age is not published
    age_date: date | None  # the day that age is reckoned on (31 August, G25)
    standard: GradeCard
    rapid: GradeCard
    history: tuple[HistoryRow, ...]
    next_lists: tuple[NextList, ...]
    cap: float = RULES.cap  # G12: the 40-point rule, for the page's words
    margin: float = RULES.result_margin  # G12: plus or minus 50

    @property
    def has_location(self) -> bool:
        """A club shown with an asterisk is a location (the seeds), which the page says."""
        return any(club.is_location for club in self.clubs)

    @property
    def cards(self) -> tuple[GradeCard, GradeCard]:
        return (self.standard, self.rapid)

    @property
    def title(self) -> str:
        """'Smith, John (123456A) - standard 148' (web-design principle 9)."""
        grades = [f"{c.rate.value} {c.grade}" for c in self.cards if c.grade is not None]
        return f"{self.name} ({self.code}) - {', '.join(grades) or 'ungraded'}"


def player_page(located: Located) -> PlayerPage:
    """Everything the page of ``located`` shows (see the module's docstring)."""
    player = Player.objects.get(pk=located.player_id)
    survivors = Survivors()
    records = [player.id, *sorted(p for p, f in survivors.final.items() if f == player.id)]
    versions = published_versions()
    entries = by_version(entry_rows(records, versions))
    history = grade_history(entries, versions)
    current = {rate: lists[0] for rate, lists in lists_by_rate(versions).items() if lists}
    stored = _current_entries(entries, current)
    explained = {rate: _explained(row) for rate, row in stored.items()}
    token = data_token()
    runs = {rate: _run(found, token) for rate, found in current.items()}
    ahead = {rate: run.explanation(player.id) for rate, run in runs.items()}
    new = _received(records, runs, survivors.final)
    context = _context(player.id, [*explained.values(), *ahead.values()], new, survivors.final)
    junior = _junior(entries, current)
    return PlayerPage(
        code=player.ref,
        name=player.name,
        clubs=_clubs(player.id, current),
        fide_id=player.fide_id,
        fide_url=FIDE_PROFILE.format(id=player.fide_id) if player.fide_id else "",
        nation=player.nation,
        junior_age=junior[0] if junior else None,
        age_date=junior[1] if junior else None,
        standard=_card(Rate.STANDARD, current, entries, history, explained, context),
        rapid=_card(Rate.RAPID, current, entries, history, explained, context),
        history=history,
        next_lists=_next_lists(player, records, runs, ahead, new, context, versions),
    )


# --- the current grades ----------------------------------------------------------------


def _current_entries(
    entries: Mapping[int, EntryRow], current: Mapping[Rate, CurrentList]
) -> dict[Rate, ListEntry]:
    """The entries of the current versions, as rows the stored explanation reads."""
    ids = [entries[c.current.id].id for c in current.values() if c.current.id in entries]
    found = ListEntry.objects.filter(id__in=ids).select_related("version__grading_list")
    return {Rate(e.version.grading_list.rate): e for e in found}


def _explained(entry: ListEntry) -> tuple[Explanation, RuleSet] | None:
    """Section 10 from what the version stored; a list loaded from a file has no games."""
    if not entry.start_source:
        return None
    explanation, _names = explain_entry(entry)
    return explanation, rule_set(entry.version.rules_name)


def _card(
    rate: Rate,
    current: Mapping[Rate, CurrentList],
    entries: Mapping[int, EntryRow],
    history: Sequence[HistoryRow],
    explained: Mapping[Rate, tuple[Explanation, RuleSet] | None],
    context: Context,
) -> GradeCard:
    found = current.get(rate)
    row = entries.get(found.current.id) if found else None
    graded = row if row is not None and row.published and row.grade is not None else None
    august = _august(found, entries)
    how = explained.get(rate)
    junior = row.junior_age if row else None
    fide = _converted(graded, ecf_to_fide)
    return GradeCard(
        rate=rate,
        grade=graded.grade if graded else None,
        category=graded.category if graded else "",
        category_words=short_words(graded.category, junior is not None, RULES) if graded else "",
        junior_age=junior if graded else None,
        games_latest=row.games_latest if row else 0,
        games_counted=row.games_counted if row else 0,
        list_id=found.list_id if found else "",
        version=found.current.name if found else "",
        published_at=found.current.published_at if found else None,
        august_grade=_grade(august),
        august_category=august.category if august and august.published else "",
        revised=august is not None and _grade(august) != _grade(row),
        fide=fide,
        national_elo=_converted(graded, ecf_to_national_elo),
        below_fide_minimum=fide is not None and below_fide_minimum(fide),
        last_grade=None if graded else latest_grade(history, rate),
        breakdown=_published_breakdown(found, how, context),
        from_file=row is not None and how is None,
    )


def _august(found: CurrentList | None, entries: Mapping[int, EntryRow]) -> EntryRow | None:
    """The August grade (G27), shown only beside a later version of the same list."""
    if found is None or found.august is None or found.august.id == found.current.id:
        return None
    return entries.get(found.august.id) or _UNGRADED


_UNGRADED = EntryRow(0, 0, 0, None, "", False, 0, 0, None)  # not in the August version


def _grade(row: EntryRow | None) -> int | None:
    return row.grade if row is not None and row.published else None


def _converted(row: EntryRow | None, convert: Callable[[float], float]) -> int | None:
    """G29's equivalent of a published grade (a whole number: the grade is one)."""
    if row is None or row.grade is None:
        return None
    return round(convert(row.grade))


def _published_breakdown(
    found: CurrentList | None, how: tuple[Explanation, RuleSet] | None, context: Context
) -> Breakdown | None:
    if found is None or how is None:
        return None
    explanation, rules = how
    return breakdown(explanation, found.current.name, _with_rules(context, rules))


def _with_rules(context: Context, rules: RuleSet) -> Context:
    return Context(context.player_id, context.details, context.names, rules)


def _junior(
    entries: Mapping[int, EntryRow], current: Mapping[Rate, CurrentList]
) -> tuple[int, date] | None:
    """G25: a junior's age as his latest current list publishes it, and its age date."""
    ordered = sorted(current.values(), key=lambda c: c.list_id, reverse=True)
    for found in ordered:
        row = entries.get(found.current.id)
        if row is not None and row.junior_age is not None:
            return row.junior_age, ListId.parse(found.list_id).age_date(RULES)
    return None


def _clubs(player_id: int, current: Mapping[Rate, CurrentList]) -> tuple[ClubShown, ...]:
    seasons = [c.season for c in current.values()]
    if not seasons:
        return ()
    return shown_clubs([player_id], max(seasons)).get(player_id, ())


# --- the next list ---------------------------------------------------------------------


def _run(found: CurrentList, token: str) -> NextRun:
    return provisional_run(next_list(ListId.parse(found.list_id), found.rate), found.rate, token)


def _received(
    records: Sequence[int], runs: Mapping[Rate, NextRun], final: Mapping[int, int]
) -> dict[Rate, list[GameDetail]]:
    """Graded games of each rate dated after the current list's latest period.

    One query a side, each by its player's index: asked for both sides at once, SQLite
    chose to read every game of the rate instead.
    """
    since = {rate: run.list_id.previous_same_rate(rate).p0().end for rate, run in runs.items()}
    if not since:
        return {}
    rows = {
        row[0]: row
        for side in ("player1_id", "player2_id")
        for row in Game.objects.filter(
            **{f"{side}__in": records}, graded=True, game_date__gt=min(since.values())
        ).values_list(*DETAIL_COLUMNS, "sequence")
    }
    found: dict[Rate, list[GameDetail]] = {rate: [] for rate in runs}
    for row in sorted(rows.values(), key=lambda r: (r[1], r[-1])):  # by date, as recorded
        rate, game = Rate(row[4]), detail(row[:-1], final)
        # Two records of one person who met are merged: that game is no game (inputs.py).
        if rate in since and game.date > since[rate] and game.sides[0] != game.sides[1]:
            found[rate].append(game)
    return found


def _context(
    player_id: int,
    explained: Sequence[tuple[Explanation, RuleSet] | Explanation | None],
    new: Mapping[Rate, list[GameDetail]],
    final: Mapping[int, int],
) -> Context:
    """Events and opponents of every game the page lists: two queries for them all."""
    shown = [how[0] if isinstance(how, tuple) else how for how in explained]
    received = [d for games in new.values() for d in games]
    details = {d.id: d for d in received}
    details.update(game_details(wanted_games(shown) - set(details), final))
    names = opponents(wanted_players(player_id, shown, details.values()))
    return Context(player_id, details, names, RULES)


def _next_lists(
    player: Player,
    records: Sequence[int],
    runs: Mapping[Rate, NextRun],
    ahead: Mapping[Rate, Explanation | None],
    new: Mapping[Rate, list[GameDetail]],
    context: Context,
    versions: Sequence[VersionInfo],
) -> tuple[NextList, ...]:
    before = _stored_counts(records, runs, versions)
    return tuple(
        _next(player, run, ahead[rate], new[rate], context, before[rate])
        for rate, run in runs.items()
    )


def _next(
    player: Player,
    run: NextRun,
    explanation: Explanation | None,
    received: list[GameDetail],
    context: Context,
    before: tuple[int, int],
) -> NextList:
    lid, rate = run.list_id, run.rate
    entry = explanation.entry if explanation else None
    lines = {line.game_id: line for line in explanation.games} if explanation else {}
    junior = (
        entry.junior_age is not None
        if entry
        else junior_age(player.date_of_birth, lid, RULES) is not None
    )
    n0 = entry.games_latest if entry else 0
    n1, n2 = (entry.n1, entry.n2) if entry else before
    return NextList(
        rate=rate,
        list_id=str(lid),
        start=lid.p0().start,
        end=lid.p0().end,
        h0_start=lid.h0().start,
        since=lid.previous_same_rate(rate).p0().end,
        received=tuple(received_row(d, context, line=lines.get(d.id)) for d in received),
        received_until=run.received_until,
        provisional=breakdown(explanation, "provisional", context) if explanation else None,
        junior=junior,
        games_latest=n0,
        games_before=(n1, n2),
        needs=games_needed(n0, n1, n2, junior=junior, rules=RULES),
        x_need=x_needed(run.h0_games(player.id), RULES) if rate is Rate.RAPID else None,
    )


def _stored_counts(
    records: Sequence[int], runs: Mapping[Rate, NextRun], versions: Sequence[VersionInfo]
) -> dict[Rate, tuple[int, int]]:
    """G17: games the lists of the next list's P1 and P2 stored for him (one query).

    Only needed for a player with no game in the next list's P0 yet; the engine's entry
    carries them otherwise.
    """
    latest = current_versions(versions)
    wanted = {
        (rate, k): latest.get((str(run.list_id.years_earlier(k)), rate))
        for rate, run in runs.items()
        for k in (1, 2)
    }
    ids = [v.id for v in wanted.values() if v is not None]
    totals = dict(
        StoredPeriodTotal.objects.filter(version_id__in=ids, player_id__in=records)
        .values("version_id")
        .annotate(n=Sum("n"))
        .values_list("version_id", "n")
    )
    count = {key: int(totals.get(v.id, 0)) if v else 0 for key, v in wanted.items()}
    return {rate: (count[(rate, 1)], count[(rate, 2)]) for rate in runs}
