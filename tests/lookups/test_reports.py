"""Reports for the grading team's checks (grading help: "Checking of Grading Data").

Every list, entry, game and stored point is built by hand here; every expected figure is
worked out by hand in the test that checks it.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

import numpy as np
import pytest
from django.contrib.auth import get_user_model

from ecfgrading.engine.rules import ECF_2009
from ecfgrading.engine.types import Rate
from ecfgrading.lookups.reports import (
    AgreementParams,
    VersionError,
    events_overdue,
    events_received,
    expected_score,
    integrity,
    large_jumps,
    unanchored_and_zero,
)
from ecfgrading.registry.models import (
    Event,
    Game,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
    Submission,
)

pytestmark = pytest.mark.django_db

STANDARD = Rate.STANDARD
Points = tuple[Player, "Game", float]  # one stored points row (G17)
_sequence = itertools.count(1)


# Building blocks ----------------------------------------------------------------------------


def player(code: int, surname: str, forenames: str = "") -> Player:
    return Player.objects.create(code=code, surname=surname, forenames=forenames)


def version(
    list_id: str,
    name: str = "initial",
    entries: dict[Player, dict[str, Any]] | None = None,
    points: list[Points] | None = None,
    published: datetime | None = None,
) -> ListVersion:
    """A version with its entries and P0 stored points; published last (G26)."""
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=STANDARD.value)
    made = ListVersion.objects.create(grading_list=grading_list, name=name)
    ListEntry.objects.bulk_create(
        ListEntry(version=made, player=p, **_entry(fields)) for p, fields in (entries or {}).items()
    )
    StoredGamePoints.objects.bulk_create(
        StoredGamePoints(version=made, player=p, game=g, date=g.game_date, points=pts)
        for p, g, pts in points or []
    )
    if published is not None:
        made.status, made.published_at = ListVersion.Status.PUBLISHED, published
        made.save()
    return made


def _entry(fields: dict[str, Any]) -> dict[str, Any]:
    published = fields.get("grade") is not None
    return {"published": published, "category": "A" if published else "", **fields}


def event(code: str, end: date = date(2010, 3, 1), **fields: Any) -> Event:
    defaults = {"name": f"{code} Congress", "rate": "standard", "start_date": end}
    return Event.objects.create(code=code, end_date=end, **{**defaults, **fields})


def submission(
    of: Event, index: int = 1, status: str = "accepted", received: datetime | None = None
) -> Submission:
    return Submission.objects.create(
        event=of,
        event_code=of.code,
        submission_index=index,
        raw=b"",
        sha256="0" * 64,
        status=status,
        received_at=received or datetime(2010, 6, 1, 12, tzinfo=UTC),
    )


def game(sent: Submission, first: Player, second: Player, result: str, day: date) -> Game:
    """A result as recorded; '10' is a win for player 1, '01' a loss, '55' a draw."""
    graded = result in ("10", "01", "55")
    return Game.objects.create(
        event=sent.event,
        submission=sent,
        player1=first,
        player2=second,
        result=result,
        game_date=day,
        rate="standard",
        graded=graded,
        not_graded_reason="" if graded else "default",
        line=1,
        sequence=next(_sequence),
    )


def both(
    first: Player, second: Player, played: Game, points1: float, points2: float
) -> list[Points]:
    """The two stored points rows of one game (G17)."""
    return [(first, played, points1), (second, played, points2)]


def at(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


# Large jumps ------------------------------------------------------------------------------


@pytest.fixture
def jumps_lists() -> None:
    """Standard 2009-07 (initial and august published) and 2010-07 (initial published,
    august a draft), with Bloggs's three P0 games in 2010-07 initial."""
    bloggs, smith = player(261619, "Bloggs", "Joe"), player(233310, "Smith", "Jane")
    patel, brown = player(123456, "Patel", "Asha"), player(155624, "Brown")
    jones = player(102807, "Jones", "Tom")
    before = {bloggs: 120, smith: 160, brown: 130, jones: 100}
    version(
        "2009-07", entries={p: {"grade": g} for p, g in before.items()}, published=at(2009, 7, 1)
    )
    # The previous list's latest published version is august: Jones 110 there.
    corrected = {**before, jones: 110}
    version(
        "2009-07",
        "august",
        {p: {"grade": g} for p, g in corrected.items()},
        published=at(2009, 8, 1),
    )
    sent = submission(event("E1"))
    later = submission(event("E2"))
    g1 = game(sent, bloggs, smith, "10", date(2009, 9, 12))
    g2 = game(sent, patel, bloggs, "55", date(2009, 10, 3))
    g3 = game(later, bloggs, jones, "01", date(2010, 1, 20))
    points = both(bloggs, smith, g1, 210, 110) + both(patel, bloggs, g2, 120, 100)
    points += both(bloggs, jones, g3, 100, 170)
    now = {
        bloggs: {"grade": 150, "category": "B", "games_latest": 3, "games_counted": 30},
        smith: {"grade": 140},
        patel: {"grade": 100},  # new: no previous grade, never a jump
        jones: {"grade": 135},
        brown: {"grade": None, "published": False},  # not published now
    }
    version("2010-07", entries=now, points=points, published=at(2010, 7, 1))
    august = {**now, bloggs: {"grade": 160}}
    # Another version's stored points for Bloggs's game: not this version's games.
    version("2010-07", "august", august, points=[(bloggs, g1, 999.0)])


def test_a_player_from_120_to_150_is_a_jump_of_30_listed_at_25_but_not_at_31(jumps_lists) -> None:
    at_25 = large_jumps("2010-07", STANDARD, threshold=25)
    at_31 = large_jumps("2010-07", STANDARD, threshold=31)

    bloggs = at_25.jumps[0]
    assert (bloggs.code, bloggs.name) == ("261619B", "Bloggs, Joe")
    assert (bloggs.old_grade, bloggs.new_grade, bloggs.change) == (120, 150, 30)
    assert (bloggs.category, bloggs.games_latest, bloggs.games_counted) == ("B", 3, 30)
    assert at_31.jumps == ()


def test_jumps_are_measured_from_the_previous_lists_latest_published_version(jumps_lists) -> None:
    report = large_jumps("2010-07", STANDARD, threshold=25)

    # Jones: 110 in 2009-07 august (100 in initial) to 135 is exactly 25: listed.
    assert [(j.name, j.change) for j in report.jumps] == [("Bloggs, Joe", 30), ("Jones, Tom", 25)]
    assert report.previous == "standard 2009-07 august (published)"
    assert report.version == "standard 2010-07 initial (published)"


def test_jumps_down_count_and_the_largest_move_comes_first(jumps_lists) -> None:
    report = large_jumps("2010-07", STANDARD, threshold=20)

    # Smith 160 -> 140; Patel has no previous grade; Brown is not published now.
    assert [(j.code, j.change) for j in report.jumps] == [
        ("261619B", 30),
        ("102807J", 25),
        ("233310H", -20),
    ]


def test_a_jump_lists_the_games_behind_it_with_opponent_event_and_points(jumps_lists) -> None:
    bloggs = large_jumps("2010-07", STANDARD).jumps[0]

    listed = [
        (g.date, g.event_code, g.opponent_code, g.opponent_name, g.score, g.points)
        for g in bloggs.games
    ]
    assert listed == [
        (date(2009, 9, 12), "E1", "233310H", "Smith, Jane", 1.0, 210.0),
        (date(2009, 10, 3), "E1", "123456A", "Patel, Asha", 0.5, 100.0),
        (date(2010, 1, 20), "E2", "102807J", "Jones, Tom", 0.0, 100.0),
    ]
    assert bloggs.games_not_listed == 0


def test_only_the_latest_games_are_listed_beyond_the_limit(jumps_lists) -> None:
    bloggs = large_jumps("2010-07", STANDARD, games_limit=2).jumps[0]

    assert [g.date for g in bloggs.games] == [date(2009, 10, 3), date(2010, 1, 20)]
    assert bloggs.games_not_listed == 1


def test_a_named_draft_version_is_reported_on_request(jumps_lists) -> None:
    report = large_jumps("2010-07", STANDARD, version="august")

    bloggs = report.jumps[0]
    assert (bloggs.old_grade, bloggs.new_grade, bloggs.change) == (120, 160, 40)
    assert [(g.event_code, g.points) for g in bloggs.games] == [("E1", 999.0)]
    assert report.version == "standard 2010-07 august (draft)"


def test_the_latest_draft_is_reported_when_nothing_is_published(jumps_lists) -> None:
    bloggs = Player.objects.get(code=261619)
    version("2011-07", entries={bloggs: {"grade": 180}})

    report = large_jumps("2011-07", STANDARD)

    # The previous list is 2010-07 as published (initial), where Bloggs is 150.
    assert [(j.old_grade, j.new_grade) for j in report.jumps] == [(150, 180)]
    assert report.previous == "standard 2010-07 initial (published)"


def test_a_list_without_a_previous_list_has_no_jumps(jumps_lists) -> None:
    report = large_jumps("2009-07", STANDARD, threshold=0)

    assert (report.previous, report.jumps) == (None, ())


def test_an_unknown_version_or_list_is_a_clear_error(jumps_lists) -> None:
    with pytest.raises(VersionError, match="rev7"):
        large_jumps("2010-07", STANDARD, version="rev7")
    with pytest.raises(VersionError, match="2015-07"):
        large_jumps("2015-07", STANDARD)


def test_the_jumps_report_reads_as_text_and_as_json(jumps_lists) -> None:
    report = large_jumps("2010-07", STANDARD)

    text = report.to_text()
    assert "threshold 25: 2 players" in text
    assert "+30  120 -> 150  Bloggs, Joe 261619B" in text
    assert "2009-09-12  E1" in text and "v Smith, Jane 233310H  score 1  points 210" in text
    data = json.loads(json.dumps(report.as_dict()))
    assert data["jumps"][0]["games"][0]["date"] == "2009-09-12"
    assert data["jumps"][0]["change"] == 30


# Integrity --------------------------------------------------------------------------------


@pytest.fixture
def integrity_lists() -> None:
    """Previous 2009-07: P 140, Q 150, R 94, T 90. This 2010-07: P 150 (A), Q 140 (A),
    R 100 (B), S 95 (E), U unpublished. Seven games count; two do not."""
    p, q, r = player(1, "P"), player(2, "Q"), player(3, "R")
    s, t, u = player(4, "S"), player(5, "T"), player(6, "U")
    before = {p: {"grade": 140}, q: {"grade": 150}, r: {"grade": 94}, t: {"grade": 90}}
    version("2009-07", entries=before, published=at(2009, 7, 1))
    sent = submission(event("E1"))
    day = date(2010, 2, 1)
    counted = [
        (p, q, "10"),  # d=+10: the stronger P scores 1
        (q, p, "55"),  # d=-10: P is the stronger, scores 0.5
        (r, s, "01"),  # d=+5: R scores 0
        (s, r, "01"),  # d=-5: R scores 1
        (r, s, "10"),  # d=+5: R scores 1
        (p, r, "10"),  # d=+50: P scores 1
        (s, p, "55"),  # d=-55: P scores 0.5
    ]
    points = []
    for first, second, result in counted:
        points += both(first, second, game(sent, first, second, result, day), 100, 100)
    points += both(p, u, game(sent, p, u, "10", day), 100, 100)  # U is not published
    elsewhere = game(sent, p, q, "01", day)  # in another version's points only
    now = {
        p: {"grade": 150, "category": "A"},
        q: {"grade": 140, "category": "A"},
        r: {"grade": 100, "category": "B"},
        s: {"grade": 95, "category": "E"},
        u: {"grade": None, "games_latest": 1},
    }
    version("2010-07", entries=now, points=points, published=at(2010, 7, 1))
    version("2010-07", "august", now, points=both(p, q, elsewhere, 100, 100))


def test_the_distribution_of_grades_is_compared_with_the_previous_list(integrity_lists) -> None:
    report = integrity("2010-07", STANDARD)

    # 150, 140, 100, 95: sum 485; deviations 28.75, 18.75, -21.25, -26.25.
    now = report.current
    assert (now.count, now.mean, now.median) == (4, 121.25, 120.0)
    assert now.std == pytest.approx(math.sqrt((826.5625 + 351.5625 + 451.5625 + 689.0625) / 4))
    # 140, 150, 94, 90: sum 474; deviations 21.5, 31.5, -24.5, -28.5.
    before = report.previous
    assert (before.count, before.mean, before.median) == (4, 118.5, 117.0)
    assert before.std == pytest.approx(math.sqrt((462.25 + 992.25 + 600.25 + 812.25) / 4))
    # P +10, Q -10, R +6.
    assert (report.in_both, report.mean_change) == (3, pytest.approx(2.0))


def test_the_histogram_counts_both_lists_in_ten_point_bands(integrity_lists) -> None:
    report = integrity("2010-07", STANDARD)

    assert [band.low for band in report.histogram] == list(range(0, 160, 10))
    occupied = {(b.low, b.current, b.previous) for b in report.histogram if b.current or b.previous}
    assert occupied == {(90, 1, 2), (100, 1, 0), (140, 1, 1), (150, 1, 1)}


def test_categories_and_unpublished_players_are_counted(integrity_lists) -> None:
    report = integrity("2010-07", STANDARD)

    assert report.categories == {
        "X": 0,
        "A": 2,
        "B": 1,
        "C": 0,
        "D": 0,
        "E": 1,
        "uncategorised": 0,
        "unpublished": 1,
    }


def test_results_are_compared_with_the_score_the_grades_expect_band_by_band(
    integrity_lists,
) -> None:
    report = integrity("2010-07", STANDARD)

    assert report.games == 7  # not P v U (unpublished), nor the august-only game
    bands = {(b.low, b.high): b for b in report.bands}
    assert list(bands) == [(0, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, None)]
    close = bands[0, 9]  # R scores 0, 1, 1 expecting 0.55 each
    assert (close.games, close.expected) == (3, pytest.approx(0.55))
    assert close.actual == pytest.approx(2 / 3)
    assert close.difference == pytest.approx(2 / 3 - 0.55)
    ten = bands[10, 19]  # P scores 1 and 0.5 expecting 0.6
    assert (ten.games, ten.expected, ten.actual) == (2, pytest.approx(0.6), 0.75)
    assert ten.difference == pytest.approx(0.15)
    # d=50 and d=55: the 40-point rule (G12) caps the expectation at 0.9.
    wide = bands[50, None]
    assert (wide.games, wide.expected, wide.actual) == (2, pytest.approx(0.9), 0.75)
    assert (bands[20, 29].games, bands[20, 29].expected) == (0, None)


def test_a_band_with_enough_games_and_too_large_a_difference_makes_the_list_suspect(
    integrity_lists,
) -> None:
    default = integrity("2010-07", STANDARD)
    strict = integrity("2010-07", STANDARD, params=AgreementParams(min_games=3))

    assert not default.suspect  # no band has 200 games
    # Only 0-9 has 3 games; it is off by 0.117 > 0.05. 10-19 (0.15) has too few.
    assert strict.suspect
    assert [b.low for b in strict.bands if b.suspect] == [0]


def test_without_the_40_point_cap_the_expectation_runs_on_to_a_full_point(
    integrity_lists,
) -> None:
    uncapped = replace(ECF_2009, cap=math.inf)

    report = integrity("2010-07", STANDARD, rules=uncapped)

    assert report.bands[-1].expected == pytest.approx(1.0)  # 0.5 + 50/100, and 1.05 clamped


def test_the_expected_score_is_half_a_point_plus_d_over_100_within_the_cap() -> None:
    d = np.array([0.0, 10.0, -10.0, 40.0, 60.0, -60.0])

    assert expected_score(d, ECF_2009).tolist() == pytest.approx([0.5, 0.6, 0.4, 0.9, 0.9, 0.1])


def test_the_integrity_report_reads_as_text_and_as_json(integrity_lists) -> None:
    report = integrity("2010-07", STANDARD)

    text = report.to_text()
    assert "this list: 4 published, mean 121.2" in text
    assert "verdict: consistent" in text
    data = json.loads(json.dumps(report.as_dict()))
    assert data["bands"][1]["games"] == 2
    assert data["bands"][2]["expected"] is None
    assert data["params"]["min_games"] == 200


def test_a_list_without_games_or_a_previous_list_still_reports() -> None:
    version("2009-07", entries={player(1, "P"): {"grade": 120}})

    report = integrity("2009-07", STANDARD)

    assert (report.current.count, report.previous.count, report.previous.mean) == (1, 0, None)
    assert (report.games, report.in_both, report.mean_change, report.suspect) == (0, 0, None, False)


# Unanchored and zero ----------------------------------------------------------------------


def test_unanchored_players_and_players_published_at_zero_are_listed() -> None:
    pool = {"start_source": "estimated", "flags": "unanchored"}
    entries = {
        player(1, "Adams", "Ann"): {"grade": 45, "category": "E", "start_grade": 45.0, **pool},
        player(2, "Baker"): {"grade": None, "games_latest": 3, "start_grade": 0.0, **pool},
        player(3, "Cole"): {"grade": 0, "category": "D", "games_latest": 6, "start_grade": 20.0},
        player(4, "Dunn"): {"grade": 120, "start_grade": 118.0, "start_source": "previous"},
    }
    version("2010-07", entries=entries)

    report = unanchored_and_zero("2010-07", STANDARD)

    assert [(p.name, p.grade, p.published) for p in report.unanchored] == [
        ("Adams, Ann", 45, True),
        ("Baker", None, False),
    ]
    cole = report.zero[0]
    assert len(report.zero) == 1
    # G28: 3 x 2 = 6; letter 6 of ABCDEFGHJKL is G.
    assert (cole.code, cole.category, cole.games_latest, cole.start_grade) == (
        "000003G",
        "D",
        6,
        20.0,
    )
    assert report.unanchored[0].start_source == "estimated"
    assert "unanchored (G11): 2" in report.to_text()
    assert json.loads(json.dumps(report.as_dict()))["zero"][0]["name"] == "Cole"


# Events overdue and received ----------------------------------------------------------------

TODAY = date(2010, 7, 15)


def test_a_deadline_yesterday_is_overdue_by_one_day_oldest_deadline_first() -> None:
    officer = get_user_model().objects.create_user("bob", first_name="Bob", last_name="Grader")
    event("YDAY", results_deadline=date(2010, 7, 14), grading_officer=officer)
    event("OLD", results_deadline=date(2010, 7, 5), officer_name="Ann Officer", kind="league")
    event("TODAY", results_deadline=TODAY)  # due today: not yet overdue
    event("NONE")  # no deadline
    rejected = event("REJ", results_deadline=date(2010, 7, 10))
    submission(rejected, status="rejected")  # rejected results are still owed
    received = event("RECV", results_deadline=date(2010, 7, 1), status="received")
    submission(received)
    unmarked = event("ACC", results_deadline=date(2010, 7, 1))  # status not yet moved on
    submission(unmarked)

    report = events_overdue(TODAY)

    assert [(e.code, e.days_overdue, e.officer) for e in report.events] == [
        ("OLD", 10, "Ann Officer"),
        ("REJ", 5, ""),
        ("YDAY", 1, "Bob Grader"),
    ]
    old = report.events[0]
    assert (old.kind, old.end_date, old.deadline) == ("league", date(2010, 3, 1), date(2010, 7, 5))
    assert "  10 days  OLD OLD Congress (League)" in report.to_text()
    assert json.loads(json.dumps(report.as_dict()))["events"][2]["deadline"] == "2010-07-14"


def test_events_received_in_the_season_in_the_order_their_results_arrived() -> None:
    bloggs, smith = player(261619, "Bloggs", "Joe"), player(233310, "Smith", "Jane")
    first = event("R1", end=date(2009, 6, 1))  # the season's first day
    sent = submission(first, received=at(2009, 6, 20))
    game(sent, bloggs, smith, "10", date(2009, 6, 1))
    game(sent, smith, bloggs, "55", date(2009, 6, 1))
    game(sent, bloggs, smith, "1d", date(2009, 6, 1))  # a default is not graded
    resent = event("R2", end=date(2010, 5, 31), start_date=date(2010, 5, 29))  # the last day
    old = submission(resent, 1, status="superseded", received=at(2010, 6, 1))
    for _ in range(3):
        replaced = game(old, bloggs, smith, "10", date(2010, 5, 30))
        Game.objects.filter(pk=replaced.pk).update(graded=False, not_graded_reason="superseded")
    game(submission(resent, 2, received=at(2010, 6, 10)), smith, bloggs, "01", date(2010, 5, 30))
    blitz = event("R3", end=date(2009, 12, 1), rate="none", not_graded_reason="lightning")
    submission(blitz, received=at(2009, 12, 5))
    submission(event("LATE", end=date(2010, 6, 1)))  # next season
    submission(event("EARLY", end=date(2009, 5, 31)))  # last season
    submission(event("REJ", end=date(2010, 1, 1)), status="rejected")

    report = events_received(2010)

    assert (report.season_start, report.season_end) == (date(2009, 6, 1), date(2010, 5, 31))
    assert [(e.code, e.games_graded, e.submission_index) for e in report.events] == [
        ("R1", 2, 1),
        ("R3", 0, 1),
        ("R2", 1, 2),
    ]
    latest = report.events[2]
    assert (latest.received_at, latest.start_date, latest.rate) == (
        at(2010, 6, 10),
        date(2010, 5, 29),
        "standard",
    )
    # Text shows local time: 12:00 UTC is 13:00 in London in June.
    assert "2010-06-10 13:00  R2 R2 Congress (Other, standard)" in report.to_text()
    assert json.loads(json.dumps(report.as_dict()))["events"][0]["received_at"].startswith(
        "2009-06-20T12:00"
    )
