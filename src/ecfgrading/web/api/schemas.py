"""The shapes of /api/v1's answers: typed, so that its OpenAPI schema says exactly what a
program gets (and schemathesis can hold every answer to it).

Each schema reads the read side's frozen dataclasses (``lookups``) by attribute (ninja's
``Schema``); ``resolve_*`` methods rename or derive a field. Dates are ISO dates, times ISO times
with their offset. Only public facts: no schema has a field for a date of birth, an
address or an e-mail address.
"""

from __future__ import annotations

import builtins
import json
import math
from datetime import date, datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema
from ninja.responses import NinjaJSONEncoder
from pydantic import BeforeValidator

from ecfgrading.lookups.clubs import club_key
from ecfgrading.lookups.events import season_label
from ecfgrading.lookups.guide import eras

RateName = Literal["standard", "rapid"]
# G31: every answer that names a version names the rule set it was computed under.
_ERAS = ", ".join(f"{each.name} (lists {each.dates})" for each in eras())
RULE_SET_WORDS = f"G31: the rule set the version was computed under: {_ERAS}."
ASSOC_CODE_TEXT = (
    "Its association code, four capital letters or digits (e.g. NORF): the assoc_code of "
    "its clubs in the federation's API; made from its name unless the team gave one."
)


def _rule_set() -> Any:
    return Field(description=RULE_SET_WORDS)


def _finite(value: Any) -> Any:
    """Not-a-number (an unknown figure) as null: JSON has no NaN."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    return value


Figure = Annotated[float | None, BeforeValidator(_finite)]


# -- errors ---------------------------------------------------------------------------------


class ErrorOut(Schema):
    """An error, in the body every JSON error of the site has (``web.errors``): the HTTP
    status, its kind and what was wrong, in words."""

    status: int
    kind: str = Field(
        description="invalid (400, 422), not-found (404), conflict (409), not-allowed (405),"
        " server-error (500)"
    )
    message: str


class ProblemOut(Schema):
    """What is wrong with one parameter."""

    where: str = Field(description="e.g. query.q, path.code")
    loc: list[str]
    msg: str
    type: str


class InvalidOut(ErrorOut):
    """A parameter the schema refuses (422): the message, and each parameter's problem."""

    detail: list[ProblemOut] = Field(description="Empty when no one parameter is to blame.")


# -- shared pieces --------------------------------------------------------------------------


class PageOut(Schema):
    """Which page this is of how many."""

    page: int = Field(description="This page's number, from 1.")
    per_page: int
    total: int = Field(description="Items on every page together.")
    pages: int

    @staticmethod
    def resolve_page(obj: Any) -> int:
        return int(obj.number)


class VersionOut(Schema):
    """A published version of a list."""

    list: str = Field(description="The list, e.g. 2012-07.")
    rate: RateName
    version: str = Field(description="initial, august, rev1, rev2...")
    rule_set: str = _rule_set()
    published_at: datetime

    @staticmethod
    def resolve_list(obj: Any) -> str:
        return str(obj.list_id)

    @staticmethod
    def resolve_version(obj: Any) -> str:
        return str(obj.name)

    @staticmethod
    def resolve_rule_set(obj: Any) -> str:
        return str(obj.rules_name)


class ClubOut(Schema):
    """A club of a player's (not lapsed: a club quoted in the latest three seasons)."""

    key: str = Field(description="Its address: /api/v1/clubs/{key}.")
    code: str | None
    name: str
    is_location: bool = Field(description="A location, not a club (the seeds' asterisk).")

    @staticmethod
    def resolve_key(obj: Any) -> str:
        """A lookup's clubs know their address; ``lookups.memberships.ClubShown`` its id."""
        known = getattr(obj, "key", None)
        return str(known) if known else club_key(obj.code, obj.id)


# -- players --------------------------------------------------------------------------------


class RowGradeOut(Schema):
    """A grade in a lookup's row (G26, G27)."""

    grade: int | None
    category: str
    august_grade: int | None = Field(description="The grade in the list's August version.")
    revised: bool = Field(description="Differs from the August grade (G27).")
    list: str
    version: str
    current: bool = Field(description="From the current version of the current list.")


class ProvisionalRowOut(Schema):
    """A newcomer's provisional grade: the next list as the results received so far give it."""

    rate: RateName
    grade: int
    category: str
    list: str = Field(description="The next list, e.g. 2016-01.")


class PlayerRowOut(Schema):
    code: str = Field(description="Grading code with its check letter, e.g. 123456A.")
    name: str = Field(description="Surname, Forenames")
    clubs: list[ClubOut]
    standard: RowGradeOut | None
    rapid: RowGradeOut | None
    junior_age: int | None = Field(description="Juniors only (G25).")
    junior_age_from: str | None = Field(description="The list of that age, when not current.")
    not_yet_graded: bool = Field(description="Games on record, never on a published list.")
    provisional: list[ProvisionalRowOut] = Field(
        description="A newcomer's grades in the next lists, from the results received so far."
    )


class PlayerSearchOut(Schema):
    query: str
    inactive: bool
    code: str | None = Field(description="A code query's player (after merges, G28).")
    problem: str = Field(description="Why the query found no one, when it is unusable.")
    shorter: str = Field(description="A shorter query worth trying when nothing matched.")
    suggestion: str = Field(description="The nearest name on record, when few or none matched.")
    page: PageOut
    players: list[PlayerRowOut]
    lists: list[VersionOut] = Field(description="The current version of each rate's list.")

    @staticmethod
    def resolve_lists(obj: Any) -> list[Any]:
        return list(obj.current)


class PointOut(Schema):
    """A grade in one list, as its current version gives it."""

    list: str
    rate: RateName
    version: str
    rule_set: str = _rule_set()
    grade: int | None = Field(description="null: ungraded in this list (G23).")
    category: str | None
    games_latest: int
    games_counted: int

    @staticmethod
    def resolve_list(obj: Any) -> str:
        return str(obj.list_id)

    @staticmethod
    def resolve_category(obj: Any) -> str | None:
        return obj.category or None


class RateNowOut(Schema):
    """One rate's grade in the current version of the current list."""

    rate: RateName
    list: str | None
    version: str | None
    rule_set: str | None = Field(
        description=f"{RULE_SET_WORDS} Null: no list of the rate is published."
    )
    published_at: datetime | None
    grade: int | None = Field(description="null: ungraded in the current list.")
    category: str | None
    games_latest: int = Field(description="Games in the latest season (G24).")
    games_counted: int
    august_grade: int | None = Field(description="In the list's August version (G27).")
    revised: bool
    fide: int | None = Field(description="G29: ECF x 8 + 650.")
    national_elo: int | None = Field(description="G29: ECF x 8 + 600.")
    below_fide_minimum: bool
    last_graded: PointOut | None = Field(description="When ungraded now: the latest grade.")


class PlayerOut(Schema):
    code: str
    name: str
    merged: bool = Field(description="The code asked for was merged into this one (G28).")
    merged_codes: list[str] = Field(
        description="The codes of the records merged into this one (G28): each still leads "
        "here, and their games and grades count for this player."
    )
    clubs: list[ClubOut]
    fide_id: int | None
    nation: str
    junior_age: int | None = Field(description="Juniors only (G25); never a date of birth.")
    age_date: date | None = Field(description="The day the junior age is reckoned on.")
    standard: RateNowOut
    rapid: RateNowOut


class HistoryRowOut(Schema):
    list: str
    label: str = Field(description="July 2012")
    standard: PointOut | None
    rapid: PointOut | None

    @staticmethod
    def resolve_list(obj: Any) -> str:
        return str(obj.list_id)


class PlayerHistoryOut(Schema):
    code: str
    name: str
    lists: list[HistoryRowOut] = Field(description="Every list he is in, latest first.")


class OpponentOut(Schema):
    code: str
    name: str


class GameOut(Schema):
    """A game from the player's side with what it scored (G12, G13)."""

    date: date | None
    event_code: str
    event_name: str
    opponent: OpponentOut | None = Field(description="null: still being identified.")
    colour: str = Field(description="white, black, or empty when not given.")
    score: float = Field(description="1 win, 0.5 draw, 0 loss.")
    opponent_start: Figure = Field(description="The opponent's starting grade (G13).")
    counted_as: Figure = Field(description="His value after the 40-point rule (G12).")
    points: Figure = Field(description="The points the game scored.")
    counted: bool = Field(description="In the total (an X grade counts H0 only, G16).")


class ForwardOut(Schema):
    """An earlier season's games brought forward (G14 notional, G15 actual)."""

    period: int = Field(description="1 or 2: one or two seasons before.")
    start: date
    end: date
    games: int
    average: Figure
    points: Figure
    stored: list[GameOut] = Field(description="Rapid: the actual games brought forward.")


class FiguresOut(Schema):
    """Section 10's figures of a grade, named alike wherever they are shown: a list's
    games here (``PlayerGamesOut``) and the player page's breakdown (``BreakdownOut``)."""

    start_grade: Figure = Field(description="G4..G11")
    start_source: str | None = Field(description="previous, other-rate, assigned, estimated")
    unanchored: bool | None = Field(description="G11")
    games: builtins.list[GameOut]
    brought_forward: builtins.list[ForwardOut]
    points_total: Figure
    games_counted: int | None
    calculated: Figure = Field(description="Points total / games, before the junior bonus.")
    junior_bonus: Figure = Field(description="G20")
    unrounded: Figure


class PlayerGamesOut(FiguresOut):
    code: str
    name: str
    rate: RateName
    list: str
    version: str
    rule_set: str = _rule_set()
    grade: int | None = Field(description="null: ungraded in this list (G23).")
    category: str | None
    from_file: bool = Field(description="A list loaded from a file: no games on record.")

    @staticmethod
    def resolve_start_grade(obj: Any) -> float | None:
        return obj.breakdown.start_grade if obj.breakdown else None

    @staticmethod
    def resolve_start_source(obj: Any) -> str | None:
        return obj.breakdown.start_source if obj.breakdown else None

    @staticmethod
    def resolve_unanchored(obj: Any) -> bool | None:
        return obj.breakdown.unanchored if obj.breakdown else None

    @staticmethod
    def resolve_games(obj: Any) -> builtins.list[Any]:
        return list(obj.breakdown.games) if obj.breakdown else []

    @staticmethod
    def resolve_brought_forward(obj: Any) -> builtins.list[Any]:
        return list(obj.breakdown.forward) if obj.breakdown else []

    @staticmethod
    def resolve_points_total(obj: Any) -> float | None:
        return obj.breakdown.points_total if obj.breakdown else None

    @staticmethod
    def resolve_games_counted(obj: Any) -> int | None:
        return obj.breakdown.games_counted if obj.breakdown else None

    @staticmethod
    def resolve_calculated(obj: Any) -> float | None:
        return obj.breakdown.calculated if obj.breakdown else None

    @staticmethod
    def resolve_junior_bonus(obj: Any) -> float | None:
        return obj.breakdown.bonus if obj.breakdown else None

    @staticmethod
    def resolve_unrounded(obj: Any) -> float | None:
        return obj.breakdown.unrounded if obj.breakdown else None


# -- the player page's JSON twin: PlayerOut and the page's own parts ---------------------------
#
# The twin of /players/<code>/ is the API's representation of the player, with what only
# the page shows beside it: its schemas extend the API's, so a fact has one name in both.


class ReasonOut(Schema):
    """Why a grade has its category: the counts against the row that fits (G23)."""

    category: str
    junior: bool
    x_grade: bool
    games_latest: int
    games_two: int
    games_three: int
    h0_games: int
    x_min_games: int
    text: str


class BreakdownOut(FiguresOut):
    """How one grade was calculated, adding up to its figure (section 10)."""

    list: str
    rate: RateName
    version: str = Field(description="initial, august, revN; provisional for the next list")
    start: date
    end: date
    h0_start: date
    start_list: str
    latest_points: Figure
    latest_games: int
    junior_age: int | None
    floored: bool = Field(description="G21")
    grade: int
    reason: ReasonOut
    target: int
    cap: float
    margin: float

    @staticmethod
    def resolve_list(obj: Any) -> str:
        return str(obj.list_id)

    @staticmethod
    def resolve_brought_forward(obj: Any) -> builtins.list[Any]:
        return list(obj.forward)

    @staticmethod
    def resolve_junior_bonus(obj: Any) -> float:
        return float(obj.bonus)


class GradeCardOut(RateNowOut):
    """A rate's grade as the page shows it, with how it was calculated."""

    august_category: str | None
    category_words: str
    junior_age: int | None
    from_file: bool
    breakdown: BreakdownOut | None


class NeedOut(Schema):
    category: str
    more: int = Field(description="More games in the latest season; 0: met.")
    words: str


class NextListOut(Schema):
    """The next list of a rate, as far as the results received go."""

    rate: RateName
    list: str
    start: date
    end: date
    h0_start: date
    since: date
    received: builtins.list[GameOut]
    received_until: datetime | None
    provisional: BreakdownOut | None = Field(description="Not a published grade.")
    junior: bool
    games_latest: int
    games_before: builtins.list[int] = Field(description="n1, n2, as the lists stored (G17)")
    needs: builtins.list[NeedOut]
    x_need: NeedOut | None


class VersionGradeOut(Schema):
    """His grade in one version of a list (G26)."""

    version: str = Field(description="initial, august, revN")
    grade: int | None = Field(description="null: not published in that version (G23).")
    category: str | None
    games_latest: int

    @staticmethod
    def resolve_category(obj: Any) -> str | None:
        return obj.category or None


class PagePointOut(PointOut):
    """A history grade as the page shows it: with the grades later versions replaced."""

    steps: builtins.list[VersionGradeOut] = Field(
        description="The list's versions where his grade changed, oldest first (G26, G27)."
    )
    reasons: builtins.list[str] = Field(description="Why, as the registry records it.")


class PageHistoryRowOut(HistoryRowOut):
    standard: PagePointOut | None
    rapid: PagePointOut | None


class PlayerPageOut(PlayerOut):
    """The JSON twin of a player's page (/players/<code>/?format=json, and with
    ?list=2011-07&version=initial the grades of that list and version)."""

    standard: GradeCardOut
    rapid: GradeCardOut
    fide_url: str
    history: builtins.list[PageHistoryRowOut]
    next_lists: builtins.list[NextListOut]
    cap: float
    margin: float
    shown_list: str | None = Field(description="The list asked for; null: the current lists.")
    shown_version: str | None = Field(description="The version asked for; null: the latest.")


def as_answered(schema: type[Schema], found: Any) -> Any:
    """``found`` as the API answers with ``schema``: its fields, as ninja encodes them
    (JSON values), for a page's JSON twin."""
    dumped = schema.from_orm(found).model_dump()
    return json.loads(json.dumps(dumped, cls=NinjaJSONEncoder))


# -- clubs and counties ---------------------------------------------------------------------


class ClubRefOut(Schema):
    key: str = Field(description="Its address: /api/v1/clubs/{key}.")
    code: str | None
    name: str
    is_location: bool


class CountyRefOut(Schema):
    key: str = Field(description="Its address: /api/v1/counties/{key}.")
    code: str = Field(description=ASSOC_CODE_TEXT)
    name: str
    clubs: int = Field(description="Clubs and locations affiliated to it.")


class ClubMatchOut(Schema):
    kind: Literal["club", "county"]
    name: str
    club: ClubRefOut | None
    county: CountyRefOut | None
    merged_into: ClubRefOut | None
    absorbed: list[ClubRefOut]


class ClubSearchOut(Schema):
    query: str
    page: PageOut
    results: list[ClubMatchOut]

    @staticmethod
    def resolve_results(obj: Any) -> list[Any]:
        return list(obj.page.items)


class MemberGradeOut(Schema):
    grade: int | None
    category: str
    list: str
    current: bool
    august_grade: int | None
    revised: bool

    @staticmethod
    def resolve_list(obj: Any) -> str:
        return str(obj.list_id)


class MemberOut(Schema):
    code: str
    name: str
    standard: MemberGradeOut | None
    rapid: MemberGradeOut | None
    junior_age: int | None
    clubs: list[str] = Field(description="County lists: the clubs that make him a member.")
    active: bool = Field(description="Graded on a current list (G26).")


def _seasons(obj: Any) -> list[str]:
    """The three seasons a membership must have been quoted in to stand (C2)."""
    season = obj.season
    return [] if season is None else [season_label(s) for s in range(season - 2, season + 1)]


class ClubDetailOut(Schema):
    key: str
    code: str | None
    name: str
    is_location: bool
    county: CountyRefOut | None
    merged_into: ClubRefOut | None
    absorbed: list[ClubRefOut]
    members: int = Field(description="Members graded on a current list.")
    seasons: list[str] = Field(description="A membership lapses unless quoted in these (C2).")

    @staticmethod
    def resolve_key(obj: Any) -> str:
        return str(obj.club.key)

    @staticmethod
    def resolve_code(obj: Any) -> str | None:
        return obj.club.code  # type: ignore[no-any-return]

    @staticmethod
    def resolve_name(obj: Any) -> str:
        return str(obj.club.name)

    @staticmethod
    def resolve_is_location(obj: Any) -> bool:
        return bool(obj.club.is_location)

    @staticmethod
    def resolve_members(obj: Any) -> int:
        return int(obj.page.total)

    @staticmethod
    def resolve_seasons(obj: Any) -> list[str]:
        return _seasons(obj)


class MembersOut(Schema):
    """A page of a member list, with the lists its grades come from."""

    kind: Literal["club", "county", "county-team"]
    name: str
    club: ClubRefOut | None
    county: CountyRefOut | None
    sort: Literal["name", "standard", "rapid"]
    inactive: bool
    seasons: list[str]
    lists: list[VersionOut]
    page: PageOut
    members: list[MemberOut]

    @staticmethod
    def resolve_seasons(obj: Any) -> list[str]:
        return _seasons(obj)

    @staticmethod
    def resolve_sort(obj: Any) -> str:
        return str(obj.sort.value)

    @staticmethod
    def resolve_members(obj: Any) -> list[Any]:
        return list(obj.page.items)


class CountyOut(Schema):
    key: str
    code: str = Field(description=ASSOC_CODE_TEXT)
    name: str
    clubs: list[ClubRefOut]
    members: int = Field(description="Members of its clubs graded on a current list.")

    @staticmethod
    def resolve_key(obj: Any) -> str:
        return str(obj.county.key)

    @staticmethod
    def resolve_code(obj: Any) -> str:
        return str(obj.county.code)

    @staticmethod
    def resolve_members(obj: Any) -> int:
        return int(obj.page.total)


# -- events ---------------------------------------------------------------------------------


class SeasonOut(Schema):
    season: str = Field(description="2011-12")
    events: int

    @staticmethod
    def resolve_season(obj: Any) -> str:
        return str(obj.label)


class EventSummaryOut(Schema):
    code: str
    name: str
    kind: str
    kind_label: str
    start_date: date
    end_date: date
    rate: str = Field(description="standard, rapid, or none (not graded)")
    not_graded_reason: str
    rate_label: str
    status: str
    status_label: str
    games_graded: int
    games_not_graded: int


class EventsOut(Schema):
    season: str | None = Field(description="null: no event has been received yet.")
    seasons: list[SeasonOut]
    sort: Literal["date", "name"]
    page: PageOut
    events: list[EventSummaryOut]

    @staticmethod
    def resolve_sort(obj: Any) -> str:
        return str(obj.sort.value)

    @staticmethod
    def resolve_events(obj: Any) -> list[Any]:
        return list(obj.page.items)


class SideOut(Schema):
    code: str | None = Field(description="null: the player is being identified.")
    name: str


class EventGameOut(Schema):
    round: int | None
    board: int | None
    date: date
    date_given: bool = Field(description="false: the file gave no date (G3).")
    first: SideOut = Field(description="PIN1 (a match's home player).")
    second: SideOut
    result: str = Field(description="The file's SCORE: 10, 01, 55, 1d, d1, dd.")
    result_label: str
    colour: str = Field(description="PIN1's colour: W, B, or empty.")
    graded: bool
    not_graded_reason: str
    reason_label: str


class RoundOut(Schema):
    number: int | None
    date: date | None
    games: list[EventGameOut]


class PartOut(Schema):
    kind: Literal["section", "match", "other"]
    name: str
    home: str
    away: str
    rounds: list[RoundOut]


class EventOut(Schema):
    code: str
    name: str
    kind: str
    kind_label: str
    start_date: date
    end_date: date
    season: str
    rate: str
    not_graded_reason: str
    rate_label: str
    time_control: str
    status: str
    status_label: str
    games_graded: int
    games_not_graded: int
    parts: list[PartOut]


# -- lists ----------------------------------------------------------------------------------


class ListVersionOut(Schema):
    list: str
    rate: RateName
    version: str
    rule_set: str = _rule_set()
    published_at: datetime
    current: bool = Field(description="The latest published version of its list (G26).")
    downloads: dict[str, str] = Field(description="The version's files: csv, json, xlsx.")
    entries: str = Field(description="Its entries in this API.")


class ListOut(Schema):
    list: str
    label: str
    downloads: dict[str, str] = Field(description="Every rate at its current version.")
    versions: builtins.list[ListVersionOut]


class CurrentOut(Schema):
    rate: RateName
    list: str
    version: str
    rule_set: str = _rule_set()


class ListsOut(Schema):
    current: list[CurrentOut]
    lists: list[ListOut] = Field(description="Every published list, latest first.")


class ListEntryOut(Schema):
    """An entry with the fields of the list's JSON export."""

    code: str
    name: str
    sex: str | None
    list: str
    rate: RateName
    version: str
    rule_set: str = _rule_set()
    grade: int | None
    unrounded: Figure
    category: str | None
    previous_grade: int | None = Field(description="Grade1: the previous list's (G4).")
    games_latest: int
    games_counted: int
    junior_age: int | None
    start_grade: Figure
    start_source: str | None
    flags: builtins.list[str]
    august_grade: int | None
    revised: bool
    clubs: builtins.list[str] = Field(description="Locations end with '*'.")
    fide_code: str | None
    nation: str


class ListEntriesOut(Schema):
    list: str
    label: str
    rate: RateName
    version: str
    rule_set: str = _rule_set()
    published_at: datetime
    current: bool
    versions: builtins.list[str] = Field(
        description="Every published version of the list and rate."
    )
    page: PageOut
    entries: builtins.list[ListEntryOut]

    @staticmethod
    def resolve_list(obj: Any) -> str:
        return str(obj.version.list_id)

    @staticmethod
    def resolve_rate(obj: Any) -> str:
        return str(obj.version.rate.value)

    @staticmethod
    def resolve_version(obj: Any) -> str:
        return str(obj.version.name)

    @staticmethod
    def resolve_rule_set(obj: Any) -> str:
        return str(obj.version.rules_name)

    @staticmethod
    def resolve_published_at(obj: Any) -> datetime:
        return obj.version.published_at  # type: ignore[no-any-return]

    @staticmethod
    def resolve_entries(obj: Any) -> builtins.list[Any]:
        return list(obj.page.items)


class ConvertedOut(Schema):
    given: Literal["ecf", "fide", "elo"]
    ecf: float
    fide: float
    national_elo: float
    below_fide_minimum: bool = Field(description="The minimum published FIDE is 1200.")


class ConversionsOut(Schema):
    rows: list[ConvertedOut]
    fide_formula: str
    national_formula: str
    note: str
