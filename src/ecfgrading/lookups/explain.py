"""How a stored grade was calculated, rebuilt from what its version stored (section 10).

A published version is immutable, so its breakdown is read from its own rows (entries,
stored points, and the versions its report says it read), never recomputed from games
that may have been corrected since. This module only loads those rows; the engine's
``explain_stored`` applies the rules, under the rule set the version names.
"""

from __future__ import annotations

from django.db.models import Sum

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
from ecfgrading.registry.models import (
    Game,
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


def explain_entry(entry: ListEntry) -> tuple[Explanation, dict[int, str]]:
    """The engine's Explanation for a stored entry, and the names it mentions."""
    rules = _rules(entry.version)
    stored = _stored_grade(entry, rules)
    explanation = explain_stored(stored, rules)
    return explanation, _names({entry.player_id} | {g.opponent_id for g in stored.games})


def _rules(version: ListVersion) -> RuleSet:
    """A version is explained under the rule set it was computed with."""
    try:
        return rule_set(version.rules_name)
    except ValueError as error:
        raise BreakdownError(f"list version {version}: {error}", kind=ErrorKind.CONFLICT) from None


def _stored_grade(entry: ListEntry, rules: RuleSet) -> StoredGrade:
    """The rows the version stored for the player, and those of the versions it read."""
    version = entry.version
    rate = Rate(version.grading_list.rate)
    lid = version.grading_list.list
    survivors = Survivors()
    read = version.report.get("read_from", {})  # the P1/P2 versions, as the run recorded
    records = _records(entry.player_id, survivors)
    by_games = rules.needs_stored_games(rate)
    return StoredGrade(
        list_id=lid,
        rate=rate,
        entry=_engine_entry(entry),
        games=_p0_games(entry, survivors),
        p1=_period(period_versions(read.get("p1")), records, lid.period(1), by_games),
        p2=_period(period_versions(read.get("p2")), records, lid.period(2), by_games),
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


def _p0_games(entry: ListEntry, survivors: Survivors) -> tuple[StoredGame, ...]:
    stored = list(
        StoredGamePoints.objects.filter(version=entry.version, player=entry.player, period=0)
        .exclude(game=None)
        .values_list("game_id", "points")
    )
    games = Game.objects.in_bulk([game_id for game_id, _ in stored])
    final = survivors.final  # a merged record's games are his survivor's
    sides = {
        gid: (final.get(g.player1_id, g.player1_id), final.get(g.player2_id, g.player2_id))
        for gid, g in games.items()
    }
    opponents = {b if a == entry.player_id else a for a, b in sides.values()}
    rows = ListEntry.objects.filter(version=entry.version, player_id__in=opponents)
    found = list(rows.values_list("player_id", "start_grade", "start_source"))
    starts = {pk: start for pk, start, _source in found}
    estimated = {pk for pk, _start, source in found if source == StartSource.ESTIMATED}
    return tuple(
        _stored_game(entry.player_id, games[gid], sides[gid], points, starts, estimated)
        for gid, points in stored
    )


def _stored_game(
    player_id: int,
    game: Game,
    sides: tuple[int, int],
    points: float,
    starts: dict[int, float | None],
    estimated: set[int],
) -> StoredGame:
    first = sides[0] == player_id
    opponent = sides[1] if first else sides[0]
    score1 = ResultCode.from_text(game.result).score1
    start = starts.get(opponent)
    return StoredGame(
        game_id=game.id,
        date=game.game_date,
        opponent_id=opponent,
        opponent_start=float("nan") if start is None else start,  # unknown, not zero
        score=score1 if first else 1.0 - score1,
        points=points,
        opponent_estimated=opponent in estimated,
    )


def _records(player_id: int, survivors: Survivors) -> list[int]:
    """The player's own record and those merged into him: the grading run read them all."""
    return list(survivors.records(player_id))


def _period(
    version_ids: list[int], records: list[int], period: Period, by_games: bool
) -> StoredPeriod:
    """G17, G34: what the versions that graded P1 or P2 stored for the player's records:
    their totals, or (G15, G34, G35, G38) their games dated in the period."""
    if not version_ids:
        return StoredPeriod()
    if not by_games and len(version_ids) == 1:
        totals = StoredPeriodTotal.objects.filter(
            version_id=version_ids[0], player_id__in=records
        ).aggregate(n=Sum("n"), total=Sum("total"))
        return StoredPeriod(int(totals["n"] or 0), float(totals["total"] or 0.0))
    games = _period_games(version_ids, records, period)
    return StoredPeriod(len(games), sum(g.points for g in games), games if by_games else ())


def _period_games(
    version_ids: list[int], records: list[int], period: Period
) -> tuple[StoredPeriodGame, ...]:
    """Every stored game of the period; the engine picks those it brings forward."""
    rows = StoredGamePoints.objects.filter(
        version_id__in=version_ids,
        player_id__in=records,
        period=0,
        date__gte=period.start,
        date__lte=period.end,
    ).values_list("game_id", "date", "sequence", "points")
    return tuple(StoredPeriodGame(g or 0, d, s, p) for g, d, s, p in rows)


def _names(ids: set[int]) -> dict[int, str]:
    return {p.id: f"{p.name} {p.ref}" for p in Player.objects.filter(id__in=ids)}
