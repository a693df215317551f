"""``registry.references``: the rows a write inserted name rows that are there, checked
once a table (issue 25: an importer's turn on SQLite, written with its row-by-row check
off). Both databases check references only at the commit (Django's constraints are
deferred), so a test's transaction can hold a row naming nothing until it is checked."""

from collections.abc import Callable

import pytest
from django.db import IntegrityError

from ecfgrading.registry import references
from ecfgrading.registry.bulk import insert_rows
from ecfgrading.registry.models import Club, ClubMembership, Player

pytestmark = pytest.mark.django_db

COLUMNS = ("player_id", "club_id", "first_season", "last_season")


def test_new_rows_naming_rows_on_record_pass(make_player: Callable[..., Player]) -> None:
    player, club = make_player("Archer", "Ann"), Club.objects.create(code="AAAA", name="A")
    before = references.marks()
    insert_rows(ClubMembership, COLUMNS, [(player.pk, club.pk, 2009, 2010)])

    references.check_new_rows(before)  # raises nothing


def test_a_new_row_naming_no_row_is_refused(make_player: Callable[..., Player]) -> None:
    player, club = make_player("Archer", "Ann"), Club.objects.create(code="AAAA", name="A")
    before = references.marks()
    assert before[ClubMembership] == 0 and Player in before  # tables with references
    rows = [(player.pk, club.pk, 2009, 2010), (player.pk + 1000, club.pk, 2009, 2010)]
    insert_rows(ClubMembership, COLUMNS, rows)

    with pytest.raises(IntegrityError, match="registry_clubmembership"):
        references.check_new_rows(before)
    _unspoilt(player)


def _unspoilt(player: Player) -> None:
    """The row naming nobody taken away: the test's end checks every reference."""
    ClubMembership.objects.filter(player_id=player.pk + 1000).delete()


def test_only_the_rows_after_the_marks_are_looked_at(make_player: Callable[..., Player]) -> None:
    player, club = make_player("Archer", "Ann"), Club.objects.create(code="AAAA", name="A")
    insert_rows(ClubMembership, COLUMNS, [(player.pk + 1000, club.pk, 2009, 2010)])
    before = references.marks()  # the row naming nobody is before them
    insert_rows(ClubMembership, COLUMNS, [(player.pk, club.pk, 2010, 2011)])

    references.check_new_rows(before)  # raises nothing
    with pytest.raises(IntegrityError):
        references.check_new_rows({**before, ClubMembership: 0})
    _unspoilt(player)
