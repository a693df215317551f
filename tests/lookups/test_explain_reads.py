"""The stored explanation reads only what it shows, in a fixed number of queries (issue 25),
and reads a merged record's stored games as the survivor's (G17, G28).

The figures are cases.md's C5 (rapid games brought forward, G15) worked by hand, with the
earlier season's games played under a second record of the player, merged into him.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ecfgrading.engine import Rate
from ecfgrading.lookups.explain import breakdowns, stored_explanation
from ecfgrading.lookups.records import Survivors
from ecfgrading.registry.models import ListEntry, Player
from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.merge import merge_players
from ecfgrading.services.results.ingest import import_files
from tests.e2e.federation import Federation

pytestmark = pytest.mark.django_db
RAPID = Rate.RAPID


def _run(list_id: str) -> None:
    publish_version(list_id, RAPID, compute_version(list_id, RAPID).version)


@pytest.fixture
def merged_rapid() -> Player:
    """Rita's 2007-08 rapid games were recorded under a second record of hers (assigned
    100 as she is), merged into her before she played 27 draws in 2008-09."""
    fed = Federation(assigned_from="2007-07")
    rita, second = fed.player("Rapid", "Rita"), fed.player("Rapid", "Rita B")
    for record in (rita, second):
        assign_starting_grade(record.ref, RAPID, valid_from="2007-07", grade=100)  # G6
    # From 100: loss v 140 -> 90 and win v 80 -> 130 (both 30 May, recorded in that
    # order), draw v 110 -> 110 (20 May), win v 140 -> 190 (1 April), loss v 100 -> 50.
    earlier = [
        (second, "01", fed.opponent(RAPID, 140), date(2008, 5, 30)),
        (second, "10", fed.opponent(RAPID, 80), date(2008, 5, 30)),
        (second, "55", fed.opponent(RAPID, 110), date(2008, 5, 20)),
        (second, "10", fed.opponent(RAPID, 140), date(2008, 4, 1)),
        (second, "01", fed.opponent(RAPID, 100), date(2007, 9, 1)),
    ]
    assert all(o.accepted for o in import_files([fed.event(earlier, rate=RAPID)]))
    _run("2008-07")
    merge_players(second.ref, rita.ref)
    # 27 draws against 100s in September 2008: each counts 100, 2700 points (G12).
    later = fed.against(rita, ["55"] * 27, 100, date(2008, 9, 4), RAPID)
    assert all(o.accepted for o in import_files([fed.event(later, rate=RAPID)]))
    _run("2009-07")
    return rita


def test_a_merged_records_stored_games_are_brought_forward_as_the_survivors(
    merged_rapid: Player,
) -> None:
    (explanation, names) = breakdowns(merged_rapid.ref, "2009-07")[0]
    # G15: 27 games in P0, so the 3 most recent of P1 make 30: 90 and 130 (30 May) and
    # 110 (20 May); (2700 + 330) / 30 = 101.
    (forward,) = explanation.forward
    assert sorted(game.points for game in forward.stored_games) == [90, 110, 130]
    assert len(explanation.games) == 27
    assert explanation.points_total == pytest.approx(3030)
    assert explanation.entry.unrounded == pytest.approx(101)
    assert "Rapid, Rita" in names[merged_rapid.id]


def test_a_stored_explanation_reads_three_queries_whatever_its_games(
    merged_rapid: Player,
) -> None:
    entry = ListEntry.objects.select_related("version__grading_list").get(
        player=merged_rapid, version__grading_list__list_id="2009-07"
    )
    survivors = Survivors()  # the page's, read once for the player
    with CaptureQueriesContext(connection) as queries:
        explanation = stored_explanation(entry, survivors)
    # The P0 games with their points, the opponents' starting grades, P1 and P2 together.
    assert len(queries) == 3
    assert len(explanation.games) == 27
