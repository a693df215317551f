"""Results files to published, explained, exported lists over three seasons.

The seasons are 2007-08 to 2009-10, all graded by ecf-2009 (G31); the later rule sets
have their own end-to-end test (tests/e2e/test_eras.py).

Every expected figure is worked out by hand in the comments (grading-rules.md, cases.md
C3, C4, C5, C8 and a revision), through the whole pipeline: import, identification,
grading runs reading earlier stored lists, publication and the stored breakdown.
"""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine import Category, Rate
from ecfgrading.lookups.explain import breakdowns
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.models import ListEntry, ListVersion
from ecfgrading.services.grading.assignments import assign_starting_grade
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.results.ingest import import_files
from tests.e2e.federation import Federation

pytestmark = pytest.mark.django_db

STANDARD, RAPID = Rate.STANDARD, Rate.RAPID
CSV_HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)


def run(list_id: str, rate: Rate) -> str:
    """Compute and publish the next version of a list; returns its name."""
    name = compute_version(list_id, rate).version
    publish_version(list_id, rate, name)
    return name


def entry(player_id: int, list_id: str, rate: Rate, version: str | None = None) -> ListEntry:
    versions = ListVersion.objects.filter(
        grading_list__list_id=list_id, grading_list__rate=rate.value
    )
    chosen = versions.get(name=version) if version else versions.order_by("-published_at").first()
    return ListEntry.objects.get(version=chosen, player_id=player_id)


def imported(*files: tuple[str, bytes]) -> None:
    outcomes = import_files(list(files))
    problems = [p.message for o in outcomes for p in o.report.errors]
    assert problems == []


@pytest.fixture
def season() -> dict[str, object]:
    """Three seasons of a small federation, graded and published in date order."""
    fed = Federation(assigned_from="2007-07")
    notional = fed.player("Notional", "Peter")  # C3 through the pipeline
    junior = fed.player("Young", "Jay", born=date(1998, 3, 1))  # C4: 12 on 31 Aug 2010
    rapid = fed.player("Rapid", "Rita")  # C5
    x_junior = fed.player("Xavier", "Max", born=date(1996, 1, 1))  # C8: 13 on 31 Aug 2009
    assign_starting_grade(rapid.ref, RAPID, valid_from="2007-07", grade=100)  # G6
    csv = CSV_HEADER + f'{notional.ref},"Notional, Peter",M,,A,150,148,30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id="2007-07", rates=(STANDARD,))

    # Season 2007-08. Notional (S 150 from the 2007-07 list) loses 8 and draws 12
    # against 150s: 8 x 100 + 12 x 150 = 2600 in 20 games, average 130.
    s1 = fed.against(notional, ["01"] * 8 + ["55"] * 12, 150, date(2007, 9, 5))
    # Rapid (assigned 100) in rapid P0 2007-08, stored for later (C5's P1):
    # win v 80 -> 130, loss v 140 -> 90 (recorded first), draw v 110 -> 110,
    # win v 140 -> 190, loss v 100 -> 50.
    r1 = [
        (rapid, "01", fed.opponent(RAPID, 140), date(2008, 5, 30)),  # 90, recorded first
        (rapid, "10", fed.opponent(RAPID, 80), date(2008, 5, 30)),  # 130, recorded second
        (rapid, "55", fed.opponent(RAPID, 110), date(2008, 5, 20)),  # 110
        (rapid, "10", fed.opponent(RAPID, 140), date(2008, 4, 1)),  # 190
        (rapid, "01", fed.opponent(RAPID, 100), date(2007, 9, 1)),  # 50
    ]
    imported(fed.event(s1), fed.event(r1, rate=RAPID))
    run("2008-07", STANDARD)
    run("2008-07", RAPID)

    # Season 2008-09. Notional (S 130) wins 2, draws 4, loses 4 against 150s:
    # 400 + 600 + 400 = 1400 in 10 games, average 140.
    s2 = fed.against(notional, ["10"] * 2 + ["55"] * 4 + ["01"] * 4, 150, date(2008, 9, 4))
    # Young (a junior, estimated each list): loses 10 to 150s, so S = 100; each game
    # counts 140 (the 40-point rule) and scores 90: 900 stored for 2009-07.
    j1 = fed.against(junior, ["01"] * 10, 150, date(2008, 10, 2))
    # Rapid: 27 draws against 100s in September 2008 (outside H0): 2700.
    r2 = fed.against(rapid, ["55"] * 27, 100, date(2008, 9, 4), RAPID)
    # Xavier: 13 rapid wins against 120s in March 2009, before the 2010-01 list's H0.
    x1 = fed.against(x_junior, ["10"] * 13, 120, date(2009, 3, 5), RAPID)
    imported(fed.event(s2), fed.event(j1), fed.event(r2, rate=RAPID), fed.event(x1, rate=RAPID))
    run("2009-07", STANDARD)
    run("2009-07", RAPID)

    # Season 2009-10. Notional (S 133) draws 12 against 150s: 1800.
    # Young draws 14 against 100s: estimated 100, each counts 100: 1400.
    # Xavier draws 32 rapid games against 120s in September 2009 (H0 of 2010-01).
    s3 = fed.against(notional, ["55"] * 12, 150, date(2009, 9, 3))
    j2 = fed.against(junior, ["55"] * 14, 100, date(2009, 10, 1))
    x2 = fed.against(x_junior, ["55"] * 32, 120, date(2009, 9, 3), RAPID)
    imported(fed.event(s3), fed.event(j2), fed.event(x2, rate=RAPID))
    run("2010-01", RAPID)
    run("2010-07", STANDARD)
    return {"fed": fed, "notional": notional, "junior": junior, "rapid": rapid, "x": x_junior}


def test_c3_notional_games_from_two_stored_lists(season: dict) -> None:
    p = season["notional"]
    first = entry(p.id, "2008-07", STANDARD)
    # 2600 / 20 = 130; nothing stored before (the 2007-07 list came from a file): D.
    assert (first.grade, first.category, first.games_counted) == (130, "D", 20)
    second = entry(p.id, "2009-07", STANDARD)
    # (1400 + 20 x 130) / 30 = 133.33 -> 133; n0 10 and 30 in three periods: C.
    assert (second.grade, second.category, second.start_grade) == (133, "C", 130)
    third = entry(p.id, "2010-07", STANDARD)
    # (1800 + 10 x 140 + 8 x 130) / 30 = 141.33 -> 141, C, games 12 / 30.
    assert third.unrounded == pytest.approx(4240 / 30)
    assert (third.grade, third.category) == (141, "C")
    assert (third.games_latest, third.games_counted) == (12, 30)
    assert (third.start_grade, third.start_source, third.previous_grade) == (133, "previous", 133)


def test_c4_junior_brings_forward_to_twenty_and_gets_the_bonus(season: dict) -> None:
    j = entry(season["junior"].id, "2010-07", STANDARD)
    # (1400 + 6 x 90) / 20 = 97, + 5 (aged 12) = 102; junior C; games 14 / 20.
    assert (j.calculated, j.bonus, j.grade) == (97, 5, 102)
    assert (j.category, j.junior_age, j.games_latest, j.games_counted) == ("C", 12, 14, 20)
    assert j.start_source == "estimated"


def test_c5_rapid_brings_forward_the_most_recent_stored_games(season: dict) -> None:
    r = entry(season["rapid"].id, "2009-07", RAPID)
    # (2700 + 130 + 90 + 110) / 30 = 101; n0 27 >= 20 and n0 + n1 = 32: B.
    assert r.unrounded == pytest.approx(101)
    assert (r.grade, r.category, r.n1) == (101, "B", 5)
    (explanation, _names) = breakdowns(season["rapid"].ref, "2009-07")[0]
    brought = explanation.forward[0].stored_games
    assert sorted(line.points for line in brought) == [90, 110, 130]


def test_c8_x_grade_on_the_half_year_for_a_junior(season: dict) -> None:
    x = entry(season["x"].id, "2010-01", RAPID)
    # Estimate from all 45 games: (32 x 120 + 13 x 170) / 45 = 134.44; every game
    # counts 120; H0 alone: 32 draws = 120, + 5 (aged 13 on 31 August 2009) = 125.
    assert x.start_grade == pytest.approx((32 * 120 + 13 * 170) / 45)
    assert (x.grade, x.category, x.games_latest, x.games_counted) == (125, "X", 45, 32)


def test_a_late_result_makes_an_august_revision_and_the_initial_stays(season: dict) -> None:
    fed, p = season["fed"], season["notional"]
    late = fed.against(p, ["10"], 150, date(2010, 3, 1))  # S 133: a win counts 200
    imported(fed.event(late))
    assert compute_version("2010-07", STANDARD).version == "august"
    publish_version("2010-07", STANDARD, "august")
    # (2000 + 10 x 140 + 7 x 130) / 30 = 143.67 -> 144.
    assert entry(p.id, "2010-07", STANDARD, "august").grade == 144
    assert entry(p.id, "2010-07", STANDARD, "initial").grade == 141
    assert entry(p.id, "2010-07", STANDARD).grade == 144  # current = latest
    with pytest.raises(VersionError, match="immutable"):
        compute_version("2010-07", STANDARD, "initial")


def test_the_stored_breakdown_adds_up_to_the_grade(season: dict) -> None:
    (explanation, names) = breakdowns(season["notional"].ref, "2010-07")[0]
    assert len(explanation.games) == 12
    assert {g.counted_as for g in explanation.games} == {150}
    assert [(f.period, f.games, f.average) for f in explanation.forward] == [
        (1, 10, 140),
        (2, 8, 130),
    ]
    assert explanation.points_total == pytest.approx(4240)
    assert explanation.entry.category is Category.C
    assert "Notional, Peter" in names[season["notional"].id]
