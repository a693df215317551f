"""How a grade was calculated (rules, section 10), as plain values a page can show.

The figures are the engine's: an ``Explanation`` (``engine.explain``) of a published
entry (``lookups.explain.stored_explanation``) or of a provisional one
(``provisional``), turned into rows with what a reader needs beside them: the event, the
opponent's name and code, the colour. Nothing here applies a grading rule; it adds up
what the engine's explanation lists, in the order section 10 gives: starting grade,
games and points, games brought forward, the mean, the junior bonus, the floor,
rounding and the category.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ecfgrading.engine.codes import code_text
from ecfgrading.engine.explain import Explanation, Forward, GameLine
from ecfgrading.engine.outcome import Entry
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rules import CategoryRule, Counting, RuleSet, rule_set
from ecfgrading.engine.types import Category, Rate, ResultCode, StartSource
from ecfgrading.formats.names import full_name
from ecfgrading.lookups.explain import stored_explanation, stored_explanations
from ecfgrading.lookups.lists import list_label
from ecfgrading.lookups.records import Survivors
from ecfgrading.lookups.shaped import Statement
from ecfgrading.registry.models import Game, ListEntry, Player

_COLOURS = {"W": "white", "B": "black"}
# The columns of a game ``detail`` reads, in its order.
DETAIL_COLUMNS = (
    "id",
    "game_date",
    "event__code",
    "event__name",
    "rate",
    "player1_id",
    "player2_id",
    "colour",
    "result",
)
_OTHER = {"white": "black", "black": "white", "": ""}


@dataclass(frozen=True)
class Opponent:
    code: str
    name: str  # Surname, Forenames


@dataclass(frozen=True)
class GameDetail:
    """What the registry records about a game besides its points: one query for all."""

    id: int
    date: date
    event_code: str
    event_name: str
    rate: str
    sides: tuple[int | None, int | None]  # surviving player ids; None: being identified
    colour1: str  # player 1's colour: white, black or '' (not given)
    score1: float  # player 1's score

    def side_of(self, player_id: int) -> int:
        return 0 if self.sides[0] == player_id else 1

    def opponent_of(self, player_id: int) -> int | None:
        return self.sides[1 - self.side_of(player_id)]

    def colour_of(self, player_id: int) -> str:
        return self.colour1 if self.side_of(player_id) == 0 else _OTHER[self.colour1]

    def score_of(self, player_id: int) -> float:
        return self.score1 if self.side_of(player_id) == 0 else 1.0 - self.score1


@dataclass(frozen=True)
class GameRow:
    """One game from the player's side, with the points it scored (G12)."""

    game_id: int
    date: date | None
    event_code: str
    event_name: str
    opponent: Opponent | None  # None: the opponent is still being identified
    colour: str  # white, black, or '' where the results file did not say
    score: float  # 1 win, 0.5 draw, 0 loss
    opponent_start: float | None  # the opponent's starting grade (G13); None: not known
    counted_as: float | None  # after the 40-point rule (G12)
    points: float | None  # None: not graded in the list shown
    counted: bool  # in the total (an X grade counts its H0 games only, G16)
    opponent_estimated: bool = False  # the opponent's starting grade is an estimate (G7)

    @property
    def result(self) -> str:
        return {1.0: "win", 0.5: "draw", 0.0: "loss"}[self.score]


@dataclass(frozen=True)
class BroughtForward:
    """Games of an earlier period, or half-year, counted towards the target: G14
    (notional), G15 and G35 (actual, most recent), G38 (whole half-years, the earliest
    pro rata)."""

    period: int  # 1 or 2
    start: date  # the period's, or the half-year's (G38)
    end: date
    games: int
    average: float | None  # notional games are each worth this (G14; G38 pro rata)
    points: float
    stored: tuple[GameRow, ...]  # the actual games, most recent first
    rule: str  # the rule that brought them: G14, G15, G35 or G38
    half_year_games: int = 0  # G38: the half-year's stored games and points
    half_year_total: float = 0.0

    @property
    def whole(self) -> bool:
        """G38: a half-year taken whole, its actual games."""
        return self.rule == "G38" and self.average is None


@dataclass(frozen=True)
class PeriodShown:
    """One of the periods a grade reads (G32), named as the breakdown names it."""

    name: str  # P0, P1, P2
    start: date
    end: date


@dataclass(frozen=True)
class CategoryReason:
    """Why the grade has its category: the counts against the first row that fits (G23)."""

    category: str  # '' when no row fits (ungraded)
    junior: bool
    x_grade: bool
    games_latest: int
    games_two: int  # latest two seasons (n0 + n1)
    games_three: int  # latest three seasons (n0 + n1 + n2)
    h0_games: int  # rapid: games in the latest half-year
    x_min_games: int  # G16
    rule: CategoryRule | None

    @property
    def text(self) -> str:
        """The counts against the row that fits, in words."""
        table = "junior" if self.junior else "adult"
        if self.x_grade:
            return (
                f"{self.h0_games} games in the latest half-year, {self.x_min_games} or "
                "more: category X, and the grade counts those games only (G16, G36)"
            )
        if self.rule is None:
            return (
                f"{self.games_latest} games in the latest season, {self.games_two} in the "
                f"latest two and {self.games_three} in the latest three fit no row of the "
                f"{table} table: the grade is not published (ungraded, G23)"
            )
        return f"{', '.join(self._tests(self.rule))}: the first row of the {table} table to fit"

    def _tests(self, rule: CategoryRule) -> list[str]:
        found = []
        for least, have, span in (
            (rule.min_n0, self.games_latest, "the latest season"),
            (rule.min_n01, self.games_two, "the latest two seasons"),
            (rule.min_n012, self.games_three, "the latest three seasons"),
        ):
            if least:
                found.append(f"{have} games in {span} (at least {least})")
        return found


@dataclass(frozen=True)
class Breakdown:
    """Section 10 for one grade, adding up to its figure."""

    list_id: str
    rate: Rate
    version: str  # initial, august, revN; 'provisional' for the next list
    rule_set: str  # G44: the rule set the grade was computed under
    periods: tuple[PeriodShown, ...]  # G44: P0, P1, P2
    long_half_year: tuple[date, date] | None  # G32: the 7-month half-year, where it is used
    start: date  # the list's latest period P0
    end: date
    h0_start: date  # rapid X grades count the half-year H0 only (G16)
    start_grade: float
    start_source: str  # previous, other-rate, assigned, estimated
    start_list: str  # the list a previous or other-rate starting grade comes from
    unanchored: bool  # G11
    games: tuple[GameRow, ...]  # P0, by date
    latest_points: float  # of the P0 games counted
    latest_games: int
    forward: tuple[BroughtForward, ...]
    points_total: float
    games_counted: int
    calculated: float  # points_total / games_counted, before the bonus
    junior_age: int | None
    bonus: float  # G20
    floored: bool  # G21: a negative result is published as 0
    unrounded: float
    grade: int  # G22
    reason: CategoryReason
    target: int  # G14, G18: games a grade is based on when history allows
    cap: float  # G12: the 40-point rule
    margin: float  # G12: plus or minus 50 for a win or a loss

    @property
    def label(self) -> str:
        return list_label(self.list_id)

    @property
    def x_grade(self) -> bool:
        return self.reason.x_grade

    @property
    def counted_games(self) -> tuple[GameRow, ...]:
        return tuple(g for g in self.games if g.counted)

    @property
    def other_games(self) -> tuple[GameRow, ...]:
        """P0 games the grade leaves out: before the half-year for an X grade (G16, G36);
        older than the most recent games counted (G35)."""
        return tuple(g for g in self.games if not g.counted)

    @property
    def counted_back(self) -> bool:
        """G35: only the most recent of the P0 games count."""
        return not self.x_grade and bool(self.other_games)

    @property
    def start_words(self) -> str:
        """Where the starting grade came from (G4..G11), in words."""
        rate, source = self.rate.value, StartSource(self.start_source)
        if source is StartSource.PREVIOUS:
            return f"his grade in the {list_label(self.start_list)} {rate} list (G4)"
        if source is StartSource.OTHER_RATE:
            other = self.rate.other.value
            return f"his {other} grade in the {list_label(self.start_list)} list (G5)"
        if source is StartSource.ASSIGNED:
            return "assigned by the grading team (G6)"
        why = (
            "juniors are estimated afresh for every list"
            if self.junior_age is not None
            else "he had no grade to start from"
        )
        words = f"estimated from his games, as {why} (G7-G9)"
        if self.unanchored:
            words += "; his games reach no graded player, so it is unanchored (G11)"
        return words


def game_details(ids: Iterable[int], final: Mapping[int, int]) -> dict[int, GameDetail]:
    """Games by id with their events (one query); sides as the surviving records."""
    return {row[0]: detail(row, final) for row in _DETAILS.rows(set(ids))}


_DETAILS = Statement(
    lambda ids: Game.objects.filter(id__in=ids).order_by().values_list(*DETAIL_COLUMNS)
)


def detail(row: tuple[object, ...], final: Mapping[int, int]) -> GameDetail:
    """A ``GameDetail`` from a row of ``game_details``' columns."""
    gid, day, code, name, rate, one, two, colour, result = row
    sides = tuple(None if p is None else final.get(p, p) for p in (one, two))  # type: ignore[call-overload]
    return GameDetail(
        id=gid,  # type: ignore[arg-type]
        date=day,  # type: ignore[arg-type]
        event_code=str(code),
        event_name=str(name),
        rate=str(rate),
        sides=sides,  # type: ignore[arg-type]
        colour1=_COLOURS.get(str(colour), ""),
        score1=ResultCode.from_text(str(result)).score1,
    )


def opponents(ids: Iterable[int | None]) -> dict[int, Opponent]:
    """Names and codes of the players given (one query)."""
    wanted = {i for i in ids if i is not None}
    return {
        pk: Opponent(code_text(code), full_name(surname, forenames))
        for pk, code, surname, forenames in _OPPONENTS.rows(wanted)
    }


_OPPONENTS = Statement(
    lambda ids: (
        Player.objects.filter(id__in=ids)
        .order_by()
        .values_list("id", "code", "surname", "forenames")
    )
)


def wanted_games(explanations: Iterable[Explanation | None]) -> set[int]:
    """The game ids an explanation shows: its P0 games and rapid games brought forward."""
    ids: set[int] = set()
    for expl in explanations:
        if expl is not None:
            ids.update(line.game_id for line in expl.games)
            ids.update(s.game_id for f in expl.forward for s in f.stored_games)
    return ids


def wanted_players(
    player_id: int, explanations: Iterable[Explanation | None], details: Iterable[GameDetail]
) -> set[int | None]:
    lines = {line.opponent_id for e in explanations if e is not None for line in e.games}
    return lines | {d.opponent_of(player_id) for d in details}


@dataclass(frozen=True)
class Context:
    """What turns an explanation's ids into rows: the registry's details, one query each."""

    player_id: int
    details: Mapping[int, GameDetail]
    names: Mapping[int, Opponent]
    rules: RuleSet


def context_for(
    player_id: int,
    shown: Sequence[Explanation | None],
    received: Mapping[Rate, Sequence[GameDetail]],
    final: Mapping[int, int],
    rules: RuleSet,
) -> Context:
    """Events and opponents of every game a page lists (the explanations ``shown`` and
    the games ``received`` since the last list): two queries for them all."""
    details = {d.id: d for games in received.values() for d in games}
    details.update(game_details(wanted_games(shown) - set(details), final))
    names = opponents(wanted_players(player_id, shown, details.values()))
    return Context(player_id, details, names, rules)


def explained(
    entry: ListEntry, survivors: Survivors | None = None
) -> tuple[Explanation, RuleSet] | None:
    """Section 10 of a published entry from what its version stored, under the version's
    rule set; None for a list loaded from a file, whose games are not on record. The
    page's ``survivors`` (merged records), if read already, are not read again."""
    if not entry.start_source:
        return None
    return stored_explanation(entry, survivors), rule_set(entry.version.rules_name)


def explained_together(
    entries: Mapping[Rate, ListEntry], survivors: Survivors
) -> dict[Rate, tuple[Explanation, RuleSet] | None]:
    """``explained`` of a page's entries of each rate, read together: three queries for
    them all rather than three for each."""
    stored = {rate: entry for rate, entry in entries.items() if entry.start_source}
    found = stored_explanations(list(stored.values()), survivors) if stored else []
    how = dict(zip(stored, found, strict=True))
    return {
        rate: (how[rate], rule_set(entry.version.rules_name)) if rate in how else None
        for rate, entry in entries.items()
    }


def stored_breakdown(how: tuple[Explanation, RuleSet], version: str, context: Context) -> Breakdown:
    """``explained``'s figures as a page shows them, under the version's own rules."""
    explanation, rules = how
    return breakdown(explanation, version, replace(context, rules=rules))


def breakdown(expl: Explanation, version: str, context: Context) -> Breakdown:
    """The explanation as a page shows it; every figure is the engine's."""
    entry, lid = expl.entry, ListId.parse(expl.list_id)
    games = tuple(_line_row(line, expl.x_grade, context) for line in expl.games)
    counted = [g for g in games if g.counted]
    return Breakdown(
        list_id=expl.list_id,
        rate=expl.rate,
        version=version,
        rule_set=expl.rule_set or context.rules.name,
        periods=tuple(PeriodShown(f"P{k}", p.start, p.end) for k, p in enumerate(expl.periods)),
        long_half_year=_long_half_year(lid),
        start=lid.p0().start,
        end=lid.p0().end,
        h0_start=lid.h0().start,
        start_grade=entry.start_grade,
        start_source=entry.start_source.value,
        start_list=_start_list(lid, expl.rate, entry.start_source),
        unanchored=expl.unanchored,
        games=games,
        latest_points=sum(g.points or 0.0 for g in counted),
        latest_games=len(counted),
        forward=tuple(_forward(lid, f, context, expl.rate) for f in expl.forward),
        points_total=expl.points_total,
        games_counted=entry.games_counted,
        calculated=entry.calculated,
        junior_age=entry.junior_age,
        bonus=entry.bonus,
        floored=entry.calculated + entry.bonus < context.rules.floor,
        unrounded=entry.unrounded,
        grade=entry.grade,
        reason=category_reason(entry, expl.x_grade, _h0(expl), context.rules),
        target=context.rules.target(entry.junior_age is not None),
        cap=context.rules.cap,
        margin=context.rules.result_margin,
    )


def _long_half_year(lid: ListId) -> tuple[date, date] | None:
    """G32: the 7-month half-year among those the list's periods are made of, if any."""
    for half in lid.half_years():
        if (half.end - half.start).days > 200:
            return half.start, half.end
    return None


def _h0(expl: Explanation) -> int:
    return sum(1 for line in expl.games if line.in_h0)


def _start_list(lid: ListId, rate: Rate, source: StartSource) -> str:
    if source is StartSource.PREVIOUS:
        return str(lid.previous_same_rate(rate))
    if source is StartSource.OTHER_RATE:
        return str(lid.previous_other_rate(rate))
    return ""


def _line_row(line: GameLine, x_grade: bool, context: Context) -> GameRow:
    found = context.details.get(line.game_id)
    return GameRow(
        game_id=line.game_id,
        date=line.date,
        event_code=found.event_code if found else "",
        event_name=found.event_name if found else "",
        opponent=context.names.get(line.opponent_id),
        colour=found.colour_of(context.player_id) if found else "",
        score=line.score,
        opponent_start=_known(line.opponent_start),
        counted_as=_known(line.counted_as),
        points=line.points,
        counted=line.in_h0 if x_grade else line.counted,
        opponent_estimated=line.opponent_estimated,
    )


def _forward(lid: ListId, part: Forward, context: Context, rate: Rate) -> BroughtForward:
    span = lid.half_years()[part.half_year] if part.half_year else lid.period(part.period)
    stored = sorted(part.stored_games, key=lambda s: (s.date or date.min, s.game_id), reverse=True)
    return BroughtForward(
        period=part.period,
        start=span.start,
        end=span.end,
        games=part.games,
        average=part.average,
        points=part.points,
        stored=tuple(
            received_row(context.details[s.game_id], context, points=s.points)
            for s in stored
            if s.game_id in context.details
        ),
        rule=_forward_rule(part, context.rules, rate),
        half_year_games=part.half_year_games,
        half_year_total=part.half_year_total,
    )


def _forward_rule(part: Forward, rules: RuleSet, rate: Rate) -> str:
    """The rule that brought these games forward, as the breakdown cites it."""
    if part.half_year is not None:
        return "G38"
    if rules.counting is Counting.COUNT_BACK:
        return "G35"
    return "G14" if rate is Rate.STANDARD else "G15"


def received_row(
    found: GameDetail,
    context: Context,
    *,
    line: GameLine | None = None,
    points: float | None = None,
) -> GameRow:
    """A game from the registry, with the points a list gave it (``line``) if any."""
    opponent = found.opponent_of(context.player_id)
    return GameRow(
        game_id=found.id,
        date=found.date,
        event_code=found.event_code,
        event_name=found.event_name,
        opponent=None if opponent is None else context.names.get(opponent),
        colour=found.colour_of(context.player_id),
        score=found.score_of(context.player_id),
        opponent_start=_known(line.opponent_start) if line else None,
        counted_as=_known(line.counted_as) if line else None,
        points=line.points if line else points,
        counted=line is not None or points is not None,
        opponent_estimated=line.opponent_estimated if line else False,
    )


def category_reason(entry: Entry, x_grade: bool, h0: int, rules: RuleSet) -> CategoryReason:
    """The counts the category was decided on, and the row of the table that fits (G23)."""
    junior = entry.junior_age is not None
    table = rules.junior_categories if junior else rules.adult_categories
    rule = next((row for row in table if row.category == entry.category.value), None)
    n0 = entry.games_latest
    return CategoryReason(
        category=entry.category.value,
        junior=junior,
        x_grade=x_grade or entry.category is Category.X,
        games_latest=n0,
        games_two=n0 + entry.n1,
        games_three=n0 + entry.n1 + entry.n2,
        h0_games=h0,
        x_min_games=rules.x_min_games,
        rule=rule,
    )


def _known(value: float) -> float | None:
    return None if math.isnan(value) else value


def short_words(category: str, junior: bool, rules: RuleSet) -> str:
    """A category in a few words beside its letter: 'B: 30 games over two seasons'.

    Written from the row of the table (G16, G23), so the words follow the rule set.
    """
    if category == Category.X.value:
        return f"{rules.x_min_games} games in the latest half-year"
    table = rules.junior_categories if junior else rules.adult_categories
    row = next((r for r in table if r.category == category), None)
    if row is None:
        return "ungraded: too few games for any category"
    if row.min_n012:
        return f"{row.min_n012} games over three seasons"
    if row.min_n01:
        return f"{row.min_n01} games over two seasons"
    return f"{row.min_n0} games in the latest season"
