"""/events/?season= and /events/<code>/ (issue 9, page 5) on the demo.

Expected events, seasons and counts come from plain queries of the registry's rows: a
season runs 1 June .. 31 May and is named by the two years it spans (the season of its
last day); results replaced by a later submission are not counted.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from typing import Any
from xml.etree.ElementTree import Element

import html5lib
import pytest
from django.db import connection
from django.db.models import Min
from django.test.utils import CaptureQueriesContext

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine import GradingCode
from ecfgrading.engine.periods import season_of
from ecfgrading.registry.models import Event, Game, PendingIdentification, Player, Submission

pytestmark = pytest.mark.django_db

SITE = "ECF Grading Database"
RECEIVED = ("received", "graded")


# Expectations by plain queries ---------------------------------------------------------------


def label(season: int) -> str:
    return f"{season - 1}-{str(season)[2:]}"


def received_by_season() -> dict[str, list[Event]]:
    found: dict[str, list[Event]] = {}
    for event in Event.objects.filter(status__in=RECEIVED):
        found.setdefault(label(season_of(event.end_date)), []).append(event)
    return found


def counts(event: Event) -> tuple[int, int]:
    games = Game.objects.filter(event=event).exclude(not_graded_reason="superseded")
    return games.filter(graded=True).count(), games.filter(graded=False).count()


# Reading pages -------------------------------------------------------------------------------


def parse(html: str) -> Element:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(html)


def text(element: Element | None) -> str:
    assert element is not None
    return " ".join("".join(element.itertext()).split())


def page(client: Any, path: str) -> Element:
    response = client.get(path)
    assert response.status_code == 200, response.content[:500]
    return parse(response.content.decode())


def event_rows(doc: Element) -> dict[str, list[str]]:
    """Event code -> the texts of its row's cells."""
    rows = {}
    for row in doc.findall(".//table[@class='events sticky']/tbody/tr"):
        name = row.find("th[@class='name']")
        if name is not None:
            code = text(name.find("span[@class='code']"))
            rows[code] = [text(cell) for cell in row.findall("td")]
    return rows


def json_of(client: Any, path: str) -> Any:
    response = client.get(path, HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return json.loads(response.content)


# Events received -----------------------------------------------------------------------------


def test_the_latest_season_with_events_received_is_shown_first(client, demo: DemoSummary) -> None:
    by_season = received_by_season()
    latest = max(by_season)
    expected = by_season[latest]

    doc = page(client, "/events/")

    assert text(doc.find(".//h1")) == f"Events received for grading, {latest}"
    assert text(doc.find(".//title")) == f"Events received {latest} - {SITE}"
    shown = event_rows(doc)
    assert len(shown) == min(50, len(expected))
    assert set(shown) <= {e.code for e in expected}
    seasons = [text(item) for item in doc.findall(".//nav[@class='seasons']//li")]
    assert seasons == [f"{s} ({len(by_season[s])})" for s in sorted(by_season, reverse=True)]


def test_a_season_lists_its_events_with_dates_rate_kind_games_and_status(
    client, demo: DemoSummary
) -> None:
    season, events = "2010-11", received_by_season()["2010-11"]
    assert len(events) <= 50

    shown = event_rows(page(client, f"/events/?season={season}"))

    assert set(shown) == {e.code for e in events}
    for event in events:
        dates, rate, kind, graded, not_graded, status = shown[event.code]
        assert (int(graded), int(not_graded)) == counts(event), event.code
        assert str(event.end_date.year) in dates
        assert kind == event.get_kind_display()
        assert rate.startswith(event.rate if event.rate != "none" else "not graded")
        assert status == event.get_status_display()


def test_events_are_grouped_by_month_latest_first(client, demo: DemoSummary) -> None:
    season = "2010-11"
    doc = page(client, f"/events/?season={season}")
    months = [text(th) for th in doc.findall(".//tbody/tr/th[@scope='rowgroup']")]
    events = sorted(received_by_season()[season], key=lambda e: e.end_date, reverse=True)
    expected = list(dict.fromkeys(f"{e.end_date:%B %Y}" for e in events))
    assert months == expected


def test_events_sort_by_name(client, demo: DemoSummary) -> None:
    doc = page(client, "/events/?season=2010-11&sort=name")
    names = [text(th.find("a")) for th in doc.findall(".//tbody/tr/th[@class='name']")]
    assert names == sorted(names, key=str.lower)
    header = doc.find(".//thead/tr/th[@aria-sort]")
    assert text(header) == "Event" and header.get("aria-sort") == "ascending"  # type: ignore[union-attr]


def test_a_games_superseded_submission_is_not_counted(client, demo: DemoSummary) -> None:
    replaced = Game.objects.filter(not_graded_reason="superseded").values_list("event", flat=True)
    event = Event.objects.filter(id__in=replaced, status__in=RECEIVED).first()
    assert event is not None  # the demo sends one event twice
    shown = event_rows(page(client, f"/events/?season={label(season_of(event.end_date))}"))
    graded, not_graded = counts(event)
    assert shown[event.code][3:5] == [str(graded), str(not_graded)]
    everything = Game.objects.filter(event=event).count()
    assert graded + not_graded < everything


def test_registered_events_without_results_are_not_listed(client, demo: DemoSummary) -> None:
    waiting = Event.objects.filter(status="registered").first()
    assert waiting is not None
    season = label(season_of(waiting.end_date))
    assert waiting.code not in event_rows(page(client, f"/events/?season={season}"))


def test_the_events_list_has_a_json_twin(client, demo: DemoSummary) -> None:
    data = json_of(client, "/events/?season=2010-11")
    events = received_by_season()["2010-11"]
    assert data["season"] == "2010-11"
    assert {e["code"] for e in data["events"]} == {e.code for e in events}
    first = data["events"][0]
    event = Event.objects.get(code=first["code"])
    assert (first["games_graded"], first["games_not_graded"]) == counts(event)
    assert first["end_date"] == event.end_date.isoformat()
    assert "officer_name" not in first


def test_the_events_twins_are_the_apis_answers(client, demo: DemoSummary) -> None:
    """One representation per fact: the page's twin names every fact as /api/v1 does."""
    event = Event.objects.filter(status__in=RECEIVED).order_by("code")[0]

    assert json_of(client, "/events/?season=2010-11&sort=name") == (
        client.get("/api/v1/events", {"season": "2010-11", "sort": "name"}).json()
    )
    assert json_of(client, f"/events/{event.code}/") == (
        client.get(f"/api/v1/events/{event.code}").json()
    )


def test_a_season_not_written_like_2011_12_is_a_400(client, demo: DemoSummary) -> None:
    response = client.get("/events/?season=2011")
    assert response.status_code == 400  # a request not understood (tests/web/test_errors.py)
    assert "2011-12" in response.content.decode()


# One event -----------------------------------------------------------------------------------


def test_an_event_of_matches_shows_each_match_by_board_with_its_teams(
    client, demo: DemoSummary
) -> None:
    event = Event.objects.filter(kind="county-match", status__in=RECEIVED).order_by("code")[0]
    games = Game.objects.filter(event=event).exclude(not_graded_reason="superseded")
    per_match = Counter(games.values_list("part_name", flat=True))

    doc = page(client, f"/events/{event.code}/")

    assert text(doc.find(".//h1")) == event.name
    assert text(doc.find(".//title")) == f"{event.name} ({event.code}) - {SITE}"
    sections = doc.findall(".//section[@class='part']")
    assert [text(s.find("h2")) for s in sections] == [f"Match: {name}" for name in per_match]
    for section, (name, played) in zip(sections, per_match.items(), strict=True):
        home, _, away = name.partition(" v ")
        headers = [text(th) for th in section.findall(".//thead/tr/th")]
        assert headers[:4] == ["Board", home, "Result", away.split(" (")[0]]
        boards = [text(row.find("td")) for row in section.findall(".//tbody/tr")]
        assert len(boards) == played
        assert boards == sorted(boards, key=int)


def test_every_identified_player_of_an_event_is_linked(client, demo: DemoSummary) -> None:
    event = Event.objects.filter(kind="congress", status__in=RECEIVED).order_by("code")[0]
    games = Game.objects.filter(event=event).exclude(not_graded_reason="superseded")
    codes = set()
    for one, two in games.values_list("player1__code", "player2__code"):
        codes |= {str(GradingCode(c)) for c in (one, two) if c is not None}

    doc = page(client, f"/events/{event.code}/")

    links = {a.get("href") for a in doc.findall(".//section//td[@class='player first']/a")}
    links |= {a.get("href") for a in doc.findall(".//section//td[@class='player second']/a")}
    assert links == {f"/players/{code}/" for code in codes}


def test_section_results_come_round_by_round(client, demo: DemoSummary) -> None:
    sections = Game.objects.filter(part_kind="section", round__isnull=False)
    event = Event.objects.get(id=sections.values_list("event", flat=True).first())
    games = sections.filter(event=event).exclude(not_graded_reason="superseded")
    first_seen = dict(
        games.values_list("part_name")
        .annotate(first=Min("sequence"))
        .values_list("part_name", "first")
    )
    parts = sorted(first_seen, key=first_seen.__getitem__)  # in the order the file gave them
    rounds = [
        (name, n)
        for name in parts
        for n in sorted(set(games.filter(part_name=name).values_list("round", flat=True)))
    ]

    doc = page(client, f"/events/{event.code}/")

    captions = [text(c) for c in doc.findall(".//table[@class='games']/caption")]
    assert [c.split(",")[:2] for c in captions] == [[name, f" round {n}"] for name, n in rounds]


def test_games_not_graded_are_marked_with_their_reason(client, demo: DemoSummary) -> None:
    game = Game.objects.filter(not_graded_reason="default").select_related("event").first()
    assert game is not None
    doc = page(client, f"/events/{game.event.code}/")
    marked = doc.findall(".//tr[@class='not-graded']")
    assert marked
    assert all("not graded: default, bye or walkover" in text(row) for row in marked)


def test_a_player_not_yet_identified_is_named_without_a_link(client, demo: DemoSummary) -> None:
    event = Event.objects.create(
        code="PEND01", name="Pending Open", rate="standard", start_date=dt.date(2012, 3, 3),
        end_date=dt.date(2012, 3, 3), status="received",
    )  # fmt: skip
    sent = Submission.objects.create(event=event, event_code="PEND01", raw=b"", sha256="0")
    pending = PendingIdentification.objects.create(
        submission=sent, pin=2, name="Newcomer, Nina", date_of_birth=dt.date(2001, 2, 3)
    )
    known = Player.objects.order_by("code").first()
    Game.objects.create(
        event=event, submission=sent, player1=known, pending2=pending, result="55",
        game_date=dt.date(2012, 3, 3), rate="standard", graded=True, line=9,
        sequence=10**12, part_kind="section", part_name="Open", round=1,
    )  # fmt: skip

    doc = page(client, "/events/PEND01/")

    [second] = doc.findall(".//td[@class='player second']")
    assert second.find("a") is None
    assert text(second) == "Newcomer, Nina (not yet identified)"
    assert "2001" not in text(doc)


def test_an_event_page_has_a_json_twin_without_private_fields(client, demo: DemoSummary) -> None:
    event = Event.objects.filter(kind="county-match", status__in=RECEIVED).order_by("code")[0]
    data = json_of(client, f"/events/{event.code}/")
    assert (data["code"], data["name"], data["start_date"]) == (
        event.code,
        event.name,
        event.start_date.isoformat(),
    )
    assert (data["games_graded"], data["games_not_graded"]) == counts(event)
    assert "officer_name" not in json.dumps(data) and "address" not in json.dumps(data)
    game = data["parts"][0]["rounds"][0]["games"][0]
    assert set(game["first"]) == {"code", "name"}


def test_unknown_events_are_404_pages_and_small_letters_move(client, demo: DemoSummary) -> None:
    assert client.get("/events/NOPE123/").status_code == 404
    event = Event.objects.filter(status__in=RECEIVED).order_by("code")[0]
    response = client.get(f"/events/{event.code.lower()}/")
    assert response.status_code == 301
    assert response["Location"] == f"/events/{event.code}/"


def test_pages_read_a_few_queries_whatever_their_length(client, demo: DemoSummary) -> None:
    def queries(path: str) -> int:
        from django.core.cache import cache

        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(path).status_code == 200
        return len([q for q in captured.captured_queries if "web_cache" not in q["sql"]
                    and not q["sql"].startswith(("SAVEPOINT", "RELEASE"))])  # fmt: skip

    sizes = Counter(Game.objects.values_list("event__code", flat=True))
    small, large = min(sizes, key=sizes.get), max(sizes, key=sizes.get)  # type: ignore[arg-type]
    assert sizes[large] > 10 * sizes[small]
    # The data token, the event's code, the event, its games.
    assert queries(f"/events/{small}/") == queries(f"/events/{large}/") <= 4
    # The data token, the seasons, the count, the page of events, their games counted.
    assert queries("/events/?season=2010-11") <= 5
