"""Events received and an event's results (issue 9, page 5) on events built by hand.

The expected seasons, counts, rounds, boards and colours are read off the rows each test
builds (a season runs 1 June .. 31 May and is named by the year it ends: 2011-12 is the
season of 31 May 2012), never off the service's own output.
"""

from __future__ import annotations

import datetime as dt
from itertools import count

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ecfgrading.engine import GradingCode
from ecfgrading.lookups.events import (
    BadSeason,
    EventNotFound,
    EventSort,
    event_detail,
    events_received,
    find_event,
    parse_season,
    season_label,
)
from ecfgrading.registry.models import Event, Game, PendingIdentification, Player, Submission

pytestmark = pytest.mark.django_db

_codes = count(300_001)
_sequence = count(1)


def person(surname: str, forenames: str = "") -> Player:
    return Player.objects.create(code=next(_codes), surname=surname, forenames=forenames)


def ref(player: Player) -> str:
    return str(GradingCode(player.code))


def event(
    code: str,
    start: dt.date,
    end: dt.date | None = None,
    *,
    status: str = Event.Status.RECEIVED,
    kind: str = Event.Kind.CONGRESS,
    rate: str = "standard",
    reason: str = "",
    name: str = "",
    **control: int,
) -> Event:
    return Event.objects.create(
        code=code,
        name=name or f"Event {code}",
        kind=kind,
        rate=rate,
        not_graded_reason=reason,
        start_date=start,
        end_date=end or start,
        status=status,
        **control,
    )


def submitted(of: Event, status: str = Submission.Status.ACCEPTED) -> Submission:
    return Submission.objects.create(
        event=of, event_code=of.code, raw=b"#EVENT DETAILS", sha256="0", status=status
    )


def play(
    sent: Submission,
    first: Player | PendingIdentification,
    result: str,
    second: Player | PendingIdentification,
    day: dt.date,
    *,
    part: tuple[str, str] = (Game.Part.SECTION, "Open"),
    graded: bool = True,
    reason: str = "",
    **fields: object,
) -> Game:
    sides = {}
    for number, side in ((1, first), (2, second)):
        key = "player" if isinstance(side, Player) else "pending"
        sides[f"{key}{number}"] = side
    return Game.objects.create(
        event=sent.event,
        submission=sent,
        result=result,
        game_date=day,
        part_kind=part[0],
        part_name=part[1],
        rate="standard",
        graded=graded,
        not_graded_reason=reason,
        line=next(_sequence),
        sequence=next(_sequence),
        **sides,
        **fields,
    )


# Seasons ------------------------------------------------------------------------------------


def test_a_season_is_named_by_its_two_years() -> None:
    assert parse_season("2011-12") == 2012
    assert season_label(2012) == "2011-12"
    assert season_label(2000) == "1999-00"
    assert parse_season("1999-00") == 2000
    for bad in ("2011-13", "2011", "11-12", "2011/12", ""):
        with pytest.raises(BadSeason):
            parse_season(bad)


@pytest.fixture
def seasons() -> dict[str, Event]:
    """Events whose last days fall either side of 31 May, of every status."""
    return {
        "may": event("E31MAY", dt.date(2012, 5, 30), dt.date(2012, 5, 31)),  # 2011-12
        "spans": event("ESPAN", dt.date(2012, 5, 26), dt.date(2012, 6, 2)),  # 2012-13
        "june": event("E01JUN", dt.date(2011, 6, 1), status=Event.Status.GRADED),  # 2011-12
        "earlier": event("E2010", dt.date(2010, 9, 4)),  # 2010-11
        "registered": event("EREG", dt.date(2013, 1, 5), status=Event.Status.REGISTERED),
    }


def test_events_are_listed_by_the_season_of_their_last_day(seasons) -> None:
    found = events_received("2011-12")
    assert [e.code for e in found.page.items] == ["E31MAY", "E01JUN"]  # latest last day first
    assert [e.code for e in events_received("2012-13").page.items] == ["ESPAN"]


def test_the_latest_season_with_events_received_is_the_default(seasons) -> None:
    # The registered event of 2012-13's January has no results: it is not received.
    found = events_received()
    assert found.season == "2012-13"
    assert [(s.label, s.events) for s in found.seasons] == [
        ("2012-13", 1),
        ("2011-12", 2),
        ("2010-11", 1),
    ]


def test_registered_events_are_not_received(seasons) -> None:
    codes = {
        e.code for s in ("2010-11", "2011-12", "2012-13") for e in events_received(s).page.items
    }
    assert "EREG" not in codes
    assert {e.status for e in events_received("2011-12").page.items} == {"received", "graded"}


def test_a_season_with_nothing_received_is_an_empty_list() -> None:
    found = events_received("2005-06")
    assert (found.season, found.page.total, found.seasons) == ("2005-06", 0, ())
    assert events_received().season is None


def test_events_sort_by_name_and_come_in_pages() -> None:
    for n, name in enumerate(["Delta", "alpha", "Charlie", "Bravo", "Echo"]):
        event(f"EV{n}", dt.date(2012, 1, 1 + n), name=name)
    by_name = events_received("2011-12", sort=EventSort.NAME, per_page=2)
    assert [e.name for e in by_name.page.items] == ["alpha", "Bravo"]
    second = events_received("2011-12", sort=EventSort.NAME, page=2, per_page=2)
    assert [e.name for e in second.page.items] == ["Charlie", "Delta"]
    assert (second.page.total, second.page.pages) == (5, 3)
    by_date = events_received("2011-12", per_page=10)
    assert [e.name for e in by_date.page.items] == ["Echo", "Bravo", "Charlie", "alpha", "Delta"]
    assert by_date.page.items[0].month == "January 2012"


def test_games_are_counted_graded_and_not_graded_without_superseded_results() -> None:
    congress = event("ECOUNT", dt.date(2012, 3, 3))
    a, b, c, d = (person(n) for n in "ABCD")
    first = submitted(congress, Submission.Status.SUPERSEDED)
    play(first, a, "10", b, dt.date(2012, 3, 3), graded=False, reason="superseded")
    second = submitted(congress)
    play(second, a, "10", b, dt.date(2012, 3, 3))
    play(second, c, "55", d, dt.date(2012, 3, 3))
    play(second, a, "1d", c, dt.date(2012, 3, 3), graded=False, reason="default")
    row = events_received("2011-12").page.items[0]
    assert (row.games_graded, row.games_not_graded, row.games) == (2, 1, 3)


def test_an_event_not_graded_says_why_in_its_rate() -> None:
    event("ELIGHT", dt.date(2012, 4, 11), rate="none", reason="lightning")
    event("ERAPID", dt.date(2012, 4, 12), rate="rapid")
    rows = {e.code: e.rate_label for e in events_received("2011-12").page.items}
    assert rows == {"ELIGHT": "not graded: lightning", "ERAPID": "rapid"}


def test_the_events_list_reads_a_few_queries_whatever_its_length() -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            events_received("2011-12")
        return len(captured.captured_queries)

    event("EONE", dt.date(2012, 2, 2))
    few = queries()
    for n in range(20):
        held = event(f"EMANY{n:02d}", dt.date(2012, 2, 3))
        play(submitted(held), person("X"), "10", person("Y"), dt.date(2012, 2, 3))
    # The data token, the seasons (once a token), the count, the page, the games counted.
    assert queries() == few <= 5


def test_the_seasons_are_counted_once_a_data_token_and_again_when_an_event_changes(
    seasons,
) -> None:
    def counted() -> tuple[list[tuple[str, int]], int]:
        with CaptureQueriesContext(connection) as captured:
            found = events_received()
        return [(s.label, s.events) for s in found.seasons], len(captured.captured_queries)

    before, first = counted()
    again, second = counted()
    assert again == before == [("2012-13", 1), ("2011-12", 2), ("2010-11", 1)]
    assert second == first - 1  # the seasons kept under the token
    registered = seasons["registered"]
    registered.status = Event.Status.RECEIVED  # its results came: it moves the token
    registered.save()
    after, _ = counted()
    assert after == [("2012-13", 2), ("2011-12", 2), ("2010-11", 1)]


# One event ----------------------------------------------------------------------------------


def test_an_event_is_found_by_its_code_ignoring_case() -> None:
    event("CG120001", dt.date(2012, 1, 27))
    assert find_event("cg120001") == "CG120001"
    with pytest.raises(EventNotFound):
        find_event("NOPE")
    with pytest.raises(EventNotFound):
        event_detail("NOPE")


def test_section_results_come_by_round_with_colours_and_links() -> None:
    congress = event(
        "ESECT", dt.date(2012, 1, 27), dt.date(2012, 1, 29),
        moves_first_session=40, minutes_first_session=100, minutes_rest_of_game=30,
    )  # fmt: skip
    ann, ben, cat, dan = (person(n, "X") for n in ("Ann", "Ben", "Cat", "Dan"))
    sent = submitted(congress)
    # Listed out of order in the file: round 2 first, round 1 after.
    play(sent, cat, "01", ann, dt.date(2012, 1, 28), round=2, colour="B")
    play(sent, ann, "10", ben, dt.date(2012, 1, 27), round=1, colour="W")
    play(sent, cat, "55", dan, dt.date(2012, 1, 27), round=1)
    detail = event_detail("ESECT")
    assert (detail.season, detail.games_graded, detail.games_not_graded) == ("2011-12", 3, 0)
    assert detail.time_control == "40 moves in 100 min, then 30 min"
    [section] = detail.parts
    assert (section.kind, section.name) == ("section", "Open")
    assert [(r.number, len(r.games)) for r in section.rounds] == [(1, 2), (2, 1)]
    first = section.rounds[0].games[0]
    assert (first.first.code, first.first.name, first.second.code) == (
        ref(ann),
        "Ann, X",
        ref(ben),
    )
    assert (first.result_label, first.first_colour, first.second_colour) == (
        "1-0",
        "white",
        "black",
    )
    later = section.rounds[1].games[0]
    assert (later.first.name, later.first_colour, later.second_colour) == (
        "Cat, X",
        "black",
        "white",
    )
    assert section.rounds[0].games[1].first_colour == ""  # no colour given
    assert section.rounds[0].date == dt.date(2012, 1, 27)


def test_match_results_come_by_board_with_the_teams_the_match_names() -> None:
    league = event("EMATCH", dt.date(2012, 2, 7), kind=Event.Kind.COUNTY_MATCH)
    players = [person(f"P{n}") for n in range(4)]
    sent = submitted(league)
    part = (Game.Part.MATCH, "Kent v Sussex (U160)")
    play(sent, players[2], "01", players[3], dt.date(2012, 2, 7), part=part, board=2)
    play(sent, players[0], "10", players[1], dt.date(2012, 2, 7), part=part, board=1)
    [match] = event_detail("EMATCH").parts
    assert (match.kind, match.home, match.away) == ("match", "Kent", "Sussex")
    [boards] = match.rounds
    assert [(g.board, g.first.code, g.second.code, g.result_label) for g in boards.games] == [
        (1, ref(players[0]), ref(players[1]), "1-0"),
        (2, ref(players[2]), ref(players[3]), "0-1"),
    ]


def test_games_not_graded_say_why_and_superseded_ones_are_left_out() -> None:
    congress = event("EDEF", dt.date(2012, 3, 10))
    a, b = person("A"), person("B")
    old = submitted(congress, Submission.Status.SUPERSEDED)
    play(old, b, "10", a, dt.date(2012, 3, 10), graded=False, reason="superseded")
    new = submitted(congress)
    play(new, a, "1d", b, dt.date(2012, 3, 10), graded=False, reason="default")
    detail = event_detail("EDEF")
    [game] = [g for part in detail.parts for r in part.rounds for g in r.games]
    assert (game.graded, game.reason_label, game.result_label) == (
        False,
        "Default, bye or walkover",
        "1-0 by default",
    )
    assert (detail.games_graded, detail.games_not_graded) == (0, 1)


def test_a_player_not_yet_identified_shows_the_name_the_file_gave() -> None:
    congress = event("EPEND", dt.date(2012, 3, 17))
    known = person("Known", "K")
    sent = submitted(congress)
    pending = PendingIdentification.objects.create(
        submission=sent, pin=2, name="Newcomer, Nina", date_of_birth=dt.date(2001, 2, 3)
    )
    play(sent, known, "55", pending, dt.date(2012, 3, 17))
    game = event_detail("EPEND").parts[0].rounds[0].games[0]
    assert (game.second.code, game.second.name) == (None, "Newcomer, Nina")
    assert "2001" not in repr(event_detail("EPEND"))  # never a date of birth


def test_an_event_with_no_results_yet_has_no_parts() -> None:
    event("EREG", dt.date(2012, 5, 5), status=Event.Status.REGISTERED)
    detail = event_detail("EREG")
    assert (detail.parts, detail.status_label) == ((), "Registered")


def test_an_event_page_reads_two_queries_whatever_its_size() -> None:
    congress = event("EBIG", dt.date(2012, 4, 1))
    sent = submitted(congress)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            event_detail("EBIG")
        return len(captured.captured_queries)

    play(sent, person("A"), "10", person("B"), dt.date(2012, 4, 1), round=1)
    few = queries()
    for n in range(20):
        play(sent, person(f"C{n}"), "55", person(f"D{n}"), dt.date(2012, 4, 1), round=n % 3 + 1)
    assert queries() == few == 2
