"""What the grading team sees of a player on record: clubs, games and grades, read in
bulk for several players at once (the candidates of a case, side by side)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Max, Q

from ecfgrading.engine.periods import ListId, season_of
from ecfgrading.lookups.memberships import current_memberships
from ecfgrading.registry.models import ClubMembership, Game, ListEntry, ListVersion, Player
from ecfgrading.registry.numbering import player_on_record

GRADES_SHOWN = 4  # the latest lists are enough to tell two players apart


@dataclass(frozen=True)
class ClubLine:
    """A membership: the seasons results quoted it, and whether it is still shown (C2)."""

    id: int
    name: str
    code: str
    first_season: int
    last_season: int
    ended_on: date | None  # ended by hand by the grading team
    shown: bool  # on public pages now (not lapsed, not ended)
    as_of: int = 0  # the season public pages show clubs as of (shown_season)

    @property
    def seasons(self) -> str:
        first, last = _season(self.first_season), _season(self.last_season)
        return first if first == last else f"{first} to {last}"

    @property
    def is_new(self) -> bool:
        """First quoted after the season the pages show (the latest list's): not lapsed
        but too new to be shown yet; the next list shows it (C2; issue 24, case 14)."""
        return self.ended_on is None and self.first_season > self.as_of

    @property
    def lapsed(self) -> bool:
        """Not quoted in the three seasons up to the pages' season (C2)."""
        return self.ended_on is None and not self.shown and not self.is_new

    @property
    def standing(self) -> str:
        """Whether the public pages show it, in words (an ended one's date is the page's)."""
        if self.shown:
            return "yes"
        if self.is_new:
            return (
                f"not yet: first quoted in {_season(self.first_season)}, after the latest "
                f"list ({_season(self.as_of)}); the next list shows it"
            )
        return "no: lapsed" if self.lapsed else "no: ended"


@dataclass(frozen=True)
class GradeLine:
    list_id: str
    rate: str
    version: str
    grade: int | None  # None: ungraded in that list (G23)
    category: str


@dataclass(frozen=True)
class Profile:
    """One player as the team compares him with others."""

    id: int
    code: str
    name: str
    sex: str
    born: int | None  # the year only: enough to tell two namesakes apart
    fide_id: int | None
    clubs: tuple[ClubLine, ...]
    games: int  # graded games on record
    last_game: date | None
    grades: tuple[GradeLine, ...]  # latest published lists first
    merged_into: str  # the survivor's code when this record was merged


def profiles(player_ids: Sequence[int], *, today: date) -> list[Profile]:
    """Profiles in the order of ``player_ids`` (unknown ids are left out): four queries
    whatever the number of players."""
    players = Player.objects.filter(id__in=player_ids).select_related("merged_into")
    found = {p.id: p for p in players}
    clubs = _clubs(found, today)
    games = _games(found)
    grades = _grades(found)
    return [
        _profile(found[pid], clubs[pid], games.get(pid, (0, None)), grades[pid])
        for pid in player_ids
        if pid in found
    ]


def _profile(
    player: Player,
    clubs: list[ClubLine],
    games: tuple[int, date | None],
    grades: list[GradeLine],
) -> Profile:
    survivor = player.merged_into
    return Profile(
        id=player.id,
        code=player.ref,
        name=player.name,
        sex=player.sex,
        born=player.date_of_birth.year if player.date_of_birth else None,
        fide_id=player.fide_id,
        clubs=tuple(clubs),
        games=games[0],
        last_game=games[1],
        grades=tuple(grades),
        merged_into=survivor.ref if survivor is not None else "",
    )


def shown_season(today: date) -> int:
    """The season public pages show clubs as of: the latest published list's (as the
    player page does), else today's."""
    latest = (
        ListVersion.objects.filter(status=ListVersion.Status.PUBLISHED)
        .order_by("-grading_list__list_id")
        .values_list("grading_list__list_id", flat=True)
        .first()
    )
    return ListId.parse(latest).season() if latest else season_of(today)


def _clubs(players: Iterable[int], today: date) -> defaultdict[int, list[ClubLine]]:
    season = shown_season(today)
    shown = set(
        current_memberships(season).filter(player_id__in=players).values_list("id", flat=True)
    )
    rows = (
        ClubMembership.objects.filter(player_id__in=players)
        .select_related("club")
        .order_by("player_id", "-last_season", "club__name")
    )
    found: defaultdict[int, list[ClubLine]] = defaultdict(list)
    for m in rows:
        line = ClubLine(
            m.id,
            str(m.club),
            m.club.code or "",
            m.first_season,
            m.last_season,
            m.ended_on,
            m.id in shown,
            season,
        )
        found[m.player_id].append(line)
    return found


def _games(players: Iterable[int]) -> dict[int, tuple[int, date | None]]:
    """Graded games and the latest game's date, counting both sides of each game."""
    counts: dict[int, tuple[int, date | None]] = {}
    for side in ("player1", "player2"):
        rows = (
            Game.objects.filter(Q(**{f"{side}_id__in": list(players)}), graded=True)
            .order_by()
            .values(side)
            .annotate(n=Count("id"), last=Max("game_date"))
        )
        for row in rows:
            n, last = counts.get(row[side], (0, None))
            latest = max(d for d in (last, row["last"]) if d is not None)
            counts[row[side]] = (n + row["n"], latest)
    return counts


def _grades(players: Iterable[int]) -> defaultdict[int, list[GradeLine]]:
    """Each player's entries in the current (latest published) version of each list."""
    rows = (
        ListEntry.objects.filter(
            player_id__in=list(players), version__status=ListVersion.Status.PUBLISHED
        )
        .order_by("player_id", "-version__grading_list__list_id", "-version__published_at")
        .values_list(
            "player_id",
            "version__grading_list__list_id",
            "version__grading_list__rate",
            "version__name",
            "grade",
            "category",
            "published",
        )
    )
    found: defaultdict[int, list[GradeLine]] = defaultdict(list)
    seen: set[tuple[int, str, str]] = set()
    for pid, list_id, rate, name, grade, category, published in rows:
        if (pid, list_id, rate) in seen or len(found[pid]) >= GRADES_SHOWN:
            continue  # an earlier version of a list already given, or enough lists
        seen.add((pid, list_id, rate))
        found[pid].append(
            GradeLine(list_id, rate, name, grade if published else None, category or "")
        )
    return found


def _season(year: int) -> str:
    """2009 is the season 2008-09."""
    return f"{year - 1}-{year % 100:02d}"


@dataclass(frozen=True)
class TeamPlayer:
    profile: Profile
    asked_for: str  # the code in the URL, perhaps merged into this player


def team_player(code: str, *, today: date) -> TeamPlayer:
    """The surviving player holding ``code`` (a merged code leads to its survivor)."""
    player = player_on_record(code)
    (profile,) = profiles([player.id], today=today)
    return TeamPlayer(profile, code.strip().upper())
