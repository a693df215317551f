"""A player's details as the registry keeps them, however they arrive.

A player comes from a results file, from the identification queue (which holds what his
file said) or from a published list. All three read his details through ``normalise``,
so that the same text gives the same record, and the same problem, on every path and on
both databases. Widths come from the model fields, never from a copy of their numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import cache

from django.db import models

from ecfgrading.formats.gradelist import GradeListRow
from ecfgrading.formats.names import full_name
from ecfgrading.formats.problems import Problem
from ecfgrading.formats.results_model import PlayerEntry
from ecfgrading.pickled import by_fields
from ecfgrading.registry.inserts import insert_instances
from ecfgrading.registry.models import PendingIdentification, Player

# FIDE ids have at most 10 digits; Player.fide_id (a 64-bit column) holds every one.
FIDE_DIGITS = 10


@dataclass(frozen=True)
class Fields:
    """What one kind of file calls each detail, for the problems' messages."""

    name: str
    fide: str
    membership: str = ""


RESULTS_FIELDS = Fields("NAME", "FIDE NO", "ECF NO")
OLDER_RESULTS_FIELDS = Fields("SURNAME", "FIDE NO", "ECF NO")  # SURNAME, FORENAME, INITIALS
LIST_FIELDS = Fields("Name", "FIDECode")


@dataclass(frozen=True)
class RawDetails:
    """A player's details as text, and the line and field names that gave them."""

    line: int
    fields: Fields
    name: str  # 'Surname, Forenames'; without a comma it is all surname
    sex: str = ""
    fide: str = ""
    nation: str = ""
    membership: str = ""
    date_of_birth: date | None = None


@by_fields
@dataclass(frozen=True)
class PlayerDetails:
    """A player's details ready for the registry."""

    surname: str
    forenames: str = ""
    sex: str = ""  # M, F, or '' when unknown
    fide_id: int | None = None
    nation: str | None = None  # three capitals; None when not given: a record keeps its own
    membership_no: str = ""
    date_of_birth: date | None = None  # as given

    def new_player(self, code: int) -> Player:
        """An unsaved record holding ``code`` (G28) and these details."""
        return Player(
            code=code,
            surname=self.surname,
            forenames=self.forenames,
            sex=self.sex,
            date_of_birth=self.date_of_birth,
            fide_id=self.fide_id,
            membership_no=self.membership_no,
            nation=self.nation or Player._meta.get_field("nation").default,
        )


def insert_new_players(players: list[Player]) -> list[Player]:
    """New records on file by one plain statement, each with the search key its save
    would give it (``Player.save``): an import's new players, and the queue's."""
    for player in players:
        player.name_key = player.search_key()
    insert_instances(players)
    return players


def normalise(raw: RawDetails) -> tuple[PlayerDetails, tuple[Problem, ...]]:
    """The details as the registry keeps them, and every problem with them.

    A name or number wider than its column is an error, never cut: a cut name would be
    a different name. A FIDE id that is not one is a warning and is not stored: it plays
    no part in grading.
    """
    surname, _, forenames = raw.name.partition(",")
    details = PlayerDetails(
        surname=surname.strip(),
        forenames=forenames.strip(),
        sex=_sex(raw.sex),
        fide_id=_fide_id(raw.fide),
        nation=_nation(raw.nation),
        membership_no=raw.membership.strip(),
        date_of_birth=raw.date_of_birth,
    )
    if _fits(raw, details):  # nearly every row: no problem to look for one by one
        return details, ()
    return details, tuple(_problems(raw, details))


def _fits(raw: RawDetails, details: PlayerDetails) -> bool:
    """Whether ``_problems`` would find none: a name, texts within their columns, a
    FIDE id if one was given. Asked first, as a season's 80,000 entries and a list's
    37,000 rows are read (issue 25)."""
    surname, forenames, membership = _widths()
    return (
        bool(details.surname)
        and len(details.surname) <= surname
        and len(details.forenames) <= forenames
        and len(details.membership_no) <= membership
        and (details.fide_id is not None or not raw.fide.strip())
    )


@cache
def _widths() -> tuple[int, int, int]:
    return width(Player, "surname"), width(Player, "forenames"), width(Player, "membership_no")


def _problems(raw: RawDetails, details: PlayerDetails) -> Iterator[Problem]:
    fields, line = raw.fields, raw.line
    if not details.surname:
        expected = "a name 'Surname, Forenames'"
        yield Problem.make("missing-name", line, fields.name, expected, raw.name)
    texts = (
        (fields.name, "surname", details.surname),
        (fields.name, "forenames", details.forenames),
        (fields.membership, "membership_no", details.membership_no),
    )
    for label, name, text in texts:
        if problem := too_long(line, label, Player._meta.get_field(name), text):
            yield problem
    if raw.fide.strip() and details.fide_id is None:
        expected = f"a FIDE id of 1 to {FIDE_DIGITS} digits"
        yield Problem.make("bad-fide-id", line, fields.fide, expected, raw.fide)


def width(model: type[models.Model], name: str) -> int:
    """The characters a text column holds: the one figure checks and cuts both use."""
    found = model._meta.get_field(name).max_length
    assert found is not None, f"{model.__name__}.{name} is not a text column"
    return int(found)


def overflows(column: models.Field, text: str) -> bool:
    return column.max_length is not None and len(text) > column.max_length


def too_long(line: int, label: str, column: models.Field, text: str) -> Problem | None:
    """A problem when ``text`` is wider than ``column`` (a name, club or number)."""
    if not overflows(column, text):
        return None
    width = column.max_length
    expected = f"a {column.verbose_name} of at most {width} characters"
    return Problem.make("too-long", line, label, expected, text)


def _sex(text: str) -> str:
    """M or F; anything else is unknown (the readers warn about it)."""
    text = text.strip().upper()
    return text if text in ("M", "F") else ""


def _nation(text: str) -> str | None:
    """Three letters, or None (the list reader warns about anything else)."""
    text = text.strip().upper()
    return text if len(text) == 3 and text.isalpha() else None


def _fide_id(text: str) -> int | None:
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= FIDE_DIGITS and int(text) > 0:
        return int(text)
    return None


# Where details come from -------------------------------------------------------------------


def from_entry(entry: PlayerEntry) -> RawDetails:
    """A results file's player set: NAME, or the older SURNAME, FORENAME, INITIALS."""
    fields = RESULTS_FIELDS if entry.name else OLDER_RESULTS_FIELDS
    return RawDetails(
        entry.line,
        fields,
        entry.full_name,
        sex=entry.gender,
        fide=entry.fide_no,
        membership=entry.membership_no,
        date_of_birth=entry.date_of_birth,
    )


def from_list_row(row: GradeListRow) -> RawDetails:
    """A published list's row (it has no membership number and no date of birth)."""
    return RawDetails(
        row.line, LIST_FIELDS, row.name, sex=row.sex, fide=row.fide_code, nation=row.nation
    )


def from_case(case: PendingIdentification) -> RawDetails:
    """A queued player: the details his file gave, kept when the file was imported."""
    name = full_name(case.surname, case.forenames) or case.name
    return RawDetails(
        0,
        RESULTS_FIELDS,
        name,
        sex=case.sex,
        fide=case.fide_no,
        membership=case.membership_no,
        date_of_birth=case.date_of_birth,
    )
