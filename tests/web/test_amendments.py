"""``/amendments/`` (issue 11, item 6): the corrections made between versions of a list,
who made them (the grading team, never a person's address), what changed, why, and the
first published version that carries each; filtered by list and version, paginated,
with its JSON twin; cached, and never stale."""

from __future__ import annotations

import datetime as dt
from typing import Any

import html5lib
import pytest
from django.test import Client
from django.utils import timezone

from ecfgrading.engine.types import Rate
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import Amendment, Event, GradingList, ListVersion, Player
from ecfgrading.services.accounts import create_user
from ecfgrading.services.amendments import record_amendment
from ecfgrading.services.grading.compute import publish_version

pytestmark = pytest.mark.django_db

URL = "/amendments/"
T0 = dt.datetime(2013, 7, 1, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def tess() -> Any:
    return create_user("tess", role=Role.TEAM, email="tess.private@team.example", password="x" * 20)


@pytest.fixture
def bloggs() -> Player:
    return Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")


def draft(list_id: str, rate: str, name: str = "initial") -> None:
    grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate=rate)
    ListVersion.objects.create(grading_list=grading_list, name=name)


def made(amendment: Amendment, at: dt.datetime) -> Amendment:
    Amendment.objects.filter(pk=amendment.pk).update(made_at=at)
    return amendment


@pytest.fixture
def history(tess: Any, bloggs: Player) -> dict[str, Amendment]:
    """Four amendments around the publication of standard 2013-07 initial on 10 July:
    a standard one and one of no rate before it (carried by it), a rapid one before it
    (not carried: another rate), and a standard one after it (waiting)."""
    event = Event.objects.create(
        code="XX123",
        name="Anytown Congress",
        rate="standard",
        start_date=dt.date(2013, 5, 11),
        end_date=dt.date(2013, 5, 12),
    )
    found = {
        "standard": record_amendment(
            what="Grade 150 corrected to 148",
            why="a game of the Anytown Congress counted twice",
            user=tess,
            player=bloggs,
            rate="standard",
        ),
        "any": record_amendment(
            what="Results of round 3 replaced", why="the officer sent them again", event=event
        ),
        "rapid": record_amendment(
            what="Rapid games removed", why="played online", user=tess, rate="rapid"
        ),
    }
    made(found["standard"], T0)
    made(found["any"], T0 + dt.timedelta(days=1))
    made(found["rapid"], T0 + dt.timedelta(days=2))
    draft("2013-07", "standard")
    publish_version("2013-07", Rate.STANDARD, "initial", published_at=T0 + dt.timedelta(days=9))
    found["late"] = made(
        record_amendment(what="Club corrected", why="he moved", player=bloggs, rate="standard"),
        T0 + dt.timedelta(days=20),
    )
    return found


def test_publishing_carries_the_amendments_of_its_rate_made_before_it(
    history: dict[str, Amendment],
) -> None:
    version = ListVersion.objects.get(grading_list__list_id="2013-07")

    carried = {k for k, a in history.items() if Amendment.objects.get(pk=a.pk).version}

    assert carried == {"standard", "any"}
    assert set(version.amendments.all()) == {history["standard"], history["any"]}


def test_the_page_lists_what_why_and_the_version_latest_first(
    history: dict[str, Amendment],
) -> None:
    page = Client().get(URL).content.decode()

    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    assert [r.split('<td data-label="What changed">')[1].split("</td>")[0] for r in rows] == [
        "Club corrected",  # 21 July: waiting
        "Rapid games removed",  # 3 July: another rate, waiting
        "Results of round 3 replaced",  # 2 July: carried
        "Grade 150 corrected to 148",  # 1 July: carried
    ]
    assert "In the next version" in rows[0] and "In the next version" in rows[1]
    assert "Standard 2013-07 initial, published 10 July 2013" in rows[2]
    assert "Standard 2013-07 initial, published 10 July 2013" in rows[3]
    assert '<a href="/players/261619B/">Bloggs, Joe</a> (261619B)' in rows[3]
    assert '<a href="/events/XX123/">Anytown Congress</a>' in rows[2]
    assert "The grading team" in rows[3]
    assert "Amendments 1–4 of 4" in page
    assert "Next version (2)" in page and "Standard 2013-07 initial (2)" in page


def test_no_staff_name_or_address_reaches_the_page_or_its_twin(
    history: dict[str, Amendment],
) -> None:
    client = Client()
    for body in (client.get(URL).content, client.get(URL, {"format": "json"}).content):
        text = body.decode()
        assert "tess" not in text
        assert "@" not in text


def test_filter_by_list_rate_and_version(history: dict[str, Amendment]) -> None:
    client = Client()

    carried = client.get(URL, {"list": "2013-07", "rate": "standard", "version": "initial"})
    waiting = client.get(URL, {"version": "next", "format": "json"}).json()
    rapid = client.get(URL, {"rate": "rapid", "format": "json"}).json()
    nothing = client.get(URL, {"list": "2012-07"}).content.decode()

    page = carried.content.decode()
    assert "Amendments 1–2 of 2" in page and "Club corrected" not in page
    assert [a["what"] for a in waiting["amendments"]] == ["Club corrected", "Rapid games removed"]
    # Rapid: the rapid amendment waits for the next rapid version; nothing is carried yet.
    assert [a["what"] for a in rapid["amendments"]] == ["Rapid games removed"]
    assert "No amendments match" in nothing


def test_the_json_twin_names_the_version_in_iso_dates(history: dict[str, Amendment]) -> None:
    data = Client().get(URL, HTTP_ACCEPT="application/json").json()

    first_carried = data["amendments"][3]
    assert data["page"] == {"page": 1, "per_page": 50, "total": 4, "pages": 1}
    assert data["waiting"] == 2
    assert first_carried["made_on"] == "2013-07-01"
    assert first_carried["by"] == "the grading team"
    assert first_carried["player"] == {"code": "261619B", "name": "Bloggs, Joe"}
    assert first_carried["version"] == {
        "list_id": "2013-07",
        "rate": "standard",
        "name": "initial",
        "published": "2013-07-10",
        "amendments": 2,
    }
    assert data["amendments"][0]["version"] is None
    assert data["amendments"][0]["carried_by"] == "in the next version"


def test_a_new_amendment_shows_at_once_on_the_cached_page(bloggs: Player) -> None:
    client = Client()
    first = client.get(URL)
    assert "No amendments have been made yet" in first.content.decode()

    record_amendment(what="Name spelt Bloggs", why="asked by the player", player=bloggs)
    second = client.get(URL, HTTP_IF_NONE_MATCH=first["ETag"])

    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert "Name spelt Bloggs" in second.content.decode()


def test_fifty_to_a_page(bloggs: Player) -> None:
    for n in range(51):
        made(record_amendment(what=f"change {n}", why="test"), T0 + dt.timedelta(hours=n))
    client = Client()

    first = client.get(URL).content.decode()
    second = client.get(URL, {"page": 2}).content.decode()

    assert "Amendments 1–50 of 51" in first and ">change 50<" in first
    assert ">change 0<" not in first and ">change 0<" in second
    assert "Amendments 51–51 of 51" in second


def test_the_page_is_valid_html(history: dict[str, Amendment]) -> None:
    for query in ("", "?version=next", "?list=2012-07"):
        html5lib.HTMLParser(strict=True).parse(Client().get(URL + query).content.decode())


def test_the_footer_links_the_page() -> None:
    assert f'href="{URL}"' in Client().get("/help/").content.decode()


def test_recording_an_amendment_is_audited_with_the_players_code(tess: Any, bloggs: Player) -> None:
    from ecfgrading.registry.models import AuditLog

    amendment = record_amendment(what="w", why="y", user=tess, player=bloggs)

    entry = AuditLog.objects.get(action="amendment")
    assert entry.object_id == str(amendment.pk) and entry.user == tess
    assert entry.details == {"what": "w", "why": "y", "player": "261619B"}
    assert timezone.is_aware(entry.at)
