"""What the clients should show, worked out by plain SQL on the served demo's database.

Nothing here calls the project's code: the check letter is the federation's published
rule (as ChessReports applies it), the lists in force are the latest published version of
each rate's latest list, and a club's members are those whose membership has not lapsed
(C2: quoted in one of the latest three seasons up to the current list's). A record merged
into another (G28; the demo has one) counts for the record it was merged into: its games
and clubs are his. The demo has no merged clubs (``test_the_demo_has_no_club_merges``
keeps that true), so no club merge is followed.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

CHECK_LETTERS = "ABCDEFGHJKL"
LAPSE_SEASONS = 3  # C2: a club quoted in none of the latest three seasons has lapsed
COUNTY_CODE_COLUMNS = ("code", "assoc_code", "association_code")


def with_letter(number: int) -> str:
    """The code with its check letter: weights 2..7 from the last digit, modulo 11."""
    digits = f"{number:06d}"
    total = sum(int(digits[5 - i]) * (i + 2) for i in range(6))
    return digits + CHECK_LETTERS[total % 11]


@dataclass(frozen=True)
class Listed:
    """A player published in a list in force, with his grades there."""

    id: int
    number: int
    surname: str
    forenames: str
    standard: int | None  # in the version in force
    rapid: int | None
    standard_original: int | None  # in the list's first version
    rapid_original: int | None

    @property
    def code(self) -> str:
        return with_letter(self.number)

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.forenames}" if self.forenames else self.surname


@dataclass(frozen=True)
class InForce:
    """A rate's list in force: its year, its first version and its latest version."""

    list_id: str
    first: int
    current: int

    @property
    def season(self) -> int:
        return int(self.list_id[:4])


def in_force(db: sqlite3.Connection) -> dict[str, InForce]:
    """Each rate's latest list with a published version: its first and latest versions."""
    rows = db.execute(
        """SELECT g.rate, g.list_id, v.id FROM registry_listversion v
           JOIN registry_gradinglist g ON g.id = v.grading_list_id
           WHERE v.status = 'published' ORDER BY g.list_id, v.published_at, v.id"""
    ).fetchall()
    found: dict[str, InForce] = {}
    for rate, list_id, version in rows:
        known = found.get(rate)
        first = known.first if known and known.list_id == list_id else version
        found[rate] = InForce(list_id, first, version)
    return found


def _grades(db: sqlite3.Connection, version: int) -> dict[int, int | None]:
    rows = db.execute(
        "SELECT player_id, grade FROM registry_listentry WHERE version_id = ? AND published",
        (version,),
    )
    return dict(rows.fetchall())


def listed(db: sqlite3.Connection) -> dict[str, Listed]:
    """Every player published in a version in force, by code with its letter."""
    lists = in_force(db)
    standard, rapid = lists["standard"], lists["rapid"]
    now_s, now_r = _grades(db, standard.current), _grades(db, rapid.current)
    first_s, first_r = _grades(db, standard.first), _grades(db, rapid.first)
    ids = set(now_s) | set(now_r)
    people = db.execute("SELECT id, code, surname, forenames FROM registry_player").fetchall()
    found = [
        Listed(pk, number, surname, forenames, *grades)
        for pk, number, surname, forenames in people
        if pk in ids
        for grades in [(now_s.get(pk), now_r.get(pk), first_s.get(pk), first_r.get(pk))]
    ]
    return {player.code: player for player in found}


def current_season(db: sqlite3.Connection) -> int:
    return max(each.season for each in in_force(db).values())


def _not_lapsed(season: int) -> str:
    return (
        f"m.ended_on IS NULL AND m.first_season <= {season} "
        f"AND m.last_season > {season - LAPSE_SEASONS}"
    )


def roster(db: sqlite3.Connection, club: str) -> dict[str, Listed]:
    """The club's members published in a list in force, by code."""
    rows = db.execute(
        f"""SELECT DISTINCT {SURVIVOR.format(id="m.player_id")} FROM registry_clubmembership m
            JOIN registry_club c ON c.id = m.club_id
            WHERE c.code = ? AND {_not_lapsed(current_season(db))}""",
        (club,),
    )
    members = {pk for (pk,) in rows.fetchall()}
    return {code: p for code, p in listed(db).items() if p.id in members}


def active_clubs(db: sqlite3.Connection) -> dict[str, tuple[str, int | None]]:
    """Coded clubs (not locations) with a member whose membership has not lapsed: their
    names and county ids, by code."""
    rows = db.execute(
        f"""SELECT DISTINCT c.code, c.name, c.county_id FROM registry_club c
            JOIN registry_clubmembership m ON m.club_id = c.id
            WHERE c.code IS NOT NULL AND NOT c.is_location AND {_not_lapsed(current_season(db))}"""
    )
    return {code: (name, county) for code, name, county in rows.fetchall()}


def county_codes(db: sqlite3.Connection) -> dict[int, tuple[str, str]]:
    """Each county's stored association code and name, by id (issue 22: four characters,
    stored with the county)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(registry_county)")}
    stored = [name for name in COUNTY_CODE_COLUMNS if name in columns]
    assert stored, (
        "the county table stores no association code (expected a column named one of "
        f"{COUNTY_CODE_COLUMNS}; it has {sorted(columns)})"
    )
    rows = db.execute(f"SELECT id, {stored[0]}, name FROM registry_county")
    return {pk: (code, name) for pk, code, name in rows.fetchall()}


def clubs_of_county(db: sqlite3.Connection, county: int) -> dict[str, str]:
    """The county's active clubs: names by code."""
    return {code: name for code, (name, pk) in active_clubs(db).items() if pk == county}


# The record a player's id counts for (G28): the one it was merged into, else itself.
SURVIVOR = "(SELECT COALESCE(merged_into_id, id) FROM registry_player WHERE id = {id})"


def club_merges(db: sqlite3.Connection) -> int:
    clubs = db.execute("SELECT COUNT(*) FROM registry_club WHERE merged_into_id IS NOT NULL")
    return int(clubs.fetchone()[0])


def player_merges(db: sqlite3.Connection) -> int:
    players = db.execute("SELECT COUNT(*) FROM registry_player WHERE merged_into_id IS NOT NULL")
    return int(players.fetchone()[0])


def member_clubs(db: sqlite3.Connection, player: Listed) -> list[str]:
    """The coded clubs the player's memberships have not lapsed from."""
    rows = db.execute(
        f"""SELECT c.code FROM registry_clubmembership m JOIN registry_club c ON c.id = m.club_id
            WHERE ? IN (m.player_id, (SELECT merged_into_id FROM registry_player
                                      WHERE id = m.player_id))
              AND c.code IS NOT NULL AND NOT c.is_location
              AND {_not_lapsed(current_season(db))}""",
        (player.id,),
    )
    return sorted(code for (code,) in rows.fetchall())


ONE, TWO = SURVIVOR.format(id="g.player1_id"), SURVIVOR.format(id="g.player2_id")


def graded_games(db: sqlite3.Connection, player: int, rate: str) -> list[tuple[str, int, str]]:
    """The player's graded games of the rate, his merged records' included: (date,
    opponent's id, event name), latest first."""
    rows = db.execute(
        f"""SELECT g.game_date, CASE WHEN {ONE} = :p THEN {TWO} ELSE {ONE} END, e.name
           FROM registry_game g JOIN registry_event e ON e.id = g.event_id
           WHERE g.graded AND g.rate = :rate AND (:p IN ({ONE}, {TWO}))
           ORDER BY g.game_date DESC, g.sequence DESC""",
        {"p": player, "rate": rate},
    )
    return [(day, opponent, event) for day, opponent, event in rows.fetchall()]


def the_player(db: sqlite3.Connection) -> Listed:
    """A player every client can be shown: the first in name order graded in both rates
    in the lists in force and at first publication, a member of a coded club, with graded
    games of both rates, a plain ASCII name that no other player's name starts with."""
    everyone = sorted(listed(db).values(), key=lambda p: (p.surname, p.forenames, p.number))
    names = [p.name.lower() for p in everyone]
    for player in everyone:
        grades = (player.standard, player.rapid, player.standard_original, player.rapid_original)
        plain = player.name.replace(", ", "").replace(" ", "").isalpha() and player.name.isascii()
        alone = sum(name.startswith(player.name.lower()) for name in names) == 1
        if None in grades or not plain or not alone or not member_clubs(db, player):
            continue
        if graded_games(db, player.id, "standard") and graded_games(db, player.id, "rapid"):
            return player
    raise AssertionError("the demo has no player every client can be shown")
