"""How a stored grade was calculated, rebuilt from what its version stored (section 10).

A published version is immutable, so its breakdown is read from its own rows (entries,
stored points, and the versions its report says it read), never recomputed from games
that may have been corrected since. This module only loads those rows; the engine's
``explain_stored`` applies the rules, under the rule set the version names.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, NamedTuple

from ecfgrading.engine import Category, Flag, Rate, ResultCode, StartSource
from ecfgrading.engine.explain import (
    Explanation,
    StoredGame,
    StoredGrade,
    StoredPeriod,
    StoredPeriodGame,
    explain_stored,
)
from ecfgrading.engine.outcome import Entry
from ecfgrading.engine.periods import ListId, Period
from ecfgrading.engine.rules import RuleSet, rule_set
from ecfgrading.errors import ErrorKind, ServiceError, user_input
from ecfgrading.lookups import versions
from ecfgrading.lookups.list_inputs import period_versions
from ecfgrading.lookups.records import Survivors
from ecfgrading.lookups.shaped import Statement
from ecfgrading.registry.models import (
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
    StoredPeriodTotal,
)
from ecfgrading.registry.numbering import player_on_record


class BreakdownError(ServiceError):
    """No such player, or no grade of his in the list asked for."""


def breakdowns(code: str, list_id: str | None = None) -> list[tuple[Explanation, dict[int, str]]]:
    """The player's explanations in a list (default: his latest published of each rate)."""
    if list_id is not None:
        with user_input(BreakdownError):
            list_id = str(ListId.parse(list_id))
    player = _player(code)
    found = []
    for rate in (Rate.STANDARD, Rate.RAPID):
        entry = _entry(player, rate, list_id)
        if entry is not None:
            found.append(explain_entry(entry))
    if not found:
        where = f"list {list_id}" if list_id else "any published list"
        raise BreakdownError(
            f"{player.ref} {player.name} has no grade in {where}", kind=ErrorKind.NOT_FOUND
        )
    return found


def _player(code: str) -> Player:
    return player_on_record(code, BreakdownError)


def _entry(player: Player, rate: Rate, list_id: str | None) -> ListEntry | None:
    entries = ListEntry.objects.filter(
        player=player,
        version__grading_list__rate=rate.value,
        version__status=ListVersion.Status.PUBLISHED,
    ).select_related("version__grading_list")
    if list_id is not None:
        current = versions.published(list_id, rate)
        return entries.filter(version=current).first() if current else None
    return entries.order_by("-version__grading_list__list_id", "-version__published_at").first()


def explain_entry(
    entry: ListEntry, survivors: Survivors | None = None
) -> tuple[Explanation, dict[int, str]]:
    """The engine's Explanation for a stored entry, and the names it mentions."""
    explanation = stored_explanation(entry, survivors)
    opponents = {line.opponent_id for line in explanation.games}
    return explanation, _names({entry.player_id} | opponents)


def stored_explanation(entry: ListEntry, survivors: Survivors | None = None) -> Explanation:
    """The engine's Explanation for a stored entry, under its version's rule set; the
    merged records as ``survivors`` (the caller's, read once for a page) or read here."""
    (found,) = stored_explanations([entry], survivors or Survivors())
    return found


def stored_explanations(entries: Sequence[ListEntry], survivors: Survivors) -> list[Explanation]:
    """``stored_explanation`` of each entry (a page's standard and rapid grades), in three
    queries for them all: the P0 games with their points, the opponents' starting
    grades, and what the versions of P1 and P2 stored."""
    rules = [_rules(entry.version) for entry in entries]
    asks = [_ask(entry, rule, survivors) for entry, rule in zip(entries, rules, strict=True)]
    games = _p0_games(entries, survivors)
    periods = _periods(asks)
    return [
        explain_stored(_stored_grade(entry, ask, found, read), rule)
        for entry, ask, found, read, rule in zip(entries, asks, games, periods, rules, strict=True)
    ]


def _rules(version: ListVersion) -> RuleSet:
    """A version is explained under the rule set it was computed with."""
    try:
        return rule_set(version.rules_name)
    except ValueError as error:
        raise BreakdownError(f"list version {version}: {error}", kind=ErrorKind.CONFLICT) from None


class _Ask(NamedTuple):
    """What an entry's explanation reads of P1 and P2 (G17, G34)."""

    version_ids: tuple[list[int], list[int]]  # the versions that graded P1 and P2
    periods: tuple[Period, Period]
    records: tuple[int, ...]  # his own record and those merged into him
    by_games: bool  # G15, G35, G38: their games, not only their totals


def _ask(entry: ListEntry, rules: RuleSet, survivors: Survivors) -> _Ask:
    version = entry.version
    lid = version.grading_list.list
    read = version.report.get("read_from", {})  # the P1/P2 versions, as the run recorded
    return _Ask(
        (period_versions(read.get("p1")), period_versions(read.get("p2"))),
        (lid.period(1), lid.period(2)),
        survivors.records(entry.player_id),  # the grading run read them all
        rules.needs_stored_games(Rate(version.grading_list.rate)),
    )


def _stored_grade(
    entry: ListEntry,
    ask: _Ask,
    games: tuple[StoredGame, ...],
    periods: tuple[StoredPeriod, StoredPeriod],
) -> StoredGrade:
    """The rows the version stored for the player, and those of the versions it read."""
    version = entry.version
    return StoredGrade(
        list_id=version.grading_list.list,
        rate=Rate(version.grading_list.rate),
        entry=_engine_entry(entry),
        games=games,
        p1=periods[0],
        p2=periods[1],
    )


def _engine_entry(entry: ListEntry) -> Entry:
    flags = tuple(Flag(f) for f in entry.flags.split(",") if f)
    return Entry(
        index=-1,
        player_id=entry.player_id,
        grade=entry.grade or 0,
        unrounded=entry.unrounded if entry.unrounded is not None else float(entry.grade or 0),
        calculated=entry.calculated if entry.calculated is not None else float(entry.grade or 0),
        category=Category(entry.category),
        games_latest=entry.games_latest,
        games_counted=entry.games_counted,
        junior_age=entry.junior_age,
        bonus=entry.bonus,
        start_grade=entry.start_grade if entry.start_grade is not None else float("nan"),
        start_source=StartSource(entry.start_source)
        if entry.start_source
        else StartSource.PREVIOUS,
        flags=flags,
        n1=entry.n1,
        n2=entry.n2,
    )


# A P0 game as ``_p0_games`` reads it: only the columns the explanation needs, with the
# game's own (never whole model objects: a busy player's page read 100 games' every column).
_P0_COLUMNS = (
    "game_id",
    "points",
    "game__player1_id",
    "game__player2_id",
    "game__result",
    "game__game_date",
)


class _P0Row(NamedTuple):
    game_id: int
    points: float
    player1_id: int  # a graded game's sides are identified
    player2_id: int
    result: str
    game_date: date


def _p0_games(entries: Sequence[ListEntry], survivors: Survivors) -> list[tuple[StoredGame, ...]]:
    """G17: the P0 games each entry's version stored for its player, with the points it
    gave them, in the order it stored them (for one version and one player: by date and
    sequence)."""
    pairs = [(entry.version_id, entry.player_id) for entry in entries]
    rows = _P0.rows({version for version, _ in pairs}, {player for _, player in pairs})
    stored: dict[tuple[int, int], list[_P0Row]] = {pair: [] for pair in pairs}
    for version, player, *row in rows:
        if (version, player) in stored:
            stored[(version, player)].append(_P0Row(*row))
    final = survivors.final  # a merged record's games are his survivor's
    sides = {
        row.game_id: (
            final.get(row.player1_id, row.player1_id),
            final.get(row.player2_id, row.player2_id),
        )
        for found in stored.values()
        for row in found
    }
    wanted = {
        (version, b if a == player else a)
        for (version, player), found in stored.items()
        for a, b in (sides[row.game_id] for row in found)
    }
    starts, estimated = _starts(wanted)
    return [
        tuple(
            _stored_game(
                player,
                row,
                sides[row.game_id],
                starts.get(version, {}),
                estimated.get(version, set()),
            )
            for row in stored[(version, player)]
        )
        for version, player in pairs
    ]


_P0 = Statement(
    lambda versions, players: (
        StoredGamePoints.objects.filter(
            version_id__in=versions, player_id__in=players, period=0, game__isnull=False
        )
        .order_by("date", "sequence")
        .values_list("version_id", "player_id", *_P0_COLUMNS)
    )
)


def _starts(
    wanted: set[tuple[int, int]],
) -> tuple[dict[int, dict[int, float | None]], dict[int, set[int]]]:
    """The starting grades of the (version, player) pairs wanted (G13), and the players
    whose starting grade was estimated (G7): by version, then player. One query."""
    versions = {version for version, _ in wanted}
    rows = _STARTS.rows(versions, {player for _, player in wanted})
    starts: dict[int, dict[int, float | None]] = {version: {} for version in versions}
    estimated: dict[int, set[int]] = {version: set() for version in versions}
    for version, player, start, source in rows:
        starts[version][player] = start
        if source == StartSource.ESTIMATED:
            estimated[version].add(player)
    return starts, estimated


_STARTS = Statement(
    lambda versions, players: (
        ListEntry.objects.filter(version_id__in=versions, player_id__in=players)
        .order_by()
        .values_list("version_id", "player_id", "start_grade", "start_source")
    )
)


def _stored_game(
    player_id: int,
    row: _P0Row,
    sides: tuple[int, int],
    starts: dict[int, float | None],
    estimated: set[int],
) -> StoredGame:
    first = sides[0] == player_id
    opponent = sides[1] if first else sides[0]
    score1 = ResultCode.from_text(row.result).score1
    start = starts.get(opponent)
    return StoredGame(
        game_id=row.game_id,
        date=row.game_date,
        opponent_id=opponent,
        opponent_start=float("nan") if start is None else start,  # unknown, not zero
        score=score1 if first else 1.0 - score1,
        points=row.points,
        opponent_estimated=opponent in estimated,
    )


def _periods(asks: Sequence[_Ask]) -> list[tuple[StoredPeriod, StoredPeriod]]:
    """G17, G34: what the versions that graded each entry's P1 and P2 stored for his
    records: their totals, or (G15, G34, G35, G38) their games dated in the period; each
    kind read for every entry and period in one query."""
    totals = _totals(
        [(ids[0], ask.records) for ask in asks for ids in ask.version_ids if _by_totals(ids, ask)]
    )
    spans = [
        (ids, period, ask.records)
        for ask in asks
        for ids, period in zip(ask.version_ids, ask.periods, strict=True)
        if ids and not _by_totals(ids, ask)
    ]
    games = _period_games(spans)
    return [
        (_stored_period(ask, 0, totals, games), _stored_period(ask, 1, totals, games))
        for ask in asks
    ]


def _by_totals(version_ids: list[int], ask: _Ask) -> bool:
    """A period graded by one version is read from its totals unless games are needed."""
    return not ask.by_games and len(version_ids) == 1


def _stored_period(
    ask: _Ask,
    k: int,
    totals: dict[tuple[int, int], tuple[int, float]],
    games: list[tuple[int, int, StoredPeriodGame]],
) -> StoredPeriod:
    version_ids, period = ask.version_ids[k], ask.periods[k]
    if not version_ids:
        return StoredPeriod()
    if _by_totals(version_ids, ask):
        found = [totals[(version_ids[0], r)] for r in ask.records if (version_ids[0], r) in totals]
        return StoredPeriod(sum(n for n, _ in found), sum((t for _, t in found), 0.0))
    mine = tuple(
        g
        for v, player, g in games
        if v in version_ids and player in ask.records and g.date in period
    )
    return StoredPeriod(len(mine), sum(g.points for g in mine), mine if ask.by_games else ())


def _totals(
    wanted: list[tuple[int, tuple[int, ...]]],
) -> dict[tuple[int, int], tuple[int, float]]:
    """G17: the count and total of P0 games each version stored for each record (the
    versions' P0 are the list's P1 and P2); no query when none is asked for."""
    if not wanted:
        return {}
    found = _TOTALS.rows(
        {version for version, _ in wanted},
        {record for _, records in wanted for record in records},
    )
    return {(version, player): (n, total) for version, player, n, total in found}


_TOTALS = Statement(
    lambda versions, players: (
        StoredPeriodTotal.objects.filter(version_id__in=versions, player_id__in=players)
        .order_by()
        .values_list("version_id", "player_id", "n", "total")
    )
)


def _period_games(
    spans: list[tuple[list[int], Period, tuple[int, ...]]],
) -> list[tuple[int, int, StoredPeriodGame]]:
    """Every stored game of the periods, with the version and record that stored it; the
    engine picks those it brings forward. In the order the versions stored them: by
    version, player, date and sequence (the model's), which for one version and one
    record of each period (the rule) is by date and sequence, and needs no join."""
    if not spans:
        return []
    ordered = all(len(ids) == 1 and len(records) == 1 for ids, _, records in spans)
    found = _PERIOD_GAMES[ordered].rows(
        {v for ids, _, _ in spans for v in ids},
        {r for _, _, records in spans for r in records},
        min(period.start for _, period, _ in spans),
        max(period.end for _, period, _ in spans),
    )
    return [(v, r, StoredPeriodGame(g or 0, d, s, p)) for v, r, g, d, s, p in found]


def _period_games_query(ordered: bool) -> Statement:
    """Stored games of some versions and records in a span of days; by date and sequence
    if ``ordered``, else in the order of the model (by version, player, date, sequence)."""

    def build(versions: list[int], players: list[int], first: date, last: date) -> Any:
        rows = StoredGamePoints.objects.filter(
            version_id__in=versions,
            player_id__in=players,
            period=0,
            date__gte=first,
            date__lte=last,
        )
        if ordered:
            rows = rows.order_by("date", "sequence")
        return rows.values_list("version_id", "player_id", "game_id", "date", "sequence", "points")

    return Statement(build)


_PERIOD_GAMES = {ordered: _period_games_query(ordered) for ordered in (False, True)}


def _names(ids: set[int]) -> dict[int, str]:
    return {p.id: f"{p.name} {p.ref}" for p in Player.objects.filter(id__in=ids)}
