"""Association codes on the demo (issue 22): every county's four-character code is on its
page, its JSON twin and /api/v1, and is each of its clubs' ``assoc_code`` in the
federation's ``clubs/all_active``, which Chess League Manager filters by a four-character
unit code (research notes: it keeps the clubs whose ``assoc_code`` equals the unit).

Expected values come from plain registry queries: the counties' rows, the clubs' county
links, and the C2 rule written out (a membership stands when it began by the season S of
the latest list and was last quoted in S, S-1 or S-2).
"""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree.ElementTree import Element

import html5lib
import pytest
from django.test import Client
from django.urls import reverse

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.registry.models import Club, ClubMembership, County, ListVersion
from tests.services.test_import_state import edit_club

pytestmark = pytest.mark.django_db

CODE = re.compile(r"[A-Z0-9]{4}")


def all_active(client: Client) -> list[dict[str, Any]]:
    response = client.get("/v2/new/api.php?v2/clubs/all_active")
    assert response.status_code == 200, response.content[:300]
    clubs: list[dict[str, Any]] = json.loads(response.content)["clubs"]
    return clubs


def latest_season() -> int:
    """The season (the year it ends) of the latest published list."""
    latest = (
        ListVersion.objects.filter(status="published")
        .order_by("-grading_list__list_id")
        .values_list("grading_list__list_id", flat=True)[0]
    )
    return int(latest[:4])


def active_club_codes(county: County) -> set[str]:
    """The county's coded clubs (not locations, not merged away) that a membership not
    lapsed by the latest season quotes (C2)."""
    season = latest_season()
    quoted = ClubMembership.objects.filter(
        first_season__lte=season, last_season__gt=season - 3, club__county=county,
        club__code__isnull=False, club__is_location=False, club__merged_into__isnull=True,
    )  # fmt: skip
    return set(quoted.values_list("club__code", flat=True))


def county_key(name: str) -> str:
    """The page's address: the demo's county names are plain words."""
    return "-".join(re.findall(r"[a-z0-9]+", name.lower()))


def parse(html: str) -> Element:
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(html)


def facts(doc: Element) -> dict[str, str]:
    """A page's <dl class="facts"> terms and their descriptions, as plain text."""
    found: dict[str, str] = {}
    for dl in doc.iter("dl"):
        if dl.get("class") != "facts":
            continue
        terms = [" ".join("".join(e.itertext()).split()) for e in dl if e.tag in ("dt", "dd")]
        found.update(zip(terms[::2], terms[1::2], strict=True))
    return found


def test_every_county_has_its_own_code_of_four_capitals_or_digits(demo: DemoSummary) -> None:
    codes = list(County.objects.values_list("code", flat=True))
    assert len(codes) >= 2
    assert all(CODE.fullmatch(code) for code in codes), codes
    assert len(set(codes)) == len(codes)


def test_a_clubs_assoc_code_is_its_countys_code(client: Client, demo: DemoSummary) -> None:
    clubs = all_active(client)
    with_county = 0
    for club in clubs:
        row = Club.objects.select_related("county").get(code=club["club_code"])
        if row.county is None:
            assert (club["assoc_code"], club["assoc_name"]) == (None, None)
            continue
        with_county += 1
        assert club["assoc_code"] == row.county.code, club
        assert len(club["assoc_code"]) == 4
        assert club["assoc_name"] == row.county.name
    assert with_county >= len(clubs) // 2  # most clubs' results files named the county


def test_filtering_by_one_countys_code_gives_exactly_its_clubs(
    client: Client, demo: DemoSummary
) -> None:
    """Chess League Manager's import: a unit of four characters, then the clubs whose
    assoc_code equals it."""
    clubs = all_active(client)
    found_any = False
    for county in County.objects.all():
        unit = county.code
        assert len(unit) == 4
        imported = {club["club_code"] for club in clubs if club["assoc_code"] == unit}
        assert imported == active_club_codes(county), county.name
        found_any = found_any or bool(imported)
    assert found_any


def test_the_county_page_and_its_json_twin_show_the_code(client: Client, demo: DemoSummary) -> None:
    for county in County.objects.all():
        path = f"/counties/{county_key(county.name)}/"
        response = client.get(path)
        assert response.status_code == 200
        assert facts(parse(response.content.decode()))["Association code"].startswith(
            f"{county.code} "
        )
        team = parse(client.get(f"{path}?team=1").content.decode())
        assert facts(team)["Association code"].startswith(f"{county.code} ")
        twin = json.loads(client.get(path, HTTP_ACCEPT="application/json").content)
        assert (twin["county"]["code"], twin["county"]["name"]) == (county.code, county.name)


def test_a_county_is_found_at_its_code_too(client: Client, demo: DemoSummary) -> None:
    county = County.objects.order_by("name").first()
    assert county is not None
    key = county_key(county.name)
    response = client.get(f"/counties/{county.code}/?team=1")
    assert response.status_code == 301
    assert response["Location"] == f"/counties/{key}/?team=1"
    assert client.get(f"/counties/{county.code.lower()}/").status_code in (200, 301)


def test_the_api_describes_a_county_with_its_code(client: Client, demo: DemoSummary) -> None:
    county = County.objects.order_by("name").first()
    assert county is not None
    key = county_key(county.name)
    for address in (key, county.code):
        answer = json.loads(client.get(f"/api/v1/counties/{address}").content)
        assert (answer["key"], answer["code"], answer["name"]) == (key, county.code, county.name)
    club = Club.objects.filter(county=county, code__isnull=False).first()
    assert club is not None
    answer = json.loads(client.get(f"/api/v1/clubs/{club.code}").content)
    assert answer["county"]["code"] == county.code


def test_a_code_edited_in_the_admin_shows_on_the_next_request(
    client: Client, admin_client: Client, demo: DemoSummary
) -> None:
    county = County.objects.order_by("name").first()
    assert county is not None
    path = f"/counties/{county_key(county.name)}/"
    assert facts(parse(client.get(path).content.decode()))["Association code"].startswith(
        f"{county.code} "
    )  # and now the page and the club index are cached under the data token
    new = "ZZ99" if county.code != "ZZ99" else "ZZ98"

    change = reverse("admin:registry_county_change", args=[county.pk])
    response = admin_client.post(change, {"name": county.name, "code": new})

    assert response.status_code == 302, response.content.decode()[:500]
    shown = facts(parse(client.get(path).content.decode()))["Association code"]
    assert shown.startswith(f"{new} ")
    clubs = {c["club_code"] for c in all_active(client) if c["assoc_code"] == new}
    assert clubs == active_club_codes(county)


def test_a_club_renamed_in_the_admin_shows_on_the_next_request(
    client: Client, admin_client: Client, demo: DemoSummary
) -> None:
    """A club's name is no id that grows: the admin's note of the change (ClubChange)
    moves the data token, so the club's page, cached under the old one, is made anew."""
    club = Club.objects.filter(code__isnull=False, memberships__isnull=False).first()
    assert club is not None and club.code is not None
    path = f"/clubs/{club.code}/"
    heading = parse(client.get(path).content.decode()).find(".//h1")
    assert heading is not None and club.name in "".join(heading.itertext())  # now cached
    edit_club(admin_client, club, name="Renamed Chess Club")
    heading = parse(client.get(path).content.decode()).find(".//h1")
    assert heading is not None and "Renamed Chess Club" in "".join(heading.itertext())
