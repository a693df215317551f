"""The federation's players: who they are, where they play, and how strong they really are.

Columnar (one array per attribute, a row per player) so that a national federation of
60,000 players is drawn in well under a second. The hidden ``strength`` is on the grade
scale and drifts from season to season: juniors improve fast, older adults fade a little.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

import numpy as np
from numpy.typing import NDArray

from ecfgrading.demo.names import Name, NameMaker, surname_key
from ecfgrading.demo.places import Club, county_weights
from ecfgrading.demo.seasons import FIRST_YEAR, SEASONS, age_date, season_fraction
from ecfgrading.demo.sizes import DemoSize

Rng = np.random.Generator
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

ON_RECORD_SHARE = 0.88  # on record before the demo starts; the rest join in seasons 1..3
JUNIOR_SHARE_ON_RECORD = 0.2  # so that about a fifth of all players are juniors
JUNIOR_SHARE_NEWCOMERS = 0.45  # many newcomers are children
FEMALE_SHARE = (0.06, 0.16)  # adults, juniors
UNATTACHED_SHARE = 0.05  # recorded against a location, not a club
JUNIOR_CLUB_SHARE = 0.35  # of juniors: in the county's junior club
MOVER_SHARE = 0.04  # adults changing club each season
LEAVER_SHARE = 0.1  # stop playing before the last season
IDLE_SHARE = 0.06  # sit a season out
FIDE_SHARE_TARGET = 0.035
NEWCOMER_KEENNESS = 0.7  # newcomers play less than the regulars
DELIBERATE_NAMESAKES = 0.004  # newcomers named exactly like a player of another club


@dataclass(frozen=True)
class People:
    """One row per player; index ``i`` is the player everywhere in the demo."""

    names: tuple[Name, ...]
    sex: tuple[str, ...]
    birth: tuple[date, ...]
    birth_year: IntArray
    birth_monthday: IntArray  # month * 100 + day, to compare birthdays
    code: IntArray  # grading code number; 0 for newcomers (no code yet)
    fide: IntArray  # FIDE id; 0 for none
    club: IntArray  # (players, SEASONS): club index per season
    strength: FloatArray  # (players, SEASONS + 1): at the start of each season and the end
    seen: FloatArray  # (players, SEASONS): the grade organisers see (sections, boards)
    first: IntArray  # first season played (0: on record before the demo)
    last: IntArray  # last season played
    idle: BoolArray  # (players, SEASONS): sitting the season out
    league: BoolArray  # plays in a league team
    congress: FloatArray  # appetite for weekend congresses (0: never)
    rapid: FloatArray  # appetite for rapidplays (and lightning)
    online: FloatArray  # appetite for online events
    keen: FloatArray  # how much he plays overall
    namesakes: IntArray  # newcomers given another player's name on purpose

    def __len__(self) -> int:
        return len(self.names)

    def active(self, season: int) -> BoolArray:
        playing = (self.first <= season) & (season <= self.last)
        result: BoolArray = playing & ~self.idle[:, season]
        return result

    def age_on(self, day: date) -> IntArray:
        """Whole years on ``day`` (vectorised over every player)."""
        before_birthday = day.month * 100 + day.day < self.birth_monthday
        result: IntArray = day.year - self.birth_year - before_birthday
        return result

    def juniors(self, season: int) -> BoolArray:
        """17 or under on 31 August at the start of the season."""
        result: BoolArray = self.age_on(age_date(season)) <= 17
        return result

    def strength_on(self, players: IntArray, season: int, day: date) -> FloatArray:
        """The hidden strength on a day: linear between the season's ends."""
        return self.strength_at(players, season, season_fraction(season, day))

    def strength_at(self, players: IntArray, season: int, share: float | FloatArray) -> FloatArray:
        """The hidden strength ``share`` of the way through the season (``season_fraction``;
        an array of shares broadcasts against ``players``)."""
        before, after = self.strength[players, season], self.strength[players, season + 1]
        result: FloatArray = before + share * (after - before)
        return result

    def with_code_swapped(self, one: int, other: int) -> People:
        code = self.code.copy()
        code[[one, other]] = code[[other, one]]
        return replace(self, code=code)


def grouped(players: IntArray, keys: IntArray) -> list[tuple[int, IntArray]]:
    """``(key, players[keys == key])`` for each key found, in ascending order: players
    grouped by club at one sort, not one pass over them for each of 1,700 clubs."""
    if len(players) == 0:
        return []
    order = np.argsort(keys, kind="stable")  # each group keeps the players' order
    ranked = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
    groups = np.split(players[order], starts[1:])
    return list(zip(ranked[starts].tolist(), groups, strict=True))


def make_people(rng: Rng, size: DemoSize, clubs: list[Club], counties: list[str]) -> People:
    """Draw the whole population, its clubs over the seasons and its strengths."""
    count = size.players
    first = np.where(rng.random(count) < ON_RECORD_SHARE, 0, rng.integers(1, SEASONS, count))
    junior = rng.random(count) < np.where(
        first == 0, JUNIOR_SHARE_ON_RECORD, JUNIOR_SHARE_NEWCOMERS
    )
    birth = _births(rng, first, junior)
    female = np.where(junior, FEMALE_SHARE[1], FEMALE_SHARE[0])
    sex = np.where(rng.random(count) < female, "F", "M").tolist()
    club = _clubs_over_seasons(rng, _first_clubs(rng, junior, clubs, counties), clubs)
    young = [day.year >= 1988 for day in birth]
    maker = NameMaker(rng)
    names = _unique_in_clubs(maker, maker.names(sex, young), sex, young, club)
    namesakes = _deliberate_namesakes(rng, names, first, junior, club)
    strength = _strengths(rng, birth, first, junior)
    last = _last_seasons(rng, first)
    return People(
        names=tuple(names),
        sex=tuple(sex),
        birth=tuple(birth),
        birth_year=np.array([day.year for day in birth], dtype=np.int64),
        birth_monthday=np.array([day.month * 100 + day.day for day in birth], dtype=np.int64),
        code=_codes(rng, first),
        fide=_fide_ids(rng, strength[:, 0], junior),
        club=club,
        strength=strength,
        seen=_seen(rng, strength, first),
        first=first.astype(np.int64),
        last=last,
        idle=rng.random((count, SEASONS)) < IDLE_SHARE,
        **vars(_appetites(rng, junior, young, first > 0)),
        namesakes=namesakes,
    )


# -- ages -------------------------------------------------------------------------------


def _births(rng: Rng, first: IntArray, junior: BoolArray) -> list[date]:
    """Dates of birth from an age on 31 August of the player's first season."""
    count = len(first)
    on_record_junior = rng.choice(np.arange(8, 18), count, p=_junior_age_weights())
    newcomer_junior = rng.integers(8, 14, count)
    junior_age = np.where(first == 0, on_record_junior, newcomer_junior)
    adult_age = np.clip(rng.normal(48, 15, count), 18, 86).astype(np.int64)
    age = np.where(junior, junior_age, adult_age)
    offset = rng.integers(0, 365, count)
    return [
        date(FIRST_YEAR + int(season) - int(years), 8, 31) - timedelta(days=int(days))
        for season, years, days in zip(first, age, offset, strict=True)
    ]


def _junior_age_weights() -> FloatArray:
    # Most graded juniors are 10-15; few 8-year-olds have played enough to be on record.
    weights = np.array([0.4, 0.7, 1.0, 1.2, 1.3, 1.3, 1.2, 1.0, 0.9, 0.8])
    result: FloatArray = weights / weights.sum()
    return result


# -- clubs ------------------------------------------------------------------------------


def _first_clubs(rng: Rng, junior: BoolArray, clubs: list[Club], counties: list[str]) -> IntArray:
    """A county for each player, then a club of it (a location when unattached)."""
    county = rng.choice(len(counties), len(junior), p=county_weights(len(counties)))
    chosen = np.empty(len(junior), dtype=np.int64)
    for index, name in enumerate(counties):
        members = np.flatnonzero(county == index)
        chosen[members] = _county_members(rng, junior[members], clubs, name)
    return chosen


def _county_members(rng: Rng, junior: BoolArray, clubs: list[Club], county: str) -> IntArray:
    regular = [i for i, c in enumerate(clubs) if c.county == county and not c.location]
    ordinary = [i for i in regular if not clubs[i].juniors]
    junior_club = next(i for i in regular if clubs[i].juniors)
    locations = [i for i, c in enumerate(clubs) if c.county == county and c.location]
    sizes = rng.lognormal(0.0, 0.6, len(ordinary))  # some clubs are much bigger than others
    picked = rng.choice(ordinary, len(junior), p=sizes / sizes.sum())
    draw = rng.random(len(junior))
    picked = np.where(junior & (draw < JUNIOR_CLUB_SHARE), junior_club, picked)
    unattached = rng.random(len(junior)) < UNATTACHED_SHARE
    result: IntArray = np.where(unattached, rng.choice(locations, len(junior)), picked)
    return result


def _clubs_over_seasons(rng: Rng, first_club: IntArray, clubs: list[Club]) -> IntArray:
    """A few adults move to another club of their county each season."""
    club = np.repeat(first_club[:, None], SEASONS, axis=1)
    by_county: dict[str, list[int]] = {}
    for index, one in enumerate(clubs):
        if not one.location and not one.juniors:
            by_county.setdefault(one.county, []).append(index)
    for season in range(1, SEASONS):
        club[:, season] = club[:, season - 1]
        for player in np.flatnonzero(rng.random(len(first_club)) < MOVER_SHARE).tolist():
            current = clubs[int(club[player, season])]
            if current.location or current.juniors:
                continue
            options = by_county[current.county]
            club[player, season] = options[int(rng.integers(len(options)))]
    return club


# -- names ------------------------------------------------------------------------------


def _unique_in_clubs(
    maker: NameMaker, names: list[Name], sex: list[str], young: list[bool], club: IntArray
) -> list[Name]:
    """No two players of one club share surname and first forename.

    Identification tells namesakes apart by club; two in one club would be one player
    to any grading team, and to ours.
    """
    taken: set[tuple[int, str, str]] = set()
    for player, name in enumerate(names):
        clubs = set(club[player].tolist())
        while any(key in taken for key in _keys(name, clubs)):
            name = maker.name(sex[player], young[player])
        names[player] = name
        taken.update(_keys(name, clubs))
    return names


def _keys(name: Name, clubs: set[int]) -> list[tuple[int, str, str]]:
    return [(club, surname_key(name.surname), name.first.lower()) for club in clubs]


def _deliberate_namesakes(
    rng: Rng, names: list[Name], first: IntArray, junior: BoolArray, club: IntArray
) -> IntArray:
    """A few newcomers named exactly like a player on record at another club.

    Such a newcomer, given by name and club only, cannot be told from the player on
    record by the name: the import queues him for a person to decide.
    """
    newcomers = np.flatnonzero((first > 0) & ~junior)
    on_record = np.flatnonzero(first == 0)
    wanted = min(len(newcomers), max(2, round(len(names) * DELIBERATE_NAMESAKES)))
    chosen = rng.choice(newcomers, wanted, replace=False) if wanted else newcomers[:0]
    taken = {key for p, name in enumerate(names) for key in _keys(name, set(club[p].tolist()))}
    done = []
    for player in chosen.tolist():
        model = int(on_record[rng.integers(len(on_record))])
        keys = _keys(names[model], set(club[player].tolist()))
        if not any(key in taken for key in keys):
            names[player] = Name(names[model].surname, names[model].forenames)
            taken.update(keys)
            done.append(player)
    return np.array(sorted(done), dtype=np.int64)


# -- strength ---------------------------------------------------------------------------


def _strengths(rng: Rng, birth: list[date], first: IntArray, junior: BoolArray) -> FloatArray:
    """Strength at the start of every season and at the end of the last one."""
    count = len(birth)
    ordinal = np.array([day.toordinal() for day in birth])
    strength = np.empty((count, SEASONS + 1))
    strength[:, 0] = _initial_strength(rng, _ages(ordinal, 0), first, junior)
    for season in range(1, SEASONS + 1):
        strength[:, season] = drifted(rng, strength[:, season - 1], _ages(ordinal, season - 1))
    return strength


def drifted(rng: Rng, strength: FloatArray, age: FloatArray) -> FloatArray:
    """A season's change of strength at each age: juniors improve fast, the old fade."""
    gain = np.where(
        age <= 17,
        rng.normal(np.maximum(3.0, 21.0 - age), 5.0),
        rng.normal(np.where(age > 62, -1.1, -0.3), 4.0),
    )
    result: FloatArray = np.clip(strength + gain, 5.0, 265.0)
    return result


def ages_at_season_start(people: People, season: int) -> FloatArray:
    """Whole years on 31 August at the start of ``season`` (as ``_ages``)."""
    ordinal = np.array([day.toordinal() for day in people.birth])
    return _ages(ordinal, season)


def _ages(ordinal: IntArray, season: int) -> FloatArray:
    result: FloatArray = np.floor((age_date(season).toordinal() - ordinal) / 365.2425)
    return result


def _initial_strength(rng: Rng, age: FloatArray, first: IntArray, junior: BoolArray) -> FloatArray:
    count = len(age)
    adult = np.where(first == 0, rng.normal(128, 32, count), rng.normal(100, 35, count))
    child = 12.0 + 9.5 * (age - 7.0) + rng.normal(0, 18, count)
    result: FloatArray = np.clip(np.where(junior, child, adult), 5.0, 255.0)
    return result


def _seen(rng: Rng, strength: FloatArray, first: IntArray) -> FloatArray:
    """Organisers place players by their grades, which lag the truth; newcomers are guessed."""
    noise = rng.normal(0, 6, (len(first), SEASONS))
    guessed = (np.arange(SEASONS)[None, :] == first[:, None]) & (first[:, None] > 0)
    noise = np.where(guessed, noise * 2.5, noise)
    result: FloatArray = strength[:, :SEASONS] + noise
    return result


# -- codes and appetites ------------------------------------------------------------------


def _codes(rng: Rng, first: IntArray) -> IntArray:
    """Grading codes of the players on record: distinct six-digit numbers (G28)."""
    on_record = np.flatnonzero(first == 0)
    span = max(200_000, 4 * len(on_record))
    code = np.zeros(len(first), dtype=np.int64)
    code[on_record] = 100_000 + rng.choice(span, len(on_record), replace=False)
    return code


def _fide_ids(rng: Rng, strength: FloatArray, junior: BoolArray) -> IntArray:
    """A few per cent hold FIDE ids: mostly strong players, a few strong juniors."""
    chance = 0.004 + 0.6 / (1.0 + np.exp(-(strength - 185.0) / 12.0))
    chance = np.where(junior, chance * 0.5 + 0.01, chance)
    chance *= FIDE_SHARE_TARGET / chance.mean()
    holders = np.flatnonzero(rng.random(len(strength)) < chance)
    fide = np.zeros(len(strength), dtype=np.int64)
    fide[holders] = 400_000 + rng.choice(100_000, len(holders), replace=False)
    return fide


def _last_seasons(rng: Rng, first: IntArray) -> IntArray:
    leaving = rng.random(len(first)) < LEAVER_SHARE
    last = first + rng.integers(0, SEASONS, len(first))
    result: IntArray = np.where(leaving, np.minimum(last, SEASONS - 1), SEASONS - 1)
    return result


@dataclass(frozen=True)
class _Appetites:
    league: BoolArray
    congress: FloatArray
    rapid: FloatArray
    online: FloatArray
    keen: FloatArray


def _appetites(rng: Rng, junior: BoolArray, young: list[bool], newcomer: BoolArray) -> _Appetites:
    count = len(junior)
    keen = rng.lognormal(0.0, 0.55, count) * np.where(newcomer, NEWCOMER_KEENNESS, 1.0)
    youthful = np.array(young)

    def appetite(share: FloatArray | float) -> FloatArray:
        taking = rng.random(count) < share
        result: FloatArray = keen * taking * rng.lognormal(0.0, 0.7, count)
        return result

    return _Appetites(
        league=rng.random(count) < np.where(junior, 0.3, 0.78),
        congress=appetite(np.where(junior, 0.35, 0.55)),
        rapid=appetite(np.where(junior, 0.7, 0.5)),
        online=appetite(np.where(youthful, 0.4, 0.1)),
        keen=keen,
    )
